"""core.rules."""
