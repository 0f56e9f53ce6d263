"""Rules 4E36 and 4E75: the ruleset a game starts with, and its display."""
import json


def test_the_seed_ruleset_is_the_default(game):
    rules = game.show("rules")
    numbers = [r["number"] for r in rules]
    assert "4E14" in numbers and "4E28" in numbers and "4E0" in numbers
    assert len(rules) == 57
    r14 = next(r for r in rules if r["number"] == "4E14")
    assert (r14["title"], r14["power"], r14["section"]) == ("NTime", "1/2", "Time")
    assert r14["text"].startswith("#### Definition\n\nThere is a Game Object known as The Clock.")
    # the markdown glitch: Rule 4E28 sits inside 4E19, and is a rule of its own
    r19 = next(r for r in rules if r["number"] == "4E19")
    assert "Active Players" not in r19["text"]
    assert next(r for r in rules if r["number"] == "4E28")["title"] == "Active Players"


def test_init_with_a_ruleset_file(tmp_path):
    from conftest import Game
    (tmp_path / "tiny.txt").write_text("# Tiny\n\n## Foundation\n\n### Rule 4E1: One\n\nThe first.\n\n"
                                       "### Rule 4E7: Seven\n\nThe seventh.\n")
    game = Game(tmp_path, ruleset=str(tmp_path / "tiny.txt"))
    assert [(r["number"], r["title"], r["text"]) for r in game.show("rules")] == [
        ("4E1", "One", "The first."), ("4E7", "Seven", "The seventh.")]
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest
    (tmp_path / "empty.txt").write_text("nothing here\n")
    code, _, err = game.run("init", "--db", str(tmp_path / "other.sqlite"), "--ruleset",
                            str(tmp_path / "empty.txt"))
    assert code == 1 and "holds no rules" in err


def test_the_rulekeepers_display(game):
    text = game.cli("show", "display", "Rulekeeper")
    assert "THE RULES (57), with their Powers (Rule 4E75)" in text
    assert "Rule 4E14: NTime (Power 1/2)" in text and "== Time ==" in text
    payload = json.loads(game.cli("show", "display", "Law", "--json"))
    assert payload["name"] == "Law"
