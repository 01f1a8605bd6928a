; Take back and replay, on the board screen (the pause menu's TAKE BACK and
; REPLAY; B and START or SELECT on the end screen).
;
; Both rebuild a position of the game the one exact way: from the start
; position, the move list's records (include/game_record.inc) played again
; through PlayGameMove (ReplayGamePlies). The board, the castling and
; en-passant rights, the fifty-move count and the history of repetitions are
; then what they were when the position arose, because they are made by the
; same code from the same moves.
;
; The clocks are kept here: when a move is played (PlayMove calls
; RecordPlyClock), the mover's clock stops, and the frames it has run go to
; wPlyClocks, 2 bytes a ply. The clocks of a position are the last such
; figures of each side before it (or the start's). Room for MAX_GAME_MOVES
; plies, all the move list holds; once a game has more (wPlyClocksLost),
; neither take back nor replay can rebuild it, and both are refused.
;
; A take back against the engine takes back the engine's last move and the
; player's before it: the player is to move again, in the position before
; their move; chosen while the engine is to move (its search stopped by the
; pause), it takes back the player's move alone. Between two players it
; takes back one ply. With nothing to take back (the start; or a game where
; the engine moved first and the player not yet) it does nothing but say so:
; a message in the menu, the error sound on the end screen. After a game has
; ended it is offered unless a flag fell, and the game goes on.
;
; A replay shows the game's positions one at a time: left and right step a
; ply back and on, up goes to the start, down to the end; the move list shows
; the moves up to the position's (the current entry its last, at the panel's
; bottom) and the status line names it; the last move is marked on the board.
; B, START or SELECT go back to where the replay began: the game (the
; player's or the engine's turn, its clock running again) or the end screen.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"
INCLUDE "include/charmap.inc"
INCLUDE "include/chess.inc"
INCLUDE "include/layout.inc"
INCLUDE "include/audio.inc"
INCLUDE "include/game.inc"
INCLUDE "include/game_state.inc"
INCLUDE "include/game_record.inc"
INCLUDE "include/clock.inc"
INCLUDE "engine/engine.inc"


; The learner's half of WRAMX's free room, $DC00-$DDFF: the take back's.
DEF PLY_CLOCKS_START EQU $DC00
DEF PLY_CLOCKS_SIZE  EQU 2 * MAX_GAME_MOVES
ASSERT PLY_CLOCKS_START + PLY_CLOCKS_SIZE + 2 <= $DE00, "the take back has $DC00-$DDFF"


SECTION "Take-back clocks", WRAMX[PLY_CLOCKS_START]

; Per ply of the move list: the frames the mover's clock had run when the
; move was played (ClockFramesUsed), little-endian.
wPlyClocks:: ds PLY_CLOCKS_SIZE
; Nonzero once the game has more plies than wPlyClocks and the move list hold.
wPlyClocksLost:: db
; The replay's ply: the position after that many plies.
wReplayPly:: db


SECTION "Replay state", WRAM0

; The plies of the game being replayed, and the state to go back to
; (STATE_HUMAN or STATE_ENGINE from the menu, STATE_OVER from the end screen).
wReplayPlies: db
wReplayReturnState: db


; hl: the address of a ply's entry in wPlyClocks, wPlyClocks + 2 * ply,
; from the ply (in a) and half the table's page (it starts an even page).
MACRO ply_clock_address
	ASSERT LOW(wPlyClocks) == 0 && HIGH(wPlyClocks) % 2 == 0
	ld l, a
	ld h, HIGH(wPlyClocks) / 2
	add hl, hl
ENDM


SECTION "Take back", ROMX

;; Stops the clock of the side to move, which is playing a move, and keeps the
;; frames it has run for the ply the move list is at (or marks the game as too
;; long to keep). Called by PlayMove before the move.
;; @destroys af, bc, hl; keeps de
RecordPlyClock::
	ld a, CLOCK_STOPPED
	ld [wClockSide], a
	ld a, [wMoveListCount]
	cp MAX_GAME_MOVES
	jr c, .room
	ld [wPlyClocksLost], a
	ret
.room
	push de
	ply_clock_address
	push hl
	ldh a, [hSideToMove]
	call ClockFramesUsed
	ld d, h
	ld e, l
	pop hl
	ld [hl], e
	inc hl
	ld [hl], d
	pop de
	ret


;; Sets both clocks to what they were when the position after a number of
;; plies arose: each side's to its frames at its last move before it
;; (wPlyClocks), or to the start's. Call with the clocks stopped.
;; @param a: the plies
;; @destroys af, bc, de, hl
RestoreClocksAtPly:
	ld b, a
	ld c, COLOR_BLACK
	call .side
	ASSERT COLOR_WHITE == COLOR_BLACK - 1
	dec c
.side
	; a: the side's last ply before the position, the last ply below the
	; plies of the side's parity (ply p is White's when p is even,
	; COLOR_WHITE == 0; Black's when odd): (plies - 1 - side) & ~1 | side;
	; none when plies - 1 - side is below 0 (carry)
	ASSERT COLOR_WHITE == 0 && COLOR_BLACK == 1
	ld a, b
	scf
	sbc c
	; de: the frames, 0 (the start's) when the side has not moved
	ld de, 0
	jr c, .set
	and ~1
	or c
	ply_clock_address
	ld a, [hli]
	ld d, [hl]
	ld e, a
.set
	ld a, c
	push bc
	call SetClockFramesUsed
	pop bc
	ret


;; Makes the engine's position the game's after its first plies: the start
;; position, then each of the move list's records played through PlayGameMove
;; (the history of repetitions grows as it did); the last-move marks are those
;; of the last ply played (none at the start).
;; @param a: the plies, at most the records the list has written
;; @return b: the plies
;; @destroys af, c, de, hl
ReplayGamePlies::
	push af
	ld hl, StartSetup
	call LoadPosition
	ld hl, wMoveStack
	call StartGameHistory
	ld hl, wLastMoveFrom
	xor a
	ld [hli], a
	ASSERT wLastMoveTo == wLastMoveFrom + 1
	ld [hl], a
	pop bc
	; b: the plies, c: the next
	ld c, 0
.ply
	ld a, c
	cp b
	ret z
	push bc
	call MoveListRecord
	ASSERT MOVE_RECORD_FROM == 0 && MOVE_RECORD_TO == 1
	ld a, [hli]
	ld d, a
	ld [wLastMoveFrom], a
	ld e, [hl]
	ld a, e
	and MOVE_TO_SQUARE
	ld [wLastMoveTo], a
	ld hl, wMoveStack
	call PlayGameMove
	pop bc
	inc c
	jr .ply


;; B on the end screen: takes back (TakeBackInMenu), the game going on,
;; unless a flag fell.
;; @destroys af, bc, de, hl
TakeBackAtEnd::
	ld a, [wEnding]
	cp ENDING_TIME
	jr z, Refuse
	fallthrough TakeBackInMenu


;; The pause menu's TAKE BACK: takes back the last ply between two players,
;; or against the engine the player's last move (and the engine's after it,
;; if it has moved): the position, the move list, the marks and the clocks
;; become what they were before it (ShowGameAtPly, RestoreClocksAtPly), the
;; book may answer again (wInBook), the window closes, and the player's turn
;; begins. From the end screen the game goes on (the music again, no ending).
;; With nothing to take back, or a game too long to rebuild, it refuses.
;; @destroys af, bc, de, hl
TakeBackInMenu::
	ld a, [wPlyClocksLost]
	and a
	jr nz, RefuseTooLong
	; The plies to take back: 2 when the player is to move against the
	; engine (carry), 1 otherwise. wGameMode is the player's colour then, 2
	; or more between two players: the side to move xor it is 0 only then.
	ASSERT GAME_MODE_WHITE == COLOR_WHITE && GAME_MODE_BLACK == COLOR_BLACK
	ASSERT GAME_MODE_TWO_PLAYERS > (COLOR_WHITE | COLOR_BLACK)
	ld a, [wGameMode]
	ld b, a
	ldh a, [hSideToMove]
	xor b
	cp 1
	; a: the plies left
	ld a, [wMoveListCount]
	sbc 1
	jr c, .nothing
	; The ending goes first: on the end screen, wEnding 0 says that the game
	; is being rebuilt (the soak compares the board only once it is).
	; No score of the engine's for this position yet either: a draw offered
	; before its next search is declined. The position rebuilt may be one of
	; the book's again: the engine's turn looks it up (BookMove's miss takes
	; the game out of the book again).
	ld b, a
	xor a
	ld hl, wEnding
	ld [hli], a
	ASSERT wWinner == wEnding + 1 && wEngineScore == wWinner + 1
	inc hl
	ld [hli], a
	ld [hl], a
	inc a
	ld [wInBook], a
	ld a, b
	push af
	call ShowGameAtPly
	pop af
	call RestoreClocksAtPly
	ld a, [wGameState]
	cp STATE_OVER
	ld a, SONG_TITLE
	call z, PlaySong
	call CloseBoardWindow
	jp BeginTurn
.nothing
	ld de, NoTakeBackText
	jr Refuse


;; Refuses a take back or a replay of a game wPlyClocks could not keep: the
;; error sound, and in the menu GAME TOO LONG.
;; @destroys af, bc, de, hl
RefuseTooLong:
	ld de, GameTooLongText
	fallthrough Refuse


;; The error sound, and in the menu a message.
;; @param de: the message
;; @destroys af, bc, de, hl
Refuse:
	ld a, SFX_ERROR
	call PlaySoundEffect
	ld a, [wGameState]
	cp STATE_MENU
	ret nz
	jp ShowMenuMessage

NoTakeBackText:  db "NO MOVE TO TAKE BACK@"
GameTooLongText: db "GAME TOO LONG@"


;; The pause menu's REPLAY: the menu closes and the replay begins at the
;; game's position; B comes back to the game.
;; @destroys af, bc, de, hl
StartReplayInMenu::
	ld a, [wMenuReturnState]
	jr StartReplay


;; START or SELECT on the end screen: the replay begins at the game's last
;; position; B comes back to the end screen.
;; @destroys af, bc, de, hl
StartReplayAtEnd::
	ld a, STATE_OVER
	fallthrough StartReplay


;; Begins the replay at the game's current position (the clocks stay
;; stopped), or refuses for a game too long to rebuild.
;; @param a: the state to go back to
;; @destroys af, bc, de, hl
StartReplay:
	ld hl, wReplayReturnState
	ld [hld], a
	ASSERT wReplayPlies == wReplayReturnState - 1
	ld a, [wPlyClocksLost]
	and a
	jr nz, RefuseTooLong
	ld a, STATE_REPLAY
	ld [wGameState], a
	call CloseBoardWindow
	ld a, [wMoveListCount]
	ld [hl], a
	jr ShowReplayPly


;; STATE_REPLAY: left and right step a ply back and on, up goes to the start,
;; down to the end; B, START or SELECT end the replay.
;; @destroys af, bc, de, hl
UpdateReplay::
	call TakePadPressed
	ld b, a
	and PAD_B | PAD_START | PAD_SELECT
	jr nz, EndReplay
	; a: the ply shown, then the one to show; c: the last
	ld a, [wReplayPlies]
	ld c, a
	ld a, [wReplayPly]
	bit B_PAD_LEFT, b
	jr z, .notLeft
	sub 1
	ret c
	jr ShowReplayPly
.notLeft
	bit B_PAD_RIGHT, b
	jr z, .notRight
	cp c
	ret nc
	inc a
	jr ShowReplayPly
.notRight
	bit B_PAD_UP, b
	ld a, 0
	jr nz, ShowReplayPly
	bit B_PAD_DOWN, b
	ret z
	ld a, c
	fallthrough ShowReplayPly


;; Shows a position of the replay, which becomes its ply (wReplayPly): the
;; board, the move list up to it, the last move's marks without the selector,
;; and the status line: the move that made the position (START before the
;; first), and on the last row REPLAY and the keys.
;; @param a: the plies of the position
;; @destroys af, bc, de, hl
ShowReplayPly:
	ld [wReplayPly], a
	push af
	call ShowGameAtPly
	pop af
	and a
	ld de, ReplayStartText
	jr z, .gotMove
	dec a
	call FormatMoveEntry
	ld de, wMoveListText
.gotMove
	ld hl, wStatusText
	call CopyText
	ld de, ReplayKeysText
	call CopyText
	jp QueueStatusBuffer

ReplayStartText: db "START@"
ReplayKeysText:
	db TEXT_NEWLINE, TEXT_NEWLINE, TEXT_NEWLINE, "REPLAY: PAD  B: BACK@"


;; Ends the replay: the game's position again, and the state it began in: the
;; game goes on (BeginTurn: the clock of the side to move runs), or the end
;; screen shows again.
;; @destroys af, bc, de, hl
EndReplay:
	ld a, [wReplayPlies]
	call ShowGameAtPly
	ld a, [wReplayReturnState]
	cp STATE_OVER
	jp nz, BeginTurn
	ld [wGameState], a
	jp ShowEndingStatus


;; Shows the game's position after a number of plies: the engine's position
;; (ReplayGamePlies), the board, the move list up to it, the last move's marks;
;; no piece picked up (a mate's leaves wPickedSquare set), no selector. No
;; square is outlined then (every way to the end screen, the menu, clears
;; wOutlineCount).
;; @param a: the plies
;; @destroys af, bc, de, hl
ShowGameAtPly:
	call ReplayGamePlies
	ld a, b
	call ShowMoveListPlies
	xor a
	ld [wPickedSquare], a
	call DrawBoard
	call UpdateSquareMarks
	ld hl, wShadowOAM
	jp HideSquareObjects
