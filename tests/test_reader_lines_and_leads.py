"""Ballot lines each an item, "&" for "and", and the everyday leads before a verb.

Rule 4E7: "Unambiguous targets and parameters specified in Game Actions are valid
regardless of capitalization, punctuation, or exact wording." Rule 4E15: a Vote is
FOR, AGAINST, ABSTAIN or SHELVE on an Open proposal. A ballot written one proposal a
line is one vote a line, whatever the line before it ends with; "&" is "and"; "I'm
gonna go ahead and vote ..." says the vote as plainly as "I vote ...".
The game (tests/reader_world.py): Open proposals 10, 11, 12, 13, 15 and 16."""
import pytest

from reader_world import actions, read, votes


@pytest.mark.parametrize("text, expected", [
    ("11: for, obviously\n12: abstain\n15: shelve",
     [("FOR", "11"), ("ABSTAIN", "12"), ("SHELVE", "15")]),
    ("Proposal ten - FOR\nProposal eleven - FOR\nProposal sixteen - AGAINST",
     [("FOR", "10"), ("FOR", "11"), ("AGAINST", "16")]),
    ("Proposal twelve: against\nProposal thirteen: for", [("AGAINST", "12"), ("FOR", "13")]),
])
def test_each_ballot_line_is_a_vote_of_its_own(text, expected):
    assert votes(text) == expected


def test_a_misspelt_vote_on_its_own_line_takes_no_other_line_with_it():
    got = read("Proposal ten - FOR\nProposal sixteen - AGAINTS")
    assert [(r.kind, str(r.args.get("which"))) for r in got] == [("action", "10"), ("incomplete", "16")]


def test_an_ampersand_joins_two_actions_as_and_does():
    assert actions("I transfer my Blue Sock to Dana & give her m5.") == [
        ("transfer_sock", {"color": "Blue", "player": "Dana"}), ("give", {"amount": "m5", "player": "Dana"})]


@pytest.mark.parametrize("text", [
    "I'm gonna vote FOR 11.",
    "I'm gonna go ahead and vote FOR 11.",
    "I'll go ahead and vote FOR 11.",
    "I'm going to go ahead and vote FOR 11.",
    "I go ahead and vote FOR 11.",
    "I wanna vote FOR 11.",
])
def test_a_lead_before_the_verb_says_the_vote(text):
    assert votes(text) == [("FOR", "11")]


def test_a_lead_before_two_actions_says_both():
    got = actions("I'm gonna go ahead and vote FOR 11 and also give Wooble m5, since he's been patient.")
    assert got == [("vote", {"vote": "FOR", "which": "11"}), ("give", {"amount": "m5", "player": "Wooble"})]
