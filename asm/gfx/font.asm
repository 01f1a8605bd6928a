; The font, converted from assets/font.png by `cargo xtask assets`.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"


SECTION "Font tiles", ROMX

; Packed: start-up (asm/home/init.asm) unpacks them to vFontTiles.
	INCLUDE "generated/gfx/font.inc"
