"""The table companion: reads the dice, keeps the shared table state, announces what everybody must hear."""

__version__ = "0.1.0"
