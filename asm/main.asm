; The screens and the main loop: a state machine with one state per screen.
;
; Each screen lives in its own file in ui/ and has two routines:
;   - a set-up, called with the LCD off: it loads its tiles, draws its tile map
;     and objects at any speed, sets its state, and returns in a the LCDC value
;     to show it with;
;   - an update, called once a frame just after VBlank has been handled (the
;     joypad is read, shadow OAM and the VRAM queue have been copied): it reads
;     the keys, changes its state, queues its tile-map changes (QueueTiles,
;     home/vblank.asm) and writes shadow OAM. To go to another screen it writes
;     that screen's number to wNextScreen and returns.
; After every update the main loop looks at wNextScreen. When it names another
; screen, the main loop drops what the old screen left in the VRAM queue,
; switches the LCD off (in VBlank), calls the new screen's set-up and switches
; the LCD on with the LCDC value the set-up returned. No screen calls another's
; code.
;
; Start-up (home/init.asm) enters the first screen with the LCD off:
; RunScreens with a = SCREEN_TITLE.
;
; To add a screen: write ui/<name>.asm with SetUp<Name>Screen and
; Update<Name>Screen (exported, with `::`), add SCREEN_<NAME> to the enum in
; include/screens.inc, and add its entry to ScreenTable below in the same
; place. The assembler checks that every entry sits at its number and that the
; table has NUM_SCREENS entries.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/screens.inc"


; A ScreenTable entry: the set-up's address, then the update's.
RSRESET
DEF SCREEN_SET_UP     RW 1
DEF SCREEN_UPDATE     RW 1
DEF SCREEN_ENTRY_SIZE RB 0


SECTION "Screen state", WRAM0

; The screen shown (SCREEN_*).
wCurrentScreen:: db

; The screen to show next: the same as wCurrentScreen unless an update has
; asked for a change.
wNextScreen:: db


SECTION "Main", ROM0

;; The main loop, one round per frame: wait for VBlank, run the current
;; screen's update, and change screens when the update asked for it. Never
;; returns.
;; @param a: the first screen (SCREEN_*); the LCD must be off and the VBlank
;; interrupt enabled
RunScreens::
	ld [wNextScreen], a
	jr .setUp

.change
	; What the old screen queued is not for the new one. Dropped before the LCD
	; goes off: TurnLCDOff waits for VBlank with interrupts held off, and the
	; handler, run once it has switched the LCD off, would copy what is queued.
	; (At start-up the queue is empty.)
	call ClearVramQueue
	call TurnLCDOff
.setUp
	ld a, [wNextScreen]
	ld [wCurrentScreen], a
	ld c, SCREEN_SET_UP
	call CallScreenRoutine
	; a: the new screen's LCDC. Its colours, on a console that has them, while
	; the LCD is still off (ui/colour.asm).
	push af
	ld a, [wCurrentScreen]
	call ApplyScreenColours
	pop af
	call TurnLCDOn

.frame
	call WaitVBlank
	ld c, SCREEN_UPDATE
	call CallScreenRoutine
	ld a, [wCurrentScreen]
	ld b, a
	ld a, [wNextScreen]
	cp b
	jr nz, .change
	jr .frame


;; Calls one of the current screen's routines, found in ScreenTable.
;; @param c: the routine's offset in an entry (SCREEN_SET_UP or SCREEN_UPDATE)
;; @return what the routine returns
;; @destroys what the routine destroys, and af, hl
CallScreenRoutine:
	ld a, [wCurrentScreen]
	ASSERT SCREEN_ENTRY_SIZE == 4
	add a
	add a
	add c
	add LOW(ScreenTable)
	ld l, a
	adc HIGH(ScreenTable)
	sub l
	ld h, a
	ld a, [hli]
	ld h, [hl]
	ld l, a
	jp hl


; One entry of ScreenTable: \1 the screen's number, \2 its set-up, \3 its
; update. Fails to assemble when the entry is not at its number's place.
MACRO screen
	ASSERT @ - ScreenTable == (\1) * SCREEN_ENTRY_SIZE, "\1 is not in its place in ScreenTable"
	dw \2, \3
ENDM

ScreenTable:
	screen SCREEN_TITLE, SetUpTitleScreen, UpdateTitleScreen
	screen SCREEN_MODE_PAGE, SetUpModePage, UpdateOptionPage
	screen SCREEN_LEVEL_PAGE, SetUpLevelPage, UpdateOptionPage
	screen SCREEN_BOARD, SetUpBoardScreen, UpdateBoardScreen
	screen SCREEN_COLOUR_PAGE, SetUpColourPage, UpdateOptionPage
	assert_table_length ScreenTable, NUM_SCREENS, SCREEN_ENTRY_SIZE
	ASSERT NUM_SCREENS * SCREEN_ENTRY_SIZE <= 256, "ScreenTable is indexed with one byte"
