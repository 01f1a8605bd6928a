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
;; Twin of Book::lookup (and book::choice). Takes 43 cycles a position of the
;; table it passes (BOOK_POSITIONS of them; a few more where the low bytes of
;; the keys agree): well within a frame.
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
	ld a, [wGameKeyCount]
	dec a
	ld l, a
	ld h, 0
	ASSERT GAME_KEY_SIZE == 4
	add hl, hl
	add hl, hl
	ld de, wGameKeys
	add hl, de
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
	; a: its count of moves (0: the table's end)
	ld a, [hli]
	and a
	jr z, .notFound
	push af
	ld a, [hli]
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
	pop af
	call SkipBookMoves
	jr .position

.notFound
	; (a is 0: `and a` clears the carry)
	pop bc
	and a
	ret

.found
	; hl: its first move. The choice: (seed xor key's low byte) mod count.
	pop af
	ld d, a
	pop bc
	ld a, b
	xor e
.modulo
	sub d
	jr nc, .modulo
	add d
	call SkipBookMoves
	ld a, [hli]
	ld d, a
	ld e, [hl]
	scf
	ret


;; Steps over moves of a book position's list.
;; @param a: how many (at most 127)
;; @param hl: the first
;; @return hl: just past them (two bytes a move)
;; @destroys af
SkipBookMoves:
	add a
	add l
	ld l, a
	adc h
	sub l
	ld h, a
	ret

BookTable:
	book_table
	assert_table_length BookTable, BOOK_TABLE_SIZE, 1
