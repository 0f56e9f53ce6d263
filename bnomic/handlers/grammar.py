"""Reading a post's text into actions, in the order written (Rule 4E7).

The text is cut into sentences; each sentence is matched against every
phrasing in the registry. A sentence that matches is an action. A sentence that
reads like an attempted action (it speaks in the first person and names an
action's keyword) but matches nothing is reported as not understood, with the
closest known phrasings. Anything else is conversation and is ignored.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from .registry import ACTIONS, ActionSpec

_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
_LEAD = re.compile(r"^(?:[-*•>]+\s*|\d+[.)]\s+)")
_POLITE = re.compile(r"^(?:(?:please|hereby|and|then|also|now)\b[,\s]*)+", re.I)
_I_POLITE = re.compile(r"^i\s+(?:(?:hereby|also|now|then)\s+)+", re.I)
_TRAIL = re.compile(r"[\s.!?;,]+$")

NUMBER_WORDS = {
    "once": 1, "twice": 2, "thrice": 3, "one": 1, "two": 2, "three": 3, "four": 4,
    "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12,
}
_REPEAT = re.compile(r"^(?P<body>.+?)[,\s]+(?P<n>\d+|[a-z]+)\s+times$|^(?P<body2>.+?)\s+(?P<n2>once|twice|thrice)$", re.I)

# Rule 4E7 lets a player repeat an action "a specific positive integer" of times;
# a bound keeps a typo from queueing a million of them.
MAX_REPEAT = 100


@dataclass
class Reading:
    """One sentence of the post, as understood."""
    text: str
    spec: ActionSpec | None          # None: looked like an action, not understood
    args: dict
    times: int = 1
    suggestions: tuple[str, ...] = ()


def sentences(text: str):
    for line in text.splitlines():
        for part in _SENTENCE_END.split(line):
            s = _LEAD.sub("", part.strip())
            s = _POLITE.sub("", s)
            s = _I_POLITE.sub("I ", s)
            s = _TRAIL.sub("", s)
            s = re.sub(r"\s+", " ", s)
            if s:
                yield s


def split_repeat(sentence: str) -> tuple[str, int]:
    """'I do X 3 times' -> ('I do X', 3); anything else -> (sentence, 1)."""
    m = _REPEAT.match(sentence)
    if not m:
        return sentence, 1
    body = m.group("body") or m.group("body2")
    word = (m.group("n") or m.group("n2")).lower()
    n = int(word) if word.isdigit() else NUMBER_WORDS.get(word)
    if n is None or n < 1:
        return sentence, 1
    return body, n


def looks_like_action(sentence: str) -> bool:
    s = sentence.lower()
    if not re.match(r"^i\b", s):
        return False
    words = set(re.findall(r"[a-z]+", s))
    return any(k in words for spec in ACTIONS for k in spec.keywords)


def closest(sentence: str, n: int = 2) -> tuple[str, ...]:
    examples = [spec.example for spec in ACTIONS]
    found = difflib.get_close_matches(sentence, examples, n=n, cutoff=0.0)
    return tuple(found)


def match_sentence(sentence: str) -> Reading | None:
    body, times = split_repeat(sentence)
    for candidate, n in ((body, times), (sentence, 1)) if times > 1 else ((sentence, 1),):
        for spec in ACTIONS:
            args = spec.match(candidate)
            if args is not None:
                return Reading(sentence, spec, args, n)
    if looks_like_action(sentence):
        return Reading(sentence, None, {}, 1, closest(sentence))
    return None


def read(text: str) -> list[Reading]:
    """Every action (and near-miss) in the text, in the order written."""
    return [r for r in map(match_sentence, sentences(text)) if r is not None]
