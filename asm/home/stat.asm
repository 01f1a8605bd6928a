; The STAT interrupt: the audio driver's frame.
;
; The music must keep time whatever the main program does (an engine search runs
; for seconds), so it plays from an interrupt; but not from the VBlank handler,
; where its up to 1,500 machine cycles would not fit the 1,140 VBlank lasts
; beside the VRAM queue, which needs VBlank's time to copy the screens'
; tile-map changes (home/vblank.asm). The LY=LYC interrupt at AUDIO_LINE
; (line 1) fires once per frame, just after VBlank ends.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/audio.inc"


SECTION "STAT handler", ROM0

;; STAT interrupt handler, reached through the jump at $0048; only the LY=LYC
;; source is enabled (with LYC = AUDIO_LINE, see Start). Plays one frame of
;; music and sound effects.
;; @destroys nothing (saves every register it uses)
StatHandler::
	push af
	push bc
	push de
	push hl
	call UpdateAudio
	pop hl
	pop de
	pop bc
	pop af
	reti
