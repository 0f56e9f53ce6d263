"""The change language (handlers/changes.py): what Proposals, Tweaks, Tidiness
Lists and Oracularities say to change, read and then made in a real game."""
import pathlib
import re
from fractions import Fraction

import pytest

from bnomic.handlers import changes, rules
from bnomic.handlers.changes import Change, count_corrections, parse
from bnomic.handlers.context import Context, Rejected, game_config
from bnomic.handlers.settings import read_value, set_setting
from bnomic.store import Event, Game as GameRow, Player, Rule, Setting, database, open_database

AT = "2008-09-01T00:00:00+00:00"         # the game's start: when the changes are made


def one(body: str) -> Change:
    parsed = parse(body)
    assert len(parsed.changes) == 1 and parsed.prose == [], parsed
    return parsed.changes[0]


# ------------------------------------------------------------------ reading

@pytest.mark.parametrize("body, kind, args", [
    ('Create a rule titled "Eras" and text: {{There are Eras.}}',
     "create_rule", {"title": "Eras", "section": "", "text": "There are Eras."}),
    ('Create a new rule titled "Eras" with Power 2/3 in section "Time" and text: {{ X. }}',
     "create_rule", {"title": "Eras", "power": "2/3", "section": "Time", "text": "X."}),
    ('create a new rule entitled “Eras”, in section "Time", with power 1 and text {{X}}',
     "create_rule", {"title": "Eras", "power": "1", "section": "Time", "text": "X"}),
    ('Create a rule with text: "Short."', "create_rule", {"title": "", "section": "", "text": "Short."}),
    ("Amend Rule 4E30 to read: {{A Few = 5}}", "amend_rule", {"number": 30, "text": "A Few = 5"}),
    ("Amend Rule 30 so that it reads as follows: {{A Few = 5}}", "amend_rule",
     {"number": 30, "text": "A Few = 5"}),
    ('amend 4E30 to read "A Few = 5"', "amend_rule", {"number": 30, "text": "A Few = 5"}),
    ("Replace the text of Rule 4E30 with {{New.}}", "amend_rule", {"number": 30, "text": "New."}),
    ("Repeal Rule 4E60", "repeal_rule", {"number": 60}),
    ("repeal rule 60", "repeal_rule", {"number": 60}),
    ("Repeal 4E60", "repeal_rule", {"number": 60}),
    ('Retitle Rule 4E9 to "Eras"', "retitle_rule", {"number": 9, "title": "Eras"}),
    ('Rename Rule 9 as “Eras”', "retitle_rule", {"number": 9, "title": "Eras"}),
    ('Change the title of Rule 4E9 to "Eras"', "retitle_rule", {"number": 9, "title": "Eras"}),
    ("Set the Power of Rule 4E14 to 3/4", "set_power", {"number": 14, "power": "3/4"}),
    ("set the power of rule 14 to 3 / 4", "set_power", {"number": 14, "power": "3 / 4"}),
    ("Change the Power of 4E14 to 0.75", "set_power", {"number": 14, "power": "0.75"}),
    ('In Rule 4E30, replace "recieve" with "receive"', "replace_text",
     {"number": 30, "old": "recieve", "new": "receive"}),
    ('Replace "recieve" with "receive" in Rule 4E30', "replace_text",
     {"number": 30, "old": "recieve", "new": "receive"}),
    ("Replace “a. b” by “a; b” in Rule 30", "replace_text", {"number": 30, "old": "a. b", "new": "a; b"}),
    ("Set the mackerel of Wooble to m50", "set_attribute",
     {"attribute": "mackerel", "player": "Wooble", "value": "m50"}),
    ("Set the points of Wooble to 10", "set_attribute",
     {"attribute": "points", "player": "Wooble", "value": "10"}),
    ("Set Wooble's mackerel to m50", "set_attribute",
     {"attribute": "mackerel", "player": "Wooble", "value": "m50"}),
    ("Set Wooble’s Points to 3", "set_attribute",
     {"attribute": "points", "player": "Wooble", "value": "3"}),
    ('Set the points of "Ais 523" to 1', "set_attribute",
     {"attribute": "points", "player": "Ais 523", "value": "1"}),
    ("Set A Jiffy to 4 rdays", "set_quantity",
     {"key": "quantities.a_jiffy", "name": "A Jiffy", "value": "4 rdays"}),
    ("Set A Few to 5", "set_quantity", {"key": "quantities.a_few", "name": "A Few", "value": "5"}),
    ("Set the Official Quantity A Confused Baker's Dozen to 15", "set_quantity",
     {"key": "quantities.a_confused_bakers_dozen", "name": "A Confused Baker's Dozen", "value": "15"}),
    ("Set An nDozen to 12", "set_quantity", {"key": "quantities.an_ndozen", "name": "An nDozen",
                                             "value": "12"}),
    ("Set the configuration key players.weekly_income to 30", "set_quantity",
     {"key": "players.weekly_income", "name": "players.weekly_income", "value": "30"}),
    ('Set the configuration key players.beast to "The Monster"', "set_quantity",
     {"key": "players.beast", "name": "players.beast", "value": "The Monster"}),
])
def test_every_phrasing(body, kind, args):
    change = one(body)
    assert (change.kind, change.args) == (kind, args)
    assert change.text == body


def test_instructions_on_lines_and_in_sentences_with_list_marks():
    parsed = parse("1. Repeal Rule 4E60.\n2) Repeal Rule 61; Repeal Rule 62. Repeal 4E63\n"
                   "- Set A Few to 5.\n* Set the points of Wooble to 10\n• Repeal Rule 64")
    assert [(c.kind, c.args.get("number")) for c in parsed.changes] == [
        ("repeal_rule", 60), ("repeal_rule", 61), ("repeal_rule", 62), ("repeal_rule", 63),
        ("set_quantity", None), ("set_attribute", None), ("repeal_rule", 64)]
    assert parsed.prose == []


def test_a_block_spans_lines_and_keeps_its_dots_comments_and_headings():
    body = ("Amend Rule 4E30 to read: {{\n#### Definition\n\nA Few = 5. A Lot = 63;\n"
            "// not a comment here\n/* Comment Text of the rule */ [[ and this ]]\n}}. Repeal Rule 4E60.")
    parsed = parse(body)
    assert [c.kind for c in parsed.changes] == ["amend_rule", "repeal_rule"]
    assert parsed.changes[0].args["text"] == (
        "#### Definition\n\nA Few = 5. A Lot = 63;\n// not a comment here\n"
        "/* Comment Text of the rule */ [[ and this ]]")
    assert parsed.prose == []


def test_a_block_or_the_rest_of_an_instruction_on_the_next_lines():
    parsed = parse('Create a new rule titled "Eras"\nwith Power 2/3\nand text:\n{{\nEras.\n}}\n'
                   "Set the Power of Rule 4E14\nto 1\n")
    assert [(c.kind, c.args.get("power")) for c in parsed.changes] == [
        ("create_rule", "2/3"), ("set_power", "1")]
    assert parsed.changes[0].args["text"] == "Eras."
    # a blank line, or a sentence's end, ends an instruction
    assert parse("Set the Power of Rule 4E14\n\nto 1").prose == [
        "Set the Power of Rule 4E14", "to 1"]
    assert parse("Set the Power of Rule 4E14. to 1").changes == []


def test_comments_are_neither_instructions_nor_prose():
    parsed = parse("# Proposal: tidiness\n// by Wooble\n  # indented too\n"
                   "Repeal Rule 4E60 /* it is silly. Really; */\n[[ Repeal Rule 4E61 ]]\n"
                   "/* Repeal Rule 4E62\n   over lines */")
    assert [c.args["number"] for c in parsed.changes] == [60]
    assert parsed.prose == []


def test_prose_is_kept_in_order_by_paragraph():
    parsed = parse("This proposal fixes the Beast. It is overdue.\n"
                   "Repeal Rule 4E60.\n"
                   "The Beast shall be fed\nby the Ranger. [[why?]] Daily.\n\n"
                   "Another paragraph; with a semicolon.\n"
                   'Set the points of Wooble to 10. He said "no. never"')
    assert [c.kind for c in parsed.changes] == ["repeal_rule", "set_attribute"]
    assert parsed.prose == ["This proposal fixes the Beast. It is overdue.",
                            "The Beast shall be fed\nby the Ranger. Daily.",
                            "Another paragraph; with a semicolon.",
                            'He said "no. never"']


def test_each_list_item_of_prose_is_a_part_of_its_own():
    parsed = parse("The Ranger shall:\n- feed the Beast\n- walk the Beast\n  every nday.\n"
                   "- Repeal Rule 4E60")
    assert parsed.prose == ["The Ranger shall:", "feed the Beast", "walk the Beast\n every nday."]
    assert [c.args for c in parsed.changes] == [{"number": 60}]


def test_what_is_not_closed_is_read_as_written():
    parsed = parse("Amend Rule 4E30 to read: {{ no end\nA /* dangling comment\n"
                   'Retitle Rule 4E9 to "Eras\nRepeal Rule 4E60')
    assert [c.kind for c in parsed.changes] == ["repeal_rule"]
    assert parsed.prose == ["Amend Rule 4E30 to read: {{ no end\nA /* dangling comment\n"
                            'Retitle Rule 4E9 to "Eras']


def test_windows_line_ends_and_blank_bodies():
    assert [c.kind for c in parse("Repeal Rule 4E60.\r\nRepeal Rule 4E61\r\n").changes] == [
        "repeal_rule", "repeal_rule"]
    assert parse("") == parse("  \n\n /* x */ \n") == changes.Parsed([], [])


def test_the_players_guide_examples_are_all_instructions():
    guide = (pathlib.Path(__file__).parent.parent / "docs" / "change-language.md").read_text()
    examples = re.findall(r"```\n(.*?)```", guide, re.S)
    examples += [cell.replace(" ... ", " x ") for cell in re.findall(r"^\| `(.+?)` \|", guide, re.M)]
    assert len(examples) > 15
    for example in examples:
        parsed = parse(example)
        assert parsed.changes and parsed.prose == [], example


def test_count_corrections():
    parsed = parse('In Rule 4E30, replace "a" with "b". Replace "c" with "d" in Rule 4E31.\n'
                   'Replace "e" with "f" in 4E32. Repeal Rule 4E60')
    assert count_corrections(parsed.changes) == 3
    assert count_corrections([]) == 0


# ------------------------------------------------------------------ applying

def run(game, body, source="Proposal 12", rule="4E15", together=False):
    """Parse body and make its changes in the game, as the engine would."""
    open_database(game.db)
    with database.atomic():
        ctx = Context(GameRow.get().now, "command")
        make = changes.apply_all_or_nothing if together else changes.apply
        return make(ctx, parse(body).changes, source, rule)


def rule_row(number):
    return Rule.get(Rule.number == number)


def rule_events():
    return [(e.rule, e.summary, e.data) for e in Event.select().where(Event.kind == "rule")
            .order_by(Event.seq)]


def test_amend_keeps_history_and_records_an_event(game):
    [done] = run(game, "Amend Rule 4E30 to read: {{\nA Few = 5.\nA Jiffy = 2 rdays.\n}}")
    assert done.ok and done.summary == "Rule 4E30 amended by Proposal 12"
    row = rule_row(30)
    assert row.text == "A Few = 5.\nA Jiffy = 2 rdays."
    assert row.history[0]["what"] == "in the initial ruleset"
    assert row.history[-1] == {"at": AT, "what": "amended by Proposal 12"}
    [(cited, summary, data)] = rule_events()
    assert cited == "4E36" and summary == done.summary
    assert data["under"] == "4E15" and data["after"] == row.text
    assert data["before"].startswith("For all game purposes")


def test_create_takes_the_next_number_and_the_default_power(game):
    open_database(game.db)
    first = rules.next_number()
    results = run(game, 'Create a rule titled "Eras" in section "Time" and text: {{There are Eras.}}\n'
                        'Create a new rule titled "Later" with Power 2/3 and text: "Later."',
                  source="Tweak 3", rule="4E77")
    assert all(r.ok for r in results), results
    assert results[0].summary == f"Rule 4E{first} created by Tweak 3"
    eras, later = rule_row(first), rule_row(first + 1)
    assert (eras.title, eras.section, eras.text) == ("Eras", "Time", "There are Eras.")
    assert Fraction(eras.power_num, eras.power_den) == Fraction(1, 2)      # Rule 4E75
    assert (later.title, later.section, later.power_num, later.power_den) == ("Later", "", 2, 3)
    assert eras.history == [{"at": AT, "what": "created by Tweak 3"}]
    assert rules.next_number() == first + 2


def test_a_number_once_used_is_not_used_again(game):
    open_database(game.db)
    first = rules.next_number()
    run(game, 'Create a rule titled "A" and text: "a". Repeal Rule 4E%d' % first)
    assert rule_row(first).repealed
    run(game, 'Create a rule titled "B" and text: "b"')
    assert rule_row(first + 1).title == "B"


def test_repeal_and_retitle(game):
    results = run(game, 'Repeal Rule 4E60. Retitle Rule 9 to "Eras"', source="Proposal 3")
    assert [r.ok for r in results] == [True, True]
    assert rule_row(60).repealed
    assert rule_row(60).history[-1] == {"at": AT, "what": "repealed by Proposal 3"}
    assert rule_row(9).title == "Eras"
    assert rule_row(9).history[-1]["what"] == "retitled by Proposal 3"
    assert 60 not in [r.number for r in rules.current()]


def test_a_repealed_or_missing_rule_cannot_be_changed(game):
    run(game, "Repeal Rule 4E60")
    results = run(game, "Amend Rule 4E999 to read: {{x}}\nRepeal Rule 4E60\n"
                        'Retitle Rule 4E60 to "x"\nSet the Power of Rule 4E999 to 1\n'
                        'In Rule 4E60, replace "a" with "b"\nRepeal Rule 4E68')
    assert [(r.ok, r.summary) for r in results] == [
        (False, "there is no Rule 4E999 (Rule 4E36)"),
        (False, "Rule 4E60 has been repealed (Rule 4E36)"),
        (False, "Rule 4E60 has been repealed (Rule 4E36)"),
        (False, "there is no Rule 4E999 (Rule 4E36)"),
        (False, "Rule 4E60 has been repealed (Rule 4E36)"),
        (True, "Rule 4E68 repealed by Proposal 12")]
    assert len(rule_row(60).history) == 2


def test_power_is_a_reduced_fraction_from_0_to_1(game):
    results = run(game, "Set the Power of Rule 4E14 to 6/8. Set the Power of Rule 4E15 to 1.\n"
                        "Set the Power of Rule 4E17 to 0.25. Set the Power of Rule 4E18 to 0\n"
                        "Set the Power of Rule 4E19 to 5/4. Set the Power of Rule 4E20 to 1/0\n"
                        "Set the Power of Rule 4E21 to lots")
    assert [r.ok for r in results] == [True] * 4 + [False] * 3
    assert [(rule_row(n).power_num, rule_row(n).power_den) for n in (14, 15, 17, 18, 19)] == [
        (3, 4), (1, 1), (1, 4), (0, 1), (1, 2)]
    assert rules.power(14) == Fraction(3, 4)
    assert rule_row(14).history[-1] == {"at": AT, "what": "power set to 3/4 by Proposal 12"}
    assert results[4].summary == ("'5/4' is not a Power: a Power is a rational number from 0 to 1, "
                                  "like 3/4 (Rule 4E75)")
    assert rule_events()[0][0] == "4E75"


def test_replace_corrects_every_occurrence_or_fails(game):
    run(game, "Amend Rule 4E30 to read: {{You recieve. They recieve. Recieve!}}")
    results = run(game, 'In Rule 4E30, replace "recieve" with "receive".\n'
                        'Replace "absent" with "present" in Rule 4E30\n'
                        'Replace "Recieve" with "Receive" in Rule 4E30', source="Tidiness List 2")
    assert [r.ok for r in results] == [True, False, True]
    assert results[0].summary == ("Rule 4E30 corrected by Tidiness List 2: “recieve” → “receive” "
                                  "(2 times)")
    assert results[1].summary == "Rule 4E30 does not contain “absent” (Rule 4E36)"
    assert rule_row(30).text == "You receive. They receive. Receive!"
    assert [h["what"] for h in rule_row(30).history[-2:]] == ["corrected by Tidiness List 2"] * 2


def test_player_points_and_mackerel(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    results = run(game, "Set the mackerel of Wooble to m80. Set the points of wooble to 10.\n"
                        "Set Wooble's mackerel to 75 macks\nSet the points of Nobody to 3\n"
                        "Set Wooble's points to -1\nSet the mackerel of Wooble to lots\n"
                        "Set Wooble's points to twelve")
    assert [(r.ok, r.summary) for r in results] == [
        (True, "Wooble's mackerel set from m50 to m80 by Proposal 12"),
        (True, "Wooble's points set from 0 to 10 by Proposal 12"),
        (True, "Wooble's mackerel set from m80 to m75 by Proposal 12"),
        (False, "there is no Player named 'Nobody' (Rule 4E4)"),
        (False, "points must be a whole number from 0 up (Rule 4E17)"),
        (False, "I cannot read 'lots' as an amount of currency; write it like m50 or 50 mackerel "
                "(Rule 4E34)"),
        (True, "Wooble's points set from 10 to 12 by Proposal 12")]
    wooble = Player.get(Player.name == "Wooble")
    assert (wooble.mackerel, wooble.points) == (75, 12)
    event = Event.select().where(Event.kind == "points").order_by(Event.seq.desc()).first()
    assert (event.rule, event.data["before"], event.data["after"]) == ("4E15", 10, 12)


def test_official_quantities_and_configuration_keys(game):
    results = run(game, "Set A Jiffy to 4 rdays. Set A Few to 5.\n"
                        "Set the configuration key players.weekly_income to 30\n"
                        "Set A Few to some. Set A Jiffy to 3 fortnights. Set An Insane Number to 3\n"
                        "Set the configuration key ministries.Law to 3\n"
                        "Set the configuration key no.such to 1. Set A Jiffy to 2 jiffies")
    assert [(r.ok, r.summary) for r in results] == [
        (True, "A Jiffy (quantities.a_jiffy) set from '3 rdays' to '4 rdays' by Proposal 12"),
        (True, "A Few (quantities.a_few) set from 4 to 5 by Proposal 12"),
        (True, "players.weekly_income set from 25 to 30 by Proposal 12"),
        (False, "quantities.a_few must be a whole number, not 'some' (Rule 4E30)"),
        (False, "quantities.a_jiffy must be a duration like \"3 rdays\", not '3 fortnights' (Rule 4E30)"),
        (False, "there is no Official Quantity called “An Insane Number” (Rule 4E30)"),
        (False, "'ministries.Law' is a table; set one of its keys (Rule 4E15)"),
        (False, "there is no configuration key 'no.such' (Rule 4E15)"),
        (False, "A Jiffy cannot be measured in Jiffies (Rule 4E30)")]
    assert {s.key: s.value for s in Setting.select()} == {
        "quantities.a_jiffy": "4 rdays", "quantities.a_few": 5, "players.weekly_income": 30}
    config = game_config()
    assert (config["quantities.a_jiffy"], config["quantities.a_few"]) == ("4 rdays", 5)
    event = Event.select().where(Event.kind == "setting").order_by(Event.seq).first()
    assert (event.rule, event.summary) == (
        "4E15", "configuration quantities.a_jiffy set from '3 rdays' to '4 rdays' by Proposal 12")


def test_a_setting_is_in_force_at_once(game):
    open_database(game.db)
    with database.atomic():
        ctx = Context(GameRow.get().now, "command")
        assert ctx.config["quantities.a_handful"] == 6
        assert set_setting(ctx, "quantities.a_handful", 7, by="Tweak 1", rule="4E77") == (6, 7)
        assert ctx.config["quantities.a_handful"] == 7
        with pytest.raises(Rejected, match="must be a whole number"):
            set_setting(ctx, "quantities.a_handful", "8", by="Tweak 1", rule="4E77")
    # the weekly income a proposal sets is what the next nweek pays
    run(game, "Set the configuration key players.weekly_income to 30")
    game.join("Wooble", "2008-09-01T10:00:00Z")
    game.next_nweek()
    assert game.players()["Wooble"]["mackerel"] == 80


@pytest.mark.parametrize("text, like, value", [
    ("30", 25, 30), ("1 000", 25, 1000), ("100,000,000", 25, 100_000_000), ("x", 25, "x"),
    ("4 rdays", "3 rdays", "4 rdays"), ("yes", False, True), ("off", True, False),
    ('["a@example.org"]', [], ["a@example.org"]), ("2.5", 1.0, 2.5),
])
def test_values_are_read_as_the_keys_kind(text, like, value):
    assert read_value(text, like) == value


def test_one_failure_does_not_stop_the_others(game):
    results = run(game, "Repeal Rule 4E999. Repeal Rule 4E60. Set A Few to 5")
    assert [r.ok for r in results] == [False, True, True]
    assert rule_row(60).repealed and game_config()["quantities.a_few"] == 5


def test_all_or_nothing_changes_nothing_when_one_fails(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    open_database(game.db)
    events, number = Event.select().count(), rules.next_number()
    body = ('Create a rule titled "Eras" and text: "E". Repeal Rule 4E60. Set A Few to 5.\n'
            "Set the points of Wooble to 9. Set the Power of Rule 4E14 to 1\n"
            "Amend Rule 4E999 to read: {{x}}")
    results = run(game, body, source="Oracularity 1", rule="4E18", together=True)
    assert [r.ok for r in results] == [False] * 6
    assert results[-1].summary == "there is no Rule 4E999 (Rule 4E36)"
    assert results[0].summary == ("not made: the changes stand or fall together, and "
                                  "“Amend Rule 4E999 to read: {{x}}” could not be made")
    assert Event.select().count() == events and rules.next_number() == number
    assert not rule_row(60).repealed and rules.power(14) == Fraction(1, 2)
    assert Setting.select().count() == 0 and game_config()["quantities.a_few"] == 4
    assert Player.get(Player.name == "Wooble").points == 0
    # and all of it when nothing fails
    results = run(game, body.rsplit("\n", 1)[0], source="Oracularity 1", rule="4E18", together=True)
    assert all(r.ok for r in results)
    assert rule_row(number).title == "Eras" and rule_row(60).repealed
    assert Player.get(Player.name == "Wooble").points == 9


def test_the_operators_setting_command_goes_through_the_same_function(game):
    game.admin("setting", "quantities.a_few", "5")
    assert game_config()["quantities.a_few"] == 5
    [event] = [e for e in game.show("events") if e["kind"] == "setting"]
    assert event["summary"] == "configuration quantities.a_few set from 4 to 5 by the operator"
    assert event["rule"] == "operator"
    code, _, err = game.run("admin", "setting", "ministries.Law", "3")
    assert code == 1 and "is a table" in err
