"""The games. Each package holds its rules, component data, text rendering and heuristics,
and registers itself with the engine's registry on import."""
