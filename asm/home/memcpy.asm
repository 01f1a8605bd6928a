; Block copy and fill.
;
; Memcpy and Memset touch memory without looking at the PPU: use them for WRAM
; and HRAM, and for VRAM and OAM only while the LCD is off. With the LCD on,
; VRAM changes go through the VRAM queue (QueueTiles, home/vblank.asm).

INCLUDE "include/hardware.inc"


SECTION "Memcpy", ROM0

;; Copies bc bytes from de to hl.
;; @param de: source
;; @param hl: destination
;; @param bc: number of bytes (0 copies nothing)
;; @return de: source end (just past the last byte read)
;; @return hl: destination end (just past the last byte written)
;; @return bc: 0
;; @destroys af
Memcpy::
	; b and c count down separately: c the bytes of the current block of 256,
	; b the blocks. Starting both one higher makes bc = 0 copy nothing and lets
	; `dec c` reaching 0 start the next block.
	inc b
	inc c
	jr .next
.copy
	ld a, [de]
	ld [hli], a
	inc de
.next
	dec c
	jr nz, .copy
	dec b
	jr nz, .copy
	ret


SECTION "Memset", ROM0

;; Fills bc bytes at hl with a.
;; @param a: the byte to write
;; @param hl: destination
;; @param bc: number of bytes (0 writes nothing)
;; @return hl: destination end (just past the last byte written)
;; @return bc: 0
;; @destroys f
Memset::
	; Same double count as Memcpy.
	inc b
	inc c
	jr .next
.fill
	ld [hli], a
.next
	dec c
	jr nz, .fill
	dec b
	jr nz, .fill
	ret

