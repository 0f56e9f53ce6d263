"""The edge: mail in and out, the engine loop that feeds the game, the command line."""
