"""The game state the held-out messages assume (README.md, "The game state every
message assumes" and its named contexts), as data, and the `Vocabulary` the reader
resolves a message against.

Intents announced by messages of the set are given placeholder numbers (1001,
1002, ...) so that "this intent" in a reply can be resolved; `PLACEHOLDERS` maps a
number back to the set's notation (`@h0304#1`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from bnomic.config import Config, defaults
from bnomic.handlers.ministries import aliases
from bnomic.handlers.players import BEAST_NAMES  # noqa: F401  (the Beast's names)
from bnomic.handlers.lexer import with_quoted
from bnomic.handlers.vocabulary import Vocabulary
from bnomic.mailer.parse import quoted_words
from action_map import DISPLAYS

# "Contracts: 'The Fishmongers' Guild' (Contract 1), parties Alice, Bob and Dana" (README)
CONTRACTS = {1: "The Fishmongers' Guild"}
SUBGAMES = {1: "Mackerel Poker"}
BEAST = "The Beast"            # bnomic's name for the Beast (defaults.toml players.beast)
PLAYERS = ("Alice", "Bob", "Chuck", "Wooble", "Ais523", "Dana")
EXCHANGE_RATE = defaults()["currencies"]["mackerel"]["exchange_rate"]   # 4E34: m5 a point
# the intents of the state, and what each announced (in the set's notation)
INTENDED = {3: "beast action={give amount=m20 to=Wooble}", 4: 'retitle rule=9 title="The Eras of B"'}


@dataclass(frozen=True)
class State:
    nweek: int = 7
    holders: dict = field(default_factory=lambda: {"Change": "Alice", "Society": "Bob", "Questions": "Chuck"})
    proposals: dict = field(default_factory=lambda: {
        10: ("Fishy Business", "Alice"), 11: ("Sock Amnesty", "Wooble"), 12: ("Clock Fix", "Bob"),
        13: ("Beast Diet", "Ais523"), 14: ("Clock Fix II", "Bob"), 15: ("Tidy Up", "Dana"),
        16: ("Eras Again", "Chuck"), 17: ("Quiet Nweek", "Chuck")})
    open_proposals: tuple = (10, 11, 12, 13, 14, 15, 16)
    intents: dict = field(default_factory=lambda: {3: "Wooble", 4: "Alice"})
    tweaks: dict = field(default_factory=lambda: {3: "Bob"})
    refresh: dict = field(default_factory=dict)
    consultations: tuple = (5, 6)
    indictments: tuple = (2,)


_EMERGENCY = dict(refresh={1: "Alice", 2: "Bob", 3: "Chuck"})
_JUDGE = dict(holders={"Change": "Alice", "Society": "Bob", "Questions": "Chuck", "Judging": "Bob"},
              indictments=(2, 3))

# README's named contexts: only what changes the words a message may use
CONTEXTS: dict[str, State] = {
    "": State(),
    "voting-start": State(),
    "results": State(nweek=8),
    "emergency-start": State(),
    "emergency": State(**_EMERGENCY),
    "emergency-ballot": State(**_EMERGENCY),
    "emergency-tally": State(**_EMERGENCY),
    "judge-bob": State(**_JUDGE),
    "fined": State(**_JUDGE),
}


def ministry_words() -> dict[str, str]:
    return aliases(Config(defaults()))


def sender(message) -> str | None:
    """The message's `from:` as a game name; None for an outsider."""
    who = message.headers.get("from", "")
    return None if who.startswith("outsider") else who


class World:
    """The whole set's placeholders for intents announced in its messages, and
    each message's Vocabulary."""

    def __init__(self, messages, parse_line):
        self.by_id = {m.id: m for m in messages}
        self.parse = parse_line
        self.placeholders: dict[int, str] = {}      # 1001 -> "@h0304#1"
        self.announced: dict[str, list[int]] = {}   # "h0304" -> [1001]
        self.intent_actions: dict[int, str] = {}    # 1001 -> the expected intended action, as written
        self.intent_authors: dict[int, str] = {}
        n = 1000
        for m in messages:
            for line in m.expect:
                if line.startswith("intend "):
                    n += 1
                    k = len(self.announced.setdefault(m.id, [])) + 1
                    self.announced[m.id].append(n)
                    self.placeholders[n] = f"@{m.id}#{k}"
                    self.intent_actions[n] = parse_line(line)[1].get("action", "")
                    self.intent_authors[n] = sender(m) or ""
        self.ministries = ministry_words()

    def chain(self, message) -> list:
        """The messages message replies to, nearest first."""
        out, seen = [], set()
        r = message.headers.get("reply-to")
        while r and r in self.by_id and r not in seen:
            seen.add(r)
            out.append(self.by_id[r])
            r = self.by_id[r].headers.get("reply-to")
        return out

    def state(self, message) -> State:
        return CONTEXTS[message.headers.get("context", "")]

    def intents(self, message) -> dict[int, str]:
        """State's intents and those announced in the messages this one replies to."""
        found = dict(self.state(message).intents)
        for m in self.chain(message):
            for n in self.announced.get(m.id, []):
                found[n] = self.intent_authors[n]
        return found

    def intents_do(self, message) -> dict[int, tuple[str, ...]]:
        """What each intent of `intents` announced, as bnomic's action names (the game's
        Intent.action): the set's action name, through action_map's rows."""
        from action_map import ROWS
        names: dict[str, list[str]] = {}
        for bnomic_name, row in ROWS.items():
            names.setdefault(row.action, []).append(bnomic_name)
        out = {}
        for n in self.intents(message):
            said = INTENDED.get(n) or self.intent_actions.get(n, "")
            head = said.strip().lstrip("{").split(" ")[0].rstrip("}")
            if head in names:
                out[n] = tuple(names[head])
        return out

    def thread_intents(self, message) -> tuple[int, ...]:
        """The intents announced by the nearest message up the thread that announced any
        (bnomic's find_intent: In-Reply-To, then the References, nearest first)."""
        seen, mid = set(), message.headers.get("reply-to")
        while mid and mid not in seen and len(seen) < 20:
            seen.add(mid)
            if self.announced.get(mid):
                return tuple(self.announced[mid])
            up = self.by_id.get(mid)
            mid = up.headers.get("reply-to") if up is not None else None
        return ()

    def replied_intents(self, message) -> tuple[int, ...]:
        r = message.headers.get("reply-to")
        return tuple(self.announced.get(r, [])) if r else ()

    def vocabulary(self, message) -> Vocabulary:
        s = self.state(message)
        return with_quoted(Vocabulary(players=PLAYERS + (BEAST,), actor=sender(message), beast=BEAST,
                          ministries=dict(self.ministries), holders=dict(s.holders),
                          proposals=dict(s.proposals), open_proposals=tuple(s.open_proposals),
                          intents=self.intents(message), intent_actions=self.intents_do(message),
                          tweaks=dict(s.tweaks), refresh=dict(s.refresh),
                          consultations=s.consultations, indictments=s.indictments, contracts=dict(CONTRACTS),
                          replied_intents=self.replied_intents(message),
                          replying=bool(message.headers.get("reply-to")),
                          **self.subgames(), **self.addressee(message), **self.replied_challenges(message),
                          **self.replied_scheduled(message), **self.replied_answers(message)),
                          quoted_words(message.body))

    def subgames(self) -> dict:
        """README's Subgames by name ("Subgame 1 "Mackerel Poker" is Pending"), where this
        reader's vocabulary knows them."""
        if "subgames" not in Vocabulary.__dataclass_fields__:
            return {}
        return {"subgames": dict(SUBGAMES)}

    def addressee(self, message) -> dict:
        """The Player whose message this one answers, as bnomic's vocabulary has it (only
        where this reader knows the field)."""
        if "addressee" not in Vocabulary.__dataclass_fields__:
            return {}
        replied = self.by_id.get(message.headers.get("reply-to", ""))
        who = sender(replied) if replied is not None else None
        return {"addressee": who if who and who != sender(message) else None}

    def replied_challenges(self, message) -> dict:
        """The challenge (Rule 4E50) the replied message made, as bnomic's vocabulary has it
        (only where this reader knows the field): its obligation (numbered from 2001 here)
        and the Ministry whose display it names (the replier's, where the set left the
        display unsaid)."""
        if "replied_challenges" not in Vocabulary.__dataclass_fields__:
            return {}
        replied = self.by_id.get(message.headers.get("reply-to", ""))
        out = []
        for k, line in enumerate(replied.expect if replied is not None else ()):
            if line.startswith("challenge "):
                roles = self.parse(line)[1]
                said = roles.get("display", "").strip('"').lower().replace("’", "'")
                said = said[:-2] if said.endswith("'s") else said
                ministry = DISPLAYS.get(said) or self.ministries.get(said)
                if ministry is None:
                    held = [m for m, h in self.state(message).holders.items() if h == sender(message)]
                    ministry = held[0] if len(held) == 1 else None
                if ministry:
                    out.append((2001 + k, ministry))
        return {"replied_challenges": tuple(out)}

    def replied_answers(self, message) -> dict:
        """The Consultations the replied message Answered (Rule 4E18), as bnomic's vocabulary
        has them."""
        if "replied_answers" not in Vocabulary.__dataclass_fields__:
            return {}
        replied = self.by_id.get(message.headers.get("reply-to", ""))
        out = []
        for line in replied.expect if replied is not None else ():
            if line.startswith("answer-consultation "):
                n = self.parse(line)[1].get("consultation", "")
                if n.isdigit():
                    out.append(int(n))
        return {"replied_answers": tuple(out)}

    def replied_scheduled(self, message) -> dict:
        """The actions the replied message scheduled (Rule 4E7), as bnomic's vocabulary has
        them (numbered from 3001 here)."""
        if "replied_scheduled" not in Vocabulary.__dataclass_fields__:
            return {}
        replied = self.by_id.get(message.headers.get("reply-to", ""))
        return {"replied_scheduled": tuple(3001 + k for k, line in enumerate(replied.expect if replied else ())
                                           if line.startswith("schedule "))}

    def number_of(self, name: str) -> int | None:
        """'@h0304#1' -> 1001; '3' -> 3."""
        for n, said in self.placeholders.items():
            if said == name:
                return n
        return int(name) if str(name).isdigit() else None

    def intent_name(self, number: int) -> str:
        """1001 -> '@h0304#1'; 3 -> '3'."""
        return self.placeholders.get(number, str(number))
