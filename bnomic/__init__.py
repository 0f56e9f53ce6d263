"""bnomic: runs a B Nomic game by email."""
__version__ = "0.1.0"
