"""Issue 13: the actions of Ministries (4E14, 4E45-4E49), Obligations and Displays (4E50,
4E53), Proposals (4E15, 4E69) and Tweaks (4E32, 4E36, 4E77), read as frames: the words
each rule uses and the other wordings a careful officer accepts (Rule 4E7); what must
read to nothing; a dropped role named."""
import dataclasses
import re

import pytest

from bnomic.config import Config, defaults
from bnomic.handlers import engine, grammar, registry  # noqa: F401  (engine: every action registered)
from bnomic.handlers.ministries import aliases
from bnomic.handlers.vocabulary import Vocabulary

MINE = ("assign_ministry", "resign_ministry", "revise_reward", "usurp", "clock_off", "clock_on",
        "keep_duty", "delegate_duty", "remove_minister", "challenge_display", "answer_challenge",
        "updated_display", "approve_display", "submit_proposal", "revise_proposal",
        "withdraw_proposal", "number_proposals", "color_proposal", "submit_tweak", "activate_tweak",
        "submit_tidiness_list", "retitle_rule", "publish_ballot", "publish_results")

VOCAB = Vocabulary(players=("Alice", "Bob", "Wooble", "Carol"), actor="Alice",
                   ministries=aliases(Config(defaults())),
                   holders={"Change": "Bob", "Society": "Bob", "Law": "Alice"},
                   tweaks={3: "Alice", 4: "Bob"})


def read(text):
    return [(r.kind, r.spec.name if r.spec else None, r.args) for r in grammar.read(text, vocab=VOCAB)]


CASES = [
    # Rule 4E46: "assign a Vacant Ministry to itself, specifying for this Ministry a new Reward Value"
    ("I assign the Ministry of Change to myself, specifying for this Ministry a new Reward Value of m80",
     "assign_ministry", {"ministry": "Change", "reward": "m80"}),
    ("I assign the Ministry of Change to myself", "assign_ministry", {"ministry": "Change"}),
    ("I assign myself the Ministry of Change", "assign_ministry", {"ministry": "Change"}),
    ("I take the Ministry of Change with a Reward of m80.", "assign_ministry",
     {"ministry": "Change", "reward": "m80"}),
    ("I take the Ministry of Change, setting its Reward to m90", "assign_ministry",
     {"ministry": "Change", "reward": "m90"}),
    ("I take the Ministry of Change (reward m100)", "assign_ministry",
     {"ministry": "Change", "reward": "m100"}),
    ("I take the Ministry of Change, Reward m100", "assign_ministry",
     {"ministry": "Change", "reward": "m100"}),
    ("I become the Registrar at m60", "assign_ministry", {"ministry": "Society", "reward": "m60"}),
    ("i appoint myself as RULEKEEPER", "assign_ministry", {"ministry": "Law"}),
    ("I claim Kurt Gödel.", "assign_ministry", {"ministry": "Ministry"}),
    ("I take the post of Doctor", "assign_ministry", {"ministry": "Time"}),
    # Rule 4E47: "A Minister may Resign from its Ministry"
    ("I Resign from the Ministry of Law", "resign_ministry", {"ministry": "Law"}),
    ("I resign as Chairman", "resign_ministry", {"ministry": "Change"}),
    ("I step down as Rulekeeper", "resign_ministry", {"ministry": "Law"}),
    ("I resign from my Ministry", "resign_ministry", {"ministry": "Law"}),      # the one Alice holds
    # Rule 4E48: "Revise the Reward Value of its Ministry, ... changing it to a value lower"
    ("I Revise the Reward Value of the Ministry of Change to m60", "revise_reward",
     {"ministry": "Change", "reward": "m60"}),
    ("I lower the Registrar's Reward to m30", "revise_reward", {"ministry": "Society", "reward": "m30"}),
    ("I set the reward for the Chairman to 50 macks", "revise_reward",
     {"ministry": "Change", "reward": "m50"}),
    # Rule 4E48: "Usurp a Ministry ..., proposing for this Ministry a new Reward Value"
    ("I Usurp the Ministry of Change, proposing for this Ministry a new Reward Value of m40", "usurp",
     {"ministry": "Change", "reward": "m40"}),
    ("I usurp the Chairman, proposing m40", "usurp", {"ministry": "Change", "reward": "m40"}),
    ("I usurp the Judge at m50", "usurp", {"ministry": "Judging", "reward": "m50"}),
    ("I usurp the Chairman from Bob for m40", "usurp",
     {"ministry": "Change", "reward": "m40", "holder": "Bob"}),
    # Rule 4E14: "changed from On to Off", "turn the Clock On", "change the clock to be On"
    ("I change the Clock from On to Off", "clock_off", {"state": "Off"}),
    ("I turn the Clock Off", "clock_off", {"state": "Off"}),
    ("I switch off the clock", "clock_off", {"state": "Off"}),
    ("I stop the Clock", "clock_off", {}),
    ("I turn the Clock On", "clock_on", {"state": "On"}),
    ("I change the clock to be On", "clock_on", {"state": "On"}),
    ("I turn on the clock", "clock_on", {"state": "On"}),
    # Rule 4E45: a Minister's duties, delegated to bnomic or taken back
    ("I take back the duty to turn the Clock On", "keep_duty", {"duty": "turn the Clock On"}),
    ("I will perform the duty of publishing the Ballot myself", "keep_duty",
     {"duty": "publishing the Ballot myself"}),
    ("I delegate the duty to turn the Clock On to bnomic", "delegate_duty",
     {"duty": "turn the Clock On to bnomic"}),
    ("I hand back the duty to publish the Ballot", "delegate_duty", {"duty": "publish the Ballot"}),
    # Rule 4E53: "can be removed from his Ministry by any Player"
    ("I remove Bob from his Ministry", "remove_minister", {"player": "Bob", "ministry": "theirs"}),
    ("I remove Bob from the Ministry of Society", "remove_minister",
     {"player": "Bob", "ministry": "Society"}),
    ("I remove Bob as Registrar", "remove_minister", {"player": "Bob", "ministry": "Society"}),
    ("I dismiss Bob from the post of Chairman", "remove_minister", {"player": "Bob", "ministry": "Change"}),
    # an officer named by title is whoever holds it
    ("I remove the Chairman from office", "remove_minister", {"ministry": "Change", "player": "Bob"}),
    # Rule 4E50: "challenge a public display ... by listing any errors"
    ("I challenge the Registrar's public display, listing these errors: Wooble has m60, not m50",
     "challenge_display", {"ministry": "Society", "errors": "Wooble has m60, not m50"}),
    ("I challenge the Registrar's display: Wooble has m60, not m50", "challenge_display",
     {"ministry": "Society", "errors": "Wooble has m60, not m50"}),
    ("I dispute the display of the Chairman because proposal 3 is missing", "challenge_display",
     {"ministry": "Change", "errors": "proposal 3 is missing"}),
    # Rule 4E50: "address those errors by either correcting them or indicating why ..."
    ("I address obligation #3 by correcting the errors", "answer_challenge",
     {"number": "3", "how": "correcting the errors"}),
    ("I answer obligation #1: the display is right", "answer_challenge",
     {"number": "1", "how": "the display is right"}),
    ("I have fulfilled obligation 3", "answer_challenge", {"number": "3"}),
    ("I answer the challenge #2, Wooble has m60 now", "answer_challenge",
     {"number": "2", "how": "Wooble has m60 now"}),
    # Rule 4E50: "obligated to update that public display"
    ("I have updated the Registrar's public display", "updated_display", {"ministry": "Society"}),
    ("I update the display of the Ministry of Change", "updated_display", {"ministry": "Change"}),
    # Rule 4E50: "Approve a Public Display"
    ("I Approve the Registrar's Public Display", "approve_display", {"ministry": "Society"}),
    ("I approve the Ministry of Ministry's display", "approve_display", {"ministry": "Ministry"}),
    # Rule 4E15: submit, revise, withdraw; the Chairman's numbers; the Ballot and the results
    ("I submit a proposal: Repeal Rule 4E60", "submit_proposal", {"document": "Repeal Rule 4E60"}),
    ('I submit the following proposal, titled "Eras":\nRetitle Rule 4E9 to "Eras"\nEND PROPOSAL',
     "submit_proposal", {"title": "Eras", "document": 'Retitle Rule 4E9 to "Eras"'}),
    ("I propose the following:\nRepeal Rule 4E60", "submit_proposal", {"document": "Repeal Rule 4E60"}),
    ("I revise my proposal 12 by resubmitting it:\nRepeal Rule 4E61", "revise_proposal",
     {"number": "12", "document": "Repeal Rule 4E61"}),
    ("I revise proposal #12, titled Tidy:\nRepeal Rule 4E61", "revise_proposal",
     {"number": "12", "title": "Tidy", "document": "Repeal Rule 4E61"}),
    ("I withdraw proposal 12", "withdraw_proposal", {"number": "12"}),
    ("I withdraw P12", "withdraw_proposal", {"number": "12"}),
    ("I retract my proposal", "withdraw_proposal", {"number": "mine"}),
    # (the rule's own words, said by the Chairman, are the act that meets the obligation)
    ("I assign a new Proposal Number to each proposal with a number of null", "number_proposals",
     {"what": "each proposal with a number of null"}),
    ("I number the new proposals", "number_proposals", {}),
    ("I assign proposal numbers", "number_proposals", {}),
    ("I publish the Ballot", "publish_ballot", {}),
    ("Here is the ballot for nweek 2", "publish_ballot", {"nweek": "2"}),
    ("I publish the results of the voting", "publish_results", {}),
    # Rule 4E69: "change the Proposal Color of a Pending Proposal to a value of his choice"
    ("I change the Proposal Color of proposal 12 to Burnt Sienna", "color_proposal",
     {"number": "12", "color": "Burnt Sienna"}),
    ("I paint P12 baby blue", "color_proposal", {"number": "12", "color": "Baby Blue"}),
    ("I change P12's colour to Mauve", "color_proposal", {"number": "12", "color": "Mauve"}),
    # Rule 4E77: "submit a single Tweak", "Activate a Tweak he submitted"
    ("I submit the following Tweak:\nSet A Few to 5\nEND TWEAK", "submit_tweak",
     {"document": "Set A Few to 5"}),
    ("I submit a Tweak {{ Set A Few to 5 }}", "submit_tweak", {"document": "Set A Few to 5"}),
    ("I Activate Tweak 3", "activate_tweak", {"number": "3"}),
    ("I activate my Tweak", "activate_tweak", {"number": "3"}),
    ("I activate Bob's Tweak", "activate_tweak", {"number": "4"}),
    ("I activate Tweak #3", "activate_tweak", {"number": "3"}),
    # Rule 4E32: "correct these errors by submitting a Tidiness List"
    ('I submit the following Tidiness List:\nIn Rule 4E30, replace "recieve" with "receive"\nEND LIST',
     "submit_tidiness_list", {"document": 'In Rule 4E30, replace "recieve" with "receive"'}),
    # Rule 4E36: "change a Rule's Title"
    ('I change Rule 4E9\'s Title to "Eras"', "retitle_rule", {"number": "4E9", "title": "Eras"}),
    ('I retitle Rule 4E9 to "Eras"', "retitle_rule", {"number": "4E9", "title": "Eras"}),
    ("I rename Rule 9 as Ages", "retitle_rule", {"number": "9", "title": "Ages"}),
    ('I change the title of Rule 4E9 to "Eras"', "retitle_rule", {"number": "4E9", "title": "Eras"}),
]


@pytest.mark.parametrize("text, name, args", CASES)
def test_the_rules_words_and_other_wordings(text, name, args):
    if name is None:        # the Chairman's obligation in the rule's words: not an action of its own
        assert all(k != "action" for k, _, _ in read(text))
        return
    assert read(text) == [("action", name, args)]


def test_one_verb_over_several_ministries():
    assert read("I resign from the Ministry of Law and the Registrar") == [
        ("action", "resign_ministry", {"ministry": "Law"}),
        ("action", "resign_ministry", {"ministry": "Society"})]
    assert read("I take the Ministry of Time and the Oracle, with a Reward of m90") == [
        ("action", "assign_ministry", {"ministry": "Time"}),
        ("action", "assign_ministry", {"ministry": "Questions", "reward": "m90"})]


def test_other_areas_wordings_are_not_read_as_these():
    assert read("I give m5 to the Chairman") == [("action", "give", {"amount": "m5", "player": "Bob"})]
    assert read("I pay the Registrar m5") == [("action", "give", {"amount": "m5", "player": "Bob"})]
    assert read("I vote FOR on proposal 12")[0][1] == "vote"
    assert all(name not in MINE for _, name, _ in read("I withdraw my objection to intent 3"))


def test_roles_in_any_order():
    a = read("I take the Ministry of Change with a Reward of m80")
    assert read("With a Reward of m80 I take the Ministry of Change") in ([], a)
    assert read("I take, with a Reward of m80, the Ministry of Change") == a
    assert read("I usurp, for m40, the Chairman") == read("I usurp the Chairman for m40")
    assert read("I remove from the Registrar Bob") == read("I remove Bob from the Registrar")


@pytest.mark.parametrize("spec", [s for s in registry.ACTIONS if s.name in MINE], ids=lambda s: s.name)
def test_each_actions_non_examples_read_to_nothing_and_its_example_reads(spec):
    assert spec.frames, f"{spec.name} has no frame: it cannot be read"
    assert spec.not_actions, f"{spec.name} declares no sentence that must read to nothing"
    for text in spec.not_actions:
        for vocab in (VOCAB, None):         # the game's words, and none (names as written)
            assert grammar.read(text, vocab=vocab) == [], (text, vocab)
    example = re.sub(r"^I intend to (.*) without objection:", r"I \1:", spec.example)   # 4E21
    got = grammar.read(example, vocab=VOCAB)
    assert got and got[0].spec is spec, example


def test_every_action_of_these_areas_is_a_frame():
    names = {s.name for s in registry.ACTIONS if s.frames}
    assert set(MINE) <= names


@pytest.mark.parametrize("text, name, missing", [
    ("I usurp, proposing a Reward of m40", "usurp", "ministry"),
    ("I take Reward m100", "assign_ministry", "ministry"),
    ("I resign", "resign_ministry", "ministry"),
    ("I revise the Reward of the Chairman", "revise_reward", "reward"),
    ("I remove Bob", "remove_minister", "ministry"),
    ("I challenge the Registrar's display", "challenge_display", "errors"),
    ("I answer: the display is right", "answer_challenge", "number"),
    ("I withdraw proposal", "withdraw_proposal", "number"),
    ("I change the color to Blue", "color_proposal", "number"),
    ("I retitle Rule 4E9", "retitle_rule", "title"),
    ("I take back the duty", "keep_duty", "duty"),
])
def test_a_dropped_role_is_named(text, name, missing):
    # (said by Wooble, who holds no Ministry: "I resign" by the holder of one is from that one)
    (r,) = grammar.read(text, vocab=dataclasses.replace(VOCAB, actor="Wooble"))
    assert (r.kind, r.spec.name) == ("incomplete", name)
    assert missing in r.missing


def test_the_rules_example_and_the_receipt_echo():
    (r,) = grammar.read("I usurp the Chairman, proposing m40", vocab=VOCAB)
    assert r.read_as == "usurp Change proposing m40"
    (r,) = grammar.read("I challenge the Registrar's display: Wooble has m60", vocab=VOCAB)
    assert r.read_as == "challenge the display of Society: Wooble has m60"


# --------------------------------------------- what the reader needed (general fixes)

def test_a_ministrys_name_reads_without_its_accents():
    """The MetaMin is "Kurt Gödel": folding accents, as names fold case (Rule 4E7)."""
    assert read("I take Kurt Godel") == read("I take KURT GÖDEL") == [
        ("action", "assign_ministry", {"ministry": "Ministry"})]


def test_a_possessive_reference_names_its_number():
    assert read("I change Rule 4E9's title to Ages") == [
        ("action", "retitle_rule", {"number": "4E9", "title": "Ages"})]
    assert read("I paint proposal 12's colour Blue") == [
        ("action", "color_proposal", {"number": "12", "color": "Blue"})]


def test_braces_inside_a_proposals_own_text_stay_in_it():
    text = ('I submit the following proposal, titled "Quantities":\n'
            "Amend Rule 4E30 to read: {{ There are no Quantities. }}\nEND PROPOSAL\nI publish the Ballot")
    assert read(text) == [
        ("action", "submit_proposal", {"title": "Quantities",
                                       "document": "Amend Rule 4E30 to read: {{ There are no Quantities. }}"}),
        ("action", "publish_ballot", {})]
    # braces that open the document delimit it, and what follows is read on
    assert read("I submit the following Tweak:\n{{ Set A Few to 5 }}\nI publish the Ballot") == [
        ("action", "submit_tweak", {"document": "Set A Few to 5"}),
        ("action", "publish_ballot", {})]


# ----------------------------------------------------------- played by mail

@pytest.fixture
def cabinet(game):
    for name in ("Alice", "Bob", "Carol"):
        game.admin("add-player", name, f"{name.lower()}@example.org")
    return game


def test_the_vocabulary_of_the_game_reads_a_ministry_by_mail(cabinet):
    r = cabinet.post("bob@example.org", "I take the Registrar, setting its Reward to m90",
                     "2008-09-01T10:00:00Z")
    assert "Done (Rule 4E46)" in r
    ms = {m["name"]: m for m in cabinet.show("ministries")}
    assert (ms["Society"]["holder"], ms["Society"]["reward"]) == ("Bob", 90)
    r = cabinet.post("bob@example.org", "I resign from my Ministry", "2008-09-01T11:00:00Z")
    assert "Done (Rule 4E47)" in r
    assert {m["name"]: m["holder"] for m in cabinet.show("ministries")}["Society"] is None


def test_an_incomplete_or_ambiguous_attempt_is_refused_saying_why(cabinet):
    r = cabinet.post("alice@example.org", "I resign", "2008-09-01T10:00:00Z")
    assert "understood as far as: resign ministry; missing: the ministry" in r
    assert "(Rule 4E47)" in r and "internal error" not in r
    r = cabinet.post("alice@example.org", "I change the color of proposal 1 to", "2008-09-01T10:00:00Z")
    assert "missing: the color" in r and "(Rule 4E69)" in r and "internal error" not in r
    r = cabinet.post("alice@example.org", "I paint proposal 1 Mauve", "2008-09-01T10:00:00Z")
    assert "Mauve" in r and "is not a Proposal Color" in r and "(Rule 4E69)" in r
    assert not [e for e in cabinet.show("events") if e["rule"] in ("4E47", "4E69")]


def test_my_proposal_and_my_tweak(cabinet):
    cabinet.post("alice@example.org", "I submit a proposal: Repeal Rule 4E60", "2008-09-01T10:00:00Z")
    r = cabinet.post("alice@example.org", "I paint my proposal Blue", "2008-09-01T10:10:00Z")
    assert "Done (Rule 4E69)" in r
    r = cabinet.post("bob@example.org", "I withdraw my proposal", "2008-09-01T10:20:00Z")
    assert "name the proposal by its number: you have 0 current proposals (Rule 4E15)" in r
    r = cabinet.post("alice@example.org", "I withdraw my proposal", "2008-09-01T10:30:00Z")
    assert "Done (Rule 4E15)" in r
    (p,) = cabinet.show("proposals")
    assert (p["status"], p["color"]) == ("Historical", "Blue")


def test_removing_a_minister_from_his_ministry(cabinet):
    cabinet.post("bob@example.org", "I take the Registrar", "2008-09-01T10:00:00Z")
    cabinet.post("carol@example.org", "I challenge the Registrar's display: it is wrong",
                 "2008-09-01T13:00:00Z")
    cabinet.tick("2008-09-04T00:00:00Z")            # a Jiffy: the obligation lapses
    r = cabinet.post("carol@example.org", "I remove Bob from his Ministry", "2008-09-04T10:00:00Z")
    assert "Done (Rule 4E53)" in r
    assert {m["name"]: m["holder"] for m in cabinet.show("ministries")}["Society"] is None


def test_a_handler_reads_with_the_vocabulary_its_post_was_read_with():
    """An intent's action is read while its post is applied (intents.intend calls
    match_action): the engine lends it the post's vocabulary (who holds the Chairman)."""
    assert grammar.match_action("I give m5 to the Chairman") is None
    with grammar.reading_with(VOCAB):
        spec, args = grammar.match_action("I give m5 to the Chairman")
    assert (spec.name, args) == ("give", {"amount": "m5", "player": "Bob"})
    assert grammar.match_action("I give m5 to the Chairman") is None


def test_with_no_game_the_reader_knows_the_rulesets_ministries():
    assert grammar.match_action("I take the Ministry of Change") == (
        registry.action_named("assign_ministry"), {"ministry": "Change"})


def test_a_marker_that_ends_the_clause_leaves_its_role_missing():
    (r,) = grammar.read("I change the color of proposal 1 to", vocab=VOCAB)
    assert (r.kind, r.missing, r.unread) == ("incomplete", ("color",), ())
    (r,) = grammar.read("I usurp the Chairman from", vocab=VOCAB)
    # Rule 4E48: usurping is "proposing for this Ministry a new Reward Value"
    assert (r.kind, r.spec.name, r.missing, r.unread) == ("incomplete", "usurp", ("reward",), ())
