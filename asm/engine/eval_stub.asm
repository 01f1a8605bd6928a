; TEMPORARY stand-in for aeval's Evaluate and piece-square lookup (from-scratch sum).
INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/chess.inc"
INCLUDE "engine/engine.inc"
SECTION "Eval stub tables", ROMX
StubPstWhitepawn:
	db 0, 0, 0, 0, 0, 0, 2, 4, 2, 252, 8, 12, 18, 12, 6, 22, 28, 34, 28, 22, 48, 52, 56, 52, 48, 0, 0, 0, 0, 0
StubPstWhiteknight:
	db 216, 234, 240, 234, 216, 236, 0, 8, 0, 236, 244, 12, 20, 12, 244, 244, 12, 20, 12, 244, 236, 0, 8, 0, 236, 216, 234, 240, 234, 216
StubPstWhitebishop:
	db 244, 248, 248, 248, 244, 250, 6, 4, 6, 250, 252, 8, 12, 8, 252, 252, 8, 12, 8, 252, 250, 6, 4, 6, 250, 244, 248, 248, 248, 244
StubPstWhiterook:
	db 0, 2, 4, 4, 0, 252, 0, 0, 0, 252, 252, 0, 0, 0, 252, 252, 0, 0, 0, 252, 12, 16, 16, 16, 12, 4, 6, 6, 6, 4
StubPstWhitequeen:
	db 246, 252, 254, 252, 246, 252, 2, 4, 2, 252, 254, 4, 6, 4, 254, 254, 4, 6, 4, 254, 252, 2, 4, 2, 252, 246, 252, 254, 252, 246
StubPstWhiteking:
	db 4, 8, 12, 6, 2, 248, 246, 244, 246, 248, 232, 228, 226, 228, 232, 220, 216, 216, 216, 220, 212, 208, 208, 208, 212, 206, 206, 206, 206, 206
StubPstBlackpawn:
	db 0, 0, 0, 0, 0, 48, 52, 56, 52, 48, 22, 28, 34, 28, 22, 8, 12, 18, 12, 6, 0, 2, 4, 2, 252, 0, 0, 0, 0, 0
StubPstBlackknight:
	db 216, 234, 240, 234, 216, 236, 0, 8, 0, 236, 244, 12, 20, 12, 244, 244, 12, 20, 12, 244, 236, 0, 8, 0, 236, 216, 234, 240, 234, 216
StubPstBlackbishop:
	db 244, 248, 248, 248, 244, 250, 6, 4, 6, 250, 252, 8, 12, 8, 252, 252, 8, 12, 8, 252, 250, 6, 4, 6, 250, 244, 248, 248, 248, 244
StubPstBlackrook:
	db 4, 6, 6, 6, 4, 12, 16, 16, 16, 12, 252, 0, 0, 0, 252, 252, 0, 0, 0, 252, 252, 0, 0, 0, 252, 0, 2, 4, 4, 0
StubPstBlackqueen:
	db 246, 252, 254, 252, 246, 252, 2, 4, 2, 252, 254, 4, 6, 4, 254, 254, 4, 6, 4, 254, 252, 2, 4, 2, 252, 246, 252, 254, 252, 246
StubPstBlackking:
	db 206, 206, 206, 206, 206, 212, 208, 208, 208, 212, 220, 216, 216, 216, 220, 232, 228, 226, 228, 232, 248, 246, 244, 246, 248, 4, 8, 12, 6, 2
StubPstPointers:
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw StubPstWhitebishop
	dw StubPstWhiterook
	dw StubPstWhitequeen
	dw StubPstWhitepawn
	dw 0
	dw 0
	dw 0
	dw StubPstWhiteknight
	dw 0
	dw 0
	dw 0
	dw StubPstWhiteking
	dw 0
	dw 0
	dw 0
	dw 0
	dw StubPstBlackbishop
	dw StubPstBlackrook
	dw StubPstBlackqueen
	dw StubPstBlackpawn
	dw 0
	dw 0
	dw 0
	dw StubPstBlackknight
	dw 0
	dw 0
	dw 0
	dw StubPstBlackking
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
StubMaterial:
	dw 0
	dw 310
	dw 480
	dw 880
	dw 100
	dw 0
	dw 0
	dw 0
	dw 300
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0
	dw 0

SECTION "Eval stub", ROM0
;; a: piece, l: square -> a: entry. Preserves bc, de.
PieceSquareEntry::
	push bc
	push de
	ld b, a
	ld a, l
	call SquareToSetupIndex
	ld c, a
	ld a, b
	and $3F
	ld l, a
	ld h, 0
	add hl, hl
	ld de, StubPstPointers
	add hl, de
	ld a, [hli]
	ld h, [hl]
	ld l, a
	ld b, 0
	add hl, bc
	ld a, [hl]
	pop de
	pop bc
	ret

;; hl: side to move's score + tempo. Preserves bc, de.
Evaluate::
	push bc
	push de
	xor a
	ld [wStubSum], a
	ld [wStubSum + 1], a
	ld c, 0
.square
	ld h, HIGH(wBoard)
	ld l, c
	ld a, [hl]
	and PIECE_WHITE | PIECE_BLACK
	jr z, .next
	ld a, [hl]
	ld b, a
	call PieceSquareEntry
	ld e, a
	add a
	sbc a
	ld d, a
	ld a, b
	and ROLE_MASK
	add a
	ld l, a
	ld h, 0
	push bc
	ld bc, StubMaterial
	add hl, bc
	pop bc
	ld a, [hli]
	ld h, [hl]
	ld l, a
	add hl, de
	bit B_PIECE_BLACK, b
	jr z, .add
	xor a
	sub l
	ld l, a
	ld a, 0
	sbc h
	ld h, a
.add
	ld a, [wStubSum]
	add l
	ld [wStubSum], a
	ld a, [wStubSum + 1]
	adc h
	ld [wStubSum + 1], a
.next
	inc c
	jr nz, .square
	ld a, [wStubSum]
	ld l, a
	ld a, [wStubSum + 1]
	ld h, a
	ldh a, [hSideToMove]
	and a
	jr z, .white
	xor a
	sub l
	ld l, a
	ld a, 0
	sbc h
	ld h, a
.white
	ld de, 8
	add hl, de
	pop de
	pop bc
	ret

SECTION "Eval stub sum", WRAM0
wStubSum: dw
