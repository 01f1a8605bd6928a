; The board screen's tiles, converted from assets/pieces.png and
; assets/board.png by `cargo xtask assets`: every piece drawn on both square
; colours, plain and with the destination outline, the frame, and the object
; tiles of the selector and the last-move mark.
;
; BoardCells gives each cell's four tile numbers (top left, top right, bottom
; left, bottom right); a cell is found at
;   BoardCells + [CELL_OUTLINED if outlined] + content * 2 * CELL_SIZE
;              + square colour (CELL_LIGHT or CELL_DARK) * CELL_SIZE

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"


SECTION "Board tiles", ROMX

	INCLUDE "generated/gfx/board.inc"
	assert_table_length BoardCells, NUM_BOARD_CELLS, CELL_SIZE
	; The largest offset into BoardCells must fit in a byte.
	ASSERT NUM_BOARD_CELLS * CELL_SIZE <= 256
