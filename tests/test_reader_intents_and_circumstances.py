"""Intents (Rules 4E21, 4E22) and circumstances as players write them (Rule 4E7:
"regardless of capitalization, punctuation, or exact wording")."""
import pytest

import bnomic.handlers.engine  # noqa: F401  (registers every action)
from bnomic.handlers import grammar


def read(text):
    return [(r.kind, r.spec and r.spec.name, {k: str(v) for k, v in r.args.items() if v is not None})
            for r in grammar.read(text)]


def test_a_question_mark_inside_the_quoted_text_asks_nothing():
    got = read('I intend, with support, to set the Message of the nweek to "Have you checked your '
               'Vested status today?"')
    assert [(k, n) for k, n, _ in got] == [("action", "intend")]
    assert "Have you checked your Vested status today?" in got[0][2]["rest"]


@pytest.mark.parametrize("text", ['Did Bob say "I vote FOR 12"?', "Should I vote FOR 12?",
                                  'Shall I set the motnw to "Fish"?'])
def test_a_question_is_still_a_question(text):
    assert read(text) == []


@pytest.mark.parametrize("text", [
    'I intend without 2 objections to retitle Rule 4E30 to "Official Quantities".',
    'I intend, without 2 objections, to retitle Rule 4E30 to "Official Quantities".',
])
def test_how_an_intent_is_to_be_done_with_or_without_commas(text):
    (got,) = read(text)
    assert got[:2] == ("action", "intend") and got[2]["rest"].endswith("without 2 objections")


def test_an_intent_written_as_a_label():
    (got,) = read("Intent: without objection, cause the Beast to vote AGAINST 16.")
    assert got[:2] == ("action", "intend") and got[2]["rest"] == "cause the Beast to vote AGAINST 16 without objection"


def test_a_long_circumstance_before_i_is_not_a_part_of_the_action():
    assert read("Having announced it without objection three ndays ago and heard none, "
                "I activate Tweak 3.") == [("action", "activate_tweak", {"number": "3"})]


@pytest.mark.parametrize("text", [
    "I vote FOR 16 while I'm here, obviously.",
    "I vote FOR 16, now that I'm a Registered Voter again.",
    "I vote FOR 16, having been persuaded on discussion that the overlap is harmless.",
    "I vote FOR 16 as well, just to make the Chairman's life more interesting.",
])
def test_a_circumstance_after_a_complete_action_is_said_in_passing(text):
    assert read(text) == [("action", "vote", {"vote": "FOR", "which": "16"})]


def test_a_circumstance_word_before_more_of_the_action_cuts_nothing():
    assert read("I vote FOR 12 now and AGAINST 13.") == [
        ("action", "vote", {"vote": "FOR", "which": "12"}), ("action", "vote", {"vote": "AGAINST", "which": "13"})]


def test_a_condition_is_never_a_circumstance():
    assert all(k != "action" for k, _, _ in read("I vote FOR 12 if Bob votes FOR 13."))


def test_an_afterthought_keeps_the_words_as_written():
    (r,) = grammar.read("I vote FOR 10, 11. And also 13.")
    assert r.args["which"] == "10, 11, 13" and r.text == "I vote FOR 10, 11. And also 13"
