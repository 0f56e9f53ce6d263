"""What a careful officer reads in Votes said loosely: a word about the action between commas,
a reason in the middle of a list, the sender's own proposals called "mine", Votes paired with
a range of proposals "respectively", the Vote said as what the sender is ("for 15 I am
ABSTAIN"), and the order of the actions said after them.

Rule 4E15: "Players may submit a Vote on any Open proposal ... A Vote is one of the words FOR,
AGAINST, ABSTAIN, or SHELVE". Rule 4E7: "Unambiguous targets and parameters specified in Game
Actions are valid regardless of capitalization, punctuation, or exact wording."
The game (tests/reader_world.py): Open proposals 10 (Alice), 11 (Wooble), 12 (Bob), 13 (Wooble),
15 (Dana) and 16 (Chuck)."""
import pytest

from reader_world import actions, vocab
from reader_world import votes as _votes


def votes(text, v=None):
    """Each (Vote, proposal), a Vote on several proposals taken apart."""
    return [(vote, n.strip()) for vote, which in _votes(text, v) for n in which.split(",")]


@pytest.mark.parametrize("text, expected", [
    ("I vote FOR Sock Amnesty, obviously, and AGAINST Fishy Business.", [("FOR", "11"), ("AGAINST", "10")]),
    ("I vote FOR 11, naturally, and AGAINST 12.", [("FOR", "11"), ("AGAINST", "12")]),
])
def test_a_word_about_the_vote_between_commas_leaves_the_list_going_on(text, expected):
    assert votes(text) == expected


def test_a_word_about_the_vote_at_the_end_is_no_part_of_it():
    assert votes("I vote FOR 11, obviously, it's a good one.") == [("FOR", "11")]


def test_a_reason_in_the_middle_of_a_list_ends_at_the_next_vote():
    got = votes("I'm FOR 15 (well, I wrote it), SHELVE on 16 because I think Chuck needs another pass "
                "at the wording, and against everything else.")
    assert got == [("FOR", "15"), ("SHELVE", "16"), ("AGAINST", "10"), ("AGAINST", "11"),
                   ("AGAINST", "12"), ("AGAINST", "13")]


def test_a_reason_that_goes_on_about_someone_stays_a_reason():
    assert actions("I give m5 to Bob because he asked, and Chuck agreed.") == [
        ("give", {"amount": "m5", "player": "Bob"})]


@pytest.mark.parametrize("text", ["Mine: FOR.", "I vote FOR mine.", "FOR my own."])
def test_mine_is_the_senders_own_open_proposals(text):
    assert votes(text, vocab("Wooble")) == [("FOR", "11"), ("FOR", "13")]


def test_everything_but_mine_and_then_mine():
    assert votes("Everything except my own: AGAINST. Mine: FOR.", vocab("Alice")) == [
        ("AGAINST", "11"), ("AGAINST", "12"), ("AGAINST", "13"), ("AGAINST", "15"), ("AGAINST", "16"),
        ("FOR", "10")]


@pytest.mark.parametrize("text, expected", [
    ("FOR, FOR, AGAINST, FOR on 10 to 13 respectively.",
     [("FOR", "10"), ("FOR", "11"), ("AGAINST", "12"), ("FOR", "13")]),
    ("I vote FOR, AGAINST and SHELVE on 11-13 respectively.", [("FOR", "11"), ("AGAINST", "12"), ("SHELVE", "13")]),
    ("On 10, 11 and 12 I vote FOR, AGAINST and SHELVE respectively.",
     [("FOR", "10"), ("AGAINST", "11"), ("SHELVE", "12")]),
])
def test_votes_paired_respectively_with_a_range_take_each_proposal_in_it(text, expected):
    assert votes(text) == expected


def test_a_range_that_does_not_pair_with_the_votes_is_not_guessed():
    assert votes("FOR, AGAINST on 10-13 respectively.") == []


@pytest.mark.parametrize("text, expected", [
    ("For the 15 I am ABSTAIN.", [("ABSTAIN", "15")]),
    ("On 15 I am AGAINST.", [("AGAINST", "15")]),
    ("On 15 I'm FOR.", [("FOR", "15")]),
    ("Hello. I give my vote AGAINST to the proposal 16, Eras Again, and for the 15 I am ABSTAIN.",
     [("AGAINST", "16"), ("ABSTAIN", "15")]),
    ("I vote AGAINST 16 and for 15 I vote ABSTAIN.", [("AGAINST", "16"), ("ABSTAIN", "15")]),
])
def test_a_proposal_named_first_then_the_vote_said_as_what_i_am(text, expected):
    assert votes(text) == expected


def test_the_order_of_the_actions_said_after_them_is_no_part_of_the_last():
    got = actions("I give m5 to Alice and set the Proposal Color of 16 to Blue and vote AGAINST 10, "
                  "in that order, because I'm complicated.")
    assert [name for name, _ in got] == ["give", "color_proposal", "vote"]
    assert got[2][1]["vote"] == "AGAINST" and got[2][1]["which"] == "10"
