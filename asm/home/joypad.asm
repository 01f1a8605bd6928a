; Joypad reading, once per frame from the VBlank handler, and the queue of
; presses the screens take from.
;
; Key bytes use the PAD_* layout of hardware.inc (1 = pressed): the control pad
; in the high nibble, the buttons in the low nibble.
;
; The press queue
; ---------------
; Each frame's new presses (the keys that went down since the last read), when
; there are any, are one entry of a ring of PAD_QUEUE_SIZE bytes in HRAM, and
; each TakePadPressed takes the oldest entry: a screen's update, called once a
; frame, sees one frame's presses per call, and two presses of the same key
; while the main loop is busy (an engine search runs for seconds) stay two.
; The ring has one producer, ReadJoypad in the VBlank handler, which alone
; writes hPadQueueWrite, and one consumer, TakePadPressed in the main loop,
; which alone writes hPadQueueRead; so neither holds interrupts off.
;
; The slot at hPadQueueWrite is not part of the queue yet: ReadJoypad ORs
; each frame's presses into it and publishes it (moves hPadQueueWrite on) when
; the slot after it is free. When the ring is full (PAD_QUEUE_SIZE - 1 entries
; wait), the slot keeps gathering the presses of the frames that follow and
; joins the queue as soon as TakePadPressed frees room: no key pressed is ever
; lost, only how many times a key was pressed beyond the ring's size (the
; ring's entries and this last one: PAD_QUEUE_SIZE presses apart). Every slot
; outside the queue holds 0 (TakePadPressed clears the one it takes before
; it frees it), which is what lets ReadJoypad OR into the free slot and
; PadQueuedPresses look at every slot.

INCLUDE "include/hardware.inc"


; The ring's slots: a power of two, so that the indices wrap with a mask.
DEF PAD_QUEUE_SIZE EQU 8
ASSERT PAD_QUEUE_SIZE & (PAD_QUEUE_SIZE - 1) == 0, "PAD_QUEUE_SIZE is not a power of two"
; Exported for the cartridge tests, which read them by name from the .sym file.
EXPORT PAD_QUEUE_SIZE


SECTION "Joypad state", HRAM

; The keys held down at the last read. ReadJoypad reaches the two indices
; after it with `inc l`.
hPadHeld:: db
; The ring's slot that gathers the newest presses (0 to PAD_QUEUE_SIZE - 1):
; only ReadJoypad writes it.
hPadQueueWrite: db
; The oldest entry; the queue is empty when it is hPadQueueWrite. Only
; TakePadPressed writes it.
hPadQueueRead: db
; The ring.
hPadQueue: ds PAD_QUEUE_SIZE


SECTION "Joypad", ROM0

;; Reads the eight keys into hPadHeld and adds the new presses to the queue
;; (see the top of the file). Called by the VBlank handler.
;; @return b: this frame's new presses (PAD_*), 0 for none
;; @destroys af, c, hl
ReadJoypad::
	; Control pad first. The extra reads give the key lines time to settle.
	ld a, JOYP_GET_CTRL_PAD
	ldh [rJOYP], a
	ldh a, [rJOYP]
	ldh a, [rJOYP]
	; The directions to the high nibble. The hardware reads 0 for a pressed
	; key: both nibbles are turned round at once below.
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
	and JOYP_INPUTS
	or b
	cpl
	ld b, a

	; Release the key matrix.
	ld a, JOYP_GET_NONE
	ldh [rJOYP], a

	; Keys down now and up at the last read are new presses.
	ld hl, hPadHeld
	ld a, [hl]
	ld [hl], b
	cpl
	and b
	ld b, a
	; Into the gathering slot, which is published below when the slot after
	; it is free; it may hold presses from full frames before, so even
	; without a new press it is looked at.
	inc l
	ASSERT hPadQueueWrite == hPadHeld + 1
	ld a, [hl]
	add LOW(hPadQueue)
	ld c, a
	ldh a, [c]
	or b
	ret z
	ldh [c], a
	ld a, [hl]
	inc a
	and PAD_QUEUE_SIZE - 1
	inc l
	ASSERT hPadQueueRead == hPadQueueWrite + 1
	cp [hl]
	; Full: the slot goes on gathering.
	ret z
	dec l
	ld [hl], a
	ret


;; Takes the oldest entry of the queue: one frame's presses. Interrupts may
;; stay enabled (see the top of the file).
;; @return a: the PAD_* keys pressed in that frame, 0 when none is queued
;; @destroys c, f
TakePadPressed::
	ldh a, [hPadQueueWrite]
	ld c, a
	ldh a, [hPadQueueRead]
	cp c
	jr z, .empty
	; The slot is cleared before it is freed: ReadJoypad ORs into free slots.
	add LOW(hPadQueue)
	ld c, a
	ldh a, [c]
	push af
	xor a
	ldh [c], a
	ld a, c
	sub LOW(hPadQueue) - 1
	and PAD_QUEUE_SIZE - 1
	ldh [hPadQueueRead], a
	pop af
	ret
.empty
	xor a
	ret


SECTION "Joypad queue look", ROMX

;; Every key the queue holds a press of, in one byte: whether a START or a
;; SELECT waits, say. (The free slots hold 0, the gathering one its presses.)
;; @return a: the OR of every slot
;; @destroys bc, f
PadQueuedPresses::
	ld c, LOW(hPadQueue)
	ld b, 0
.slot
	ldh a, [c]
	or b
	ld b, a
	inc c
	ld a, c
	cp LOW(hPadQueue) + PAD_QUEUE_SIZE
	jr nz, .slot
	ld a, b
	ret
