"""How officers and players write actions on the lists, read as a careful officer would
(Rule 4E7: "regardless of capitalization, punctuation, or exact wording").

The performative passive ("Consultation 6 is hereby ZOTTED"), the Chairman's headings
("BALLOT, nweek 7"; Rule 4E15), a bare vote on everything but one, which gets its own
(4E15), "to each player" (4E7 lets a message hold several actions), "and then back to",
whose Answer a Claim is about (4E18), and a Contract named twice in apposition."""
import pytest

import bnomic.handlers.engine  # noqa: F401  (registers every action)
from bnomic.config import Config, defaults
from bnomic.handlers import grammar
from bnomic.handlers.ministries import aliases
from bnomic.handlers.vocabulary import Vocabulary

PLAYERS = ("Alice", "Bob", "Chuck", "Dana", "The Beast")
VOCAB = Vocabulary(players=PLAYERS, actor="Alice", beast="The Beast", ministries=aliases(Config(defaults())),
                   holders={"Change": "Alice", "Questions": "Chuck"},
                   proposals={12: ("Clock Fix", "Bob"), 13: ("Beast Diet", "Dana"), 14: ("Clock Fix II", "Bob"),
                              17: ("Quiet Nweek", "Chuck")},
                   open_proposals=(12, 13, 14), consultations=(5, 6), contracts={1: "The Fishmongers' Guild"})


def read(text, **who):
    vocab = VOCAB.with_actor(who.get("actor", "Alice"))
    return [(r.kind, r.spec and r.spec.name, {k: str(v) for k, v in r.args.items() if v not in (None, "")})
            for r in grammar.read(text, vocab)]


@pytest.mark.parametrize("text,name,args,actor", [
    ("Consultation 6 is hereby ZOTTED. The question is malformed.", "zot_consultation", {"which": "6"}, "Chuck"),
    ("The Clock is hereby turned On.", "clock_on", {"state": "On"}, "Alice"),
    ("Proposal 17 is hereby withdrawn.", "withdraw_proposal", {"number": "17"}, "Chuck"),
])
def test_the_performative_passive_with_hereby(text, name, args, actor):
    assert read(text, actor=actor) == [("action", name, args)]


@pytest.mark.parametrize("text", ["Consultation 6 is ZOTTED.", "The Clock was hereby turned On yesterday."])
def test_a_passive_without_hereby_or_in_the_past_describes(text):
    assert [k for k, *_ in read(text, actor="Chuck")] == []


def test_the_chairmans_headings_publish():
    assert ("action", "publish_ballot", {"nweek": "7"}) in read("BALLOT, nweek 7\n\n{{\n12 Clock Fix (Bob)\n}}\n")
    assert read("Results of voting, nweek 7:\n\n{{\n12 Clock Fix: FOR 4 -- PASSES\n}}\n") == [
        ("action", "publish_results", {"nweek": "7"})]
    assert [k for k, *_ in read("Ballot stuffing is bad.")] == []


@pytest.mark.parametrize("text", ["FOR all open proposals except 13, which gets an AGAINST.",
                                  "FOR everything except 13, which gets AGAINST."])
def test_a_bare_vote_on_all_but_one_which_gets_its_own(text):
    assert [(a["vote"], a["which"]) for k, n, a in read(text)] == [("FOR", "12, 14"), ("AGAINST", "13")]


def test_to_each_player_is_an_action_for_each_other_player():
    got = read("I give m1 to each player.")
    assert [a["player"] for k, n, a in got] == ["Bob", "Chuck", "Dana", "The Beast"]


def test_and_then_back_to_is_the_same_action_again():
    got = read("I set my Mental State to Calm and then back to Paranoid, because I can.")
    assert [(n, a["state"]) for k, n, a in got] == [("mental_state", "Calm"), ("mental_state", "Paranoid")]


def test_whose_answer_a_claim_is_about():
    (got,) = read("I claim that Dana's answer to Consultation 5 is Inconsistent.", actor="Bob")
    assert got[:2] == ("action", "claim_consultation") and got[2]["which"] == "5"
    assert got[2]["claim"] == "Inconsistent"


def test_answers_under_a_heading():
    assert read("Consultation 5 answer: affirmative.", actor="Dana") == [
        ("action", "answer_consultation", {"which": "5", "word": "YES"})]


def test_joining_b_nomic():
    (got,) = read('I request to join B Nomic, to be known as "Marigold".', actor=None)
    assert got[:2] == ("action", "join") and got[2]["name"] == "Marigold"


def test_a_contract_named_twice_in_apposition_is_one_action():
    got = read("I delegate the Chairman's power to publish the Ballot to Bob, as specified by Contract 1, "
               "the Fishmongers' Guild (clause 4).")
    assert [(k, n, a["which"], a["delegate"]) for k, n, a in got] == [
        ("action", "delegate_by_contract", "1", "Bob")]
