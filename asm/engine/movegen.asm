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
;   cannot retreat along a checking ray: listed first to every empty or enemy
;   square (ListKingSteps), then kept if not attacked (KeepSafeKingSteps).
;   The search's full-width nodes skip the second step (hKingStepsUntested):
;   most of them cut off before their king's steps, and the search tests a
;   step only when it picks it (IsKingStepAttacked), so that an attacked one
;   is never searched nor counted.
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
;
; The quiescence moves (GenerateQuiescenceMoves: the captures and queen
; promotions the search's quiescence plays) come from the same checks and
; pins, and the same steps restricted to what they need: a slider's first
; piece on each ray if it is an enemy's, the knight's and king's jumps and
; steps onto enemy pieces, a pawn's captures and its push to the last rank,
; a pinned piece's capture of its pinner, en passant as above; no castle.
; When the search knows the side to move is not in check (most quiescence
; nodes), it asks for them pseudo-legal: no checks and pins scan, every piece
; scanned, a pinned one's captures off its pin line listed too; the search
; skips those as it comes to them (IsLeavingKingToSlider, gives_check.asm),
; before making them.
;
; Where the code is: this file holds the entry points GenerateMoves,
; GenerateQuiescenceMoves and GenerateEnPassant (for the game's key), the
; routines both sides share, and at its end the
; two expansions of the macros move_generator and quiescence_generator
; (movegen_side.inc), which make one copy of each of these routines per side,
; <Side> being White or Black:
;   Generate<Side>Moves        all the legal moves; GenerateMoves jumps here
;   Find<Side>ChecksAndPins    the checks and pins, which both generators need
;   Scan<Side>Pieces           the board scan, from the last slot in use down
;   Generate<Side>PieceMoves   the moves of one piece that is not pinned
;   Generate<Side>PinnedMoves  the moves of the pinned pieces along their pins
;   Generate<Side>Castle       the long castle
;   Generate<Side>EnPassant    the en-passant captures
;   Generate<Side>KingMoves    the king's steps
;   Generate<Side>QuiescenceMoves  the quiescence moves;
;                              GenerateQuiescenceMoves jumps here
;   Scan<Side>Captures, Generate<Side>PieceCaptures, Generate<Side>PinnedCaptures,
;   Generate<Side>KingCaptures the same parts, for the quiescence moves
; The macros that write moves (emit_move, slide, jump, the pawn moves) are in
; movegen_emit.inc.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/chess.inc"
INCLUDE "engine/engine.inc"
INCLUDE "engine/movegen_emit.inc"
INCLUDE "engine/movegen_side.inc"


; The most pieces that can be pinned at once: one per ray.
DEF MAX_PINS EQU 8
; A pin: the pinned piece's square, the ray's step, the ray's role bit.
DEF PIN_SIZE EQU 3


SECTION "Move generator state", HRAM

; In HRAM, where `ldh` reaches it faster and all of it is one page (hPins is
; walked with 8-bit steps).

; Checkers of the king of the side to move: how many, and the last found.
hCheckers:: db
hCheckerSquare: db
; The step from the king towards the checker, or 0 for a knight or pawn.
hCheckerDirection: db
; Pins: PIN_SIZE bytes each, and the low byte of the end of the list.
hPins: ds MAX_PINS * PIN_SIZE
hPinsEnd: db
; The pin being worked on: its step.
hPinDirection: db
; Non-zero: the next Generate<Side>KingMoves lists the king's steps without
; testing whether their squares are attacked (and clears it); the search sets
; it, and tests a step only if it picks it (IsKingStepAttacked).
hKingStepsUntested:: db


; In WRAMX (bank 1, always mapped on the DMG): WRAM0 has no room for it.
SECTION "Move stack", WRAMX

; The move lists of a perft or search, one per ply, each right after the
; list of the ply before (GenerateMoves writes where it is told).
DEF MOVE_STACK_SIZE EQU MOVE_STACK_PLIES * MAX_MOVES * MOVE_SIZE
wMoveStack:: ds MOVE_STACK_SIZE
wMoveStackEnd::


SECTION "Check targets", WRAM0, ALIGN[8]

; Nonzero on the squares a move must reach to answer a single check (the
; checker and the squares between it and the king) while GenerateMoves
; filters; 0 everywhere at any other time.
wCheckTargets: ds 256


SECTION "Move generator", ROM0

; The filters' keep: copies the record at bc - 1 (bc at its to byte) to de,
; which moves on past it; bc is left at the to byte.
MACRO keep_record
	dec bc
	ld a, [bc]
	ld [de], a
	inc de
	inc bc
	ld a, [bc]
	ld [de], a
	inc de
ENDM

;; The legal moves of the side to move (see the top of the file for how and in
;; which order).
;; @param hl: where to write the list (MOVE_SIZE bytes per move, at most
;;     MAX_MOVES moves)
;; @return hl: the end of the list
;; @destroys af, bc, de
GenerateMoves::
IF DEF(ENGINE_STACK_CHECKS)
	; The longest list must fit before the end of the move stack.
	trap_unless_hl_below wMoveStackEnd - MAX_MOVES * MOVE_SIZE + 1, MoveStackOverflow
ENDC
	ldh a, [hSideToMove]
	and a
	jp z, GenerateWhiteMoves
	jp GenerateBlackMoves


;; The quiescence moves of the side to move (docs/search.md): its legal
;; captures, en passant included, other than under-promotions, and its quiet
;; promotions to a queen; twin: the legal moves for which engine-src's
;; Move::is_quiescence holds. The same list format as GenerateMoves (a
;; promotion is the queen's plain move), in an order of its own: pinned
;; pieces, the other pieces from the last slot down, en passant, the king.
;; With c 0, for a side not in check, the same moves pseudo-legal:
;; the pins not looked for (most of the checks and pins scan's cost), every
;; piece's captures listed, the pinned ones' off their pin lines too
;; (IsLeavingKingToSlider tells those); the quiescence search skips them as
;; it comes to them.
;; @param c: non-zero for the legal moves; 0 for the pseudo-legal ones (only
;;     when the side to move is not in check)
;; @param hl: where to write the list (MOVE_SIZE bytes per move, at most
;;     MAX_MOVES moves)
;; @return hl: the end of the list
;; @destroys af, bc, de
GenerateQuiescenceMoves::
IF DEF(ENGINE_STACK_CHECKS)
	; The longest list must fit before the end of the move stack.
	trap_unless_hl_below wMoveStackEnd - MAX_MOVES * MOVE_SIZE + 1, MoveStackOverflow
ENDC
	; The pseudo-legal moves: no pin to unmark at the end, and the board scan
	; needs d (which Find<Side>ChecksAndPins sets for the legal ones).
	ld a, c
	and a
	jr nz, .side
	ld a, LOW(hPins)
	ldh [hPinsEnd], a
	ld d, HIGH(wBoard)
.side
	ldh a, [hSideToMove]
	and a
	jp z, GenerateWhiteQuiescenceMoves
	jp GenerateBlackQuiescenceMoves


;; The legal en-passant captures of the side to move, as GenerateMoves lists
;; them (Generate<Side>EnPassant lifts both pawns and looks at the king, pins
;; marked or not), for the game's key (GameKey). Call only when there is an
;; en-passant square.
;; @param hl: where to write them
;; @return hl: the end of the list
;; @destroys af, bc, de
GenerateEnPassant::
	ld d, HIGH(wBoard)
	ldh a, [hSideToMove]
	and a
	ldh a, [hEpSquare]
	jp z, GenerateWhiteEnPassant
	jp GenerateBlackEnPassant


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


;; Counts the enemy knights and pawns that attack a king, looking at every
;; square they could do it from (the root's leaping checkers, for
;; Find<Side>ChecksAndPins; one copy for both sides, the piece compared with
;; c: 4 M-cycles fewer than a copy for each with the pieces as immediates).
;; @param b: the king's square; c: the enemy's knight; d: HIGH(wBoard)
;; @param h: the step to the first square an enemy pawn checks from (the
;;     side's FORWARD - 1; the second is two files east)
;; @destroys af, c, e
CountLeapingCheckers:
	FOR i, 8
		ld a, b
		add KNIGHT_JUMP_{d:i}
		ld e, a
		ld a, [de]
		cp c
		call z, AddLeapingChecker
	ENDR
	; c: the enemy's pawn
	ASSERT ((ROLE_KNIGHT ^ ROLE_PAWN) & (PIECE_WHITE | PIECE_BLACK)) == 0
	ld a, c
	xor ROLE_KNIGHT ^ ROLE_PAWN
	ld c, a
	ld a, b
	add h
	ld e, a
	ld a, [de]
	cp c
	call z, AddLeapingChecker
	inc e
	inc e
	ld a, [de]
	cp c
	jp z, AddLeapingChecker
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
	keep_record
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


;; The king's steps from b (N, NE, NW, S, SE, SW, E, W) to the cells
;; that c does not mask: the empty squares and the enemy's pieces.
;; @param b: the king's square; c: the side's colour bit | OFF_BOARD | PINNED
;; @param d: HIGH(wBoard); hl: list end
;; @return hl: list end
;; @destroys af, e
ListKingSteps:
	; The steps north (none from rank 6), south (none from rank 1), then E, W.
	ld a, b
	jump_if_on_rank_6 jr, .northDone
	king_step DIR_N
	king_step DIR_NE
	king_step DIR_NW
.northDone
	ld a, b
	jump_if_on_rank_1 jr, .southDone
	king_step DIR_S
	king_step DIR_SE
	king_step DIR_SW
.southDone
	king_step DIR_E
	king_step DIR_W
	ret

;; Keeps, of the king's steps from bc to hl, in their order, those to squares
;; the side not to move does not attack (the king lifted off the board, so
;; that it cannot retreat along a checking ray).
;; @param bc: the first step; hl: the end (at most 8 steps: the low bytes
;;     tell the end)
;; @return hl: the end of the steps kept
;; @destroys af, bc, de
KeepSafeKingSteps:
	ld d, b
	ld e, c
.step
	ld a, c
	cp l
	jr z, .done
	push hl
	push de
	inc bc
	ld a, [bc]
	push bc
	ld c, a
	ld d, HIGH(wBoard)
	call IsAttackedByEnemy
	pop bc
	pop de
	pop hl
	jr z, .drop
	keep_record
.drop
	inc bc
	jr .step
.done
	ld h, d
	ld l, e
	ret

;; The test the search makes of a move it picks from its own lists, whose
;; king's steps are untested (hKingStepsUntested): is it a king's step to a
;; square the side not to move attacks? (The castle was tested when listed.)
;; The king is lifted off the board for the test, as in KeepSafeKingSteps.
;; @param d: from square; e: to byte
;; @return z: an attacked king's step, not a legal move; nz: a legal move
;; @destroys af, bc, h
IsKingStepAttacked::
	ldh a, [hSideToMove]
	add LOW(hKingSquares)
	ld c, a
	ldh a, [c]
	cp d
	ret nz
	sub 2
	cp e
	jr z, .castle
	push de
	ld b, d
	ld c, e
	ld d, HIGH(wBoard)
	ld e, b
	ld a, [de]
	ld h, a
	xor a
	ld [de], a
	call IsAttackedByEnemy
	; (the king back on its square: the loads keep the flags)
	ld e, b
	ld a, h
	ld [de], a
	pop de
	ret
.castle
	; nz: a square is never 0
	and a
	ret


; The two sides (movegen_side.inc says what each constant is).

DEF COLOUR = COLOR_WHITE
DEF OWN = PIECE_WHITE
DEF B_OWN = B_PIECE_WHITE
DEF ENEMY = PIECE_BLACK
DEF FORWARD = DIR_N
DEF START_ROW = ROW_RANK_2
DEF KING_HOME = SQ_E1
DEF CASTLE_RIGHT = CASTLE_WHITE
	move_generator White
	quiescence_generator White

DEF COLOUR = COLOR_BLACK
DEF OWN = PIECE_BLACK
DEF B_OWN = B_PIECE_BLACK
DEF ENEMY = PIECE_WHITE
DEF FORWARD = DIR_S
DEF START_ROW = ROW_RANK_5
DEF KING_HOME = SQ_E6
DEF CASTLE_RIGHT = CASTLE_BLACK
	move_generator Black
	quiescence_generator Black

