; The VBlank interrupt handler and the main loop's frame wait.
;
; Once per frame the handler copies the shadow registers kept in HRAM to the
; hardware, runs OAM DMA from wShadowOAM, reads the joypad and counts the frame.
; The music plays from the STAT interrupt at line 1 (stat.asm), after VBlank,
; so the main loop has the rest of VBlank for its own VRAM writes.
; The rest of the program never writes the LCD registers below directly while
; the LCD is on: it writes the shadows, and the change shows from the next frame.

INCLUDE "include/hardware.inc"


SECTION "VBlank shadow registers", HRAM

; Copied to rLCDC, rSCY, rSCX, rBGP, rOBP0, rOBP1 at every VBlank.
hLCDC:: db
hSCY:: db
hSCX:: db
hBGP:: db
hOBP0:: db
hOBP1:: db

; Counts VBlanks, wrapping at 256.
hFrameCounter:: db

; Set by the handler, cleared by WaitVBlank: nonzero once a VBlank has been
; handled since WaitVBlank started waiting.
hVBlankFlag:: db


SECTION "VBlank handler", ROM0

;; VBlank interrupt handler, reached through the jump at $0040.
;; It takes about 340 M-cycles (335 measured) of the 1140 of VBlank; the rest
;; is the main loop's, once WaitVBlank returns.
;; @destroys nothing (saves every register it uses)
VBlankHandler::
	push af
	push bc
	push de
	push hl

	ldh a, [hLCDC]
	ldh [rLCDC], a
	ldh a, [hSCY]
	ldh [rSCY], a
	ldh a, [hSCX]
	ldh [rSCX], a
	ldh a, [hBGP]
	ldh [rBGP], a
	ldh a, [hOBP0]
	ldh [rOBP0], a
	ldh a, [hOBP1]
	ldh [rOBP1], a

	ld a, HIGH(wShadowOAM)
	call hOAMDMA

	call ReadJoypad

	ld hl, hFrameCounter
	inc [hl]
	ld a, 1
	ldh [hVBlankFlag], a

	pop hl
	pop de
	pop bc
	pop af
	reti


SECTION "Wait for VBlank", ROM0

;; Sleeps until the next VBlank has been handled (the frame's registers are
;; set, OAM is copied, the joypad is read). Needs the VBlank interrupt enabled.
;; @destroys af
WaitVBlank::
	xor a
	ldh [hVBlankFlag], a
.wait
	halt
	ldh a, [hVBlankFlag]
	and a
	jr z, .wait
	ret
