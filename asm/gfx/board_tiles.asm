; The background and object tiles of the board screen, as 2bpp graphics
; literals (one `dw` per 8-pixel row, colours 0-3 from left to right).
;
; Placeholder art: the asset pipeline (PNG -> tiles, `cargo xtask assets`) will
; replace this file with tiles converted from assets/. The order of the tiles
; is the numbering in include/gfx.inc; every group asserts its tile number.
;
; Colours with the palettes set at start-up: 0 white, 1 light grey,
; 2 dark grey, 3 black.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"


; Where the tiles live in VRAM: block 0 from $8000, so tile n is at
; $8000 + 16 * n for the background (LCDC_BLOCK01) and for objects alike.
SECTION "Background tiles in VRAM", VRAM[_VRAM]

vBackgroundTiles::
	ds NUM_BG_TILES * TILE_SIZE


SECTION "Background tiles", ROM0

; Asserts that the tile data written so far ends just before tile \1.
MACRO tile_number_is
	ASSERT @ - BackgroundTiles == (\1) * TILE_SIZE, "tile data out of step with \1"
ENDM

;; The NUM_BG_TILES tiles to copy to vBackgroundTiles.
BackgroundTiles::
	tile_number_is TILE_BLANK
REPT TILE_HEIGHT
	dw `00000000
ENDR

	; An empty square is one colour all over; it still takes four tiles so that
	; an empty square and a square with a piece are drawn the same way.
	tile_number_is TILE_LIGHT_SQUARE
REPT 4 * TILE_HEIGHT
	dw `11111111
ENDR

	tile_number_is TILE_DARK_SQUARE
REPT 4 * TILE_HEIGHT
	dw `22222222
ENDR

	; The frame is two pixels wide, along the board's edge.
	tile_number_is TILE_FRAME_TOP_LEFT
REPT 6
	dw `00000000
ENDR
	dw `00000033
	dw `00000033

	tile_number_is TILE_FRAME_TOP
REPT 6
	dw `00000000
ENDR
	dw `33333333
	dw `33333333

	tile_number_is TILE_FRAME_TOP_RIGHT
REPT 6
	dw `00000000
ENDR
	dw `33000000
	dw `33000000

	tile_number_is TILE_FRAME_LEFT
REPT TILE_HEIGHT
	dw `00000033
ENDR

	tile_number_is TILE_FRAME_RIGHT
REPT TILE_HEIGHT
	dw `33000000
ENDR

	tile_number_is TILE_FRAME_BOTTOM_LEFT
	dw `00000033
	dw `00000033
REPT 6
	dw `00000000
ENDR

	tile_number_is TILE_FRAME_BOTTOM
	dw `33333333
	dw `33333333
REPT 6
	dw `00000000
ENDR

	tile_number_is TILE_FRAME_BOTTOM_RIGHT
	dw `33000000
	dw `33000000
REPT 6
	dw `00000000
ENDR

	; The selector's top-left corner: black with a white edge inside so it
	; shows on both square colours (object colour 0 is transparent).
	tile_number_is TILE_CURSOR_CORNER
	dw `33333300
	dw `31111100
	dw `31000000
	dw `31000000
	dw `31000000
	dw `00000000
	dw `00000000
	dw `00000000

	; Font: 5x7 glyphs in the top-left of their tile, black on white.
	tile_number_is TILE_FONT_DIGITS
	; "0"
	dw `00333000
	dw `03000300
	dw `03003300
	dw `03030300
	dw `03300300
	dw `03000300
	dw `00333000
	dw `00000000
	; "1"
	dw `00030000
	dw `00330000
	dw `00030000
	dw `00030000
	dw `00030000
	dw `00030000
	dw `00333000
	dw `00000000
	; "2"
	dw `00333000
	dw `03000300
	dw `00000300
	dw `00033000
	dw `00300000
	dw `03000000
	dw `03333300
	dw `00000000
	; "3"
	dw `03333300
	dw `00003000
	dw `00030000
	dw `00003000
	dw `00000300
	dw `03000300
	dw `00333000
	dw `00000000
	; "4"
	dw `00003000
	dw `00033000
	dw `00303000
	dw `03003000
	dw `03333300
	dw `00003000
	dw `00003000
	dw `00000000
	; "5"
	dw `03333300
	dw `03000000
	dw `03333000
	dw `00000300
	dw `00000300
	dw `03000300
	dw `00333000
	dw `00000000
	; "6"
	dw `00033000
	dw `00300000
	dw `03000000
	dw `03333000
	dw `03000300
	dw `03000300
	dw `00333000
	dw `00000000
	; "7"
	dw `03333300
	dw `00000300
	dw `00003000
	dw `00030000
	dw `00300000
	dw `00300000
	dw `00300000
	dw `00000000
	; "8"
	dw `00333000
	dw `03000300
	dw `03000300
	dw `00333000
	dw `03000300
	dw `03000300
	dw `00333000
	dw `00000000
	; "9"
	dw `00333000
	dw `03000300
	dw `03000300
	dw `00333300
	dw `00000300
	dw `00003000
	dw `00330000
	dw `00000000

	tile_number_is TILE_FONT_A
	; "A"
	dw `00333000
	dw `03000300
	dw `03000300
	dw `03333300
	dw `03000300
	dw `03000300
	dw `03000300
	dw `00000000

	tile_number_is TILE_FONT_C
	; "C"
	dw `00333000
	dw `03000300
	dw `03000000
	dw `03000000
	dw `03000000
	dw `03000300
	dw `00333000
	dw `00000000

	tile_number_is TILE_FONT_E
	; "E"
	dw `03333300
	dw `03000000
	dw `03000000
	dw `03333000
	dw `03000000
	dw `03000000
	dw `03333300
	dw `00000000

	tile_number_is TILE_FONT_H
	; "H"
	dw `03000300
	dw `03000300
	dw `03000300
	dw `03333300
	dw `03000300
	dw `03000300
	dw `03000300
	dw `00000000

	tile_number_is TILE_FONT_K
	; "K"
	dw `03000300
	dw `03003000
	dw `03030000
	dw `03300000
	dw `03030000
	dw `03003000
	dw `03000300
	dw `00000000

	tile_number_is TILE_FONT_S
	; "S"
	dw `00333300
	dw `03000000
	dw `03000000
	dw `00333000
	dw `00000300
	dw `00000300
	dw `03333000
	dw `00000000

	tile_number_is TILE_FONT_T
	; "T"
	dw `03333300
	dw `00030000
	dw `00030000
	dw `00030000
	dw `00030000
	dw `00030000
	dw `00030000
	dw `00000000

	tile_number_is TILE_FONT_FILES
	; "a"
	dw `00000000
	dw `00000000
	dw `00333000
	dw `00000300
	dw `00333300
	dw `03000300
	dw `00333300
	dw `00000000
	; "b"
	dw `03000000
	dw `03000000
	dw `03033000
	dw `03300300
	dw `03000300
	dw `03000300
	dw `03333000
	dw `00000000
	; "c"
	dw `00000000
	dw `00000000
	dw `00333000
	dw `03000000
	dw `03000000
	dw `03000300
	dw `00333000
	dw `00000000
	; "d"
	dw `00000300
	dw `00000300
	dw `00330300
	dw `03003300
	dw `03000300
	dw `03000300
	dw `00333300
	dw `00000000
	; "e"
	dw `00000000
	dw `00000000
	dw `00333000
	dw `03000300
	dw `03333300
	dw `03000000
	dw `00333000
	dw `00000000

	tile_number_is NUM_BG_TILES
