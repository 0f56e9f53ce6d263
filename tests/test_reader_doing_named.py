"""Talk that names an action without taking it, and a reason said after an action.

Rule 4E7: a Game Action is taken by a message that says the player takes it; "Unambiguous
targets and parameters specified in Game Actions are valid regardless of capitalization,
punctuation, or exact wording." A sentence that names the doing as its subject ("Causing
the Beast to act is once per nweek") says something of the action and takes none; an
example set out under "Example of ...:" is shown, not done. A reason after a complete action
("... as it is fine") is no part of it.
The game (tests/reader_world.py): Open proposals 10, 11, 12, 13, 15 and 16."""
import pytest

from reader_world import actions, read, vocab


def said(text):
    """Everything read: actions, attempts and near-misses alike."""
    return [(r.kind, r.spec.name if r.spec else None) for r in read(text)]


@pytest.mark.parametrize("text", [
    "Causing the Beast to act is once per nweek per player.",
    "Reminder: causing the Beast to act is once per nweek per player, so Chuck can't do it again.",
    "Objecting to intent 3 is pointless.",
    "Supporting intent 3 would be silly.",
    "Giving m5 to Bob costs me nothing.",
    "Voting FOR 12 seems the obvious thing.",
])
def test_a_doing_named_as_the_subject_is_talk(text):
    # Rule 4E7: the sentence says something of the action; it takes none, nor tries to
    assert said(text) == []


@pytest.mark.parametrize("text, expected", [
    ("Voting FOR 12.", [("vote", {"vote": "FOR", "which": "12"})]),
    ("Giving m5 to Bob, which is generous of me.", [("give", {"amount": "m5", "player": "Bob"})]),
    ("Withdrawing my support for intent #4 -- Ais has convinced me the title is too cute.",
     [("withdraw_stance", {"target": "4"})]),
    ("Voting FOR 12 as it is fine.", [("vote", {"vote": "FOR", "which": "12"})]),
])
def test_a_doing_said_with_a_remark_after_it_is_still_done(text, expected):
    assert actions(text) == expected


@pytest.mark.parametrize("text", [
    "I vote FOR 12 as it is fine.",
    "I vote FOR 12 as I like it.",
    "I vote FOR 12 as we agreed.",
    "I vote FOR 12 as it looks fine.",
])
def test_as_and_a_clause_after_a_vote_is_its_reason(text):
    assert actions(text) == [("vote", {"vote": "FOR", "which": "12"})]


def test_as_and_a_clause_after_a_gift_is_its_reason():
    assert actions("I give m5 to Bob as it is his birthday.") == [("give", {"amount": "m5", "player": "Bob"})]


def test_as_before_a_name_is_still_the_name_a_player_joins_as():
    assert [a for a, _ in actions("I join as Bob.")] == ["join"]


def test_an_example_set_out_under_its_heading_is_shown_not_done():
    text = ("Example of a well-formed business message, for the newcomers:\n\n"
            "    I vote FOR 10.\n    I give m5 to Bob.\n    I object to Intent 3.\n\n"
            "Please don't send this one, it's an example. Write your own.")
    assert said(text) == []


def test_after_the_example_the_senders_own_words_count_again():
    text = ("Example:\n\n    I vote FOR 10.\n\nAnd for real: I vote AGAINST 11.")
    assert actions(text) == [("vote", {"vote": "AGAINST", "which": "11"})]


def test_a_remark_on_the_gift_that_names_the_giver_is_no_role_of_it():
    assert actions("I give m5 to Bob, which is generous of me.") == [("give", {"amount": "m5", "player": "Bob"})]


def test_a_short_heading_that_says_not_over_a_list_is_not_done():
    text = ("Things I am NOT doing today:\n- voting on 16\n- giving Wooble any more money\n"
            "- taking the Ministry of Time\nThings I am doing today: nothing. It's my birthday.")
    assert [r for r in read(text) if r.kind == "action"] == []


def test_a_long_line_with_not_in_it_before_a_colon_is_no_heading():
    text = ("So I read Tidy Up line by line, which is not how I pictured my Monday, and Dana did a careful job:\n"
            "every change is one anyone would make. Anyway, having read it twice, I vote FOR 15.")
    assert actions(text) == [("vote", {"vote": "FOR", "which": "15"})]


@pytest.mark.parametrize("text", [
    "Proposal 17 is assigned the Proposal Number 17. Wait, it already has one. Ignore me, I'm tired.",
    "I vote FOR 12. Never mind, I'll think about it some more.",
    "I give m5 to Bob. Just kidding, I know he owes me.",
])
def test_a_taking_back_said_first_and_then_why_takes_the_action_back(text):
    # Rule 4E7: the message says the action is not taken
    assert [r for r in read(text) if r.kind == "action"] == []


def test_a_modal_at_the_end_of_a_wrapped_line_keeps_its_verb_on_the_next():
    text = ("Relatedly, if anybody has ideas for a third Trick, I'd happily\n"
            "support an intent to teach one. Something with socks would be fun.")
    assert [r for r in read(text) if r.kind == "action"] == []


def test_asking_to_be_a_player_with_a_name_is_a_request_to_join():
    # Rule 4E4: "a request to become a Player and a uniquely identifying name"
    got = [r for r in read('Good evening. I am asking to be a Player in B Nomic, with the name "Mirela".',
                           vocab(None)) if r.kind == "action"]
    assert [(r.spec.name, r.args.get("name")) for r in got] == [("join", "Mirela")]


def test_i_will_wait_is_no_near_miss_of_a_request_to_join():
    assert said("I'll wait for his Reasoning first.") == []


def test_a_to_do_list_and_a_done_list_are_not_done():
    text = ("Things I have done this nweek, for my own records:\n * voted on everything\n"
            " * objected to Intent 3\n\nThings still to do:\n * ordain (maybe)\n * read Proposal 16 properly")
    assert [r for r in read(text) if r.kind == "action"] == []


def test_a_submission_taken_back_in_its_last_paragraph_is_not_made():
    # Rule 4E7: the sender says, after the text, that it is not submitted
    text = ('Chuck submits Proposal "Eras Again Again":\n\nCreate a Fifth Era of B Nomic starting with the next '
            "nweek.\n\n...just kidding. I'm not submitting that. Yet.")
    assert [r for r in read(text, vocab("Chuck")) if r.kind == "action"] == []


def test_a_submission_in_the_third_person_by_its_sender_is_made():
    text = 'Chuck submits Proposal "Eras Again Again":\n\nCreate a Fifth Era of B Nomic starting with the next nweek.'
    assert [r.spec.name for r in read(text, vocab("Chuck")) if r.kind == "action"] == ["submit_proposal"]
