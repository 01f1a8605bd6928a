; The VBlank interrupt handler, the VRAM queue it copies, and the main loop's
; frame wait.
;
; Once per frame the handler copies the shadow registers kept in HRAM to the
; hardware, runs OAM DMA from wShadowOAM (during the engine's search only when
; it has changed: hOAMSource), copies what the VRAM queue holds (as
; much as fits, see below), runs the chess clock (ui/clock.asm), reads the
; joypad and counts the frame. The music plays from the STAT interrupt at line
; 1 (stat.asm), after VBlank.
; The rest of the program never writes the LCD registers below directly while
; the LCD is on: it writes the shadows, and the change shows from the next frame.
;
; The VRAM queue
; --------------
; With the LCD on, the screens change the tile map only through this queue, so
; that a change shows at the next VBlank however busy the main loop is (an
; engine search runs for seconds). The queue is a ring of 256 bytes in
; wVramQueue, aligned so that its indices are one byte and wrap by themselves.
; Each entry is
;   - a copy: the length n (1 to VRAM_QUEUE_MAX_LENGTH), the VRAM address
;     (little-endian), then the n bytes to write there;
;   - a fill: the length n with VRAM_QUEUE_FILL set, the VRAM address, then
;     the one byte to write n times.
; QueueTiles, QueueString and QueueFill add entries; longer runs become several
; entries. The handler copies whole entries (CopyVramQueue), oldest first, as
; long as they fit its budget of VRAM_QUEUE_BUDGET a VBlank, an entry counting
; its length plus VRAM_QUEUE_ENTRY_COST for its own handling. An entry that
; does not fit waits for the next VBlank: so a change larger than the budget
; shows over several frames, but every VBlank ends in time.
;
; When the queue has no room for an entry, the producer waits: with the LCD on,
; in `halt`, for the handler to free some; with the LCD off (a screen's set-up)
; no VBlank comes, so it copies the oldest entries to VRAM itself, which is then
; free to write. With the LCD on, interrupts must be enabled when a producer is
; called: with IME off, `halt` would return at VBlank without the handler
; running, the queue would never empty, and the next `halt`, with the VBlank
; request still pending, would hit the DMG's halt bug. The producer cannot
; tell (IME cannot be read), so this is the caller's to keep; the screens'
; updates run with interrupts enabled.
;
; Timing (exact machine cycles, measured by the cartridge tests): with the
; queue empty the handler takes 366 cycles from its first instruction to its
; `reti` with the chess clocks stopped, no key pressed and no game on the
; screen, 397 with a clock running (TickClocks, ui/clock.asm, 17 cycles
; stopped, 48 running, 84 when a flag falls; the game's check, 7; ReadJoypad,
; home/joypad.asm, 73 without a new press, 89 at most); at worst, with the
; queue full of the longest copies (one of 68 bytes fills the budget of 72), a
; flag falling and a key pressed, 1,108. VBlank lasts 1,140 (10 lines of 114),
; and the handler starts 10 cycles into it when the main loop waits in
; WaitVBlank (waking from `halt`, the interrupt dispatch, the jump at $0040):
; so it returns 22 cycles before VBlank ends, room for the few cycles a busy
; main loop or a short `di` (ReadClockSeconds) can delay it. Every queued byte is
; written in VBlank, and the STAT interrupt still finds the CPU free at line
; 1. The budget is 72 rather than 80 to leave the clock its cycles within
; VBlank. During a game the handler also calls GameVBlank (ui/game.asm) last,
; which writes no VRAM: it may end after VBlank. During the engine's search
; the OAM DMA (168 cycles, 174 with its call) runs only in the frames after the
; thinking sign moved (hOAMSource, home/oam_dma.asm): the search has the rest.

; The producer (a screen's update, in the main loop) and the consumer (this
; handler, which can run between any two instructions of the producer) share
; the ring safely: CopyVramQueue alone writes hVramQueueRead (but for
; ClearVramQueue, see there), the producer alone hVramQueueWrite. The producer
; runs CopyVramQueue itself only with the LCD off, when no VBlank interrupt can
; run the handler beside it (the request left pending when TurnLCDOff switches
; the LCD off is handled at its `ei`, before any set-up runs; Start clears rIF
; before its `ei`). The producer writes a whole entry into the free part of the
; ring first and publishes it last, by storing the new hVramQueueWrite (one
; write, so the handler sees the entry either whole or not at all). The handler
; only ever frees room, so the room the producer found stays free. One byte of
; the ring always stays unused, so that a full queue is not mistaken for an
; empty one.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"


DEF VRAM_QUEUE_SIZE         EQU 256
; An entry's length and address bytes
DEF VRAM_QUEUE_HEADER_SIZE  EQU 3
; In an entry's first byte: the entry is a fill
DEF B_VRAM_QUEUE_FILL       EQU 7
DEF VRAM_QUEUE_FILL         EQU 1 << B_VRAM_QUEUE_FILL
DEF VRAM_QUEUE_LENGTH_MASK  EQU VRAM_QUEUE_FILL - 1
; What the handler copies in one VBlank, in bytes: an entry counts its length
; plus VRAM_QUEUE_ENTRY_COST, about the cycles the handler spends on an entry
; besides its bytes (35 to 39), in units of the 9 a copied byte takes.
DEF VRAM_QUEUE_BUDGET       EQU 72
DEF VRAM_QUEUE_ENTRY_COST   EQU 4
; The longest entry, which takes the whole budget
DEF VRAM_QUEUE_MAX_LENGTH   EQU VRAM_QUEUE_BUDGET - VRAM_QUEUE_ENTRY_COST
ASSERT VRAM_QUEUE_MAX_LENGTH <= VRAM_QUEUE_LENGTH_MASK, "the longest entry's length takes the fill bit"
ASSERT VRAM_QUEUE_HEADER_SIZE + VRAM_QUEUE_MAX_LENGTH < VRAM_QUEUE_SIZE, "the longest entry does not fit the ring"
ASSERT VRAM_QUEUE_BUDGET <= $FF, "StartVramQueueEntry's budget of $FF could take no entry with the LCD off"
; Exported for the cartridge tests, which read them by name from the .sym file.
EXPORT VRAM_QUEUE_SIZE, VRAM_QUEUE_HEADER_SIZE, VRAM_QUEUE_BUDGET
EXPORT VRAM_QUEUE_ENTRY_COST, VRAM_QUEUE_MAX_LENGTH


SECTION "VBlank shadow registers", HRAM

; Copied to rLCDC, rSCY, rSCX at every VBlank. (The palettes have none: they
; are set once, at start-up with the LCD off, and no screen changes them; a
; copy of each every frame would cost 18 of the handler's cycles for nothing.)
hLCDC:: db
hSCY:: db
hSCX:: db

; Counts VBlanks, wrapping at 256; WaitVBlank waits for it to move.
hFrameCounter:: db


SECTION "VRAM queue indices", HRAM

; The oldest entry not yet copied, as an offset in wVramQueue; only the handler
; writes it.
hVramQueueRead:: db
; Where the next entry goes; only the producer writes it, and only to publish
; an entry written whole.
hVramQueueWrite:: db


SECTION "VRAM queue", WRAM0, ALIGN[8]

wVramQueue:
	ds VRAM_QUEUE_SIZE


SECTION "VBlank handler", ROM0

;; VBlank interrupt handler, reached through the jump at $0040. It takes 366
;; machine cycles with the VRAM queue empty, the clocks stopped and no key
;; pressed, 1,108 at most (see the top of the file); what is left of VBlank is the main loop's,
;; once WaitVBlank returns.
;; @destroys nothing (saves every register it uses)
VBlankHandler::
	push af
	push bc
	push de
	push hl

	ldh a, [hLCDC]
	ldh [rLCDC], a
	ldh a, [hSCY]
	ldh [rSCY], a
	ldh a, [hSCX]
	ldh [rSCX], a

	; (no copy while hOAMSource is 0: the shadow OAM has not changed)
	ldh a, [hOAMSource]
	and a
	call nz, hOAMDMA

	ld b, VRAM_QUEUE_BUDGET
	call CopyVramQueue

	; After the queue, which must finish within VBlank: the clock needs no VRAM.
	call TickClocks

	; b: this frame's new presses, for GameVBlank
	call ReadJoypad

	; The game's live part (ui/game.asm), which must run even while the main
	; loop is inside the engine's search.
	ldh a, [hGameLive]
	and a
	call nz, GameVBlank

	ld hl, hFrameCounter
	inc [hl]

	pop hl
	pop de
	pop bc
	pop af
	reti


;; Copies the VRAM queue's entries to VRAM, oldest first, as long as they fit
;; a budget, and frees them. VRAM must be free to write: the handler calls it
;; in VBlank, StartVramQueueEntry with the LCD off.
;; @param b: the budget; an entry costs its length plus VRAM_QUEUE_ENTRY_COST,
;; and the first that costs more than what is left stays queued, with every
;; entry after it
;; @destroys af, bc, de, hl
CopyVramQueue:
	; de walks the ring (e wraps in it), b is what is left of the budget, hl
	; the VRAM address, c an entry's length.
	ldh a, [hVramQueueRead]
	ld e, a
	ld d, HIGH(wVramQueue)
.entry
	ldh a, [hVramQueueWrite]
	cp e
	jr z, .done
	; Stop at the first entry that does not fit what is left of the budget.
	ld a, [de]
	and VRAM_QUEUE_LENGTH_MASK
	ld c, a
	add VRAM_QUEUE_ENTRY_COST
	ld h, a
	ld a, b
	sub h
	jr c, .done
	ld b, a
	; The carry, which `inc e` keeps, says whether the entry is a fill.
	ld a, [de]
	inc e
	ASSERT B_VRAM_QUEUE_FILL == 7
	add a
	ld a, [de]
	inc e
	ld l, a
	ld a, [de]
	inc e
	ld h, a
	jr c, .fill
.copy
	ld a, [de]
	inc e
	ld [hli], a
	dec c
	jr nz, .copy
	jr .entry
.fill
	ld a, [de]
	inc e
.fillByte
	ld [hli], a
	dec c
	jr nz, .fillByte
	jr .entry
.done
	ld a, e
	ldh [hVramQueueRead], a
	ret


SECTION "VRAM queue producer", ROM0

;; Queues bytes to be copied to VRAM at the next VBlank (or later, when the
;; queue holds more than a VBlank's budget). A run longer than
;; VRAM_QUEUE_MAX_LENGTH goes as several entries, which may show in different
;; frames. While the queue has no room, waits for the handler with the LCD
;; on (call it then with interrupts enabled, see the top of the file) and
;; copies the oldest entries itself with the LCD off.
;; @param de: the bytes (a string's tile numbers, a row of a tile map)
;; @param hl: the VRAM address of the first
;; @param c: how many (0 queues nothing)
;; @return de: just past the last byte queued
;; @destroys af, bc, hl
QueueTiles::
	ld a, c
	cp VRAM_QUEUE_MAX_LENGTH + 1
	jr c, QueueTileEntry
	push bc
	push hl
	ld c, VRAM_QUEUE_MAX_LENGTH
	call QueueTileEntry
	pop hl
	ld bc, VRAM_QUEUE_MAX_LENGTH
	add hl, bc
	pop bc
	ld a, c
	sub VRAM_QUEUE_MAX_LENGTH
	ld c, a
	jr QueueTiles


;; Writes bytes to VRAM: straight away with the LCD off (a screen's set-up),
;; through the queue with it on (QueueTiles), so that a routine that draws
;; serves both.
;; @param de: the bytes
;; @param hl: the VRAM address of the first
;; @param c: how many (0 writes nothing)
;; @return de: just past the last byte written
;; @destroys af, bc, hl
WriteTiles::
	ldh a, [rLCDC]
	ASSERT B_LCDC_ENABLE == 7
	add a
	jr c, QueueTiles
	ld b, 0
	jp Memcpy


;; Queues one copy entry (see QueueTiles).
;; @param de: the bytes
;; @param hl: the VRAM address of the first
;; @param c: how many, at most VRAM_QUEUE_MAX_LENGTH (0 queues nothing)
;; @return de: just past the last byte queued
;; @destroys af, bc, hl
QueueTileEntry:
	ld a, c
	and a
	ret z
	ld b, c
	fallthrough QueuePaddedTiles


;; Queues bytes followed by blank tiles (TILE_BLANK) as one copy entry, as
;; QueueTiles does: a row of text over whatever the row showed, in one entry
;; rather than a copy and a fill, which would cost the VBlank's budget an
;; entry more.
;; @param de: the bytes
;; @param hl: the VRAM address of the first
;; @param c: how many bytes (0 to b)
;; @param b: the entry's length, bytes and blanks: 1 to VRAM_QUEUE_MAX_LENGTH
;; @return de: just past the last byte queued
;; @destroys af, bc, hl
QueuePaddedTiles::
	push bc
	ld a, b
	ld c, b
	add VRAM_QUEUE_HEADER_SIZE
	ld b, a
	; c: the entry's first byte, its length (a copy)
	call StartVramQueueEntry
	pop bc
	; b: the blanks after the c bytes
	ld a, b
	sub c
	ld b, a
	inc c
	jr .nextByte
.copy
	ld a, [de]
	inc de
	ld [hl], a
	inc l
.nextByte
	dec c
	jr nz, .copy
	inc b
	ld a, TILE_BLANK
	jr .nextBlank
.blank
	ld [hl], a
	inc l
.nextBlank
	dec b
	jr nz, .blank
	jr PublishVramQueueEntry


;; Queues a string (tile numbers up to its TEXT_END, see charmap.inc) to be
;; written to the tile map, as QueueTiles does; the TEXT_END is not written.
;; @param de: the string, at most 255 characters
;; @param hl: tile map address of its first character
;; @return de: just past the TEXT_END
;; @destroys af, bc, hl
QueueString::
	push de
	ld c, 0
.count
	ld a, [de]
	inc de
	cp TEXT_END
	jr z, .counted
	inc c
	jr .count
.counted
	pop de
	call QueueTiles
	inc de
	ret


;; Queues one byte to be written over a run of VRAM (a row of blank tiles, a
;; bar), as QueueTiles does.
;; @param a: the byte
;; @param hl: the VRAM address of the run
;; @param c: its length (0 queues nothing)
;; @destroys af, bc, hl
QueueFill::
	push de
	ld d, a
.entry
	ld a, c
	and a
	jr z, .done
	; e: this entry's length; c: what is left after it
	cp VRAM_QUEUE_MAX_LENGTH + 1
	jr c, .gotLength
	ld a, VRAM_QUEUE_MAX_LENGTH
.gotLength
	ld e, a
	ld a, c
	sub e
	ld c, a
	push bc
	push hl
	ld a, e
	or VRAM_QUEUE_FILL
	ld c, a
	ld b, VRAM_QUEUE_HEADER_SIZE + 1
	call StartVramQueueEntry
	ld [hl], d
	inc l
	call PublishVramQueueEntry
	; on to the rest of the run
	pop hl
	ld a, l
	add e
	ld l, a
	adc h
	sub l
	ld h, a
	pop bc
	jr .entry
.done
	pop de
	ret


;; Waits until the queue has room for an entry (with the LCD off, making room
;; by copying entries to VRAM), then writes the entry's first byte and its
;; VRAM address at hVramQueueWrite, unpublished: the caller writes the rest
;; after them and calls PublishVramQueueEntry. With the LCD on, interrupts
;; must be enabled (see the top of the file).
;; @param b: the entry's size in bytes, with its header
;; @param c: its first byte (the length, with VRAM_QUEUE_FILL for a fill)
;; @param hl: its VRAM address
;; @return hl: where the entry's next byte goes (step with `inc l`: the ring
;; wraps)
;; @destroys af, bc
StartVramQueueEntry:
	push hl
.waitForRoom
	; a: the free bytes, read - write - 1 (one always stays unused)
	ld hl, hVramQueueRead
	ldh a, [hVramQueueWrite]
	cpl
	add [hl]
	cp b
	jr nc, .room
	; With the LCD on, the handler makes room at the next VBlank.
	ldh a, [rLCDC]
	bit B_LCDC_ENABLE, a
	jr z, .copyHere
	halt
	jr .waitForRoom
.copyHere
	; With the LCD off no VBlank comes, but VRAM is free: copy entries here,
	; as many as a one-byte budget takes (at least the oldest, which costs at
	; most VRAM_QUEUE_BUDGET), and look again.
	push bc
	push de
	ld b, $FF
	call CopyVramQueue
	pop de
	pop bc
	jr .waitForRoom
.room
	ldh a, [hVramQueueWrite]
	ld l, a
	ld h, HIGH(wVramQueue)
	ld [hl], c
	inc l
	pop bc
	ld [hl], c
	inc l
	ld [hl], b
	inc l
	ret


;; Publishes the entry written up to hl: from now on the handler may copy it.
;; @param l: just past the entry's last byte in wVramQueue
;; @destroys a
PublishVramQueueEntry:
	ld a, l
	ldh [hVramQueueWrite], a
	ret


;; Drops every entry not yet copied (for a screen change: the old screen's
;; changes are not for the new one). The one writer of hVramQueueRead besides
;; CopyVramQueue, and safe beside the handler: it runs in the main loop, so
;; the handler's CopyVramQueue runs whole before or after its one write, and
;; hVramQueueWrite, which only the main loop writes, cannot change between
;; its read and that write. If the handler runs between them, it has copied
;; some of the entries, which does no harm; either way the queue is empty.
;; @destroys a
ClearVramQueue::
	ldh a, [hVramQueueWrite]
	ldh [hVramQueueRead], a
	ret


SECTION "Wait for VBlank", ROM0

;; Sleeps until the next VBlank has been handled (the frame's registers are
;; set, OAM and the VRAM queue are copied, the joypad is read). Needs the
;; VBlank interrupt enabled. (The handler counts the frame last; other
;; interrupts wake the `halt` too, and it sleeps again.)
;; @destroys af, b
WaitVBlank::
	ldh a, [hFrameCounter]
	ld b, a
.wait
	halt
	ldh a, [hFrameCounter]
	cp b
	jr z, .wait
	ret
