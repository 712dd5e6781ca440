"""core.checks."""
