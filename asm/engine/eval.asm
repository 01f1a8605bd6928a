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
; byte at (square + the role's PAGE_OFFSET_*), as in the Zobrist key pages; the
; role's material is a word, its low byte at cell (role code) and its high byte
; at (role code + 16), the role code being a piece code's bits 0-3; its offset
; is at (role code + 224) and its mating material (below) at (role code + 240).
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
; The material words sit in rows 0 and 1, below the first square; the
; offsets and mating material in rows 14 and 15 (piece_value finds the one from
; the other by bit 4 of the row).
ASSERT ROLE_MASK + BOARD_ROW_CELLS < SQ_A1 + PAGE_OFFSET_BISHOP, "the material overlaps the piece-square entries"
ASSERT EVAL_OFFSET_ROW == 14 && EVAL_MATING_ROW == 15, "eval.inc has the offsets and the mating material in other rows"
ASSERT EVAL_MATING_PAWN == MATING_MATERIAL_MAJOR && EVAL_MATING_ROOK == MATING_MATERIAL_MAJOR && EVAL_MATING_QUEEN == MATING_MATERIAL_MAJOR, "eval.inc counts other mating material"
ASSERT EVAL_MATING_KNIGHT == MATING_MATERIAL_MINOR && EVAL_MATING_BISHOP == MATING_MATERIAL_MINOR && EVAL_MATING_KING == 0, "eval.inc counts other mating material"

; The bonus for having the move (eval::TEMPO).
DEF TEMPO EQU EVAL_TEMPO


SECTION "Evaluation pages", ROMX, ALIGN[8]

; White's page, then Black's (see the top of the file).
EvalPages::
	eval_pages
	assert_table_length EvalPages, NUM_COLORS, 256


SECTION "Evaluation state", HRAM

; White's score (eval::white_score), little-endian, signed; during a search
; with a mop-up, plus its bonus, and in a king's endgame plus the kings'
; endgame entries (both below).
hWhiteScore:: dw
; The pieces but the kings, a bishop or knight counting 1, any other 2: below
; MATING_MATERIAL_ENOUGH, neither side can mate.
hMatingMaterial:: db
; The search's mop-up (eval::MopUp), 0 when it has none (and outside a
; search): the low byte of its corners' rank steps (MopUpRankSteps*) less
; the row of rank 1, so that adding a square's row reads its rank's entry.
hMopUp:: db
; The mop-up's winner, COLOR_WHITE or COLOR_BLACK.
hMopUpWinner: db
; 1 in a search whose root is a king's endgame (eval::is_king_endgame, at
; EVAL_ENDGAME_KING_DEPTH and with no mop-up): the kings read the endgame's
; table, kept in hWhiteScore (above); 0 otherwise (and outside a search).
hKingEndgame:: db


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


; hl := what a piece on a square adds to White's score (eval::piece_value,
; negated for Black), read from its role's rows of its colour's page: h is the
; page, l the role's mating-material cell, e the square. Destroys af, de.
; (A macro, not a routine: MakeMove takes every capture through
; SubtractPieceValue.)
MACRO piece_value
	; e: the cell of the piece-square entry (the role's offset plus the square)
	res 4, l
	ld a, [hl]
	add e
	ld e, a
	; de: the material word; then the entry, sign-extended, is added.
	ld a, l
	and ROLE_MASK
	ld l, a
	ld a, [hl]
	set 4, l
	ld d, [hl]
	ld l, e
	ld e, a
	ld a, [hl]
	ld l, a
	add a
	sbc a
	ld h, a
	add hl, de
ENDM

; h := the page of piece a's colour, l := its role's mating-material cell,
; e := l (the square). Destroys af.
MACRO piece_rows
	ld e, l
	ld h, HIGH(EvalPages)
	bit B_PIECE_BLACK, a
	jr z, .page\@
	inc h
.page\@
	and ROLE_MASK
	or EVAL_MATING_ROW * BOARD_ROW_CELLS
	ld l, a
ENDM

;; Adds a piece on a square to hWhiteScore (its eval::piece_value, negated for
;; Black) and to hMatingMaterial.
;; @param a: piece code (a White or Black piece)
;; @param l: square
;; @destroys af, de, hl
AddPieceValue::
	piece_rows
	ldh a, [hMatingMaterial]
	add [hl]
	ldh [hMatingMaterial], a
	piece_value
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
	piece_rows
	ldh a, [hMatingMaterial]
	sub [hl]
	ldh [hMatingMaterial], a
	piece_value
	ldh a, [hWhiteScore]
	sub l
	ldh [hWhiteScore], a
	ldh a, [hWhiteScore + 1]
	sbc h
	ldh [hWhiteScore + 1], a
	ret


; ------------------------------------------------------------------------------
; Mating a bare king (eval::MopUp)
; ------------------------------------------------------------------------------
;
; When a search's root is an endgame (hExtensionPly: at most
; CHECK_EXTENSION_PIECES pieces), one side has only its king and the other a
; queen, a rook or two minor pieces, every position of the search adds to the
; winner's score a bonus for the bare king near its mating corners and the
; kings near each other. The bonus depends on the two kings' squares alone,
; so it is kept in hWhiteScore like the pieces' values: StartMopUp adds the
; root's, MakeMove adds the change a king's move makes (MopUpKingMoves), and
; UnmakeMove restores it with the score; EndMopUp takes the root's off again.
; A search with no mop-up spends MakeMove's test of hMopUp on each king's
; move, SearchBestMove's two tests and, at an endgame root, StartMopUp's count
; of each side's pieces.

SECTION "Mop-up tables", ROMX, ALIGN[6]

; The steps from each file to the nearer of the a- and e-files, by file.
MopUpFileSteps:
	mop_up_file_steps
	assert_table_length MopUpFileSteps, BOARD_FILES, 1
; The steps from each rank to its corners' ranks, by rank (1 first): all four
; corners, the dark ones, the light ones (eval::Corners).
MopUpRankStepsAll:
	mop_up_rank_steps_all
	assert_table_length MopUpRankStepsAll, BOARD_RANKS, 1
MopUpRankStepsDark:
	mop_up_rank_steps_dark
	assert_table_length MopUpRankStepsDark, BOARD_RANKS, 1
MopUpRankStepsLight:
	mop_up_rank_steps_light
	assert_table_length MopUpRankStepsLight, BOARD_RANKS, 1
; The bonus by the bare king's steps to its nearest corner.
MopUpCornerBonus:
FOR steps, EVAL_MOP_UP_CORNER_STEPS + 1
	db EVAL_MOP_UP_CORNER_STEP * (EVAL_MOP_UP_CORNER_STEPS - steps)
ENDR
; The bonus by the steps between the kings.
MopUpKingBonus:
FOR steps, EVAL_MOP_UP_KING_STEPS + 1
	db EVAL_MOP_UP_KING_STEP * (EVAL_MOP_UP_KING_STEPS - steps)
ENDR
MopUpTablesEnd:
ASSERT HIGH(MopUpFileSteps) == HIGH(MopUpTablesEnd - 1), "the mop-up tables cross a page"
; The bonus fits a byte, and a change of it a signed byte.
ASSERT EVAL_MOP_UP_CORNER_STEP * EVAL_MOP_UP_CORNER_STEPS + EVAL_MOP_UP_KING_STEP * EVAL_MOP_UP_KING_STEPS < 128
; hMopUp is never 0 for a mop-up.
ASSERT LOW(MopUpRankStepsAll - ROW_RANK_1 / BOARD_ROW_CELLS) != 0
; hKingSquares holds White's king, then Black's.
ASSERT COLOR_WHITE == 0 && COLOR_BLACK == 1


SECTION "Mop-up", ROMX

;; The mop-up's bonus for the kings where they stand (eval::MopUp::white_bonus,
;; for the winner): by the bare king's steps to its nearest corner and by the
;; steps between the kings.
;; @return a: the bonus (0 to 127)
;; @destroys f, bc, de, hl
MopUpBonus:
	; d: the winner's king, e: the bare king (hKingSquares's other entry:
	; 2 * LOW(hKingSquares) + 1 less the winner's)
	ldh a, [hMopUpWinner]
	add LOW(hKingSquares)
	ld c, a
	ldh a, [c]
	ld d, a
	ld a, LOW(2 * LOW(hKingSquares) + 1)
	sub c
	ld c, a
	ldh a, [c]
	ld e, a
	; b := the files between the kings, then plus the ranks
	ld a, d
	and SQUARE_FILE_MASK
	ld b, a
	ld a, e
	and SQUARE_FILE_MASK
	sub b
	jr nc, .files
	cpl
	inc a
.files
	ld b, a
	ld a, d
	and SQUARE_ROW_MASK
	ld c, a
	ld a, e
	and SQUARE_ROW_MASK
	sub c
	jr nc, .ranks
	cpl
	inc a
.ranks
	swap a
	add b
	; b := the kings' bonus
	add LOW(MopUpKingBonus)
	ld l, a
	ld h, HIGH(MopUpKingBonus)
	ld b, [hl]
	; a := the bare king's steps to its nearest corner: its file's, plus its
	; rank's in the corners' table
	ld a, e
	and SQUARE_FILE_MASK
	add LOW(MopUpFileSteps)
	ld l, a
	ld c, [hl]
	ld a, e
	swap a
	and SQUARE_FILE_MASK
	ld l, a
	ldh a, [hMopUp]
	add l
	ld l, a
	ld a, [hl]
	add c
	; plus the corner's bonus
	add LOW(MopUpCornerBonus)
	ld l, a
	ld a, [hl]
	add b
	ret


;; hWhiteScore += a (signed) for the winner: a is negated first when the
;; winner is Black.
;; @param a: the change of the bonus
;; @destroys af, hl
AddWinnerBonus:
	ld l, a
	ldh a, [hMopUpWinner]
	and a
	ld a, l
	jr z, AddToWhiteScore
	cpl
	inc a
	; fall through

;; hWhiteScore += a (signed).
;; @destroys af, hl
AddToWhiteScore:
	ld hl, hWhiteScore
	bit 7, a
	jr nz, .falls
	add [hl]
	ld [hli], a
	ret nc
	inc [hl]
	ret
.falls
	add [hl]
	ld [hli], a
	ret c
	dec [hl]
	ret


;; MakeMove's king's move in a mop-up: puts the king of the side to move on
;; its target square in hKingSquares and adds the change of the bonus to
;; hWhiteScore.
;; @param c: the king's target square
;; @destroys af, hl (keeps bc, de)
MopUpKingMoves::
	push bc
	push de
	push bc
	call MopUpBonus
	pop bc
	ld b, a
	ldh a, [hSideToMove]
	add LOW(hKingSquares)
	ld l, a
	ld h, HIGH(hKingSquares)
	ld [hl], c
	push bc
	call MopUpBonus
	pop bc
	sub b
	call AddWinnerBonus
	pop de
	pop bc
	ret


;; At a search's start, in an endgame: the root's mop-up (eval::MopUp::of),
;; if it has one, in hMopUp and hMopUpWinner, and its bonus added to
;; hWhiteScore; else hMopUp stays 0.
;; @destroys af, bc, de, hl
StartMopUp::
	; The winner: the side whose opponent has no piece but its king.
	ld hl, wPieceSquares + COLOR_BLACK * PIECE_SLOTS + 1
	call CountSlots
	ld e, COLOR_WHITE
	jr z, .winner
	ld hl, wPieceSquares + COLOR_WHITE * PIECE_SLOTS + 1
	call CountSlots
	ret nz
	ld e, COLOR_BLACK
.winner
	; Its pieces: b := queens and rooks, c := bishops and knights, d := its
	; bishops' colours (bit 0: one on a dark square, bit 1: on a light one).
	ld a, e
	ldh [hMopUpWinner], a
	ld hl, wPieceSquares + COLOR_WHITE * PIECE_SLOTS + 1
	and a
	jr z, .slots
	ld hl, wPieceSquares + COLOR_BLACK * PIECE_SLOTS + 1
.slots
	ld bc, 0
	ld d, b
	; (hMopUp counts the slots left: it is 0 again when the loop ends)
	ld a, PIECE_SLOTS - 1
.slot
	ldh [hMopUp], a
	ld a, [hli]
	and a
	jr z, .nextSlot
	ld e, a
	push hl
	ld h, HIGH(wBoard)
	ld l, e
	ld a, [hl]
	pop hl
	and ROLE_MASK
	cp ROLE_ROOK
	jr z, .major
	cp ROLE_QUEEN
	jr z, .major
	cp ROLE_KNIGHT
	jr z, .minor
	cp ROLE_BISHOP
	jr nz, .nextSlot
	; a bishop: its square's colour, dark when its row and file add up even
	; (rank 1 is row 2)
	ld a, e
	swap a
	add e
	and 1
	inc a
	or d
	ld d, a
.minor
	inc c
	jr .nextSlot
.major
	inc b
.nextSlot
	ldh a, [hMopUp]
	dec a
	jr nz, .slot
	ldh [hMopUp], a
	; A queen or a rook mates in any corner; two minor pieces are needed else.
	ld a, b
	and a
	ld a, LOW(MopUpRankStepsAll - ROW_RANK_1 / BOARD_ROW_CELLS)
	jr nz, .corners
	ld a, c
	cp 2
	ret c
	; Bishops of one colour: that colour's corners.
	ld a, d
	dec a
	ld a, LOW(MopUpRankStepsDark - ROW_RANK_1 / BOARD_ROW_CELLS)
	jr z, .corners
	ld a, d
	cp 2
	ld a, LOW(MopUpRankStepsLight - ROW_RANK_1 / BOARD_ROW_CELLS)
	jr z, .corners
	ld a, LOW(MopUpRankStepsAll - ROW_RANK_1 / BOARD_ROW_CELLS)
.corners
	ldh [hMopUp], a
	call MopUpBonus
	jp AddWinnerBonus


;; At a search's end: the root's bonus taken off hWhiteScore again, and hMopUp
;; cleared.
;; @destroys af, bc, de, hl
EndMopUp::
	call MopUpBonus
	cpl
	inc a
	call AddWinnerBonus
	xor a
	ldh [hMopUp], a
	ret


; z when the PIECE_SLOTS - 1 slots at hl hold no piece. Destroys af, b, hl.
CountSlots:
	ld b, PIECE_SLOTS - 1
	xor a
.slot
	or [hl]
	inc hl
	dec b
	jr nz, .slot
	and a
	ret


; ------------------------------------------------------------------------------
; The king in the endgame (eval::ENDGAME_KING)
; ------------------------------------------------------------------------------
;
; When a search asked for at least EVAL_ENDGAME_KING_DEPTH plies (HARD's,
; CLOCK's) has a root with few pieces left (its phase, eval::PHASE, at most
; EVAL_ENDGAME_PHASE) and no mop-up, the kings read the endgame's table, which
; wants them in the middle, not the middlegame's, which keeps them home. A
; king's change from one table to the other depends on its square alone, so
; it is kept in hWhiteScore as the mop-up's bonus is: StartKingEndgame adds
; the root's, MakeMove adds the change a king's move makes
; (EndgameKingMoves), UnmakeMove restores it with the score, and
; EndKingEndgame takes the root's off again. Other searches spend MakeMove's
; test of hKingEndgame on each king's move, a test of the depth and, at
; HARD's and CLOCK's roots, the count of the phase.

SECTION "King endgame tables", ROMX, ALIGN[7]

; What a king adds to White's score, a row of 16 cells for each rank: White's
; king in cells 0-4, Black's in 5-9 (the cell square - ROW_RANK_1 + 5 * side).
EndgameKingChanges:
	endgame_king_changes
	assert_table_length EndgameKingChanges, BOARD_RANKS, BOARD_ROW_CELLS
; What a piece counts towards the phase, by role code.
PhaseByRole:
	endgame_phase_by_role
	assert_table_length PhaseByRole, ROLE_MASK + 1, 1
PhaseByRoleEnd:
ASSERT HIGH(EndgameKingChanges) == HIGH(PhaseByRoleEnd - 1), "the king endgame tables cross a page"
; A Black king's cells follow White's.
ASSERT BOARD_FILES == 5


SECTION "King endgame", ROMX

;; MakeMove's king's move in a king's endgame: adds the change of the king's
;; entry in EndgameKingChanges to hWhiteScore.
;; @param b: the king's square, c: its target square
;; @destroys af, hl (keeps bc, de)
EndgameKingMoves::
	; h := the side to move's first cell less the row of rank 1: its cells
	; are h + square
	ldh a, [hSideToMove]
	ld l, a
	add a
	add a
	add l
	add LOW(EndgameKingChanges - ROW_RANK_1)
	ld h, a
	add c
	ld l, a
	ld a, h
	ld h, HIGH(EndgameKingChanges)
	; a := the target square's entry less the king's square's (each within
	; ENDGAME_KING_CHANGE_MAX: the difference is a signed byte)
	add b
	ld h, [hl]
	ld l, a
	ld a, h
	ld h, HIGH(EndgameKingChanges)
	sub [hl]
	jp AddToWhiteScore


;; At a search's start: when the search is asked for at least
;; EVAL_ENDGAME_KING_DEPTH plies and the root's phase (eval::phase) is at most
;; EVAL_ENDGAME_PHASE, hKingEndgame := 1 and the kings' entries are added to
;; hWhiteScore; else hKingEndgame stays 0.
;; @destroys af, bc, de, hl
StartKingEndgame::
	ld a, [wSearchDepth]
	cp EVAL_ENDGAME_KING_DEPTH
	ret c
	; c := the phase, each slot's piece counted by PhaseByRole
	ld hl, wPieceSquares
	ld b, 2 * PIECE_SLOTS
	ld c, 0
.slot
	ld a, [hli]
	and a
	jr z, .nextSlot
	ld e, a
	ld d, HIGH(wBoard)
	ld a, [de]
	and ROLE_MASK
	add LOW(PhaseByRole)
	ld e, a
	ld d, HIGH(PhaseByRole)
	ld a, [de]
	add c
	ld c, a
.nextSlot
	dec b
	jr nz, .slot
	ld a, EVAL_ENDGAME_PHASE
	cp c
	ret c
	ld a, 1
	ldh [hKingEndgame], a
	call KingEndgameBonus
	jp AddToWhiteScore


;; At a search's end: the root's kings' entries taken off hWhiteScore again,
;; and hKingEndgame cleared (nothing to do outside a king's endgame).
;; @destroys af, b, hl
EndKingEndgame::
	ldh a, [hKingEndgame]
	and a
	ret z
	xor a
	ldh [hKingEndgame], a
	call KingEndgameBonus
	cpl
	inc a
	jp AddToWhiteScore


; a := what the two kings' entries add to White's score where they stand
; (eval::endgame_king_bonus; each within ENDGAME_KING_CHANGE_MAX, so the sum
; is a signed byte). Destroys f, b, hl.
KingEndgameBonus:
	ldh a, [hKingSquares + COLOR_WHITE]
	add LOW(EndgameKingChanges - ROW_RANK_1)
	ld l, a
	ld h, HIGH(EndgameKingChanges)
	ld b, [hl]
	ldh a, [hKingSquares + COLOR_BLACK]
	add LOW(EndgameKingChanges - ROW_RANK_1 + BOARD_FILES)
	ld l, a
	ld a, [hl]
	add b
	ret
