; The title screen: the art from assets/title.png and a blinking PRESS START.
; START or A goes on to the first option page (ui/options.asm).

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"
INCLUDE "include/charmap.inc"
INCLUDE "include/screens.inc"


; Where PRESS START goes: the white space left of the knight.
DEF PRESS_START_LENGTH EQU 11
DEF PRESS_START_X      EQU 1
DEF PRESS_START_Y      EQU 12
; Exported for the cartridge tests, which read them by name from the .sym file.
EXPORT PRESS_START_X, PRESS_START_Y
DEF PRESS_START_MAP    EQU TILEMAP0 + PRESS_START_Y * TILEMAP_WIDTH + PRESS_START_X
ASSERT PRESS_START_X + PRESS_START_LENGTH <= SCREEN_WIDTH

; The text shows in the frames after the VBlanks that leave this bit of the
; frame counter 0, and hides while it is 1: about half a second each.
DEF B_BLINK_FRAME EQU 5

; The title screen's LCDC: tiles numbered from $8000 (its first 128 tiles are
; in block 0), no objects.
DEF LCDC_TITLE EQU LCDC_ON | LCDC_BG_ON | LCDC_BG_9800 | LCDC_BLOCK01 | LCDC_OBJ_OFF | LCDC_WIN_OFF


SECTION "Title screen state", WRAM0

; 1 while PRESS START is hidden, 0 while it shows, as of the next frame (the
; change may still wait in the VRAM queue).
wPressStartHidden: db


SECTION "Title screen", ROM0

;; Unpacks the title's tiles and draws it, with PRESS START showing. Writes VRAM
;; without waiting: call with the LCD off. The font must be loaded already.
;; @return a: the LCDC value to show it with
;; @destroys af, bc, de, hl
SetUpTitleScreen::
	ld hl, PackedTitleTiles
	ld de, vTilesBlock0
	call Unpack
	; The art may have more tiles than block 0 holds (a stream only then).
	IF NUM_TITLE_TILES_HIGH > 0
	ld hl, PackedTitleTilesHigh
	ld de, vScreenTilesHigh
	call Unpack
	ENDC

	ld de, TitleMap
	call CopyScreenTilemap
	ld de, PressStartText
	ld hl, PRESS_START_MAP
	call PlaceString
	xor a
	ld [wPressStartHidden], a
	ld a, LCDC_TITLE
	ret


;; The title's frame: blinks PRESS START, and goes on to the first option
;; page when START or A is pressed.
;; @destroys af, bc, de, hl
UpdateTitleScreen::
	call BlinkPressStart
	call TakePadPressed
	and PAD_START | PAD_A
	ret z
	ld a, SCREEN_MODE_PAGE
	ld [wNextScreen], a
	ret


;; Shows or hides PRESS START as the frame counter says, through the VRAM
;; queue, which copies it at the next VBlank: so this frame decides what the
;; next frame shows, and the text shows while bit B_BLINK_FRAME of the frame
;; counter as the next VBlank leaves it is 0. Queues only when that changes.
;; @destroys af, bc, de, hl
BlinkPressStart:
	; a: 0 to show the text, 1 to hide it
	ldh a, [hFrameCounter]
	inc a
	ASSERT B_BLINK_FRAME == 5
	swap a
	rra
	and 1
	ld hl, wPressStartHidden
	cp [hl]
	ret z
	ld [hl], a

	and a
	ld de, PressStartText
	jr z, .gotText
	; hidden: the title's own tiles under the text
	ld de, TitleMap + PRESS_START_Y * SCREEN_WIDTH + PRESS_START_X
.gotText
	ld hl, PRESS_START_MAP
	ld c, PRESS_START_LENGTH
	jp QueueTiles

PressStartText:
	db "PRESS START@"
	assert_table_length PressStartText, PRESS_START_LENGTH + 1, 1
