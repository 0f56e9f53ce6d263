"""Public Displays (Rule 4E50): what each Ministry's display shows, gathered
from the gamestate. Rendering is the templates' job (templates/display_*.txt).

Each ministry's rule names what its display holds; a display shows what of it
the gamestate has (a Ministry whose objects do not exist yet says so, and one
whose subject bnomic does not keep says that, and who keeps the display).
"""
from __future__ import annotations

import re

from ..store import Address, Approval, Deadline, Game, Ministry, Player, Usurpation
from . import clock, durations, intents, ministries
from .context import Context, Rejected, RetroactiveChange
from .flags import MEANINGS
from .players import name_key
from .frames import frame
from .registry import action, duty
from .vocabulary import words
from .views import Request, view

# what each display is made of: the rule, and what that rule names
WHAT = {
    "Law": ("4E36, 4E75", "the current Rules and Victory Conditions, and the Powers of Rules"),
    "Time": ("4E14", "Game Actions and other changes scheduled for the future, in order"),
    "Society": ("4E4", "the current Players with their Attributes and Properties, and the Public and Discussion Fora"),
    "Change": ("4E15", "the current Proposals, and whether they passed or failed"),
    "Ministry": ("4E51", "all Ministries with their responsibilities, Rewards and holders, and the state no other Ministry shows"),
    "Questions": ("4E18", "the current Consultations"),
    "Laundry": ("4E80", "all Sock Market activity, including the Color of Proposals"),
    "Fauna": ("4E71", "the OCB's Attributes and Properties, and all Tricks with theirs"),
    "Games": ("4E82", "the current Subgames"),
    "Business": ("4E70", "all Contracts with their text and parties"),
    "Judging": ("4E73", "all Indictments and their outcomes"),
}

# Rule 4E50: the displays of what bnomic does not keep (yet). Saying "nothing of
# this" there would be a false public display: they say what bnomic does not
# keep, and that their Minister keeps the display by hand.
BY_HAND: dict[str, str] = {}


def common(ctx: Context, name: str) -> dict:
    game = ctx.game
    m = ministries.ensure(ctx, name)
    rule, what = WHAT[name]
    return {"name": name, "title": ministries.title(ctx.config, name), "rule": rule, "what": what,
            "minister": m.holder.name if m.holder_id else None, "now": game.now,
            "clock": clock.describe(game, ctx.config)}


def society(ctx: Context) -> dict:
    # addresses and Ministries in one query each, not one per Player (issue 16)
    addresses: dict[int, list[str]] = {}
    for a in Address.select(Address.player, Address.address).order_by(Address.address):
        addresses.setdefault(a.player_id, []).append(a.address)
    held: dict[int, list[str]] = {}
    for m in ministries.held_ministries().values():             # ordered by name
        if m.holder_id is not None:
            held.setdefault(m.holder_id, []).append(m.name)
    players = []
    for p in Player.select().where(Player.is_player == True).order_by(Player.id):  # noqa: E712
        players.append({"name": p.name, "points": p.points, "mackerel": p.mackerel,
                        "active": p.active, "vested": p.vested, "joined_nweek": p.joined_nweek,
                        "addresses": addresses.get(p.id, []),
                        "ministries": held.get(p.id, [])})
    return {"players": players,
            "public_fora": ctx.config.get("addresses.public_fora", []) or [],
            "discussion_fora": ctx.config.get("addresses.discussion_fora", []) or []}


def metamin(ctx: Context) -> dict:
    rows = []
    for name in ministries.ministry_names(ctx.config):
        m = ministries.ensure(ctx, name)
        pending = [f"{u.usurper.name} usurps, proposing m{u.proposed}"
                   for u in Usurpation.select().where(Usurpation.ministry == m,
                                                      Usurpation.state == "pending")]
        duties = [{"duty": d.name, "what": d.does,
                   "by": ("bnomic" if ministries.delegated(ctx, d.name, name) else
                          "the minister" if m.holder_id else "nobody (Vacant)")}
                  for d in ministries.duties_listed() if d.ministry in (name, "*")]
        rows.append({"name": name, "title": ministries.title(ctx.config, name),
                     "what": WHAT.get(name, ("", ""))[1], "holder": m.holder.name if m.holder_id else None,
                     "reward": m.reward, "held_since": m.held_since, "usurpations": pending,
                     "duties": duties})
    game = ctx.game
    return {"ministries": rows, "motnw": game.motnw, "threat_flag": game.threat_flag,
            "threat_meaning": MEANINGS.get(game.threat_flag, "")}


def doctor(ctx: Context) -> dict:
    game = ctx.game
    nxt = durations.next_midnight(game.now)
    change = clock.plan_midnight(game, ctx.config)
    midnight = (f"{nxt:%Y-%m-%d} 00:00 UTC: " + (clock.describe_midnight(change, ctx.config)
                                                 if change else "game time is stopped"))
    items = []
    for row in Deadline.select().where(Deadline.state == "pending").order_by(Deadline.id):
        due = durations.due_of_row(row)
        what = (f"{row.args.get('sender')}: {row.args.get('text')}"
                if row.action == "scheduled_action" else row.action.replace("_", " "))
        items.append({"id": row.id, "due": due.describe(), "sort": (row.due_at is None, row.due_at or nxt,
                      row.count or 0, row.nweek or 0, row.nday or 0, row.id), "what": what,
                      "rule": row.rule})
    items.sort(key=lambda i: i["sort"])
    open_intents = [{"id": i.id, "author": i.author.name, "text": i.text,
                     "window": intents.describe_window(i, game, ctx.config)} for i in intents.open_intents()]
    return {"midnight": midnight, "deadlines": items, "intents": open_intents}


def ranger(ctx: Context) -> dict:
    from .beast import tricks_data
    beast = Player.get_or_none(Player.is_beast == True)  # noqa: E712
    return {"beast": None if beast is None else {
        "name": beast.name, "mackerel": beast.mackerel, "points": beast.points,
        "active": beast.active, "player": beast.is_player},
        "tricks": tricks_data(ctx)}


def washerwoman(ctx: Context) -> dict:
    """Rule 4E80: all Sock Market activity, including the Color of proposals."""
    from .socks import socks_data
    return socks_data(ctx)


def rulekeeper(ctx: Context) -> dict:
    """Rules 4E36, 4E75: the current Rules with their Powers, and the Victory Conditions."""
    from . import rules
    from ..store import VictoryCondition
    conditions = VictoryCondition.select().where(VictoryCondition.repealed == False)  # noqa: E712
    return {"rules": [{"number": rules.label(r.number), "title": r.title, "section": r.section,
                       "power": f"{r.power_num}/{r.power_den}", "text": r.text}
                      for r in rules.current()],
            "victory_conditions": [{"number": v.id, "title": v.title, "text": v.text,
                                    "source": v.source}
                                   for v in conditions.order_by(VictoryCondition.id)]}


def chairman(ctx: Context) -> dict:
    """Rule 4E15: the current Proposals, and whether those decided lately passed or failed."""
    from ..store import Proposal
    from .proposals import row
    game = ctx.game
    current = Proposal.select().where(Proposal.status != "Historical")
    decided = Proposal.select().where(Proposal.status == "Historical",
                                      Proposal.voting_nweek >= game.nweek - 1)
    order = (Proposal.number.is_null(), Proposal.number, Proposal.id)
    return {"current": [row(p) for p in current.order_by(*order)],
            "decided": [row(p) for p in decided.order_by(*order)]}


def oracle(ctx: Context) -> dict:
    from .consultations import display
    return display(ctx)


def judge(ctx: Context) -> dict:
    from .justice import display
    return display(ctx)


def arbiter(ctx: Context) -> dict:
    """Rule 4E70: every Contract, its current text, its parties and its history."""
    from .contracts import display
    return display(ctx)


def games(ctx: Context) -> dict:
    from .subgames import gamemaster
    return gamemaster(ctx)


GATHER = {"Society": society, "Ministry": metamin, "Time": doctor, "Fauna": ranger, "Laundry": washerwoman,
          "Law": rulekeeper, "Change": chairman, "Questions": oracle, "Judging": judge,
          "Business": arbiter, "Games": games}


# The Player columns a display shows of anyone (names only): the mailer gathers such
# a display again only when these change, not at every payment (issue 16). A display
# not listed here may show any of them.
PLAYER_COLUMNS = {"Change": ("id", "name", "is_player"), "Law": ("id", "name", "is_player")}


def gather(ctx: Context, name: str) -> dict:
    """Everything the named ministry's display shows, now."""
    data = common(ctx, name)
    data.update(GATHER.get(name, lambda ctx: {})(ctx))
    return data


def shown(ctx: Context, name: str) -> dict:
    """What the named ministry's display shows, with what its template says
    about it (not part of its content: `content_digest` is of `gather`)."""
    return {**gather(ctx, name), "by_hand": BY_HAND.get(name)}


def _template(d: dict) -> str:
    return "display.txt" if d["name"] in BY_HAND or d["name"] not in GATHER else f"display_{d['name']}.txt"


@view("display", template=_template, json=lambda d, text: {"name": d["name"], "text": text})
def display_view(ctx: Context, request: Request) -> dict:
    """`bnomic show display NAME`, a display sent on request, and a display
    bnomic publishes for its Minister (Rule 4E50)."""
    if not request.what:
        raise Rejected("name the display: bnomic show display Registrar (or any Ministry's name)")
    return shown(ctx, which(ctx, request.what))


def content_digest(ctx: Context, name: str) -> str:
    """A hash of what the display shows, without its moment and Clock line."""
    import hashlib
    import json
    data = {k: v for k, v in gather(ctx, name).items() if k not in ("now", "clock", "midnight")}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


@duty("*", "displays", rule="4E50",
      does="keep its Public Display and publish it when its data changes (Rule 4E50)")
def check_kept_displays(ctx: Context) -> None:
    """Rule 4E50: a Ministry that keeps its own display is obligated to update
    it whenever its data changes (bnomic does it for the others)."""
    from .obligations import oblige
    kept = [name for name, m in ministries.held_ministries().items()      # one snapshot (versions.py)
            if m.holder_id is not None and "displays" in (m.kept_duties or [])]
    for name in kept:
        m = ministries.ministry(name)
        digest = content_digest(ctx, m.name)
        if m.display_digest is None:
            m.display_digest = digest          # what it showed when the minister took the duty
            m.save()
        elif digest != m.display_digest:
            oblige(ctx, m, "update_display", "update its Public Display (its data changed)", "4E50")


@action("updated_display",
        # Rule 4E50: a Ministry "is obligated to update that public display ... whenever
        # the data related to it is modified" (posting it counts)
        frame("have updated|updated|update|have published|published|publish|have posted|posted|post"
              "|have refreshed|refreshed|refresh|have corrected|corrected|correct|have brought up to date",
              "ministry:ministry[of]", also="display displays public up to date", needs="display"),
        rule="4E50", example="I have updated the Registrar's display", says="updated the display of {ministry}",
        not_actions=("Wooble has updated the Registrar's display", "Should I update the Registrar's "
                     "display?", "I think I updated the Registrar's display"))
def updated(ctx: Context, actor: Player, ministry: str) -> None:
    """Rule 4E50: the Minister says the display is up to date (posting it counts)."""
    from .obligations import fulfil_kind
    name = which(ctx, ministry)
    m = ministries.require_minister(ctx, actor, name, "4E50",
                                    f"you do not hold {ministries.describe(ctx.config, ministries.ensure(ctx, name))}")
    m.display_digest = content_digest(ctx, name)
    m.save()
    fulfil_kind(ctx, name, "update_display", f"{actor.name} updated it")


def which(ctx: Context, text: str) -> str:
    """The ministry a request names: 'Registrar', "the Registrar's display", 'Society'."""
    t = text.strip()
    for suffix in ("'s public display", "'s display", "’s display", " public display", " display"):
        if t.lower().endswith(suffix):
            t = t[: -len(suffix)]
    return ministries.find_ministry(ctx, t, "4E50").name


# ------------------------------------------------------ approving a display

_MINISTRY_OF = re.compile(r"\bministry\s++of\s++(?:the\s++)?+(\w++)", re.I)


def shown_in(ctx: Context, document: str) -> str | None:
    """Rule 4E50: whose Public Display a display given in full is, by its heading: the
    Ministry it names ("PUBLIC DISPLAY OF THE MINISTRY OF SOCIETY"), else what it shows
    ("MINISTRIES (nweek 7)", "Players: ...": words.toml's display_subjects). None when
    its first lines say neither, or say two."""
    # (the document is the whole message (Rule 4E8): the display is what {{ }} holds, or what
    # follows the paragraph that announces it)
    body = document.split("{{", 1)[1].split("}}", 1)[0] if "{{" in document else (
        document.strip().split("\n\n", 1)[-1])
    head = " ".join(line.strip() for line in body.strip().splitlines()[:2])[:300]
    names = set(ministries.ministry_names(ctx.config))
    named = {m.group(1).title() for m in _MINISTRY_OF.finditer(head)} & names
    if len(named) == 1:
        return named.pop()
    low = head.lower()
    shown = {m for subject, m in words()["display_subjects"].items()
             if re.search(r"\b" + re.escape(subject) + r"\b", low) and m in names}
    return shown.pop() if len(shown) == 1 else None


# the name ends in a non-space, so padding is scanned once (no super-linear backtracking)
_PLAYER_ROW = re.compile(r"^(?P<name>\S(?:.*?\S)?)\s++(?P<points>\d++)\s++m(?P<mackerel>\d++)\s++"
                         r"(?P<active>yes|no)\s++(?P<vested>yes|no)\b", re.I)


def registrar_values(document: str) -> dict:
    """The players' attributes a Registrar's display states (bnomic's own layout)."""
    players, inside = {}, False
    for line in document.splitlines():
        if line.startswith("PLAYERS ("):
            inside = True
            continue
        if inside and not line.strip():
            break
        m = _PLAYER_ROW.match(line) if inside else None
        if m:
            players[name_key(m.group("name"))] = {
                "points": int(m.group("points")), "mackerel": int(m.group("mackerel")),
                "active": m.group("active").lower() == "yes", "vested": m.group("vested").lower() == "yes"}
    return {"players": players} if players else {}


_MINISTRY_ROW = re.compile(r"^(?P<name>[A-Z][a-z]+)\s{2,}.+?\s{2,}(?P<holder>\S.*?)\s+m(?P<reward>\d+)\b")


def metamin_values(document: str, names: list[str]) -> dict:
    """What a MetaMin's display states: holders and Rewards, the Message, the Flag."""
    out: dict = {"ministries": {}}
    lines = document.splitlines()
    for i, line in enumerate(lines):
        m = _MINISTRY_ROW.match(line)
        if m and m.group("name") in names:
            holder = m.group("holder").strip()
            out["ministries"][m.group("name")] = {
                "holder": None if holder == "Vacant" else name_key(holder),
                "reward": int(m.group("reward"))}
        if line.startswith("MESSAGE OF THE NWEEK") and i + 1 < len(lines):
            out["motnw"] = lines[i + 1].strip()
        if line.startswith("THREAT FLAG") and i + 1 < len(lines):
            out["threat_flag"] = lines[i + 1].strip().split(":")[0]
    return out if out["ministries"] else {}


@action("approve_display",
        # Rule 4E50: "A Player may, as a Game Action with 4 Support and no Objections within
        # 2 rdays, Approve a Public Display" (given in full in the message)
        # (whose display it is may be left to the display itself: "Approve the following
        # Public Display:" and a display headed "MINISTRIES")
        frame("approve|ratify|accept", "ministry:ministry[of]?", "at:text[at|on|from]?",   # "... display at <URL>"
              # "the Chairman's report of nweek 7 as it stands", "the Oracle's display as follows:"
              "nweek:text[of nweek|for nweek]?",
              also="display displays public following the this report as follows below stands it",
              needs="display|report"),
        rule="4E50", example="I approve the Registrar's display", says="approve the display of {ministry}",
        not_actions=("I approved the Registrar's display", "Wooble approves the Registrar's display",
                     "Should I approve the Registrar's display?", "I approve of the Chairman's report"),
        supporters="displays.approval_supporters", objections=1, waiting="2 rdays", takes_document=True)
def approve(ctx: Context, actor: Player, ministry: str | None = None, at: str | None = None,
            nweek: str | None = None) -> None:
    """Rule 4E50: with 4 Support and no Objections within 2 rdays, a Player may
    Approve a Public Display given in full: the gamestate becomes what it would
    be had the display been accurate when the approval was attempted, and every
    later change is simulated again on top of it. (A display named by where it
    is, `at` a web page, is not given in full: refused below. The `nweek` said, "the report of
    nweek 7", is said but not needed: the display given says what it shows.)"""
    intent = ctx.intent
    document = intent.args.get("document", "") if intent else ""
    ministry = ministry or (intent.args.get("ministry") if intent else None) or shown_in(ctx, document)
    if ministry is None:
        raise Rejected("whose Public Display is approved is not said, and the display given does not "
                       "say it (\"the Registrar's display\", or a display headed PLAYERS)", rule="4E50")
    name = which(ctx, ministry)
    if name not in ("Society", "Ministry"):
        raise Rejected("bnomic can apply an approved display of the Registrar or the MetaMin; "
                       f"the {ministries.title(ctx.config, name)}'s shows no state bnomic keeps yet",
                       rule="4E50")
    values = (registrar_values(document) if name == "Society"
              else metamin_values(document, ministries.ministry_names(ctx.config)))
    if not values:
        raise Rejected("the display must be given in full with the intent to approve it, in "
                       "bnomic's layout of that display", rule="4E50")
    if Approval.get_or_none(Approval.entry == ctx.entry) is None:
        raise RetroactiveChange(intent.entry, values, f"{actor.name}'s approval of intent #{intent.id}")
    ctx.record("approved", f"{actor.name} approves the {ministries.title(ctx.config, name)}'s "
               f"display as it was given with "
               f"intent #{intent.id}; the game was simulated again from then", rule="4E50",
               ministry=name, intent=intent.id)


__all__ = ["gather", "which", "WHAT", "Game"]
