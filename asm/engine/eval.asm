; The evaluation: material and piece-square tables, in centipawns (the twin of
; engine-src/src/eval.rs, whose weights `cargo xtask assets` renders into
; generated/engine/eval.inc).
;
; White's score (eval::white_score: White's pieces minus Black's, each its
; material plus its piece-square entry) is kept in hWhiteScore: LoadPosition
; computes it (ComputeWhiteScore), MakeMove updates it by the pieces the move
; lifts and puts down, and UnmakeMove restores it from the undo record. So
; Evaluate only gives it the side to move's sign and adds the tempo.
;
; The weights are two piece pages (engine.inc), White's then Black's, each
; holding what a piece of that colour adds to White's score: Black's entries
; are negated and mirrored (a Black piece on a6 reads a1's entry), so a move of
; either side adds the entry of its target cell and subtracts that of its
; origin. In a page, the piece-square entry of a role on a square is a signed
; byte at (square + the role's PAGE_OFFSET_*), as in the Zobrist key pages, and
; the role's material is a word: its low byte at cell (role code), its high
; byte at (role code + 16), the role code being a piece code's bits 0-3.
;
; The same bookkeeping keeps hMatingMaterial, which the search's draw rule
; reads (engine-src's Position::is_insufficient_material): every piece but the
; kings counts, a bishop or knight 1, a pawn, rook or queen 2, so the material
; is insufficient (bare kings, or a lone bishop or knight against a bare king)
; exactly when the count is below 2.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/chess.inc"
INCLUDE "engine/engine.inc"
INCLUDE "generated/engine/eval.inc"


; The generated pages are laid out for the engine's board and piece codes.
ASSERT EVAL_BOARD_FIRST_ROW == BOARD_FIRST_ROW && EVAL_BOARD_ROW_CELLS == BOARD_ROW_CELLS, "eval.inc is made for another mailbox"
ASSERT EVAL_ROLE_PAWN == ROLE_PAWN && EVAL_ROLE_KNIGHT == ROLE_KNIGHT && EVAL_ROLE_BISHOP == ROLE_BISHOP, "eval.inc has other role codes"
ASSERT EVAL_ROLE_ROOK == ROLE_ROOK && EVAL_ROLE_QUEEN == ROLE_QUEEN && EVAL_ROLE_KING == ROLE_KING, "eval.inc has other role codes"
ASSERT EVAL_OFFSET_PAWN == PAGE_OFFSET_PAWN && EVAL_OFFSET_KNIGHT == PAGE_OFFSET_KNIGHT && EVAL_OFFSET_BISHOP == PAGE_OFFSET_BISHOP, "eval.inc's role offsets are not the piece pages'"
ASSERT EVAL_OFFSET_ROOK == PAGE_OFFSET_ROOK && EVAL_OFFSET_QUEEN == PAGE_OFFSET_QUEEN && EVAL_OFFSET_KING == PAGE_OFFSET_KING, "eval.inc's role offsets are not the piece pages'"
; The material words sit in rows 0 and 1, below the first square.
ASSERT ROLE_MASK + BOARD_ROW_CELLS < SQ_A1 + PAGE_OFFSET_BISHOP, "the material overlaps the piece-square entries"

; The bonus for having the move (eval::TEMPO).
DEF TEMPO EQU EVAL_TEMPO


SECTION "Evaluation pages", ROMX, ALIGN[8]

; White's page, then Black's (see the top of the file).
EvalPages::
	eval_pages
	assert_table_length EvalPages, 2 * NUM_COLORS, 128


SECTION "Evaluation state", HRAM

; White's score (eval::white_score), little-endian, signed.
hWhiteScore:: dw
; The pieces but the kings, a bishop or knight counting 1, any other 2: below
; MATING_MATERIAL_ENOUGH, neither side can mate.
hMatingMaterial:: db


SECTION "Evaluation", ROM0

;; The score of the position for the side to move, in centipawns (twin:
;; eval::evaluate): White's score from the side to move's view, plus TEMPO.
;; @return hl: the score (signed)
;; @destroys af, e
Evaluate::
	ldh a, [hSideToMove]
	and a
	jr nz, .black
	ldh a, [hWhiteScore]
	add LOW(TEMPO)
	ld l, a
	ldh a, [hWhiteScore + 1]
	adc HIGH(TEMPO)
	ld h, a
	ret
.black
	; TEMPO - White's score
	ld hl, hWhiteScore
	ld a, LOW(TEMPO)
	sub [hl]
	ld e, a
	inc l
	ld a, HIGH(TEMPO)
	sbc [hl]
	ld h, a
	ld l, e
	ret


;; Computes hWhiteScore (twin: eval::white_score) and hMatingMaterial from the
;; board, from nothing.
;; @destroys af, c, de, hl
ComputeWhiteScore::
	xor a
	ldh [hWhiteScore], a
	ldh [hWhiteScore + 1], a
	ldh [hMatingMaterial], a
	ld c, a
.square
	ld h, HIGH(wBoard)
	ld l, c
	ld a, [hl]
	and PIECE_WHITE | PIECE_BLACK
	jr z, .next
	ld a, [hl]
	call AddPieceValue
.next
	inc c
	jr nz, .square
	ret


;; Adds a piece on a square to hWhiteScore (its eval::piece_value, negated for
;; Black) and to hMatingMaterial.
;; @param a: piece code (a White or Black piece)
;; @param l: square
;; @destroys af, de, hl
AddPieceValue::
	ld d, a
	call MatingMaterialOf
	ldh a, [hMatingMaterial]
	add e
	ldh [hMatingMaterial], a
	ld a, d
	call PieceValue
	ldh a, [hWhiteScore]
	add l
	ldh [hWhiteScore], a
	ldh a, [hWhiteScore + 1]
	adc h
	ldh [hWhiteScore + 1], a
	ret

;; Takes a piece on a square off hWhiteScore and hMatingMaterial (see
;; AddPieceValue).
;; @param a: piece code (a White or Black piece)
;; @param l: square
;; @destroys af, de, hl
SubtractPieceValue::
	ld d, a
	call MatingMaterialOf
	ldh a, [hMatingMaterial]
	sub e
	ldh [hMatingMaterial], a
	ld a, d
	call PieceValue
	ldh a, [hWhiteScore]
	sub l
	ldh [hWhiteScore], a
	ldh a, [hWhiteScore + 1]
	sbc h
	ldh [hWhiteScore + 1], a
	ret

;; What a piece counts in hMatingMaterial (see the top of the file).
;; @param a: piece code
;; @return e: MATING_MATERIAL_MINOR, MATING_MATERIAL_MAJOR, or 0 for a king
;; @destroys af
MatingMaterialOf:
	and ROLE_MASK
	ld e, 0
	cp ROLE_KING
	ret z
	ld e, MATING_MATERIAL_MINOR
	cp ROLE_KNIGHT
	ret z
	cp ROLE_BISHOP
	ret z
	ld e, MATING_MATERIAL_MAJOR
	ret

;; What a piece on a square adds to White's score (eval::piece_value, negated
;; for Black).
;; @param a: piece code (a White or Black piece)
;; @param l: square
;; @return hl: the value (signed)
;; @destroys af, de
PieceValue:
	ld e, l
	ld h, HIGH(PieceKeyIndex)
	ld l, a
	ld d, [hl]
	ld h, HIGH(EvalPages)
	bit B_PIECE_BLACK, a
	jr z, .page
	inc h
.page
	and ROLE_MASK
	ld l, a
	; d: the cell of the piece-square entry
	ld a, d
	add e
	ld d, a
	; de: the material word; then the entry, sign-extended, is added.
	ld e, [hl]
	set 4, l
	ld a, [hl]
	ld l, d
	ld d, a
	ld a, [hl]
	ld l, a
	add a
	sbc a
	ld h, a
	add hl, de
	ret
