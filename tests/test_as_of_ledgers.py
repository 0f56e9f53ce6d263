"""`--as-of` reads the ledgers up to its snapshot from the real game instead of
copying them (issue 16: store/ledgers.py), so its cost does not follow the
game's length. Every view must show what a whole copy shows; a ledger row
after the point must never show; a view that reads no ledger (players) reads
none of the game's; and the scratch game takes no lock on the real one."""
from __future__ import annotations

import json
import sqlite3

import pytest

from bnomic.mailer import cli as cli_module, runner
from bnomic.store import (
    Entry, Event, Outcome, close_database, database, ledgers, open_database, write_transaction,
)

from conftest import Game

PLAYERS = ["Alice", "Bob", "Carol", "Dave", "Erin"]


@pytest.fixture
def often(monkeypatch):
    """A snapshot every 2 entries (the engine's own rule, closer together)."""
    monkeypatch.setattr(runner, "SNAPSHOT_EVERY", 2)


@pytest.fixture
def guards(monkeypatch):
    """The ledger guards the scratch games installed, in order."""
    made = []
    real = ledgers.Guard.install

    def install(self):
        made.append(self)
        return real(self)
    monkeypatch.setattr(ledgers.Guard, "install", install)
    return made


def play(game: Game) -> None:
    for i, name in enumerate(PLAYERS):
        game.join(name, f"2008-09-01T0{i + 1}:00:00Z")
    game.admin("clock", "on")
    game.post("alice@example.org", "I give m5 to Bob", "2008-09-02T10:00:00Z", msgid="<give1@x>")
    game.post("bob@example.org", "I become the Chairman", "2008-09-02T11:00:00Z")
    game.post("carol@example.org", "I give m3 to Dave. I give m1 to Erin.", "2008-09-03T10:00:00Z",
              msgid="<give2@x>")
    game.tick("2008-09-04T00:30:00Z")
    game.post("dave@example.org", "I give m2 to Alice. I frobnicate the Beast.", "2008-09-04T10:00:00Z",
              msgid="<give3@x>")
    game.post("erin@example.org", "I exchange 1 point for mackerel", "2008-09-04T11:00:00Z",
              msgid="<middle@x>")
    game.post("bob@example.org", "I give m1 to Carol", "2008-09-04T12:00:00Z")
    game.post("alice@example.org", "I give m7 to Dave", "2008-09-05T09:00:00Z", msgid="<after@x>")


def kinds() -> list[tuple[str, ...]]:
    return [(k, "Registrar") if k == "display" else (k,) for k in cli_module.SHOW_KINDS]


def shown(game: Game, kind: tuple[str, ...], point: str) -> tuple[int, str, str]:
    return game.run("show", *kind, "--json", "--as-of", point)


def test_every_view_as_of_is_what_a_whole_copy_shows(game, often, guards, monkeypatch):
    play(game)
    points = ["<give1@x>", "<give2@x>", "<give3@x>", "<middle@x>", "2008-09-04T00:45:00Z"]
    filled = {}
    for point in points:
        for kind in kinds():
            guards.clear()
            held = shown(game, kind, point)
            assert guards, f"{kind} as of {point}: not from a snapshot"
            filled[kind[0]] = filled.get(kind[0], 0) + guards[-1].fills
            monkeypatch.setattr(runner, "HOLD_LEDGERS", False)
            whole = shown(game, kind, point)
            monkeypatch.setattr(runner, "HOLD_LEDGERS", True)
            assert held == whole, f"show {' '.join(kind)} --as-of {point}"
            assert held[0] == 0 or kind[0] in ("ballot", "results"), held
    # the views that read no ledger read none of the game's: their cost is the replay's
    for kind in ("players", "clock", "proposals", "rules", "ministries", "display"):
        assert filled[kind] == 0, (kind, filled)
    # those that read one read all of it up to the point
    for kind in ("events", "log", "digest"):
        assert filled[kind] == len(points), (kind, filled)


def test_a_ledger_row_after_the_point_does_not_show(game, often, guards, monkeypatch):
    play(game)
    live = json.loads(game.cli("show", "events", "--json"))
    later = [e for e in live if "m7" in e["summary"]]
    assert later, live                  # the last mail's transfer, after the point
    events = json.loads(game.cli("show", "events", "--json", "--as-of", "<middle@x>"))
    assert guards and guards[-1].fills == 1
    assert not [e for e in events if "m7" in e["summary"]]
    assert max(e["seq"] for e in events) < min(e["seq"] for e in later)
    assert events == live[:len(events)]
    log = json.loads(game.cli("show", "log", "--json", "--as-of", "<middle@x>"))
    assert "<after@x>" not in json.dumps(log) and "m7" not in json.dumps(log)
    # (teeth) a guard that copied the game's ledgers past the snapshot would show it
    real = ledgers.Guard.fill

    def past_the_point(self):
        self.tops = {t: (k, 10 ** 9) for t, (k, _) in self.tops.items()}
        return real(self)
    monkeypatch.setattr(ledgers.Guard, "fill", past_the_point)
    leaked = json.loads(game.cli("show", "events", "--json", "--as-of", "<middle@x>"))
    assert [e for e in leaked if "m7" in e["summary"]]


def _scratch(game: Game, point: str) -> ledgers.Guard:
    """The scratch game as of the entry of Message-ID `point`, left open; its guard."""
    open_database(game.db)
    from bnomic.store import Message
    seq = Message.get(Message.message_id == point).entry_id
    runner.replay_into(str(game.tmp / "scratch.sqlite"), seq, Entry.get_by_id(seq).at)
    guard = database.obj.statement_guard
    assert guard is not None and not guard.filled
    return guard


def test_a_fill_undone_by_a_rollback_is_done_again(game, often):
    play(game)
    guard = _scratch(game, "<middle@x>")
    try:
        class Undo(Exception):
            pass
        with database.atomic():
            try:
                with database.atomic():         # a savepoint: a handler refusing, say
                    events, outcomes = Event.select().count(), Outcome.select().count()
                    assert guard.filled and guard.fills == 1
                    raise Undo
            except Undo:
                pass
            assert Event.select().count() == events and Outcome.select().count() == outcomes
            assert guard.fills == 2
        assert Event.select().count() == events and guard.fills == 2
    finally:
        close_database()


def test_the_scratch_game_does_not_lock_the_real_one(game, often):
    play(game)
    _scratch(game, "<middle@x>")
    try:
        with write_transaction():           # the scratch game's, the real one attached
            Event.select().count()
            other = sqlite3.connect(game.db, timeout=0.2, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")       # the daemon's engine need not wait
            other.execute("ROLLBACK")
            other.close()
    finally:
        close_database()
