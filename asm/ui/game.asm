; The game played on the board screen: its position is the engine's (wBoard and
; the rest, loaded from the start setup), every move goes through PlayMove
; (PlayGameMove, then GameVerdict for the endings), each move's record goes to
; the move list (include/game_record.inc, ui/move_list.asm), which keeps the
; game's moves, the side to move's clock runs (ui/clock.asm), and the turns
; alternate between the players and the engine, whose search runs inside the
; board screen's update.
;
; While the search runs the main loop is busy for up to seconds, so what must
; stay live runs from the VBlank handler (GameVBlank): the thinking sign, the
; clocks' figures, and what stops the search: START or SELECT, a fallen flag,
; the CLOCK level's deadline. The status line (include/layout.inc) says whose
; move it is, check, and the ending.

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
INCLUDE "generated/engine/search.inc"


DEF STATUS_MAP EQU TILEMAP0 + STATUS_Y * TILEMAP_WIDTH + STATUS_X

; The thinking sign: a dot running through the four columns after
; "WHITE THINKING", a column every 8 frames.
DEF THINKING_SIGN_X EQU STATUS_X + 14
DEF THINKING_SIGN_FRAMES EQU %00011000

; The VRAM queue's free bytes GameVBlank needs to draw the clocks during a
; search: two entries of a header and m:ss.
DEF CLOCK_QUEUE_ROOM EQU 2 * (3 + 5)

; How the engine chose its move (wEngineMoveSource): its search ended, the
; book, the time guard's cap stopped the search (the CLOCK level's deadline
; too), or A did ("move now"). Exported for the tests and the cartridge match.
	const_def
	const ENGINE_MOVE_SEARCH
	const ENGINE_MOVE_BOOK
	const ENGINE_MOVE_GUARD
	const ENGINE_MOVE_NOW
EXPORT ENGINE_MOVE_SEARCH, ENGINE_MOVE_BOOK, ENGINE_MOVE_GUARD, ENGINE_MOVE_NOW

ASSERT ENDING_CHECKMATE == VERDICT_CHECKMATE
ASSERT ENDING_STALEMATE == VERDICT_STALEMATE
ASSERT ENDING_INSUFFICIENT_MATERIAL == VERDICT_INSUFFICIENT_MATERIAL
ASSERT ENDING_FIFTY_MOVES == VERDICT_FIFTY_MOVES
ASSERT ENDING_REPETITION == VERDICT_REPETITION


SECTION "Game state", WRAM0

; STATE_*: what the board screen's update does.
wGameState:: db
; ENDING_* once the game has ended; wWinner: COLOR_* or NO_WINNER.
wEnding:: db
wWinner:: db
; The engine's last search score (from its own view, signed): the engine
; accepts a draw when it is below 0.
wEngineScore:: dw
; The record of the move just played, for AppendMoveToList.
wMoveRecord: ds MOVE_RECORD_SIZE
; Frames left before the search must stop (StartSearch's deadline: the CLOCK
; level's, the time guard's cap of the others); 0 while there is none.
wThinkFramesLeft: dw
; The game's seed for the book's choices (BookMove), drawn from DIV as the
; game starts.
wBookSeed:: db
; Nonzero while the game is in the book: from its start until the book has
; no move for the engine (then the engine searches to the game's end).
wInBook:: db
; ENGINE_MOVE_*: how the engine chose the move it played last.
wEngineMoveSource:: db
; ENGINE_MOVE_SEARCH, or what stopped the search under way: ENGINE_MOVE_GUARD
; (its deadline) or ENGINE_MOVE_NOW (A).
wSearchEnd: db
; A status text being put together (QueueStatusText); also a row of the pause
; menu (ui/menu.asm): each is put together and queued at once.
wStatusText:: ds 48
; The status line's rows from its top that may show something: the last
; status text's, or all of them after QueueStatusString. The next status text
; blanks those below its own rows, and no others.
wStatusRows: db


SECTION "Game live", HRAM

; Nonzero while the board screen shows a game: the VBlank handler then calls
; GameVBlank.
hGameLive:: db
; Nonzero while the main loop is inside the engine's search, where it queues
; nothing: GameVBlank may then draw the clocks through the VRAM queue.
hSearching: db


SECTION "Game", ROM0

;; Starts a new game: the start position, the board the right way round for
;; the human (White at the bottom unless the human plays Black), no move yet,
;; and the first turn. Call from the board screen's set-up (LCD off).
;; @destroys af, bc, de, hl
StartGame::
	; The start position, its history and no last move: the game after no
	; ply (ui/take_back.asm).
	xor a
	call ReplayGamePlies
	call ResetMoveList
	xor a
	ld [wEngineScore], a
	ld [wEngineScore + 1], a
	ld [wThinkFramesLeft], a
	ld [wThinkFramesLeft + 1], a
	ldh [hSearching], a
	ld [wPlyClocksLost], a
	ld a, STATUS_HEIGHT
	ld [wStatusRows], a
	ldh a, [rDIV]
	ld [wBookSeed], a
	ld a, 1
	ld [wInBook], a
	call ResetClocks
	; The human's side at the bottom: GAME_MODE_BLACK turns the board round.
	ld a, [wGameMode]
	cp GAME_MODE_BLACK
	ld a, COLOR_BLACK
	jr z, .bottom
	ASSERT COLOR_WHITE == 0
	xor a
.bottom
	ld [wBoardBottomColor], a
	; The selector on the bottom-left square.
	xor a
	ld [wCursorColumn], a
	ld a, BOARD_RANKS - 1
	ld [wCursorRow], a
	fallthrough BeginTurn


;; Starts the turn of the side to move: a player's (STATE_HUMAN) or the
;; engine's (STATE_ENGINE), with its clock running, the status line saying
;; so, and the marks shown (no piece picked up).
;; @destroys af, bc, de, hl
BeginTurn::
	ldh a, [hSideToMove]
	ld [wClockSide], a
	xor a
	ld [wOutlineCount], a
	ld [wPickedSquare], a
	call UpdateSquareMarks
	; The engine plays the side that is not the human's: wGameMode is the
	; human's colour unless two people play.
	ASSERT GAME_MODE_WHITE == COLOR_WHITE && GAME_MODE_BLACK == COLOR_BLACK
	ld a, [wGameMode]
	ld b, a
	ldh a, [hSideToMove]
	cp b
	ld a, STATE_HUMAN
	jr z, .gotState
	ld a, b
	cp GAME_MODE_TWO_PLAYERS
	ld a, STATE_HUMAN
	jr z, .gotState
	ld a, STATE_ENGINE
.gotState
	ld [wGameState], a
	fallthrough ShowTurnStatus


;; Writes the status of the turn: WHITE TO MOVE (or WHITE THINKING on the
;; engine's turn, FINDING A HINT while a hint is searched for), and CHECK on
;; the next row when the side to move is in check.
;; @destroys af, bc, de, hl
ShowTurnStatus::
	ld hl, wStatusText
	ld a, [wGameState]
	ld b, a
	cp STATE_HINT
	ld de, HintSearchText
	jr z, .gotText
	ldh a, [hSideToMove]
	call CopySideName
	ld de, ToMoveText
	ld a, b
	cp STATE_ENGINE
	jr nz, .gotText
	ld de, ThinkingText
.gotText
	call CopyText
	push hl
	call IsInCheck
	pop hl
	jr nz, .notInCheck
	ld de, CheckText
	call CopyText
.notInCheck
	jr QueueStatusBuffer


;; Ends the game: the clocks stop, the menu (if open) closes, the status line
;; says how and who won (and, on its last rows, the keys of the end screen),
;; the selector goes, the game-over jingle plays, and the board screen waits
;; for a key (UpdateGameOver).
;; The presses still queued are dropped: they were made for the game (during
;; the engine's search, say), and an A among them would leave the result
;; before the player has seen it.
;; @param a: the ending (ENDING_*)
;; @param b: the winner (COLOR_*), or NO_WINNER
;; @destroys af, bc, de, hl
EndGame::
	ld [wEnding], a
.dropPresses
	; A queued entry is never 0: 0 is the empty queue's answer.
	call TakePadPressed
	and a
	jr nz, .dropPresses
	ld a, b
	ld [wWinner], a
	ld a, STATE_OVER
	ld [wGameState], a
	ld a, CLOCK_STOPPED
	ld [wClockSide], a
	ldh a, [hLCDC]
	and LOW(~LCDC_WIN_ON)
	ldh [hLCDC], a
	ld a, SFX_GAME_OVER
	call PlaySoundEffect
	call HidePointer
	ld hl, wShadowOAM
	call HideSquareObjects
	fallthrough ShowEndingStatus


;; Writes the end screen's status line: the ending's words (wEnding), who won
;; (wWinner), and what to press: B to take back (not after a fallen flag), A
;; for a new game.
;; @destroys af, bc, de, hl
ShowEndingStatus::
	ld a, [wEnding]
	dec a
	add a
	add LOW(EndingTexts)
	ld l, a
	adc HIGH(EndingTexts)
	sub l
	ld h, a
	ld a, [hli]
	ld d, [hl]
	ld e, a
	ld hl, wStatusText
	call CopyText
	ld a, [wWinner]
	cp NO_WINNER
	jr z, .noWinner
	ld [hl], TEXT_NEWLINE
	inc hl
	call CopySideName
	ld de, WinsText
	call CopyText
.noWinner
	call QueueStatusBuffer
	ld a, [wEnding]
	cp ENDING_TIME
	jr z, .noTakeBack
	ld de, TakeBackKeyText
	ld hl, TILEMAP0 + (STATUS_Y + STATUS_HEIGHT - 2) * TILEMAP_WIDTH + STATUS_X
	call QueueStatusString
.noTakeBack
	ld de, NewGameText
	ld hl, TILEMAP0 + (STATUS_Y + STATUS_HEIGHT - 1) * TILEMAP_WIDTH + STATUS_X
	fallthrough QueueStatusString


;; Queues a string onto a row of the status line, over what the row shows
;; (QueueString); the next status text (QueueStatusText) blanks it.
;; @param de: the string
;; @param hl: its tile map address, on the status line
;; @return de: just past its TEXT_END
;; @destroys af, bc, hl
QueueStatusString::
	ld a, STATUS_HEIGHT
	ld [wStatusRows], a
	jp QueueString


;; Queues wStatusText, ended at hl, as the status line (QueueStatusText).
;; @param hl: where the text's TEXT_END goes
;; @destroys af, bc, de, hl
QueueStatusBuffer::
	ld [hl], TEXT_END
	ld de, wStatusText
	fallthrough QueueStatusText


;; Replaces the status line with a text: its rows are separated by
;; TEXT_NEWLINE, the last ends with TEXT_END; the rest is blank. Through the
;; VRAM queue, a row an entry: each of the text's rows padded with blanks to
;; the line's width, then a blank row for each row below them that may show
;; something (wStatusRows), and nothing for the others.
;; @param de: the text
;; @destroys af, bc, de, hl
QueueStatusText::
	ld hl, STATUS_MAP
	; b: the rows queued so far
	ld b, 0
.row
	; c: the row's length
	push de
	ld c, -1
.count
	inc c
	ld a, [de]
	inc de
	cp TEXT_NEWLINE
	jr z, .counted
	cp TEXT_END
	jr nz, .count
.counted
	pop de
	push af
	push bc
	push hl
	ld b, STATUS_WIDTH
	call QueuePaddedTiles
	pop hl
	pop bc
	pop af
	inc b
	; past the row's end
	inc de
	push de
	ld de, TILEMAP_WIDTH
	add hl, de
	pop de
	cp TEXT_END
	jr nz, .row
	; c: the rows that may show something, from now on the text's b
	ld a, [wStatusRows]
	ld c, a
	ld a, b
	ld [wStatusRows], a
.blankRow
	ld a, b
	cp c
	ret nc
	push bc
	push hl
	ld c, STATUS_WIDTH
	ld a, TILE_BLANK
	call QueueFill
	pop hl
	ld bc, TILEMAP_WIDTH
	add hl, bc
	pop bc
	inc b
	jr .blankRow


;; Copies a text up to its TEXT_END (which is not copied).
;; @param de: the text
;; @param hl: where to
;; @return hl: just past the last character copied
;; @destroys af, de
CopyText::
	ld a, [de]
	cp TEXT_END
	ret z
	ld [hli], a
	inc de
	jr CopyText


;; Copies WHITE or BLACK (CopyText).
;; @param a: the colour
;; @param hl: where to
;; @return hl: just past it
;; @destroys af, de
CopySideName:
	ld de, WhiteText
	and a
	jr z, CopyText
	ld de, BlackText
	jr CopyText

; A text of the status line: \1 how many characters stand before its first
; row on that row (0, or the longest side's name before the words after it),
; \2 that row and \3, if given, the next; TEXT_NEWLINE between them, TEXT_END
; after. Each row must fit the status line's width: QueueStatusText pads a
; row to STATUS_WIDTH (QueuePaddedTiles) and has no room for more.
MACRO status_text
	ASSERT (\1) + STRLEN(\2) <= STATUS_WIDTH, "the status row \2, with \1 characters before it, is wider than the status line (STATUS_WIDTH characters)"
	IF _NARG > 2
		ASSERT STRLEN(\3) <= STATUS_WIDTH, "the status row \3 is wider than the status line (STATUS_WIDTH characters)"
		db \2, TEXT_NEWLINE, \3, "@"
	ELSE
		db \2, "@"
	ENDC
ENDM

; A side's name, before TO MOVE, THINKING or WINS on its row.
MACRO side_name
	status_text 0, \1
	IF STRLEN(\1) > longest_side_name
		DEF longest_side_name = STRLEN(\1)
	ENDC
ENDM

DEF longest_side_name = 0
WhiteText:     side_name "WHITE"
BlackText:     side_name "BLACK"
ToMoveText:    status_text longest_side_name, " TO MOVE"
ThinkingText:  status_text longest_side_name, " THINKING"
; As long as WHITE THINKING: the thinking sign runs on after it.
HintSearchText: status_text 0, "FINDING A HINT"
	ASSERT STRLEN("FINDING A HINT") == THINKING_SIGN_X - STATUS_X
; (on the row after the turn's)
CheckText:     db TEXT_NEWLINE
	status_text 0, "CHECK"
WinsText:      status_text longest_side_name, " WINS"
NewGameText:   status_text 0, "A: NEW GAME"

; The words of each ending, ENDING_CHECKMATE first (the winner, if any, on
; the row after them).
EndingTexts:
	dw .checkmate, .stalemate, .material, .fiftyMoves, .repetition
	dw .time, .resigned, .agreement
	assert_table_length EndingTexts, NUM_ENDINGS - 1, 2
.checkmate:  status_text 0, "CHECKMATE"
.stalemate:  status_text 0, "STALEMATE", "DRAW"
.material:   status_text 0, "DRAW BY INSUFFICIENT", "MATERIAL"
.fiftyMoves: status_text 0, "DRAW BY FIFTY MOVES"
.repetition: status_text 0, "DRAW BY REPETITION"
.time:       status_text 0, "TIME"
.resigned:   status_text 0, "RESIGNED"
.agreement:  status_text 0, "DRAW BY AGREEMENT"


;; Plays the move the last search found (wSearchBestMove, RunSearch) as
;; PlayMove does.
;; @destroys af, bc, de, hl
PlayFoundMove::
	ld a, [wSearchBestMove]
	ld d, a
	ld a, [wSearchBestMove + 1]
	ld e, a
	fallthrough PlayMove


;; Plays a move of the game (a legal one): stops the mover's clock and keeps
;; its time (ui/take_back.asm), makes it on the engine's board, redraws what
;; it changed there (queued before the rest, so that it shows first), records
;; it for the move list, marks it as the last move, sounds it, and ends the
;; game or starts the next turn.
;; @param d: from square; e: to byte (with the promotion bits)
;; @destroys af, bc, de, hl
PlayMove::
	; The mover's clock stops, and its time is kept for a take back.
	call RecordPlyClock
	; b: the piece that moves, c: its MOVE_FLAG_*, read before the move
	ld h, HIGH(wBoard)
	ld l, d
	ld b, [hl]
	ld a, e
	and MOVE_TO_SQUARE
	ld l, a
	ld a, [hl]
	and a
	ld c, 0
	jr z, .notCapture
	ld c, MOVE_FLAG_CAPTURE
.notCapture
	ld a, b
	and ROLE_MASK
	cp ROLE_KING
	jr nz, .notKing
	; The king's only two-file step is the castle.
	ld a, d
	sub l
	cp 2
	jr nz, .flagsDone
	ld c, MOVE_FLAG_CASTLE
	jr .flagsDone
.notKing
	cp ROLE_PAWN
	jr nz, .flagsDone
	; A pawn reaching the en-passant square takes en passant.
	ldh a, [hEpSquare]
	cp l
	jr nz, .notEnPassant
	ld c, MOVE_FLAG_CAPTURE | MOVE_FLAG_EN_PASSANT
.notEnPassant
	ld a, l
	jump_unless_last_rank jr, .flagsDone, ROW_RANK_6
	set B_MOVE_FLAG_PROMOTION, c
.flagsDone

	ld a, d
	ld [wLastMoveFrom], a
	ld a, l
	ld [wLastMoveTo], a
	push bc
	push de
	ld hl, wMoveStack
	call PlayGameMove
	; The board first, before the verdict and the move list, so that the move
	; shows as soon as the VRAM queue allows; only what it changes
	; (DrawMovedBoard).
	pop de
	pop bc
	push bc
	push de
	ld a, c
	call DrawMovedBoard
	ld hl, wMoveStack
	call GameVerdict
	; a: the verdict; b: 1 if the move gives check
	pop de
	pop hl
	; h: the piece, l: the flags so far
	ld c, a
	dec b
	jr nz, .notCheck
	set B_MOVE_FLAG_CHECK, l
	cp VERDICT_CHECKMATE
	jr nz, .notCheck
	set B_MOVE_FLAG_MATE, l
.notCheck
	push bc
	push hl
	call RecordMove
	pop hl
	pop bc
	; The verdict in c: the game goes on, or ends.
	ld a, c
	ASSERT VERDICT_ONGOING == 0
	and a
	jr nz, .over
	; The sound: check, a capture, or a plain move.
	ld a, SFX_CHECK
	bit B_MOVE_FLAG_CHECK, l
	jr nz, .sound
	ld a, SFX_CAPTURE
	bit B_MOVE_FLAG_CAPTURE, l
	jr nz, .sound
	ld a, SFX_MOVE
.sound
	call PlaySoundEffect
	jp BeginTurn
.over
	; Checkmate: the side that moved wins; the other verdicts are draws.
	ld b, NO_WINNER
	cp VERDICT_CHECKMATE
	jr nz, .draw
	ldh a, [hSideToMove]
	xor 1
	ld b, a
	ld a, c
.draw
	jp EndGame


;; Hands a move's record (include/game_record.inc) to the move list, which
;; keeps the game's moves.
;; @param d: from square; e: to byte
;; @param h: the piece that moved; l: its MOVE_FLAG_*
;; @destroys af, bc, de, hl
RecordMove:
	ASSERT MOVE_RECORD_FROM == 0 && MOVE_RECORD_TO == 1
	ASSERT MOVE_RECORD_PIECE == 2 && MOVE_RECORD_FLAGS == 3
	ld a, l
	ld [wMoveRecord + MOVE_RECORD_FLAGS], a
	ld a, h
	ld [wMoveRecord + MOVE_RECORD_PIECE], a
	ld hl, wMoveRecord
	ld a, d
	ld [hli], a
	ld [hl], e
	dec hl
	jp AppendMoveToList


;; The engine's turn, run by the board screen's update: the search runs (the
;; update takes as long as it thinks) and its move is played, unless a START
;; or SELECT waits in the press queue (home/joypad.asm), or comes during the
;; search, which it stops at once: then the menu opens, and the engine thinks
;; again when it closes.
;;
;; The presses the player makes while the engine thinks wait in the queue, in
;; the order made. When the search ends with its move they act on the
;; player's turn that follows, one a frame, as if the player had waited for
;; it: the control pad moves the selector a square a press, A picks up, B
;; puts back (so a player can aim while the engine thinks). When a START or
;; SELECT has stopped the search, the presses made before it act first, on
;; this turn, where only the selector can follow them (A and B have nothing
;; to pick up or put back on the engine's turn), and then the pause opens the
;; menu; the presses made after it act in the menu. So the presses keep
;; their order, and none is saved up past a pause, whose menu takes the
;; player's mind off the board: after RESUME the engine thinks again and the
;; player's turn starts from what the screen shows.
;;
;; In the first plies the book (BookMove, engine/book.asm) may have a move
;; for the position: it is played at once, with no search; once it has none,
;; the game has left the book (wInBook) and is not looked up again. Otherwise
;; the search has the level's depth, and its deadline is the time guard's cap
;; (LevelCapFrames; for CLOCK its share of the time left): when the cap is
;; reached, or A is pressed during the search ("move now", GameVBlank), the
;; move of the last finished iteration is played (the search's first ordered
;; move when none has finished); the presses queued before that A act on this
;; turn, and the A is spent (SpendMoveNowPress). wEngineMoveSource says which
;; of these chose the move.
;;
;; The search is StartSearch, RunSearch and PlayFoundMove, which a hint can
;; use too; only the engine's turn keeps the score in wEngineScore, which the
;; draw offer reads.
;; @destroys af, bc, de, hl
UpdateEngineTurn::
	; hSearchStop is cleared before the queue is looked at: a START or SELECT
	; pressed after the look stops the search at once (GameVBlank).
	xor a
	ldh [hSearchStop], a
	call PadQueuedPresses
	and PAD_START | PAD_SELECT
	jr z, .think
	call TakePadPressed
	ld b, a
	and PAD_START | PAD_SELECT
	jp nz, OpenMenu
	ld a, b
	jp MoveBoardCursor

.think
	; The book first, while the game is in it: its move is played at once.
	ld hl, wInBook
	ld a, [hl]
	and a
	jr z, .search
	ld [hl], 0
	ld a, [wBookSeed]
	ld b, a
	ld a, [wMoveListCount]
	call BookMove
	jr nc, .search
	ld a, 1
	ld [wInBook], a
	ld a, ENGINE_MOVE_BOOK
	ld [wEngineMoveSource], a
	jp PlayMove
.search
	; The level's depth and deadline: the time guard's cap; for CLOCK, the
	; deepest, until its share of the time left.
	ld a, [wGameLevel]
	call StartLevelSearch
	call RunSearch
	; Stopped by a fallen flag (the board screen's next update ends the game)
	; or by a key (the move found is dropped, and the next frames reach the
	; pause in the queue, above).
	ret nz
	ld a, [wSearchEnd]
	ld [wEngineMoveSource], a
	cp ENGINE_MOVE_NOW
	call z, SpendMoveNowPress
	ld a, [wSearchScore]
	ld [wEngineScore], a
	ld a, [wSearchScore + 1]
	ld [wEngineScore + 1], a
	jp PlayFoundMove

;; Starts a search of the position for the side to move at a level
;; (StartSearch): the level's depth, until the time guard's cap (LevelCapFrames);
;; for CLOCK, the deepest, until its deadline, a share of the side to move's
;; clock (ClockLevelThinkFrames). The engine's turn searches so.
;; @param a: the level (LEVEL_*)
;; @destroys af, bc, de, hl
StartLevelSearch::
	ld c, a
	ld b, 0
	ld hl, LevelCapFrames
	add hl, bc
	add hl, bc
	ld a, [hli]
	ld h, [hl]
	ld l, a
	jr StartSearchBy

;; StartLevelSearch without the time guard: the level's whole depth (CLOCK
;; as StartLevelSearch). A hint (ui/hint.asm) searches so: the player asked
;; for the level's move, and START or SELECT stops it.
;; @param a: the level (LEVEL_*)
;; @destroys af, bc, de, hl
StartUncappedLevelSearch::
	ld c, a
	ld b, 0
	ld hl, 0
	fallthrough StartSearchBy

;; @param c: the level; b: 0; hl: the deadline (0: none) unless CLOCK
StartSearchBy:
	push hl
	ld hl, LevelSearches
	add hl, bc
	add hl, bc
	add hl, bc
	ld a, [hli]
	ld e, a
	ld a, [hli]
	ld d, a
	ld b, [hl]
	pop hl
	ld a, c
	cp LEVEL_CLOCK
	jr nz, .gotDeadline
	ldh a, [hSideToMove]
	push de
	call ClockLevelThinkFrames
	pop de
.gotDeadline
	ld a, e
	jp StartSearch

; The search of each level (LEVEL_*): its depth (CLOCK deepens to the deepest,
; until its deadline), the plies whose quiescence nodes search checks
; (search::Level::check_plies) and the least depth that reduces its late
; moves (search::Level::reduce_depth).
LevelSearches:
	db LEVEL_DEPTH_EASY, LEVEL_CHECK_PLIES_EASY, LEVEL_REDUCE_DEPTH_EASY
	db LEVEL_DEPTH_MEDIUM, LEVEL_CHECK_PLIES_MEDIUM, LEVEL_REDUCE_DEPTH_MEDIUM
	db LEVEL_DEPTH_HARD, LEVEL_CHECK_PLIES_HARD, LEVEL_REDUCE_DEPTH_HARD
	db MAX_SEARCH_DEPTH, 0, LMR_DEPTH
	assert_table_length LevelSearches, NUM_LEVELS, 3
	ASSERT LEVEL_EASY == 0 && LEVEL_MEDIUM == 1 && LEVEL_HARD == 2 && LEVEL_CLOCK == 3


SECTION "Game engine turn", ROMX

; The time guard's cap of each level in frames (CLOCK's deadline is
; ClockLevelThinkFrames').
LevelCapFrames:
	dw LEVEL_CAP_FRAMES_EASY, LEVEL_CAP_FRAMES_MEDIUM, LEVEL_CAP_FRAMES_HARD, 0
	assert_table_length LevelCapFrames, NUM_LEVELS, 2


;; After A stopped the search ("move now"): the presses queued up to that A
;; act on this turn (only the selector can follow them, as before a pause),
;; and the A is spent, so that it does not pick up a piece on the player's
;; turn.
;; @destroys af, bc, de, hl
SpendMoveNowPress:
	call TakePadPressed
	and a
	ret z
	push af
	call MoveBoardCursor
	pop af
	and PAD_A
	jr z, SpendMoveNowPress
	ret


SECTION "Game search", ROM0


;; The frames the CLOCK level's search may take (the model's
;; clock_level_frames, engine-src/src/search.rs): CLOCK_LEVEL_FRAMES_PER_SECOND_LEFT
;; for each second left on a side's clock, and CLOCK_LEVEL_EXTRA_FRAMES.
;; @param a: the side (COLOR_*) whose clock it is
;; @return hl: the frames
;; @destroys af, de
ClockLevelThinkFrames:
	call ReadClockSeconds
	ld d, h
	ld e, l
	ASSERT CLOCK_LEVEL_FRAMES_PER_SECOND_LEFT == 3
	add hl, hl
	add hl, de
	ld de, CLOCK_LEVEL_EXTRA_FRAMES
	add hl, de
	ret


;; Starts a search of the position for the side to move, to a depth, with
;; every stop armed: the thinking sign shows (GameVBlank moves it and draws
;; the clocks until RunSearch ends), a START or SELECT or a fallen flag stops
;; it (GameVBlank), and so does the deadline when there is one. The caller
;; clears hSearchStop before it last looks at the press queue, so that a
;; START or SELECT pressed after the look stops the search at once.
;; @param a: the depth, 1 to MAX_SEARCH_DEPTH
;; @param d: the plies whose quiescence nodes search checks (wSearchCheckPlies)
;; @param b: the least depth that reduces its late moves (wSearchReduceDepth)
;; @param hl: the deadline in frames (counted down by GameVBlank), or 0 for none
;; @destroys af, bc, hl
StartSearch::
	ld [wSearchDepth], a
	ld a, d
	ld [wSearchCheckPlies], a
	ld a, b
	ld [wSearchReduceDepth], a
	ld a, l
	ld [wThinkFramesLeft], a
	ld a, h
	ld [wThinkFramesLeft + 1], a
	ld hl, wSearchNodeBudget
	ld a, $FF
	REPT 4
		ld [hli], a
	ENDR
	ASSERT ENGINE_MOVE_SEARCH == 0
	xor a
	ld [wSearchEnd], a
	; The thinking sign's row and glyph; GameVBlank moves it.
	lb bc, STATUS_Y, THINKING_SIGN_X
	ld a, '.'
	call SetPointer
	ld a, 1
	ldh [hSearching], a
	ret


;; Runs the search StartSearch started to its end (the update takes as long
;; as it thinks), then disarms its deadline and hides the thinking sign. Its
;; result is the search's: the move in wSearchBestMove, the score (the side to
;; move's view) in wSearchScore (engine/search.asm).
;; @return z: the result stands; nz: a fallen flag, or a START or SELECT (now
;; in the press queue), stopped the search, whose result is to be dropped
;; @destroys af, bc, de, hl
RunSearch::
	call SearchBestMove
	xor a
	ldh [hSearching], a
	ld [wThinkFramesLeft], a
	ld [wThinkFramesLeft + 1], a
	; The VBlank handler copies the shadow OAM every frame again.
	ld a, HIGH(wShadowOAM)
	ldh [hOAMSource], a
	call HidePointer
	ld a, [wFlagFell]
	and a
	ret nz
	call PadQueuedPresses
	and PAD_START | PAD_SELECT
	ret


;; The game's part of the VBlank handler, called while hGameLive is set, also
;; while the main loop is inside the engine's search: a fallen flag, START or
;; SELECT pressed in this frame (one pressed before the search began is seen
;; in the queue by UpdateEngineTurn), and the CLOCK level's deadline stop the
;; search (hSearchStop, which is also set outside a search and is harmless
;; there: UpdateEngineTurn clears it before each), and so does A pressed during
;; the engine's search (wSearchEnd says which of A and the deadline stopped
;; it); during the search the thinking sign moves and the clocks are drawn
;; (the main loop, which draws them otherwise, is busy). It writes
;; no VRAM itself. (DrawClocks reads the clocks with interrupts held off and
;; enables them again, inside this handler: only the STAT interrupt at line 1,
;; which plays the music, can then come in. After a full VRAM queue the
;; handler may still be running then, and the STAT handler nests inside it;
;; that is safe: it saves every register it uses, and the stack has room for
;; both handlers above the search's frames.)
;; @param b: this frame's new presses (ReadJoypad)
;; @destroys af, bc, de, hl
GameVBlank::
	ld a, [wFlagFell]
	and a
	jr nz, .stop
	ld a, b
	and PAD_START | PAD_SELECT
	jr nz, .stop
	ldh a, [hSearching]
	and a
	ret z
	; A on the engine's turn: move now.
	ld c, ENGINE_MOVE_NOW
	bit B_PAD_A, b
	jr z, .notMoveNow
	ld a, [wGameState]
	cp STATE_ENGINE
	jr z, .stopFor
.notMoveNow
	ldh a, [hFrameCounter]
	and THINKING_SIGN_FRAMES
	add THINKING_SIGN_X * TILE_WIDTH + OAM_X_OFS
	ld hl, wShadowOAM + POINTER_OBJ * OBJ_SIZE + OAMA_X
	cp [hl]
	ld [hl], a
	; The next VBlank copies the shadow OAM only if the sign has moved: in
	; seven frames of eight the search has the copy's cycles (nothing else
	; changes the shadow OAM during the search).
	ld a, HIGH(wShadowOAM)
	jr nz, .signMoved
	xor a
.signMoved
	ldh [hOAMSource], a
	; The clocks, when the queue has room for them: a producer must not wait
	; in here. (The main loop queues nothing during the search.)
	ld hl, hVramQueueRead
	ldh a, [hVramQueueWrite]
	cpl
	add [hl]
	cp CLOCK_QUEUE_ROOM
	call nc, DrawClocks
	; The deadline, counted down while it is not 0.
	ld hl, wThinkFramesLeft
	ld a, [hli]
	or [hl]
	ret z
	dec hl
	ld a, [hl]
	sub 1
	ld [hli], a
	ld a, [hl]
	sbc 0
	ld [hld], a
	or [hl]
	ret nz
	ld c, ENGINE_MOVE_GUARD
.stopFor
	ld a, c
	ld [wSearchEnd], a
.stop
	ld a, 1
	ldh [hSearchStop], a
	ret


;; Shows the pointer object (the menu's arrow, the promotion's, the thinking
;; sign) on a tile of the screen.
;; @param a: its tile (a glyph: ">" or ".")
;; @param b: the tile row; c: the tile column
;; @destroys af, hl
SetPointer::
	ld hl, wShadowOAM + POINTER_OBJ * OBJ_SIZE + OAMA_TILEID
	ld [hld], a
	ld a, c
	ASSERT TILE_WIDTH == 8 && TILE_HEIGHT == 8
	add a
	add a
	add a
	add OAM_X_OFS
	ld [hld], a
	ld a, b
	add a
	add a
	add a
	add OAM_Y_OFS
	ld [hl], a
	ret


;; Hides the pointer object.
;; @destroys a
HidePointer::
	xor a
	ld [wShadowOAM + POINTER_OBJ * OBJ_SIZE + OAMA_Y], a
	ret


; The start position in the setup format (engine.inc): a1 ... e1, a2 ... e6,
; White to move, both long castles, no en-passant square, no halfmove.
StartSetup::
	db SETUP_ROOK, SETUP_KNIGHT, SETUP_BISHOP, SETUP_QUEEN, SETUP_KING
	db SETUP_PAWN, SETUP_PAWN, SETUP_PAWN, SETUP_PAWN, SETUP_PAWN
	ds BOARD_FILES * 2, 0
	FOR I, BOARD_FILES
		db SETUP_BLACK | SETUP_PAWN
	ENDR
	db SETUP_BLACK | SETUP_ROOK, SETUP_BLACK | SETUP_KNIGHT, SETUP_BLACK | SETUP_BISHOP
	db SETUP_BLACK | SETUP_QUEEN, SETUP_BLACK | SETUP_KING
	db COLOR_WHITE, CASTLE_WHITE | CASTLE_BLACK, $FF, 0
	assert_table_length StartSetup, SETUP_SIZE, 1
