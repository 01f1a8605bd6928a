; Colour on the Game Boy Color (and Advance) and the Super Game Boy; nothing
; on a DMG, whose screens stay exactly as they are.
;
; The console is found at start-up (home/init.asm keeps what the boot ROM
; leaves in a and b; RequestSecondPlayer asks a Super Game Boy for a second
; player while the start-up waits for VBlank, DetectSuperGameBoy reads the
; answer once RAM and VRAM are cleared, 71,000 machine cycles later) and kept
; in hConsole. After every screen's set-up, with the LCD still off, the state
; machine (main.asm) calls ApplyScreenColours, which on a CGB loads the chosen
; scheme into palette RAM and writes the screen's attribute map to VRAM bank
; 1, and on a Super Game Boy sends the screen's ATTR_BLK packet. Both happen
; only while the LCD is off: palette RAM and VRAM are then free to write, so
; nothing here needs the VBlank handler, and the VRAM queue learns no bank
; (no attribute changes while the LCD is on): the handler and the game loop
; run exactly as on a DMG on every console.
;
; The attributes depend only on where a tile is, never on which tile it is:
; the board takes one palette whose four colours are the white pieces, the
; light squares, the dark squares and the black pieces (the squares' tiles
; already hold both square colours and both sides' pieces, as the DMG's four
; greys), so a move redraws the board's tiles and no attribute changes, and
; the board turned round needs no other map.
;
; On a Game Boy Advance, whose screen is darker, every colour is lifted as it
; is written (LiftColour): computed, so the schemes are stored once.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"
INCLUDE "include/chess.inc"
INCLUDE "include/layout.inc"
INCLUDE "include/screens.inc"
INCLUDE "include/colour.inc"


; A scheme (ColourSchemes): the board's 4 colours, paper and ink for each
; other palette, 2 colours for the objects (the selector, the marks, the
; pointer).
DEF SCHEME_SIZE     EQU (4 + 2 * (NUM_BG_PALETTES - 1) + 2) * 2
; Exported for the cartridge tests, which read them by name from the .sym file.
EXPORT SCHEME_SIZE

; The bytes of an SGB command packet, and the wait after each one: 60 ms,
; 4 frames (Pan Docs, "Command Packet Transfers"), counted in rounds of
; WaitSgbPacket's loop of 7 machine cycles.
DEF SGB_PACKET_SIZE  EQU 16
DEF SGB_WAIT_ROUNDS  EQU 4 * 17556 / 7
; The commands' numbers (the header byte is the number * 8 + the packets).
DEF SGB_PAL01        EQU $00
DEF SGB_PAL23        EQU $01
DEF SGB_ATTR_BLK     EQU $04
DEF SGB_MLT_REQ      EQU $11
EXPORT SGB_PACKET_SIZE, SGB_WAIT_ROUNDS


; Full red, green and blue; and the 3 low bits of each channel.
DEF COLOUR_WHITE      EQU %11111 | %11111 << 5 | %11111 << 10
DEF COLOUR_LIFT_MASK  EQU %00111 | %00111 << 5 | %00111 << 10


SECTION "Console", HRAM

; CONSOLE_*, from the start-up's detection; 0 (CONSOLE_DMG) until then.
hConsole:: db


SECTION "Colour scheme", WRAM0

; COLOUR_SCHEME_*: the scheme a CGB shows, chosen on the colour page and kept
; for the session (start-up clears it: the first scheme).
wColourScheme:: db


SECTION "Colour", ROMX

;; Asks a Super Game Boy for a second player (MLT_REQ), with no wait after
;; the packet: the start-up calls it while it waits for VBlank anyway, and
;; the clearing of RAM and VRAM that follows is the SGB's time to answer
;; before DetectSuperGameBoy reads the answer.
;; @destroys af, bc, hl
RequestSecondPlayer::
	push de
	ld hl, SgbTwoPlayersPacket
	call SendSgbBits
	pop de
	ret


;; Tells a Super Game Boy by its answer to RequestSecondPlayer: on one, the
;; joypad register answers a player number that moves on when P15 goes high
;; after a read. If the number moved, sets hConsole to CONSOLE_SGB, turns the
;; request off again and sends the palettes (PAL01, PAL23); otherwise leaves
;; hConsole alone. Start-up only, LCD off, VBlank not enabled (nothing else
;; may touch rP1): on a console that is no SGB, 33 machine cycles with the call.
;; @destroys af, bc, de, hl
DetectSuperGameBoy::
	; b: the player number the joypad register reads now (RequestSecondPlayer
	; left both lines high, and nothing has written rP1 since)
	ld c, LOW(rP1)
	ldh a, [c]
	and JOYP_INPUTS
	ld b, a
	; A read of the buttons: P15 low, then high, which moves the number on.
	ld a, JOYP_GET_BUTTONS
	ldh [c], a
	ldh a, [c]
	ld a, JOYP_GET_NONE
	ldh [c], a
	ldh a, [c]
	and JOYP_INPUTS
	cp b
	ret z
	ld a, CONSOLE_SGB
	ldh [hConsole], a
	; Three packets, one after the other (SendSgbPacket leaves hl past each).
	; The start-up's work since the request took its 4 frames (71,000 machine
	; cycles; a cartridge test measures the gap).
	ld hl, SgbOnePlayerPacket
	call SendSgbPacket
	call SendSgbPacket
	jp SendSgbPacket


;; Colours the screen just set up, as the console shows colour: on a CGB (or
;; GBA) loads the chosen scheme into palette RAM and writes the screen's
;; attribute map; on a Super Game Boy sends the screen's ATTR_BLK packet; on
;; a DMG does nothing (16 machine cycles with the call; 27 a screen change with
;; RunScreens' push, load and pop). The LCD must be off.
;; @param a: the screen (SCREEN_*)
;; @destroys af, bc, de, hl
ApplyScreenColours::
	ld b, a
	ldh a, [hConsole]
	ASSERT CONSOLE_DMG == 0
	and a
	ret z
	cp CONSOLE_SGB
	ld a, b
	jr z, .superGameBoy
	; hl: the screen's attribute list
	cp SCREEN_BOARD
	ld hl, BoardAttributes
	jr z, .gotAttributes
	ld hl, WholeScreenAttributes
.gotAttributes
	call WriteAttributeMap
	jp LoadColourScheme
.superGameBoy
	; The board and the panel differ on the board screen; every other screen
	; is one palette.
	cp SCREEN_BOARD
	ld hl, SgbBoardPacket
	jp z, SendSgbPacket
	ld hl, SgbWholeScreenPacket
	jp SendSgbPacket


;; Writes rectangles of attributes into VRAM bank 1 (and selects bank 0
;; again). LCD off.
;; @param hl: the list: a count, then that many attr_rect entries
;; @destroys af, bc, de, hl
WriteAttributeMap:
	ld a, VBK_BANK1
	ldh [rVBK], a
	ld a, [hli]
.rect
	push af
	; de: the first tile's address; b rows of c tiles; a the attribute
	ld a, [hli]
	ld e, a
	ld a, [hli]
	ld d, a
	ld a, [hli]
	ld c, a
	ld a, [hli]
	ld b, a
	ld a, [hli]
	push hl
	ld h, d
	ld l, e
.row
	push hl
	push bc
.tile
	ld [hli], a
	dec c
	jr nz, .tile
	pop bc
	pop hl
	ld de, TILEMAP_WIDTH
	add hl, de
	dec b
	jr nz, .row
	pop hl
	pop af
	dec a
	jr nz, .rect
	ASSERT VBK_BANK0 == 0
	ldh [rVBK], a
	ret


;; Loads wColourScheme's palettes into the background and object palette
;; RAM, lifted on a GBA. LCD off (or VBlank, with time for 40 colours).
;; @destroys af, bc, de, hl
LoadColourScheme:
	ld a, [wColourScheme]
	ld hl, ColourSchemes - SCHEME_SIZE
	ld de, SCHEME_SIZE
	inc a
.scheme
	add hl, de
	dec a
	jr nz, .scheme
	ld a, BCPS_AUTOINC
	ldh [rBCPS], a
	ld c, LOW(rBCPD)
	; The board's four colours, then paper and ink of each text palette, each
	; twice (the font draws with colours 0 and 3 only).
	ld b, 4
	call CopyColours
	ld b, 2 * (NUM_BG_PALETTES - 1)
.twice
	call ReadColour
	call PutColour
	call PutColour
	dec b
	jr nz, .twice
	; The objects' colour 1 (the edge) is white; 0 is transparent.
	ld a, OCPS_AUTOINC | 1 * 2
	ldh [rOCPS], a
	ld c, LOW(rOCPD)
	ld de, COLOUR_WHITE
	call PutColour
	ld b, 2
	fallthrough CopyColours


;; Copies colours to a palette data register (its index auto-incrementing),
;; each lifted on a GBA.
;; @param hl: the colours, 2 bytes each
;; @param b: how many
;; @param c: the low byte of rBCPD or rOCPD
;; @return hl: just past them
;; @destroys af, b, de
CopyColours:
	call ReadColour
	call PutColour
	dec b
	jr nz, CopyColours
	ret


;; Writes a colour to a palette data register.
;; @param de: the colour
;; @param c: the low byte of rBCPD or rOCPD
;; @destroys a
PutColour:
	ld a, e
	ldh [c], a
	ld a, d
	ldh [c], a
	ret


;; Reads a colour of a scheme, lifted on a GBA.
;; @param hl: the colour
;; @return de: the colour; hl: past it
;; @destroys af
ReadColour:
	ld a, [hli]
	ld e, a
	ld a, [hli]
	ld d, a
	ldh a, [hConsole]
	cp CONSOLE_GBA
	ret nz
	fallthrough LiftColour


;; Lifts a colour for the GBA's darker screen: each of red, green and blue
;; goes a quarter of the way to full, c + (31 - c) / 4 (black becomes 7, full
;; stays 31). All three at once: (31 - c) / 4 of each is the complement's
;; bits shifted right twice, each channel's 3 top bits, and the sums carry
;; from no channel into the next.
;; @param de: the colour, %0BBBBBGG GGGRRRRR
;; @return de: the lifted colour
;; @destroys af
LiftColour:
	push hl
	ld a, d
	cpl
	and HIGH(COLOUR_WHITE)
	ld h, a
	ld a, e
	cpl
	ld l, a
	srl h
	rr l
	srl h
	rr l
	; (the high byte masked first: `and` would lose the low byte's carry)
	ld a, h
	and HIGH(COLOUR_LIFT_MASK)
	ld h, a
	ld a, l
	and LOW(COLOUR_LIFT_MASK)
	add e
	ld e, a
	ld a, h
	adc d
	ld d, a
	pop hl
	ret


;; Sends a Super Game Boy command packet through the joypad register, then
;; waits the 4 frames the SGB needs before the next one. Each bit is a pulse
;; of P14 (a 0) or P15 (a 1) low for 5 machine cycles, then both high for 16
;; or more; the packet starts with a pulse of both and ends with a 0 bit.
;; @param hl: the packet as stored: how many of its bytes follow (the rest of
;; its SGB_PACKET_SIZE are 0), then those bytes
;; @return hl: just past the packet
;; @destroys af, bc, de
SendSgbPacket:
	call SendSgbBits
	fallthrough WaitSgbPacket


;; Waits the 4 frames an SGB needs after a packet, with the LCD off: rounds
;; of 7 machine cycles.
;; @destroys af, bc
WaitSgbPacket:
	ld bc, SGB_WAIT_ROUNDS
.wait
	dec bc
	ld a, b
	or c
	jr nz, .wait
	ret


;; Sends a packet's bits, as SendSgbPacket, with no wait after them.
;; @param hl: the packet as stored
;; @return hl: just past the packet
;; @destroys af, bc, de
SendSgbBits:
	ld a, [hli]
	ld b, a
	ld c, LOW(rP1)
	; the reset pulse
	xor a
	ldh [c], a
	nop
	ld a, JOYP_GET_NONE
	ldh [c], a
	ld d, SGB_PACKET_SIZE
.byte
	; e: the byte, shifted out from bit 0 with a 1 behind it: when only
	; that is left, e is 0 and the byte is sent
	xor a
	cp b
	jr z, .gotByte
	dec b
	ld a, [hli]
.gotByte
	ld e, a
	scf
	rr e
.bit
	ld a, JOYP_GET_CTRL_PAD
	jr nc, .pulse
	ld a, JOYP_GET_BUTTONS
.pulse
	ldh [c], a
	nop
	ld a, JOYP_GET_NONE
	ldh [c], a
	nop
	nop
	nop
	srl e
	jr nz, .bit
	dec d
	jr nz, .byte
	; the stop bit, a 0 (the nop keeps the last bit's high 15 cycles)
	nop
	ld a, JOYP_GET_CTRL_PAD
	ldh [c], a
	nop
	ld a, JOYP_GET_NONE
	ldh [c], a
	ret


; A colour from red, green and blue, 0-31 each.
MACRO rgb
	ASSERT (\1) < 32 && (\2) < 32 && (\3) < 32
	dw (\1) | (\2) << 5 | (\3) << 10
ENDM


; The schemes, in COLOUR_SCHEME_* order, SCHEME_SIZE bytes each: the board's
; four colours (the white pieces, the light squares, the dark squares, the
; black pieces; the title takes them too), then paper and ink of PAL_PANEL,
; PAL_CLOCK and PAL_TEXT, then the objects' marks and their dark
; side.
ColourSchemes:
	; COLOUR_SCHEME_WOOD: ivory and black on maple and walnut
	rgb 31, 30, 25
	rgb 27, 21, 13
	rgb 17, 10, 5
	rgb 3, 2, 2
	rgb 30, 28, 22
	rgb 7, 4, 2
	rgb 30, 28, 22
	rgb 16, 3, 2
	rgb 31, 30, 25
	rgb 6, 4, 2
	rgb 31, 17, 0
	rgb 15, 4, 0
	; COLOUR_SCHEME_OCEAN: white and navy on sky and sea
	rgb 31, 31, 31
	rgb 20, 26, 30
	rgb 6, 14, 24
	rgb 1, 3, 9
	rgb 28, 30, 31
	rgb 2, 6, 14
	rgb 28, 30, 31
	rgb 2, 9, 21
	rgb 31, 31, 31
	rgb 2, 4, 11
	rgb 31, 24, 0
	rgb 20, 8, 0
	; COLOUR_SCHEME_FOREST: cream and black on moss and pine
	rgb 31, 31, 27
	rgb 23, 28, 17
	rgb 7, 17, 8
	rgb 2, 5, 2
	rgb 28, 31, 25
	rgb 3, 9, 3
	rgb 28, 31, 25
	rgb 15, 4, 2
	rgb 31, 31, 27
	rgb 2, 6, 2
	rgb 31, 9, 9
	rgb 16, 2, 2
	; COLOUR_SCHEME_GREYS: the DMG's four greys
	rgb 31, 31, 31
	rgb 21, 21, 21
	rgb 10, 10, 10
	rgb 0, 0, 0
	REPT NUM_BG_PALETTES - 1
		rgb 31, 31, 31
		rgb 0, 0, 0
	ENDR
	rgb 10, 10, 10
	rgb 0, 0, 0
	assert_table_length ColourSchemes, NUM_COLOUR_SCHEMES, SCHEME_SIZE


; One rectangle of an attribute map: \1 the tile map, \2, \3 its top left
; tile, \4 its width, \5 its height, \6 the palette.
MACRO attr_rect
	ASSERT (\2) + (\4) <= TILEMAP_WIDTH && (\3) + (\5) <= TILEMAP_HEIGHT
	dw (\1) + (\3) * TILEMAP_WIDTH + (\2)
	db \4, \5, \6
ENDM

; Each screen's attribute list (ApplyScreenColours picks it): a count, then
; the rectangles, later ones over earlier ones.
; The title and the option pages: the board's palette, whose white and black
; are the pages' paper and ink.
WholeScreenAttributes:
	db 1
	attr_rect TILEMAP0, 0, 0, TILEMAP_WIDTH, TILEMAP_HEIGHT, PAL_BOARD

BoardAttributes:
	db 6
	attr_rect TILEMAP0, 0, 0, TILEMAP_WIDTH, TILEMAP_HEIGHT, PAL_TEXT
	attr_rect TILEMAP0, BOARD_TILE_X, BOARD_TILE_Y, BOARD_WIDTH_TILES, BOARD_HEIGHT_TILES, PAL_BOARD
	attr_rect TILEMAP0, MOVE_LIST_X, MOVE_LIST_Y, MOVE_LIST_WIDTH, MOVE_LIST_HEIGHT, PAL_PANEL
	attr_rect TILEMAP0, CLOCK_X, CLOCK_TOP_Y, CLOCK_WIDTH, 1, PAL_CLOCK
	attr_rect TILEMAP0, CLOCK_X, CLOCK_BOTTOM_Y, CLOCK_WIDTH, 1, PAL_CLOCK
	; the pause menu's window shows tile map 1 from its top left corner
	attr_rect TILEMAP1, 0, 0, SCREEN_WIDTH, MENU_HEIGHT, PAL_PANEL


; Super Game Boy packets, as SendSgbPacket takes them.
MACRO sgb_packet
	db (\1) * 8 + 1
ENDM

SgbTwoPlayersPacket:
	db 2
	sgb_packet SGB_MLT_REQ
	db 1
; DetectSuperGameBoy sends these three in this order.
SgbOnePlayerPacket:
	db 1
	sgb_packet SGB_MLT_REQ

; The SGB's palettes 0-3 (colour 0 is shared by all four): 0 the board as
; WOOD's, 1 the panel and the text, 2 the title and the pages, 3 the clocks.
SgbPal01Packet:
	db 15
	sgb_packet SGB_PAL01
	rgb 31, 30, 25
	rgb 27, 21, 13
	rgb 17, 10, 5
	rgb 3, 2, 2
	rgb 24, 20, 14
	rgb 14, 10, 6
	rgb 6, 4, 2
SgbPal23Packet:
	db 15
	sgb_packet SGB_PAL23
	rgb 31, 30, 25
	rgb 27, 21, 13
	rgb 17, 10, 5
	rgb 3, 2, 2
	rgb 26, 14, 8
	rgb 20, 6, 3
	rgb 12, 2, 1

; ATTR_BLK: a count of blocks, then each its control (bit 0 colour the
; inside, bit 1 the border, bit 2 the outside), its palettes (inside in bits
; 0-1, border 2-3, outside 4-5) and its corners in tiles (left, top, right,
; bottom).
DEF ATTR_BLK_INSIDE  EQU %001
DEF ATTR_BLK_BORDER  EQU %010
DEF ATTR_BLK_OUTSIDE EQU %100

; The board screen: the board (its rank numbers beside it) in palette 0, the
; rest in 1, the clocks' rows of the panel in 3.
SgbBoardPacket:
	db 14
	sgb_packet SGB_ATTR_BLK
	db 2
	db ATTR_BLK_INSIDE | ATTR_BLK_BORDER | ATTR_BLK_OUTSIDE, 0 << 0 | 0 << 2 | 1 << 4
	db BOARD_TILE_X, BOARD_TILE_Y
	db BOARD_TILE_X + BOARD_WIDTH_TILES - 1, BOARD_TILE_Y + BOARD_HEIGHT_TILES - 1
	db ATTR_BLK_INSIDE | ATTR_BLK_BORDER, 3 << 0 | 3 << 2
	db CLOCK_X, CLOCK_TOP_Y, CLOCK_X + CLOCK_WIDTH - 1, CLOCK_TOP_Y
; Every other screen: all of it in palette 2.
SgbWholeScreenPacket:
	db 8
	sgb_packet SGB_ATTR_BLK
	db 1
	db ATTR_BLK_INSIDE | ATTR_BLK_BORDER, 2 << 0 | 2 << 2
	db 0, 0, SCREEN_WIDTH - 1, SCREEN_HEIGHT - 1
