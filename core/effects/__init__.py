"""core.effects."""
