; The board screen: the game (ui/game.asm) on the board (ui/board_view.asm),
; the pause menu (ui/menu.asm), and the players' keys:
;   - the control pad moves the selector; A picks up the piece under it when
;     that piece has a legal move (else a short buzz), and every square it
;     may go to is outlined;
;   - with a piece picked up, the control pad goes to the nearest outlined
;     square in the direction pressed, A plays the move there (a pawn
;     reaching the last rank first asks which piece: left and right choose
;     among Q R B N, A takes it, B goes back), and B (or A on the piece's own
;     square) puts the piece back;
;   - START or SELECT opens the pause menu, also while the engine thinks;
;   - once the game has ended, up and down scroll the move list, A starts
;     a new game (the option pages), B takes back (unless a flag fell) and
;     START or SELECT replays the game (ui/take_back.asm).

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"
INCLUDE "include/charmap.inc"
INCLUDE "include/chess.inc"
INCLUDE "include/layout.inc"
INCLUDE "include/audio.inc"
INCLUDE "include/screens.inc"
INCLUDE "include/game_state.inc"
INCLUDE "include/clock.inc"
INCLUDE "engine/engine.inc"


; The board screen's LCDC: background tiles 0-127 from $9000 (block 2), so that
; the 128 tiles at $8000 are the objects' alone; 8x8 objects; the window (the
; pause menu, shown by ui/menu.asm) from tile map 1.
DEF LCDC_BOARD EQU LCDC_ON | LCDC_BG_ON | LCDC_BG_9800 | LCDC_BLOCK21 | LCDC_OBJ_ON | LCDC_OBJ_8 | LCDC_WIN_OFF | LCDC_WIN_9C00

; The promotion's question, on the status line's second row: the pieces' letters
; every PROMOTION_STEP columns from PROMOTION_X, the pointer left of the chosen.
DEF PROMOTION_Y    EQU STATUS_Y + 1
DEF PROMOTION_X    EQU 12
DEF PROMOTION_STEP EQU 2
DEF NUM_PROMOTIONS EQU 4


SECTION "Board screen state", WRAM0

; While a promotion is chosen: its square, and the piece (0-3: Q R B N).
wPromotionSquare: db
wPromotionChoice: db
; MoveToDestination's best square so far: its score, row and column.
wBestScore: db
wBestRow: db
wBestColumn: db


SECTION "Board screen", ROM0

;; Unpacks the board screen's tiles, starts a new game and draws it: the board,
;; its labels, the marks, the status line, the menu in the window's tile map.
;; LCD off.
;; @return a: the LCDC value to show it with
;; @destroys af, bc, de, hl
SetUpBoardScreen::
	; The background tiles are one stream from the first after the font to the
	; end of block 2, which follows block 1.
	ASSERT VRAM_BLOCK1 + 128 * TILE_SIZE == VRAM_BLOCK2
	ld hl, PackedBoardTiles
	ld de, vScreenTilesHigh
	call Unpack
	ld hl, PackedBoardObjectTiles
	ld de, vTilesBlock0
	call Unpack

	call ClearTilemap
	call DrawMenu
	call StartGame
	call DrawBoard
	call DrawBoardLabels
	ld a, MENU_Y * TILE_HEIGHT
	ldh [rWY], a
	ld a, WX_OFS
	ldh [rWX], a
	ld a, 1
	ldh [hGameLive], a
	ld a, LCDC_BOARD
	ret


;; The board screen's frame: the clocks drawn, a fallen flag ends the game,
;; then the routine of the state (wGameState).
;; @destroys af, bc, de, hl
UpdateBoardScreen::
	call DrawClocks
	ld a, [wGameState]
	cp STATE_OVER
	jr nc, .state
	ld a, [wFlagFell]
	and a
	jr z, .state
	; The side whose flag fell loses (a piece picked up is put back first).
	ASSERT FLAG_FELL_WHITE == 1 + COLOR_WHITE && FLAG_FELL_BLACK == 1 + COLOR_BLACK
	dec a
	xor 1
	push af
	call PutBack
	pop bc
	ld a, ENDING_TIME
	jp EndGame
.state
	ld a, [wGameState]
	ld hl, BoardStateUpdates
	jp JumpTableEntry

BoardStateUpdates:
	dw UpdateHumanTurn, UpdatePicked, UpdatePromotion, UpdateEngineTurn
	dw UpdateMenu, UpdateDrawAnswer, UpdateHint, UpdateLevelChoice
	dw UpdateGameOver, UpdateReplay
	assert_table_length BoardStateUpdates, NUM_STATES, 2
	ASSERT STATE_HUMAN == 0 && STATE_PICKED == 1 && STATE_PROMOTION == 2
	ASSERT STATE_ENGINE == 3 && STATE_MENU == 4 && STATE_DRAW_ANSWER == 5
	ASSERT STATE_HINT == 6 && STATE_LEVEL_CHOICE == 7 && STATE_OVER == 8 && STATE_REPLAY == 9


;; STATE_HUMAN: the selector; A picks up a piece, START or SELECT pauses
;; (first, as in every state: a frame's presses may hold both).
;; @destroys af, bc, de, hl
UpdateHumanTurn:
	call TakePadPressed
	ld b, a
	and PAD_START | PAD_SELECT
	jp nz, OpenMenu
	bit B_PAD_A, b
	jr nz, PickUp
	ld a, b
	jp MoveBoardCursor


;; Picks up the piece under the selector when it has a legal move: outlines
;; its destinations and marks its square. Otherwise the error sound. (A hint,
;; ui/hint.asm, picks up its piece this way too.)
;; @destroys af, bc, de, hl
PickUp::
	call CursorSquare
	push de
	ld hl, wMoveStack
	call GenerateMoves
	pop bc
	; c: the square; the number of moves, (hl - wMoveStack) / MOVE_SIZE, in b
	ASSERT MOVE_SIZE == 2
	ld a, l
	sub LOW(wMoveStack)
	ld b, a
	ld a, h
	sbc HIGH(wMoveStack)
	rra
	rr b
	; The to bytes of the moves from the square go to wOutlines.
	ld hl, wMoveStack
	ld de, wOutlines
.move
	ld a, [hli]
	cp c
	ld a, [hli]
	jr nz, .next
	ld [de], a
	inc de
.next
	dec b
	jr nz, .move
	ld a, e
	sub LOW(wOutlines)
	ld [wOutlineCount], a
	jr z, .noMove
	ld a, c
	ld [wPickedSquare], a
	ld a, STATE_PICKED
	ld [wGameState], a
	jr RedrawBoardAndMarks
.noMove
	ld a, SFX_ERROR
	jp PlaySoundEffect


;; The engine square under the selector.
;; @return e: the square
;; @destroys af, bc
CursorSquare:
	ld a, [wCursorColumn]
	ld c, a
	ld a, [wCursorRow]
	ld b, a
	jp ScreenToSquare


;; STATE_PICKED: the control pad goes between the destinations, A plays, B
;; puts the piece back; START or SELECT puts it back and pauses.
;; @destroys af, bc, de, hl
UpdatePicked:
	call TakePadPressed
	ld b, a
	and PAD_START | PAD_SELECT
	jr nz, PutBackAndPause
	bit B_PAD_B, b
	jr nz, PutBack
	bit B_PAD_A, b
	jr nz, ChooseDestination
	ld a, b
	and PAD_CTRL_PAD
	ret z
	jr MoveToDestination


;; START or SELECT with a piece picked up (or its promotion asked): the piece
;; goes back and the menu opens. RESUME comes back to the player to move with
;; nothing picked up: the menu has covered the board's bottom rows and the
;; status line, and choosing again from the start is clearer than a choice
;; half hidden before the pause.
;; @destroys af, bc, de, hl
PutBackAndPause:
	call PutBack
	jp OpenMenu


;; Puts the piece picked up back: no outline, the selector free.
;; @destroys af, bc, de, hl
PutBack:
	xor a
	ld [wOutlineCount], a
	ld [wPickedSquare], a
	ASSERT STATE_HUMAN == 0
	ld [wGameState], a
	fallthrough RedrawBoardAndMarks


;; Redraws the board and its marks.
;; @destroys af, bc, de, hl
RedrawBoardAndMarks:
	call DrawBoard
	jp UpdateSquareMarks


;; A with a piece picked up: on its own square puts it back, on a
;; destination plays the move there (after asking for the piece when a pawn
;; promotes).
;; @destroys af, bc, de, hl
ChooseDestination:
	call CursorSquare
	ld a, [wPickedSquare]
	cp e
	jr z, PutBack
	call IsOutlined
	ret nz
	; A pawn's move to the last rank promotes.
	ld a, [wPickedSquare]
	ld d, a
	ld h, HIGH(wBoard)
	ld l, d
	ld a, [hl]
	and ROLE_MASK
	cp ROLE_PAWN
	jp nz, PlayMove
	ld a, e
	jump_unless_last_rank jp, PlayMove, ROW_RANK_6
	ld a, e
	ld [wPromotionSquare], a
	xor a
	ld [wPromotionChoice], a
	ld a, STATE_PROMOTION
	ld [wGameState], a
	ld de, PromotionText
	ld hl, TILEMAP0 + PROMOTION_Y * TILEMAP_WIDTH + STATUS_X
	call QueueStatusString
	jp ShowPromotionChoice

PromotionText:
	db "PROMOTE TO: Q R B N@"
	ASSERT STATUS_X + 12 == PROMOTION_X, "PromotionText's letters are not at PROMOTION_X"


;; Goes to the nearest destination in the direction pressed: of the outlined
;; squares that lie that way (at least a square further in that direction),
;; the one with the least steps that way plus twice the steps across.
;; @param b: the keys pressed (one control pad direction is taken)
;; @destroys af, bc, de, hl
MoveToDestination:
	ld a, $FF
	ld [wBestScore], a
	ld hl, wOutlines
	ld a, [wOutlineCount]
	ld c, a
.outline
	push bc
	push hl
	ld a, [hl]
	and MOVE_TO_SQUARE
	push bc
	call SquareToScreen
	; d: columns right of the selector, e: rows below it
	ld a, [wCursorColumn]
	cpl
	inc a
	add c
	ld d, a
	ld a, [wCursorRow]
	cpl
	inc a
	add b
	ld e, a
	pop af
	; a: the keys (b pushed); up or down: the rows are the steps that way
	ld h, a
	and PAD_UP | PAD_DOWN
	jr z, .horizontal
	ld a, d
	ld d, e
	ld e, a
.horizontal
	; left or up: the steps that way are the other sign
	ld a, h
	and PAD_LEFT | PAD_UP
	jr z, .forward
	xor a
	sub d
	ld d, a
.forward
	; d: the steps that way, at least 1; e: across, counted twice
	ld a, d
	dec a
	bit 7, a
	jr nz, .skip
	ld a, e
	bit 7, a
	jr z, .across
	cpl
	inc a
.across
	add a
	add d
	ld hl, wBestScore
	cp [hl]
	jr nc, .skip
	ld [hli], a
	ld [hl], b
	inc hl
	ld [hl], c
.skip
	pop hl
	pop bc
	inc hl
	dec c
	jr nz, .outline
	ld hl, wBestScore
	ld a, [hli]
	inc a
	ret z
	ld a, [hli]
	ld [wCursorRow], a
	ld a, [hl]
	ld [wCursorColumn], a
	jp UpdateCursorObjects


;; STATE_PROMOTION: left and right choose the piece, A plays the move, B goes
;; back to choosing the square; START or SELECT puts the piece back and
;; pauses, as with a piece picked up.
;; @destroys af, bc, de, hl
UpdatePromotion:
	call TakePadPressed
	ld b, a
	and PAD_START | PAD_SELECT
	jr nz, .pause
	ld hl, wPromotionChoice
	bit B_PAD_LEFT, b
	jr z, .notLeft
	ld a, [hl]
	and a
	jr z, .notLeft
	dec [hl]
	jr ShowPromotionChoice
.notLeft
	bit B_PAD_RIGHT, b
	jr z, .notRight
	ld a, [hl]
	cp NUM_PROMOTIONS - 1
	jr nc, .notRight
	inc [hl]
	jr ShowPromotionChoice
.notRight
	bit B_PAD_B, b
	jr nz, .back
	bit B_PAD_A, b
	ret z
	; The move: the square with the piece's promotion bits.
	call HidePointer
	ld a, [wPromotionChoice]
	add LOW(PromotionCodes)
	ld l, a
	adc HIGH(PromotionCodes)
	sub l
	ld h, a
	ld a, [wPromotionSquare]
	or [hl]
	ld e, a
	ld a, [wPickedSquare]
	ld d, a
	jp PlayMove
.back
	call HidePointer
	ld a, STATE_PICKED
	ld [wGameState], a
	jp ShowTurnStatus
.pause
	; The question goes from the status line.
	call ShowTurnStatus
	jp PutBackAndPause

; The promotion bits of Q, R, B, N, in PromotionText's order.
PromotionCodes:
	db PROMOTE_QUEEN, PROMOTE_ROOK, PROMOTE_BISHOP, PROMOTE_KNIGHT
	assert_table_length PromotionCodes, NUM_PROMOTIONS, 1


;; Puts the pointer left of the promotion piece chosen.
;; @destroys af, bc, hl
ShowPromotionChoice:
	ld a, [wPromotionChoice]
	add a
	ASSERT PROMOTION_STEP == 2
	add PROMOTION_X - 1
	ld c, a
	ld b, PROMOTION_Y
	ld a, '>'
	jp SetPointer


;; STATE_OVER: up and down scroll the move list, A starts a new game, B
;; takes back (ui/take_back.asm: the game goes on), START or SELECT replays
;; the game.
;; @destroys af, bc, de, hl
UpdateGameOver:
	call TakePadPressed
	bit B_PAD_A, a
	jp nz, LeaveGame
	bit B_PAD_B, a
	jp nz, TakeBackAtEnd
	ld b, a
	and PAD_START | PAD_SELECT
	jp nz, StartReplayAtEnd
	ld a, -1
	bit B_PAD_UP, b
	jp nz, ScrollMoveList
	ld a, 1
	bit B_PAD_DOWN, b
	jp nz, ScrollMoveList
	ret
