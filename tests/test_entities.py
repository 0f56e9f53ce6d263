"""Legal Entities (Rule 4E81): Players and Corporations; the eight Laundry
Corporations of 4E68 from the start; an Officer acting on behalf of a
Corporation (4E79). Played through the real `bnomic` command line."""
import shutil
from pathlib import Path

from conftest import Game
from bnomic.handlers.entities import behalves, behalf_in
from bnomic.store import Corporation, Player, close_database, open_database

SCHEMAS = Path(__file__).parent / "schemas"
AT = "2008-09-01T12:00:00Z"


def two(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.join("Ais", "2008-09-01T09:00:00Z")
    return game


def rows_of(game):
    open_database(game.db)
    try:
        return ([(c.name, c.color, c.entity.mackerel, c.officers) for c in Corporation.select()],
                [(p.name, p.is_player) for p in Player.select().order_by(Player.id)])
    finally:
        close_database()


def test_a_new_game_has_no_corporation_rows_yet_lists_all_eight_laundries(game):
    two(game)
    assert rows_of(game)[0] == []             # nothing made: the digest of a game that never
    corps = game.show("corporations")          # names them is what it was before issue 15
    assert [c["name"] for c in corps] == [
        "Blue Corporation", "Black Corporation", "Brown Corporation", "Burnt Sienna Corporation",
        "Beige Corporation", "Burgundy Corporation", "Brick Red Corporation", "Baby Blue Corporation"]
    assert all(c["laundry"] and c["mackerel"] == 0 and c["officers"] == [] for c in corps)


def test_a_player_gives_to_a_laundry_corporation(game):
    two(game)
    r = game.post("wooble@example.org", "I give m5 to the Burnt Sienna Corporation.\n"
                  "I give m3 to Blue Corporation.", AT)
    assert r.count("Done (Rule 4E33)") == 2, r
    corps, people = rows_of(game)
    assert corps == [("Burnt Sienna Corporation", "Burnt Sienna", 5, []),
                     ("Blue Corporation", "Blue", 3, [])]
    assert ("Burnt Sienna Corporation", False) in people
    assert game.players()["Wooble"]["mackerel"] == 42
    assert "Burnt Sienna Corporation" not in game.players()       # a Corporation is not a Player
    shown = {c["name"]: c for c in game.show("corporations")}
    assert shown["Burnt Sienna Corporation"]["mackerel"] == 5
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest


def test_nobody_is_named_like_nothing(game):
    two(game)
    r = game.post("wooble@example.org", "I give m5 to the Mauve Corporation.", AT)
    assert "there is no Player or Corporation named 'Mauve Corporation' (Rule 4E33)" in r, r


def test_a_player_cannot_take_a_laundry_corporations_name(game):
    r = game.join("Blue Corporation", "2008-09-01T09:00:00Z", address="blue@example.org")
    assert "is a Laundry Corporation's (Rule 4E68)" in r and "(Rule 4E4)" in r, r
    assert "Blue Corporation" not in game.players()


def test_on_behalf_of_a_corporation_without_officers_is_refused_not_done_as_oneself(game):
    """The defect: "On behalf of the Blue Corporation, I give m1 to Ais" gave the
    sender's own mackerel; a Laundry Corporation has no Officers (docs/readings.md)."""
    two(game)
    r = game.post("wooble@example.org", "On behalf of the Blue Corporation, I give m1 to Ais.\n"
                  "On behalf of the Blue Corporation:\nI give m2 to Ais.\n\nOn my own behalf:\n"
                  "I give m4 to Ais.", AT)
    assert r.count("the Blue Corporation has no Officers, so no one may act on its behalf") == 2, r
    assert "(Rule 4E79)" in r
    people = game.players()
    assert people["Wooble"]["mackerel"] == 46 and people["Ais"]["mackerel"] == 54


def test_on_behalf_of_another_player_is_refused(game):
    two(game)
    r = game.post("wooble@example.org", "On behalf of Ais:\nI give m1 to Wooble.", AT)
    assert "Ais is a Player, and acts only for itself" in r, r
    assert game.players()["Ais"]["mackerel"] == 50


def test_whose_behalf_each_reading_is():
    text = ("I give m1 to Ais.\nOn behalf of the Blue Corporation:\nI give m2 to Ais. I vote FOR 3.\n"
            "On my own behalf:\nI give m3 to Ais.\nOn behalf of Acme, I give m4 to Ais. I give m5 to Ais.")
    readings = ["I give m1 to Ais", "I give m2 to Ais", "I vote FOR 3", "I give m3 to Ais",
                "On behalf of Acme, I give m4 to Ais", "I give m5 to Ais"]
    assert behalves(text, readings) == [None, "the Blue Corporation", "the Blue Corporation", None,
                                        "Acme", None]
    assert behalf_in("On behalf of the Burnt Sienna Corporation, I give m20 to Wooble") == \
        "the Burnt Sienna Corporation"
    assert behalf_in("I give m5 to Wooble on behalf of nobody") is None
    # a heading that is talk is no statement for the lines under it
    assert behalves("Acting for the good of the game:\nI give m1 to Ais.", ["I give m1 to Ais"]) == [None]
    assert behalves("In the name of all that is holy, I give m1 to Ais.",
                    ["In the name of all that is holy, I give m1 to Ais"]) == [None]


def test_an_old_game_replays_to_its_own_digest(tmp_path):
    """A version-10 game, upgraded: no Corporation rows appear, and a replay of its log
    gives the digest it had (the Laundry Corporations exist without rows)."""
    game = Game.__new__(Game)
    game.tmp, game.db = tmp_path, str(tmp_path / "v10.db")
    shutil.copyfile(SCHEMAS / "v10.db", game.db)
    game.cli("migrate")
    before = game.digest()
    game.cli("rebuild")
    assert game.digest() == before
    assert rows_of(game)[0] == []
    r = game.post("wooble@thewoobles.example", "I give m1 to the Baby Blue Corporation.",
                  "2008-09-16T13:00:00Z")
    assert "Done (Rule 4E33)" in r, r
    assert {c["name"]: c["mackerel"] for c in game.show("corporations")}["Baby Blue Corporation"] == 1


def test_version_11_upgrades_a_real_version_10_game(tmp_path):
    """The v11 step adds the tables of Legal Entities and Contracts, empty, and
    keeps every row of the v10 fixture game."""
    import sqlite3
    path = tmp_path / "v10.db"
    shutil.copyfile(SCHEMAS / "v10.db", path)
    con = sqlite3.connect(path)
    before = {t: con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
              for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    con.close()
    game = Game.__new__(Game)
    game.tmp, game.db = tmp_path, str(path)
    game.cli("migrate")
    con = sqlite3.connect(path)
    try:
        after = {t: con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                 for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert con.execute("SELECT version FROM schemaversion").fetchone()[0] >= 11   # the current version, 11 or later
    finally:
        con.close()
    new = {"corporation", "contract", "contractparty", "contractversion", "delegation", "breach"}
    new |= {"trick", "trickdraw", "sock"}       # issue 15, part B (Rules 4E71, 4E68)
    new |= {"subgame", "victorycondition"}      # issue 15, part C (Rules 4E82, 4E36)
    new |= {"snapshot"}                         # issue 16: state snapshots (derived)
    new |= {"snapshotpart"}                     # issue 16, part E: their parts (schema 12)
    new |= {"parsedmail"}                       # issue 16, part H: each mail's parsed fields (schema 13)
    new |= {"statewrites", "statelow"}          # issue 16: the state tables' write counts (schema 14)
    assert set(after) - set(before) == new
    assert after.pop("statewrites") == 34       # (a row per state table but the ledgers, counting from 0)
    assert all(after[t] == 0 for t in new if t in after)
    assert {t: n for t, n in after.items() if t in before} == before
    assert before["player"] > 0 and before["message"] > 0
