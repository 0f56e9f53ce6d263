"""Ministerial Obligations (Rule 4E53) and Misdemeanors (Rule 4E56).

A rule that obliges a Ministry to act creates an Obligation, due a Jiffy after
it arose or after the current Minister took the Ministry, whichever is later
(rulings.md). When one lapses, the Misdemeanor is recorded (the list is told
by the mailer) and any Player may remove that Minister.
"""
from __future__ import annotations

from ..store import Ministry, Obligation, Player, database, hot, versions
from . import durations
from .context import Context, Rejected
from .ministers import THEIRS
from .ministries import delegated, describe, find_ministry, give_ministry, held_one, may_act_for, ministry_names
from .frames import frame
from .events import MinistryHolderChanged
from .registry import action, at_start_of, deadline, on


def oblige(ctx: Context, ministry: Ministry, kind: str, text: str, rule: str, **data) -> Obligation:
    """Put an obligation on a ministry (at most one open of each kind and subject)."""
    for oid, odata in _open_of(ministry, kind):     # (only the data compared: a tally may add dozens)
        if odata == data:
            return Obligation.get_by_id(oid)
    o = Obligation.create(ministry=ministry, kind=kind, text=text, rule=rule, arose_at=ctx.at, data=data)
    _schedule(ctx, o)
    ctx.record("obligation", f"{describe(ctx.config, ministry)} is obliged to {text} within a Jiffy "
               f"(obligation #{o.id})", rule=rule, obligation=o.id, ministry=ministry.name)
    return o


_OPEN_OF = ('SELECT "t1"."id", "t1"."data" FROM "obligation" AS "t1" WHERE ((("t1"."ministry_id" = ?) '
            'AND ("t1"."kind" = ?)) AND ("t1"."state" = ?))')     # peewee's own text for the query below
_DECODED: dict[str, object] = {}


def _open_of(ministry: Ministry, kind: str) -> list[tuple[int, object]]:
    """(id, data) of the open obligations of this Ministry and kind, as they stand in
    this transaction (one just created included), the SELECT built once and each
    data's JSON decoded once (a tally compares each new one with all before it)."""
    key = Obligation.ministry.db_value(ministry)        # the Ministry's name: its primary key
    found = hot.all_rows("open obligations of", _OPEN_OF, (key, kind, "open"))
    if found is None:       # not SQLite
        return list(Obligation.select(Obligation.id, Obligation.data).where(
            Obligation.ministry == ministry, Obligation.kind == kind, Obligation.state == "open").tuples())
    out = []
    for oid, text in found:
        value = _DECODED.get(text)
        if value is None:
            if len(_DECODED) > 4096:
                _DECODED.clear()
            value = _DECODED[text] = Obligation.data.python_value(text)
        out.append((oid, value))        # (shared: only compared, never handed out)
    return out


def _schedule(ctx: Context, o: Obligation) -> None:
    if o.deadline:
        durations.cancel(ctx, o.deadline, rule="4E53")
    row = durations.schedule(ctx, durations.jiffies(ctx), "obligation_due", "4E53", obligation=o.id)
    o.deadline = row.id
    o.save(only=[Obligation.deadline])      # (its other columns are as they were read or made)


@on(MinistryHolderChanged, rule="4E53")
def reset_for_new_minister(ctx: Context, event: MinistryHolderChanged) -> None:
    """Rule 4E53: a new Minister always has a Jiffy for the Ministry's obligations."""
    if event.holder is None:
        return
    for o in Obligation.select().where(Obligation.ministry == event.ministry, Obligation.state == "open"):
        _schedule(ctx, o)


def fulfil(ctx: Context, o: Obligation, how: str) -> None:
    o.state = "fulfilled"
    o.save()
    if o.deadline:
        durations.cancel(ctx, o.deadline, rule="4E53")
    ctx.record("obligation", f"obligation #{o.id} fulfilled: {how}", rule=o.rule, obligation=o.id)


def open_obligation(ministry_name: str, kind: str) -> bool:
    """Is an obligation of this kind open for this Ministry? From one snapshot of
    the open obligations per transaction (store/versions.py), as the duty checks
    after every entry ask it."""
    return (ministry_name, kind) in versions.cached(
        database, "open obligations", ("obligation",),
        lambda: {(o.ministry_id, o.kind) for o in Obligation.select(Obligation.ministry, Obligation.kind)
                 .where(Obligation.state == "open")})


def fulfil_kind(ctx: Context, ministry_name: str, kind: str, how: str) -> None:
    if not open_obligation(ministry_name, kind):
        return
    for o in (Obligation.select().join(Ministry)
              .where(Ministry.name == ministry_name, Obligation.kind == kind, Obligation.state == "open")):
        fulfil(ctx, o, how)


@deadline("obligation_due")
def obligation_due(ctx: Context, obligation: int) -> None:
    """Rules 4E53, 4E56: failing to do, within a Jiffy, what a rule says one
    "shall" do is a Misdemeanor; the Minister can then be removed."""
    o = Obligation.get_by_id(obligation)
    if o.state != "open":
        return
    m = Ministry.get_by_id(o.ministry_id)
    if m.holder_id is None:
        return          # nobody to blame: it waits for the next Minister (reset then)
    o.state, o.lapsed_holder = "lapsed", m.holder_id
    o.save()
    holder = Player.get_by_id(m.holder_id)
    ctx.record("misdemeanor", f"Misdemeanor: {holder.name}, as {describe(ctx.config, m)}, did not "
               f"{o.text} within a Jiffy (obligation #{o.id}); any Player may now remove them",
               rule="4E56", player=holder.name, ministry=m.name, obligation=o.id)


@action("remove_minister",
        # Rule 4E53: a Minister who failed an obligation "can be removed from his Ministry
        # by any Player as a Game Action"
        frame("remove|dismiss|depose|oust|expel|sack|fire|kick out|throw out|unseat",
              "player:player?", "ministry:ministry[from|as|from the post of|from the office of]",
              THEIRS, also="from post position"),                  # "I remove the Registrar from office"
        rule="4E53", example="I remove Wooble from the Ministry of Change",
        says="remove {player} from {ministry}",
        not_actions=("I removed Wooble from the Ministry of Change", "Should I remove Wooble from "
                     "the Registrar?", "Wooble removes Bob from the Registrar",
                     "I remove my objection to the Ministry of Law", "I remove my hat"))
def remove_minister(ctx: Context, actor: Player, ministry: str, player: str | None = None) -> None:
    """Rule 4E53: a Minister who failed to perform an obligation in time can be
    removed from the Ministry by any Player."""
    if player is None:              # "I remove the Registrar from office": its holder
        m = find_ministry(ctx, ministry, "4E53")
        if m.holder_id is None:
            raise Rejected(f"{describe(ctx.config, m)} is Vacant", rule="4E53")
        player = m.holder.name
    if ministry == "theirs":        # "I remove Bob from his Ministry"
        holder = Player.get_or_none(Player.name_key == player.strip().casefold())
        if holder is None:
            raise Rejected(f"there is no Player {player!r}", rule="4E53")
        m = held_one(ctx, holder, "4E53")
    else:
        m = find_ministry(ctx, ministry, "4E53")
    if m.holder_id is None or m.holder.name_key != player.strip().casefold():
        raise Rejected(f"{player} does not hold {describe(ctx.config, m)}", rule="4E53")
    lapsed = (Obligation.select().where(Obligation.ministry == m, Obligation.state == "lapsed",
                                        Obligation.lapsed_holder == m.holder_id).first())
    if lapsed is None:
        raise Rejected(f"{m.holder.name} has let no obligation of {describe(ctx.config, m)} lapse",
                       rule="4E53")
    give_ministry(ctx, m, None, f"{m.holder.name} removed by {actor.name} for obligation "
                  f"#{lapsed.id} ({lapsed.text})", "4E53")


# --------------------------------------------- challenging a display (4E50)

@action("challenge_display",
        # Rule 4E50: "challenge a public display that is maintained by a Ministry ... by
        # listing any errors he believes to be present in that public display"
        frame("challenge|dispute|contest|question|coe on|coe|claim of error on|claim an error in",
              "ministry:ministry[of|by]",
              "errors:text[:|,|;|-|because|since|as|for|listing|saying|errors|the errors|errors:"
              "|with the errors|on the grounds that|which says|which lists|listing these errors"
              "|listing these errors:|listing the errors|listing the errors:|listing the following errors"
              "|listing the following errors:|, because|, since|, as|, listing|, saying"
              "|, listing these errors:|, listing the errors:|, listing the following errors:]",
              # ("the Chairman's display of Proposals", "the Ballot posted by the Chairman")
              also="display displays public report of proposals players ministries rules ballot posted"
                   " proposal player ministry rule list"       # "the Chairman's proposal display"
                   " this morning yesterday today tonight earlier latest last night evening"),   # "... posted this morning"
        rule="4E50", example="I challenge the Registrar's display: Wooble has m60, not m50",
        says="challenge the display of {ministry}: {errors}",
        not_actions=("I challenged the Registrar's display: it was wrong",
                     "Wooble challenges the Registrar's display: it is wrong",
                     "I challenge you to a duel", "Should I challenge the Registrar's display?"))
def challenge(ctx: Context, actor: Player, ministry: str, errors: str) -> None:
    """Rule 4E50: any Player may challenge a Ministry's display by listing the
    errors it believes are in it; the Minister is obligated to address them."""
    name = ministry
    for suffix in ("'s", "’s"):
        name = name[:-len(suffix)] if name.endswith(suffix) else name
    m = find_ministry(ctx, name, "4E50")
    o = oblige(ctx, m, "answer_challenge", f"address {actor.name}'s challenge of its display "
               f"({errors.strip()})", "4E50", challenger=actor.name, entry=ctx.entry,
               nweek=ctx.game.nweek)
    ctx.notes.append(f"obligation #{o.id} on {describe(ctx.config, m)}")


@action("answer_challenge",
        # Rule 4E50: the Minister "is obligated to address those errors by either correcting
        # them or indicating why he believes them to be already correct" (the challenge is
        # an obligation, numbered: Rule 4E53)
        frame("answer|address|resolve|respond to|reply to|fulfil|fulfill|fulfilled|discharge"
              "|discharged|have fulfilled|have fulfilled|have discharged|have addressed|have answered"
              "|have resolved|have done|done|carried out|have carried out|settle|close",
              "number:obligation", "how:text[:|,|;|-|by|as|with|saying|because]?",
              also="challenge challenges"),
        rule="4E50", example="I answer obligation #3: corrected, Wooble has m60",
        says="answer obligation {number}: {how}",
        not_actions=("I answered obligation #3 yesterday", "Wooble answers obligation #3: done",
                     "Should I answer obligation 3?"))
def answer(ctx: Context, actor: Player, number: str, how: str = "") -> None:
    """Rule 4E50: the Minister addresses the errors, correcting them or saying
    why the display is already correct."""
    try:
        o = Obligation.get_by_id(int(number.lstrip("#")))
    except (ValueError, Obligation.DoesNotExist):
        raise Rejected(f"there is no obligation #{number}", rule="4E53") from None
    m = Ministry.get_by_id(o.ministry_id)
    if not may_act_for(ctx, actor, m):       # the Minister, or its delegate (Rule 4E45)
        raise Rejected(f"obligation #{o.id} is on {describe(ctx.config, m)}, which you do not hold",
                       rule="4E53")
    ctx.minister_power = m.name
    if o.state != "open":
        raise Rejected(f"obligation #{o.id} is {o.state}", rule="4E53")
    fulfil(ctx, o, f"{actor.name}: {how.strip() or 'addressed'}")


@at_start_of("nweek", rule="4E50")
def unchallenged_displays_approved(ctx: Context) -> None:
    """Rule 4E50: a public display not challenged within 1 nweek is considered
    approved. bnomic's displays show the gamestate, so approving them changes
    nothing; the event log records it for each held Ministry whose display
    bnomic kept (a minister who kept the duty keeps their own record)."""
    last = ctx.game.nweek - 1
    challenged = {o.ministry_id for o in Obligation.select().where(Obligation.kind == "answer_challenge")
                  if o.data.get("nweek") == last}
    for name in ministry_names(ctx.config):
        m = Ministry.get_or_none(Ministry.name == name)
        if m is None or m.holder_id is None or not delegated(ctx, "displays", name) or name in challenged:
            continue
        ctx.record("approved", f"the display of {describe(ctx.config, m)} was not challenged in "
                   f"nweek {last}: it counts as approved", rule="4E50", ministry=name, nweek=last)
