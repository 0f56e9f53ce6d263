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

import contextvars
import difflib
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

from ..config import defaults
from .budget import charge
from .registry import ACTIONS, ASSERTIONS, ActionSpec, AssertionSpec
READER_VERSION = 1   # stored with each pinned reading (handlers/pinned.py): raise it when readings change

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|;\s*")
_LEAD = re.compile(r"^(?:[-*•–—+>]+\s*|\(?\d+[.)]\s+|\(?[a-z]\)\s+)")
_POLITE = re.compile(r"^(?:(?:sure thing|of course|no problem|in return|in exchange|as promised|as agreed|"
                     r"as discussed|for the record|on reflection|on second thoughts?|actually|please|hereby|"
                     r"and|then|also|now|finally|next|so|ok|okay|well|anyway|right|alright|oh|um|btw|yes|"
                     r"yeah|sure|fine|agreed|first|firstly|secondly|lastly|meanwhile)\b[,\s]*)+", re.I)
_I_POLITE = re.compile(r"^i\s+(?:(?:hereby|also|now|then|further|additionally)\s+)+", re.I)
# what may trail an action without being part of it: punctuation, "please", a smiley.
# Stripped one piece at a time from the end (strip_trail): as one regular expression
# ("(?:[\s.!?;,]+|...)+$") a run of spaces made it backtrack exponentially.
_TRAIL_PUNCT = " \t\r\n\f\v.!?;,"
_TRAIL_WORDS = ("please", "pls", "plz", "thanks", "thank you", "thx", "anyway", "too", "as well",
                "though", "instead")
_TRAIL_SMILEY = re.compile(r"(?<=\s)[:;]-?[()dp]++$")
# Rules 4E21/4E22: how players say they act under an announced intent
_FEW = (r"(?:no|zero|fewer\s+than\s+\w+|not\s+enough|the\s+required|enough|\w+)\s+"
        r"(?:objections?|support(?:ers?|s)?)")
_UNDER_INTENT = re.compile(
    r"^(?:(?:having\s+(?:received|had|got|gotten|seen)|with|there\s+being"
    r"|(?:as|since)\s+there\s+(?:were|was|are|is|have\s+been|has\s+been))\s+"
    + _FEW + r"(?:\s+(?:and|but)\s+" + _FEW + r")?"
    r"|without\s+(?:any\s+)?objections?|with\s+(?:the\s+required\s+|enough\s+)?support(?:ers?)?"
    r"|(?:as|since)\s+(?:no\s*one|nobody|no\s+players?)\s+(?:has\s+|have\s+)?objected"
    r"|(?:per|pursuant\s+to|under|following|as\s+per)\s+(?:my\s+)?(?:intent(?:ion)?|announcement)"
    r"(?:\s+(?:#\s*|number\s+|no\.?\s*)?\d+)?"
    r"|as\s+(?:previously\s+)?announced|as\s+intended)"
    r"(?:\s+(?:to|on|against|for)\s+(?:it|this|that|(?:my\s+|the\s+)?(?:intent(?:ion)?|announcement)"
    r"(?:\s*(?:#\s*|number\s+)?\d+)?|#\s*\d+))?"
    r"[\s,:]*(?=i\b)", re.I)
# "I intend, without objection, to X" is "I intend to X without objection"
_INTEND_FIRST = re.compile(
    r"^(?P<head>i\s+(?:intend|plan|announce\s+(?:my|an)\s+intent(?:ion)?)(?:\s+to)?)\s*,\s*"
    r"(?P<cond>with(?:out)?\b[^,]+?)\s*,\s*(?P<rest>.+)$", re.I)

# One sentence may hold several clauses, each its own action ("I give m5 to A and I
# forfeit"), or one verb with several objects ("I give m5 to A and m3 to B")...
# (a separator starts where a run of spaces starts, (?<!\s), and spaces are taken
# possessively: a long run of spaces is then scanned once, not once per position)
_CLAUSE = re.compile(r"(?<!\s)(?:\s*+,\s*+|\s++)(?:and(?:\s++then)?|then|so|but)\s++(?=i\s)"
                     r"|(?<!\s)\s*+:\s++(?=i\s)", re.I)
_OBJECTS = re.compile(r"(?<!\s)(?:\s*+,\s*+(?:and\s++|then\s++)?|\s++and\s++(?:then\s++)?|\s++then\s++)", re.I)
# ...but a condition binds what follows it: "If Wooble objects then I forfeit" is one sentence
_CONDITIONAL = re.compile(r"^(?:if|unless|when|whenever|once|provided|assuming|in\s+case|should)\b", re.I)
# Rule 4E7 knows no conditional actions: "I give m5 to Wooble if he asks" is asked about
_CONDITION = re.compile(r"\b(?:if|unless|provided\s+that|as\s+long\s+as|only\s+when|in\s+case)\b", re.I)
# Rule 4E4: a name given in another sentence of a request to join
_NAME_GIVEN = re.compile(
    r"(?:\bmy\s+name\s+(?:is|will\s+be|shall\s+be)|\bmy\s+name['’]s|\b(?:be\s+)?known\s+as|\bname\s*:"
    r"|(?:^|[.!?]\s+)(?:please\s+)?call\s+me)"
    r"\s+(?P<name>[^\s.,;:!?][^.,;:!?\n]*?)(?=\s*(?:[.,;:!?\n(]|$)|\s+(?:and|but|so|please)\b)", re.I | re.M)
# a sentence in the first person that is talk, not action: "I think ...", "I didn't ..."
_TALK = frozenset("""think thought guess wonder wondered believe suppose doubt suspect reckon assume
    expect feel felt agree disagree know knew remember forgot notice noticed see saw was were had did
    didn't don't doesn't can't cannot couldn't won't wouldn't shouldn't haven't hadn't wasn't never
    tried wanted hoped planned intended said asked meant mean should could might almost nearly
    count counted note noted observe report""".split())

# A document written after the sentence that submits it (Rule 4E8): "... proposal:"
# and the lines after it, up to a line "END PROPOSAL" (or END TWEAK, END LIST,
# END DOCUMENT...) or the end of the message; never read as actions itself.
DOCUMENT_END = re.compile(r"^\W*end(?:\s+of)?(?:\s+(?:the|this|my))?\s+(?:proposal|tweak|tidiness\s+list"
                          r"|list|document|oracularity|body|refresh\s+proposal|indictment|punishment"
                          r"|consultation|answer)\W*$", re.I)
_INTENDED = re.compile(r"^(?P<action>.*?[^\s,])(?:[\s,]++(?:with|without)\b.*)$", re.I)

BEGIN = re.compile(r"^\W*(?:begin|start)\s+(?:of\s+(?:the\s+)?)?transaction\W*$", re.I)
END = re.compile(r"^\W*(?:end|finish|commit)\s+(?:of\s+(?:the\s+)?)?transaction\W*$", re.I)

NUMBER_WORDS = {
    "once": 1, "twice": 2, "thrice": 3, "one": 1, "two": 2, "three": 3, "four": 4,
    "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12,
}
_REPEAT = re.compile(r"^(?P<body>.*?[^,\s])(?:[,\s]++(?P<n>\d++|[a-z]++)\s++times?|\s++(?P<n2>once|twice|thrice))"
                     r"(?:,?\s++(?:for|as|because)\b.*)?$", re.I)     # "... 3 times, for the maps"

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
_DATE = r"(?P<date>\d{4}-\d{2}-\d{2})"
_TIME = r"(?P<time>\d{1,2}:\d{2}(?::\d{2})?)"
_ZONE = r"(?:\s*(?:utc|gmt|z))?"
# the times a player may name, written before the action ("On nday 8, I ...") or after
# it, as in Rule 4E7's own example ("I do X on nday 8")
_WHEN_SAID = [
    ("nday", _DAY + r"nday\s+(?P<n>\d+)"),
    ("name", _DAY + r"(?P<name>" + "|".join(_NDAY_NAMES) + r")"),
    ("nweek", r"(?:at\s+the\s+(?:start|beginning)\s+of|on|in)\s+the\s+next\s+nweek"),
    ("utc", r"(?:on|at)\s+" + _DATE + r"(?:(?:\s+at\s+|[\sT])" + _TIME + r")?" + _ZONE),
    ("utc", r"at\s+" + _TIME + _ZONE + r"\s+on\s+" + _DATE),
]
_WHEN = [(kind, re.compile(said + r"[\s,:]+(?P<rest>i\b.*)$", re.I),
          re.compile(r"(?P<rest>i\b(?:.*?[^\s,])?)[\s,]++" + said + r"$", re.I)) for kind, said in _WHEN_SAID]


def split_when(sentence: str) -> tuple[When | None, str]:
    """'On nday 8, I give m5 to A' or 'I give m5 to A on nday 8'
    -> (When(nday 8), 'I give m5 to A'). A date that does not exist is
    When('invalid'): the sentence is not understood."""
    for kind, before, after in _WHEN:
        m = before.match(sentence) or after.fullmatch(sentence)
        if not m:
            continue
        said = (sentence[:m.start("rest")] + sentence[m.end("rest"):]).strip(" ,:")
        if kind == "nday":
            return When("nday", nday=int(m.group("n")), text=said), m.group("rest")
        if kind == "name":
            return When("nday", nday=_NDAY_NAMES[m.group("name").lower()], text=said), m.group("rest")
        if kind == "nweek":
            return When("nweek", text=said), m.group("rest")
        try:
            at = datetime.fromisoformat(f"{m.group('date')}T{m.group('time') or '00:00'}")
        except ValueError:
            return When("invalid", text=said), m.group("rest")
        return When("utc", at=at.replace(tzinfo=timezone.utc), text=said), m.group("rest")
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
    s = strip_trail(s)
    return re.sub(r"\s+", " ", s)


def strip_trail(s: str) -> str:
    """'I vote FOR 12, please :)' -> 'I vote FOR 12': punctuation, a polite word
    after a space or comma, a smiley after a space, ', then'; in linear time."""
    while True:
        t = s.rstrip(_TRAIL_PUNCT)
        low = t.lower()
        for word in _TRAIL_WORDS:
            cut = len(t) - len(word)
            if low.endswith(word) and cut > 0 and (t[cut - 1].isspace() or t[cut - 1] == ","):
                t = t[:cut]
                break
        else:
            m = _TRAIL_SMILEY.search(low) if low.endswith((")", "(", "d", "p")) else None
            if m:
                t = t[:m.start()]
            elif low.endswith("then") and t[:-4].rstrip().endswith(","):
                t = t[:-4]
        if t == s:
            return s
        s = t


_ABBREVIATION = re.compile(r"(?:\b(?:dr|mr|mrs|ms|st|jr|sr|prof|no|vs|etc|e\.g|i\.e)|\b[a-z])\.$", re.I)


def split_sentences(line: str) -> list[str]:
    """Cut a line at sentence ends, but not inside double quotes ('"Dr. Who"')
    nor after an abbreviation or an initial ('Dr. Who', 'J. Smith')."""
    parts: list[str] = []
    for piece in _SENTENCE_END.split(line):
        if parts and (parts[-1].count('"') % 2 == 1 or
                      (_ABBREVIATION.search(parts[-1]) and not re.match(r"i\b", piece, re.I))):
            parts[-1] += " " + piece
        else:
            parts.append(piece)
    return parts


def sentences(text: str):
    for line in text.splitlines():
        charge(8 * len(line) + 1500)      # cutting and normalising: a few linear passes, and calls
        for part in split_sentences(_LEAD.sub("", line.strip())):    # "1. I give ..." is one sentence
            charge(500)
            s = normalise(part)
            if s:
                yield s


# A line ending like this was cut by the sender's mail program, not by them.
_DANGLING = re.compile(r"(?:,|\b(?:by|to|as|and|the|of|from|for|with|under|name|give|i|my|a|an))\s*$", re.I)


def unwrap(lines: list[str]) -> list[str]:
    """Join lines a mail program hard-wrapped in the middle of a sentence: the
    line ends with no full stop and either dangles ('... recruited by') or is
    no action alone while it and the next line together are one."""
    out: list[str] = []
    for line in lines:
        prev = out[-1] if out else ""
        if (prev.strip() and line.strip() and not re.search(r"[.!?;:]\s*$", prev)
                and not BEGIN.match(line) and not END.match(line) and not BEGIN.match(prev)
                and not _LEAD.match(line.strip())):
            last = (list(sentences(prev)) or [""])[-1]
            first = (list(sentences(line)) or [""])[0]
            alone, joined = match_action(last), match_action(f"{last} {first}")
            if (_DANGLING.search(prev) and (not alone or joined)) or (not alone and joined):
                out[-1] = prev.rstrip() + " " + line.strip()
                continue
        out.append(line)
    return out


def split_repeat(sentence: str) -> tuple[str, int]:
    """'I do X 3 times' -> ('I do X', 3); 'I do X 0 times' -> ('I do X', 0), which is
    no positive integer (Rule 4E7); anything else -> (sentence, 1)."""
    m = _REPEAT.match(sentence)
    if not m:
        return sentence, 1
    n = number(m.group("n") or m.group("n2"))
    if n is None:
        return sentence, 1
    return m.group("body"), n         # more than MAX_REPEAT is refused when applied


def looks_like_action(sentence: str) -> bool:
    """A clause in the first person, at the start or after a lead-in ("Tomorrow, I
    give ..."), that has an action's keyword and is not talk ("I think I'll give ...")."""
    s = sentence.lower().replace("’", "'")
    charge(4 * (len(s) + 1))
    lead = r"(?:^|,\s+|\bthen\s+|\s)" if _CONDITIONAL.match(s) else r"(?:^|,\s+|\bthen\s+)"
    m = re.search(lead + r"(i(?:'(?:m|d|ll|ve))?\s+([a-z']+).*)$", s)
    if not m or m.group(2) in _TALK:
        return False
    words = set(re.findall(r"[a-z]+", m.group(1)))
    keywords = {k for spec in ACTIONS for k in spec.keywords}
    return bool(words & keywords) or any(_swapped(m.group(2), k) for k in keywords)


def _swapped(word: str, keyword: str) -> bool:
    """'giev' for 'give': the commonest typo, two letters swapped."""
    if len(word) != len(keyword) or word == keyword:
        return False
    diff = [i for i, (a, b) in enumerate(zip(word, keyword)) if a != b]
    return (len(diff) == 2 and diff[1] == diff[0] + 1
            and word[diff[0]] == keyword[diff[1]] and word[diff[1]] == keyword[diff[0]])


# difflib compares in quadratic time (about 1 ms an example): the closest phrasings are
# found from the start of a sentence, and for the first few near-misses of a message only
_CLOSEST_CHARS = 80
MAX_SUGGESTED = 5


def closest(sentence: str, n: int = 2) -> tuple[str, ...]:
    memo = _MEMO.get()
    if memo is not None:
        memo[_SUGGESTED] = memo.get(_SUGGESTED, 0) + 1
        if memo[_SUGGESTED] > MAX_SUGGESTED:
            return ()
    return _closest(sentence, n)


_SUGGESTED = object()      # the memo's count of near-misses given suggestions


def _closest(sentence: str, n: int) -> tuple[str, ...]:
    """The n phrasings' examples most like the sentence: what difflib.get_close_matches
    (cutoff 0) gives, but ratio() -- the costly measure -- is computed only for
    examples whose cheap upper bound (quick_ratio) can still reach the n best."""
    examples = [spec.example for spec in ACTIONS]
    sentence = sentence[:_CLOSEST_CHARS]
    charge(20 * len(sentence) * len(examples))
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(sentence)
    bounds = []
    for example in examples:
        matcher.set_seq1(example)
        bounds.append((matcher.quick_ratio(), example))
    bounds.sort(key=lambda b: b[0], reverse=True)
    best: list[tuple[float, str]] = []
    for bound, example in bounds:
        if len(best) >= n and bound < best[-1][0]:
            break
        matcher.set_seq1(example)
        best = sorted(best + [(matcher.ratio(), example)], reverse=True)[:n]
    return tuple(example for _, example in best)


# one read() tries the same sentence more than once (unwrapping, clauses, objects,
# repeats): the answers are kept for that read only, so steps stay deterministic
_MEMO: contextvars.ContextVar[dict | None] = contextvars.ContextVar("grammar_memo", default=None)


def match_action(sentence: str) -> tuple[ActionSpec, dict] | None:
    memo = _MEMO.get()
    if memo is not None and sentence in memo:
        found = memo[sentence]
        return (found[0], dict(found[1])) if found else None
    # the step budget (handlers/budget.py): every phrasing may scan the sentence, and
    # a call costs about as much as scanning 32 characters
    charge(sum(len(spec.patterns) for spec in ACTIONS) * (len(sentence) + 32))
    found = None
    for spec in ACTIONS:
        args = spec.match(sentence)
        if args is not None:
            found = (spec, args)
            break
    if memo is not None:
        memo[sentence] = (found[0], dict(found[1])) if found else None
    return found


def match_sentence(sentence: str, in_transaction: bool = False) -> Reading | None:
    """What one normalised sentence is, or None for conversation."""
    charge(24 * len(sentence) + 1500)     # the intent, time, repeat and condition patterns
    original = sentence
    sentence = _UNDER_INTENT.sub("", sentence)
    when, sentence = split_when(sentence)
    if when is not None and when.kind == "invalid":
        return Reading(original, suggestions=closest(sentence))
    sentence = _INTEND_FIRST.sub(r"\g<head> \g<rest> \g<cond>", sentence)
    body, times = split_repeat(sentence)
    if times == 0 or _CONDITION.search(sentence):
        if in_transaction or looks_like_action(sentence):
            return Reading(original, suggestions=closest(body), when=when)
        return None
    for candidate, n in ((body, times), (sentence, 1)) if body != sentence else ((sentence, 1),):
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


def _found_in(sentence: str) -> tuple[ActionSpec, dict] | None:
    body, _ = split_repeat(sentence)
    return match_action(body) or match_action(sentence)


def _action_in(sentence: str) -> ActionSpec | None:
    found = _found_in(sentence)
    return found[0] if found else None


def split_clauses(sentence: str) -> list[str]:
    """'I give m5 to A and I forfeit' -> ['I give m5 to A', 'I forfeit']; a condition
    ("If A objects then I forfeit") keeps its sentence whole."""
    if _CONDITIONAL.match(sentence):
        return [sentence]
    parts = [normalise(p) for p in _CLAUSE.split(sentence)]
    return [p for p in parts if p] or [sentence]


def split_objects(clause: str) -> list[str]:
    """'I give m5 to A and m3 to B' -> ['I give m5 to A', 'I give m3 to B'], and 'I give
    m5 to A, then exchange 2 points' -> [..., 'I exchange 2 points']: only when every
    part is an action, and the clause is not one action as it is ('I join B Nomic,
    as Wooble'); otherwise the clause as it is."""
    whole = _found_in(clause)
    if whole and not any(_OBJECTS.search(str(v)) for v in whole[1].values()):
        return [clause]
    parts = _OBJECTS.split(clause)
    first = _action_in(parts[0]) if len(parts) > 1 and re.match(r"i\s", parts[0], re.I) else None
    if first is None:
        return [clause]
    verb = " ".join(parts[0].split()[:2])
    out = [parts[0]]
    for part in parts[1:]:
        if re.match(r"i\s", part, re.I) and _action_in(part):
            out.append(part)
        elif _action_in("I " + part):
            out.append("I " + part)
        elif _action_in(f"{verb} {part}") is first:
            out.append(f"{verb} {part}")
        else:
            return [clause]
    return out


def read_sentence(sentence: str, in_transaction: bool = False) -> list[Reading]:
    """A normalised sentence: one reading, or one for each clause or object it joins
    (a time or an intent said before them applies to each)."""
    charge(16 * len(sentence) + 1500)     # the intent, time, clause and object patterns
    body = _UNDER_INTENT.sub("", sentence)
    when, body = split_when(body)
    parts = [body] if when is not None and when.kind == "invalid" else \
        [p for clause in split_clauses(body) for p in split_objects(clause)]
    if len(parts) == 1:
        r = match_sentence(sentence, in_transaction)
        return [r] if r is not None else []
    prefix = f"{when.text}, " if when is not None else ""
    readings = (match_sentence(prefix + part, in_transaction) for part in parts)
    return [r for r in readings if r is not None]


def document_kind(reading: Reading) -> str | None:
    """The kind of document the action reads after its sentence, if any
    (also when it is announced as an intent: "I intend to submit the
    following Tidiness List without objection:")."""
    spec = reading.spec
    if spec is None:
        return None
    if spec.document:
        return spec.document
    if spec.name == "intend":
        m = _INTENDED.match(reading.args.get("rest", ""))
        found = match_action("I " + m.group("action")) if m else None
        return found[0].document if found else None
    return None


def _document_head(line: str) -> tuple[list[Reading], str] | None:
    """A line that submits a document: its readings, and the rest of the line
    after the colon, which begins the document."""
    head, colon, rest = line.partition(":")
    for candidate, after in ((head, rest), (line, "")) if colon else ((line, ""),):
        readings = [r for s in sentences(candidate) for r in read_sentence(s)]
        if readings and document_kind(readings[-1]):
            return readings, after.strip()
    return None


def too_long(line: str, max_line: int) -> Reading:
    """A line longer than the configured limit: not read for actions (its reading says so)."""
    shown = line.strip()
    shown = shown[:60] + "…" if len(shown) > 60 else shown
    return Reading(shown, error=f"not read: this line is {len(line)} characters long, and bnomic "
                                f"reads lines of at most {max_line} characters for actions "
                                f"(limits.max_line = {max_line})")


def read(text: str, max_line: int | None = None) -> list[Reading]:
    """Every action, Transaction and near-miss in the text, in the order written;
    an action that takes a document gets the lines after it as `document`.
    A line longer than `max_line` characters (outside a document) is not read:
    its Reading carries the reason in `error`."""
    token = _MEMO.set({})
    try:
        return _read(text, max_line)
    finally:
        _MEMO.reset(token)


def _read(text: str, max_line: int | None) -> list[Reading]:
    readings: list[Reading] = []
    lines = text.splitlines()
    i, chunk = 0, []
    while i < len(lines):
        if max_line is not None and len(lines[i]) > max_line:
            readings.extend(_read_lines(chunk))
            chunk = []
            readings.append(too_long(lines[i], max_line))
            i += 1
            continue
        found = _document_head(lines[i]) if document_word(lines[i]) else None
        if found is None:
            chunk.append(lines[i])
            i += 1
            continue
        readings.extend(_read_lines(chunk))
        chunk = []
        head, first = found
        body = [first] if first else []
        i += 1
        while i < len(lines) and not DOCUMENT_END.match(lines[i]):
            body.append(lines[i])
            i += 1
        i += 1                  # the END line
        head[-1].args["document"] = "\n".join(body).strip("\n")
        readings.extend(head)
    readings.extend(_read_lines(chunk))
    name_the_newcomer(readings, text)
    return readings


_DOCUMENT_WORDS = re.compile(r"\b(?:propos\w*|tweak|tidiness|oracularity|indict\w*|consult\w*)\b", re.I)


def document_word(line: str) -> bool:
    return bool(_DOCUMENT_WORDS.search(line))


def _read_lines(lines: list[str]) -> list[Reading]:
    readings: list[Reading] = []
    block: list[str] | None = None
    block_start = ""
    for line in (lines if any(BEGIN.match(x) for x in lines) else unwrap(lines)):
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
        for s in sentences(line):
            readings.extend(read_sentence(s))
    if block is not None:
        t = transaction(block)
        t.error = f'"{block_start}" has no END TRANSACTION after it'
        readings.append(t)
    return readings


def name_the_newcomer(readings: list[Reading], text: str) -> None:
    """Rule 4E4 wants a message "containing a request to become a Player and a uniquely
    identifying name": "I'd like to join. My name is Wooble." names the newcomer too."""
    for r in readings:
        if r.spec is not None and r.spec.name == "join" and not r.args.get("name"):
            m = _NAME_GIVEN.search(text)
            if m:
                r.args["name"] = m.group("name").strip()


def transaction(lines: list[str]) -> Reading:
    steps = [r for s in sentences("\n".join(lines)) for r in read_sentence(s, in_transaction=True)]
    text = "BEGIN TRANSACTION ... END TRANSACTION"
    return Reading(text, steps=steps)
