; Unpacking the art: the LZ streams `cargo xtask assets` packs the tiles into
; (generated/gfx/). xtask/src/assets/pack.rs describes the format and holds the
; reference unpacker, which the cartridge tests hold this one to, sheet by
; sheet.

INCLUDE "include/hardware.inc"


SECTION "Unpack", ROM0

;; Unpacks an LZ stream to de. A match copies bytes this has written, read
;; back from the destination: VRAM is free to read and write only while the
;; LCD is off, so call it there with the LCD off.
;; @param hl: the packed stream
;; @param de: destination
;; @return hl: just past the stream's end
;; @return de: just past the last byte written
;; @destroys af, bc
Unpack::
.group
	; c: the flag byte, shifted out from the top (1: a match, 0: a literal);
	; b: the items left in the group
	ld a, [hli]
	ld c, a
	ld b, 8
.item
	sla c
	jr c, .match
	ld a, [hli]
	ld [de], a
	inc de
	dec b
	jr nz, .item
	jr .group

.match
	; LLLL OOOO, OOOOOOOO: length L + 2, distance O; L = 0 ends the stream
	ld a, [hli]
	cp $10
	ret c
	push bc
	ld b, a
	and $0F
	ld c, a
	ld a, [hli]
	push hl
	; hl: de - distance, where the match's bytes are
	ld l, a
	ld a, e
	sub l
	ld l, a
	ld a, d
	sbc c
	ld h, a
	; b: the length
	ld a, b
	swap a
	and $0F
	add 2
	ld b, a
.copy
	ld a, [hli]
	ld [de], a
	inc de
	dec b
	jr nz, .copy
	pop hl
	pop bc
	dec b
	jr nz, .item
	jr .group
