; The search: how the engine chooses a move. Iterative deepening over a
; fail-soft negamax alpha-beta search with a quiescence search at its leaves,
; node for node the reference model's (engine-src/src/search.rs); every rule
; is in docs/search.md, and `cargo xtask verify` proves the two equal (the same
; move, score, principal variation and node count).
;
; The routines and their Rust twins (in engine-src/src/search.rs):
;   SearchBestMove      search::search (iterative deepening, the aspiration
;                       windows, the result; the loop and the result are in
;                       search::run)
;   Search              Searcher::search (a node), and at depth 0
;                       Searcher::quiesce (the quiescence search)
;   IsRepetition        Searcher::repeats (the repetition rule of a node)
;   UpdatePv            Searcher::update_pv (the triangular principal
;                       variation)
;   StoreKillerIfQuiet  the killer update of Searcher::search (the killers
;                       of a ply)
;   IsDeltaPruned       the delta pruning of Searcher::quiesce
;                       (search::delta_gain)
;   IsLosingCapture     search::is_losing_capture, which Searcher::quiesce
;                       skips
;   ProbeTable          the transposition table's probe in Searcher::search
;                       (search::table_index, table_check, table_score_at)
;   StoreTable          the table's store at the end of Searcher::search
;                       (search::table_score)
;   IsNullWindowMove    the principal-variation search's test in
;                       Searcher::search
;   IsQuietNotKiller    the late-move reduction's tests in Searcher::search
;   IsQuietMove         the quiet test of the reductions, of futility
;                       pruning and of late-move pruning in Searcher::search
; and in order.asm the move order (OrderMoves, PickNextMove: search::order_key
; and search::order_moves).
;
; Scores are 16-bit. Inside the search they are kept biased: score + $8000, so
; that an unsigned comparison orders them (a signed 16-bit difference of two
; scores can overflow) and negation is still two's-complement negation
; (-(s + $8000) = -s + $8000 modulo $10000). Only the outputs are unbiased.
;
; How the game asks for a move: load the position and play the game's moves
; (LoadPosition, StartGameHistory, PlayGameMove), set wSearchDepth,
; wSearchCheckPlies, wSearchReduceDepth (at least 2) and wSearchNodeBudget,
; clear hSearchStop, call SearchBestMove; its results are
; in wSearchBestMove and the outputs beside it. An interrupt handler (the
; clock, the menu) may set hSearchStop at any time: the search then returns
; within a few thousand machine cycles (cartridge_tests/search.rs measures
; it) with the last finished iteration's move.
;
; A node keeps its frame on the stack (FRAME_*, read and written through the
; frame macros of include/macros.inc): 14 bytes and a return address a ply,
; MAX_SEARCH_PLY + 1 plies deep at most: SearchBestMove needs
; SEARCH_STACK_SIZE bytes of stack below its caller's.
;
; The move lists of the plies are packed on the move stack: each node's list
; starts where its parent's ended (order.asm tells how a list is laid out).

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/chess.inc"
INCLUDE "engine/engine.inc"
INCLUDE "generated/engine/search.inc"


; A node's frame, from its base up (Search pushes it, and reads it with
; frame_hl: include/macros.inc).
	const_def
	const FRAME_ALPHA     ; 2 bytes, biased
	const_skip
	const FRAME_BETA      ; 2 bytes, biased
	const_skip
	const FRAME_BEST      ; 2 bytes, biased
	const_skip
	const FRAME_TABLE_KEEP ; (the flags of `push af` until ProbeTable writes
	                      ; it) non-zero: StoreTable keeps the node's entry
	const FRAME_DEPTH     ; the depth left, 0 for quiescence
	const FRAME_END       ; 2 bytes: the end of the node's move records
	const_skip
	const FRAME_NEXT      ; 2 bytes: the next record to pick (the move being
	const_skip            ; searched is the one before it)
	const FRAME_SEARCHED  ; the moves searched so far (late-move reductions;
	                      ; kept at a full-width node of depth >= hReduceDepth);
	                      ; at depth 1, the quiet moves left before late-move
	                      ; pruning ($FF: the node prunes none)
	const FRAME_NODE_FLAG ; at depth >= hReduceDepth, non-zero: the side to move
	                      ; is in check; at depth 1, non-zero: futile
	                      ; (futility pruning); at depth 0, non-zero: the
	                      ; node searches checks (wSearchCheckPlies)
DEF FRAME_SIZE EQU const_value
; Search walks from a field to the next with `inc hl`: alpha to beta to best,
; depth to end to next; ProbeTable from the depth back to FRAME_TABLE_KEEP.
ASSERT FRAME_TABLE_KEEP == FRAME_DEPTH - 1
ASSERT FRAME_BETA == FRAME_ALPHA + 2 && FRAME_BEST == FRAME_BETA + 2
ASSERT FRAME_END == FRAME_DEPTH + 1 && FRAME_NEXT == FRAME_END + 2
ASSERT FRAME_NODE_FLAG == FRAME_SEARCHED + 1
; Search's child window: bc := -beta, de := -alpha (the node's own window,
; negated: the child's alpha and beta). -x = ~x + 1: `cpl` a byte and `inc`
; the pair, 10 M-cycles a score where 0 - x with `sub` and `sbc` takes 11
; and a byte more.
MACRO child_window
	frame_hl FRAME_ALPHA
	ld a, [hli]
	cpl
	ld e, a
	ld a, [hli]
	cpl
	ld d, a
	inc de
	ld a, [hli]
	cpl
	ld c, a
	ld a, [hl]
	cpl
	ld b, a
	inc bc
ENDM

; hl := this ply's killers in wKillers (hPly's two moves).
; @destroys af
MACRO point_at_ply_killers
	ldh a, [hPly]
	add a
	add a
	add LOW(wKillers)
	ld l, a
	ld h, HIGH(wKillers)
ENDM

; de := the move being searched, read back from its record (the one before
; FRAME_NEXT); with an argument, by the frame that far above the node's own
; (PARENT_FRAME: the move that made the node).
; @destroys af, hl
MACRO frame_move_de
	IF _NARG == 0
		frame_hl FRAME_NEXT
	ELSE
		frame_hl (\1) + FRAME_NEXT
	ENDC
	ld a, [hli]
	ld h, [hl]
	ld l, a
	; (`ld a, [hld]` and `ld e, a`: 3 M-cycles, `ld e, [hl]` and `dec hl` 4)
	dec hl
	ld a, [hld]
	ld e, a
	ld d, [hl]
ENDM

; Search's child depth, the move made and the ply counted: hChildDepth :=
; max(depth - 1, 0), but at a full-width node a move that gives check is
; searched to the node's own depth (the check extension, at a node whose
; child's ply is below hExtensionPly), and at a quiescence node that searches checks
; (FRAME_NODE_FLAG) to depth 1. With an argument (FULL_WIDTH), for a node of
; depth 1 or more only.
; @destroys af, bc, de, hl
MACRO find_child_depth
	frame_hl FRAME_DEPTH
	ld a, [hl]
	and a
	IF _NARG == 0
		jr nz, .fullWidth\@
		; (a quiescence node: 0, or as a node of depth 1 when it searches
		; checks)
		frame_hl FRAME_NODE_FLAG
		or [hl]
		jr z, .childDepth\@
		ld a, 1
		jr .extended\@
	ELSE
		jr z, .childDepth\@
	ENDC
.fullWidth\@
	; (no check extension at this ply: depth - 1)
	ld b, a
	ldh a, [hPly]
	ld hl, hExtensionPly
	cp [hl]
	ld a, b
	jr nc, .lessOne\@
.extended\@
	; a: the depth; then the check (1) or none (0) added, less one
	frame_push af
	frame_move_de
	call IsInCheckAfterMove
	frame_pop bc
	add b
.lessOne\@
	dec a
.childDepth\@
	ldh [hChildDepth], a
ENDM

; Search's child search, the move made and the ply counted: bc := s =
; -Search(hChildDepth, bc, de) from the end of the node's list.
MACRO search_child
	frame_hl FRAME_END
	ld a, [hli]
	ld h, [hl]
	ld l, a
	ldh a, [hChildDepth]
	; (nothing pushed on the frame: verify finds it FRAME_SIZE + 2 bytes
	; above the child's)
	frame_balanced
	call Search
	; (the child returned: no later node is on the principal variation)
	ld a, NO_PLY
	ldh [hFollowPly], a
	xor a
	sub l
	ld c, a
	ld a, 0
	sbc h
	ld b, a
ENDM

; An exit of Search: frees the node's frame (all pushed on it popped) and
; returns, hl holding the score.
MACRO return_from_node
	frame_balanced
	add sp, FRAME_SIZE
	ret
ENDM

; The parent node's frame, above a node's own: nothing but the return address
; is pushed between them (search_child).
DEF PARENT_FRAME EQU FRAME_SIZE + 2

; For verify, which reads the line being searched off the frames when the
; budget stops the search (a parent's frame is FRAME_SIZE + 2 bytes above its
; child's: nothing but the return address is pushed between them).
DEF SEARCH_FRAME_SIZE EQU FRAME_SIZE
DEF SEARCH_FRAME_NEXT EQU FRAME_NEXT
EXPORT SEARCH_FRAME_SIZE, SEARCH_FRAME_NEXT

; The stack the deepest search takes: a frame and a return address a ply,
; plus what MakeMove, GenerateMoves and the order take below the last one.
DEF SEARCH_STACK_SIZE EQU (MAX_SEARCH_PLY + 1) * (FRAME_SIZE + 2) + 16
EXPORT SEARCH_STACK_SIZE

; The deepest line makes MAX_SEARCH_PLY moves (the node at that ply makes
; none): the undo stack must hold them.
ASSERT MAX_PLIES >= MAX_SEARCH_PLY, "the undo stack is shallower than the search"

; A biased score (see the top of the file).
DEF BIASED_ZERO       EQU $8000
DEF BIASED_INFINITY   EQU BIASED_ZERO + INFINITY
DEF BIASED_MINUS_INFINITY EQU BIASED_ZERO - INFINITY
DEF BIASED_MATED      EQU BIASED_ZERO - MATE

; No ply: hFollowPly when it names no node.
DEF NO_PLY EQU $FF
ASSERT NO_PLY > MAX_SEARCH_PLY

; The nearest biased scores to 0 that are mate scores (search::is_mate_score:
; at least MATE - MAX_SEARCH_PLY away from 0).
DEF BIASED_MATE_WON  EQU BIASED_ZERO + MATE - MAX_SEARCH_PLY
DEF BIASED_MATE_LOST EQU BIASED_ZERO - (MATE - MAX_SEARCH_PLY)


SECTION "Search flags", HRAM

; Non-zero: stop the search. The caller clears it before SearchBestMove; an
; interrupt handler may set it at any time, and the search sets it when the
; node budget is spent, so it is non-zero after a search that was stopped.
hSearchStop:: db
; The depth of the child a node searches next (Search's .unreduced): its own
; less one, or its own for a move that gives check (the check extension); at
; .lateMove, a late move's reduced depth (its own less two, or three).
hChildDepth: db
; The ply of the node being searched (0 at the root).
hPly:: db
; The ply of the next node on the last finished iteration's principal
; variation (docs/search.md, "Following the principal variation"), NO_PLY when
; no node is on it any more: 0 at each iteration's start, ply + 1 when a node on
; it orders that variation's move first, NO_PLY when any child returns.
hFollowPly:: db
; The transposition table's move for the full-width node about to order its
; moves (ProbeTable; from square 0: none), which OrderMoves keys
; KEY_TABLE_MOVE.
hTableMove:: ds MOVE_SIZE
; The check extension: a node extends its checks when its child's ply (hPly
; after its count) is below this; $FF (every node) unless the root has at most
; CHECK_EXTENSION_PIECES pieces, the kings counted, then the iteration's depth
; plus one (0 before the first iteration).
hExtensionPly: db
; wSearchReduceDepth, where the nodes read it.
hReduceDepth: db


SECTION "Search interface", WRAM0

; Input: the deepest iteration, 1 to MAX_SEARCH_DEPTH.
wSearchDepth:: db
; Input: the quiescence nodes at plies 1 to this search checks too (docs/
; search.md, "Checks in the quiescence search"); 0: none does.
wSearchCheckPlies:: db
; Input: the least depth of a full-width node that reduces its late moves, at
; least 2 (search::Limits::reduce_depth: LMR_DEPTH but at MEDIUM).
wSearchReduceDepth:: db
; Input: the most nodes to search, 32 bits little-endian; $FFFFFFFF for no
; limit (more than any search reaches).
wSearchNodeBudget:: ds 4
; Output: the move chosen, as MakeMove takes it (from square, to byte).
wSearchBestMove:: ds MOVE_SIZE
; Output: its score, from the side to move's view, 16 bits little-endian
; signed.
wSearchScore:: ds 2
; Output: the nodes searched, 32 bits little-endian.
wSearchNodes:: ds 4
; Output: the last iteration that finished (0: none did).
wSearchDepthDone:: db
; Output: the principal variation of that iteration, moves as MakeMove takes
; them.
wSearchPvLength:: db
wSearchPv:: ds MAX_SEARCH_PLY * MOVE_SIZE


SECTION "Search nodes left", WRAM0, ALIGN[2]

; The budget minus the nodes searched so far, complemented (Search counts a
; node with `inc`), 32 bits little-endian; aligned so that its bytes are walked
; with `inc l`.
wNodesLeft: ds 4


SECTION "Search root moves", WRAM0

; The root's best move so far (root_best). (The last finished iteration's
; best move, which the root orders first, is its principal variation's first,
; in wSearchPv.)
wRootBest: ds MOVE_SIZE
; The iteration under way.
wSearchIteration: db
; The last finished iteration's score (done_score), as wSearchScore takes it.
wDoneScore: ds 2
; The window of the iteration's search under way (aspiration windows), biased:
; its alpha (low) and its beta (high).
wAspirationLow: ds 2
wAspirationHigh: ds 2


SECTION "Search killers", WRAM0, ALIGN[6]

; Each ply's two killers (the first, then the second; from square 0: none).
wKillers:: ds MAX_SEARCH_PLY * 2 * MOVE_SIZE
ASSERT MAX_SEARCH_PLY * 2 * MOVE_SIZE <= 64, "wKillers is walked with 8-bit steps"
ASSERT (MAX_SEARCH_PLY * 2 * MOVE_SIZE) % 8 == 0, "SearchBestMove clears wKillers 8 bytes a round"


SECTION "Search PV lengths", WRAM0, ALIGN[5]

; The length of each ply's principal variation (in moves).
wPvLength: ds MAX_SEARCH_PLY + 1
ASSERT MAX_SEARCH_PLY + 1 <= 32, "wPvLength is walked with 8-bit steps"


; The triangular principal variation: ply p's row (PV_ROW_SIZE bytes, at p *
; PV_ROW_SIZE) holds the moves from ply p on; a node at ply p has at most
; MAX_SEARCH_PLY - p moves below it. At the end of WRAMX, away from the move
; stack's end (a trap's report names the label there).
DEF PV_ROW_SIZE EQU MAX_SEARCH_PLY * MOVE_SIZE
ASSERT PV_ROW_SIZE == 32, "UpdatePv multiplies the ply by 32 with five shifts"
DEF PV_MOVES_SIZE EQU MAX_SEARCH_PLY * PV_ROW_SIZE

SECTION "Search PV moves", WRAMX[_RAM + WRAM_SIZE - PV_MOVES_SIZE]

wPvMoves: ds PV_MOVES_SIZE

; The search's lists take 3 bytes a move (order.asm) and may be 16 plies deep:
; more than the move stack's MOVE_STACK_PLIES lists of MAX_MOVES moves in a
; rare position. The test ROM traps a list that would pass wMoveStackEnd; the
; cartridge has no check. Right after the move stack lies the transposition
; table (below), then the rest of the 1.5 KB before the PV rows: a line that ran
; past the move stack's end would spoil the table's entries (the search's own
; state, cleared at its next start: a move a probe finds is keyed only if the
; node lists it, so a spoilt entry can cost a node its order or, by a wrong
; score, its result, never the game's state) and, 1 KB further, what lies after
; it. The move stack alone holds a line whose nodes have 40 moves each on
; average; with the table, 62 (the most any known position has is 72; the
; nodes of a line are mostly quiescence nodes, with a few captures each).
DEF MOVE_STACK_SPARE EQU 1536
ASSERT wPvMoves - wMoveStackEnd >= MOVE_STACK_SPARE, "the PV rows moved nearer the move stack's end"


; The transposition table (docs/search.md, "The transposition table"):
; TABLE_ENTRIES entries, each the last full-width node whose line key's low
; bits are its index. An entry's fields (TABLE_ENTRY_*), in the order
; table_entry_bytes of xtask/src/verify/search.rs renders the model's:
	const_def
	const TABLE_ENTRY_CHECK ; 2 bytes: the line key's bits 16-31 (table_check)
	const_skip
	const TABLE_ENTRY_DEPTH ; the depth searched, 1 or more; 0: empty
	const TABLE_ENTRY_BOUND ; BOUND_EXACT, BOUND_LOWER or BOUND_UPPER
	const TABLE_ENTRY_MOVE  ; 2 bytes: the move (as MakeMove takes it; 0, 0:
	const_skip              ; none)
	const TABLE_ENTRY_SCORE ; 2 bytes, biased: mates counted from the node
	const_skip              ; (table_score)
DEF TABLE_ENTRY_SIZE EQU const_value
DEF TABLE_SIZE EQU TABLE_ENTRIES * TABLE_ENTRY_SIZE
EXPORT TABLE_ENTRY_SIZE, TABLE_SIZE, TABLE_ENTRY_DEPTH
; TableEntryOfPosition multiplies the index by 8 with three shifts.
ASSERT TABLE_ENTRY_SIZE == 8
ASSERT TABLE_ENTRIES & (TABLE_ENTRIES - 1) == 0, "the index is the key's low bits"
; ProbeTable reads the check and the depth in that order, with `inc l`.
ASSERT TABLE_ENTRY_DEPTH == TABLE_ENTRY_CHECK + 2 && TABLE_ENTRY_BOUND == TABLE_ENTRY_DEPTH + 1
ASSERT TABLE_ENTRY_MOVE == TABLE_ENTRY_BOUND + 1 && TABLE_ENTRY_SCORE == TABLE_ENTRY_MOVE + 2

SECTION "Transposition table", WRAMX[$D800]

; Page-aligned: an entry's bytes share its address's high byte.
wTranspositionTable:: ds TABLE_SIZE
ASSERT wTranspositionTable == wMoveStackEnd, "the table's room is right after the move stack (see above)"


SECTION "Search", ROMX

;; Chooses a move for the side to move of the engine's position (loaded, with
;; the game's history started and played: StartGameHistory, PlayGameMove) by
;; iterative deepening, each iteration after the first in an aspiration window
;; (searched again with a side open when its score falls outside). The
;; position must have a legal move.
;; Twin of search::search (the loop and the result in search::run). The
;; iterations keep the last finished one's principal variation in wSearchPv
;; (the one the next follows); every other result is stored at .done alone,
;; which each way out of the loop jumps to.
;; @param wSearchDepth, wSearchCheckPlies, wSearchReduceDepth,
;;     wSearchNodeBudget, hSearchStop
;;     (see above)
;; @return wSearchBestMove, wSearchScore, wSearchNodes, wSearchDepthDone,
;;     wSearchPvLength, wSearchPv
;; @destroys af, bc, de, hl
SearchBestMove::
	ld a, [wSearchReduceDepth]
	ldh [hReduceDepth], a
	; The table starts empty.
	call ClearTranspositionTable
	; killers := none, for every ply
	ld hl, wKillers
	ld b, MAX_SEARCH_PLY * 2 * MOVE_SIZE / 8
	xor a
.clearKillers
	REPT 8
		ld [hli], a
	ENDR
	dec b
	jr nz, .clearKillers
	ldh [hPly], a
	; No iteration has finished: no principal variation to follow, score 0.
	ld [wSearchPvLength], a
	ld [wDoneScore], a
	ld [wDoneScore + 1], a
	ld hl, wSearchNodeBudget
	ld de, wNodesLeft
	ld c, 4
.copyBudget
	ld a, [hli]
	cpl
	ld [de], a
	inc e
	dec c
	jr nz, .copyBudget
	; hExtensionPly := $FF, or 0 when the root has at most
	; CHECK_EXTENSION_PIECES pieces: c (0 after the copy) := the slots that
	; hold a square.
	ld hl, wPieceSquares
	ld b, 2 * PIECE_SLOTS
.countPieces
	ld a, [hli]
	and a
	jr z, .noPiece
	inc c
.noPiece
	dec b
	jr nz, .countPieces
	ld a, CHECK_EXTENSION_PIECES
	sub c
	sbc a
	ldh [hExtensionPly], a
	; In an endgame, the mop-up of a bare king (eval.asm), if the root has
	; one.
	and a
	call z, StartMopUp
	; A king's endgame (eval.asm), if the root's phase is one and it has no
	; mop-up (whose bonus drives the kings instead).
	ldh a, [hMopUp]
	and a
	call z, StartKingEndgame

	; root_best starts as the first root move in the order: what the first
	; iteration searches first, so the move when no iteration finishes.
	; (No principal variation yet: the root follows none; nor a table move.)
	xor a
	ldh [hTableMove], a
	ld a, NO_PLY
	ldh [hFollowPly], a
	ld hl, wMoveStack
	xor a
	call OrderMoves
	ld a, l
	ldh [hPickEnd], a
	ld b, h
	ld c, l
	ld h, d
	ld l, e
	call PickNextMove
	ld a, d
	ld [wRootBest], a
	ld a, e
	ld [wRootBest + 1], a

	ld a, 1
.iteration
	ld [wSearchIteration], a
	; In an endgame (hExtensionPly not $FF), the nodes at plies below the
	; iteration's depth extend their checks: hExtensionPly := depth + 1.
	ld b, a
	ldh a, [hExtensionPly]
	inc a
	jr z, .everyPly
	ld a, b
	inc a
	ldh [hExtensionPly], a
.everyPly
	ld a, b
	; Aspiration windows: the first iteration searches the full window, each
	; later one done_score - ASPIRATION_MARGIN to done_score +
	; ASPIRATION_MARGIN (never a mate score: a mate ends the iterations).
	ld bc, BIASED_MINUS_INFINITY
	ld de, BIASED_INFINITY
	dec a
	jr z, .window
	ld a, [wDoneScore]
	ld l, a
	ld a, [wDoneScore + 1]
	xor HIGH(BIASED_ZERO)
	ld h, a
	ld bc, -ASPIRATION_MARGIN
	add hl, bc
	ld b, h
	ld c, l
	ld hl, 2 * ASPIRATION_MARGIN
	add hl, bc
	ld d, h
	ld e, l
.window
	; bc: the window's low side, de: its high side (biased)
	ld a, c
	ld [wAspirationLow], a
	ld a, b
	ld [wAspirationLow + 1], a
	ld a, e
	ld [wAspirationHigh], a
	ld a, d
	ld [wAspirationHigh + 1], a
	; The root is on the last iteration's principal variation.
	ld hl, hFollowPly
	ld [hl], 0
	ld hl, wMoveStack
	ld a, [wSearchIteration]
	call Search
	ldh a, [hSearchStop]
	and a
	jr nz, .stopped
	; A score at or below the low side (low - score does not borrow) is
	; searched again with the low side open; one at or above the high side
	; (score - high does not borrow), with the high side open. (A root score
	; is never -INFINITY nor INFINITY: an open side never fails.)
	ld a, [wAspirationLow]
	ld c, a
	sub l
	ld a, [wAspirationLow + 1]
	ld b, a
	sbc h
	ld a, [wAspirationHigh]
	ld e, a
	ld a, [wAspirationHigh + 1]
	ld d, a
	jr c, .aboveLow
	ld bc, BIASED_MINUS_INFINITY
	jr .window
.aboveLow
	ld a, l
	sub e
	ld a, h
	sbc d
	jr c, .inside
	ld de, BIASED_INFINITY
	jr .window
.inside
	; done_score := score; previous_pv := pv[0] (and done := d: the ways
	; out of the loop below hand it to .done)
	ld a, l
	ld [wDoneScore], a
	ld a, h
	xor HIGH(BIASED_ZERO)
	ld [wDoneScore + 1], a
	ld a, [wPvLength]
	ld [wSearchPvLength], a
	add a
	ld c, a
	ld hl, wPvMoves
	ld de, wSearchPv
	; (the PV of a finished iteration has at least its root move)
	call CopySearchBytes
	; A mate score: deeper iterations find nothing better.
	ld a, [wDoneScore]
	ld l, a
	ld a, [wDoneScore + 1]
	ld h, a
	bit 7, h
	jr z, .positive
	xor a
	sub l
	ld l, a
	ld a, 0
	sbc h
	ld h, a
.positive
	ld de, -(MATE - MAX_SEARCH_PLY)
	add hl, de
	jr c, .finished
	ld a, [wSearchDepth]
	ld b, a
	ld a, [wSearchIteration]
	cp b
	jr nc, .done
	inc a
	jp .iteration

.stopped
	; The iteration under way did not finish: the one before is the last
	; that did.
	ld a, [wSearchIteration]
	dec a
	jr .done
.finished
	ld a, [wSearchIteration]
.done
	; The result, stored here alone; a: the last finished iteration (done),
	; 0 when none did.
	ld [wSearchDepthDone], a
	; The move: the first of that iteration's principal variation (root_best
	; when it finished); when none finished, root_best so far.
	ld hl, wRootBest
	and a
	jr z, .storeMove
	ld hl, wSearchPv
.storeMove
	ld a, [hli]
	ld [wSearchBestMove], a
	ld a, [hl]
	ld [wSearchBestMove + 1], a
	ld a, [wDoneScore]
	ld [wSearchScore], a
	ld a, [wDoneScore + 1]
	ld [wSearchScore + 1], a
	; nodes = budget - nodes left = budget + (nodes left complemented) + 1
	ld de, wSearchNodeBudget
	ld hl, wNodesLeft
	ld bc, wSearchNodes
	scf
	REPT 4
		ld a, [de]
		adc [hl]
		ld [bc], a
		inc de
		inc hl
		inc bc
	ENDR
	; The root's endgame entries and mop-up bonus leave White's score.
	call EndKingEndgame
	ldh a, [hMopUp]
	and a
	ret z
	jp EndMopUp


;; Copies c bytes (at least 1) from hl to de.
;; @destroys af, c, de, hl
CopySearchBytes:
	ld a, [hli]
	ld [de], a
	inc de
	dec c
	jr nz, CopySearchBytes
	ret


;; A node: fail-soft negamax alpha-beta, depth 0 being the quiescence search.
;; Twin of Searcher::search, and at depth 0 of Searcher::quiesce; the steps
;; are numbered as in docs/search.md.
;; @param a: depth (0: quiescence)
;; @param bc: alpha; de: beta (both biased)
;; @param hl: free move stack space (the end of the parent's list)
;; @param hPly: the node's ply
;; @return hl: the score (biased); 0 when the search has stopped
;; @destroys af, bc, de
Search:
	; FRAME_SEARCHED, FRAME_NODE_FLAG and FRAME_NEXT are written before they
	; are read (when they are kept): room made for them, not pushed (`add sp`
	; is 4 M-cycles, two `push hl` 8).
	add sp, -4
	push hl
	push af
	push de
	push de
	push bc
	ASSERT FRAME_SIZE == 14
	frame_start
	; 1. A stopped search returns 0; so does the node that finds the budget
	; spent (the count never passes it), stopping the search.
	ldh a, [hSearchStop]
	and a
	jp nz, .returnZero
	; 2. nodes += 1: one fewer left. wNodesLeft holds the nodes left
	; complemented, so one fewer is one more, the carry running up the bytes
	; while they wrap to 0 (the low byte does not, but once in 256 nodes):
	; `inc [hl]` sets z itself (6 M-cycles a byte with the jump, not 9).
	ld hl, wNodesLeft
	REPT 3
		inc [hl]
		jr nz, .counted
		inc l
	ENDR
	inc [hl]
	jr nz, .counted
	; All four wrapped: none was left, the budget was spent (the count goes
	; back to none left, $FFFFFFFF complemented).
	ld a, $FF
	REPT 3
		ld [hld], a
	ENDR
	ld [hl], a
	jp .budgetSpent
.counted
	; The principal variation of this ply becomes empty.
	ldh a, [hPly]
	ld c, a
	add LOW(wPvLength)
	ld l, a
	ld h, HIGH(wPvLength)
	ld [hl], 0

	; 3. Draws by rule, but at the root.
	ld a, c
	and a
	jr z, .notDrawn
	ldh a, [hMatingMaterial]
	cp MATING_MATERIAL_ENOUGH
	jp c, .returnZero
	ldh a, [hHalfmoveClock]
	cp FIFTY_MOVE_PLIES
	jp nc, .returnZero
	; (no repetition within fewer than 2 plies of the clock: IsRepetition not
	; called, as after every capture)
	cp 2
	jr c, .notRepeated
	call IsRepetition
	jp z, .returnZero
.notRepeated
	ldh a, [hPly]
.notDrawn
	; 4. Too deep: the evaluation.
	cp MAX_SEARCH_PLY
	jp nc, .returnEvaluation

	frame_hl FRAME_DEPTH
	ld a, [hl]
	and a
	jr nz, .fullWidth

	; 5. Quiescence: standing pat is always allowed.
	call Evaluate
	ld a, h
	xor HIGH(BIASED_ZERO)
	ld d, a
	ld e, l
	; stand >= beta: return it
	frame_hl FRAME_BETA
	ld a, e
	sub [hl]
	inc hl
	ld a, d
	sbc [hl]
	jp nc, .returnDE
	; best := stand, alpha := max(alpha, stand)
	inc hl
	ld [hl], e
	inc hl
	ld [hl], d
	frame_hl FRAME_ALPHA
	ld a, [hli]
	sub e
	ld a, [hld]
	sbc d
	jr nc, .alphaKept
	ld [hl], e
	inc hl
	ld [hl], d
.alphaKept
	; c: 0 when the node is not in check, so that its moves are listed
	; pseudo-legal (GenerateQuiescenceMoves) and their pins tested only as
	; they come (below). A quiescence node can be in check after a quiescence
	; move, or after a full-width node's move at a ply the check extension
	; skips (hPly at least hExtensionPly): elsewhere a full-width node
	; searches a move that gives check to its own depth, never 0.
	ld c, 0
	frame_hl PARENT_FRAME + FRAME_DEPTH
	ld a, [hl]
	and a
	jr z, .afterQuiescence
	ldh a, [hPly]
	ld hl, hExtensionPly
	cp [hl]
	jr c, .notInCheck
	; c := $FF in check, 0 not
	frame_move_de PARENT_FRAME
	call IsInCheckAfterMove
	dec a
	cpl
	ld c, a
	jr .notInCheck
.afterQuiescence
	frame_move_de PARENT_FRAME
	call MayBeInCheckAfterCapture
	sbc a
	ld c, a
.notInCheck
	; Checks in the quiescence search: a node at a ply of 1 to
	; wSearchCheckPlies (ply - 1 < it) lists every legal move, and the loop
	; keeps the quiet ones that give check; none is the table's move or the
	; variation's (Searcher::quiesce orders none so).
	ld a, [wSearchCheckPlies]
	ld b, a
	ldh a, [hPly]
	dec a
	cp b
	sbc a
	frame_hl FRAME_NODE_FLAG
	ld [hl], a
	; b: OrderMoves' choice, 0 for every legal move
	cpl
	and a
	jr nz, .quiescenceMoves
	ldh [hTableMove], a
	ASSERT NO_PLY == $FF
	dec a
	ldh [hFollowPly], a
	inc a
.quiescenceMoves
	ld b, a
	frame_hl FRAME_END
	ld a, [hli]
	ld h, [hl]
	ld l, a
	ld a, b
	call OrderMoves
	jr .listed

.fullWidth
	; 6. Full width. A deep enough entry of the transposition table ends the
	; node (not at the root); its move is searched early.
	frame_call ProbeTable
	jp c, .returnDE
	; The legal moves, but the king's steps listed untested: most nodes cut
	; off before them, and the loop below tests the one it picks. (So the
	; list may hold moves and no legal one: no move searched, best still
	; -INFINITY at the end, tells mate or stalemate.)
	frame_hl FRAME_BEST
	ld a, LOW(BIASED_MINUS_INFINITY)
	ld [hli], a
	ASSERT HIGH(BIASED_MINUS_INFINITY) != 0
	ld a, HIGH(BIASED_MINUS_INFINITY)
	ld [hl], a
	ldh [hKingStepsUntested], a
	frame_hl FRAME_END
	ld a, [hli]
	ld h, [hl]
	ld l, a
	xor a
	call OrderMoves
	; Late-move reductions need, at a node deep enough, the moves searched
	; and whether it is in check; futility pruning, at depth 1, whether the
	; node is futile: not in check, its evaluation + FUTILITY_MARGIN at most
	; alpha (alpha as the node began: no move is searched yet). Whether it
	; is in check is hCheckers, which GenerateMoves has just found (the
	; assembly's shortcut for the model's in_check, with no IsInCheck).
	frame_push hl
	frame_push de
	frame_hl FRAME_DEPTH
	ld a, [hl]
	ld hl, hReduceDepth
	cp [hl]
	jr nc, .reducing
	dec a
	jr nz, .flagsKept
	; Late-move pruning, at a node off the principal variation neither in
	; check nor futile: d := LATE_MOVE_PRUNING_QUIETS, the quiet moves it
	; searches whatever they do (FRAME_SEARCHED, counted down at
	; .notFutileNode); $FF
	; at any other node, which prunes none.
	ld d, $FF
	ldh a, [hCheckers]
	and a
	ld a, 0
	jr nz, .futility
	call Evaluate
	; Reverse futility pruning: off the principal variation (a null window,
	; beta = alpha + 1), a node whose evaluation - REVERSE_FUTILITY_MARGIN is
	; at least beta returns its evaluation (.reverseFutile). bc: the
	; evaluation, biased; de: alpha + 1, then beta (d is set again below:
	; the $FF above is for the node in check, which jumps to .futility).
	ld a, h
	xor HIGH(BIASED_ZERO)
	ld b, a
	ld c, l
	frame_hl FRAME_ALPHA
	ld a, [hli]
	ld e, a
	ld a, [hli]
	ld d, a
	inc de
	ld a, [hli]
	cp e
	jr nz, .notReverseFutile
	ld a, [hl]
	cp d
	jr nz, .notReverseFutile
	; (evaluation - REVERSE_FUTILITY_MARGIN - beta, both biased: no borrow,
	; returned; the evaluation is far enough from -INFINITY not to wrap)
	ld hl, -REVERSE_FUTILITY_MARGIN
	add hl, bc
	ld a, l
	sub e
	ld a, h
	sbc d
	jp nc, .reverseFutile
	ld d, LATE_MOVE_PRUNING_QUIETS
	jr .futilityTest
.notReverseFutile
	ld d, $FF
.futilityTest
	; (alpha - (evaluation + FUTILITY_MARGIN), both biased: no borrow, futile)
	ld hl, FUTILITY_MARGIN
	add hl, bc
	ld b, h
	ld c, l
	frame_hl FRAME_ALPHA
	ld a, [hli]
	sub c
	ld a, [hl]
	sbc b
	sbc a
	cpl
	; (a futile node prunes its quiet moves by futility, not by count)
	and a
	jr z, .futility
	ld d, $FF
.futility
	frame_hl FRAME_NODE_FLAG
	ld [hld], a
	ld [hl], d
	jr .flagsKept
.reducing
	ldh a, [hCheckers]
	frame_hl FRAME_SEARCHED
	ld [hl], 0
	inc hl
	ld [hl], a
.flagsKept
	frame_pop de
	frame_pop hl

.listed
	; de: the first record, hl: the end (`ld a, r` and `ld [hli], a`: 3
	; M-cycles a byte, `ld [hl], r` and `inc hl` 4)
	ld b, h
	ld a, l
	frame_hl FRAME_END
	ld [hli], a
	ld a, b
	ld [hli], a
	ld a, e
	ld [hli], a
	ld [hl], d

.nextMove
	frame_hl FRAME_END
	ld a, [hli]
	ld c, a
	ld a, [hli]
	ld b, a
	ld a, [hli]
	ld h, [hl]
	ld l, a
	; (the low bytes of the next record and the end differ until the end)
	cp c
	jp z, .returnBest
	ld a, c
	ldh [hPickEnd], a
	call PickNextMove
	; de: the move, the record's last two bytes; hl: the next record.
	ld b, h
	ld a, l
	frame_hl FRAME_NEXT
	ld [hli], a
	ld [hl], b
	; 5. Delta pruning in the quiescence search.
	frame_hl FRAME_DEPTH
	ld a, [hl]
	and a
	jr nz, .make
	frame_call IsDeltaPruned
	jp nc, .deltaPruned
	; Losing captures are skipped too.
	call IsLosingCapture
	jp c, .nextMove
	; An illegal move of a pseudo-legal list (a pinned piece leaving its pin
	; line) is skipped too: the model never lists it (no node either way).
	push de
	call IsLeavingKingToSlider
	pop de
	jp c, .nextMove
	; (a quiescence move is never late)
	frame_hl FRAME_NODE_FLAG
	ld a, [hl]
	and a
	jr z, .notLate
	; A node that searches checks: an under-promotion is no quiescence move,
	; and a quiet move is searched only when it gives check (as futility
	; pruning's).
	ld a, e
	and PROMOTE_MASK
	jp nz, .nextMove
	jr .skippedUnlessCheck
.make
	; A full-width node's king's steps are listed untested (OrderMoves): an
	; attacked one is not a legal move, skipped, tested before the move is
	; made, but after futility pruning, which skips most quiet moves at depth
	; 1 without a test.
	; A late move's reduction (late-move reductions, in a node of depth >=
	; hReduceDepth not in check, after LMR_MOVES moves): a quiet move that is
	; no killer (tested before it is made) is made at .lateMove, and reduced
	; there when it gives no check (tested after).
	; (a: the depth, read above)
	ld hl, hReduceDepth
	cp [hl]
	jr c, .early
	call IsKingStepAttacked
	jp z, .nextMove
	; (FRAME_SEARCHED counted here, where it is read: every move past the
	; king's test is searched, and only these nodes keep the count)
	frame_hl FRAME_SEARCHED
	ld a, [hl]
	inc [hl]
	inc hl
	cp LMR_MOVES
	jr c, .notLate
	ld a, [hl]
	and a
	jr nz, .notLate
	; (IsQuietNotKiller keeps de)
	call IsQuietNotKiller
	jp c, .lateMove
	jr .notLate
.early
	; (a: the depth, below hReduceDepth)
	; Futility pruning, in a futile node of depth 1: a quiet move after the
	; first (best is -INFINITY until it returns) that gives no check is
	; skipped, no node: not made at all when MayGiveCheck rules a check out, else
	; made, tested with IsInCheck and unmade.
	dec a
	jr nz, .notLateUntested
	frame_hl FRAME_NODE_FLAG
	ld a, [hl]
	and a
	jp z, .notFutileNode
	frame_hl FRAME_BEST + 1
	ld a, [hl]
	cp HIGH(BIASED_MINUS_INFINITY)
	jr z, .notLateUntested
.skippedUnlessCheck
	; (IsQuietMove keeps de)
	call IsQuietMove
	jr nc, .notLateUntested
.quietUnlessCheck
	; (most such moves cannot give check: skipped without being made)
	push de
	call MayGiveCheck
	pop de
	jr nc, .futile
	call IsKingStepAttacked
	jr z, .futile
	push de
	call MakeMove
	call IsInCheck
	pop de
	jr z, .plyCounted
	call UnmakeMove
.futile
	; (a run of skipped moves makes no node: the stop flag is read here too,
	; so that the search stops within its bound)
	ldh a, [hSearchStop]
	and a
	jp nz, .returnZero
	jp .nextMove
.notLateUntested
	; Only the king's own moves need IsKingStepAttacked: its first test (the
	; from square the side to move's king square, hKingSquares) made here,
	; 12 M-cycles for any other move where the call and the jump take 23.
	ldh a, [hSideToMove]
	add LOW(hKingSquares)
	ld c, a
	ldh a, [c]
	cp d
	jr nz, .notLate
	call IsKingStepAttacked
	jp z, .nextMove
.notLate
	call MakeMove
.plyCounted
	; (a futile move that gives check comes here made)
	ld hl, hPly
	inc [hl]
.unreduced
	find_child_depth
	; s := -search(hChildDepth, -beta, -alpha, ply + 1), or, by
	; principal-variation search, for a later move of a node with depth >= 2
	; and an open window, first with the null window (-alpha - 1, -alpha).
	; (The depth is tested here, not in IsNullWindowMove: the quiescence
	; search's moves, most moves, pay 10 M-cycles for it, not a call.)
	child_window
	frame_hl FRAME_DEPTH
	ld a, [hl]
	cp 2
	jr c, .nodesWindow
	frame_call IsNullWindowMove
	jr nc, .nullWindow
.nodesWindow
	search_child
	jr .searched
.nullWindow
	ld b, d
	ld c, e
	dec bc
	search_child
	; A null-window score strictly between alpha and beta (not stopped) is
	; searched again with the full window.
	ldh a, [hSearchStop]
	and a
	jr nz, .searched
	; alpha < s (alpha - s borrows) ...
	frame_hl FRAME_ALPHA
	ld a, [hli]
	sub c
	ld a, [hli]
	sbc b
	jr nc, .searched
	; ... < beta (s - beta borrows)
	ld a, c
	sub [hl]
	inc hl
	ld a, b
	sbc [hl]
	jr nc, .searched
	; (the child's own children wrote hChildDepth: found again)
	find_child_depth FULL_WIDTH
	child_window
	search_child
.searched
	ld hl, hPly
	dec [hl]
	; Unmake the move (read back from its record), keeping s in bc.
	frame_push bc
	frame_move_de
	call UnmakeMove
	frame_pop bc
	ldh a, [hSearchStop]
	and a
	jp nz, .returnZero
	; s > best: best := s
	frame_hl FRAME_BEST
	ld a, [hli]
	sub c
	ld a, [hld]
	sbc b
	jp nc, .nextMove
	ld a, c
	ld [hli], a
	ld [hl], b
	; (de: the move, for what follows)
	frame_move_de
	; at ply 0: root_best := the move
	ldh a, [hPly]
	and a
	jr nz, .notRoot
	ld a, d
	ld [wRootBest], a
	ld a, e
	ld [wRootBest + 1], a
.notRoot
	; s > alpha: alpha := s, and the PV of this ply becomes the move then
	; the PV of ply + 1
	frame_hl FRAME_ALPHA
	ld a, [hli]
	sub c
	ld a, [hld]
	sbc b
	jp nc, .nextMove
	ld a, c
	ld [hli], a
	ld [hl], b
	; s >= beta: a cutoff (hl: alpha's high byte, beta's bytes next). Tested
	; before UpdatePv, which destroys bc: s need not be kept over its call
	; (7 M-cycles), and a move that raises alpha without a cutoff keeps no
	; move either.
	inc hl
	ld a, c
	sub [hl]
	inc hl
	ld a, b
	sbc [hl]
	jr c, .raisedAlpha
	frame_push de
	call UpdatePv
	frame_pop de
	; A quiet move of the full-width search becomes this ply's first killer.
	frame_hl FRAME_DEPTH
	ld a, [hl]
	and a
	jr z, .returnBestScore
	call StoreKillerIfQuiet
	jr .store
.raisedAlpha
	call UpdatePv
	jp .nextMove
.deltaPruned
	; Every later move of the list gains no more than a capture pruned (the
	; order puts the dearer victims first, the promotions before them): all
	; pruned too, as alpha never falls, so the node ends here, with the model's
	; best and node count. But a quiet promotion (its target empty; or en
	; passant) may gain less than a queen's capture after it: the next move.
	ld h, HIGH(wBoard)
	ld a, e
	and MOVE_TO_SQUARE
	ld l, a
	ld a, [hl]
	and a
	jp z, .nextMove
	jr .returnBestScore
.returnBest
	frame_hl FRAME_DEPTH
	ld a, [hl]
	and a
	jr z, .returnBestScore
	; No legal move (none searched, best still -INFINITY: the first move is
	; never pruned): mated in check, else stalemate.
	frame_hl FRAME_BEST + 1
	ld a, [hl]
	cp HIGH(BIASED_MINUS_INFINITY)
	jr z, .noLegalMove
.store
	; A full-width node's result goes into the transposition table.
	frame_call StoreTable
.returnBestScore
	frame_hl FRAME_BEST
	ld a, [hli]
	ld h, [hl]
	ld l, a
	return_from_node

.noLegalMove
	call IsInCheck
	and a
	jr z, .returnZero
	ldh a, [hPly]
	add LOW(BIASED_MATED)
	ld l, a
	ld a, 0
	adc HIGH(BIASED_MATED)
	ld h, a
	return_from_node

.budgetSpent
	; (verify reads the line being searched off the frames here: nothing
	; pushed on this one)
	frame_balanced
	ld a, 1
	ldh [hSearchStop], a
.returnZero
	ld hl, BIASED_ZERO
	return_from_node

.reverseFutile
	; (the end and the first record, pushed at .fullWidth, dropped; bc: the
	; evaluation, biased)
	add sp, 4
	ld d, b
	ld e, c
.returnDE
	ld h, d
	ld l, e
	return_from_node

.returnEvaluation
	call Evaluate
	ld a, h
	xor HIGH(BIASED_ZERO)
	ld h, a
	return_from_node

.lateMove
	; A late move, made, is reduced unless it gives check. (Its own copy of
	; the making: the moves that are not late, nearly all, go straight on to
	; .unreduced with no flag pushed and tested, 12 M-cycles less.)
	call MakeMove
	ld hl, hPly
	inc [hl]
	frame_move_de
	call IsInCheckAfterMove
	jp z, .unreduced
	; Searched to depth - 2 with the null window (-alpha - 1, -alpha) first;
	; as usual only if it beats alpha there (not stopped). A node deeper than
	; hReduceDepth reduces by two plies, to depth - 3, once it has searched
	; LMR_DEEP_MOVES moves (FRAME_SEARCHED counts this one too), but not in an
	; endgame (hExtensionPly not $FF). hChildDepth is free until .unreduced
	; finds it again.
	frame_hl FRAME_DEPTH
	ld a, [hl]
	sub 2
	ldh [hChildDepth], a
	; (depth - 1 - hReduceDepth: a borrow, not deeper)
	inc a
	ld hl, hReduceDepth
	cp [hl]
	jr c, .reduced
	ldh a, [hExtensionPly]
	inc a
	jr nz, .reduced
	frame_hl FRAME_SEARCHED
	ld a, [hl]
	cp LMR_DEEP_MOVES + 1
	jr c, .reduced
	ld hl, hChildDepth
	dec [hl]
.reduced
	child_window
	ld b, d
	ld c, e
	dec bc
	search_child
	ldh a, [hSearchStop]
	and a
	jp nz, .searched
	frame_hl FRAME_ALPHA
	ld a, [hli]
	sub c
	ld a, [hl]
	sbc b
	jp nc, .searched
	jp .unreduced

.notFutileNode
	; Late-move pruning (hl: FRAME_SEARCHED + 1): a quiet move, once the
	; node's count of them is spent, is searched only if it gives check (as
	; futility pruning's, at .quietUnlessCheck); before, it is counted. An
	; attacked king's step is no move, not counted.
	dec hl
	ld a, [hl]
	inc a
	jp z, .notLateUntested
	call IsQuietMove
	jp nc, .notLateUntested
	call IsKingStepAttacked
	jp z, .nextMove
	frame_hl FRAME_SEARCHED
	ld a, [hl]
	and a
	jp z, .quietUnlessCheck
	dec [hl]
	jp .notLate


;; The PV of this ply becomes the move, then the PV of the ply below.
;; Twin of Searcher::update_pv.
;; @param de: the move
;; @destroys af, bc, de, hl
UpdatePv:
	ldh a, [hPly]
	ld c, a
	add LOW(wPvLength)
	ld l, a
	ld h, HIGH(wPvLength)
	inc l
	ld a, [hld]
	ld b, a
	inc a
	ld [hl], a
	; hl: this ply's row
	ld l, c
	ld h, 0
	REPT 5
		add hl, hl
	ENDR
	ld a, l
	add LOW(wPvMoves)
	ld l, a
	ld a, h
	adc HIGH(wPvMoves)
	ld h, a
	ld a, d
	ld [hli], a
	ld a, e
	ld [hli], a
	ld a, b
	and a
	ret z
	; b moves from the next row (PV_ROW_SIZE - MOVE_SIZE bytes on)
	ld d, h
	ld e, l
	ld a, l
	add PV_ROW_SIZE - MOVE_SIZE
	ld l, a
	adc h
	sub l
	ld h, a
.copy
	ld a, [hli]
	ld [de], a
	inc de
	ld a, [hli]
	ld [de], a
	inc de
	dec b
	jr nz, .copy
	ret


;; At a cutoff of the full-width search: a quiet move (no capture, no
;; promotion: IsQuietMove) becomes this ply's first killer, the first moving
;; to second, unless the move already was the first. The move is unmade.
;; Twin of the killer update in Searcher::search.
;; @param de: the move
;; @destroys af, bc, hl
StoreKillerIfQuiet:
	call IsQuietMove
	ret nc
	point_at_ply_killers
	ld a, [hli]
	cp d
	jr nz, .store
	ld a, [hl]
	cp e
	ret z
.store
	ldh a, [hPly]
	add a
	add a
	add LOW(wKillers)
	ld l, a
	ld b, [hl]
	ld [hl], d
	inc l
	ld c, [hl]
	ld [hl], e
	inc l
	ld [hl], b
	inc l
	ld [hl], c
	ret


;; Does the position repeat: does it equal (by key) an earlier one at a
;; distance of 2, 4, 6 ... plies, up to its halfmove clock, through the
;; search line (the undo records' keys) then the root and the game's history
;; (game keys)? Called at ply 1 or more.
;; Twin of Searcher::repeats.
;; @return z: it repeats
;; @destroys af, bc, de, hl
IsRepetition:
	ldh a, [hHalfmoveClock]
	cp 2
	jr c, .no
	ld b, a
	ldh a, [hPly]
	ld c, a
	; e: the distance; hl: the key of the line's position that far back
	ld e, 2
	ld hl, wUndoTop
	ld a, [hli]
	ld h, [hl]
	ld l, a
	push de
	ld de, UNDO_KEY - 2 * UNDO_SIZE
	add hl, de
	pop de
.line
	ld a, e
	cp c
	jr nc, .history
	call IsCurrentKey
	ret z
	ld a, l
	sub 2 * UNDO_SIZE
	ld l, a
	jr nc, .lineStepped
	dec h
.lineStepped
	inc e
	inc e
	ld a, b
	cp e
	jr nc, .line
.no
	or 1
	ret
.history
	; The game key number count - 1 - (distance - ply), while there is one.
	ld a, [wGameKeyCount]
	dec a
	add c
	sub e
	jr c, .no
	ld l, a
	ld h, 0
	add hl, hl
	add hl, hl
	ld a, l
	add LOW(wGameKeys)
	ld l, a
	ld a, h
	adc HIGH(wGameKeys)
	ld h, a
	; d: game keys left below this one
	ld a, [wGameKeyCount]
	dec a
	add c
	sub e
	ld d, a
.historyKey
	call IsCurrentKey
	ret z
	inc e
	inc e
	ld a, b
	cp e
	jr c, .no
	ld a, d
	sub 2
	jr c, .no
	ld d, a
	ld a, l
	sub 2 * GAME_KEY_SIZE
	ld l, a
	jr nc, .historyKey
	dec h
	jr .historyKey


;; Is the key at hl the position's (wZobristKey)?
;; @param hl: a key (4 bytes)
;; @return z: it is
;; @destroys af
IsCurrentKey:
	ld a, [wZobristKey]
	cp [hl]
	ret nz
	push hl
	inc hl
	ld a, [wZobristKey + 1]
	cp [hl]
	jr nz, .done
	inc hl
	ld a, [wZobristKey + 2]
	cp [hl]
	jr nz, .done
	inc hl
	ld a, [wZobristKey + 3]
	cp [hl]
.done
	pop hl
	ret


SECTION "Search pruning", ROMX

;; A losing capture, which the quiescence search skips (not made, no node):
;; a capture by a piece worth more (its material) than the one it takes, on a
;; square an enemy pawn attacks (the board before the move). A pawn is worth
;; least, so no promotion and no en passant capture is losing; nor is a
;; king's capture (worth 0).
;; Twin of search::is_losing_capture.
;; @param d: from square; e: to byte (the move, not made)
;; @return c: losing
;; @destroys af, bc, hl
IsLosingCapture:
	; c: the role taken (none: not a capture, or en passant)
	ld h, HIGH(wBoard)
	ld a, e
	and MOVE_TO_SQUARE
	ld l, a
	ld a, [hl]
	and ROLE_MASK
	ret z
	ld c, a
	; b: the role taking
	ld l, d
	ld a, [hl]
	and ROLE_MASK
	ld b, a
	; Dearer: the material taken less the taker's borrows (the material words
	; of White's evaluation page, at the role code and 16 cells on).
	ld h, HIGH(EvalPages)
	ld l, c
	ld a, [hl]
	ld l, b
	sub [hl]
	ld l, c
	set 4, l
	ld a, [hl]
	ld l, b
	set 4, l
	sbc [hl]
	ret nc
	; An enemy pawn on a square diagonally ahead of the target (ahead for the
	; side to move), which attacks it.
	ld h, HIGH(wBoard)
	ld a, e
	and MOVE_TO_SQUARE
	ld c, a
	ldh a, [hSideToMove]
	and a
	ld a, c
	lb bc, BLACK_PAWN, BOARD_ROW_CELLS - 1
	jr z, .pawns
	lb bc, WHITE_PAWN, -(BOARD_ROW_CELLS + 1)
.pawns
	; (off the board's sides and ends every cell is OFF_BOARD, no pawn)
	add c
	ld l, a
	ld a, [hli]
	cp b
	jr z, .losing
	inc l
	ld a, [hl]
	cp b
	jr z, .losing
	and a
	ret
.losing
	scf
	ret


;; Late-move reductions: is the move (not made) quiet (no capture, no
;; promotion) and neither of this ply's killers? Then a late one is reduced,
;; if it gives no check.
;; Twin of the quiet and killer tests of `reduced` in Searcher::search.
;; @param d: from square; e: to byte
;; @return c: quiet, no killer
;; @destroys af, hl
IsQuietNotKiller:
	call IsQuietMove
	ret nc
	; This ply's killers (compared by from and to byte; z: no carry).
	point_at_ply_killers
	ld a, [hli]
	cp d
	jr nz, .notFirst
	ld a, [hl]
	cp e
	ret z
.notFirst
	inc l
	ld a, [hli]
	cp d
	jr nz, .late
	ld a, [hl]
	cp e
	ret z
.late
	scf
	ret


;; Is the move (not made) quiet: no capture, no promotion?
;; Twin of !m.is_capture() && !m.is_promotion() (late-move reductions,
;; futility pruning, late-move pruning).
;; @param d: from square; e: to byte
;; @return c: quiet
;; @destroys af, hl
IsQuietMove:
	ld h, HIGH(wBoard)
	ld a, e
	and MOVE_TO_SQUARE
	ld l, a
	ld a, [hl]
	and a
	ret nz
	ld a, e
	and PROMOTE_MASK
	ret nz
	ld l, d
	ld a, [hl]
	and ROLE_MASK
	cp ROLE_PAWN
	jr nz, .quiet
	; A pawn: a diagonal step (en passant) or the last rank is not quiet (z:
	; no carry).
	ld a, e
	xor d
	and SQUARE_FILE_MASK
	ret nz
	ld a, e
	ret_if_last_rank
.quiet
	scf
	ret


;; Delta pruning, for a move of the quiescence search (about to be made): is
;; the evaluation plus what the move takes (search::delta_gain: the material
;; of the piece taken, a pawn for en passant, plus DELTA_PROMOTION_GAIN for a
;; promotion) plus DELTA_MARGIN at most alpha? Then the move is skipped.
;; Twin of the delta pruning in Searcher::quiesce.
;; @param d: from square; e: to byte (the move, not made)
;; @param the calling node's frame (its alpha), right above the return
;;     address: Search calls it with frame_call, nothing pushed on the frame
;; @return nc: skip the move; c: search it
;; @destroys af, bc, hl
IsDeltaPruned:
	frame_start_callee
	frame_push de
	; bc: the gain that alpha allows, alpha - (evaluate + DELTA_MARGIN), or
	; search the move when that is below 0 (the usual case: it costs no look
	; at the move). Both sides biased, so the difference is exact.
	call Evaluate
	ld bc, BIASED_ZERO + DELTA_MARGIN
	add hl, bc
	ld b, h
	ld c, l
	frame_hl FRAME_ALPHA
	ld a, [hli]
	sub c
	ld c, a
	ld a, [hl]
	sbc b
	ld b, a
	frame_pop de
	frame_balanced
	ret c
	frame_push de
	; A pawn reaching the last rank promotes: DELTA_PROMOTION_GAIN more.
	ld h, HIGH(wBoard)
	ld l, d
	ld a, [hl]
	and ROLE_MASK
	cp ROLE_PAWN
	jr nz, .taken
	ld a, e
	jump_unless_last_rank jr, .taken
	ld a, c
	sub LOW(DELTA_PROMOTION_GAIN)
	ld c, a
	ld a, b
	sbc HIGH(DELTA_PROMOTION_GAIN)
	ld b, a
	jr c, .done
.taken
	; The material taken (the material words of White's evaluation page, at
	; the role code and 16 cells on): an empty target is en passant (a
	; diagonal step: a pawn) or a quiet promotion (nothing more; `and`
	; leaves no carry).
	ld a, e
	and MOVE_TO_SQUARE
	ld l, a
	ld a, [hl]
	and ROLE_MASK
	jr nz, .victim
	ld a, e
	xor d
	and SQUARE_FILE_MASK
	jr z, .done
	; (a piece's quiet move, a check of a node that searches checks: nothing;
	; `xor` leaves no carry)
	ld l, d
	ld a, [hl]
	and ROLE_MASK
	xor ROLE_PAWN
	jr nz, .done
	ld a, ROLE_PAWN
.victim
	ld l, a
	ld h, HIGH(EvalPages)
	ld a, c
	sub [hl]
	set 4, l
	ld a, b
	sbc [hl]
.done
	frame_pop de
	frame_balanced
	ret


SECTION "Search transposition table", ROMX

;; Principal-variation search: is the move being searched, in a node of
;; depth 2 or more (Search tests it), one to search first with the null
;; window? Every move but the node's first (best is still -INFINITY before
;; it returns: every score searched is above), when the node's window is open
;; (alpha + 1 < beta).
;; Twin of the window choice in Searcher::search.
;; @param the calling node's frame (its alpha, beta and best), right above
;;     the return address (frame_call)
;; @return nc: the null window; c: the node's window
;; @destroys af, hl
IsNullWindowMove:
	frame_start_callee
	; (only -INFINITY has this high byte: every other score is at least a
	; mate's, -MATE)
	ASSERT HIGH(BIASED_MINUS_INFINITY) < HIGH(BIASED_MATED)
	frame_hl FRAME_BEST + 1
	ld a, [hl]
	cp HIGH(BIASED_MINUS_INFINITY)
	scf
	ret z
	; Closed: alpha = beta - 1.
	frame_push de
	frame_hl FRAME_BETA
	ld a, [hli]
	ld e, a
	ld d, [hl]
	dec de
	frame_hl FRAME_ALPHA
	ld a, [hli]
	cp e
	jr nz, .open
	ld a, [hl]
	cp d
.open
	frame_pop de
	scf
	ret z
	and a
	ret


;; Empties the transposition table: every entry's depth 0, which makes it
;; empty (ProbeTable never reads the rest of an entry of depth 0, and
;; StoreTable writes all of it), so its other bytes stay as the last search
;; left them. Sixteen entries a round: 543 M-cycles for the loop, 556 with its
;; set-up and ret (the loop writing every byte took 2,303).
;; @destroys af, bc, de, hl
ClearTranspositionTable:
	ASSERT TABLE_ENTRIES % 16 == 0 && TABLE_ENTRIES >= 16, "ClearTranspositionTable clears 16 entries a round"
	ld hl, wTranspositionTable + TABLE_ENTRY_DEPTH
	ld de, TABLE_ENTRY_SIZE
	ld c, TABLE_ENTRIES / 16
	xor a
.clear
	REPT 16
		ld [hl], a
		add hl, de
	ENDR
	dec c
	jr nz, .clear
	ret


;; The position's entry of the transposition table: the one its line key
;; (wZobristKey) indexes by its low bits (search::table_index).
;; @return hl: the entry
;; @destroys af
TableEntryOfPosition:
	ld a, [wZobristKey]
	and TABLE_ENTRIES - 1
	; wTranspositionTable + index * 8, the shifts moving the table's high
	; byte into place too
	ASSERT LOW(wTranspositionTable) == 0 && HIGH(wTranspositionTable) % 8 == 0
	ld l, a
	ld h, HIGH(wTranspositionTable) / 8
	REPT 3
		add hl, hl
	ENDR
	ret


;; The transposition table's probe of a full-width node: on a hit (an entry
;; of depth 1 or more whose check is the position's), the entry's move is
;; the node's table move (hTableMove, for OrderMoves; none on a miss); at
;; ply 1 or more, a hit at least as deep as the node ends it with the entry's
;; score (its mates counted from the root again) when the bound allows: an
;; exact score, a lower bound at least beta, an upper bound at most alpha.
;; And whether StoreTable will keep the entry as it is (FRAME_TABLE_KEEP): when
;; it holds another position searched deeper than the node.
;; Twin of the probe in Searcher::search (search::table_index, TableEntry::holds,
;; cutoff, yields_to).
;; @param the calling node's frame (its alpha, beta and depth; FRAME_TABLE_KEEP
;;     written), right above the return address (frame_call)
;; @return c: the node ends, de its score (biased); nc: it is searched
;; @destroys af, bc, de, hl
ProbeTable:
	frame_start_callee
	call TableEntryOfPosition
	; c: 0 when the entry's check is the position's (an entry's bytes are in
	; one page: `inc l`)
	ld a, [wZobristKey + 2]
	xor [hl]
	ld c, a
	inc l
	ld a, [wZobristKey + 3]
	xor [hl]
	or c
	ld c, a
	; b: the entry's depth (0: empty); de: the entry, from its depth on
	inc l
	ld b, [hl]
	ld d, h
	ld e, l
	; Kept: the entry is deeper than the node (and holds another position).
	frame_hl FRAME_DEPTH
	ld a, [hld]
	cp b
	sbc a
	and c
	ld [hl], a
	; A hit: the check is the position's and the entry is not empty.
	ld a, c
	and a
	jr nz, .miss
	or b
	jr z, .miss
	inc e
	ld a, [de]
	ld c, a
	inc e
	ld a, [de]
	ldh [hTableMove], a
	inc e
	ld a, [de]
	ldh [hTableMove + 1], a
	inc e
	; Not at the root (and `and a` leaves no carry)...
	ldh a, [hPly]
	and a
	ret z
	; ... and the entry as deep as the node at least.
	frame_hl FRAME_DEPTH
	ld a, b
	cp [hl]
	ccf
	ret nc
	; de: the score, its mate counted from the root: -ply plies from 0; b:
	; the bound
	ld b, c
	ld a, [de]
	ld l, a
	inc e
	ld a, [de]
	ld d, a
	ld e, l
	ldh a, [hPly]
	cpl
	inc a
	ld c, a
	call ShiftMateScore
	ld a, b
	cp BOUND_EXACT
	jr z, .cut
	cp BOUND_LOWER
	jr z, .lower
	; An upper bound: score <= alpha (alpha - score does not borrow).
	frame_hl FRAME_ALPHA
	ld a, [hli]
	sub e
	ld a, [hl]
	sbc d
	ccf
	ret
.lower
	; A lower bound: score >= beta.
	frame_hl FRAME_BETA
	ld a, e
	sub [hl]
	inc hl
	ld a, d
	sbc [hl]
	ccf
	ret
.cut
	scf
	ret
.miss
	; (xor a: nc)
	xor a
	ldh [hTableMove], a
	ret


;; Stores a full-width node's result (its best score, the node searched to
;; the end) in its entry of the transposition table unless ProbeTable found
;; that entry holding another position searched deeper (FRAME_TABLE_KEEP):
;; the check, the depth, the bound (a lower bound when best >= beta, else
;; exact when a move raised alpha, when this ply has a principal variation,
;; else an upper bound), the move (the one that raised alpha last, the first
;; of this ply's principal variation; none for an upper bound) and the score,
;; a mate counted from the node.
;; Twin of the store at the end of Searcher::search (search::table_bound,
;; table_score).
;; @param the calling node's frame (its beta, best, depth and
;;     FRAME_TABLE_KEEP), right above the return address (frame_call)
;; @destroys af, bc, de, hl
StoreTable:
	frame_start_callee
	frame_hl FRAME_TABLE_KEEP
	ld a, [hl]
	and a
	ret nz
	; b: the bound
	frame_hl FRAME_BEST
	ld a, [hli]
	ld e, a
	ld d, [hl]
	frame_hl FRAME_BETA
	ld a, e
	sub [hl]
	inc hl
	ld a, d
	sbc [hl]
	ld b, BOUND_LOWER
	jr nc, .bound
	ldh a, [hPly]
	add LOW(wPvLength)
	ld l, a
	ld h, HIGH(wPvLength)
	ld a, [hl]
	and a
	ld b, BOUND_EXACT
	jr nz, .bound
	ld b, BOUND_UPPER
.bound
	; de: the score, a mate counted from the node: ply plies from 0
	ldh a, [hPly]
	ld c, a
	call ShiftMateScore
	frame_push de
	; de: the entry, from its check on
	call TableEntryOfPosition
	ld d, h
	ld e, l
	ld a, [wZobristKey + 2]
	ld [de], a
	inc e
	ld a, [wZobristKey + 3]
	ld [de], a
	inc e
	frame_hl FRAME_DEPTH
	ld a, [hl]
	ld [de], a
	inc e
	ld a, b
	ld [de], a
	inc e
	; The move: an upper bound's node raised no alpha (it has no principal
	; variation, and the entry no move); the others' did.
	cp BOUND_UPPER
	jr nz, .raised
	xor a
	ld [de], a
	inc e
	jr .moveTo
.raised
	; this ply's row of the principal variation: wPvMoves + ply * 32
	ASSERT PV_ROW_SIZE == 32 && LOW(wPvMoves) % PV_ROW_SIZE == 0
	ASSERT LOW(wPvMoves / PV_ROW_SIZE) + MAX_SEARCH_PLY - 1 <= $FF
	ldh a, [hPly]
	add LOW(wPvMoves / PV_ROW_SIZE)
	ld l, a
	ld h, HIGH(wPvMoves / PV_ROW_SIZE)
	REPT 5
		add hl, hl
	ENDR
	ld a, [hli]
	ld [de], a
	inc e
	ld a, [hl]
.moveTo
	ld [de], a
	inc e
	frame_pop hl
	ld a, l
	ld [de], a
	inc e
	ld a, h
	ld [de], a
	ret


;; Moves a mate score c plies away from 0 (c signed: toward 0 when it is
;; negative); any other score is left as it is (search::table_score,
;; table_score_at).
;; @param de: the score (biased); c: the plies
;; @return de: the score
;; @destroys af, c
ShiftMateScore:
	; A mate won: de >= BIASED_MATE_WON.
	ld a, e
	sub LOW(BIASED_MATE_WON)
	ld a, d
	sbc HIGH(BIASED_MATE_WON)
	jr nc, .add
	; A mate lost: de <= BIASED_MATE_LOST; moved the other way.
	ld a, LOW(BIASED_MATE_LOST)
	sub e
	ld a, HIGH(BIASED_MATE_LOST)
	sbc d
	ret c
	xor a
	sub c
	ld c, a
.add
	; de += c, sign-extended (neither `bit` nor `dec` touches the carry)
	ld a, c
	add e
	ld e, a
	jr nc, .noCarry
	inc d
.noCarry
	bit 7, c
	ret z
	dec d
	ret
