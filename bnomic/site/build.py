"""`bnomic site OUTDIR`: the whole site from the state, written as a new tree
and swapped in (tree.py); pages whose data did not change are not rendered.
"""
from __future__ import annotations

import fcntl
import hashlib
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined

from ..handlers import clock
from ..handlers.context import game_config
from ..store import Entry, Game, Player, Setup, Vote
from . import asof, chart, messages, views
from .tree import Busy, Tree

DEFAULT_TITLE = "B Nomic"

_env = Environment(loader=PackageLoader("bnomic", "templates/site"), autoescape=True,
                   undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                   keep_trailing_newline=True, auto_reload=False)


def _templates_digest() -> str:
    """Pages are made again when bnomic's templates (or this version) change."""
    from .. import __version__
    h = hashlib.sha256(__version__.encode())
    folder = resources.files("bnomic") / "templates" / "site"
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        h.update(item.name.encode() + b"\0" + item.read_bytes())
    return h.hexdigest()


@contextmanager
def locked(tree_base: Path, wait: bool = True):
    """One writer of a site at a time (the daemon and `bnomic site` may both
    write it). The daemon does not wait (`wait=False` raises Busy): its engine
    must not stand still while `bnomic site` replays a long log."""
    tree_base.mkdir(parents=True, exist_ok=True)
    with open(tree_base / ".lock", "w") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise Busy(f"{tree_base} is being written by another process") from None
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def base_of(outdir) -> Path:
    link = Path(outdir).absolute()
    return link.parent / f".{link.name}.site"


def capture(outdir, seq: int, at, show_addresses: bool = False) -> None:
    """The daemon, right after applying entry `seq`: keep the state as of it
    (Busy if `bnomic site` is writing the site: the next one captures it)."""
    base = base_of(outdir)
    with locked(base, wait=False):
        kept = _live.get(base)
        if kept is not None and kept[0].show_addresses == show_addresses and kept[0].signature() == kept[1]:
            captures = kept[0]          # nobody else wrote the cache since: no need to read it again
        else:
            captures = asof.Captures(base / "cache", show_addresses)
        captures.check(asof.token())
        if captures.data["last"] is None or captures.data["last"] < seq:
            captures.capture(seq, at)
            captures.append()           # a line of the journal, not the whole index again
            messages.read_one(base / "cache", seq)      # what the archive shows of it, read once
        _live[base] = (captures, captures.signature())


# the daemon's captures, kept between entries (with the cache files' signature
# when it left them: a `bnomic site` in between makes it read them again)
_live: dict[Path, tuple] = {}


def build(outdir, show_addresses: bool = False, title: str | None = None,
          fill: bool = True, progress=None, wait: bool = True, workers: int = 1) -> dict:
    """Write the site into OUTDIR (a link to the newest tree). `fill`: capture
    the state as of messages not captured yet by a replay (the command line;
    the daemon captures as it goes). `progress` is called every 100 pages.
    `workers`: processes drawing the charts (the command line: one a core).
    Returns counts for the operator."""
    with locked(base_of(outdir), wait):
        tree = Tree(outdir, progress)
        try:
            stats = _build(tree, show_addresses, title or DEFAULT_TITLE, fill, workers)
        except BaseException:
            tree.abandon()
            raise
        tree.commit()
    stats.update(written=len(tree.written), unchanged=tree.linked, path=str(tree.link),
                 written_pages=sorted(tree.written)[:500],
                 generation=tree.generation)
    return stats


def _build(tree: Tree, show_addresses: bool, site_title: str, fill: bool, workers: int = 1) -> dict:
    salt = _templates_digest()
    cfg = game_config()
    game = Game.get()
    clock_line = clock.describe(game, cfg)
    common = {"site_title": site_title}

    def page(path: str, template: str, data: dict, **extra):
        root = "../" * path.count("/")
        tree.page(path, {"salt": salt, "title": site_title, "data": data},
                  lambda: _env.get_template(template).render(root=root, **common, **data, **extra))

    # ---- the captures: the state as of each published message
    archive = messages.archive(tree.cache, show_addresses)
    captures = asof.Captures(tree.cache, show_addresses)
    captures.check(asof.token())
    missing = [m["seq"] for m in archive if not captures.has(m["seq"])]
    last = Entry.select().where(Entry.processed == True).order_by(Entry.seq.desc()).first()  # noqa: E712
    if missing == [getattr(last, "seq", None)] and game.now == last.at:
        # only the newest entry, and nothing happened since: the state now is the state as of it
        captures.capture(last.seq, last.at)
        missing, filled = [], 1
    else:
        filled = asof.fill(captures, missing) if fill and missing else 0
    captures.save()
    entry_pages = {m["seq"] for m in archive}
    timeline = messages.nweek_timeline()
    names = {pid: name for pid, name in Player.select(Player.id, Player.name).tuples()}
    player_of = {name: pid for pid, name in names.items()}

    # ---- ruleset
    rs = views.ruleset(timeline, entry_pages)
    page("rules/index.html", "rules.html", {"sections": rs["sections"]})
    page("rules/repealed.html", "repealed.html", {"repealed": rs["repealed"]})
    for r in rs["rules"]:
        page(f"rules/{r['number']}.html", "rule.html", {"r": r})

    # ---- proposals
    props = views.proposals(timeline, entry_pages, names)
    page("proposals/index.html", "proposals.html", {"proposals": props})
    for p in props:
        page(f"proposals/{p['slug']}.html", "proposal.html", {"p": p})

    # ---- players
    people = views.players(captures.data["series"])
    ministries_data = views.ministries_page(show_addresses)
    page("players/index.html", "players.html",
         {"players": people, "registrar": ministries_data["displays"].get("Society", "")})
    held = views.ministry_history(names)
    votes_of: dict[int, list] = {}
    slug_of = {p["id"]: p["slug"] for p in props}
    label_of = {p["id"]: (str(p["number"]) if p["number"] is not None else "(unnumbered)")
                + (f": {p['title']}" if p["title"] else "") for p in props}
    for v in Vote.select().order_by(Vote.id):
        votes_of.setdefault(v.voter_id, []).append(
            {"slug": slug_of.get(v.proposal_id), "label": label_of.get(v.proposal_id), "vote": v.vote,
             "nweek": v.nweek, "message": v.entry if v.entry in entry_pages else None})
    # the charts run to the start of the game's day, so one message redraws
    # only the charts of the players it changed
    until = game.now.replace(hour=0, minute=0, second=0, microsecond=0)
    charts = []
    for person in people:
        authored = [{"slug": q["slug"], "number": q["number"], "title": q["title"],
                     "status": q["status"], "success": q["success"]}
                    for q in props if q["author_id"] == person["id"]]
        page(f"players/{person['id']}.html", "player.html",
             {"p": {k: v for k, v in person.items() if k != "series"}, "authored": authored,
              "votes": votes_of.get(person["id"], []), "ministry_events": held.get(person["name"], [])})
        series = person["series"]
        now = (person["points"], person["mackerel"])
        path = f"players/{person['id']}.svg"
        if tree.needs(path, {"salt": salt, "series": series, "name": person["name"], "until": until, "now": now}):
            charts.append((path, (person["name"], series, until, now)))
    # drawing is most of a full build's time: by `workers` processes
    for (path, _), body in zip(charts, chart.svgs([job for _, job in charts], workers)):
        tree.write(path, body)

    # ---- ministries, clock, home
    page("ministries.html", "ministries.html", ministries_data)
    clock_data = views.clock_page()
    page("clock.html", "clock.html", {"c": clock_data})
    counts = {"rules": sum(len(s["rules"]) for s in rs["sections"]), "repealed": len(rs["repealed"]),
              "proposals": len(props), "players": sum(1 for p in people if p["is_player"]),
              "messages": len(archive)}
    page("index.html", "index.html", {"counts": counts, "emergency": clock_data["emergency"],
                                      "clock": clock_line})

    # ---- the archive
    threads: dict[int, list] = {}
    for m in archive:
        threads.setdefault(m["thread"], []).append(m)
    weeks: dict[int, list] = {}
    brief = lambda m: {"seq": m["seq"], "subject": m["subject"], "from": m["from"], "at": m["at"],  # noqa: E731
                       "n": len(m["outcomes"]), "done": sum(1 for o in m["outcomes"] if o["accepted"])}
    for m in archive:
        weeks.setdefault(m["nweek"], []).append(brief(m))
    page("archive/index.html", "archive.html",
         {"count": len(archive), "weeks": [{"nweek": w, "messages": ms} for w, ms in sorted(weeks.items())]})
    page("archive/threads.html", "threads.html",
         {"threads": [{"subject": ms[0]["subject"], "messages": [brief(m) for m in ms]}
                      for _, ms in sorted(threads.items(), key=lambda kv: kv[1][-1]["seq"], reverse=True)]})
    state_of: dict[str, list] = {}
    for m in archive:
        thread = threads[m["thread"]]
        i = next(k for k, x in enumerate(thread) if x["seq"] == m["seq"])
        key = captures.data["entries"].get(str(m["seq"]))
        if key:
            state_of.setdefault(key, []).append({"seq": m["seq"]})
        shown = dict(m, prev=thread[i - 1]["seq"] if i else None,
                     next=thread[i + 1]["seq"] if i + 1 < len(thread) else None,
                     state=key, player_id=player_of.get(m["player"]) if m["player"] else None)
        page(f"archive/{m['seq']}.html", "message.html", {"m": shown})
    written_versions = set()
    for key, which in state_of.items():
        versions = captures.versions(key)
        page(f"state/{key}.html", "state.html", {"key": key, "messages": which, "versions": versions})
        for name, version in versions.items():
            if (name, version) not in written_versions:
                written_versions.add((name, version))
                page(f"state/{name}-{version}.html", "state_display.html",
                     {"name": name, "version": version}, text=captures.text(version))

    # ---- feeds
    feed_id = "tag:bnomic," + Setup.get().start_at.strftime("%Y-%m-%d") + ":" + \
        hashlib.sha256(Setup.get().seed.encode()).hexdigest()[:16]
    events = [dict(e, title=asof.scrub(e["summary"], show_addresses)[:200],
                   text=asof.scrub(e["summary"], show_addresses) + (f" (Rule {e['rule']})" if e["rule"] else ""),
                   href="index.html") for e in views.feed_events()]
    results = [dict(r, title=r["subject"], text=asof.scrub(r["body"], show_addresses),
                    href="proposals/index.html") for r in views.feed_results()]
    for name, feed_title, entries in (("events.atom", "events", events), ("results.atom", "results", results)):
        updated = (entries[0]["at"] if entries else Setup.get().start_at).strftime("%Y-%m-%dT%H:%M:%SZ")
        page(name, "feed.atom", {"feed_title": feed_title, "feed_id": f"{feed_id}/{feed_title}",
                                 "updated": updated, "self_name": name, "entries": entries})
    tree.page("style.css", {"salt": salt}, lambda: (resources.files("bnomic") / "templates" / "site"
                                                    / "style.css").read_bytes())
    return {"messages": len(archive), "captured": filled, "rules": len(rs["rules"]),
            "proposals": len(props), "players": len(people), "states": len(state_of)}
