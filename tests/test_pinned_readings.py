"""Issue 13, item 7: readings are pinned for replay. Each mail is read once and
its readings kept beside the log (canonical JSON, with the reader's version);
`rebuild` replays them, so a new reader never rewrites history; `bnomic reread`
reads the log again on the record; `rebuild --check-readings` lists the mail
the current reader would read otherwise. Real SQLite files, the real CLI."""
from __future__ import annotations

import dataclasses
import json
import sqlite3
from datetime import datetime, timezone

import pytest

from bnomic.handlers import grammar, pinned
from bnomic.handlers.registry import action_named

from conftest import Game

# a word no reader of bnomic's understands; the "new reader" below reads it as "give"
NEW_WORD = "frobnicate"


@pytest.fixture
def new_reader(monkeypatch):
    """Change the reader: a newer one that also reads "I frobnicate X to Y" as
    giving. Only grammar.read's interface is used, so this holds whatever the
    reader is made of."""
    real = grammar.read

    def read(text, *args, **kwargs):
        return real(text.replace(f"I {NEW_WORD}", "I give"), *args, **kwargs)

    def switch():
        monkeypatch.setattr(grammar, "read", read)
    return switch


def played(tmp_path) -> tuple[Game, int]:
    """A game by mail: three players join, money moves, one mail the reader of
    today does not understand, a Transaction and a scheduled action. Returns the
    game and the seq of the not-understood mail."""
    game = Game(tmp_path)
    game.join("Alice", "2008-09-01T10:00:00Z")
    game.join("Bob", "2008-09-01T10:05:00Z")
    game.join("Carol", "2008-09-01T10:10:00Z")
    game.post("bob@example.org", "I give m3 to Alice.", "2008-09-01T11:00:00Z")
    game.post("carol@example.org", f"I {NEW_WORD} m5 to Alice.", "2008-09-01T12:00:00Z")
    seq = game.mails()[-1]["seq"]
    game.post("alice@example.org", "BEGIN TRANSACTION\nI give m1 to Bob\nI give m1 to Carol\n"
              "END TRANSACTION\nOn nday 3, I give m2 to Bob.", "2008-09-01T13:00:00Z")
    game.admin("clock", "on")
    game.tick("2008-09-04T12:00:00Z")
    return game, seq


def pins(game: Game) -> list[tuple]:
    con = sqlite3.connect(game.db)
    try:
        return con.execute("SELECT entry, reader, readings FROM pinned ORDER BY entry").fetchall()
    finally:
        con.close()


def mackerel(game: Game) -> dict[str, int]:
    return {name: p["mackerel"] for name, p in game.players().items()}


# ------------------------------------------------------------ (a) pinned

def test_a_new_reader_does_not_move_the_digest_of_a_rebuild(tmp_path, new_reader):
    game, seq = played(tmp_path)
    money, digest = mackerel(game), game.digest()
    # every mail read is pinned, by this reader's version, in canonical JSON
    stored = pins(game)
    assert [e for e, _, _ in stored] == [m["seq"] for m in game.mails()]
    assert {v for _, v, _ in stored} == {grammar.READER_VERSION}
    for _, _, text in stored:
        assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"),
                                  ensure_ascii=False)
    game.cli("rebuild")
    assert game.digest() == digest
    new_reader()
    out = game.cli("rebuild")
    assert game.digest() == digest and f"digest {digest}" in out and "(was" not in out
    assert mackerel(game) == money
    assert pins(game) == stored


def test_a_rebuild_pins_the_mail_of_a_log_that_has_no_pins(tmp_path, new_reader):
    """A game from before version 10 (or a log copied without pins) is read at
    its next replay, by the reader of then, and pinned from that moment on."""
    game, seq = played(tmp_path)
    digest, stored = game.digest(), pins(game)
    con = sqlite3.connect(game.db)
    con.execute("DELETE FROM pinned")
    con.commit()
    con.close()
    game.cli("rebuild")
    assert game.digest() == digest and pins(game) == stored
    new_reader()
    game.cli("rebuild")
    assert game.digest() == digest


@pytest.fixture
def reader_giving_to_carol(monkeypatch):
    """Change the reader another way: wherever it reads text (a whole mail, one
    sentence, one clause), "m2 to Bob" is read as "m2 to Carol"."""
    def swapped(fn):
        def read(text, *args, **kwargs):
            return fn(text.replace("m2 to Bob", "m2 to Carol"), *args, **kwargs)
        return read

    def switch():
        for name in ("read", "match_sentence", "match_action"):
            monkeypatch.setattr(grammar, name, swapped(getattr(grammar, name)))
    return switch


def test_a_scheduled_action_happens_as_it_was_read(tmp_path, reader_giving_to_carol):
    """"On nday 3, I give m2 to Bob": what falls due is the action as read when
    it was scheduled, not the sentence read again by the reader of the replay."""
    game, _ = played(tmp_path)
    done = [e["summary"] for e in game.show("events") if e["cause"] == "deadline"]
    assert "Bob gains m2: given by Alice" in done
    money, digest = mackerel(game), game.digest()
    reader_giving_to_carol()
    game.cli("rebuild")
    assert mackerel(game) == money and game.digest() == digest


def test_show_as_of_replays_the_pinned_readings_too(tmp_path, new_reader):
    game, seq = played(tmp_path)
    then = json.loads(game.cli("show", "players", "--json", "--as-of", "2008-09-01T12:30:00Z"))
    new_reader()
    assert json.loads(game.cli("show", "players", "--json", "--as-of", "2008-09-01T12:30:00Z")) == then
    assert {p["name"]: p["mackerel"] for p in then}["Carol"] == 50     # the mail did nothing then


# ---------------------------------------------------- (b) check-readings

def test_check_readings_lists_exactly_the_mail_read_otherwise(tmp_path, new_reader):
    game, seq = played(tmp_path)
    digest, stored = game.digest(), pins(game)
    out = json.loads(game.cli("rebuild", "--check-readings", "--json"))
    assert out["changed"] == [] and out["reader"] == grammar.READER_VERSION
    assert out["digest"] == digest
    new_reader()
    code, text, _ = game.run("rebuild", "--check-readings")
    assert code == 0 and f"#{seq}" in text and "1 entry otherwise" in text
    out = json.loads(game.cli("rebuild", "--check-readings", "--json"))
    assert out["changed"] == [seq]
    assert out["digest"] == out["was"] == digest         # applied as pinned: nothing else changed
    assert pins(game) == stored and game.digest() == digest


# ------------------------------------------------------------ (c) reread

def test_reread_is_in_the_log_changes_the_state_and_replays(tmp_path, new_reader):
    game, seq = played(tmp_path)
    money = mackerel(game)
    new_reader()
    done = json.loads(game.cli("reread", "--json"))
    assert done["changed"] == [seq] and done["reader"] == grammar.READER_VERSION
    assert done["reread"] == len(game.mails()) and done["digest"] != done["was"]
    # the log says when history was read again, and with which reader
    last = game.show("log")[-1]
    assert last["seq"] == done["entry"] and last["command"] == ["reread", "1", str(grammar.READER_VERSION)]
    assert last["outcomes"][0]["accepted"] and "read again" in last["outcomes"][0]["reason"]
    # the state is as the new reader reads: Carol gave m5 to Alice
    now = mackerel(game)
    assert now["Alice"] == money["Alice"] + 5 and now["Carol"] == money["Carol"] - 5
    (row,) = [p for p in pins(game) if p[0] == seq]
    assert json.loads(row[2])[0]["spec"] == "give"
    shown = next(e for e in game.show("log") if e["seq"] == seq)["pinned"]     # show log --json
    assert shown == {"reader": grammar.READER_VERSION, "readings": json.loads(row[2])}
    # a rebuild after it gives the same state, with this reader or another
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest
    assert json.loads(game.cli("rebuild", "--check-readings", "--json"))["changed"] == []


def test_reread_back_to_the_old_reader_is_recorded_too(tmp_path, new_reader, monkeypatch):
    game, seq = played(tmp_path)
    before = game.digest()
    new_reader()
    game.cli("reread")
    monkeypatch.undo()                      # the reader of before, again
    game.cli("rebuild")
    assert game.digest() != before          # the pins of the new reader hold
    assert json.loads(game.cli("rebuild", "--check-readings", "--json"))["changed"] == [seq]
    done = json.loads(game.cli("reread", "--json"))
    assert done["changed"] == [seq]
    assert [e["command"][0] for e in game.show("log") if e["kind"] == "command"][-2:] == ["reread", "reread"]


def test_reread_from_a_seq_leaves_earlier_mail_pinned(tmp_path, new_reader):
    game, seq = played(tmp_path)
    game.post("carol@example.org", f"I {NEW_WORD} m4 to Bob.", "2008-09-04T13:00:00Z")
    later = game.mails()[-1]["seq"]
    money = mackerel(game)
    new_reader()
    done = json.loads(game.cli("reread", "--from", str(later), "--json"))
    assert done["changed"] == [later] and done["reread"] == 1
    now = mackerel(game)
    assert now["Bob"] == money["Bob"] + 4 and now["Alice"] == money["Alice"]   # not the earlier one
    assert game.show("log")[-1]["command"] == ["reread", str(later), str(grammar.READER_VERSION)]
    assert json.loads(game.cli("rebuild", "--check-readings", "--json"))["changed"] == [seq]


def test_reread_refuses_a_seq_below_one_and_is_no_admin_verb(tmp_path):
    game, _ = played(tmp_path)
    entries = len(game.show("log"))
    code, _, err = game.run("reread", "--from", "0")
    assert code == 1 and "--from" in err
    code, _, err = game.run("admin", "reread", "1", "1")      # a record of what was not done
    assert code == 1 and "bnomic reread" in err
    assert len(game.show("log")) == entries


def test_a_mail_over_the_step_budget_stays_over_it(tmp_path, monkeypatch):
    """The budget's verdict is pinned too (NULL readings): a cheaper reader does
    not make an old mail that was refused for its cost come true on replay."""
    cfg = tmp_path / "limits.toml"
    cfg.write_text("[limits]\nread_steps = 200000\n")
    game = Game.__new__(Game)
    game.tmp, game.db = tmp_path, str(tmp_path / "game.sqlite")
    game.cli("init", "--start", "2008-09-01T00:00:00Z", "--seed", "test-seed", "--config", str(cfg))
    game.join("Wooble", "2008-09-01T10:00:00Z")
    # (each line its own: a line said again is read once, at no cost, grammar.read_sentence)
    out = game.post("wooble@example.org",
                    "".join(f"I give m1 to The Beast and m1 to Bob (line {k}).\n" for k in range(300)),
                    "2008-09-01T11:00:00Z")
    assert "took more than 200000 steps" in out
    seq = game.mails()[-1]["seq"]
    assert [p for p in pins(game) if p[0] == seq] == [(seq, grammar.READER_VERSION, None)]
    digest = game.digest()
    real = grammar.read
    monkeypatch.setattr(grammar, "read", lambda text, *a, **k: real("I give m1 to The Beast.", *a, **k))
    game.cli("rebuild")
    assert game.digest() == digest and game.players()["The Beast"]["mackerel"] == 0
    assert json.loads(game.cli("rebuild", "--check-readings", "--json"))["changed"] == [1, seq]


# --------------------------------------------- an action no longer there

def _rename_in_pins(game: Game, seq: int, old: str, new: str) -> None:
    con = sqlite3.connect(game.db)
    text = con.execute("SELECT readings FROM pinned WHERE entry = ?", (seq,)).fetchone()[0]
    con.execute("UPDATE pinned SET readings = ? WHERE entry = ?",
                (text.replace(f'"spec":"{old}"', f'"spec":"{new}"'), seq))
    con.commit()
    con.close()


def test_a_pinned_action_that_no_longer_exists_is_refused_with_the_reason(tmp_path):
    game, _ = played(tmp_path)
    mails = game.mails()
    give = next(m for m in mails if m["outcomes"] and m["outcomes"][0]["text"] == "I give m3 to Alice")
    transaction = next(m for m in mails if m["outcomes"] and m["outcomes"][0]["action"] == "transaction")
    _rename_in_pins(game, give["seq"], "give", "bestow")            # as if "give" were gone
    _rename_in_pins(game, transaction["seq"], "give", "bestow")
    game.cli("rebuild")
    log = {e["seq"]: e for e in game.show("log")}
    (outcome,) = log[give["seq"]]["outcomes"]
    assert outcome["action"] == "bestow" and not outcome["accepted"] and outcome["rule"] == "4E7"
    assert f'read as the action "bestow", which this bnomic no longer has' in outcome["reason"]
    assert f"reader version {grammar.READER_VERSION}" in outcome["reason"]
    first = log[transaction["seq"]]["outcomes"][0]
    assert first["action"] == "transaction" and not first["accepted"] and "no longer has" in first["reason"]
    second = log[transaction["seq"]]["outcomes"][1]                 # the scheduled "give": refused too
    assert second["action"] == "bestow" and not second["accepted"] and "no longer has" in second["reason"]
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest


# ------------------------------------------------------- previews

def test_a_preview_mail_is_pinned_and_its_preview_changes_nothing(tmp_path, new_reader):
    game, _ = played(tmp_path)
    money = mackerel(game)
    game.post("carol@example.org", f"I give m1 to Bob. I {NEW_WORD} m2 to Bob.", "2008-09-04T13:00:00Z",
              subject="preview please", to="bnomic@localhost")
    entry = game.mails()[-1]
    assert entry["outcomes"][0]["action"] == "preview"
    assert "previewed 1 action(s)" in entry["outcomes"][0]["reason"]
    assert mackerel(game) == money
    assert entry["seq"] in [p[0] for p in pins(game)]
    digest = game.digest()
    new_reader()
    game.cli("rebuild")
    assert game.digest() == digest          # its Outcome still counts what was read then


# ---------------------------------------------------- (e) the JSON form

def test_round_trip_of_every_kind_of_reading():
    text = ("BEGIN TRANSACTION\nthe Clock is on\nI give m1 to Bob\nI give m2 to Carol 3 times\n"
            "END TRANSACTION\n"
            "On nday 8, I give m5 to Wooble.\n"
            "On 2008-09-10 at 12:00 UTC I give m6 to Wooble.\n"
            "I giev m3 to Alice.\n"
            "I join as " + "x" * 300 + "\n"
            "I give m4 to Bob twice.\n")
    readings = grammar.read(text, max_line=200)
    kinds = [r.kind for r in readings]
    assert kinds[0] == "transaction" and [s.kind for s in readings[0].steps] == ["assertion", "action", "action"]
    assert readings[0].steps[2].times == 3
    scheduled = [r for r in readings if r.when is not None]
    assert [w.when.kind for w in scheduled] == ["nday", "utc"]
    assert scheduled[1].when.at == datetime(2008, 9, 10, 12, 0, tzinfo=timezone.utc)
    assert any(r.kind == "unknown" and r.suggestions for r in readings)           # a near-miss
    assert any(r.error.startswith("not read: this line is") for r in readings)    # an over-long line
    text1 = pinned.to_json(readings)
    back = pinned.from_json(text1)
    assert back == readings
    assert pinned.to_json(back) == text1
    assert isinstance(back[0].steps, list) and isinstance(back[3].suggestions, tuple)
    assert json.dumps(json.loads(text1), sort_keys=True, separators=(",", ":"), ensure_ascii=False) == text1
    # fields at their defaults are left out: a field added later changes no stored reading
    assert '"times"' not in pinned.to_json([grammar.Reading("I give m1 to Bob", action_named("give"))])


def test_fields_the_reader_gains_later_are_carried(monkeypatch):
    """Generic over Reading's fields: new ones (tuples, strings, dicts) come back
    as they went, with no change to pinned.py."""
    Later = dataclasses.make_dataclass("Reading", [
        ("missing", tuple[str, ...], dataclasses.field(default=())),
        ("alternatives", tuple[str, ...], dataclasses.field(default=())),
        ("read_as", str, dataclasses.field(default="")),
        ("roles", dict, dataclasses.field(default_factory=dict)),
    ], bases=(grammar.Reading,))
    monkeypatch.setattr(grammar, "Reading", Later)
    give = action_named("give")
    readings = [
        Later("I give to Wooble", spec=give, missing=("amount",), read_as="give, to Wooble",
              roles={"player": ["Wooble"]}),
        Later("BEGIN TRANSACTION ... END TRANSACTION",
              steps=[Later("I give m1 to A", spec=give, args={"amount": "m1", "player": "A"},
                           alternatives=("give m1 to A", "give m1 to Ann"))]),
    ]
    text = pinned.to_json(readings)
    back = pinned.from_json(text)
    assert back == readings and type(back[1].steps[0]) is Later
    assert back[0].missing == ("amount",) and back[1].steps[0].alternatives == ("give m1 to A", "give m1 to Ann")
    assert pinned.to_json(back) == text
