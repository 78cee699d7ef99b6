"""Players: agents that choose actions through the game protocol only."""

from thermopylae.ai.base import Agent, make_agent, parse_spec

__all__ = ["Agent", "make_agent", "parse_spec"]
