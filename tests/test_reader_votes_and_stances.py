"""Votes and stances as players write them, against a game's vocabulary.

Rule 4E15: "A Vote is one of the words FOR, AGAINST, ABSTAIN, or SHELVE"; a Player
"may submit a Vote on an Open proposal". Rules 4E21/4E22: objecting and supporting
name an intent. Rule 4E7: targets need only be unambiguous, whatever the wording; an
ambiguous one is refused. Each case below is what a careful officer would read."""
import pytest

import bnomic.handlers.engine  # noqa: F401  (registers every action)
from bnomic.handlers import grammar
from bnomic.handlers.vocabulary import Vocabulary

PROPOSALS = {10: ("Fishy Business", "Alice"), 11: ("Sock Amnesty", "Wooble"), 12: ("Clock Fix", "Bob"),
             13: ("Beast Diet", "Ais523"), 14: ("Clock Fix II", "Bob")}


def vocab(**more):
    base = dict(players=("Alice", "Bob", "Chuck", "Wooble", "Ais523", "Dana", "The Beast"),
                actor="Dana", beast="The Beast", proposals=PROPOSALS, open_proposals=tuple(PROPOSALS),
                intents={3: "Wooble", 4: "Alice"},
                intent_actions={3: ("beast_acts",), 4: ("retitle_rule",)}, tweaks={3: "Bob"})
    return Vocabulary(**{**base, **more})


def read(text, v=None):
    return [(r.kind, r.spec and r.spec.name, {k: str(x) for k, x in r.args.items() if x is not None})
            for r in grammar.read(text, v or vocab())]


def votes(text):
    return [(a["vote"], a["which"]) for kind, name, a in read(text) if kind == "action" and name == "vote"]


# ------------------------------------------------------------------ a heading names the proposal

@pytest.mark.parametrize("text", [
    "Proposal 12: I vote FOR.",
    "Proposal 12 (Clock Fix, by Bob): I vote FOR.",
    "Prop 12: I vote FOR",
    "Re proposal 12: I vote FOR.",
])
def test_a_heading_that_names_a_proposal_names_it_for_the_vote_after_it(text):
    assert votes(text) == [("FOR", "12")]


def test_a_heading_does_not_fill_a_vote_that_names_its_own_proposal():
    assert votes("Proposal 12: I vote FOR 13.") == [("FOR", "13")]


def test_a_heading_alone_is_no_vote():
    assert read("Proposal 12 (Clock Fix, by Bob):") == []


# ------------------------------------------------------------------ exceptions with a vote of their own

def test_except_one_which_gets_another_vote_is_two_votes():
    assert votes("I vote FOR 10, 11, 12 and 13, except 12 which is AGAINST.") == [
        ("FOR", "10, 11, 13"), ("AGAINST", "12")]


def test_everything_except_one_which_gets_another_vote():
    assert votes("I vote FOR everything except 14, which gets SHELVE.") == [
        ("FOR", "10, 11, 12, 13"), ("SHELVE", "14")]


def test_plain_except_still_leaves_the_proposal_unvoted():
    assert votes("I vote FOR all except 12.") == [("FOR", "10, 11, 13, 14")]


# ------------------------------------------------------------------ "I am AGAINST 12"

@pytest.mark.parametrize("text, said", [
    ("I am AGAINST proposal 12.", [("AGAINST", "12")]),
    ("I'm FOR 12.", [("FOR", "12")]),
    ("I am voting FOR 13.", [("FOR", "13")]),
])
def test_being_for_or_against_a_proposal_is_a_vote(text, said):
    assert votes(text) == said


@pytest.mark.parametrize("text", ["I am Paranoid.", "I am a player.", "I am not sure about 12.",
                                  "I am against the idea of proposals."])
def test_being_something_else_is_no_vote(text):
    assert votes(text) == []


def test_quick_lead_then_votes_as_a_noun():
    assert votes("Quick one: votes FOR on 12 and 13, AGAINST on 10.") == [("FOR", "12, 13"), ("AGAINST", "10")]


# ------------------------------------------------------------------ words that are not Votes

@pytest.mark.parametrize("text, which", [
    ("yes to 12", ["12"]),
    ("+1 on 13", ["13"]),
    ("10: F", ["10"]),
    ("I am in favour of 12.", ["12"]),
    ("yes to 10 and 11, no to 13", ["10, 11", "13"]),
])
def test_a_word_that_is_not_a_vote_is_an_attempt_missing_its_vote(text, which):
    got = grammar.read(text, vocab())
    assert [r.kind for r in got] == ["incomplete"] * len(which)
    assert [r.args.get("which") for r in got] == which
    assert all(r.missing == ("vote",) and "vote" not in r.args for r in got)
    assert all("4E15" in r.error for r in got)          # the receipt cites the rule


def test_a_misspelt_vote_is_reported_and_the_rest_of_the_sentence_stands():
    got = grammar.read("I vote AGAINTS 13 and FOR 14.", vocab())
    assert [(r.kind, r.args.get("which")) for r in got] == [("incomplete", "13"), ("action", "14")]
    assert got[0].unread == ("AGAINTS",)


@pytest.mark.parametrize("text", ["Yes, 12 is great.", "+1", "No, I don't think so.",
                                  "A 12 year old could do better.", "yes"])
def test_talk_with_those_words_is_nothing(text):
    assert read(text) == []


# ------------------------------------------------------------------ intents named by what they do

def test_an_intent_named_by_its_action_is_the_open_one_that_announced_it():
    assert read("I object to the intent to cause the Beast to give m20 to Wooble.") == [
        ("action", "object", {"target": "3"})]


def test_two_open_intents_announcing_that_action_are_refused_as_ambiguous():
    v = vocab(intents={3: "Wooble", 4: "Alice", 5: "Bob"},
              intent_actions={3: ("beast_acts",), 4: ("retitle_rule",), 5: ("beast_acts",)})
    got = grammar.read("I object to the intent to cause the Beast to give m20 to Wooble.", v)
    assert [r.kind for r in got] == ["ambiguous"]
    assert len(got[0].alternatives) == 2


def test_the_author_narrows_an_intent_named_by_its_action():
    v = vocab(intents={3: "Wooble", 4: "Alice", 5: "Bob"},
              intent_actions={3: ("beast_acts",), 4: ("retitle_rule",), 5: ("beast_acts",)})
    assert read("I object to Bob's intent to cause the Beast to forfeit.", v) == [
        ("action", "object", {"target": "5"})]


@pytest.mark.parametrize("text, what", [
    ("I object to activating Tweak 3.", "activate Tweak 3"),
    ("I object to giving m5 to Wooble.", "give m5 to Wooble"),
])
def test_a_stance_on_doing_something_is_a_stance_on_the_intent_to_do_it(text, what):
    assert read(text, vocab(intent_actions={})) == [("action", "object", {"what": what})]


@pytest.mark.parametrize("text", ["I object to being told what to do.", "I object to giving the Beast anything."])
def test_a_stance_on_doing_what_is_no_action_is_talk(text):
    assert read(text) == []


def test_the_receipt_for_a_word_that_is_not_a_vote_names_it_and_the_rule():
    from bnomic.handlers.engine import incomplete_reason
    (r,) = grammar.read("yes to 12", vocab())
    said = incomplete_reason(r)
    assert "vote on 12" in said and "'yes'" in said and "Rule 4E15" in said and "FOR" not in said.split(";")[0]


# ------------------------------------------------------------------ several Players at once

def test_each_of_a_list_of_players_gets_one():
    assert read("I give m1 to each of Alice, Bob and Chuck") == [
        ("action", "give", {"amount": "m1", "player": p}) for p in ("Alice", "Bob", "Chuck")]


def test_every_player_is_each_player_but_the_sender():
    # Rule 4E7: "He may list multiple actions"; the sender (Dana) gives to no one twice
    assert read("I give m5 to every Player.") == [
        ("action", "give", {"amount": "m5", "player": p})
        for p in ("Alice", "Bob", "Chuck", "Wooble", "Ais523", "The Beast")]


@pytest.mark.parametrize("text,left_out", [
    ("I give m5 to everyone except Bob.", {"Bob"}),
    ("I give m5 to everyone but Bob.", {"Bob"}),
    ("I give m5 to every other player except the Beast.", {"The Beast"}),
    ("I give m5 to each Player other than Bob and Chuck.", {"Bob", "Chuck"}),   # (not to Bob and Chuck)
    ("I give m5 to all the other players, excluding Bob, Chuck, and the Beast.", {"Bob", "Chuck", "The Beast"}),
])
def test_everyone_but_those_named_is_each_other_player(text, left_out):
    # Rule 4E7: the Players are named, each one left out by name: each of the others, not the sender
    assert read(text) == [("action", "give", {"amount": "m5", "player": p})
                          for p in ("Alice", "Bob", "Chuck", "Wooble", "Ais523", "The Beast") if p not in left_out]


@pytest.mark.parametrize("text", ["I give m5 to everyone except those who voted.",
                                  "I give m5 to everyone but whoever voted AGAINST."])
def test_everyone_but_a_description_is_never_guessed(text):
    got = grammar.read(text, vocab())
    assert [r.kind for r in got] == ["incomplete"]           # reported, nothing given
