; Making and unmaking moves, with full undo.
;
; MakeMove pushes an undo record (UNDO_*: the state before the move, the piece
; that moved, the piece taken, the kind of move, the slot of the piece taken,
; the to square) on wUndoStack; UnmakeMove pops it. The byte below the first
; record reads UNDO_TO_UNKNOWN, so the UNDO_TO byte right below wUndoTop is
; always the square the move that made the position landed on, or
; UNDO_TO_UNKNOWN at the root (GenerateMoves finds leaping checkers with it).
; Both move the piece slots of board.asm with the pieces. The Zobrist key,
; White's score and the mating material (eval.asm) are updated incrementally
; and simply restored on unmake.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/chess.inc"
INCLUDE "engine/engine.inc"
INCLUDE "generated/engine/eval.inc"


SECTION "Undo stack", WRAM0

; The next free undo record.
wUndoTop:: dw
; UNDO_TO_UNKNOWN, the root's "last move" (see the top of the file).
wUndoRootTo: db
wUndoStack: ds MAX_PLIES * UNDO_SIZE
wUndoStackEnd:


SECTION "Move being made", HRAM

; The move being made: the to byte as given (promotion bits included), the
; piece that moves and the piece on the target square.
hMoveTarget: db
hMovedPiece: db
hCapturedPiece: db


SECTION "Castling rights kept", ROMX, ALIGN[8]

; For each square, the castling rights a move from or to it keeps: a move
; touching a king's or a-file rook's home square ends that side's right.
CastlingRightsKept:
FOR cell, 256
	IF cell == SQ_A1 || cell == SQ_E1
		db CASTLE_BLACK
	ELIF cell == SQ_A6 || cell == SQ_E6
		db CASTLE_WHITE
	ELSE
		db CASTLE_WHITE | CASTLE_BLACK
	ENDC
ENDR
	assert_table_length CastlingRightsKept, 256, 1


SECTION "Make and unmake", ROMX

;; Empties the undo stack: the current position becomes the root.
;; @destroys a
ResetUndoStack::
	ld a, UNDO_TO_UNKNOWN
	ld [wUndoRootTo], a
	ld a, LOW(wUndoStack)
	ld [wUndoTop], a
	ld a, HIGH(wUndoStack)
	ld [wUndoTop + 1], a
	ret


;; Plays a move of the side to move: updates the board, the king squares, the
;; side to move, castling rights, en-passant square, halfmove clock, Zobrist
;; key, White's score and the mating material (eval.asm), and pushes an undo
;; record. The move must be one that
;; GenerateMoves produced for this position.
;; @param d: from square
;; @param e: to byte (the to square with the promotion bits)
;; @destroys af, bc, de, hl
MakeMove::
	; hl := wUndoTop, which moves on to the next record at once: 17 cycles,
	; where reading it here and writing it back after the record took 20.
	ld hl, wUndoTop
	ld a, [hl]
	ld c, a
	add UNDO_SIZE
	ld [hli], a
	ld a, [hl]
	jr nc, .topDone
	inc [hl]
.topDone
	ld h, a
	ld l, c
IF DEF(ENGINE_STACK_CHECKS)
	; A record must fit before the end of the undo stack.
	trap_unless_hl_below wUndoStackEnd - UNDO_SIZE + 1, UndoStackOverflow
ENDC
	ldh a, [hCastlingRights]
	ld [hli], a
	ldh a, [hEpSquare]
	ld [hli], a
	ldh a, [hHalfmoveClock]
	ld [hli], a
	; The clock counts the move, staying at 255 once there (a capture or a
	; pawn's move sets it to 0 below): counted in a, as it is saved, in 6
	; cycles, where inc [hl] through hl took 9.
	inc a
	jr z, .counted
	ldh [hHalfmoveClock], a
.counted
	; The key, through bc (free until the move is read; the key does not cross
	; a page, zobrist.asm): 22 cycles, where four ld a, [n16] took 24.
	ld bc, wZobristKey
	REPT 3
		ld a, [bc]
		ld [hli], a
		inc c
	ENDR
	ld a, [bc]
	ld [hli], a
	ldh a, [hWhiteScore]
	ld [hli], a
	ldh a, [hWhiteScore + 1]
	ld [hli], a
	ldh a, [hMatingMaterial]
	ld [hli], a

	; b: from, c: to square
	ld b, d
	ld a, e
	ldh [hMoveTarget], a
	and MOVE_TO_SQUARE
	ld c, a
	ld d, HIGH(wBoard)
	ld e, b
	ld a, [de]
	ld [hli], a
	ldh [hMovedPiece], a
	; Lift the piece while de points at it (its key changes when it is put
	; down).
	xor a
	ld [de], a
	ld e, c
	ld a, [de]
	ld [hli], a
	ldh [hCapturedPiece], a
	ASSERT MOVE_KIND_NORMAL == 0
	xor a
	ld [hli], a
	; The slot of the piece on the target square (used if there is one).
	ld d, HIGH(wPieceSlotOf)
	ld a, [de]
	ld [hli], a
	ld [hl], c

	; An en-passant square ends (the side to move changes with the score, at
	; the end).
	ldh a, [hEpSquare]
	and a
	jr z, .noEpSquare
	call XorEpKey
	xor a
	ldh [hEpSquare], a
.noEpSquare

	; Take the piece on the target square: its key and value go, as
	; XorPieceKey and SubtractPieceValue would take them, written out here
	; (the search's captures are most of its moves) to share the cell (the
	; square plus the role's offset, the same in both pages) and save the
	; calls.
	ldh a, [hCapturedPiece]
	and a
	jr z, .noCapture
	xor_piece_key c
	; (l: the piece's cell) d: the piece-square entry (signed), from its colour's evaluation page
	ldh a, [hCapturedPiece]
	ld e, a
	ld h, HIGH(EvalPages)
	bit B_PIECE_BLACK, e
	jr z, .takenPage
	inc h
.takenPage
	ld d, [hl]
	; Its mating material: the role's cell in the last row, whose OR with the
	; piece code covers the colour bits too (2 cycles fewer than masking the
	; role first).
	ASSERT ((PIECE_WHITE | PIECE_BLACK) & ~(EVAL_MATING_ROW * BOARD_ROW_CELLS)) == 0
	ld a, e
	or EVAL_MATING_ROW * BOARD_ROW_CELLS
	ld l, a
	ldh a, [hMatingMaterial]
	sub [hl]
	ldh [hMatingMaterial], a
	; White's score less the material (its word at the role code and 16 cells
	; on), then less the entry, sign-extended
	ld a, l
	and ROLE_MASK
	ld l, a
	ldh a, [hWhiteScore]
	sub [hl]
	ld e, a
	set 4, l
	ldh a, [hWhiteScore + 1]
	sbc [hl]
	ld l, a
	ld a, d
	add a
	sbc a
	ld h, a
	ld a, e
	sub d
	ldh [hWhiteScore], a
	ld a, l
	sbc h
	ldh [hWhiteScore + 1], a
	xor a
	ldh [hHalfmoveClock], a
	; Its slot keeps square 0 until UnmakeMove.
	ld h, HIGH(wPieceSlotOf)
	ld l, c
	ld l, [hl]
	ld h, HIGH(wPieceSquares)
	ld [hl], a
.noCapture

	; The mover's slot moves with it.
	ld h, HIGH(wPieceSlotOf)
	ld l, b
	ld a, [hl]
	ld l, c
	ld [hl], a
	ld l, a
	ld h, HIGH(wPieceSquares)
	ld [hl], c

	; Castling rights end when a king or a-file rook leaves home or is taken.
	; e: the rights before, so that a move that keeps them all costs 19
	; cycles here, not 22 with a second read of hCastlingRights.
	ldh a, [hCastlingRights]
	and a
	jr z, .rightsDone
	ld e, a
	ld h, HIGH(CastlingRightsKept)
	ld l, b
	and [hl]
	ld l, c
	and [hl]
	cp e
	jr z, .rightsDone
	ldh [hCastlingRights], a
	; a: the rights lost; their key is the XOR of the old and new rights'
	xor e
	call XorCastlingKey
.rightsDone

	ldh a, [hMovedPiece]
	bit 2, a
	jr nz, .pawnOrKing

	; a: the piece moved, to put down on the target square (a promotion puts
	; its new piece down itself, at .promoteTo).
.place
	ld h, HIGH(wBoard)
	ld l, c
	ld [hl], a
	; The key, in one pass: the piece leaves b and lands on c (the piece key
	; pages of zobrist.asm), and the side to move changes. b and c become the
	; piece's two cells in a piece page, which the score reads next.
	ld l, a
	ld h, HIGH(PieceKeyIndex)
	ld e, [hl]
	set 7, l
	ld h, [hl]
	ld a, e
	add b
	ld b, a
	ld a, e
	add c
	ld c, a
	ld de, wZobristKey
	FOR i, 4
		ld l, b
		ld a, [de]
		xor [hl]
		ld l, c
		xor [hl]
		xor LOW(ZOBRIST_BLACK_TO_MOVE >> (8 * i))
		ld [de], a
		IF i < 3
			inc e
			inc h
		ENDC
	ENDR
	; The side to move changes, and the score: the piece's entry on c
	; replaces its entry on b, in the page of the side that moved,
	; HIGH(EvalPages) + 1 - the side now to move (still in a once stored: 12
	; cycles for both, 3 fewer than reading hSideToMove again).
	ASSERT COLOR_WHITE == 0 && COLOR_BLACK == 1
	ldh a, [hSideToMove]
	xor 1
	ldh [hSideToMove], a
	cpl
	add HIGH(EvalPages) + 2
	ld h, a
	ld l, c
	ld a, [hl]
	ld l, b
	sub [hl]
	; a: the difference, signed (both entries are -64..64); by its sign, the
	; high byte takes the carry or the borrow (faster than sign-extending).
	ld hl, hWhiteScore
	bit 7, a
	jr nz, .scoreFalls
	add [hl]
	ld [hli], a
	ret nc
	inc [hl]
	ret
.scoreFalls
	add [hl]
	ld [hli], a
	ret c
	dec [hl]
	ret

.pawnOrKing
	; e: the piece moved, a pawn or a king (a king has both bits 2 and 3)
	ld e, a
	bit 3, a
	jr z, .pawn
	; A king: in a king's endgame White's score follows the endgame's table,
	; and in a search with a mop-up its bonus (eval.asm).
	ldh a, [hKingEndgame]
	and a
	call nz, EndgameKingMoves
	ldh a, [hMopUp]
	and a
	call nz, MopUpKingMoves
	ldh a, [hSideToMove]
	add LOW(hKingSquares)
	ld l, a
	ld h, HIGH(hKingSquares)
	ld [hl], c
	ld a, b
	sub 2
	cp c
	jr z, .castle
	ld a, e
	jr .place

.castle
	; The long castle: the rook goes from the a-file to the d-file.
	ldh a, [hMovedPiece]
	and PIECE_WHITE | PIECE_BLACK
	or ROLE_ROOK
	push af
	ld d, HIGH(wBoard)
	ld a, b
	sub 4
	ld e, a
	xor a
	ld [de], a
	ld l, e
	pop af
	push af
	call XorPieceKey
	ld d, HIGH(wBoard)
	ld e, b
	dec e
	pop af
	ld [de], a
	push af
	ld l, e
	call XorPieceKey
	; Its score: lifted from the a-file, put down on the d-file.
	ld a, b
	sub 4
	ld l, a
	pop af
	push af
	call SubtractPieceValue
	pop af
	ld l, b
	dec l
	call AddPieceValue
	; The rook's slot moves with it.
	ld h, HIGH(wPieceSlotOf)
	ld a, b
	sub 4
	ld l, a
	ld a, [hl]
	inc l
	inc l
	inc l
	ld [hl], a
	ld l, a
	ld h, HIGH(wPieceSquares)
	ld a, b
	dec a
	ld [hl], a
	call UndoRecordKind
	ld [hl], MOVE_KIND_CASTLE
	jr .pawnReload

.pawn
	xor a
	ldh [hHalfmoveClock], a
	; The last-rank test and the step's kind, on a := c - ROW_RANK_2: below
	; ROW_RANK_6 - ROW_RANK_2 unless c is on rank 1 (it wraps) or rank 6,
	; where the pawn promotes; then a - b is the step less ROW_RANK_2 (even),
	; odd for a diagonal step, and else with bit 4 set for a double step only
	; ($20 - $30 = $F0 and $E0 - $30 = $B0, but $10 - $30 = $E0 and
	; $F0 - $30 = $C0): 16 cycles to a single step's place, the diagonal test
	; included, where testing each rank and each double step took 22.
	ASSERT DIR_N == BOARD_ROW_CELLS && ROW_RANK_2 == $30
	ld a, c
	sub ROW_RANK_2
	cp ROW_RANK_6 - ROW_RANK_2
	jr nc, .promotion
	sub b
	bit 0, a
	jr nz, .diagonal
	bit 4, a
	jr nz, .doubleStep
.pawnPlace
	ld a, e
	jp .place

.doubleStep
	; The en-passant square, if an enemy pawn (d) stands beside the target.
	ld a, e
	xor PIECE_WHITE | PIECE_BLACK
	ld d, a
	ld h, HIGH(wBoard)
	ld l, c
	inc l
	ld a, [hl]
	cp d
	jr z, .epSquare
	dec l
	dec l
	ld a, [hl]
	cp d
	jr nz, .pawnPlace
.epSquare
	ld a, b
	add c
	rra
	ldh [hEpSquare], a
	call XorEpKey
	jr .pawnReload

.diagonal
	; A diagonal step to an empty square takes en passant.
	ldh a, [hCapturedPiece]
	and a
	jr nz, .pawnPlace
.enPassant
	; The pawn taken stands beside, on the capturer's rank.
	ld a, b
	and SQUARE_ROW_MASK
	ld e, a
	ld a, c
	and SQUARE_FILE_MASK
	or e
	ld e, a
	ld d, HIGH(wBoard)
	ld a, [de]
	push af
	ld l, e
	xor a
	ld [de], a
	pop af
	push af
	push de
	call XorPieceKey
	pop de
	pop af
	push af
	push de
	ld l, e
	call SubtractPieceValue
	pop de
	call UndoRecordKind
	ld [hl], MOVE_KIND_EN_PASSANT
	dec hl
	pop af
	ld [hl], a
	; Its slot goes in the record and keeps square 0 until UnmakeMove.
	inc hl
	inc hl
	ld d, HIGH(wPieceSlotOf)
	ld a, [de]
	ld [hl], a
	ld l, a
	ld h, HIGH(wPieceSquares)
	ld [hl], 0
.pawnReload
	ldh a, [hMovedPiece]
	jp .place

.promotion
	ldh a, [hMoveTarget]
	and PROMOTE_MASK
	ld e, ROLE_QUEEN
	jr z, .promoteTo
	ld e, ROLE_KNIGHT
	cp PROMOTE_KNIGHT
	jr z, .promoteTo
	ld e, ROLE_ROOK
	cp PROMOTE_ROOK
	jr z, .promoteTo
	ld e, ROLE_BISHOP
.promoteTo
	; The new piece is put down on c and its key and value come, the pawn's
	; go from b, the side to move changes.
	ldh a, [hMovedPiece]
	and PIECE_WHITE | PIECE_BLACK
	or e
	ld h, HIGH(wBoard)
	ld l, c
	ld [hl], a
	push af
	call XorPieceKey
	pop af
	ld l, c
	call AddPieceValue
	ldh a, [hMovedPiece]
	ld l, b
	call XorPieceKey
	ldh a, [hMovedPiece]
	ld l, b
	call SubtractPieceValue
	ldh a, [hSideToMove]
	xor 1
	ldh [hSideToMove], a
	ld hl, BlackToMoveKey
	jp XorKey

;; The address of the UNDO_KIND byte of the last undo record.
;; @return hl
;; @destroys nothing else (af is saved)
UndoRecordKind::
	push af
	ld hl, wUndoTop
	ld a, [hli]
	ld h, [hl]
	ld l, a
	dec hl
	dec hl
	dec hl
	pop af
	ret


;; Takes back the last move made with MakeMove.
;; @param d: from square; e: to byte (as given to MakeMove)
;; @destroys af, bc, de, hl
UnmakeMove::
	ld b, d
	ld a, e
	and MOVE_TO_SQUARE
	ld c, a
	; hl, wUndoTop := the last record: 16 cycles, where reading wUndoTop,
	; adding -UNDO_SIZE and writing it back took 23.
	ld hl, wUndoTop
	ld a, [hl]
	sub UNDO_SIZE
	ld [hli], a
	ld e, a
	jr nc, .topDone
	dec [hl]
.topDone
	ld h, [hl]
	ld l, e
	ld a, [hli]
	ldh [hCastlingRights], a
	ld a, [hli]
	ldh [hEpSquare], a
	ld a, [hli]
	ldh [hHalfmoveClock], a
	ld de, wZobristKey
	REPT 3
		ld a, [hli]
		ld [de], a
		inc e
	ENDR
	ld a, [hli]
	ld [de], a
	ld a, [hli]
	ldh [hWhiteScore], a
	ld a, [hli]
	ldh [hWhiteScore + 1], a
	ld a, [hli]
	ldh [hMatingMaterial], a
	ldh a, [hSideToMove]
	xor 1
	ldh [hSideToMove], a

	ld d, HIGH(wBoard)
	ld e, b
	ld a, [hli]
	ld [de], a
	; A king (bits 2 and 3 both set) goes back to b in hKingSquares too.
	cpl
	and ROLE_KING
	jr nz, .notKing
	ldh a, [hSideToMove]
	add LOW(hKingSquares)
	ld e, a
	ld d, HIGH(hKingSquares)
	ld a, b
	ld [de], a
.notKing
	; The mover's slot goes back with it.
	ld d, HIGH(wPieceSlotOf)
	ld e, c
	ld a, [de]
	ld e, b
	ld [de], a
	ld e, a
	ld d, HIGH(wPieceSquares)
	ld a, b
	ld [de], a
	ld d, HIGH(wBoard)
	ld e, c
	ld a, [hli]
	ld [de], a
	; a: the piece taken, which gets its slot back (en passant fixes the
	; square below).
	and a
	jr z, .slotsDone
	inc hl
	ld a, [hld]
	ld d, HIGH(wPieceSlotOf)
	ld [de], a
	ld e, a
	ld d, HIGH(wPieceSquares)
	ld a, c
	ld [de], a
	ld d, HIGH(wBoard)
.slotsDone
	ld a, [hl]
	ASSERT MOVE_KIND_NORMAL == 0
	and a
	ret z
	cp MOVE_KIND_CASTLE
	jr z, .castle
.enPassant
	; The target square empties, the pawn taken goes back beside.
	ld e, c
	xor a
	ld [de], a
	dec hl
	ld a, b
	and SQUARE_ROW_MASK
	ld e, a
	ld a, c
	and SQUARE_FILE_MASK
	or e
	ld e, a
	ld a, [hl]
	ld [de], a
	; Its slot: back on that square.
	inc hl
	inc hl
	ld a, [hl]
	ld d, HIGH(wPieceSlotOf)
	ld [de], a
	ld l, a
	ld h, HIGH(wPieceSquares)
	ld [hl], e
	ret
.castle
	ld a, b
	dec a
	ld e, a
	xor a
	ld [de], a
	; The rook's slot goes back with it to the a-file.
	ld h, HIGH(wPieceSlotOf)
	ld l, e
	ld l, [hl]
	ld h, HIGH(wPieceSquares)
	ld a, e
	sub 3
	ld [hl], a
	ld e, a
	ld a, l
	ld h, HIGH(wPieceSlotOf)
	ld l, e
	ld [hl], a
	ldh a, [hSideToMove]
	and a
	ld a, WHITE_ROOK
	jr z, .castleRook
	ld a, BLACK_ROOK
.castleRook
	ld [de], a
	ret


ASSERT wUndoRootTo + 1 == wUndoStack, "wUndoRootTo must be right below the first undo record"
