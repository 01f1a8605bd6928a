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
	push hl
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
	inc a
	ld [wGameKeyCount], a
	call StoreGameKey
	pop hl
	fallthrough GameKey

;; Makes the history's last key, wZobristKey as StoreGameKey stored it, a
;; game key: without the en-passant file unless an en-passant capture is
;; legal (engine-src's Position::cartridge_key: MakeMove sets hEpSquare after
;; any double step beside an enemy pawn, the model only when that pawn may
;; take).
;; @param hl: free move stack space
;; @destroys af, bc, de, hl
GameKey:
	ldh a, [hEpSquare]
	and a
	ret z
	; A legal en-passant capture keeps the file.
	push hl
	call GenerateEnPassant
	pop de
	ld a, l
	cp e
	ret nz
	; The key stored again without the file, which XorEpKey (working on
	; wZobristKey) takes out, then puts back.
	ldh a, [hEpSquare]
	call XorEpKey
	call StoreGameKey
	ldh a, [hEpSquare]
	jp XorEpKey


;; Stores wZobristKey as the history's last key.
;; @destroys af, bc, de, hl
StoreGameKey:
	call LastGameKeyAddress
	ld de, wZobristKey
	ld c, GAME_KEY_SIZE
.copy
	ld a, [de]
	inc e
	ld [hli], a
	dec c
	jr nz, .copy
	ret


;; The address of the history's last key, the current position's.
;; @return hl
;; @destroys af, bc
LastGameKeyAddress::
	ld a, [wGameKeyCount]
	dec a
	ld l, a
	ld h, 0
	ASSERT GAME_KEY_SIZE == 4
	add hl, hl
	add hl, hl
	ld bc, wGameKeys
	add hl, bc
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
	; h: 0 when the list is empty (IsInCheck keeps b and hl)
	ld a, l
	sub e
	ld l, a
	ld a, h
	sbc d
	or l
	ld h, a
	call IsInCheck
	ld b, a
	ld a, h
	and a
	jr nz, .canMove
	; No legal move: stalemate, or checkmate in check (b: 1).
	ASSERT VERDICT_CHECKMATE == VERDICT_STALEMATE - 1
	ld a, VERDICT_STALEMATE
	sub b
	ret
.canMove
	; Insufficient material (bare kings, or king against king and one bishop
	; or one knight): the search's test of hMatingMaterial (engine.inc).
	ldh a, [hMatingMaterial]
	cp MATING_MATERIAL_ENOUGH
	ld a, VERDICT_INSUFFICIENT_MATERIAL
	ret c
	ldh a, [hHalfmoveClock]
	cp FIFTY_MOVE_PLIES
	ld a, VERDICT_FIFTY_MOVES
	ret nc
	; Threefold repetition: c counts the history's keys equal to the current
	; one, the last (which counts itself); b, the keys left, while the check
	; waits on the stack.
	push bc
	call LastGameKeyAddress
	ld d, h
	ld e, l
	ld a, [wGameKeyCount]
	ld b, a
	ld c, 0
	ld hl, wGameKeys
.key
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
	inc c
.different
	pop hl
	pop de
	REPT GAME_KEY_SIZE
		inc hl
	ENDR
	dec b
	jr nz, .key
	ld a, c
	pop bc
	cp 3
	ld a, VERDICT_REPETITION
	ret nc
	ASSERT VERDICT_ONGOING == 0
	xor a
	ret
