; Where tiles live in VRAM (see include/gfx.inc for the blocks). The tile maps
; are not sections: screens write them at TILEMAP0 directly.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"


SECTION "VRAM block 0", VRAM[VRAM_BLOCK0]

; The title's tiles 0-127, or the board screen's object tiles.
vTilesBlock0::
	ds 128 * TILE_SIZE


SECTION "Font tiles in VRAM", VRAM[VRAM_BLOCK1]

; The font: loaded at start-up, the same on every screen.
vFontTiles::
	ds NUM_FONT_TILES * TILE_SIZE


SECTION "Screen tiles after the font in VRAM", VRAM[VRAM_BLOCK1 + NUM_FONT_TILES * TILE_SIZE]

; The current screen's tiles after its first 128, numbered from
; SCREEN_HIGH_FIRST_TILE.
vScreenTilesHigh::
	ds (256 - SCREEN_HIGH_FIRST_TILE) * TILE_SIZE


SECTION "VRAM block 2", VRAM[VRAM_BLOCK2]

; The board screen's background tiles 0-127 (LCDC_BLOCK21).
vTilesBlock2::
	ds 128 * TILE_SIZE
