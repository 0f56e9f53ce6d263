"""The game as it stood right after each log entry: its Public Displays and
each player's points and mackerel (issue 17: "a message page links to the
state as of that message", and the players' charts).

Captures are kept in the site's cache folder, from build to build, since the
log only grows: the daemon captures the live state right after applying each
entry (`capture`); `bnomic site` fills what is missing with one replay of the
log into a scratch game (`runner.replay_into`, the machinery of `bnomic show
--as-of`), capturing after each entry as it goes.

A capture is taken only when something a display shows may have changed (a new
event, vote, stance or intent, or the Clock); otherwise the entry shares the
previous one's. Each distinct set of displays is stored once, by its digest.
The cache belongs to one history of the game: when the log's past was
replayed differently since (an approval's retroactive change, `bnomic
reread`), its token no longer matches and it is started again.
"""
from __future__ import annotations

import json
import re
from contextlib import contextmanager
from pathlib import Path

from peewee import SqliteDatabase, fn

from ..handlers import displays, ministries
from ..handlers.context import Context, game_config
from ..store import (
    Approval, Command, Entry, Event, Game, Intent, Parked, Player, Setup, Stance, Vote, database, intake,
)
from .tree import digest

# an address: a run of characters that starts where such a run starts (so a
# scan tries each run once: linear), "@", a domain
ADDRESS = re.compile(r"(?<![^\s<>()\[\]@,;:\"'])[^\s<>()\[\]@,;:\"']++@[A-Za-z0-9.-]++")
HIDDEN = "(address hidden)"
FORMAT = 2          # of the cache: a cache of another format is started again


def scrub(text: str, show_addresses: bool) -> str:
    """Mail addresses out of text for the web, unless the operator shows them."""
    return text if show_addresses else ADDRESS.sub(HIDDEN, text)


@contextmanager
def reading():
    """Read the state in a transaction that is always rolled back, so that
    gathering a display can never change the game."""
    with database.atomic() as tx:
        try:
            yield
        finally:
            tx.rollback()


def render_displays(show_addresses: bool) -> dict[str, str]:
    """Every Ministry's Public Display as the templates render it (Rule 4E50),
    without its "As of" line (the page says when)."""
    from ..mailer.publish import display_text
    cfg = game_config()
    out = {}
    with reading():
        ctx = Context(Game.get().now, "command")
        for name in ministries.ministry_names(cfg):
            text = display_text(ctx, name)
            text = "\n".join(line for line in text.splitlines() if not line.startswith("As of "))
            out[name] = scrub(text, show_addresses)
    return out


def _moment() -> tuple:
    """What, if unchanged, means no display can have changed."""
    def top(model, field):
        return model.select(fn.MAX(field)).scalar() or 0
    g = Game.get()
    return (top(Event, Event.seq), top(Vote, Vote.id), top(Stance, Stance.id), top(Intent, Intent.id),
            g.nweek, g.nday, g.clock_on, g.ndelay, g.time_stopped)


def token() -> str:
    """The history the captures belong to (see the module's note)."""
    s = Setup.get()
    return digest({"seed": s.seed, "start": s.start_at, "ruleset": s.ruleset,
                   "approvals": [(a.entry, a.anchor, a.values) for a in Approval.select().order_by(Approval.entry)],
                   "rereads": [c.entry_id for c in Command.select().where(Command.verb == "reread")],
                   "parked": [(p.entry, p.state, p.retried_by) for p in Parked.select().order_by(Parked.entry)]})


class Captures:
    """The cache: entry seq -> displays digest; digest -> displays; per-player series."""

    def __init__(self, folder: Path, show_addresses: bool):
        self.folder = folder / "asof"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.index_path = self.folder / "index.json"
        self.journal_path = self.folder / "journal.jsonl"
        self.show_addresses = show_addresses
        self.data = {"token": None, "show_addresses": show_addresses, "entries": {},
                     "series": {}, "last": None}
        if self.index_path.exists():
            self.data = json.loads(self.index_path.read_text("utf-8"))
        self._pending: list[dict] = []      # captures not yet in the journal
        if self.journal_path.exists():
            self._replay_journal()
        self._moment = self._sampled = None
        self._key = None

    def _replay_journal(self) -> None:
        """The captures the daemon appended since the index was last written
        (a line each; a torn last line, from a crash, is dropped)."""
        for line in self.journal_path.read_text("utf-8").split("\n")[:-1]:
            try:
                item = json.loads(line)
            except ValueError:
                break
            self._apply(item)

    def _apply(self, item: dict) -> None:
        for pid, row in item["s"]:
            self.data["series"].setdefault(pid, []).append(row)
        if item["k"] is not None:
            self.data["entries"][str(item["e"])] = item["k"]
            self.data["last"] = item["e"]

    def signature(self) -> tuple:
        """What the cache's files are now: another writer changed them if this differs."""
        def stat(path):
            try:
                st = path.stat()
            except FileNotFoundError:
                return None
            return (st.st_ino, st.st_size, st.st_mtime_ns)
        return stat(self.index_path), stat(self.journal_path)

    def check(self, current_token: str) -> None:
        if (self.data["token"] != current_token or self.data.get("format") != FORMAT
                or self.data.get("show_addresses") != self.show_addresses):
            for f in [*self.folder.glob("*.json"), *self.folder.glob("d-*.txt"), *self.folder.glob("*.jsonl")]:
                f.unlink()
            self._pending = []
            self._moment = self._sampled = self._key = None
            self.data = {"token": current_token, "format": FORMAT,
                         "show_addresses": self.show_addresses, "entries": {}, "series": {}, "last": None}

    def save(self) -> None:
        """Write the whole index (a build); the journal is in it now."""
        tmp = self.index_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.data, separators=(",", ":")), "utf-8")
        tmp.replace(self.index_path)
        self.journal_path.unlink(missing_ok=True)
        self._pending = []

    def append(self) -> None:
        """Add the captures made since the last save or append to the journal
        (the daemon, after each entry: a line each, not the whole index again)."""
        if not self.index_path.exists():
            self.save()                 # the first capture of a history: the index says whose
            return
        if not self._pending:
            return
        with open(self.journal_path, "a", encoding="utf-8") as f:
            f.write("".join(json.dumps(item, separators=(",", ":")) + "\n" for item in self._pending))
        self._pending = []

    def has(self, seq: int) -> bool:
        return str(seq) in self.data["entries"]

    def versions(self, key: str) -> dict[str, str]:
        """A state's displays: Ministry -> the version (digest) of its text."""
        return json.loads((self.folder / f"{key}.json").read_text("utf-8"))

    def text(self, version: str) -> str:
        return (self.folder / f"d-{version}.txt").read_text("utf-8")

    def capture(self, seq: int, at, shown: bool = True) -> None:
        """The state now is the state right after entry `seq` (at `at`): sample
        the players; with `shown`, keep its displays for the entry's page."""
        moment = _moment()
        sampled = []
        if moment != self._sampled:
            sampled = self._sample(seq, at)
            self._sampled = moment
        if not shown:
            if sampled:
                self._pending.append({"e": seq, "k": None, "s": sampled})
            return
        if moment != self._moment or self._key is None:
            versions = {}
            for name, text in render_displays(self.show_addresses).items():
                version = digest(text)[:24]         # each display's text is kept once
                path = self.folder / f"d-{version}.txt"
                if not path.exists():
                    path.write_text(text, "utf-8")
                versions[name] = version
            key = digest(versions)[:24]
            path = self.folder / f"{key}.json"
            if not path.exists():
                path.write_text(json.dumps(versions), "utf-8")
            self._key, self._moment = key, moment
        self.data["entries"][str(seq)] = self._key
        self.data["last"] = seq
        self._pending.append({"e": seq, "k": self._key, "s": sampled})

    def _sample(self, seq: int, at) -> list:
        """Each player's points and mackerel, where they changed (the charts).
        Returns the rows added, as [player id, row]."""
        series, added = self.data["series"], []
        for pid, points, mackerel, is_player in (
                Player.select(Player.id, Player.points, Player.mackerel, Player.is_player).tuples()):
            rows = series.setdefault(str(pid), [])
            if not rows or rows[-1][2:4] != [points, mackerel] or rows[-1][4] != is_player:
                row = [seq, at.isoformat(), points, mackerel, is_player]
                rows.append(row)
                added.append([str(pid), row])
        return added


def fill(captures: Captures, seqs: list[int]) -> int:
    """Capture the entries `seqs` (missing from the cache) by one replay of the
    log up to the last of them into a scratch game. Returns how many were captured.
    Only in a process with no other thread using the database (the command line)."""
    import tempfile
    from ..mailer import runner
    if not seqs:
        return 0
    wanted = set(seqs)
    real = database.obj
    done = 0
    last = max(seqs)
    later = {pid: [r for r in rows if r[0] > last] for pid, rows in captures.data["series"].items()}
    with tempfile.TemporaryDirectory(prefix="bnomic-site-") as scratch:
        captures._moment = captures._sampled = captures._key = None
        captures.data["series"] = {}          # sampled again from the start

        def each():
            nonlocal done
            entry = Entry.select().where(Entry.processed == True).order_by(Entry.seq.desc()).first()  # noqa: E712
            if entry is not None:
                captures.capture(entry.seq, entry.at, shown=entry.seq in wanted)
                done += entry.seq in wanted
        try:
            runner.replay_into(str(Path(scratch) / "replay.sqlite"), last, Entry.get_by_id(last).at,
                               each=each)
        finally:
            copy = database.obj
            database.initialize(real)
            intake.use(real.database if isinstance(real, SqliteDatabase)
                       and real.database != ":memory:" else None)
            if copy is not real and copy is not None:
                copy.close()
    for pid, rows in later.items():
        captures.data["series"].setdefault(pid, []).extend(rows)
    captures._moment = captures._sampled = captures._key = None
    return done
