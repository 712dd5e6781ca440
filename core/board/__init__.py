"""core.board."""
