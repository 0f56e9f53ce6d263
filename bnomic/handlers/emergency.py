"""In Case of Emergency (Rule 4E0), with the Threat Flag it raises (Rule 4E40).

Each PEP (Potential Emergency Participant: each current Player) is Calm or
Paranoid, and says which by mail to a Public Forum. With four or more
Paranoid PEPs the game is in a State of Emergency and an Emergency Procedure
runs:

1. game time stops (no midnight moves the Clock; deadlines counted in game
   time wait; absolute ones that fall due do not occur), the Threat Flag is
   Black Watch Plaid;
2. the PEP who most recently held the Ministry of Ministries is the
   Emergency Coordinator;
3. the Emergency Forum is designated (the configured `emergency.forum`, or by
   the Coordinator by mail; by any PEP after 24 hours);
4. the Pause is initialised (by the Coordinator; by any PEP after 24 hours) and
   grows by one at each 00:00 UTC, by the Coordinator's unopposed intent, and
   after 48 hours without growth;
5. until the Pause is 5 each PEP submits, revises or withdraws one Refresh Proposal;
6. at 5 bnomic gathers them into a Ballot (for the Coordinator) and publishes it;
7. PEPs rank them;
8. at 7 bnomic counts by instant runoff, ties for last drawn at random (shown);
9. the winner's changes are made (the change language; the rest is left to
   the Coordinator), all PEPs become Calm, and game time resumes.

Fewer than four Paranoid PEPs at any moment end every Procedure.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from ..store import (Emergency, Event, Game, Ministry, Player, RankedBallot, RefreshProposal, database,
                     hot, versions)
from . import changes, durations
from .clock import resume_time, stop_time
from .context import Context, Rejected, _game_row
from .frames import frame, role
from .events import PlayerLeft
from .registry import action, at_start_of, deadline, on
from .views import Request, view

STATES = ("Calm", "Paranoid")


def _n(ctx: Context, key: str) -> int:
    """One of 4E0's numbers ([emergency] in defaults.toml: the four PEPs, the
    24 and 48 hours, the Pause values 5 and 7, the 14 days, Mulberry's nday 3)."""
    return ctx.config.owned(f"emergency.{key}")


# ------------------------------------------------------------ the PEPs

def _current():
    return Player.select().where(Player.is_player == True).order_by(Player.id)  # noqa: E712


def peps():
    """Rule 4E0: each current Player (the Beast, who never posts, stays Calm); "if
    there are less than four such players", who the Players were before that drop
    (`Game.peps_before`, kept by `track_peps`), when there ever were four."""
    from .context import game_config
    before = _peps_before()
    if before and _current().count() < game_config().owned("emergency.fewest_players"):
        return Player.select().where(Player.id.in_(before)).order_by(Player.id)
    return _current()


def _peps_before() -> list | None:
    """Game.peps_before (track_peps): from the game row kept for the transaction
    (context.current_game's, read only here), else its one column read by a
    statement made once."""
    if versions.active(database):
        try:
            return versions.cached(database, "game", ("game",), _game_row).peps_before
        except Game.DoesNotExist:
            return None
    raw = hot.value("peps before", 'SELECT "peps_before" FROM "game" LIMIT 1')
    if raw is hot.NOTHING:
        game = Game.get_or_none()
        return game.peps_before if game is not None else None
    return Game.peps_before.python_value(raw)


def paranoid_count() -> int:
    """How many PEPs are Paranoid: `paranoid().count()`, asked after every entry
    (Rules 4E0, 4E40). While the PEPs are the current Players, one statement made once,
    its answer kept within a write transaction until a write touches the two columns it
    reads (store/versions.py: a gift's UPDATE of mackerel leaves it)."""
    if not _peps_before():
        count = versions.cached(database, "paranoid players", _PARANOID_READS, _count_paranoid)
        if count is not hot.NOTHING:
            return count
    return paranoid().count()


_PARANOID_READS = versions.columns("player", "is_player", "mental_state")


def _count_paranoid():
    return hot.value("paranoid players", 'SELECT COUNT(*) FROM "player" WHERE ("is_player" = ?) '
                     'AND ("mental_state" = ?)', (True, "Paranoid"))


@on(PlayerLeft, rule="4E0")
def track_peps(ctx: Context, event: PlayerLeft) -> None:
    """Rule 4E0: when a Player's leaving drops the Players below four, the PEPs are
    who the Players were just before it (kept in `game.peps_before` until the next
    such drop). Nothing is written otherwise, so a game that never drops keeps its
    digest."""
    current = [p.id for p in _current()]
    fewest = _n(ctx, "fewest_players")
    if len(current) < fewest <= len(current) + 1:
        game = ctx.game
        game.peps_before = sorted(current + [event.player.id])
        game.save()


def paranoid():
    return peps().where(Player.mental_state == "Paranoid")


def running():
    return list(Emergency.select().where(Emergency.state == "running").order_by(Emergency.id))


def require_pep(actor: Player) -> Player:
    if not peps().where(Player.id == actor.id).exists():
        raise Rejected("only a PEP (a current Player) takes part in an Emergency", rule="4E0")
    return Player.get_by_id(actor.id)


_PROCEDURE = "number:procedure?![of|for|in]"     # which Emergency Procedure, when several run


@action("mental_state",
        # Rule 4E0: "A PEP can set his Mental State by posting a message to a Public Forum ...
        # stating that he does so, and specifying his new Mental State"
        frame("set|change|switch|turn|become|feel|go|declare|make|get|going|turning|becoming",   # "I'm going Paranoid"
              role("state:choice", {"paranoid": "Paranoid", "calm": "Calm"}),
              also="mental state to as be myself", openers="i am|my mental state|my state"),
        # "Back to Calm for me." (the PEP's own, said as where it returns to)
        frame("go back to|am back to|switch back to|return to", role("state:choice", {"paranoid": "Paranoid", "calm": "Calm"}),
              also="for me mental state my", openers="back to"),
        rule="4E0", example="I set my Mental State to Paranoid", says="set my Mental State to {state}",
        not_actions=("I was Paranoid yesterday", "Wooble is Paranoid", "Am I Paranoid?",
                     "I am not Paranoid", "I feel calm about the vote", "I think I'll become Paranoid"),
        players_only=False)     # a PEP who is no longer a Player (fewer than four Players)
def set_mental_state(ctx: Context, actor: Player | None, state: str) -> None:
    """Rule 4E0: a PEP sets his Mental State by a message to a Public Forum, or to
    any forum that was a Public Forum within the past month."""
    if ctx.post is not None and not ctx.post.public and not public_lately(ctx, ctx.post):
        raise Rejected("a Mental State is set by a message to a Public Forum (or to a forum "
                       "that was one within the past month)", rule="4E0")
    if actor is None:
        actor = _former_player(ctx)
        if actor is None:
            raise Rejected("only a PEP (a current Player, or with fewer than four Players, one "
                           "of the Players before the drop) sets a Mental State", rule="4E0")
    actor = require_pep(actor)
    state = state.capitalize()
    if actor.mental_state == state:
        raise Rejected(f"you are {state} already", rule="4E0")
    actor.mental_state = state
    actor.save()
    ctx.record("mental_state", f"{actor.name} is {state} ({paranoid().count()} PEPs Paranoid)",
               rule="4E0", player=actor.name, state=state)
    check(ctx)


def _former_player(ctx: Context) -> Player | None:
    """The Player (current or not) who posts from the sender's address."""
    from ..store import Address
    if ctx.post is None:
        return None
    return Player.select().join(Address).where(Address.address == ctx.post.sender.lower()).first()


def month_before(at: datetime) -> datetime:
    """The same moment a calendar month earlier (the 31st of March: the 28th or
    29th of February), Rule 4E0's "within the past month" (docs/readings.md)."""
    last_of_before = at.replace(day=1) - timedelta(days=1)
    return at.replace(year=last_of_before.year, month=last_of_before.month,
                      day=min(at.day, last_of_before.day))


# the actions Rule 4E0 lets count in a forum that was Public within the past month
LATELY_PUBLIC = frozenset({"mental_state"})


def public_lately(ctx: Context, post) -> bool:
    """Rule 4E0: the post reached a forum that was a Public Forum within the past
    month: one in `addresses.public_fora` before a change of it made within the
    month (with no Public Fora configured before it, every forum was public)."""
    from ..store import Setting
    if not Setting.select().where(Setting.key == "addresses.public_fora").exists():
        return False            # never changed in play: no forum stopped being Public
    since = month_before(ctx.at)
    reached = {a.strip().lower() for a in post.recipients}
    for e in Event.select().where(Event.kind == "setting", Event.at >= since).order_by(Event.seq):
        if (e.data or {}).get("key") != "addresses.public_fora":
            continue
        before = e.data.get("before")
        if not before:
            return True
        if reached & {str(f).strip().lower() for f in before}:
            return True
    return False


def check(ctx: Context) -> None:
    """Rules 4E0, 4E40: four or more Paranoid PEPs: a State of Emergency and Black
    Watch Plaid; fewer: every Procedure stops, time resumes, Jolly Roger."""
    running_any = versions.cached(database, "emergency running", ("emergency",),
                                  lambda: Emergency.select().where(Emergency.state == "running").exists())
    count, enough = paranoid_count(), _n(ctx, "paranoid_peps")
    if count < enough and not running_any and ctx.game.threat_flag != "Black Watch Plaid":
        return          # the usual case, after every entry: nothing to do, cheaply
    game = ctx.game
    if count >= enough:
        if game.threat_flag != "Black Watch Plaid":
            _flag(ctx, "Black Watch Plaid", f"{count} PEPs are Paranoid")
        if not running():
            begin(ctx, first_step=1, coordinator=_last_mom())
    else:
        if game.threat_flag == "Black Watch Plaid":
            _flag(ctx, "Jolly Roger", f"only {count} PEPs are Paranoid")
        procedures = running()
        for em in procedures:
            _end(ctx, em, "stopped", f"fewer than four PEPs are Paranoid ({count})")
        if procedures and ctx.game.time_stopped:
            resume_time(ctx, rule="4E0", why="the State of Emergency is over")


def _flag(ctx: Context, value: str, why: str) -> None:
    game = ctx.game
    before, game.threat_flag = game.threat_flag, value
    game.save()
    ctx.record("flag", f"the Threat Flag is {value} (was {before}): {why}", rule="4E40",
               before=before, after=value)


def _last_mom() -> Player | None:
    """Rule 4E0, step 2: the PEP who most recently held the Ministry of Ministries."""
    current = Ministry.get_or_none(Ministry.name == "Ministry")
    pep_ids = {p.id for p in peps()}
    if current is not None and current.holder_id in pep_ids:
        return Player.get_by_id(current.holder_id)
    names = {p.name: p for p in peps()}
    for e in Event.select().where(Event.kind == "ministry").order_by(Event.seq.desc()):
        if e.data.get("ministry") == "Ministry" and e.data.get("holder") in names:
            return names[e.data["holder"]]
    return None


# ------------------------------------------------------- the Procedure

def begin(ctx: Context, first_step: int, coordinator: Player | None) -> Emergency:
    """Rule 4E0, steps 1-3: time stops, the Coordinator, the Emergency Forum."""
    if not ctx.game.time_stopped:
        stop_time(ctx, rule="4E0", why="a State of Emergency")
    em = Emergency.create(started_at=ctx.at, first_step=first_step,
                          coordinator=coordinator)
    who = coordinator.name if coordinator else "nobody (no PEP ever held the Ministry of Ministries)"
    _notice(ctx, em, f"Emergency Procedure {em.id} begins (step {first_step}); game time is "
            f"stopped; the Emergency Coordinator is {who}", coordinator=coordinator.name if coordinator else None)
    forum = ctx.config.get("emergency.forum") or ""
    if forum:
        _designate(ctx, em, forum, "bnomic, from the configuration,")
    durations.schedule(ctx, durations.Due(at=ctx.at + timedelta(hours=_n(ctx, "coordinator_hours"))),
                       "emergency_24_hours", "4E0",
                       emergency=em.id)
    return em


def _notice(ctx: Context, em: Emergency, summary: str, **data) -> Event:
    """An event of the Procedure, told to the list (Rule 4E0 step 3: a reasonable
    effort to notify the PEPs)."""
    data.setdefault("forum", em.forum)
    return ctx.record("emergency", summary, rule="4E0", emergency=em.id, mail=True, **data)


def _designate(ctx: Context, em: Emergency, forum: str, by: str) -> None:
    em.forum, em.forum_by = forum, by
    em.save()
    _notice(ctx, em, f"{by} designates {forum} as the Emergency Forum of Procedure {em.id}",
            forum=forum)


def _procedure(ctx: Context, number: str | None = None) -> Emergency:
    procs = running()
    if not procs:
        raise Rejected("B Nomic is not in a State of Emergency", rule="4E0")
    if number:
        found = [e for e in procs if str(e.id) == number.strip("# ")]
        if not found:
            raise Rejected(f"there is no running Emergency Procedure {number}", rule="4E0")
        return found[0]
    return procs[-1]


def _coordinator_or_late(ctx: Context, em: Emergency, actor: Player, what: str) -> None:
    """Step 3, 4: the Coordinator's to do; any PEP's after 24 hours."""
    if em.coordinator_id == actor.id:
        return
    hours = _n(ctx, "coordinator_hours")
    if ctx.at - em.started_at < timedelta(hours=hours):
        raise Rejected(f"the Emergency Coordinator {what} in the first {hours} hours; after that any "
                       "PEP may", rule="4E0")


def _via_forum(ctx: Context, em: Emergency) -> None:
    """Steps 4, 5, 7 happen "via the Emergency Forum": a message to its address."""
    if not em.forum:
        raise Rejected("no Emergency Forum has been designated yet", rule="4E0")
    if ctx.post is None:
        return
    forum = em.forum.lower()
    public = [a.lower() for a in (ctx.config.get("addresses.public_fora") or [])]
    if forum in [r.lower() for r in ctx.post.recipients] or (forum in public and ctx.post.public):
        return
    raise Rejected(f"send this to the Emergency Forum ({em.forum})", rule="4E0")


_DESIGNATE = "designate|name|declare|choose|set|pick|appoint|make|establish|nominate|select|set up"


@action("designate_forum",
        # Rule 4E0, step 3: "designate a means for PEPs to communicate as the Emergency Forum"
        frame(_DESIGNATE, "forum:email", _PROCEDURE, also="as emergency forum to mailing list address",
              needs="forum"),
        frame(_DESIGNATE, "forum:text[to be]", _PROCEDURE, also="as emergency forum", needs="forum"),
        rule="4E0", example="I designate emergency@example.org as the Emergency Forum",
        says="designate {forum} as the Emergency Forum",
        not_actions=("I designated x@example.org as the Emergency Forum",
                     "Wooble designates x@example.org as the Emergency Forum",
                     "Should I designate x@example.org as the Emergency Forum?"))
def designate(ctx: Context, actor: Player, forum: str, number: str | None = None) -> None:
    """Rule 4E0, step 3: the Coordinator designates the Emergency Forum (any PEP after 24 hours)."""
    actor = require_pep(actor)
    em = _procedure(ctx, number)
    if em.forum:
        raise Rejected(f"the Emergency Forum is {em.forum} already", rule="4E0")
    _coordinator_or_late(ctx, em, actor, "designates the Emergency Forum")
    _designate(ctx, em, forum.strip().strip("<>"), actor.name)


@action("initialise_pause",
        # Rule 4E0, step 4: "make a statement to the Emergency Forum that he is initializing the Pause"
        frame("initialise|initialize|am initialising|am initializing|initialising|initializing"
              "|start|begin|set up|commence|init|am starting", _PROCEDURE, also="pause", needs="pause"),
        rule="4E0", example="I initialise the Pause", says="initialise the Pause",
        not_actions=("I initialised the Pause yesterday", "Wooble initialises the Pause",
                     "Should I initialise the Pause?"))
def initialise_pause(ctx: Context, actor: Player, number: str | None = None) -> None:
    """Rule 4E0, step 4: the Coordinator (any PEP after 24 hours) states to the
    Emergency Forum that he initialises the Pause; it is zero."""
    actor = require_pep(actor)
    em = _procedure(ctx, number)
    if em.pause is not None:
        raise Rejected(f"the Pause is initialised already (it is {em.pause})", rule="4E0")
    _via_forum(ctx, em)
    _coordinator_or_late(ctx, em, actor, "initialises the Pause")
    _set_pause(ctx, em, 0, f"{actor.name} initialises the Pause")


def _set_pause(ctx: Context, em: Emergency, value: int, why: str) -> None:
    em.pause, em.pause_changed_at = value, ctx.at
    em.save()
    _notice(ctx, em, f"the Pause of Procedure {em.id} is {value}: {why}", pause=value)
    durations.schedule(ctx, durations.Due(at=ctx.at + timedelta(hours=_n(ctx, "pause_stale_hours"))),
                       "emergency_48_hours",
                       "4E0", emergency=em.id, since=ctx.at.isoformat())
    if value >= _n(ctx, "ballot_pause") and not em.ballot_published:
        publish_ballot(ctx, em)
    if value >= _n(ctx, "count_pause") and em.state == "running":
        count(ctx, em)


def _increment(ctx: Context, em: Emergency, why: str) -> None:
    if em.state == "running" and em.pause is not None:
        _set_pause(ctx, em, em.pause + 1, why)


@at_start_of("midnight", rule="4E0")
def daily_pause(ctx: Context) -> None:
    """Rule 4E0, step 4: the Pause is increased by one each day at 00:00 UTC."""
    for em in running():
        _increment(ctx, em, "00:00 UTC")


@deadline("emergency_48_hours")
def pause_48_hours(ctx: Context, emergency: int, since: str) -> None:
    """Rule 4E0, step 4: a Pause not incremented in the last 48 hours is incremented."""
    em = Emergency.get_by_id(emergency)
    if em.pause_changed_at is not None and em.pause_changed_at.isoformat() == since:
        _increment(ctx, em, "not incremented for 48 hours")


@deadline("emergency_24_hours")
def first_24_hours(ctx: Context, emergency: int) -> None:
    """Rule 4E0, steps 3-4: what the Coordinator has not done in 24 hours, any PEP may."""
    em = Emergency.get_by_id(emergency)
    if em.state == "running" and (not em.forum or em.pause is None):
        missing = " and ".join(x for x, done in (("designate the Emergency Forum", em.forum),
                                                  ("initialise the Pause", em.pause is not None)) if not done)
        _notice(ctx, em, f"24 hours have passed: any PEP may now {missing} of Procedure {em.id}")


def _phrases(heads: str, tails: str) -> str:
    return "|".join(f"{h} {t}".strip() for h in heads.split("|") for t in tails.split("|"))


_TO_INCREMENT = "to increment the pause|to increase the pause"


@action("increment_pause",
        # Rule 4E0, step 4: "the Emergency Coordinator may announce to the Emergency forum their
        # intention to increment the pause" (a verb long enough to outrank a plain 4E21 intent)
        frame(_phrases("intend|plan|announce my intention|announce an intention|announce the intention"
                       "|announce my intent|announce an intent|hereby announce my intention", _TO_INCREMENT),
              _PROCEDURE, also="by"),
        rule="4E0", example="I intend to increment the Pause", says="intend to increment the Pause",
        not_actions=("I intended to increment the Pause", "Wooble intends to increment the Pause",
                     "Should I intend to increment the Pause?"))
def intend_increment(ctx: Context, actor: Player, number: str | None = None) -> None:
    """Rule 4E0, step 4: once per day the Coordinator may announce the intention to
    increment the Pause; unless a PEP objects within 24 hours, it is incremented."""
    em = _procedure(ctx, number)
    if em.coordinator_id != actor.id:
        raise Rejected("only the Emergency Coordinator may announce this", rule="4E0")
    _via_forum(ctx, em)
    if em.pause is None:
        raise Rejected("the Pause is not initialised yet", rule="4E0")
    if em.increment_asked_at is not None and em.increment_asked_at.date() == ctx.at.date():
        raise Rejected("once per day", rule="4E0")
    em.increment_asked_at, em.increment_objected = ctx.at, False
    em.save()
    durations.schedule(ctx, durations.Due(at=ctx.at + timedelta(hours=_n(ctx, "objection_hours"))),
                       "emergency_increment",
                       "4E0", emergency=em.id, asked=ctx.at.isoformat())
    _notice(ctx, em, f"{actor.name} intends to increment the Pause of Procedure {em.id}; any PEP "
            f"may object on the Emergency Forum within {_n(ctx, 'objection_hours')} hours")


@action("object_increment",
        # Rule 4E0, step 4: "If no PEP voices objection to this action on the Emergency Forum ..."
        frame(_phrases("object to|voice objection to|voice an objection to|voice my objection to|oppose",
                       "incrementing the pause|increasing the pause|the increment of the pause|the pause increment"
                       "|the pause being incremented|the intention to increment the pause"
                       "|the intent to increment the pause|the coordinator's intention to increment the pause"
                       "|the coordinator's intent to increment the pause"
                       # (the Coordinator's only intention the rule gives: "the Coordinator's intention")
                       "|the coordinator's intention|the coordinator's intent|the coordinator incrementing the pause"),
              _PROCEDURE, also="by"),
        frame("object to|voice objection to|voice an objection to|voice my objection to|oppose|object",
              _PROCEDURE, also="incrementing increasing increment incremented the pause of being to intention"
                               " intent coordinator's emergency by thing", needs="pause", openers="objection to"),
        rule="4E0", example="I object to incrementing the Pause", says="object to incrementing the Pause",
        not_actions=("I objected to incrementing the Pause", "Wooble objects to incrementing the Pause",
                     "Should I object to incrementing the Pause?"))
def object_increment(ctx: Context, actor: Player, number: str | None = None) -> None:
    """Rule 4E0, step 4: a PEP voices objection on the Emergency Forum."""
    require_pep(actor)
    em = _procedure(ctx, number)
    _via_forum(ctx, em)
    if em.increment_asked_at is None \
            or ctx.at - em.increment_asked_at > timedelta(hours=_n(ctx, "objection_hours")):
        raise Rejected("no intention to increment the Pause is open", rule="4E0")
    em.increment_objected = True
    em.save()
    _notice(ctx, em, f"{actor.name} objects to incrementing the Pause of Procedure {em.id}")


@deadline("emergency_increment")
def increment_unopposed(ctx: Context, emergency: int, asked: str) -> None:
    em = Emergency.get_by_id(emergency)
    if em.increment_asked_at is not None and em.increment_asked_at.isoformat() == asked \
            and not em.increment_objected:
        _increment(ctx, em, "the Coordinator's intention, unopposed for 24 hours")


# ---------------------------------------------------- Refresh Proposals

@action("submit_refresh_proposal",
        # Rule 4E0, step 5: "each PEP may submit a Refresh Proposal ... and may revise or
        # withdraw his own Refresh Proposal, via the Emergency Forum"
        frame("submit|revise|propose|make|post|file|amend|update|resubmit|replace|present|enter"
              "|put forward|offer|table|change",
              "which:refresh?#", also="following revised as follows below to read", needs="refresh"),
        rule="4E0", example="I submit the following Refresh Proposal: ... END REFRESH PROPOSAL",
        says="submit a Refresh Proposal",
        not_actions=("I submitted a Refresh Proposal", "Wooble submits a Refresh Proposal",
                     "Should I submit a Refresh Proposal?"),
        document="refresh proposal", document_needed=True)
def submit_refresh(ctx: Context, actor: Player, document: str = "", which: str | None = None) -> None:
    """Rule 4E0, step 5: before the Pause is 5, each PEP may submit a Refresh
    Proposal, and revise or withdraw his own, via the Emergency Forum."""
    actor = require_pep(actor)
    em = _procedure(ctx)
    _via_forum(ctx, em)
    _own_named(em, actor, which)
    if em.pause is not None and em.pause >= _n(ctx, "ballot_pause"):
        raise Rejected(f"the Pause is {em.pause}: Refresh Proposals are submitted before it is "
                       f"{_n(ctx, 'ballot_pause')}",
                       rule="4E0")
    if not document.strip():
        raise Rejected("write its list of changes after the sentence, ending with END REFRESH "
                       "PROPOSAL", rule="4E0")
    own = RefreshProposal.get_or_none(RefreshProposal.emergency == em, RefreshProposal.author == actor)
    if own is None:
        own = RefreshProposal.create(emergency=em, author=actor,
                                     body=document.strip(), at=ctx.at)
        verb = "submits"
    else:
        own.body, own.state, own.revisions, own.at = document.strip(), "submitted", own.revisions + 1, ctx.at
        own.save()
        verb = "revises"
    _notice(ctx, em, f"{actor.name} {verb} Refresh Proposal {own.id}", refresh_proposal=own.id)


@action("withdraw_refresh_proposal",
        # Rule 4E0, step 5: "may revise or withdraw his own Refresh Proposal"
        frame("withdraw|retract|pull|cancel|remove|take back|drop|rescind|abandon|scrap",
              "which:refresh?#", also="own", needs="refresh"),
        rule="4E0", example="I withdraw my Refresh Proposal", says="withdraw my Refresh Proposal",
        not_actions=("I withdrew my Refresh Proposal", "Wooble withdraws his Refresh Proposal",
                     "Should I withdraw my Refresh Proposal?"))
def withdraw_refresh(ctx: Context, actor: Player, which: str | None = None) -> None:
    """Rule 4E0, step 5: a PEP may withdraw his own Refresh Proposal."""
    em = _procedure(ctx)
    _via_forum(ctx, em)
    _own_named(em, actor, which)
    own = RefreshProposal.get_or_none(RefreshProposal.emergency == em, RefreshProposal.author == actor,
                                      RefreshProposal.state == "submitted")
    if own is None:
        raise Rejected("you have no Refresh Proposal in this Procedure", rule="4E0")
    if em.pause is not None and em.pause >= _n(ctx, "ballot_pause"):
        raise Rejected("the Ballot is out: it is too late to withdraw", rule="4E0")
    own.state = "withdrawn"
    own.save()
    _notice(ctx, em, f"{actor.name} withdraws Refresh Proposal {own.id}")


def _own_named(em: Emergency, actor: Player, which: str | None) -> None:
    """Rule 4E0, step 5: a PEP revises or withdraws "his own" Refresh Proposal: one
    named by its number or its author must be his."""
    if which is None or which in ("mine", "this"):
        return
    own = RefreshProposal.get_or_none(RefreshProposal.emergency == em, RefreshProposal.author == actor)
    if which.startswith("of "):
        if which[3:].strip().casefold() != actor.name.casefold():
            raise Rejected(f"a PEP revises or withdraws only his own Refresh Proposal, not "
                           f"{which[3:].strip()}'s", rule="4E0")
        return
    if own is None or str(own.id) != which.strip("# "):
        raise Rejected(f"Refresh Proposal {which} is not yours: a PEP revises or withdraws only his own"
                       + (f" (yours is {own.id})" if own else ""), rule="4E0")


def candidates(em: Emergency) -> list[RefreshProposal]:
    return list(RefreshProposal.select().where(RefreshProposal.emergency == em,
                                               RefreshProposal.state == "submitted")
                .order_by(RefreshProposal.id))


def publish_ballot(ctx: Context, em: Emergency) -> None:
    """Rule 4E0, step 6: at Pause 5 the Refresh Proposals are gathered into a Ballot
    and published (bnomic does it for the Coordinator)."""
    em.ballot_published = True
    em.save()
    items = [{"id": rp.id, "author": rp.author.name, "body": rp.body} for rp in candidates(em)]
    ctx.record("emergency_ballot", f"the Ballot of Emergency Procedure {em.id}: Refresh Proposals "
               + (", ".join(str(i["id"]) for i in items) or "none"), rule="4E0", emergency=em.id,
               mail=True, refresh_proposals=items, forum=em.forum)


@action("rank_refresh_proposals",
        # Rule 4E0, step 7: "Each PEP may cast a single Ballot by announcing it via the Emergency
        # Forum. This Ballot shall rank some (or all) of the Refresh Proposals in order of
        # preference" (also as numbered lines under "My ranking:")
        frame("rank|order|cast my ballot|cast a ballot|cast my emergency ballot|cast the ballot"
              "|submit my ballot|submit my ranking",
              "ranking:refresh*", also="ballot emergency > as follows of preference in order my first then"
                                       " second third next choice last"),
        # "I vote for Refresh Proposal 2, then Refresh Proposal 1" (a vote on proposals is voting's)
        frame("vote|cast my vote|cast my votes", "ranking:refresh#*",
              also="for > then in order of preference as follows"),
        frame("", "ranking:refresh*", also="> as follows is first then second third next choice only",
              openers="my ballot|my emergency ballot|my ranking|my order of preference|ranking|ballot"
                      "|my refresh ballot|emergency ballot"),
        # "RP3 > RP1 > RP2": the ranking alone, each named as a Refresh Proposal; "3 > 2 > 1",
        # their numbers alone, where those Refresh Proposals are (grammar._known)
        frame("", "ranking:refresh#*", also=">", bare=True, needs=">"),
        frame("", "ranking:refresh*", also=">", bare=True, needs=">"),
        rule="4E0", example="I rank the Refresh Proposals: 3, 1, 2", says="rank the Refresh Proposals {ranking}",
        not_actions=("I ranked the Refresh Proposals 3, 1, 2", "Wooble ranks the Refresh Proposals 3, 1, 2",
                     "Should I rank the Refresh Proposals 3, 1, 2?", "My ballot is in the post",
                     "I prefer 3", "My preference is 3"))
def rank(ctx: Context, actor: Player, ranking: str) -> None:
    """Rule 4E0, step 7: each PEP may cast a single Ballot ranking some or all of
    the Refresh Proposals, the most preferred first."""
    actor = require_pep(actor)
    em = _procedure(ctx)
    _via_forum(ctx, em)
    if not em.ballot_published:
        raise Rejected("the Ballot is published when the Pause is 5", rule="4E0")
    if RankedBallot.select().where(RankedBallot.emergency == em, RankedBallot.voter == actor).exists():
        raise Rejected("each PEP casts a single Ballot", rule="4E0")
    ids = [_ranked(em, actor, x) for x in ranking.split(",") if x.strip()]
    valid = {rp.id for rp in candidates(em)}
    wrong = [i for i in ids if i not in valid]
    if wrong or len(set(ids)) != len(ids) or not ids:
        raise Rejected(f"rank each of the Refresh Proposals {sorted(valid)} at most once"
                       + (f"; {wrong} are not on the Ballot" if wrong else ""), rule="4E0")
    RankedBallot.create(emergency=em, voter=actor, ranking=ids, at=ctx.at)
    _notice(ctx, em, f"{actor.name} casts a Ballot: {' > '.join(map(str, ids))}", ranking=ids)


def _ranked(em: Emergency, actor: Player, item: str) -> int:
    """One entry of a Ballot: a Refresh Proposal's number, "mine", or "of Bob" (Bob's)."""
    item = item.strip().lstrip("#")
    if item.isdigit():
        return int(item)
    author = actor.name if item == "mine" else item[3:].strip() if item.startswith("of ") else None
    found = [rp.id for rp in candidates(em) if author and rp.author.name.casefold() == author.casefold()]
    if not found:
        raise Rejected(f"there is no Refresh Proposal {item!r} on the Ballot: rank them by number", rule="4E0")
    return found[0]


# ------------------------------------------------------------ the count

def instant_runoff(ballots: list[list[int]], options: list[int], draw) -> tuple[int | None, list[dict]]:
    """Rule 4E0, step 8: each Ballot counts for its top choice not eliminated
    (exhausted Ballots are discarded); a majority wins; else the fewest is
    eliminated, a tie drawn at random by `draw(sorted tied ids)`."""
    alive, rounds = sorted(options), []
    live = [list(b) for b in ballots]
    while alive:
        tally = {o: 0 for o in alive}
        counted = []
        for b in live:
            top = next((c for c in b if c in tally), None)
            if top is not None:
                tally[top] += 1
                counted.append(b)
        live = counted                   # an exhausted Ballot is not counted again
        total = sum(tally.values())
        round_ = {"round": len(rounds) + 1, "votes": {str(k): v for k, v in tally.items()},
                  "ballots": total}
        rounds.append(round_)
        leader = max(alive, key=lambda o: (tally[o], -o))
        if total and tally[leader] * 2 > total:
            round_["selected"] = leader
            return leader, rounds
        if len(alive) == 1:
            round_["note"] = "no majority with one Refresh Proposal left"
            return None, rounds
        fewest = min(tally.values())
        tied = sorted(o for o in alive if tally[o] == fewest)
        out = tied[0] if len(tied) == 1 else draw(tied)
        round_["eliminated"] = out
        if len(tied) > 1:
            round_["tie"] = tied
        alive.remove(out)
    return None, rounds


def count(ctx: Context, em: Emergency) -> None:
    """Rule 4E0, steps 8-9: at Pause 7, the count (shown round by round), the
    selected Refresh Proposal's changes, all PEPs Calm, time resumes."""
    ballots = [b.ranking for b in RankedBallot.select().where(RankedBallot.emergency == em)
               .order_by(RankedBallot.id)]
    rng = ctx.rng()
    winner, rounds = instant_runoff(ballots, [rp.id for rp in candidates(em)],
                                    lambda tied: rng.choice(tied))
    em.count, em.winner = rounds, winner
    em.save()
    lines = []
    for r in rounds:
        text = f"round {r['round']}: " + ", ".join(f"RP {k}: {v}" for k, v in r["votes"].items())
        if "tie" in r:
            text += f"; tie for fewest between {r['tie']}, drawn at random: RP {r['eliminated']} eliminated"
        elif "eliminated" in r:
            text += f"; RP {r['eliminated']} eliminated"
        if "selected" in r:
            text += f"; RP {r['selected']} has a majority"
        lines.append(text)
    applied, unapplied = [], []
    if winner is not None:
        rp = RefreshProposal.get_by_id(winner)
        parsed = changes.parse(rp.body)
        done = changes.apply(ctx, parsed.changes, source=f"Refresh Proposal {rp.id}", rule="4E0")
        applied = [a.summary for a in done if a.ok]
        unapplied = [f"{a.change.text}: {a.summary}" for a in done if not a.ok] + parsed.prose
    coordinator = em.coordinator.name if em.coordinator_id else "the PEPs"
    ctx.record("emergency_count", f"the count of Emergency Procedure {em.id}: "
               + (f"Refresh Proposal {winner} is selected" if winner else "no Refresh Proposal is selected"),
               rule="4E0", emergency=em.id, mail=True, rounds=rounds, lines=lines, winner=winner,
               applied=applied, unapplied=unapplied, coordinator=coordinator)
    if unapplied:
        _notice(ctx, em, f"the Emergency Coordinator ({coordinator}) is to implement what bnomic could "
                "not apply: " + " | ".join(u[:300] for u in unapplied))
    _end(ctx, em, "completed", "its count is done")
    calm_all(ctx, "the Procedure is complete")
    if not running() and ctx.game.time_stopped:
        resume_time(ctx, rule="4E0", why="the Emergency Procedure is complete")
    check(ctx)


def _end(ctx: Context, em: Emergency, state: str, why: str) -> None:
    em.state = state
    em.save()
    _notice(ctx, em, f"Emergency Procedure {em.id} {'is complete' if state == 'completed' else 'stops'}: {why}")


@action("parallel_procedure",
        # Rule 4E0: "any PEP can initiate another one, to run independently of the current one"
        frame("initiate|start|begin|launch|open|call|invoke|trigger|commence",
              also="another new parallel second separate emergency procedure independent",
              needs="procedure"),
        rule="4E0", example="I initiate another Emergency Procedure", says="initiate another Emergency Procedure",
        not_actions=("I initiated another Emergency Procedure", "Wooble initiates another Emergency Procedure",
                     "Should I initiate another Emergency Procedure?"))
def parallel(ctx: Context, actor: Player) -> None:
    """Rule 4E0: when every running Procedure has run 14 days or more, any PEP may
    initiate another, starting at step 3, as its Coordinator."""
    actor = require_pep(actor)
    procs = running()
    if not procs:
        raise Rejected("B Nomic is not in a State of Emergency", rule="4E0")
    days = _n(ctx, "parallel_after_days")
    young = [e.id for e in procs if ctx.at - e.started_at < timedelta(days=days)]
    if young:
        raise Rejected(f"Procedure {young[0]} has run less than {days} days", rule="4E0")
    begin(ctx, first_step=3, coordinator=actor)


@at_start_of("nday", rule="4E0")
def mulberry_calm(ctx: Context) -> None:
    """Rule 4E0: at the beginning of Mulberry (nday 3), Paranoid PEPs become Calm
    if, and only if, the Threat Flag is Pink Ponies."""
    if ctx.game.nday == _n(ctx, "calm_nday") and ctx.game.threat_flag == "Pink Ponies":
        calm_all(ctx, "Mulberry, under Pink Ponies")


def calm_all(ctx: Context, why: str) -> None:
    for p in paranoid():
        p.mental_state = "Calm"
        p.save()
        ctx.record("mental_state", f"{p.name} is Calm ({why})", rule="4E0", player=p.name, state="Calm")


@view("emergency", template="show_emergency.txt")
def emergency_view(ctx: Context, request: Request) -> dict:
    """`bnomic show emergency --json` (a contract: add, never rename)."""
    procs = running()
    em = procs[-1] if procs else Emergency.select().order_by(Emergency.id.desc()).first()
    return {"active": bool(procs), "paranoid": [p.name for p in paranoid()],
            "coordinator": em.coordinator.name if em and em.coordinator_id else None,
            "pause": em.pause if em else None,
            "refresh_proposals": [{"id": rp.id, "author": rp.author.name, "body": rp.body,
                                   "state": rp.state} for rp in (
                RefreshProposal.select().where(RefreshProposal.emergency == em)
                .order_by(RefreshProposal.id) if em else [])],
            "threat_flag": Game.get().threat_flag,
            "procedure": em.id if em else None, "state": em.state if em else None,
            "forum": em.forum if em else None, "count": em.count if em else [],
            "winner": em.winner if em else None,
            "procedures": [{"id": e.id, "state": e.state, "started_at": e.started_at.isoformat(),
                            "pause": e.pause} for e in Emergency.select().order_by(Emergency.id)]}
