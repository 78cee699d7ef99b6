"""Analysis: many games at once, statistics, benchmarks."""
