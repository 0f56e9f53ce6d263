"""Upgrades keep every row (issue 11, item 2; issue 14, item 5).

Each tests/schemas/vN.db is a real game made by the code of schema version N
(tests/schemas/make.py). Every test works on a copy in tmp_path and goes
through the real `bnomic` command line or the function `bnomic run` calls.
"""
from __future__ import annotations

import ast
import json
import logging
import shutil
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bnomic.store import close_database, migrations, open_database

from conftest import Game, make_mail

SCHEMAS = Path(__file__).parent / "schemas"
# every version has its fixture game (made when the version is merged: tests/schemas/README.md);
# a version without one fails here, not silently untested
VERSIONS = list(range(1, migrations.LATEST + 1))
# the log: what arrived from outside, never rewritten (setup is compared apart)
LOG_TABLES = ["log", "message", "command", "outbox", "checkpoint", "publication",
              "subscription", "approval", "parked", "pinned"]
# fixtures whose log today's rules read as their own version did, so the state
# the migration kept is the state a replay makes (see test_the_game_plays_on)
READ_ALIKE = {6, 7, 10, 11}  # 10, 11: their mail replays as pinned, whatever the reader is now


class Copy(Game):
    """A fixture game copied to tmp_path, played through `bnomic` like any Game."""

    def __init__(self, tmp_path, version: int):
        self.tmp = tmp_path
        self.db = str(tmp_path / f"v{version}.db")
        shutil.copyfile(SCHEMAS / f"v{version}.db", self.db)


def tables(con) -> list[str]:
    return [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name")]


def counts(path) -> dict[str, int]:
    con = sqlite3.connect(path)
    try:
        return {t: con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables(con)}
    finally:
        con.close()


def rows(path, table: str, columns: list[str] | None = None) -> list[tuple]:
    con = sqlite3.connect(path)
    try:
        cols = columns or [r[1] for r in con.execute(f'PRAGMA table_info("{table}")')]
        names = ", ".join(f'"{c}"' for c in cols)
        return con.execute(f'SELECT {names} FROM "{table}" ORDER BY 1').fetchall()
    finally:
        con.close()


def columns(path, table: str) -> list[str]:
    con = sqlite3.connect(path)
    try:
        return [r[1] for r in con.execute(f'PRAGMA table_info("{table}")')]
    finally:
        con.close()


def schema(path) -> dict:
    """Every table's columns (name, type, not null, primary key), foreign keys and indexes."""
    con = sqlite3.connect(path)
    try:
        out = {}
        for t in tables(con):
            cols = sorted((r[1], r[2], r[3], r[5]) for r in con.execute(f'PRAGMA table_info("{t}")'))
            fks = sorted((r[2], r[3], r[4], r[6]) for r in con.execute(f'PRAGMA foreign_key_list("{t}")'))
            idx = sorted((r[1], r[2], tuple(c[2] for c in con.execute(f'PRAGMA index_info("{r[1]}")')))
                         for r in con.execute(f'PRAGMA index_list("{t}")'))
            out[t] = (cols, fks, idx)
        return out
    finally:
        con.close()


def version_of(path) -> int:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT version FROM schemaversion").fetchone()[0]
    finally:
        con.close()


def checks(path) -> tuple[list, list]:
    con = sqlite3.connect(path)
    try:
        return (con.execute("PRAGMA foreign_key_check").fetchall(),
                [r[0] for r in con.execute("PRAGMA integrity_check")])
    finally:
        con.close()


@pytest.fixture(scope="module")
def fresh_schema(tmp_path_factory):
    game = Game(tmp_path_factory.mktemp("fresh"))
    return schema(game.db)


def test_every_fixture_is_at_its_version():
    for v in VERSIONS:
        assert version_of(SCHEMAS / f"v{v}.db") == v
        assert counts(SCHEMAS / f"v{v}.db")["address"] == 5     # real players, real rows


# ------------------------------------------------------------- the cascade

def test_rows_that_refer_to_players_survive_the_player_table_rebuild(tmp_path):
    """The defect: v6 -> v7 rebuilds `player` on SQLite; with foreign keys on,
    dropping the old table cascaded into addresses, intents, stances, usurpations,
    proposals and votes (and cleared ministry holders)."""
    game = Copy(tmp_path, 6)
    before = counts(game.db)
    holders = rows(game.db, "ministry", ["name", "holder_id"])
    open_database(game.db)
    try:
        migrations.upgrade()
        assert database_foreign_keys() == 1          # on again afterwards
    finally:
        close_database()
    after = counts(game.db)
    for table in ("player", "address", "intent", "stance", "usurpation", "proposal", "vote"):
        assert after[table] == before[table] > 0, table
    assert rows(game.db, "ministry", ["name", "holder_id"]) == holders
    assert any(h for _, h in holders)


def database_foreign_keys() -> int:
    from bnomic.store import database
    return database.execute_sql("PRAGMA foreign_keys").fetchone()[0]


# ------------------------------------------------------- every fixture, up

@pytest.mark.parametrize("version", VERSIONS)
def test_migrate_keeps_every_row(tmp_path, version, fresh_schema):
    game = Copy(tmp_path, version)
    before = counts(game.db)
    logs = {t: rows(game.db, t) for t in LOG_TABLES if t in before}
    setup_columns = columns(game.db, "setup")
    setup = rows(game.db, "setup")
    out = json.loads(game.cli("migrate", "--json"))
    assert (out["from"], out["to"]) == (version, migrations.LATEST)
    if version < migrations.LATEST:
        assert Path(out["backup"]).exists()
    else:
        assert out["backup"] is None

    after = counts(game.db)
    lost = {t: (n, after.get(t)) for t, n in before.items() if after.get(t) != n}
    assert not lost, f"rows lost or added: {lost}"
    for table, content in logs.items():                 # the log, unchanged
        assert rows(game.db, table, columns(SCHEMAS / f"v{version}.db", table)) == content, table
    # setup: every column as it was, except that the configuration gained the
    # keys later versions brought in (a value it had is never changed)
    now = rows(game.db, "setup", setup_columns)
    i = setup_columns.index("config")
    assert [r[:i] + r[i + 1:] for r in now] == [r[:i] + r[i + 1:] for r in setup]
    old_config, new_config = json.loads(setup[0][i]), json.loads(now[0][i])
    assert contains(new_config, old_config)
    assert checks(game.db) == ([], ["ok"])
    assert schema(game.db) == fresh_schema
    assert version_of(game.db) == migrations.LATEST


def contains(big: dict, small: dict) -> bool:
    return all(k in big and (contains(big[k], v) if isinstance(v, dict) else big[k] == v)
               for k, v in small.items())


@pytest.mark.parametrize("version", VERSIONS)
def test_the_game_plays_on(tmp_path, version):
    """A migrated game takes mail from its players, and its log replays. For
    READ_ALIKE the migrated state is exactly the replayed one; for every fixture
    the players, addresses, ministries and rules are. Older games are
    read by today's rules with more in them than their version had (the Clock's
    first On, 4E49, from version 4; the Chairman's Ballot duty, 4E15, from
    version 6), so their replayed state says more; from then on replays agree."""
    game = Copy(tmp_path, version)
    game.cli("migrate")
    players = game.players()
    receipt = game.post("wooble@thewoobles.example", "I give m1 to Chuck.", "2008-09-16T13:00:00Z")
    assert "Done (Rule 4E33)" in receipt, receipt
    now = game.players()
    assert now["Wooble"]["mackerel"] == players["Wooble"]["mackerel"] - 1
    assert now["Chuck"]["mackerel"] == players["Chuck"]["mackerel"] + 1
    played = game.digest()
    kept = {t: rows(game.db, t) for t in ("player", "address", "ministry", "rule")}
    game.cli("rebuild")
    if version in READ_ALIKE:
        assert game.digest() == played
    # what every version reads alike, and the rows the frozen steps wrote (the
    # ministries of version 4, the seed's rules of version 5), replay exactly
    assert {t: rows(game.db, t) for t in kept} == kept
    replayed = game.digest()
    game.cli("rebuild")
    assert game.digest() == replayed
    assert checks(game.db) == ([], ["ok"])


# --------------------------------------------------- only migrate migrates

@pytest.mark.parametrize("command", [["status"], ["show", "players"], ["rebuild"],
                                     ["tick", "--until", "2008-09-20T00:00:00Z"],
                                     ["admin", "clock", "on"], ["outbox"]])
def test_an_old_schema_is_refused_and_left_alone(tmp_path, command):
    game = Copy(tmp_path, 6)
    raw = Path(game.db).read_bytes()
    code, out, err = game.run(*command)
    assert code == 1 and out == ""
    assert err == ("bnomic: this game database has schema version 6; this bnomic needs "
                   f"{migrations.LATEST}: stop the daemon, back up, then run: "
                   f"bnomic migrate --db {game.db}\n")
    assert Path(game.db).read_bytes() == raw
    assert version_of(game.db) == 6


def test_init_if_missing_passes_an_old_game_by(tmp_path):
    """The unit's ExecStartPre (`init --if-missing`) must let `bnomic run` start and migrate."""
    game = Copy(tmp_path, 1)
    raw = Path(game.db).read_bytes()
    assert "already holds a game; nothing to do" in game.cli("init", "--if-missing")
    assert Path(game.db).read_bytes() == raw


def test_ingest_on_an_old_schema_stores_nothing(tmp_path):
    game = Copy(tmp_path, 6)
    mail = tmp_path / "m.eml"
    mail.write_bytes(make_mail("wooble@thewoobles.example", "I give m1 to Chuck."))
    code, _, err = game.run("ingest", str(mail))
    assert code == 1 and "bnomic migrate --db" in err
    assert counts(game.db) == counts(SCHEMAS / "v6.db")


def test_migrate_twice_does_nothing_the_second_time(tmp_path):
    game = Copy(tmp_path, 5)
    game.cli("migrate")
    assert "nothing to do" in game.cli("migrate")
    assert len(list(tmp_path.glob("v5.db.v5-*.bak"))) == 1


def test_a_newer_schema_is_refused_by_migrate(tmp_path):
    game = Copy(tmp_path, 7)
    con = sqlite3.connect(game.db)
    con.execute("UPDATE schemaversion SET version = 99")
    con.commit()
    con.close()
    code, _, err = game.run("migrate")
    assert code == 1 and "newer than this bnomic understands" in err


def test_a_step_that_leaves_a_broken_reference_is_rolled_back(tmp_path):
    """foreign_key_check must be clean before a step commits; the operator is told why."""
    game = Copy(tmp_path, 6)
    con = sqlite3.connect(game.db)           # foreign keys are off in a plain connection
    con.execute("INSERT INTO address (address, player_id) VALUES ('ghost@example.org', 99)")
    con.commit()
    con.close()
    code, _, err = game.run("migrate")
    assert code == 1
    assert "schema step 6->7 was rolled back: 1 broken reference(s): address row" in err
    assert "refers to a missing player row" in err and "stays at version 6" in err
    assert version_of(game.db) == 6
    assert "ordained" not in columns(game.db, "player")
    assert len(list(tmp_path.glob("v6.db.v6-*.bak"))) == 1     # the backup was made first


# ------------------------------------------------------ bnomic run's upgrade

def test_the_daemon_backs_up_then_migrates(tmp_path, caplog):
    from bnomic.mailer.daemon import Daemon
    game = Copy(tmp_path, 6)
    open_database(game.db)
    try:
        with caplog.at_level(logging.INFO, logger="bnomic.daemon"):
            done = Daemon({}, game.db).migrate()
        assert database_foreign_keys() == 1
    finally:
        close_database()
    assert (done.before, done.after) == (6, migrations.LATEST)
    assert done.backup.parent == tmp_path and done.backup.name.startswith("v6.db.v6-")
    stamp = done.backup.name[len("v6.db.v6-"):-len(".bak")]
    assert abs(datetime.strptime(stamp, "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc)
               - datetime.now(timezone.utc)).total_seconds() < 600
    assert version_of(done.backup) == 6
    assert counts(done.backup) == counts(SCHEMAS / "v6.db")
    assert checks(done.backup) == ([], ["ok"])
    assert version_of(game.db) == migrations.LATEST
    said = [r.getMessage() for r in caplog.records]
    assert f"backed up {game.db} (schema version 6) to {done.backup}" in said
    assert f"migrated {game.db} from schema version 6 to {migrations.LATEST}" in said


def test_a_backup_never_overwrites_another(tmp_path):
    game = Copy(tmp_path, 7)
    now = datetime(2026, 11, 22, 21, 0, tzinfo=timezone.utc)
    open_database(game.db)
    try:
        first, second = migrations.backup(7, now), migrations.backup(7, now)
    finally:
        close_database()
    assert first.name == "v7.db.v7-20261122T210000Z.bak"
    assert second.name == "v7.db.v7-20261122T210000Z-1.bak"


# ------------------------------------------------------------ frozen steps

def test_steps_import_nothing_of_todays_models():
    """Each step carries its own table definitions: none may import models.py
    (or anything outside the store), so a later change cannot alter an old step."""
    steps = Path(migrations.__file__).parent / "steps"
    for path in sorted(steps.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert node.module in (None, "frozen", "db") or node.module.startswith("v"), \
                    f"{path.name} imports .{'.' * (node.level - 1)}{node.module}"
                assert not (node.level >= 2 and node.module != "db"), path.name
            if isinstance(node, ast.ImportFrom) and not node.level:
                assert not (node.module or "").startswith("bnomic"), path.name


def test_steps_read_no_file_of_today():
    """A step that needs data (v5: the seed ruleset) reads its own frozen copy
    beside it in steps/, never a file the package ships today (bnomic/rulesets/,
    defaults.toml), which a later commit may edit."""
    steps = Path(migrations.__file__).parent / "steps"
    for path in sorted(steps.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "files":
                (arg,) = node.args
                assert isinstance(arg, ast.Name) and arg.id == "__package__", \
                    f"{path.name}:{node.lineno} reads files of {ast.unparse(arg)}, not its own"
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "open":
                raise AssertionError(f"{path.name}:{node.lineno} opens a file")


def test_the_frozen_seed_is_what_version_5_shipped(tmp_path):
    """v5's frozen ruleset gives a game from version 4 the rules a version 5 game
    was created with: the same rows as v5.db's own (played by version 5's code)."""
    game = Copy(tmp_path, 4)
    game.cli("migrate")
    cols = ["number", "title", "text", "section", "power_num", "power_den"]
    made = rows(SCHEMAS / "v5.db", "rule", cols)
    assert len(made) == 57 and rows(game.db, "rule", cols) == made


def test_version_11_adds_subgames_and_victory_conditions_to_a_real_v10_game(tmp_path, fresh_schema):
    """Issue 15, part C: the v11 step creates the Subgame and Victory Condition
    tables (empty) in the real v10 game, keeps its rows, and the game plays on."""
    game = Copy(tmp_path, 10)
    before = counts(game.db)
    game.cli("migrate")
    after = counts(game.db)
    assert (after["subgame"], after["victorycondition"]) == (0, 0)
    assert {t: n for t, n in after.items() if t in before} == before
    assert schema(game.db)["subgame"] == fresh_schema["subgame"]
    assert schema(game.db)["victorycondition"] == fresh_schema["victorycondition"]
    assert checks(game.db) == ([], ["ok"])
    body = ("I create the following Subgame:\nName: Guess\nJoining: by saying so\n"
            "Ending: the first right guess wins\nCommunication: the public list\nTrophy: m5\n"
            "END SUBGAME")
    receipt = game.post("wooble@thewoobles.example", body, "2008-09-16T13:00:00Z")
    assert "Done: Subgame 1" in receipt and "(Rule 4E82)" in receipt, receipt
    assert rows(game.db, "subgame", ["id", "name", "status"]) == [(1, "Guess", "Pending")]
    game.cli("rebuild")
    assert rows(game.db, "subgame", ["id", "name", "status"]) == [(1, "Guess", "Pending")]
