"""`--as-of` copies, of the entries up to the snapshot it starts from, only those
the replay may look up (issue 16: runner._looked_up): the same UTC day's (Rule
4E7's actions counted per sender per day) and the mail a mail replies to (the
Oracle's "ZOT." in reply, Rule 4E18). The state it reaches must be the one of
copying every entry, and of a replay from nothing; and without those entries it
would not be (the tests have teeth)."""
from __future__ import annotations

import pytest

from bnomic.mailer import runner
from bnomic.store import Entry, Snapshot, close_database, open_database, state_digest

from conftest import Game, game_with_limits
from test_consultations import mail, setup


@pytest.fixture
def often(monkeypatch):
    monkeypatch.setattr(runner, "SNAPSHOT_EVERY", 2)


_game = game_with_limits


def _as_of(game: Game, seq: int, name: str, **kw) -> tuple[str, int]:
    """The state digest right after entry `seq` by --as-of's replay, and the log entries it copied."""
    open_database(game.db)
    try:
        at = Entry.get_by_id(seq).at
        runner.replay_into(str(game.tmp / f"{name}.sqlite"), seq, at, **kw)
        return state_digest(), Entry.select().count()
    finally:
        close_database()


def _from_snapshot_before_last(game: Game) -> int:
    """Keep only the snapshots before the last entry (derived data), so a replay to it
    applies it; the last entry's number."""
    open_database(game.db)
    try:
        last = Entry.select().order_by(Entry.seq.desc()).first().seq
        Snapshot.delete().where(Snapshot.seq >= last).execute()
        assert Snapshot.select().where(Snapshot.seq > 1).exists()
        return last
    finally:
        close_database()


def _compared(game: Game, point: int, monkeypatch) -> None:
    whole, every = _as_of(game, point, "whole", whole_log=True)
    light, copied = _as_of(game, point, "light")
    nothing, _ = _as_of(game, point, "nothing", from_snapshot=False)
    assert light == whole == nothing
    assert copied < every
    with monkeypatch.context() as m:       # without the entries looked up: another state
        m.setattr(runner, "_looked_up", lambda start, seq: "[]")
        assert _as_of(game, point, "blind")[0] != whole


def test_an_as_of_copies_the_mail_replied_to(game, often, monkeypatch):
    setup(game, ordain=("Bob", "Carol", "Dave", "Eve"))
    game.post(mail("Wooble"), "I take back the duty to draw Priests.", "2008-09-01T07:00:00Z")
    game.post(mail("Dave"), "I submit the following Consultation:\nQuestion: Is the Beast a Player?\n"
              "END CONSULTATION\n", "2008-09-02T10:00:00Z", msgid="<consult@x>")
    for i in range(3):
        game.post(mail("Bob"), "I give m1 to Carol.", f"2008-09-03T0{i + 1}:00:00Z")
    r = game.post(mail("Wooble"), "ZOT. The rules already say so.", "2008-09-04T11:00:00Z",
                  headers={"In-Reply-To": "<consult@x>"})
    assert "Done" in r, r
    last = _from_snapshot_before_last(game)
    _compared(game, last, monkeypatch)


def test_an_as_of_copies_the_days_entries(tmp_path, often, monkeypatch):
    game = _game(tmp_path, actions_per_sender_per_day=4)
    game.join("Alice", "2008-09-01T09:00:00Z")
    game.join("Bob", "2008-09-01T09:05:00Z")
    game.admin("clock", "on")
    for i in range(4):
        game.post("bob@example.org", "I give m1 to Alice.", f"2008-09-02T0{i + 1}:00:00Z")
    r = game.post("bob@example.org", "I give m1 to Alice.", "2008-09-02T06:00:00Z")
    assert "has done 4 actions this UTC day" in r, r
    last = _from_snapshot_before_last(game)
    _compared(game, last, monkeypatch)
