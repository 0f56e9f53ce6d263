"""The one registry every rule area declares itself in.

* `@action(...)`: a game action, its phrasings beside the function that applies it.
* `@at_start_of(...)` / `@at_end_of(...)`: what the rules do when a period of
  game time begins or ends (Rule 4E14), ordered by Rule 4E75's precedence.
* `@deadline(...)`: what happens when a scheduled deadline falls due.
* `@command(...)`: an operator command (`bnomic admin ...`), kept in the log.
* `@on(EventKind, ...)`: what an area does when something happens in another
  (handlers/events.py: typed events); `emit(ctx, event)` runs every reaction,
  ordered by Rule 4E75's precedence, as the period hooks are.
* `@duty(ministry, name, ...)`: a duty a Ministry owes, which bnomic performs for
  a Minister who delegated it (Rule 4E45) after every change.

An action is declared with its frames (handlers/frames.py): the verbs that name it
and its typed roles, read in any order (docs/reader.md). Assertions (Rule 4E12) are
still phrasings: regular expressions matched whole, case-blind, in which
placeholders stand for parameters: `{player}`, `{amount}`, `{name}`, `{number}`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from fractions import Fraction
from typing import Callable

from ..store import Rule, database, versions

# What each placeholder of an assertion may match. Loose on purpose: the handler
# reads the value and says precisely what is wrong with it, citing the rule.
PLACEHOLDERS = {
    "player": r"[^,;:]+?",
    "players": r".+?",
    "amount": r"\S+(?:\s+(?:of\s+)?[a-z]+)?",
    "name": r"\S.*?",
    "number": r"\S+",
}

_PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")


def compile_phrasing(phrasing: str) -> re.Pattern:
    def group(m: re.Match) -> str:
        kind, name = m.group(1), m.group(2) or m.group(1)
        return f"(?P<{name}>{PLACEHOLDERS[kind]})"
    return re.compile(_PLACEHOLDER.sub(group, phrasing), re.IGNORECASE)


@dataclass
class ActionSpec:
    name: str
    fn: Callable
    rule: str
    frames: tuple[Frame, ...]
    example: str
    says: str = ""              # how a receipt says the reading: "vote {vote} on {which}"; a
                                # "[ to {what}]" part is said only when its roles were given
    not_actions: tuple[str, ...] = ()   # sentences that must read to nothing
    players_only: bool = True   # Rule 4E7: "any player may" means only players
    # Rules 4E21, 4E22: an action done "without N objections" / "with N supporters"
    # needs an announced intent first. `waiting` is a rule's own time before it
    # may be done ("2 rdays", "2 ndays"); None is 4E21's "between 2 and 4 ndays".
    # N may be a configuration key that holds it (invariant 7; intents.terms reads it).
    objections: int | str | None = None
    supporters: int | str | None = None
    waiting: str | None = None
    takes_document: bool = False   # Rule 4E8: the rest of the message is a document it needs
    # A document written after the action's sentence ("... proposal:" then the text,
    # up to "END PROPOSAL", or inside {{ }}): its kind; the handler gets it as `document`.
    document: str | None = None
    document_needed: bool = False  # ... and the action is nothing without it (Rule 4E8: "a full description")
    # Called as attempted(ctx, actor, **args) when an attempt is refused, after the
    # rollback, for a rule that counts attempts (4E77: "has not previously attempted").
    attempted: Callable | None = None
    # Rule 4E81: its rule says "a Legal Entity" (or a COO, a Minister, a party), so a
    # Corporation may do it through an Officer ("On behalf of the X Corporation, ...", 4E79)
    legal_entity: bool = False

    @property
    def needs_intent(self) -> bool:
        return self.objections is not None or self.supporters is not None

    @property
    def method(self) -> str:
        """How its rule has it done (Rules 4E21, 4E22): "with support and without objection"."""
        parts = []
        supporters = self.supporters
        if isinstance(supporters, str):         # a configuration key ("displays.approval_supporters")
            from ..config import Config, defaults
            supporters = Config(defaults()).get(supporters, 1)
        if supporters:
            parts.append("with support" if supporters == 1 else f"with {supporters} supporters")
        if self.objections:
            parts.append("without objection" if self.objections == 1
                         else f"without {self.objections} objections")
        return " and ".join(parts)

    @property
    def roles(self) -> tuple:
        """Every role of every frame, in order (a role two frames share, twice)."""
        return tuple(x for fr in self.frames for x in fr.roles)

    def describe(self, args: dict) -> str:
        """The reading as a receipt echoes it: "vote AGAINST on 5"."""
        if self.says:
            try:
                # a [segment] is said only when every {role} in it was given
                says = _OPTIONAL.sub(lambda m: m.group(1) if all(
                    args.get(k) for k in _FIELD.findall(m.group(1))) else "", self.says)
                return " ".join(says.format_map(_Blank(args)).split())
            except (KeyError, ValueError, IndexError):
                pass
        shown = ", ".join(f"{k} {v}" for k, v in args.items() if k != "document" and v)
        return self.name.replace("_", " ") + (f": {shown}" if shown else "")


_OPTIONAL = re.compile(r"\[([^\[\]]*+)\]")
_FIELD = re.compile(r"\{(\w++)\}")


class _Blank(dict):
    def __missing__(self, key):
        return ""


ACTIONS: list[ActionSpec] = []


def action(name: str, *frames: Frame, rule: str, example: str, says: str = "",
           not_actions: tuple[str, ...] = (), players_only: bool = True,
           objections: int | None = None, supporters: int | None = None,
           waiting: str | None = None, takes_document: bool = False, document: str | None = None,
           document_needed: bool = False, attempted: Callable | None = None,
           legal_entity: bool = False):
    """Declare a game action: its frames (how players write it), and the function doing it.

    The function is called as fn(ctx, actor, **parameters) and either changes
    the game (recording events) or raises Rejected with the reason and rule.
    """
    if not frames or not all(type(f).__name__ == "Frame" for f in frames):     # frames.Frame
        raise TypeError(f"action {name!r}: declare how it is written with frame(...) (docs/reader.md)")

    def register(fn):
        ACTIONS.append(ActionSpec(
            name=name, fn=fn, rule=rule, example=example, says=says,
            frames=tuple(frames),
            not_actions=tuple(not_actions), players_only=players_only,
            objections=objections, supporters=supporters, waiting=waiting,
            takes_document=takes_document, document=document, document_needed=document_needed,
            attempted=attempted, legal_entity=legal_entity))
        return fn
    return register


def action_named(name: str) -> ActionSpec:
    return next(spec for spec in ACTIONS if spec.name == name)


# ----------------------------------------------------------------- assertions

class Undecidable(Exception):
    """Rule 4E12: an assertion whose truth cannot be determined with certainty."""


@dataclass
class AssertionSpec:
    name: str
    fn: Callable                # fn(ctx, actor, **parameters) -> bool, or raises Undecidable
    rule: str
    patterns: list[re.Pattern]

    def match(self, sentence: str) -> dict | None:
        for pattern in self.patterns:
            m = pattern.fullmatch(sentence)
            if m:
                return {k: v.strip() for k, v in m.groupdict().items() if v is not None}
        return None


ASSERTIONS: list[AssertionSpec] = []


def assertion(name: str, *phrasings: str, rule: str):
    """Declare an assertion about the gamestate, as Transactions (Rule 4E12) use them."""
    def register(fn):
        ASSERTIONS.append(AssertionSpec(name, fn, rule, [compile_phrasing(p) for p in phrasings]))
        return fn
    return register


def _cannot_check(ctx, actor, text: str) -> bool:
    raise Undecidable(f"bnomic knows no way to check \"{text}\"")


# Rule 4E12: "assertions about the state of the game" that bnomic cannot check are still
# assertions ("I assert that I still have at least m100"); the Transaction then Fails, since
# their truth "cannot be determined with finality and certainty". Matched by no phrasing:
# the reader gives it to a step that says it asserts.
UNCHECKED = AssertionSpec("unchecked", _cannot_check, "4E12", [])
ASSERTIONS.append(UNCHECKED)


# ------------------------------------------------------- periods of game time

@dataclass(frozen=True)
class Hook:
    edge: str           # "start" | "end"
    period: str         # "nday" | "nweek" | "voting" | "midnight" (every 00:00 UTC, even with time stopped)
    nday: int | None    # for "nday": only that nday, or every nday when None
    rule: str
    fn: Callable = field(compare=False)


HOOKS: list[Hook] = []


def at_start_of(period: str, *, rule: str, nday: int | None = None):
    def register(fn):
        HOOKS.append(Hook("start", period, nday, rule, fn))
        return fn
    return register


def at_end_of(period: str, *, rule: str, nday: int | None = None):
    def register(fn):
        HOOKS.append(Hook("end", period, nday, rule, fn))
        return fn
    return register


@lru_cache(maxsize=None)            # the rules named in the code and the ruleset: a few hundred
def rule_number(rule: str | None) -> int:
    m = re.search(r"(?<!\d)(\d+)$", rule or "")
    return int(m.group(1)) if m else 10**9


def power(number: int) -> Fraction:
    """Rule 4E75: the Power of the rule with this number (1/2 unless a change set another)."""
    if versions.active(database):       # every Rule's Power, read once per transaction
        return versions.cached(database, "powers", ("rule",), _powers).get(number, Fraction(1, 2))
    row = Rule.get_or_none(Rule.number == number)
    return Fraction(row.power_num, row.power_den) if row else Fraction(1, 2)


def _powers() -> dict[int, Fraction]:
    return {r.number: Fraction(r.power_num, r.power_den)
            for r in Rule.select(Rule.number, Rule.power_num, Rule.power_den)}


def rule_power(rule: str | None) -> Fraction:
    """Rule 4E75: a rule's Power (1/2 unless a change set another)."""
    number = rule_number(rule)
    return power(number) if number < 10**9 else Fraction(1, 2)


def precedence(rule: str | None) -> tuple:
    """Rule 4E75: simultaneous changes happen highest Power first, then lowest number."""
    return (-rule_power(rule), rule_number(rule))


# ---------------------------------------------------------------- reactions

@dataclass(frozen=True)
class Reaction:
    kind: type          # an event class of handlers/events.py
    rule: str
    fn: Callable = field(compare=False)


REACTIONS: list[Reaction] = []


def on(*kinds: type, rule: str):
    """Declare what an area does when an event of one of these kinds happens
    (handlers/events.py). Called as fn(ctx, event)."""
    if not kinds or not all(isinstance(k, type) for k in kinds):
        raise TypeError("@on(...) takes event classes of handlers/events.py, not names")

    def register(fn):
        for kind in kinds:
            REACTIONS.append(Reaction(kind, rule, fn))
        return fn
    return register


def in_order(items: list, rule_of: Callable = lambda item: item.rule) -> list:
    """Rule 4E75: simultaneous changes in order of their rules' precedence
    (the order of declaration among equals)."""
    return [item for _, item in sorted(enumerate(items), key=lambda ix: (precedence(rule_of(ix[1])), ix[0]))]


def emit(ctx, event) -> None:
    """Run every reaction declared for the event's kind, in Rule 4E75's order (the
    order kept within a transaction while the Rules' Powers are unchanged)."""
    kind = type(event)
    for reaction in versions.cached(database, ("reactions in order", kind), ("rule",),
                                    lambda: in_order([r for r in REACTIONS if issubclass(kind, r.kind)])):
        reaction.fn(ctx, event)


# -------------------------------------------------------------------- duties

@dataclass(frozen=True)
class Duty:
    ministry: str       # the Ministry that owes it, or "*": every Ministry its own
    name: str           # how Ministers name it ("ballot"), kept in `ministries.delegated_duties`
    rule: str
    does: str           # what it is, as the MetaMin's display and the receipts say it
    fn: Callable = field(compare=False)     # fn(ctx): performs it where delegated (Rule 4E45)


DUTIES: list[Duty] = []


def duty(ministry: str, name: str, *, rule: str, does: str):
    """Declare a duty a Ministry owes (Rule 4E45), and the function by which bnomic
    performs it for a Minister who delegated it; run after every change."""
    def register(fn):
        if any(d.name == name for d in DUTIES):
            raise ValueError(f"duty {name!r} is declared twice")
        DUTIES.append(Duty(ministry, name, rule, does, fn))
        return fn
    return register


def duty_named(name: str) -> Duty | None:
    return next((d for d in DUTIES if d.name == name), None)


# ------------------------------------------------------------------ deadlines

DEADLINES: dict[str, Callable] = {}


def deadline(name: str):
    """Declare what happens when a deadline with this action name falls due.
    Called as fn(ctx, **args)."""
    def register(fn):
        DEADLINES[name] = fn
        return fn
    return register


# ----------------------------------------------------------- operator commands

COMMANDS: dict[str, Callable] = {}


def command(verb: str):
    """Declare an operator command; called as fn(ctx, *args) and returns a summary."""
    def register(fn):
        COMMANDS[verb] = fn
        return fn
    return register
