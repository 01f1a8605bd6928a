; The songs and the instruments they share, as `cargo xtask assets` converts them
; from assets/music/*.mid into generated/music/.

INCLUDE "include/hardware.inc"
INCLUDE "include/macros.inc"
INCLUDE "include/audio.inc"


; Aligned, so that the driver finds an entry by adding to the low byte only.
SECTION "Music instruments", ROMX, ALIGN[8]

INCLUDE "generated/music/instruments.asm"
	ASSERT HIGH(@ - 1) == HIGH(PeriodTable), "the instrument tables cross a 256-byte page"


SECTION "Songs", ROMX

INCLUDE "generated/music/songs.asm"
