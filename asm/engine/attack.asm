; Attack tests: is a square attacked by a side, is the side to move in check.
;
; A test looks outwards from the square: the two squares an enemy pawn would
; attack it from, then the knight jumps and rays north (none from rank 6),
; south (none from rank 1), east and west; the enemy king is found from its
; square (hKingSquares) first. Each check is one read and one compare, and
; the test returns at the first attacker found.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/chess.inc"
INCLUDE "engine/engine.inc"


; Returns z if the piece \2 stands at c + \1.
MACRO attacker_at
	ld a, c
	add \1
	ld e, a
	ld a, [de]
	cp \2
	ret z
ENDM

; Returns z if a slider of colour \3 with role bit \2 attacks c along
; direction \1. (The king is not looked for: attacked_by tests it first.)
MACRO attacker_on_ray
	step_e_from c, \1
	ld a, [de]
	and a
	jr nz, .test\@
.walk\@
	step_e \1
	ld a, [de]
	and a
	jr z, .walk\@
.test\@
	and \3 | \2
	cp \3 | \2
	ret z
ENDM

; The body of IsAttackedByWhite / IsAttackedByBlack.
; \1: the attacking colour's bit; \2, \3: the steps from the target square to
; the squares that colour's pawns attack it from; \4: the attacking colour
; (COLOR_*).
MACRO attacked_by
	; The king first, from its square (one test, not one on each ray): c is
	; next to it when king - c + DIR_NE, (rows + 1) * 16 + files + 1, is
	; 0-2, 16-18 or 32-34 (17 is the king's own square, never c).
	ASSERT DIR_NE == BOARD_ROW_CELLS + 1
	ldh a, [hKingSquares + \4]
	sub c
	add DIR_NE
	cp 2 * DIR_NE + 1
	jr nc, .kingFar\@
	and SQUARE_FILE_MASK
	cp 3
	jr nc, .kingFar\@
	xor a
	ret
.kingFar\@
	attacker_at \2, \1 | ROLE_PAWN
	attacker_at \3, \1 | ROLE_PAWN
	; Jumps and rays north (KNIGHT_JUMP_0-3 go north): none from rank 6.
	ld a, c
	jump_if_on_rank_6 jp, .northDone\@
	FOR i, 4
		attacker_at KNIGHT_JUMP_{d:i}, \1 | ROLE_KNIGHT
	ENDR
	attacker_on_ray DIR_N, ROLE_ORTHOGONAL, \1
	attacker_on_ray DIR_NE, ROLE_DIAGONAL, \1
	attacker_on_ray DIR_NW, ROLE_DIAGONAL, \1
.northDone\@
	; South: none from rank 1.
	ld a, c
	jump_if_on_rank_1 jp, .southDone\@
	FOR i, 4, 8
		attacker_at KNIGHT_JUMP_{d:i}, \1 | ROLE_KNIGHT
	ENDR
	attacker_on_ray DIR_S, ROLE_ORTHOGONAL, \1
	attacker_on_ray DIR_SE, ROLE_DIAGONAL, \1
	attacker_on_ray DIR_SW, ROLE_DIAGONAL, \1
.southDone\@
	attacker_on_ray DIR_E, ROLE_ORTHOGONAL, \1
	attacker_on_ray DIR_W, ROLE_ORTHOGONAL, \1
	; The last compare failed: nz.
	ret
ENDM


SECTION "Attack tests", ROM0

;; Is a square attacked by White? The board as it is (a king counts as an
;; obstacle: lift it off first to test the squares it may step to).
;; @param c: square
;; @param d: HIGH(wBoard)
;; @return z: attacked; nz: not attacked
;; @destroys af, e
IsAttackedByWhite::
	; White pawns attack up: from c - 15 and c - 17.
	attacked_by PIECE_WHITE, DIR_SE, DIR_SW, COLOR_WHITE

;; Is a square attacked by Black? As IsAttackedByWhite.
;; @param c: square
;; @param d: HIGH(wBoard)
;; @return z: attacked; nz: not attacked
;; @destroys af, e
IsAttackedByBlack::
	; Black pawns attack down: from c + 15 and c + 17.
	attacked_by PIECE_BLACK, DIR_NE, DIR_NW, COLOR_BLACK

;; Is a square attacked by the side not to move? As IsAttackedByWhite.
;; @param c: square
;; @param d: HIGH(wBoard)
;; @return z: attacked; nz: not attacked
;; @destroys af, e
IsAttackedByEnemy::
	ldh a, [hSideToMove]
	ASSERT COLOR_WHITE == 0
	and a
	jp z, IsAttackedByBlack
	jp IsAttackedByWhite

;; Is the side to move in check?
;; @return z: in check; nz: not in check
;; @return a: 1 in check, 0 not
;; @destroys f, c, de
IsInCheck::
	ld d, HIGH(wBoard)
	ldh a, [hSideToMove]
	add LOW(hKingSquares)
	ld c, a
	ldh a, [c]
	ld c, a
	call IsAttackedByEnemy
	ld a, 0
	ret nz
	inc a
	cp a
	ret
