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


# ------------------------------------------------ numbers as misspelt (Rule 4E7: "exact wording")

@pytest.mark.parametrize("text, expected", [
    ("I vote FOR on proposal fiften.", [("FOR", "15")]),
    ("I vote AGAINST ninteen and FOR thirten.", [("AGAINST", "19"), ("FOR", "13")]),
])
def test_a_number_with_a_letter_left_out_is_the_number(text, expected):
    assert votes(text) == expected


def test_the_common_misspellings_of_a_number_are_the_number():
    assert actions("I give fourty mackerel to Bob.") == [("give", {"amount": "m40", "player": "Bob"})]


@pytest.mark.parametrize("word", ["elven", "trice", "right", "there", "none"])
def test_words_near_a_number_are_words(word):
    from bnomic.handlers.lexer import number_of
    assert number_of(word) is None


# ------------------------------------------------ "it" in a reply: what the quoted lines name

def test_a_vote_on_it_under_a_quoted_question_about_one_proposal():
    v = vocab(replying=True)
    assert votes("Not me: I vote AGAINST it.", v) == [("AGAINST", "this")]  # (the mail answered's, if one)
    got = read("Not me: I vote AGAINST it.", v, quoted="Quick poll: who's voting FOR 16?")
    assert [(r.kind, r.args) for r in got] == [("action", {"vote": "AGAINST", "which": "16"})]


def test_it_is_the_one_ministry_the_quoted_lines_name():
    # Rule 4E48: a Ministry is Usurped with a Reward lower than its current one
    v = vocab(replying=True, holders={"Change": "Alice"})
    got = read("Ha. Then I usurp it again, at m30.", v, quoted="In response I revise the Chairman's Reward to m35.")
    assert [(r.kind, r.spec.name, r.args) for r in got] == [("action", "usurp", {"reward": "m30", "ministry": "Change"})]
    got = read("Then I usurp it, at m30.", v, quoted="I take the Chairman's and the Registrar's posts.")
    assert [(r.kind, r.missing) for r in got] == [("incomplete", ("ministry",))]    # two named: which?


# ------------------------------------------------ more of the words each action is said with

@pytest.mark.parametrize("text", ["I destroy m10 towards my fine.", "I pay m10 toward my fine."])
def test_macks_destroyed_towards_a_fine(text):
    # Rule 4E73: "the Guilty Player is obligated and is able to destroy that number of macks"
    assert actions(text) == [("pay_fine", {"amount": "m10"})]


@pytest.mark.parametrize("text", ["I claim Consistent on 5.", "I claim that the answer to 5 is Consistent."])
def test_a_claim_on_a_consultation_by_its_number(text):
    # Rule 4E18: a Claim that the Answer is Consistent or Inconsistent
    assert actions(text, vocab(consultations=(5, 6))) == [("claim_consultation", {"claim": "Consistent",
                                                                                   "which": "5"})]


def test_count_me_against_is_a_vote():
    assert votes("Count me AGAINST on 12.") == [("AGAINST", "12")]
    (r,) = read("Count me AGAINST.")
    assert (r.kind, r.spec.name, r.missing) == ("incomplete", "vote", ("which",))
    assert [r for r in read("I'll wait for his Reasoning first.")] == []     # no Vote meant by "for"


def test_the_document_after_a_colon_is_the_actions_that_says_following():
    # Rule 4E15: the proposal submitted is the text below; its Color is set on the new one
    got = read('I submit the following proposal, "Fish Friday", and set its colour to Baby Blue:\n\n'
               "  On nday 5 of each nweek, every Player gains m1 per fish pun posted.")
    assert [(r.kind, r.spec.name) for r in got] == [("action", "submit_proposal"), ("action", "color_proposal")]
    assert got[0].args["document"].strip().startswith("On nday 5") and got[1].args["number"] == "new"


def test_a_gift_after_so_in_the_end():
    text = "Chuck untangled my ballot mess for me, so in the end I\ngive m10 to\nChuck for the trouble."
    assert actions(text) == [("give", {"amount": "m10", "player": "Chuck"})]


@pytest.mark.parametrize("text, expected", [
    ("I give fifteen mackerel to the Beast and seven to Bob.", [("The Beast", "m15"), ("Bob", "m7")]),
    ("I give the Beast fifteen mackerel and Alice seven.", [("The Beast", "m15"), ("Alice", "m7")]),
    ("I give m5 to Bob and 3 to Chuck.", [("Bob", "m5"), ("Chuck", "m3")]),
    ("I give m5 to Bob and Chuck.", [("Bob", "m5"), ("Chuck", "m5")]),       # one amount: each one's
])
def test_a_second_amount_said_as_a_bare_number_is_in_the_same_currency(text, expected):
    # Rule 4E33: a Player may give mackerel; Rule 4E7: several actions in one sentence
    assert [(a["player"], a["amount"]) for n, a in actions(text) if n == "give"] == expected


@pytest.mark.parametrize("text", ["I take the Ministry of Law at its current Reward.",
                                  "I take the Ministry of Law, keeping the current Reward."])
def test_a_ministry_taken_at_its_current_reward(text):
    # Rule 4E46: the Reward specified may be the current one
    assert actions(text) == [("assign_ministry", {"ministry": "Law"})]


def test_the_same_reward_as_another_is_not_guessed_to_be_the_current_one():
    (r,) = read("I take the Ministry of Law at the same Reward.")
    assert r.kind == "incomplete"           # (the same as which? said before, or quoted)


def test_a_ballot_of_lowercase_vote_words_first_is_a_vote_a_line():
    # Rule 4E15: before, "for 12" / "against 13" was joined as one wrapped sentence and the
    # votes shifted a line ("AGAINST 12")
    assert votes("for 10\nfor 11\nfor 12\nagainst 13\nfor 15\nagainst 16") == [
        ("FOR", "10"), ("FOR", "11"), ("FOR", "12"), ("AGAINST", "13"), ("FOR", "15"), ("AGAINST", "16")]
    assert votes("I vote against 13 and\nfor 12") == [("AGAINST", "13"), ("FOR", "12")]


@pytest.mark.parametrize("text, expected", [
    ("SHELVE 10. Alice, this needs another pass; resubmit next nweek and I'll vote for it.", [("SHELVE", "10")]),
    ("Fix the typo and I'll vote FOR 12.", []),
    ("Please fix it and I will vote FOR 13.", []),
    ("SHELVE 10 and I'll vote FOR 11.", [("SHELVE", "10"), ("FOR", "11")]),     # both the sender's
    ("As it\nis, AGAINST 15, and I'll resubmit a cleaner version next nweek.", [("AGAINST", "15")]),
])
def test_a_promise_on_what_another_does_first_is_no_action(text, expected):
    # Rule 4E7 knows no conditional actions: "do X and I'll do Y" is "if you do X"
    assert votes(text) == expected


def test_a_remark_to_the_reader_is_no_answer():
    # Rule 4E18: an Answer is YES, NO or PARADOX (or words the handler judges); "don't worry" is none
    got = read("I remove my Ordained property. (I'll still answer Consultation 5, don't worry.)",
               vocab(consultations=(5,)))
    assert [(r.kind, r.spec.name) for r in got] == [("action", "leave_ordained"), ("incomplete", "answer_consultation")]


def test_a_report_the_sender_says_is_no_game_action():
    text = ("Unofficial report:\n\n  nday 12  Dana: give m10 to Bob\n  nday 12  Dana: vote AGAINST 13\n\n"
            "Corrections welcome; this is not a Game Action.")
    assert read(text) == []


@pytest.mark.parametrize("text", ["I resign the Ministry of Questions and go to bed.",
                                  "I resign the Ministry of Questions and hand the staff of ZOT to whoever wants it next."])
def test_what_else_the_sender_does_after_and_is_no_part_of_the_action(text):
    # Rule 4E47: the Resignation stands; the rest names nothing an action takes
    assert actions(text, vocab(holders={"Questions": "Dana"})) == [("resign_ministry", {"ministry": "Questions"})]


@pytest.mark.parametrize("text", ["I object to Intent 3 and its ugly sister.", "I give m5 to Bob and not to Chuck.",
                                  "I give m5 to Bob and friends."])
def test_more_said_after_and_that_may_be_the_actions_is_not_set_aside(text):
    assert [r.kind for r in read(text, vocab(intents={3: "Bob"}))] == ["incomplete"]


@pytest.mark.parametrize("text, expected", [
    ("I wish to cede my ministry of Questions, effective immediately.", [("resign_ministry", {"ministry": "Questions"})]),
    ("I object to both of the outstanding intents.", [("object", {"target": "3"}), ("object", {"target": "4"})]),
    ("I cast my vote in favour of proposal 16 (my own, naturally) - FOR.", [("vote", {"vote": "FOR", "which": "16"})]),
])
def test_more_words_actions_are_said_with(text, expected):
    v = vocab(holders={"Questions": "Dana"}, intents={3: "Bob", 4: "Alice"})
    assert actions(text, v) == expected


def test_in_favour_on_a_ballot_line_takes_no_vote_from_the_line_before():
    # Rule 4E15: "in favour" is no Vote word; the line's Vote is missing, never the last one said
    got = read("Voting:\n13: AGAINST\n15: in favour")
    assert [(r.kind, r.args.get("vote"), str(r.args.get("which"))) for r in got if r.spec.name == "vote"] == [
        ("action", "AGAINST", "13"), ("incomplete", None, "15")]


def test_a_revision_that_says_it_replaces_the_body():
    got = read("Revising 15: replace its body with\n\n{{\nDuring nweek 9, no Player may submit two.\n}}")
    assert [(r.kind, r.spec.name, r.args["number"]) for r in got] == [("action", "revise_proposal", "15")]


def test_a_revision_with_this_body_below():
    # Rule 4E15: "may revise a Pending proposal he owns by resubmitting it"
    got = read("I revise Proposal 15 (Tidy Up) by resubmitting it with this body:\n\n"
               "  During nweek 9 no Player may submit more than one Consultation.")
    assert [(r.kind, r.spec.name, r.args["number"]) for r in got] == [("action", "revise_proposal", "15")]
    assert got[0].args["document"].strip().startswith("During nweek 9")


def test_a_second_action_on_it_wrapped_over_two_lines():
    # Rule 4E18: the Oracle assigns a Priest and numbers the Consultation; "it" is the one just named
    got = read("Good question. I assign Alice as Priest for Consultation 6 and give it\nthe number 7.",
               vocab(consultations=(5, 6)))
    assert [(r.kind, r.spec.name, r.args.get("which")) for r in got] == [
        ("action", "assign_consultation", "6"), ("action", "number_consultation", "6")]


@pytest.mark.parametrize("text", [
    "Here it is. I submit it as a\nproposal:\n\nTitle: Public Holiday Fix\n\n  Amend Rule 4E31 by replacing X with Y.",
    'I\'ve written something; I submit it as a proposal, titled\n"Public Holiday Fix":\n\n  Amend Rule 4E31 by replacing X with Y.',
])
def test_a_proposal_submitted_as_it(text):
    # Rule 4E15: "it" is the document below, not a Jury's verdict on something
    got = read(text)
    assert [(r.kind, r.spec.name) for r in got] == [("action", "submit_proposal")]
    assert "Amend Rule 4E31" in got[0].args["document"]


def test_an_action_scheduled_in_so_many_words():
    # Rule 4E7: an action may be done later, at a time said; with no time it is told, never done now
    (r,) = read("I schedule the following action: give m5 to Chuck on nday 3.")
    assert (r.kind, r.spec.name, r.args, r.when.nday) == ("action", "give", {"amount": "m5", "player": "Chuck"}, 3)
    (r,) = read("I schedule the following action: give m5 to Chuck.")
    assert r.kind != "action" and "say when" in r.error and "Rule 4E7" in r.error
    assert read("I schedule a meeting with Bob.") == []


def test_an_address_added_to_my_entry_in_the_list_of_players():
    # Rule 4E4's Registrar keeps each Player's addresses: "it" is the address just said
    text = ("I'm also going to be posting from dana@work.example now and then; please add it to my entry "
            "in the Registrar's list of players.")
    assert actions(text) == [("add_address", {"name": "dana@work.example"})]
