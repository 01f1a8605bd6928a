; The pause menu of the board screen (START or SELECT during a game): resume,
; offer a draw, resign, new game, music on or off. It is the window layer,
; which shows the top of tile map 1 over the screen's bottom rows (MENU_Y on,
; include/layout.inc), drawn there once by the board screen's set-up; the
; pointer object shows the item chosen.
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
	const MENU_OFFER_DRAW
	const MENU_RESIGN
	const MENU_NEW_GAME
	const MENU_MUSIC
DEF NUM_MENU_ITEMS EQU const_value

; In the window's tile map: the items, one a row from the top, the pointer
; left of them; under them the row of messages (a declined draw, the other
; player's answer).
DEF MENU_ITEM_X      EQU 2
DEF MUSIC_STATE_X    EQU MENU_ITEM_X + 6
DEF MESSAGE_ROW      EQU NUM_MENU_ITEMS
; Exported for the cartridge tests, which read them by name from the .sym file.
EXPORT MENU_RESUME, MENU_OFFER_DRAW, MENU_RESIGN, MENU_NEW_GAME, MENU_MUSIC
EXPORT NUM_MENU_ITEMS, MENU_ITEM_X, MESSAGE_ROW
DEF MESSAGE_MAP      EQU TILEMAP1 + MESSAGE_ROW * TILEMAP_WIDTH
DEF MUSIC_STATE_MAP  EQU TILEMAP1 + MENU_MUSIC * TILEMAP_WIDTH + MUSIC_STATE_X
; The answer's YES and NO in AcceptDrawText: the pointer's columns
DEF ANSWER_YES_X     EQU 12
DEF ANSWER_STEP      EQU 4
ASSERT MESSAGE_ROW < MENU_HEIGHT, "the menu does not fit the window"


SECTION "Menu state", WRAM0

; The item the pointer is at (MENU_*).
wMenuItem: db
; The state to go back to when the menu closes.
wMenuReturnState: db
; The other player's answer to a draw offer being chosen: 0 yes, 1 no.
wDrawAnswer: db


SECTION "Menu", ROM0

;; Draws the menu's items into the window's tile map (tile map 1). LCD off.
;; @destroys af, bc, de, hl
DrawMenu::
	ld hl, TILEMAP1
	ld bc, MENU_HEIGHT * TILEMAP_WIDTH
	ld a, TILE_BLANK
	call Memset
	ld de, MenuItemsText
	ld hl, TILEMAP1 + MENU_ITEM_X
	ld b, NUM_MENU_ITEMS
.item
	push hl
	call PlaceString
	pop hl
	ld a, l
	add TILEMAP_WIDTH
	ld l, a
	adc h
	sub l
	ld h, a
	dec b
	jr nz, .item
	ret

MenuItemsText:
	db "RESUME@"
	db "OFFER DRAW@"
	db "RESIGN@"
	db "NEW GAME@"
	db "MUSIC@"


;; Opens the menu (the window shows, the clocks stop), the pointer at RESUME;
;; the state it closes back to is the current one.
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
	call ClearMenuMessage
	call ShowMusicState
	ldh a, [hLCDC]
	or LCDC_WIN_ON
	ldh [hLCDC], a
	jr PointAtMenuItem


;; Closes the menu: the window goes, the game goes on where it was, the
;; clock of the side to move running again.
;; @destroys af
CloseMenu:
	ldh a, [hSideToMove]
	ld [wClockSide], a
	ldh a, [hLCDC]
	and LOW(~LCDC_WIN_ON)
	ldh [hLCDC], a
	call HidePointer
	ld a, [wMenuReturnState]
	ld [wGameState], a
	ret


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
	jr PointAtMenuItem
.notUp
	bit B_PAD_DOWN, b
	jr z, .notDown
	ld a, [hl]
	cp NUM_MENU_ITEMS - 1
	jr nc, .notDown
	inc [hl]
	jr PointAtMenuItem
.notDown
	bit B_PAD_A, b
	ret z
	ld a, [hl]
	ld hl, MenuActions
	jp JumpTableEntry

MenuActions:
	dw CloseMenu, OfferDraw, Resign, LeaveGame, ToggleMusic
	assert_table_length MenuActions, NUM_MENU_ITEMS, 2


;; Puts the pointer left of the item chosen.
;; @destroys af, bc, hl
PointAtMenuItem:
	ld a, [wMenuItem]
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


;; Writes ON or OFF after MUSIC, as the music is.
;; @destroys af, bc, de, hl
ShowMusicState:
	ld a, [wMusicEnabled]
	and a
	ld de, MusicOnText
	jr nz, .gotText
	ld de, MusicOffText
.gotText
	ld hl, MUSIC_STATE_MAP
	jp QueueString

MusicOnText:
	db "ON @"
MusicOffText:
	db "OFF@"


;; Writes a message on the menu's last row, in place of the one there.
;; @param de: the message
;; @destroys af, bc, de, hl
ShowMenuMessage:
	push de
	call ClearMenuMessage
	pop de
	ld hl, MESSAGE_MAP
	jp QueueString


;; Blanks the menu's last row.
;; @destroys af, bc, hl
ClearMenuMessage:
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
