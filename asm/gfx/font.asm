; The font, converted from assets/font.png by `cargo xtask assets`.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"


SECTION "Font tiles", ROMX

; Start-up (asm/home/init.asm) copies them to vFontTiles.
	INCLUDE "generated/gfx/font.inc"
	assert_table_length FontTiles, NUM_FONT_TILES, TILE_SIZE
