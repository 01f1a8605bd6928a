; The chess clocks: ten minutes a side, exact to real time, shown as m:ss in
; the board screen's panel (include/layout.inc).
;
; Time is counted in machine cycles, not in frames: the DMG makes 59.7275
; frames a second, not 60 (a frame is CYCLES_PER_FRAME = 17,556 machine
; cycles, a second CYCLES_PER_SECOND = 1,048,576 = $100000). At every VBlank
; the handler (home/vblank.asm) calls TickClocks, which adds a frame's cycles
; to the running side's count and takes a second off its clock each time the
; count passes a second, keeping the rest: so the clock loses no fraction of
; a second, and ten minutes on it are 35,836.04 frames, ending at the first
; VBlank after them (within a frame, 17 ms, of the true time). Since the
; handler runs from an interrupt, the clock runs and the flag falls while the
; main loop is busy (an engine search of seconds).
;
; A clock started between two VBlanks is charged the whole of the next frame:
; each start may cost its side up to one frame.
;
; The seconds a clock holds are what it shows, rounded up: 10:00 until the
; first second has passed, 0:00 when the time is up, at which moment the flag
; falls (wFlagFell) and the clocks stop. See include/clock.inc.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"
INCLUDE "include/charmap.inc"
INCLUDE "include/chess.inc"
INCLUDE "include/layout.inc"
INCLUDE "include/game.inc"
INCLUDE "include/clock.inc"


DEF CYCLES_PER_FRAME  EQU 17556
DEF CYCLES_PER_SECOND EQU 1048576
ASSERT CYCLES_PER_FRAME < $10000, "a frame's cycles are added as 16 bits"
ASSERT CYCLES_PER_SECOND & $FFFF == 0, "a second is compared in the count's top byte alone"
DEF SECOND_TOP_BYTE   EQU CYCLES_PER_SECOND >> 16

; A clock shows m:ss with a blank before minutes under 10: 5 tiles.
DEF CLOCK_TEXT_LENGTH EQU 5
ASSERT CLOCK_START_SECONDS < 100 * 60, "a clock shows two digits of minutes"
ASSERT CLOCK_TEXT_LENGTH <= CLOCK_WIDTH

DEF CLOCK_TOP_MAP     EQU TILEMAP0 + CLOCK_TOP_Y * TILEMAP_WIDTH + CLOCK_X
DEF CLOCK_BOTTOM_MAP  EQU TILEMAP0 + CLOCK_BOTTOM_Y * TILEMAP_WIDTH + CLOCK_X

; What wClockShown holds when a clock must be drawn whatever its time.
DEF CLOCK_NOT_SHOWN   EQU $FFFF


; Aligned so that a side's entry is found by adding to the low byte alone.
SECTION "Clocks", WRAM0, ALIGN[4]

; Per side (COLOR_WHITE first): the cycles counted towards its next second,
; 24 bits little-endian, below CYCLES_PER_SECOND.
wClockCycles:
	ds 3 * NUM_COLORS
; Per side: the seconds left, 16 bits little-endian, rounded up.
wClockSeconds::
	ds 2 * NUM_COLORS
wClockSide::
	db
wFlagFell::
	db
; Per side: the seconds its clock shows on the screen (or will once the
; VRAM queue has copied them), CLOCK_NOT_SHOWN to draw it anew.
wClockShown:
	ds 2 * NUM_COLORS
ASSERT @ - wClockCycles <= 16, "the clocks' entries must not cross an aligned 16 bytes"

SECTION "Clock text", WRAM0

; m:ss of the clock being drawn.
wClockText:
	ds CLOCK_TEXT_LENGTH


SECTION "Clocks code", ROM0

;; Sets both clocks to CLOCK_START_SECONDS, stopped, no flag fallen, and
;; makes DrawClocks draw both.
;; @destroys af, b, hl
ResetClocks::
	ld hl, wClockCycles
	xor a
	ld b, 3 * NUM_COLORS
.cycles
	ld [hli], a
	dec b
	jr nz, .cycles
	ASSERT wClockSeconds == wClockCycles + 3 * NUM_COLORS
	REPT NUM_COLORS
		ld a, LOW(CLOCK_START_SECONDS)
		ld [hli], a
		ld a, HIGH(CLOCK_START_SECONDS)
		ld [hli], a
	ENDR
	ASSERT wClockSide == wClockSeconds + 2 * NUM_COLORS
	ld a, CLOCK_STOPPED
	ld [hli], a
	ASSERT wFlagFell == wClockSide + 1
	ASSERT FLAG_FELL_NONE == 0
	xor a
	ld [hli], a
	fallthrough RedrawClocks


;; Makes DrawClocks draw both clocks anew (the board has turned round: they
;; change rows).
;; @destroys af, b, hl
RedrawClocks::
	ld hl, wClockShown
	ld a, $FF
	ASSERT CLOCK_NOT_SHOWN == $FFFF
	ld b, 2 * NUM_COLORS
.shown
	ld [hli], a
	dec b
	jr nz, .shown
	ret


;; Runs the clock of the side wClockSide names for one frame: called by the
;; VBlank handler at every VBlank. When that side's time is up, sets
;; wFlagFell and stops the clocks. Nothing when they are stopped.
;; Machine cycles, its call included: 17 stopped, 48 running, 71 when a second
;; passes, 84 when the flag falls (cartridge_tests/clock.rs).
;; @destroys af, bc, hl
TickClocks::
	ld a, [wClockSide]
	cp NUM_COLORS
	ret nc
	; hl: the side's cycles, wClockCycles + 3 * side; b: the side
	ld b, a
	add a
	add b
	add LOW(wClockCycles)
	ld l, a
	ld h, HIGH(wClockCycles)
	ld a, [hl]
	add LOW(CYCLES_PER_FRAME)
	ld [hli], a
	ld a, [hl]
	adc HIGH(CYCLES_PER_FRAME)
	ld [hli], a
	ld a, [hl]
	adc 0
	cp SECOND_TOP_BYTE
	jr nc, .second
	ld [hl], a
	ret

.second
	sub SECOND_TOP_BYTE
	ld [hl], a
	; hl: the side's seconds, wClockSeconds + 2 * side
	ld a, b
	add a
	add LOW(wClockSeconds)
	ld l, a
	ld a, [hl]
	sub 1
	ld [hli], a
	ld a, [hl]
	sbc 0
	ld [hld], a
	or [hl]
	ret nz
	; 0:00: the flag falls, the clocks stop.
	ASSERT FLAG_FELL_WHITE == COLOR_WHITE + 1 && FLAG_FELL_BLACK == COLOR_BLACK + 1
	inc b
	ld a, b
	ld [wFlagFell], a
	ld a, CLOCK_STOPPED
	ld [wClockSide], a
	ret


;; The seconds left on a side's clock, read whole: the VBlank handler, which
;; changes them, is held off between the two bytes (a few cycles).
;; Call with interrupts enabled: it returns with them enabled.
;; @param a: the side (COLOR_*)
;; @return hl: its seconds
;; @destroys af
ReadClockSeconds::
	add a
	add LOW(wClockSeconds)
	ld l, a
	ld h, HIGH(wClockSeconds)
	di
	ld a, [hli]
	ld h, [hl]
	ei
	ld l, a
	ret


;; Draws each clock whose seconds differ from what it shows, as m:ss in its
;; row of the panel (the bottom row for the side at the bottom of the board:
;; Black when the human plays Black, else White), through the VRAM queue.
;; Call once a frame on the board screen, with interrupts enabled.
;; Most frames neither has changed: both are compared at once first, the
;; VBlank handler held off (48 machine cycles with the call then, not 112: it
;; runs in every frame of the engine's search).
;; @destroys af, bc, de, hl
DrawClocks::
	ASSERT wClockShown == wClockSeconds + 2 * NUM_COLORS + 2
	ld hl, wClockSeconds
	ld de, wClockShown
	di
	REPT 2 * NUM_COLORS - 1
		ld a, [de]
		cp [hl]
		jr nz, .changed
		inc e
		inc l
	ENDR
	ld a, [de]
	cp [hl]
	ei
	ret z
.changed
	ei
	ld a, COLOR_WHITE
	call DrawClock
	ld a, COLOR_BLACK
	fallthrough DrawClock


;; Draws one clock if its seconds have changed since it was last drawn.
;; @param a: the side (COLOR_*)
;; @destroys af, bc, de, hl
DrawClock:
	ld b, a
	call ReadClockSeconds
	; de: wClockShown of the side
	ld a, b
	add a
	add LOW(wClockShown)
	ld e, a
	ld d, HIGH(wClockShown)
	ld a, [de]
	cp l
	jr nz, .changed
	inc e
	ld a, [de]
	cp h
	ret z
	dec e
.changed
	ld a, l
	ld [de], a
	inc e
	ld a, h
	ld [de], a
	push bc

	; hl: minutes (b) and seconds (a), by taking 60 as often as it goes
	ld b, -1
.minute
	inc b
	ld a, l
	sub 60
	ld l, a
	jr nc, .minute
	dec h
	bit 7, h
	jr z, .minute
	add 60

	; m:ss, a blank before minutes under 10
	ld hl, wClockText + CLOCK_TEXT_LENGTH - 1
	call SplitTens
	add '0'
	ld [hld], a
	ld a, c
	add '0'
	ld [hld], a
	ld a, ':'
	ld [hld], a
	ld a, b
	call SplitTens
	add '0'
	ld [hld], a
	ld a, c
	and a
	ld a, ' '
	jr z, .gotTens
	ld a, c
	add '0'
.gotTens
	ld [hl], a

	; The side at the bottom of the board has the bottom row.
	pop bc
	ld a, [wGameMode]
	cp GAME_MODE_BLACK
	ld a, COLOR_BLACK
	jr z, .gotBottom
	ld a, COLOR_WHITE
.gotBottom
	cp b
	ld hl, CLOCK_BOTTOM_MAP
	jr z, .gotRow
	ld hl, CLOCK_TOP_MAP
.gotRow
	ld de, wClockText
	ld c, CLOCK_TEXT_LENGTH
	jp QueueTiles


; A clock's whole state is the frames it has run: TickClocks adds
; CYCLES_PER_FRAME a frame, and a second goes each time the count passes
; CYCLES_PER_SECOND. ClockFramesUsed and SetClockFramesUsed turn one into the
; other (the take back keeps a clock as its frames, ui/take_back.asm).
ASSERT SECOND_TOP_BYTE == $10
ASSERT CLOCK_START_SECONDS * CYCLES_PER_SECOND / CYCLES_PER_FRAME < $10000, "a clock's frames do not fit 16 bits"
ASSERT CYCLES_PER_FRAME % 4 == 0 && (CYCLES_PER_FRAME / 4) % 2 == 1
; The inverse of CYCLES_PER_FRAME / 4 modulo 2^16 (Newton's steps, each
; doubling the bits that are right, from the number itself, right in 3).
DEF CLOCK_FRAMES_FACTOR = CYCLES_PER_FRAME / 4
REPT 4
	DEF CLOCK_FRAMES_FACTOR = (CLOCK_FRAMES_FACTOR * (2 - CYCLES_PER_FRAME / 4 * CLOCK_FRAMES_FACTOR)) & $FFFF
ENDR
ASSERT (CLOCK_FRAMES_FACTOR * (CYCLES_PER_FRAME / 4)) & $FFFF == 1
ASSERT HIGH(wClockCycles) == HIGH(wClockSeconds + 2 * NUM_COLORS - 1)


SECTION "Clock frames", ROMX

;; The address of a side's cycles, wClockCycles + 3 * side.
;; @param a: the side (COLOR_*)
;; @return hl: its cycles; c: the side
;; @destroys af
ClockCyclesAddress:
	ld c, a
	add a
	add c
	add LOW(wClockCycles)
	ld l, a
	ld h, HIGH(wClockCycles)
	ret


;; The frames a side's clock has run since the start of the game, from its
;; cycles alone: they are frames * CYCLES_PER_FRAME modulo CYCLES_PER_SECOND,
;; and CYCLES_PER_FRAME is 4 times an odd number, so the cycles / 4 times that
;; number's inverse modulo 2^16 (CLOCK_FRAMES_FACTOR) give the frames, which
;; are below 2^16. Call with that clock stopped.
;; @param a: the side (COLOR_*)
;; @return hl: its frames
;; @destroys af, bc, de
ClockFramesUsed::
	call ClockCyclesAddress
	; bc: the cycles / 4, their 16 low bits
	ld a, [hli]
	ld c, a
	ld a, [hli]
	ld b, a
	ld a, [hl]
	; (rra's carry into a's top bit is dropped with a)
	REPT 2
		rra
		rr b
		rr c
	ENDR
	ld de, CLOCK_FRAMES_FACTOR
	fallthrough Multiply


;; The product of two 16-bit numbers (a bit of de a round, from the top: de
;; shifts out as the product's high half shifts in).
;; @param bc, de: the factors
;; @return de, hl: bc * de, its high 16 bits and its low 16 bits
;; @destroys af
Multiply:
	ld hl, 0
	ld a, 16
.bit
	add hl, hl
	rl e
	rl d
	jr nc, .next
	add hl, bc
	jr nc, .next
	inc de
.next
	dec a
	jr nz, .bit
	ret


;; Sets a side's clock to where it is after running a number of frames from
;; the start of the game (ClockFramesUsed undone); DrawClocks draws its
;; seconds when they differ from those shown. Call with that clock stopped.
;; @param a: the side (COLOR_*)
;; @param de: the frames
;; @destroys af, bc, de, hl
SetClockFramesUsed::
	push af
	; de, hl: the cycles, frames * CYCLES_PER_FRAME
	ld bc, CYCLES_PER_FRAME
	call Multiply
	; The cycles below a second: l, h and e's low 4 bits; the seconds used:
	; de >> 4.
	pop af
	push de
	push hl
	call ClockCyclesAddress
	pop de
	ld [hl], e
	inc hl
	ld [hl], d
	inc hl
	pop de
	ld a, e
	and SECOND_TOP_BYTE - 1
	ld [hl], a
	ld b, 4
.second
	srl d
	rr e
	dec b
	jr nz, .second
	; The seconds left.
	ld a, c
	add a
	add LOW(wClockSeconds)
	ld l, a
	ld a, LOW(CLOCK_START_SECONDS)
	sub e
	ld [hli], a
	ld a, HIGH(CLOCK_START_SECONDS)
	sbc d
	ld [hl], a
	ret
