"""What a careful officer reads where a reason of several words closes an action, where a
mail program wrapped a line in the middle of a sentence, and where an action is said to
be the same as another or the same again on something else.

Rule 4E7: "Unambiguous targets and parameters specified in Game Actions are valid
regardless of capitalization, punctuation, or exact wording." Rule 4E15: "a Vote, which
is one of the following words: FOR, AGAINST, ABSTAIN, SHELVE"."""
import pytest

from reader_world import PROPOSALS, read, vocab, votes

# ---------------------------------------------------------------- reasons of several words

@pytest.mark.parametrize("text, expected", [
    ("I vote FOR 12 out of modesty.", [("FOR", "12")]),
    ("I ABSTAIN on 16 out of sheer spite.", [("ABSTAIN", "16")]),
    ("I vote FOR all Open proposals except my own, on which I ABSTAIN out of modesty.",
     [("FOR", "10, 11, 12, 13, 15"), ("ABSTAIN", "16")]),
])
def test_out_of_says_why_after_a_complete_vote(text, expected):
    assert votes(text, vocab("Chuck")) == expected


def test_the_gift_with_a_reason_of_several_words_is_the_same_gift():
    got = [r for r in read("I give m5 to Bob in return for the map.") if r.kind == "action"]
    assert [(r.spec.name, str(r.args["amount"]), r.args["player"]) for r in got] == [("give", "m5", "Bob")]


# ---------------------------------------------------------------- lines a mail program wrapped

def test_a_line_ending_in_a_comma_is_joined_to_the_remark_after_it():
    # the comma was taken when the line was read alone: "Tidy Up: FOR obviously, ..." read as nothing
    assert votes("Tidy Up: FOR,\nobviously, I wrote the thing.") == [("FOR", "15")]


def test_a_line_ending_in_an_adverb_is_joined_to_the_next():
    text = ("On Sock Amnesty, AGAINST -- I rather\n"
            "like my socks where they are, thank you Wooble. Tidy Up: FOR,\n"
            "obviously, I wrote the thing.")
    assert votes(text) == [("AGAINST", "11"), ("FOR", "15")]


def test_a_ballot_line_is_still_a_line_of_its_own():
    assert votes("10: FOR\n11: AGAINST") == [("FOR", "10"), ("AGAINST", "11")]


# ---------------------------------------------------------------- the same, and the same again

@pytest.mark.parametrize("text, expected", [
    ("14: against, same problem as 12 only more so", [("AGAINST", "14")]),
    ("I vote AGAINST 14, same as 12.", [("AGAINST", "14")]),
    ("I vote FOR 10, same as Alice.", [("FOR", "10")]),
    ("I vote FOR 10, 12, same as Alice.", [("FOR", "10, 12")]),
])
def test_same_as_is_a_likeness_not_more_proposals(text, expected):
    v = vocab(proposals={**PROPOSALS, 14: ("Clock Fix II", "Bob")})
    assert votes(text, v) == expected


@pytest.mark.parametrize("text, expected", [
    ("I vote AGAINST 10, same for 12.", [("AGAINST", "10, 12")]),
    ("I vote FOR 10, and the same goes for proposal 12", [("FOR", "10, 12")]),
    ("SHELVE 13, same on 16.", [("SHELVE", "13, 16")]),
])
def test_same_for_another_is_the_same_vote_on_it(text, expected):
    # never "for 12" read as a second Vote FOR after AGAINST
    assert votes(text) == expected


# ---------------------------------------------------------------- an intent named by a noun

def stances(text, v=None):
    return [(r.spec.name, {k: str(x) for k, x in r.args.items() if x not in (None, "")})
            for r in read(text, v) if r.kind == "action"]


@pytest.mark.parametrize("text, expected", [
    ("I object to the Activation of Wooble's Tweak; 140 characters is too few.",
     [("object", {"what": "activate Wooble's Tweak"})]),
    ("I object to the activation of Tweak 3.", [("object", {"what": "activate Tweak 3"})]),
    ("I support the transfer of m10 to Bob.", [("support", {"what": "transfer m10 to Bob"})]),
    ("I object to the payment of m10 to Bob.", [("object", {"what": "pay m10 to Bob"})]),
])
def test_a_noun_for_the_action_names_the_intent_to_do_it(text, expected):
    # Rules 4E21, 4E22: the intent is named by what it would do, said as a noun
    assert stances(text) == expected


def test_a_noun_that_names_no_action_is_talk():
    assert stances("I object to the tone of this thread.") == []


@pytest.mark.parametrize("text", ["Objection to the Pause increment!", "Objection to incrementing the Pause.",
                                  "I object to the Pause increment."])
def test_an_objection_to_the_pause_increment_said_as_a_noun(text):
    # Rule 4E0, step 4: "If no PEP voices objection to this action on the Emergency Forum"
    assert [n for n, _ in stances(text)] == ["object_increment"]


@pytest.mark.parametrize("text", ["Any objection to the Pause increment?",
                                  "My objection to the Pause increment stands."])
def test_talk_of_an_objection_to_the_pause_is_none(text):
    assert stances(text) == []


# ---------------------------------------------------------------- the Oracle numbering (4E18)

def oracle(**more):
    return vocab("Chuck", holders={"Questions": "Chuck"}, **more)


@pytest.mark.parametrize("text", ["I number this Consultation 7 and assign it to Dana.",
                                  "I give this Consultation the number 7 and assign Dana as its Priest."])
def test_the_number_after_this_consultation_is_its_new_number(text):
    # Rule 4E18: "The Oracle may ... choose a number of his liking for a new Consultation";
    # "this Consultation 7" names the one replied to, and 7 is what it is numbered
    got = stances(text, oracle(replying=True))
    assert sorted(got) == [("assign_consultation", {"which": "this", "player": "Dana"}),
                           ("number_consultation", {"which": "this", "number": "7"})]


def test_consultation_7_alone_is_still_consultation_7():
    assert stances("I number Consultation 3 as 7.", oracle(consultations=(3,))) == [
        ("number_consultation", {"which": "3", "number": "7"})]


@pytest.mark.parametrize("text", ["I assign Consultation 6 to Dana, number 7.",
                                  "I assign Consultation 6 to Dana, its number 7."])
def test_a_number_said_after_the_assignment_is_the_one_liked(text):
    assert stances(text, oracle(consultations=(6,))) == [
        ("assign_consultation", {"which": "6", "player": "Dana", "number": "7"})]


def test_it_before_the_priest_is_the_consultation_replied_to_with_a_remark_after():
    assert stances("I assign it to Dana, she is the only Ordained Player around.", oracle(replying=True)) == [
        ("assign_consultation", {"which": "this", "player": "Dana"})]


def test_it_before_a_color_is_not_taken_for_the_thing_replied_to():
    # "I change it to ABSTAIN" under one's vote changes the vote, never a Proposal's Color
    got = stances("But fine: I change it to ABSTAIN.", vocab("Bob", replying=True))
    assert "color_proposal" not in [n for n, _ in got]


# ---------------------------------------------------------------- "its", in a reply (4E69, 4E18)

def test_its_proposal_color_in_a_reply_is_the_proposal_replied_to_and_the_remark_no_color():
    # Rule 4E69: "change the Proposal Color of a Pending Proposal to a value of his choice"
    got = stances("Happy with that. I set its Proposal Color to Brick Red, so the Brick Red Corporation "
                  "gets something out of it.", vocab(replying=True))
    assert got == [("color_proposal", {"color": "Brick Red", "number": "this"})]


def test_its_proposal_color_in_no_reply_names_no_proposal():
    got = [r for r in read("I set its Proposal Color to Brick Red.") if r.spec is not None]
    assert [(r.kind, r.spec.name, r.missing) for r in got] == [("incomplete", "color_proposal", ("number",))]


def test_the_color_said_twice_in_one_message_is_one_change():
    # Rule 4E69: "... may only do so once per nday": the same change said again is the one change
    got = stances("Make it Brick Red, I say. I set its Proposal Color to Brick Red.", vocab("Chuck", replying=True))
    assert got == [("color_proposal", {"color": "Brick Red", "number": "this"})]


def test_its_priest_with_a_remark_after_is_the_consultation_replied_to():
    got = stances("I assign Dana as its Priest, she being the only Ordained Player around.", oracle(replying=True))
    assert got == [("assign_consultation", {"player": "Dana", "which": "this"})]


# ---------------------------------------------------------------- a Transaction written inline, wrapped

def test_an_inline_transaction_wrapped_in_a_step_keeps_the_step_whole():
    # Rule 4E12: a Transaction's steps, written on one line that the mail program wrapped
    # in the middle of "I give m10 to / Wooble"
    got = read("Begin transaction. I exchange 2 points for mackerel; I give m10 to\n"
               "Wooble; I assert that I still have at least m100. End transaction.")
    assert [r.kind for r in got] == ["transaction"] and not got[0].error
    steps = got[0].steps
    assert [(s.spec.name if s.spec else s.kind) for s in steps] == ["exchange", "give", "assertion"]
    assert steps[1].args["player"] == "Wooble" and str(steps[1].args["amount"]) == "m10"


def test_a_transaction_whose_steps_are_lines_is_never_joined():
    got = read("BEGIN TRANSACTION\nI give m10 to\nWooble\nEND TRANSACTION")
    assert [r.kind for r in got] == ["transaction"]
    # "I give m10 to" is a step alone, which lacks its Player: the Transaction fails (Rule 4E12)
    assert [(s.kind, s.spec.name if s.spec else None) for s in got[0].steps] == [
        ("incomplete", "give"), ("unknown", None)]


# ---------------------------------------------------------------- more ways of writing Votes (4E15)

def test_a_repeat_with_a_precaution_after_it_is_repeated():
    # Rule 4E7: an action "a specific positive integer" of times; "in case" says why
    got = [r for r in read("FOR 12 twice, in case the first one gets lost.") if r.kind == "action"]
    assert [(r.args["vote"], str(r.args["which"]), r.times) for r in got] == [("FOR", "12", 2)]


@pytest.mark.parametrize("text", ["I vote FOR 11, outside the transaction.", "I vote FOR 11, as a matter of fact."])
def test_a_remark_of_plain_words_after_a_list_is_no_part_of_it(text):
    assert votes(text) == [("FOR", "11")]


@pytest.mark.parametrize("text", ["I vote FOR 10, twelve", "I vote FOR 10, and 12"])
def test_a_list_after_a_comma_still_goes_on(text):
    assert votes(text) == [("FOR", "10, 12")]


def test_urging_others_after_a_comma_is_no_vote_of_ones_own():
    assert votes("Hmm, votes so far on 16 are 2 FOR, 3 AGAINST. Vote FOR 16, people! Eras are fun!") == []


def test_the_proposals_said_first_then_their_votes_respectively():
    assert votes("On 10, 11 and 12 I vote FOR, AGAINST and SHELVE respectively.") == [
        ("FOR", "10"), ("AGAINST", "11"), ("SHELVE", "12")]


def test_each_my_vote_on_after_a_comma_is_a_vote_of_its_own():
    text = ("My vote on Proposal 15 is FOR, my vote\n"
            "on Proposal 12 is AGAINST, and on Proposal\n"
            "13 I ABSTAIN because I can't decide whether\n"
            "the Beast needs a diet.")
    assert votes(text) == [("FOR", "15"), ("AGAINST", "12"), ("ABSTAIN", "13")]


@pytest.mark.parametrize("text", ["FOR on everything that's Open. I'm feeling generous this nweek.",
                                  "I vote FOR everything that's still open."])
def test_everything_thats_open_is_every_open_proposal(text):
    assert [(v, w) for v, w in votes(text)] == [("FOR", "all")]


def test_an_exception_said_whole_after_ones_votes_stand_is_a_vote():
    assert votes("My votes stand as before, except that on 16 I now vote SHELVE.") == [("SHELVE", "16")]


def test_except_before_a_proposal_still_excepts_it():
    assert votes("I vote FOR everything except 12.") == [("FOR", "10, 11, 13, 15, 16")]


# ---------------------------------------------------------------- proposals named by their Titles' words

TITLED = {**PROPOSALS, 14: ("Clock Fix II", "Bob")}


@pytest.mark.parametrize("text, expected", [
    ("I vote FOR the fish one.", [("FOR", "10")]),                      # "fish" begins "Fishy"
    ("I vote FOR the sock amnesty", [("FOR", "11")]),                  # two words of its Title, in lower case
    ("I vote FOR the fishy one and AGAINST the sock one.", [("FOR", "10"), ("AGAINST", "11")]),
    ("I vote FOR the fishy one and AGAINST Eras Again.", [("FOR", "10"), ("AGAINST", "16")]),
    ("I vote FOR Alice's fishy proposal", [("FOR", "10")]),
])
def test_a_proposal_named_by_words_of_its_title(text, expected):
    # Rule 4E7: an unambiguous target, "regardless of ... exact wording"
    assert votes(text, vocab("Wooble", proposals=TITLED)) == expected


@pytest.mark.parametrize("text", ["I vote FOR the clock fix", "I vote FOR the clock thing"])
def test_words_of_two_titles_are_asked_about(text):
    got = read(text, vocab("Wooble", proposals=TITLED))
    assert [r.kind for r in got] == ["ambiguous"]
    assert len(got[0].alternatives) == 2


def test_a_title_word_of_another_authors_proposal_names_none_of_this_authors():
    assert votes("I vote FOR Bob's fishy proposal", vocab("Wooble", proposals=TITLED)) == []


def test_the_one_with_title_words_outside_a_vote_is_left_as_said():
    got = [r for r in read("I support the Beast one.", vocab("Wooble", proposals=TITLED)) if r.kind == "action"]
    assert got == []


@pytest.mark.parametrize("text", ['I submit a proposal with no title: "Each Player gains 1 point on Gift Day."',
                                  "I submit the following proposal, without a title:\n{{\nEach Player gains 1 point.\n}}"])
def test_a_proposal_said_to_have_no_title_is_submitted_with_none(text):
    # Rule 4E15: a Title is optional; saying there is none is no part of the text
    got = [r for r in read(text) if r.kind == "action"]
    assert [r.spec.name for r in got] == ["submit_proposal"]
    assert "Each Player gains 1 point" in got[0].args["document"] and not got[0].args.get("title")


def test_the_threat_flag_in_an_officers_report_is_no_hoisting():
    # the MetaMin's report shows the flag flying; Rule 4E40's hoisting is "setting" it
    text = "MetaMin report, nweek 7\nChange ..... Alice .... m60\n\nThreat Flag: Pink Ponies. No change this nday."
    assert stances(text) == []


def test_whom_an_assignment_replaces_is_said_in_passing():
    # Rule 4E18: the Oracle reassigns; "in Dana's place" says whom the new Priest replaces
    assert stances("I assign Wooble as Priest of Consultation 5 in Dana's place.", oracle(consultations=(5,))) == [
        ("assign_consultation", {"which": "5", "player": "Wooble"})]


def test_imperatives_joined_by_and_after_a_comma_are_one_action_each():
    got = stances("ZOT Consultation 6, and assign Wooble as Priest of Consultation 5 in Dana's place since "
                  "she's dropped her Ordination.", oracle(consultations=(5, 6)))
    assert got == [("zot_consultation", {"which": "6"}), ("assign_consultation", {"which": "5", "player": "Wooble"})]


def test_a_scheduled_resignation_named_by_what_it_resigns_from():
    assert stances("I cancel my scheduled resignation from the Ministry of Questions.", oracle()) == [
        ("cancel_scheduled", {"number": "mine", "kind": "resign_ministry", "what": "the Ministry of Questions"})]


@pytest.mark.parametrize("text, reward", [("I take the Judge job. Reward stays at m100, thanks.", "m100"),
                                          ("i take the rulekeeper job. reward m90 is fine", "m90")])
def test_the_reward_said_in_the_sentence_after_an_assignment(text, reward):
    # Rule 4E46: "assign a Vacant Ministry to itself, specifying ... a new Reward Value"
    got = stances(text, vocab("Wooble"))
    assert [(n, a.get("reward")) for n, a in got] == [("assign_ministry", reward)]


def test_an_adverb_before_the_second_verb_is_said_in_passing():
    got = stances("I assign myself the Ministry of Fauna at m100 and then immediately revise its reward down to m75.")
    assert [n for n, _ in got] == ["assign_ministry", "revise_reward"] and got[1][1]["reward"] == "m75"


@pytest.mark.parametrize("text, name", [("I withdraw my support for Alice's Trick.", "withdraw_stance"),
                                        ("I object to the Sock Sorting trick.", "object")])
def test_a_stance_on_a_trick_is_on_the_intent_to_teach_it(text, name):
    # Rule 4E71: a Trick is taught "with support and without objection": under an intent
    got = stances(text)
    assert [(n, a.get("what")) for n, a in got] == [(name, "teach the Beast a Trick")]


def test_teaching_the_trick_itself_is_still_teaching_it():
    got = stances("Having had support and no objection, I teach the Beast the Trick.")
    assert [n for n, _ in got] == ["teach_trick"]


def test_an_adverb_before_a_remark_after_a_complete_vote_is_said_in_passing():
    assert votes("I vote FOR 10 and 12 obviously, they're mine.") == [("FOR", "10, 12")]


def test_an_adverb_inside_a_bracket_leaves_the_reward_after_it():
    got = stances("I take the Vacant Ministry of Laundry (Washerwoman! finally), Reward\nm100.", vocab("Wooble"))
    assert got == [("assign_ministry", {"ministry": "Laundry", "reward": "m100"})]


def test_it_after_the_way_said_first_is_the_thing_that_way_named():
    # Rules 4E21, 4E77: "Having heard no objection to my intent to activate Tweak 3, I Activate it"
    got = stances("Having heard no objection to my intent to activate Tweak 3, I Activate it.", vocab("Wooble"))
    assert got == [("activate_tweak", {"number": "3"})]


def test_a_players_proposal_by_title_words_where_each_of_theirs_has_them_is_asked_about():
    # Rule 4E7: "Bob's clock proposal" where Bob wrote Clock Fix and Clock Fix II: which one?
    got = read("I vote FOR Bob's clock proposal. The other one can go hang.",
               vocab("Wooble", proposals={**TITLED, 12: ("Clock Fix", "Bob"), 14: ("Clock Fix II", "Bob")}))
    assert [r.kind for r in got] == ["ambiguous"] and len(got[0].alternatives) == 2


@pytest.mark.parametrize("text, expected", [
    ("And while I'm here I object to Intent #3, because of course I do.", [("object", {"target": "3"})]),
    ("I vote FOR 16 while I'm here.", [("vote", {"vote": "FOR", "which": "16"})]),
])
def test_while_im_here_is_said_in_passing(text, expected):
    assert stances(text) == expected


def test_a_proposal_colour_asked_for_is_set():
    # Rule 4E69: "change the Proposal Color of a Pending Proposal to a value of his choice"
    assert stances("Proposal colour for 17: Burnt Sienna please.", vocab(proposals={**PROPOSALS, 17: ("Quiet", "Dana")})) == [
        ("color_proposal", {"number": "17", "color": "Burnt Sienna"})]


@pytest.mark.parametrize("text", ["Proposal colour for 17: what do you all think?", "Proposal color of 17: Blue."])
def test_the_colour_asked_about_or_shown_is_no_change(text):
    assert stances(text, vocab(proposals={**PROPOSALS, 17: ("Quiet", "Dana")})) == []


@pytest.mark.parametrize("text, state", [("Back to Calm for me. Hopefully that ends this.", "Calm"),
                                         ("I go back to Calm.", "Calm")])
def test_back_to_a_mental_state_sets_it(text, state):
    # Rule 4E0: a PEP "specifying his new Mental State"
    assert stances(text) == [("mental_state", {"state": state})]


@pytest.mark.parametrize("text", ["Back to the drawing board.", "Wooble went back to Calm."])
def test_back_to_anything_else_or_anyone_else_is_no_state(text):
    assert stances(text) == []


def test_an_attempt_lacking_one_role_with_a_circumstance_after_it_is_told_what_it_lacks():
    # Rule 4E45: a delegation "as specified by a Contract": none named, so asked for
    got = [r for r in read("I delegate my powers as Registrar to Dana while I'm on holiday.",
                           vocab("Bob", holders={"Society": "Bob"})) if r.spec is not None]
    assert [(r.kind, r.spec.name, r.missing) for r in got] == [("incomplete", "delegate_by_contract", ("which",))]
