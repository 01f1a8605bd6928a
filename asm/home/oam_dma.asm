; OAM DMA: objects are built in wShadowOAM and copied to OAM once per frame by
; the VBlank handler (during the engine's search only in the frames after it
; changed: hOAMSource).
;
; While a DMA runs, the CPU can read only HRAM, so the routine that starts the
; DMA and waits for its end must itself run from HRAM. Start-up copies it there
; with CopyOAMDMARoutine.

INCLUDE "include/hardware.inc"


; The routine below, in bytes; hOAMDMA reserves exactly this much.
DEF OAM_DMA_ROUTINE_SIZE EQU 8
EXPORT OAM_DMA_ROUTINE_SIZE

; A DMA takes 160 M-cycles; each round of the wait loop takes 4.
DEF OAM_DMA_WAIT_LOOPS EQU 160 / 4


SECTION "Shadow OAM", WRAM0, ALIGN[8]

; The 40 objects as the next frame shows them. DMA copies from a $XX00
; address, hence the alignment.
wShadowOAM::
	ds OAM_SIZE


SECTION "OAM DMA routine in HRAM", HRAM

;; Copies the 160 bytes at a * $100 to OAM. Call only during VBlank, with
;; interrupts off (the VBlank handler does both).
;; @param a: HIGH(wShadowOAM)
;; @destroys af
hOAMDMA::
	ds OAM_DMA_ROUTINE_SIZE

; The page the VBlank handler copies to OAM: HIGH(wShadowOAM), or 0 for no
; copy, when nothing in wShadowOAM has changed since the last one. Only the
; engine's search sets 0 (GameVBlank, ui/game.asm: in most frames of a
; search the thinking sign has not moved, and the copy's 168 M-cycles go to
; the search instead); RunSearch sets HIGH(wShadowOAM) again.
hOAMSource::
	db


SECTION "OAM DMA routine", ROM0

; The code copied to hOAMDMA. Never called here: it runs only from HRAM.
OAMDMARoutine:
	ldh [rDMA], a
	ld a, OAM_DMA_WAIT_LOOPS
.wait
	dec a
	jr nz, .wait
	ret
.end
	ASSERT .end - OAMDMARoutine == OAM_DMA_ROUTINE_SIZE, "OAM_DMA_ROUTINE_SIZE is out of date"


;; Copies the OAM DMA routine to hOAMDMA, and sets hOAMSource: the VBlank
;; handler copies wShadowOAM every frame. Call once at start-up, before the
;; VBlank interrupt is enabled.
;; @destroys af, bc, hl
CopyOAMDMARoutine::
	ld hl, OAMDMARoutine
	ld b, OAM_DMA_ROUTINE_SIZE
	ld c, LOW(hOAMDMA)
.copy
	ld a, [hli]
	ldh [c], a
	inc c
	dec b
	jr nz, .copy
	ASSERT hOAMSource == hOAMDMA + OAM_DMA_ROUTINE_SIZE
	ld a, HIGH(wShadowOAM)
	ldh [c], a
	ret
