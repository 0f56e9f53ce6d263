"""Typed tokens: a clause's words resolved against the game's vocabulary (Rule 4E7).

A clause becomes a list of `Tok`s. Each has the words it spans and its senses: the
typed things it may be (a Player, a Ministry, an amount, a proposal number, a vote
word...). A word may have several senses ("for" is a vote word and a marker; "the
Chairman" is a Ministry and the Player holding it); the frame that reads the clause
picks the sense its roles want. Recognition is one left-to-right pass, trying the
longest phrase first, so its cost is linear in the clause.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache

from .colors import LAUNDRY_NAMES
from .ministries import _fold
from .vocabulary import Vocabulary, default, ministry_words, words

# one token: a quoted string, an e-mail address, a word (with inner apostrophes,
# digits, dots in "4E9"/"no."), or one punctuation mark. Each alternative is linear.
_TOKEN = re.compile(r'"[^"\n]{0,400}+"|“[^”\n]{0,400}+”|(?<![^\s@<>(),;:"\[\]])[^\s@<>(),;:"\[\]]++@[\w.-]++'
                    r"|[#]?\w++(?:['’.\-]\w++)*+|[^\w\s]")
# the same, for a text with no "@" (no address can be in it): one alternative fewer to try at every word
_TOKEN_NO_AT = re.compile(r'"[^"\n]{0,400}+"|“[^”\n]{0,400}+”|[#]?\w++(?:[\'’.\-]\w++)*+|[^\w\s]')
_QUOTES = str.maketrans({"’": "'", "‘": "'", "`": "'", "“": '"', "”": '"'})

Sense = tuple  # (kind, value)


@dataclass(slots=True)
class Tok:
    text: str                   # as written
    low: str                    # folded
    senses: list = field(default_factory=list)     # typed senses, most specific first
    start: int = 0              # character offsets in the clause
    end: int = 0
    possessive: bool = False    # "Wooble's"
    # the folded words, and the first of them: split once, as the token is made (a Tok is
    # not changed once made; the reader asks for these at every token of every frame)
    words: tuple[str, ...] = field(init=False, repr=False, compare=False)
    first: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.words = words = tuple(self.low.split())
        self.first = words[0] if words else ""

    def has(self, kind: str) -> bool:
        for s in self.senses:          # (a loop: the reader asks this of every token, often)
            if s[0] == kind:
                return True
        return False

    def sense(self, kind: str):
        for s in self.senses:
            if s[0] == kind:
                return s[1]
        return None

    @property
    def word(self) -> bool:
        return not self.senses


def fold(text: str) -> str:
    """Lower case, straight quotes, no accents: "Kurt Gödel" is "kurt godel" (Rule 4E7)."""
    if text.isascii():                  # (most words: lower() is casefold() there, "`" the one quote)
        low = text.lower()
        return low.replace("`", "'") if "`" in low else low
    low = text.translate(_QUOTES).casefold()
    if low.isascii():
        return low
    return "".join(c for c in unicodedata.normalize("NFKD", low) if not unicodedata.combining(c))


def raw_tokens(text: str) -> list[Tok]:
    out = []
    for m in (_TOKEN if "@" in text else _TOKEN_NO_AT).finditer(text):
        t = m.group()
        if t.isascii():                     # fold's own first step, without the call
            low = t.lower()
            if "`" in low:
                low = low.replace("`", "'")
        else:
            low = fold(t)
        if not low or low.isspace():        # a mark that folds to nothing (a lone combining accent)
            low = t
        if low in _CONTRACTED:              # "I'll give" is "I will give"
            out.append(Tok("I", "i", start=m.start(), end=m.start() + 1))
            out.append(Tok(t[2:], {"ll": "will", "m": "am", "d": "would", "ve": "have"}[low[2:]],
                           start=m.start() + 1, end=m.end()))
            continue
        if "-" in low or "–" in low:
            parts = _RANGE.fullmatch(low)
            if parts:                                   # "10-13" is 10, "-", 13
                a, b = parts.span(1), parts.span(2)
                out.append(Tok(t[a[0]:a[1]], parts.group(1), start=m.start() + a[0], end=m.start() + a[1]))
                out.append(Tok("-", "-", start=m.start() + a[1], end=m.start() + b[0]))
                out.append(Tok(t[b[0]:b[1]], parts.group(2), start=m.start() + b[0], end=m.end()))
                continue
        out.append(Tok(t, low, [], *m.span()))
    return out


_CONTRACTED = frozenset({"i'll", "i'm", "i'd", "i've"})


_RANGE = re.compile(r"#?p?(\d++)[-–]#?p?(\d++)")


# --------------------------------------------------------------- fixed words

W = words()
VOTES = {w: w.upper() for w in W["votes"]["words"]}
NUMBER_WORDS = {k: v for k, v in W["numbers"].items() if k not in ("a", "an")}
COUNT_WORDS = dict(W["numbers"])
REF_WORDS: dict[tuple[str, ...], str] = {}
for kind, names in W["references"].items():
    if kind in ("this", "ordinals"):
        continue
    for n in names:
        REF_WORDS[tuple(n.split())] = kind
THIS_WORDS = {tuple(n.split()) for n in W["references"]["this"]}
_INTENT_WORDS = tuple(sorted({n.split()[0] for n in W["references"]["intent"]}))      # ("intent", "announcement", ...)
ORDINALS: dict[str, int] = dict(W["references"]["ordinals"])
DISPLAY_SUBJECTS: dict[str, str] = dict(W["display_subjects"])
CURRENCY = {"m": "m", "mackerel": "m", "mackerels": "m", "macks": "m", "mack": "m", "macs": "m",
            "mac": "m", "mk": "m"}
_AMOUNT_ONE = re.compile(r"m-?\d++|\d++m")
_RULE_ID = re.compile(r"\d++e\d++")
_P_REF = re.compile(r"p\d++|#\d++")
_RP_REF = re.compile(r"rp\d++")
_BEAST = ("the beast", "beast", "the ocb", "ocb", "the operantly conditioned beast",
          "operantly conditioned beast", "the operantly-conditioned beast")


# "twenty-five": a ten and a unit, written as one word (or as two: _TENS then _UNITS)
_TENS = frozenset((20, 30, 40, 50, 60, 70, 80, 90))
_UNITS = {w: NUMBER_WORDS[w] for w in ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")}
_COMPOUND_NUMBERS = frozenset(f"{t}-{u}" for t, tv in NUMBER_WORDS.items() if tv in (20, 30, 40, 50, 60, 70, 80, 90)
                              for u in ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine"))


def _misspelt_numbers() -> dict[str, int]:
    """A number of six letters or more with one letter left out ("fiften", "ninty", "thirten"),
    which a careful officer reads as the number (Rule 4E7: "exact wording"): unless it is a word
    of its own (words.toml `not_misspelt_numbers`, "elven"), or two numbers' ("sevent")."""
    found: dict[str, set] = {}
    for word, n in NUMBER_WORDS.items():
        if word.isalpha() and len(word) >= 6 and word not in ("thrice", "hundred"):
            for i in range(len(word)):
                found.setdefault(word[:i] + word[i + 1:], set()).add(n)
    kept = frozenset(W["reader"]["not_misspelt_numbers"])
    return {w: ns.pop() for w, ns in found.items() if len(ns) == 1 and w not in NUMBER_WORDS and w not in kept}


MISSPELT_NUMBERS = _misspelt_numbers() | {w: n for w, n in W["reader"]["misspelt_numbers"].items()}
_SPECIAL = frozenset({k[0] for k in REF_WORDS} | set(VOTES) | set(NUMBER_WORDS) | set(COUNT_WORDS)
                     | _COMPOUND_NUMBERS | set(MISSPELT_NUMBERS))
_REF_FIRSTS = frozenset(k[0] for k in REF_WORDS)
# what the first character of an amount or a reference may be ("m10", "p12", "#12", "$10"),
# or of a quoted string: a word beginning otherwise, not special, not a name, is no typed thing
_MAY_BEGIN = frozenset('mpr#$€£¥"')     # r: "RP3"


_NOT_UNITS = frozenset({"times", "points", "days", "ndays", "rdays", "nweeks", "weeks", "hours", "minutes",
                        "years", "months", "objections", "supporters", "supports", "others", "votes",
                        "players", "ministries", "jiffies", "pauses", "steps", "items", "things"})


def number_of(low: str) -> int | None:
    if low.isdecimal():
        return int(low)
    if "-" in low:                      # "twenty-five"
        tens, _, unit = low.partition("-")
        t, u = NUMBER_WORDS.get(tens), NUMBER_WORDS.get(unit)
        if t in (20, 30, 40, 50, 60, 70, 80, 90) and u is not None and 1 <= u <= 9:
            return t + u
        return None
    n = NUMBER_WORDS.get(low)
    return n if n is not None else MISSPELT_NUMBERS.get(low)


# ------------------------------------------------------------ the vocabulary

@lru_cache(maxsize=256)     # (a sender's words and its replies', for many senders: issue 16)
def _phrases(vocab: Vocabulary) -> dict[tuple[str, ...], list[Sense]]:
    """Every name in the vocabulary, as folded word tuples -> senses."""
    table: dict[tuple[str, ...], list[Sense]] = {}

    def add(name: str, sense: Sense):
        words = [t.low for t in raw_tokens(name)]
        # as written ("the Fishmongers' Guild") and without its stops and apostrophes
        for key in {tuple(words), tuple(w for w in words if w not in (".", "'"))}:
            if key and sense not in table.setdefault(key, []):
                table[key].append(sense)

    for p in vocab.players:
        add(p, ("player", p))
    # "Ais" for "Ais523": a name of letters then digits is called by its letters, where no
    # other Player's name is those letters or begins with them
    for p in vocab.players:
        m = _LETTERS_THEN_DIGITS.fullmatch(p)
        if m and not any(q != p and q.lower().startswith(m.group(1).lower()) for q in vocab.players):
            add(m.group(1), ("player", p))
    for c in (*LAUNDRY_NAMES, *vocab.corporations):       # "to the Blue Corporation" (4E68, 4E81)
        add(c, ("player", c))
    if vocab.beast:
        for b in _BEAST:
            add(b, ("player", vocab.beast))
    titles = {}
    for alias, ministry in vocab.ministries.items():
        add(alias, ("ministry", ministry))
        if not alias.startswith("ministry"):
            titles[alias] = ministry
    for subject, ministry in DISPLAY_SUBJECTS.items():     # "the Public Display of the current Players" (4E50)
        if ministry in vocab.ministries.values():
            for said in (f"{subject} display", f"{subject} public display", f"display of {subject}",
                         f"display of the {subject}", f"display of the current {subject}",
                         f"public display of {subject}", f"public display of the {subject}",
                         f"public display of the current {subject}"):
                add(said, ("ministry", ministry))
    for alias, ministry in titles.items():       # "the Chairman" is also the Player holding it
        holder = vocab.holders.get(ministry)
        if holder:
            add(alias, ("player", holder))
    if vocab.actor:
        for me in ("me", "myself"):
            add(me, ("player", vocab.actor))
    if vocab.addressee:                                     # "Sure. I give you m20." (a reply)
        add("you", ("player", vocab.addressee))
    for number, (title, _) in vocab.proposals.items():     # "I vote AGAINST Clock Fix II"
        if title and len(title) > 3:
            add(title, ("ref", ("proposal", number)))
            if not title.lower().startswith("the "):       # "on the Beast Diet": not "the Beast" and "Diet"
                add("the " + title, ("ref", ("proposal", number)))
    for number, title in vocab.contracts.items():          # "I agree to be bound by the Fishmongers' Guild"
        if title and len(title) > 3:
            add(title, ("ref", ("contract", number)))
            bare = title[4:] if title.lower().startswith("the ") else ""
            if len(bare) > 3:                              # "bound by Fishmongers' Guild"
                add(bare, ("ref", ("contract", number)))
    for number, name in vocab.subgames.items():             # "I open Mackerel Poker" (Rule 4E82)
        if name and len(name) > 3:
            add(name, ("ref", ("subgame", number)))
            if not name.lower().startswith("the "):
                add("the " + name, ("ref", ("subgame", number)))
    for phrase, n in vocab.quantities or default().quantities:   # Rule 4E30: "a Handful (of) times"
        said = phrase.split(" ", 1)[1] if phrase.startswith(("a ", "an ")) else phrase
        add(said, ("quantity", n))
    for words in THIS_WORDS:                               # "this one", "the above"
        if len(words) > 1:
            table.setdefault(words, []).append(("ref", (None, "this")))
    if vocab.replying:                                     # "the second one", "the first intent" (a reply)
        for word, n in ORDINALS.items():
            for said in (("the", word, "one"), ("the", word), ("the", word, "of", "those"),
                         ("the", word, "of", "them"), ("the", word, "of", "these")):
                table.setdefault(said, []).append(("ref", (None, f"the {word} replied to")))
    return table


@lru_cache(maxsize=256)
def _firsts(vocab: Vocabulary) -> dict[str, int]:
    """First word of every name -> the most words a name starting with it has."""
    out: dict[str, int] = {}
    for key in _phrases(vocab):
        out[key[0]] = max(out.get(key[0], 0), len(key))
    return out


_EMPTY = Vocabulary()


def _a_reward_said(out: list[Tok], raw: list[Tok], after: int, senses) -> bool:
    """A bare number just after "reward" ("reward forty", "Reward of 40"), not points: a
    Ministry's Reward is an amount of mackerel (Rule 4E45)."""
    if not (out[-1].low == "reward" or len(out) > 1 and out[-1].low == "of" and out[-2].low == "reward"):
        return False
    if not any(x[0] == "num" for x in senses) or any(x[0] == "amount" for x in senses):
        return False
    # (not points, nor a number or an amount said on: "a reward of one hundred mackerel")
    return not (after < len(raw) and raw[after].low in ("point", "points", "pts", "pt", "hundred", "thousand",
                                                         "mackerel", "mackerels", "macks", "mack"))


def lex(text: str, vocab: Vocabulary | None = None, raw: list[Tok] | None = None) -> list[Tok]:
    """The clause's typed tokens (docs/reader.md, pass 2)."""
    vocab = vocab if vocab is not None else default()
    raw = raw if raw is not None else raw_tokens(text)
    table = _phrases(vocab)
    firsts = _firsts(vocab)
    out: list[Tok] = []
    i = 0
    while i < len(raw):
        low = raw[i].low
        if (low not in firsts and low not in _SPECIAL and low[:1] not in _MAY_BEGIN and not low[:1].isdigit()
                and "@" not in low and not (low.endswith("'s") and low[:-2] in firsts)
                and low not in _EVERYONE_FIRSTS):
            out.append(raw[i])          # a plain word: _typed's first test, without the call
            i += 1
            continue
        n, senses = _typed(raw, i, table, firsts, vocab)
        if n:
            toks = raw[i:i + n]
            tok = Tok(text[toks[0].start:toks[-1].end], " ".join([t.low for t in toks]), senses,
                      toks[0].start, toks[-1].end)
            if toks[-1].low.endswith(("'s", "'")) and any(s[0] == "player" for s in senses):
                tok.possessive = True
            if out and _a_reward_said(out, raw, i + n, senses):
                tok.senses = [("amount", f"m{tok.sense('num')}"), *senses]    # "reward forty": m40 (Rule 4E45)
            out.append(tok)
            i += n
            continue
        out.append(raw[i])
        i += 1
    return out


def _typed(raw: list[Tok], i: int, table, firsts: dict, vocab: Vocabulary) -> tuple[int, list]:
    """The longest typed thing starting at raw[i]: (tokens it spans, senses)."""
    low = raw[i].low
    longest = firsts.get(low, 0)
    if low.endswith("'s"):
        longest = max(longest, firsts.get(low[:-2], 0))
    if low in _EVERYONE_FIRSTS:
        found = _everyone_but(raw, i, table)
        if found:                                           # "everyone except the Beast and Bob"
            return found
    if (not longest and low not in _SPECIAL and low[:1] not in _MAY_BEGIN and not low[:1].isdigit()
            and "@" not in low):
        return 0, []                    # a plain word (what the steps below would find, sooner)
    nxt = raw[i + 1].low if i + 1 < len(raw) else ""
    # a quoted string is text as written
    if low[:1] == '"' and len(low) > 1:
        inner = raw[i].text[1:-1].strip()
        if fold(inner) in VOTES:                    # 'I vote "FOR"'
            return 1, [("vote", VOTES[fold(inner)]), ("text", inner)]
        named = table.get(tuple(t.low for t in raw_tokens(inner)))
        return 1, [*(named or []), ("text", inner)]      # 'Proposal 13 "Beast Diet"'

    if "@" in low and not low.startswith("@"):
        return 1, [("email", raw[i].text)]
    # names from the vocabulary, longest first ("Wooble's" is Wooble's)
    for n in range(min(longest, len(raw) - i), 0, -1) if longest else ():
        key = tuple(t.low for t in raw[i:i + n])
        last = key[-1]
        stripped = None
        if last.endswith("'s"):
            stripped = key[:-1] + (last[:-2],)
        elif n > 1 and last == "'s":
            continue
        found = table.get(key) or (table.get(stripped) if stripped else None)
        if found and any(s[0] == "quantity" for s in found):
            quantity = next(s[1] for s in found if s[0] == "quantity")
            j = i + n + (i + n < len(raw) and raw[i + n].low == "of")
            if j < len(raw) and raw[j].low in ("time", "times"):
                return j + 1 - i, [("times", quantity)]     # "a Handful of times" (Rule 4E30)
            if j < len(raw) and raw[j].low in ("point", "points", "pts", "pt"):
                return j + 1 - i, [("points", quantity)]    # "a Handful of points"
            if j < len(raw) and raw[j].low in CURRENCY and raw[j].low != "m":
                return j + 1 - i, [("amount", f"m{quantity}")]   # "a Bunch of macks"
            found = [s for s in found if s[0] != "quantity"]
            if not found:
                continue
        if found and all(s[0] == "ref" and s[1][0] for s in found) and not any(
                t.text[:1].isupper() for t in raw[i:i + n]) and any(t.text[:1].isupper() for t in raw):
            continue            # a title in running lowercase is words: "and, to tidy up, I vote"
        if found:
            if n + i < len(raw) and raw[i + n].low in ("'s", "'"):
                return n + 1, list(found)
            return n, list(found)
    if low[:2] == "rp" and _RP_REF.fullmatch(low):       # "RP3": Refresh Proposal 3 (Rule 4E0)
        return 1, [("ref", ("refresh", int(low[2:])))]
    if low not in _SPECIAL and not low[:1].isdigit() and low[:1] not in ("m", "p", "#", "$", "€", "£", "¥"):
        return 0, []
    if low in ("$", "€", "£", "¥") and nxt.isdecimal():    # "$10": a currency the handler refuses
        return 2, [("amount", low + nxt)]
    # amounts: m10, 10m, m 10, 10 mackerel, ten macks
    if _AMOUNT_ONE.fullmatch(low):
        return 1, [("amount", "m" + low.strip("m"))]
    if low == "m" and nxt.isdigit():
        return 2, [("amount", "m" + nxt)]
    if low.endswith(("'s", "’s")) and low[:-2].isdecimal() and len(low) < 12:
        return 1, [("num", int(low[:-2]))]          # "I change 17's color to Teal"
    n0 = number_of(low)
    if n0 is not None:
        k = 1
        if n0 in _TENS and nxt in _UNITS:           # "twenty five": a ten and a unit, two words
            n0, k = n0 + _UNITS[nxt], 2
            nxt = raw[i + 2].low if i + 2 < len(raw) else ""
        if nxt in CURRENCY and nxt != "m" or nxt == "m":
            return k + 1, [("amount", f"m{n0}")]
        if nxt in ("point", "points", "pts", "pt"):
            return k + 1, [("points", n0)]
        if nxt in ("time", "times"):
            return k + 1, [("times", n0)]
        if low in ("once", "twice", "thrice"):
            return 1, [("times", n0)]
        if (i + k < len(raw) and nxt.isalpha() and nxt.endswith("s") and len(nxt) > 3
                and raw[i + k].text.islower() and (nxt,) not in REF_WORDS and nxt not in _NOT_UNITS):
            # "5 bananas": an amount in a currency the handler will say is none (Rule 4E33)
            return k + 1, [("amount", f"{n0} {nxt}"), ("num", n0)]
        return k, [("num", n0)]
    if low in ("once", "twice", "thrice"):
        return 1, [("times", COUNT_WORDS[low])]
    # references: "proposal 12", "prop. #12", "P12", "#12", "Rule 4E9", "intent 3"
    # (and their possessives: "P12's", "Rule 4E9's title")
    base = low[:-2] if low.endswith("'s") else low
    if _P_REF.fullmatch(base):
        kind = "proposal" if base[0] == "p" else None
        return 1, [("ref", (kind, int(base[1:]))), ("num", int(base[1:]))]
    if _RULE_ID.fullmatch(base):
        return 1, [("ref", ("rule", base.upper()))]
    for n in (3, 2, 1) if low in _REF_FIRSTS else ():
        key = tuple(t.low for t in raw[i:i + n])
        kind = REF_WORDS.get(key)
        if kind is None:
            continue
        j = i + n
        while j < len(raw) and raw[j].low in ("#", "no", "no.", "number", "num", "nr", "."):
            j += 1
        if kind == "contract" and j == i + n and j < len(raw) and raw[j].low[:1] == '"' and len(raw[j].low) > 2:
            # 'the contract "Oracle's Little Helper"' (Rule 4E70: a Contract is named by its title):
            # the one so titled, or the title as written, which the handler looks up
            title = raw[j].text[1:-1].strip()
            named = [s for s in table.get(tuple(t.low for t in raw_tokens(title)), ()) if s[0] == "ref"]
            return j + 1 - i, named or [("ref", ("contract", title))]
        if j < len(raw):
            target = raw[j].low.lstrip("#").removesuffix("'s")
            if kind == "rule" and _RULE_ID.fullmatch(target):
                return j + 1 - i, [("ref", ("rule", target.upper()))]
            if target.isdecimal() or target in NUMBER_WORDS:      # "proposal 12", "proposal twelve"
                return j + 1 - i, [("ref", (kind, number_of(target)))]
        if len(key[0]) > 1:
            return n, [("kind", kind)]
    if low in VOTES:
        if low == "for" and raw[i].text == "for" and nxt in _FOR_A_TIME:
            return 0, []                # "Votes for nweek 7:", "for this nweek": a time, no Vote
        return 1, [("vote", VOTES[low])]
    return 0, []


EVERYONE = tuple(tuple(p.split()) for p in W["reader"]["everyone"])
_EVERYONE_FIRSTS = frozenset(p[0] for p in EVERYONE)
_EVERYONE_BUT = tuple(tuple(p.split()) for p in W["reader"]["everyone_but"])
_NAMES_JOINED = frozenset({",", "and", "or", "nor"})
# what may follow the Players left out: the end of the list
_AFTER_NAMES = frozenset({".", ",", ";", ":", "!", ")", "(", "-", "and", "then", "but"})


def _everyone_but(raw: list[Tok], i: int, table) -> tuple[int, list] | None:
    """"every other Player except the Beast and Bob": one token, the Players it leaves out
    said after "except" ("everyone except: Bob, Chuck"), each a name the vocabulary knows;
    None when anything else follows the word (grammar._every_player refuses that)."""
    lows = [t.low for t in raw]
    for phrase in EVERYONE:
        j = i + len(phrase)
        if tuple(lows[i:j]) != phrase:
            continue
        j += j < len(raw) and lows[j] == ","              # "all the other Players, excluding Bob"
        but = next((b for b in _EVERYONE_BUT if tuple(lows[j:j + len(b)]) == b), None)
        if but is None:
            return None
        k, names = j + len(but), []
        while k < len(raw):
            n = next((m for m in range(min(4, len(raw) - k), 0, -1)
                      if any(s[0] == "player" for s in table.get(tuple(lows[k:k + m]), ()))), 0)
            if not n:
                break
            names.append(next(s[1] for s in table[tuple(lows[k:k + n])] if s[0] == "player"))
            k += n
            if k + 1 < len(raw) and lows[k] in _NAMES_JOINED and lows[k + 1] != "i":
                k += 1 + (lows[k] == "," and k + 2 < len(raw) and lows[k + 1] == "and")
            else:
                break
        if not names or lows[k - 1] in _NAMES_JOINED or lows[k - 1].endswith(("'s", "'")) or (
                k < len(raw) and lows[k] not in _AFTER_NAMES):
            return None                 # "everyone but the Chairman's allies": not a Player named
        return k - i, [("player", " ".join(phrase) + " except " + ", ".join(names))]
    return None


_LETTERS_THEN_DIGITS = re.compile(r"([A-Za-z]{3,20}+)\d{1,6}+")
_FOR_A_TIME = frozenset({"nweek", "nday", "nweeks", "ndays", "week", "weeks", "now", "today", "tomorrow",
                         "once", "ever", "example", "instance", "good", "a", "an"})

_LISTED_INTENT = re.compile(r"\s*+#(\d{1,4}+)\b")


def with_quoted(vocab: Vocabulary, quoted: str) -> Vocabulary:
    """The vocabulary with what the mail's quoted lines name (`parse.quoted_words`): the
    intents they name, and that the message answers another."""
    if not quoted.strip():
        return vocab
    found: list[int] = []
    for line in quoted.splitlines()[:200]:
        low = line[:500].lower()
        listed = _LISTED_INTENT.match(low)
        if listed and ("objection" in low or "support" in low) and int(listed.group(1)) in vocab.intents:
            if int(listed.group(1)) not in found:   # "#3  Wooble: cause the Beast ..., without objection":
                found.append(int(listed.group(1)))  # an intent listed by its number and method
            continue
        if not any(w in low for w in _INTENT_WORDS):
            continue            # (an intent is named only with a word for its kind: no lexing the rest, issue 16)
        for t in lex(line[:500], vocab):
            ref = t.sense("ref")
            if ref and ref[0] == "intent" and isinstance(ref[1], int) and ref[1] not in found:
                found.append(ref[1])
    return replace(vocab, quoted_intents=tuple(found), replying=True)


# ---------------------------------------------------------- names at joining

_PRONOUNS = {"i", "me", "myself", "my", "mine", "you", "we", "us", "it", "this", "that", "everyone",
             "everybody", "nobody", "all", "everything", "bnomic"}


def clash(name: str, config) -> str | None:
    """What a would-be Player's name collides with in the reader's vocabulary, if anything:
    a vote word, a Ministry or its title, a word for a kind of thing ("Proposal"), an
    amount ("m10"), a number or a pronoun (docs/reader.md: names are typed tokens)."""
    key = " ".join(t.low for t in raw_tokens(name))
    if key in VOTES:
        return f"the vote word {key.upper()} (Rule 4E15)"
    ministry = ministry_words(config).get(_fold(name))
    if ministry:
        return f"a name of the Ministry of {ministry}"
    if tuple(key.split()) in REF_WORDS:
        return f"the word {name!r} for a kind of game object"
    if key in NUMBER_WORDS or key.isdigit() or _AMOUNT_ONE.fullmatch(key):
        return "a number or an amount"
    if key in _PRONOUNS:
        return f"the word {key!r}, which names someone else in an action"
    return None
