"""The rules of each game: pure functions and data. Imports nothing from hw/ and nothing from fsm/."""
