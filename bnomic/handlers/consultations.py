"""Judgment: Rule 4E18 (the Oracle, Consultations, ZOTTING, Priests, the
Answer, Automatic Reassignment, Claims, Oracularities) and Rule 4E60
(Contempt of Court).

* Any External Force submits a Consultation, a document after its sentence:

      I submit the following Consultation:
      Question: Is a Jiffy three rdays?
      Reasoning: Rule 4E30 says so, but 4E14 ...
      Unbeliever: Wooble
      END CONSULTATION

* The Oracle numbers it and selects its Priest among the eligible Ordained
  Players, or ZOTs it. bnomic numbers it and draws the Priest at random for an
  Oracle who delegated the duty "priests" (4E45), never for a Vacant Ministry
  of Questions: then the Oracle is obliged (4E53) and does it by mail. Every
  draw is reproducible (ctx.rng() over the candidates sorted by name) and kept,
  candidates and choice, in the Consultation's `draws` and its event.
* The Priest Answers YES, NO or PARADOX (or a synonym), with Reasoning and an
  Oracularity written after the sentence, up to END ANSWER (or END
  ORACULARITY) or the message's end. A Priest silent for a Jiffy is replaced
  and loses Ordained until the next nweek.
* Claims of Consistency or Inconsistency are tallied a Jiffy after the Answer;
  more Inconsistent ones send the Consultation back to Waiting, with a new Priest.
* Answered for four full ndays or ndelays, it is Pondered and its Oracularity
  is made, all or nothing (changes.py); what bnomic cannot read goes to the
  Rulekeeper.
* Five Consultations of one Player submitted in one nweek, all ZOTTED: Contempt
  of Court, a Misdemeanor (4E60).
"""
from __future__ import annotations

import re

from ..store import Claim, Consultation, Deadline, Event, Ministry, Obligation, Player, database, versions
from . import changes, durations
from .context import Context, Rejected
from .ministries import delegated, ensure, held_ministries, require_minister
from .obligations import fulfil, oblige, open_obligation
from .players import clean_name, find_player, name_key
from .frames import frame, role
from .grammar import match_action, sentences
from .events import PlayerInactive, PlayerLeft
from .registry import action, at_end_of, deadline, duty, on
from .views import Request, view

STATES = ("Waiting", "Answered", "Pondered", "ZOTTED")

# Rule 4E18: the answers, and the words "to be considered synonymous" with them
ANSWERS = {"YES": ("yes", "true", "affirmative", "correct"),
           "NO": ("no", "false", "negative", "incorrect"),
           "PARADOX": ("paradox", "maybe", "undecidable", "god knows")}



def _periods(ctx: Context, key: str) -> int:
    """[consultations] in defaults.toml: ponder_periods (4E18: "four full Ndays (or
    Ndelays if the clock is off)"), claim_periods (Claims "within three ndays (or
    ndelays ...)"), contempt_zotted (4E60: 5 Consultations in one nweek, all ZOTTED)."""
    return ctx.config.owned(f"consultations.{key}")

# How a Consultation is named in an action (Rule 4E7): "Consultation 3", "#3", "the
# unnumbered Consultation #5" (one not numbered yet, by its submission number)
_ON = "on|for|about|regarding|re|of|in|concerning|to"
_UNNUMBERED = role("unnumbered:choice?", {"unnumbered": "unnumbered", "un-numbered": "unnumbered"})
_RANDOM = re.compile(r"(?:a |the )?(?:random(?:ly chosen)? )?(?:priest|player)(?: (?:drawn )?at random)?"
                     r"|random(?:ly)?|(?:someone )?at random", re.I)


# ------------------------------------------------------------------ finding

def label(c: Consultation) -> str:
    return f"Consultation {c.number}" if c.number is not None else f"the unnumbered Consultation #{c.id}"


def find(which: str, unnumbered: str | None = None, ctx: Context | None = None) -> Consultation:
    """The Consultation named by its number; a Consultation not numbered yet is
    named by its submission number (#N), as the display shows it; "this" (a reply)
    is the one the mail replied to submitted, or Answered."""
    if str(which).strip() == "this" and ctx is not None:
        return _replied(ctx)
    if not str(which).strip().lstrip("#").isdigit():
        raise Rejected(f"name the Consultation by its number ({which!r} is none)", rule="4E18")
    n = int(str(which).strip().lstrip("#"))
    if not unnumbered:
        c = Consultation.get_or_none(Consultation.number == n)
        if c is not None:
            return c
    c = Consultation.get_or_none(Consultation.id == n, Consultation.number.is_null())
    if c is None:
        raise Rejected(f"there is no Consultation {n}" if not unnumbered
                       else f"there is no unnumbered Consultation #{n}", rule="4E18")
    return c


def _replied(ctx: Context) -> Consultation:
    """"I assign Dana as Priest for this Consultation", "ZOT." in reply: the Consultation the
    replied mail submitted, else the one it Answered."""
    from ..store import Entry, Message
    m = (Message.get_or_none(Message.message_id == ctx.post.in_reply_to)
         if ctx.post is not None and ctx.post.in_reply_to else None)
    if m is None:
        raise Rejected("name the Consultation by its number, or reply to the mail that submitted it", rule="4E18")
    found = list(Consultation.select().where(Consultation.entry == m.entry_id).order_by(Consultation.id))
    if not found:
        at = Entry.get_by_id(m.entry_id).at
        found = list(Consultation.select().where(Consultation.answered_at == at).order_by(Consultation.id))
    if len(found) != 1:
        raise Rejected(f"the mail this replies to {'gave no' if not found else 'gave several'} Consultation"
                       f"{'' if not found else 's'}: name it by its number", rule="4E18")
    return found[0]


def oracle() -> Player | None:
    """Rule 4E18: the Minister of Questions, also known as the Oracle."""
    m = held_ministries().get("Questions")
    return Player.get_by_id(m.holder_id) if m is not None and m.holder_id else None


def _name(player_id: int | None) -> str | None:
    return Player.get_by_id(player_id).name if player_id else None


def _is_supplicant(c: Consultation, p: Player) -> bool:
    """The Supplicant, also one who submitted before becoming a Player (by address)."""
    return p.id == c.supplicant_player_id or c.supplicant in {a.address for a in p.addresses}


def next_number() -> int:
    """Rule 4E18: usually 1, or, if 1 is in use, the greatest existing number plus one."""
    if not Consultation.select().where(Consultation.number == 1).exists():
        return 1
    last = Consultation.select(Consultation.number).where(Consultation.number.is_null(False)) \
        .order_by(Consultation.number.desc()).first()
    return last.number + 1


def _check_number(text: str) -> int:
    n = int(text)
    if n < 1:
        raise Rejected("a Consultation Number is a positive whole number", rule="4E18")
    taken = Consultation.get_or_none(Consultation.number == n)
    if taken is not None:
        raise Rejected(f"the number {n} is already in use ({label(taken)})", rule="4E18")
    return n


# ------------------------------------------------------------- the documents

_FIELD = re.compile(r"^\s*(?P<key>question|reasoning|unbeliever|q|r)\s*:\s*(?P<value>.*)$", re.I)
_SHORT = {"q": "question", "r": "reasoning"}         # "Q: Can the Beast hold a Ministry?"
_NONE = re.compile(r"^\s*+(?:(?:none|nobody|no one|-|n/?a)\s*+)?(?:[.]\s*+)?$", re.I)   # linear: possessive


def read_consultation(document: str) -> dict:
    """A Consultation's lines -> its Question, Reasoning and Unbeliever. Lines
    before any label, and those after a Question: line, are the Question."""
    parts = {"question": [], "reasoning": []}
    unbeliever, current = None, "question"
    for line in document.strip("\n").splitlines():
        m = _FIELD.match(line)
        if m is None:
            parts[current].append(line)
            continue
        key, value = m.group("key").lower(), m.group("value").strip()
        key = _SHORT.get(key, key)
        if key == "unbeliever":
            unbeliever = None if _NONE.match(value) else value
            continue
        current = key
        if value:
            parts[key].append(value)
    return {"question": "\n".join(parts["question"]).strip(),
            "reasoning": "\n".join(parts["reasoning"]).strip(), "unbeliever": unbeliever}


_SECTION = re.compile(r"^\s*(?:(?P<key>reasoning|oracularity)\s*:|i submit (?:the following|an|this|my)"
                      r"(?: new)? (?P<oracularity>oracularity)\b[^:]*:?)\s*(?P<value>.*)$", re.I)


def read_answer(document: str) -> dict:
    """An Answer's lines -> its Reasoning (the lines before "Oracularity:",
    with or without "Reasoning:") and its Oracularity (the lines after)."""
    parts = {"reasoning": [], "oracularity": []}
    current = "reasoning"
    for line in document.strip("\n").splitlines():
        m = _SECTION.match(line)
        if m is None:
            parts[current].append(line)
            continue
        current = (m.group("key") or m.group("oracularity")).lower()
        if m.group("value").strip():
            parts[current].append(m.group("value"))
    return {k: "\n".join(v).strip() for k, v in parts.items()}


def _word_pattern(word: str) -> str:
    """A synonym as it may be written: any case, quoted, "Göd" as God or Goed."""
    return r"\s+".join(re.escape(w).replace("o", "(?:o|ö|oe)") for w in word.split())


_ANSWER_WORDS = [(answer, re.compile(r"^[\s\"'“”‘’*_]*" + _word_pattern(word)
                                     + r"\b[\s\"'“”‘’*_]*(?:[,.;:!-]+\s*)?(?P<rest>.*)$", re.I | re.S))
                 for answer, words in ANSWERS.items() for word in words]


def answer_word(text: str) -> tuple[str, str]:
    """'Göd Knows' -> ('PARADOX', ''); 'YES, because 4E30 says so' -> ('YES', 'because 4E30 says so')."""
    for answer, pattern in _ANSWER_WORDS:
        m = pattern.match(text.strip())
        if m:
            return answer, m.group("rest").strip()
    raise Rejected(f"{clean_name(text)!r} is no Answer: answer YES (True, Affirmative, Correct), NO "
                   "(False, Negative, Incorrect) or PARADOX (Maybe, Undecidable, Göd Knows)",
                   rule="4E18")


# ---------------------------------------------------------- selecting a Priest

def eligible(c: Consultation) -> list[Player]:
    """Rule 4E18: all Ordained Players, except the Supplicant, the Unbeliever,
    the Oracle and those already selected as its Priest; sorted by name, the
    order the draw is made in."""
    the_oracle = oracle()
    excluded = {c.unbeliever_id, the_oracle.id if the_oracle else None, *c.former_priests}
    found = [p for p in Player.select().where(Player.is_player == True, Player.ordained == True)  # noqa: E712
             if p.id not in excluded and not _is_supplicant(c, p)]
    return sorted(found, key=lambda p: (p.name_key, p.id))


def why_not_eligible(c: Consultation, p: Player) -> str:
    the_oracle = oracle()
    if not p.is_player:
        return f"{p.name} is not a Player"
    if not p.ordained:
        return f"{p.name} is not Ordained"
    if _is_supplicant(c, p):
        return f"{p.name} is its Supplicant"
    if p.id == c.unbeliever_id:
        return f"{p.name} is its Unbeliever"
    if the_oracle is not None and p.id == the_oracle.id:
        return f"{p.name} is the Oracle"
    return f"{p.name} was selected as its Priest before"


def select_priest(ctx: Context, c: Consultation, by: str, why: str, chosen: Player | None = None,
                  number: int | None = None) -> Player:
    """Rule 4E18: number the Consultation if it has no number, and select its
    Priest: `chosen`, or drawn at random among the eligible, or the Oracle when
    none is. The draw is seeded by the game's seed and the number of the event
    that records it (Context.rng), over the candidates sorted by name."""
    candidates = eligible(c)
    the_oracle = oracle()
    if chosen is not None:
        how = "chosen by the Oracle"
    elif candidates:
        chosen = candidates[ctx.rng().randrange(len(candidates))]     # the next event's draw
        how = "drawn at random"
    else:
        chosen, how = the_oracle, "no Player is eligible: the Oracle is selected"
    if chosen is None:
        raise Rejected("the Ministry of Questions is Vacant: nobody can select a Priest", rule="4E18")
    if c.number is None:
        c.number = number if number is not None else next_number()
    names = [p.name for p in candidates]
    shown = f"from {', '.join(names)}" if names else "nobody being eligible"
    event = ctx.record("consultation", f"{by} selects {chosen.name} as the Priest of {label(c)} "
                       f"({how}, {shown}; {why})", rule="4E18", consultation=c.id, number=c.number,
                       action="priest", priest=chosen.name, candidates=names, how=how, why=why, by=by)
    c.priest, c.zot_requested = chosen, False
    c.former_priests = [*c.former_priests, chosen.id] if chosen.id not in c.former_priests \
        else c.former_priests
    draw = {"n": len(c.draws) + 1, "at": ctx.at.isoformat(), "by": by, "why": why, "how": how,
            "candidates": names, "chosen": chosen.name, "event": event.seq}
    c.draws = [*c.draws, draw]
    c.save()
    row = durations.schedule(ctx, durations.jiffies(ctx), "priest_silent", "4E18",
                             consultation=c.id, priest=chosen.id, draw=draw["n"])
    c.draws = [*c.draws[:-1], {**draw, "deadline": row.id}]
    c.save()
    _fulfil(ctx, "consultation_priest", c, f"{by} selected {chosen.name} as the Priest of {label(c)}")
    return chosen


def needs_priest(ctx: Context, c: Consultation, why: str) -> None:
    """Rule 4E18: a Consultation with no Priest: bnomic draws one for an Oracle
    who delegated the duty (4E45); otherwise the Oracle is obliged to assign a
    Priest or ZOT it (a Vacant Ministry's obligation waits for the next Oracle)."""
    if delegated(ctx, "priests"):
        select_priest(ctx, c, f"bnomic, for the Oracle ({oracle().name}),", why)
    else:
        oblige(ctx, ensure(ctx, "Questions"), "consultation_priest",
               f"assign a Priest to {label(c)} or ZOT it", "4E18", consultation=c.id)


def _fulfil(ctx: Context, kind: str, c: Consultation, how: str) -> None:
    for o in (Obligation.select().join(Ministry)
              .where(Ministry.name == "Questions", Obligation.kind == kind, Obligation.state == "open")
              .order_by(Obligation.id)):
        if o.data.get("consultation") == c.id:
            fulfil(ctx, o, how)


def _pending(action_name: str, c: Consultation) -> list[Deadline]:
    return [row for row in Deadline.select().where(Deadline.action == action_name,
                                                   Deadline.state == "pending").order_by(Deadline.id)
            if row.args.get("consultation") == c.id]


def _cancel(ctx: Context, action_name: str, c: Consultation) -> None:
    for row in _pending(action_name, c):
        durations.cancel(ctx, row.id, rule="4E18")


@duty("Questions", "priests", rule="4E18",
      does="number each new Consultation and draw its Priest at random, and tally the Claims on "
           "each Answer (Rule 4E18)")
def oracle_duties(ctx: Context) -> None:
    """What the Oracle must do (4E18), done by bnomic for an Oracle who delegated
    the duty "priests" (4E45); never for a Vacant Ministry of Questions."""
    if not delegated(ctx, "priests"):
        return
    # the usual case, after every entry: nothing to do, from the transaction's snapshot
    waiting = versions.cached(database, "consultations without a priest", ("consultation",),
                              lambda: Consultation.select(Consultation.id).where(
                                  Consultation.state == "Waiting", Consultation.priest.is_null()).exists())
    to_tally = open_obligation("Questions", "consultation_tally")
    if not waiting and not to_tally:
        return
    by = f"bnomic, for the Oracle ({oracle().name}),"
    for c in (Consultation.select().where(Consultation.state == "Waiting", Consultation.priest.is_null())
              .order_by(Consultation.id)):
        select_priest(ctx, c, by, "it had no Priest")
    for o in (Obligation.select().join(Ministry)
              .where(Ministry.name == "Questions", Obligation.kind == "consultation_tally",
                     Obligation.state == "open").order_by(Obligation.id)):
        c = Consultation.get_by_id(o.data["consultation"])
        if c.state == "Answered" and c.answer_round == o.data.get("round"):
            tally(ctx, c, by)
        else:
            fulfil(ctx, o, f"{label(c)} is {c.state}: nothing is left to tally")


# ------------------------------------------------------------ the Ordained

# how the event log says why a Player who lost Active is no longer Ordained
_UNORDAINED = {(PlayerInactive, "rules"): "lost the Active property",
               (PlayerInactive, "operator"): "lost the Active property (the operator)",
               (PlayerLeft, "forfeit"): "forfeited, losing the Active property",
               (PlayerLeft, "operator"): "removed from the game, losing the Active property"}


@on(PlayerInactive, PlayerLeft, rule="4E18")
def ordained_needs_active(ctx: Context, event: PlayerInactive | PlayerLeft) -> None:
    """Rule 4E18: a Player who loses the Active property loses the Ordained Property."""
    lose_ordained(ctx, event.player, _UNORDAINED[type(event), event.by])


def lose_ordained(ctx: Context, player: Player, why: str, until_nweek: int | None = None) -> None:
    """Rule 4E18: a Player loses the Ordained Property (and, replaced for
    silence, cannot regain it until `until_nweek`)."""
    fresh = Player.get_by_id(player.id)
    player.ordained = False
    if not fresh.ordained and until_nweek is None:
        return
    was = fresh.ordained
    fresh.ordained = False
    if until_nweek is not None:
        fresh.unordained_until_nweek = player.unordained_until_nweek = until_nweek
    fresh.save()
    tail = f"; no Ordained before nweek {until_nweek}" if until_nweek is not None else ""
    ctx.record("ordained", f"{fresh.name} {'loses' if was else 'does not have'} the Ordained property: "
               f"{why}{tail}", rule="4E18", player=fresh.name, ordained=False, until_nweek=until_nweek)


@action("become_ordained",
        # Rule 4E18: "An Active Player, as a Game Action, may gain the Ordained Property"
        frame("gain|become|get|take|acquire|regain|receive|obtain|assume|take on|am becoming|be",
              also="ordained property status", needs="ordained"),
        frame("ordain", also="myself me"),
        rule="4E18", example="I become Ordained", says="become Ordained",
        not_actions=("I became Ordained last week", "Bob becomes Ordained",
                     "Should I become Ordained?", "I gain nothing from being Ordained",
                     "I think I'll become Ordained", "I ordain Bob"))
def become_ordained(ctx: Context, actor: Player) -> None:
    """Rule 4E18: an Active Player, as a Game Action, may gain the Ordained Property."""
    actor = Player.get_by_id(actor.id)
    if actor.ordained:
        raise Rejected(f"{actor.name} is Ordained already", rule="4E18")
    if not actor.active:
        raise Rejected(f"only an Active Player may become Ordained; {actor.name} is not Active",
                       rule="4E18")
    until = actor.unordained_until_nweek
    if until is not None and ctx.game.nweek < until:
        raise Rejected(f"{actor.name} lost the Ordained property for not answering a Consultation "
                       f"within a Jiffy, and cannot regain it until nweek {until}", rule="4E18")
    actor.ordained = True
    actor.save()
    ctx.record("ordained", f"{actor.name} becomes Ordained", rule="4E18", player=actor.name,
               ordained=True)


@action("leave_ordained",
        # Rule 4E18: "Any Player, as a Game Action, may remove their Ordained Property"
        frame("remove|drop|give up|renounce|relinquish|lose|shed|resign|abandon|surrender|forgo"
              "|discard|shed|am no longer|no longer|cease to be|stop being|quit being"
              "|no longer wish to be|no longer want to be",
              also="ordained property status be being", needs="ordained"),
        frame("unordain|de-ordain|disordain|un-ordain", also="myself me"),
        rule="4E18", example="I am no longer Ordained", says="remove the Ordained property",
        not_actions=("I lost my Ordained property last week", "Bob is no longer Ordained",
                     "Am I no longer Ordained?", "I was not Ordained then",
                     "I'm not ordained, so that can't work"))     # (what is so, not a change of it)
def leave_ordained(ctx: Context, actor: Player) -> None:
    """Rule 4E18: any Player, as a Game Action, may remove their Ordained Property."""
    if not Player.get_by_id(actor.id).ordained:
        raise Rejected(f"{actor.name} is not Ordained", rule="4E18")
    lose_ordained(ctx, actor, "removed by themselves")


# --------------------------------------------------------------- submitting

@action("submit_consultation",
        # Rule 4E18: "Any External Force may as a Game Action submit a Consultation"
        frame("submit|pose|make|file|send|post|present|raise|put forward|lodge|enter|bring|ask",
              # "... with Ais523 as Unbeliever" (Rule 4E18: "optionally, a Player as an Unbeliever")
              "unbeliever:player?[with|naming]",
              also="consultation following new question oracle to as unbeliever the its my", needs="consultation"),
        frame("consult", also="oracle"),
        rule="4E18", example="I submit the following Consultation: Question: Is a Jiffy 3 rdays? "
                             "END CONSULTATION", says="submit a Consultation",
        not_actions=("I submitted a Consultation yesterday", "Wooble submits a Consultation",
                     "Should I submit a Consultation?", "I make a Consultation of it, I suppose"),
        players_only=False, document="consultation")
def submit(ctx: Context, actor: Player | None, document: str = "", unbeliever: str | None = None) -> None:
    """Rule 4E18: any External Force may as a Game Action submit a Consultation:
    a yes-or-no Question, with optional Reasoning and an optional Unbeliever (named in
    its "Unbeliever:" line, or in the sentence: "... with Ais523 as Unbeliever")."""
    doc = read_consultation(document)
    if unbeliever and not doc["unbeliever"]:
        doc["unbeliever"] = unbeliever
    if not doc["question"]:
        raise Rejected("a Consultation needs a Question: write it after the sentence "
                       "(\"Question: ...\"), ending with END CONSULTATION (or the message)",
                       rule="4E18")
    unbeliever = find_player(ctx, doc["unbeliever"], "4E18") if doc["unbeliever"] else None
    supplicant = actor.name if actor is not None else ctx.post.sender
    c = Consultation.create(question=doc["question"], reasoning=doc["reasoning"], supplicant=supplicant,
                            supplicant_player=actor, unbeliever=unbeliever, submitted_at=ctx.at,
                            entry=ctx.entry)
    ctx.record("consultation", f"{supplicant} submits a Consultation (#{c.id}): “{_short(c.question)}”"
               + (f", Unbeliever {unbeliever.name}" if unbeliever else ""), rule="4E18",
               consultation=c.id, action="submit", supplicant=supplicant, nweek=ctx.game.nweek,
               question=c.question, unbeliever=unbeliever.name if unbeliever else None)
    needs_priest(ctx, c, "a new Consultation")
    c = Consultation.get_by_id(c.id)
    ctx.notes.append(f"{label(c)}" + (f", Priest {c.priest.name}" if c.priest_id else
                                      ", waiting for the Oracle to assign a Priest or ZOT it"))


def _short(text: str, most: int = 80) -> str:
    line = " ".join(text.split())
    return line if len(line) <= most else line[:most].rstrip() + "…"


# --------------------------------------------------- the Oracle's actions

def _require_oracle(ctx: Context, actor: Player, what: str) -> Ministry:
    return require_minister(ctx, actor, "Questions", "4E18", f"only the Oracle may {what}")


# "..., as number 7", "numbered 7", "as Consultation 7": the number the Oracle likes (4E18)
_LIKED_NUMBER = "number:consultation?![as|as number|numbered|numbering it|with number|with the number|under number|number|its number]"
# "Wooble's Consultation about forfeiting voters": what it asks, said to tell it apart; the
# Consultation is the one named (by number, whose it is, or the mail replied to), never found
# by these words alone
_ABOUT = "about:text?[consultation about|consultation on|consultation regarding|consultation concerning]"
_ASSIGN = ("assign|reassign|select|choose|pick|appoint|name|draw|allot|allocate"
           "|randomly assign|randomly select|randomly choose|randomly pick|randomly draw")


@action("assign_consultation",
        # Rule 4E18: "the Oracle shall as a Game Action select a Priest for that Consultation";
        # "assign a priest to that Consultation"; "reassign the Consultation to a new Priest"
        frame(_ASSIGN, "which:consultation#[" + _ON + "]", "player:player?[to|as priest|as its priest]",
              _UNNUMBERED, _LIKED_NUMBER, _ABOUT, also="priest new a its as quoted above"),
        frame(_ASSIGN, "which:consultation#[" + _ON + "]", _UNNUMBERED, _LIKED_NUMBER,
              role("player:choice[to]", {"a random priest": "at random", "random priest": "at random",
                                         "a priest at random": "at random", "a random player": "at random",
                                         "a randomly chosen priest": "at random", "at random": "at random",
                                         "randomly": "at random", "random": "at random"}),
              also="priest new a its as"),
        rule="4E18", example="I assign Consultation 3 to Bob",
        says="select {player} as the Priest of Consultation {which}",
        not_actions=("I assigned Consultation 3 to Bob yesterday", "Wooble assigns Consultation 3 to Bob",
                     "Should I assign Consultation 3 to Bob?", "I assign blame to Wooble"))
def assign(ctx: Context, actor: Player, which: str, player: str | None = None,
           unnumbered: str | None = None, number: str | None = None, about: str | None = None) -> None:
    """Rule 4E18: the Oracle selects a Priest for a Consultation that has none
    (numbering it, with a number of his liking if he says one), or reassigns it
    instead of granting its Priest's request for a ZOT. (`about`, what the sender says the
    Consultation asks, is said but not needed.)"""
    _require_oracle(ctx, actor, "assign a Consultation to a Priest")
    c = find(which, unnumbered, ctx)
    if c.state != "Waiting":
        raise Rejected(f"{label(c)} is {c.state}; only a Waiting Consultation is assigned", rule="4E18")
    previous = c.priest_id
    if previous is not None and not c.zot_requested:
        raise Rejected(f"{label(c)} has its Priest ({_name(previous)}); the Oracle assigns a new one "
                       "only when it has none, or instead of granting its Priest's request for a ZOT",
                       rule="4E18")
    chosen_number = None
    if number is not None:
        if c.number is not None:
            raise Rejected(f"{label(c)} is numbered already", rule="4E18")
        chosen_number = _check_number(number)
    chosen = None
    if player is not None and not _RANDOM.fullmatch(player.strip()):
        chosen = actor if name_key(player) in ("myself", "me") else find_player(ctx, player, "4E18")
        candidates = eligible(c)
        if chosen.id not in {p.id for p in candidates} and not (not candidates and chosen.id == actor.id):
            raise Rejected(f"{why_not_eligible(c, chosen)}: not eligible as its Priest"
                           + (f" (eligible: {', '.join(p.name for p in candidates)})" if candidates
                              else " (nobody is: the Oracle is selected)"), rule="4E18")
    if previous is not None:
        _cancel(ctx, "priest_silent", c)
        _fulfil(ctx, "consultation_zot_request", c, f"the Oracle ({actor.name}) reassigned {label(c)}")
    why = "reassigned instead of a ZOT its Priest requested" if previous else "assigned by the Oracle"
    priest = select_priest(ctx, c, f"the Oracle ({actor.name})", why, chosen=chosen, number=chosen_number)
    ctx.notes.append(f"{label(c)}: Priest {priest.name}")


@action("number_consultation",
        # Rule 4E18: "The Oracle may ... choose a number of his liking for a new Consultation"
        frame("number|renumber", "which:consultation#", _UNNUMBERED,
              "number:consultation![as|to|into|as number|with number|with the number]",
              also="number"),
        # "I number this Consultation 7", "... and number it 7": the one named, then its number
        frame("number|renumber", "which:consultation#", "number:number", _UNNUMBERED, also="number"),
        frame("choose|pick|set|give|select|assign|use|change", "number:number[to|as|at]",
              "which:consultation#[of|for|to|on]", _UNNUMBERED, also="number", needs="number"),
        rule="4E18", example="I number Consultation 3 as 7", says="number Consultation {which} as {number}",
        not_actions=("I numbered Consultation 3 as 7", "Carol numbers Consultation 3 as 7",
                     "Did I number Consultation 3 as 7?"))
def renumber(ctx: Context, actor: Player, which: str, number: str, unnumbered: str | None = None) -> None:
    """Rule 4E18: the Oracle may choose a number of his liking for a new
    Consultation (one never Answered)."""
    _require_oracle(ctx, actor, "choose a Consultation Number")
    c = find(which, unnumbered, ctx)
    if c.state != "Waiting" or c.answer_round:
        raise Rejected(f"{label(c)} is not new (it is {c.state}"
                       + (", and was Answered before" if c.answer_round else "") + ")", rule="4E18")
    n = _check_number(number)
    before, c.number = label(c), n
    c.save()
    ctx.record("consultation", f"the Oracle ({actor.name}) numbers {before} as Consultation {n}",
               rule="4E18", consultation=c.id, number=n, action="number")


@action("zot_consultation",
        # Rule 4E18: "the Oracle may wield the staff of ZOT and cause the Consultation to be ZOTTED"
        frame("zot|wield the staff of zot|use the staff of zot|raise the staff of zot"
              "|swing the staff of zot|bring down the staff of zot|wield the staff",
              "which:consultation#[on|against|over|upon|at|to]", _UNNUMBERED,
              also="cause be zotted zoted of zot staff malformed ambiguous irrelevant unworthy"),
        frame("declare|make|mark|render|cause|pronounce|rule", "which:consultation#", _UNNUMBERED,
              also="zotted zoted to be", needs="zotted"),
        rule="4E18", example="I ZOT Consultation 3", says="ZOT Consultation {which}",
        not_actions=("I ZOTTED Consultation 3 last week", "The Oracle ZOTs Consultation 3",
                     "Should I ZOT Consultation 3?", "I think I'll ZOT Consultation 3"))
def zot(ctx: Context, actor: Player, which: str, unnumbered: str | None = None) -> None:
    """Rule 4E18: the Oracle wields the staff of ZOT on a Consultation before
    assigning it to a Priest, or on a Waiting one whose Priest requested it.
    ZOTTED Consultations have no further effect."""
    _require_oracle(ctx, actor, "wield the staff of ZOT")
    c = find(which, unnumbered, ctx)
    if c.state != "Waiting":
        raise Rejected(f"{label(c)} is {c.state}; only a Waiting Consultation can be ZOTTED", rule="4E18")
    if c.priest_id is not None and not c.zot_requested and c.priest_id != actor.id:
        raise Rejected(f"{label(c)} has its Priest ({_name(c.priest_id)}), who has not requested a ZOT: "
                       "the Oracle ZOTs a Consultation before assigning it, or at its Priest's request",
                       rule="4E18")
    c.state, c.zot_requested = "ZOTTED", False
    c.save()
    for kind in ("priest_silent", "consultation_tally"):
        _cancel(ctx, kind, c)
    for kind in ("consultation_priest", "consultation_zot_request"):
        _fulfil(ctx, kind, c, f"the Oracle ({actor.name}) ZOTTED {label(c)}")
    ctx.record("consultation", f"the Oracle ({actor.name}) wields the staff of ZOT: {label(c)} is ZOTTED",
               rule="4E18", consultation=c.id, number=c.number, action="zot")
    contempt(ctx, c)


_REQUEST = "request|ask|ask for|call for|beg|petition|request that|ask that|implore|urge|entreat"
_REQUESTED = "zot zots zotting zotted oracle him to be that"


@action("request_zot",
        # Rule 4E18: "The Oracle may also ZOT a Waiting Consultation if ... its assigned Priest
        # requests him to do so"
        *(frame(_REQUEST, "which:consultation#[of|on|for|against|to zot]", _UNNUMBERED,
                also=_REQUESTED, needs=word) for word in ("zot", "zotting", "zotted", "zots")),
        rule="4E18", example="I request a ZOT of Consultation 3", says="request a ZOT of Consultation {which}",
        not_actions=("I requested a ZOT of Consultation 3", "Wooble requests a ZOT of Consultation 3",
                     "Should I request a ZOT of Consultation 3?", "I ask what a ZOT is"))
def request_zot(ctx: Context, actor: Player, which: str, unnumbered: str | None = None) -> None:
    """Rule 4E18: the Priest of a Waiting Consultation not Answered yet may ask
    the Oracle to ZOT it; the Oracle must grant it or reassign the Consultation."""
    c = find(which, unnumbered, ctx)
    if c.priest_id != actor.id:
        raise Rejected(f"only the Priest of {label(c)} may request that it be ZOTTED", rule="4E18")
    if c.state != "Waiting":
        raise Rejected(f"{label(c)} is {c.state}; a ZOT is requested before it is Answered", rule="4E18")
    if c.zot_requested:
        raise Rejected(f"you have requested a ZOT of {label(c)} already", rule="4E18")
    c.zot_requested = True
    c.save()
    ctx.record("consultation", f"{actor.name}, its Priest, requests a ZOT of {label(c)}", rule="4E18",
               consultation=c.id, number=c.number, action="zot_request", priest=actor.name)
    oblige(ctx, ensure(ctx, "Questions"), "consultation_zot_request",
           f"grant {actor.name}'s request to ZOT {label(c)}, or reassign it to a new Priest", "4E18",
           consultation=c.id)


# ------------------------------------------------------------- 4E60

def _submitted_nweek(c: Consultation) -> int | None:
    q = Event.select().where(Event.kind == "consultation")
    q = q.where(Event.entry == c.entry) if c.entry is not None else q
    for e in q.order_by(Event.seq):
        if e.data.get("action") == "submit" and e.data.get("consultation") == c.id:
            return e.data.get("nweek")
    return None


def contempt(ctx: Context, c: Consultation) -> None:
    """Rule 4E60: a Player whose 5 Consultations submitted in the same nweek are
    all ZOTTED is Held in Contempt of Court, a Misdemeanor (each fifth one)."""
    if c.supplicant_player_id is None:
        return
    nweek = _submitted_nweek(c)
    zotted = [x for x in (Consultation.select()
                          .where(Consultation.supplicant_player == c.supplicant_player_id,
                                 Consultation.state == "ZOTTED").order_by(Consultation.id))
              if _submitted_nweek(x) == nweek]
    contempt = _periods(ctx, "contempt_zotted")
    if not zotted or len(zotted) % contempt:
        return
    player = Player.get_by_id(c.supplicant_player_id)
    five = zotted[-contempt:]
    ctx.record("misdemeanor", f"Misdemeanor: {player.name} is Held in Contempt of Court: "
               f"{contempt} Consultations {player.name} submitted in nweek {nweek} were all "
               f"ZOTTED ({', '.join(label(x) for x in five)})", rule="4E60", player=player.name,
               offense="Contempt of Court", nweek=nweek, consultations=[x.id for x in five])


# ---------------------------------------------------------------- the Answer

# Rule 4E18: the Answers, and their synonyms, as a frame's choice ("Göd Knows" -> PARADOX)
_ANSWER_CHOICES = {**{w: a for a, words in ANSWERS.items() for w in words},
                 "göd knows": "PARADOX", "goed knows": "PARADOX"}
_ANSWER_VERBS = ("answer|reply|respond|give my answer|give the answer|submit my answer|submit the answer"
                 "|submit an answer|deliver my answer|post my answer")
_ANSWER_OPENERS = "my answer|the answer"


@action("answer_consultation",
        # Rule 4E18: "The selected Priest shall ... as a Game Action, Answer his assigned
        # Consultation YES, NO, or ... PARADOX". A word not one of them (or followed by
        # words of Reasoning) reaches the handler as written, which judges it.
        frame(_ANSWER_VERBS, "which:consultation#[to|on|for|regarding|about|of]", _UNNUMBERED,
              role("word:choice", _ANSWER_CHOICES), also="with answer is", openers=_ANSWER_OPENERS, why=False),
        frame(_ANSWER_VERBS, "which:consultation#[to|on|for|regarding|about|of]", _UNNUMBERED,
              "word:text", also="with answer is", openers=_ANSWER_OPENERS, why=False),
        # "Consultation 5: Göd Knows." (the Consultation written with its kind, then the answer)
        frame("", "which:consultation#", role("word:choice", _ANSWER_CHOICES), bare=True, why=False,
              also="answer my is"),                   # "Consultation 5 answer: affirmative"
        rule="4E18", example="I answer Consultation 3 YES", says="answer Consultation {which} {word}",
        not_actions=("I answered Consultation 3 YES", "Wooble answers Consultation 3 YES",
                     "Should I answer Consultation 3 YES?", "I answer to nobody"),
        document="answer")
def answer(ctx: Context, actor: Player, which: str, word: str, document: str = "",
           unnumbered: str | None = None) -> None:
    """Rule 4E18: the selected Priest Answers his Consultation YES, NO or PARADOX
    (or a synonym), with his Reasoning and an Oracularity if he deems it
    necessary; it becomes Answered."""
    c = find(which, unnumbered, ctx)
    if c.priest_id != actor.id:
        raise Rejected(f"only the Priest of {label(c)} may Answer it"
                       + (f" ({_name(c.priest_id)})" if c.priest_id else " (it has none yet)"), rule="4E18")
    if c.state != "Waiting":
        raise Rejected(f"{label(c)} is {c.state}; only a Waiting Consultation is Answered", rule="4E18")
    result, inline = answer_word(word)
    doc = read_answer(document)
    reasoning = "\n".join(x for x in (inline, doc["reasoning"]) if x).strip()
    c.state, c.answer, c.answer_reasoning = "Answered", result, reasoning
    c.oracularity = doc["oracularity"] or None
    c.answered_at, c.answer_round, c.zot_requested = ctx.at, c.answer_round + 1, False
    c.save()
    _cancel(ctx, "priest_silent", c)
    _fulfil(ctx, "consultation_zot_request", c, f"its Priest ({actor.name}) Answered {label(c)}")
    ctx.record("consultation", f"{actor.name}, its Priest, Answers {label(c)} {result}"
               + (" with an Oracularity" if c.oracularity else ""), rule="4E18", consultation=c.id,
               number=c.number, action="answer", answer=result, round=c.answer_round,
               reasoning=reasoning, oracularity=c.oracularity, priest=actor.name)
    _schedule_after_answer(ctx, c)
    if c.oracularity:
        ctx.notes.append(describe_oracularity(c.oracularity))
    _warn_swallowed(ctx, document)


def _schedule_after_answer(ctx: Context, c: Consultation) -> None:
    game = ctx.game
    durations.schedule(ctx, durations.jiffies(ctx), "consultation_tally", "4E18",
                       consultation=c.id, round=c.answer_round)
    unit = "nday" if game.clock_on else "ndelay"
    due = (durations.ndays if game.clock_on else durations.ndelays)(game, _periods(ctx, "ponder_periods"))
    durations.schedule(ctx, due, "consultation_pondered", "4E18", consultation=c.id,
                       round=c.answer_round, nday0=game.nday_changes, ndelay0=game.ndelay_changes,
                       unit=unit)


def describe_oracularity(text: str) -> str:
    parsed = changes.parse(text)
    out = f"its Oracularity has {len(parsed.changes)} change(s) bnomic makes when it is Pondered"
    if parsed.prose:
        out += f", and {len(parsed.prose)} part(s) in prose for the Rulekeeper: " \
               + " | ".join(_short(p, 60) for p in parsed.prose)
    return out


def _warn_swallowed(ctx: Context, document: str) -> None:
    """A sentence after the Answer that reads as an action is part of the Answer's
    Reasoning (the Answer runs to END ANSWER): say so in the receipt."""
    for s in sentences(document):
        if match_action(s):
            ctx.notes.append(f"“{_short(s, 60)}” is part of this Answer, not done: end an Answer "
                             "with END ANSWER before other actions")
            return


@action("submit_oracularity",
        # Rule 4E18: "the Priest may also submit as a game action an Oracularity"
        frame("submit|attach|add|include|append|make|issue|give|enclose|post",
              "which:consultation?#[for|on|to|with|with my answer to|regarding|about|of]", _UNNUMBERED,
              also="oracularity following new answer", needs="oracularity"),
        rule="4E18", example="I submit the following Oracularity for Consultation 3: Repeal Rule 4E60 "
                             "END ORACULARITY", says="submit an Oracularity for Consultation {which}",
        not_actions=("I submitted an Oracularity", "Wooble submits an Oracularity",
                     "Should I submit an Oracularity?"),
        document="oracularity", document_needed=True)
def submit_oracularity(ctx: Context, actor: Player, document: str = "", which: str | None = None,
                       unnumbered: str | None = None) -> None:
    """Rule 4E18: as part of his Answer the Priest may submit an Oracularity
    (bnomic reads it as part of the Answer given in the same message)."""
    if which is not None:
        c = find(which, unnumbered, ctx)
        found = [c] if _answered_here(ctx, c) else []
    else:
        found = [c for c in Consultation.select().where(Consultation.state == "Answered",
                                                        Consultation.priest == actor) if _answered_here(ctx, c)]
    if len(found) != 1 or found[0].priest_id != actor.id:
        raise Rejected("an Oracularity is part of an Answer: submit it in the message with your Answer "
                       "(name the Consultation if you answer several)", rule="4E18")
    c = found[0]
    if c.oracularity:
        raise Rejected(f"the Answer to {label(c)} has an Oracularity already", rule="4E18")
    if not document.strip():
        raise Rejected("write the Oracularity's changes after the sentence, ending with END ORACULARITY",
                       rule="4E18")
    c.oracularity = document.strip()
    c.save()
    ctx.record("consultation", f"{actor.name}, its Priest, submits an Oracularity with the Answer to "
               f"{label(c)}", rule="4E18", consultation=c.id, number=c.number, action="oracularity",
               round=c.answer_round, oracularity=c.oracularity)
    ctx.notes.append(describe_oracularity(c.oracularity))


def _answered_here(ctx: Context, c: Consultation) -> bool:
    if ctx.entry is None or c.state != "Answered":
        return False
    return any(e.data.get("action") == "answer" and e.data.get("consultation") == c.id
               and e.data.get("round") == c.answer_round
               for e in Event.select().where(Event.kind == "consultation", Event.entry == ctx.entry))


# ----------------------------------------------------- Automatic Reassignment

@deadline("priest_silent")
def priest_silent(ctx: Context, consultation: int, priest: int, draw: int) -> None:
    """Rule 4E18: a Priest, not the Oracle, who has not answered his Consultation
    within a Jiffy ceases to be the Priest of every Consultation he is assigned
    to and loses the Ordained Property, not to regain it until the next nweek."""
    c = Consultation.get_or_none(Consultation.id == consultation)
    if c is None or c.state != "Waiting" or c.priest_id != priest:
        return
    the_oracle = oracle()
    if the_oracle is not None and the_oracle.id == priest:
        return
    player = Player.get_by_id(priest)
    waiting = list(Consultation.select().where(Consultation.state == "Waiting",
                                               Consultation.priest == player).order_by(Consultation.id))
    for w in waiting:
        _cancel(ctx, "priest_silent", w)
        w.priest, w.zot_requested = None, False
        w.save()
        _fulfil(ctx, "consultation_zot_request", w, f"{player.name} is no longer its Priest")
        ctx.record("consultation", f"{player.name} did not answer {label(c)} within a Jiffy and ceases "
                   f"to be the Priest of {label(w)}", rule="4E18", consultation=w.id, number=w.number,
                   action="silent", priest=player.name)
    lose_ordained(ctx, player, f"did not answer {label(c)} within a Jiffy", until_nweek=ctx.game.nweek + 1)
    for w in waiting:
        needs_priest(ctx, Consultation.get_by_id(w.id), f"{player.name} was silent for a Jiffy")


# --------------------------------------------------------- Claims and tally

_CLAIMS = {"consistent": "Consistent", "consistency": "Consistent", "inconsistent": "Inconsistent",
           "inconsistency": "Inconsistent", "not consistent": "Inconsistent"}


@action("claim_consultation",
        # Rule 4E18: "make a Claim regarding the Answer and the Oracularity ... that the player
        # believes the answer (and Oracularity) to be Consistent or Inconsistent"
        frame("claim|make a claim|submit a claim|file a claim|lodge a claim|enter a claim|state|declare"
              "|believe|find|hold|deem|consider|judge",
              "which:consultation#[" + _ON + "]", _UNNUMBERED,
              "priest:player?",                  # "Dana's answer to Consultation 5": whose Answer it is
              role("claim:choice", _CLAIMS),
              also="answer answers oracularity its that is are was be and claim",
              openers="my claim|my claim is"),             # "My Claim regarding Consultation 5: Consistent"
        # "I claim Consistent on 5": the Claim, then the Consultation it is on by its number alone
        frame("claim|make a claim|submit a claim|file a claim|lodge a claim|enter a claim",
              role("claim:choice", _CLAIMS), "which:consultation[" + _ON + "]!",
              also="claim answer answers oracularity its that is are was be and"),
        # "Consultation 5: Inconsistent." (the Consultation written with its kind, then the Claim)
        frame("", "which:consultation#", role("claim:choice", _CLAIMS), bare=True, why=False,
              also="claim my is"),
        # "Inconsistent, on 5." (the Claim first, then the Consultation it is on, as a Vote is said)
        frame("", role("claim:choice", _CLAIMS), "which:consultation[on|for|re]!", bare=True, why=False),
        rule="4E18", example="I claim the Answer to Consultation 3 is Inconsistent",
        says="claim the Answer to Consultation {which} is {claim}",
        not_actions=("I claimed Consultation 3 was Inconsistent", "Wooble claims Consultation 3 is Inconsistent",
                     "Is Consultation 3 Inconsistent?",
                     "I think Consultation 3 is Inconsistent"))
def claim(ctx: Context, actor: Player, which: str, claim: str, unnumbered: str | None = None,
          priest: str | None = None) -> None:
    """Rule 4E18: within three ndays (or ndelays) of an Answer, any Player but its
    Priest, the Unbeliever and the Supplicant may Claim the Answer (and its
    Oracularity) Consistent or Inconsistent; a Player's last Claim counts. Whose
    Answer it is ("Dana's answer"), if said, only names it: the Consultation decides."""
    c = find(which, unnumbered, ctx)
    if c.state != "Answered":
        raise Rejected(f"{label(c)} is {c.state}: Claims are about an Answer, while it is Answered",
                       rule="4E18")
    actor = Player.get_by_id(actor.id)
    for role, is_it in (("its Priest", c.priest_id == actor.id), ("its Unbeliever", c.unbeliever_id == actor.id),
                        ("its Supplicant", _is_supplicant(c, actor))):
        if is_it:
            raise Rejected(f"{actor.name} is {role}, who may not make a Claim about its Answer", rule="4E18")
    rows = _pending("consultation_pondered", c)
    within = _periods(ctx, "claim_periods")
    if not rows or periods_since_answer(ctx, rows[0]) > within:
        raise Rejected(f"Claims about the Answer to {label(c)} were due within {within} ndays "
                       "(or ndelays) of it", rule="4E18")
    word = "Inconsistent" if claim.lower().startswith("in") else "Consistent"
    Claim.create(consultation=c, player=actor, claim=word, answer_round=c.answer_round, at=ctx.at)
    ctx.record("consultation", f"{actor.name} Claims the Answer to {label(c)} {word}", rule="4E18",
               consultation=c.id, number=c.number, action="claim", player=actor.name, claim=word,
               round=c.answer_round)
    if not _pending("consultation_tally", c) and not _tally_obligations(c):
        ctx.notes.append(f"the Claims on this Answer were tallied a Jiffy after it; this one is "
                         "recorded, but no tally remains to count it")


def periods_since_answer(ctx: Context, row: Deadline) -> int:
    """Whole ndays and ndelays ended since the Answer: each change of the nday
    (Clock On) or of the ndelay (Clock Off) ends one; the first ends the one
    the Answer came in."""
    game = ctx.game
    return (game.nday_changes - row.args["nday0"]) + (game.ndelay_changes - row.args["ndelay0"])


def _tally_obligations(c: Consultation) -> list[Obligation]:
    return [o for o in Obligation.select().where(Obligation.kind == "consultation_tally",
                                                 Obligation.state == "open").order_by(Obligation.id)
            if o.data.get("consultation") == c.id]


def final_claims(c: Consultation) -> dict[str, str]:
    """Each Player's last Claim about the current Answer: {name: claim}."""
    out: dict[int, str] = {}
    for cl in Claim.select().where(Claim.consultation == c, Claim.answer_round == c.answer_round) \
            .order_by(Claim.id):
        out[cl.player_id] = cl.claim
    return dict(sorted(((_name(pid), v) for pid, v in out.items()), key=lambda kv: kv[0].casefold()))


@deadline("consultation_tally")
def tally_due(ctx: Context, consultation: int, round: int) -> None:
    """Rule 4E18: a Jiffy after the Answer, the Oracle shall tally the Claims."""
    c = Consultation.get_by_id(consultation)
    if c.state != "Answered" or c.answer_round != round:
        return
    if delegated(ctx, "priests"):
        tally(ctx, c, f"bnomic, for the Oracle ({oracle().name}),")
    else:
        oblige(ctx, ensure(ctx, "Questions"), "consultation_tally",
               f"tally the Claims on the Answer to {label(c)}", "4E18", consultation=c.id, round=round)


def tally(ctx: Context, c: Consultation, by: str) -> None:
    """Rule 4E18: more Claims of Inconsistency than of Consistency: the
    Consultation ceases to be Answered and becomes Waiting, the Answer and its
    Oracularity are discarded, and a new Priest is assigned."""
    finals = final_claims(c)
    consistent = [n for n, v in finals.items() if v == "Consistent"]
    inconsistent = [n for n, v in finals.items() if v == "Inconsistent"]
    overturned = len(inconsistent) > len(consistent)
    ctx.record("consultation", f"{by} tallies the Claims on the Answer to {label(c)}: "
               f"{len(consistent)} Consistent, {len(inconsistent)} Inconsistent"
               + ("; the Answer is discarded" if overturned else "; the Answer stands"), rule="4E18",
               consultation=c.id, number=c.number, action="tally", round=c.answer_round,
               consistent=consistent, inconsistent=inconsistent, overturned=overturned)
    for o in _tally_obligations(c):
        fulfil(ctx, o, f"{by} tallied the Claims")
    if not overturned:
        return
    old = c.answer
    c.state, c.answer, c.answer_reasoning, c.oracularity = "Waiting", None, "", None
    c.answered_at, c.priest = None, None
    c.save()
    _cancel(ctx, "consultation_pondered", c)
    ctx.record("consultation", f"{label(c)} is Waiting again: its Answer ({old}) and any Oracularity "
               "are discarded", rule="4E18", consultation=c.id, number=c.number, action="overturned",
               round=c.answer_round)
    needs_priest(ctx, c, "its Answer was overturned by Claims")


@action("tally_claims",
        # Rule 4E18: "A Jiffy after the Answer has been submitted the Oracle shall tally any such Claims"
        frame("tally|tally up|count|total|add up|count up", "which:consultation#[" + _ON + "]", _UNNUMBERED,
              also="claims claim answer its", needs="claims"),
        rule="4E18", example="I tally the Claims on Consultation 3", says="tally the Claims on Consultation {which}",
        not_actions=("I tallied the Claims on Consultation 3", "The Oracle tallies the Claims on Consultation 3",
                     "Should I tally the Claims on Consultation 3?"))
def tally_by_hand(ctx: Context, actor: Player, which: str, unnumbered: str | None = None) -> None:
    """Rule 4E18: a Jiffy after the Answer, the Oracle tallies the Claims."""
    _require_oracle(ctx, actor, "tally the Claims")
    c = find(which, unnumbered, ctx)
    if c.state != "Answered" or not _tally_obligations(c):
        raise Rejected(f"there is no tally due on {label(c)} ({c.state}): the Claims are tallied a "
                       "Jiffy after the Answer", rule="4E18")
    tally(ctx, c, f"the Oracle ({actor.name})")


# ---------------------------------------------------------------- Pondered

@at_end_of("nday", rule="4E18")
def nday_ends(ctx: Context) -> None:
    """Rule 4E18: an nday ends (the Clock On): Consultations Answered for four full ndays are Pondered."""
    _ponder_due(ctx)


@at_end_of("ndelay", rule="4E18")
def ndelay_ends(ctx: Context) -> None:
    """Rule 4E18: an ndelay ends (the Clock Off): ... or four full ndelays."""
    if ctx.game.clock_on:
        return          # turning the Clock On cut the ndelay short: no change of the ndelay (4E14)
    _ponder_due(ctx)


def _ponder_due(ctx: Context) -> None:
    """At the end of a period (its counter about to change), every Answered
    Consultation whose Answer has seen its own period and four whole ones end."""
    for row in Deadline.select().where(Deadline.action == "consultation_pondered",
                                       Deadline.state == "pending").order_by(Deadline.id):
        if periods_since_answer(ctx, row) + 1 > _periods(ctx, "ponder_periods"):
            row.state = "fired"
            row.save()
            c = Consultation.get_by_id(row.args["consultation"])
            if c.state == "Answered" and c.answer_round == row.args["round"]:
                become_pondered(ctx, c)


@deadline("consultation_pondered")
def ponder_due(ctx: Context, consultation: int, round: int, nday0: int, ndelay0: int, unit: str) -> None:
    """Rule 4E18: the deadline counted on the counter of the Clock's state at the
    Answer. It falls due at the end of its period (or, an ndelay one, when the
    Clock is turned On): if the periods of both kinds make four full ones, the
    Consultation is Pondered (the hooks above usually did it first); an ndelay
    cut short by turning the Clock On is no change of it, so it waits for the rest."""
    c = Consultation.get_by_id(consultation)
    if c.state != "Answered" or c.answer_round != round:
        return
    game = ctx.game
    passed = (game.nday_changes - nday0) + (game.ndelay_changes - ndelay0)
    cut = unit == "ndelay" and game.clock_on
    ponder = _periods(ctx, "ponder_periods")
    if passed + (0 if cut else 1) > ponder:
        become_pondered(ctx, c)
        return
    counter = "nday" if game.clock_on else "ndelay"
    now = game.nday_changes if game.clock_on else game.ndelay_changes
    durations.schedule(ctx, durations.Due(counter=counter, count=now + ponder + 1 - passed),
                       "consultation_pondered", "4E18", consultation=c.id, round=round,
                       nday0=nday0, ndelay0=ndelay0, unit=counter)


def become_pondered(ctx: Context, c: Consultation) -> None:
    """Rule 4E18: a Consultation that remains Answered for four full Ndays (or
    Ndelays if the Clock is Off) becomes Pondered, and its Oracularity is
    followed: its changes take effect, as one transaction."""
    c.state = "Pondered"
    c.save()
    _cancel(ctx, "consultation_tally", c)
    _cancel(ctx, "consultation_pondered", c)
    for o in _tally_obligations(c):
        fulfil(ctx, o, f"{label(c)} is Pondered: nothing is left to tally")
    ctx.record("consultation", f"{label(c)} is Pondered: its Answer {c.answer} stands"
               + (", and its Oracularity takes effect" if c.oracularity else ""), rule="4E18",
               consultation=c.id, number=c.number, action="pondered", answer=c.answer)
    if c.oracularity:
        follow_oracularity(ctx, c)


def follow_oracularity(ctx: Context, c: Consultation) -> tuple[list[str], list[str]]:
    """Rule 4E18: an Oracularity is a transaction: its changes take effect all
    together or not at all (changes.py); what is not in the change language is
    left to the Rulekeeper, as a passed proposal's prose is."""
    source = f"Consultation {c.number}'s Oracularity"
    parsed = changes.parse(c.oracularity)
    done = changes.apply_all_or_nothing(ctx, parsed.changes, source=source, rule="4E18")
    applied = [a.summary for a in done if a.ok]
    unapplied = [f"{a.change.text}: {a.summary}" for a in done if not a.ok] + parsed.prose
    ctx.record("oracularity", f"{source} is followed" + (f": {len(applied)} change(s) made" if applied
                                                           else ": bnomic made no change"),
               rule="4E18", consultation=c.id, number=c.number, applied=applied, unapplied=unapplied)
    if unapplied:
        oblige(ctx, ensure(ctx, "Law"), "implement", f"make the changes of {source} that bnomic could "
               "not make: " + " | ".join(u[:300] for u in unapplied), "4E18", consultation=c.number)
    return applied, unapplied


# ------------------------------------------------------------- the display

def row(c: Consultation) -> dict:
    """A Consultation as `bnomic show consultations --json` gives it (a contract:
    add, never rename)."""
    return {"number": c.number, "id": c.id, "label": label(c), "question": c.question,
            "reasoning": c.reasoning, "supplicant": c.supplicant, "unbeliever": _name(c.unbeliever_id),
            "priest": _name(c.priest_id), "state": c.state, "answer": c.answer,
            "answer_reasoning": c.answer_reasoning, "oracularity": c.oracularity,
            "answered_at": c.answered_at.isoformat() if c.answered_at else None,
            "answer_round": c.answer_round, "zot_requested": c.zot_requested,
            "submitted_at": c.submitted_at.isoformat(),
            "former_priests": [_name(pid) for pid in c.former_priests], "draws": c.draws,
            "claims": final_claims(c) if c.state in ("Answered", "Pondered") else {}}


def _order():
    return (Consultation.number.is_null(), Consultation.number, Consultation.id)


@view("consultations", template="show_consultations.txt")
def consultations_view(ctx: Context, request: Request) -> list[dict]:
    """`bnomic show consultations`: every Consultation, by number."""
    return [row(c) for c in Consultation.select().order_by(*_order())]


def display(ctx: Context) -> dict:
    """Rule 4E18: the Oracle's Public Display of the current Consultations (one
    ZOTTED before it had a Priest need not be shown, and is not)."""
    rows = [row(c) for c in Consultation.select().order_by(*_order())
            if not (c.state == "ZOTTED" and not c.draws)]
    ordained = Player.select().where(Player.is_player == True, Player.ordained == True)  # noqa: E712
    return {"current": [r for r in rows if r["state"] in ("Waiting", "Answered")],
            "decided": [r for r in rows if r["state"] in ("Pondered", "ZOTTED")],
            "ordained": sorted((p.name for p in ordained), key=str.casefold)}



