; A hint (the pause menu's HINT, on a player's turn): the engine searches the
; player's position as it would its own, at the game's level (MEDIUM between
; two players, whose game has none), with the thinking sign after FINDING A
; HINT and the player's clock running. Then the piece it would move is picked
; up, its destinations outlined, and the selector is on the square it would
; go to: A plays the move there (a promotion asks for the piece as usual), B
; puts the piece back, the control pad goes to its other destinations.
;
; START or SELECT stops the search at once, as on the engine's turn, and opens
; the pause menu (RESUME comes back to the player's turn without a hint). The
; other presses made during the search wait in the press queue and act after
; it, on the piece picked up: so A during the search plays the hint's move, B
; puts it down.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"
INCLUDE "include/charmap.inc"
INCLUDE "include/chess.inc"
INCLUDE "include/game.inc"
INCLUDE "include/game_state.inc"
INCLUDE "engine/engine.inc"


SECTION "Hint", ROMX

;; The menu's HINT: on a player's turn the menu closes and the hint's search
;; starts at the next update (STATE_HINT, the status line saying so); on the
;; engine's turn (the menu opened while it thought) a message says to wait.
;; @destroys af, bc, de, hl
StartHint::
	ld a, [wMenuReturnState]
	cp STATE_ENGINE
	ld de, WaitForYourTurnText
	jp z, ShowMenuMessage
	call CloseMenu
	ld a, STATE_HINT
	jr ShowStateStatus

WaitForYourTurnText:
	db "WAIT FOR YOUR TURN@"


;; STATE_HINT: the search for the player to move (StartUncappedLevelSearch at the
;; game's level, MEDIUM between two players), then its move picked up: the
;; piece on its square, the selector on where it goes. A START or SELECT
;; waiting in the press queue, or coming during the search, gives the turn
;; back to the player (the queue's presses then act as on any turn: the
;; pause opens the menu); so does a fallen flag, which the next update sees.
;; @destroys af, bc, de, hl
UpdateHint::
	; hSearchStop is cleared before the queue is looked at, as on the engine's
	; turn (UpdateEngineTurn).
	xor a
	ldh [hSearchStop], a
	call PadQueuedPresses
	and PAD_START | PAD_SELECT
	jr nz, EndHintSearch
	ld a, [wGameMode]
	cp GAME_MODE_TWO_PLAYERS
	ld a, LEVEL_MEDIUM
	jr z, .gotLevel
	ld a, [wGameLevel]
.gotLevel
	call StartUncappedLevelSearch
	call RunSearch
	jr nz, EndHintSearch
	; The status of the player's turn (EndHintSearch's), queued before the
	; board so that it shows at once; then the piece picked up as A would (PickUp, at the selector),
	; the state STATE_HINT until PickUp says STATE_PICKED, once its move
	; generation (which lifts the king) has left the board whole; then the
	; selector on the move's destination.
	call EndHintSearch
	ld a, STATE_HINT
	ld [wGameState], a
	ld a, [wSearchBestMove]
	call SetCursorToSquare
	call PickUp
	ld a, [wSearchBestMove + 1]
	and MOVE_TO_SQUARE
	call SetCursorToSquare
	jp UpdateCursorObjects


;; The player's turn again (STATE_HUMAN), the status line saying so.
;; @destroys af, bc, de, hl
EndHintSearch:
	ASSERT STATE_HUMAN == 0
	xor a
	fallthrough ShowStateStatus


;; Enters a state of the board screen and writes the turn's status for it.
;; @param a: the state (STATE_*)
;; @destroys af, bc, de, hl
ShowStateStatus:
	ld [wGameState], a
	jp ShowTurnStatus


;; Puts the selector on an engine square (without drawing it).
;; @param a: the square
;; @destroys af, bc, hl
SetCursorToSquare:
	call SquareToScreen
	ld hl, wCursorColumn
	ld [hl], c
	inc hl
	ASSERT wCursorRow == wCursorColumn + 1
	ld [hl], b
	ret
