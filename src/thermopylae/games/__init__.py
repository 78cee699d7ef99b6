"""The games. Each package holds its rules, component data, text rendering and heuristics,
and registers itself with the engine's registry on import, which the registry does when
the game is first asked for (a command pays for the game it plays, not the others)."""
