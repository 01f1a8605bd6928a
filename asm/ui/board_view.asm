; The board on the screen: 16x16-pixel squares of 2x2 tiles showing the
; engine's board (wBoard), the squares a picked-up piece may go to outlined,
; the file letters and rank numbers, and the objects over the squares: the
; selector, the mark on the square of the piece picked up, the last move's two
; squares. Where it all goes: include/layout.inc.
;
; a1 is a dark square, as in chess. With Black at the bottom the board turns
; round: e1 is at the top left and the labels run the other way.
;
; A square is named two ways here: by the engine's square (engine.inc: the low
; byte of its cell in wBoard) and by its place on the screen, a column (0 at
; the left) and a row (0 at the top) of squares.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"
INCLUDE "include/charmap.inc"
INCLUDE "include/chess.inc"
INCLUDE "include/layout.inc"
INCLUDE "include/game_record.inc"
INCLUDE "engine/engine.inc"


; Tile map addresses
DEF BOARD_MAP          EQU TILEMAP0 + BOARD_TILE_Y * TILEMAP_WIDTH + BOARD_TILE_X
DEF RANK_LABELS_MAP    EQU TILEMAP0 + BOARD_TILE_Y * TILEMAP_WIDTH + RANK_LABEL_X
DEF FILE_LABELS_MAP    EQU TILEMAP0 + FILE_LABEL_Y * TILEMAP_WIDTH + BOARD_TILE_X

; DrawBoardRows' mask of every row of squares.
DEF ALL_BOARD_ROWS     EQU (1 << BOARD_RANKS) - 1

; The objects over the board: four 8x8 objects per square (one per corner),
; in these shadow OAM entries. A row of the screen meets at most the
; selector, the picked-up mark and the last move's two squares: 8 objects a
; line, within the DMG's 10.
DEF OBJS_PER_SQUARE      EQU 4
DEF CURSOR_FIRST_OBJ     EQU 0
DEF PICKED_FIRST_OBJ     EQU CURSOR_FIRST_OBJ + OBJS_PER_SQUARE
DEF LAST_MOVE_FIRST_OBJ  EQU PICKED_FIRST_OBJ + OBJS_PER_SQUARE
DEF NUM_SQUARE_OBJS      EQU LAST_MOVE_FIRST_OBJ + 2 * OBJS_PER_SQUARE
ASSERT NUM_SQUARE_OBJS <= FIRST_FREE_OBJ, "layout.inc gives the board's objects too few entries"


SECTION "Board view state", WRAM0

; COLOR_WHITE or COLOR_BLACK: the side drawn at the bottom.
wBoardBottomColor:: db

; The selector's square, counted on the screen: column 0 is the left,
; row 0 the top.
wCursorColumn:: db
wCursorRow:: db

; The squares to outline: the to bytes of the moves of the piece picked up
; (MOVE_TO_SQUARE picks the square out of one), wOutlineCount of them.
DEF MAX_OUTLINES EQU 32
wOutlineCount:: db
wOutlines:: ds MAX_OUTLINES

; The marks' squares (engine squares, 0 for none): the piece picked up, the
; last move's from and to squares.
wPickedSquare:: db
wLastMoveFrom:: db
wLastMoveTo:: db

; One row of the board's tiles, built before it is written or queued.
wBoardRowTiles: ds BOARD_WIDTH_TILES


SECTION "Board view", ROM0

;; Draws the whole board as wBoard holds it, with the squares of wOutlines
;; outlined: straight into the tile map with the LCD off, through the VRAM
;; queue with it on (then it shows within three frames).
;; @destroys af, bc, de, hl
DrawBoard::
	ld c, ALL_BOARD_ROWS
	fallthrough DrawBoardRows


;; Draws some rows of squares of the board as DrawBoard does: after a move
;; that changes more than its two squares (DrawMovedBoard), the rows it
;; changes, each two entries of 10 tiles through the VRAM queue.
;; @param c: the rows of squares, bit n for the screen's row n (0 = the top)
;; @destroys af, bc, de, hl
DrawBoardRows::
	; b: the tile row of the top half of the row of squares bit 0 of c names
	ld b, 0
.squareRow
	srl c
	jr nc, .nextSquareRow
	push bc
	call DrawBoardTileRow
	pop bc
	push bc
	inc b
	call DrawBoardTileRow
	pop bc
.nextSquareRow
	ASSERT SQUARE_TILES == 2
	inc b
	inc b
	ld a, c
	and a
	jr nz, .squareRow
	ret


;; Draws one tile row of the board (BuildBoardRow, WriteTiles).
;; @param b: the tile row (0 = the top half of the top row of squares)
;; @destroys af, bc, de, hl
DrawBoardTileRow:
	push bc
	call BuildBoardRow
	pop bc
	; hl: the row's tile map address
	ld l, b
	ld h, 0
	ASSERT TILEMAP_WIDTH == 32
	REPT 5
		add hl, hl
	ENDR
	ld de, BOARD_MAP
	add hl, de
	ld de, wBoardRowTiles
	ld c, BOARD_WIDTH_TILES
	jp WriteTiles


;; Builds one tile row of the board in wBoardRowTiles: the top or bottom
;; halves of one row of squares.
;; @param b: the tile row (0 = the top half of the top row of squares)
;; @destroys af, bc, de, hl
BuildBoardRow:
	ld hl, wBoardRowTiles
	; c: screen column of the square, b: screen row, and the half in the
	; carry, kept on the stack as 0 or 2 (its tiles' offset in a cell)
	srl b
	ld a, 0
	rla
	add a
	push af
	ld c, 0
.square
	push hl
	push bc
	call ScreenToSquare
	call SquareCellTiles
	pop bc
	pop hl
	; de: the half's two tiles
	pop af
	push af
	add e
	ld e, a
	adc d
	sub e
	ld d, a
	ld a, [de]
	ld [hli], a
	inc de
	ld a, [de]
	ld [hli], a
	inc c
	ld a, c
	cp BOARD_FILES
	jr c, .square
	pop af
	ret


;; The four tiles of a square's cell in BoardCells (gfx/board_tiles.asm): its
;; piece, its colour, outlined or not.
;; @param e: the square
;; @return de: the cell's first tile (top left, top right, bottom left, bottom
;; right)
;; @destroys af, b, hl
SquareCellTiles:
	ld d, HIGH(wBoard)
	ld a, [de]
	call PieceCell
	; a: the cell content; b: (content * 2 + colour) * CELL_SIZE
	add a
	ld b, a
	; a1 (file + rank even) is dark: the square's row and file bits
	ld a, e
	swap a
	xor e
	and 1
	xor 1
	ASSERT CELL_LIGHT == 0 && CELL_DARK == 1
	add b
	add a
	add a
	ASSERT CELL_SIZE == 4
	ld b, a
	call IsOutlined
	ld a, b
	jr nz, .plain
	add CELL_OUTLINED
.plain
	add LOW(BoardCells)
	ld e, a
	adc HIGH(BoardCells)
	sub e
	ld d, a
	ret


;; Draws one square of the board (its two rows of two tiles) as DrawBoard
;; does.
;; @param a: the square (MOVE_TO_SQUARE bits only)
;; @destroys af, bc, de, hl
DrawBoardSquare:
	ld e, a
	call SquareToScreen
	push bc
	call SquareCellTiles
	pop bc
	; hl: the tile map address of its top left tile
	ld l, b
	ld h, 0
	ASSERT SQUARE_TILES * TILEMAP_WIDTH == 64
	REPT 6
		add hl, hl
	ENDR
	ld a, c
	ASSERT SQUARE_TILES == 2
	add a
	add l
	ld l, a
	ld bc, BOARD_MAP
	add hl, bc
	; its top half, then (de goes on to it) its bottom half a row below
	push hl
	ld c, SQUARE_TILES
	call WriteTiles
	pop hl
	ld bc, TILEMAP_WIDTH
	add hl, bc
	ld c, SQUARE_TILES
	jp WriteTiles


;; Is a square among the outlined ones (wOutlines)?
;; @param e: the square
;; @return z: outlined
;; @destroys af, hl; keeps bc, de
IsOutlined::
	ld hl, wOutlineCount
	ld a, [hli]
	inc a
	push bc
	ld c, a
.next
	dec c
	jr z, .notFound
	ld a, [hli]
	and MOVE_TO_SQUARE
	cp e
	jr nz, .next
	pop bc
	ret
.notFound
	pop bc
	; nz: c wrapped to 0 from 1, so a is something and e is a square
	ld a, e
	and a
	ret


;; The cell content (CELL_*, the pieces' order in the art) of an engine piece
;; code.
;; @param a: the piece code (EMPTY, or a colour and a role)
;; @return a: CELL_EMPTY, CELL_WHITE_* or CELL_BLACK_*
;; @destroys f, hl
PieceCell:
	bit B_PIECE_BLACK, a
	push af
	and ROLE_MASK
	add LOW(RoleCells)
	ld l, a
	adc HIGH(RoleCells)
	sub l
	ld h, a
	pop af
	ld a, [hl]
	ret z
	add CELL_BLACK_PAWN - CELL_WHITE_PAWN
	ret

; The White cell content of each role code (engine.inc); 0 for the codes no
; role has (an empty square reads role 0).
RoleCells:
	db CELL_EMPTY, CELL_WHITE_BISHOP, CELL_WHITE_ROOK, CELL_WHITE_QUEEN
	db CELL_WHITE_PAWN, 0, 0, 0
	db CELL_WHITE_KNIGHT, 0, 0, 0
	db CELL_WHITE_KING, 0, 0, 0
	assert_table_length RoleCells, ROLE_MASK + 1, 1
	ASSERT ROLE_BISHOP == 1 && ROLE_ROOK == 2 && ROLE_QUEEN == 3
	ASSERT ROLE_PAWN == 4 && ROLE_KNIGHT == 8 && ROLE_KING == 12


;; The engine's square at a place on the screen, as wBoardBottomColor turns
;; the board.
;; @param b: screen row (0 = top)
;; @param c: screen column (0 = left)
;; @return e: the square
;; @destroys af
ScreenToSquare::
	ld a, [wBoardBottomColor]
	and a
	ASSERT COLOR_WHITE == 0
	; White at the bottom: file = column, rank = 5 - row;
	; Black: file = 4 - column, rank = row.
	ld a, c
	jr z, .whiteBottom
	cpl
	add BOARD_FILES
	ld e, a
	ld a, b
	jr .rank
.whiteBottom
	ld e, a
	ld a, BOARD_RANKS - 1
	sub b
.rank
	add BOARD_FIRST_ROW
	swap a
	add e
	ld e, a
	ret


;; The place on the screen of an engine square (ScreenToSquare undone).
;; @param a: the square (MOVE_TO_SQUARE bits only)
;; @return b: screen row; c: screen column
;; @destroys af
SquareToScreen::
	ld c, a
	and SQUARE_FILE_MASK
	ld b, a
	ld a, c
	swap a
	and SQUARE_ROW_MASK >> 4
	sub BOARD_FIRST_ROW
	ld c, b
	; c: file, a: rank
	ld b, a
	ld a, [wBoardBottomColor]
	and a
	jr nz, .blackBottom
	ld a, BOARD_RANKS - 1
	sub b
	ld b, a
	ret
.blackBottom
	ld a, BOARD_FILES - 1
	sub c
	ld c, a
	ret


;; Writes the rank numbers beside the board and the file letters under it,
;; in the order wBoardBottomColor gives (WriteTiles: with the LCD off or on,
;; when the board turns round during a game).
;; @destroys af, bc, de, hl
DrawBoardLabels::
	ld a, [wBoardBottomColor]
	and a
	ld de, RankLabelsWhiteBottom
	jr z, .gotRankLabels
	ld de, RankLabelsBlackBottom
.gotRankLabels
	ld hl, RANK_LABELS_MAP
	ld b, BOARD_RANKS
.rank
	push bc
	push hl
	ld c, 1
	call WriteTiles
	pop hl
	ld bc, SQUARE_TILES * TILEMAP_WIDTH
	add hl, bc
	pop bc
	dec b
	jr nz, .rank

	; de: the file letters, which follow the rank numbers
	ld hl, FILE_LABELS_MAP
	ld c, FILE_LABELS_LENGTH
	jp WriteTiles

; Labels from the top down and from the left: each side's file letters, a
; letter under the left half of each file, follow its rank numbers.
DEF FILE_LABELS_LENGTH EQU BOARD_WIDTH_TILES - 1
RankLabelsWhiteBottom:
	db "654321"
	assert_table_length RankLabelsWhiteBottom, BOARD_RANKS, 1
	ASSERT FileLabelsWhiteBottom == RankLabelsWhiteBottom + BOARD_RANKS
FileLabelsWhiteBottom:
	db "a b c d e"
	assert_table_length FileLabelsWhiteBottom, FILE_LABELS_LENGTH, 1
RankLabelsBlackBottom:
	db "123456"
	assert_table_length RankLabelsBlackBottom, BOARD_RANKS, 1
	ASSERT FileLabelsBlackBottom == RankLabelsBlackBottom + BOARD_RANKS
FileLabelsBlackBottom:
	db "e d c b a"
	assert_table_length FileLabelsBlackBottom, FILE_LABELS_LENGTH, 1


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
UpdateCursorObjects::
	ld a, [wCursorColumn]
	ld c, a
	ld a, [wCursorRow]
	ld b, a
	ld hl, wShadowOAM + CURSOR_FIRST_OBJ * OBJ_SIZE
	ld e, OBJ_TILE_SELECTOR
	fallthrough PlaceSquareObjects


;; Writes four objects around a square on the screen: its corners' tiles
;; e + 0 (top left), + 1 (top right), + 2 (bottom left), + 3 (bottom right).
;; @param b: screen row; c: screen column (of squares)
;; @param e: the first corner's tile
;; @param hl: the first of the four entries in wShadowOAM
;; @return hl: just past the fourth
;; @destroys af, bc, de
PlaceSquareObjects::
	ASSERT SQUARE_TILES * TILE_WIDTH == 16 && SQUARE_TILES * TILE_HEIGHT == 16
	; c: OAM X of the square's left edge, b: OAM Y of its top edge
	ld a, c
	swap a
	add BOARD_TILE_X * TILE_WIDTH + OAM_X_OFS
	ld c, a
	ld a, b
	swap a
	add BOARD_TILE_Y * TILE_HEIGHT + OAM_Y_OFS
	ld b, a
	; d: the corner, 0-3 (bit 0: right, bit 1: bottom)
	ld d, 0
.corner
	ld a, d
	and 2
	add a
	add a
	ASSERT TILE_HEIGHT == 8
	add b
	ld [hli], a
	ld a, d
	and 1
	swap a
	rrca
	ASSERT TILE_WIDTH == 8
	add c
	ld [hli], a
	ld a, e
	add d
	ld [hli], a
	ld a, OAM_PAL0
	ld [hli], a
	inc d
	bit 2, d
	jr z, .corner
	ret


;; Hides four objects (puts them above the screen).
;; @param hl: the first of the four entries in wShadowOAM
;; @return hl: just past the fourth
;; @destroys af, b
HideSquareObjects::
	ld b, OBJS_PER_SQUARE
.object
	xor a
	ld [hli], a
	inc hl
	inc hl
	inc hl
	dec b
	jr nz, .object
	ret


;; Shows the mark on a square (of the piece picked up, or of the last move):
;; four objects with the last-move mark's tiles.
;; @param a: the square (engine square), or 0 to hide the mark
;; @param hl: the first of the mark's four entries in wShadowOAM
;; @return hl: just past the fourth
;; @destroys af, bc, de
PlaceSquareMark::
	and a
	jr z, HideSquareObjects
	call SquareToScreen
	ld e, OBJ_TILE_LAST_MOVE
	jr PlaceSquareObjects


;; Shows the marks of wPickedSquare, wLastMoveFrom and wLastMoveTo (hiding
;; those that are 0) and the selector.
;; @destroys af, bc, de, hl
UpdateSquareMarks::
	ld hl, wShadowOAM + PICKED_FIRST_OBJ * OBJ_SIZE
	ld a, [wPickedSquare]
	call PlaceSquareMark
	ASSERT LAST_MOVE_FIRST_OBJ == PICKED_FIRST_OBJ + OBJS_PER_SQUARE
	ld a, [wLastMoveFrom]
	call PlaceSquareMark
	ld a, [wLastMoveTo]
	call PlaceSquareMark
	jr UpdateCursorObjects


SECTION "Board view of a move", ROMX

;; Draws what a move just made changed on the board (wBoard, the move in
;; wLastMoveFrom and wLastMoveTo) and takes the outlines away: its from and to
;; squares (two entries of two tiles for each square, through the VRAM queue), or the rows
;; of squares of MoveBoardRows for a castle or an en-passant capture (whose
;; rook or taken pawn is on the from square's row) or with squares outlined.
;; @param a: the move's MOVE_FLAG_*
;; @destroys af, bc, de, hl
DrawMovedBoard::
	and MOVE_FLAG_CASTLE | MOVE_FLAG_EN_PASSANT
	ld hl, wOutlineCount
	or [hl]
	jr z, .squares
	call MoveBoardRows
	xor a
	ld [wOutlineCount], a
	jp DrawBoardRows
.squares
	ld a, [wLastMoveFrom]
	call DrawBoardSquare
	ld a, [wLastMoveTo]
	jp DrawBoardSquare



;; The rows of squares (DrawBoardRows) a move just made changes on the
;; screen: those of its from and to squares (wLastMoveFrom, wLastMoveTo; a
;; castle's rook and a pawn taken en passant stand on the from square's rank,
;; so on its row) and those of the outlined squares (wOutlines), whose
;; outlines go when the move is drawn.
;; @return c: the rows, bit n for the screen's row n
;; @destroys af, b, de, hl
MoveBoardRows:
	ld a, [wLastMoveFrom]
	call SquareRowBit
	ld e, a
	ld a, [wLastMoveTo]
	call SquareRowBit
	or e
	ld e, a
	ld hl, wOutlineCount
	ld a, [hli]
	ld d, a
	inc d
	jr .nextOutline
.outline
	ld a, [hli]
	and MOVE_TO_SQUARE
	call SquareRowBit
	or e
	ld e, a
.nextOutline
	dec d
	jr nz, .outline
	ld c, e
	ret


;; The bit of a square's row on the screen in a mask of DrawBoardRows.
;; @param a: the square (MOVE_TO_SQUARE bits only)
;; @return a: 1 << its screen row
;; @destroys f, bc
SquareRowBit:
	call SquareToScreen
	ld a, 1
	inc b
	jr .nextRow
.shift
	add a
.nextRow
	dec b
	jr nz, .shift
	ret
