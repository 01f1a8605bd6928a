; The option pages between the title and the board, two screens that share
; this file's code, each described by a table (OptionPage):
;   - SCREEN_MODE_PAGE, "PLAY AS": WHITE, BLACK (against the engine) or TWO
;     PLAYERS (two people passing the Game Boy); sets wGameMode;
;   - SCREEN_LEVEL_PAGE, "LEVEL", against the engine only: EASY, MEDIUM, HARD
;     or CLOCK; sets wGameLevel;
;   - SCREEN_COLOUR_PAGE, "COLOURS", on a Game Boy Color (or Advance) only,
;     after the last of the others, before the board: WOOD, OCEAN, FOREST or
;     GREYS; sets wColourScheme (ui/colour.asm), which the board shows. On a
;     DMG or a Super Game Boy the page is never shown and the pages lead to
;     the board as they always have.
; Up and down move the arrow (round from the last item to the first); A (or
; START, which a player who has just left the title with it reaches for)
; confirms and goes to the screen the item names; B goes back a page, from
; the first page to the title. A page opens with the arrow on the value its
; variable holds, so B from the level page finds the mode chosen before.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"
INCLUDE "include/charmap.inc"
INCLUDE "include/screens.inc"
INCLUDE "include/game.inc"
INCLUDE "include/colour.inc"


; Where a page's parts go on the screen (tiles).
DEF PAGE_HEADING_Y  EQU 3
DEF PAGE_ITEM_X     EQU 5
DEF PAGE_ARROW_X    EQU PAGE_ITEM_X - 2
DEF PAGE_ITEM_Y     EQU 7
; Items are on every other row.
DEF PAGE_ITEM_ROWS  EQU 2
DEF PAGE_HINT_X     EQU 2
DEF PAGE_HINT_Y     EQU 16
; Exported for the cartridge tests, which read them by name from the .sym file.
EXPORT PAGE_HEADING_Y, PAGE_ITEM_X, PAGE_ARROW_X, PAGE_ITEM_Y, PAGE_ITEM_ROWS, PAGE_HINT_Y
; The most items a page has room for, and the longest item.
DEF MAX_PAGE_ITEMS  EQU (PAGE_HINT_Y - 1 - PAGE_ITEM_Y) / PAGE_ITEM_ROWS + 1
DEF MAX_ITEM_LENGTH EQU SCREEN_WIDTH - PAGE_ITEM_X

DEF PAGE_ARROW_MAP  EQU TILEMAP0 + PAGE_ITEM_Y * TILEMAP_WIDTH + PAGE_ARROW_X

; The option pages' LCDC: only the font, which tile numbers from 128 find in
; either addressing mode; no objects.
DEF LCDC_OPTIONS EQU LCDC_ON | LCDC_BG_ON | LCDC_BG_9800 | LCDC_BLOCK01 | LCDC_OBJ_OFF | LCDC_WIN_OFF

; An option page's table: a header, then its items, each the screen it leads
; to and its text (a string ending in "@").
RSRESET
DEF PAGE_HEADING   RW 1 ; the heading string, centred
DEF PAGE_VARIABLE  RW 1 ; the byte the chosen item's number is written to
DEF PAGE_BACK      RB 1 ; the screen B goes back to
DEF PAGE_COUNT     RB 1 ; how many items
DEF PAGE_ITEMS     RB 0


SECTION "Game options", WRAM0

; GAME_MODE_*: who plays which side.
wGameMode:: db
; LEVEL_*: the engine's strength (left as it was in a two-player game).
wGameLevel:: db

; The page shown: the address of its table.
wOptionsPage: dw
; The item the arrow points at, 0 at the top.
wOptionsArrow:: db


SECTION "Option pages", ROM0

;; Set-up of the first option page (who plays which side). LCD off.
;; @return a: the LCDC value to show it with
;; @destroys af, bc, de, hl
SetUpModePage::
	ld hl, ModePage
	jr SetUpOptionPage


;; Set-up of the level page. LCD off.
;; @return a: the LCDC value to show it with
;; @destroys af, bc, de, hl
SetUpLevelPage::
	ld hl, LevelPage
	jr SetUpOptionPage


;; Set-up of the colour page (a CGB only). LCD off.
;; @return a: the LCDC value to show it with
;; @destroys af, bc, de, hl
SetUpColourPage::
	ld hl, ColourPage
	fallthrough SetUpOptionPage


;; Draws an option page: its heading, its items, the hint line and the arrow,
;; on the value its variable holds. Writes VRAM without waiting: LCD off.
;; @param hl: the page's table (OptionPage)
;; @return a: the LCDC value to show it with
;; @destroys af, bc, de, hl
SetUpOptionPage:
	ld a, l
	ld [wOptionsPage], a
	ld a, h
	ld [wOptionsPage + 1], a
	push hl
	call ClearTilemap
	pop hl

	; The heading, centred: its length is counted first.
	ASSERT PAGE_HEADING == 0
	ld a, [hli]
	ld e, a
	ld a, [hli]
	ld d, a
	push hl
	push de
	ld c, 0
.count
	ld a, [de]
	inc de
	inc c
	cp TEXT_END
	jr nz, .count
	; c: length + 1; the column is (SCREEN_WIDTH - length) / 2
	ld a, SCREEN_WIDTH + 1
	sub c
	srl a
	add LOW(TILEMAP0 + PAGE_HEADING_Y * TILEMAP_WIDTH)
	ld l, a
	ld h, HIGH(TILEMAP0 + PAGE_HEADING_Y * TILEMAP_WIDTH)
	ASSERT LOW(TILEMAP0 + PAGE_HEADING_Y * TILEMAP_WIDTH) + SCREEN_WIDTH <= $FF
	pop de
	call PlaceString
	pop hl

	; The arrow starts on the variable's value (on the first item if it holds
	; none of the page's).
	ASSERT PAGE_VARIABLE == 2
	ld a, [hli]
	ld e, a
	ld a, [hli]
	ld d, a
	ASSERT PAGE_BACK == 4 && PAGE_COUNT == 5
	inc hl
	ld a, [hli]
	ld b, a
	ld a, [de]
	cp b
	jr c, .gotArrow
	xor a
.gotArrow
	ld [wOptionsArrow], a

	; The items, each a screen number and a string; b counts them.
	ASSERT PAGE_ITEMS == 6
	ld d, h
	ld e, l
	ld hl, TILEMAP0 + PAGE_ITEM_Y * TILEMAP_WIDTH + PAGE_ITEM_X
.item
	inc de
	push hl
	call PlaceString
	pop hl
	ld a, l
	add PAGE_ITEM_ROWS * TILEMAP_WIDTH
	ld l, a
	adc h
	sub l
	ld h, a
	dec b
	jr nz, .item

	ld de, OptionHintText
	ld hl, TILEMAP0 + PAGE_HINT_Y * TILEMAP_WIDTH + PAGE_HINT_X
	call PlaceString

	; The arrow, written where it points
	call OptionArrowMap
	ld [hl], '>'
	ld a, LCDC_OPTIONS
	ret


;; An option page's frame: up and down move the arrow, A or START confirms,
;; B goes back.
;; @destroys af, bc, de, hl
UpdateOptionPage::
	call TakePadPressed
	ld b, a
	; hl: the page's table
	ld a, [wOptionsPage]
	ld l, a
	ld a, [wOptionsPage + 1]
	ld h, a

	ld a, b
	and PAD_A | PAD_START
	jr nz, .confirm
	bit B_PAD_B, b
	jr nz, .back

	; c: the arrow's new place, as up and down move it round the items
	ld a, [wOptionsArrow]
	ld c, a
	ld de, PAGE_COUNT
	add hl, de
	bit B_PAD_UP, b
	jr z, .notUp
	ld a, c
	and a
	jr nz, .up
	ld c, [hl]
.up
	dec c
.notUp
	bit B_PAD_DOWN, b
	jr z, .notDown
	inc c
	ld a, c
	cp [hl]
	jr c, .notDown
	ld c, 0
.notDown
	ld a, [wOptionsArrow]
	cp c
	ret z
	; The arrow moves: a blank where it was, ">" where it goes.
	push bc
	call OptionArrowMap
	ld a, TILE_BLANK
	ld c, 1
	call QueueFill
	pop bc
	ld a, c
	ld [wOptionsArrow], a
	call OptionArrowMap
	ld a, '>'
	ld c, 1
	jp QueueFill

.back
	ld de, PAGE_BACK
	add hl, de
	ld a, [hl]
	ld [wNextScreen], a
	ret

.confirm
	; the chosen item's number into the page's variable
	ASSERT PAGE_VARIABLE == 2
	inc hl
	inc hl
	ld a, [hli]
	ld e, a
	ld a, [hli]
	ld d, a
	ld a, [wOptionsArrow]
	ld [de], a
	; then the screen it leads to
	ld c, a
	ld de, PAGE_ITEMS - PAGE_BACK
	add hl, de
	call FindPageItem
	ld a, [hl]
	; On a console with colours the board is reached through the colour page.
	cp SCREEN_BOARD
	jr nz, .gotScreen
	ldh a, [hConsole]
	cp CONSOLE_CGB
	ld a, SCREEN_BOARD
	jr c, .gotScreen
	ld a, [wCurrentScreen]
	cp SCREEN_COLOUR_PAGE
	ld a, SCREEN_BOARD
	jr z, .gotScreen
	ASSERT SCREEN_COLOUR_PAGE == SCREEN_BOARD + 1
	inc a
.gotScreen
	ld [wNextScreen], a
	ret


;; An item of a page: past the items before it.
;; @param hl: the page's items (PAGE_ITEMS)
;; @param c: the item, 0 for the first
;; @return hl: the item (its screen byte, then its text)
;; @destroys af, c
FindPageItem:
	inc c
.item
	dec c
	ret z
	inc hl
.skipText
	ld a, [hli]
	cp TEXT_END
	jr nz, .skipText
	jr .item


;; The name of a level as the level page shows it (EASY, MEDIUM, HARD, CLOCK):
;; the pause menu's level choice (ui/sides.asm) uses the page's words.
;; @param a: the level (LEVEL_*)
;; @return de: its text
;; @destroys af, c, hl
LevelName::
	ld c, a
	ld hl, LevelPage + PAGE_ITEMS
	call FindPageItem
	inc hl
	ld d, h
	ld e, l
	ret


;; The tile map address of the arrow, before the item it points at.
;; @return hl: the address
;; @destroys af
OptionArrowMap:
	ld a, [wOptionsArrow]
	ASSERT PAGE_ITEM_ROWS * TILEMAP_WIDTH == 64
	; hl = PAGE_ARROW_MAP + arrow * 64
	ld h, 0
	ld l, a
	REPT 6
		add hl, hl
	ENDR
	ld a, l
	add LOW(PAGE_ARROW_MAP)
	ld l, a
	ld a, h
	adc HIGH(PAGE_ARROW_MAP)
	ld h, a
	ret


; One item of a page: \1 the screen it leads to, \2 its text.
MACRO option_item
	ASSERT STRLEN(\2) <= MAX_ITEM_LENGTH, "option item \2 is too long for the page"
	db \1, \2, "@"
ENDM

; The page tables: one option_item per value of the variable, in its order.
ModePage:
	dw ModeHeadingText, wGameMode
	db SCREEN_TITLE, NUM_GAME_MODES
	ASSERT NUM_GAME_MODES <= MAX_PAGE_ITEMS
	ASSERT GAME_MODE_WHITE == 0 && GAME_MODE_BLACK == 1 && GAME_MODE_TWO_PLAYERS == 2
	option_item SCREEN_LEVEL_PAGE, "WHITE"
	option_item SCREEN_LEVEL_PAGE, "BLACK"
	option_item SCREEN_BOARD, "TWO PLAYERS"

LevelPage:
	dw LevelHeadingText, wGameLevel
	db SCREEN_MODE_PAGE, NUM_LEVELS
	ASSERT NUM_LEVELS <= MAX_PAGE_ITEMS
	ASSERT LEVEL_EASY == 0 && LEVEL_MEDIUM == 1 && LEVEL_HARD == 2 && LEVEL_CLOCK == 3
	option_item SCREEN_BOARD, "EASY"
	option_item SCREEN_BOARD, "MEDIUM"
	option_item SCREEN_BOARD, "HARD"
	option_item SCREEN_BOARD, "CLOCK"

ModeHeadingText:
	db "PLAY AS@"
LevelHeadingText:
	db "LEVEL@"
OptionHintText:
	db "A:CHOOSE  B:BACK@"


SECTION "Colour page", ROMX

; The colour page and its text, in
; bank 1 (always mapped) for ROM0's room.
ColourPage:
	dw ColourHeadingText, wColourScheme
	db SCREEN_MODE_PAGE, NUM_COLOUR_SCHEMES
	ASSERT NUM_COLOUR_SCHEMES <= MAX_PAGE_ITEMS
	ASSERT COLOUR_SCHEME_WOOD == 0 && COLOUR_SCHEME_OCEAN == 1
	ASSERT COLOUR_SCHEME_FOREST == 2 && COLOUR_SCHEME_GREYS == 3
	option_item SCREEN_BOARD, "WOOD"
	option_item SCREEN_BOARD, "OCEAN"
	option_item SCREEN_BOARD, "FOREST"
	option_item SCREEN_BOARD, "GREYS"

ColourHeadingText:
	db "COLOURS@"

