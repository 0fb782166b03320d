"""The rules of Sequence, pure: no I/O, no OpenCV (see ../shared/RULES.md)."""
