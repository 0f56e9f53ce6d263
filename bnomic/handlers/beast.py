"""The Operantly Conditioned Beast (Rule 4E71)."""
from __future__ import annotations

import re

from ..store import Event, Intent, Ministry, Obligation, Player, Trick, TrickDraw, database, versions
from . import changes, durations, grammar
from .acting import perform_once
from .clock import in_voting_period
from .context import Context, Rejected
from .frames import frame, role
from .ministries import delegated, ensure
from .obligations import fulfil, oblige
from .registry import action, at_start_of, duty
from .views import Request, view


# Rule 4E71: "The Operantly Conditioned Beast (aka The Beast or The OCB)"
_BEAST = ("the beast", "beast", "the ocb", "ocb", "the operantly conditioned beast",
          "operantly conditioned beast", "the operantly-conditioned beast")


@action("beast_acts",
        # Rule 4E71: "cause the Beast to take a single Game Action"; what it does is read
        # by the handler, and refused with the rule when it is no such action
        frame("|".join(f"{v} {b}" for v in ("cause", "have", "get", "instruct", "order", "direct",
                                            "command", "tell", "ask")
                       for b in _BEAST), "rest:clause[to|to take the action|to perform the action]"),
        frame("|".join(f"{v} {b}" for v in ("make", "have") for b in _BEAST), "rest:clause[]"),
        rule="4E71", example="I cause the Beast to give m5 to Wooble", says="cause the Beast to {rest}",
        objections=1, waiting="2 rdays",
        not_actions=("I caused the Beast to give m5 to Wooble last nweek",
                     "Wooble causes the Beast to forfeit", "Should I make the Beast forfeit?",
                     "I think I'll cause the Beast to give m5 to Wooble"))
def beast_acts(ctx: Context, actor: Player, rest: str) -> None:
    """Rule 4E71: any Player may, once per nweek, as a Game Action with no
    objection in two rdays, cause the Beast to take a single Game Action."""
    nweek = ctx.game.nweek
    earlier = (Intent.select().where(Intent.author == actor, Intent.action == "beast_acts",
                                     Intent.state == "performed"))
    if any(_performed_in(i) == nweek for i in earlier):
        raise Rejected("you have already caused the Beast to act this nweek", rule="4E71")
    found = grammar.match_action("I " + rest)
    if not found:
        raise Rejected(f"I cannot tell what the Beast is to do: {rest!r}", rule="4E71")
    spec, args = found
    if spec.needs_intent or spec.name == "beast_acts":
        raise Rejected("the Beast can be caused to take a single, simple Game Action", rule="4E71")
    beast = Player.get_or_none(Player.is_beast == True, Player.is_player == True)  # noqa: E712
    if beast is None:
        raise Rejected("there is no Beast in this game", rule="4E71")
    perform_once(ctx, spec, args, actor=beast)
    ctx.record("beast", f"{actor.name} causes the Beast to {rest}", rule="4E71",
               player=actor.name, nweek=nweek)


def _performed_in(intent: Intent) -> int | None:
    e = (Event.select().where(Event.kind == "intent", Event.summary.startswith(
        f"intent #{intent.id} carried out")).first())
    return e.data.get("nweek") if e else None


# ================================================================ the Tricks
#
# Rule 4E71: Tricks have a Response (a positive integer, 10 when Taught) and a
# Timing (Anytime or Voting). At the start of each nday 1, 5 and 9 the Beast
# performs one, drawn with probability proportional to its Response; Voting
# Tricks only while a Voting Period is in progress. The Ranger selects it,
# having announced the mode of selection: bnomic does both for a Ranger who
# leaves it the duty "tricks" (4E45), with the game's seeded chance
# (Context.rng), and publishes the draw; otherwise the Ranger is obliged, and
# after 1 rday any Player who is the first to do so may have bnomic draw it.

TIMINGS = {"anytime": "Anytime", "voting": "Voting", "any time": "Anytime"}
_TIMING_LINE = re.compile(r"^[ \t]*+timing[ \t]*+[:=][ \t]*+(?P<t>[a-z]++(?:[ \t]++time)?+)[ \t.]*+$", re.I | re.M)

MODE = ("bnomic draws it with the game's seeded chance (the game's seed and the number of the "
        "event that publishes the draw): a whole number from 1 to the sum of the Responses of the "
        "Tricks that may be performed, which are counted in order of their numbers, each over as "
        "many numbers as its Response; the Trick whose numbers hold the one drawn is performed")


def _existing(voting: bool | None = None) -> list[Trick]:
    rows = Trick.select().where(Trick.ceased == False).order_by(Trick.id)  # noqa: E712
    return [t for t in rows if voting is None or voting or t.timing != "Voting"]


def _label(t: Trick) -> str:
    return f"Trick {t.id}"


def _beast_name() -> str:
    beast = Player.get_or_none(Player.is_beast == True)  # noqa: E712
    return beast.name if beast is not None else "the Beast"


def _due_draw() -> TrickDraw | None:
    # asked after every entry: kept within a transaction while `trickdraw` is unwritten
    return versions.cached(database, "trick due", ("trickdraw",), lambda: TrickDraw.select().where(
        TrickDraw.state == "due").order_by(TrickDraw.id).first())


def last_performed() -> TrickDraw | None:
    """Rule 4E71: the last time the Beast performed a Trick."""
    return (TrickDraw.select().where(TrickDraw.state == "performed")
            .order_by(TrickDraw.id.desc()).first())


@at_start_of("nday", rule="4E71")
def trick_due(ctx: Context) -> None:
    """Rule 4E71: "At the start of each nday 1, 5, and 9, the OCB performs a
    single Trick". With no Trick taught there is nothing to perform (nothing is
    recorded); otherwise the performance falls due and is selected by the duty."""
    game = ctx.game
    if game.nday not in ctx.config.owned("beast.trick_ndays") or not _existing():
        return
    voting = in_voting_period(ctx.config, game)
    draw = TrickDraw.create(nweek=game.nweek, nday=game.nday, voting=voting, due_at=ctx.at)
    which = "any Trick" if voting else "a Trick whose Timing is Anytime (no Voting Period is in progress)"
    ranger = _ranger()
    if delegated(ctx, "tricks"):
        who = f"bnomic selects it for the Ranger ({ranger.name})"
    else:
        who = ((f"the Ranger ({ranger.name})" if ranger else "the Ranger (the Ministry of Fauna is Vacant)")
               + f" is to select it within {ctx.config.owned('beast.ranger_grace')}; then any Player "
               "who is the first to do so may")
    ctx.record("trick_due", f"the Beast is to perform {which} (nweek {game.nweek}, nday {game.nday}): "
               f"{who}. The mode of selection: {MODE}", rule="4E71", draw=draw.id,
               nweek=game.nweek, nday=game.nday, voting=voting, mode=MODE)


def _ranger() -> Player | None:
    m = Ministry.get_or_none(Ministry.name == "Fauna")
    return Player.get_by_id(m.holder_id) if m is not None and m.holder_id else None


def select_trick(ctx: Context, draw: TrickDraw, by: str, named: str | None = None) -> Trick | None:
    """Rule 4E71: select the Trick by the announced mode and the Beast performs
    it: its changes are made (the change language), and the draw is published.
    A Player who selects names the Trick its own announced mode gave (`named`);
    otherwise bnomic draws by its own mode (MODE)."""
    candidates = _existing(draw.voting)
    if not candidates and named is None:
        draw.state, draw.by = "nothing", by
        draw.save()
        ctx.record("trick_draw", f"{by}: no Trick may be performed (nweek {draw.nweek}, nday {draw.nday})"
                   f"; the Beast performs none", rule="4E71", draw=draw.id, candidates=[], trick=None)
        _fulfil(ctx, draw)
        return None
    listed = [{"trick": t.id, "response": t.response, "timing": t.timing} for t in candidates]
    if named is not None:                           # the selector's own mode gave it
        chosen = next((t for t in candidates if str(t.id) == named.strip().lstrip("#")), None)
        if chosen is None:
            may = ", ".join(_label(t) for t in candidates) or "none"
            raise Rejected(f"Trick {named} may not be performed now (those that may: {may})", rule="4E71")
        roll = None
        event = ctx.record("trick_draw", f"{by} selects {_label(chosen)} by the mode of selection they "
                           f"announced: the Beast performs it (nweek {draw.nweek}, nday {draw.nday})",
                           rule="4E71", draw=draw.id, candidates=listed, trick=chosen.id, by=by,
                           mode="announced by the selector", nweek=draw.nweek, nday=draw.nday,
                           changes=chosen.changes)
    else:                                           # bnomic draws by its own mode (MODE)
        total = sum(t.response for t in candidates)
        roll = ctx.rng().randrange(total) + 1       # the next event is the draw's
        upto, chosen, shares = 0, None, []
        for t in candidates:
            shares.append(f"{_label(t)} {upto + 1}-{upto + t.response}")
            if upto < roll <= upto + t.response:
                chosen = t
            upto += t.response
        event = ctx.record("trick_draw", f"{by} draws {roll} of 1-{total} ({', '.join(shares)}): the Beast "
                           f"performs {_label(chosen)} (nweek {draw.nweek}, nday {draw.nday})", rule="4E71",
                           draw=draw.id, candidates=listed, total=total, roll=roll, trick=chosen.id,
                           by=by, mode=MODE, nweek=draw.nweek, nday=draw.nday, changes=chosen.changes)
    draw.state, draw.by, draw.candidates, draw.trick = "performed", by, listed, chosen.id
    if roll is not None:
        draw.roll = roll
    draw.event, draw.performed_at = event.seq, ctx.at
    draw.save()
    _perform(ctx, chosen)
    _fulfil(ctx, draw)
    return chosen


def _perform(ctx: Context, t: Trick) -> None:
    """Rule 4E71: the Trick's changes to the gamestate are made, by the Beast."""
    parsed = changes.parse(t.changes)
    done = changes.apply(ctx, parsed.changes, source=f"the Beast's {_label(t)}", rule="4E71")
    t.performed += 1
    t.save()
    said = "; ".join(a.summary for a in done) or "nothing"
    ctx.record("trick", f"the Beast performs {_label(t)}: {said}", rule="4E71", trick=t.id,
               made=[a.summary for a in done if a.ok], failed=[a.summary for a in done if not a.ok])


def _fulfil(ctx: Context, draw: TrickDraw) -> None:
    for o in (Obligation.select().join(Ministry)
              .where(Ministry.name == "Fauna", Obligation.kind == "select_trick", Obligation.state == "open")
              .order_by(Obligation.id)):
        if o.data.get("draw") == draw.id:
            fulfil(ctx, o, f"{draw.by} selected the Trick")


@duty("Fauna", "tricks", rule="4E71",
      does="announce the mode of selection and draw the Trick the Beast performs at the start of "
           "ndays 1, 5 and 9, and publish the draw (Rule 4E71)")
def ranger_duties(ctx: Context) -> None:
    """Rule 4E71: "the Ranger is obliged to select a Trick to be performed";
    bnomic does it for a Ranger who left it the duty (4E45), never for a
    Vacant Ministry of Fauna, whose obligation waits for a Ranger."""
    draw = _due_draw()
    if draw is None:
        return
    if delegated(ctx, "tricks"):
        select_trick(ctx, draw, f"bnomic, for the Ranger ({_ranger().name}),")
    else:
        oblige(ctx, ensure(ctx, "Fauna"), "select_trick",
               f"select the Trick the Beast performs (nweek {draw.nweek}, nday {draw.nday})", "4E71",
               draw=draw.id)


@action("select_trick",
        # Rule 4E71: "the Ranger is obliged to select a Trick to be performed ... If the Ranger
        # fails to do so within 1 rday, any Player who is the first to do so may carry out this
        # selection"; bnomic makes the draw, by the mode it announced
        frame("select|draw|choose|pick|randomly select|randomly draw|randomly choose|randomly pick"
              "|carry out the selection of|make the selection of|perform the selection of",
              "trick:number?[trick|trick number|trick no]",
              also="trick the beast's beasts beast ocb ocb's operantly conditioned a an for to perform "
                   "performed performs be its next random at randomly which selection of now due", needs="trick"),
        rule="4E71", example="I select the Trick the Beast performs", says="select the Beast's Trick",
        not_actions=("I selected the Trick the Beast performs", "Wooble selects the Beast's Trick",
                     "Should I select the Beast's Trick?", "I think I'll select the Beast's Trick"))
def select_by_mail(ctx: Context, actor: Player, trick: str | None = None) -> None:
    """Rule 4E71: the Ranger selects the Trick; after 1 rday any Player who is
    the first to do so. Named ("I select Trick 2"), it is the Trick the selector's
    own announced mode gave; else bnomic draws by the mode announced when it fell due."""
    draw = _due_draw()
    if draw is None:
        raise Rejected("the Beast is not due to perform a Trick now (at the start of ndays "
                       f"{_ndays(ctx)})", rule="4E71")
    ranger = _ranger()
    if ranger is None or ranger.id != actor.id:
        opens = _grace_ends(ctx, draw)
        if ctx.at < opens:
            raise Rejected(f"only the Ranger selects the Trick until {opens:%Y-%m-%d %H:%M} UTC "
                           f"(then any Player who is the first to do so)", rule="4E71")
    who = f"the Ranger ({actor.name})" if ranger is not None and ranger.id == actor.id else actor.name
    chosen = select_trick(ctx, draw, who, trick)
    ctx.notes.append(f"the Beast performs {_label(chosen)}" if chosen else "no Trick may be performed")


def _grace_ends(ctx: Context, draw: TrickDraw):
    """Rule 4E71: the Ranger's 1 rday (beast.ranger_grace, in rdays) from when the Trick fell due."""
    n, unit = durations.parse(ctx.config.owned("beast.ranger_grace"))
    if unit != "rdays":
        raise Rejected(f"beast.ranger_grace is counted in rdays, not {unit}", rule="4E71")
    return durations.rdays(draw.due_at, n).at


def _ndays(ctx: Context) -> str:
    days = [str(d) for d in ctx.config.owned("beast.trick_ndays")]
    return ", ".join(days[:-1]) + " and " + days[-1] if len(days) > 1 else "".join(days)


@action("teach_trick",
        # Rule 4E71: "As a Game Action, with support and without objection, a Player may Teach
        # the OCB a new Trick, defining the changes to the gamestate that its performance enacts
        # and, optionally, its Timing" (the changes are the document after it)
        frame("teach|train", role("timing:choice[with timing|with a timing of|with the timing|timing"
                                  "|of timing|whose timing is|with timing of]?", TIMINGS),
              also="the beast ocb operantly conditioned a new trick following below it this",
              needs="trick"),
        rule="4E71", example="I intend to teach the Beast the following Trick with support and without "
                             "objection: Set the mackerel of The Beast to m20 END TRICK",
        says="teach the Beast a new Trick", document="trick", supporters=1, objections=1,
        not_actions=("I taught the Beast a new Trick", "Wooble teaches the Beast a new Trick",
                     "Should I teach the Beast a new Trick?", "I think I'll teach the Beast a new Trick"))
def teach_trick(ctx: Context, actor: Player, timing: str | None = None, document: str = "") -> None:
    """Rule 4E71: with support and without objection, Teach the Beast a new
    Trick: its changes (in the change language, which bnomic makes when the
    Beast performs it) and, optionally, its Timing (Anytime unless said)."""
    text = (ctx.intent.args.get("document") if ctx.intent else None) or document or ""
    timing = timing or (ctx.intent.args.get("timing") if ctx.intent else None)   # said with the intent
    m = _TIMING_LINE.search(text)
    if m:
        said = TIMINGS.get(" ".join(m.group("t").lower().split()))
        if said is None:
            raise Rejected(f"a Trick's Timing is Anytime or Voting, not {m.group('t')!r}", rule="4E71")
        if timing and timing != said:
            raise Rejected(f"the Trick's Timing is said twice: {timing} and {said}", rule="4E71")
        timing = said
        text = (text[:m.start()] + text[m.end():]).strip()
    parsed = changes.parse(text)
    if parsed.prose:
        raise Rejected("bnomic makes a Trick's changes itself when the Beast performs it, so they "
                       "must all be in the change language; it does not read: "
                       + " | ".join(parsed.prose)[:300], rule="4E71")
    if not parsed.changes:
        raise Rejected("a Trick defines the changes to the gamestate its performance enacts: write "
                       "them in the change language (docs/change-language.md), after the sentence "
                       "that teaches it", rule="4E71")
    t = Trick.create(changes=text, timing=timing or "Anytime",
                     response=ctx.config.owned("beast.trick_response"), taught_by=actor.name,
                     taught_at=ctx.at, entry=ctx.entry)
    ctx.record("trick_taught", f"{actor.name} teaches the Beast {_label(t)} (Response {t.response}, "
               f"Timing {t.timing}): " + "; ".join(c.text for c in parsed.changes)[:300], rule="4E71",
               trick=t.id, player=actor.name, timing=t.timing, response=t.response)
    ctx.notes.append(f"{_label(t)}, Response {t.response}, Timing {t.timing}")


_LAST = ("the last trick performed beast ocb operantly conditioned that has been was its most recent "
         "latest for it beast's ocb's")


def _says(verb: str) -> str:
    return verb + ("es" if verb.endswith("sh") else "s")


def _respond(ctx: Context, actor: Player, number: str | None, step: int, verb: str) -> None:
    """Rule 4E71: Reinforce (+1) or Punish (-1) the last Trick performed; a
    Player who did either may not again until the Beast next performs a Trick;
    a Trick whose Response would become 0 ceases to exist."""
    last = last_performed()
    if last is None:
        raise Rejected("the Beast has performed no Trick yet", rule="4E71")
    t = Trick.get_by_id(last.trick)
    if number and number.strip().lstrip("#") != str(t.id):
        raise Rejected(f"only the last Trick performed may be {verb.lower()}ed: {_label(t)}", rule="4E71")
    if actor.id in last.responders:
        raise Rejected("you have Reinforced or Punished since the Beast last performed a Trick; "
                       "you may again once it performs its next", rule="4E71")
    if t.ceased:
        raise Rejected(f"{_label(t)} has ceased to exist", rule="4E71")
    last.responders = [*last.responders, actor.id]
    last.save()
    before = t.response
    if before + step <= 0:
        t.ceased = True
        t.save()
        ctx.record("trick_response", f"{actor.name} {_says(verb)} {_label(t)}: its Response would become 0, "
                   f"so it ceases to exist", rule="4E71", trick=t.id, player=actor.name,
                   before=before, after=before + step, ceased=True)
        ctx.notes.append(f"{_label(t)} ceases to exist")
        return
    t.response = before + step
    t.save()
    ctx.record("trick_response", f"{actor.name} {_says(verb)} {_label(t)}: "
               f"Response {before} -> {t.response}", rule="4E71", trick=t.id, player=actor.name,
               before=before, after=t.response, ceased=False)
    ctx.notes.append(f"{_label(t)}: Response {t.response}")


@action("reinforce_trick",
        # Rule 4E71: "a Player may Reinforce the last Trick that has been performed, increasing
        # its Response value by 1"
        frame("reinforce|praise|encourage", "number:number[trick]?", also=_LAST),
        rule="4E71", example="I reinforce the last Trick", says="reinforce the last Trick",
        not_actions=("I reinforced the last Trick", "Wooble reinforces the last Trick",
                     "Should I reinforce the last Trick?", "I think I'll reinforce the last Trick"))
def reinforce(ctx: Context, actor: Player, number: str | None = None) -> None:
    """Rule 4E71: Reinforce the last Trick performed (+1 Response)."""
    _respond(ctx, actor, number, 1, "Reinforce")


@action("punish_trick",
        # Rule 4E71: "a Player may Punish the last Trick that has been performed, decreasing its
        # Response value by 1"
        frame("punish|scold|discourage", "number:number[trick]?", also=_LAST),
        rule="4E71", example="I punish the last Trick", says="punish the last Trick",
        not_actions=("I punished the last Trick", "Wooble punishes the last Trick",
                     "Should I punish the last Trick?", "I think I'll punish the last Trick"))
def punish(ctx: Context, actor: Player, number: str | None = None) -> None:
    """Rule 4E71: Punish the last Trick performed (-1 Response)."""
    _respond(ctx, actor, number, -1, "Punish")


# ------------------------------------------------------------ the Ranger's display

def trick_row(t: Trick) -> dict:
    return {"number": t.id, "response": t.response, "timing": t.timing, "exists": not t.ceased,
            "taught_by": t.taught_by, "taught_at": t.taught_at.isoformat(), "performed": t.performed,
            "changes": t.changes}


def tricks_data(ctx: Context) -> dict:
    """What the Ranger's display (4E71) and `bnomic show tricks` show."""
    last = last_performed()
    due = _due_draw()
    return {"tricks": [trick_row(t) for t in Trick.select().order_by(Trick.id)],
            "last": None if last is None else {
                "trick": last.trick, "nweek": last.nweek, "nday": last.nday, "by": last.by,
                "roll": last.roll, "candidates": last.candidates,
                "at": last.performed_at.isoformat() if last.performed_at else None,
                "responded": [Player.get_by_id(i).name for i in last.responders]},
            "due": None if due is None else {"nweek": due.nweek, "nday": due.nday,
                                             "voting": due.voting, "at": due.due_at.isoformat()},
            "ndays": list(ctx.config.owned("beast.trick_ndays")), "mode": MODE}


@view("tricks", template="show_tricks.txt")
def tricks_view(ctx: Context, request: Request) -> dict:
    """`bnomic show tricks [--json]`: every Trick, the last performed, and one due."""
    return tricks_data(ctx)
