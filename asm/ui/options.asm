; The option pages between the title and the board: the game's mode, then
; (against the engine) its level. See include/game.inc.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/game.inc"


SECTION "Game options", WRAM0

; GAME_MODE_*: who plays which side.
wGameMode:: db
; LEVEL_*: the engine's strength (left as it was in a two-player game).
wGameLevel:: db
