"""core.summon."""
