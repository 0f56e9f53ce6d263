"""What is said around an action and is no part of it: a reason before the "I", a gloss in
brackets after a time or a proposal, "it" for the thing the sentence before named, how a
bare Vote is said, and the Vote a sentence comes to after "so".

Rule 4E7: "Unambiguous targets and parameters specified in Game Actions are valid
regardless of capitalization, punctuation, or exact wording." Rule 4E15: a Vote is FOR,
AGAINST, ABSTAIN or SHELVE. Rule 4E22: a Player may object to an intent.
The game (tests/reader_world.py): Open proposals 10, 11, 12, 13, 15 (Dana's) and 16; the
sender is Dana."""
import pytest

from reader_world import actions, read, vocab, votes


@pytest.mark.parametrize("text, expected", [
    ("For the avoidance of doubt, I ZOT Consultation 6.", ("zot_consultation", {"which": "6"})),
    ("For the avoidance of doubt I give m5 to Bob.", ("give", {"amount": "m5", "player": "Bob"})),
    ("For the love of fish I vote AGAINST 12.", ("vote", {"vote": "AGAINST", "which": "12"})),
    ("For Proposal 16 I vote AGAINST.", ("vote", {"vote": "AGAINST", "which": "16"})),    # a role, fronted
])
def test_a_reason_with_for_before_the_i_is_no_part_of_the_action(text, expected):
    v = vocab(consultations=(5, 6))
    assert actions(text, v) == [expected]


def test_a_time_glossed_in_brackets_is_still_the_time():
    (r,) = read("On Breakday (the start of nweek 8) I give m25 to the Beast, since I'll be on a plane.")
    assert (r.kind, r.args, r.when.kind, r.when.nday) == ("action", {"amount": "m25", "player": "The Beast"},
                                                          "nday", 1)


@pytest.mark.parametrize("text, expected", [
    ("On Proposal 12 (mine) I vote FOR.", [("FOR", "12")]),           # (Dana's is 15: said of it, no more)
    ("I vote FOR 12 (Bob's) and AGAINST 15 (mine).", [("FOR", "12"), ("AGAINST", "15")]),
    ("I vote FOR 12 (and 13).", [("FOR", "12, 13")]),                  # (more said in brackets: read)
])
def test_whose_proposal_it_is_in_brackets_is_said_of_it(text, expected):
    assert votes(text) == expected


def test_it_is_the_intent_the_sentence_before_named():
    v = vocab(intents={3: "Wooble", 4: "Alice"})
    assert actions("Wooble, Intent 3 is a bald-faced grab. I object to it.", v) == [("object", {"target": "3"})]
    (r,) = read("Intent 3 and Intent 4 are grabs. I object to it.", v)      # two named: which?
    assert (r.kind, r.missing) == ("incomplete", ("target",))


@pytest.mark.parametrize("text, expected", [
    ("Obviously FOR on 11.", [("FOR", "11")]),
    ("Reluctantly, FOR 12.", [("FOR", "12")]),
    ("Definitely AGAINST 12 and FOR 13.", [("AGAINST", "12"), ("FOR", "13")]),
    ("Sock Amnesty is mine, so FOR on 11.", [("FOR", "11")]),
    ("Haven't read the rest yet, but Sock Amnesty is mine so\nobviously FOR on 11.", [("FOR", "11")]),
])
def test_a_bare_vote_said_with_a_word_about_it(text, expected):
    assert votes(text) == expected


@pytest.mark.parametrize("text", ["Probably FOR on 11.", "It's a mess so against it, probably."])
def test_a_hedged_bare_vote_is_no_vote(text):
    assert votes(text) == []


@pytest.mark.parametrize("text", [
    "If I were Ranger I'd select Tricks by coin toss. Luckily for all of\nyou I'm not.",   # no FOR on all
    "But 14 is mine, so for that reason alone I'm fine.",
])
def test_a_word_about_how_before_a_lowercase_for_is_no_vote(text):
    assert votes(text) == []


def test_an_action_said_then_said_to_be_impossible_is_not_done():
    v = vocab(intents={3: "Dana"})
    text = "Ok so: Intent 3, I support it... wait,\nit's my own intent, I can't support that. Never mind me."
    assert actions(text, v) == []
    assert actions("I support Intent 3. I can't object to it, though.", v) == [("support", {"target": "3"})]
