; Joypad reading, once per frame from the VBlank handler.
;
; Key bytes use the PAD_* layout of hardware.inc (1 = pressed): the control pad
; in the high nibble, the buttons in the low nibble.

INCLUDE "include/hardware.inc"


SECTION "Joypad state", HRAM

; The keys held down at the last read.
hPadHeld:: db

; Every key pressed (went from up to down) since the main program last took
; them with TakePadPressed. Presses pile up here while the program is busy
; (a long engine search, say), so none is lost.
hPadPressed:: db


SECTION "Joypad", ROM0

;; Reads the eight keys into hPadHeld and adds the new presses to hPadPressed.
;; Called by the VBlank handler.
;; @destroys af, b, hl
ReadJoypad::
	; Control pad first. The extra reads give the key lines time to settle.
	ld a, JOYP_GET_CTRL_PAD
	ldh [rJOYP], a
	ldh a, [rJOYP]
	ldh a, [rJOYP]
	; The hardware reads 0 for a pressed key; turn that round and move the
	; directions to the high nibble.
	cpl
	and JOYP_INPUTS
	swap a
	ld b, a

	; The buttons need a few more reads before they are stable.
	ld a, JOYP_GET_BUTTONS
	ldh [rJOYP], a
	ldh a, [rJOYP]
	ldh a, [rJOYP]
	ldh a, [rJOYP]
	ldh a, [rJOYP]
	ldh a, [rJOYP]
	ldh a, [rJOYP]
	cpl
	and JOYP_INPUTS
	or b
	ld b, a

	; Release the key matrix.
	ld a, JOYP_GET_NONE
	ldh [rJOYP], a

	; Keys down now and up at the last read are new presses.
	ldh a, [hPadHeld]
	cpl
	and b
	ld hl, hPadPressed
	or [hl]
	ld [hl], a
	ld a, b
	ldh [hPadHeld], a
	ret


;; Takes the keys pressed since the last call (clearing hPadPressed).
;; Interrupts are held off for the few cycles between the read and the clear,
;; so a press the VBlank handler adds meanwhile is not lost.
;; Call with interrupts enabled: it returns with them enabled.
;; @return a: the PAD_* keys pressed since the last call
;; @destroys nothing else
TakePadPressed::
	di
	ldh a, [hPadPressed]
	push af
	xor a
	ldh [hPadPressed], a
	pop af
	ei
	ret
