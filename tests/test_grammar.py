"""Rule 4E7: reading actions from what a player wrote, in order, with repeats;
near-misses reported, conversation ignored."""
import pytest

from bnomic.handlers import grammar


def names(text):
    return [(r.spec.name if r.spec else None, r.times) for r in grammar.read(text)]


@pytest.mark.parametrize("text, action", [
    ("I join as Wooble", "join"),
    ("I wish to become a Player under the name Wooble.", "join"),
    ("i would like to join the game as Ais523", "join"),
    ("Please register me as Chuck", "join"),
    ("I hereby join B Nomic, as Dana.", "join"),
    ("I forfeit.", "forfeit"),
    ("I quit the game", "forfeit"),
    ("I give m10 to Wooble", "give"),
    ("I give 10 mackerel to Wooble!", "give"),
    ("I pay Wooble 3 macks", "give"),
    ("I transfer m5 to Wooble", "give"),
    ("I exchange 2 points for mackerel", "exchange"),
    ("I convert 3 points into m15", "exchange"),
    ("I remove the Active property from Wooble", "remove_active"),
    ("I remove Wooble's Active property", "remove_active"),
    ("I deactivate Wooble", "remove_active"),
])
def test_phrasings(text, action):
    assert names(text) == [(action, 1)]


def test_several_actions_happen_in_the_order_written():
    text = "Hi all.\nI give m1 to Ann. I give m2 to Bea; I forfeit.\n\nCheers"
    readings = grammar.read(text)
    assert [(r.spec.name, r.args.get("player")) for r in readings] == [
        ("give", "Ann"), ("give", "Bea"), ("forfeit", None)]


@pytest.mark.parametrize("text, times", [
    ("I give m1 to Wooble 3 times", 3), ("I give m1 to Wooble three times", 3),
    ("I give m1 to Wooble twice", 2), ("I give m1 to Wooble, 12 times.", 12)])
def test_repeats(text, times):
    assert names(text) == [("give", times)]


def test_conversation_is_ignored_and_near_misses_reported():
    text = "I think the weather is nice.\nI frobnicate the Active property of Wooble.\nHow are you?"
    readings = grammar.read(text)
    assert len(readings) == 1
    assert readings[0].spec is None
    assert "I remove the Active property from Wooble" in readings[0].suggestions


def test_repeat_is_applied_each_time_and_stops_when_illegal(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.join("Ais523", "2008-09-01T09:00:00Z")
    r = game.post("ais523@example.org", "I give m20 to Wooble 3 times", "2008-09-01T10:00:00Z")
    assert "done 2 of 3 times; then refused: Ais523 has m10, less than m20" in r
    assert game.players()["Wooble"]["mackerel"] == 90


def test_quoted_text_signature_and_comments_are_not_acted_on(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.join("Ais523", "2008-09-01T09:00:00Z")
    body = ("On Mon, Wooble wrote:\n> I give m10 to Ais523\n\nI give m1 to Wooble. "
            "/* I give m5 to Wooble */ [[I give m7 to Wooble]]\n-- \nI give m9 to Wooble\n")
    r = game.post("ais523@example.org", body, "2008-09-01T10:00:00Z")
    assert r.count("Done") == 1
    players = game.players()
    assert (players["Wooble"]["mackerel"], players["Ais523"]["mackerel"]) == (51, 49)


def test_too_many_repeats_are_refused_not_cut(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    r = game.post("wooble@example.org", "I give m0 to The Beast 5000 times", "2008-09-01T10:00:00Z")
    assert "at most 100 times in one message; nothing was done (Rule 4E7)" in r
    assert [e for e in game.show("events") if e["rule"] == "4E33"] == []


def test_number_words_and_all_my_points(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.admin("set", "Wooble", "points", "3")
    r = game.post("wooble@example.org", "I give ten macks to The Beast. I exchange two points for "
                  "mackerel. I exchange all my points for mackerel.", "2008-09-01T10:00:00Z")
    assert r.count("Done") == 3, r
    p = game.players()["Wooble"]
    assert (p["points"], p["mackerel"]) == (0, 50 - 10 + 15)
