"""A condition said in brackets, a taking back said last, and a disclaimer of votes.

Rule 4E7 knows no conditional actions: "I give m5 to Bob (if the transfer arrives)" is
conditional just as "I give m5 to Bob if the transfer arrives" is, and the sender is told so;
a hedge on what is said ("(if you ask me ...)", "(if any)") is no condition. A taking back
said last in a sentence (", never mind, carry on") or as its own sentence ("Oh wait, never
mind.") takes back what was said before it. A paragraph "(Not a vote, just showing the
format.)" says the ballot before it is not cast. The game: tests/reader_world.py."""
import pytest

from reader_world import actions, read, vocab


@pytest.mark.parametrize("text", [
    "I give m5 to Bob (if the transfer from Alice arrives).",
    "Right away (well, as soon as I am back from holiday) I give m5 to Bob.",
    "I give m5 to Bob (once I have the money).",
    "I vote FOR 12 (unless Bob withdraws it).",
    "I give m5 to Bob (provided he asks nicely).",
])
def test_a_condition_in_brackets_is_a_condition_and_is_told(text):
    got = read(text, vocab("Alice"))
    assert [r for r in got if r.kind == "action"] == [], [r.read_as for r in got]
    assert any("4E7" in r.error and "conditional" in r.error for r in got), [r.error for r in got]


def test_a_condition_in_brackets_is_told_as_the_same_condition_unbracketed_is():
    bracketed = read("I give m5 to Bob (if the transfer from Alice arrives).", vocab("Alice"))
    plain = read("I give m5 to Bob if the transfer from Alice arrives.", vocab("Alice"))
    assert [r.error for r in bracketed] == [r.error for r in plain]


@pytest.mark.parametrize("text, expected", [
    # a hedge of a word, or on what is said, is no condition
    ("I pay my fine (if any).", [("pay_fine", {})]),
    ("I vote FOR 12 (if needed).", [("vote", {"vote": "FOR", "which": "12"})]),
    ("I vote FOR 12 (if you ask me it's great) and AGAINST 13.",
     [("vote", {"vote": "FOR", "which": "12"}), ("vote", {"vote": "AGAINST", "which": "13"})]),
    # a remark in brackets that is no condition
    ("I give m5 to Bob (he asked nicely).", [("give", {"amount": "m5", "player": "Bob"})]),
])
def test_a_hedge_or_a_remark_in_brackets_leaves_the_action(text, expected):
    assert actions(text, vocab("Alice")) == expected


@pytest.mark.parametrize("text", [
    "I object to Intent 3 being listed as mine, oh wait it is mine, never mind, carry on",
    "I object to Intent 3. Oh wait, never mind.",
    "I give m5 to Bob, never mind.",
    "I give m5 to Bob; scratch that",
])
def test_a_taking_back_said_last_takes_back(text):
    got = read(text, vocab("Wooble", intents={3: "Wooble"}))
    assert [r for r in got if r.kind == "action"] == [], [r.read_as for r in got]


@pytest.mark.parametrize("text, expected", [
    # "never mind" with an object of its own takes nothing back
    ("I vote FOR 12, never mind the typos.", [("vote", {"vote": "FOR", "which": "12"})]),
    # taken back, then said again: the new one stands
    ("I vote FOR 12. Wait, never mind, I vote AGAINST 12.", [("vote", {"vote": "AGAINST", "which": "12"})]),
])
def test_what_is_said_after_never_mind_stands(text, expected):
    assert actions(text, vocab("Alice")) == expected


@pytest.mark.parametrize("text", [
    "my ballot this nweek, for the historians:\n\n| 10 | FOR | because alice made me\n| 11 | FOR | socks\n"
    "| 12 | AGAINST | clocks\n\n(not a vote, i already voted. just showing off the table format.)",
    "FOR 10, AGAINST 11.\n\n(Not a vote, just showing the format.)",
    "FOR 10, AGAINST 11. (Not a vote, just showing the format.)",
])
def test_a_ballot_said_not_to_be_a_vote_is_not_cast(text):
    got = read(text, vocab("Chuck"))
    assert [r for r in got if r.kind == "action"] == [], [r.read_as for r in got]


def test_not_a_vote_on_another_proposal_disclaims_nothing_said():
    assert actions("FOR 10. This is not a vote on 11, which I like.", vocab("Alice")) == [
        ("vote", {"vote": "FOR", "which": "10"})]


# ---- "I mean ..." after an action: taken back, and what is meant read in its place

@pytest.mark.parametrize("text, expected", [
    ("FOR 14. Oh wait, I mean FOR 12, not 14.", [("vote", {"vote": "FOR", "which": "12"})]),
    ("FOR 14. Oh wait, I mean 12 - FOR 12, not 14. I haven't voted on 14 and\ndon't intend to.",
     [("vote", {"vote": "FOR", "which": "12"})]),
    ("I vote FOR 14. Sorry, I mean FOR 12.", [("vote", {"vote": "FOR", "which": "12"})]),
    # "I mean" with no correction before it is a way of speaking
    ("I vote FOR 12. I mean, it's the best one.", [("vote", {"vote": "FOR", "which": "12"})]),
])
def test_what_is_meant_instead_is_read_in_place_of_what_is_taken_back(text, expected):
    assert actions(text, vocab("Alice")) == expected


def test_what_is_meant_instead_that_reads_to_nothing_is_told():
    got = read("I vote FOR 14. Actually no, wait, I meant 12.", vocab("Alice"))
    assert [r for r in got if r.kind == "action"] == []
    assert any("taken back" in r.error and "4E7" in r.error for r in got), [r.error for r in got]


@pytest.mark.parametrize("text, expected", [
    # the correction says again the last item of the list, and corrects that item only
    ("I give m10 to Bob, m10 to Chuck, m10 to Dana, and 3 points -- sorry,\nI mean I exchange 3 points for "
     "mackerel.", ["give Bob", "give Chuck", "give Dana", "exchange"]),
    ("I vote FOR 10, 11, and 12 -- sorry, I mean I vote AGAINST 12.", ["vote 10, 11", "vote 12"]),
    # a correction of what the items before it act on too corrects the whole
    ("I vote FOR 10 and AGAINST 11 -- sorry, other way round: AGAINST 10 and\nFOR 11.", ["vote 10", "vote 11"]),
    ("I give m10 to Bob -- sorry, I mean I give m10 to Chuck.", ["give Chuck"]),
])
def test_a_correction_of_the_last_item_keeps_the_items_before_it(text, expected):
    got = actions(text, vocab("Alice"))
    assert [f"{name} {args.get('player') or args.get('which') or ''}".strip() for name, args in got] == expected


@pytest.mark.parametrize("text, kind", [
    ("Cancel my scheduled punishment of the Trick; Fish Rain has grown on me.", "punish_trick"),
    ("I cancel my scheduled support of Intent 3.", "support"),
])
def test_a_scheduled_action_named_by_its_noun_is_cancelled(text, kind):
    got = actions(text, vocab("Chuck"))
    assert [(name, args.get("kind")) for name, args in got] == [("cancel_scheduled", kind)]
