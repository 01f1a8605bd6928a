; The font, converted from assets/font.png by `cargo xtask assets`.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"


SECTION "Font tiles", ROMX

; asm/home/init.asm copies NUM_BG_TILES tiles from here to vBackgroundTiles.
BackgroundTiles::
	INCLUDE "generated/gfx/font.inc"
	assert_table_length FontTiles, NUM_FONT_TILES, TILE_SIZE
