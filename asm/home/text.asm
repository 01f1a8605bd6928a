; Writing text to the background tile map.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"


SECTION "PlaceString", ROM0

;; Copies a string (tile numbers, see charmap.inc) to the tile map, up to its
;; TEXT_END ("@"). Writes straight to VRAM: call with the LCD off, or in VBlank
;; for a short string.
;; @param de: the string
;; @param hl: tile map address of its first character
;; @return de: just past the TEXT_END
;; @return hl: just past the last character written
;; @destroys af
PlaceString::
.next
	ld a, [de]
	inc de
	cp TEXT_END
	ret z
	ld [hli], a
	jr .next


SECTION "SplitTens", ROM0

;; Splits a number into tens and units, to write it in decimal (call again
;; with the tens for a hundreds digit).
;; @param a: the number
;; @return c: a / 10
;; @return a: a % 10
;; @destroys f
SplitTens::
	ld c, -1
.ten
	inc c
	sub 10
	jr nc, .ten
	add 10
	ret
