; Perft: counting the leaves of the legal move tree, the standard test of a
; move generator (and the engine's speed benchmark).

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/chess.inc"
INCLUDE "engine/engine.inc"

; Only the test ROM counts perft (the test driver's TEST_PERFT, bench): the
; cartridge has none of this file.
IF DEF(TEST_DRIVER)


SECTION "Perft count", WRAM0

; The leaves counted, 32 bits, little-endian.
wPerftNodes:: ds 4


SECTION "Perft", ROM0

; The frame of a move played at depth 3 or more, from its base up (the
; pushes of .play make it, in the reverse order).
	const_def
	const PLAY_MOVE       ; 2 bytes: the move, as MakeMove takes it
	const_skip
	const PLAY_NEXT       ; 2 bytes: the next move of the list
	const_skip
	const PLAY_DEPTH      ; the depth below (c; then b, unused)
	const_skip
	const PLAY_END        ; 2 bytes: the end of the list, the child's free space
	const_skip
; (.play walks from the depth to the end with `inc hl`.)
ASSERT PLAY_END == PLAY_DEPTH + 2

; The frame of a move played at depth 2, its replies counted (.countMove).
	const_def
	const COUNT_MOVE      ; 2 bytes: the move
	const_skip
	const COUNT_NEXT      ; 2 bytes: the next move of the list
	const_skip
	const COUNT_END       ; 2 bytes: the end of the list, the replies' free space
	const_skip

; Adds to wPerftNodes the number of moves from de to hl (at most MAX_MOVES, so
; 8 bits: engine.inc asserts it). Destroys af, c, hl.
MACRO add_moves_to_count
	count_moves_de_to_hl
	ld hl, wPerftNodes
	add [hl]
	ld [hli], a
	jr nc, .added\@
	inc [hl]
	jr nz, .added\@
	inc hl
	inc [hl]
	jr nz, .added\@
	inc hl
	inc [hl]
.added\@
ENDM

;; Adds to wPerftNodes the number of move sequences of exactly `a` plies from
;; the current position. The last ply is counted, not played (bulk counting):
;; at depth 2 each move is made, its replies generated and counted, and the
;; move unmade, without a call of Perft per move. The position is the same
;; afterwards.
;; @param a: depth, at least 1
;; @param hl: free move stack space (MAX_MOVES moves per ply of depth, so at
;;     most MOVE_STACK_PLIES deep from wMoveStack)
;; @destroys af, bc, de, hl
Perft::
	push af
	push hl
	call GenerateMoves
	pop de
	pop af
	dec a
	jr nz, .recurse
	add_moves_to_count
	ret

.recurse
	; de: the next move, hl: the end of the moves, c: the depth below
	ld c, a
	dec a
	jr z, .countReplies
.next
	ld a, e
	cp l
	jr nz, .play
	ld a, d
	cp h
	ret z
.play
	; The frame (PLAY_*): the end, the depth below, the next move, the move.
	push hl
	push bc
	ld a, [de]
	ld b, a
	inc de
	ld a, [de]
	inc de
	push de
	ld d, b
	ld e, a
	push de
	frame_start
	call MakeMove
	frame_hl PLAY_DEPTH
	ld a, [hli]
	inc hl
	ld c, a
	ld a, [hli]
	ld h, [hl]
	ld l, a
	ld a, c
	call Perft
	; sp is back at the frame's base; the frame is popped next: the move (to
	; unmake it), the next move, the depth below, the end.
	frame_balanced
	pop de
	call UnmakeMove
	pop de
	pop bc
	pop hl
	jr .next

.countReplies
	; Depth 2: for each move, the replies are counted.
	ld a, e
	cp l
	jr nz, .countMove
	ld a, d
	cp h
	ret z
.countMove
	; The frame (COUNT_*): the end, the next move, the move.
	push hl
	ld a, [de]
	ld b, a
	inc de
	ld a, [de]
	inc de
	push de
	ld d, b
	ld e, a
	push de
	frame_start
	call MakeMove
	frame_hl COUNT_END
	ld a, [hli]
	ld h, [hl]
	ld l, a
	frame_push hl
	call GenerateMoves
	frame_pop de
	add_moves_to_count
	; sp is back at the frame's base; the frame is popped next: the move (to
	; unmake it), the next move, the end.
	frame_balanced
	pop de
	call UnmakeMove
	pop de
	pop hl
	jr .countReplies

ENDC
