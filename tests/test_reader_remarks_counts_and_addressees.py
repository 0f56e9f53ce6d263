"""What a careful officer reads where an action is followed by a remark of its own, where
a count of proposals is said, and where a reply names its addressee twice.

Rule 4E7: "Unambiguous targets and parameters specified in Game Actions are valid
regardless of capitalization, punctuation, or exact wording." Rule 4E15: "a Vote, which
is one of the following words: FOR, AGAINST, ABSTAIN, SHELVE". Rule 4E33: a COO "can give
currency to another COO". Rule 4E69: a Player may "change the Proposal Color of a Pending
Proposal to a value of his choice". Rule 4E18: a Claim "that the player believes the
answer (and Oracularity) to be Consistent or Inconsistent"."""
import pytest

from reader_world import World

PROPOSALS = {10: ("Fishy Business", "Alice"), 13: ("Beast Diet", "Chuck"), 16: ("Eras Again", "Bob"),
             17: ("Quiet Nweek", "Dana")}
_WORLD = World(PROPOSALS)
vocab, read, actions = _WORLD.vocab, _WORLD.read, _WORLD.actions


# ---------------------------------------------------------------- a remark after a comma

@pytest.mark.parametrize("text, number", [
    ("I vote FOR 17, the Quiet Nweek is a good idea.", "17"),      # the title in the remark names no more
    ("I vote AGAINST 16, Bob's proposal is silly.", "16"),
    ("I vote ABSTAIN on 13, replacing my earlier vote.", "13"),
    ("I vote FOR 10, 13 was better but it's gone.", "10"),
])
def test_a_remark_with_a_verb_of_its_own_after_a_vote_is_no_part_of_it(text, number):
    assert [(n, a["which"]) for n, a in actions(text)] == [("vote", number)]


def test_a_list_after_a_comma_is_still_a_list():
    assert [a["which"] for _, a in actions("I vote FOR 10, 13, 16.")] == ["10, 13, 16"]


def test_a_report_with_so_far_stays_a_report():
    # "so far only Chuck has answered": what has happened, not a part of any action
    assert actions("The Jury on Indictment 2 is me, Bob and Chuck, and so far only Chuck has answered "
                   "(GUILTY).", vocab("Alice")) == []


# ---------------------------------------------------------------- votes

def test_giving_one_s_vote_is_voting():
    assert actions("I give my vote FOR on the proposal 13 (Beast Diet) because the Beast is too fat.") == [
        ("vote", {"vote": "FOR", "which": "13"})]


def test_a_lead_in_the_votes_after_it_fill_is_no_attempt_of_its_own():
    got = read("I cast my votes thus: FOR on Fishy Business, FOR on Eras Again, and ABSTAIN on the remainder.")
    assert [r.kind for r in got] == ["action"] * 3
    assert [(r.args["vote"], str(r.args["which"])) for r in got][:2] == [("FOR", "10"), ("FOR", "16")]


@pytest.mark.parametrize("text", [
    "I vote FOR each of the four Open Proposals.",
    "I vote FOR on all 4 proposals.",
    "I vote FOR all four open ones.",
])
def test_a_count_of_the_open_proposals_is_all_of_them_never_a_number(text):
    assert actions(text) == [("vote", {"vote": "FOR", "which": "all"})]


def test_nothing_else_after_a_ranking_adds_nothing():
    v = vocab(refresh={1: "Alice", 2: "Bob"})
    assert actions("I vote for RP 2 and nothing else.", v) == [("rank_refresh_proposals", {"ranking": "2"})]


# ---------------------------------------------------------------- gifts

def test_and_also_joins_a_second_gift():
    assert actions("I give m5 to Alice and also m5 to Bob.") == [
        ("give", {"amount": "m5", "player": "Alice"}), ("give", {"amount": "m5", "player": "Bob"})]


def test_a_capitalised_verb_after_and_also_is_a_second_action():
    got = [n for n, _ in actions("I give m5 to Alice and also Give m3 to Bob.")]
    assert got == ["give", "give"]


@pytest.mark.parametrize("text", ["Today I give Chuck another m10.", "Now, I give Chuck m10 more.",
                                  "I give Chuck an extra m10."])
def test_today_and_another_are_said_of_a_gift_done_now(text):
    assert actions(text) == [("give", {"amount": "m10", "player": "Chuck"})]


def test_tomorrow_is_still_a_time_bnomic_cannot_keep():
    got = read("Tomorrow I give Chuck m10.")
    assert [r.kind for r in got] != ["action"] and "no such time" in got[0].error


def test_the_addressee_named_after_you_is_given_once():
    v = vocab(replying=True, addressee="Wooble")
    assert actions("OK, I give you m10, Wooble.", v, quoted="give me m10, someone.") == [
        ("give", {"amount": "m10", "player": "Wooble"})]


# ---------------------------------------------------------------- others

def test_a_colour_changed_from_one_to_another_is_the_second():
    assert actions("I change the Proposal Color of Quiet Nweek from Blank to Baby Blue.") == [
        ("color_proposal", {"number": "17", "color": "Baby Blue", "was": "Blank"})]


def test_a_scheduled_action_named_by_what_it_does():
    got = actions("Never mind: I cancel that scheduled resignation.", vocab(replying=True))
    assert [n for n, _ in got] == ["cancel_scheduled"]


def test_a_claim_written_as_a_label():
    v = vocab("Alice", consultations=(5,))
    assert actions("My Claim regarding Consultation 5: Consistent.", v) == [
        ("claim_consultation", {"which": "5", "claim": "Consistent"})]


def test_the_second_of_those_is_the_second_intent_replied_to():
    v = vocab("Chuck", intents={3: "Alice", 4: "Alice"}, replied_intents=(3, 4), replying=True)
    got = read("I object to the second of those. Nice try.", v)
    assert [r.kind for r in got] == ["action"] and got[0].spec.name == "object"
    assert str(got[0].args["target"]) == "4"


def test_an_address_added_to_one_s_entry_in_the_registry():
    assert actions("I add the address bob.b@example.com to my entry in the Registry.", vocab("Bob")) == [
        ("add_address", {"name": "bob.b@example.com"})]


# ---------------------------------------------------------------- more, the same day

def test_voting_as_above_casts_the_quoted_votes():
    # Rule 4E15: the Vote words are there, quoted; "I vote as above" names them (Rule 4E7)
    got = actions("I vote as above.", quoted="FOR 13\nAGAINST 16")
    assert got == [("vote", {"vote": "FOR", "which": "13"}), ("vote", {"vote": "AGAINST", "which": "16"})]


def test_voting_as_above_with_no_votes_quoted_is_a_vote_missing_its_words():
    got = read("I vote as above.", vocab(replying=True), quoted="I like turtles.")
    assert [(r.kind, r.spec.name, set(r.missing)) for r in got] == [("incomplete", "vote", {"vote", "which"})]


def test_in_case_after_an_action_is_a_precaution_not_a_condition():
    assert actions("Also I object to Intent #3 again in case the first one got lost.",
                   vocab(intents={3: "Bob"})) == [("object", {"target": "3"})]


@pytest.mark.parametrize("text", ["I assign Dana as Priest for this Consultation, and number it 7.",
                                  "I assign this Consultation to Dana and number it 7."])
def test_the_oracle_numbers_the_consultation_replied_to_after_assigning_it(text):
    # Rule 4E18: the Oracle selects a Priest and may choose a number of his liking
    got = actions(text, vocab("Chuck", replying=True))
    assert [n for n, _ in got] == ["assign_consultation", "number_consultation"]
    assert got[1][1] == {"which": "this", "number": "7"}


def test_a_new_number_is_never_taken_for_the_consultation_replied_to():
    got = read("I number Consultation 3.", vocab("Chuck", replying=True, consultations=(3,)))
    assert [(r.kind, r.missing) for r in got] == [("incomplete", ("number",))]


def test_a_consultation_and_its_new_number_side_by_side():
    assert actions("I number Consultation 3 7.", vocab("Chuck", consultations=(3,))) == [
        ("number_consultation", {"which": "3", "number": "7"})]



def test_an_intent_over_each_of_two_players_is_one_intent_for_each():
    # Rule 4E71: the Beast takes "a single Game Action"; Rule 4E21: an intent announces one
    got = actions("I intend, without objection, to cause the Beast to give m10 to each of Bob and Chuck.")
    assert [a["rest"] for _, a in got] == ["cause the Beast to give m10 to Bob without objection",
                                          "cause the Beast to give m10 to Chuck without objection"]


def test_an_intent_for_the_beast_to_give_each_player_names_every_player_but_the_beast():
    got = actions("I intend, without objection, to cause the Beast to give m5 to each player.", vocab("Bob"))
    to = [a["rest"].split(" to ")[-1].replace(" without objection", "") for _, a in got]
    assert to == ["Alice", "Bob", "Chuck", "Dana", "Wooble"]      # the sender too; never the Beast


def test_an_intent_over_one_action_is_left_as_said():
    assert actions("I intend, without 2 objections, to cause the Beast to give m10 to Bob.") == [
        ("intend", {"rest": "cause the Beast to give m10 to Bob without 2 objections"})]


def test_a_value_after_a_marker_and_a_colon_is_on_the_next_line():
    got = actions("As Registrar I intend, with support, to set the Message of the nweek to:\n"
                  "Fish are friends, not food.", vocab("Bob"))
    assert got == [("intend", {"rest": "set the Message of the nweek to Fish are friends, not food with support"})]


def test_a_line_ending_in_its_goes_on_on_the_next():
    got = read('I submit the proposal below, titled "Holiday", and set its\nProposal Color to Brick Red.\n\n'
               "{{\nAmend Rule 4E4.\n}}")
    assert [(r.kind, r.spec.name) for r in got] == [("action", "submit_proposal"), ("action", "color_proposal")]
    assert got[1].args["color"] == "Brick Red"


# ---------------------------------------------------------------- documents written first

@pytest.mark.parametrize("after", ["I submit that.", "I submit this as a proposal.", "So, I hereby submit the above."])
def test_a_document_and_then_the_sentence_that_submits_it(after):
    # Rule 4E15: "To submit a proposal, a player need only specify its Body"
    got = read("Here is the one I promised:\n\n{{__No More Armageddon__\nIn Rule 4E31, delete the line "
               '"nday 13 = Armageddon". }}\n\n' + after)
    assert [(r.kind, r.spec.name) for r in got] == [("action", "submit_proposal")]
    assert "delete the line" in got[0].args["document"]


def test_submitting_a_document_an_action_already_took_is_the_same_submission():
    got = read("Proposal\nTitle: Clock Fix III\nConflicts: 12\n\nBody:\n{{\nAmend Rule 4E14.\n}}\n\nI submit this.")
    assert [(r.kind, r.spec.name) for r in got] == [("action", "submit_proposal")]
    from bnomic.handlers.proposals import read_document
    said = read_document(got[0].args["document"])
    assert (said["title"], said["conflicts"], said["body"].strip()) == ("Clock Fix III", [12], "Amend Rule 4E14.")


def test_i_submit_that_with_no_document_before_is_no_proposal():
    assert actions("I submit that.") == []


def test_the_following_proposals_are_one_submission_for_each_document():
    got = read('I submit these two proposals:\n\nProposal A, "Tea Time":\n{{\nThe Clock shall be On at tea.\n}}\n\n'
               'Proposal B, "Coffee Time":\n{{\nThe Clock shall be On at breakfast.\n}}\n\nA and B conflict, obviously.')
    assert [(r.kind, r.spec.name, r.args.get("title"), r.args["document"]) for r in got] == [
        ("action", "submit_proposal", "Tea Time", "The Clock shall be On at tea."),
        ("action", "submit_proposal", "Coffee Time", "The Clock shall be On at breakfast.")]


def test_the_following_proposals_each_in_its_own_braces():
    got = read("I submit the following proposals:\n\n{{__Sock Drawer__\nGive the Washerwoman m10. }}\n\n"
               "{{__Sock Drawer II__\nGive the Washerwoman m20. }}")
    assert [r.args["document"].splitlines()[0] for r in got] == ["__Sock Drawer__", "__Sock Drawer II__"]


def test_a_labelled_proposal_alone_is_still_its_own_submission():
    got = read('Proposal "Tidy Up 2":\n{{\nRule 4E72 is amended.\n}}')
    assert [(r.kind, r.spec.name, r.args.get("title")) for r in got] == [("action", "submit_proposal", "Tidy Up 2")]


def test_a_letter_that_begins_two_players_names_is_ambiguous():
    # Rule 4E7: targets must be unambiguous; "B" is Bob or the Beast, and nothing is done
    (r,) = read("I give m10 to B.", vocab("Chuck"))
    assert r.kind == "ambiguous" and {"give m10 to Bob", "give m10 to The Beast"} <= set(r.alternatives)


def test_a_name_no_player_has_and_none_begins_with_is_left_to_the_handler():
    assert actions("I give m10 to Zed.", vocab("Chuck")) == [("give", {"amount": "m10", "player": "Zed"})]


@pytest.mark.parametrize("text", [
    'The Proposal submitted by Dana titled "Sock Drawer" is assigned Proposal Number 18.',
    'Dana\'s "Sock Drawer" gets Proposal Number 18.',
    'I number Dana\'s "Sock Drawer" as Proposal 18.',
    "Assigned Proposal Number 18.",
])
def test_the_chairman_numbering_a_proposal_in_his_own_words(text):
    # Rule 4E15: the Chairman assigns each new proposal a Proposal Number
    got = actions(text, vocab("Alice"))
    assert [n for n, _ in got] == ["number_proposals"] and "18" in got[0][1].values()


@pytest.mark.parametrize("text", ["My cat gets number 5 in the show.", "Sock Drawer is proposal number 18, I think."])
def test_talk_of_numbers_numbers_nothing(text):
    assert actions(text, vocab("Alice")) == []


def test_numbering_a_consultation_as_a_number_is_the_oracle_s_not_the_chairman_s():
    assert actions("Also, I hereby number Consultation 5 as number 7!", vocab("Chuck", consultations=(5,))) == [
        ("number_consultation", {"which": "5", "number": "7"})]


@pytest.mark.parametrize("text", [
    'I revise Proposal 17 by resubmitting it with a new title, "Quieter Nweek", and the following text:\n\n'
    "{{\nDuring nweek 9, no Player may submit more than one Consultation.\n}}",
    'I revise 17, retitling it "Quieter Nweek", so that it reads:\n\n'
    "{{\nDuring nweek 9, no Player may submit more than one Consultation.\n}}",
])
def test_a_revision_s_new_title_is_the_words_in_quotation_marks(text):
    # Rule 4E15: a proposal "may have a Title"; revising is resubmitting it
    got = actions(text, vocab("Dana"))
    assert got == [("revise_proposal", {"number": "17", "title": "Quieter Nweek",
                                         "document": "During nweek 9, no Player may submit more than one Consultation."})]


@pytest.mark.parametrize("front", ["With Dana's support, ", "Having received no objections, ",
                                   "With support from Dana and no objections: "])
def test_the_way_an_announced_action_was_allowed_said_before_it(front):
    # Rules 4E21, 4E22: once supported (or not objected to), the Player "can perform the action"
    got = actions(front + 'I set the Message of the nweek to "Fish are friends".', vocab("Bob"))
    assert got == [("change_motnw", {"message": "Fish are friends"})]


def test_an_intent_announced_with_its_way_said_first_is_still_an_intent():
    got = actions('With 2 supporters and without objection, I intend to set the Message of the nweek to "Fish".')
    assert [n for n, _ in got] == ["intend"]


def test_doing_it_where_no_intent_is_anyone_s_is_said_of_the_next_action():
    assert actions("I'll just do it now instead. I give m10 to Dana.", vocab("Alice", replying=True)) == [
        ("give", {"amount": "m10", "player": "Dana"})]


def test_doing_so_under_one_s_own_intent_acts_on_it():
    v = vocab("Alice", intents={3: "Alice"}, replied_intents=(3,), replying=True)
    assert [n for n, _ in actions("Having received no objections, I do so.", v)] == ["act_on_intent"]


@pytest.mark.parametrize("text", [
    "As Oracle I tally the claims on Consultation 5: Inconsistent 1 (Bob), Consistent 2 (Alice, Dana). "
    "The answer stands.",
    "Tallying the Claims on Consultation 5: Bob Consistent, Alice Inconsistent.",
])
def test_the_oracle_s_tally_with_its_details_after_a_colon(text):
    # Rule 4E18: "A Jiffy after the Answer has been submitted the Oracle shall tally any such Claims"
    assert actions(text, vocab("Chuck", consultations=(5,))) == [("tally_claims", {"which": "5"})]


@pytest.mark.parametrize("text", ["I lower my Chairman reward to m45 to keep the vultures away.",
                                  "Lowering my Chairman reward to m45 to keep the vultures away.",
                                  "I revise the Chairman's Reward to m45 and we'll see who blinks first."])
def test_a_purpose_or_another_s_clause_after_a_reward_revised(text):
    # Rule 4E48: "Revise the Reward Value of its Ministry ... changing it to a value lower"
    assert actions(text, vocab("Alice")) == [("revise_reward", {"ministry": "Change", "reward": "m45"})]


def test_and_you_after_an_action_is_the_sender_talking_to_someone():
    assert actions("I give m5 to Alice and you should too.") == [("give", {"amount": "m5", "player": "Alice"})]


def test_what_an_answer_will_be_gives_none():
    # Rule 4E18: the Priest Answers "as a Game Action"; a forecast of it is talk
    assert actions("The answer to Consultation 5 will be in by Thirnight; Dana told me on IRC.",
                   vocab("Ais523", consultations=(5,))) == []


@pytest.mark.parametrize("text", ["I turn the Clock Off (never mind, scratch this line).",
                                  "I turn the Clock Off (scratch that)."])
def test_an_action_taken_back_in_brackets_is_not_done(text):
    assert actions(text, vocab("Alice")) == []


def test_the_last_bit_taken_back_in_brackets_leaves_the_rest():
    got = actions("I vote FOR 10 and 11, and I object to intent #3 and support intent #4 (well, I can't "
                  "support my own intent, so scratch that last bit).", vocab("Alice", intents={3: "Bob", 4: "Alice"}))
    assert [n for n, _ in got] == ["vote", "object"]


@pytest.mark.parametrize("text", ["I vote ABSTAIN on all the proposals of Bob.", "I vote ABSTAIN on all proposals by Bob."])
def test_the_proposals_of_a_player_are_his(text):
    v = vocab(proposals={12: ("Clock Fix", "Bob"), 14: ("Clock Fix II", "Bob"), 10: ("Fishy Business", "Alice")},
              open_proposals=(10, 12, 14))
    assert actions(text, v) == [("vote", {"vote": "ABSTAIN", "which": "12, 14"})]


def test_him_in_a_sentence_the_mailer_wrapped_is_the_player_named_before():
    got = actions("Yesterday I gave Chuck m10. Today I give him another m10, because the\nbrownies were very good.")
    assert got == [("give", {"amount": "m10", "player": "Chuck"})]


def test_i_resign_by_the_holder_of_one_ministry_is_from_that_one():
    # Rule 4E47: "A Minister may Resign from its Ministry via Game Action"
    v = vocab("Bob", holders={"Society": "Bob"})
    assert actions("I resign. You can have it, I'm tired.", v) == [("resign_ministry", {"ministry": "Society"})]


def test_i_resign_my_ministry_by_the_holder_of_two_is_ambiguous():
    v = vocab("Bob", holders={"Society": "Bob", "Judging": "Bob"})
    (r,) = read("I resign my ministry.", v)
    assert r.kind == "ambiguous" and set(r.alternatives) == {"resign from Society", "resign from Judging"}


def test_a_ministry_left_unsaid_in_a_promise_to_assign_one_is_not_the_one_held():
    v = vocab("Chuck", holders={"Questions": "Chuck"})
    assert actions("Consultation 6: no Priest yet; I'll assign one this week.", v) == []


@pytest.mark.parametrize("who", ["Chuck", "Oracle"])
def test_asking_the_oracle_to_zot_is_the_priest_s_request(who):
    # Rule 4E18: "The Oracle may also ZOT a Waiting Consultation if ... its assigned Priest
    # requests him to do so"
    v = vocab("Dana", holders={"Questions": "Chuck"}, consultations=(5,))
    assert actions(f"{who}, please ZOT Consultation 5; as written it asks two questions at once.", v) == [
        ("request_zot", {"which": "5"})]


def test_asking_another_player_to_zot_requests_nothing():
    v = vocab("Dana", holders={"Questions": "Chuck"}, consultations=(5,))
    assert actions("Bob, please ZOT Consultation 5.", v) == []


def test_the_vote_said_before_is_it_after_a_semicolon():
    # Rule 4E15: "My vote on 11 is FOR; on 12, 14 and 16 it is ABSTAIN."
    v = vocab(proposals={n: (f"P{n}", "Bob") for n in (11, 12, 14, 16)})
    assert actions("My vote on 11 is FOR; on 12, 14 and 16 it is ABSTAIN.", v) == [
        ("vote", {"vote": "FOR", "which": "11"}), ("vote", {"vote": "ABSTAIN", "which": "12, 14, 16"})]


def test_it_is_raining_on_12_is_no_vote():
    assert actions("On 12 it is raining.") == []


def test_withdrawn_under_one_s_own_intent_withdraws_it():
    # Rule 4E21: the author of an intent may withdraw it
    v = vocab("Bob", intents={3: "Bob"}, replied_intents=(3,), replying=True)
    assert [n for n, _ in actions("Withdrawn; I'll try again next nweek.", v)] == ["withdraw_intent"]


def test_withdrawn_under_mail_that_announced_nothing_withdraws_nothing():
    assert actions("Withdrawn.", vocab("Bob", replying=True)) == []


def test_a_reason_between_two_votes_ends_at_and():
    # Rule 4E7: "He may list multiple actions"; a reason said after one is not the rest of the list
    assert actions("I also vote AGAINST 11, for obvious reasons, and FOR 15.",
                   vocab(proposals={11: ("Socks", "Bob"), 15: ("Tidy", "Dana")})) == [
        ("vote", {"vote": "AGAINST", "which": "11"}), ("vote", {"vote": "FOR", "which": "15"})]


def test_today_in_a_vote_said_now_is_a_filler():
    assert actions("abstain on everything today, sorry, I haven't read any of it") == [
        ("vote", {"vote": "ABSTAIN", "which": "all"})]


def test_a_vote_in_a_paragraph_of_its_own_after_a_document_ends_the_document():
    got = read('I submit the following Tidiness List:\n\n* Rule 4E71: "perfoms" -> "performs"\n\n'
               "Also: FOR 15, since it's in the same spirit.\n\n-- \nais523",
               vocab(proposals={15: ("Tidy", "Dana")}))
    assert [(r.kind, r.spec.name) for r in got] == [("action", "submit_tidiness_list"), ("action", "vote")]
    assert "FOR 15" not in got[0].args["document"]


def test_and_number_it_after_an_assignment_that_names_the_consultation():
    # Rule 4E18: the Oracle selects a Priest and may choose a number of his liking
    got = actions("I assign Consultation 6 to Dana as Priest and number it 6.", vocab("Chuck", consultations=(6,)))
    assert got == [("assign_consultation", {"which": "6", "player": "Dana"}),
                   ("number_consultation", {"which": "6", "number": "6"})]


def test_an_intent_named_by_what_it_would_do_with_a_reason_after_it():
    # Rule 4E21: "Objecting is a Game Action"; the intent is Alice's to retitle Rule 4E9
    v = vocab("Wooble", intents={3: "Wooble", 4: "Alice"},
              intent_actions={3: ("beast_acts",), 4: ("retitle_rule",)})
    got = actions('I object to Alice\'s intent to retitle Rule 4E9, on the grounds that "The Eras of B" '
                  "sounds like a prog rock album.", v)
    assert got == [("object", {"target": "4"})]


def test_two_intents_each_named_by_what_it_would_do():
    v = vocab("Bob", intents={3: "Wooble", 4: "Alice"}, intent_actions={3: ("beast_acts",), 4: ("retitle_rule",)})
    got = actions("I object to Wooble's intent to have the Beast pay him, and to Alice's intent to retitle 4E9.", v)
    assert got == [("object", {"target": "3"}), ("object", {"target": "4"})]


def test_i_am_not_ordained_says_what_is_so():
    # Rule 4E18: "Any Player, as a Game Action, may remove their Ordained Property"; saying one
    # has none is no removal ("I am no longer Ordained" is)
    assert actions("i'm not ordained, so that can't work.", vocab("Wooble")) == []
    assert [n for n, _ in actions("I am no longer Ordained.", vocab("Wooble"))] == ["leave_ordained"]


def test_him_removed_from_a_ministry_is_its_holder():
    # Rule 4E53: a Minister who failed an obligation "can be removed from his Ministry by any Player"
    v = vocab("Dana", holders={"Society": "Bob"})
    assert actions("I remove him from the Ministry of Society.", v) == [
        ("remove_minister", {"ministry": "Society", "player": "Bob"})]
