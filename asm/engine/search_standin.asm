; A stand-in for the engine's search (search.asm, being written), with its
; interface, so that the board screen can be built against it: it plays the
; first legal move. Deleted when the search is merged.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "engine/engine.inc"


SECTION "Search interface", WRAM0

; Inputs: the depth (1 ...) and the node budget (little-endian, $FFFFFFFF for
; none).
wSearchDepth:: db
wSearchNodeBudget:: ds 4
; Outputs: the move (from square, to byte), its score (little-endian, signed,
; the side to move's view), the nodes searched and the deepest iteration
; finished.
wSearchBestMove:: ds MOVE_SIZE
wSearchScore:: dw
wSearchNodes:: ds 4
wSearchDepthDone:: db


SECTION "Search stop", HRAM

; Nonzero stops the search.
hSearchStop:: db


SECTION "Search stand-in", ROM0

;; Chooses the side to move's first legal move (the position must have one).
;; @destroys af, bc, de, hl
SearchBestMove::
	ld hl, wMoveStack
	call GenerateMoves
	ld hl, wMoveStack
	ld de, wSearchBestMove
	ld a, [hli]
	ld [de], a
	inc de
	ld a, [hl]
	ld [de], a
	xor a
	ld [wSearchScore], a
	ld [wSearchScore + 1], a
	ld a, [wSearchDepth]
	ld [wSearchDepthDone], a
	ret
