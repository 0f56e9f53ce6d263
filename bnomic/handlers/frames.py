"""Action frames: how one clause's typed tokens become an action (docs/reader.md, pass 3).

An action declares a `Frame`: the verbs that name it, and its typed roles, each with
the marker words that may introduce it ("to Wooble", "with a Reward of m80"). Roles are
read in any order; a list role takes "5, 6 and 8"; a second value for a role that holds
one starts another action with the same verb ("I give m5 to A and m3 to B"). Every word
of the clause must be accounted for: by the verb, a role, a marker, a filler, or the
frame's own words. A clause that fills a frame wholly is a reading; one that names the
verb but leaves a required role out is reported as incomplete, naming the role.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

from .lexer import COUNT_WORDS, ORDINALS, THIS_WORDS, Tok, fold, raw_tokens
from .vocabulary import words

W = words()["reader"]
FILLERS = frozenset(W["fillers"])
AGAIN = frozenset(W["again"])
RELATIVES = frozenset(W["relatives"])
CONJUNCTIONS = frozenset(W["conjunctions"])
IDIOMS = frozenset(W["idioms"])
REASONS = frozenset(w for w in W["reasons"] if " " not in w)
# "out of modesty", "in return for the map": reasons of several words, by their first
REASON_PHRASES = tuple(tuple(w.split()) for w in W["reasons"] if " " in w)
_REASON_FIRST = frozenset(p[0] for p in REASON_PHRASES)
_SUBJECTS = frozenset(W["subjects"])
_DASHES = frozenset({"-", "–", "—"})
_DASH_REACH = len("Chuck's point about 4E9 being cited elsewhere by title is".split()) + 1
_OBJECT_PRONOUNS = frozenset(W["object_pronouns"])
CIRCUMSTANCES = frozenset(W["circumstances"])
RANGES = frozenset(W["ranges"])
PREPOSITIONS = frozenset(W["prepositions"])
_PUNCT = frozenset(",;:()[]-–—/*!.'\"=><|~")

# what each role type accepts: the token senses that may fill it
REF_KINDS = ("proposal", "intent", "consultation", "indictment", "tweak", "rule", "refresh",
             "obligation", "scheduled", "procedure", "contract", "subgame")
_ACCEPTS = {
    "player": ("player", "text"), "amount": ("amount",), "points": ("points", "num"),
    "number": ("num",), "vote": ("vote",), "email": ("email",), "text": ("text",),
    "times": ("times",), "ministry": ("ministry",),
    **{k: ("ref", "num") for k in REF_KINDS},
}


def _phrase(text: str) -> tuple[str, ...]:
    return tuple(t.low for t in raw_tokens(text))


@dataclass(frozen=True)
class Role:
    name: str                       # the handler's argument
    type: str                       # a key of _ACCEPTS, or "choice", "clause"
    markers: tuple[tuple[str, ...], ...] = ()   # phrases that may introduce it
    required: bool = True
    many: bool = False              # list-valued ("5, 6 and 8")
    marked: bool = False            # only after one of its markers
    choices: tuple[tuple[tuple[str, ...], str], ...] = ()   # "choice": phrase -> canonical
    named: bool = False             # a reference only as written with its kind ("Indictment 2", "#2"), not "2"


def role(spec: str, choices: dict[str, str] | None = None) -> Role:
    """'player:player[to|unto]?' -> Role. Suffixes: ? optional, * a list, ! only after a marker,
    '#' a reference written with its kind ("Indictment 2", "#2"), never a bare number."""
    flags = ""
    markers: tuple = ()
    while spec and spec[-1] in "?*!#]":
        if spec[-1] == "]":
            spec, _, m = spec[:-1].partition("[")
            markers = tuple(_phrase(x) for x in m.split("|"))
        else:
            flags += spec[-1]
            spec = spec[:-1]
    name, _, kind = spec.partition(":")
    return Role(name, kind or name, markers, "?" not in flags, "*" in flags, "!" in flags,
                tuple((_phrase(k), v) for k, v in (choices or {}).items()), "#" in flags)


@dataclass(frozen=True)
class Frame:
    verbs: tuple[tuple[str, ...], ...]
    roles: tuple[Role, ...]
    also: frozenset = frozenset()            # the frame's own words, accounted for anywhere
    needs: tuple[str, ...] = ()              # words that must appear ("active")
    bare: bool = False                       # may be written without "I <verb>" ("FOR 12")
    openers: tuple[tuple[str, ...], ...] = ()   # stand instead of "I <verb>" ("my vote on 12 is")
    why: bool = True                         # a trailing reason (", for the map") is allowed

    # What the reader asks of a frame at every word, worked out once per frame
    # (functools.cached_property keeps it in the instance; a Frame is frozen, not changed)

    @functools.cached_property
    def markers_by_first(self) -> dict[str, tuple[tuple[Role, tuple[str, ...]], ...]]:
        """Every (role, marker) by the marker's first word, in the order the roles and
        their markers are declared (a marker whose first word is not the token's cannot
        match it: this is where matching starts)."""
        out: dict[str, list] = {}
        for r in self.roles:
            for m in r.markers:
                if m:
                    out.setdefault(m[0], []).append((r, m))
        return {k: tuple(v) for k, v in out.items()}

    @functools.cached_property
    def choices_by_first(self) -> dict[str, tuple[tuple[Role, tuple[str, ...], str], ...]]:
        """Every (role, choice phrase, canonical word) by the phrase's first word, in the
        order declared."""
        out: dict[str, list] = {}
        for r in self.roles:
            for phrase, canonical in r.choices:
                if phrase:
                    out.setdefault(phrase[0], []).append((r, phrase, canonical))
        return {k: tuple(v) for k, v in out.items()}

    @functools.cached_property
    def choice_words(self) -> frozenset:
        """The first words of every choice phrase (a quick test before trying each)."""
        return frozenset(self.choices_by_first)

    @functools.cached_property
    def marker_words(self) -> frozenset:
        """The first words of every marker (a quick test before trying each)."""
        return frozenset(self.markers_by_first)

    @functools.cached_property
    def has_clause(self) -> bool:
        """Whether a role holds an action ("to give m5 to Wooble")."""
        return any(r.type == "clause" for r in self.roles)

    @functools.cached_property
    def bare_text(self) -> Role | None:
        """A text role with an empty marker ("rest:text[to|]"): it may stand right after the verb."""
        return next((r for r in self.roles if r.type in ("text", "clause") and () in r.markers), None)

    @functools.cached_property
    def rest_roles(self) -> tuple[Role, ...]:
        """Every text role with no markers."""
        return tuple(r for r in self.roles if r.type == "text" and not r.markers)

    @functools.cached_property
    def role_types(self) -> frozenset:
        return frozenset(r.type for r in self.roles)

    @functools.cached_property
    def accepted(self) -> frozenset:
        """Every token sense some role of the frame takes."""
        return frozenset(k for r in self.roles for k in _ACCEPTS.get(r.type, ()))

    @functools.cached_property
    def ref_kinds(self) -> dict:
        """The frame's reference roles by kind: of two of one kind, the one that may stand
        without its marker ("which", not the "but" of "except 14")."""
        out: dict = {}
        for r in sorted((r for r in self.roles if r.type in REF_KINDS), key=lambda r: r.marked):
            out.setdefault(r.type, r)
        return out


def frame(verbs: str, *roles: Role | str, also: str = "", needs: str = "", bare: bool = False,
          openers: str = "", why: bool = True) -> Frame:
    return Frame(tuple(_phrase(v) for v in verbs.split("|") if v),
                 tuple(r if isinstance(r, Role) else role(r) for r in roles),
                 frozenset(also.split()), tuple(needs.split()), bare,
                 tuple(_phrase(o) for o in openers.split("|") if o), why)


# --------------------------------------------------------------- filling

@dataclass(slots=True)
class Fill:
    """One frame laid over one clause."""
    frame: Frame
    instances: list[dict] = field(default_factory=list)   # role -> [values]; "__inherited" set
    unaccounted: list[str] = field(default_factory=list)
    loose: int = 0                  # values taken as written, not resolved against the world
    guessed: int = 0                # ... of those, words taken as a name with no marker before them
    times: int = 1
    # an instance's own count, where the clause gives each its own ("to Wooble 3 times and a
    # Few times to Dana"); an instance without one takes `times`, the count said last
    times_of: dict = field(default_factory=dict)
    idiom: bool = False
    reason: str = ""
    unknown: list = field(default_factory=list)     # names taken as written, not in the vocabulary
    choices: list = field(default_factory=list)     # (role, [values]) a reference left open: ambiguous

    def times_for(self, k: int) -> int:
        """The count of the k-th instance: its own, else that of the next one with a count
        ("to Bob and Chuck 3 times"), else none ("to Bob 3 times and m2 to Chuck": once)."""
        if k in self.times_of:
            return self.times_of[k]
        later = [self.times_of[j] for j in sorted(self.times_of) if j > k]
        return later[0] if later else (1 if self.times_of else self.times)

    def missing(self, inst: dict) -> list[str]:
        return [r.name for r in self.frame.roles if r.required and not inst.get(r.name)]

    @property
    def complete(self) -> bool:
        return (not self.unaccounted and not self.idiom
                and all(not self.missing(i) for i in self.instances))

    @property
    def filled(self) -> int:
        return len({r.name for r in self.frame.roles if self.instances[0].get(r.name)})

    def args(self) -> list[dict]:
        out = []
        for inst in self.instances:
            a = {}
            for r in self.frame.roles:
                vals = inst.get(r.name)
                if vals:
                    a[r.name] = ", ".join(str(v) for v in vals)
            out.append(a)
        return out


def match_phrase(toks: list[Tok], i: int, phrase: tuple[str, ...]) -> int:
    """How many tokens from i spell the phrase (a typed token may hold several words)."""
    n, m = len(toks), len(phrase)
    if m == 1:                          # most phrases are one word: one token spelling it
        return 1 if i < n and toks[i].words == phrase else 0
    j, k = i, 0
    while k < m:
        if j >= n:
            return 0
        words = toks[j].words
        if phrase[k:k + len(words)] != words:
            return 0
        k += len(words)
        j += 1
    return j - i


def _value(sense: tuple, rtype: str):
    kind, value = sense
    if kind == "ref":
        rk, n = value
        if rk not in (None, rtype):
            return None
        return n
    if kind == "num" and rtype in REF_KINDS + ("points", "number"):
        return value
    return value


def said_words(toks: list[Tok]) -> set[str]:
    """Every word the clause says, and the kind of each thing it names by name: the
    Fishmongers' Guild says "contract", as "Contract 1" does."""
    said = {w for t in toks for w in t.low.split()}
    for t in toks:
        ref = t.sense("ref")
        if ref and ref[0]:
            said.add(ref[0])
        kind = t.sense("kind")          # "my RP" says "refresh", as "my Refresh Proposal" does
        if kind:
            said.add(kind)
    return said


def may_fill(fr: Frame, voted: bool, firsts: set[str]) -> bool:
    """Whether a clause holds something for each of the frame's required Votes and choices,
    given whether it holds a vote word and the first words of its tokens: a Vote is filled
    only by a vote word, a choice only by one of its words (or a quoted word). A frame said
    with no verb ("FOR 12", "GUILTY on 2") that lacks one is not tried (what fill() would
    find, at a test)."""
    for r in fr.roles:
        if not r.required:
            continue
        if r.type == "vote" and not voted:
            return False
        if r.type == "choice" and fr.choice_words.isdisjoint(firsts) and not any(w[:1] == '"' for w in firsts):
            return False
    return True


def has_needs(fr: Frame, said: set[str]) -> bool:
    """The frame's own required words are all said (one of each "a|b")."""
    return all(any(alt in said for alt in need.split("|")) for need in fr.needs)


def fill(fr: Frame, toks: list[Tok], start: int, open_world: bool, vocab=None,
         enough: int | None = None) -> Fill:
    """The frame laid over the clause's tokens from `start` (after its verb). With `enough`,
    the caller can use no fill that leaves more than that many words unaccounted for: the
    reading stops at the next one (what it holds then is incomplete, and not to be used)."""
    f = Fill(fr, [{}])
    inst = f.instances[0]
    pending: tuple[Role, ...] = ()          # roles the last marker introduced
    after_join = False                      # the last thing was "," or "and"
    last_role: Role | None = None
    last_at = -1                            # where the last value was said
    i, n = start, len(toks)
    roles = fr.roles
    # a text role with an empty marker ("rest:text[to|]") may stand right after the verb
    bare_text = fr.bare_text
    if bare_text is not None and start < n and not _is_marker(fr, toks, start):
        end = _text_end(toks, start, roles, inst)
        if not _empty(fr, toks, start, end):
            inst[bare_text.name] = [_span(toks, start, end)]
            i = end

    def unfilled(r: Role) -> bool:
        return not inst.get(r.name) or r.name in inst.get("__inherited", ())

    def put(r: Role, v) -> None:
        nonlocal inst, last_role, last_at
        if unfilled(r):
            inst.setdefault("__inherited", set()).discard(r.name)
            inst[r.name] = [v]
        elif r.many and last_role is r:     # "5, 6 and 8"; after another role it begins a new group
            if v not in inst[r.name]:
                inst[r.name].append(v)
        elif inst[r.name] == [v] and (not after_join or r.type in REF_KINDS):
            pass                            # the same said again: "the Fishmongers' Guild (Contract 1)",
                                            # "Contract 1, the Fishmongers' Guild"
        else:                               # a second value: another action, same verb
            new = {k: list(v2) for k, v2 in inst.items() if k != "__inherited"}
            new["__inherited"] = set(new)
            new[r.name] = [v]
            new["__inherited"].discard(r.name)
            # "FOR on 12 and 14 AGAINST": a value said right after the last of a list, and
            # before nothing the list could take, closes a group of its own with that item
            if (last_role is not None and last_role.many and last_role is not r
                    and len(inst.get(last_role.name, ())) > 1 and last_at == i - 1
                    and last_role.name not in inst.get("__inherited", ())
                    and not (i + 1 < n and any(s[0] in _ACCEPTS.get(last_role.type, ())
                                               for s in toks[i + 1].senses))):
                new[last_role.name] = [inst[last_role.name].pop()]
                new["__inherited"].discard(last_role.name)
            f.instances.append(new)
            inst = new
        last_role = r
        last_at = i

    while i < n:
        t = toks[i]
        low = t.low
        if low == "as" and fr.why and i > start and "as" in fr.marker_words and _as_reason(fr, f, toks, i):
            f.reason = _span(toks, i, n)        # '... to "The Eras of B" as announced in Intent #4'
            break
        # "I pay my fine of m15, by destroying m15": after a complete action, "by" and a doing
        # say how it is done; no role (and no second action) is in it
        if (fr.why and low == "by" and i > start and i + 1 < n and len(toks[i + 1].low) > 4
                and not any(m[:1] == ("by",) for r in fr.roles if not f.instances[0].get(r.name)
                            for m in r.markers)          # ("by correcting the errors": how, a role)
                and toks[i + 1].low.endswith("ing") and toks[i + 1].low.isalpha()
                and all(not f.missing(x) for x in f.instances)
                # (not where a role is still said after it: "by resubmitting it with a new title,
                # ...", "my fine for Indictment 2 by destroying m20" with no amount said before)
                and not any(x.low in fr.marker_words or x.text[:1] in "\"“" for x in toks[i + 2:])
                and not any(s[0] in _ACCEPTS.get(r.type, ()) for x in toks[i + 2:] for s in x.senses
                            for r in fr.roles if not f.instances[0].get(r.name))):
            f.reason = _span(toks, i, n)
            break
        # "I vote FOR 12 for good measure": after a complete action, "for" before nothing a
        # role could take says why, though it is a marker (and a Vote) too
        if (fr.why and low == "for" and i > start and not t.text.isupper() and not fr.rest_roles
                and i + 1 < n and toks[i + 1].low.isalpha() and toks[i + 1].low not in fr.marker_words
                and not toks[i + 1].senses
                and not any(match_phrase(toks, i, m) > 1 or unfilled(r) and match_phrase(toks, i, m)
                            for r, m in fr.markers_by_first.get(t.first, ()))
                and all(not f.missing(x) for x in f.instances) and _reason_at(fr, toks, i)):
            end = _reason_end(fr, toks, i, n)
            f.reason = _span(toks, i, end)
            if end < n:             # "AGAINST 11, for obvious reasons, and FOR 15": the list goes on
                i = end
                continue
            break
        # "... to m45 to keep the vultures away": a purpose after a complete action, though
        # "to" is a marker too
        if (fr.why and low == "to" and i > start and i + 1 < n and toks[i + 1].low in _PURPOSE_VERBS
                and not toks[i + 1].senses and f.filled and all(not f.missing(x) for x in f.instances)
                and not fr.rest_roles):
            f.reason = _span(toks, i, n)
            break
        # "..., in the hope that Bob resubmits it", "... rather than kill it": a reason after a
        # complete action, though its first word is a marker too ("in", "rather"); not where
        # the action takes what follows it ("SHELVE rather than AGAINST")
        if (fr.why and low in _REASON_FIRST and i > start and f.filled and not fr.rest_roles
                and all(not f.missing(x) for x in f.instances)
                and any(k and (len(p) >= 3 or i + k < n and not any(s[0] in fr.accepted for s in toks[i + k].senses))
                        for p in REASON_PHRASES for k in (match_phrase(toks, i, p),))):
            f.reason = _span(toks, i, n)
            break
        # a marker that introduces a role still open (or a list role)
        here = fr.markers_by_first.get(t.first)
        if here and (not t.senses or low in ("for", "to", "against") or t.has("kind")):
            best = None
            for r, m in here:               # (in the order the roles declare their markers)
                k = match_phrase(toks, i, m)
                if k and (best is None or k > best[0]):
                    best = (k, [r])
                elif k and best and k == best[0]:
                    best[1].append(r)
            # (a marker that ends the clause introduces nothing: its role is missing; nor does
            # one that begins a relative clause: "the contract, to which Dana and I are parties")
            if best and i > start and i + best[0] < n and toks[i + best[0]].low in _RELATIVE_OBJECTS:
                i = next((j for j in range(i + best[0], n) if toks[j].low in _PUNCT), n)
                continue                # said of what the action names, up to its stop: no role of it
            if best and (i + best[0] < n or not t.senses and all(unfilled(r) for r in best[1])):
                cands = [r for r in best[1] if unfilled(r) or r.many] or best[1]
                # "for" before a vote word is the vote (Rule 4E15), not a marker
                # "for" is the vote FOR when the vote is still to say, or written "FOR"
                # ... but not "For 11, AGAINST", where the vote is written after it
                if not (t.has("vote") and "vote" in fr.role_types
                        and (t.text.isupper() or (after_join
                             or any(r.type == "vote" and unfilled(r) for r in roles))
                             and not _for_then_vote(toks, i))):
                    pending = tuple(cands)
                    i += best[0]
                    text_role = next((r for r in pending if r.type in ("text", "clause")), None)
                    # ... unless a role it shares its marker with takes what follows ("to Bob"),
                    # or might, where names are not known ("to Wooble", open world)
                    if text_role is not None and i < n and any(
                            any(s[0] in _ACCEPTS.get(r.type, ()) for s in toks[i].senses)
                            or open_world and r.type == "player" and not toks[i].senses
                            for r in pending if r is not text_role):
                        text_role, pending = None, tuple(r for r in pending if r is not text_role)
                    if text_role is not None and i < n and toks[i].has("text"):
                        put(text_role, toks[i].sense("text"))     # 'titled "Registrar Pay" with body'
                        i += 1
                        pending = ()
                        continue
                    if text_role is not None:
                        end = _text_end(toks, i, roles, inst, remarks=text_role.type == "text")
                        span = _span(toks, i, end)
                        if span and not _empty(fr, toks, i, end):
                            put(text_role, span)
                            # words taken as written weigh less than a value resolved: of
                            # "... to Blue and of 18 to Blue", the Colors, not one long text
                            f.loose += text_role.type == "text" and any(t2.senses for t2 in toks[i:end])
                            i = end
                        pending = ()
                    continue
        if (fr.why and (low in _ASIDE or low == ":" and _sentence_of_its_own(toks, i + 1))   # ": strange
                and (_complete_but_for_it(fr, f, toks, i)                                      # things are afoot"
                                          # ("I give some mackerel to Dana, she's earned it": an
                                          # attempt, its remark after it set aside all the same)
                                          or low == "," and f.filled and i + 1 < n and _subject_of_its_own(toks[i + 1]))
                and not (low == "," and last_role is not None and last_role.many    # "Bob, Carol and Dave"
                         and not (i + 1 < n and (toks[i + 1].low in _NEW_SUBJECT or _reason_at(fr, toks, i + 1)
                                                 or _likeness(toks, i + 1) or _plain_words(fr, toks, i + 1)
                                                 or adverb(toks[i + 1]) or _sentence_of_its_own(toks, i + 1))))
                and not fr.rest_roles           # the rest is its text
                and _aside(fr, toks, i + 1)):
            close = next((j for j in range(i + 1, n) if toks[j].low == ")"), None) if low == "(" else None
            if low == "," and i + 3 < n and toks[i + 2].low == "," and adverb(toks[i + 1]):
                close = i + 1                   # "FOR Sock Amnesty, obviously, and AGAINST ...": read on
            if close is not None and close + 1 < n:     # "FOR 15 (it's mine) and AGAINST 16": read on
                f.reason = _span(toks, i, close + 1)
                i = close + 1
                continue
            f.reason = _span(toks, i, n)        # "..., grudgingly", "(who asked nicely)"
            break
        if (low in RANGES and last_role is not None and last_role.many and i + 1 < n
                and toks[i + 1].has("num") and isinstance(inst.get(last_role.name, [None])[-1], int)):
            first, last = inst[last_role.name][-1], toks[i + 1].sense("num")
            if 0 < last - first <= 100:                 # "10 through 13": 11, 12 and 13 as well
                inst[last_role.name].extend(range(first + 1, last + 1))
                i += 2
                continue
        if (low == "or" and last_role is not None and not last_role.many and last_at == i - 1
                and inst.get(last_role.name) and i + 1 < n):
            other = next((v for s in toks[i + 1].senses if s[0] in _ACCEPTS.get(last_role.type, ())
                          for v in [_value(s, last_role.type)] if v is not None), None)
            if other is not None and other != inst[last_role.name][0]:
                # "to Alice or Bob": either, and the sender did not say which (Rule 4E7)
                f.choices.append((last_role.name, [inst[last_role.name][0], other]))
                i += 2
                continue
        if low in _PUNCT or low in CONJUNCTIONS:
            after_join = after_join or low in (",", "and", "&", "plus", "/")
            i += 1
            continue
        # "Wooble's consultation": whose thing it is, not a Player the action names
        if (t.possessive and fr.ref_kinds and i + 1 < n and toks[i + 1].sense("kind") in fr.ref_kinds
                and not (vocab is not None and toks[i + 1].sense("kind") == "player")):
            took = _reference(fr, toks, i, put, unfilled, vocab, f, pending)
            if took:
                i += took
                pending, after_join = (), False
                continue
        # "I give you m10, Wooble": the one addressed as "you", named again at the end
        if (low != "you" and i == n - 1 and i > start and toks[i - 1].low == "," and t.has("player")
                and any(x.low == "you" and x.sense("player") == t.sense("player") for x in toks[start:i])):
            i += 1
            continue
        # "m15 to the Beast and seven to Bob": a bare number after a join, where an amount was
        # said, is an amount in the same currency
        # (or right after the value that began another group: "the Beast m15 and Dana seven")
        if ((after_join or last_at == i - 1 and len(f.instances) > 1) and t.has("num") and not t.has("amount")
                and _amount_said(fr, f)):
            t = Tok(t.text, t.low, [("amount", f"m{t.sense('num')}"), *t.senses], t.start, t.end)
        # a typed token: the role that wants it (the marker's first)
        placed = False
        for sense in t.senses:
            if sense[0] == "times":
                f.times = sense[1]
                k = len(f.instances) - 1
                # a second count for the same group begins the next one's
                f.times_of[k + (k in f.times_of)] = sense[1]
                placed = True
                break
            if sense[0] not in fr.accepted:
                continue                    # no role takes it
            order = list(pending) + [r for r in roles if r not in pending] if pending else roles
            if after_join and last_role is not None and last_role.marked and last_role.many and not pending:
                order = [last_role, *order]     # a list only its marker begins goes on: "except 12 and 14"
            for r in order:
                if r.marked and r not in pending and not (r is last_role and after_join):
                    continue
                if sense[0] not in _ACCEPTS.get(r.type, ()) or r.named and sense[0] == "num":
                    continue
                v = _value(sense, r.type)
                if v is None:
                    continue
                if v == "this" or str(v).endswith(" replied to"):   # "this one", "the second one": what the mail replies to
                    v = _resolve(r.type, v, None, vocab)
                if unfilled(r) or r.many or r in pending or any(sense[0] in _ACCEPTS.get(x.type, ())
                                                                 for x in roles if x is r):
                    put(r, v)
                    placed = True
                    break
            if placed:
                break
        if placed:
            pending = ()
            after_join = False
            i += 1
            continue
        # a choice ("Paranoid", "NOT GUILTY", "On")
        took = (_choice(fr, toks, i, pending, put, unfilled)
                if t.first in fr.choice_words or t.first[:1] == '"' and fr.choice_words else 0)
        if took:
            i += took
            pending, after_join = (), False
            continue
        # "this intent", "my Tweak", "Bob's Refresh Proposal"
        took = (_reference(fr, toks, i, put, unfilled, vocab, f,
                           pending or ((last_role,) if after_join and last_role is not None and last_role.marked
                                       else ()))
                if fr.ref_kinds and (t.possessive or low in _DETERMINERS or low.endswith("'s")
                                     # ("Mine: FOR.", "FOR mine"; not "14 is mine": whose it is, said)
                                     or low == "mine" and not (i > 0 and toks[i - 1].low in ("is", "are", "was", "were")))
                else 0)
        if took:
            i += took
            pending, after_join = (), False
            continue
        if low == "of" and i > start and toks[i - 1].low in ("each", "both", "all", "either"):
            i += 1                                  # "to each of Alice, Bob and Chuck"
            continue
        # a name not in the vocabulary, after its marker: taken as written
        loose = next((r for r in pending if r.type == "player" and not t.has("vote")), None) if pending else None
        guess = loose is None
        if (loose is None and open_world and not t.senses and low not in FILLERS and low not in fr.also
                and low not in PREPOSITIONS
                and not (i > start and toks[i - 1].low in ("my", "our", "your"))):   # "my objection"
            loose = next((r for r in roles if r.type == "player" and (unfilled(r) or after_join)
                          and not r.marked and not _is_marker(fr, toks, i)), None)
        if loose is not None and low in _NO_ONE_NAMED:
            break       # "... to someone who has been helpful", "... from whichever player it was": unnamed
        if (loose is not None and fr.why and not after_join and i > start and toks[i - 1].low == "to"
                and low in _PURPOSE_VERBS and not t.senses
                and (f.filled and all(not f.missing(x) for x in f.instances)
                     # ("I give m10 to get started": why, and to whom not said; "to Mark" names)
                     or t.text[:1].islower() and i + 1 < n and not toks[i + 1].senses)):
            f.reason = _span(toks, i - 1, n)    # "I give Chuck m5 to say sorry": why, not a second recipient
            break
        end = i
        if loose is not None and not t.senses and low not in FILLERS and low not in fr.also:
            while (end < n and not toks[end].senses and toks[end].low not in _PUNCT
                   and toks[end].low not in CONJUNCTIONS and not _is_marker(fr, toks, end)
                   and toks[end].low not in REASONS and (end == i or toks[end].low not in fr.also)
                   and toks[end].low not in ("except", "but", "excluding")    # "everyone except Bob"
                   # it ends where a word the frame knows begins: "I find Wooble GUILTY"
                   and (end == i or toks[end].low not in FILLERS and not _own(fr, toks[end].low)
                        and not _is_choice(fr, toks, end))):
                end += 1
                if toks[end - 1].low.endswith("'s"):     # "Wooble's Active property"
                    break
        if end > i:         # (a stop where a name would begin, "to you, since ...", names no one)
            name = _span(toks, i, end).strip("'’")
            name = name[:-2] if name.endswith(("'s", "’s")) else name
            put(loose, name)
            f.loose += 1
            if not open_world:
                f.unknown.append(name)
            f.guessed += guess
            i, pending, after_join = end, (), False
            continue
        # an unmarked text role takes the rest of the clause as written, once every other
        # required role is filled ("I answer Consultation 1 Perhaps": the handler judges it)
        rest = next((r for r in fr.rest_roles if unfilled(r)), None) if fr.rest_roles else None
        if (rest is not None and low not in FILLERS and not _own(fr, low)
                and all(inst.get(r.name) for r in roles if r.required and r is not rest)):
            put(rest, _span(toks, i, n))
            f.loose += 1
            break
        in_case = low == "in" and i + 1 < n and toks[i + 1].low == "case"     # "in case the first got lost"
        # (an attempt with two roles filled keeps its circumstance apart too: "I delegate my powers
        # as Registrar to Dana while I'm on holiday" lacks only its Contract, and is told so)
        if (fr.why and (low in CIRCUMSTANCES or in_case)
                and i > start and (all(not f.missing(x) for x in f.instances) or f.filled >= 2
                                   or _complete_but_for_it(fr, f, toks, i))
                and not fr.rest_roles and (in_case or _aside(fr, toks, i))):
            f.reason = _span(toks, i, n)        # "..., now that I'm a Registered Voter again"
            break
        if low == "back" and (f.filled or i + 1 < n and (toks[i + 1].low == "to" or _is_choice(fr, toks, i + 1))):
            i += 1                                  # "I give you m1 back", "... back to Calm", "... back On"
            continue
        if fr.why and low == "as" and i > start and _as_reason(fr, f, toks, i):
            f.reason = _span(toks, i, n)        # "... as a thank-you", "... as Chuck suggests"
            break
        if low in FILLERS or _own(fr, low) or low == "i" and i == start:
            i += 1
            continue
        if (after_join and low in ("to", "on", "for", "against", "of", "from", "as") and last_role is not None and i + 1 < n
                and any(s[0] in _ACCEPTS.get(last_role.type, ()) for s in toks[i + 1].senses)):
            i += 1                                  # "I object to Intent 3 and to Intent 4", "from Judging and from Laundry"
            continue
        if low in AGAIN and after_join and f.filled:       # "... and the other one to the Beast"
            i += 1
            continue
        if t.has("kind") and t.sense("kind") in fr.role_types:
            i += 1
            continue
        if t.has("ref") and t.sense("ref")[1] == "this" and not fr.ref_kinds:
            i += 1                                  # "this one" where nothing is referred to: a filler
            continue
        if (fr.why and (low in REASONS or low in _REASON_FIRST and any(match_phrase(toks, i, p) for p in REASON_PHRASES))
                and (f.filled or all(not f.missing(x) for x in f.instances)) and not fr.rest_roles):
            end = _reason_end(fr, toks, i, n)
            end = end if end < n and (toks[end + 2].has("vote") or _is_choice(fr, toks, end + 2)) else n
            f.reason = _span(toks, i, end)
            if end < n:             # "SHELVE on 16 because ..., and against everything else": on
                i = end
                continue
            break
        if (fr.why and (adverb(t) or low in ("myself", "personally")) and f.filled
                and all(not f.missing(x) for x in f.instances)
                and (i + 1 == n or toks[i + 1].low in (",", ";"))):
            i += 1                      # "FOR 12 and 14 obviously, they're mine": how, not what
            continue
        if low in IDIOMS:
            f.idiom = True
        f.unaccounted.append(t.text)
        i += 1
        if enough is not None and len(f.unaccounted) > enough:
            return f                    # of no use to the caller: see `enough`
    # "I vote FOR 10 and 11 and AGAINST": a last group that says its vote but not what on
    # takes no list from the group before it (its proposals are missing, not 10 and 11)
    if len(f.instances) > 1:
        for r in roles:
            if r.many and r.name in f.instances[-1].get("__inherited", ()):
                del f.instances[-1][r.name]
    for x in f.instances:
        x.pop("__inherited", None)
    if fr.needs and not has_needs(fr, said_words(toks)):
        f.unaccounted.append("(" + " ".join(w.split("|")[0] for w in fr.needs) + " not said)")
        if not any(r.type == "clause" for r in fr.roles):
            f.idiom = True              # not this action at all: never reported as an attempt at it
    return f


# "... to say sorry", "... to cover the fee": a purpose, said with "to" after a complete action
_PURPOSE_VERBS = frozenset(W["purpose_verbs"])
_NO_ONE_NAMED = frozenset({"someone", "somebody", "anyone", "anybody", "whoever", "whomever", "people",
                           "folks", "whichever"})
_ASIDE = frozenset({",", "(", "-", "–", "—", "[", ";"})
# words that begin a remark of its own after a complete action ("..., it's the same fix")
ASIDES = _NEW_SUBJECT = frozenset(W["asides"])
FINITE_VERBS = _FINITE = frozenset(W["finite_verbs"])
_REMARKS_ING = frozenset(W["remarks_ing"])
_TAKEN_BACK = frozenset(W["taken_back"])


def _reason_end(fr: Frame, toks: list[Tok], i: int, n: int) -> int:
    """Where a reason said after a complete action ends: at ", and" before something the
    frame takes ("..., for obvious reasons, and FOR 15"), or at the clause's end."""
    for j in range(i + 1, n - 2):
        if (toks[j].low == "," and toks[j + 1].low in ("and", "also", "plus")
                and (any(sense[0] in fr.accepted for sense in toks[j + 2].senses) or _is_choice(fr, toks, j + 2))):
            return j
    return n


def _subject_of_its_own(t: Tok) -> bool:
    """"she's", "he", "they're": a pronoun that begins a sentence of its own after a comma."""
    w = t.low.replace("’", "'")
    return w in _SUBJECTS or "'" in w and w.split("'")[0] in _SUBJECTS


def _sentence_of_its_own(toks: list[Tok], i: int, reach: int = 5) -> bool:
    """After a comma, a clause with a verb of its own ("the Quiet Nweek is a good idea",
    "replacing my earlier vote"): a remark, not more of the action's list. (After a dash,
    the verb may come later: "- Chuck's point about 4E9 being cited elsewhere is a good one".)"""
    if i >= len(toks):
        return False
    if toks[i].low in _REMARKS_ING:
        return True
    if (i + 1 < len(toks) and (toks[i].has("player") or toks[i].text[:1].isupper() and not toks[i].senses)
            and toks[i + 1].low.endswith("ed") and toks[i + 1].low.isalpha() and not toks[i + 1].senses):
        return True                     # ", Ais pointed out the new title is worse": someone's past deed
    for j in range(i + 1, min(i + reach, len(toks))):
        w = toks[j].low
        if w in _PUNCT or w in CONJUNCTIONS:
            return False
        if w in _FINITE:
            return True
    return False


def _amount_said(fr: Frame, f) -> bool:
    """Whether the frame takes an amount and one in mackerel was said already."""
    return "amount" in fr.role_types and any(
        str(v).startswith("m") for x in f.instances for r in fr.roles if r.type == "amount"
        for v in x.get(r.name) or ())


def _has_own_verb(toks: list[Tok], i: int) -> bool:
    """A relative clause after a preposition with a verb of its own, before any stop
    ("Dana and I are both parties"): said of something the action names, no role of it."""
    for j in range(i, min(i + _RELATIVE_REACH, len(toks))):
        if toks[j].low in _PUNCT:
            return False
        if toks[j].low in _FINITE:
            return True
    return False


def _complete_but_for_it(fr: Frame, f, toks: list[Tok], i: int) -> bool:
    """Every required role filled, or missing only the thing "its"/"it" before here names
    ("I set its Proposal Color to Brick Red, so ..."), which the mail replied to or the
    action before gives once read: a remark after it is still a remark."""
    missing = {x for inst in f.instances for x in f.missing(inst)}
    if not missing:
        return True
    return (all(any(r.name == x and r.type in REF_KINDS for r in fr.roles) for x in missing)
            and any(t.low in ("its", "it") for t in toks[:i]))


_VOCATIVES = frozenset(W["vocatives"])


def _plain_words(fr: Frame, toks: list[Tok], i: int) -> bool:
    """", outside the transaction": words in lower case, none of them a value the frame could
    take or a name as written, none a choice: no more of a list, a remark. (Not ", people!",
    which calls on others to do it.)"""
    return i < len(toks) and not any(t.low in _VOCATIVES for t in toks[i:]) and all(
        not t.senses and t.text.islower() and t.low not in CONJUNCTIONS and not _is_choice(fr, toks, j)
        and t.low not in fr.marker_words for j, t in enumerate(toks[i:], i) if t.low not in _PUNCT)


def _likeness(toks: list[Tok], i: int) -> bool:
    """", same problem as 12": a likeness said of the action, not more of it."""
    return i < len(toks) and toks[i].low == "same" and any(t.low == "as" for t in toks[i + 1:i + 4])


def _aside(fr: Frame, toks: list[Tok], i: int) -> bool:
    """Whether what follows a comma or bracket is an aside to a complete action: nothing
    in it could fill one of the frame's roles or introduce one."""
    if i >= len(toks):
        return False
    if (toks[i].low[:1] in ('"', "“") and i + 1 < len(toks)
            and toks[i + 1].low in ("is", "are", "was", "were", "has", "isn't", "wasn't")):
        return True                     # ', "foowear" is a beloved tradition': a sentence of its own
    if any(t.low in _TAKEN_BACK for t in toks[i:]):
        return False                    # "I forfeit, just kidding": taken back, so no action
    if _likeness(toks, i):
        return True
    # ", to which we are both parties": a relative clause, an aside if it names nothing the
    # action takes (not ", which gets SHELVE")
    relative = 1 if toks[i].low in RELATIVES else (
        2 if toks[i].low in PREPOSITIONS and i + 1 < len(toks) and toks[i + 1].low in RELATIVES else 0)
    if _marks_value(fr, toks, i) and (not relative or toks[i].low in RELATIVES):
        return False                    # ", as number 9", ", which gets SHELVE": a role of the action
    if any(toks[i].low == r.name and r.type == "amount" and r.markers for r in fr.roles):
        return False                    # ", reward 40 points": the amount named, whatever follows
    if (toks[i].low in _NEW_SUBJECT or toks[i - 1].low in (",", ";") and _sentence_of_its_own(toks, i)
            or toks[i - 1].low in _DASHES and _sentence_of_its_own(toks, i, _DASH_REACH)) and not relative:
        return True                     # ", it's the same as 12", ", 12 is better": another sentence
    if relative == 2 and _has_own_verb(toks, i + 2):
        return True                     # ", to which Dana and I are both parties": its own subject and verb
    for j in range(i + relative, len(toks)):
        t = toks[j]
        if j == i and _reason_at(fr, toks, j):
            continue                    # ", for reasons I'll explain": why, not what (nor FOR)
        if relative and t.low in _OBJECT_PRONOUNS:
            continue                    # ", which is generous of me": said of the action, no role of it
        # a marker's word before nothing a role could take is no marker
        if _marks_value(fr, toks, j):
            return False
        for sense in t.senses:
            # (a rule cited is none of the action's, where it takes no rule: "..., the second
            # paragraph contradicts 4E14" after a Vote)
            if sense[0] == "ref" and sense[1][0] == "rule" and "rule" not in fr.role_types:
                continue
            if sense[0] == "times" or any(sense[0] in _ACCEPTS.get(r.type, ()) for r in fr.roles):
                return False
        if _is_choice(fr, toks, j):
            return False
    return True


# the words a relative clause after a preposition may take to reach its verb ("to which Dana
# and I are both parties")
_RELATIVE_REACH = 6
# relative words that never fill a role after its marker ("to which", "by whom", "of whose")
_RELATIVE_OBJECTS = frozenset({"which", "whom", "whose"})
_AS_WHY = frozenset(W["as_why"])
_AS_SAID = frozenset(w for w in W["as_why"] if w.endswith("ed") or w in ("per", "usual"))


def _as_reason(fr: Frame, f, toks: list[Tok], i: int) -> bool:
    """"as" after a complete action, before what it is done as or on whose word ("I give
    m15 to Alice as a thank-you", "Voting FOR 10 as Chuck suggests"): why, not a role.
    ("as" is otherwise a filler: "I join as Bob" is a marker, taken before this.)"""
    if fr.rest_roles or i + 1 >= len(toks):
        return False
    if not all(not f.missing(x) for x in f.instances):
        return False
    nxt = toks[i + 1]
    if "as" in fr.marker_words:
        # ("retitle Rule 4E9 as ..." marks the Title; once it is said, "as announced in
        # Intent #4" says why)
        return nxt.low in _AS_SAID and all(x.get(r.name) for x in f.instances for r in fr.roles
                                            if ("as",) in r.markers)
    if nxt.low in ("a", "an", "my", "our") and i + 2 < len(toks) and toks[i + 2].low in fr.also:
        return False            # "I submit it as a proposal, titled ...": what it is, the frame's own word
    if nxt.low in _AS_WHY or _subject_of_its_own(nxt):
        return True             # "... as a thank-you", "... as it is fine"
    return nxt.has("player") and i + 2 < len(toks) and toks[i + 2].low in _AS_WHY


def _for_then_vote(toks: list[Tok], i: int) -> bool:
    """"For 11, AGAINST": a lower-case "for", a proposal, a stop, then the vote written out."""
    return (i + 3 < len(toks) and not toks[i].text.isupper() and bool(toks[i + 1].senses)
            and toks[i + 2].low in (",", ":", "-", "–") and toks[i + 3].has("vote")
            and toks[i + 3].text.isupper())


def _marks_value(fr: Frame, toks: list[Tok], i: int) -> bool:
    """A marker of the frame at i, and after it something a role could take."""
    for r, m in fr.markers_by_first.get(toks[i].first, ()):
        k = match_phrase(toks, i, m)
        if k and i + k < len(toks) and (r.type in ("text", "clause") or _may_fill(fr, toks, i + k)):
            return True
    return False


def adverb(t: Tok) -> bool:
    """", naturally", ", obviously": a word said about the action, not a value of it."""
    return not t.senses and t.text.islower() and t.low.endswith("ly") and len(t.low) > 4



def _reason_at(fr: Frame, toks: list[Tok], i: int) -> bool:
    """"for reasons ...", "because ...": a reason's word, not a marker before a value."""
    return (toks[i].low in REASONS and not toks[i].text.isupper() and i + 1 < len(toks)
            and not _may_fill(fr, toks, i + 1))


def _may_fill(fr: Frame, toks: list[Tok], i: int) -> bool:
    """Whether a word after a marker may begin a role's value: a typed word a role takes,
    a choice, a name as written, a quoted text, or a word before one ("the", "my")."""
    if any(r.type in ("text", "clause") and not r.markers for r in fr.roles):
        return True                     # (a text only after its own marker takes nothing here)
    while i + 1 < len(toks) and toks[i].low in FILLERS and not toks[i].senses and not _is_choice(fr, toks, i):
        i += 1                          # "to the Beast", "on my proposal"; not "on my phone"
    t = toks[i]
    if any(any(s[0] in _ACCEPTS.get(r.type, ()) for r in fr.roles) or s[0] == "kind" for s in t.senses):
        return True
    return _is_choice(fr, toks, i) or t.text[:1].isupper() or t.text[:1] in "\"'“‘"


def _empty(fr: Frame, toks: list[Tok], i: int, j: int) -> bool:
    """Words that say nothing as a text role's value: fillers and the frame's own words
    ("I join as a player" names no one)."""
    return all(t.low in FILLERS or t.low in fr.also or t.low in _PUNCT for t in toks[i:j])


def _own(fr: Frame, low: str) -> bool:
    """The frame's own word; a token of several words ("Emergency Procedure", "Refresh
    Proposal") is when each of its words is the frame's own or a filler."""
    return low in fr.also or (" " in low and all(w in fr.also or w in FILLERS for w in low.split()))


def _is_choice(fr: Frame, toks: list[Tok], i: int) -> bool:
    for _, phrase, _ in fr.choices_by_first.get(toks[i].first, ()):
        if match_phrase(toks, i, phrase):
            return True
    if toks[i].first[:1] == '"' and fr.choice_words:        # '"Voting"'
        inner = tuple(toks[i].low.strip('"').split())
        return any(phrase == inner and " ".join(inner) == str(c).lower() for r in fr.roles for phrase, c in r.choices)
    return False


def _is_marker(fr: Frame, toks: list[Tok], i: int) -> bool:
    for _, m in fr.markers_by_first.get(toks[i].first, ()):
        if match_phrase(toks, i, m):
            return True
    return False


# a circumstance said after a text role's words, with a subject of its own ("while it's
# Pending", "because I like it"): said of the action, no part of its text
_CIRCUMSTANCE_OPENERS = frozenset({"while", "whilst", "because", "since", "although", "though"})


def _text_end(toks: list[Tok], i: int, roles, inst, remarks: bool = False) -> int:
    """Where a text role's words end: the clause's end, or a comma or bracket before
    the marker of another role still open (or, for a text after its marker, a remark on
    the action: `remarks`)."""
    n = len(toks)
    j = i
    kinds = {r.type for r in roles if r.type not in ("text", "clause")}
    while j < n:
        # "..., and Alice's intent to ...": another thing of a kind the frame takes, named by whose
        if (toks[j].low == "," and j + 3 < n and toks[j + 1].low == "and" and toks[j + 2].possessive
                and toks[j + 3].sense("kind") in kinds):
            return j
        # ("..., and to Alice's intent to ...": the marker said again before it)
        if (toks[j].low == "," and j + 4 < n and toks[j + 1].low == "and" and toks[j + 2].low in ("to", "on")
                and toks[j + 3].possessive and toks[j + 4].sense("kind") in kinds):
            return j
        if remarks and j > i and toks[j].low == "," and j + 1 < n and toks[j + 1].low in RELATIVES:
            return j            # "... to Orange, which Chuck asked me to do": a remark on the action
        if toks[j].low in (",", "(", ";") and j + 1 < n:
            first = toks[j + 1].first
            for r in roles:
                if r.type in ("text", "clause") or inst.get(r.name):
                    continue
                if any(m and m[0] == first and match_phrase(toks, j + 1, m) for m in r.markers):
                    return j
        elif (j > i and toks[j].low == "and" and j + 2 < n and toks[j + 2].low in ("it", "them")
              and toks[j + 1].low.isalpha() and not toks[j + 1].senses):
            return j            # "... about late objections and number it 7": another verb, on it
        elif (j > i and toks[j].low in _CIRCUMSTANCE_OPENERS and j + 1 < n
              and _subject_of_its_own(toks[j + 1])):
            return j            # "... to Silver while it's Pending": a circumstance, not the text
        elif j > i and toks[j].low in PREPOSITIONS and j + 1 < n:
            # or the marker of another role still open, right before a value it takes: "the
            # power to assign Proposal Numbers | to Bob"
            for r in roles:
                if r.type in ("text", "clause") or inst.get(r.name) or r.type not in ("player", "ministry"):
                    continue
                k = max((match_phrase(toks, j, m) for m in r.markers if m), default=0)
                if k and j + k < n and any(s[0] == r.type for s in toks[j + k].senses):
                    return j
        j += 1
    return n


def _span(toks: list[Tok], i: int, j: int) -> str:
    if i >= j:
        return ""
    # rebuild from the tokens' own text, keeping the writer's spacing where it can
    out = toks[i].text
    for a, b in zip(toks[i:j], toks[i + 1:j]):
        out += (" " if b.start > a.end else "") + b.text
    return out.strip().strip('"').strip()


def _choice(fr: Frame, toks, i, pending, put, unfilled) -> int:
    here = fr.choices_by_first.get(toks[i].first)
    if not here:
        return _quoted_choice(fr, toks[i], pending, put)
    best = None
    for r in list(pending) + [r for r in fr.roles if r not in pending] if pending else fr.roles:
        if not r.choices or (r.marked and r not in pending):
            continue
        for r2, phrase, canonical in here:      # (a phrase that begins with another word cannot match)
            if r2 is not r:
                continue
            k = match_phrase(toks, i, phrase)
            if k and (best is None or k > best[0]):
                best = (k, r, canonical)
    if best is None:
        return 0
    if best[2] in ("mine", "theirs") and not unfilled(best[1]) and not best[1].many:
        return best[0]                  # "the Registrar ... from office": said already
    if (best[2] in ("all", "both") and best[1].many and not unfilled(best[1])
            and {t.low for t in toks[i:i + best[0]]} <= _SAID_AGAIN_OF_A_LIST):
        return best[0]                  # "FOR 10, 11 and 12, all for good reasons": the ones named, said again
    put(best[1], best[2])
    return best[0]


_SAID_AGAIN_OF_A_LIST = frozenset({"all", "both", "of", "them", "those", "three", "two"})


def _quoted_choice(fr: Frame, tok, pending, put) -> int:
    """'with Timing "Voting"': a choice in quotes is the choice (the whole quotation, one token)."""
    if tok.low[:1] not in '"“' or len(tok.low) < 3:
        return 0
    inner = tuple(tok.low.strip('"“”').split())
    for r in list(pending) + [r for r in fr.roles if r not in pending]:
        if r.marked and r not in pending:
            continue
        for phrase, canonical in r.choices:
            # (the choice's own word only: a synonym in quotes may be a text as written)
            if phrase == inner and " ".join(inner) == str(canonical).lower():
                put(r, canonical)
                return 1
    return 0


_DETERMINERS = {"this": "this", "that": "this", "the": "this", "above": "this", "my": "mine",
                "your": None, "it": "this"}


def _owned(kind: str, who: str | None, vocab) -> list:
    """The things of a kind a Player wrote, as the vocabulary knows them."""
    if vocab is None or not who:
        return []
    if kind == "proposal":
        return [n for n, (_, author) in sorted(vocab.proposals.items()) if author == who]
    table = {"intent": "intents", "tweak": "tweaks", "refresh": "refresh"}.get(kind)
    return [n for n, a in sorted(getattr(vocab, table).items()) if a == who] if table else []


def _reference(fr: Frame, toks, i, put, unfilled, vocab, f, pending=()) -> int:
    """A reference by words, not number: "this intent", "my Tweak", "it",
    "Bob's Refresh Proposal". Resolved against the vocabulary when it can be."""
    kinds = fr.ref_kinds
    if not kinds:
        return 0
    t = toks[i]
    took = _proposals_of(fr, toks, i, put, vocab, pending) or _refresh_of(fr, toks, i, put, vocab)
    if took:
        return took
    # "Bob's Refresh Proposal" (a name the vocabulary does not know is taken as written);
    # the kind word is left to be read next: it may begin a marker ("Bob's intent to ...")
    mine = t.possessive or (not t.senses and t.low.endswith("'s") and len(t.low) > 2)
    ref = toks[i + 1].sense("ref") if mine and i + 1 < len(toks) else None
    if ref and ref[0] in kinds and str(ref[1]).isdigit():
        # "Wooble's Intent #3": whose it is, said again; the number names it (another's is not read)
        owned = _owned(kinds[ref[0]].type, t.sense("player") or t.text[:-2], vocab)
        return 1 if any(str(n) == str(ref[1]) for n in owned) else 0
    # "Chuck's pending proposal", "my quiet proposal": whose it is, and a word that tells which
    # of theirs it is (Pending, Open, or a word of its title); the kind word is read next
    if (vocab is not None and (mine or t.low == "my") and i + 2 < len(toks) and not toks[i + 1].senses
            and toks[i + 1].low.isalpha() and toks[i + 2].sense("kind") in kinds
            and kinds[toks[i + 2].sense("kind")].type == "proposal" and not _plural(toks[i + 2].low)):
        who = vocab.actor if t.low == "my" else (t.sense("player") or t.text[:-2])
        which = _qualified(_owned("proposal", who, vocab), toks[i + 1].low, vocab)
        if len(which) == 1:
            put(kinds[toks[i + 2].sense("kind")], which[0])
            return 2
    if mine and i + 1 < len(toks) and toks[i + 1].sense("kind") in kinds:
        r = kinds[toks[i + 1].sense("kind")]
        who = t.sense("player") or t.text[:-2]
        owned = _owned(r.type, who, vocab)
        if i + 2 < len(toks) and (_is_marker(fr, toks, i + 2) or _is_marker(fr, toks, i + 1)):
            owned = owned[:1] if len(owned) == 1 else []     # "Bob's intent to ...": the rest says which
        # ("all of Wooble's intents": one action each, where the role takes one)
        plural = toks[i + 1].low.endswith("s") and (r.many or r.type == "intent")
        if plural and r.type == "proposal" and vocab is not None:
            owned = [n for n in owned if n in vocab.open_proposals] or owned   # "Bob's proposals": the Open ones
        if len(owned) == 1 or (owned and plural):
            for n in owned:
                put(r, n)
        elif owned:                             # "Bob's proposal" when Bob wrote two: ask which
            put(r, owned[0])
            f.choices.append((r.name, owned))
        else:
            put(r, _resolve(r.type, "author", who, vocab))
        return 1
    # "my Tweak", "my proposal"
    if t.low == "my" and i + 1 < len(toks) and toks[i + 1].sense("kind") in kinds and vocab is not None:
        r = kinds[toks[i + 1].sense("kind")]
        owned = _owned(r.type, vocab.actor, vocab)
        still_open = [n for n in owned if n in vocab.open_proposals] if r.type == "proposal" else []
        if len(owned) > 1 and len(still_open) == 1 and "vote" in fr.role_types:
            owned = still_open                  # "I vote FOR my proposal": one may vote only on an Open one
        said_which = i + 2 < len(toks) and (_is_marker(fr, toks, i + 2)
                                            or _is_marker(fr, toks, i + 1))     # "my intent to ..."
        if len(owned) > 1 and not said_which and not (toks[i + 1].low.endswith("s") and r.many):
            put(r, owned[0])
            f.choices.append((r.name, owned))
            return 1
        if len(owned) == 1 and still_open and not said_which:
            put(r, owned[0])
            return 1
    det = _DETERMINERS.get(t.low)
    if det is None:
        return 0
    j = i + 1
    if j < len(toks) and toks[j].low in ("above", "one"):      # "the above intent", "that one"
        j += 1
    if j < len(toks) and toks[j].sense("kind") in kinds and not _plural(toks[j].low):
        r = kinds[toks[j].sense("kind")]
        put(r, _resolve(r.type, det, vocab.actor if vocab else None, vocab))
        return j + 1 - i
    if t.low in ("this", "that", "it", "above") and len(kinds) == 1:
        r = next(iter(kinds.values()))
        # (or before a marker of another role: "I assign it to Dana, she's the only Priest")
        if unfilled(r) and (j >= len(toks) or toks[j].low in _PUNCT or toks[j].low in REASONS
                            or t.low in ("it", "this", "that") and vocab is not None and vocab.replying
                            and any(r2.type == "player" and match_phrase(toks, j, m)
                                    for r2, m in fr.markers_by_first.get(toks[j].first, ()))):
            if vocab is not None and not vocab.replying and j == i + 1:
                return 1                # "I ZOT it." answering nothing: which one is not said
            put(r, _resolve(r.type, "this", None, vocab))
            return j - i if toks[i + 1:j] else 1
    return 0


def _qualified(owned: list, word: str, vocab) -> list:
    """Which of a Player's proposals a word before "proposal" says: "pending" (not yet Open),
    "open", or a word of one's title ("my quiet proposal": "Quiet Nweek")."""
    if word in ("pending", "unnumbered", "new"):
        return [n for n in owned if n not in vocab.open_proposals]
    if word in ("open", "current"):
        return [n for n in owned if n in vocab.open_proposals]
    return [n for n in owned if word in str(vocab.proposals[n][0]).lower().split()] if len(word) > 2 else []


def _proposals_of(fr: Frame, toks, i, put, vocab, pending) -> int:
    """"AGAINST all of Alice's", "except my own and Bob's": a Player's Open proposals, named
    by whose they are with no kind word after, where a role takes several proposals (the
    one a marker just opened, as "except" opens the proposals excepted)."""
    if vocab is None or not vocab.open_proposals:
        return 0
    t = toks[i]
    if t.possessive or (not t.senses and t.low.endswith("'s")):
        who, k = t.sense("player"), 1
    elif t.low == "my" and i + 1 < len(toks) and toks[i + 1].low == "own":
        who, k = vocab.actor, 2
    elif t.low == "mine":
        who, k = vocab.actor, 1
    else:
        return 0
    after = toks[i + k].low if i + k < len(toks) else ""
    if not who or after and (after not in _PUNCT and after not in CONJUNCTIONS and after not in ("which", "on")):
        return 0
    role = next((r for r in pending if r.type == "proposal" and r.many), None) or next(
        (r for r in fr.roles if r.type == "proposal" and r.many and not r.marked), None)
    owned = [n for n, (_, a) in sorted(vocab.proposals.items()) if a == who and n in vocab.open_proposals]
    if role is None or not owned:
        return 0
    for n in owned:
        put(role, n)
    return k


_RANK_WORDS = frozenset({"first", "then", "second", "third", "next", "last", ">"})


def _refresh_of(fr: Frame, toks, i, put, vocab) -> int:
    """"I rank Bob's first, then Alice's" (Rule 4E0): a Player's Refresh Proposal, named by whose
    it is with no kind word after, where that Player wrote one only."""
    if vocab is None or not vocab.refresh:
        return 0
    t = toks[i]
    who = t.sense("player") if t.possessive else None
    after = toks[i + 1].low if i + 1 < len(toks) else ""
    role = next((r for r in fr.roles if r.type == "refresh" and r.many), None)
    if not who or role is None or after and after not in _PUNCT and after not in CONJUNCTIONS and after not in _RANK_WORDS:
        return 0
    owned = [n for n, a in sorted(vocab.refresh.items()) if a == who]
    if len(owned) != 1:
        return 0
    put(role, owned[0])
    return 1


def _plural(low: str) -> bool:
    """"the Refresh Proposals: 3, 1, 2" names no one thing: the numbers that follow do."""
    return low.endswith("s") and not low.endswith("ss")


def _resolve(kind: str, how: str, who: str | None, vocab) -> str:
    """'my Tweak' -> '3' when the vocabulary knows one; otherwise the words as a
    reference the handler resolves ("this", "mine", "of Bob")."""
    table = {"intent": "intents", "tweak": "tweaks", "refresh": "refresh"}.get(kind)
    if vocab is not None:
        if how == "this" or how.endswith(" replied to"):
            got = {"intent": vocab.replied_intents, "proposal": vocab.replied_proposals,
                   "consultation": vocab.replied_answers}.get(kind, ())
            if how != "this":                   # "the second one" of those replied to
                k = ORDINALS.get(how.split()[1], 0)
                return str(got[k - 1]) if 0 < k <= len(got) else how
            if len(got) == 1:
                return str(got[0])
        if how in ("mine", "author") and table and who:
            owned = [n for n, a in getattr(vocab, table).items() if a == who]
            if len(owned) == 1:
                return str(owned[0])
        if how in ("mine", "author") and kind == "proposal" and who:
            owned = [n for n, (_, a) in vocab.proposals.items() if a == who]
            if len(owned) == 1:             # "my proposal": the one the Player wrote
                return str(owned[0])
    if how == "mine":
        return "mine"
    if how == "author":
        return f"of {who}"
    return "this"


_ = (COUNT_WORDS, THIS_WORDS, fold)
