"""The Rules (Rule 4E36) and their Powers (Rule 4E75), loaded from a ruleset in
the seed file's format: "## Section", "### Rule 4E14: NTime", text."""
from __future__ import annotations

from ..ruleset import rows, seed_ruleset  # noqa: F401  (seed_ruleset: the default ruleset)
from ..store import Rule
from .context import Context
from .registry import power  # noqa: F401  (Rule 4E75: a rule's Power, read where 4E75's order is kept)


def load(ctx: Context, text: str) -> int:
    """Rule 4E36: the game's initial Rules, each with the default Power 1/2 (4E75).
    (No event: a game upgraded to schema 5 gets the same rows from its migration.)"""
    initial = rows(text, ctx.setup.start_at)
    for r in initial:
        Rule.create(**r)
    return len(initial)


def current():
    return Rule.select().where(Rule.repealed == False).order_by(Rule.number)  # noqa: E712


def next_number() -> int:
    """Rule 4E36: the lowest number never used; every number up to the highest
    ever held counts as used (rulings.md)."""
    last = Rule.select(Rule.number).order_by(Rule.number.desc()).first()
    return (last.number if last else 0) + 1


def label(number: int) -> str:
    return f"4E{number}"
