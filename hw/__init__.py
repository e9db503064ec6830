"""Hardware: each device next to its fake. Nothing in companion.rules or fsm imports from here."""
