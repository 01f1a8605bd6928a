; Changing screens, for the state machine in main.asm and the screens' set-ups:
; the LCD goes off while a screen's tiles and map are loaded (VRAM is then
; free to write at any speed), and back on with the new screen's LCDC value.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"


SECTION "Screen changes", ROM0

;; Switches the LCD off at the start of the next VBlank (switching it off while
;; it draws can harm a real DMG's screen). Call with the LCD on; interrupts are
;; held off while waiting and enabled again on return.
;; @destroys af
TurnLCDOff::
	di
.wait
	ldh a, [rLY]
	cp LY_VBLANK
	jr nz, .wait
	ASSERT LCDC_OFF == 0
	xor a
	ldh [rLCDC], a
	; The VBlank handler copies the shadow; it must say off too.
	ldh [hLCDC], a
	ei
	ret


;; Switches the LCD on with the given settings (and makes them the shadow the
;; VBlank handler copies).
;; @param a: the LCDC value, with LCDC_ON
;; @destroys nothing
TurnLCDOn::
	ldh [hLCDC], a
	ldh [rLCDC], a
	ret


;; Fills the whole of tile map 0 with the blank tile. LCD off.
;; @destroys af, bc, hl
ClearTilemap::
	ld hl, TILEMAP0
	ld bc, TILEMAP_AREA
	ld a, TILE_BLANK
	jp Memset


;; Copies a screen-sized tile map (SCREEN_WIDTH x SCREEN_HEIGHT bytes, row by
;; row) to the visible corner of tile map 0. LCD off.
;; @param de: the map
;; @destroys af, bc, de, hl
CopyScreenTilemap::
	ld hl, TILEMAP0
	ld b, SCREEN_HEIGHT
.row
	ld c, SCREEN_WIDTH
.tile
	ld a, [de]
	inc de
	ld [hli], a
	dec c
	jr nz, .tile
	; on to the next row of the map
	ld a, l
	add TILEMAP_WIDTH - SCREEN_WIDTH
	ld l, a
	adc h
	sub l
	ld h, a
	dec b
	jr nz, .row
	ret
