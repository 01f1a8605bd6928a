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
