"""Reading a post's text into actions, in the order written (Rule 4E7).

The text is cut into sentences; each sentence is matched against every
phrasing in the registry. What a sentence can be:

* an action ("I give m5 to Wooble"), perhaps repeated ("... 3 times"),
  perhaps for later ("On nday 8, I ..."), perhaps done under an intent
  ("Having received no objections, I ...": the preamble is only informative);
* a Transaction (Rule 4E12): the sentences between "BEGIN TRANSACTION" and
  "END TRANSACTION", actions and assertions about the gamestate;
* not understood: it reads like an attempted action (first person, an
  action's keyword) but matches nothing; reported with the closest phrasings;
* conversation: ignored quietly.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

from ..config import defaults
from .registry import ACTIONS, ASSERTIONS, ActionSpec, AssertionSpec

_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
_LEAD = re.compile(r"^(?:[-*•>]+\s*|\d+[.)]\s+)")
_POLITE = re.compile(r"^(?:(?:please|hereby|and|then|also|now|finally|next|so|ok|okay)\b[,\s]*)+", re.I)
_I_POLITE = re.compile(r"^i\s+(?:(?:hereby|also|now|then|further|additionally)\s+)+", re.I)
_TRAIL = re.compile(r"[\s.!?;,]+$")
# Rules 4E21/4E22: how players say they act under an announced intent
_UNDER_INTENT = re.compile(
    r"^(?:having\s+(?:received|had|got|seen)\s+(?:no|fewer\s+than\s+\w+|not\s+enough|the\s+required|enough|\w+)\s+"
    r"(?:objections?|support(?:ers?)?|supports)(?:\s+(?:and|but)\s+(?:no|\w+)\s+(?:objections?|support(?:ers?)?))?"
    r"|without\s+(?:any\s+)?objections?|with\s+(?:the\s+required\s+|enough\s+)?support(?:ers?)?"
    r"|as\s+(?:previously\s+)?announced|as\s+intended)[\s,:]*(?=i\b)", re.I)

BEGIN = re.compile(r"^\W*(?:begin|start)\s+(?:of\s+(?:the\s+)?)?transaction\W*$", re.I)
END = re.compile(r"^\W*(?:end|finish|commit)\s+(?:of\s+(?:the\s+)?)?transaction\W*$", re.I)

NUMBER_WORDS = {
    "once": 1, "twice": 2, "thrice": 3, "one": 1, "two": 2, "three": 3, "four": 4,
    "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12,
}
_REPEAT = re.compile(r"^(?P<body>.+?)[,\s]+(?P<n>\d+|[a-z]+)\s+times$|^(?P<body2>.+?)\s+(?P<n2>once|twice|thrice)$", re.I)

# Rule 4E7 lets a player repeat an action "a specific positive integer" of times;
# a bound keeps a typo from queueing a million of them.
MAX_REPEAT = 100


def number(word: str) -> int | None:
    word = word.strip().lower()
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word)


# ------------------------------------------------------- scheduled actions

@dataclass(frozen=True)
class When:
    """Rule 4E7: when a scheduled action is to happen."""
    kind: str                   # "nday" (start of the next nday N), "nweek" (start of the next nweek), "utc"
    nday: int | None = None
    at: datetime | None = None
    text: str = ""


def _nday_names() -> dict[str, int]:
    return {n.lower(): i for i, n in enumerate(defaults()["calendar"]["names"], 1)}


_NDAY_NAMES = _nday_names()
_DAY = r"(?:on|at\s+the\s+(?:start|beginning)\s+of|at|from)\s+(?:the\s+next\s+)?"
_WHEN_NDAY = re.compile(_DAY + r"nday\s+(?P<n>\d+)[\s,:]+(?P<rest>i\b.*)$", re.I)
_WHEN_NAME = re.compile(_DAY + r"(?P<name>" + "|".join(_NDAY_NAMES) + r")[\s,:]+(?P<rest>i\b.*)$", re.I)
_WHEN_NWEEK = re.compile(r"(?:at\s+the\s+(?:start|beginning)\s+of|on|in)\s+the\s+next\s+nweek[\s,:]+(?P<rest>i\b.*)$", re.I)
_DATE = r"(?P<date>\d{4}-\d{2}-\d{2})"
_TIME = r"(?P<time>\d{1,2}:\d{2}(?::\d{2})?)"
_ZONE = r"(?:\s*(?:utc|gmt|z))?"
_WHEN_UTC = [
    re.compile(r"(?:on|at)\s+" + _DATE + r"(?:(?:\s+at\s+|[\sT])" + _TIME + r")?" + _ZONE + r"[\s,:]+(?P<rest>i\b.*)$", re.I),
    re.compile(r"at\s+" + _TIME + _ZONE + r"\s+on\s+" + _DATE + r"[\s,:]+(?P<rest>i\b.*)$", re.I),
]


def split_when(sentence: str) -> tuple[When | None, str]:
    """'On nday 8, I give m5 to A' -> (When(nday 8), 'I give m5 to A')."""
    m = _WHEN_NDAY.match(sentence)
    if m:
        return When("nday", nday=int(m.group("n")), text=sentence[:m.start("rest")].strip(" ,:")), m.group("rest")
    m = _WHEN_NAME.match(sentence)
    if m:
        return (When("nday", nday=_NDAY_NAMES[m.group("name").lower()],
                     text=sentence[:m.start("rest")].strip(" ,:")), m.group("rest"))
    m = _WHEN_NWEEK.match(sentence)
    if m:
        return When("nweek", text=sentence[:m.start("rest")].strip(" ,:")), m.group("rest")
    for pattern in _WHEN_UTC:
        m = pattern.match(sentence)
        if m:
            try:
                at = datetime.fromisoformat(f"{m.group('date')}T{m.group('time') or '00:00'}")
            except ValueError:
                return None, sentence
            return (When("utc", at=at.replace(tzinfo=timezone.utc),
                         text=sentence[:m.start("rest")].strip(" ,:")), m.group("rest"))
    return None, sentence


# ------------------------------------------------------------------ readings

@dataclass
class Reading:
    """One sentence (or one Transaction) of the post, as understood."""
    text: str
    spec: ActionSpec | None = None           # the action, if it is one
    args: dict = field(default_factory=dict)
    times: int = 1
    suggestions: tuple[str, ...] = ()
    when: When | None = None                 # a scheduled action
    assertion: AssertionSpec | None = None   # an assertion (inside a Transaction)
    steps: list["Reading"] | None = None     # a Transaction's steps
    error: str = ""                          # why a Transaction cannot even be read

    @property
    def kind(self) -> str:
        if self.steps is not None:
            return "transaction"
        if self.assertion is not None:
            return "assertion"
        return "action" if self.spec is not None else "unknown"


def normalise(part: str) -> str:
    s = _LEAD.sub("", part.strip())
    s = _POLITE.sub("", s)
    s = _I_POLITE.sub("I ", s)
    s = _TRAIL.sub("", s)
    return re.sub(r"\s+", " ", s)


def sentences(text: str):
    for line in text.splitlines():
        for part in _SENTENCE_END.split(line):
            s = normalise(part)
            if s:
                yield s


def split_repeat(sentence: str) -> tuple[str, int]:
    """'I do X 3 times' -> ('I do X', 3); anything else -> (sentence, 1)."""
    m = _REPEAT.match(sentence)
    if not m:
        return sentence, 1
    body = m.group("body") or m.group("body2")
    n = number(m.group("n") or m.group("n2"))
    if n is None or n < 1:
        return sentence, 1
    return body, min(n, MAX_REPEAT)


def looks_like_action(sentence: str) -> bool:
    s = sentence.lower()
    if not re.match(r"^i\b", s):
        return False
    words = set(re.findall(r"[a-z]+", s))
    return any(k in words for spec in ACTIONS for k in spec.keywords)


def closest(sentence: str, n: int = 2) -> tuple[str, ...]:
    examples = [spec.example for spec in ACTIONS]
    return tuple(difflib.get_close_matches(sentence, examples, n=n, cutoff=0.0))


def match_action(sentence: str) -> tuple[ActionSpec, dict] | None:
    for spec in ACTIONS:
        args = spec.match(sentence)
        if args is not None:
            return spec, args
    return None


def match_sentence(sentence: str, in_transaction: bool = False) -> Reading | None:
    """What one normalised sentence is, or None for conversation."""
    original = sentence
    sentence = _UNDER_INTENT.sub("", sentence)
    when, sentence = split_when(sentence)
    body, times = split_repeat(sentence)
    for candidate, n in ((body, times), (sentence, 1)) if times > 1 else ((sentence, 1),):
        found = match_action(candidate)
        if found:
            return Reading(original, found[0], found[1], n, when=when)
    if in_transaction:
        for spec in ASSERTIONS:
            args = spec.match(sentence)
            if args is not None:
                return Reading(original, assertion=spec, args=args)
        return Reading(original, suggestions=closest(sentence))
    if looks_like_action(sentence):
        return Reading(original, suggestions=closest(sentence), when=when)
    return None


def read(text: str) -> list[Reading]:
    """Every action, Transaction and near-miss in the text, in the order written."""
    readings: list[Reading] = []
    block: list[str] | None = None
    block_start = ""
    for line in text.splitlines():
        if block is None and BEGIN.match(line):
            block, block_start = [], line.strip()
            continue
        if block is not None:
            if END.match(line):
                readings.append(transaction(block))
                block = None
            else:
                block.append(line)
            continue
        for part in _SENTENCE_END.split(line):
            s = normalise(part)
            r = match_sentence(s) if s else None
            if r is not None:
                readings.append(r)
    if block is not None:
        t = transaction(block)
        t.error = f'"{block_start}" has no END TRANSACTION after it'
        readings.append(t)
    return readings


def transaction(lines: list[str]) -> Reading:
    steps = [match_sentence(s, in_transaction=True) for s in sentences("\n".join(lines))]
    text = "BEGIN TRANSACTION ... END TRANSACTION"
    return Reading(text, steps=[s for s in steps if s is not None])
