; The engine's test driver: the whole program of build/test.gb
; (`cargo xtask rom --test-driver`), which links it with the cartridge header
; and the engine only, every unit assembled with TEST_DRIVER defined, and with
; ENGINE_STACK_CHECKS too (the engine's stack checks, see engine.inc) but for
; the build bench measures.
;
; xtask runs it in the emulator harness: after start-up it idles at
; TestDriverIdle; for each query xtask fills the mailbox below, calls
; TestRunCommand and reads the results, each by its .sym label (the fields are
; described at the mailbox below):
; - the position (wTestBoard ... wTestHalfmove) is loaded, then the moves of
;   wTestHistory are played as a game (they make up the history that threefold
;   repetition looks at); a move that is not legal stops there with
;   wTestStatus = TEST_STATUS_ILLEGAL_HISTORY;
; - then TEST_LOAD does nothing more, TEST_PERFT counts perft(wTestDepth) into
;   wTestNodes, TEST_LEGAL_MOVES lists the legal moves (wTestMoveCount,
;   wTestMoves) and the quiescence moves (wTestQuiescenceCount,
;   wTestQuiescenceMoves), the verdict, whether the side to move is in check, the
;   evaluation (wTestEvaluation) and whether the material is insufficient
;   (wTestInsufficient), and TEST_SEARCH searches to depth wTestDepth within wTestNodeBudget nodes,
;   with checks in the quiescence search to ply wTestCheckPlies and late moves
;   reduced from depth wTestReduceDepth
;   (SearchBestMove, search.asm): the move (wTestSearchMove), the score, the
;   nodes (wTestNodes), the last finished iteration and the principal
;   variation. hSearchStop is cleared before the search: the harness may set
;   it while the search runs;
; - with the stack checks, an engine routine that finds a stack full ends the
;   command at once with its TEST_STATUS_* (see the traps at the end);
; - after any command the engine's Zobrist keys are those of the position the
;   history led to (every command unmakes what it makes): xtask reads them by
;   label, wZobristKey (board.asm, the key MakeMove kept) and the last of
;   wGameKeys (gameend.asm, wGameKeyCount keys of GAME_KEY_SIZE bytes), and
;   compares them with the model's; the driver copies nothing, so that a
;   command takes the cycles it took before.
;
; xtask reads every code, limit and size below by name from the .sym (hence
; the EXPORTs) and checks at boot that it knows them all: a new command is a
; TEST_* constant here, at the end of the list, and a variant of DriverCommand
; in xtask/src/rom_engine.rs, in the same place.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/chess.inc"
INCLUDE "engine/engine.inc"
INCLUDE "generated/engine/search.inc"


	const_def
	const TEST_LOAD
	const TEST_PERFT
	const TEST_LEGAL_MOVES
	const TEST_SEARCH
DEF TEST_COMMAND_COUNT EQU const_value
EXPORT TEST_LOAD, TEST_PERFT, TEST_LEGAL_MOVES, TEST_SEARCH, TEST_COMMAND_COUNT

	const_def
	const TEST_STATUS_OK
	const TEST_STATUS_ILLEGAL_HISTORY
	const TEST_STATUS_MOVE_STACK_OVERFLOW
	const TEST_STATUS_UNDO_STACK_OVERFLOW
DEF TEST_STATUS_COUNT EQU const_value
EXPORT TEST_STATUS_OK, TEST_STATUS_ILLEGAL_HISTORY
EXPORT TEST_STATUS_MOVE_STACK_OVERFLOW, TEST_STATUS_UNDO_STACK_OVERFLOW
EXPORT TEST_STATUS_COUNT

DEF MAX_TEST_HISTORY EQU 200
ASSERT MAX_TEST_HISTORY <= $FF, "wTestHistoryLength is a byte"
; A mailbox move: from and to as setup indices, then the promotion as a setup
; piece byte (0 for none).
DEF TEST_MOVE_SIZE EQU 3
; The perft count: 32 bits, as wPerftNodes (perft.asm).
DEF TEST_NODES_SIZE EQU 4
; The deepest perft asked: the move stack holds one list per ply.
DEF TEST_MAX_PERFT_DEPTH EQU MOVE_STACK_PLIES
; What wTestEpSquare holds for no en-passant square (LoadPosition reads any
; byte that is not a setup index as none).
DEF TEST_NO_EP_SQUARE EQU $FF
ASSERT TEST_NO_EP_SQUARE >= NUM_SQUARES
; A history move is looked for in a list at wMoveStack and played with the
; list after it as free space.
ASSERT MOVE_STACK_PLIES >= 2, "the history needs two move lists"

EXPORT MAX_TEST_HISTORY, TEST_MOVE_SIZE, TEST_NODES_SIZE, TEST_MAX_PERFT_DEPTH
EXPORT TEST_NO_EP_SQUARE, NUM_SQUARES, MAX_MOVES, MAX_PLIES
EXPORT MAX_SEARCH_DEPTH, MAX_SEARCH_PLY
EXPORT SETUP_PAWN, SETUP_KNIGHT, SETUP_BISHOP, SETUP_ROOK, SETUP_QUEEN
EXPORT SETUP_KING, SETUP_BLACK, CASTLE_WHITE, CASTLE_BLACK
EXPORT COLOR_WHITE, COLOR_BLACK

DEF TEST_STACK_SIZE EQU $200
ASSERT TEST_STACK_SIZE >= SEARCH_STACK_SIZE + $20, "the test stack has no room for the search's frames (search.asm)"


SECTION "Test stack", WRAM0[$D000 - TEST_STACK_SIZE]

wTestStack:
	ds TEST_STACK_SIZE
wTestStackTop:


SECTION "Test mailbox", WRAM0

; Input.
; TEST_LOAD, TEST_PERFT or TEST_LEGAL_MOVES.
wTestCommand:: db
; The position, in the setup format LoadPosition reads (engine.inc): a square
; is rank * 5 + file (a1 = 0, e1 = 4, a2 = 5 ... e6 = 29); a piece byte is 0
; empty, 1-6 White's pawn, knight, bishop, rook, queen, king, plus 8 for Black.
wTestBoard:: ds NUM_SQUARES
; COLOR_WHITE or COLOR_BLACK to move.
wTestSide:: db
; Bit 0: White may still castle long; bit 1: Black.
wTestCastling:: db
; Where a pawn taking en passant would land, or TEST_NO_EP_SQUARE.
wTestEpSquare:: db
; Plies since the last capture or pawn move.
wTestHalfmove:: db
; Perft depth: 0 counts the position itself, 1 its legal moves (at most
; TEST_MAX_PERFT_DEPTH); search depth: 1 to MAX_SEARCH_DEPTH.
wTestDepth:: db
; The search's plies whose quiescence nodes search checks too (0: none).
wTestCheckPlies:: db
; The least depth of a search's node that reduces its late moves (at least 2).
wTestReduceDepth:: db
; The search's node budget, 32 bits little-endian (at least 1; $FFFFFFFF: no
; limit).
wTestNodeBudget:: ds TEST_NODES_SIZE
; Moves to play from the position before the command, as a game: each is the
; from square, the to square and the promotion piece (2-5, or 0).
wTestHistoryLength:: db
wTestHistory:: ds MAX_TEST_HISTORY * TEST_MOVE_SIZE

; Output.
; TEST_STATUS_OK; TEST_STATUS_ILLEGAL_HISTORY (a history move was not legal);
; or a limit of the engine was passed (see the traps at the end of the file).
wTestStatus:: db
; After a trap: the address the engine routine that stopped was to return to,
; and its hl (each trap says what it holds).
wTestTrapReturn:: dw
wTestTrapHL:: dw
; The perft count, or the nodes the search took, little-endian.
wTestNodes:: ds TEST_NODES_SIZE
; The search's move, its score (16 bits little-endian signed, the side to
; move's view), the last iteration that finished (0: none) and its principal
; variation (wTestPvLength moves).
wTestSearchMove:: ds TEST_MOVE_SIZE
wTestSearchScore:: dw
wTestSearchDepthDone:: db
wTestPvLength:: db
wTestPv:: ds MAX_SEARCH_PLY * TEST_MOVE_SIZE
; The legal moves, in the engine's order, as history moves are written.
wTestMoveCount:: db
wTestMoves:: ds MAX_MOVES * TEST_MOVE_SIZE
; The quiescence moves (GenerateQuiescenceMoves), in the same form.
wTestQuiescenceCount:: db
wTestQuiescenceMoves:: ds MAX_MOVES * TEST_MOVE_SIZE
; A VERDICT_* constant (gameend.asm): the game goes on, or how it ended.
wTestVerdict:: db
; 1 when the side to move is in check, else 0.
wTestInCheck:: db
; Evaluate's score, little-endian, signed: White's score kept by MakeMove
; through the history, from the side to move's view, plus the tempo.
wTestEvaluation:: dw
; 1 when hMatingMaterial says the material is insufficient, else 0.
wTestInsufficient:: db

; The stack pointer at the start of TestRunCommand (a trap returns with it).
wTestCommandSP: dw
; The history move being played.
wTestHistoryLeft: db
wTestHistoryNext: dw

ASSERT wTestSide == wTestBoard + SETUP_SIDE
ASSERT wTestCastling == wTestBoard + SETUP_CASTLING
ASSERT wTestEpSquare == wTestBoard + SETUP_EP
ASSERT wTestHalfmove == wTestBoard + SETUP_HALFMOVE


SECTION "Test driver", ROM0

;; Entry point (from the jump at $0100): clears WRAM, then idles. Interrupts
;; stay off.
Start::
	di
	ld hl, _RAM
.clear
	xor a
	ld [hli], a
	ld a, h
	cp HIGH(_RAM + WRAM_SIZE)
	jr nz, .clear
	ld sp, wTestStackTop
	; A position, so that a stray call finds a board.
	ld hl, wTestBoard
	call LoadPosition
TestDriverIdle::
	jr TestDriverIdle

;; Never enabled; the header's VBlank and STAT vectors jump here.
VBlankHandler::
StatHandler::
	reti


;; Runs the command in the mailbox (see the top of the file).
;; @destroys af, bc, de, hl
TestRunCommand::
IF DEF(ENGINE_STACK_CHECKS)
	; For the traps, which return from here; without the checks nothing traps
	; (and a command takes just what the engine and the driver's work take).
	ld [wTestCommandSP], sp
ENDC
	xor a
	ld [wTestStatus], a
	ld hl, wTestBoard
	call LoadPosition
	ld hl, wMoveStack
	call StartGameHistory

	ld a, [wTestHistoryLength]
	ld [wTestHistoryLeft], a
	ld a, LOW(wTestHistory)
	ld [wTestHistoryNext], a
	ld a, HIGH(wTestHistory)
	ld [wTestHistoryNext + 1], a
.history
	ld a, [wTestHistoryLeft]
	and a
	jr z, .command
	dec a
	ld [wTestHistoryLeft], a
	call PlayTestHistoryMove
	jr nc, .history
	ld a, TEST_STATUS_ILLEGAL_HISTORY
	ld [wTestStatus], a
	ret

.command
	ld a, [wTestCommand]
	cp TEST_PERFT
	jr z, TestPerft
	cp TEST_LEGAL_MOVES
	jr z, TestLegalMoves
	cp TEST_SEARCH
	jp z, TestSearch
	ret


;; TEST_PERFT: wTestNodes = perft(wTestDepth).
;; @destroys af, bc, de, hl
TestPerft:
	xor a
	ld hl, wPerftNodes
	ld [hli], a
	ld [hli], a
	ld [hli], a
	ld [hl], a
	ld a, [wTestDepth]
	and a
	jr nz, .count
	ld a, 1
	ld [wPerftNodes], a
	jr .done
.count
	ld hl, wMoveStack
	call Perft
.done
	ld hl, wPerftNodes
	ld de, wTestNodes
	ld c, TEST_NODES_SIZE
.copy
	ld a, [hli]
	ld [de], a
	inc de
	dec c
	jr nz, .copy
	ret


;; TEST_LEGAL_MOVES: the quiescence moves, the legal moves, the verdict, check,
;; the evaluation and the insufficient-material flag.
;; @destroys af, bc, de, hl
TestLegalMoves:
	; The quiescence moves first: the legal moves after them show that they
	; leave the board as they found it.
	ld hl, wMoveStack
	; (the legal moves)
	ld c, 1
	call GenerateQuiescenceMoves
	ld bc, wTestQuiescenceMoves
	call ConvertTestMoves
	ld [wTestQuiescenceCount], a
	ld hl, wMoveStack
	call GenerateMoves
	ld bc, wTestMoves
	call ConvertTestMoves
	ld [wTestMoveCount], a
	ld hl, wMoveStack
	call GameVerdict
	ld [wTestVerdict], a
	ld a, b
	ld [wTestInCheck], a
	call Evaluate
	ld a, l
	ld [wTestEvaluation], a
	ld a, h
	ld [wTestEvaluation + 1], a
	ldh a, [hMatingMaterial]
	cp MATING_MATERIAL_ENOUGH
	ld a, 0
	adc a
	ld [wTestInsufficient], a
	ret


;; Writes the moves of a list at wMoveStack in the mailbox format.
;; @param hl: the end of the list
;; @param bc: where to write (TEST_MOVE_SIZE bytes a move)
;; @return a: how many moves
;; @destroys f, bc, de, hl
ConvertTestMoves:
	ld d, h
	ld e, l
	ld hl, wMoveStack
	xor a
	ld [wTestListCount], a
.move
	ld a, l
	cp e
	jr nz, .convert
	ld a, h
	cp d
	jr z, .done
.convert
	push de
	ld a, [hli]
	ld d, a
	ld a, [hli]
	ld e, a
	push hl
	call MoveToTestMove
	pop hl
	pop de
	ld a, [wTestListCount]
	inc a
	ld [wTestListCount], a
	jr .move
.done
	ld a, [wTestListCount]
	ret


;; Writes a move in the mailbox format.
;; @param d: from square; e: to byte
;; @param bc: where to write (TEST_MOVE_SIZE bytes)
;; @return bc: just after
;; @destroys af, de, hl
MoveToTestMove:
	ld a, d
	call SquareToSetupIndex
	ld [bc], a
	inc bc
	ld a, e
	and MOVE_TO_SQUARE
	call SquareToSetupIndex
	ld [bc], a
	inc bc
	call MovePromotion
	ld [bc], a
	inc bc
	ret


;; The setup piece byte a move promotes to (0 if it does not promote).
;; @param d: from square; e: to byte
;; @return a
;; @destroys f, hl
MovePromotion:
	ld h, HIGH(wBoard)
	ld l, d
	ld a, [hl]
	and ROLE_MASK
	cp ROLE_PAWN
	jr nz, .none
	ld a, e
	and MOVE_TO_SQUARE
	jump_if_on_rank_1 jr, .promotes
	jump_if_on_rank_6 jr, .promotes
.none
	xor a
	ret
.promotes
	ld a, e
	and PROMOTE_MASK
	ld a, SETUP_QUEEN
	ret z
	ld a, e
	and PROMOTE_MASK
	cp PROMOTE_ROOK
	ld a, SETUP_ROOK
	ret z
	ld a, e
	and PROMOTE_MASK
	cp PROMOTE_BISHOP
	ld a, SETUP_BISHOP
	ret z
	ld a, SETUP_KNIGHT
	ret


;; Plays the next history move if it is legal.
;; @return carry: it is not legal (nothing played)
;; @destroys af, bc, de, hl
PlayTestHistoryMove:
	ld hl, wTestHistoryNext
	ld a, [hli]
	ld h, [hl]
	ld l, a
	; from, to, promotion as setup values
	ld a, [hli]
	ld b, a
	ld a, [hli]
	ld c, a
	ld a, [hli]
	ld e, a
	ld a, l
	ld [wTestHistoryNext], a
	ld a, h
	ld [wTestHistoryNext + 1], a
	ld a, b
	cp NUM_SQUARES
	ccf
	ret c
	ld a, c
	cp NUM_SQUARES
	ccf
	ret c
	ld a, e
	cp SETUP_QUEEN + 1
	ccf
	ret c
	; The wanted move in the mailbox format, for comparison: b, c, e.
	push bc
	push de
	ld hl, wMoveStack
	call GenerateMoves
	pop de
	pop bc
	ld d, h
	ld a, l
	; The list is from wMoveStack to da; look for a move converting to b, c, e.
	ld [wTestListEnd], a
	ld a, d
	ld [wTestListEnd + 1], a
	ld hl, wMoveStack
.search
	ld a, [wTestListEnd]
	cp l
	jr nz, .compare
	ld a, [wTestListEnd + 1]
	cp h
	jr nz, .compare
	scf
	ret
.compare
	push bc
	push de
	push hl
	ld a, [hli]
	ld d, a
	ld e, [hl]
	ld bc, wTestMoveScratch
	call MoveToTestMove
	pop hl
	pop de
	pop bc
	ld a, [wTestMoveScratch]
	cp b
	jr nz, .nextMove
	ld a, [wTestMoveScratch + 1]
	cp c
	jr nz, .nextMove
	ld a, [wTestMoveScratch + 2]
	cp e
	jr z, .found
.nextMove
	inc hl
	inc hl
	jr .search
.found
	ld a, [hli]
	ld d, a
	ld e, [hl]
	ld hl, wMoveStack + MOVE_SIZE * MAX_MOVES
	call PlayGameMove
	and a
	ret


;; TEST_SEARCH: SearchBestMove to depth wTestDepth within wTestNodeBudget
;; nodes, its quiescence nodes at plies 1 to wTestCheckPlies searching checks, its
;; late moves reduced from depth wTestReduceDepth; its results in the mailbox format (the PV's moves are converted
;; along the line, made and unmade again).
;; @destroys af, bc, de, hl
TestSearch:
	ld a, [wTestDepth]
	ld [wSearchDepth], a
	ld a, [wTestCheckPlies]
	ld [wSearchCheckPlies], a
	ld a, [wTestReduceDepth]
	ld [wSearchReduceDepth], a
	ld hl, wTestNodeBudget
	ld de, wSearchNodeBudget
	ld c, TEST_NODES_SIZE
	call TestCopyBytes
	xor a
	ldh [hSearchStop], a
	call SearchBestMove
.searched
	ld hl, wSearchNodes
	ld de, wTestNodes
	ld c, TEST_NODES_SIZE
	call TestCopyBytes
	ld hl, wSearchScore
	ld de, wTestSearchScore
	ld c, 2
	call TestCopyBytes
	ld a, [wSearchDepthDone]
	ld [wTestSearchDepthDone], a
	ld a, [wSearchBestMove]
	ld d, a
	ld a, [wSearchBestMove + 1]
	ld e, a
	ld bc, wTestSearchMove
	call MoveToTestMove
	; The PV, converted move by move along the line.
	ld a, [wSearchPvLength]
	ld [wTestPvLength], a
	and a
	ret z
	ld hl, wSearchPv
	ld bc, wTestPv
.convert
	push af
	ld a, [hli]
	ld d, a
	ld a, [hli]
	ld e, a
	push hl
	push de
	call MoveToTestMove
	pop de
	push bc
	call MakeMove
	pop bc
	pop hl
	pop af
	dec a
	jr nz, .convert
	; Unmade, last first.
	ld a, [wSearchPvLength]
.unmake
	push af
	dec hl
	ld e, [hl]
	dec hl
	ld d, [hl]
	push hl
	call UnmakeMove
	pop hl
	pop af
	dec a
	jr nz, .unmake
	ret


;; Copies c bytes (at least 1) from hl to de.
;; @destroys af, c, de, hl
TestCopyBytes:
	ld a, [hli]
	ld [de], a
	inc de
	dec c
	jr nz, TestCopyBytes
	ret


;; The engine's piece_square macro (engine.inc) as a routine, which xtask's
;; tests call with the registers set.
;; @param a: piece code; c: square
;; @return a: the piece-square entry (eval::piece_square)
;; @destroys f, hl
TestPieceSquare::
	piece_square
	ret

;; The engine's piece_square_gain macro (engine.inc) as a routine, for the
;; tests.
;; @param a: piece code; b: from square; c: to square
;; @return a: piece_square(to) - piece_square(from)
;; @destroys f, bc, hl
TestPieceSquareGain::
	piece_square_gain
	ret


SECTION "Test driver scratch", WRAM0

; The end of the legal list being searched.
wTestListEnd: dw
; The moves ConvertTestMoves has written so far.
wTestListCount: db
; A move converted to the mailbox format.
wTestMoveScratch: ds TEST_MOVE_SIZE


; ------------------------------------------------------------------------------
; Traps: where the engine's stack checks (engine.inc) jump when a limit is
; passed. Each ends the command at once, returning from TestRunCommand with
; its status; the return address on top of the stack is the checking routine's.
; Built only with the checks.
; ------------------------------------------------------------------------------

IF DEF(ENGINE_STACK_CHECKS)

SECTION "Test driver traps", ROM0

;; GenerateMoves was asked for a list where MAX_MOVES moves do not fit before
;; wMoveStackEnd.
;; @param hl: where the list was to start
MoveStackOverflow::
	ld a, TEST_STATUS_MOVE_STACK_OVERFLOW
	jr TrapEngineLimit

;; MakeMove found the undo stack full (MAX_PLIES records).
;; @param hl: wUndoTop's value
UndoStackOverflow::
	ld a, TEST_STATUS_UNDO_STACK_OVERFLOW
	fallthrough TrapEngineLimit

;; Ends the command with status a, keeping the return address on top of the
;; stack and hl for xtask (wTestTrapReturn, wTestTrapHL).
;; @param a: TEST_STATUS_*
;; @return to TestRunCommand's caller
TrapEngineLimit:
	ld [wTestStatus], a
	ld a, l
	ld [wTestTrapHL], a
	ld a, h
	ld [wTestTrapHL + 1], a
	pop hl
	ld a, l
	ld [wTestTrapReturn], a
	ld a, h
	ld [wTestTrapReturn + 1], a
	ld hl, wTestCommandSP
	ld a, [hli]
	ld h, [hl]
	ld l, a
	ld sp, hl
	ret

ENDC
