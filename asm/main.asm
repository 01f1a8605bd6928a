; The board screen and the main loop.
;
; For now the cartridge shows the empty board and moves the selector with the
; control pad; the game itself grows from here.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"
INCLUDE "include/charmap.inc"
INCLUDE "include/chess.inc"


DEF TITLE_LENGTH EQU 12
DEF TITLE_X      EQU (SCREEN_WIDTH - TITLE_LENGTH) / 2
DEF TITLE_Y      EQU 1


SECTION "Main", ROM0

;; Draws the board screen: the heading and the board with White at the
;; bottom, and puts the selector on a1. Call with the LCD off.
;; @destroys af, bc, de, hl
SetUpBoardScreen::
	ld de, TitleText
	ld hl, TILEMAP0 + TITLE_Y * TILEMAP_WIDTH + TITLE_X
	call PlaceString

	ld a, COLOR_WHITE
	call DrawBoardView
	jp InitBoardCursor

TitleText:
	db "CHESS ATTACK@"
	assert_table_length TitleText, TITLE_LENGTH + 1, 1


;; The main loop, one round per frame: wait for VBlank, then act on the keys
;; pressed since the last round. Never returns.
Main::
	call WaitVBlank
	call TakePadPressed
	call MoveBoardCursor
	jr Main
