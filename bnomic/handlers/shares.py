"""Proportions the rules state in words: "less than one half the number of
Vested players" (4E15), "at least half that Ministry's Reward" and "Half of the
Ministry's Reward" (4E48), the Judge's "priority of 1/2" (4E73). They are the
game's (invariant 7), so they live in the configuration as text ("1/2"), are
read as exact fractions, and are said back in the rules' words."""
from __future__ import annotations

from fractions import Fraction

from .context import Context

# how a reason says a share: "half the Reward"; any other is "3/5 of the Reward"
_WORDS = {"1/2": "half", "1/3": "a third", "2/3": "two thirds", "1/4": "a quarter",
          "3/4": "three quarters"}


def share(ctx: Context, key: str) -> Fraction:
    """The configuration's share at `key`, exactly (config.check_value holds it
    to a fraction from 0 to 1)."""
    return Fraction(str(ctx.config.owned(key)))


def words(f: Fraction) -> str:
    """'half' (as in "half the Reward"), or '3/5 of'."""
    return _WORDS.get(str(f), f"{f} of")
