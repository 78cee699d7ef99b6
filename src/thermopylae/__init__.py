"""thermopylae: play and study the three "300" board games about the Persian Wars."""

__version__ = "0.1.0"
