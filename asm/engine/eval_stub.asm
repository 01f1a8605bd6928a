; TEMPORARY stand-in for aeval's Evaluate and piece-square lookup.
INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/chess.inc"
INCLUDE "engine/engine.inc"
SECTION "Eval stub", ROM0
Evaluate::
	ld hl, 8
	ret
PieceSquareEntry::
	xor a
	ret
