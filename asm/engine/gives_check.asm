; Can a move give check? A cheap necessary test the search asks before the
; full one (make the move, IsInCheck): a move gives check only if the piece on
; its to square attacks the enemy king (directly) or its from square was the
; one piece between the king and a slider of the mover's (by discovery), so a
; move that can do neither gives none. Castling (the rook) and en passant (the
; pawn taken) can check in other ways: they always take the full test, as
; does every case the test cannot rule out. The search's nodes are therefore
; the same with it as without (no twin in the model: `cargo xtask verify`
; proves it).
;
; CheckLines, a table indexed by the king square minus the square, biased by
; CHECK_LINES_BIAS, says from which squares a piece of which role could reach
; the king: a ray to walk for a slider, a jump for a knight, a diagonal step
; for a pawn.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/chess.inc"
INCLUDE "engine/engine.inc"


; A CheckLines entry: the role bits that can reach the king from the square
; (ROLE_DIAGONAL, ROLE_ORTHOGONAL: a ray; ROLE_PAWN: a pawn's diagonal step,
; of either colour; ROLE_KNIGHT: a jump), and for a ray the index of its step
; from the square towards the king (CHECK_STEP_*) in bits 4-6, which is also
; the row of the table where the step is kept.
DEF B_CHECK_STEP_INDEX EQU 4
DEF CHECK_STEP_MASK    EQU %111 << B_CHECK_STEP_INDEX
; A difference of two squares is 16 * rows + files, rows -5..5 and files
; -4..4: biased by 5 rows and 4 files it indexes a table of 11 rows of 16
; cells (the last one cut short), of which files 0..8 are entries; the steps
; stand in cell 9 of rows 0..7, where no difference falls. The table is 87
; bytes shorter than a page indexed by the difference itself, and biasing an
; index costs an `add`, as fetching a step saves a `swap`.
DEF CHECK_LINES_BIAS   EQU 5 * BOARD_ROW_CELLS + 4
DEF CHECK_LINES_SIZE   EQU 2 * CHECK_LINES_BIAS + 1
DEF CHECK_STEPS_CELL   EQU 9
ASSERT (CHECK_STEPS_CELL & CHECK_STEP_MASK) == 0 && CHECK_STEPS_CELL > 8
ASSERT CHECK_STEPS_CELL + (7 << B_CHECK_STEP_INDEX) < CHECK_LINES_SIZE

; The eight steps, in the order of their index.
DEF CHECK_STEP_0 EQU DIR_N
DEF CHECK_STEP_1 EQU DIR_S
DEF CHECK_STEP_2 EQU DIR_E
DEF CHECK_STEP_3 EQU DIR_W
DEF CHECK_STEP_4 EQU DIR_NE
DEF CHECK_STEP_5 EQU DIR_NW
DEF CHECK_STEP_6 EQU DIR_SE
DEF CHECK_STEP_7 EQU DIR_SW


; d := the square of the king of colour \1 when White is to move, of colour
; \2 when Black is.
; @destroys af
MACRO king_square_to_d
	ldh a, [hSideToMove]
	ASSERT COLOR_WHITE == 0
	and a
	ldh a, [hKingSquares + (\1)]
	jr z, .found\@
	ldh a, [hKingSquares + (\2)]
.found\@
	ld d, a
ENDM


; hl := the CheckLines cell of the king square \1 minus the square \2
; (registers), and a := its entry; h must be HIGH(CheckLines) already.
MACRO check_line_entry
	ld a, \1
	sub \2
	add CHECK_LINES_BIAS
	ld l, a
	ld a, [hl]
ENDM


; After a pawn's move just made, b its from square and c its to square: jumps
; with \1 (jr or jp) to \2 when it was en passant (a diagonal step, the move's
; undo record says which), which may check through the pawn taken; else falls
; through.
; @destroys af, hl
MACRO jump_if_en_passant
	ld a, b
	xor c
	and SQUARE_FILE_MASK
	jr z, .notEnPassant\@
	call UndoRecordKind
	ld a, [hl]
	cp MOVE_KIND_EN_PASSANT
	\1 z, \2
.notEnPassant\@
ENDM


; (at the start of a page, so that a cell's low byte is its index)
SECTION "Check lines", ROMX, ALIGN[8]

; The entry of each biased difference, and the steps at CHECK_STEPS_CELL.
CheckLines:
FOR cell, CHECK_LINES_SIZE
	IF (cell & ~CHECK_STEP_MASK) == CHECK_STEPS_CELL
		DEF check_step_index = cell >> B_CHECK_STEP_INDEX
		db CHECK_STEP_{d:check_step_index}
	ELSE
		DEF check_entry = 0
		IF (cell % BOARD_ROW_CELLS) <= 8
			DEF check_rows = cell / BOARD_ROW_CELLS - 5
			DEF check_files = cell % BOARD_ROW_CELLS - 4
			DEF check_row_span = check_rows * check_rows
			DEF check_file_span = check_files * check_files
			IF check_rows == 0 && check_files > 0
				DEF check_entry = ROLE_ORTHOGONAL | 2 << B_CHECK_STEP_INDEX
			ELIF check_rows == 0 && check_files < 0
				DEF check_entry = ROLE_ORTHOGONAL | 3 << B_CHECK_STEP_INDEX
			ELIF check_files == 0 && check_rows > 0
				DEF check_entry = ROLE_ORTHOGONAL | 0 << B_CHECK_STEP_INDEX
			ELIF check_files == 0 && check_rows < 0
				DEF check_entry = ROLE_ORTHOGONAL | 1 << B_CHECK_STEP_INDEX
			ELIF check_row_span == check_file_span
				IF check_rows > 0 && check_files > 0
					DEF check_entry = ROLE_DIAGONAL | 4 << B_CHECK_STEP_INDEX
				ELIF check_rows > 0
					DEF check_entry = ROLE_DIAGONAL | 5 << B_CHECK_STEP_INDEX
				ELIF check_files > 0
					DEF check_entry = ROLE_DIAGONAL | 6 << B_CHECK_STEP_INDEX
				ELSE
					DEF check_entry = ROLE_DIAGONAL | 7 << B_CHECK_STEP_INDEX
				ENDC
				IF check_row_span == 1
					DEF check_entry = check_entry | ROLE_PAWN
				ENDC
			ELIF check_row_span + check_file_span == 5
				DEF check_entry = ROLE_KNIGHT
			ENDC
		ENDC
		db check_entry
	ENDC
ENDR
	assert_table_length CheckLines, CHECK_LINES_SIZE, 1


SECTION "Gives check", ROMX

;; Can a move of the side to move, not made yet, give check? The move must be
;; quiet (IsQuietMove: no capture, no promotion, no en passant); castling
;; always may.
;; @param d: from square; e: to byte
;; @return c: it may (make it and test); nc: it gives no check
;; @destroys af, bc, e, hl
MayGiveCheck::
	ld b, d
	ld a, e
	and MOVE_TO_SQUARE
	ld c, a
	ld h, HIGH(wBoard)
	ld l, b
	ld e, [hl]
	; Castling, the king two files west, may check with its rook.
	ld a, e
	and ROLE_MASK
	cp ROLE_KING
	jr nz, .lift
	ld a, b
	sub c
	cp 2
	jr z, .may
.lift
	; The board as after the move but for the piece on the to square: its
	; from square empty (a quiet move's to square is empty: as good as the
	; piece there for MayAttackKing, which never reads it).
	ld [hl], EMPTY
	push de
	; d: the enemy king's square
	king_square_to_d COLOR_BLACK, COLOR_WHITE
	call MayAttackKing
	pop de
	; (the piece back, the flags kept)
	ld h, HIGH(wBoard)
	ld l, b
	ld [hl], e
	ret
.may
	scf
	ret


;; Is the side to move in check, the move that made the position just made?
;; As IsInCheck, which it calls unless the move cannot have given check.
;; @param d: the move's from square; e: its to byte
;; @return z: in check; nz: not in check
;; @return a: 1 in check, 0 not
;; @destroys f, bc, de, hl
IsInCheckAfterMove::
	ld b, d
	ld a, e
	and MOVE_TO_SQUARE
	ld c, a
	ld h, HIGH(wBoard)
	ld l, c
	ld e, [hl]
	ld a, e
	and ROLE_MASK
	cp ROLE_PAWN
	jr z, .pawn
	cp ROLE_KING
	jr nz, .attacks
	; Castling, the king two files west, may have checked with its rook.
	ld a, b
	sub c
	cp 2
	jp z, IsInCheck
	jr .attacks
.pawn
	jump_if_en_passant jp, IsInCheck
.attacks
	; d: the king's square (of the side to move)
	king_square_to_d COLOR_WHITE, COLOR_BLACK
	call MayAttackKing
	jp c, IsInCheck
	; (a = 0, nz)
	xor a
	cp 1
	ret


;; May the side to move be in check after the quiescence move just made (a
;; capture or a queen's promotion, never a castle)? IsInCheckAfterMove's test
;; without its last step: where that one calls IsInCheck, this one says it
;; may, and the quiescence search lists the legal moves, whose checks and pins
;; scan tells.
;; @param d: the move's from square; e: its to square (no promotion bits)
;; @return c: it may; nc: it is not in check
;; @destroys af, bc, de, hl
MayBeInCheckAfterCapture::
	ld b, d
	ld c, e
	ld h, HIGH(wBoard)
	ld l, c
	ld e, [hl]
	ld a, e
	and ROLE_MASK
	cp ROLE_PAWN
	jr nz, .attacks
	jump_if_en_passant jr, .may
.attacks
	king_square_to_d COLOR_WHITE, COLOR_BLACK
	jp MayAttackKing
.may
	scf
	ret


;; Would a move of the side to move (not made) leave its own king to an
;; enemy slider: is its piece pinned (its from square on a ray to the king,
;; nothing between them, an enemy slider of the ray's kind the next piece
;; beyond) and its target off that ray? The quiescence search asks it of the
;; pseudo-legal moves GenerateQuiescenceMoves lists when the side to move is
;; not in check: these are the only illegal ones (a king's move and en passant
;; are tested as they are listed; a king's move reaches the discovery walk too,
;; its difference 0 reading a diagonal entry, and that walk, away from the
;; king, never meets it: nc).
;; Twin of the pin rule of engine-src's legal_moves (pinned pieces move along
;; their pin line only).
;; @param d: from square; e: to square (a quiescence move's to byte: no
;;     promotion bits, its promotions being to a queen)
;; @return c: it would (illegal); nc: it would not
;; @destroys af, bc, de, hl
IsLeavingKingToSlider::
	ld b, d
	; d: the king's square (of the side to move)
	king_square_to_d COLOR_WHITE, COLOR_BLACK
	; The from square on a ray to the king (most are not: legal) ...
	ld h, HIGH(CheckLines)
	check_line_entry d, b
	and ROLE_DIAGONAL | ROLE_ORTHOGONAL
	ret z
	; ... and the target not on that ray, the same side of the king (the same
	; step towards it: the piece stays between, or takes the slider) ...
	ld c, [hl]
	check_line_entry d, e
	xor c
	and CHECK_STEP_MASK | ROLE_DIAGONAL | ROLE_ORTHOGONAL
	ret z
	; ... then nothing between the from square and the king, and an enemy
	; slider of the ray's kind behind it: MayAttackKing's discovery, the
	; colour it looks for the other one than the king's, as there (the board
	; is as before the move: the walks never read the from square, nor the
	; target, which is off the ray).
	jp MayAttackKing.discovery


;; Can a piece that moved attack the king: directly, from its to square, or
;; by discovery, through its from square (a slider of its colour behind it,
;; nothing between)? The board is as after the move, but that the to square
;; is never read (it may still be empty).
;; @param b: from square (empty); c: to square; d: the king's square (the
;;     other colour's); e: the piece, as it stands on the to square
;; @return c: it may; nc: it does not
;; @destroys af, c, e, hl
MayAttackKing:
	ld h, HIGH(CheckLines)
	ld a, e
	and ROLE_MASK
	; (a king never attacks the other)
	cp ROLE_KING
	jr z, .discovery
	ld e, a
	check_line_entry d, c
	and e
	jr z, .discovery
	; A knight or a pawn (of either colour: the other's may not) reaches it;
	; a slider if nothing stands between.
	ld a, e
	cp ROLE_PAWN
	jr nc, .may
	ld a, [hl]
	and CHECK_STEP_MASK
	or CHECK_STEPS_CELL
	ld l, a
	ld e, [hl]
	ld h, HIGH(wBoard)
	ld l, c
.walkDirect
	ld a, l
	add e
	ld l, a
	cp d
	jr z, .may
	ld a, [hl]
	and a
	jr z, .walkDirect
	ld h, HIGH(CheckLines)
.discovery
	; The from square on a ray to the king ...
	check_line_entry d, b
	and ROLE_DIAGONAL | ROLE_ORTHOGONAL
	ret z
	ld e, a
	ld a, [hl]
	and CHECK_STEP_MASK
	or CHECK_STEPS_CELL
	ld l, a
	ld c, [hl]
	; ... nothing between them ...
	ld h, HIGH(wBoard)
	ld l, b
.walkToKing
	ld a, l
	add c
	ld l, a
	cp d
	jr z, .clear
	ld a, [hl]
	and a
	jr z, .walkToKing
	; (nz: no carry)
	ret
.clear
	; ... and behind it, the first piece a slider of the mover's colour
	; (the king's colour bit swapped) along that ray.
	ld a, [hl]
	and PIECE_WHITE | PIECE_BLACK
	xor PIECE_WHITE | PIECE_BLACK
	or e
	ld e, a
	xor a
	sub c
	ld c, a
	ld l, b
.walkBehind
	ld a, l
	add c
	ld l, a
	ld a, [hl]
	and a
	jr z, .walkBehind
	and e
	xor e
	; (nz: no carry)
	ret nz
.may
	scf
	ret
