; The board screen: the heading, the board with the start position (drawn by
; board_view.asm) and the square selector, which the control pad moves.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"
INCLUDE "include/charmap.inc"
INCLUDE "include/chess.inc"


DEF HEADING_LENGTH EQU 12
DEF HEADING_X      EQU (SCREEN_WIDTH - HEADING_LENGTH) / 2
DEF HEADING_Y      EQU 1

; The board screen's LCDC: background tiles 0-127 from $9000 (block 2), so that
; the 128 tiles at $8000 are the objects' alone; 8x8 objects.
DEF LCDC_BOARD EQU LCDC_ON | LCDC_BG_ON | LCDC_BG_9800 | LCDC_BLOCK21 | LCDC_OBJ_ON | LCDC_OBJ_8 | LCDC_WIN_OFF


SECTION "Board screen", ROM0

;; Loads the board screen's tiles and draws it: the heading, the board with
;; White at the bottom, and the selector on a1. LCD off.
;; @return a: the LCDC value to show it with
;; @destroys af, bc, de, hl
SetUpBoardScreen::
	ld de, BoardTilesLow
	ld hl, vTilesBlock2
	ld bc, NUM_BOARD_TILES_LOW * TILE_SIZE
	call Memcpy
	ld de, BoardTilesHigh
	ld hl, vScreenTilesHigh
	ld bc, NUM_BOARD_TILES_HIGH * TILE_SIZE
	call Memcpy
	ld de, BoardObjectTiles
	ld hl, vTilesBlock0
	ld bc, NUM_BOARD_OBJ_TILES * TILE_SIZE
	call Memcpy

	call ClearTilemap
	ld de, HeadingText
	ld hl, TILEMAP0 + HEADING_Y * TILEMAP_WIDTH + HEADING_X
	call PlaceString

	ld a, COLOR_WHITE
	call DrawBoardView
	call InitBoardCursor
	ld a, LCDC_BOARD
	ret

HeadingText:
	db "CHESS ATTACK@"
	assert_table_length HeadingText, HEADING_LENGTH + 1, 1


;; The board screen's frame: the control pad moves the selector.
;; @destroys af, bc, de, hl
UpdateBoardScreen::
	call TakePadPressed
	jp MoveBoardCursor
