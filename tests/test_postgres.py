"""PostgreSQL by database URL: a real server, the same game as on SQLite."""
import pytest

from bnomic.store import migrations

from conftest import Game
from servers import PostgresServer, pg_bin

try:
    import psycopg2
except ImportError:     # a skip while running, so BNOMIC_REQUIRE_SERVERS makes it a failure
    psycopg2 = None

pytestmark = [pytest.mark.skipif(pg_bin() is None, reason="PostgreSQL server binaries not installed"),
              pytest.mark.skipif(psycopg2 is None, reason="psycopg2 (the PostgreSQL driver) not installed")]


@pytest.fixture(scope="module")
def postgres(tmp_path_factory):
    server = PostgresServer(tmp_path_factory.mktemp("pg"))
    server.start()
    yield server
    server.stop()


class PgGame(Game):
    def __init__(self, url, tmp_path):
        self.url = url
        super().__init__(tmp_path)

    @property
    def db(self):
        return self.url

    @db.setter
    def db(self, _):
        pass


def play(game):
    game.join("Wooble", "2008-09-01T10:00:00Z")
    game.post("ais@example.org", "I join as Ais523, recruited by Wooble. I give m5 to Wooble.",
              "2008-09-01T11:00:00Z")
    game.admin("clock", "on")
    game.post("ais@example.org", "I give m500 to Wooble", "2008-09-03T11:00:00Z")
    game.next_nweek()


def test_a_game_on_postgres_matches_the_same_game_on_sqlite(postgres, tmp_path):
    (tmp_path / "pg").mkdir()
    (tmp_path / "lite").mkdir()
    pg = PgGame(postgres.create_database("game1"), tmp_path / "pg")
    lite = Game(tmp_path / "lite")
    for g in (pg, lite):
        play(g)
    assert pg.show("players") == lite.show("players")
    assert pg.clock() == lite.clock()
    assert pg.digest() == lite.digest()
    pg.cli("rebuild")
    assert pg.digest() == lite.digest()


def test_pinned_readings_on_postgres(postgres, tmp_path):
    """Issue 13: the pins, `reread` and `rebuild --check-readings` on PostgreSQL."""
    import json
    pg = PgGame(postgres.create_database("pinned"), tmp_path)
    play(pg)
    players = pg.show("players")
    assert json.loads(pg.cli("rebuild", "--check-readings", "--json"))["changed"] == []
    done = json.loads(pg.cli("reread", "--json"))
    assert done["changed"] == [] and done["reread"] == 3
    assert pg.show("players") == players and pg.show("log")[-1]["command"][0] == "reread"
    played = pg.digest()
    pg.cli("rebuild")
    assert pg.digest() == played


def test_a_postgres_crash_does_not_change_the_replay(postgres, tmp_path):
    """PostgreSQL sequences skip numbers after a crash; bnomic numbers its state
    rows itself, so live and replayed state (and intent numbers) agree."""
    pg = PgGame(postgres.create_database("crash"), tmp_path)
    pg.join("Wooble", "2008-09-01T10:00:00Z")
    pg.join("Ais523", "2008-09-01T10:00:00Z")
    postgres.stop()                      # -m immediate: a crash, sequences jump on recovery
    postgres.restart()
    pg.post("ais523@example.org", "I give m5 to Wooble", "2008-09-01T11:00:00Z")
    seqs = [e["seq"] for e in pg.show("events")]
    assert seqs == list(range(1, len(seqs) + 1))
    digest = pg.digest()
    pg.cli("rebuild")
    assert pg.digest() == digest


def test_a_version_6_game_on_postgres_migrates_and_keeps_every_row(postgres, tmp_path):
    """A game made on PostgreSQL by version 6's own code (tests/schemas/make.py)
    is migrated by `bnomic migrate`: ALTER TABLE there rebuilds nothing, and no
    row is lost; the game plays on and replays to the same digest."""
    import importlib.util
    import json
    import subprocess
    from pathlib import Path
    spec = importlib.util.spec_from_file_location("make_schemas",
                                                  Path(__file__).parent / "schemas" / "make.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    if subprocess.run(["git", "-C", str(make.REPO), "cat-file", "-e", make.COMMITS[6]],
                      capture_output=True).returncode:
        pytest.skip("version 6's commit is not in this clone's history")
    url = postgres.create_database("v6")
    make.play(6, url, make.extract(6, tmp_path), tmp_path)

    def counts():
        con = psycopg2.connect(url)
        try:
            cur = con.cursor()
            cur.execute("SELECT table_name FROM information_schema.tables "
                        "WHERE table_schema = 'public' ORDER BY table_name")
            out = {}
            for (t,) in cur.fetchall():
                cur.execute(f'SELECT count(*) FROM "{t}"')
                out[t] = cur.fetchone()[0]
            return out
        finally:
            con.close()

    before = counts()
    assert before["vote"] and before["address"] and before["intent"]
    game = PgGame.__new__(PgGame)
    game.url, game.tmp = url, tmp_path
    code, _, err = game.run("status")
    assert code == 1 and "bnomic migrate --db" in err
    from bnomic.mailer.daemon import Daemon, DaemonError
    from bnomic.store import close_database, open_database
    open_database(url)
    try:                                 # bnomic run cannot back it up: it refuses
        with pytest.raises(DaemonError, match="back the database up .pg_dump."):
            Daemon({}, url).migrate()
    finally:
        close_database()
    assert counts() == before
    done = json.loads(game.cli("migrate", "--json"))
    assert (done["from"], done["to"], done["backup"]) == (6, migrations.LATEST, None)
    after = counts()
    assert {t: n for t, n in after.items() if t in before} == before
    r = game.post("wooble@thewoobles.example", "I give m1 to Chuck.", "2008-09-16T13:00:00Z")
    assert "Done (Rule 4E33)" in r, r
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest

def test_lmtp_intake_on_postgres_goes_straight_into_the_log(postgres, tmp_path):
    """No spool file for a database URL: PostgreSQL's writers do not wait for
    each other, so the receiver appends to the log (durably) itself."""
    from bnomic.mailer import inbound, runner
    from bnomic.store import intake, open_database
    from conftest import make_mail, recent
    pg = PgGame(postgres.create_database("intake"), tmp_path)
    pg.cli("tick", "--until", recent())
    open_database(pg.url)
    assert not intake.available()
    raw = make_mail("w@example.org", "I join as Wooble", msgid="<pg1@x>")
    assert inbound.receive(raw, source="lmtp", rcpt_tos=["bnomic+business@example.org"]) == ("<pg1@x>", True)
    assert inbound.receive(raw, source="lmtp") == ("<pg1@x>", False)
    assert [m["message_id"] for m in pg.mails()] == ["<pg1@x>"]
    runner.process_pending()
    assert "Wooble" in pg.players()
    assert not list(tmp_path.glob("*-intake"))


def test_as_of_and_an_approval_on_postgres(postgres, tmp_path):
    """Issue 16: PostgreSQL keeps no snapshots; --as-of copies the log by range
    (runner._replay_into_by_rows) and an approval replays from nothing: both
    as on SQLite, where they start from snapshots."""
    (tmp_path / "pg").mkdir()
    (tmp_path / "lite").mkdir()
    pg = PgGame(postgres.create_database("history"), tmp_path / "pg")
    lite = Game(tmp_path / "lite")
    for g in (pg, lite):
        for name in ("Alice", "Bob", "Carol", "Dave", "Erin"):
            g.join(name, "2008-09-01T09:00:00Z")
        doctored = "\n".join(line.replace("m50", "m500") if line.startswith("Alice") else line
                             for line in g.cli("show", "display", "Registrar").splitlines())
        g.post("alice@example.org", "I intend to approve the Registrar's display with 4 supporters "
               "and without objection.\n\n" + doctored, "2008-09-01T10:00:00Z", msgid="<intent@x>")
        g.post("alice@example.org", "I give m10 to Bob", "2008-09-01T11:00:00Z")
        for name in ("Bob", "Carol", "Dave", "Erin"):
            g.post(f"{name.lower()}@example.org", "I support intent #1", "2008-09-01T12:00:00Z")
        assert "Done (Rule 4E50)" in g.post("alice@example.org", "I approve the Registrar's display",
                                            "2008-09-03T10:00:00Z")
    assert pg.players()["Alice"]["mackerel"] == lite.players()["Alice"]["mackerel"] == 490
    assert pg.digest() == lite.digest()
    for point in ("<intent@x>", "2008-09-01T11:30:00Z"):
        assert pg.cli("show", "players", "--json", "--as-of", point) == \
            lite.cli("show", "players", "--json", "--as-of", point)
