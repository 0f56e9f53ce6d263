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


# ------------------------------------------------------------------ times said first (Rule 4E7)

@pytest.mark.parametrize("text, nday", [
    ("At the start of next Breakday, I resign as Registrar.", 1),
    ("I resign as Registrar at the start of next Zarpint.", 11),
    ("I turn the Clock On next Breakday.", 1),
])
def test_the_start_of_next_named_nday_schedules_the_action(text, nday):
    # Rule 4E7: an action may be announced for "the start of the next occurrence" of an nday
    got = [r for r in read(text) if r.kind == "action"]
    assert len(got) == 1 and got[0].when is not None and (got[0].when.kind, got[0].when.nday) == ("nday", nday)


@pytest.mark.parametrize("text", [
    "At the start of next Blorpday, I resign as Registrar.",
    "On Flurbday I give m5 to Bob.",
    "On my birthday I give m5 to Bob.",
])
def test_a_time_said_first_that_bnomic_cannot_keep_is_refused_not_dropped(text):
    # before, the words of time were set aside as a remark and the action done at once
    got = read(text)
    assert [r.kind for r in got] == ["unknown"] and "no such time" in got[0].error, got


@pytest.mark.parametrize("text", ["Next, I vote FOR 12.", "At the end of the day, I vote FOR 12.",
                                  "Today I give Bob m5."])
def test_words_that_only_look_like_a_time_leave_the_action_done(text):
    assert [r.kind for r in read(text)] == ["action"]


# ------------------------------------------------------------------ two lists in order

@pytest.mark.parametrize("text", [
    "I take the Judge and the Rulekeeper, at m40 and m60 respectively.",
    "I take the Judge and the Rulekeeper at m40 and m60.",
    "I take the Judge at m40 and the Rulekeeper at m60.",
])
def test_two_lists_said_in_order_are_read_in_pairs(text):
    # Rule 4E46: each Ministry taken with its own Reward; before, the Rulekeeper was taken
    # twice, at m40 and at m60, and the Judge with no Reward
    assert actions(text) == [("assign_ministry", {"ministry": "Judging", "reward": "m40"}),
                             ("assign_ministry", {"ministry": "Law", "reward": "m60"})]


def test_one_value_for_a_list_is_shared_by_each():
    assert actions("I give m5 to Bob and Chuck.") == [("give", {"amount": "m5", "player": "Bob"}),
                                                      ("give", {"amount": "m5", "player": "Chuck"})]


# ------------------------------------------------------------------ Rule 4E48's own words

@pytest.mark.parametrize("text", [
    "I usurp the Ministry of Questions from Chuck and propose for it the new Reward m40.",
    "I usurp the Ministry of Questions, proposing for it a new Reward of m40.",
    "I usurp the Ministry of Questions, proposing for this Ministry a new Reward of m40.",
])
def test_usurping_proposing_for_it_a_reward(text):
    got = actions(text)
    assert len(got) == 1 and got[0][0] == "usurp" and got[0][1]["reward"] == "m40", got


# ------------------------------------------------------------------ text below a colon; a verdict after reasons

@pytest.mark.parametrize("text", [
    "CoE on the Registrar's display posted this morning:\n- it lists me with m90; I have m100.\n"
    "- it doesn't show my second address, dana.w@workplace.example.",
    "I challenge the Registrar's display:\n\n* it lists me with m90\n* it lacks my address",
])
def test_a_challenge_over_a_list_takes_the_items_as_its_errors(text):
    # Rule 4E50: "by listing any errors he believes to be present in that public display"
    got = [r for r in read(text) if r.kind == "action"]
    assert [r.spec.name for r in got] == ["challenge_display"]
    assert "m90" in got[0].args["errors"] and " / " in got[0].args["errors"]


def test_a_ballot_under_a_colon_is_still_votes():
    assert votes("I vote as follows:\n- FOR 12\n- AGAINST 13") == [("FOR", "12"), ("AGAINST", "13")]


@pytest.mark.parametrize("text, answer", [
    ("Indictment 2: Wooble sent four messages in ten minutes to the Public Forum, all\n"
     "of them about socks. GUILTY.", "GUILTY"),
    ("Indictment 2: he only sent three.\nNOT GUILTY.", "NOT GUILTY"),
])
def test_a_verdict_said_after_its_reasons_under_the_indictments_heading(text, answer):
    # Rule 4E72: each Juror answers GUILTY or NOT GUILTY
    assert actions(text) == [("verdict", {"number": "2", "answer": answer})]


@pytest.mark.parametrize("text", [
    "Indictment 2: I think he's probably guilty, but I'm not sure. Let me sleep on it.",
    "Indictment 2: some say GUILTY, some say NOT GUILTY.",
])
def test_an_opinion_under_the_heading_is_no_verdict(text):
    assert actions(text) == []


@pytest.mark.parametrize("text", [
    "After a great deal of thought I have decided that I vote\nAGAINST Proposal\n16.",
    "I have decided that I vote AGAINST Proposal 16.",
    "I've decided that I vote AGAINST 16.",
])
def test_a_decision_said_now_is_the_vote(text):
    assert votes(text) == [("AGAINST", "16")]


def test_a_decision_reported_in_the_past_is_talk():
    assert votes("I decided that I vote AGAINST 16.") == []


def test_a_tally_under_its_heading_and_said_again_is_one_tally():
    # Rule 4E18: the Claims on a Consultation are tallied once
    got = actions("Tally of Claims on Consultation 5:\n  Consistent: Alice, Ais523\n  Inconsistent: Bob\n"
                  "Consistent wins; the answer stands. I hereby tally the Claims as above.")
    assert got == [("tally_claims", {"which": "5"})]


def test_errors_labelled_after_the_challenge_sentence_are_its_errors():
    # "... of Players. Errors:" over items: the label ends a sentence of its own
    got = [r for r in read("I challenge the Registrar's display of Players. Errors:\n"
                           " - it lists Wooble as Inactive; he voted this nweek;\n - it gives me m95; I have m100.")
           if r.kind == "action"]
    assert [r.spec.name for r in got] == ["challenge_display"] and "m95" in got[0].args["errors"]


# ------------------------------------------------------------------ an encoded-word left in the body

@pytest.mark.parametrize("body", ["=?UTF-8?Q?I_vote_FOR_Proposal_10?=\n-- \nBob",
                                  "=?utf-8?B?SSB2b3RlIEZPUiAxMA==?="])
def test_an_encoded_word_a_mailer_left_in_the_body_is_read_decoded(body):
    # RFC 2047's encoded-words belong in headers; a mail program that leaks one into the
    # body has still sent "I vote FOR Proposal 10" (email.header decodes it)
    from bnomic.mailer.parse import own_words
    assert votes(own_words(body)) == [("FOR", "10")]


def test_a_word_that_only_looks_encoded_is_left_as_it_is():
    from bnomic.mailer.parse import own_words
    assert own_words("A =?bogus?Q?x?= here, and I vote FOR 12 =?") == "A =?bogus?Q?x?= here, and I vote FOR 12 =?"
