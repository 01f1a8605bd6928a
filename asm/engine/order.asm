; The search's move order (docs/search.md, "The move order"): each move gets a
; key, a byte, and the moves are searched by key, highest first, then by from
; square, then by to square, lower first (the square bytes of engine.inc are in
; the order of the model's square numbers, rank * 5 + file).
;
; A node's list is a run of records of ORDER_RECORD_SIZE bytes (the key, the
; from square, the to byte) on the move stack, where its parent's list ended.
; GenerateMoves writes its moves MAX_MOVES bytes further on, and OrderMoves
; turns them into records from the start: record k ends at byte 3k + 3 and
; move k starts at byte MAX_MOVES + 2k, so for k < MAX_MOVES no record
; overwrites a move not yet read. PickNextMove then selects the next move
; (selection: most nodes cut off after a few moves). The quiet moves, most of
; a full list, get their keys (a killer's, or their own) only if their turn
; comes (KEY_QUIET_PENDING below), which in most nodes it does not.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/chess.inc"
INCLUDE "engine/engine.inc"
INCLUDE "generated/engine/search.inc"


DEF ORDER_RECORD_SIZE EQU 3
; The key PickNextMove's sentinel holds: a byte's highest, so no record's key
; is above it.
DEF PICK_SENTINEL_KEY EQU $FF
EXPORT ORDER_RECORD_SIZE
; The key OrderMoves gives a quiet move until PickNextMove first needs it
; (KeyQuietMoves then gives it its key, a killer's or its own): below every
; capture's and queen promotion's key, above every under-promotion's, so that
; every record with another key is picked in the same order around it. (The
; killers' keys are below the captures' and queen promotions' too: so they
; wait with the other quiet moves, which their keys precede.)
DEF KEY_QUIET_PENDING EQU KEY_QUIET - (128 >> KEY_QUIET_SHIFT) - 1
ASSERT KEY_QUIET_PENDING > KEY_UNDER_PROMOTION_KNIGHT && KEY_QUIET_PENDING > KEY_UNDER_PROMOTION_ROOK && KEY_QUIET_PENDING > KEY_UNDER_PROMOTION_BISHOP
ASSERT KEY_QUIET_PENDING < KEY_QUEEN_PROMOTION && KEY_SECOND_KILLER < KEY_QUEEN_PROMOTION && KEY_FIRST_KILLER < KEY_QUEEN_PROMOTION
ASSERT KEY_QUIET + (127 >> KEY_QUIET_SHIFT) < KEY_SECOND_KILLER && KEY_SECOND_KILLER < KEY_FIRST_KILLER
; (The lowest capture key: a pawn taken by the king, order_role 6.)
ASSERT KEY_QUIET_PENDING < KEY_CAPTURE + KEY_CAPTURE_VICTIM - 6 && KEY_FIRST_KILLER < KEY_CAPTURE + KEY_CAPTURE_VICTIM - 6
ASSERT ORDER_RECORD_SIZE * MAX_MOVES == MAX_MOVES + MOVE_SIZE * MAX_MOVES, "the records of a list must end where its moves do"
; PickNextMove takes an equal key of PICK_SENTINEL_KEY for the sentinel: only
; the principal variation's move may have it. Nor does it mask the promotion
; bits of equal keys' to bytes: each under-promotion has its piece's own key.
ASSERT KEY_PREVIOUS_BEST <= PICK_SENTINEL_KEY && KEY_TABLE_MOVE < PICK_SENTINEL_KEY && KEY_QUEEN_PROMOTION < PICK_SENTINEL_KEY
; (The highest capture key: a pawn takes a king and promotes.)
ASSERT KEY_CAPTURE + KEY_CAPTURE_VICTIM * ORDER_ROLE_KING + KEY_CAPTURE_QUEEN_PROMOTION - ORDER_ROLE_PAWN < PICK_SENTINEL_KEY
ASSERT KEY_UNDER_PROMOTION_KNIGHT != KEY_UNDER_PROMOTION_ROOK && KEY_UNDER_PROMOTION_ROOK != KEY_UNDER_PROMOTION_BISHOP && KEY_UNDER_PROMOTION_BISHOP != KEY_UNDER_PROMOTION_KNIGHT
; So the move stack check of GenerateMoves (room for MAX_MOVES moves after
; the list's start + MAX_MOVES) covers the records too.


SECTION "Move order state", HRAM

; The low byte of the end of the records PickNextMove picks from (a list is
; shorter than 256 records, so the low bytes of its records differ from it).
hPickEnd:: db
; While OrderMoves runs: the move of the last iteration's principal
; variation to order first (from square 0: none).
hOrderBest: ds MOVE_SIZE
; While KeyQuietMoves runs: the from squares of this ply's killers.
hKillerFroms: ds 2


; The key of a quiet move that is not a killer: KEY_QUIET + ((table[to] -
; table[from]) >> KEY_QUIET_SHIFT), the moving piece's entries
; (piece_square_gain, engine.inc: 24 M-cycles for White, 23 for Black).
; @param a: the piece moving; b: from square; c: to byte (no promotion bits)
; @return a: the key
; @destroys f, bc, hl
MACRO quiet_key
	piece_square_gain
	REPT KEY_QUIET_SHIFT
		sra a
	ENDR
	add KEY_QUIET
ENDM


SECTION "Capture keys", ROM0, ALIGN[5]

; Indexed by role code (engine.inc): a capture's key is
; CaptureVictimKeys[victim] - CaptureAttackerOrder[attacker], the roles
; numbered by the model's order_role (ORDER_ROLE_*: by their material).
CaptureVictimKeys:
FOR role, 16
	IF role == ROLE_PAWN
		db KEY_CAPTURE + KEY_CAPTURE_VICTIM * ORDER_ROLE_PAWN
	ELIF role == ROLE_KNIGHT
		db KEY_CAPTURE + KEY_CAPTURE_VICTIM * ORDER_ROLE_KNIGHT
	ELIF role == ROLE_BISHOP
		db KEY_CAPTURE + KEY_CAPTURE_VICTIM * ORDER_ROLE_BISHOP
	ELIF role == ROLE_ROOK
		db KEY_CAPTURE + KEY_CAPTURE_VICTIM * ORDER_ROLE_ROOK
	ELIF role == ROLE_QUEEN
		db KEY_CAPTURE + KEY_CAPTURE_VICTIM * ORDER_ROLE_QUEEN
	ELIF role == ROLE_KING
		db KEY_CAPTURE + KEY_CAPTURE_VICTIM * ORDER_ROLE_KING
	ELSE
		db 0
	ENDC
ENDR
CaptureAttackerOrder:
FOR role, 16
	IF role == ROLE_PAWN
		db ORDER_ROLE_PAWN
	ELIF role == ROLE_KNIGHT
		db ORDER_ROLE_KNIGHT
	ELIF role == ROLE_BISHOP
		db ORDER_ROLE_BISHOP
	ELIF role == ROLE_ROOK
		db ORDER_ROLE_ROOK
	ELIF role == ROLE_QUEEN
		db ORDER_ROLE_QUEEN
	ELIF role == ROLE_KING
		db ORDER_ROLE_KING
	ELSE
		db 0
	ENDC
ENDR
	assert_table_length CaptureVictimKeys, 32, 1


SECTION "Move order", ROM0

;; Generates the moves of a node (GenerateMoves: all the legal moves, or
;; GenerateQuiescenceMoves: those of the quiescence search) and writes them as
;; records with their keys, in the generator's order; a quiet move gets
;; KEY_QUIET_PENDING, its key (a killer's, or its own) being given by
;; PickNextMove when first needed. Twin of the keys of search::order_moves
;; (search::order_key).
;; @param hl: free move stack space
;; @param a: 0 for every legal move, non-zero for the quiescence moves
;; @param c: with a non-zero, GenerateQuiescenceMoves's c (0: pseudo-legal)
;; @param hPly: the node's ply
;; @param hFollowPly: the node follows the principal variation when it is
;;     hPly (search.asm); set to hPly + 1 when the variation has a move here
;; @param hTableMove: the transposition table's move of a full-width node
;;     (search.asm; from square 0: none); the quiescence search has none
;; @return de: the first record; hl: the end of the records
;; @destroys af, bc
OrderMoves::
	push hl
	and a
	jp nz, .quiescence
	ldh a, [hPly]
	ld c, a
	; On the last iteration's principal variation, with a move of it at this
	; ply: that move first, and the node's first child follows on.
	ld b, 0
	ldh a, [hFollowPly]
	cp c
	jr nz, .best
	ld a, [wSearchPvLength]
	cp c
	jr z, .best
	jr c, .best
	ld a, c
	inc a
	ldh [hFollowPly], a
	dec a
	add a
	add LOW(wSearchPv)
	ld l, a
	ld a, 0
	adc HIGH(wSearchPv)
	ld h, a
	ld b, [hl]
	inc hl
	ld a, [hl]
	pop hl
	push hl
.best
	; (hl: the free space)
	ldh [hOrderBest + 1], a
	ld a, b
	ldh [hOrderBest], a
	ld de, MAX_MOVES
	add hl, de
	push hl
	call GenerateMoves
	jr .generated

	; The keys of the rarer moves, out of the loop below (in jr's reach of it).
.pawnPromotesOrTakes
	; A pawn's diagonal step or promotion to another piece than a queen
	; (c: the to byte; hl: the next record).
	ld a, c
	and PROMOTE_MASK
	jr nz, .underPromotion
	; A diagonal step to an empty square takes en passant (a pawn).
	ld a, [bc]
	and a
	ld a, KEY_CAPTURE + KEY_CAPTURE_VICTIM * ORDER_ROLE_PAWN - ORDER_ROLE_PAWN
	jr z, .keyed
	; A pawn takes: 150 + 8 * victim - 1 (bc: the victim's key), a queen
	; promotion 50 more.
	ld a, [bc]
	and ROLE_MASK
	or LOW(CaptureVictimKeys)
	ld b, a
	ld a, c
	ld c, b
	ld b, HIGH(CaptureVictimKeys)
	jump_unless_last_rank jr, .pawnTakes
	ld a, [bc]
	add KEY_CAPTURE_QUEEN_PROMOTION - ORDER_ROLE_PAWN
	jr .pawnTakesKeyed
.pawnTakes
	ld a, [bc]
	sub ORDER_ROLE_PAWN
.pawnTakesKeyed
	ld b, HIGH(wBoard)
	jr .keyed

.underPromotion
	; (a: the promotion bits: bit 7 a bishop's or a knight's, bit 3 a
	; rook's or a knight's) Rotated left: bishop 1, rook 16, knight 17, which
	; give the keys 1, 2 and 3 in fewer bytes than comparing.
	ASSERT PROMOTE_BISHOP == %10000000 && PROMOTE_ROOK == %00001000 && PROMOTE_KNIGHT == %10001000
	ASSERT KEY_UNDER_PROMOTION_BISHOP == 1 && KEY_UNDER_PROMOTION_ROOK == 2 && KEY_UNDER_PROMOTION_KNIGHT == 3
	rlca
	cp %00010000
	jr c, .keyed
	sub %00010000 - 2
	jr .keyed

.pawn
	; A pawn's move (c: its from square; hl: the record's to byte; de: the
	; move's to byte). The to byte xor the from square: the to byte's
	; promotion bits (a square has bits 3 and 7 clear) and the difference of
	; their files.
	ld a, [de]
	inc de
	ld [hli], a
	ld b, c
	ld c, a
	xor b
	ld b, HIGH(wBoard)
	and PROMOTE_MASK | SQUARE_FILE_MASK
	jr nz, .pawnPromotesOrTakes
	; A straight step (to an empty square): a queen promotion on the last
	; rank, else a quiet move.
	ld a, c
	jump_unless_last_rank jr, .move
	ld a, KEY_QUEEN_PROMOTION
	fallthrough .keyed

.keyed
	; a: the key of the record before hl
	dec hl
	dec hl
.keyedAtFrom
	; a: the key of the record whose from byte is at hl
	dec hl
	ld [hli], a
	inc hl
	inc hl
	jr .move

.quiescence
	; No move of the principal variation or the table's (they are ordered
	; first in full-width nodes only).
	xor a
	ldh [hOrderBest], a
	ldh [hTableMove], a
	ld de, MAX_MOVES
	add hl, de
	push hl
	call GenerateQuiescenceMoves
.generated
	; The loop ends at a from square 0 written after the moves (a cell off
	; the board, no move's): 3 M-cycles a move to test, where comparing the
	; end's low byte took 7. (After a full list of MAX_MOVES moves, that byte
	; is the one PickNextMove's sentinel takes, below.)
	ld [hl], 0
	pop de
	; The stack: the first record.
	pop hl
	push hl
	; Both pointers stay in registers through the loop, hl the record and de
	; the move, and bc reads the board (b: its page, c: a square), with no
	; push and pop of them (14 M-cycles a move). Each record gets
	; KEY_QUIET_PENDING, then its from and to bytes as they are read; a move
	; with another key gets it over that one (.keyed). A quiet move of a
	; piece other than a pawn, most of a full list, takes 36 M-cycles; it
	; waits for its key, a killer's too (KeyQuietMoves).
	ld b, HIGH(wBoard)
.move
	; hl: the next record; de: the next move, or the from square 0 after
	; the last (no move: the first record is the end)
	ld a, [de]
	and a
	jr z, .ordered
	inc de
	ld [hl], KEY_QUIET_PENDING
	inc hl
	ld [hli], a
	ld c, a
	ld a, [bc]
	; A pawn (bits 3-2 of the role 01)?
	ASSERT ROLE_PAWN == %0100 && ROLE_KING == %1100 && ROLE_KNIGHT == %1000
	ASSERT ((ROLE_BISHOP | ROLE_ROOK | ROLE_QUEEN) & %1100) == 0
	and %1100
	cp ROLE_PAWN
	jr z, .pawn
	; Another piece: no promotion; a capture if the to square holds a piece.
	ld a, [de]
	inc de
	ld [hli], a
	ld c, a
	ld a, [bc]
	and a
	jr z, .move
	; A piece other than a pawn takes (a: the victim; c: the to byte):
	; 150 + 8 * victim - attacker, the attacker read again from the record's
	; from square, de (the next move) kept on the stack meanwhile.
	; (CaptureAttackerOrder is on CaptureVictimKeys' page: ALIGN[5].)
	push de
	and ROLE_MASK
	or LOW(CaptureVictimKeys)
	ld e, a
	ld d, HIGH(CaptureVictimKeys)
	dec hl
	dec hl
	ld c, [hl]
	ld a, [bc]
	and ROLE_MASK
	or LOW(CaptureAttackerOrder)
	ld c, a
	ld b, d
	ld a, [bc]
	ld c, a
	ld a, [de]
	sub c
	pop de
	ld b, HIGH(wBoard)
	jr .keyedAtFrom

.ordered
	; The transposition table's move, then the principal variation's, if the
	; list has them, are keyed first: each one's key replaces the one it got,
	; in the nodes that have one (not testing them in the loop saves 7
	; M-cycles a move in every other node). The variation's comes second, so
	; that a move that is both gets KEY_PREVIOUS_BEST.
	pop de
	ldh a, [hTableMove]
	and a
	jr z, .tableMoveKeyed
	ld b, a
	ldh a, [hTableMove + 1]
	ld c, a
	ld a, KEY_TABLE_MOVE
	call KeyListedMove
.tableMoveKeyed
	ldh a, [hOrderBest]
	and a
	ret z
	ld b, a
	ldh a, [hOrderBest + 1]
	ld c, a
	ld a, KEY_PREVIOUS_BEST
	fallthrough KeyListedMove


;; Gives a move of the list OrderMoves made, if it is there, another key.
;; @param b, c: the move (from square, to byte); a: its key
;; @param de: the first record; hl: the records' end (a list has fewer than 256
;; records, so no record starts at the end's low byte; it may have none)
;; @destroys af
KeyListedMove:
	push de
	push hl
	ld h, d
	ld d, a
	ld a, l
	ld l, e
	ld e, a
.find
	; hl: a record's key, or the end; d: the key to give; e: the low byte of
	; the end
	ld a, l
	cp e
	jr z, .done
	inc hl
	ld a, [hli]
	cp b
	jr nz, .next
	ld a, [hl]
	cp c
	jr z, .found
.next
	inc hl
	jr .find
.found
	dec hl
	dec hl
	ld [hl], d
.done
	pop hl
	pop de
	ret


;; Selects the next move of a node: the best of the records from hl to the
;; end (key highest, then from square lowest, then to square lowest: the
;; whole to bytes compared, as records of equal keys have equal promotion
;; bits), moved into hl's place.
;; Twin of the sort of search::order_moves: picked one by one, the moves come
;; in its order.
;; When the best left is a quiet move whose key waits (KEY_QUIET_PENDING, see
;; OrderMoves), every such record left gets its key (KeyQuietMoves) and the
;; pick starts again: once a node, when it first reaches its quiet moves.
;; A sentinel key at the end (PICK_SENTINEL_KEY, no lower than any key) ends
;; the scan, so that the records with a lower key than the best so far, most
;; of them, cost one compare and not two: with the best key kept in a and the
;; step in de, 8 or 9 M-cycles a record (the loop unrolled twice; 7 while the
;; best waits for its key). It is written on each pick: the node's children write their lists there. (The
;; byte after a full list of the last ply is the move stack's spare room,
;; search.asm: nothing lives there.)
;; @param hl: the first record left (there is one)
;; @param bc: the end of the records
;; @param hPickEnd: the low byte of the end of the records
;; @param hPly: the node's ply (its killers, for KeyQuietMoves)
;; @return d, e: the best move (from, to byte), now in the record at hl (whose
;;     key byte is left as it was)
;; @return hl: the record after it
;; @destroys af, bc
PickNextMove::
	ld a, PICK_SENTINEL_KEY
	ld [bc], a
.again
	push hl
	ld de, ORDER_RECORD_SIZE
	; bc: the best so far, a: its key
	ld b, h
	ld c, l
	ld a, [hl]
	cp KEY_QUIET_PENDING
	jr z, .scanPending
.scan
	; (Twice: a lower key falls through the first time, 8 M-cycles, and
	; jumps back the second, 9.)
	add hl, de
	cp [hl]
	jr c, .higher
	jr z, .equal
	add hl, de
	cp [hl]
	jr c, .higher
	jr nz, .scan
.equal
	; An equal key, or the sentinel when the best's key is the sentinel's
	; (only the principal variation's move has that key: its list holds it
	; once).
	inc a
	jr z, .picked
	; Equal keys: the lower from square, then the lower to square. The to
	; bytes are compared whole: records of equal keys have the same
	; promotion bits (those of an under-promotion have its piece's key, any
	; other none), and no two hold the same move. (bc and hl are put back on
	; the keys, a on the best's: 23 to 41 M-cycles a tie after the keys'
	; compare.)
	inc hl
	inc bc
	ld a, [bc]
	cp [hl]
	jr c, .keepByFrom
	jr nz, .betterByFrom
	inc hl
	inc bc
	ld a, [bc]
	cp [hl]
	jr c, .keepByTo
	dec hl
.betterByFrom
	dec hl
	ld b, h
	ld c, l
	ld a, [hl]
	jr .scan
.keepByTo
	dec bc
	dec hl
.keepByFrom
	dec bc
	dec hl
	ld a, [bc]
	jr .scan
.higher
	; A higher key, or the sentinel
	ldh a, [hPickEnd]
	cp l
	jr z, .picked
	ld b, h
	ld c, l
	ld a, [hl]
	cp KEY_QUIET_PENDING
	jr nz, .scan
.scanPending
	; The best so far waits for its key: so would every record of the same
	; key, whose order does not matter yet; only a higher key is better.
	add hl, de
	cp [hl]
	jr nc, .scanPending
	ldh a, [hPickEnd]
	cp l
	jr z, .keyQuietMoves
	ld b, h
	ld c, l
	ld a, [hl]
	jr .scan
.picked
	; The first record left goes where the best was, the best's move where
	; the first was (its key is not read again), unless they are the same
	; record (told by the low bytes, which differ in a list): most often in
	; the quiescence search, whose lists hold 1.7 moves on average.
	ASSERT ORDER_RECORD_SIZE == 3
	pop hl
	ld a, l
	cp c
	jr z, .inPlace
	ld a, [hli]
	ld [bc], a
	inc bc
	ld a, [bc]
	ld d, a
	ld a, [hl]
	ld [bc], a
	ld [hl], d
	inc hl
	inc bc
	ld a, [bc]
	ld e, a
	ld a, [hl]
	ld [bc], a
	ld [hl], e
	inc hl
	ret
.inPlace
	inc hl
	ld d, [hl]
	inc hl
	ld e, [hl]
	inc hl
	ret
.keyQuietMoves
	; The best left waits for its key: the quiet moves' turn, then the pick
	; again (the sentinel still in place).
	pop hl
	push hl
	call KeyQuietMoves
	pop hl
	jr .again


SECTION "Quiet move keys", ROMX

;; Gives each record from hl to the end whose key waits (KEY_QUIET_PENDING)
;; its key: the keys OrderMoves left for later, those of the quiet moves, a
;; killer's or the move's own (quiet_key). The killers are this ply's, which
;; only a cutoff here changes, as the node ends: those of the node's start.
;; Twin of the quiet moves' keys in search::order_key.
;; @param hl: the first record; the records end with PickNextMove's sentinel
;;     (PICK_SENTINEL_KEY), which no record left has: the best of them waits
;;     for its key
;; @param hPly: the node's ply
;; @destroys af, bc, de, hl
KeyQuietMoves:
	; This ply's killers: their to bytes in d and e, their from squares in
	; hKillerFroms (no killer, from square 0, has the to byte 0: no move's).
	ldh a, [hPly]
	add a
	add a
	add LOW(wKillers)
	ld c, a
	ld b, HIGH(wKillers)
	ld a, [bc]
	ldh [hKillerFroms], a
	inc c
	ld a, [bc]
	ld d, a
	inc c
	ld a, [bc]
	ldh [hKillerFroms + 1], a
	inc c
	ld a, [bc]
	ld e, a
.record
	ld a, [hli]
	cp KEY_QUIET_PENDING
	jr nz, .notPending
	push hl
	ld a, [hli]
	ld b, a
	ld a, [hl]
	ld c, a
	; A killer? (compared by to byte, then by from square: 6 M-cycles a
	; move that is none, where OrderMoves took 12 on every quiet move)
	cp d
	jr z, .firstKillerTo
.notFirstKiller
	cp e
	jr z, .secondKillerTo
.quiet
	ld h, HIGH(wBoard)
	ld l, b
	ld a, [hl]
	quiet_key
.keyed
	pop hl
	dec hl
	ld [hli], a
.next
	inc hl
	inc hl
	jr .record
.notPending
	; (the sentinel's key ends the records: 4 M-cycles a record less than
	; comparing the end's low byte with each)
	ASSERT PICK_SENTINEL_KEY == $FF
	inc a
	jr nz, .next
	ret
.firstKillerTo
	ldh a, [hKillerFroms]
	cp b
	ld a, KEY_FIRST_KILLER
	jr z, .keyed
	ld a, c
	jr .notFirstKiller
.secondKillerTo
	ldh a, [hKillerFroms + 1]
	cp b
	ld a, KEY_SECOND_KILLER
	jr z, .keyed
	jr .quiet
