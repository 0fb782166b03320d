"""seqcam's command line: the edge where the packages meet the player (see ../shared/DESIGN.md)."""
