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
	; c: the flag byte shifted out from the top (1: a match, 0: a literal),
	; with a 1 shifted in behind it: when that comes out, c is 0 and the
	; group is done.
	ld a, [hli]
	scf
	rla
	ld c, a
	jr c, .match
.literal
	ld a, [hli]
	ld [de], a
	inc de
.next
	sla c
	jr z, .group
	jr nc, .literal

.match
	; LLLL OOOO, OOOOOOOO: length L + 2, distance O; L = 0 ends the stream
	ld a, [hli]
	cp $10
	ret c
	ld b, a
	ld a, [hli]
	push hl
	; hl: de - distance, where the match's bytes are
	ld l, a
	ld a, b
	and $0F
	ld h, a
	ld a, e
	sub l
	ld l, a
	ld a, d
	sbc h
	ld h, a
	; b: L, the bytes after the first 2 (a match has 3 at least)
	ld a, b
	swap a
	and $0F
	ld b, a
	ld a, [hli]
	ld [de], a
	inc de
	ld a, [hli]
	ld [de], a
	inc de
.copy
	ld a, [hli]
	ld [de], a
	inc de
	dec b
	jr nz, .copy
	pop hl
	jr .next
