; Changing who plays which side during a game (the pause menu's third item):
;   - SWITCH SIDES, against the engine: the player and the engine swap
;     colours. Chosen on the player's turn, the engine takes over the side to
;     move and thinks at once; chosen while the engine thought (the menu
;     stops its search), the player takes over the side it was thinking for.
;   - ENGINE PLAYS NOW, between two players: the row under the items asks
;     ENGINE LEVEL: with the level page's words (left and right choose among
;     EASY, MEDIUM, HARD and CLOCK, from the level last chosen there), A makes
;     it a game against the engine at that level, the engine playing the side
;     to move and the player the other; B goes back to the menu, START or
;     SELECT resumes the game between two players.
; Either way the board turns so that the player's side is at the bottom, with
; its clock and labels (the selector stays on its square), and each side keeps
; its clock: its time is the side's, whoever plays it. At CLOCK the engine
; thinks a share of its own side's clock, as in any game at CLOCK. Its last
; score, which a draw offer reads, is forgotten: it was the other side's.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"
INCLUDE "include/charmap.inc"
INCLUDE "include/chess.inc"
INCLUDE "include/layout.inc"
INCLUDE "include/game.inc"
INCLUDE "include/game_state.inc"
INCLUDE "engine/engine.inc"


; The level's question on the menu's message row (its last, ui/menu.asm's
; MESSAGE_ROW): ENGINE LEVEL: then the pointer and the level's name.
DEF LEVEL_QUESTION_ROW EQU MENU_HEIGHT - 1
DEF LEVEL_NAME_X      EQU 14
DEF LEVEL_NAME_LENGTH EQU 6
ASSERT LEVEL_NAME_X + LEVEL_NAME_LENGTH <= SCREEN_WIDTH
ASSERT LEVEL_QUESTION_ROW == MESSAGE_ROW, "the level's question is not on the menu's message row"
DEF LEVEL_NAME_MAP EQU TILEMAP1 + LEVEL_QUESTION_ROW * TILEMAP_WIDTH + LEVEL_NAME_X


SECTION "Sides state", WRAM0

; The level the question points at (LEVEL_*).
wLevelChoice: db


SECTION "Sides", ROMX

;; The menu's SWITCH SIDES (against the engine: the colours swap), or ENGINE
;; PLAYS NOW between two players (the level is asked first).
;; @destroys af, bc, de, hl
SwitchSides::
	ld a, [wGameMode]
	cp GAME_MODE_TWO_PLAYERS
	jr z, AskEngineLevel
	ASSERT GAME_MODE_WHITE == COLOR_WHITE && GAME_MODE_BLACK == COLOR_BLACK
	xor 1
	fallthrough HandOverToEngine


;; The player takes a side and the engine the other: the board turns so that
;; the player's is at the bottom, the menu closes and the turn of the side to
;; move begins (the engine's, or the player's).
;; @param a: the player's side (GAME_MODE_WHITE or GAME_MODE_BLACK)
;; @destroys af, bc, de, hl
HandOverToEngine:
	ld [wGameMode], a
	ld hl, wBoardBottomColor
	cp [hl]
	jr z, .turned
	ld [hl], a
	; The selector on the same square, which the turned board shows
	; opposite.
	ld hl, wCursorColumn
	ld a, BOARD_FILES - 1
	sub [hl]
	ld [hli], a
	ASSERT wCursorRow == wCursorColumn + 1
	ld a, BOARD_RANKS - 1
	sub [hl]
	ld [hl], a
	call DrawBoard
	call DrawBoardLabels
	call RedrawClocks
.turned
	ld hl, wEngineScore
	xor a
	ld [hli], a
	ld [hl], a
	call CloseMenu
	jp BeginTurn


;; ENGINE PLAYS NOW: asks for the engine's level on the menu's message row,
;; the pointer at the level last chosen (STATE_LEVEL_CHOICE).
;; @destroys af, bc, de, hl
AskEngineLevel:
	ld a, STATE_LEVEL_CHOICE
	ld [wGameState], a
	ld de, EngineLevelText
	call ShowMenuMessage
	lb bc, MENU_Y + LEVEL_QUESTION_ROW, LEVEL_NAME_X - 1
	ld a, '>'
	call SetPointer
	; (wGameLevel is always a level: LEVEL_EASY from the start-up's cleared
	; WRAM, then only the level page and this question write it.)
	ASSERT LEVEL_EASY == 0
	ld a, [wGameLevel]
	ld [wLevelChoice], a
	jr ShowLevelChoice

EngineLevelText:
	db "ENGINE LEVEL:@"
	ASSERT STRLEN("ENGINE LEVEL:") < LEVEL_NAME_X


;; STATE_LEVEL_CHOICE: left and right choose the level (round from the last to
;; the first), A hands the side to move to the engine at that level, B goes
;; back to the menu; START or SELECT resumes the game, as in the menu.
;; @destroys af, bc, de, hl
UpdateLevelChoice::
	call TakePadPressed
	ld b, a
	and PAD_START | PAD_SELECT
	jp nz, CloseMenu
	ld hl, wLevelChoice
	ld a, [hl]
	bit B_PAD_LEFT, b
	jr z, .notLeft
	dec a
	jr .wrap
.notLeft
	bit B_PAD_RIGHT, b
	jr z, .notRight
	inc a
.wrap
	; NUM_LEVELS is a power of two: the mask wraps round both ways.
	ASSERT NUM_LEVELS & (NUM_LEVELS - 1) == 0
	and NUM_LEVELS - 1
	ld [hl], a
	jr ShowLevelChoice
.notRight
	bit B_PAD_B, b
	jr nz, .back
	bit B_PAD_A, b
	ret z
	ld [wGameLevel], a
	; The player plays the side not to move.
	ldh a, [hSideToMove]
	xor 1
	jp HandOverToEngine
.back
	ld a, STATE_MENU
	ld [wGameState], a
	call ClearMenuMessage
	jp PointAtMenuItem


;; Writes the name of the level chosen (the level page's, LevelName) after
;; ENGINE LEVEL:, on blanks.
;; @param a: the level chosen (wLevelChoice)
;; @destroys af, bc, de, hl
ShowLevelChoice:
	call LevelName
	ld hl, LEVEL_NAME_MAP
	ld c, LEVEL_NAME_LENGTH
	ld a, TILE_BLANK
	call QueueFill
	ld hl, LEVEL_NAME_MAP
	jp QueueString
