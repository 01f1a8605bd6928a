; The pause menu of the board screen (START or SELECT during a game): resume,
; a hint (ui/hint.asm), switch sides (ui/sides.asm; between two players the
; engine takes over), offer a draw, resign, new game, music on or off, take
; back and replay (ui/take_back.asm). It is the window layer, which shows the
; top of tile map 1 over the screen's bottom rows (MENU_Y on,
; include/layout.inc), drawn there by the board screen's set-up; the pointer
; object shows the item chosen.
;
; The items are a list, one row of MenuItems each (its text, its action): a
; new item is a `const` below, a `menu_item` row and a `menu_text` (the
; assembler checks their order). The window shows MENU_ROWS of
; them; a longer list scrolls a row at a time when the pointer goes past the
; first or last row shown, with a sign (^ on the first row, v on the last) while
; more items are above or below. The window is always opened on the list's
; top rows, drawn while it was hidden (CloseMenu), so that its first frame
; shows them whole.
;
; A draw offered to the engine is accepted only when the engine is worse off
; by its last search's score and by the evaluation of the position (both below
; 0 from its side); in a two-player game the other player answers.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"
INCLUDE "include/charmap.inc"
INCLUDE "include/chess.inc"
INCLUDE "include/layout.inc"
INCLUDE "include/screens.inc"
INCLUDE "include/audio.inc"
INCLUDE "include/game.inc"
INCLUDE "include/game_state.inc"
INCLUDE "include/clock.inc"


	const_def
	const MENU_RESUME
	const MENU_HINT
	const MENU_SWITCH_SIDES
	const MENU_OFFER_DRAW
	const MENU_RESIGN
	const MENU_NEW_GAME
	const MENU_MUSIC
	const MENU_TAKE_BACK
	const MENU_REPLAY
DEF NUM_MENU_ITEMS EQU const_value

; A row of MenuItems: its text (TEXT_END at its end), its action (the routine
; A runs there).
DEF MENU_ITEM_TEXT   EQU 0
DEF MENU_ITEM_ACTION EQU 2
DEF MENU_ITEM_SIZE   EQU 4
; The most items the list can have: an item's row offset fits a byte.
DEF MENU_CAPACITY    EQU 256 / MENU_ITEM_SIZE
ASSERT NUM_MENU_ITEMS <= MENU_CAPACITY, "the menu has more items than it can scroll through"
ASSERT MENU_CAPACITY >= 8, "the menu needs room for eight items"

; In the window's tile map: the items, one a row from the top, MENU_ROWS of
; them shown, the pointer left of them; under them the row of messages (a
; declined draw, the other player's answer).
DEF MENU_ROWS        EQU MENU_HEIGHT - 1
IF NUM_MENU_ITEMS < MENU_ROWS
	DEF MENU_ROWS_USED EQU NUM_MENU_ITEMS
ELSE
	DEF MENU_ROWS_USED EQU MENU_ROWS
ENDC
DEF MENU_ITEM_X      EQU 2
DEF MUSIC_STATE_X    EQU MENU_ITEM_X + 6
; A row of the list as DrawMenuRow puts it together in wStatusText (ui/game.asm),
; from MENU_ITEM_X to the sign of more items.
; The signs of more items above and below, at the end of the first and the
; last row shown.
DEF MORE_SIGN_X      EQU SCREEN_WIDTH - 2
DEF MENU_ROW_LENGTH  EQU MORE_SIGN_X + 1 - MENU_ITEM_X
ASSERT MENU_ROW_LENGTH <= 48, "a menu row does not fit wStatusText"
DEF MESSAGE_ROW      EQU MENU_ROWS
DEF MESSAGE_MAP      EQU TILEMAP1 + MESSAGE_ROW * TILEMAP_WIDTH
; The answer's YES and NO in AcceptDrawText: the pointer's columns
DEF ANSWER_YES_X     EQU 12
DEF ANSWER_STEP      EQU 4
ASSERT MENU_ROWS >= 2, "the menu's window has no room for a list"
ASSERT MESSAGE_ROW < MENU_HEIGHT, "the menu does not fit the window"
; DrawMenuRow finds a row within a page of tile map 1.
ASSERT LOW(TILEMAP1) == 0 && (MENU_ROWS - 1) * TILEMAP_WIDTH + MORE_SIGN_X < 256

; Exported for the cartridge tests, which read them by name from the .sym file
; (an export changes nothing in the ROM).
EXPORT NUM_MENU_ITEMS, MENU_ROWS, MENU_RESUME, MENU_HINT, MENU_SWITCH_SIDES
EXPORT MENU_OFFER_DRAW, MENU_RESIGN, MENU_NEW_GAME, MENU_MUSIC, MENU_ITEM_X
EXPORT MESSAGE_ROW
EXPORT MENU_TAKE_BACK, MENU_REPLAY


SECTION "Menu state", WRAM0

; The item the pointer is at (MENU_*).
wMenuItem: db
; The first item the window shows: the list is scrolled by as many rows.
wMenuTop: db
; The state to go back to when the menu closes.
wMenuReturnState:: db
; The other player's answer to a draw offer being chosen: 0 yes, 1 no.
wDrawAnswer: db


SECTION "Menu", ROM0

;; Draws the menu into the window's tile map (tile map 1), the list at its
;; top. LCD off.
;; @destroys af, bc, de, hl
DrawMenu::
	ld hl, TILEMAP1
	ld bc, MENU_HEIGHT * TILEMAP_WIDTH
	ld a, TILE_BLANK
	call Memset
	fallthrough ResetMenuRows


;; Scrolls the list back to its top and draws its rows (DrawMenuRows).
;; @destroys af, bc, de, hl
ResetMenuRows:
	xor a
	ld [wMenuTop], a
	fallthrough DrawMenuRows


;; Draws the rows the window shows, from wMenuTop on (DrawMenuRow).
;; @destroys af, bc, de, hl
DrawMenuRows:
	ld b, 0
.row
	push bc
	call DrawMenuRow
	pop bc
	inc b
	ld a, b
	cp MENU_ROWS_USED
	jr c, .row
	ret


;; Draws a row of the list as one copy (WriteTiles: straight away with the LCD
;; off, through the VRAM queue with it on): its item's text (MUSIC with ON or
;; OFF), blanks to the row's end, and there the sign of more items: ^ on the
;; first row while the list is scrolled, v on the last while its last item
;; does not show.
;; @param b: the row (0 for the window's first)
;; @destroys af, bc, de, hl
DrawMenuRow:
	push bc
	ld hl, wStatusText
	ld bc, MENU_ROW_LENGTH
	ld a, TILE_BLANK
	call Memset
	pop bc
	; c: the item (MenuItemText, MusicStateText and CopyText keep bc)
	ld a, [wMenuTop]
	add b
	ld c, a
	call MenuItemText
	ld hl, wStatusText
	call CopyText
	ld a, c
	cp MENU_MUSIC
	jr nz, .sign
	call MusicStateText
	ld hl, wStatusText + MUSIC_STATE_X - MENU_ITEM_X
	call CopyText
.sign
	; On the first row the item is wMenuTop, on the last wMenuTop +
	; MENU_ROWS_USED - 1: more above unless it is the first item, more below
	; unless the last.
	ld hl, wStatusText + MENU_ROW_LENGTH - 1
	ld a, b
	and a
	jr nz, .notFirst
	or c
	jr z, .notFirst
	ld [hl], '^'
.notFirst
	ld a, b
	cp MENU_ROWS_USED - 1
	jr nz, .write
	ld a, c
	cp NUM_MENU_ITEMS - 1
	jr nc, .write
	ld [hl], 'v'
.write
	ASSERT TILEMAP_WIDTH == 32
	ld a, b
	swap a
	add a
	add MENU_ITEM_X
	ld l, a
	ld h, HIGH(TILEMAP1)
	ld de, wStatusText
	ld c, MENU_ROW_LENGTH
	jp WriteTiles


;; The text of an item: the table's, but for SWITCH SIDES, which reads ENGINE
;; PLAYS NOW between two players (ui/sides.asm).
;; @param a: the item (MENU_*)
;; @return de: its text
;; @destroys af, hl
MenuItemText:
	cp MENU_SWITCH_SIDES
	jr nz, .table
	; Bit 1 of wGameMode is set between two players alone.
	ASSERT GAME_MODE_TWO_PLAYERS == 2 && NUM_GAME_MODES == 3
	ld hl, wGameMode
	bit 1, [hl]
	ld de, EnginePlaysText
	ret nz
.table
	ASSERT MENU_ITEM_SIZE == 4 && MENU_ITEM_TEXT == 0
	add a
	add a
	add LOW(MenuItems)
	ld l, a
	adc HIGH(MenuItems)
	sub l
	ld h, a
	ld a, [hli]
	ld d, [hl]
	ld e, a
	ret


; A row of MenuItems: \1 the item (MENU_*, asserted to be the row's number),
; \2 its action. Its text is MenuText_\1 (menu_text).
MACRO menu_item
	ASSERT \1 == (@ - MenuItems) / MENU_ITEM_SIZE, "MenuItems: \1 is not in its row"
	dw MenuText_\1, \2
ENDM

; An item's text: \1 the item (MENU_*), \2 the text (as long as the row
; leaves room for, before the sign of more items). The texts follow one
; another in MENU_* order (asserted).
MACRO menu_text
	ASSERT \1 == menu_texts, "MenuItemsText: \1 is not in its place"
	DEF menu_texts += 1
	ASSERT STRLEN(\2) < MENU_ROW_LENGTH, "menu item \2 is too long for its row"
MenuText_\1:
	db \2, "@"
ENDM

; The items, in MENU_* order.
MenuItems:
	menu_item MENU_RESUME, CloseMenu
	menu_item MENU_HINT, StartHint
	menu_item MENU_SWITCH_SIDES, SwitchSides
	menu_item MENU_OFFER_DRAW, OfferDraw
	menu_item MENU_RESIGN, Resign
	menu_item MENU_NEW_GAME, LeaveGame
	menu_item MENU_MUSIC, ToggleMusic
	menu_item MENU_TAKE_BACK, TakeBackInMenu
	menu_item MENU_REPLAY, StartReplayInMenu
	assert_table_length MenuItems, NUM_MENU_ITEMS, MENU_ITEM_SIZE
	ASSERT MENU_ITEM_ACTION == 2

MenuItemsText:
	DEF menu_texts = 0
	menu_text MENU_RESUME, "RESUME"
	menu_text MENU_HINT, "HINT"
	menu_text MENU_SWITCH_SIDES, "SWITCH SIDES"
	menu_text MENU_OFFER_DRAW, "OFFER DRAW"
	menu_text MENU_RESIGN, "RESIGN"
	menu_text MENU_NEW_GAME, "NEW GAME"
	menu_text MENU_MUSIC, "MUSIC"
	; The end screen's key to take back (ShowEndingStatus, ui/game.asm) ends
	; in the item's text.
TakeBackKeyText::
	db "B: "
	menu_text MENU_TAKE_BACK, "TAKE BACK"
	menu_text MENU_REPLAY, "REPLAY"
	ASSERT menu_texts == NUM_MENU_ITEMS, "MenuItemsText does not have a text for each item"
; SWITCH SIDES between two players.
EnginePlaysText:
	db "ENGINE PLAYS NOW@"
	ASSERT STRLEN("ENGINE PLAYS NOW") < MENU_ROW_LENGTH



;; Opens the menu (the window shows, the clocks stop), the pointer at RESUME,
;; the list at its top; the state it closes back to is the current one.
;; @destroys af, bc, de, hl
OpenMenu::
	ld a, CLOCK_STOPPED
	ld [wClockSide], a
	ld a, [wGameState]
	ld [wMenuReturnState], a
	ld a, STATE_MENU
	ld [wGameState], a
	xor a
	ld [wMenuItem], a
	; CloseMenu has drawn the list at its top, but a game that ended in the
	; menu (EndGame) may have left it scrolled: then it shows a few frames late.
	ld a, [wMenuTop]
	and a
	call nz, ResetMenuRows
	call ClearMenuMessage
	ldh a, [hLCDC]
	or LCDC_WIN_ON
	ldh [hLCDC], a
	jr PointAtMenuItem


;; Closes the menu: the window goes, the game goes on where it was, the
;; clock of the side to move running again. The list is drawn at its top
;; again, hidden, for the next time the menu opens (the VRAM queue copies it
;; over two frames, a row an entry).
;; @destroys af, bc, de, hl
CloseMenu::
	ldh a, [hSideToMove]
	ld [wClockSide], a
	call CloseBoardWindow
	ld a, [wMenuReturnState]
	ld [wGameState], a
	jp ResetMenuRows


;; Hides the window (the pause menu) and the pointer: CloseMenu, and the take
;; back and the replay, which leave the menu for another state.
;; @destroys af
CloseBoardWindow::
	ldh a, [hLCDC]
	and LOW(~LCDC_WIN_ON)
	ldh [hLCDC], a
	jp HidePointer


;; STATE_MENU: up and down choose an item, A takes it, B, START or SELECT
;; (the keys that open it) resumes.
;; @destroys af, bc, de, hl
UpdateMenu::
	call TakePadPressed
	ld b, a
	and PAD_START | PAD_SELECT | PAD_B
	jr nz, CloseMenu
	ld hl, wMenuItem
	bit B_PAD_UP, b
	jr z, .notUp
	ld a, [hl]
	and a
	jr z, .notUp
	dec [hl]
	jr ShowMenuItem
.notUp
	bit B_PAD_DOWN, b
	jr z, .notDown
	ld a, [hl]
	cp NUM_MENU_ITEMS - 1
	jr nc, .notDown
	inc [hl]
	jr ShowMenuItem
.notDown
	bit B_PAD_A, b
	ret z
	; The item's action: JumpTableEntry doubles the offset again.
	ASSERT MENU_ITEM_SIZE == 2 * 2
	ld a, [hl]
	add a
	ld hl, MenuItems + MENU_ITEM_ACTION
	jp JumpTableEntry


;; Scrolls the list if the item chosen does not show (it becomes the first
;; row shown when it is above them, the last when below; the rows are queued
;; again), then points at it.
;; @destroys af, bc, de, hl
ShowMenuItem:
	ld a, [wMenuTop]
	ld b, a
	ld a, [wMenuItem]
	cp b
	jr c, .scroll
	; a: the first row that would show it as the last
	sub MENU_ROWS - 1
	jr c, PointAtMenuItem
	cp b
	jr c, PointAtMenuItem
	jr z, PointAtMenuItem
.scroll
	ld [wMenuTop], a
	call DrawMenuRows
	fallthrough PointAtMenuItem


;; Puts the pointer left of the item chosen, on its row in the window.
;; @destroys af, bc, hl
PointAtMenuItem::
	ld a, [wMenuTop]
	ld b, a
	ld a, [wMenuItem]
	sub b
	add MENU_Y
	ld b, a
	ld c, MENU_ITEM_X - 1
	ld a, '>'
	jp SetPointer


;; Offers a draw: the engine accepts or declines at once; in a two-player
;; game the other player is asked.
;; @destroys af, bc, de, hl
OfferDraw:
	ld a, [wGameMode]
	cp GAME_MODE_TWO_PLAYERS
	jr z, .ask
	; The engine accepts when it is worse off both by its last search's score
	; and by the evaluation of the position now (White's score, turned round
	; when the engine plays Black): the search saw deeper, but before the
	; human's last move.
	ld a, [wEngineScore + 1]
	bit 7, a
	jr z, .declined
	ldh a, [hWhiteScore + 1]
	ld b, a
	ld a, [wGameMode]
	ASSERT GAME_MODE_WHITE == 0
	and a
	; the human plays White: the engine, Black, is worse off when White's
	; score is above 0
	jr nz, .engineWhite
	ldh a, [hWhiteScore]
	or b
	jr z, .declined
	bit 7, b
	jr z, AgreeDraw
	jr .declined
.engineWhite
	bit 7, b
	jr nz, AgreeDraw
.declined
	ld de, DrawDeclinedText
	jp ShowMenuMessage
.ask
	ld a, STATE_DRAW_ANSWER
	ld [wGameState], a
	ld a, 1
	ld [wDrawAnswer], a
	ld de, AcceptDrawText
	call ShowMenuMessage
	jr PointAtAnswer

DrawDeclinedText:
	db "DRAW DECLINED@"
AcceptDrawText:
	db "ACCEPT DRAW? YES NO@"


;; Ends the game in a draw by agreement (EndGame closes the menu).
;; @destroys af, bc, de, hl
AgreeDraw:
	ld a, ENDING_AGREEMENT
	ld b, NO_WINNER
	jp EndGame


;; STATE_DRAW_ANSWER: left and right choose YES or NO, A answers, B goes
;; back to the menu (as NO does); START or SELECT resumes the game, as in the
;; menu (the offer is not taken).
;; @destroys af, bc, de, hl
UpdateDrawAnswer::
	call TakePadPressed
	ld b, a
	and PAD_START | PAD_SELECT
	jp nz, CloseMenu
	ld a, b
	and PAD_LEFT | PAD_RIGHT
	jr z, .notSide
	ld a, [wDrawAnswer]
	xor 1
	ld [wDrawAnswer], a
	jr PointAtAnswer
.notSide
	bit B_PAD_B, b
	jr nz, .back
	bit B_PAD_A, b
	ret z
	ld a, [wDrawAnswer]
	and a
	jr z, AgreeDraw
.back
	ld a, STATE_MENU
	ld [wGameState], a
	call ClearMenuMessage
	jp PointAtMenuItem


;; Puts the pointer left of the answer chosen.
;; @destroys af, bc, hl
PointAtAnswer:
	ld a, [wDrawAnswer]
	ASSERT ANSWER_STEP == 4
	add a
	add a
	add ANSWER_YES_X
	ld c, a
	ld b, MENU_Y + MESSAGE_ROW
	ld a, '>'
	jp SetPointer


;; Resigns for the human (in a two-player game, for the side to move); EndGame
;; closes the menu.
;; @destroys af, bc, de, hl
Resign:
	ASSERT GAME_MODE_WHITE == COLOR_WHITE && GAME_MODE_BLACK == COLOR_BLACK
	ASSERT GAME_MODE_TWO_PLAYERS > GAME_MODE_BLACK
	ld a, [wGameMode]
	cp GAME_MODE_TWO_PLAYERS
	jr c, .gotLoser
	ldh a, [hSideToMove]
.gotLoser
	xor 1
	ld b, a
	ld a, ENDING_RESIGNED
	jp EndGame


;; Turns the music on or off, and says which.
;; @destroys af, bc, de, hl
ToggleMusic:
	ld a, [wMusicEnabled]
	and a
	ld a, 0
	jr nz, .set
	inc a
.set
	call SetMusicEnabled
	fallthrough ShowMusicState


;; Draws MUSIC's row, with ON or OFF as the music is, if it shows.
;; @destroys af, bc, de, hl
ShowMusicState:
	ld a, [wMenuTop]
	ld b, a
	ld a, MENU_MUSIC
	sub b
	ret c
	cp MENU_ROWS_USED
	ret nc
	ld b, a
	jp DrawMenuRow


;; ON or OFF, as the music is.
;; @return de: the text
;; @destroys af
MusicStateText:
	ld a, [wMusicEnabled]
	and a
	ld de, MusicOnText
	ret nz
	ld de, MusicOffText
	ret

MusicOnText:
	db "ON@"
MusicOffText:
	db "OFF@"


;; Writes a message on the menu's last row, in place of the one there.
;; @param de: the message
;; @destroys af, bc, de, hl
ShowMenuMessage::
	push de
	call ClearMenuMessage
	pop de
	ld hl, MESSAGE_MAP
	jp QueueString


;; Blanks the menu's last row.
;; @destroys af, bc, hl
ClearMenuMessage::
	ld hl, MESSAGE_MAP
	ld c, SCREEN_WIDTH
	ld a, TILE_BLANK
	jp QueueFill


;; Leaves the game for the option pages (a new game): the VBlank handler
;; stops calling the game, the board screen's objects go, and the title song
;; starts again (the game-over jingle has taken its place).
;; @destroys af, bc, hl
LeaveGame::
	xor a
	ldh [hGameLive], a
	ld hl, wShadowOAM
	ld bc, OAM_SIZE
	call Memset
	ld a, SONG_TITLE
	call PlaySong
	ld a, SCREEN_MODE_PAGE
	ld [wNextScreen], a
	ret


;; Jumps to entry a of a table of routines.
;; @param a: the entry
;; @param hl: the table (2 bytes an entry, 128 at most)
;; @destroys af, hl
JumpTableEntry::
	add a
	add l
	ld l, a
	adc h
	sub l
	ld h, a
	ld a, [hli]
	ld h, [hl]
	ld l, a
	jp hl
