; Zobrist keys: a 32-bit key per position, kept up to date by MakeMove.
;
; The key is the XOR of one key per piece on its square, one for Black to
; move, one per castling right held, and one per file of the en-passant square
; while there is one (hEpSquare: a double step with an enemy pawn beside it).
; The game's repetition check wants the en-passant file only when an
; en-passant capture is legal, as engine-src's key does: GameKey in gameend.asm
; corrects for that.
;
; The keys are engine-src's (engine-src/src/zobrist.rs), rendered by `cargo
; xtask assets` into generated/engine/zobrist.inc: the cartridge keeps the low
; 32 bits of each 64-bit key, byte 0 the lowest, so that its key of a position
; is the low 32 bits of the model's (Position::cartridge_key). The game's key
; (GameKey) always is; the key MakeMove keeps (wZobristKey) is the low 32 bits
; of the model's search::line_key, which differs only right after a double
; step beside an enemy pawn that cannot capture en passant.
;
; Piece keys are laid out for a fast update: 8 pages, one per colour and key
; byte (White bytes 0-3, then Black bytes 0-3). In a page, the key of a role on
; a square is at cell (square + the role's PAGE_OFFSET_*, engine.inc): each role
; gets its own columns and rows of the page. The evaluation's pages (eval.asm)
; have the same layout, so MakeMove finds a move's two cells once for both.
; Cells no role uses hold 0 (no piece code leads there).

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/chess.inc"
INCLUDE "engine/engine.inc"
INCLUDE "generated/engine/zobrist.inc"

ASSERT ZOBRIST_BOARD_FIRST_ROW == BOARD_FIRST_ROW && ZOBRIST_BOARD_ROW_CELLS == BOARD_ROW_CELLS, "zobrist.inc is made for another mailbox"
ASSERT ZOBRIST_OFFSET_PAWN == PAGE_OFFSET_PAWN && ZOBRIST_OFFSET_KNIGHT == PAGE_OFFSET_KNIGHT && ZOBRIST_OFFSET_BISHOP == PAGE_OFFSET_BISHOP, "zobrist.inc's role offsets are not the piece pages'"
ASSERT ZOBRIST_OFFSET_ROOK == PAGE_OFFSET_ROOK && ZOBRIST_OFFSET_QUEEN == PAGE_OFFSET_QUEEN && ZOBRIST_OFFSET_KING == PAGE_OFFSET_KING, "zobrist.inc's role offsets are not the piece pages'"


SECTION "Zobrist piece keys", ROMX, ALIGN[8]

; 8 pages of key bytes (see above).
ZobristPieceKeys:
	zobrist_piece_pages
	assert_table_length ZobristPieceKeys, 8 * 256, 1



SECTION "Zobrist piece key index", ROMX, ALIGN[8]

; For a piece code p: at cell p, the role's offset in a piece page (a key page
; or an evaluation page); at cell p + $80, the page of the key's byte 0 for the
; piece's colour.
PieceKeyIndex::
FOR cell, 256
	DEF role = cell & ROLE_MASK
	IF role == ROLE_BISHOP
		DEF offset = PAGE_OFFSET_BISHOP
	ELIF role == ROLE_ROOK
		DEF offset = PAGE_OFFSET_ROOK
	ELIF role == ROLE_QUEEN
		DEF offset = PAGE_OFFSET_QUEEN
	ELIF role == ROLE_PAWN
		DEF offset = PAGE_OFFSET_PAWN
	ELIF role == ROLE_KNIGHT
		DEF offset = PAGE_OFFSET_KNIGHT
	ELSE
		DEF offset = PAGE_OFFSET_KING
	ENDC
	IF cell < $80
		db offset
	ELIF (cell - $80) & PIECE_BLACK
		db HIGH(ZobristPieceKeys) + 4
	ELSE
		db HIGH(ZobristPieceKeys)
	ENDC
ENDR
	assert_table_length PieceKeyIndex, 256, 1

; The key of Black to move, little-endian; MakeMove XORs it in as immediates.
BlackToMoveKey::
	dl ZOBRIST_BLACK_TO_MOVE
EXPORT ZOBRIST_BLACK_TO_MOVE

; The castling keys of each value of hCastlingRights.
CastlingKeys:
	dl 0
	dl ZOBRIST_CASTLE_WHITE
	dl ZOBRIST_CASTLE_BLACK
	dl ZOBRIST_CASTLE_WHITE ^ ZOBRIST_CASTLE_BLACK
	assert_table_length CastlingKeys, 4, 4

; The en-passant key of each file.
EpFileKeys:
FOR file, BOARD_FILES
	dl ZOBRIST_EP_FILE_{d:file}
ENDR
	assert_table_length EpFileKeys, BOARD_FILES, 4
ASSERT HIGH(BlackToMoveKey) == HIGH(EpFileKeys + 4 * BOARD_FILES - 1), "the small keys cross a page"


SECTION "Zobrist", ROM0

;; XORs the key of a piece on a square into wZobristKey.
;; @param a: piece code (a White or Black piece)
;; @param l: square
;; @destroys af, de, hl
XorPieceKey::
	ld e, l
	xor_piece_key e
	ret

;; XORs a 4-byte key from ROM into wZobristKey.
;; @param hl: the key, little-endian
;; @destroys af, de, hl
XorKey::
	ld de, wZobristKey
REPT 3
	ld a, [de]
	xor [hl]
	ld [de], a
	inc e
	inc hl
ENDR
	ld a, [de]
	xor [hl]
	ld [de], a
	ret

;; XORs the key of the en-passant square's file into wZobristKey.
;; @param a: en-passant square (not NO_EP_SQUARE)
;; @destroys af, de, hl
XorEpKey::
	and %111
	add a
	add a
	add LOW(EpFileKeys)
	ld l, a
	ld h, HIGH(EpFileKeys)
	jr XorKey

;; XORs the key of some castling rights into wZobristKey.
;; @param a: castling rights (as hCastlingRights)
;; @destroys af, de, hl
XorCastlingKey::
	add a
	add a
	add LOW(CastlingKeys)
	ld l, a
	ld h, HIGH(CastlingKeys)
	jr XorKey

;; Computes wZobristKey from the board and the state, from nothing.
;; @destroys af, bc, de, hl
ComputeZobristKey::
	xor a
	ld hl, wZobristKey
	ld [hli], a
	ld [hli], a
	ld [hli], a
	ld [hl], a
	ld c, 0
.square
	ld h, HIGH(wBoard)
	ld l, c
	ld a, [hl]
	and PIECE_WHITE | PIECE_BLACK
	jr z, .next
	ld a, [hl]
	call XorPieceKey
.next
	inc c
	jr nz, .square

	ldh a, [hSideToMove]
	and a
	jr z, .whiteToMove
	ld hl, BlackToMoveKey
	call XorKey
.whiteToMove
	ldh a, [hCastlingRights]
	call XorCastlingKey
	ldh a, [hEpSquare]
	and a
	ret z
	jr XorEpKey

ASSERT HIGH(wZobristKey) == HIGH(wZobristKey + 3), "wZobristKey crosses a page"
