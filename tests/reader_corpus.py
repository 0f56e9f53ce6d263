"""The reader's corpora as data: the message files of tests/reader/ (and, as input
text only, tests/heldout/), the game state they assume as a Vocabulary, and the
notation of tests/reader/README.md for what a message reads as.

Readings are compared as parsed lines (`Line`), never as strings, so the order of
`key=value` pairs does not matter; `<document>`, `<text>` and `<new>` match any
non-empty value.
"""
from __future__ import annotations

import inspect
import pathlib
from dataclasses import dataclass

import sys

from bnomic import config
from bnomic.handlers import grammar
from bnomic.mailer.parse import quoted_words
from bnomic.handlers.lexer import with_quoted
from bnomic.handlers.vocabulary import Vocabulary, ministry_words
from bnomic.mailer.parse import own_words

sys.path.insert(0, str(pathlib.Path(__file__).parent / "heldout"))
import tally  # noqa: E402  (the set's format, shared)

HERE = pathlib.Path(__file__).parent
DEVELOPMENT = HERE / "reader"
HELDOUT = HERE / "heldout"

WILDCARDS = ("<document>", "<text>", "<new>")
# roles whose value is a list by nature: rendered comma-joined on one line
LIST_ROLES = frozenset({"players", "ranking", "recruiters"})


# ------------------------------------------------------------------ messages

@dataclass(frozen=True)
class Message:
    id: str
    sender: str                    # a player's name, or "outsider <address>"
    context: str                   # a named context of the README, or ""
    replied: dict                  # {"intents": (3,), "proposals": (12,)}
    body: str
    expect: tuple[str, ...]        # expectation lines, as written


def load(folder: pathlib.Path = DEVELOPMENT) -> list[Message]:
    """Every message of the folder's *.txt files, in file order."""
    out: list[Message] = []
    for path in sorted(folder.glob("*.txt")):
        out.extend(parse_file(path.read_text(encoding="utf-8"), path.name))
    return out


def parse_file(text: str, name: str = "") -> list[Message]:
    """The messages of one file: the held-out set's format (tests/heldout/tally.py reads
    it), with this corpus's `replied:` header."""
    messages = []
    for m in tally.parse(text, name):
        replied = {}
        for part in m.headers.get("replied", "").split():
            key, _, numbers = part.partition("=")
            replied[key] = tuple(int(n) for n in numbers.split(",") if n)
        messages.append(Message(m.id, m.headers.get("from", ""), m.headers.get("context", ""),
                                replied, m.body, tuple(m.expect)))
    return messages


# ------------------------------------------------------------------ the state

PLAYERS = ("Alice", "Bob", "Chuck", "Wooble", "Ais523", "Dana", "The Beast")
PROPOSALS = {10: ("Fishy Business", "Alice"), 11: ("Sock Amnesty", "Wooble"),
             12: ("Clock Fix", "Bob"), 13: ("Beast Diet", "Ais523"),
             14: ("Clock Fix II", "Bob"), 15: ("Tidy Up", "Dana"),
             16: ("Eras Again", "Chuck"), 17: ("Quiet Nweek", "Chuck")}
HOLDERS = {"Change": "Alice", "Society": "Bob", "Questions": "Chuck"}
EMERGENCY = ("emergency", "emergency-ballot", "emergency-tally")
JUDGE_BOB = ("judge-bob", "fined")


def vocabulary(message: Message) -> Vocabulary:
    """The state of tests/reader/README.md (and tests/heldout/README.md) as of the message."""
    actor = None if message.sender.startswith("outsider") else message.sender
    holders = dict(HOLDERS)
    indictments: tuple[int, ...] = (2,)
    if message.context in JUDGE_BOB:
        holders["Judging"] = "Bob"
        indictments = (2, 3)
    refresh = {1: "Alice", 2: "Bob", 3: "Chuck"} if message.context in EMERGENCY else {}
    return with_quoted(Vocabulary(players=PLAYERS, actor=actor, beast="The Beast",
                      ministries=ministry_words(config.defaults()), holders=holders,
                      proposals=dict(PROPOSALS), intents={3: "Wooble", 4: "Alice"},
                      tweaks={3: "Bob"}, refresh=refresh, consultations=(5, 6),
                      indictments=indictments, contracts={1: "The Fishmongers' Guild"},
                      replied_intents=message.replied.get("intents", ()),
                      replied_proposals=message.replied.get("proposals", ()),
                      replying=bool(message.replied),
                      open_proposals=tuple(n for n in sorted(PROPOSALS) if n != 17)
                      ), quoted_words(message.body))


def read(message: Message) -> list:
    """The message read as bnomic reads mail: the sender's own words, then the reader
    with the vocabulary of the state (docs/reader.md's interface). A reader that takes
    no vocabulary yet (before issue 13's reader lands) is called without one."""
    text = own_words(message.body)
    if "vocab" in inspect.signature(grammar.read).parameters:
        _READ_WITH[0] = vocabulary(message)
        return grammar.read(text, vocab=_READ_WITH[0])
    return grammar.read(text)


_READ_WITH: list = [None]       # the vocabulary of the message being read (for nested actions)


# ------------------------------------------------------------------ the notation

@dataclass(frozen=True)
class Line:
    """One line of the notation, parsed: kind is "action", "assert", "incomplete",
    "ambiguous", "transaction", "end transaction" or "nothing"."""
    kind: str
    name: str = ""
    args: tuple = ()               # sorted (key, value) pairs; a value may be a Line
    when: str = ""                 # "nday=12", "nweek", "utc=2026-12-01T12:00"
    missing: tuple[str, ...] = ()
    alternatives: tuple = ()       # ambiguous: Lines (or opaque strings from a reader)

    def __str__(self) -> str:
        return show(self)


def show(line: Line) -> str:
    args = " ".join(f"{k}={_show_value(v)}" for k, v in line.args)
    head = f"{line.name} {args}".strip()
    if line.kind == "action":
        return (f"at {line.when} " if line.when else "") + head
    if line.kind == "assert":
        return f"assert {head}"
    if line.kind == "step":
        return ". " + show(line.alternatives[0])
    if line.kind == "incomplete":
        return f"incomplete: {line.name} missing={','.join(line.missing)} {args}".strip()
    if line.kind == "ambiguous":
        return "ambiguous: " + " | ".join(a if isinstance(a, str) else show(a)
                                          for a in line.alternatives)
    return line.kind


def _show_value(v) -> str:
    if isinstance(v, Line):
        return "{" + show(v) + "}"
    if isinstance(v, tuple):
        v = ",".join(v)
    return f'"{v}"' if (" " in v or not v) else v


def parse_line(text: str) -> Line:
    text = text.strip()
    if text in ("nothing", "transaction", "end transaction"):
        return Line(text)
    if text.startswith(". "):
        inner = text[2:].strip()
        if inner.startswith("assert "):
            name, args = _parse_call(inner[len("assert "):])
            return Line("step", alternatives=(Line("assert", name, args),))
        return Line("step", alternatives=(parse_line(inner),))
    if text.startswith("ambiguous:"):
        parts = _split_top(text[len("ambiguous:"):], "|")
        return Line("ambiguous", alternatives=tuple(parse_line(p) for p in parts))
    if text.startswith("incomplete:"):
        name, args = _parse_call(text[len("incomplete:"):])
        given = dict(args)
        missing = tuple(str(given.pop("missing", "")).split(","))
        return Line("incomplete", name, tuple(sorted(given.items(), key=_key)), missing=missing)
    when = ""
    if text.startswith("at "):
        when, _, text = text[3:].partition(" ")
    name, args = _parse_call(text)
    return Line("action", name, args, when=when)


def _key(pair):
    return pair[0]


def _split_top(text: str, sep: str) -> list[str]:
    """Split at sep outside braces and quotes."""
    parts, depth, quoted, start = [], 0, False, 0
    for i, c in enumerate(text):
        if c == '"':
            quoted = not quoted
        elif not quoted and c == "{":
            depth += 1
        elif not quoted and c == "}":
            depth -= 1
        elif not quoted and depth == 0 and c == sep:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _parse_call(text: str) -> tuple[str, tuple]:
    words = _split_top(text.strip(), " ")
    name, args = words[0], {}
    for word in words[1:]:
        key, _, value = word.partition("=")
        if value.startswith("{") and value.endswith("}"):
            args[key] = parse_line(value[1:-1])
        else:
            args[key] = value[1:-1] if value.startswith('"') and value.endswith('"') else value
    return name, tuple(sorted(args.items(), key=_key))


def expected(message: Message) -> list[Line]:
    lines = [parse_line(t) for t in message.expect]
    return [] if lines == [Line("nothing")] else lines


# ------------------------------------------------------------------ readings as lines

def _value(v, key: str = ""):
    """A reading's argument value in the notation: nested readings as Lines, lists
    as tuples (expanded one line per element by _expand) or comma-joined for the
    roles that are lists by nature, everything else as its string."""
    if hasattr(v, "spec") and hasattr(v, "args"):
        return _action_line(v)
    if isinstance(v, tuple) and len(v) == 2 and hasattr(v[0], "name") and isinstance(v[1], dict):
        return Line("action", v[0].name, _args(v[1]))
    if isinstance(v, (list, tuple, set, frozenset)):
        items = tuple(str(_value(x)) for x in v)
        return ",".join(items) if key in LIST_ROLES else items
    return str(v)


def _args(args: dict, times: int = 1) -> tuple:
    out = {k: _value(v, k) for k, v in args.items() if v is not None and v != ""}
    if times and times > 1:
        out["times"] = str(times)
    return tuple(sorted(out.items(), key=_key))


def _when(w) -> str:
    if w is None:
        return ""
    if w.kind == "nday":
        return f"nday={w.nday}"
    if w.kind == "utc" and w.at is not None:
        return "utc=" + w.at.strftime("%Y-%m-%dT%H:%M")
    return w.kind


def _action_line(r) -> Line:
    line = Line("action", r.spec.name, _args(r.args, getattr(r, "times", 1)),
                when=_when(getattr(r, "when", None)))
    return _nested(r, line) or line


def _nested(r, line: Line) -> Line | None:
    """An intent or the Beast's action holds another action as written (`rest`); its
    handler reads it when it acts. The notation shows it read, as the handler will."""
    rest = r.args.get("rest")
    if r.spec.name not in ("intend", "beast_acts") or not isinstance(rest, str):
        return None
    from bnomic.handlers import intents
    extra, action = {}, rest
    if r.spec.name == "intend":
        m = intents._CONDITIONS.match(rest.strip())
        if m:
            action = m.group("action")
            for c in intents._WITHOUT.finditer(m.group("cond")):
                extra["objections"] = str(intents._count(c.group("n")))
            for c in intents._WITH.finditer(m.group("cond")):
                extra["supporters"] = str(intents._count(c.group("n")))
    got = grammar.read_clause("I " + action.strip(" ,"), _READ_WITH[0])
    if not got or len(got) != 1 or got[0].kind != "action":
        return None
    args = dict(line.args)
    args["rest"] = _action_line(got[0])
    args.update(extra)
    return Line(line.kind, line.name, tuple(sorted(args.items(), key=_key)), line.when, line.missing)


def _expand(line: Line) -> list[Line]:
    """One line per target: a reading whose role holds a list (other than the roles
    that are lists by nature) stands for one action per element, in order."""
    for i, (k, v) in enumerate(line.args):
        if isinstance(v, tuple):
            out = []
            for part in v:
                args = line.args[:i] + ((k, part),) + line.args[i + 1:]
                out.extend(_expand(Line(line.kind, line.name, args, line.when, line.missing)))
            return out
    return [line]


def lines_of(readings) -> list[Line]:
    """The readings of one message in the notation (sentences not understood dropped)."""
    out: list[Line] = []
    for r in readings:
        kind = r.kind
        if kind == "unknown":
            continue
        if kind == "transaction":
            out.append(Line("transaction"))
            for step in r.steps or []:
                for inner in lines_of([step]):
                    out.append(Line("step", alternatives=(inner,)))
            out.append(Line("end transaction"))
        elif kind == "assertion":
            out.append(Line("assert", r.assertion.name, _args(r.args)))
        elif kind == "incomplete":
            out.append(Line("incomplete", r.spec.name, _args(r.args),
                            missing=tuple(getattr(r, "missing", ()) or ())))
        elif kind == "ambiguous":
            alts = tuple(_value(a) if not isinstance(a, str) else a
                         for a in (getattr(r, "alternatives", ()) or ()))
            out.append(Line("ambiguous", alternatives=alts))
        else:
            out.extend(_expand(_action_line(r)))
    return out


# ------------------------------------------------------------------ comparing

def same(want: Line, got: Line) -> bool:
    """Does a reading's line match an expectation line (wildcards allowed)?"""
    if want.kind != got.kind or want.name != got.name or want.when != got.when:
        return False
    if want.kind == "step":
        return same(want.alternatives[0], got.alternatives[0])
    if want.kind == "incomplete" and tuple(sorted(want.missing)) != tuple(sorted(got.missing)):
        return False
    if want.kind == "ambiguous":
        if len(want.alternatives) != len(got.alternatives):
            return False
        if any(isinstance(a, str) for a in got.alternatives):
            return True            # described in words only: the count is all we can check
        rest = list(got.alternatives)
        for a in want.alternatives:
            match = next((g for g in rest if same(a, g)), None)
            if match is None:
                return False
            rest.remove(match)
        return True
    if [k for k, _ in want.args] != [k for k, _ in got.args]:
        return False
    for (_, w), (_, g) in zip(want.args, got.args):
        if isinstance(w, Line):
            if not (isinstance(g, Line) and same(w, g)):
                return False
        elif w in WILDCARDS:
            if isinstance(g, Line) or not g.strip():
                return False
        elif isinstance(g, Line) or w != g:
            return False
    return True


def matches(want: list[Line], got: list[Line]) -> bool:
    return len(want) == len(got) and all(same(w, g) for w, g in zip(want, got))


def action_names(line: Line) -> set[str]:
    """Every action a line names, nested ones included."""
    names = {line.name} if line.kind in ("action", "incomplete") else set()
    for _, v in line.args:
        if isinstance(v, Line):
            names |= action_names(v)
    for a in line.alternatives:
        if isinstance(a, Line):
            names |= action_names(a)
    return names
