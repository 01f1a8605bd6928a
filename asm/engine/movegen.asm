; Legal move generation.
;
; Moves are generated legal from the start, as engine-src does, without
; playing them to test:
; - Check and pins first, from the king: each of the 8 rays (but the three
;   that leave the board at once from rank 1 or 6) is walked to its first
;   piece. An enemy slider of the ray's kind there gives check; an own
;   piece there is pinned if the next piece beyond it is such a slider. A
;   pinned piece is marked on the board (PINNED instead of its colour bit) so
;   that the board scan skips it, and its moves along the pin line are
;   generated apart. The king is marked PINNED too, so that the board scan
;   skips it, until its own moves are generated.
; - Leaping checkers (knights, pawns): a leaper that attacked the king before
;   the enemy's last move would have attacked it while the enemy was to move,
;   which no legal move allows. So only the piece that the last move put down
;   can be one; the undo record says where it landed (see makemove.asm). With
;   no move made since the position was loaded (which must be legal), the
;   knight jumps and the two pawn squares around the king are all looked at.
; - Not in check: the pinned pieces' moves, the board scan (every other piece
;   of the side, found through the piece slots of board.asm; pawns with their
;   pushes, double steps, captures and the four promotions), the long castle,
;   en passant, the king.
; - In single check: the board scan, then only the moves that take the
;   checker or step between it and the king are kept (wCheckTargets); en
;   passant; the king. In double check: en passant (never legal there, but
;   tested as always) and the king.
; - En passant removes two pieces from a rank at once, so it is tested the
;   plain way: both pawns lifted, the capturer put down, is the king attacked?
; - The king's steps are tested with the king lifted off the board, so that it
;   cannot retreat along a checking ray.
;
; Order of the list: pinned pieces (in the order the rays from the king are
; walked: N, NE, NW, S, SE, SW, E, W), then the other pieces by slot, from the
; last slot down to slot 1 (a piece keeps the slot LoadPosition gave it in the
; order a1, b1, ... e6, so this is the order e6, ... a1 of the squares the
; pieces stood on in the loaded position; a pawn: capture west, capture east,
; push, double step, each promotion as queen, rook, bishop, knight; a knight:
; its jumps in the order of KNIGHT_JUMP_0-7; a slider: NE, NW, SE, SW rays then
; N, S, E, W, each ray from near to far), the castle, en passant (the capturer
; west of the target, then east), the king (N, NE, NW, S, SE, SW, E, W).
; engine-src's legal_moves orders by role first; a search that mirrors this
; engine must sort both the same way (the perft and verify compare sets).

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/chess.inc"
INCLUDE "engine/engine.inc"


; The most pieces that can be pinned at once: one per ray.
DEF MAX_PINS EQU 8
; A pin: the pinned piece's square, the ray's step, the ray's role bit.
DEF PIN_SIZE EQU 3


SECTION "Move generator state", HRAM

; In HRAM, where `ldh` reaches it faster and all of it is one page (hPins is
; walked with 8-bit steps).

; Checkers of the king of the side to move: how many, and the last found.
hCheckers: db
hCheckerSquare: db
; The step from the king towards the checker, or 0 for a knight or pawn.
hCheckerDirection: db
; Pins: PIN_SIZE bytes each, and the low byte of the end of the list.
hPins: ds MAX_PINS * PIN_SIZE
hPinsEnd: db
; The pin being worked on: its step.
hPinDirection: db


; In WRAMX (bank 1, always mapped on the DMG): WRAM0 has no room for it.
SECTION "Move stack", WRAMX

; The move lists of a perft or search, one per ply, each right after the
; list of the ply before (GenerateMoves writes where it is told).
DEF MOVE_STACK_SIZE EQU MOVE_STACK_PLIES * MAX_MOVES * MOVE_SIZE
wMoveStack:: ds MOVE_STACK_SIZE
wMoveStackEnd::
ASSERT MAX_MOVES <= $FF, "a count of moves must fit a byte"


SECTION "Check targets", WRAM0, ALIGN[8]

; Nonzero on the squares a move must reach to answer a single check (the
; checker and the squares between it and the king) while GenerateMoves
; filters; 0 everywhere at any other time.
wCheckTargets: ds 256


; Writes the move b -> e at hl.
MACRO emit_move
	ld a, b
	ld [hli], a
	ld a, e
	ld [hli], a
ENDM

; Writes the four promotions b -> e at hl: queen, rook, bishop, knight.
MACRO emit_promotions
	ld c, e
	emit_move
	ld a, b
	ld [hli], a
	ld a, c
	or PROMOTE_ROOK
	ld [hli], a
	ld a, b
	ld [hli], a
	ld a, c
	or PROMOTE_BISHOP
	ld [hli], a
	ld a, b
	ld [hli], a
	ld a, c
	or PROMOTE_KNIGHT
	ld [hli], a
ENDM

; The moves of a slider on b along step \1: every empty square, then the
; first enemy piece. Uses ENEMY.
MACRO slide
	ld a, b
	add \1
	ld e, a
	ld a, [de]
	and a
	jr nz, .blocked\@
.empty\@
	emit_move
	ld a, e
	add \1
	ld e, a
	ld a, [de]
	and a
	jr z, .empty\@
.blocked\@
	and ENEMY
	jr z, .done\@
	emit_move
.done\@
ENDM

; The jump of a knight on b by step \1, if it lands on an empty or enemy
; square. Uses OWN.
MACRO jump
	ld a, b
	add \1
	ld e, a
	ld a, [de]
	and OWN | OFF_BOARD | PINNED
	jr nz, .skip\@
	emit_move
.skip\@
ENDM

; Walks the ray \1 (role bit \2) from the king on b: records a check or a pin
; (see the top of the file). hl: the next free pin entry. Uses OWN, ENEMY.
MACRO king_ray
	ld e, b
.walk\@
	ld a, e
	add \1
	ld e, a
	ld a, [de]
	and a
	jr z, .walk\@
	cp OFF_BOARD
	jr z, .done\@
	bit B_OWN, a
	jr nz, .own\@
	and ENEMY | \2
	cp ENEMY | \2
	jr nz, .done\@
	ld a, e
	ldh [hCheckerSquare], a
	ld a, \1
	ldh [hCheckerDirection], a
	ldh a, [hCheckers]
	inc a
	ldh [hCheckers], a
	jr .done\@
.own\@
	ld c, e
.beyond\@
	ld a, e
	add \1
	ld e, a
	ld a, [de]
	and a
	jr z, .beyond\@
	and ENEMY | \2
	cp ENEMY | \2
	jr nz, .done\@
	ld a, c
	ld [hli], a
	ld a, \1
	ld [hli], a
	ld a, \2
	ld [hli], a
	ld e, c
	ld a, [de]
	xor OWN | PINNED
	ld [de], a
.done\@
ENDM

; Counts a leaping checker (knight or pawn) of kind \2 at b + \1.
MACRO leaper_check
	ld a, b
	add \1
	ld e, a
	ld a, [de]
	cp \2
	call z, AddLeapingChecker
ENDM

; Calls Scan\1Pieces at the entry of COLOUR's last slot, through the jump
; that wScanJumps holds for COLOUR (see board.asm).
MACRO call_scan
	call wScanJumps + 3 * COLOUR
ENDM

; The pushes of the pawn on b: the push and the double step if \1 is 0, the
; four promotions of the push if \1 is 1. Uses FORWARD, START_ROW.
MACRO pawn_pushes
	ld a, b
	add FORWARD
	ld e, a
	ld a, [de]
	and a
	jr nz, .pushDone\@
	IF \1
		emit_promotions
	ELSE
		emit_move
		ld a, b
		and $F0
		cp START_ROW
		jr nz, .pushDone\@
		ld a, e
		add FORWARD
		ld e, a
		ld a, [de]
		and a
		jr nz, .pushDone\@
		emit_move
	ENDC
.pushDone\@
ENDM

; All the moves of the (unpinned) pawn on b, then returns: the captures west
; and east, the push, and the double step if \2 is 1; each as the four
; promotions if \1 is 1. Uses FORWARD, ENEMY.
MACRO pawn_moves_and_return
	ld a, b
	add FORWARD - 1
	ld e, a
	ld a, [de]
	and ENEMY
	jr z, .westDone\@
	IF \1
		emit_promotions
	ELSE
		emit_move
	ENDC
.westDone\@
	inc e
	inc e
	ld a, [de]
	and ENEMY
	jr z, .eastDone\@
	IF \1
		emit_promotions
	ELSE
		emit_move
	ENDC
.eastDone\@
	dec e
	ld a, [de]
	and a
	ret nz
	IF \1
		emit_promotions
	ELSE
		emit_move
	ENDC
	IF \2
		ld a, e
		add FORWARD
		ld e, a
		ld a, [de]
		and a
		ret nz
		emit_move
	ENDC
	ret
ENDM

; The king's step \1 from b, if the square is empty or enemy and not
; attacked. Uses OWN, COLOUR.
MACRO king_step
	ld a, b
	add \1
	ld e, a
	ld a, [de]
	and OWN | OFF_BOARD | PINNED
	jr nz, .skip\@
	ld c, e
	call_enemy_attack_test
	jr z, .skip\@
	ld e, c
	emit_move
.skip\@
ENDM


; Jumps to \1 if the pawn of COLOUR on a promotes with its next step.
MACRO promoting_row_test
	IF COLOUR == COLOR_WHITE
		cp ROW_RANK_5
		jr nc, \1
	ELSE
		cp ROW_RANK_2 + BOARD_ROW_CELLS
		jr c, \1
	ENDC
ENDM

; Jumps to \1 if the pawn of COLOUR on a stands on its start row.
MACRO start_row_test
	IF COLOUR == COLOR_WHITE
		cp ROW_RANK_2 + BOARD_ROW_CELLS
		jr c, \1
	ELSE
		cp ROW_RANK_5
		jr nc, \1
	ENDC
ENDM

; Calls the test "is square c attacked by the enemy of COLOUR".
MACRO call_enemy_attack_test
	IF COLOUR == COLOR_WHITE
		call IsAttackedByBlack
	ELSE
		call IsAttackedByWhite
	ENDC
ENDM

; The whole generator of one side. \1: White or Black (label suffix).
; Needs COLOUR, OWN, B_OWN, ENEMY, FORWARD, START_ROW, KING_HOME,
; CASTLE_RIGHT.
MACRO move_generator

;; The legal moves of \1, which is to move (see the top of the file).
;; @param hl: where to write the list (MOVE_SIZE bytes per move)
;; @return hl: the end of the list
;; @destroys af, bc, de
Generate\1Moves:
	push hl
	ld d, HIGH(wBoard)
	ldh a, [hKingSquares + COLOUR]
	ld b, a
	; The king is marked like a pinned piece, so that the scan skips it.
	ld e, a
	ld a, PINNED | ROLE_KING
	ld [de], a
	xor a
	ldh [hCheckers], a
	ld hl, hPins
	; The rays north (none from rank 6), south (none from rank 1), then E, W.
	ld a, b
	cp ROW_RANK_6
	jp nc, .northRaysDone
	king_ray DIR_N, ROLE_ORTHOGONAL
	king_ray DIR_NE, ROLE_DIAGONAL
	king_ray DIR_NW, ROLE_DIAGONAL
.northRaysDone
	ld a, b
	cp ROW_RANK_2
	jp c, .southRaysDone
	king_ray DIR_S, ROLE_ORTHOGONAL
	king_ray DIR_SE, ROLE_DIAGONAL
	king_ray DIR_SW, ROLE_DIAGONAL
.southRaysDone
	king_ray DIR_E, ROLE_ORTHOGONAL
	king_ray DIR_W, ROLE_ORTHOGONAL
	ld a, l
	ldh [hPinsEnd], a

	; Leaping checkers: only the piece the last move put down can be one.
	ld hl, wUndoTop
	ld a, [hli]
	ld h, [hl]
	ld l, a
	dec hl
	ld a, [hl]
	cp UNDO_TO_UNKNOWN
	jr nz, .lastMove
	call Find\1LeapingCheckers
	jr .leapersDone
.lastMove
	ld e, a
	ld a, [de]
	cp ENEMY | ROLE_KNIGHT
	jr z, .knightMoved
	cp ENEMY | ROLE_PAWN
	jr nz, .leapersDone
	ld a, e
	sub b
	cp FORWARD - 1
	jr z, .leapingChecker
	cp FORWARD + 1
	jr z, .leapingChecker
	jr .leapersDone
.knightMoved
	ld a, e
	sub b
	FOR i, 8
		cp KNIGHT_JUMP_{d:i}
		jr z, .leapingChecker
	ENDR
	jr .leapersDone
.leapingChecker
	call AddLeapingChecker
.leapersDone
	pop hl

	ldh a, [hCheckers]
	and a
	jp nz, .inCheck

	ldh a, [hPinsEnd]
	cp LOW(hPins)
	call nz, Generate\1PinnedMoves
	call_scan \1
	ldh a, [hCastlingRights]
	and CASTLE_RIGHT
	jp z, .enPassant
	ld a, [wBoard + KING_HOME - 1]
	and a
	call z, Generate\1Castle
	jp .enPassant

.inCheck
	cp 2
	jp nc, .enPassant
	push hl
	call_scan \1
	pop bc
	ldh a, [hKingSquares + COLOUR]
	call KeepCheckAnswers
	ld d, HIGH(wBoard)

.enPassant
	ldh a, [hEpSquare]
	and a
	call nz, Generate\1EnPassant
	call Generate\1KingMoves
	ldh a, [hPinsEnd]
	cp LOW(hPins)
	ret z
	ld b, OWN | PINNED
	jp UnmarkPins


;; The board scan: calls Generate\1PieceMoves for the piece of each slot of
;; \1 (see board.asm), from the last slot down to slot 1, if it is \1's (a
;; piece taken has square 0, a pinned piece is marked PINNED). Entered at the
;; entry of the last slot LoadPosition gave out (wScanJumps jumps there).
;; @param d: HIGH(wBoard); hl: list end
;; @return hl: list end
;; @destroys af, bc, e
Scan\1Pieces:
	FOR i, PIECE_SLOTS - 1
		ld a, [wPieceSquares + COLOUR * PIECE_SLOTS + PIECE_SLOTS - 1 - i]
		ld e, a
		ld a, [de]
		bit B_OWN, a
		call nz, Generate\1PieceMoves
	ENDR
Scan\1PiecesEnd::
	ret
	ASSERT Scan\1PiecesEnd - Scan\1Pieces == (PIECE_SLOTS - 1) * SCAN_ENTRY_SIZE, "a scan entry is not SCAN_ENTRY_SIZE bytes"


;; Counts the enemy knights and pawns that attack \1's king, looking at every
;; square they could do it from.
;; @param b: the king's square; d: HIGH(wBoard)
;; @destroys af, e
Find\1LeapingCheckers:
	FOR i, 8
		leaper_check KNIGHT_JUMP_{d:i}, ENEMY | ROLE_KNIGHT
	ENDR
	leaper_check FORWARD - 1, ENEMY | ROLE_PAWN
	leaper_check FORWARD + 1, ENEMY | ROLE_PAWN
	ret


;; The moves of the piece of \1 on e (not pinned, not the king).
;; @param a: its piece code; e: square; d: HIGH(wBoard); hl: list end
;; @return hl: list end
;; @destroys af, bc, e
Generate\1PieceMoves:
	ld b, e
	bit 2, a
	jp z, .piece
	; A pawn: a = b.
	ld a, b
	promoting_row_test .promoting
	start_row_test .startRow
	pawn_moves_and_return 0, 0
.startRow
	pawn_moves_and_return 0, 1
.promoting
	pawn_moves_and_return 1, 0
.piece
	bit 3, a
	jp nz, .knight
	rra
	jp nc, .orthogonal
	; No ray north from rank 6, none south from rank 1.
	ld a, b
	cp ROW_RANK_6
	jr nc, .diagonalNorthDone
	slide DIR_NE
	slide DIR_NW
.diagonalNorthDone
	ld a, b
	cp ROW_RANK_2
	jr c, .diagonalSouthDone
	slide DIR_SE
	slide DIR_SW
.diagonalSouthDone
	ld e, b
	ld a, [de]
	bit B_ROLE_ORTHOGONAL, a
	ret z
.orthogonal
	ld a, b
	cp ROW_RANK_6
	jr nc, .northDone
	slide DIR_N
.northDone
	ld a, b
	cp ROW_RANK_2
	jr c, .southDone
	slide DIR_S
.southDone
	slide DIR_E
	slide DIR_W
	ret
.knight
	; By rank, so that the jumps off the top or bottom are not tried
	; (KNIGHT_JUMP_0-1 go two rows up, 2-3 one up, 4-5 one down, 6-7 two down).
	ld a, b
	cp ROW_RANK_5
	jr nc, .knightRank5Or6
	cp ROW_RANK_2 + BOARD_ROW_CELLS
	jp c, .knightRank1Or2
	FOR i, 8
		jump KNIGHT_JUMP_{d:i}
	ENDR
	ret
.knightRank5Or6
	cp ROW_RANK_6
	jr nc, .knightRank6
	FOR i, 2, 8
		jump KNIGHT_JUMP_{d:i}
	ENDR
	ret
.knightRank6
	FOR i, 4, 8
		jump KNIGHT_JUMP_{d:i}
	ENDR
	ret
.knightRank1Or2
	cp ROW_RANK_2
	jr c, .knightRank1
	FOR i, 6
		jump KNIGHT_JUMP_{d:i}
	ENDR
	ret
.knightRank1
	FOR i, 4
		jump KNIGHT_JUMP_{d:i}
	ENDR
	ret


;; The moves of \1's pinned pieces, along their pin lines (call only when
;; there is a pin).
;; @param d: HIGH(wBoard); hl: list end
;; @return hl: list end
;; @destroys af, bc, e
Generate\1PinnedMoves:
	ld c, LOW(hPins)
.pin
	push bc
	ld b, HIGH(hPins)
	ld a, [bc]
	ld e, a
	inc c
	ld a, [bc]
	ldh [hPinDirection], a
	inc c
	ld a, [bc]
	ld b, e
	ld c, a
	; b: square, c: role bit of the ray
	ld a, [de]
	bit 2, a
	jr nz, .pawn
	bit 3, a
	jp nz, .next
	; A slider moves along the pin if it slides that way.
	and c
	jp z, .next
	ldh a, [hPinDirection]
	ld c, a
	call SlideToPinner
	xor a
	sub c
	ld c, a
	call SlideToKing
	jp .next
.pawn
	ldh a, [hPinDirection]
	cp DIR_N
	jr z, .push
	cp DIR_S
	jr z, .push
	; A diagonal pin: the pawn may take the pinner if it stands right there,
	; forward.
	cp FORWARD - 1
	jr z, .capture
	cp FORWARD + 1
	jr nz, .next
.capture
	add b
	ld e, a
	ld a, [de]
	and ENEMY
	jr z, .next
	ld a, b
	promoting_row_test .capturePromotes
	emit_move
	jr .next
.capturePromotes
	emit_promotions
	jr .next
.push
	ld a, b
	promoting_row_test .pushPromotes
	pawn_pushes 0
	jr .next
.pushPromotes
	pawn_pushes 1
.next
	pop bc
	inc c
	inc c
	inc c
	ldh a, [hPinsEnd]
	cp c
	jp nz, .pin
	ret


;; The long castle of \1, if it is legal (call only when not in check, \1
;; holds the right and the square beside the king is empty).
;; @param d: HIGH(wBoard); hl: list end
;; @return hl: list end
;; @destroys af, bc, e
Generate\1Castle:
	ld a, [wBoard + KING_HOME - 2]
	ld c, a
	ld a, [wBoard + KING_HOME - 3]
	or c
	ret nz
	ld c, KING_HOME - 1
	call_enemy_attack_test
	ret z
	ld c, KING_HOME - 2
	call_enemy_attack_test
	ret z
	ld a, KING_HOME
	ld [hli], a
	ld a, KING_HOME - 2
	ld [hli], a
	ret


;; The en-passant captures of \1, each tested by lifting both pawns (call only
;; when there is an en-passant square).
;; @param a: hEpSquare; d: HIGH(wBoard); hl: list end
;; @return hl: list end
;; @destroys af, bc, e
Generate\1EnPassant:
	; The pawn to take must be there (a loaded position is not trusted).
	sub FORWARD
	ld e, a
	ld a, [de]
	cp ENEMY | ROLE_PAWN
	ret nz
	ldh a, [hEpSquare]
	sub FORWARD + 1
	call .tryFrom
	ldh a, [hEpSquare]
	sub FORWARD - 1
.tryFrom
	; a: where a capturing pawn would stand
	ld b, a
	ld e, a
	ld a, [de]
	cp OWN | ROLE_PAWN
	jr z, .pawn
	cp PINNED | ROLE_PAWN
	ret nz
.pawn
	; Lift the capturer and the captured pawn, put the capturer down on the
	; en-passant square, look at the king, put everything back.
	ld c, a
	push bc
	xor a
	ld [de], a
	ldh a, [hEpSquare]
	sub FORWARD
	ld e, a
	xor a
	ld [de], a
	ldh a, [hEpSquare]
	ld e, a
	ld a, OWN | ROLE_PAWN
	ld [de], a
	ldh a, [hKingSquares + COLOUR]
	ld c, a
	call_enemy_attack_test
	; z: attacked; keep the flag in b's place
	pop bc
	push af
	ldh a, [hEpSquare]
	ld e, a
	xor a
	ld [de], a
	ldh a, [hEpSquare]
	sub FORWARD
	ld e, a
	ld a, ENEMY | ROLE_PAWN
	ld [de], a
	ld e, b
	ld a, c
	ld [de], a
	pop af
	ret z
	ld a, b
	ld [hli], a
	ldh a, [hEpSquare]
	ld [hli], a
	ret


;; The king's steps of \1 to squares not attacked.
;; @param d: HIGH(wBoard); hl: list end
;; @return hl: list end
;; @destroys af, bc, e
Generate\1KingMoves:
	ldh a, [hKingSquares + COLOUR]
	ld b, a
	ld e, a
	xor a
	ld [de], a
	; The steps north (none from rank 6), south (none from rank 1), then E, W.
	ld a, b
	cp ROW_RANK_6
	jr nc, .northStepsDone
	king_step DIR_N
	king_step DIR_NE
	king_step DIR_NW
.northStepsDone
	ld a, b
	cp ROW_RANK_2
	jr c, .southStepsDone
	king_step DIR_S
	king_step DIR_SE
	king_step DIR_SW
.southStepsDone
	king_step DIR_E
	king_step DIR_W
	ld e, b
	ld a, OWN | ROLE_KING
	ld [de], a
	ret

ENDM




SECTION "Move generator", ROM0

;; The legal moves of the side to move (see the top of the file for how and in
;; which order).
;; @param hl: where to write the list (MOVE_SIZE bytes per move, at most
;;     MAX_MOVES moves)
;; @return hl: the end of the list
;; @destroys af, bc, de
GenerateMoves::
IF DEF(TEST_DRIVER)
	; The longest list must fit before the end of the move stack.
	trap_unless_hl_below wMoveStackEnd - MAX_MOVES * MOVE_SIZE + 1, MoveStackOverflow
ENDC
	ldh a, [hSideToMove]
	and a
	jp z, GenerateWhiteMoves
	jp GenerateBlackMoves


;; Counts a leaping checker on e.
;; @destroys a
AddLeapingChecker:
	ld a, e
	ldh [hCheckerSquare], a
	xor a
	ldh [hCheckerDirection], a
	ldh a, [hCheckers]
	inc a
	ldh [hCheckers], a
	ret


;; The moves of the pinned slider on b along the step c away from its king:
;; the empty squares, then the pinner, which is always there.
;; @param b: square; c: step; d: HIGH(wBoard); hl: list end
;; @return hl: list end
;; @destroys af, e
SlideToPinner:
	ld e, b
.step
	ld a, e
	add c
	ld e, a
	emit_move
	ld a, [de]
	and a
	jr z, .step
	ret

;; The moves of the pinned slider on b along the step c towards its king: the
;; empty squares up to the king.
;; @param b: square; c: step; d: HIGH(wBoard); hl: list end
;; @return hl: list end
;; @destroys af, e
SlideToKing:
	ld e, b
.step
	ld a, e
	add c
	ld e, a
	ld a, [de]
	and a
	ret nz
	emit_move
	jr .step


;; Keeps, of the moves from bc to hl, those whose target is a check target
;; (the checker hCheckerSquare, and the squares between it and the king).
;; @param a: the king's square
;; @param bc: start of the moves; hl: their end
;; @return hl: the end of the moves kept
;; @destroys af, bc, de
KeepCheckAnswers:
	push hl
	push bc
	push af
	ld c, 1
	call MarkCheckTargets
	pop af
	pop bc
	pop hl
	push af
	call KeepMovesToTargets
	pop af
	push hl
	ld c, 0
	call MarkCheckTargets
	pop hl
	ret

;; Writes c in wCheckTargets on the checker's square and the squares between
;; it and the king.
;; @param a: the king's square; c: the value
;; @destroys af, b, de
MarkCheckTargets:
	ld d, HIGH(wCheckTargets)
	ld e, a
	ldh a, [hCheckerDirection]
	and a
	jr z, .checker
	ld b, a
.between
	ld a, e
	add b
	ld e, a
	ldh a, [hCheckerSquare]
	cp e
	jr z, .checker
	ld a, c
	ld [de], a
	jr .between
.checker
	ldh a, [hCheckerSquare]
	ld e, a
	ld a, c
	ld [de], a
	ret

;; Keeps, of the moves from bc to hl, those whose target is marked in
;; wCheckTargets, in their order.
;; @param bc: start of the moves; hl: their end
;; @return hl: the end of the moves kept
;; @destroys af, bc, de
KeepMovesToTargets:
	ld d, b
	ld e, c
.move
	ld a, c
	cp l
	jr nz, .test
	ld a, b
	cp h
	jr z, .done
.test
	push hl
	inc bc
	ld a, [bc]
	and MOVE_TO_SQUARE
	ld l, a
	ld h, HIGH(wCheckTargets)
	ld a, [hl]
	pop hl
	and a
	jr z, .drop
	dec bc
	ld a, [bc]
	ld [de], a
	inc de
	inc bc
	ld a, [bc]
	ld [de], a
	inc de
.drop
	inc bc
	jr .move
.done
	ld h, d
	ld l, e
	ret


;; Gives the pinned pieces their colour back (call only when there is a pin).
;; @param b: PINNED | the side to move's colour bit
;; @destroys af, de
UnmarkPins:
	push hl
	ld hl, hPins
	ld d, HIGH(wBoard)
.pin
	ld e, [hl]
	ld a, [de]
	xor b
	ld [de], a
	inc l
	inc l
	inc l
	ldh a, [hPinsEnd]
	cp l
	jr nz, .pin
	pop hl
	ret


DEF COLOUR = COLOR_WHITE
DEF OWN = PIECE_WHITE
DEF B_OWN = B_PIECE_WHITE
DEF ENEMY = PIECE_BLACK
DEF FORWARD = DIR_N
DEF START_ROW = ROW_RANK_2
DEF KING_HOME = SQ_E1
DEF CASTLE_RIGHT = CASTLE_WHITE
	move_generator White

DEF COLOUR = COLOR_BLACK
DEF OWN = PIECE_BLACK
DEF B_OWN = B_PIECE_BLACK
DEF ENEMY = PIECE_WHITE
DEF FORWARD = DIR_S
DEF START_ROW = ROW_RANK_5
DEF KING_HOME = SQ_E6
DEF CASTLE_RIGHT = CASTLE_BLACK
	move_generator Black

