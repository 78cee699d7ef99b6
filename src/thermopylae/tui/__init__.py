"""Terminal faces: playing a game at a prompt."""
