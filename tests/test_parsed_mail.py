"""Issue 16, part H: a mail is parsed at its entry's first apply and its fields
kept with the log (`parsedmail`, schema 13); rebuild, `--as-of` and an
approval's replay build the Post from them and never parse the raw mail.
`rebuild --reparse` makes them again from the raw mail alone."""
from __future__ import annotations

import json
import shutil
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from bnomic.config import Config
from bnomic.mailer import bounces, parse, parsed, receipts, runner
from bnomic.store import close_database, migrations, open_database

from conftest import Game, make_mail
from mailfuzz import mails

SCHEMAS = Path(__file__).parent / "schemas"
AT = datetime(2008, 9, 2, 12, tzinfo=timezone.utc)


def rows(db: str) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute('SELECT "entry", "version", "fields" FROM "parsedmail" ORDER BY 1').fetchall()
    finally:
        con.close()


def mail_entries(db: str) -> list[int]:
    con = sqlite3.connect(db)
    try:
        return [r[0] for r in con.execute("SELECT entry_id FROM message ORDER BY 1")]
    finally:
        con.close()


def played(tmp_path) -> Game:
    """A small real game: joins, a quoted reply with a signature, a display
    request to the processor, mail with encoded words, an action."""
    game = Game(tmp_path)
    for i, name in enumerate(["Wooble", "Chuck", "Priest"]):
        game.join(name, f"2008-09-01T0{i + 1}:00:00Z")
    game.post("wooble@example.org", "> Welcome, all.\nI give m1 to Chuck.\n-- \nWooble",
              "2008-09-01T05:00:00Z", name="Wooble W.", subject="=?utf-8?q?caf=C3=A9?= gifts",
              headers={"In-Reply-To": "<test1@example.org>",
                       "References": "<test1@example.org> <test2@example.org>"})
    game.post("chuck@example.org", "Please send the Registrar's display.", "2008-09-01T06:00:00Z",
              to="bnomic@localhost")
    game.post("priest@example.org", "I give m2 to Wooble.", "2008-09-01T07:00:00Z",
              headers={"X-Loop": "someone@else.example", "Auto-Submitted": "no"})
    return game


class Counting:
    """parse.parse, counting the mails it is asked to parse."""

    def __init__(self, monkeypatch):
        self.calls = 0
        real = parse.parse

        def counted(raw):
            self.calls += 1
            return real(raw)
        monkeypatch.setattr(parse, "parse", counted)


def test_every_applied_mail_keeps_its_fields(tmp_path):
    game = played(tmp_path)
    kept = rows(game.db)
    assert [r[0] for r in kept] == mail_entries(game.db)
    assert {r[1] for r in kept} == {parsed.VERSION}
    reply = json.loads(kept[3][2])
    assert reply["post"]["text"].strip() == "I give m1 to Chuck."      # no quote, no signature
    assert reply["post"]["quoted"] == "Welcome, all."
    assert reply["post"]["subject"] == "café gifts"
    assert reply["post"]["display_name"] == "Wooble W."
    assert reply["post"]["references"] == ["<test1@example.org>", "<test2@example.org>"]
    assert reply["headers"]["in-reply-to"] == ["<test1@example.org>"]


def test_a_rebuild_parses_no_mail_and_gives_the_same_state(tmp_path, monkeypatch):
    """The defect: every replay parsed every mail again (about 0.9 ms a mail)."""
    game = played(tmp_path)
    digest, kept = game.digest(), rows(game.db)
    counting = Counting(monkeypatch)
    parse._RECENT.clear()
    game.cli("rebuild")
    assert counting.calls == 0
    assert game.digest() == digest
    assert rows(game.db) == kept


def test_show_as_of_parses_no_mail(tmp_path, monkeypatch):
    game = played(tmp_path)
    whole = game.players()
    counting = Counting(monkeypatch)
    parse._RECENT.clear()
    then = json.loads(game.cli("show", "players", "--json", "--as-of", "2008-09-01T05:30:00Z"))
    assert counting.calls == 0
    by_name = {p["name"]: p for p in then}      # before Priest's m2 to Wooble at 07:00
    assert by_name["Chuck"]["mackerel"] == whole["Chuck"]["mackerel"]
    assert by_name["Wooble"]["mackerel"] == whole["Wooble"]["mackerel"] - 2
    assert by_name["Priest"]["mackerel"] == whole["Priest"]["mackerel"] + 2


def test_rebuild_reparse_makes_the_same_fields_from_the_raw_mail(tmp_path, monkeypatch):
    """`bnomic rebuild --reparse`: every stored field dropped and made again from
    the raw log, equal to what was stored, and the same digest."""
    game = played(tmp_path)
    digest, kept = game.digest(), rows(game.db)
    counting = Counting(monkeypatch)
    parse._RECENT.clear()
    out = json.loads(game.cli("rebuild", "--reparse", "--json"))
    assert counting.calls == len(mail_entries(game.db))
    assert out["reparsed"] == len(kept) and out["digest"] == out["was"] == digest
    assert rows(game.db) == kept


def test_fields_of_another_version_are_parsed_again(tmp_path):
    game = played(tmp_path)
    kept = rows(game.db)
    con = sqlite3.connect(game.db)
    con.execute('UPDATE "parsedmail" SET "version" = 0, "fields" = \'{"stale": 1}\'')
    con.commit()
    con.close()
    game.cli("rebuild")
    assert rows(game.db) == kept


def test_reread_parses_its_entries_again(tmp_path, monkeypatch):
    game = played(tmp_path)
    kept = rows(game.db)
    counting = Counting(monkeypatch)
    parse._RECENT.clear()
    game.cli("reread", "--from", "4")
    assert counting.calls == len([seq for seq in mail_entries(game.db) if seq >= 4])
    assert rows(game.db) == kept


def test_version_13_adds_parsed_mail_to_a_real_v12_game(tmp_path, monkeypatch):
    """The v13 step creates `parsedmail`, empty, in the real v12 game (its rows
    kept); the next rebuild parses each mail once and keeps its fields, the same
    state; the rebuild after it parses none."""
    db = str(tmp_path / "v12.db")
    shutil.copyfile(SCHEMAS / "v12.db", db)
    game = Game.__new__(Game)
    game.tmp, game.db = tmp_path, db

    def counts() -> dict:
        con = sqlite3.connect(db)
        try:
            names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table' "
                                               "AND name NOT LIKE 'sqlite_%'")]
            return {t: con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in names}
        finally:
            con.close()
    before = counts()
    out = json.loads(game.cli("migrate", "--json"))
    assert (out["from"], out["to"]) == (12, migrations.LATEST)
    after = counts()
    assert after.pop("parsedmail") == 0
    assert after.pop("statewrites") == 34 and after.pop("statelow") == 0    # schema 14: the write counts
    assert after == before
    state = game.digest()
    counting = Counting(monkeypatch)
    parse._RECENT.clear()
    game.cli("rebuild")
    mails = mail_entries(db)
    applied = [r[0] for r in rows(db)]
    assert 0 < len(applied) <= len(mails) and set(applied) <= set(mails)
    assert counting.calls == len(applied)
    replayed = game.digest()
    counting.calls = 0
    game.cli("rebuild")
    assert counting.calls == 0 and game.digest() == replayed
    receipt = game.post("wooble@thewoobles.example", "I give m1 to Chuck.", "2008-09-16T13:00:00Z")
    assert "Done (Rule 4E33)" in receipt, receipt
    assert len(rows(db)) == len(applied) + 1
    del state


# --------------------------------------------- the stored fields read as the mail

CONFIGS = [
    Config({}),
    Config({"addresses": {"public_fora": ["business@example.org"],
                          "discussion_fora": ["discuss@example.org"], "forum_by_envelope": True,
                          "processor": "bnomic@example.org"}}),
    Config({"auth": {"policy": "dkim", "authserv_id": "mx.example.org"},
            "addresses": {"processor": "bnomic@example.org"}}),
]


def readings(mail, raw: bytes, config: Config, envelope_from):
    post = parse.to_post(raw, AT, config, mail=mail, rcpt_tos=None)
    return (post, parse.forum_of(mail, config), parse.vouch(mail, config),
            receipts.why_not_answer(mail, envelope_from, config),
            bounces.is_report(mail, envelope_from), parse.header(mail, "Subject"),
            parse.header_all(mail, "References"), parse.envelope_recipients(mail))


@settings(max_examples=120, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mails())
def test_stored_fields_read_as_the_parsed_mail(drawn):
    """Fuzzed malformed mail: the fields, stored as JSON and loaded, answer
    every question the engine asks of a mail as the parsed mail does, under
    the trust and dkim policies and with fora configured."""
    raw = drawn[0]
    try:
        fresh = parse._parse(raw)
        made = parsed.Parsed.of(raw, fresh)
    except Exception:
        return                      # the first parse fails: nothing is stored, a replay fails alike
    loaded = parsed.Parsed(json.loads(parsed.encode(made)), lambda: raw)
    for config in CONFIGS:
        for envelope_from in (None, "", "w@example.org"):
            assert readings(loaded, raw, config, envelope_from) == \
                readings(parse._parse(raw), raw, config, envelope_from)
    assert loaded._mail is None         # all of it answered from the stored fields
