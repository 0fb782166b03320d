"""server: see ../shared/DESIGN.md (not built yet)."""
