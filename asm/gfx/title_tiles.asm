; The title screen's tiles and tile map, converted from assets/title.png by
; `cargo xtask assets`.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"


SECTION "Title tiles", ROMX

	INCLUDE "generated/gfx/title.inc"
	assert_table_length TitleMap, SCREEN_HEIGHT, SCREEN_WIDTH
