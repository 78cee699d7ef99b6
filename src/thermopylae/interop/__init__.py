"""Learning interfaces: fixed-size observations and action masks (`observe`), PettingZoo
(`pettingzoo`) and Gymnasium (`gymnasium`) environments. Needs the `rl` extra."""
