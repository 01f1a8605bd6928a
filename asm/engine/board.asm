; The board and the rest of the position, and loading a position into them.
;
; Representation, chosen for the SM83:
;
; - wBoard is one 256-byte page: a mailbox 16 cells wide. H (or D) holds
;   HIGH(wBoard) for good and L (or E) is the square, so reading a square is
;   one `ld a, [hl]` and a step is one `add` on the low byte. Files a-e are
;   columns 0-4 and ranks 1-6 are rows 2-7; every other cell of the page holds
;   OFF_BOARD: columns 5-15 catch the steps off the sides (a knight's two-file
;   jump from the a-file lands in column 14 of the row below), rows 0-1 and 8-9
;   catch the steps off the top and bottom (a knight jumps two rows at most),
;   and the rest of the page, even the cells that a step wrapping round the
;   page's end reaches, is OFF_BOARD too. So every step of every piece reads
;   one cell and needs no bounds check.
; - A cell is a piece code (engine.inc): role bits 0-3, chosen so that "slides
;   diagonally" and "slides orthogonally" are single bits, and a colour bit.
;   "Empty or enemy" is one `and OWN_COLOUR | OFF_BOARD | PINNED`; "enemy
;   rook or queen" is one `and ENEMY | ROLE_ORTHOGONAL` and one `cp`.
; - Piece slots: each piece has a slot for as long as it is on the board, a
;   byte of wPieceSquares (PIECE_SLOTS per colour) holding its square, and
;   wPieceSlotOf, a page indexed by square, gives the low byte of the slot's
;   address for every occupied square. LoadPosition gives the king slot 0 and
;   the other pieces slots 1, 2, ... in the order a1, b1, ... e6; MakeMove and
;   UnmakeMove move a slot with its piece, and a piece taken leaves square 0
;   (a cell off the board) in its slot until UnmakeMove puts it back (the undo
;   record keeps the slot), so slots never change hands. The generator scans
;   the slots from the last one LoadPosition gave out down to slot 1, through
;   unrolled code entered at that slot (wScanJumps): 12 M-cycles per slot
;   (9 slots in the start position) instead of 9 per square over 30 squares. Each king's square is also kept in
;   hKingSquares, since check and pin detection start from it.
; - The rest of the position (side to move, castling rights, en-passant square,
;   halfmove clock, the king squares) is a few bytes of HRAM, reached with
;   `ldh`, and the 32-bit Zobrist key is in WRAM; MakeMove saves them in an
;   undo record and UnmakeMove puts them back.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/chess.inc"
INCLUDE "engine/engine.inc"


SECTION "Board", WRAM0, ALIGN[8]

; The mailbox: 256 cells, see above.
wBoard::
	ds 256


SECTION "Piece slot of square", WRAM0, ALIGN[8]

; For an occupied square, the low byte of the address of its piece's slot in
; wPieceSquares; anything on an empty square.
wPieceSlotOf::
	ds 256


SECTION "Piece squares", WRAM0, ALIGN[6]

; The slots: the square of each piece, or 0 (off the board) for a piece taken.
; White's PIECE_SLOTS slots, then Black's; slot 0 is the king's.
wPieceSquares::
	ds 2 * PIECE_SLOTS
; For each colour, a `jp` instruction that GenerateMoves calls: to the entry
; of the last slot LoadPosition gave out in the board scan (movegen.asm).
wScanJumps::
	ds 3 * NUM_COLORS
; For each colour, the low byte of the address after the last slot
; LoadPosition gave out (GenerateQuiescenceMoves's scan starts below it).
wPieceSlotsEnd::
	ds NUM_COLORS


SECTION "Position state", HRAM

; In HRAM, where `ldh` reaches it faster and all of it is one page
; (hKingSquares is indexed with 8-bit arithmetic).

; COLOR_WHITE or COLOR_BLACK.
hSideToMove:: db
; CASTLE_WHITE | CASTLE_BLACK: the (long) castling rights still held.
hCastlingRights:: db
; The square a pawn that just made a double step crossed, when an enemy pawn
; stands beside it (so it may be taken en passant); NO_EP_SQUARE otherwise.
hEpSquare:: db
; Plies since the last capture or pawn move, stopping at 255.
hHalfmoveClock:: db
; The square of each king, indexed by colour.
hKingSquares:: ds NUM_COLORS


SECTION "Zobrist key", WRAM0, ALIGN[2]

; The Zobrist key of the position, little-endian (see zobrist.asm); aligned so
; that its 4 bytes stay in one page (they are walked with 8-bit steps).
wZobristKey:: ds 4




SECTION "Load position", ROM0

;; Loads a position given in the setup format (see SETUP_* above), gives its
;; pieces their slots, makes it the root of the move and undo stacks, and
;; computes its Zobrist key and White's score (eval.asm). A
;; castling right whose king or rook is not at home is dropped; a piece byte
;; outside 0-6 and 9-14 reads as an empty square. The side not to move must
;; not be in check (GenerateMoves finds knight and pawn checks from the last
;; move after the first MakeMove; see movegen.asm).
;; @param hl: the setup (SETUP_SIZE bytes)
;; @destroys af, bc, de, hl
LoadPosition::
	push hl
	; Every cell off the board, then the squares (the board is one page) ...
	ld hl, wBoard
	ld a, OFF_BOARD
.clear
	ld [hl], a
	inc l
	jr nz, .clear
	; ... and every slot empty (b: 0 after the loop, c: 0).
	ld hl, wPieceSquares
	lb bc, 2 * PIECE_SLOTS, 0
	xor a
.clearSlots
	ld [hli], a
	dec b
	jr nz, .clearSlots
	pop hl

	; Each square's piece goes on the board and gets its slot (see the top of
	; the file), in the order a1, b1, ... e6; b: White's pieces besides the
	; king so far, c: Black's (0, 0 from the loops above). A side has at most
	; PIECE_SLOTS - 1 pieces besides its king (a position of the game has at
	; most 9); any more would get no slot.
	ld de, SetupSquares
.square
	ld a, [hli]
	push hl
	push de
	and $0F
	ASSERT LOW(SetupPieces) % 16 == 0
	add LOW(SetupPieces)
	ld l, a
	ld h, HIGH(SetupPieces)
	ld a, [de]
	ld e, a
	ld d, HIGH(wBoard)
	ld a, [hl]
	ld [de], a
	and a
	jr z, .next
	ld h, a
	and ROLE_MASK
	cp ROLE_KING
	jr z, .king
	bit B_PIECE_BLACK, h
	jr nz, .black
	ld a, b
	cp PIECE_SLOTS - 1
	jr nc, .next
	inc b
	ld a, b
	jr .slot
.black
	ld a, c
	cp PIECE_SLOTS - 1
	jr nc, .next
	inc c
	ld a, c
	add PIECE_SLOTS
	jr .slot
.king
	; Kings: slot 0 of their colour, and their squares noted.
	ld a, e
	bit B_PIECE_BLACK, h
	jr nz, .blackKing
	ldh [hKingSquares + COLOR_WHITE], a
	xor a
	jr .slot
.blackKing
	ldh [hKingSquares + COLOR_BLACK], a
	ld a, PIECE_SLOTS
.slot
	; a: the slot's index in wPieceSquares
	add LOW(wPieceSquares)
	ld l, a
	ld h, HIGH(wPieceSquares)
	ld [hl], e
	ld d, HIGH(wPieceSlotOf)
	ld [de], a
.next
	pop de
	pop hl
	inc e
	ld a, e
	cp LOW(SetupSquares.end)
	jr nz, .square

	; The scan jumps (to SCAN_ENTRY_SIZE bytes before the scan's end per
	; slot), then the slots' ends, in the order they lie in WRAM.
	push hl
	ld de, wScanJumps
	ld hl, ScanWhitePiecesEnd
	ld a, b
	call .scanJump
	ld hl, ScanBlackPiecesEnd
	ld a, c
	call .scanJump
	ASSERT wPieceSlotsEnd == wScanJumps + 3 * NUM_COLORS
	ld a, b
	add LOW(wPieceSquares + COLOR_WHITE * PIECE_SLOTS) + 1
	ld [de], a
	inc de
	ld a, c
	add LOW(wPieceSquares + COLOR_BLACK * PIECE_SLOTS) + 1
	ld [de], a
	pop hl

	ld a, [hli]
	and 1
	ldh [hSideToMove], a

	; Castling rights, kept only where king and rook are at home.
	ld a, [hli]
	and CASTLE_WHITE | CASTLE_BLACK
	ld c, a
	ld a, [wBoard + SQ_E1]
	cp WHITE_KING
	jr nz, .noWhiteCastle
	ld a, [wBoard + SQ_A1]
	cp WHITE_ROOK
	jr z, .whiteCastleOk
.noWhiteCastle
	res B_CASTLE_WHITE, c
.whiteCastleOk
	ld a, [wBoard + SQ_E6]
	cp BLACK_KING
	jr nz, .noBlackCastle
	ld a, [wBoard + SQ_A6]
	cp BLACK_ROOK
	jr z, .blackCastleOk
.noBlackCastle
	res B_CASTLE_BLACK, c
.blackCastleOk
	ld a, c
	ldh [hCastlingRights], a

	; The en-passant square: a setup index, or anything else for none (the
	; entry past the squares).
	ld a, [hli]
	cp NUM_SQUARES
	jr c, .epIndex
	ld a, NUM_SQUARES
.epIndex
	add LOW(SetupSquares)
	ld e, a
	ld d, HIGH(SetupSquares)
	ld a, [de]
	ldh [hEpSquare], a

	ld a, [hl]
	ldh [hHalfmoveClock], a

	call ResetUndoStack
	call ComputeZobristKey
	jp ComputeWhiteScore

.scanJump
	; Writes `jp` to hl less a entries at de, de moving past it.
	push bc
	ld bc, -SCAN_ENTRY_SIZE
	inc a
.back
	dec a
	jr z, .write
	add hl, bc
	jr .back
.write
	pop bc
	ld a, OPCODE_JP
	ld [de], a
	inc de
	ld a, l
	ld [de], a
	inc de
	ld a, h
	ld [de], a
	inc de
	ret


SECTION "Setup squares", ROMX, ALIGN[5]

; The square of each setup index, then no square (aligned so that it cannot
; cross a page: its 31 bytes sit in one 32-byte block).
SetupSquares:
FOR rank, BOARD_RANKS
	FOR file, BOARD_FILES
		db (BOARD_FIRST_ROW + rank) * BOARD_ROW_CELLS + file
	ENDR
ENDR
.end
	assert_table_length SetupSquares, NUM_SQUARES, 1
	; (what LoadPosition reads for a setup's "no en-passant square")
	db NO_EP_SQUARE
ASSERT HIGH(SetupSquares) == HIGH(SetupSquares.end), "SetupSquares crosses a page"


SECTION "Setup pieces", ROMX, ALIGN[4]

; The piece code of each setup piece byte (aligned: indexed by an `add` to
; the low byte alone).
SetupPieces:
	db EMPTY, WHITE_PAWN, WHITE_KNIGHT, WHITE_BISHOP, WHITE_ROOK, WHITE_QUEEN, WHITE_KING, EMPTY
	db EMPTY, BLACK_PAWN, BLACK_KNIGHT, BLACK_BISHOP, BLACK_ROOK, BLACK_QUEEN, BLACK_KING, EMPTY
	assert_table_length SetupPieces, 16, 1


; The setup index of a square, for the test driver alone (it reports squares
; as setup indices): the cartridge has none of it.
IF DEF(TEST_DRIVER)

SECTION "Square to setup index", ROM0

;; The setup square index (a1 = 0, ..., e6 = 29) of a square.
;; @param a: square (a cell of the board)
;; @return a: setup index
;; @destroys f, hl
SquareToSetupIndex::
	ld l, a
	ld h, HIGH(SquareSetupIndices)
	ld a, [hl]
	ret


SECTION "Square setup indices", ROMX, ALIGN[8]

; The setup index of each cell ($FF off the board), indexed by square.
SquareSetupIndices:
FOR cell, 256
	IF (cell % BOARD_ROW_CELLS) < BOARD_FILES && cell / BOARD_ROW_CELLS >= BOARD_FIRST_ROW && cell / BOARD_ROW_CELLS < BOARD_FIRST_ROW + BOARD_RANKS
		db (cell / BOARD_ROW_CELLS - BOARD_FIRST_ROW) * BOARD_FILES + cell % BOARD_ROW_CELLS
	ELSE
		db $FF
	ENDC
ENDR
	assert_table_length SquareSetupIndices, 256, 1

ENDC

ASSERT HIGH(wPieceSquares) == HIGH(wPieceSquares + 2 * PIECE_SLOTS), "the slots cross a page (GenerateQuiescenceMoves walks them with 8-bit steps)"
