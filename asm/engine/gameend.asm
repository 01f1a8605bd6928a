; The game's history and how a game ends: checkmate, stalemate, insufficient
; material, the fifty-move rule, threefold repetition (engine-src's
; Game::outcome, in the same order of precedence).
;
; The history keeps the key of every position since the last capture or pawn
; move (the only ones that can repeat the current one), the current position
; last. Its keys are "game keys": the Zobrist key, but with the en-passant
; file only when an en-passant capture is legal, as engine-src's key: a game
; key is the low 32 bits of Position::zobrist (Position::cartridge_key).
; `cargo xtask verify` compares the whole history (wGameKeys) with the model's
; at every position it compares: the start and suite positions it loads, the
; positions it samples from its random games, and each search's root after
; the search.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/chess.inc"
INCLUDE "engine/engine.inc"


; Game keys kept. A position repeats only positions since the last capture or
; pawn move, and at FIFTY_MOVE_PLIES plies without one the fifty-move rule ends
; the game first, so FIFTY_MOVE_PLIES + 1 would do.
DEF MAX_GAME_KEYS EQU 104
ASSERT MAX_GAME_KEYS >= FIFTY_MOVE_PLIES + 1, "the history misses positions that can repeat"
ASSERT MAX_GAME_KEYS <= $FF, "wGameKeyCount is a byte"

	const_def
	const VERDICT_ONGOING
	const VERDICT_CHECKMATE
	const VERDICT_STALEMATE
	const VERDICT_INSUFFICIENT_MATERIAL
	const VERDICT_FIFTY_MOVES
	const VERDICT_REPETITION
DEF VERDICT_COUNT EQU const_value

EXPORT VERDICT_ONGOING, VERDICT_CHECKMATE, VERDICT_STALEMATE
EXPORT VERDICT_INSUFFICIENT_MATERIAL, VERDICT_FIFTY_MOVES, VERDICT_REPETITION
EXPORT VERDICT_COUNT
; xtask reads the history's keys by label (wGameKeys, wGameKeyCount).
EXPORT GAME_KEY_SIZE


SECTION "Game history", WRAM0

; How many keys wGameKeys holds (at least 1 once a game has started).
wGameKeyCount:: db
wGameKeys:: ds MAX_GAME_KEYS * GAME_KEY_SIZE
; The current position's game key (see GameKey).
wGameKey: ds GAME_KEY_SIZE


SECTION "Game end", ROM0

;; Starts the history at the current position (call after LoadPosition).
;; @param hl: free move stack space (for one list of legal moves)
;; @destroys af, bc, de, hl
StartGameHistory::
	xor a
	ld [wGameKeyCount], a
	jr AppendGameKey


;; Plays a move of the game (it must be legal): MakeMove, then the undo stack
;; is emptied (a game move is not taken back) and the history grows.
;; @param d: from square; e: to byte
;; @param hl: free move stack space (for one list of legal moves)
;; @destroys af, bc, de, hl
PlayGameMove::
	push hl
	call MakeMove
	call ResetUndoStack
	pop hl
	; A capture or pawn move: no earlier position can come back.
	ldh a, [hHalfmoveClock]
	and a
	jr nz, AppendGameKey
	ld [wGameKeyCount], a
	fallthrough AppendGameKey

;; Appends the current position's game key to the history, dropping the
;; oldest when it is full.
;; @param hl: free move stack space
;; @destroys af, bc, de, hl
AppendGameKey:
	call GameKey
	ld a, [wGameKeyCount]
	cp MAX_GAME_KEYS
	jr c, .room
	; Full: shift the keys down by one (the oldest is more than 100 plies old).
	ld hl, wGameKeys
	ld de, wGameKeys + GAME_KEY_SIZE
	ld bc, (MAX_GAME_KEYS - 1) * GAME_KEY_SIZE
.shift
	ld a, [de]
	inc de
	ld [hli], a
	dec bc
	ld a, b
	or c
	jr nz, .shift
	ld a, MAX_GAME_KEYS - 1
.room
	ld c, a
	inc a
	ld [wGameKeyCount], a
	call GameKeyAddress
	ld de, wGameKey
	ld c, GAME_KEY_SIZE
.copy
	ld a, [de]
	inc de
	ld [hli], a
	dec c
	jr nz, .copy
	ret

;; The address of game key number c.
;; @param c: index
;; @return hl
;; @destroys af, bc
GameKeyAddress:
	ld l, c
	ld h, 0
	add hl, hl
	add hl, hl
	ld bc, wGameKeys
	add hl, bc
	ret


;; Computes wGameKey: wZobristKey without the en-passant file unless an
;; en-passant capture is legal (engine-src's Position::cartridge_key: MakeMove
;; sets hEpSquare after any double step beside an enemy pawn, the model only
;; when that pawn may take).
;; @param hl: free move stack space
;; @destroys af, bc, de, hl
GameKey:
	ld a, [wZobristKey + 0]
	ld [wGameKey + 0], a
	ld a, [wZobristKey + 1]
	ld [wGameKey + 1], a
	ld a, [wZobristKey + 2]
	ld [wGameKey + 2], a
	ld a, [wZobristKey + 3]
	ld [wGameKey + 3], a
	ldh a, [hEpSquare]
	and a
	ret z
	push hl
	call GenerateMoves
	pop de
	; Look for a pawn move to the en-passant square: only en passant goes there.
.move
	ld a, e
	cp l
	jr nz, .test
	ld a, d
	cp h
	jr z, .noCapture
.test
	ld a, [de]
	ld c, a
	inc de
	ld a, [de]
	inc de
	ld b, a
	ldh a, [hEpSquare]
	cp b
	jr nz, .move
	ld b, HIGH(wBoard)
	ld a, [bc]
	and ROLE_MASK
	cp ROLE_PAWN
	ret z
	jr .move
.noCapture
	; Take the file out again: XorEpKey works on wZobristKey, so swap.
	ldh a, [hEpSquare]
	call XorEpKey
	ld hl, wGameKey
	ld de, wZobristKey
	ld c, GAME_KEY_SIZE
.swap
	ld a, [de]
	ld b, [hl]
	ld [hli], a
	ld a, b
	ld [de], a
	inc de
	dec c
	jr nz, .swap
	ret


;; How many times the current position (the last game key) has occurred.
;; @return a: count, at least 1
;; @destroys f, bc, de, hl
CountRepetitions:
	ld a, [wGameKeyCount]
	dec a
	ld c, a
	call GameKeyAddress
	ld d, h
	ld e, l
	; de: the current key; hl walks the earlier ones.
	ld a, [wGameKeyCount]
	dec a
	ld b, 1
	ld c, a
	ld hl, wGameKeys
.key
	ld a, c
	and a
	jr z, .done
	dec c
	push de
	push hl
	REPT GAME_KEY_SIZE - 1
		ld a, [de]
		cp [hl]
		jr nz, .different
		inc de
		inc hl
	ENDR
	ld a, [de]
	cp [hl]
	jr nz, .different
	inc b
.different
	pop hl
	pop de
	inc hl
	inc hl
	inc hl
	inc hl
	jr .key
.done
	ld a, b
	ret


;; The verdict on the current position of the game.
;; @param hl: free move stack space (for one list of legal moves)
;; @return a: VERDICT_*
;; @return b: 1 if the side to move is in check, else 0
;; @destroys f, c, de, hl
GameVerdict::
	push hl
	call GenerateMoves
	pop de
	ld a, l
	cp e
	jr nz, .canMove
	ld a, h
	cp d
	jr nz, .canMove
	call IsInCheck
	ld b, a
	and a
	ld a, VERDICT_STALEMATE
	ret z
	ld a, VERDICT_CHECKMATE
	ret
.canMove
	call IsInCheck
	ld b, a
	push bc
	call IsInsufficientMaterial
	pop bc
	ld a, VERDICT_INSUFFICIENT_MATERIAL
	ret z
	ldh a, [hHalfmoveClock]
	cp FIFTY_MOVE_PLIES
	ld a, VERDICT_FIFTY_MOVES
	ret nc
	push bc
	call CountRepetitions
	pop bc
	cp 3
	ld a, VERDICT_REPETITION
	ret nc
	ld a, VERDICT_ONGOING
	ret


;; Is the material insufficient for either side to mate: bare kings, or king
;; against king and one bishop or one knight?
;; @return z: insufficient; nz: not
;; @destroys af, bc, hl
IsInsufficientMaterial::
	ld hl, wBoard
	; c: minor pieces seen
	ld c, 0
.square
	ld a, [hl]
	bit B_PIECE_WHITE, a
	jr nz, .piece
	bit B_PIECE_BLACK, a
	jr z, .next
.piece
	and ROLE_MASK
	cp ROLE_KING
	jr z, .next
	cp ROLE_KNIGHT
	jr z, .minor
	cp ROLE_BISHOP
	; A pawn, rook or queen: enough.
	ret nz
.minor
	inc c
	ld a, c
	cp 2
	jr z, .enough
.next
	inc l
	jr nz, .square
	xor a
	ret
.enough
	and a
	ret
