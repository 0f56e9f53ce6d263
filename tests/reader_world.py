"""A small game for the reader's tests: its Players, Open proposals and Ministries, and the
reader over it (`read`, `votes`). Imported by the reader's test modules, never collected."""
import bnomic.handlers.engine  # noqa: F401  (registers every action)
from bnomic.handlers import grammar
from bnomic.handlers.vocabulary import Vocabulary, default

PLAYERS = ("Alice", "Bob", "Chuck", "Dana", "Wooble", "The Beast")
PROPOSALS = {10: ("Fishy Business", "Alice"), 11: ("Sock Amnesty", "Wooble"), 12: ("Clock Fix", "Bob"),
             13: ("Beast Diet", "Wooble"), 15: ("Tidy Up", "Dana"), 16: ("Eras Again", "Chuck")}


def vocab(actor="Dana", **more):
    more.setdefault("proposals", PROPOSALS)
    more.setdefault("open_proposals", tuple(more["proposals"]))
    return Vocabulary(players=PLAYERS, actor=actor, beast="The Beast", ministries=default().ministries, **more)


def read(text, v=None, quoted=""):
    return grammar.read(text, v or vocab(), quoted=quoted)


def votes(text, v=None):
    return [(r.args["vote"], str(r.args["which"])) for r in read(text, v) if r.kind == "action"
            and r.spec.name == "vote"]


def actions(text, v=None):
    """(action, its arguments as text) for each action read."""
    return [(r.spec.name, {k: str(x) for k, x in r.args.items() if x not in (None, "")})
            for r in read(text, v) if r.kind == "action"]
