"""Compiled engine core (cardsim.core._engine)."""
