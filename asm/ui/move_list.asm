; The move list: the game's moves in the notation of docs/rules.md, shown in
; the board screen's panel (include/layout.inc: MOVE_LIST_WIDTH columns by
; MOVE_LIST_HEIGHT rows), the newest entry at the bottom once the list is
; longer than the panel, and scrollable for the end screen.
;
; Entries are written whole, as the rules write them: `1.Pb2-b3`,
; `1...Pb5-b4`, `5.O-O-O`, `12.Pb5-b6=Q+`, `12...Qd6xa3#`. An entry that fits
; the panel's width (9) takes one row; a longer one takes two, broken at the
; only place the notation has a natural break, after the move number and its
; dots: `12...` on the first row, `Qd6xa3#` on the second. Both parts always
; fit a row (the number part is at most 6 characters, `128...`; the move at
; most 9, `Pb2xa1=Q#`), so no entry is ever cut, and reading its rows one
; after the other gives back the notation exactly. Most of White's entries
; take one row (`9.Nb1-c3`, `10.Pb2-b3`), most of Black's two, which keeps
; the rows short enough to read at a glance rather than packing two entries
; into a row, which the panel is too narrow for.
;
; The list keeps its own copy of each move's record (include/game_record.inc)
; in WRAM, so that it can draw any part of the game again when it scrolls: at
; most MAX_GAME_MOVES plies (255, 128 numbered moves, 1,020 bytes); after that
; the list stops growing (AppendMoveToList ignores the move) while the game
; goes on.
;
; Drawing builds each panel row in WRAM and queues it (QueueTiles) only when
; it differs from what the panel shows, so an entry added while the list is
; shorter than the panel costs only its own rows; when the list scrolls every
; row changes (11 entries of 9 tiles, two VBlanks of the queue).

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"
INCLUDE "include/charmap.inc"
INCLUDE "include/chess.inc"
INCLUDE "include/layout.inc"
INCLUDE "include/game_record.inc"
INCLUDE "engine/engine.inc"


DEF MOVE_LIST_MAP EQU TILEMAP0 + MOVE_LIST_Y * TILEMAP_WIDTH + MOVE_LIST_X

; In a record's flags, as the list keeps it: the entry takes two rows.
DEF B_MOVE_FLAG_TWO_ROWS EQU 7
; Exported for the cartridge tests, which read it by name from the .sym file.
EXPORT B_MOVE_FLAG_TWO_ROWS
ASSERT (MOVE_FLAG_CAPTURE | MOVE_FLAG_PROMOTION | MOVE_FLAG_CASTLE | MOVE_FLAG_EN_PASSANT | MOVE_FLAG_CHECK | MOVE_FLAG_MATE) & (1 << B_MOVE_FLAG_TWO_ROWS) == 0

; The longest entry: 3 digits, "...", a move of 6, "=Q", "#".
DEF MAX_NUMBER_PART   EQU 3 + 3
DEF MAX_MOVE_PART     EQU 6 + 2 + 1
DEF MAX_ENTRY_LENGTH  EQU MAX_NUMBER_PART + MAX_MOVE_PART
ASSERT MAX_GAME_MOVES / 2 + 1 < 1000, "a move number has at most 3 digits"
ASSERT MAX_NUMBER_PART <= MOVE_LIST_WIDTH && MAX_MOVE_PART <= MOVE_LIST_WIDTH, "an entry's two rows must each fit the panel"
ASSERT MAX_GAME_MOVES <= $FF, "plies are counted in a byte"

; The font's letters and digits run in order (assets/font.png).
ASSERT 'e' - 'a' == 4 && '9' - '0' == 9


SECTION "Move list records", WRAM0

; One record per ply (MOVE_RECORD_SIZE bytes, include/game_record.inc),
; White's first move first; flags with B_MOVE_FLAG_TWO_ROWS added.
wMoveListRecords:
	ds MAX_GAME_MOVES * MOVE_RECORD_SIZE


SECTION "Move list state", WRAM0

; Plies in the list.
wMoveListCount:: db
; Rows the whole list takes (16 bits).
wMoveListRows: dw
; The list's row shown at the top of the panel (16 bits), from 0 to
; wMoveListRows - MOVE_LIST_HEIGHT (or 0 while the list fits the panel).
wMoveListTop:: dw
; While drawing: the entry of the panel row being built, and which of its
; rows (0 or 1).
wMoveListEntry: db
wMoveListPart: db
; What the panel shows (or will once the VRAM queue has copied it), row by row.
wMoveListShown:
	ds MOVE_LIST_WIDTH * MOVE_LIST_HEIGHT
; The panel row being built.
wMoveListLine:
	ds MOVE_LIST_WIDTH
; The entry being written, ending in TEXT_END.
wMoveListText::
	ds MAX_ENTRY_LENGTH + 1


SECTION "Move list", ROM0

;; Empties the list. Draws nothing: call it with the panel blank, as the
;; board screen's set-up does after clearing the tile map (with the LCD off,
;; when a queue of blank rows would only hold up the screen's own changes).
;; @destroys af, bc, hl
ResetMoveList::
	xor a
	ld hl, wMoveListCount
	ld [hli], a
	ld [hli], a
	ld [hli], a
	ASSERT wMoveListTop == wMoveListRows + 2
	ld [hli], a
	ld [hli], a
	ld hl, wMoveListShown
	ld bc, MOVE_LIST_WIDTH * MOVE_LIST_HEIGHT
	ld a, TILE_BLANK
	jp Memset


;; Adds a played move to the list and shows the list's end, the new entry
;; on the panel's bottom row (or below the last entry while the list is
;; shorter than the panel). Beyond MAX_GAME_MOVES plies it does nothing.
;; @param hl: the move's record (MOVE_RECORD_SIZE bytes, include/game_record.inc:
;; from square, to byte, moving piece, MOVE_FLAG_*); the list copies it
;; @destroys af, bc, de, hl
AppendMoveToList::
	ld a, [wMoveListCount]
	cp MAX_GAME_MOVES
	ret nc
	push hl
	call MoveListRecord
	ld d, h
	ld e, l
	pop hl
	ASSERT MOVE_RECORD_SIZE == 4
	REPT MOVE_RECORD_SIZE
		ld a, [hli]
		ld [de], a
		inc de
	ENDR
	; Written out, does it fit a row?
	ld a, [wMoveListCount]
	call FormatMoveEntry
	ld hl, wMoveListCount
	inc [hl]
	ld hl, wMoveListRows
	ld a, b
	cp MOVE_LIST_WIDTH + 1
	jr c, .oneRow
	; two rows: mark the record's flags, and count the extra row
	ld a, [de]
	set B_MOVE_FLAG_TWO_ROWS, a
	ld [de], a
	inc [hl]
	jr nz, .oneRow
	inc hl
	inc [hl]
	dec hl
.oneRow
	inc [hl]
	jr nz, .counted
	inc hl
	inc [hl]
.counted
	fallthrough ShowMoveListEnd


;; Scrolls the list to its end (its last row at the panel's bottom, or the
;; top row while the list fits the panel) and draws it.
;; @destroys af, bc, de, hl
ShowMoveListEnd:
	; The top row that shows the list's end: rows - MOVE_LIST_HEIGHT, or 0.
	ld hl, wMoveListRows
	ld a, [hli]
	sub MOVE_LIST_HEIGHT
	ld c, a
	ld a, [hli]
	sbc 0
	jr nc, .gotTop
	xor a
	ld c, a
.gotTop
	ASSERT wMoveListTop == wMoveListRows + 2
	ld [hl], c
	inc hl
	ld [hl], a
	jr DrawMoveList


;; Scrolls the list one row, within its ends (the first row at the top of the
;; panel; the last at its bottom), and draws it if it moved.
;; @param a: +1 to show a later row (down the list), -1 ($FF) an earlier one
;; (by its sign: any other value moves one row the same way)
;; @destroys af, bc, de, hl
ScrollMoveList::
	ld hl, wMoveListTop
	ld e, [hl]
	inc hl
	ld d, [hl]
	bit 7, a
	jr z, .down
	; up: not above the first row
	ld a, d
	or e
	ret z
	dec de
	jr .moved
.down
	; down: de + 1 must stay at most rows - MOVE_LIST_HEIGHT
	inc de
	ld hl, wMoveListRows
	ld a, [hli]
	sub MOVE_LIST_HEIGHT
	ld c, a
	ld a, [hl]
	sbc 0
	ret c
	ld b, a
	; bc: the lowest top; de may not exceed it
	ld a, c
	sub e
	ld a, b
	sbc d
	ret c
.moved
	ld hl, wMoveListTop
	ld [hl], e
	inc hl
	ld [hl], d
	fallthrough DrawMoveList


;; Draws the panel from the list's row wMoveListTop on: each row that differs
;; from what the panel shows goes through the VRAM queue (call with
;; interrupts enabled when the LCD is on).
;; @destroys af, bc, de, hl
DrawMoveList:
	; Find the entry and part of the top row: walk the entries from the first,
	; taking off each one's rows. b: the entry; de: the rows still to walk.
	ld hl, wMoveListTop
	ld e, [hl]
	inc hl
	ld d, [hl]
	ld hl, wMoveListRecords + MOVE_RECORD_FLAGS
	ld b, 0
.walk
	ld a, [wMoveListCount]
	cp b
	jr z, .found
	ld a, d
	or e
	jr z, .found
	; one row for the entry, or two: its whole if de >= 2, else its 2nd row
	dec de
	bit B_MOVE_FLAG_TWO_ROWS, [hl]
	jr z, .nextEntry
	ld a, d
	or e
	jr z, .secondPart
	dec de
.nextEntry
	inc b
	ld a, l
	add MOVE_RECORD_SIZE
	ld l, a
	adc h
	sub l
	ld h, a
	jr .walk
.secondPart
	ld a, 1
	jr .gotPart
.found
	xor a
.gotPart
	ld [wMoveListPart], a
	ld a, b
	ld [wMoveListEntry], a

	; c: the panel's row; de walks wMoveListShown
	ld de, wMoveListShown
	ld c, 0
.row
	push bc
	push de
	call BuildMoveListLine
	pop de
	; Compare it with what the panel shows; if it differs, copy it there and
	; queue it.
	push de
	ld hl, wMoveListLine
	ld b, MOVE_LIST_WIDTH
.compare
	ld a, [de]
	cp [hl]
	jr nz, .differs
	inc de
	inc hl
	dec b
	jr nz, .compare
	pop de
	jr .nextRow
.differs
	pop de
	push de
	ld hl, wMoveListLine
	ld b, MOVE_LIST_WIDTH
.copy
	ld a, [hli]
	ld [de], a
	inc de
	dec b
	jr nz, .copy
	pop de
	pop bc
	push bc
	push de
	; hl: the row's place on the tile map, MOVE_LIST_MAP + c * TILEMAP_WIDTH
	ld l, c
	ld h, 0
	ASSERT TILEMAP_WIDTH == 32
	REPT 5
		add hl, hl
	ENDR
	ld bc, MOVE_LIST_MAP
	add hl, bc
	ld c, MOVE_LIST_WIDTH
	call QueueTiles
	pop de
.nextRow
	; de: the next row of wMoveListShown
	ld hl, MOVE_LIST_WIDTH
	add hl, de
	ld d, h
	ld e, l
	pop bc
	inc c
	ld a, c
	cp MOVE_LIST_HEIGHT
	jr c, .row
	ret


;; Writes the row at wMoveListEntry, wMoveListPart into wMoveListLine
;; (blanks after the text, or a blank row past the list's end), and steps
;; them on to the next row.
;; @destroys af, bc, de, hl
BuildMoveListLine:
	ld hl, wMoveListLine
	ld a, TILE_BLANK
	ld bc, MOVE_LIST_WIDTH
	call Memset
	ld a, [wMoveListCount]
	ld c, a
	ld a, [wMoveListEntry]
	cp c
	ret nc
	call FormatMoveEntry
	; b: the entry's length, c: its number part's; de: its record's flags
	ld hl, wMoveListText
	ld a, [de]
	bit B_MOVE_FLAG_TWO_ROWS, a
	jr z, .whole
	ld a, [wMoveListPart]
	xor 1
	ld [wMoveListPart], a
	jr z, .secondPart
	; the first part: the number and its dots
	ld b, c
	jr .copy
.secondPart
	; the second part: the move, after the number part
	ld a, b
	sub c
	ld b, a
	ld a, c
	add l
	ld l, a
	adc h
	sub l
	ld h, a
	jr .nextEntry
.whole
.nextEntry
	ld a, [wMoveListEntry]
	inc a
	ld [wMoveListEntry], a
.copy
	ld de, wMoveListLine
.char
	ld a, [hli]
	ld [de], a
	inc de
	dec b
	jr nz, .char
	ret


;; Writes an entry of the list in the notation of docs/rules.md, e.g.
;; `12...Pb5-b6=Q+`, into wMoveListText (ending in TEXT_END).
;; @param a: the entry's ply (0 = White's first move)
;; @return b: the text's length
;; @return c: the length of its number part (the number and its dots)
;; @return de: the address of the entry record's flags
;; @destroys af, hl
FormatMoveEntry::
	push af
	ld de, wMoveListText
	; The move number, (ply / 2) + 1, without leading zeros.
	srl a
	inc a
	call SplitTens
	ld b, a
	ld a, c
	call SplitTens
	; c: hundreds, a: tens, b: units
	ld h, a
	ld a, c
	and a
	jr z, .noHundreds
	add '0'
	ld [de], a
	inc de
.noHundreds
	or h
	jr z, .noTens
	ld a, h
	add '0'
	ld [de], a
	inc de
.noTens
	ld a, b
	add '0'
	ld [de], a
	inc de
	; One dot for White's move, three for Black's (an odd ply).
	ld a, '.'
	ld [de], a
	inc de
	pop af
	push af
	rra
	jr nc, .dots
	ld a, '.'
	ld [de], a
	inc de
	ld [de], a
	inc de
.dots
	; c: the number part's length
	ld a, e
	sub LOW(wMoveListText)
	ld c, a
	pop af
	push bc
	call MoveListRecord
	; hl: the record
	ld a, [hl]
	ASSERT MOVE_RECORD_FLAGS == 3
	inc hl
	inc hl
	inc hl
	bit B_MOVE_FLAG_CASTLE, [hl]
	dec hl
	dec hl
	dec hl
	jr z, .notCastle
	push hl
	ld hl, CastleText
.castle
	ld a, [hli]
	ld [de], a
	inc de
	cp TEXT_END
	jr nz, .castle
	dec de
	pop hl
	inc hl
	inc hl
	inc hl
	jr .suffix

.notCastle
	; the piece's letter
	ASSERT MOVE_RECORD_FROM == 0 && MOVE_RECORD_TO == 1 && MOVE_RECORD_PIECE == 2
	inc hl
	inc hl
	ld a, [hld]
	and ROLE_MASK
	push hl
	add LOW(RoleLetters)
	ld l, a
	adc HIGH(RoleLetters)
	sub l
	ld h, a
	ld a, [hl]
	ld [de], a
	inc de
	pop hl
	; from square, - or x, to square
	dec hl
	ld a, [hli]
	call WriteSquare
	inc hl
	inc hl
	ld a, '-'
	bit B_MOVE_FLAG_CAPTURE, [hl]
	jr z, .gotSeparator
	ld a, 'x'
.gotSeparator
	ld [de], a
	inc de
	dec hl
	dec hl
	ld a, [hl]
	and MOVE_TO_SQUARE
	call WriteSquare
	inc hl
	inc hl
	bit B_MOVE_FLAG_PROMOTION, [hl]
	jr z, .suffix
	; =Q, =R, =B or =N from the to byte's promotion bits
	ld a, '='
	ld [de], a
	inc de
	dec hl
	dec hl
	ld a, [hli]
	inc hl
	ld b, 0
	ASSERT PROMOTE_ROOK == %00001000 && PROMOTE_BISHOP == %10000000 && PROMOTE_KNIGHT == PROMOTE_ROOK | PROMOTE_BISHOP
	bit 3, a
	jr z, .notRookBit
	inc b
.notRookBit
	add a
	jr nc, .gotPromotion
	inc b
	inc b
.gotPromotion
	push hl
	ld a, b
	add LOW(PromotionLetters)
	ld l, a
	adc HIGH(PromotionLetters)
	sub l
	ld h, a
	ld a, [hl]
	ld [de], a
	inc de
	pop hl

.suffix
	; hl: the record's flags; + for check, # for mate
	bit B_MOVE_FLAG_MATE, [hl]
	ld a, '#'
	jr nz, .gotSuffix
	bit B_MOVE_FLAG_CHECK, [hl]
	jr z, .end
	ld a, '+'
.gotSuffix
	ld [de], a
	inc de
.end
	ld a, TEXT_END
	ld [de], a
	ld a, e
	sub LOW(wMoveListText)
	ld d, h
	ld e, l
	pop bc
	ld b, a
	ret


;; Writes a square as its file letter and rank digit.
;; @param a: the square (engine.inc: (BOARD_FIRST_ROW + rank) * 16 + file)
;; @param de: where to write
;; @return de: just past the two characters
;; @destroys af
WriteSquare:
	push af
	and SQUARE_FILE_MASK
	add 'a'
	ld [de], a
	inc de
	pop af
	swap a
	and SQUARE_ROW_MASK >> 4
	add '1' - BOARD_FIRST_ROW
	ld [de], a
	inc de
	ret


;; The address of an entry's record in wMoveListRecords.
;; @param a: the entry's ply
;; @return hl: its record
;; @destroys af
MoveListRecord::
	ld l, a
	ld h, 0
	ASSERT MOVE_RECORD_SIZE == 4
	add hl, hl
	add hl, hl
	push de
	ld de, wMoveListRecords
	add hl, de
	pop de
	ret


CastleText:
	db "O-O-O@"

; A piece's letter by its role code (engine.inc); '?' where no role is.
RoleLetters:
	ASSERT ROLE_BISHOP == 1 && ROLE_ROOK == 2 && ROLE_QUEEN == 3 && ROLE_PAWN == 4 && ROLE_KNIGHT == 8 && ROLE_KING == 12
	db "?BRQP???N???K"
	assert_table_length RoleLetters, ROLE_KING + 1, 1

; By the index bit 3 (+1) and bit 7 (+2) of the to byte give.
PromotionLetters:
	db "QRBN"


SECTION "Move list plies", ROMX

;; Shows the list's first plies only, its end at the panel's bottom (as after
;; AppendMoveToList): a take back, a replay's step (ui/take_back.asm). The
;; records after them stay as they are, so that a replay can show them again;
;; the next move played takes the place of the first of them.
;; @param a: the plies to show, at most the records the list has written
;; @destroys af, bc, de, hl
ShowMoveListPlies::
	ld [wMoveListCount], a
	; de: the rows, one an entry and another for each entry of two
	ld e, a
	ld d, 0
	ld b, a
	inc b
	ld hl, wMoveListRecords + MOVE_RECORD_FLAGS
	jr .next
.entry
	bit B_MOVE_FLAG_TWO_ROWS, [hl]
	jr z, .oneRow
	inc de
.oneRow
	REPT MOVE_RECORD_SIZE
		inc hl
	ENDR
.next
	dec b
	jr nz, .entry
	ld hl, wMoveListRows
	ld [hl], e
	inc hl
	ld [hl], d
	jp ShowMoveListEnd
