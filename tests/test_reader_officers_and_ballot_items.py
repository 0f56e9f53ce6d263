"""An officer's words as facts, a ballot's items read each alone, a document's end said on
a line with more after it, and a proposal revised by its Title.

Rule 4E15: "The Chairman is obligated to assign a new Proposal Number ... to each proposal
with a number of null"; a Vote is FOR, AGAINST, ABSTAIN or SHELVE; the author may revise
a proposal. Rule 4E0, step 4: the Emergency Coordinator announces "their intention to
increment the pause", and a PEP may voice objection to it. Rule 4E33: a Player may give
mackerel. The game (tests/reader_world.py); Alice is the Chairman."""
import pytest

from reader_world import actions, read, vocab, votes

CHAIRMAN = {"Change": "Alice"}


@pytest.mark.parametrize("text, number", [
    ("Mackerel Amnesty is Proposal 18.", "18"),
    ("Wearing my Chairman's hat: Mackerel Amnesty is Proposal 18.", "18"),
    ('Chairman: Ais523\'s "Beast Diet Lite" gets Proposal Number 19.', "19"),
    ('Dana\'s "Sock Drawer" becomes Proposal 19.', "19"),
    ("Proposal Number 20 it is.", "20"),
    ("This one is Proposal 18.", "18"),
])
def test_the_chairman_saying_a_proposal_is_numbered_numbers_it(text, number):
    (r,) = read(text, vocab("Alice", holders=CHAIRMAN))
    assert (r.kind, r.spec.name, str(r.args.get("which") or r.args.get("said"))) == (
        "action", "number_proposals", number)


@pytest.mark.parametrize("text, actor", [
    ("Mackerel Amnesty is Proposal 18.", "Bob"),                    # not the Chairman: talk about it
    ("Proposal Number 20 it is.", "Bob"),
    ("I think the Sock one is Proposal 12.", "Alice"),              # a hedge: what she believes
    ("Which one is Proposal 12?", "Alice"),
    ("Mackerel Amnesty is still Proposal 18.", "Alice"),
])
def test_a_number_said_as_a_fact_by_anyone_else_or_hedged_numbers_nothing(text, actor):
    assert actions(text, vocab(actor, holders=CHAIRMAN)) == []


@pytest.mark.parametrize("text, title", [
    ("I revise Fishy Business as follows:\nThe Clock is Off for nweek 9.", None),
    ('I revise Fishy Business, with the new title "Fishier Business", as follows:\n\n'
     "  The Clock is Off for nweek 9.", "Fishier Business"),
    ('I revise Fishy Business. New title: "Fishier Business". New body:\n\n'
     "  The Clock is Off for nweek 9.", "Fishier Business"),
    ("I revise Proposal 10. Title: Fishier Business. Text:\n  The Clock is Off for nweek 9.", "Fishier Business"),
])
def test_a_proposal_named_by_its_title_is_revised_with_the_text_below(text, title):
    (r,) = read(text, vocab("Alice"))
    assert (r.kind, r.spec.name, str(r.args["number"]), r.args.get("title")) == (
        "action", "revise_proposal", "10", title)
    assert r.args["document"].strip() == "The Clock is Off for nweek 9."


def test_a_change_said_after_the_colon_is_no_new_text():
    # "I revise 10: <what changes>" gives no text to revise it to: told, never taken as the text
    # (only a line that ends in its colon heads the text below it)
    (r,) = read("I revise 10: same as before, but with nweek 9 replaced by nweek 10.", vocab("Alice"))
    assert (r.kind, r.spec.name, r.missing) == ("incomplete", "revise_proposal", ("document",))


def test_the_end_of_a_document_said_with_more_on_its_line_ends_it():
    got = read("I submit the following proposal:\n\nThe Clock is Off for nweek 9.\n\n"
               "(End of proposal.) Separately, while I'm here: I vote FOR 15.")
    assert [(r.spec.name, r.args.get("document", "").strip() or r.args.get("which")) for r in got] == [
        ("submit_proposal", "The Clock is Off for nweek 9."), ("vote", "15")]


def test_a_line_cut_after_on_and_the_proposals_adds_nothing_to_the_vote_before():
    # "On 12 and 13" is what the next line's words are about, never more proposals for FOR
    assert votes("FOR 15. On 12 and 13\nI'm going to SHELVE both; they conflict.") == [("FOR", "15")]
    assert votes("I vote FOR 15. On 13 too.") == [("FOR", "15, 13")]
    assert votes("I vote FOR 15. On 13.") == [("FOR", "15, 13")]


def test_a_ballots_items_are_read_each_alone_and_the_misspelt_ones_told():
    got = read("votes: 10 FRO, 11 FOR, 12 AGIANST")
    assert [(r.kind, str(r.args.get("which")), r.args.get("vote")) for r in got] == [
        ("incomplete", "10", None), ("action", "11", "FOR"), ("incomplete", "12", None)]
    assert all(r.missing == ("vote",) for r in got if r.kind == "incomplete")
    # an item that is no Vote at all is told, never guessed
    got = read("10 AGAINST, 11 FOR, 12 maybe")
    assert [(r.kind, r.args.get("vote")) for r in got] == [("action", "AGAINST"), ("action", "FOR"),
                                                          ("incomplete", None)]


@pytest.mark.parametrize("text", ["10 TBD, 11 TBD", "Meeting at 10 tomorrow, 11 people, 12 cakes",
                                  "Proposals 10, 11, 12"])
def test_a_list_with_no_vote_in_it_is_no_ballot(text):
    assert read(text) == []


@pytest.mark.parametrize("text", [
    "I object to the Coordinator's intention.",
    "I object to the Coordinator's intent.",
    "I object to the Coordinator incrementing the Pause today.",
])
def test_the_coordinators_intention_is_the_pause_increment(text):
    assert actions(text, vocab("Wooble")) == [("object_increment", {})]


@pytest.mark.parametrize("text, amount, player", [
    ("Thank you! I give m5 of it to the Beast, for luck.", "m5", "The Beast"),
    ("I give m5 of my mackerel to Bob.", "m5", "Bob"),
    ("I give Bob m5 of my winnings.", "m5", "Bob"),
])
def test_an_amount_of_what_the_sender_holds_is_the_amount(text, amount, player):
    assert actions(text) == [("give", {"amount": amount, "player": player})]


# ------------------------------------------------- second part: the thirty-sixth and
# thirty-seventh reserves' false readings (a wrong action done is worse than none)

def test_an_example_after_for_instance_something_like_is_shown_not_done():
    text = ("For the newer players: a Transaction is a list of actions between markers.\n"
            "For instance, something like\n\n    BEGIN TRANSACTION\n    Assert: I have at least m10\n"
            "    I give m10 to Bob\n    END TRANSACTION\n\nwould give Bob m10 only if you had it.")
    assert read(text) == []


def test_in_favour_of_before_another_vote_word_lends_it_nothing():
    got = read("oh and i vote in favour of 11 (my sock amnesty!!) and against 12")
    assert [(r.kind, str(r.args.get("which")), r.args.get("vote")) for r in got] == [
        ("incomplete", "11", None), ("action", "12", "AGAINST")]


@pytest.mark.parametrize("text, name", [
    ('I submit a proposal titled "Beast Diet II". Body to follow once I\'ve\nchecked the interaction '
     "with 4E34.\n\n-- \nais523", "submit_proposal"),
    ("I submit the following proposal. Full text to come tomorrow, sorry.", "submit_proposal"),
])
def test_a_document_promised_later_is_not_the_lines_after_it(text, name):
    (r,) = read(text)
    assert (r.kind, r.spec.name, r.missing) == ("incomplete", name, ("document",))


def test_a_refresh_proposal_revised_is_one_revision_of_the_one_named():
    emergency = vocab("Bob", refresh={1: "Alice", 2: "Bob", 3: "Chuck"})
    (r,) = read("I revise my Refresh Proposal (RP 2) to read as follows:\n\n"
                "  1. The Clock is set to nweek 7, nday 10, On.\n  2. All PEPs become Calm.", emergency)
    assert (r.kind, r.spec.name, str(r.args["which"])) == ("action", "submit_refresh_proposal", "2")
    assert r.args["document"].strip().startswith("1. The Clock")
    (r,) = read("I revise my Refresh Proposal. It needs rewording.\nNew text when I've had coffee.", emergency)
    assert (r.kind, r.missing) == ("incomplete", ("document",))


@pytest.mark.parametrize("text, reward", [
    ("i take the ministry of time, reward forty", "m40"),
    ("i take the ministry of time, reward 40", "m40"),
    ("I take the Ministry of Time with a reward of 40", "m40"),
    ("I take the Ministry of Time with a reward of one hundred mackerel", "m100"),   # (never m1 and m100)
])
def test_a_reward_said_as_a_bare_number_is_mackerel(text, reward):
    assert actions(text, vocab("Wooble")) == [("assign_ministry", {"ministry": "Time", "reward": reward})]


def test_a_reward_said_in_points_is_told_never_dropped():
    (r,) = read("i take the ministry of time, reward 40 points", vocab("Wooble"))
    assert r.kind == "incomplete" and "reward" not in r.args


@pytest.mark.parametrize("text", ["Bob, give me m10 and I'll vote for 12.",
                                  "give me m10 and I'll vote for 12."])
def test_a_vote_promised_for_a_gift_is_no_vote(text):
    assert actions(text, vocab("Chuck")) == []


def test_a_time_said_of_what_another_did_is_not_when_the_action_is_done():
    (r,) = read("I challenge the Registrar's player list: it says Dana has m100, but she gave "
                "Wooble m10 on Joel.", vocab("Chuck"))
    assert r.spec.name == "challenge_display" and r.when is None
    (r,) = read("I give m5 to Bob, since he asked on Joel.", vocab("Chuck"))
    assert r.spec.name == "give" and r.when is None
    (r,) = read("I give m5 to Bob on Joel.", vocab("Chuck"))     # the sender's own time: scheduled
    assert r.when is not None and r.when.nday == 7


def test_the_action_after_what_made_the_sender_act():
    assert actions("Speaking as MoM: the Clock Fix debate has got heated enough that I'm hoisting "
                   "the Polka Dots flag.", vocab("Wooble")) == [("hoist_flag", {"flag": "Polka Dots"})]
    assert actions("I am not sure enough that I vote FOR 12.") == []


def test_two_intents_said_with_and_separately_are_two():
    got = read('I intend to cause the Beast to give m15 to Bob, and separately I intend to retitle '
               'Rule 4E31 to "Calendar of B" without objection.')
    assert [r.spec.name for r in got] == ["intend", "intend"]


def test_the_time_of_a_scheduled_action_named_to_cancel_it_is_no_time_to_cancel_at():
    for text in ("I cancel the vote I scheduled for Thirnight.", "I cancel my scheduled vote for Thirnight."):
        (r,) = read(text)
        assert (r.kind, r.spec.name, r.when) == ("action", "cancel_scheduled", None)


@pytest.mark.parametrize("text", ["I give m10 to get started", "I give you m10 to get started"])
def test_to_get_started_is_why_never_whom(text):
    (r,) = read(text)
    assert (r.kind, r.spec.name, r.missing) == ("incomplete", "give", ("player",))
    assert actions("I give m10 to Mark") == [("give", {"amount": "m10", "player": "Mark"})]   # a name: read
