"""A small game for the reader's tests: its Players, Open proposals and Ministries, and the
reader over it (`read`, `votes`, `actions`). A test module whose game has other proposals
makes its own `World(PROPOSALS)`. Imported by the reader's test modules, never collected."""
import bnomic.handlers.engine  # noqa: F401  (registers every action)
from bnomic.handlers import grammar
from bnomic.handlers.vocabulary import Vocabulary, default

PLAYERS = ("Alice", "Bob", "Chuck", "Dana", "Wooble", "The Beast")
PROPOSALS = {10: ("Fishy Business", "Alice"), 11: ("Sock Amnesty", "Wooble"), 12: ("Clock Fix", "Bob"),
             13: ("Beast Diet", "Wooble"), 15: ("Tidy Up", "Dana"), 16: ("Eras Again", "Chuck")}


class World:
    def __init__(self, proposals=PROPOSALS):
        self.proposals = proposals

    def vocab(self, actor="Dana", **more):
        more.setdefault("proposals", self.proposals)
        more.setdefault("open_proposals", tuple(more["proposals"]))
        return Vocabulary(players=PLAYERS, actor=actor, beast="The Beast", ministries=default().ministries, **more)

    def read(self, text, v=None, quoted=""):
        return grammar.read(text, v or self.vocab(), quoted=quoted)

    def votes(self, text, v=None):
        return [(r.args["vote"], str(r.args["which"])) for r in self.read(text, v) if r.kind == "action"
                and r.spec.name == "vote"]

    def actions(self, text, v=None, quoted=""):
        """(action, its arguments as text) for each action read."""
        return [(r.spec.name, {k: str(x) for k, x in r.args.items() if x not in (None, "")})
                for r in self.read(text, v, quoted) if r.kind == "action"]


_WORLD = World()
vocab, read, votes, actions = _WORLD.vocab, _WORLD.read, _WORLD.votes, _WORLD.actions
