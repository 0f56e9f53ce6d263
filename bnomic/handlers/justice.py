"""Justice: Indictments (Rule 4E72), the Judge, the Jury and Punishments
(Rule 4E73), fines and Registered Voters (4E73, 4E20), Contempt of Court's
fines (4E60), and the Judge's Public Display of Indictments and of the
Misdemeanors recorded (4E56, 4E59, 4E60).

* Any Player submits an Indictment, a document after its sentence (up to
  END INDICTMENT or the message's end; see grammar.py):

      I submit the following Indictment:
      Accusation: Misdemeanor
      Example: on 2008-09-03 Wooble did not number proposal 4 within a Jiffy
      Offender: Wooble
      Tidbit: cheese
      Reasoning: the Chairman shall number proposals
      END INDICTMENT

* The Judge is obligated to select its Jury by 4E73's priorities. bnomic
  draws it for a Judge who delegated the duty ("jury", Rule 4E45), with
  `ctx.rng()` over the candidates sorted by name, and keeps the priorities,
  the candidates and the chosen with the Indictment and in the event; it
  never acts for a Vacant Ministry of Judging. A Judge who kept the duty is
  obliged (4E53) and selects by mail.
* Each juror answers GUILTY or NOT GUILTY; the latest answer counts; the Jury
  Decides as soon as the outcome is certain. A juror silent for a Jiffy after
  the draw commits a Misdemeanor (4E56: the juror "shall" answer).
* The Judge Assigns a Punishment to a Guilty Player: a fine in macks (the
  Player must destroy them and is no Registered Voter until done), or another
  Punishment, made at once when written in the change language, else an
  obligation on the Judge.
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from fractions import Fraction
from math import ceil

from ..store import Event, Fine, Indictment, Ministry, Obligation, Player, Verdict, database, versions
from . import changes, durations
from .context import Context, Rejected
from .economy import debit, fmt, parse_amount
from .ministries import delegated, ensure, held_ministries, require_minister
from .obligations import fulfil, oblige
from .players import current_players, find_player, name_key
from .frames import frame, role
from .registry import action, deadline, duty
from .views import Request, view
from .shares import share

# How an Indictment is named in an action (Rule 4E7): "Indictment 2", "#2", "Indictment no. 2"
_ON = "on|for|in|of|under|regarding|about|concerning|to"


def _tidbits(ctx: Context) -> list[str]:
    return list(ctx.config.owned("justice.tidbits"))


def _jury_size(ctx: Context) -> int:
    return int(ctx.config.owned("justice.jury_size"))


def _contempt_range(ctx: Context) -> tuple[int, int]:
    return (int(ctx.config.owned("justice.contempt_min_fine")),
            int(ctx.config.owned("justice.contempt_max_fine")))


def iso(t: datetime | None) -> str | None:
    return None if t is None else t.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


# ------------------------------------------------------------ the document

# a field's line: "Accusation: Misdemeanor"; the other names players use for each
_FIELD = re.compile(r"^\s*(?P<key>accusation|crime|example|offen[cs]e|offender|accused|defendant"
                    r"|tidbit|reasoning|reasons?)\s*:\s*(?P<value>.*?)\s*$", re.I)
FIELDS = {"accusation": "accusation", "crime": "accusation", "example": "example",
          "offense": "example", "offence": "example", "offender": "offender",
          "accused": "offender", "defendant": "offender", "tidbit": "tidbit",
          "reasoning": "reasoning", "reason": "reasoning", "reasons": "reasoning"}
LABELS = {"accusation": "Accusation", "example": "Example", "offender": "Offender",
          "tidbit": "Tidbit", "reasoning": "Reasoning"}
_FREE_TEXT = ("example", "reasoning")      # these may go on over several lines


def read_document(document: str) -> tuple[dict, list[str]]:
    """An Indictment's lines -> ({field: value}, lines that belong to no field).
    Example and Reasoning go on over the lines after them."""
    fields: dict[str, str] = {}
    stray: list[str] = []
    current = None
    for line in document.splitlines():
        m = _FIELD.match(line)
        if m:
            key = FIELDS[m.group("key").lower()]
            if key in fields:
                raise Rejected(f"the Indictment gives its {LABELS[key]} twice; it has one",
                               rule="4E72")
            fields[key], current = m.group("value"), key
        elif not line.strip():
            continue
        elif current in _FREE_TEXT:
            fields[current] = (fields[current] + "\n" + line.strip()).strip()
        else:
            stray.append(line.strip())
    return {k: v.strip() for k, v in fields.items()}, stray


_CRIME = re.compile(r"^(?:an?\s+)?(?:(?P<contempt>(?:being\s+)?(?:held\s+in\s+)?contempt(?:\s+of\s+court)?)"
                    r"|(?P<misdemeanor>misdemeanou?r)|(?P<felony>felony))\b[\s:,;-]*(?P<rest>.*)$",
                    re.I | re.S)


def read_accusation(text: str) -> str:
    """Rule 4E72: the Accusation is a Crime. The rules name Misdemeanors (4E56,
    4E59, 4E60: being Held in Contempt of Court is one) and Felonies (4E59)."""
    m = _CRIME.match(text.strip())
    if not m:
        raise Rejected(f"{text.strip()!r} is not a Crime: the rules name the Misdemeanor (Rules "
                       "4E56, 4E59, 4E60; Contempt of Court is one) and the Felony (Rule 4E59)",
                       rule="4E72")
    crime = ("Contempt of Court" if m.group("contempt") else
             "Misdemeanor" if m.group("misdemeanor") else "Felony")
    rest = m.group("rest").strip().strip("()").strip()
    return f"{crime} ({rest})" if rest else crime


def crime(ind: Indictment) -> str:
    """The Crime an Accusation names: Misdemeanor or Felony (Contempt of Court
    is a Misdemeanor, Rule 4E60)."""
    return "Felony" if ind.accusation.startswith("Felony") else "Misdemeanor"


def is_contempt(ind: Indictment) -> bool:
    """Rule 4E60: an Indictment for being Held in Contempt of Court: its
    Accusation or Example says so, or its Example names a recorded 4E60
    Misdemeanor event."""
    if re.search(r"\bcontempt\s+of\s+court\b", f"{ind.accusation}\n{ind.example}", re.I):
        return True
    for m in _EVENT.finditer(ind.example):
        e = Event.get_or_none(Event.seq == int(m.group("n")))
        if e is not None and e.kind == "misdemeanor" and e.rule == "4E60":
            return True
    return False


def read_tidbit(ctx: Context, text: str) -> str:
    """Rule 4E72: the word "cheese", the word "CREAMPUFF" or the numeral "3",
    exactly (quotes around it and a final full stop are not part of it)."""
    allowed = _tidbits(ctx)
    t = text.strip()
    m = re.fullmatch(r"[\"“'‘](.*)[\"”'’]", t)
    t = (m.group(1) if m else t).strip()
    if t not in allowed and t[:-1] in allowed and t[-1:] in ".,":
        t = t[:-1]
    if t not in allowed:
        words = ", ".join(f'"{w}"' for w in allowed)
        raise Rejected(f"{text.strip()!r} is not a Tidbit: a Tidbit is exactly one of {words}",
                       rule="4E72")
    return t


# ------------------------------------------------ when the Example occurred

_ISO = re.compile(r"\b(?P<date>\d{4}-\d{2}-\d{2})(?:(?:T|\s+(?:at\s+)?)(?P<time>\d{1,2}:\d{2}(?::\d{2})?))?"
                  r"(?:\s*(?:utc|gmt|z)\b)?", re.I)
_EVENT = re.compile(r"\bevent\s+(?:#\s*|number\s+|no\.?\s*)?(?P<n>\d+)\b", re.I)
_POSITION = re.compile(r"\bnday\s+(?P<nday>\d+)\s+of\s+nweek\s+(?P<nweek>\d+)\b", re.I)


def position_at(ctx: Context, at: datetime | None = None, seq: int | None = None):
    """The (nweek, nday) of the game at an instant, or at an event (as it was
    right after it); None before the game began."""
    q = Event.select(Event.data).where(Event.kind == "clock")
    q = q.where(Event.seq <= seq) if seq is not None else q.where(Event.at <= at)
    for e in q.order_by(Event.seq.desc()):
        if "nweek" in e.data and "nday" in e.data:
            return e.data["nweek"], e.data["nday"]
    if at is not None and at < ctx.setup.start_at:
        return None
    return ctx.setup.nweek, ctx.setup.nday


def _moments(ctx: Context, example: str) -> list[tuple[tuple[int, int] | None, str]]:
    """Every moment the Example names: (its (nweek, nday) or None, as written)."""
    found = []
    for m in _ISO.finditer(example):
        said = m.group(0).strip()
        try:
            day = datetime.fromisoformat(m.group("date")).replace(tzinfo=timezone.utc)
            if m.group("time"):
                parts = [int(x) for x in m.group("time").split(":")] + [0]
                at = day.replace(hour=parts[0], minute=parts[1], second=parts[2])
            else:
                # a date alone: the Offense may have been at any moment of it not after now
                at = min(day + timedelta(days=1) - timedelta(seconds=1), ctx.at) \
                    if day <= ctx.at else day
        except ValueError:
            raise Rejected(f"the Example names {said!r}, which is not a date and time", rule="4E72") \
                from None
        if at > ctx.at:
            raise Rejected(f"the Example names {said}, after this submission: an Example is an "
                           "Offense that occurred before it", rule="4E72")
        found.append((position_at(ctx, at=at), said))
    for m in _EVENT.finditer(example):
        e = Event.get_or_none(Event.seq == int(m.group("n")))
        if e is None:
            raise Rejected(f"the Example names event {m.group('n')}; there is no such event in "
                           "the game's log", rule="4E72")
        found.append((position_at(ctx, seq=e.seq), m.group(0)))
    game = ctx.game
    for m in _POSITION.finditer(example):
        pos = (int(m.group("nweek")), int(m.group("nday")))
        if pos > (game.nweek, game.nday):
            raise Rejected(f"the Example names {m.group(0)}, after this submission: an Example is "
                           "an Offense that occurred before it", rule="4E72")
        found.append((pos, m.group(0)))
    return found


def check_example(ctx: Context, example: str) -> str:
    """Rule 4E72: the Example occurred no more than one nweek before the
    submission: at or after the same nday of the previous nweek. bnomic checks
    the latest moment the Example names; one that names none is taken as
    stated (the receipt says so)."""
    game = ctx.game
    moments = _moments(ctx, example)
    if not moments:
        return ("bnomic cannot tell when the Offense occurred (the Example names no date, nday or "
                "event), so it takes the Example to be within the last nweek as stated (Rule 4E72)")
    for pos, said in moments:
        if pos is None:
            raise Rejected(f"the Example names {said}, before this game began "
                           f"({ctx.setup.start_at:%Y-%m-%d}): more than one nweek ago", rule="4E72")
    pos, said = max(moments, key=lambda m: m[0])
    if pos < (game.nweek - 1, game.nday):
        raise Rejected(f"the Example names {said}, in nday {pos[1]} of nweek {pos[0]}: more than one "
                       f"nweek before this submission (nday {game.nday} of nweek {game.nweek})",
                       rule="4E72")
    return f"the Offense ({said}) was in nday {pos[1]} of nweek {pos[0]}, within the last nweek"


# ---------------------------------------------------------------- finding

def find_indictment(number: str, rule: str = "4E73") -> Indictment:
    n = number.strip().lstrip("#").strip()
    row = Indictment.get_or_none(Indictment.id == int(n)) if n.isdigit() else None
    if row is None:
        raise Rejected(f"there is no Indictment {number.strip()}", rule=rule)
    return row


def judge() -> Player | None:
    m = Ministry.get_or_none(Ministry.name == "Judging")
    return Player.get_by_id(m.holder_id) if m is not None and m.holder_id else None


def _names(ids) -> list[str]:
    by_id = {p.id: p.name for p in Player.select(Player.id, Player.name).where(Player.id.in_(list(ids)))}
    return sorted((by_id[i] for i in ids if i in by_id), key=str.casefold)


def _listing(names: list[str]) -> str:
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names) or "nobody"


# ------------------------------------------------------------- submitting

@action("submit_indictment",
        # Rule 4E72: "A Indictment is a Game Document, which may be submitted at any time"
        frame("submit|file|lodge|bring|make|present|post|enter|issue|raise|send|put forward",
              "player:player?![against|of|accusing]", also="indictment following new", needs="indictment"),
        frame("indict|accuse|charge|prosecute", "player:player", also="following"),
        rule="4E72", example="I submit the following Indictment: Accusation: Misdemeanor / Example: "
                             "... / Offender: Wooble / Tidbit: cheese END INDICTMENT",
        says="submit an Indictment", document="indictment",
        not_actions=("I submitted an Indictment yesterday", "Wooble submits an Indictment",
                     "Should I submit an Indictment?", "I think I'll indict Wooble"))
def submit_indictment(ctx: Context, actor: Player, document: str = "", player: str | None = None) -> None:
    """Rule 4E72: any Player may submit an Indictment at any time: an Accusation
    (a Crime), an Example (its Offense, within the last nweek), an Offender and
    a Tidbit, with Reasoning if wished."""
    fields, stray = read_document(document)
    if player:
        if "offender" in fields and name_key(fields["offender"]) != name_key(player):
            raise Rejected(f"the sentence indicts {player} but the Offender is {fields['offender']}",
                           rule="4E72")
        fields.setdefault("offender", player)
    missing = [LABELS[k] for k in ("accusation", "example", "offender", "tidbit") if not fields.get(k)]
    if missing:
        raise Rejected("an Indictment consists of an Accusation, an Example, an Offender and a "
                       "Tidbit (lines \"Accusation: Misdemeanor\", \"Example: ...\", \"Offender: "
                       "Wooble\", \"Tidbit: cheese\" after the sentence, up to END INDICTMENT); this "
                       f"one lacks: {', '.join(missing)}", rule="4E72")
    accusation = read_accusation(fields["accusation"])
    offender = find_player(ctx, fields["offender"], "4E72")
    tidbit = read_tidbit(ctx, fields["tidbit"])
    when = check_example(ctx, fields["example"])
    ind = Indictment.create(author=actor, offender=offender, accusation=accusation,
                            example=fields["example"], tidbit=tidbit,
                            reasoning=fields.get("reasoning", ""), submitted_at=ctx.at, entry=ctx.entry)
    ctx.record("indictment", f"{actor.name} submits Indictment {ind.id}: {accusation}, by "
               f"{offender.name}", rule="4E72", indictment=ind.id, author=actor.name,
               offender=offender.name, accusation=accusation, tidbit=tidbit)
    ctx.notes.append(f"Indictment {ind.id}")
    ctx.notes.append(when)
    if stray:
        ctx.notes.append("not read as part of the Indictment: " + " | ".join(stray)[:300])
    jury_duty(ctx, ind)
    ind = Indictment.get_by_id(ind.id)
    if ind.draw:
        ctx.notes.append(f"its Jury, drawn by bnomic for the Judge: {_listing(_names(ind.jury))}")
    elif judge() is None:
        ctx.notes.append("the Ministry of Judging is Vacant: the Jury is selected when someone takes it")
    else:
        ctx.notes.append(f"the Judge ({judge().name}) is obliged to select its Jury")


# ------------------------------------------------------------- the Jury

def priorities(ctx: Context, ind: Indictment) -> list[tuple[Player, Fraction]]:
    """Rule 4E73, step (1), in its order: every Active Player 1; the Judge 1/2;
    the Offender and the submitter 0; every member of the Horde (not Active) 0.
    All current Players, sorted by name."""
    the_judge = judge()
    out = []
    for p in sorted(current_players(), key=lambda p: p.name_key):
        priority = Fraction(1) if p.active else Fraction(0)
        if the_judge is not None and p.id == the_judge.id:
            priority = share(ctx, "justice.judge_priority")
        if p.id in (ind.offender_id, ind.author_id):
            priority = Fraction(0)
        if not p.active:
            priority = Fraction(0)
        out.append((p, priority))
    return out


def procedure(ctx: Context, ind: Indictment) -> dict:
    """Rule 4E73's steps (2)-(4), without the random choice: which step
    selects, the candidates, and how many are chosen (all of them at step 4)."""
    size = _jury_size(ctx)
    assigned = priorities(ctx, ind)
    shown = [{"player": p.name, "priority": str(pr)} for p, pr in assigned]
    ones = [p for p, pr in assigned if pr == 1]
    steps = []
    if len(ones) >= size:
        steps.append(f"(2) {len(ones)} Players have priority 1: a random {size} of them")
        return {"priorities": shown, "step": 2, "steps": steps, "candidates": [p.name for p in ones],
                "ids": [p.id for p in ones], "size": size}
    steps.append(f"(2) only {len(ones)} Players have priority 1")
    if any(pr.denominator != 1 for _, pr in assigned):
        rounded = [(p, Fraction(ceil(pr))) for p, pr in assigned]
        ones = [p for p, pr in rounded if pr == 1]
        raised = ", ".join(p.name for p, pr in assigned if pr.denominator != 1)
        if len(ones) >= size:
            steps.append(f"(3) {raised}'s priority rounded up to 1: {len(ones)} Players have "
                         f"priority 1: a random {size} of them")
            return {"priorities": shown, "step": 3, "steps": steps,
                    "candidates": [p.name for p in ones], "ids": [p.id for p in ones], "size": size}
        steps.append(f"(3) {raised}'s priority rounded up to 1: still only {len(ones)} Players "
                     "have priority 1")
    active = [p for p, _ in assigned if p.active]
    steps.append(f"(4) all {len(active)} Active Players are the Jury")
    return {"priorities": shown, "step": 4, "steps": steps, "candidates": [p.name for p in active],
            "ids": [p.id for p in active], "size": len(active)}


def seat_jury(ctx: Context, ind: Indictment, plan: dict, chosen: list[int], by: str) -> None:
    """The Jury is selected: kept with the Indictment, shown in the event, and
    each juror is to answer within a Jiffy (4E73 "shall", 4E56)."""
    names = {p.id: p.name for p in Player.select(Player.id, Player.name)}
    draw = {k: v for k, v in plan.items() if k != "ids"}
    draw.update(chosen=[names[i] for i in chosen], by=by, at=iso(ctx.at))
    ind.jury = sorted(chosen, key=lambda i: names[i].casefold())
    ind.draw = draw
    ind.save()
    jurors = _listing(_names(ind.jury))
    event = ctx.record("jury", f"the Jury of Indictment {ind.id} is {jurors}, selected by {by} "
                       f"(Rule 4E73, step {plan['step']})", rule="4E73", indictment=ind.id, **draw)
    ind.draw = {**draw, "event": event.seq}
    ind.save()
    for o in _jury_obligations(ind):
        fulfil(ctx, o, f"the Jury of Indictment {ind.id} was selected by {by}")
    durations.schedule(ctx, durations.jiffies(ctx), "jury_answers_due", "4E56", indictment=ind.id)
    decide(ctx, ind)


def draw_jury(ctx: Context, ind: Indictment, by: str) -> None:
    """Rule 4E73: select the Jury by the procedure, at random where it says so:
    ctx.rng() (seeded, reproducible) over the candidates sorted by name."""
    plan = procedure(ctx, ind)
    if plan["step"] == 4:
        seat_jury(ctx, ind, plan, list(plan["ids"]), by)
        return
    chosen = ctx.rng().sample(plan["ids"], plan["size"])   # the next event is the "jury" one
    seat_jury(ctx, ind, plan, chosen, by)


def _jury_obligations(ind: Indictment) -> list[Obligation]:
    return [o for o in Obligation.select().join(Ministry).where(
        Ministry.name == "Judging", Obligation.kind == "jury", Obligation.state == "open")
        .order_by(Obligation.id) if o.data.get("indictment") == ind.id]


def jury_duty(ctx: Context, ind: Indictment) -> None:
    """Rule 4E73: when an Indictment is submitted the Judge is obligated to
    select a Jury; bnomic draws it for a Judge who delegated that duty (4E45),
    never for a Vacant Ministry of Judging."""
    ministry = Ministry.get_or_none(Ministry.name == "Judging")
    if ministry is None or ministry.holder_id is None or ind.draw or ind.state != "open":
        return
    if delegated(ctx, "jury"):
        draw_jury(ctx, ind, f"bnomic for the Judge ({Player.get_by_id(ministry.holder_id).name})")
    else:
        oblige(ctx, ensure(ctx, "Judging"), "jury", f"select the Jury of Indictment {ind.id}",
               "4E73", indictment=ind.id)


@duty("Judging", "jury", rule="4E73", does="draw the Jury of each new Indictment at random (Rule 4E73)")
def judge_duties(ctx: Context) -> None:
    """What the rules oblige the Judge to do (4E73), done by bnomic for a Judge
    who delegated it (4E45), after every change (a declared duty):
    each Indictment still without a Jury gets one, or the Judge is obliged."""
    ministry = held_ministries().get("Judging")
    if ministry is None or ministry.holder_id is None:
        return
    if not versions.cached(database, "open indictments", ("indictment",),       # the usual case: none
                           lambda: Indictment.select(Indictment.id).where(Indictment.state == "open").exists()):
        return
    for ind in Indictment.select().where(Indictment.state == "open").order_by(Indictment.id):
        if not ind.draw:
            jury_duty(ctx, ind)


@action("draw_jury",
        # Rule 4E73: "the Judge becomes obligated to randomly select a Jury"
        frame("draw|select|choose|pick|seat|empanel|impanel|convene|assemble|randomly select"
              "|randomly draw|randomly choose|randomly pick",
              "number:indictment#[" + _ON + "]", also="jury random at randomly new its", needs="jury"),
        rule="4E73", example="I draw the Jury for Indictment 2", says="draw the Jury of Indictment {number}",
        not_actions=("I drew the Jury for Indictment 2", "The Judge draws the Jury for Indictment 2",
                     "Should I draw the Jury for Indictment 2?"))
def judge_draws(ctx: Context, actor: Player, number: str) -> None:
    """Rule 4E73: the Judge selects the Jury at random by the procedure; bnomic
    makes the random draw for the Judge who asks."""
    require_minister(ctx, actor, "Judging", "4E73", "only the Judge selects a Jury")
    ind = _without_jury(number)
    draw_jury(ctx, ind, f"the Judge ({actor.name})")
    ctx.notes.append(f"the Jury of Indictment {ind.id}: {_listing(_names(ind.jury))}")


@action("name_jury",
        # Rule 4E73: "To select a Jury, the Judge follows the following procedure (or an equivalent one)"
        frame("select|choose|name|appoint|pick|seat|empanel|impanel|place|put",
              "players:player*", "number:indictment#[" + _ON + "]", also="as to be jury on",
              needs="jury"),
        frame("", "number:indictment#[" + _ON + "]", "players:player*", also="will shall",
              openers="the jury|my jury|jury"),
        rule="4E73", example="I select Bob, Carol and Dave as the Jury for Indictment 2",
        says="select {players} as the Jury of Indictment {number}",
        not_actions=("I selected Bob, Carol and Dave as the Jury for Indictment 2",
                     "Frank selects Bob, Carol and Dave as the Jury for Indictment 2",
                     "Should I select Bob, Carol and Dave as the Jury for Indictment 2?"))
def judge_names(ctx: Context, actor: Player, number: str, players: str) -> None:
    """Rule 4E73: the Judge selects the Jury by the procedure (or an equivalent
    one): the group named must be one the procedure could select."""
    require_minister(ctx, actor, "Judging", "4E73", "only the Judge selects a Jury")
    ind = _without_jury(number)
    named = []
    for part in re.split(r"(?<!\s)\s*+(?:,|\band\b|&)\s*+", players.strip()):
        if part.strip():
            p = find_player(ctx, part, "4E73")
            if p.id not in named:
                named.append(p.id)
    plan = procedure(ctx, ind)
    candidates = _listing(sorted(plan["candidates"], key=str.casefold))
    if plan["step"] == 4:
        if set(named) != set(plan["ids"]):
            raise Rejected(f"the procedure places all Active Players on this Jury (step 4): "
                           f"{candidates}", rule="4E73")
    elif len(named) != plan["size"] or not set(named) <= set(plan["ids"]):
        raise Rejected(f"the Jury is {plan['size']} Players with priority 1 (step {plan['step']}); "
                       f"the candidates are {candidates}", rule="4E73")
    seat_jury(ctx, ind, plan, named, f"the Judge ({actor.name})")


def _without_jury(number: str) -> Indictment:
    ind = find_indictment(number)
    if ind.draw:
        raise Rejected(f"Indictment {ind.id} has its Jury already: {_listing(_names(ind.jury))}",
                       rule="4E73")
    return ind


# ------------------------------------------------------------- verdicts

def latest_answers(ind: Indictment) -> dict[int, str]:
    """Each juror's latest answer (4E73); only members of the Jury count."""
    out: dict[int, str] = {}
    for v in Verdict.select().where(Verdict.indictment == ind).order_by(Verdict.id):
        if v.juror_id in ind.jury:
            out[v.juror_id] = v.answer
    return out


def decide(ctx: Context, ind: Indictment) -> None:
    """Rule 4E73: a majority of the Jury answering GUILTY Decides the Offender
    Guilty. bnomic decides as soon as the outcome is certain: more than half
    GUILTY is Guilty; at least half NOT GUILTY leaves no majority: Not Guilty."""
    if ind.state != "open" or not ind.draw:
        return
    answers = latest_answers(ind).values()
    size = len(ind.jury)
    guilty, not_guilty = sum(a == "GUILTY" for a in answers), sum(a == "NOT GUILTY" for a in answers)
    if guilty * 2 > size:
        ind.state = "guilty"
    elif not_guilty * 2 >= size:
        ind.state = "not guilty"
    else:
        return
    ind.save()
    offender = Player.get_by_id(ind.offender_id).name
    ctx.record("decided", f"the Jury of Indictment {ind.id} Decides {offender} "
               f"{'Guilty' if ind.state == 'guilty' else 'Not Guilty'} ({guilty} GUILTY, "
               f"{not_guilty} NOT GUILTY, of {size} jurors)", rule="4E73", indictment=ind.id,
               offender=offender, state=ind.state, guilty=guilty, not_guilty=not_guilty, jury=size)


# Rule 4E73: "answers of "GUILTY"": the other answer is NOT GUILTY
_VERDICT = role("answer:choice", {"guilty": "GUILTY", "not guilty": "NOT GUILTY", "innocent": "NOT GUILTY"})


@action("verdict",
        # Rule 4E73: "Each member of the Jury shall deliver an answer to the Public Forum"
        frame("find|declare|judge|pronounce|deem|hold",
              "number:indictment#[" + _ON + "]", "player:player?", _VERDICT,
              also="offender accused defendant answer verdict"),
        frame("answer|deliver|say|vote|return|give|cast|submit|deliver a verdict of|return a verdict of"
              "|deliver the answer|give the answer",
              "number:indictment#[" + _ON + "]", _VERDICT, also="answer verdict as juror a jury member",
              openers="my verdict|my answer|my vote|jury answer|juror's answer|my jury answer|my answer as juror"),
        frame("", "number:indictment#[" + _ON + "]", _VERDICT, bare=True),
        # "NOT GUILTY on 2.": a Jury's answer on a bare number, after its "on" (no other thing
        # takes a verdict)
        frame("", _VERDICT, "number:indictment[on|for|re|regarding]!", bare=True),
        rule="4E73", example="I find the Offender of Indictment 2 GUILTY", says="answer {answer} on Indictment {number}",
        not_actions=("I found Wooble GUILTY on Indictment 2", "I think Wooble is guilty of something on Indictment 2.",
                     "Wooble is guilty of Indictment 2", "Is Wooble GUILTY on Indictment 2?"))
def verdict(ctx: Context, actor: Player, number: str, answer: str, player: str | None = None) -> None:
    """Rule 4E73: each member of the Jury delivers an answer to the Public
    Forum, GUILTY or NOT GUILTY; the latest counts until the Jury Decides."""
    ind = find_indictment(number)
    offender = Player.get_by_id(ind.offender_id)
    if player and find_player(ctx, player, "4E73").id != offender.id:
        raise Rejected(f"the Offender of Indictment {ind.id} is {offender.name}, not "
                       f"{player.strip()}", rule="4E73")
    if not ind.draw:
        raise Rejected(f"Indictment {ind.id} has no Jury yet", rule="4E73")
    if actor.id not in ind.jury:
        raise Rejected(f"only the members of its Jury answer on Indictment {ind.id}: "
                       f"{_listing(_names(ind.jury))}", rule="4E73")
    word = " ".join(answer.upper().split())
    Verdict.create(indictment=ind, juror=actor, answer=word, at=ctx.at)
    ctx.record("verdict", f"{actor.name}, of the Jury of Indictment {ind.id}, answers {word}",
               rule="4E73", indictment=ind.id, juror=actor.name, answer=word)
    if ind.state != "open":
        ctx.notes.append(f"the Jury had already Decided {offender.name} "
                         f"{ind.state.title()}; the answer is recorded and changes nothing")
        return
    decide(ctx, ind)
    ind = Indictment.get_by_id(ind.id)
    if ind.state != "open":
        ctx.notes.append(f"the Jury Decides {offender.name} {ind.state.title()}")


@deadline("jury_answers_due")
def jury_answers_due(ctx: Context, indictment: int) -> None:
    """Rules 4E73, 4E56: each member of the Jury "shall" deliver an answer;
    one who has not, a Jiffy after the Jury was selected, commits a Misdemeanor."""
    ind = Indictment.get_by_id(indictment)
    answered = {v.juror_id for v in Verdict.select().where(Verdict.indictment == ind)}
    for p in Player.select().where(Player.id.in_(ind.jury)).order_by(Player.name_key):
        if p.id not in answered and p.is_player:
            ctx.record("misdemeanor", f"Misdemeanor: {p.name}, on the Jury of Indictment {ind.id}, "
                       "did not deliver an answer within a Jiffy", rule="4E56", player=p.name,
                       indictment=ind.id)


# ------------------------------------------------------------ punishments

def _guilty(ctx: Context, actor: Player, number: str, player: str | None) -> Indictment:
    require_minister(ctx, actor, "Judging", "4E73", "only the Judge Assigns a Punishment")
    ind = find_indictment(number)
    offender = Player.get_by_id(ind.offender_id)
    if player and find_player(ctx, player, "4E73").id != offender.id:
        raise Rejected(f"the Offender of Indictment {ind.id} is {offender.name}, not "
                       f"{player.strip()}", rule="4E73")
    if ind.state != "guilty":
        why = ("has no Jury yet" if not ind.draw else
               "was Decided Not Guilty" if ind.state == "not guilty" else "is not Decided yet")
        raise Rejected(f"a Punishment is Assigned to a Guilty Player, and Indictment {ind.id} {why}",
                       rule="4E73")
    return ind


def _add_punishment(ind: Indictment, text: str) -> None:
    ind.punishment = f"{ind.punishment}; {text}" if ind.punishment else text
    ind.save()


_FINE = ("assign|impose|levy|set|issue|hand down|sentence|punish|order|decree|fine"
         "|penalise|penalize")
_FINE_ALSO = "fine punishment penalty as its of macks mackerel"
_FINED = "player:player?[to|on|upon|against|with]"


@action("assign_fine",
        # Rule 4E73: "When the Judge Assigns a Punishment of a fine in macks ..."
        frame(_FINE, "amount:amount", _FINED, "number:indictment#[" + _ON + "]", also=_FINE_ALSO),
        # a fine in points, or in any other thing than macks, is heard and refused (Rule 4E73)
        frame(_FINE, "points:points", _FINED, "number:indictment#[" + _ON + "]", also=_FINE_ALSO,
              needs="points"),
        rule="4E73", example="I assign a fine of m20 to Wooble for Indictment 2",
        says="fine {player} {amount} for Indictment {number}",
        not_actions=("I assigned a fine of m20 to Wooble for Indictment 2",
                     "Frank fines Wooble m20 for Indictment 2", "Should I fine Wooble m20 for Indictment 2?",
                     "I fine-tune my proposals"))
def assign_fine(ctx: Context, actor: Player, number: str, amount: str | None = None,
                player: str | None = None, points: str | None = None) -> None:
    """Rules 4E73, 4E60: the Judge Assigns a Guilty Player a fine in macks: the
    Player must destroy that many, and is no Registered Voter until done. For
    Contempt of Court a fine is m10 to m60."""
    ind = _guilty(ctx, actor, number, player)
    if amount is None:
        raise Rejected(f"'points' is not a currency ({points} points): a fine is in macks (m20); write any "
                       f"other Punishment after \"I assign the following Punishment for Indictment {ind.id}:\"",
                       rule="4E73")
    n, currency = parse_amount(ctx.config, amount, rule="4E73")
    if currency != "mackerel":
        raise Rejected("a fine is in macks (m20); write any other Punishment after \"I assign the "
                       f"following Punishment for Indictment {ind.id}:\"", rule="4E73")
    if n < 1:
        raise Rejected("a fine of m0 is no fine", rule="4E73")
    low, high = _contempt_range(ctx)
    if is_contempt(ind) and not low <= n <= high:
        raise Rejected(f"the penalty for being Held in Contempt of Court is a fine of at least "
                       f"m{low} and at most m{high}, not m{n}", rule="4E60")
    if Fine.select().where(Fine.indictment == ind).exists():
        raise Rejected(f"Indictment {ind.id} has its fine already", rule="4E73")
    offender = Player.get_by_id(ind.offender_id)
    fine = Fine.create(player=offender, amount=n, reason=f"Indictment {ind.id}: {ind.accusation}",
                       indictment=ind, at=ctx.at)
    _add_punishment(ind, f"a fine of {fmt(n, 'mackerel')}")
    ctx.record("fine", f"the Judge ({actor.name}) Assigns {offender.name} a fine of "
               f"{fmt(n, 'mackerel')} for Indictment {ind.id}: {offender.name} is obligated to "
               f"destroy {fmt(n, 'mackerel')}, and is not a Registered Voter until then",
               rule="4E73", indictment=ind.id, player=offender.name, amount=n, fine=fine.id)


@action("limit_proposals",
        # Rule 4E60: "The maximum penalty for being Held in Contempt of Court is a fine of 60m,
        # plus a limit of at most one proposal during the following nweek"
        frame("limit|restrict|impose|assign|add|set|hand down|issue|levy|sentence",
              _FINED, "number:indictment#[" + _ON + "]",
              also="at most only one proposal proposals during the following next nweek a limit of "
                   "plus also punishment penalty as its", needs="proposal|proposals"),
        rule="4E60", example="I limit Wooble to one proposal during the following nweek for Indictment 2",
        says="limit {player} to one proposal during the following nweek for Indictment {number}",
        not_actions=("I limited Wooble to one proposal for Indictment 2",
                     "Frank limits Wooble to one proposal for Indictment 2",
                     "Should I limit Wooble to one proposal for Indictment 2?"))
def limit_proposals(ctx: Context, actor: Player, number: str, player: str | None = None) -> None:
    """Rule 4E60: with the fine for being Held in Contempt of Court, the Judge may
    add a limit of at most one proposal during the following nweek."""
    ind = _guilty(ctx, actor, number, player)
    if not is_contempt(ind):
        raise Rejected(f"Indictment {ind.id} is not for being Held in Contempt of Court; only "
                       "that penalty carries a limit on proposals", rule="4E60")
    fine = Fine.get_or_none(Fine.indictment == ind)
    if fine is None:
        raise Rejected(f"the limit comes with the fine (\"a fine of 60m, plus a limit\"): assign "
                       f"Indictment {ind.id}'s fine first", rule="4E60")
    if fine.proposal_limit_nweek is not None:
        raise Rejected(f"Indictment {ind.id} has its limit on proposals already", rule="4E60")
    offender = Player.get_by_id(ind.offender_id)
    fine.proposal_limit_nweek = ctx.game.nweek + 1
    fine.save()
    _add_punishment(ind, f"at most one proposal during nweek {fine.proposal_limit_nweek}")
    ctx.record("fine", f"the Judge ({actor.name}) limits {offender.name} to at most one proposal "
               f"during the following nweek (nweek {fine.proposal_limit_nweek}) for Indictment "
               f"{ind.id}", rule="4E60", indictment=ind.id, player=offender.name,
               nweek=fine.proposal_limit_nweek)


@action("assign_punishment",
        # Rule 4E73: "When the Judge Assigns a Punishment other than a fine in macks ..."
        frame("assign|impose|give|set|hand down|hand|order|decree|issue|sentence|mete out",
              "number:indictment#[" + _ON + "]", _FINED, also="punishment following new", needs="punishment"),
        rule="4E73", example="I assign the following Punishment for Indictment 2: Set the points "
                             "of Wooble to 0 END PUNISHMENT", says="assign a Punishment for Indictment {number}",
        not_actions=("I assigned the following Punishment for Indictment 2",
                     "Frank assigns a Punishment for Indictment 2",
                     "Should I assign a Punishment for Indictment 2?"),
        document="punishment")
def assign_punishment(ctx: Context, actor: Player, number: str, document: str = "",
                      player: str | None = None) -> None:
    """Rule 4E73: a Punishment other than a fine in macks is carried out upon
    the Guilty Player as the rules describe: bnomic makes it when it is written
    in the change language; otherwise the Judge is obliged to carry it out."""
    ind = _guilty(ctx, actor, number, player)
    text = document.strip()
    if not text:
        raise Rejected("write the Punishment after the sentence, ending with END PUNISHMENT",
                       rule="4E73")
    done_before = [e for e in Event.select().where(Event.kind == "punishment")
                   if e.data.get("indictment") == ind.id]
    if done_before:
        raise Rejected(f"Indictment {ind.id} has its Punishment already", rule="4E73")
    offender = Player.get_by_id(ind.offender_id)
    parsed = changes.parse(text)
    source = f"the Punishment of Indictment {ind.id}"
    if parsed.changes and not parsed.prose:
        for c in parsed.changes:
            target = find_player(ctx, c.args["player"], "4E73") if c.kind == "set_attribute" else None
            if target is None or target.id != offender.id:
                raise Rejected(f"a Punishment is carried out upon the Guilty Player ({offender.name}); "
                               f"“{c.text}” is not", rule="4E73")
        done = changes.apply_all_or_nothing(ctx, parsed.changes, source=source, rule="4E73")
        failed = [a for a in done if not a.ok]
        if failed:
            raise Rejected("; ".join(a.summary for a in failed)[:500], rule="4E73")
        _add_punishment(ind, text)
        ctx.record("punishment", f"the Judge ({actor.name}) Assigns {offender.name} a Punishment for "
                   f"Indictment {ind.id}; made: " + "; ".join(a.summary for a in done), rule="4E73",
                   indictment=ind.id, player=offender.name, text=text, applied=True)
        return
    _add_punishment(ind, text)
    o = oblige(ctx, ensure(ctx, "Judging"), "punishment", f"carry out the Punishment of Indictment "
               f"{ind.id} upon {offender.name}: {text[:300]}", "4E73", indictment=ind.id)
    ctx.record("punishment", f"the Judge ({actor.name}) Assigns {offender.name} a Punishment for "
               f"Indictment {ind.id}, to be carried out by the Judge (obligation #{o.id})",
               rule="4E73", indictment=ind.id, player=offender.name, text=text, applied=False,
               obligation=o.id)
    ctx.notes.append(f"bnomic cannot make it itself (not all in the change language): obligation "
                     f"#{o.id} on the Judge")


# --------------------------------------------------------------- paying

def unpaid(player: Player):
    return Fine.select().where(Fine.player == player, Fine.paid == False).order_by(Fine.id)  # noqa: E712


@action("pay_fine",
        # Rule 4E73: "the Guilty Player is obligated and is able to destroy that number of macks"
        frame("destroy|burn|shred|scrap|throw away",
              "amount:amount", "number:indictment?#[" + _ON + "]",
              also="pay paying settle settling fine fines to as payment of punishment required by per towards toward"),
        frame("pay|settle|discharge|clear|pay off",
              "number:indictment?#[" + _ON + "]", "amount:amount?[by destroying|destroying|by burning|with]",
              also="fine fines macks mackerel towards toward", needs="fine"),
        rule="4E73", example="I destroy m20 to pay my fine", says="pay a fine {amount}",
        not_actions=("I destroyed m20 to pay my fine", "Wooble destroys m20",
                     "Should I pay my fine?", "I pay attention to my fine"))
def pay_fine(ctx: Context, actor: Player, amount: str | None = None, number: str | None = None) -> None:
    """Rule 4E73: a Player fined in macks is obligated and able to destroy that
    many macks, for no effect (even all they have); until then they are not a
    Registered Voter."""
    player = Player.get_by_id(actor.id)
    fines = list(unpaid(player))
    if number is not None:
        fines = [f for f in fines if f.indictment_id == find_indictment(number).id]
    if not fines:
        raise Rejected("you have no unpaid fine" + (f" for Indictment {number}" if number else "")
                       + "; macks are destroyed only to pay a fine", rule="4E73")
    if amount is not None:
        n, currency = parse_amount(ctx.config, amount, rule="4E73")
        matching = [f for f in fines if currency == "mackerel" and f.amount == n]
        if not matching:
            owed = ", ".join(f"{fmt(f.amount, 'mackerel')} (Indictment {f.indictment_id})" for f in fines)
            raise Rejected(f"you owe {owed}: a fine is paid by destroying exactly its macks",
                           rule="4E73")
        fines = matching
    fine = fines[0]
    what = f"Indictment {fine.indictment_id}" if fine.indictment_id else fine.reason
    debit(ctx, player, "mackerel", fine.amount, "4E73", f"destroyed to pay the fine of {what}")
    fine.paid = True
    fine.save()
    voter = not unpaid(player).exists()
    ctx.record("fine", f"{player.name} destroys {fmt(fine.amount, 'mackerel')}, paying the fine of "
               f"{what}" + ("; they are a Registered Voter again" if voter else ""), rule="4E73",
               player=player.name, amount=fine.amount, fine=fine.id, indictment=fine.indictment_id,
               paid=True)


# ------------------------------------------------------------- the display

def _outcome(ind: Indictment, answers: dict[int, str]) -> str:
    if ind.state == "guilty":
        return "Guilty"
    if ind.state == "not guilty":
        return "Not Guilty"
    if not ind.draw:
        holder = judge()
        return ("waiting for a Judge to select the Jury (the Ministry of Judging is Vacant)"
                if holder is None else f"waiting for the Judge ({holder.name}) to select the Jury")
    guilty = sum(a == "GUILTY" for a in answers.values())
    return (f"the Jury is answering: {guilty} GUILTY, {len(answers) - guilty} NOT GUILTY, "
            f"of {len(ind.jury)}")


def row(ind: Indictment) -> dict:
    """An Indictment as `bnomic show indictments --json` gives it (a contract:
    add, never rename)."""
    names = {p.id: p.name for p in Player.select(Player.id, Player.name)}
    answers = latest_answers(ind)
    fine = Fine.get_or_none(Fine.indictment == ind)
    jury = sorted(ind.jury, key=lambda i: names.get(i, "").casefold())
    return {"number": ind.id, "author": names.get(ind.author_id), "offender": names.get(ind.offender_id),
            "accusation": ind.accusation, "crime": crime(ind), "contempt": is_contempt(ind),
            "example": ind.example, "tidbit": ind.tidbit, "reasoning": ind.reasoning,
            "submitted_at": iso(ind.submitted_at),
            "jury": [names.get(i) for i in jury], "draw": ind.draw,
            "verdicts": {names.get(i): answers.get(i) for i in jury},
            "state": ind.state, "outcome": _outcome(ind, answers),
            "punishment": ind.punishment,
            "fine": fine.amount if fine else None, "paid": fine.paid if fine else None}


@view("indictments", template="show_indictments.txt")
def indictments_view(ctx: Context, request: Request) -> list[dict]:
    """Every Indictment and its outcome, by number (`bnomic show indictments`,
    and Rule 4E73's display)."""
    return [row(i) for i in Indictment.select().order_by(Indictment.id)]


def display(ctx: Context) -> dict:
    """Rule 4E73: the Judge's Public Display shows all Indictments and their
    outcomes; also the fines unpaid and the Misdemeanors recorded (4E56, 4E60)."""
    misdemeanors = [{"seq": e.seq, "at": iso(e.at), "rule": e.rule, "player": e.data.get("player"),
                     "summary": e.summary}
                    for e in Event.select().where(Event.kind == "misdemeanor").order_by(Event.seq)]
    fines = [{"player": f.player.name, "amount": f.amount, "indictment": f.indictment_id,
              "reason": f.reason} for f in Fine.select().where(Fine.paid == False)  # noqa: E712
             .order_by(Fine.id)]
    return {"indictments": indictments_view(ctx, Request()), "misdemeanors": misdemeanors,
            "unpaid_fines": fines}
