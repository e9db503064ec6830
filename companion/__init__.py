"""Sovereign Companion: a table companion for board games on a Raspberry Pi."""

__version__ = "0.1.0"
