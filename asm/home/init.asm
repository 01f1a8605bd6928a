; Start-up: from the jump at $0100 to the first screen of the main loop.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/gfx.inc"
INCLUDE "include/audio.inc"
INCLUDE "include/screens.inc"
INCLUDE "include/colour.inc"


; The engine's search keeps its frames on the stack (SEARCH_STACK_SIZE,
; engine/search.asm) under the board screen's calls into it, and the
; interrupt handlers (the VBlank handler drawing the clocks during a search,
; the music) push theirs on top.
DEF STACK_SIZE EQU $180
ASSERT STACK_SIZE >= SEARCH_STACK_SIZE + $60, "the stack has no room for the search's frames and the interrupts"

; Palettes: background colours 0-3 are white, light grey, dark grey, black.
DEF BG_PALETTE EQU SHADE_BLACK << 6 | SHADE_DARK << 4 | SHADE_LIGHT << 2 | SHADE_WHITE
; Objects: colour 0 is transparent; colour 1 is white here, so that a black
; shape can have a white edge that shows on both square colours.
DEF OBJ_PALETTE EQU SHADE_BLACK << 6 | SHADE_DARK << 4 | SHADE_WHITE << 2 | SHADE_WHITE


;; Fills pages of 256 bytes from hl with a, eight bytes a round: 2.5 machine
;; cycles a byte, where Memset takes 6 (start-up clears WRAM and VRAM, 16 KB,
;; with it). Inline, so that it needs no stack: WRAM, where the stack is, is
;; among what it clears.
;; @param \1: the number of pages, 1-256
;; @param a: the byte to write
;; @param hl: destination
;; @return hl: just past the last byte written
;; @destroys b, c, f
MACRO fill_pages
	ASSERT (\1) >= 1 && (\1) <= 256
	ld b, LOW(\1)
.page\@
	ld c, 256 / 8
.fill\@
	REPT 8
	ld [hli], a
	ENDR
	dec c
	jr nz, .fill\@
	dec b
	jr nz, .page\@
ENDM


; The stack grows down from the top of WRAM0, at a fixed place so that
; floating WRAM sections fill WRAM from the bottom.
SECTION "Stack", WRAM0[$D000 - STACK_SIZE]

wStack:
	ds STACK_SIZE
wStackTop:


SECTION "Start", ROM0

;; Entry point, reached from the jump at $0100. Keeps the console the boot
;; ROM reports, silences the sound, switches the LCD off, clears all RAM,
;; VRAM and OAM, loads the font and the palettes, asks for a Super Game Boy,
;; starts the title song, enables the VBlank and STAT interrupts and enters the
;; main loop (main.asm) with the title screen, which the main loop sets up and
;; shows. Never returns.
Start::
	di
	; The console, from what the boot ROM leaves in a and b (ui/colour.asm),
	; kept in d until HRAM is cleared: nothing before touches d.
	ld d, CONSOLE_DMG
	cp BOOTUP_A_CGB
	jr nz, .gotConsole
	ld d, CONSOLE_CGB
	bit B_BOOTUP_B_AGB, b
	jr z, .gotConsole
	ASSERT CONSOLE_GBA == CONSOLE_CGB + 1
	inc d
.gotConsole
	ld sp, wStackTop

	; Silent until the audio driver is set up.
	ld a, AUDENA_OFF
	ldh [rNR52], a

	; On a console that may be a Super Game Boy, ask it for a second player
	; now, while the wait for VBlank below lets the time pass anyway.
	ld a, d
	ASSERT CONSOLE_DMG == 0
	and a
	call z, RequestSecondPlayer

	; Switch the LCD off, but only in VBlank: switching it off while it draws
	; can harm a real DMG's screen. (LY stays 0 with the LCD off, so skip the
	; wait if it is off already.)
	ldh a, [rLCDC]
	bit B_LCDC_ENABLE, a
	jr z, .lcdOff
.waitVBlank
	ldh a, [rLY]
	cp LY_VBLANK
	jr c, .waitVBlank
	ld a, LCDC_OFF
	ldh [rLCDC], a
.lcdOff

	; Clear WRAM inline rather than with a call: the stack is in WRAM, so
	; nothing may be called before this is done.
	ld hl, _RAM
	xor a
	ASSERT WRAM_SIZE % 256 == 0
	fill_pages WRAM_SIZE / 256

	; Clear HRAM (but not rIE just after it).
	ld c, LOW(_HRAM)
	ld b, HRAM_SIZE
	xor a
.clearHRAM
	ldh [c], a
	inc c
	dec b
	jr nz, .clearHRAM
	ld a, d
	ldh [hConsole], a

	; With the LCD off, VRAM and OAM are free to write.
	ld hl, _VRAM
	xor a
	ASSERT VRAM_SIZE % 256 == 0
	fill_pages VRAM_SIZE / 256
	ld hl, _OAMRAM
	ld bc, OAM_SIZE
	call Memset

	call CopyOAMDMARoutine

	; The font, the same on every screen; each screen loads its own tiles.
	ld hl, PackedFontTiles
	ld de, vFontTiles
	call Unpack

	; The palettes, for good: no screen changes them (so the VBlank handler
	; keeps no shadow of them).
	ld a, BG_PALETTE
	ldh [rBGP], a
	ld a, OBJ_PALETTE
	ldh [rOBP0], a
	ldh [rOBP1], a
	; hSCX and hSCY are 0 since HRAM was cleared.
	xor a
	ldh [rSCX], a
	ldh [rSCY], a

	; A Super Game Boy has answered the request (a CGB is none): then it takes
	; its palettes, before VBlank reads the joypad.
	ldh a, [hConsole]
	ASSERT CONSOLE_DMG == 0
	and a
	call z, DetectSuperGameBoy

	; The clocks stand at 10:00, stopped, until a game starts them: the VBlank
	; handler ticks them from the first frame.
	call ResetClocks

	; The title song starts with the first frame.
	call InitAudio
	ld a, SONG_TITLE
	call PlaySong

	; The VBlank interrupt, and the STAT interrupt at the start of AUDIO_LINE for
	; the music (home/stat.asm); forget any request made while setting up.
	ld a, AUDIO_LINE
	ldh [rLYC], a
	ld a, STAT_LYC
	ldh [rSTAT], a
	ld a, IE_VBLANK | IE_STAT
	ldh [rIE], a
	xor a
	ldh [rIF], a
	ei

	; With the LCD off there is no VBlank and no LY=LYC: nothing interrupts
	; until the title screen is set up and shown.
	ld a, SCREEN_TITLE
	jp RunScreens
