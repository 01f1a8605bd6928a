; Block copy and fill.
;
; Memcpy and Memset touch memory without looking at the PPU: use them for WRAM
; and HRAM, and for VRAM and OAM only while the LCD is off. LCDMemcpy waits for
; the PPU before every byte and is safe for VRAM at any time (slowly).

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


SECTION "LCDMemcpy", ROM0

;; Copies bc bytes from de to hl in VRAM, writing each byte only while the PPU
;; leaves VRAM free, so it is safe with the LCD on. Each write waits for mode 0
;; or 1 with interrupts held off, so that no interrupt handler can run between
;; the check and the write and come back in mode 3. With the LCD off the wait
;; ends at once.
;; @param de: source
;; @param hl: destination in VRAM
;; @param bc: number of bytes (0 copies nothing)
;; @return de: source end
;; @return hl: destination end
;; @return bc: 0
;; @destroys af; enables interrupts
LCDMemcpy::
	inc b
	inc c
	jr .next
.copy
	di
.waitVRAM
	; Mode 0 or 1 leaves VRAM free, and the mode 2 that may follow does too,
	; so the write just below is always in time.
	ldh a, [rSTAT]
	and STAT_BUSY
	jr nz, .waitVRAM
	ld a, [de]
	ld [hli], a
	ei
	inc de
.next
	dec c
	jr nz, .copy
	dec b
	jr nz, .copy
	ret
