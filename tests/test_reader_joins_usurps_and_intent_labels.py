"""What a careful officer reads in a newcomer's request that credits its recruiters in
everyday words, a usurpation that offers its Reward, and an intent written as a label.

Rule 4E4: "an Outsider may become a Player ... by publicly announcing such intention and a
uniquely identifying name that e wishes to be known by ... The Outsider may also name up to
three Players who recruited em". Rule 4E48: "Usurp a Ministry ... proposing for this
Ministry a new Reward Value". Rule 4E21: "a Player must first announce his intention to
perform that action"."""
import pytest

import bnomic.handlers.engine  # noqa: F401  (registers every action)
from bnomic.handlers import grammar
from bnomic.handlers.players import clean_name
from bnomic.handlers.vocabulary import Vocabulary, default

PLAYERS = ("Alice", "Bob", "Chuck", "Dana", "Wooble", "The Beast")


def vocab(actor=None, **more):
    return Vocabulary(players=PLAYERS, actor=actor, beast="The Beast", ministries=default().ministries,
                      holders={"Change": "Alice"}, **more)


def actions(text, v=None):
    return [(r.spec.name, {k: str(x) for k, x in r.args.items() if x not in (None, "")})
            for r in grammar.read(text, v or vocab()) if r.kind == "action"]


@pytest.mark.parametrize("text, recruiter", [
    ("I would like to become a player, please. Call me Hortensia. Wooble is the one who wouldn't stop "
     "talking about this game, so he gets the credit.", "Wooble"),
    ("I would like to be a player. My name is Marcel. It is Dana who made me want to join, she is "
     "responsible.", "Dana"),
])
def test_a_recruiter_credited_in_everyday_words_is_named(text, recruiter):
    got = actions(text)
    assert [n for n, _ in got] == ["join"] and got[0][1].get("recruiters") == recruiter


def test_a_name_for_the_game_is_the_name_given():
    got = actions('I want to join as a Player. My name for the game will be "Kenji".')
    assert [(n, clean_name(a["name"])) for n, a in got] == [("join", "Kenji")]     # as the handler takes it


def test_a_usurper_offering_a_reward_proposes_it():
    assert actions("I usurp the Ministry of Change, offering m50.", vocab("Chuck")) == [
        ("usurp", {"ministry": "Change", "reward": "m50"})]


def test_an_intent_label_over_the_action_said_with_i_announces_it():
    got = actions('Intent: without objection, I retitle Rule 4E9 to "Eras".', vocab("Alice"))
    assert [n for n, _ in got] == ["intend"] and "retitle Rule 4E9" in got[0][1]["rest"]


def test_every_intent_currently_pending_is_each_open_intent():
    v = vocab("Bob", intents={3: "Wooble", 4: "Alice"})
    assert actions("I object to every intent currently pending.", v) == [
        ("object", {"target": "3"}), ("object", {"target": "4"})]


def test_giving_up_being_ordained_leaves_it():
    assert actions("I give up being Ordained; two Consultations in one nweek is plenty.", vocab("Dana")) == [
        ("leave_ordained", {})]


def test_an_action_done_as_intended_is_that_action():
    assert actions("I cause the Beast to give m15 to Alice as intended.", vocab("Alice")) == [
        ("beast_acts", {"rest": "give m15 to Alice as intended"})]
    assert grammar.match_action("I give m15 to Alice as intended", vocab("Alice"))[1] == {
        "amount": "m15", "player": "Alice"}


@pytest.mark.parametrize("text", ["Thanks! I give Dana m5 in return, as promised.", "I give m5 to Dana in return."])
def test_in_return_says_why_it_is_given(text):
    assert actions(text, vocab("Wooble")) == [("give", {"amount": "m5", "player": "Dana"})]


@pytest.mark.parametrize("text", ["Every Breakday I will give the Beast m1.", "Each nweek I give the Beast m1."])
def test_a_recurring_time_is_refused_not_done_now(text):
    got = grammar.read(text, vocab("Dana"))
    assert [r.kind for r in got] == ["unknown"] and "Rule 4E7" in got[0].error


TRANSACTIONS = [
    "Transaction:\n- assert: I hold two Burgundy Socks\n- transfer a Burgundy Sock to Bob\n"
    "- transfer a Burgundy Sock to Chuck\nEnd of transaction.",
    "Transaction (all or nothing, please):\nBEGIN\ntransfer a Burgundy Sock to Bob\n"
    "assert Proposal 11 is Open\ntransfer a Burgundy Sock to Chuck\nEND",
]


@pytest.mark.parametrize("text", TRANSACTIONS)
def test_a_transaction_under_its_own_heading_is_one(text):
    # Rule 4E12: "A Transaction consists of ... a series of Game Actions and/or Assertions"
    got = grammar.read(text, vocab("Dana"))
    assert [r.kind for r in got] == ["transaction"] and not got[0].error
    assert [s.kind for s in got[0].steps] == ["assertion", "action", "action"] or \
        [s.kind for s in got[0].steps] == ["action", "assertion", "action"]


# ------------------------------------------------- the Judge's Punishments (Rule 4E73)

def judge_vocab():
    return vocab("Bob", indictments=(2,))


@pytest.mark.parametrize("text", [
    "Wooble having been found Guilty on Indictment 2, I assign a Punishment\nof a fine of m15.",
    "For Indictment 2, I assign Wooble a Punishment: a fine of m15.",
    "The Jury has Decided Wooble Guilty on Indictment 2. I fine him m15.",
])
def test_a_fine_assigned_as_the_judge_writes_it(text):
    got = actions(text, judge_vocab())
    assert [(n, a["number"], a["amount"]) for n, a in got] == [("assign_fine", "2", "m15")]


@pytest.mark.parametrize("text", [
    "Punishment for Indictment 2: Wooble shall post a limerick about herring\nto the Public Forum within a Jiffy.",
    "For Indictment 2, the punishment is: Wooble must sign every message \"Your Humble Servant\".",
    "For Indictment 2 the punishment is that Wooble must write a sonnet about the Beast.",
])
def test_a_punishment_under_a_label_is_assigned(text):
    got = actions(text, judge_vocab())
    assert [(n, a["number"]) for n, a in got] == [("assign_punishment", "2")] and "Wooble" in got[0][1]["document"]


def test_his_after_a_sentence_naming_one_player_is_that_player():
    assert actions("Chuck has not done a thing in this nweek or the last. I remove his Active property.",
                   vocab("Ais523")) == [("remove_active", {"player": "Chuck"})]


def test_a_reason_after_a_vote_is_no_second_vote():
    assert actions("And I vote FOR 12 again\nfor good measure.", vocab("Bob")) == [
        ("vote", {"vote": "FOR", "which": "12"})]
    assert actions("Vote: 10 for, 11 for, 12 against", vocab("Bob")) == [
        ("vote", {"vote": "FOR", "which": "10"}), ("vote", {"vote": "FOR", "which": "11"}),
        ("vote", {"vote": "AGAINST", "which": "12"})]


def test_a_request_to_join_said_twice_is_one():
    got = actions("I'd like\nto play. Please register me as a Player under the name Marlowe.")
    assert [n for n, _ in got] == ["join"]


def test_an_intent_named_by_its_author_and_a_word_for_what_it_does():
    v = vocab("Chuck", intents={3: "Wooble", 4: "Alice"}, intent_actions={3: ("beast_acts",), 4: ("retitle_rule",)})
    assert actions("I object to Wooble's Beast thing.", v) == [("object", {"target": "3"})]
    assert actions("I support Alice's retitling intent.", v) == [("support", {"target": "4"})]


def test_the_punishment_of_a_player_named_by_name():
    got = actions("For Indictment 2, Wooble's punishment: he shall write the Tidiness List\nfor the next nweek.",
                  judge_vocab())
    assert [(n, a["number"]) for n, a in got] == [("assign_punishment", "2")]


def test_the_chairmans_numbering_is_one_action_however_it_is_said():
    # Rule 4E15: the Chairman numbers every new proposal at once, in the order submitted
    got = actions("I assign this proposal the Proposal Number 18.", vocab("Alice"))
    assert [n for n, _ in got] == ["number_proposals"]
    got = actions('As Chairman I assign Proposal Number 18 to Wooble\'s "Sock Amnesty II", and I assign '
                  'Proposal Number 19 to Chuck\'s "Armageddon Postponed".', vocab("Alice"))
    assert [n for n, _ in got] == ["number_proposals"]


@pytest.mark.parametrize("text", ["On Indictment 2 my answer is NOT GUILTY.",
                                  "My answer as juror on Indictment 2 is NOT GUILTY.",
                                  "Jury answer on Indictment 2: not guilty."])
def test_a_jurors_answer_as_jurors_write_it(text):
    # Rule 4E73: "Each member of the Jury shall deliver an answer to the Public Forum"
    assert actions(text, vocab("Dana", indictments=(2,))) == [("verdict", {"number": "2", "answer": "NOT GUILTY"})]


@pytest.mark.parametrize("text", ["CoE: the Ballot lists Proposal 14 as by Chuck; Bob wrote it.",
                                  "CoE: the results don't include the vote counts, which 4E15 requires."])
def test_a_challenge_names_its_display_by_what_it_shows(text):
    # Rule 4E50: a Claim of Error on a Public Display; the Ballot and the results are the Chairman's
    got = actions(text, vocab("Dana"))
    assert [(n, a["ministry"]) for n, a in got] == [("challenge_display", "Change")]


def test_an_amount_with_no_currency_is_in_the_default_currency():
    # Rule 4E34: "The default currency of this game is mackerel"
    assert actions("I give 5 to Chuck.", vocab("Ais523")) == [("give", {"amount": "m5", "player": "Chuck"})]
    assert actions("I give 5 points to Chuck.", vocab("Ais523")) == []


def test_a_ballot_of_refresh_proposal_numbers_alone_where_they_are():
    # Rule 4E0, step 7: a PEP's Ballot ranks the Refresh Proposals
    emergency = vocab("Wooble", refresh={1: "Alice", 2: "Bob", 3: "Chuck"})
    assert actions("3 > 2 > 1, obviously.", emergency) == [("rank_refresh_proposals", {"ranking": "3, 2, 1"})]
    assert actions("3 > 2 > 1", vocab("Wooble")) == []


def test_a_ministry_taken_and_then_named_by_its_title_is_one_taking():
    # Rule 4E46: a Vacant Ministry is taken once; "I become the Doctor!" says the same again
    assert actions("I take the Ministry of Time at m100. I become the Doctor!", vocab("Dana")) == [
        ("assign_ministry", {"ministry": "Time", "reward": "m100"})]


def test_a_vote_said_three_times_is_cast_three_times():
    # Rule 4E15: each is cast, the last standing (docs/readings.md)
    assert len(actions("FOR 15. FOR 15. FOR 15. (just to be sure)", vocab("Wooble"))) == 3


@pytest.mark.parametrize("text", [
    "I resign as Chairman and immediately reassign the Ministry of Change to myself, with Reward m55.",
    "I resign from the Ministry of Change and reassign it to myself at m55.",
])
def test_a_ministry_resigned_and_reassigned_at_a_new_reward(text):
    # Rules 4E47 and 4E46: resigned, the Ministry is Vacant, and assigned again with a new Reward
    assert actions(text, vocab("Alice")) == [("resign_ministry", {"ministry": "Change"}),
                                             ("assign_ministry", {"ministry": "Change", "reward": "m55"})]
