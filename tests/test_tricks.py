"""The Beast's Tricks (Rule 4E71) and the Ranger, played by mail through the
real CLI: a Trick Taught with support and without objection, drawn at the
start of nday 5 with the game's seeded chance (the draw published and checked
against the seed), Reinforced and Punished until it ceases to exist; a Ranger
who keeps the duty is obliged, and after 1 rday any Player may select."""
from __future__ import annotations

import hashlib
import random
from datetime import datetime, timezone

from bnomic.handlers.context import game_config
from bnomic.mailer import publish
from bnomic.store import Outbox, open_database, write_transaction


def mail(name: str) -> str:
    return f"{name.lower()}@example.org"


def setup(game, *names):
    for i, n in enumerate(names):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    game.admin("clock", "on")


def events(game, kind=None):
    return [e for e in game.show("events") if kind is None or e["kind"] == kind]


def roll(event_seq: int, total: int) -> int:
    """What Context.rng() draws for the event `event_seq` of a game seeded "test-seed"."""
    digest = hashlib.sha256(f"test-seed:{event_seq}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big")).randrange(total) + 1


TEACH = ("I intend to teach the Beast the following Trick with support and without objection:\n"
         "{changes}\nEND TRICK\n")


def teach(game, author, supporter, changes, at_day, extra=""):
    r = game.post(mail(author), TEACH.format(changes=changes) + extra, f"2008-09-{at_day}T10:00:00Z")
    assert "intent #" in r, r
    number = int(r.split("intent #")[1].split()[0].strip(").,:;"))
    return number


def support(game, supporter, number, day):
    """Rules 4E21, 4E22: support given late enough that its 2 ndays reach the
    end of the wait without objection."""
    r = game.post(mail(supporter), f"I support intent #{number}.", f"2008-09-{day}T11:00:00Z")
    assert "Done" in r, r


def test_a_trick_taught_drawn_at_nday_5_reinforced_and_punished_to_nothing(game):
    setup(game, "Wooble", "Ais523", "Chuck")
    game.admin("setting", "beast.trick_response", "2")
    r = game.post(mail("Wooble"), "I become the Ranger.", "2008-09-01T09:00:00Z")
    assert "Done" in r
    # Rule 4E71: "with support and without objection": not without the intent
    r = game.post(mail("Chuck"), "I teach the Beast a new Trick.", "2008-09-01T09:30:00Z")
    assert "Done" not in r and "(Rule 4E" in r
    teach(game, "Wooble", "Ais523", "Set the mackerel of The Beast to m20", "01")
    # a Trick whose changes bnomic cannot read is refused, with the rule
    teach(game, "Chuck", "Ais523", "The Beast dances a jig", "01")
    game.tick("2008-09-03T00:00:00Z")
    support(game, "Ais523", 1, "03")
    support(game, "Ais523", 2, "03")
    game.tick("2008-09-04T00:00:00Z")                   # two ndays after the intents' nday
    r = game.post(mail("Chuck"), "I teach the Beast the Trick.", "2008-09-04T09:00:00Z")
    assert "must all be in the change language" in r and "(Rule 4E71)" in r
    r = game.post(mail("Wooble"), "Having had support and no objection, I teach the Beast the Trick.",
                  "2008-09-04T10:00:00Z")
    assert "Done" in r and "Trick 1, Response 2, Timing Anytime" in r, r
    tricks = game.show("tricks")
    assert [(t["number"], t["response"], t["timing"], t["exists"]) for t in tricks["tricks"]] == [
        (1, 2, "Anytime", True)]
    assert tricks["last"] is None
    # nobody may Reinforce before a Trick was performed
    r = game.post(mail("Ais523"), "I reinforce the last Trick.", "2008-09-04T11:00:00Z")
    assert "the Beast has performed no Trick yet (Rule 4E71)" in r

    # the start of nday 5: the Beast performs a Trick, drawn by bnomic for the Ranger
    game.tick("2008-09-05T00:00:00Z")
    assert game.clock()["nday"] == 5
    (due,) = events(game, "trick_due")
    assert "The mode of selection: bnomic draws it with the game's seeded chance" in due["summary"]
    (draw,) = events(game, "trick_draw")
    assert draw["seq"] > due["seq"]                     # announced before it is drawn
    assert draw["data"]["roll"] == roll(draw["seq"], 2) and draw["data"]["trick"] == 1
    assert draw["data"]["candidates"] == [{"trick": 1, "response": 2, "timing": "Anytime"}]
    assert "bnomic, for the Ranger (Wooble), draws" in draw["summary"]
    assert game.players()["The Beast"]["mackerel"] == 20
    assert any("the Beast performs Trick 1" in e["summary"] for e in events(game, "trick"))
    # both are published to the list
    open_database(game.db)
    with write_transaction():
        publish.notify(game_config(), datetime(2008, 9, 5, 0, 1, tzinfo=timezone.utc))
    mails = {o.subject: o.body for o in Outbox.select().where(Outbox.kind.startswith("trick"))}
    assert set(mails) == {"[B Nomic] The Beast, nweek 1 nday 5: a Trick is due: the mode of selection",
                          "[B Nomic] The Beast, nweek 1 nday 5: the Trick drawn"}, mails
    drawn = mails["[B Nomic] The Beast, nweek 1 nday 5: the Trick drawn"]
    assert "Trick 1 (Timing Anytime): Response 2, numbers 1-2" in drawn
    assert f"Drawn: {draw['data']['roll']} of 1-2" in drawn and "Set the mackerel of The Beast to m20" in drawn
    assert game.show("tricks")["last"]["trick"] == 1

    # Reinforce and Punish, once each per player until the next Trick
    r = game.post(mail("Ais523"), "I reinforce the last Trick.", "2008-09-05T10:00:00Z")
    assert "Done" in r and "Response 3" in r
    r = game.post(mail("Ais523"), "I punish the last Trick.", "2008-09-05T10:10:00Z")
    assert "you have Reinforced or Punished since the Beast last performed a Trick" in r
    assert "(Rule 4E71)" in r
    r = game.post(mail("Chuck"), "I punish the Beast's last Trick.", "2008-09-05T10:20:00Z")
    assert "Done" in r and "Response 2" in r
    r = game.post(mail("Wooble"), "I punish Trick 1.", "2008-09-05T10:30:00Z")
    assert "Done" in r and "Response 1" in r
    r = game.post(mail("The Beast"), "I punish Trick 1.", "2008-09-05T10:40:00Z")
    assert "Done" not in r

    # the next performance lets them respond again; Punished to 0 it ceases to exist
    game.tick("2008-09-09T00:00:00Z")                   # the start of nday 9
    assert game.clock()["nday"] == 9
    assert len(events(game, "trick_draw")) == 2
    assert game.players()["The Beast"]["mackerel"] == 20      # set to m20 again
    r = game.post(mail("Chuck"), "I punish the last Trick.", "2008-09-09T10:00:00Z")
    assert "Done" in r and "ceases to exist" in r
    r = game.post(mail("Ais523"), "I reinforce the last Trick.", "2008-09-09T10:10:00Z")
    assert "Trick 1 has ceased to exist (Rule 4E71)" in r
    assert [t["exists"] for t in game.show("tricks")["tricks"]] == [False]
    ranger = game.cli("show", "display", "Ranger")
    assert "CEASED TO EXIST" in ranger and "Trick 1 (its Response would have become 0)" in ranger
    assert "THE LAST TRICK PERFORMED" in ranger

    # no Trick exists: the next nday 1 performs none and records nothing
    game.next_nweek()
    assert len(events(game, "trick_due")) == 2

    # a rebuild of the log draws the same
    before = game.digest()
    game.cli("rebuild")
    assert game.digest() == before


def test_a_voting_trick_is_drawn_only_during_voting(game):
    setup(game, "Wooble", "Ais523")
    game.post(mail("Wooble"), "I become the Ranger.", "2008-09-01T09:00:00Z")
    teach(game, "Wooble", "Ais523", "Set the points of Ais523 to 7\nTiming: Voting", "01")
    # the Timing said in the sentence of the intent instead of the document
    r = game.post(mail("Ais523"), "I intend to teach the Beast the following Trick with Timing Voting, "
                  "with support and without objection:\nSet the points of Ais523 to 7\nEND TRICK\n",
                  "2008-09-01T12:00:00Z")
    assert "intent #2" in r, r
    game.tick("2008-09-03T00:00:00Z")
    support(game, "Ais523", 1, "03")
    support(game, "Wooble", 2, "03")
    game.tick("2008-09-04T00:00:00Z")
    r = game.post(mail("Wooble"), "I teach the Beast the Trick.", "2008-09-04T10:00:00Z")
    assert "Trick 1, Response 10, Timing Voting" in r, r
    r = game.post(mail("Ais523"), "I teach the Beast the Trick.", "2008-09-04T10:10:00Z")
    assert "Trick 2, Response 10, Timing Voting" in r, r
    game.tick("2008-09-05T00:00:00Z")
    (draw,) = events(game, "trick_draw")
    assert "no Trick may be performed" in draw["summary"] and draw["data"]["trick"] is None
    assert game.players()["Ais523"]["points"] != 7
    game.tick("2008-09-09T00:00:00Z")                   # Voting: they may be performed
    draw = events(game, "trick_draw")[-1]
    assert draw["data"]["trick"] == (1 if draw["data"]["roll"] <= 10 else 2)
    assert draw["data"]["roll"] == roll(draw["seq"], 20)
    assert game.players()["Ais523"]["points"] == 7


def a_trick_due_and_wooble_the_ranger(game):
    """Wooble the Ranger keeping the duty; Trick 1 (Chuck's mackerel to m1) taught; nday 5 begun."""
    setup(game, "Wooble", "Ais523", "Chuck")
    game.post(mail("Wooble"), "I become the Ranger. I take back the duty to select Tricks.",
              "2008-09-01T09:00:00Z")
    teach(game, "Ais523", "Chuck", "Set the mackerel of Chuck to m1", "01")
    game.tick("2008-09-03T00:00:00Z")
    support(game, "Chuck", 1, "03")
    game.tick("2008-09-04T00:00:00Z")
    assert "Done" in game.post(mail("Ais523"), "I teach the Beast the Trick.", "2008-09-04T10:00:00Z")
    game.tick("2008-09-05T00:00:00Z")


def test_a_ranger_who_keeps_the_duty_is_obliged_and_any_player_may_after_1_rday(game):
    a_trick_due_and_wooble_the_ranger(game)
    assert not events(game, "trick_draw")
    assert any("select the Trick the Beast performs" in e["summary"] for e in events(game, "obligation"))
    r = game.post(mail("Chuck"), "I select the Trick the Beast performs.", "2008-09-05T10:00:00Z")
    assert "only the Ranger selects the Trick until 2008-09-06 00:00 UTC" in r and "(Rule 4E71)" in r
    game.tick("2008-09-06T00:00:00Z")
    r = game.post(mail("Chuck"), "I randomly select the Beast's Trick.", "2008-09-06T08:00:00Z")
    assert "Done" in r and "the Beast performs Trick 1" in r, r
    (draw,) = events(game, "trick_draw")
    assert draw["data"]["by"] == "Chuck" and draw["data"]["roll"] == roll(draw["seq"], 10)
    assert game.players()["Chuck"]["mackerel"] == 1
    assert any("fulfilled" in e["summary"] for e in events(game, "obligation"))
    r = game.post(mail("Wooble"), "I select the Beast's Trick.", "2008-09-06T09:00:00Z")
    assert "the Beast is not due to perform a Trick now" in r


def test_the_ranger_names_the_trick_its_own_announced_mode_gave(game):
    # Rule 4E71: the Ranger selects "using a mode of selection that must be announced"; a
    # Ranger who says which Trick it selected has it performed, not bnomic's own draw
    a_trick_due_and_wooble_the_ranger(game)
    r = game.post(mail("Wooble"), "I select Trick 7 to be performed.", "2008-09-05T10:00:00Z")
    assert "Refused: Trick 7 may not be performed now (those that may: Trick 1) (Rule 4E71)" in r, r
    r = game.post(mail("Wooble"), "By the d20 I announced: 14. I select Trick 1 (the mackerel one).",
                  "2008-09-05T10:10:00Z")
    assert "Done" in r and "the Beast performs Trick 1" in r, r
    (draw,) = events(game, "trick_draw")
    assert draw["data"]["by"] == "the Ranger (Wooble)" and draw["data"]["mode"] == "announced by the selector"
    assert "roll" not in draw["data"] and game.players()["Chuck"]["mackerel"] == 1
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest


# ------------------------------------------------------------ schema version 11

def test_v11_upgrades_the_real_v10_game_with_its_data(tmp_path):
    """Version 11 adds the tables `trick` and `trickdraw` and the [beast] keys;
    every row of the v10 fixture is kept, the schema is a fresh game's, and the
    game plays on and replays."""
    import json
    import sqlite3

    from conftest import Game
    from test_migrations import Copy, checks, counts, schema

    (tmp_path / "old").mkdir()
    (tmp_path / "fresh").mkdir()
    game = Copy(tmp_path / "old", 10)
    before = counts(game.db)
    out = json.loads(game.cli("migrate", "--json"))
    assert out["from"] == 10 and out["to"] >= 11
    after = counts(game.db)
    assert {t: n for t, n in after.items() if t in before} == before
    assert after["trick"] == after["trickdraw"] == after["sock"] == 0
    fresh = Game(tmp_path / "fresh")
    assert {t: c for t, c in schema(game.db).items() if t in ("trick", "trickdraw", "sock")} == \
        {t: c for t, c in schema(fresh.db).items() if t in ("trick", "trickdraw", "sock")}
    con = sqlite3.connect(game.db)
    config = json.loads(con.execute("SELECT config FROM setup").fetchone()[0])
    con.close()
    assert config["beast"] == {"trick_response": 10, "trick_ndays": [1, 5, 9], "ranger_grace": "1 rdays"}
    assert config["socks"] == {"most_at_once": 100}
    r = game.post("wooble@thewoobles.example", "I reinforce the last Trick.", "2008-09-16T13:00:00Z")
    assert "the Beast has performed no Trick yet (Rule 4E71)" in r
    game.cli("rebuild")
    replayed = game.digest()
    game.cli("rebuild")
    assert game.digest() == replayed
    assert checks(game.db) == ([], ["ok"])


def test_a_stance_on_a_players_trick_is_on_the_intent_to_teach_it(game):
    # Rules 4E21, 4E22, 4E71: a Trick is taught only under an intent; "Wooble's Trick" names it
    setup(game, "Wooble", "Ais523", "Chuck")
    number = teach(game, "Wooble", "Ais523", "Set the mackerel of The Beast to m20", "01")
    r = game.post(mail("Ais523"), "I support Wooble's Trick.", "2008-09-01T11:00:00Z")
    assert "Done" in r and f"support intent {number}" in r, r
    r = game.post(mail("Ais523"), "On reflection, I withdraw my support for Wooble's Trick.", "2008-09-01T12:00:00Z")
    assert "Done" in r, r
    r = game.post(mail("Chuck"), "I object to Wooble's Trick. A Beast that votes is a Beast that can be steered.",
                  "2008-09-01T13:00:00Z")
    assert "Done" in r and f"object to intent {number}" in r, r
