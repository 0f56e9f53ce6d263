"""What each page of the site shows, gathered from the state (issue 17).

Plain data (dicts of strings and numbers): a page's digest is taken of it, so
a page is rendered again only when what it shows changed. The command line's
views (`bnomic show rules|proposals|ministries|schedule --json`) and the
handlers' are used as they are; this module only adds what the web shows
beside them (histories, votes, links).
"""
from __future__ import annotations

import difflib
import re

from ..handlers import clock, emergency, rules as rule_area
from ..handlers.context import Context, game_config
from ..handlers.views import Request
from ..store import Corporation, Event, Game, Ministry, Player, Proposal, Rule, Setup, Vote
from .asof import reading, scrub
from .messages import nweek_at, nweek_of_event

SOURCE = re.compile(r"\b(Proposal|Tweak|Tidiness List|Oracularity|Consultation)\s++(\d++)")


def source_link(source: str) -> dict:
    """'Proposal 12' -> where the web says more about it."""
    m = SOURCE.search(source or "")
    if m and m.group(1) == "Proposal":
        return {"text": source, "href": f"proposals/{m.group(2)}.html"}
    return {"text": source, "href": None}


def rule_events() -> dict[int, list[Event]]:
    by_rule: dict[int, list[Event]] = {}
    for e in Event.select().where(Event.kind == "rule").order_by(Event.seq):
        by_rule.setdefault(e.data.get("number"), []).append(e)
    return by_rule


def _diff(before: str, after: str) -> list[dict]:
    """A line diff, each line marked: ' ' kept, '-' removed, '+' added."""
    out = []
    for line in difflib.ndiff((before or "").splitlines(), (after or "").splitlines()):
        if line[:1] in (" ", "-", "+"):
            out.append({"mark": line[:1], "text": line[2:]})
    return out


def history(events: list[Event], timeline, entry_pages: set[int]) -> list[dict]:
    """A Rule's history: each change, by what, under which rule, in which nweek, with the diff."""
    out = []
    for e in events:
        d = e.data
        change = {"at": e.at, "nweek": nweek_of_event(timeline, e.seq), "what": d.get("what", ""),
                  "source": source_link(d.get("source", "")), "under": d.get("under"),
                  "rule": e.rule, "summary": e.summary,
                  "message": e.entry if e.entry in entry_pages else None, "diff": []}
        if "before" in d and "after" in d:
            change["diff"] = _diff(str(d["before"]), str(d["after"]))
        elif "old" in d and "new" in d:
            change["diff"] = _diff(str(d["old"]), str(d["new"]))
        elif d.get("what") == "created":
            change["diff"] = _diff("", d.get("text", ""))
        out.append(change)
    return out


def ruleset(timeline, entry_pages: set[int]) -> dict:
    """Every Rule, current and repealed, with its history; current ones by section."""
    events = rule_events()
    rows = []
    for r in Rule.select().order_by(Rule.number):
        rows.append({"number": rule_area.label(r.number), "n": r.number, "title": r.title,
                     "power": f"{r.power_num}/{r.power_den}" if r.power_den != 1 else str(r.power_num),
                     "text": r.text, "section": r.section or "Rules", "repealed": r.repealed,
                     "history": history(events.get(r.number, []), timeline, entry_pages)})
    sections: list[dict] = []
    for r in rows:
        if r["repealed"]:
            continue
        if not sections or sections[-1]["name"] != r["section"]:
            found = [s for s in sections if s["name"] == r["section"]]
            if found:
                found[0]["rules"].append(r)
                continue
            sections.append({"name": r["section"], "rules": []})
        sections[-1]["rules"].append(r)
    return {"rules": rows, "sections": sections, "repealed": [r for r in rows if r["repealed"]]}


def proposals(timeline, entry_pages: set[int], names: dict[int, str]) -> list[dict]:
    from ..mailer.views import context, proposals_view
    shown = proposals_view(context(), Request())     # the same proposals, in the same order
    rule_changes: dict[str, list[Event]] = {}
    for e in Event.select().where(Event.kind == "rule").order_by(Event.seq):
        rule_changes.setdefault(e.data.get("source", ""), []).append(e)
    passes = {e.data.get("proposal"): e for e in Event.select().where(Event.kind == "pass")}
    votes: dict[int, list] = {}
    for v in Vote.select().order_by(Vote.id):
        votes.setdefault(v.proposal_id, []).append(
            {"voter": names.get(v.voter_id, "?"), "voter_id": v.voter_id, "vote": v.vote, "nweek": v.nweek,
             "at": v.at, "message": v.entry if v.entry in entry_pages else None})
    out = []
    rows = Proposal.select().order_by(Proposal.number.is_null(), Proposal.number, Proposal.id)
    for p, view in zip(rows, shown):
        view = dict(view)
        slug = str(p.number) if p.number is not None else f"p{p.id}"
        passed = passes.get(p.id)
        changed = [{"summary": e.summary, "rule": rule_area.label(e.data["number"]),
                    "href": f"rules/{rule_area.label(e.data['number'])}.html"}
                   for e in rule_changes.get(f"Proposal {p.number}", [])] if p.number else []
        view.update(slug=slug, id=p.id, author_id=p.author_id, submitted_at=p.submitted_at,
                    submitted_nweek=nweek_at(timeline, p.submitted_at),
                    message=p.entry if p.entry in entry_pages else None,
                    all_votes=votes.get(p.id, []), rule_changes=changed,
                    applied=(passed.data.get("applied", []) if passed else []),
                    unapplied=(passed.data.get("unapplied", []) if passed else []))
        out.append(view)
    return out


def players(series: dict) -> list[dict]:
    """Every Player (and former one): attributes now, the Ministries held."""
    held = {}
    for m in Ministry.select().where(Ministry.holder.is_null(False)):
        held.setdefault(m.holder_id, []).append(m.name)
    out = []
    corporate = {c.entity_id for c in Corporation.select(Corporation.entity)}   # Rule 4E81: not Players
    for p in Player.select().order_by(Player.id):
        if p.id in corporate:
            continue
        out.append({"id": p.id, "name": p.name, "is_player": p.is_player, "beast": p.is_beast,
                    "points": p.points, "mackerel": p.mackerel, "active": p.active,
                    "vested": p.vested, "joined_nweek": p.joined_nweek, "left_nweek": p.left_nweek,
                    "mental_state": p.mental_state, "ministries": held.get(p.id, []),
                    "series": series.get(str(p.id), [])})
    return out


def ministry_history(names: dict[int, str]) -> dict[str, list[dict]]:
    """Who held which Ministry, from the events that say so (by player name)."""
    out: dict[str, list[dict]] = {}
    for e in Event.select().where(Event.kind.in_(["ministry", "minister", "usurp", "resign"])).order_by(Event.seq):
        who = e.data.get("player") or e.data.get("holder")
        if who:
            out.setdefault(who, []).append({"at": e.at, "summary": e.summary, "rule": e.rule})
    return out


def clock_page() -> dict:
    cfg = game_config()
    game = Game.get()
    view = clock.state(game, cfg)
    days = [{"nday": n, "name": clock.nday_name(cfg, n), "holiday": clock.holiday(cfg, game.nweek, n),
             "voting": n >= cfg["clock.voting_starts_nday"], "today": n == game.nday}
            for n in range(1, cfg["clock.ndays_per_nweek"] + 1)]
    with reading():
        em = emergency.emergency_view(Context(game.now, "command"), Request())
    return {"clock": view, "describe": clock.describe(game, cfg), "days": days,
            "holidays": cfg.get("calendar.holidays", []), "emergency": em,
            "start": Setup.get().start_at}


def ministries_page(show_addresses: bool) -> dict:
    from ..mailer.views import context, ministries_view, schedule_view
    from .asof import render_displays
    cfg = game_config()
    schedule = [{k: (scrub(v, show_addresses) if isinstance(v, str) else v) for k, v in item.items()}
                for item in schedule_view(context(), Request())]
    return {"ministries": ministries_view(context(), Request()), "displays": render_displays(show_addresses),
            "schedule": schedule}


def feed_events(limit: int = 200) -> list[dict]:
    """The newest events, for the events feed (an Atom entry each)."""
    rows = list(Event.select().order_by(Event.seq.desc()).limit(limit))
    return [{"seq": e.seq, "at": e.at, "kind": e.kind, "rule": e.rule, "summary": e.summary}
            for e in rows]


def feed_results(limit: int = 50) -> list[dict]:
    """Published results and Ballots (Rule 4E15), as the list received them."""
    from ..mailer import publish
    out = []
    for e in (Event.select().where(Event.kind.in_(["results", "ballot"])).order_by(Event.seq.desc())
              .limit(limit)):
        if not e.data.get("mail", True):
            continue
        try:
            subject, body = publish.published_mail(e)
        except Exception:       # a result whose tally is missing: its summary only
            subject, body = e.summary, e.summary
        out.append({"seq": e.seq, "at": e.at, "kind": e.kind, "subject": subject, "body": body})
    return out
