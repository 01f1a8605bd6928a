; The opening book: the moves the engine plays without a search in the first
; BOOK_PLIES plies of a game, from Fairy-Stockfish's analysis (`cargo xtask
; book`, engine-src/book/). The table is generated/engine/book.inc; a position
; is found by its game key alone (`cargo xtask book` proves that no other
; position reachable in BOOK_PLIES plies has the key of one in the table).
;
; The routine and its Rust twin (in engine-src/src/book.rs):
;   BookMove    Book::lookup (and book::choice, which of the good moves)

INCLUDE "include/macros.inc"
INCLUDE "engine/engine.inc"
INCLUDE "generated/engine/book.inc"


SECTION "Book", ROMX

;; The book's move in the current position (loaded, with the game's history:
;; its key is the history's last), for a game's seed: of the position's good
;; moves, the one at (seed xor the key's low byte) modulo their count.
;; Twin of Book::lookup (and book::choice). Takes 26 cycles a position of the
;; table it passes and 8 for each move of it after the first (BOOK_POSITIONS
;; of them; a few more where the low bytes of the keys agree): well within a
;; frame.
;; @param a: the plies played since the start
;; @param b: the game's seed
;; @return carry: the move in d (from square) and e (to byte, as MakeMove takes
;;     it); no carry: the position is not in the book
;; @destroys af, bc, de, hl
BookMove::
	cp BOOK_PLIES
	ret nc
	push bc
	; hl: the position's game key, the history's last
	call LastGameKeyAddress
	; bcde: the key, its lowest byte in e
	ld a, [hli]
	ld e, a
	ld a, [hli]
	ld d, a
	ld a, [hli]
	ld c, a
	ld b, [hl]
	ld hl, BookTable
.position
	; (the table's end before the first byte of a key: that is no key's)
	ld a, [hli]
	cp BOOK_TABLE_END
	jr z, .notFound
	cp e
	jr nz, .skip3
	ld a, [hli]
	cp d
	jr nz, .skip2
	ld a, [hli]
	cp c
	jr nz, .skip1
	ld a, [hli]
	cp b
	jr z, .found
	jr .skipMoves
.skip3
	inc hl
.skip2
	inc hl
.skip1
	inc hl
.skipMoves
	; (past its moves: the last has B_BOOK_LAST_MOVE, bit 7, in its from byte)
	ld a, [hli]
	inc hl
	ASSERT B_BOOK_LAST_MOVE == 7
	add a
	jr nc, .skipMoves
	jr .position

.notFound
	; (`cp` found them equal: no carry)
	pop bc
	ret

.found
	; d: its count of moves, from its first (at hl)
	pop bc
	push hl
	ld d, 0
.count
	inc d
	ld a, [hli]
	inc hl
	add a
	jr nc, .count
	pop hl
	; The choice: (seed xor key's low byte) mod count, two bytes a move.
	ld a, b
	xor e
.modulo
	sub d
	jr nc, .modulo
	add d
	add a
	add l
	ld l, a
	adc h
	sub l
	ld h, a
	ld a, [hli]
	res B_BOOK_LAST_MOVE, a
	ld d, a
	ld e, [hl]
	scf
	ret


BookTable:
	book_table
	assert_table_length BookTable, BOOK_TABLE_SIZE, 1
