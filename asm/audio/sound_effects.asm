; Sound effects: short sounds on one channel, which they borrow from the music
; for as long as they play (see TakeChannelFromMusic and ReturnChannelToMusic in
; music.asm).
;
; An effect is the channel it takes, then steps: how many frames the step lasts
; and the five values written to the channel's NRx0-NRx4 when it begins; a 0 ends
; the effect.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/audio.inc"


; The period of a note on a pulse channel, from its frequency in Hz
DEF PERIOD_A5 EQU 2048 - 131072 / 880
DEF PERIOD_E6 EQU 2048 - 131072 / 1319
DEF PERIOD_G5 EQU 2048 - 131072 / 784
DEF PERIOD_C3 EQU 2048 - 131072 / 131
DEF PERIOD_A2 EQU 2048 - 131072 / 110

; Sweep pace 1 (a step every 1/128 s), upwards, by 1/128 of the period each step
DEF CHIRP_UP EQU 1 << 4 | AUD1SWEEP_UP | 7

; A pulse 1 step: frames, NR10 sweep, NR11 duty, NR12 envelope, period
MACRO pulse_step
	db \1, \2, \3, \4, LOW(\5), HIGH(\5) | AUD1HIGH_RESTART
ENDM

; A noise step: frames, NR42 envelope, NR43 clock
MACRO noise_step
	db \1, 0, 0, \2, \3, AUD4GO_RESTART
ENDM

DEF END_OF_EFFECT EQU 0

DEF NO_EFFECT_REQUEST EQU 0


SECTION "Sound effect state", WRAM0

; NO_EFFECT_REQUEST or the requested effect + 1, taken by the next UpdateAudio
wEffectRequest: db
; Frames until the effect's next step; 0 while no effect plays
wEffectWait: db
; The effect's next step
wEffectPointer: dw
; The channel the effect holds
wEffectChannel: db


SECTION "Sound effects", ROM0

;; Sets up the sound effects with none playing. Part of InitAudio.
;; @destroys af
InitSoundEffects::
	ASSERT NO_EFFECT_REQUEST == 0
	xor a
	ld [wEffectRequest], a
	ld [wEffectWait], a
	ret


;; Asks for a sound effect (from the next frame on), in place of one playing.
;; SFX_GAME_OVER plays the game-over jingle, a song, in place of the music; as a
;; sound effect, it is heard even while the music is off.
;; @param a: the effect (SFX_MOVE, SFX_CAPTURE, SFX_CHECK, SFX_ERROR,
;; SFX_GAME_OVER)
;; @destroys af
PlaySoundEffect::
	cp SFX_GAME_OVER
	jr z, .jingle
	inc a
	ld [wEffectRequest], a
	ret
.jingle
	ld a, SONG_GAME_OVER
	jp PlaySongAsEffect


;; Starts the requested effect, if any, on the channel it takes; the first step
;; plays in this frame. An effect still playing ends first.
;; @destroys af, bc, de, hl
TakeSoundEffectRequest::
	ld a, [wEffectRequest]
	and a
	ret z
	dec a
	ld e, a
	ld a, NO_EFFECT_REQUEST
	ld [wEffectRequest], a
	ld a, [wEffectWait]
	and a
	jr z, .start
	push de
	call EndSoundEffect
	pop de
.start
	ld d, 0
	ld hl, SoundEffects
	add hl, de
	add hl, de
	ld a, [hli]
	ld h, [hl]
	ld l, a
	ld a, [hli]
	ld [wEffectChannel], a
	ld b, a
	ld a, l
	ld [wEffectPointer], a
	ld a, h
	ld [wEffectPointer + 1], a
	ld a, 1
	ld [wEffectWait], a
	jp TakeChannelFromMusic


;; Plays the effect's next step when its time has come; at the end, gives the
;; channel back to the music.
;; @destroys af, bc, de, hl
UpdateSoundEffect::
	ld a, [wEffectWait]
	and a
	ret z
	dec a
	ld [wEffectWait], a
	ret nz
	ld hl, wEffectPointer
	ld a, [hli]
	ld h, [hl]
	ld l, a
	ld a, [hli]
	and a
	jr z, EndSoundEffect
	ld [wEffectWait], a
	call EffectRegisters
	REPT CHANNEL_REGISTERS
		ld a, [hli]
		ldh [c], a
		inc c
	ENDR
	ld a, l
	ld [wEffectPointer], a
	ld a, h
	ld [wEffectPointer + 1], a
	ret


;; Ends the effect playing and gives its channel back to the music.
;; @destroys af, bc, de, hl
EndSoundEffect:
	xor a
	ld [wEffectWait], a
	call EffectRegisters
	jp ReturnChannelToMusic


;; While an effect plays, keeps its channel away from the music (after the music
;; has been turned on again).
;; @destroys af, b, de, hl
KeepEffectChannel::
	ld a, [wEffectWait]
	and a
	ret z
	ld a, [wEffectChannel]
	ld b, a
	jp TakeChannelFromMusic


;; The effect's channel and its registers.
;; @return b: the channel; c: LOW of its NRx0
;; @destroys af
EffectRegisters:
	ld a, [wEffectChannel]
	ld b, a
	ASSERT CHANNEL_REGISTERS == 5
	add a
	add a
	add b
	add LOW(rNR10)
	ld c, a
	ret


; The effects, indexed by SFX_*; SFX_GAME_OVER is a song.
SoundEffects:
	dw SfxMove
	dw SfxCapture
	dw SfxCheck
	dw SfxError
	ASSERT SFX_GAME_OVER == NUM_SFX - 1
	assert_table_length SoundEffects, SFX_GAME_OVER, 2

SfxMove:
	db CHANNEL_PULSE1
	pulse_step 6, CHIRP_UP, AUD1LEN_DUTY_50, $B1, PERIOD_G5
	db END_OF_EFFECT

SfxCapture:
	db CHANNEL_NOISE
	noise_step 3, $F1, $24
	noise_step 9, $C2, $56
	db END_OF_EFFECT

SfxCheck:
	db CHANNEL_PULSE1
	pulse_step 5, AUD1SWEEP_UP, AUD1LEN_DUTY_25, $F0, PERIOD_A5
	pulse_step 5, AUD1SWEEP_UP, AUD1LEN_DUTY_25, $F0, PERIOD_E6
	pulse_step 5, AUD1SWEEP_UP, AUD1LEN_DUTY_25, $F0, PERIOD_A5
	pulse_step 12, AUD1SWEEP_UP, AUD1LEN_DUTY_25, $F2, PERIOD_E6
	db END_OF_EFFECT

SfxError:
	db CHANNEL_PULSE1
	pulse_step 4, 0, AUD1LEN_DUTY_50, $A0, PERIOD_C3
	pulse_step 6, 0, AUD1LEN_DUTY_50, $A1, PERIOD_A2
	db END_OF_EFFECT
