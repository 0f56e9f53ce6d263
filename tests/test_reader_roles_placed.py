"""Roles where players put them: a quoted text with commas in it, the way of an intent said
inside the action, a list of proposals written before "I", a Vote with a remark after a dash,
"back" before a value, "come Thirnight", "put me down as AGAINST", and a sentence added to
the one before it that must not change what that one read.

Rule 4E7: "Unambiguous targets and parameters specified in Game Actions are valid regardless
of capitalization, punctuation, or exact wording." Rule 4E15 (Votes), 4E21/4E22 (intents with
objection or support), 4E36 (the Message of the Nweek), 4E83 (mental states).
The game (tests/reader_world.py): Open proposals 10, 11, 12, 13, 15 and 16."""
import pytest

from reader_world import actions, read, vocab, votes


def test_a_quoted_message_with_a_comma_is_one_message():
    got = actions('I set the Message of the Nweek to "Vote early, vote often" and vote FOR 12.')
    assert [name for name, _ in got] == ["change_motnw", "vote"]
    assert got[0][1]["message"] == "Vote early, vote often"


def test_an_intent_to_set_a_quoted_message_with_a_comma_keeps_it_whole():
    got = [r for r in read('I intend, with support, to set the Message of the Nweek to "Vote early, vote often".')
           if r.kind == "action"]
    assert [r.spec.name for r in got] == ["intend"]
    assert '"Vote early, vote often"' in got[0].args["rest"]


def test_the_way_of_an_intent_said_inside_the_action_is_its_way():
    got = [r for r in read('As Registrar I intend to set the Message of the Nweek, with support, '
                           'to "Nobody expects the Oracle".') if r.kind == "action"]
    assert [r.spec.name for r in got] == ["intend"]
    assert got[0].args["rest"] == 'set the Message of the Nweek to "Nobody expects the Oracle" with support'


@pytest.mark.parametrize("text, expected", [
    ("On 12, I vote SHELVE.", [("SHELVE", "12")]),
    ("On 12 and 13, I vote SHELVE.", [("SHELVE", "12"), ("SHELVE", "13")]),
    ("On 12 and 13 I vote AGAINST.", [("AGAINST", "12"), ("AGAINST", "13")]),
    ("On 10, 12 and 13 I vote AGAINST.", [("AGAINST", "10"), ("AGAINST", "12"), ("AGAINST", "13")]),
])
def test_proposals_listed_before_i_are_what_the_vote_is_on(text, expected):
    assert [(v, w.strip()) for v, ws in votes(text) for w in ws.split(",")] == expected


@pytest.mark.parametrize("text", [
    "I vote AGAINST 12 - one clock fix is enough for any nweek.",
    "On Proposal Twelve, AGAINST - one clock fix is enough for any nweek.",
    "I vote AGAINST 12 - 15 is better.",
])
def test_a_remark_after_a_dash_is_no_part_of_the_vote(text):
    assert votes(text) == [("AGAINST", "12")]


def test_back_before_the_state_is_said_of_a_return():
    assert [name for name, _ in actions("I turn the Clock back On.")] == ["clock_on"]


@pytest.mark.parametrize("text", ["Come Thirnight, I resign from the Ministry of Change.",
                                  "I resign from the Ministry of Change come Thirnight."])
def test_come_and_an_nday_is_when(text):
    got = [r for r in read(text) if r.kind == "action"]
    assert [r.spec.name for r in got] == ["resign_ministry"]
    assert got[0].when is not None and (got[0].when.kind, got[0].when.nday) == ("nday", 12)   # Thirnight, the 12th


@pytest.mark.parametrize("text", ["Put me down as AGAINST on 11, please.", "Mark me down as AGAINST on 11."])
def test_put_me_down_as_a_vote_is_a_vote(text):
    assert votes(text) == [("AGAINST", "11")]


def test_count_me_in_is_no_vote():
    assert votes("Count me in please.") == []


def test_a_sentence_after_the_votes_never_changes_them():
    assert votes("vote 11 against, 14 for.  sent in a hurry") == [("AGAINST", "11"), ("FOR", "14")]


def test_a_sentence_after_the_votes_may_add_to_them():
    assert [(v, w.strip()) for v, ws in votes("I vote FOR 10, 11. And also 13.") for w in ws.split(",")] == [
        ("FOR", "10"), ("FOR", "11"), ("FOR", "13")]


def test_a_question_about_something_else_after_a_vote_leaves_the_vote():
    # Rule 4E7: the vote is said; the question after the comma asks about a gift already made
    assert votes("i vote FOR 10 and i gave alice m5 yesterday, did it arrive?") == [("FOR", "10")]


@pytest.mark.parametrize("text", ["Should I vote FOR 12, or does that break it?", "Can I vote FOR 12?"])
def test_a_question_is_still_no_vote(text):
    assert votes(text) == []


@pytest.mark.parametrize("text", ["I vote FOR 10 once more.", "I obviously vote FOR 10.",
                                  "On Proposal 10, I obviously vote FOR.",
                                  "On Proposal 10 (Fishy Business), which Alice wrote, I obviously vote FOR."])
def test_words_about_a_vote_around_it_leave_it(text):
    assert votes(text) == [("FOR", "10")]


@pytest.mark.parametrize("text", ["I probably vote FOR 10.", "I already voted FOR 10."])
def test_a_hedge_before_the_verb_is_no_vote(text):
    assert votes(text) == []


def test_a_verb_ending_in_ly_is_still_the_verb():
    got = [r.spec.name for r in read("As Oracle I tally the claims on Consultation 5.", vocab("Chuck"))
           if r.kind == "action"]
    assert got == ["tally_claims"]


@pytest.mark.parametrize("text", ["I take the Ministry of Fauna, at its current Reward of m100.",
                                  "I take the Ministry of Fauna (Ranger), keeping its current Reward of m100.",
                                  "I take the Ministry of Fauna, leaving the Reward at m100."])
def test_the_reward_kept_is_the_reward(text):
    assert actions(text) == [("assign_ministry", {"ministry": "Fauna", "reward": "m100"})]


def test_objection_to_an_intent_named_by_a_compound_of_its_action():
    got = [r for r in read("Objection to Wooble's beast-money intent.", vocab("Dana", intents={3: "Wooble"},
                                                                           intent_actions={3: "beast_acts"}))
           if r.kind == "action"]
    assert [r.spec.name for r in got] == ["object"]


def test_please_note_before_i_is_no_part_of_the_action():
    got = actions("Registrar: please note I'll also be posting from dana.w@work.example from now on.")
    assert [name for name, _ in got] == ["add_address"]


def test_the_marker_said_again_after_and_begins_the_next_item():
    assert actions("I resign from Judging and from Laundry.", vocab("Wooble")) == [
        ("resign_ministry", {"ministry": "Judging"}), ("resign_ministry", {"ministry": "Laundry"})]


def test_a_ministry_named_before_the_word_ministry():
    assert actions("I take the vacant Judging ministry, reward m100.", vocab("Wooble")) == [
        ("assign_ministry", {"ministry": "Judging", "reward": "m100"})]


@pytest.mark.parametrize("text", ["CoE on the Registrar's report of nweek 7: it lists me with m80; I have m100.",
                                  "I challenge the Registrar's report of nday 8: it lists me with m80."])
def test_a_display_named_with_when_it_was_published(text):
    # Rule 4E50: the display challenged, and its errors; "of nweek 7" says which report
    got = [r for r in read(text, vocab("Chuck")) if r.kind == "action"]
    assert [r.spec.name for r in got] == ["challenge_display"]
    assert got[0].args["errors"].startswith("it lists me with m80")


@pytest.mark.parametrize("text", ["Chuck, as Juror on Indictment 2, finds Wooble GUILTY.", "Chuck votes FOR 11."])
def test_the_sender_naming_emself_in_the_third_person_acts(text):
    assert [r.kind for r in read(text, vocab("Chuck"))] == ["action"]


@pytest.mark.parametrize("text", ["Wooble votes FOR 11.", "2. Chuck becomes the Minister of Ministry."])
def test_another_player_or_an_outcome_in_the_third_person_is_not_the_senders_action(text):
    assert [r for r in read(text, vocab("Chuck")) if r.kind == "action"] == []


def test_a_remark_after_a_text_role_is_no_part_of_it():
    got = [r for r in read("I set the colour of Proposal 16 to Orange, which Chuck asked me to do ages ago.",
                           vocab("Dana")) if r.spec is not None]
    assert all("which" not in str(v) for r in got for v in r.args.values())


def test_as_announced_after_a_title_said_with_as_is_why():
    got = actions('I retitle Rule 4E9 to "The Eras of B" as announced in Intent #4.', vocab("Alice"))
    assert [name for name, _ in got] == ["retitle_rule"]


def test_myself_after_a_complete_action_is_said_of_it():
    assert [name for name, _ in actions("I activate Tweak 3 myself.", vocab("Bob", tweaks={3: "Bob"}))] == [
        "activate_tweak"]


@pytest.mark.parametrize("text, proposal", [("Proposal 12: I vote in favour.", "12"),
                                            ("Vote on 11: in favour, with reservations.", "11"),
                                            ("Proposal 10: I'm in favour.", "10")])
def test_in_favour_under_a_heading_is_a_vote_missing_its_vote_word(text, proposal):
    # Rule 4E15: only FOR, AGAINST, ABSTAIN and SHELVE are Votes; the attempt is reported
    (r,) = read(text)
    assert (r.kind, r.spec.name, str(r.args.get("which"))) == ("incomplete", "vote", proposal)


@pytest.mark.parametrize("text, title", [
    ("PROPOSAL: Chairman's Discretion\nThe Chairman may delay publishing the Ballot by one nday if the forum "
     "is down.", "Chairman's Discretion"),
    ("Proposal: Fish Tax\nEvery Player who holds more than m150 gives m5 to the Beast at the start of each "
     "nweek.\nConflicts: 10\nDepends: none", "Fish Tax"),
])
def test_a_proposal_under_its_label_and_title_is_submitted(text, title):
    # Rule 4E15: a proposal submitted with its Title; the label line is the ruleset's own heading
    got = [r for r in read(text, vocab("Wooble")) if r.kind == "action"]
    assert [(r.spec.name, r.args.get("title")) for r in got] == [("submit_proposal", title)]


def test_a_label_over_a_sentence_of_the_senders_own_is_no_proposal():
    assert [r for r in read("Proposal: Fish Tax\nI think it's a bad idea, everyone may disagree.",
                            vocab("Wooble")) if r.kind == "action"] == []


@pytest.mark.parametrize("text, amount", [
    ("Thank you! I give it straight back, actually, I didn't need it after all.", "m40"),
    ("Thank you kindly! I give m10 of it straight back, that's too generous.", "m10"),
])
def test_a_gift_or_a_part_of_it_given_back_with_a_remark(text, amount):
    # Rule 4E33: "it" is the gift quoted, "back" its giver
    v = vocab("Wooble", addressee="Bob", replying=True)
    assert actions(text, v, quoted="I give m40 to Wooble.") == [("give", {"amount": amount, "player": "Bob"})]


def test_a_part_of_it_given_back_to_a_player_named():
    assert actions("Very kind. I give m40 of it back to Wooble, keeping m10 as a handling fee.", vocab("Chuck")) == [
        ("give", {"amount": "m40", "player": "Wooble"})]


@pytest.mark.parametrize("head", ["I submit the following proposals:", "Submitting two proposals:"])
def test_a_numbered_list_of_proposals_is_one_submission_each(head):
    # Rule 4E15: each proposal submitted with its own Title and text
    text = (f'{head}\n\n1. "Beast Tax": The Beast destroys m10 at the start of each nweek.\n'
            '2. "Beast Refund": Repeal the Beast Tax.')
    got = [r for r in read(text, vocab("Alice")) if r.kind == "action"]
    assert [(r.spec.name, r.args.get("title"), r.args.get("document")) for r in got] == [
        ("submit_proposal", "Beast Tax", "The Beast destroys m10 at the start of each nweek."),
        ("submit_proposal", "Beast Refund", "Repeal the Beast Tax.")]


def test_a_numbered_list_in_one_proposal_stays_one():
    text = "I submit the following proposal:\n\n1. Amend Rule 4E14.\n2. Repeal Rule 4E15."
    assert len([r for r in read(text, vocab("Bob")) if r.kind == "action"]) == 1


@pytest.mark.parametrize("text, unbeliever", [
    ("Consultation: does the Beast count as a Player for the purpose of 4E15?\nUnbeliever: Wooble. Reasoning: the "
     "Beast votes FOR things sometimes and nobody counts it.", "Wooble"),
    ("Consultation question: Is the Clock currently On? I name Bob as Unbeliever.", "Bob"),
])
def test_a_consultation_labelled_with_its_unbeliever_after_the_question(text, unbeliever):
    # Rule 4E18: a Consultation's Question, and the Unbeliever it may name
    got = [r for r in read(text, vocab("Alice")) if r.kind == "action"]
    assert [r.spec.name for r in got] == ["submit_consultation"]
    assert got[0].args["document"].endswith(f"Unbeliever: {unbeliever}")


def test_a_question_under_the_label_then_a_remark_is_no_consultation():
    assert [r for r in read("Consultation: Is the Clock currently On? I doubt it.", vocab("Alice"))
            if r.kind == "action"] == []


@pytest.mark.parametrize("text", ["I vote FOR 12 or 13.", "I give m10 to Bob or possibly to Alice, I forget who I owe.",
                                  "I give m10 to Bob or Alice."])
def test_two_values_for_one_role_are_ambiguous(text):
    # Rule 4E7: only unambiguous targets and parameters are valid: nothing done, both named
    (r,) = read(text)
    assert r.kind == "ambiguous" and len(r.alternatives) == 2


@pytest.mark.parametrize("text", ["I vote the same way on both.", "Same here: I vote the same way on both."])
def test_i_vote_the_same_under_quoted_votes_casts_them(text):
    # Rule 4E15: the Vote words are in the quoted lines; "I vote the same" names them
    v = vocab("Bob", addressee="Alice", replying=True)
    assert [(r.args["vote"], str(r.args["which"])) for r in read(text, v, quoted="I vote FOR 13 and AGAINST 15.")
            if r.kind == "action"] == [("FOR", "13"), ("AGAINST", "15")]


def test_i_vote_the_same_under_no_quoted_vote_is_an_attempt():
    v = vocab("Bob", addressee="Alice", replying=True)
    assert [r.kind for r in read("I vote the same way on both.", v, quoted="Nice weather.")] == ["incomplete"]


@pytest.mark.parametrize("text", ["As Priest of Consultation 5 I answer YES.",
                                  "As Priest of Consultation 5 I answer: Affirmative."])
def test_the_capacity_and_what_it_is_of_before_i(text):
    # Rule 4E18: the Priest of a Consultation answers it
    got = [r for r in read(text, vocab("Dana", consultations=(5, 6))) if r.kind == "action"]
    assert [(r.spec.name, str(r.args.get("which") or r.args.get("consultation"))) for r in got] == [
        ("answer_consultation", "5")]


def test_a_trick_named_and_another_action_after_it():
    # Rule 4E71: Reinforce the last Trick performed, named by its name
    got = [r.spec.name for r in read("I reinforce Fish Rain and I support intent 4.", vocab("Ais523")) if r.kind == "action"]
    assert got == ["reinforce_trick", "support"]


def test_the_claims_tallied_under_their_heading():
    # Rule 4E18: the Oracle's tally of the Claims on a Consultation
    got = [r.spec.name for r in read("Claims on Consultation 5 tallied: Consistent 2 (Alice, Ais523), Inconsistent 1 "
                                     "(Bob). The Answer stands.", vocab("Chuck", holders={"Questions": "Chuck"}))
           if r.kind == "action"]
    assert got == ["tally_claims"]


def test_a_long_remark_after_a_dash_is_no_part_of_the_action():
    got = actions("Actually I withdraw my support for Intent #4 - Chuck's point about 4E9 being cited elsewhere "
                  "by title is a good one.", vocab("Dana", intents={4: "Alice"}))
    assert got == [("withdraw_stance", {"target": "4"})]


def test_an_intent_named_by_its_author_and_another_action_is_not_the_authors_only_known_one():
    # Rule 4E21: "Alice's intent to Approve ..." is not her intent to retitle a Rule
    v = vocab("Bob", intents={3: "Wooble", 4: "Alice"}, intent_actions={3: ("beast_acts",), 4: ("retitle_rule",)})
    (r,) = read("I support Alice's intent to Approve the display of the Ministries.", v)
    assert r.args["target"] == "of Alice"


def test_its_reward_after_taking_a_ministry_is_that_ministrys():
    # Rule 4E46 then 4E48: the Ministry just taken, not the one the sender already holds
    got = actions("I become Doctor at m100 and immediately lower its Reward to m75.",
                  vocab("Alice", holders={"Change": "Alice"}))
    assert [a.get("ministry") for _, a in got] == ["Time", "Time"]


def test_a_line_wrapped_after_which_gets():
    text = "Gah, just realised I never voted. FOR everything except 12, which gets\nan AGAINST."
    assert ("AGAINST", "12") in votes(text)


def test_a_list_heading_wrapped_after_i_m_keeps_its_first_item():
    text = ("Voting, in list form because I'm\na list person:\n- 10: FOR\n- 11: FOR\n"
            "- 12: AGAINST (see my\n  earlier mail)\n- 16: SHELVE, needs another\n  pass")
    assert votes(text) == [("FOR", "10"), ("FOR", "11"), ("AGAINST", "12"), ("SHELVE", "16")]


def test_both_at_a_reward_is_said_of_each_ministry():
    # Rule 4E46: each Ministry assigned with the Reward said once for both
    assert actions("I take Laundry and Business, both at m100.", vocab("Dana")) == [
        ("assign_ministry", {"ministry": "Laundry", "reward": "m100"}),
        ("assign_ministry", {"ministry": "Business", "reward": "m100"})]


def test_you_in_a_mail_that_greets_one_player_is_that_player():
    text = "Hi Dana,\n\nDone, it's fixed on the wiki. Also: I give you m2 for the trouble.\n\nBob"
    assert ("give", {"amount": "m2", "player": "Dana"}) in actions(text, vocab("Bob"))


def test_you_in_a_mail_that_greets_everyone_is_no_one():
    assert actions("Hi all,\n\nI give you m2.", vocab("Bob")) == []


def test_a_line_going_on_with_and_and_more_actions_is_joined():
    text = ("I, Alice, being of sound mind and moderate mackerel, hereby give Bob m12\n"
            "and Wooble m8, and vote FOR 10 once more for good measure.")
    assert [(n, a.get("player") or a.get("which")) for n, a in actions(text, vocab("Alice"))] == [
        ("give", "Bob"), ("give", "Wooble"), ("vote", "10")]


def test_the_thing_to_be_done_said_after_which_is_that():
    text = ("Votes will come tomorrow, but in the meantime I do want to get one thing done before I forget, "
            "which is that I resign the Ministry of Society.")
    assert actions(text, vocab("Bob", holders={"Society": "Bob"})) == [("resign_ministry", {"ministry": "Society"})]


def test_an_attempt_with_a_remark_after_it_is_still_reported():
    # Rule 4E33: a gift with no amount is an attempt missing it, whatever is said after it
    got = read("I give some mackerel to Dana, she's earned it.", vocab("Alice"))
    assert [(r.kind, r.missing) for r in got] == [("incomplete", ("amount",))]


def test_a_word_about_a_stand_in_vote_never_moves_another_vote_onto_it():
    got = read("yes on 12, obviously, and AGAINST 13.")
    assert [(r.kind, str(r.args.get("which"))) for r in got] == [("incomplete", "12"), ("action", "13")]
