; The first $150 bytes of the ROM: RST vectors, interrupt vectors, and the
; cartridge header with the entry point.
;
; All of it is in fixed sections, so no floating section can land in the
; vector area (the linker fills ROM0 from $0000 upward).

INCLUDE "include/hardware.inc"


SECTION "RST and interrupt vectors", ROM0[$0000]

; $0000-$0037: the RST vectors, unused. They are filled with $FF, the opcode of
; `rst $38`, so a stray jump into them (or into erased ROM) ends in the trap.
	ds $38 - @, $FF

; $0038: crash trap. Stop with interrupts off so the screen freezes on the
; frame that went wrong; a debugger shows the return address on the stack.
	di
	jr @

	ds INT_HANDLER_VBLANK - @, $FF
; $0040: VBlank. Just a jump: the handler lives in home/vblank.asm.
	jp VBlankHandler

	ds INT_HANDLER_STAT - @, $FF
; $0048: STAT, enabled for LY=LYC only: the audio frame (home/stat.asm).
	jp StatHandler

; $0050-$0067: timer, serial, joypad. Never enabled; if one were, it returns
; at once.

	ds INT_HANDLER_TIMER - @, $FF
	reti

	ds INT_HANDLER_SERIAL - @, $FF
	reti

	ds INT_HANDLER_JOYPAD - @, $FF
	reti

	ds $100 - @, $FF


SECTION "Cartridge header", ROM0[$0100]

; $0100: the boot ROM hands over here, with 4 bytes before the logo.
	nop
	jp Start

; $0104-$014F: Nintendo logo, title CHESSATTACK, cartridge type, sizes and
; checksums. The header fixer (`cargo xtask rom`, or rgbfix) writes them.
	ds $150 - @, 0
