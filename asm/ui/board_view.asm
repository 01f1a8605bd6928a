; The board on the screen: 16x16-pixel squares of 2x2 tiles, a frame, file
; letters under it and rank numbers beside it, and the square selector.
;
; Screen layout (tiles, 20 x 18), White at the bottom:
;
;   row  1      CHESS ATTACK (drawn by board_screen.asm)
;   row  2      frame
;   rows 3-14   6 ranks of 2 tile rows, rank 6 at the top; the rank number
;               sits in column 1, next to the top half of its squares
;   row 15      frame
;   row 16      file letters a-e, under the left half of their squares
;   columns 3-12: 5 files of 2 tile columns; the frame in columns 2 and 13;
;   columns 14-19 are free for the clocks and the move list.
;
; a1 is a dark square, as in chess. With Black at the bottom the board turns
; round: e1 is at the top left and the labels run the other way.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"
INCLUDE "include/charmap.inc"
INCLUDE "include/chess.inc"


DEF SQUARE_TILES       EQU 2 ; a square is 2 x 2 tiles
DEF BOARD_TILE_X       EQU 3 ; screen column of the board's left edge
DEF BOARD_TILE_Y       EQU 3 ; screen row of the board's top edge
DEF BOARD_WIDTH_TILES  EQU BOARD_FILES * SQUARE_TILES
DEF BOARD_HEIGHT_TILES EQU BOARD_RANKS * SQUARE_TILES
DEF RANK_LABEL_X       EQU BOARD_TILE_X - 2
DEF FILE_LABEL_Y       EQU BOARD_TILE_Y + BOARD_HEIGHT_TILES + 1

ASSERT RANK_LABEL_X >= 0, "no room for the rank numbers"
ASSERT BOARD_TILE_X + BOARD_WIDTH_TILES + 1 <= SCREEN_WIDTH, "board wider than the screen"
ASSERT FILE_LABEL_Y < SCREEN_HEIGHT, "no room for the file letters"

; Tile map addresses
DEF BOARD_MAP          EQU TILEMAP0 + BOARD_TILE_Y * TILEMAP_WIDTH + BOARD_TILE_X
DEF RANK_LABELS_MAP    EQU TILEMAP0 + BOARD_TILE_Y * TILEMAP_WIDTH + RANK_LABEL_X
DEF FILE_LABELS_MAP    EQU TILEMAP0 + FILE_LABEL_Y * TILEMAP_WIDTH + BOARD_TILE_X

; The selector is four 8x8 objects, one per corner of its square, in these
; shadow OAM entries.
DEF CURSOR_FIRST_OBJ   EQU 0
DEF NUM_CURSOR_OBJS    EQU 4
ASSERT CURSOR_FIRST_OBJ + NUM_CURSOR_OBJS <= OAM_COUNT


SECTION "Board view state", WRAM0

; COLOR_WHITE or COLOR_BLACK: the side drawn at the bottom.
wBoardBottomColor: db

; The selector's square, counted on the screen: column 0 is the left,
; row 0 the top.
wCursorColumn:: db
wCursorRow:: db


SECTION "Board view", ROM0

;; Draws the board with the start position, its frame and its labels. Writes
;; VRAM without waiting: call with the LCD off.
;; @param a: the colour at the bottom (COLOR_WHITE or COLOR_BLACK)
;; @destroys af, bc, de, hl
DrawBoardView::
	ld [wBoardBottomColor], a
	call DrawBoardFrame
	call DrawBoardSquares
	jp DrawBoardLabels


;; Draws the frame in the tiles around the board. LCD off.
;; @destroys af, bc, de, hl
DrawBoardFrame:
	ld hl, BOARD_MAP - TILEMAP_WIDTH - 1
	ld a, TILE_FRAME_TOP_LEFT
	ld [hli], a
	ld a, TILE_FRAME_TOP
	ld bc, BOARD_WIDTH_TILES
	call Memset
	ld [hl], TILE_FRAME_TOP_RIGHT

	ld hl, BOARD_MAP - 1
	ld b, BOARD_HEIGHT_TILES
.sides
	ld [hl], TILE_FRAME_LEFT
	ld de, BOARD_WIDTH_TILES + 1
	add hl, de
	ld [hl], TILE_FRAME_RIGHT
	ld de, TILEMAP_WIDTH - (BOARD_WIDTH_TILES + 1)
	add hl, de
	dec b
	jr nz, .sides

	; hl is now just left of the row under the board
	ld a, TILE_FRAME_BOTTOM_LEFT
	ld [hli], a
	ld a, TILE_FRAME_BOTTOM
	ld bc, BOARD_WIDTH_TILES
	call Memset
	ld [hl], TILE_FRAME_BOTTOM_RIGHT
	ret


;; Draws the 30 squares with the pieces of the start position. LCD off.
;; @destroys af, bc, de, hl
DrawBoardSquares:
	ld hl, BOARD_MAP
	; b: screen row, c: screen column, both from the top left
	ld b, 0
.row
	ld c, 0
.square
	push bc
	push hl
	call ScreenToSquare
	; a: the square's index in StartPosition, rank * BOARD_FILES + file
	ld a, e
	ASSERT BOARD_FILES == 5
	add a
	add a
	add e
	add d
	add LOW(StartPosition)
	ld l, a
	adc HIGH(StartPosition)
	sub l
	ld h, a
	ld a, [hl]
	; a: the cell's offset in BoardCells, (content * 2 + square colour) * 4;
	; a1 (file + rank even) is dark.
	add a
	ld b, a
	ld a, d
	add e
	and 1
	xor 1
	ASSERT CELL_LIGHT == 0 && CELL_DARK == 1
	add b
	add a
	add a
	ASSERT CELL_SIZE == 4
	pop hl
	call DrawCell
	pop bc
	inc c
	ld a, c
	cp BOARD_FILES
	jr c, .square

	; hl is just right of the row's top half: on to the next row of squares
	ld de, SQUARE_TILES * TILEMAP_WIDTH - BOARD_WIDTH_TILES
	add hl, de
	inc b
	ld a, b
	cp BOARD_RANKS
	jr c, .row
	ret


;; The square at a place on the screen, as wBoardBottomColor turns the board.
;; @param b: screen row (0 = top)
;; @param c: screen column (0 = left)
;; @return d: file (0 = a)
;; @return e: rank (0 = 1)
;; @destroys af
ScreenToSquare:
	ld a, [wBoardBottomColor]
	and a
	ASSERT COLOR_WHITE == 0
	jr nz, .blackBottom
	ld d, c
	ld a, BOARD_RANKS - 1
	sub b
	ld e, a
	ret
.blackBottom
	ld a, BOARD_FILES - 1
	sub c
	ld d, a
	ld e, b
	ret


;; Draws one cell of the board (a square, maybe with a piece, maybe outlined):
;; its four tiles from BoardCells, written straight to the tile map: LCD off
;; (DrawBoardSquares, from the board's set-up). With the LCD on, a cell's tiles
;; go through the VRAM queue (QueueTiles) instead.
;; @param a: the cell's offset in BoardCells (see gfx/board_tiles.asm)
;; @param hl: tile map address of its top-left tile
;; @return hl: tile map address of the cell to its right
;; @destroys af, de
DrawCell:
	add LOW(BoardCells)
	ld e, a
	adc HIGH(BoardCells)
	sub e
	ld d, a
	ld a, [de]
	inc de
	ld [hli], a
	ld a, [de]
	inc de
	ld [hld], a
	push hl
	ld a, l
	add TILEMAP_WIDTH
	ld l, a
	adc h
	sub l
	ld h, a
	ld a, [de]
	inc de
	ld [hli], a
	ld a, [de]
	ld [hl], a
	pop hl
	inc hl
	inc hl
	ret

; What the board shows until the game has a board of its own: the start
; position, rank 1 to rank 6, files a to e.
StartPosition:
	db CELL_WHITE_ROOK, CELL_WHITE_KNIGHT, CELL_WHITE_BISHOP, CELL_WHITE_QUEEN, CELL_WHITE_KING
	db CELL_WHITE_PAWN, CELL_WHITE_PAWN,   CELL_WHITE_PAWN,   CELL_WHITE_PAWN,  CELL_WHITE_PAWN
	db CELL_EMPTY,      CELL_EMPTY,        CELL_EMPTY,        CELL_EMPTY,       CELL_EMPTY
	db CELL_EMPTY,      CELL_EMPTY,        CELL_EMPTY,        CELL_EMPTY,       CELL_EMPTY
	db CELL_BLACK_PAWN, CELL_BLACK_PAWN,   CELL_BLACK_PAWN,   CELL_BLACK_PAWN,  CELL_BLACK_PAWN
	db CELL_BLACK_ROOK, CELL_BLACK_KNIGHT, CELL_BLACK_BISHOP, CELL_BLACK_QUEEN, CELL_BLACK_KING
	assert_table_length StartPosition, BOARD_FILES * BOARD_RANKS, 1


;; Writes the rank numbers beside the board and the file letters under it,
;; in the order wBoardBottomColor gives. LCD off.
;; @destroys af, b, de, hl
DrawBoardLabels:
	ld a, [wBoardBottomColor]
	and a
	ld de, RankLabelsWhiteBottom
	jr z, .gotRankLabels
	ld de, RankLabelsBlackBottom
.gotRankLabels
	ld hl, RANK_LABELS_MAP
	ld b, BOARD_RANKS
.rank
	ld a, [de]
	inc de
	ld [hl], a
	ld a, l
	add SQUARE_TILES * TILEMAP_WIDTH
	ld l, a
	adc h
	sub l
	ld h, a
	dec b
	jr nz, .rank

	ld a, [wBoardBottomColor]
	and a
	ld de, FileLabelsWhiteBottom
	jr z, .gotFileLabels
	ld de, FileLabelsBlackBottom
.gotFileLabels
	ld hl, FILE_LABELS_MAP
	ld b, BOARD_FILES
.file
	ld a, [de]
	inc de
	ld [hli], a
	inc hl
	dec b
	jr nz, .file
	ret

; Labels from the top down and from the left.
RankLabelsWhiteBottom:
	db "654321"
	assert_table_length RankLabelsWhiteBottom, BOARD_RANKS, 1
RankLabelsBlackBottom:
	db "123456"
	assert_table_length RankLabelsBlackBottom, BOARD_RANKS, 1
FileLabelsWhiteBottom:
	db "abcde"
	assert_table_length FileLabelsWhiteBottom, BOARD_FILES, 1
FileLabelsBlackBottom:
	db "edcba"
	assert_table_length FileLabelsBlackBottom, BOARD_FILES, 1


;; Puts the selector on the bottom-left square (a1 with White at the bottom)
;; and shows it.
;; @destroys af, bc, de, hl
InitBoardCursor::
	xor a
	ld [wCursorColumn], a
	ld a, BOARD_RANKS - 1
	ld [wCursorRow], a
	jr UpdateCursorObjects


;; Moves the selector one square for each direction pressed, stopping at the
;; board's edges, and updates its objects.
;; @param a: keys pressed (PAD_*); other keys than the control pad are ignored
;; @destroys af, bc, de, hl
MoveBoardCursor::
	ld b, a

	ld hl, wCursorColumn
	bit B_PAD_LEFT, b
	jr z, .notLeft
	ld a, [hl]
	and a
	jr z, .notLeft
	dec [hl]
.notLeft
	bit B_PAD_RIGHT, b
	jr z, .notRight
	ld a, [hl]
	cp BOARD_FILES - 1
	jr nc, .notRight
	inc [hl]
.notRight

	ld hl, wCursorRow
	bit B_PAD_UP, b
	jr z, .notUp
	ld a, [hl]
	and a
	jr z, .notUp
	dec [hl]
.notUp
	bit B_PAD_DOWN, b
	jr z, .notDown
	ld a, [hl]
	cp BOARD_RANKS - 1
	jr nc, .notDown
	inc [hl]
.notDown
	fallthrough UpdateCursorObjects


;; Writes the selector's four objects into wShadowOAM, around the square at
;; wCursorColumn, wCursorRow. The next VBlank shows them.
;; @destroys af, bc, de, hl
UpdateCursorObjects:
	ASSERT SQUARE_TILES * TILE_WIDTH == 16 && SQUARE_TILES * TILE_HEIGHT == 16
	; c: OAM X of the square's left edge; a square is 16 pixels: swap = * 16
	ld a, [wCursorColumn]
	swap a
	add BOARD_TILE_X * TILE_WIDTH + OAM_X_OFS
	ld c, a
	; b: OAM Y of its top edge
	ld a, [wCursorRow]
	swap a
	add BOARD_TILE_Y * TILE_HEIGHT + OAM_Y_OFS
	ld b, a

	ld de, CursorCorners
	ld hl, wShadowOAM + CURSOR_FIRST_OBJ * OBJ_SIZE
.corner
	ld a, [de]
	inc de
	add b
	ld [hli], a
	ld a, [de]
	inc de
	add c
	ld [hli], a
	ld a, [de]
	inc de
	ld [hli], a
	ld a, [de]
	inc de
	ld [hli], a
	; The table is shorter than 256 bytes, so its end's low byte marks the end.
	ld a, e
	cp LOW(CursorCornersEnd)
	jr nz, .corner
	ret

; Each corner object: Y offset, X offset, tile, attributes.
CursorCorners:
	db 0,           0,          OBJ_TILE_SELECTOR + 0, OAM_PAL0
	db 0,           TILE_WIDTH, OBJ_TILE_SELECTOR + 1, OAM_PAL0
	db TILE_HEIGHT, 0,          OBJ_TILE_SELECTOR + 2, OAM_PAL0
	db TILE_HEIGHT, TILE_WIDTH, OBJ_TILE_SELECTOR + 3, OAM_PAL0
CursorCornersEnd:
	assert_table_length CursorCorners, NUM_CURSOR_OBJS, 4
