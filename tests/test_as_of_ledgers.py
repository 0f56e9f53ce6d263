"""`--as-of` reads the ledgers up to its snapshot from the real game instead of
copying them, and writes the big state tables no table refers to (the Vote
table) only when a statement uses them (issue 16: store/ledgers.py), so its
cost does not follow the game's length. Every view must show what a whole copy
shows; a ledger row after the point must never show; a view that reads no
ledger (players) reads none of the game's; a rollback that undid what was
written in is seen; a cascade reaches the rows of a table not yet written; and
the scratch game takes no lock on the real one."""
from __future__ import annotations

import json
import sqlite3

import pytest

from bnomic.mailer import cli as cli_module, runner
from bnomic.store import (
    Entry, Event, Outcome, Player, Proposal, Vote, close_database, database, ledgers, open_database, snapshots,
    write_transaction,
)

from conftest import Game
from test_voting import mail, submit

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
    real = ledgers.Guard._fill

    def past_the_point(self, conn):
        self.tops = {t: (k, 10 ** 9) for t, (k, _) in self.tops.items()}
        return real(self, conn)
    monkeypatch.setattr(ledgers.Guard, "_fill", past_the_point)
    leaked = json.loads(game.cli("show", "events", "--json", "--as-of", "<middle@x>"))
    assert [e for e in leaked if "m7" in e["summary"]]


def _scratch(game: Game, point: str, check: bool = True) -> ledgers.Guard:
    """The scratch game as of the entry of Message-ID `point`, left open; its guard."""
    open_database(game.db)
    from bnomic.store import Message
    seq = Message.get(Message.message_id == point).entry_id
    path = game.tmp / "scratch.sqlite"
    if path.exists():
        path.unlink()
    runner.replay_into(str(path), seq, Entry.get_by_id(seq).at)
    guard = database.obj.statement_guard
    if check:
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


def vote_game(game: Game) -> list[str]:
    """An nweek of proposals and votes, its tally, and mail after it; Message-IDs to stand at."""
    for i, n in enumerate(PLAYERS):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    game.post(mail("Carol"), "I assign the Ministry of Change to myself.", "2008-09-01T07:00:00Z")
    for n in PLAYERS:
        game.admin("set", n, "vested", "true")
    submit(game, "Alice", "Quantities", "Amend Rule 4E30 to read: {{ There are no Quantities. }}",
           "2008-09-01T08:00:00Z")
    submit(game, "Bob", "Quiet", "Repeal Rule 4E60", "2008-09-01T08:01:00Z")
    submit(game, "Dave", "Winner", "Set the mackerel of Dave to m500", "2008-09-01T08:02:00Z")
    game.admin("clock", "on")
    game.tick("2008-09-09T00:00:00Z")
    points = []
    for i, (n, votes) in enumerate([("Alice", "FOR on 1, 2, 3"), ("Bob", "AGAINST on 1. FOR on 2, 3"),
                                    ("Carol", "FOR on 1, 2. AGAINST on 3"), ("Dave", "FOR on 3"),
                                    ("Erin", "ABSTAIN on 1. FOR on 2"), ("Bob", "FOR on 1")]):
        game.post(mail(n), f"I vote {votes}.", f"2008-09-10T1{i}:00:00Z", msgid=f"<vote{i}@x>")
        points.append(f"<vote{i}@x>")
    game.next_nweek()
    game.post(mail("Alice"), "I give m2 to Bob.", "2008-09-16T10:00:00Z", msgid="<later1@x>")
    game.post(mail("Erin"), "I give m1 to Carol.", "2008-09-16T11:00:00Z", msgid="<later2@x>")
    game.post(mail("Bob"), "I give m1 to Dave.", "2008-09-16T12:00:00Z", msgid="<later3@x>")
    return points + ["<later1@x>", "<later2@x>", "<later3@x>", "2008-09-15T00:30:00Z"]


@pytest.mark.parametrize("defer_parts", [1, 2])
def test_every_view_as_of_a_voting_game(game, often, guards, monkeypatch, defer_parts):
    """With every table no table refers to left unwritten (1: the tests' games are small),
    or only the big ones (2, the engine's), every view is what writing everything first gives."""
    monkeypatch.setattr(snapshots, "DEFER_PARTS", defer_parts)
    points = vote_game(game)
    written, deferred = {}, set()
    for point in points:
        for kind in kinds():
            guards.clear()
            held = shown(game, kind, point)
            assert guards, f"{kind} as of {point}: not from a snapshot"
            for table, n in guards[-1].written.items():
                written[table] = written.get(table, 0) + n
            for table in guards[-1].deferred:
                deferred.add(table)
            monkeypatch.setattr(runner, "HOLD_LEDGERS", False)
            whole = shown(game, kind, point)
            monkeypatch.setattr(runner, "HOLD_LEDGERS", True)
            assert held == whole, f"show {' '.join(kind)} --as-of {point}"
    if defer_parts == 1:
        assert {"vote", "game", "rule"} <= deferred and written.get("vote") and written.get("game"), written


def test_a_cascade_reaches_a_table_not_yet_written(game, often, monkeypatch):
    monkeypatch.setattr(snapshots, "DEFER_PARTS", 1)
    vote_game(game)
    counts = {}
    for hold in (True, False):
        monkeypatch.setattr(runner, "HOLD_LEDGERS", hold)
        _scratch(game, "<later1@x>", check=False)
        try:
            guard = database.obj.statement_guard
            assert (guard is not None and "vote" in guard.pending) == hold
            bob = Player.get(Player.name == "Bob").id
            with write_transaction():
                Player.delete().where(Player.id == bob).execute()      # its votes go with it
            counts[hold] = (Vote.select().count(), Vote.select().where(Vote.voter == bob).count(),
                            Proposal.select().count())
        finally:
            close_database()
    assert counts[True] == counts[False] and counts[True][0] > 0 and counts[True][1] == 0


def test_history_rewritten_under_an_as_of_is_an_error_not_a_wrong_answer(game, often):
    """An approval or a rebuild of the real game between the copy and a statement that
    needs the ledgers drops the snapshot the state came from: that statement, and every
    one after it (a handler may have refused the action it failed in), fails."""
    play(game)
    guard = _scratch(game, "<middle@x>")
    try:
        other = sqlite3.connect(game.db, timeout=5)
        other.execute("DELETE FROM snapshot WHERE seq = ?", (guard.snapshot[0],))
        other.commit()
        other.close()
        with pytest.raises(ledgers.ChangedUnderUs):
            Event.select().count()
        with pytest.raises(ledgers.ChangedUnderUs):
            Player.select().count()
    finally:
        close_database()


def test_a_table_written_in_and_undone_by_a_rollback_is_written_again(game, often, monkeypatch):
    monkeypatch.setattr(snapshots, "DEFER_PARTS", 1)
    vote_game(game)
    guard = _scratch(game, "<later1@x>")
    try:
        assert "vote" in guard.pending

        class Undo(Exception):
            pass
        with database.atomic():
            try:
                with database.atomic():
                    votes = Vote.select().count()
                    assert votes > 0 and guard.written["vote"] == 1
                    raise Undo
            except Undo:
                pass
            assert Vote.select().count() == votes and guard.written["vote"] == 2
        assert Vote.select().count() == votes and guard.written["vote"] == 2
    finally:
        close_database()
