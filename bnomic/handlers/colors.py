"""The Colors of Rule 4E68 (Sock Color) and 4E69 (Proposal Color, which adds
Blank), and the Laundry Corporation of each: data the rules fix, kept in one
place so that Players' names, Corporations and Socks agree."""
from __future__ import annotations

# Rule 4E68: the Range of "Sock Color", in the rule's order
SOCK_COLORS = ("Blue", "Black", "Brown", "Burnt Sienna", "Beige", "Burgundy", "Brick Red", "Baby Blue")


def laundry_name(color: str) -> str:
    """Rule 4E68: 'For each sock color there exists one Laundry Corporation titled
    "XXX Corporation" where XXX is the color of that sock.'"""
    return f"{color} Corporation"


LAUNDRY_NAMES = tuple(laundry_name(c) for c in SOCK_COLORS)


def color_named(text: str) -> str | None:
    """The Sock Color a word names, without regard to case or spacing ('burnt  sienna'), or None."""
    key = " ".join(text.split()).casefold()
    return next((c for c in SOCK_COLORS if c.casefold() == key), None)
