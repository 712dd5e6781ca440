"""core.players."""
