; The music driver: plays the songs of generated/music/ on the four channels, one
; step per frame from the STAT interrupt at line 1 (home/stat.asm), and lends a
; channel to a sound effect.
;
; The song format is described in xtask/src/assets/music.rs: per channel a stream
; of notes, rests and waits, each lasting a number of frames, with envelope and
; timbre changes, a jump for the loop, and calls of passages that repeat.
;
; Only UpdateAudio writes the sound registers (after InitAudio). PlaySong, StopSong,
; SetMusicEnabled and PlaySoundEffect only leave a request in one byte, which the
; next UpdateAudio carries out; so the main program may call them at any time: the
; STAT handler, which runs UpdateAudio, may interrupt them between any two of their
; instructions without harm.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/audio.inc"


; The state of one channel's music
RSRESET
; Frames until the next command is read; 0 when the channel is stopped
DEF CHANNEL_WAIT     RB 1
; The next command (little-endian)
DEF CHANNEL_POINTER  RW 1
; Nonzero while the music may write the channel's registers (no sound effect has
; taken it and the music is on)
DEF CHANNEL_OWNED    RB 1
; Pulse: NRx1 (the duty); wave: the wave shape's index
DEF CHANNEL_TIMBRE   RB 1
; Pulse, noise: NRx2 (volume and fade); wave: NR32 (output level)
DEF CHANNEL_ENVELOPE RB 1
; Where MUSIC_RETURN goes on: the command after the last MUSIC_CALL
DEF CHANNEL_RETURN   RW 1
DEF CHANNEL_SIZE     RB 0

; wSongRequest: no request, or stop the song; others are the song's number + 1,
; with SONG_AS_EFFECT set for a song played as a sound effect
DEF NO_REQUEST       EQU 0
DEF STOP_REQUEST     EQU $FF
DEF SONG_AS_EFFECT   EQU 1 << 7
	ASSERT NUM_SONGS < SONG_AS_EFFECT - 1, "a song's request would be STOP_REQUEST"
; wLoadedWave when wave RAM holds none of our shapes
DEF NO_WAVE          EQU $FF

; Every channel to both outputs, at full master volume
DEF PANNING_ALL      EQU $FF
DEF MASTER_VOLUME    EQU AUDVOL_LEFT | AUDVOL_RIGHT


; Plays a channel's frame in UpdateAudio: when its wait runs out, reads its
; commands and starts its note or silences it (when the music owns it).
; \1: the channel; \2: its note routine; \3: the register that silences it
MACRO update_channel
	ld hl, wMusicChannels + (\1) * CHANNEL_SIZE + CHANNEL_WAIT
	ld a, [hl]
	and a
	jr z, .done\@
	dec [hl]
	jr nz, .done\@
	ld de, wMusicChannels + (\1) * CHANNEL_SIZE
	call ReadCommands
	jr nc, .noNote\@
	ld b, a
	ld a, [wMusicChannels + (\1) * CHANNEL_SIZE + CHANNEL_OWNED]
	and a
	jr z, .done\@
	ld a, b
	ld hl, wMusicChannels + (\1) * CHANNEL_SIZE + CHANNEL_TIMBRE
	IF (\1) <= CHANNEL_PULSE2
		ld c, LOW(rNR11) + (\1) * CHANNEL_REGISTERS
	ENDC
	call \2
	jr .done\@
.noNote\@
	jr nz, .done\@
	silence_if_owned \1, \3
.done\@
ENDM


; Switches a channel's DAC off (silence until its next note) if the music owns it.
; \1: the channel; \2: the register that silences it (NRx2, or NR30 for wave)
MACRO silence_if_owned
	ld a, [wMusicChannels + (\1) * CHANNEL_SIZE + CHANNEL_OWNED]
	and a
	jr z, .notOwned\@
	xor a
	ldh [\2], a
.notOwned\@
ENDM

SECTION "Music state", WRAM0

wMusicChannels: ds NUM_CHANNELS * CHANNEL_SIZE
; NO_REQUEST, STOP_REQUEST or a song's number + 1 (| SONG_AS_EFFECT), taken by
; the next UpdateAudio
wSongRequest: db
; Nonzero while the music is on (set by SetMusicEnabled)
wMusicEnabled:: db
; SONG_AS_EFFECT while the song is a sound effect (heard with the music off), else 0
wSongIsEffect: db
; Nonzero while the songs are heard (wMusicEnabled | wSongIsEffect as UpdateAudio
; last carried it out)
wMusicApplied: db
; Which wave shape wave RAM holds, or NO_WAVE
wLoadedWave: db


SECTION "Audio driver", ROM0

;; Switches the APU on, every channel to both speakers at full volume, and sets up
;; the driver with the music on and no song. Call once at start-up, after WRAM is
;; cleared and before the VBlank interrupt is enabled.
;; @destroys af, bc, hl
InitAudio::
	ld a, AUDENA_ON
	ldh [rNR52], a
	ld a, MASTER_VOLUME
	ldh [rNR50], a
	ld a, PANNING_ALL
	ldh [rNR51], a
	ld a, AUD1SWEEP_UP
	ldh [rNR10], a

	ld hl, wMusicChannels
	ld c, NUM_CHANNELS
.channel
	xor a
	ld [hli], a ; CHANNEL_WAIT
	ld [hli], a ; CHANNEL_POINTER
	ld [hli], a
	inc a
	ld [hli], a ; CHANNEL_OWNED
	xor a
	ld [hli], a ; CHANNEL_TIMBRE
	ld [hli], a ; CHANNEL_ENVELOPE
	ld [hli], a ; CHANNEL_RETURN
	ld [hli], a
	dec c
	jr nz, .channel

	ld a, 1
	ld [wMusicEnabled], a
	ld [wMusicApplied], a
	ld a, NO_WAVE
	ld [wLoadedWave], a
	xor a
	ld [wSongRequest], a
	ld [wSongIsEffect], a
	jp InitSoundEffects


;; Asks for a song to play from its start (from the next frame on), in place of
;; the one playing.
;; @param a: the song (SONG_TITLE, SONG_GAME_OVER, ...)
;; @destroys af
PlaySong::
	inc a
	ld [wSongRequest], a
	ret


;; Asks for a song to play as a sound effect (from the next frame on), in place of
;; the one playing: it is heard even while the music is off. For a song without a
;; loop (the game-over jingle): once it ends, nothing sounds but sound effects until
;; a song is asked for.
;; @param a: the song
;; @destroys af
PlaySongAsEffect::
	inc a
	or SONG_AS_EFFECT
	ld [wSongRequest], a
	ret


;; Asks for the song to stop (from the next frame on); sound effects go on.
;; Nothing calls it yet: the board screen will, to stop the title song.
;; @destroys af
StopSong::
	ld a, STOP_REQUEST
	ld [wSongRequest], a
	ret


;; Turns the music on or off (from the next frame on). Off, the song goes on
;; silently, so that turned on again it goes on in time; sound effects still play,
;; and so does a song played as one (PlaySongAsEffect).
;; @param a: 0 for off, anything else for on
;; @destroys af
SetMusicEnabled::
	ld [wMusicEnabled], a
	ret


;; Plays one frame of music and sound effects: carries out the requests, steps the
;; sound effect, then reads each channel's commands whose time has come.
;; Called by the STAT handler (home/stat.asm) once per frame, at line 1; at most
;; 1,500 machine cycles (measured by `cargo test`: see
;; xtask/src/cartridge_tests/audio.rs).
;; @destroys af, bc, de, hl
UpdateAudio::
	ld a, [wSongRequest]
	and a
	call nz, TakeSongRequest
	; The songs are heard while the music is on, or the song is a sound effect.
	ld a, [wSongIsEffect]
	ld hl, wMusicEnabled
	or [hl]
	ld hl, wMusicApplied
	cp [hl]
	call nz, ApplyMusicEnabled
	; The effect first: one that ends gives its channel back in time for a note of
	; the music that starts in the same frame.
	call TakeSoundEffectRequest
	call UpdateSoundEffect

	; Unrolled per channel: the registers are constants, and every cycle counts in
	; a frame where all four channels start a note.
	update_channel CHANNEL_PULSE1, PlayPulseNote, rNR12
	update_channel CHANNEL_PULSE2, PlayPulseNote, rNR22
	update_channel CHANNEL_WAVE, PlayWaveNote, rNR30
	update_channel CHANNEL_NOISE, PlayNoiseNote, rNR42
	ret


;; Starts the requested song (noting whether it is a sound effect), or stops the
;; song, and clears the request.
;; @param a: wSongRequest (not NO_REQUEST)
;; @destroys af, bc, de, hl
TakeSongRequest:
	push af
	xor a
	ld [wSongRequest], a
	; Whatever the old song was playing stops.
	call SilenceMusic
	pop af
	cp STOP_REQUEST
	jr z, .stop
	ld b, a
	and SONG_AS_EFFECT
	ld [wSongIsEffect], a
	ld a, b
	and LOW(~SONG_AS_EFFECT)
	; hl = the song's pointers
	dec a
	add a
	add LOW(SongTable)
	ld l, a
	adc HIGH(SongTable)
	sub l
	ld h, a
	ld a, [hli]
	ld h, [hl]
	ld l, a
	; A channel the song uses reads its first command in this frame (its wait runs
	; out in this UpdateAudio); one it does not use (pointer 0) is stopped.
	FOR CHANNEL, NUM_CHANNELS
		ld a, [hli]
		ld [wMusicChannels + CHANNEL * CHANNEL_SIZE + CHANNEL_POINTER], a
		ld c, a
		ld a, [hli]
		ld [wMusicChannels + CHANNEL * CHANNEL_SIZE + CHANNEL_POINTER + 1], a
		; CHANNEL_WAIT = 1 if the pointer is not 0, else 0
		or c
		add $FF
		ld a, 0
		rla
		ld [wMusicChannels + CHANNEL * CHANNEL_SIZE + CHANNEL_WAIT], a
	ENDR
	ret

.stop
	xor a
	ld [wSongIsEffect], a
	ld hl, wMusicChannels
	ld de, CHANNEL_SIZE
	ld b, NUM_CHANNELS
.stopChannel
	ld [hl], a ; CHANNEL_WAIT
	add hl, de
	dec b
	jr nz, .stopChannel
	ret


;; Silences every channel the music owns.
;; @destroys af
SilenceMusic:
	silence_if_owned CHANNEL_PULSE1, rNR12
	silence_if_owned CHANNEL_PULSE2, rNR22
	silence_if_owned CHANNEL_WAVE, rNR30
	silence_if_owned CHANNEL_NOISE, rNR42
	ret


;; Carries out a change of whether the songs are heard (the music on or off, or a
;; song played as a sound effect): not heard, the music lets go of every channel
;; (silencing it) but the one a sound effect holds; heard, it takes them back.
;; @param a: the new wMusicApplied (nonzero: heard)
;; @destroys af, bc, de, hl
ApplyMusicEnabled:
	ld [wMusicApplied], a
	and a
	jr nz, .on
	call SilenceMusic
	xor a
	jr .setOwners
.on
	ld a, 1
.setOwners
	ld hl, wMusicChannels + CHANNEL_OWNED
	ld de, CHANNEL_SIZE
	ld b, NUM_CHANNELS
.channel
	ld [hl], a
	add hl, de
	dec b
	jr nz, .channel
	; The effect keeps its channel.
	jp KeepEffectChannel


;; Reads a channel's commands up to the next one that lasts (note, rest or wait):
;; notes its duration and where to read on, and says what the channel does now.
;; @param de: the channel's CHANNEL_WAIT (which has just run out)
;; @return carry: a note starts, a = its index (period table or drum kit);
;;   no carry and z: the channel falls silent (a rest, or the song's end);
;;   no carry and nz: nothing changes (a wait)
;; @destroys af, bc, de, hl
ReadCommands:
	ld h, d
	ld l, e
	inc hl
	ld a, [hli]
	ld h, [hl]
	ld l, a
	; hl = the next command, de = the state
.command
	ld a, [hli]
	cp MUSIC_REST
	jr c, .note
	jr z, .rest
	cp MUSIC_WAIT
	jr z, .wait
	cp MUSIC_ENVELOPE
	jr z, .envelope
	cp MUSIC_TIMBRE
	jr z, .timbre
	cp MUSIC_JUMP
	jr z, .jump
	cp MUSIC_CALL
	jr z, .call
	cp MUSIC_RETURN
	jr z, .return
	; MUSIC_END: stopped (CHANNEL_WAIT is 0 already) and silent.
	xor a
	ret

.note
	ld b, a
	call .setTime
	ld a, b
	scf
	ret

.rest
	call .setTime
	xor a
	ret

.wait
	call .setTime
	or 1
	ret

.envelope
	ld b, CHANNEL_ENVELOPE
	jr .setField
.timbre
	ld b, CHANNEL_TIMBRE
.setField
	; [de + b] = the command's value
	ld a, e
	add b
	ld c, a
	adc d
	sub c
	ld b, a
	ld a, [hli]
	ld [bc], a
	jr .command

.jump
	ld a, [hli]
	ld h, [hl]
	ld l, a
	jr .command

.call
	; hl = the call's address, CHANNEL_RETURN = the command after it
	ld a, [hli]
	ld c, a
	ld a, [hli]
	ld b, a
	push bc
	ld a, e
	add CHANNEL_RETURN
	ld c, a
	adc d
	sub c
	ld b, a
	ld a, l
	ld [bc], a
	inc bc
	ld a, h
	ld [bc], a
	pop hl
	jr .command

.return
	; hl = CHANNEL_RETURN
	ld a, e
	add CHANNEL_RETURN
	ld l, a
	adc d
	sub l
	ld h, a
	ld a, [hli]
	ld h, [hl]
	ld l, a
	jr .command

; CHANNEL_WAIT = the command's frames; CHANNEL_POINTER = the command after them.
.setTime
	ld a, [hli]
	ld [de], a
	inc de
	ld a, l
	ld [de], a
	inc de
	ld a, h
	ld [de], a
	ret


;; Starts a note on a pulse channel: its duty, envelope and period.
;; @param a: the note (period table index)
;; @param hl: the channel's CHANNEL_TIMBRE; c: LOW(rNRx1) of the channel
;; @destroys af, c, de, hl
PlayPulseNote:
	add a
	add LOW(PeriodTable)
	ld e, a
	ld d, HIGH(PeriodTable)
	ld a, [hli] ; CHANNEL_TIMBRE
	ldh [c], a
	inc c
	ld a, [hl] ; CHANNEL_ENVELOPE
	ldh [c], a
	inc c
	ld a, [de]
	ldh [c], a
	inc c
	inc e
	ld a, [de]
	ASSERT AUD1HIGH_RESTART == AUD2HIGH_RESTART
	or AUD1HIGH_RESTART
	ldh [c], a
	ret


;; Starts a note on the wave channel: loads its wave shape first if wave RAM
;; holds another, and stops the channel before starting it again (retriggering a
;; playing channel 3 can corrupt wave RAM on a DMG).
;; @param a: the note (period table index)
;; @param hl: the wave channel's CHANNEL_TIMBRE
;; @destroys af, c, de, hl
PlayWaveNote:
	add a
	add LOW(PeriodTable)
	ld e, a
	ld d, HIGH(PeriodTable)
	ld a, [wLoadedWave]
	cp [hl] ; CHANNEL_TIMBRE
	call nz, LoadWave
	inc hl
	; The DAC off stops the channel; on again, it waits for the start.
	xor a
	ldh [rNR30], a
	ld a, AUD3ENA_ON
	ldh [rNR30], a
	ld a, [hl] ; CHANNEL_ENVELOPE
	ldh [rNR32], a
	ld a, [de]
	ldh [rNR33], a
	inc e
	ld a, [de]
	or AUD3HIGH_RESTART
	ldh [rNR34], a
	ret


;; Starts a drum on the noise channel: its envelope and its clock.
;; @param a: the note (drum kit index)
;; @param hl: the noise channel's CHANNEL_TIMBRE
;; @destroys af, de, hl
PlayNoiseNote:
	add LOW(DrumKit)
	ld e, a
	ld d, HIGH(DrumKit)
	inc hl
	ld a, [hl] ; CHANNEL_ENVELOPE
	ldh [rNR42], a
	ld a, [de]
	ldh [rNR43], a
	ld a, AUD4GO_RESTART
	ldh [rNR44], a
	ret


;; Copies a wave shape into wave RAM, with channel 3 off while it is written (as
;; the hardware asks), and notes which one it holds.
;; @param hl: the wave channel's CHANNEL_TIMBRE (the shape, 0 to NUM_WAVES - 1)
;; @destroys af, c
LoadWave:
	ld a, [hl]
	ld [wLoadedWave], a
	push hl
	swap a
	add LOW(WaveShapes)
	ld l, a
	ld h, HIGH(WaveShapes)
	xor a
	ldh [rNR30], a
	ld c, LOW(_AUD3WAVERAM)
	REPT AUD3WAVE_SIZE
		ld a, [hli]
		ldh [c], a
		inc c
	ENDR
	pop hl
	ret


;; Gives a channel back to the music after a sound effect: sweep off, the music's
;; duty on pulse, the channel silent until the music's next note, which then
;; sounds as the song says.
;; @param b: the channel; c: LOW of its NRx0
;; @destroys af, e, hl
ReturnChannelToMusic::
	call ChannelOwned
	; NRx0: sweep off (nothing on the other channels)
	xor a
	ldh [c], a
	inc c
	; NRx1: the music's duty
	inc hl
	ld a, [hld] ; CHANNEL_TIMBRE
	ldh [c], a
	inc c
	; NRx2: DAC off, so the effect's tail stops
	xor a
	ldh [c], a
	dec c
	dec c
	ld a, [wMusicApplied]
	ld [hl], a ; CHANNEL_OWNED
	ret


;; Takes a channel from the music for a sound effect: the music goes on in time
;; without writing its registers.
;; @param b: the channel
;; @destroys af, e, hl
TakeChannelFromMusic::
	call ChannelOwned
	ld [hl], 0
	ret


;; Finds a channel's CHANNEL_OWNED byte in wMusicChannels.
;; @param b: the channel
;; @return hl: its CHANNEL_OWNED
;; @destroys af, e
ChannelOwned:
	ASSERT CHANNEL_SIZE == 8
	; a = b * 8
	ld a, b
	add a
	add a
	add a
	add LOW(wMusicChannels + CHANNEL_OWNED)
	ld l, a
	adc HIGH(wMusicChannels + CHANNEL_OWNED)
	sub l
	ld h, a
	ret
