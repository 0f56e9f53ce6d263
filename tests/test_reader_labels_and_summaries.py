"""Documents under a label of their own, and words said again of a list.

- "Refresh Proposal:" (Rule 4E0) and "Tidiness List (4E32):" (Rule 4E32) on a line alone, over
  their text, a blank line between them, submit that text;
- "all", "both", "all of them" after a list of proposals say the list again: "I vote FOR 10, 11
  and 12, all for good reasons" is three Votes, never a Vote on every Open proposal (Rule 4E15);
  "..., all at m90" after several Ministries gives each that Reward (Rule 4E45);
- "SORRY CAPS LOCK", "sorry" after an action are no part of it;
- "Wooble's Beast scheme" is his intent to cause the Beast to act (Rule 4E21).

The game: tests/reader_world.py."""
import pytest

from reader_world import actions, read, vocab, votes


def _submitted(text, kind):
    return [r.args.get("document") for r in read(text, vocab("Dana")) if r.kind == "action" and r.spec.name == kind]


def test_a_refresh_proposal_label_over_its_listed_text():
    text = ("Refresh Proposal:\n\n  1. All PEPs become Calm.\n  2. Proposals 10-16 are Discarded.\n"
            "  3. The Clock is set to nweek 8, nday 1, Off.")
    (document,) = _submitted(text, "submit_refresh_proposal")
    assert "All PEPs become Calm." in document and "nweek 8, nday 1, Off." in document


@pytest.mark.parametrize("text", [
    'Tidiness List (4E32):\n\n1. 4E71 "perfoms" -> "performs"\n2. 4E72 "occured" -> "occurred"',
    'Tidiness List:\n1. 4E71 "perfoms" -> "performs"\n2. 4E72 "occured" -> "occurred"',
])
def test_a_tidiness_list_label_over_its_items(text):
    (document,) = _submitted(text, "submit_tidiness_list")
    assert '"perfoms" -> "performs"' in document


@pytest.mark.parametrize("text", [
    "Refresh Proposal:\n\nI think we should restart the game, but I have not written it yet.",
    "My Tidiness List:\n\nI have not finished it yet.",
])
def test_a_label_over_the_senders_own_words_submits_nothing(text):
    assert [r for r in read(text, vocab("Dana")) if r.kind == "action"] == []


@pytest.mark.parametrize("text, expected", [
    ("I vote FOR 10, 11 and 12, all for good reasons.", [("FOR", "10, 11, 12")]),
    ("I vote FOR 10 and 11, both for good reasons.", [("FOR", "10, 11")]),
    ("I vote FOR all.", [("FOR", "all")]),
    ("I vote FOR 10, 11 and all open proposals.", [("FOR", "10, 11, all")]),
])
def test_all_or_both_after_a_list_says_the_list_again(text, expected):
    assert votes(text, vocab("Wooble")) == expected


def test_all_at_a_reward_after_several_ministries_gives_each_that_reward():
    got = actions("I take the Judging ministry, the Business ministry and the Fauna ministry, all at m90.",
                  vocab("Wooble"))
    assert [(a["ministry"], a.get("reward")) for _, a in got] == [
        ("Judging", "m90"), ("Business", "m90"), ("Fauna", "m90")]


@pytest.mark.parametrize("text, expected", [
    ("I VOTE FOR 11 AND 15 AND AGAINST 13 SORRY CAPS LOCK", [("FOR", "11, 15"), ("AGAINST", "13")]),
    ("I vote FOR 12, sorry Alice.", [("FOR", "12")]),
])
def test_an_apology_after_the_votes_is_no_part_of_them(text, expected):
    assert votes(text, vocab("Wooble")) == expected


def test_a_beast_scheme_is_the_intent_to_cause_the_beast_to_act():
    v = vocab("Dana", intents={3: "Wooble", 4: "Alice"})
    got = actions("I object to Wooble's Beast scheme. The Beast's macks are not a piggy bank.", v)
    assert got == actions("I object to Wooble's Beast intent.", v) == [
        ("object", {"target": "3", "what": "cause the Beast"})]


@pytest.mark.parametrize("text, title", [
    ('I intend, without objection, to retitle Rule 4E84 to "The Game of\nCalvinball (Ignore This)".',
     "The Game of Calvinball (Ignore This)"),
    ('I retitle Rule 4E84 to "Calvinball (Never Mind)".', "Calvinball (Never Mind)"),
])
def test_brackets_inside_quotation_marks_are_what_is_quoted(text, title):
    # "(Ignore This)" in a quoted Title is part of the Title, never a taking back
    got = [r for r in read(text, vocab("Wooble")) if r.kind == "action"]
    assert len(got) == 1 and title in " ".join(str(v) for v in got[0].args.values())


# ---- a Transaction whose step submits a document after a colon (Rule 4E12): the document
# ends at END TRANSACTION, and every step is read

@pytest.mark.parametrize("text, steps", [
    ("BEGIN TRANSACTION\nI become Ordained.\nI submit a Consultation: Does the Beast have a Mental State?\n"
     "END TRANSACTION", ["become_ordained", "submit_consultation"]),
    ('BEGIN TRANSACTION\nI usurp the Ministry of Change at m45.\nAssertion: I have at least m30.\n'
     'I submit the following proposal: "Chuck is the best Chairman."\nEND TRANSACTION\n\n'
     "Either all of that happens or none of it does.", ["usurp", "(assertion)", "submit_proposal"]),
])
def test_a_document_inside_a_transaction_ends_with_it(text, steps):
    (tx,) = read(text, vocab("Chuck"))
    assert tx.kind == "transaction"
    assert [s.spec.name if s.spec else "(assertion)" for s in tx.steps] == steps
    assert all("END TRANSACTION" not in str(s.args.get("document", "")) for s in tx.steps)


@pytest.mark.parametrize("text, nday", [
    ("I schedule the following for Zarpint: I support Intent 3.", 11),
    ("I hereby schedule the following action for nday 9: give m5 to Bob.", 9),
])
def test_i_schedule_the_following_for_a_time(text, nday):
    got = [r for r in read(text, vocab("Alice", intents={3: "Bob"})) if r.kind == "action"]
    assert len(got) == 1 and got[0].when is not None and got[0].when.nday == nday


# ---- Rule 4E15: "To submit a proposal, a player need only specify its Body"

@pytest.mark.parametrize("text, body", [
    ('I propose that Rule 4E30 be amended by adding "A Gross = 144" to its list.',
     'Rule 4E30 be amended by adding "A Gross = 144" to its list.'),
    ("I hereby propose that Rule 4E9 be repealed.", "Rule 4E9 be repealed."),
])
def test_i_propose_that_a_rule_change_submits_it(text, body):
    assert _submitted(text, "submit_proposal") == [body]


@pytest.mark.parametrize("text", [
    "I propose that we all vote FOR 12.",
    "I propose that Wooble buys everyone a drink.",
])
def test_i_propose_that_with_no_change_of_the_rules_is_a_suggestion(text):
    assert [r for r in read(text, vocab("Alice")) if r.kind == "action"] == []


@pytest.mark.parametrize("text", [
    "I submit the following:\n\nTitle: Quiet Nweek, Revised\nBody: During nweek 9, the OCB performs no Trick.",
    "I hereby withdraw Proposal 17 (Quiet Nweek) and submit in its place:\n\nTitle: Quiet Nweek, Revised\n"
    "Body: During nweek 9, the OCB performs no Trick.",
])
def test_a_submission_over_title_and_body_lines_is_a_proposal(text):
    (document,) = _submitted(text, "submit_proposal")
    assert "Title: Quiet Nweek, Revised" in document and "performs no Trick" in document
    assert not [r for r in read(text, vocab("Chuck")) if r.spec is not None and r.spec.name == "verdict"]


def test_a_document_written_indented_ends_at_the_first_line_that_is_not():
    text = ('Three actions, to be taken in the order listed:\n1. I submit the following Proposal, titled '
            '"Registrar Relief":\n     Amend Rule 4E4 by replacing "as well as a Public Display of the\n'
            '     current Public and Discussion Fora" with "; the Ministry of Business\n     maintains a Public '
            'Display".\n2. I set the Proposal Color of the above Proposal to Brick Red.\n3. I vote FOR Proposal 15.\nBob')
    got = [r for r in read(text, vocab("Bob")) if r.kind == "action"]
    assert [r.spec.name for r in got] == ["submit_proposal", "color_proposal", "vote"]
    assert "Brick Red" not in got[0].args["document"] and "maintains a Public Display" in got[0].args["document"]


def test_the_senders_words_after_an_indented_document_are_no_part_of_it():
    text = ("I submit the following proposal, titled \"Results Faster\":\n    Amend Rule 4E15 by replacing "
            "\"at the end\" with \"soon after the end\".\nAnd I vote FOR it when it's open.")
    (document,) = _submitted(text, "submit_proposal")
    assert document.strip().endswith('"soon after the end".')


@pytest.mark.parametrize("text, expected", [
    ("Should Chuck not fix this at the next opportunity I shall probably vote AGAINST it later in the week; "
     "for the present I ABSTAIN on Proposal 16.", [("ABSTAIN", "16")]),
    ("For now, I vote FOR 12.", [("FOR", "12")]),
    ("make 16 a SHELVE.", [("SHELVE", "16")]),
])
def test_now_said_first_and_a_vote_made_of_a_proposal(text, expected):
    assert votes(text, vocab("Wooble")) == expected


def test_a_colour_made_of_a_proposal_is_still_a_colour():
    assert actions("I make 17 a Baby Blue.", vocab("Wooble", proposals={17: ("Quiet Nweek", "Bob")})) == [
        ("color_proposal", {"number": "17", "color": "Baby Blue"})]


@pytest.mark.parametrize("text", [
    "Giving the chairman m20 for being so patient with us newbies",
    "Giving Alice m20 for being patient with us.",
])
def test_a_doing_said_first_with_us_in_its_reason_is_the_senders_own(text):
    assert actions(text, vocab("Dana", holders={"Change": "Alice"})) == [
        ("give", {"amount": "m20", "player": "Alice"})]


@pytest.mark.parametrize("text", ["Give us m5, Wooble.", "Everyone, give m5 to Bob because we like him."])
def test_a_command_asked_of_others_stays_theirs(text):
    assert actions(text, vocab("Dana")) == []
