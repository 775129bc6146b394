"""Everything that works without a screen. Nothing under ``core`` imports Qt."""
