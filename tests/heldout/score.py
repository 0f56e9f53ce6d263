"""Score bnomic's reader on the held-out mail set (issue 13's acceptance).

    python tests/heldout/score.py            # the table
    python tests/heldout/score.py --markdown # the same as Markdown

Each message's own words (`mailer.parse.own_words`) are read with
`grammar.read(text, vocab=...)`, against the state README.md describes (and
the message's context and reply chain: assumed_state.py). Each Reading becomes
lines of the set's notation through the table in action_map.py, and is
compared with the message's expectations:

* an action line is read when an action of that name with equal roles was
  read (`<document>`/`<text>` match any non-empty value; nested actions are
  compared the same way); an action read that no line asks for is a false
  action, and on a chatter message a false action on chatter;
* `ambiguous:` is right when the reader reports an ambiguous reading and does
  none of the readings; `incomplete:` when the reader reports an attempt at
  that action missing that role (role names through action_map.py);
* a silent miss is an expected line that nothing the reader produced for the
  message (a wrong action, a near-miss, an ambiguity) can stand for.

The set's actions bnomic does not implement (issue 15) are counted apart and
not scored. The reader must never be tuned on these messages (README.md):
this script prints aggregate numbers only.
"""
from __future__ import annotations

import inspect
import os
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import action_map  # noqa: E402
import assumed_state  # noqa: E402
import tally  # noqa: E402
from action_map import ANSWER_WORDS, ANY, ANY_TEXT, DISPLAYS, ROLE_KINDS, ROWS, STRUCTURAL  # noqa: E402

import bnomic.handlers  # noqa: E402,F401  (registers every action)
from bnomic.handlers import grammar  # noqa: E402
from bnomic.handlers.registry import ACTIONS  # noqa: E402
from bnomic.mailer.parse import own_words, quoted_words  # noqa: E402

# ------------------------------------------------------------------ floors

FLOORS = {
    "recall": 0.97,              # of every scored line: actions, incomplete and ambiguous
    "false_on_chatter": 0,       # actions read from messages that are chatter
    "silent_misses": 0,          # expected lines the reader neither read nor reported
}

# ------------------------------------------------------- which actions count


def bnomic_actions() -> set[str]:
    return {spec.name for spec in ACTIONS}


def unknown_rows() -> list[str]:
    """Rows of action_map.py naming an action bnomic no longer has (a rename)."""
    return sorted(set(ROWS) - bnomic_actions())


def unmapped_actions() -> list[str]:
    """bnomic's actions the mapping table has no row for."""
    return sorted(bnomic_actions() - set(ROWS))


def not_implemented() -> set[str]:
    """The set's actions no bnomic action maps to (issue 15): not scored."""
    mapped = {row.action for name, row in ROWS.items() if name in bnomic_actions()}
    return set(tally.ACTIONS) - mapped - set(STRUCTURAL)


# ------------------------------------------------------------ the reader

_READ_TAKES_VOCAB = "vocab" in inspect.signature(grammar.read).parameters
_MATCH_TAKES_VOCAB = len(inspect.signature(grammar.match_action).parameters) > 1


_READ_TAKES_QUOTED = "quoted" in inspect.signature(grammar.read).parameters


def read(text: str, vocab, quoted: str = ""):
    """grammar.read(text, vocab=vocab, quoted=...), as bnomic's engine reads a post (its own
    words, and the lines it quotes); an older reader takes less."""
    if _READ_TAKES_QUOTED:
        return grammar.read(text, vocab=vocab, quoted=quoted)
    return grammar.read(text, vocab=vocab) if _READ_TAKES_VOCAB else grammar.read(text)


def match_action(text: str, vocab):
    return grammar.match_action(text, vocab) if _MATCH_TAKES_VOCAB else grammar.match_action(text)


# ----------------------------------------------------- values, canonically

def _clean(value) -> str:
    s = str(value).strip().strip("\"'“”‘’").strip()
    s = re.sub(r"\s+", " ", s)
    return s.rstrip(".!?,;:").strip().strip("\"'“”‘’").strip()


def _fold(value) -> str:
    return _clean(value).casefold()


class Scope:
    """What one message's values are resolved against."""

    def __init__(self, world: assumed_state.World, message):
        self.world = world
        self.message = message
        self.vocab = world.vocabulary(message)
        self.state = world.state(message)
        self.actor = assumed_state.sender(message)
        self.chain = [m.id for m in world.chain(message)]
        self.exchange_rate = assumed_state.EXCHANGE_RATE

    # the set's notation for a value of each kind
    def value(self, role: str, value):
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
            return value                                   # a nested action already notated
        if isinstance(value, (list, tuple, set, frozenset)):
            return ",".join(str(self.value(role, v)) for v in value)
        kind = ROLE_KINDS.get(role, "text")
        if value is None:
            return None
        if role == "consultation" and value == "this":    # the one the replied mail submitted or Answered
            return self._replied_consultation()
        if isinstance(value, bool):
            return str(value)
        return getattr(self, "_" + kind)(value)

    def _replied_consultation(self):
        mid = self.message.headers.get("reply-to", "")
        replied = self.world.by_id.get(mid)
        for line in replied.expect if replied is not None else ():
            if line.startswith("submit-consultation"):
                return "@" + mid
            if line.startswith("answer-consultation"):
                return self._number(tally.parse_line(line)[1].get("consultation", ""))
        return "this"

    def _text(self, v):
        return _fold(v)

    def _sentence(self, v):
        # what is asserted: "Assert: X", "I assert that X" and "X" say the same X
        s = re.sub(r"^(?:[-*]\s*)?(?:(?:i\s+(?:hereby\s+|also\s+)?)?assert(?:ion)?|step\s*\d*)\b\s*[:.)-]?\s*"
                   r"(?:that\s+)?", "", _fold(v))
        return re.sub(r"[^\w\s]", "", s).strip()

    def _word(self, v):
        w = re.sub(r"[^\w\s]", "", _clean(v)).upper().strip()
        return ANSWER_WORDS.get(w, w).replace(" ", "")

    def _money(self, v):
        s = _fold(v).replace(",", "")
        m = re.fullmatch(r"m\s*(\d+)|(\d+)\s*(?:m|mackerel|macks?|mack)?|(\w+)\s+(?:mackerel|macks?)", s)
        if not m:
            return s
        if m.group(3):
            n = grammar.number(m.group(3))
            return f"m{n}" if n is not None else s
        return f"m{int(m.group(1) or m.group(2))}"

    def _number(self, v):
        if isinstance(v, int):
            return str(v)
        s = _fold(v)
        m = re.search(r"\d+", s)
        if m:
            return str(int(m.group()))
        n = grammar.number(s.split()[-1]) if s else None
        return str(n) if n is not None else s

    def _numbers(self, v):
        s = _fold(v)
        return ",".join(str(int(n)) for n in re.findall(r"\d+", s)) or s

    def _rule(self, v):
        m = re.search(r"(?:4e)?(\d+)\s*$", _fold(v))
        return str(int(m.group(1))) if m else _fold(v)

    def _player(self, v):
        k = _fold(v)
        k2 = re.sub(r"^the\s+", "", k)
        if k in ("me", "myself", "i") and self.actor:
            return self.actor
        if k in assumed_state.BEAST_NAMES or k2 in assumed_state.BEAST_NAMES:
            return "Beast"
        for p in assumed_state.PLAYERS:
            if p.casefold() in (k, k2):
                return p
        ministry = self.world.ministries.get(k2)
        if ministry and ministry in self.state.holders:
            return self.state.holders[ministry]
        return _clean(v)

    def _players(self, v):
        parts = re.split(r"\s*(?:,|\band\b|&)\s*", _clean(v))
        return ",".join(self._player(p) for p in parts if p)

    def _ministry(self, v):
        k = re.sub(r"['’]s(?:\s++(?:public\s++)?display)?$|\s++(?:public\s++)?display$", "", _fold(v))
        k = re.sub(r"^(?:the|my)\s+", "", k)
        return self.world.ministries.get(k, _clean(v))

    def _display(self, v):
        k = re.sub(r"^(?:the|my)\s+", "", _fold(v))
        k = re.sub(r"\s++(?:public\s++)?display$", "", k)
        # "Registrar's report (of nweek 7)", "Chairman's display of proposals", "Registrar's list of
        # players": the display of the officer named
        m = re.fullmatch(r"(?P<title>[a-z0-9 ]+?)['’]s?\s+(?:public\s+)?(?:report|display|list|ballot|results)\b.*", k)
        if m and self._ministry(m.group("title")):
            return self._ministry(m.group("title"))
        return DISPLAYS.get(k) or self._ministry(v)

    def _when(self, v):
        if hasattr(v, "kind"):                         # grammar.When
            if v.kind == "nday" and v.nday:
                at = f" {v.time} utc" if getattr(v, "time", None) else ""     # "nday 11 09:00 UTC"
                nweek = getattr(v, "nweek", None) or (self.state.nweek + 1 if getattr(v, "next_nweek", False)
                                                      else None)             # "Teucer of next nweek"
                return self._time_text((f"nweek {nweek} nday {v.nday}" if nweek else f"nday {v.nday}") + at)
            if v.kind == "nweek":
                return f"nweek {self.state.nweek + 1}"
            if v.kind == "utc" and v.at is not None:
                return v.at.isoformat()
            if v.kind == "daytime" and getattr(v, "month", None):
                return f"{v.time} utc {v.mday} {_MONTHS[v.month - 1]}"
            return self._time_text(_fold(getattr(v, "text", "")))
        return self._time_text(_fold(v))

    def _time_text(self, s):  # noqa: C901
        """The same time in the set's words and the reader's: "at 18:00 UTC" is "18:00 UTC",
        "18:00 UTC today" (said today) too; "2026-11-24 18:00 UTC" is its ISO form; "the end
        of this nweek" is the start of the next."""
        s = re.sub(r"^(?:at|on)\s+", "", s)
        s = re.sub(r"\s+(?:today|tonight)$", "", s)
        # a weekday with its time, in either order: "18:00 UTC (on) Tuesday"
        s = re.sub(r"^(?:next\s+)?(\w+day)(?:\s*,)?\s+at\s+(\d\d?:\d\d\s+utc)$", r"\2 \1", s)
        s = re.sub(r"^(\d\d?:\d\d\s+utc)\s+(?:on\s+)?(?:next\s+)?(\w+day)$", r"\1 \2", s)
        # a date with no year and its time, in any order: "12:00 UTC (on) 25 November", "26 November 18:00 UTC"
        m = (re.fullmatch(r"(?P<t>\d\d?:\d\d)\s+utc\s+(?:on\s+)?(?:the\s+)?(?P<rest>.+)", s)
             or re.fullmatch(r"(?:the\s+)?(?P<rest>.+?)(?:\s*,)?\s+(?:at\s+)?(?P<t>\d\d?:\d\d)\s+utc", s))
        if m:
            d = (re.fullmatch(r"(?P<d>\d\d?)(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m>[a-z]+)\.?", m.group("rest"))
                 or re.fullmatch(r"(?P<m>[a-z]+)\.?\s+(?P<d>\d\d?)(?:st|nd|rd|th)?", m.group("rest")))
            month = next((x for x in _MONTHS if d and x.startswith(d.group("m")[:3])), None)
            if month:
                hh, mm = m.group("t").split(":")
                return f"{int(hh):02d}:{mm} utc {int(d.group('d'))} {month}"
        m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)\s+(\d\d):(\d\d)(?:\s+utc)?", s)
        if m:
            return "%s-%s-%sT%s:%s:00+00:00" % m.groups()
        m = re.fullmatch(r"(\d\d):(\d\d)\s+utc\s+(?:on\s+)?(\d{4})-(\d\d)-(\d\d)", s)   # "00:00 UTC on 2026-12-01"
        if m:
            return "%s-%s-%sT%s:%s:00+00:00" % (m.group(3), m.group(4), m.group(5), m.group(1), m.group(2))
        m = re.fullmatch(r"nday\s+(\d+)\s+of\s+nweek\s+(\d+)", s)          # "nday 10 of nweek 8"
        if m:
            s = f"nweek {m.group(2)} nday {m.group(1)}"
        m = re.fullmatch(r"(?:(?:the\s+)?start\s+of\s+)?nweek\s+(\d+)(?:\s+nday\s+1)?", s)
        if m:                       # the start of nweek 8 is its nday 1 (Rule 4E7: "the start of the next occurrence")
            return f"nweek {m.group(1)}"
        if re.fullmatch(r"(?:the\s+)?(?:end\s+of\s+(?:this|the)\s+nweek|start\s+of\s+(?:the\s+)?next\s+nweek"
                        r"|next\s+nweek)", s):
            return f"nweek {self.state.nweek + 1}"
        return s

    def _intent(self, v):
        """An intent named by number, by a placeholder, or by the message replied to."""
        if isinstance(v, int):
            return self.world.intent_name(v)
        s = _fold(v)
        if s.startswith("@"):
            return s if "#" in s else self._only_intent_of(s[1:])
        m = re.search(r"#\s*(\d+)|\bintent(?:ion)?\s+(?:number\s+|no\.?\s*)?(\d+)\b|^(\d+)$", s)
        if m:
            return self.world.intent_name(int(m.group(1) or m.group(2) or m.group(3)))
        if s in ("", "this", "that", "it", "the above", "this intent", "that intent", "the above intent"):
            # (bnomic's find_intent: In-Reply-To, then the References, nearest first)
            replied = self.vocab.replied_intents or self.world.thread_intents(self.message)
            return self.world.intent_name(replied[0]) if len(replied) == 1 else None
        return self._intent_by_description(s)

    def _only_intent_of(self, mid):
        found = self.world.announced.get(mid.lower(), [])
        return self.world.intent_name(found[0]) if len(found) == 1 else "@" + mid

    def _intent_by_description(self, s):
        """"Wooble's intent to X": the open intent of that author (and action), as
        bnomic's find_intent resolves it; else the intended action itself."""
        m = re.match(r"^(?:(?P<who>.+?)['’]s\s+)?(?:the\s+|an?\s+|my\s+)?(?:intent(?:ion)?|plan)s?\b"
                     r"(?:\s+to\s+(?P<what>.+))?", s)
        who = m.group("who") if m else None
        what = (m.group("what") if m else s)
        action = None
        if what:
            found = match_action("I " + what, self.vocab)
            if found:
                lines = notate_action(found[0].name, found[1], 1, None, self)
                action = lines[0] if len(lines) == 1 else None
        candidates = sorted(self.world.intents(self.message).items())
        if who:
            who = self._player(who)
            candidates = [(n, a) for n, a in candidates if a == who]
        if action is not None:
            same = [(n, a) for n, a in candidates if equal(self.intended(n), action, self)]
            if same or not candidates:
                candidates = same
        if len(candidates) == 1:
            return self.world.intent_name(candidates[0][0])
        return action if action is not None else s

    def intended(self, number):
        """The action an intent announced (the set's expectations, or README's state)."""
        text = assumed_state.INTENDED.get(number) or self.world.intent_actions.get(number, "")[1:-1]
        return expected_action(text, self) if text else None


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")


# ------------------------------------------------------ readings -> lines

@dataclass
class Out:
    """What the reader produced for a message, in the set's terms."""
    kind: str                                  # action | incomplete | ambiguous | report | unmapped
    name: str = ""
    roles: dict = field(default_factory=dict)
    missing: frozenset = frozenset()


def _args_of(x):
    return dict(getattr(x, "args", None) or {})


def nested(value, scope, document=None):
    """A nested action (intend, beast) as (name, roles): from a Reading, a
    (spec, args) pair, or the action's words."""
    if value is None:
        return None
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
        if isinstance(value[0], str):
            return value
        spec, args = value
        lines = notate_action(spec.name, {**args, **({"document": document} if document else {})}, 1, None, scope)
        return lines[0] if len(lines) == 1 else None
    if hasattr(value, "spec"):
        outs = notate(value, scope)
        acts = [o for o in outs if o.kind == "action"]
        return (acts[0].name, acts[0].roles) if len(acts) == 1 else None
    text = str(value).strip()
    found = match_action("I " + text, scope.vocab)
    if not found:
        return None
    return nested((found[0], found[1]), scope, document)


def _split_intended(rest):
    """'give m5 to X without objection' -> ('give m5 to X', objections, supporters),
    as intents.intend reads it."""
    from bnomic.handlers import intents
    m = intents._CONDITIONS.match(rest.strip())
    if not m:
        return rest, None, None
    objections = supporters = None
    for c in intents._WITHOUT.finditer(m.group("cond")):
        objections = intents._count(c.group("n"))
    for c in intents._WITH.finditer(m.group("cond")):
        supporters = intents._count(c.group("n"))
    return m.group("action"), objections, supporters


def notate_action(name, args, times, when, scope, text=""):
    """One bnomic action -> the set's lines [(name, roles)]."""
    row = ROWS.get(name)
    if row is None:
        return []
    args = dict(args)
    roles, listed = {}, {}
    document = args.get("document")
    if name == "intend" and isinstance(args.get("rest"), str):
        action, objections, supporters = _split_intended(args.pop("rest"))
        args["action"] = action
        if objections is not None:
            args.setdefault("objections", objections)
        if supporters is not None:
            args.setdefault("supporters", supporters)
    if name == "exchange" and not args.get("number") and args.get("wanted"):
        # "points for m20" is 4 points (4E34: 1 point buys m5)
        wanted = re.fullmatch(r"m(\d+)", scope.value("amount", args["wanted"]) or "")
        if wanted and int(wanted.group(1)) % scope.exchange_rate == 0:
            args["number"] = str(int(wanted.group(1)) // scope.exchange_rate)
    if name in ("submit_proposal", "revise_proposal") and isinstance(document, str) and not args.get("title"):
        from bnomic.handlers.proposals import read_document   # as the handler reads its document
        doc = read_document(document)
        if doc["title"]:                # a "Title:" line in the document (Rule 4E15)
            args["title"], args["document"] = doc["title"], doc["body"]
    if name == "submit_consultation" and isinstance(document, str):
        from bnomic.handlers.consultations import read_consultation   # as the handler reads its document
        args["document"] = read_consultation(document)["question"] or document   # ("Question: ..." its label)
    if name == "teach_trick" and isinstance(document, str) and not args.get("timing"):
        from bnomic.handlers.beast import _TIMING_LINE, TIMINGS   # as the handler reads its document
        m = _TIMING_LINE.search(document)
        if m:
            args["timing"] = TIMINGS.get(" ".join(m.group("t").lower().split()), m.group("t"))
    if name == "approve_display" and not args.get("ministry") and scope.message is not None:
        args["display"] = scope.message.body          # Rule 4E8: the message is the display given in full
    if name == "answer_consultation" and isinstance(args.get("word"), str):
        from bnomic.handlers.consultations import answer_word    # as the handler reads it
        from bnomic.handlers.context import Rejected
        try:
            args["word"] = answer_word(args["word"])[0]          # "YES, with the following Oracularity"
        except Rejected:
            pass
    if name == "join" and isinstance(args.get("name"), str) and not args.get("recruiters"):
        from bnomic.handlers.players import split_recruiters   # as the join handler reads its name
        args["name"], args["recruiters"] = split_recruiters(args["name"])
    for arg, value in args.items():
        role = row.roles.get(arg)
        if role is None or value is None or value == "" or value == [] or value == ():
            continue
        if arg == "what" and str(args.get("target") or "").lstrip("#").isdigit():
            continue                            # (the intent named by number: find_intent takes that first)
        if role == "action":
            roles[role] = nested(value, scope, document if name == "intend" else None)
        elif role == row.split:
            roles[role] = value                 # split into items below, each made canonical
        elif isinstance(value, (list, tuple)) and ROLE_KINDS.get(role) not in ("players", "numbers"):
            listed[role] = list(value)          # a set ("every Player"): one line each
        else:
            roles[role] = scope.value(role, value)
    if "intent" in row.roles.values() and "intent" not in roles:
        replied = scope.vocab.replied_intents          # "I object." in a reply: the intent replied to
        if len(replied) == 1:
            roles["intent"] = scope.world.intent_name(replied[0])
        elif not replied:                              # further up the thread, as bnomic's find_intent
            up = scope.world.thread_intents(scope.message)     # looks through the References
            if len(up) == 1:
                roles["intent"] = scope.world.intent_name(up[0])
    roles.update({role: scope.value(role, value) for role, value in row.fixed.items()})
    action = row.action
    if name == "submit_refresh_proposal" and args.get("which"):
        action = "revise-refresh"           # the sender's own named: its revision (Rule 4E0, step 5)
        roles["refresh"] = scope.value("refresh", args["which"])
    if name == "withdraw_stance":
        said = str(args.get("stance", "")) or text
        if re.search(r"\bsupport", said, re.I) and not re.search(r"\bobjection", said, re.I):
            action = "withdraw-support"
    if times and times != 1:
        roles["times"] = str(times)
    if name == "transfer_sock" and str(args.get("count") or "1") != "1":
        roles["times"] = str(args["count"])        # "both my Burgundy Socks": two (Rule 4E68)
    lines = [(action, roles)]
    if row.split and roles.get(row.split):
        items = _items(row.split, roles[row.split], scope)
        lines = [(action, {**roles, row.split: scope.value(row.split, item)}) for item in items]
    for role, items in listed.items():
        lines = [(a, {**r, role: scope.value(role, item)}) for a, r in lines for item in items]
    if when is not None:
        at = scope.value("at", when)
        lines = [("schedule", {"at": at, "action": line}) for line in lines]
    return lines


def _items(role, value, scope):
    """'10,12' or 'all open proposals' -> ['10', '12'] (sets expanded against the state)."""
    if isinstance(value, (list, tuple)):
        return list(value)
    s = _fold(value)
    if re.search(r"\b(?:all|every(?:thing)?)\b", s):
        return [str(n) for n in scope.state.open_proposals]
    out = []
    for a, dash, b in re.findall(r"(\d+)(?:\s*(-|–|to|through|thru)\s*(\d+))?", s):
        if dash and int(b) >= int(a) and int(b) - int(a) < 50:
            out += [str(n) for n in range(int(a), int(b) + 1)]
        else:
            out.append(str(int(a)))
    return out or [value]


def notate(reading, scope) -> list[Out]:
    """One Reading -> what it says in the set's terms."""
    kind = reading.kind
    if kind == "transaction":
        outs = [Out("action", "begin-transaction")]
        for step in reading.steps or []:
            outs += notate(step, scope)
        if getattr(reading, "error", ""):       # (bnomic does none of its steps: engine._apply_transaction)
            return [Out("incomplete", "begin-transaction", missing=frozenset({"end"}))]
        return outs + [Out("action", "end-transaction")]
    if kind == "assertion":
        return [Out("action", "assert", {"text": scope.value("text", reading.text)})]
    if kind == "ambiguous":
        return [Out("ambiguous")]
    spec = getattr(reading, "spec", None)
    if kind == "incomplete" and spec is not None:
        row = ROWS.get(spec.name)
        if row is None:
            return [Out("unmapped", spec.name)]
        missing = frozenset(row.roles.get(m, m) for m in (getattr(reading, "missing", ()) or ()))
        # an attempt on several things at once ("yes to 10 and 11"): one attempt on each
        said = next((v for a, v in (reading.args or {}).items() if row.split and row.roles.get(a) == row.split), None)
        n = len(_items(row.split, said, scope)) if said not in (None, "", [], ()) else 1
        return [Out("incomplete", row.action, missing=missing)] * max(1, n)
    if kind == "action" and spec is not None:
        if spec.name not in ROWS:              # an action done all the same: it counts as one
            return [Out("action", "(" + spec.name + ")")]
        lines = notate_action(spec.name, reading.args, getattr(reading, "times", 1),
                              getattr(reading, "when", None), scope, getattr(reading, "text", ""))
        return [Out("action", n, r) for n, r in lines]
    if getattr(reading, "error", ""):
        return [Out("report")]
    return [Out("report")]                # a near-miss or "not understood"


# ----------------------------------------------------- expectations, compared

def expected_action(text, scope):
    """'give amount=m10 to=Wooble' -> ('give', {'amount': 'm10', 'to': 'Wooble'}), values
    canonical; nested actions and intents named by their action parsed too."""
    name, raw = tally.parse_line(text)
    roles = {}
    for role, value in raw.items():
        if value.startswith("{") and value.endswith("}"):
            roles[role] = expected_action(value[1:-1], scope)
        elif value in ANY_TEXT or value in ANY or value.startswith("<unknown"):
            roles[role] = value
        elif value.startswith("@") and role != "intent":
            roles[role] = value           # an object with no number yet, named by its message
        else:
            roles[role] = scope.value(role, value)
    return name, roles


def unmodelled(name):
    return {r for row in ROWS.values() if row.action == name for r in row.unmodelled}


def equal(expected, produced, scope) -> bool:
    if expected is None or produced is None:
        return False
    (en, er), (pn, pr) = expected, produced
    if en != pn:
        return False
    skip = unmodelled(en)
    for role in set(er) | set(pr):
        if role in skip:
            continue
        e, p = er.get(role), pr.get(role)
        if isinstance(e, str) and e in ANY_TEXT:
            if p is None or (isinstance(p, str) and not p.strip()):
                return False
            continue
        if isinstance(e, str) and (e in ANY or e.startswith("<unknown")):
            continue
        if isinstance(e, str) and e.startswith("@") and role != "intent":
            continue                      # the reader can name it only as "the one replied to"
        if role == "intent" and isinstance(e, tuple) != isinstance(p, tuple) and e is not None and p is not None:
            # an intent named by its action, and one named by number or message: the same
            # intent if it announced that action
            named, action = (p, e) if isinstance(e, tuple) else (e, p)
            if not equal(scope.intended(scope.world.number_of(named)), action, scope):
                return False
            continue
        if isinstance(e, tuple) or isinstance(p, tuple):
            if not (isinstance(e, tuple) and isinstance(p, tuple) and equal(e, p, scope)):
                return False
            continue
        if e != p:
            return False
    return True


def matches(expected, out, scope) -> bool:
    """An expected action line and a produced action. `act-on-intent` is matched by
    its action: bnomic finds the intent from the action done (intents.find_intent)."""
    if out.kind != "action":
        return False
    produced = (out.name, out.roles)
    if expected[0] == "act-on-intent" and out.name != "act-on-intent":
        return equal(expected[1].get("action"), produced, scope)
    return equal(expected, produced, scope)


def _strip_comment(a):
    return re.sub(r"\s*\(.*\)$", "", a).strip()


def names_in(line) -> set[str]:
    """Every action an expectation line mentions, nested ones included."""
    line = re.sub(r"\([^()]*\)", "", line)          # comments: "nothing (a wish, ...)"
    found = set(re.findall(r"(?:^|[{:|;]\s*)([a-z][a-z-]+)(?=[\s}]|$)", line))
    return {n for n in found if n in tally.ACTIONS}


# ------------------------------------------------------------------ scoring

@dataclass
class Score:
    per_action: dict = field(default_factory=lambda: defaultdict(Counter))
    totals: Counter = field(default_factory=Counter)
    unmapped_read: Counter = field(default_factory=Counter)
    not_scored: Counter = field(default_factory=Counter)
    detail: list | None = None         # per message, for checking the harness itself (HELDOUT_DETAIL)

    def recall(self) -> float:
        t = self.totals
        scored = t["lines"] + t["incomplete"] + t["ambiguous"]
        right = t["read"] + t["incomplete_ok"] + t["ambiguous_ok"]
        return right / scored if scored else 1.0

    def action_recall(self) -> float:
        return self.totals["read"] / self.totals["lines"] if self.totals["lines"] else 1.0

    def precision(self) -> float:
        tp, fp = self.totals["read"], self.totals["false"]
        return tp / (tp + fp) if tp + fp else 1.0

    def floors(self) -> dict:
        """Each floor: (value, floor, met)."""
        return {
            "recall": (self.recall(), FLOORS["recall"], self.recall() >= FLOORS["recall"]),
            "false_on_chatter": (self.totals["false_on_chatter"], FLOORS["false_on_chatter"],
                                 self.totals["false_on_chatter"] <= FLOORS["false_on_chatter"]),
            "silent_misses": (self.totals["silent"], FLOORS["silent_misses"],
                              self.totals["silent"] <= FLOORS["silent_misses"]),
        }


def _numbered_as_assigned(readings):
    """The Oracle's "I number this Consultation 7 and assign it to Dana" (or the two the other
    way round): bnomic's two actions, number_consultation and assign_consultation, leave the
    one Consultation numbered and assigned, which the set writes as one assign-priest with its
    number (Rule 4E18). One of each in a message is folded so; any other mix is left as read."""
    numbered = [r for r in readings if r.kind == "action" and r.spec is not None
                and r.spec.name == "number_consultation"]
    assigned = [r for r in readings if r.kind == "action" and r.spec is not None
                and r.spec.name == "assign_consultation"]
    if len(numbered) != 1 or len(assigned) != 1 or assigned[0].args.get("number"):
        return readings
    assigned[0].args = {**assigned[0].args, "number": numbered[0].args.get("number")}
    return [r for r in readings if r is not numbered[0]]


def score_message(message, scope, score: Score, skip: set[str]) -> None:
    t, per = score.totals, score.per_action
    t["messages"] += 1
    try:
        readings = read(own_words(message.body), scope.vocab, quoted_words(message.body))
    except Exception:                  # a reader that fails on a message read nothing from it
        t["reader_errors"] += 1
        readings = []
    outs = [o for r in _numbered_as_assigned(readings) for o in notate(r, scope)]
    for o in outs:
        if o.kind == "unmapped" or o.name.startswith("("):
            score.unmapped_read[o.name.strip("()")] += 1
    acts = [o for o in outs if o.kind == "action"]
    # bnomic's number_proposals numbers every new proposal at once (Rule 4E15, in the order
    # submitted): one such action stands for each number-proposal line of the message
    numbering = [o for o in acts if o.name == "number-proposal"]
    wanted = sum(1 for line in message.expect if line.startswith("number-proposal "))
    if numbering and wanted > len(numbering):
        acts += [numbering[0]] * (wanted - len(numbering))
    used = [False] * len(acts)
    chatter = message.expect == ["nothing"]
    t["chatter"] += chatter
    unmatched = []                     # expected lines neither read nor reported rightly: (action, kind)

    def take(pred):
        for i, o in enumerate(acts):
            if not used[i] and pred(o):
                used[i] = True
                return o
        return None

    deferred, not_scored = [], 0
    for line in message.expect:
        if line == "nothing":
            continue
        names = names_in(line)
        if names & skip:
            for n in names & skip:
                score.not_scored[n] += 1
            t["not_scored_lines"] += 1
            head = parse_head(line) if not line.startswith("ambiguous:") else None
            if not (head and take(lambda o, h=head: o.name == h)):
                not_scored += 1          # a near-miss the reader gave for it stands for it
            continue
        if line.startswith("ambiguous:") or line.startswith("incomplete:"):
            deferred.append(line)
            continue
        expected = expected_action(line, scope)
        per[expected[0]]["lines"] += 1
        t["lines"] += 1
        if take(lambda o: matches(expected, o, scope)):
            per[expected[0]]["read"] += 1
            t["read"] += 1
        else:
            unmatched.append((expected[0], "lines"))
    reports = [o for o in outs if o.kind in ("incomplete", "ambiguous", "report", "unmapped")]
    rused = [False] * len(reports)
    for line in deferred:
        if line.startswith("incomplete:"):
            name, roles = tally.parse_line(line[len("incomplete:"):])
            want = set(roles.get("missing", "").split(","))
            want |= {part for w in want for part in w.split(".")}
            inner = roles.get("action", "")
            inner = tally.parse_line(inner[1:-1])[0] if inner.startswith("{") else None
            per[name]["incomplete"] += 1
            t["incomplete"] += 1
            ok = False
            for i, o in enumerate(reports):
                if not rused[i] and o.kind == "incomplete" and o.name in (name, inner) and (
                        not o.missing or o.missing & want):
                    rused[i] = ok = True
                    break
            done = take(lambda o, n=name, i=inner: o.name in (n, i) or n == "act-on-intent")
            if done:
                t["incomplete_done"] += 1        # the reader did what it should have asked about
                per[name]["false"] += 1
                t["false"] += 1
            if ok:
                per[name]["incomplete_ok"] += 1
                t["incomplete_ok"] += 1
            elif not done:
                unmatched.append((name, "incomplete"))
        else:
            alternatives = [[a for a in r] for r in tally.readings(line)]
            first = next((parse_head(a) for r in alternatives for a in r if parse_head(a)), "nothing")
            per[first]["ambiguous"] += 1
            t["ambiguous"] += 1
            acted = 0
            for r in alternatives:
                for a in r:
                    a = _strip_comment(a)
                    if a.startswith(("nothing", "incomplete:")):
                        continue
                    expected = expected_action(a, scope)
                    if take(lambda o, e=expected: matches(e, o, scope)):
                        acted += 1
            reported = False
            for i, o in enumerate(reports):
                if not rused[i] and o.kind == "ambiguous":
                    rused[i] = reported = True
                    break
            if acted:
                t["ambiguous_done"] += acted
                per[first]["false"] += acted
                t["false"] += acted
            if reported and not acted:
                per[first]["ambiguous_ok"] += 1
                t["ambiguous_ok"] += 1
            elif not reported and not acted:
                unmatched.append((first, "ambiguous"))
    # actions read that no line asked for
    leftovers = 0
    for i, o in enumerate(acts):
        if not used[i]:
            per[o.name]["false"] += 1
            t["false"] += 1
            leftovers += 1
            if chatter:
                t["false_on_chatter"] += 1
    if chatter:
        t["chatter_with_false"] += bool(leftovers)
    if score.detail is not None:
        score.detail.append((message.id, message.expect,
                             [(o.kind, o.name, o.roles, sorted(o.missing)) for o in outs], list(unmatched),
                             [(o.name, o.roles) for i, o in enumerate(acts) if not used[i]]))
    # silent misses: expected lines nothing the reader produced can stand for
    spare = max(0, leftovers + rused.count(False) - not_scored)
    for name, _ in unmatched:
        if spare:
            spare -= 1
            continue
        per[name]["silent"] += 1
        t["silent"] += 1


def parse_head(a):
    a = _strip_comment(a)
    if a.startswith("incomplete:"):
        a = a[len("incomplete:"):].strip()
    if a.startswith("nothing") or not a:
        return None
    return tally.parse_line(a)[0]


def run(messages=None) -> Score:
    messages = messages if messages is not None else tally.load()
    world = assumed_state.World(messages, tally.parse_line)
    skip = not_implemented()
    score = Score()
    for m in messages:
        score_message(m, Scope(world, m), score, skip)
    return score


# ------------------------------------------------------------------ the table

def table(score: Score, markdown: bool = False) -> str:
    t = score.totals
    out = []
    head = ("action", "lines", "read", "false", "prec", "recall", "incompl", "inc ok", "ambig", "amb ok",
            "silent")

    def row(cells):
        if markdown:
            return "| " + " | ".join(str(c) for c in cells) + " |"
        return "%-22s %5s %5s %5s %6s %6s %7s %6s %5s %6s %6s" % tuple(cells)

    def ratio(a, b):
        return "%.2f" % (a / b) if b else "-"

    out.append(f"held-out set: {t['messages']} messages ({t['chatter']} chatter); reader: "
               f"grammar.read({'text, vocab=...' if _READ_TAKES_VOCAB else 'text'})")
    out.append("lines: expected action lines; read: read as expected; false: actions read that no line asks for")
    out.append("(or done from an ambiguous or incomplete line); incompl/ambig: such lines, and how many the")
    out.append("reader reported as such; silent: lines nothing the reader produced stands for")
    out.append("")
    out.append(row(head))
    if markdown:
        out.append("|" + " --- |" * len(head))
    for name in sorted(score.per_action):
        c = score.per_action[name]
        out.append(row((name, c["lines"], c["read"], c["false"],
                        ratio(c["read"], c["read"] + c["false"]), ratio(c["read"], c["lines"]),
                        c["incomplete"], c["incomplete_ok"], c["ambiguous"], c["ambiguous_ok"], c["silent"])))
    out.append(row(("all", t["lines"], t["read"], t["false"], "%.2f" % score.precision(),
                    "%.2f" % score.action_recall(), t["incomplete"], t["incomplete_ok"], t["ambiguous"],
                    t["ambiguous_ok"], t["silent"])))
    out.append("")
    out.append("recall (actions, incomplete and ambiguous lines): %.3f" % score.recall())
    out.append("recall (action lines only): %.3f   precision: %.3f" % (score.action_recall(), score.precision()))
    out.append("false actions on chatter: %d (in %d of %d chatter messages)"
               % (t["false_on_chatter"], t["chatter_with_false"], t["chatter"]))
    out.append("actions done from an ambiguous line: %d; from an incomplete line: %d"
               % (t["ambiguous_done"], t["incomplete_done"]))
    out.append("silent misses: %d" % t["silent"])
    if t["reader_errors"]:
        out.append("messages the reader raised an exception on: %d" % t["reader_errors"])
    out.append("")
    out.append("not scored: not implemented (issue 15): %d lines; %s" % (
        t["not_scored_lines"], ", ".join("%s %d" % kv for kv in sorted(score.not_scored.items()))))
    if score.unmapped_read:
        out.append("read as bnomic actions the table has no row for: " +
                   ", ".join("%s %d" % kv for kv in sorted(score.unmapped_read.items())))
    out.append("bnomic actions with no mapping: " + (", ".join(unmapped_actions()) or "none"))
    out.append("")
    for name, (value, floor, met) in score.floors().items():
        shown = "%.3f" % value if isinstance(value, float) else str(value)
        out.append("floor %-17s %s %s %s  %s" % (name, shown, ">=" if name == "recall" else "<=",
                                               floor, "met" if met else "NOT MET"))
    return "\n".join(out)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    score = run()
    print(table(score, markdown="--markdown" in argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
