"""A clause said first ("before I forget, ..."), a remark after the action (", don't care
about ..."), numbers in two words, a Vote's word with two letters swapped, and a capacity
said before a later clause's intent.

Rule 4E7: "Unambiguous targets and parameters specified in Game Actions are valid
regardless of capitalization, punctuation, or exact wording." Rule 4E15: a Vote is one of
the words FOR, AGAINST, ABSTAIN or SHELVE. Rule 4E33: a Player may give mackerel. Rule 4E21:
an intent announced. The game (tests/reader_world.py)."""
import pytest

from bnomic.handlers.lexer import with_quoted
from reader_world import actions, read, vocab, votes


def vocab_with_sock():
    return vocab("Chuck", intents={3: "Bob"})


@pytest.mark.parametrize("text, expected", [
    ("Oh, and before I forget, I vote FOR 11, for the socks.", [("FOR", "11")]),
    ("Because I like it, I vote FOR 12.", [("FOR", "12")]),
    ("Wooble was very patient last night, and since I owe him for that, I vote FOR 11.", [("FOR", "11")]),
])
def test_a_clause_of_its_own_said_first_leaves_the_action_after_its_comma(text, expected):
    assert votes(text) == expected


@pytest.mark.parametrize("text", [
    "Voting hasn't opened until I publish the Ballot, I think.",      # no action of mine
    "If Bob agrees, and since I owe him, I give Bob m5.",              # a condition (Rule 4E7)
    "Before I vote, I want to read it.",
])
def test_a_clause_said_first_makes_no_action_of_what_is_none(text):
    assert actions(text) == []


@pytest.mark.parametrize("text, expected", [
    ("i abstain on 10 and 11, don't care about fish or socks", [("ABSTAIN", "10, 11")]),
    ("I vote FOR 12, dont care about the clock", [("FOR", "12")]),
    ("not guilty on 2, spamming means more than three posts imo", []),
    ("whatever, FOR 11", [("FOR", "11")]),
    ("FOR 13 btw", [("FOR", "13")]),
])
def test_a_remark_after_the_action_or_a_word_before_it_is_no_part_of_it(text, expected):
    assert votes(text) == expected


def test_a_verdict_with_a_remark_after_it_is_given():
    (r,) = read("not guilty on 2, spamming means more than three posts imo")
    assert (r.kind, r.spec.name, r.args["answer"], str(r.args["number"])) == ("action", "verdict", "NOT GUILTY", "2")


def test_what_a_gift_goes_towards_is_why():
    assert actions("and I give Wooble m5 towards whatever the fine ends up being, no hard feelings") == [
        ("give", {"amount": "m5", "player": "Wooble"})]


@pytest.mark.parametrize("text, amount", [
    ("I give twenty five macks to Dana", "m25"),
    ("I give twenty-five macks to Dana", "m25"),
    ("I give Dana forty two mackerel", "m42"),
])
def test_a_number_in_two_words_is_one_number(text, amount):
    assert actions(text) == [("give", {"amount": amount, "player": "Dana"})]


def test_a_number_in_two_words_and_another_gift_after_it():
    assert actions("I give twenty five mackerel to Dana and m10 to Bob.") == [
        ("give", {"amount": "m25", "player": "Dana"}), ("give", {"amount": "m10", "player": "Bob"})]


@pytest.mark.parametrize("text", ["sorry, typing on my phone: I vote FRO 15 and AGIANST 12",
                                  "votes: FRO 15, AGIANST 12"])
def test_a_vote_word_with_two_letters_swapped_is_told_never_cast(text):
    got = read(text)
    assert [(r.kind, str(r.args.get("which")), r.missing) for r in got] == [
        ("incomplete", "15", ("vote",)), ("incomplete", "12", ("vote",))]
    assert "FRO" in got[0].error and "4E15" in got[0].error


def test_a_misspelt_vote_beside_a_real_one_leaves_the_real_one_cast():
    got = read("votes: FRO 15, AGAINST 12")
    assert [(r.kind, str(r.args.get("which")), r.args.get("vote")) for r in got] == [
        ("incomplete", "15", None), ("action", "12", "AGAINST")]


def test_fro_in_lower_case_is_no_vote():
    assert read("I go to and fro 15 times a day") == []


def test_a_capacity_before_a_later_clauses_intent_is_no_part_of_it():
    got = actions('I assign the Ministry of Law to myself, Reward m90, and as Rulekeeper I intend, '
                  'without objection, to retitle Rule 4E9 to "The Eras of B".',
                  )
    assert [a for a, _ in got] == ["assign_ministry", "intend"]
    assert "retitle Rule 4E9" in got[1][1]["rest"]


def test_a_verb_with_a_letter_left_out_is_told_with_the_verb_meant():
    (r,) = read("i giv bob m10")
    assert r.kind != "action" and "give" in r.error and "4E7" in r.error


@pytest.mark.parametrize("text", ["I schedule a vote FOR 13.", "i schedule a vote FOR 11", "I schedule my vote.",
                                  "I schedule a vote."])
def test_a_vote_scheduled_with_no_time_is_told_never_cast(text):
    (r,) = read(text)
    assert r.kind != "action" and "4E7" in r.error and "when" in r.error


def test_a_vote_scheduled_by_its_noun_with_a_time_is_scheduled():
    (r,) = read("I schedule a vote FOR 13 on Zarpint")
    assert (r.kind, r.spec.name, r.args["vote"], str(r.args["which"])) == ("action", "vote", "FOR", "13")
    assert r.when is not None and r.when.nday == 11


def test_one_verb_over_the_objects_of_two_actions_does_each():
    assert actions("I give Alice m10 and Bob a Blue Sock.", vocab_with_sock()) == [
        ("give", {"amount": "m10", "player": "Alice"}), ("transfer_sock", {"color": "Blue", "player": "Bob"})]


@pytest.mark.parametrize("text", ["I object to Intent 3 and its ugly sister.", "I give m5 to Bob and friends."])
def test_a_second_part_that_is_no_action_leaves_the_attempt_told(text):
    assert [r.kind for r in read(text, vocab(intents={3: "Bob"}))] == ["incomplete"]


# ---- chatter that read as actions (the thirty-ninth and fortieth reserves)

def test_the_end_of_a_wrapped_sentence_that_begins_with_me_is_no_vote():
    text = ("Only one was intended, and I trust nobody will indict\nme for the other three.")
    assert read(text, vocab("Bob")) == []


def test_a_line_wrapped_after_may_is_no_imperative():
    text = ("The limit attaches to each Player. Each of us may\ncause the Beast to take one Game Action "
            "per nweek.")
    assert actions(text, vocab("Bob")) == []


@pytest.mark.parametrize("text", [
    "I would like to give m1 to Bob a Heck of a Lot of times, but I'm about m265 short. Maybe next nyear.",
    "I want to take the Ministry of Judging but I don't know if the reward is still m100.",
])
def test_a_wish_held_back_by_a_but_is_no_action(text):
    assert actions(text) == []


def test_a_wish_with_a_remark_after_its_but_is_still_done():
    assert votes("I'd like to vote FOR 12, but I wish it were shorter.") == [("FOR", "12")]


@pytest.mark.parametrize("text", [
    "I intend, without objection, to Activate my Tweak... oh wait, I didn't submit\none this nweek.",
    "I give m5 to Bob. Oh wait, I don't have m5.",
])
def test_oh_wait_i_cannot_takes_the_action_back(text):
    assert actions(text, vocab("Alice")) == []


def test_oh_wait_and_another_action_keeps_both():
    assert votes("I vote FOR 12. Oh wait, I also vote FOR 13.") == [("FOR", "12"), ("FOR", "13")]


def test_a_one_word_line_that_ends_a_wrapped_sentence_is_no_action():
    text = ("If you submit it I shall vote FOR it, though I should\nprefer Halfday to Wonko: it is the "
            "more fitting\nname.")
    assert read(text, vocab("Alice")) == []


def test_a_time_said_of_what_he_did_is_not_when_to_give():
    (r,) = read("I give m12 to Bob for the sock he lent me on Tango.", vocab("Wooble"))
    assert (r.kind, r.spec.name, r.when) == ("action", "give", None)
    (r,) = read("I give m12 to Bob on Tango.", vocab("Wooble"))
    assert r.when is not None and r.when.nday == 4


# ---- the rule an action is done by, said first; a colon's remark; stances named twice

@pytest.mark.parametrize("text, intended", [
    ("Under Rule 4E71, I intend, without objection, to cause the Beast to transfer m30 to Wooble.",
     "cause the Beast to transfer m30 to Wooble"),
    ("Pursuant to Rule 4E77, I intend, without objection, to Activate Tweak 3.", "Activate Tweak 3"),
    ('As Registrar, and pursuant to Rule 4E39, I intend, with support, to set the Message of the nweek '
     'to "Mind the mackerel".', 'set the Message of the nweek to "Mind the mackerel"'),
    ('As Rulekeeper, under Rule 4E36, I intend, without objection, to change the title of Rule 4E84 to '
     '"The Game of Calvinball".', 'change the title of Rule 4E84'),
])
def test_an_intent_with_the_rule_it_is_done_by_said_first_is_announced(text, intended):
    (r,) = read(text, vocab("Bob"))
    assert (r.kind, r.spec.name) == ("action", "intend") and r.args["rest"].startswith(intended)


def test_a_flag_hoisted_as_metamin_under_a_rule_with_a_remark_after_a_colon():
    got = actions("Then, as MetaMin and under Rule 4E40, I hoist the Polka Dots flag: strange things are afoot.")
    assert got == [("hoist_flag", {"flag": "Polka Dots"})]


def test_objections_to_both_intents_named_again_are_made_once_each():
    got = actions("I object to both outstanding intents, #3 and #4, on principle.",
                  vocab("Ais523", intents={3: "Bob", 4: "Alice"}))
    assert got == [("object", {"target": "3"}), ("object", {"target": "4"})]


def test_forfeiting_the_game_of_b_nomic():
    assert actions("I forfeit the game of B Nomic. Thank you all for the fish.", vocab("Chuck")) == [("forfeit", {})]


# ---- phone mail: a bare Vote then the same sender's verbs, laughter, emoji

def test_a_bare_vote_then_verbs_after_commas_are_each_done():
    got = actions("FOR 15 (mine!!), give m10 to Wooble, support intent 3 lol why not, and I transfer a "
                  "burgundy sock to wooble too \N{SOCKS}", vocab(intents={3: "Bob"}))
    assert [a for a, _ in got] == ["vote", "give", "support", "transfer_sock"]


def test_an_emoji_after_an_action_is_no_part_of_it():
    assert votes("I vote FOR 12 \N{THUMBS UP SIGN}") == [("FOR", "12")]


def test_the_pause_thing_is_the_pause_increment():
    got = actions("I object to the pause thing, and I'm setting my state to Calm, this has gone on long enough")
    assert [a for a, _ in got] == ["object_increment", "mental_state"]


def test_someones_past_deed_after_a_comma_is_a_remark():
    assert actions("I withdraw intent 4, Ais pointed out the new title is worse than the old one.",
                   vocab("Alice", intents={4: "Alice"})) == [("withdraw_intent", {"number": "4"})]


@pytest.mark.parametrize("text, expected", [
    ("I make the vote FOR on proposal 13, and on proposal 15 I make the vote AGAINST, even it is my own "
     "proposal, because I have found a mistake.", [("FOR", "13"), ("AGAINST", "15")]),
    ("I vote on all the Open proposals SHELVE, excepted 16.", [("SHELVE", "10, 11, 12, 13, 15")]),
])
def test_a_vote_in_a_second_languages_words(text, expected):
    assert votes(text) == expected


# ---- officers' lists and labels (the forty-first reserve)

def test_a_schedule_label_keeps_the_time_said_after_it():
    got = read("Schedule: on Thirnight I vote FOR 10, 11 and 15.", vocab("Alice"))
    assert [(r.kind, str(r.args["which"]), r.when.nday if r.when else None) for r in got] == [
        ("action", "10, 11, 15", 12)]


def test_a_listed_intent_of_another_player_is_no_action():
    assert read("  #3  Wooble: cause the Beast to give m20 to Wooble, without objection", vocab("Bob")) == []


def test_an_objection_under_a_quoted_listed_intent_is_to_it():
    quoted = "  #3  Wooble: cause the Beast to give m20 to Wooble, without objection"
    v = with_quoted(vocab("Dana", intents={3: "Wooble", 4: "Alice"}), quoted)
    got = actions("I object. The Beast isn't Wooble's piggy bank.", v, quoted=quoted)
    assert got == [("object", {"target": "3"})]


def test_what_you_would_pay_is_no_gift_of_mine():
    text = ("Why would anyone usurp the Oracle at m50? You'd need m25 on hand, you'd\npay Chuck m25 after "
            "two rdays, and then you'd have to answer for every\nZOT. It's the worst deal in the game.")
    assert read(text) == []


@pytest.mark.parametrize("text, expected", [
    ("oh and FOR 11 while I remember, and AGAINST 16 (12 is enough).", [("FOR", "11"), ("AGAINST", "16")]),
    ("FOR 12 before I forget.", [("FOR", "12")]),
])
def test_when_it_came_to_mind_is_no_part_of_the_vote(text, expected):
    assert votes(text) == expected


def test_a_circumstance_as_a_heading_before_imperatives():
    got = actions("Noted. While we're on the list: add chuck@home.example to my addresses,\nand remove "
                  "chuck@uni.example, I graduated.", vocab("Chuck"))
    assert [a for a, _ in got] == ["add_address", "remove_address"]


def test_a_statement_after_an_action_adds_nothing_to_it():
    assert actions("I set 16's color to Burnt Sienna. Beige is for cowards", vocab("Chuck")) == [
        ("color_proposal", {"number": "16", "color": "Burnt Sienna"})]


def test_an_emoji_between_two_sentences_ends_the_first():
    assert votes("I'd vote AGAINST 16 if it weren't Chuck's birthday. FOR 16 \N{BIRTHDAY CAKE} happy "
                 "birthday Chuck", vocab("Alice")) == [("FOR", "16")]


def test_bc_is_a_reason():
    assert actions("I give m10 to Dana for the socks thing, and m5 to Wooble bc I lost the bet", vocab("Chuck")) == [
        ("give", {"amount": "m10", "player": "Dana"}), ("give", {"amount": "m5", "player": "Wooble"})]


def test_bare_votes_each_with_its_time_are_scheduled_each():
    got = read("scheduling my votes since I'm away: FOR 15 on Zarpint, AGAINST 16 on Thirnight.")
    assert [(r.args["vote"], str(r.args["which"]), r.when.nday) for r in got] == [
        ("FOR", "15", 11), ("AGAINST", "16", 12)]
    (r,) = read("FOR 15 on Zarpint")
    assert (r.kind, r.when.nday) == ("action", 11)


@pytest.mark.parametrize("text, expected", [
    ("I retract my AGAINST on 16 and instead vote ABSTAIN on it. Chuck persuaded me.", [("ABSTAIN", "16")]),
    ("Retracting my vote on 11 and voting FOR instead. Wooble talked me round.", [("FOR", "11")]),
    ("Scratch my vote on 10; make it ABSTAIN. Alice's explanation made me less sure.", [("ABSTAIN", "10")]),
])
def test_a_vote_retracted_and_another_said_is_the_one_said(text, expected):
    assert votes(text) == expected


def test_of_course_before_the_i_of_a_vote():
    assert votes("Proposal 15 is mine, so of course I vote FOR it. Also 12 AGAINST, 16 FOR.") == [
        ("FOR", "15"), ("AGAINST", "12"), ("FOR", "16")]


def test_a_number_glossed_in_brackets_names_the_one_meant():
    (r,) = read("I withdraw my Refresh Proposal (RP 2).", vocab("Bob", refresh={1: "Alice", 2: "Bob"}))
    assert (r.kind, r.spec.name, str(r.args["which"])) == ("action", "withdraw_refresh_proposal", "2")


def test_a_tallys_round_is_no_ballot():
    assert read("Round 2: RP 1 3, RP 2 3 -> no majority.", vocab("Bob", refresh={1: "Alice", 2: "Bob", 3: "Chuck"})) == []


def test_a_number_word_alone_at_a_lines_end_adds_nothing_to_the_vote_before():
    text = ("for the record, I vote AGAINST Proposal 16. Two\nfixes to the same clock in the same nweek is one "
            "too many.")
    assert votes(text) == [("AGAINST", "16")]


# ---- forms of labelled lines (the forty-fourth reserve)

@pytest.mark.parametrize("text, expected", [
    ("Action: support\nIntent: #4\n-- Bob", [("support", {"target": "4"})]),
    ("Action: Resign\nMinistry: Society\nReason: moving house, and I can't keep the display up.\n-- Bob",
     [("resign_ministry", {"ministry": "Society"})]),
    ("Action: Usurp\nMinistry: Questions (Oracle)\nProposed Reward: m45\nConsultation 6 has sat for days.",
     [("usurp", {"ministry": "Questions", "reward": "m45"})]),
    ("Action: take the Ministry of Fauna\nReward: m100", [("assign_ministry", {"ministry": "Fauna", "reward": "m100"})]),
    ("Thanks Dana! Passing half of it on:\nGift: m5 to Wooble\n(He looked like he needed it.)",
     [("give", {"amount": "m5", "player": "Wooble"})]),
])
def test_a_form_of_labelled_lines_is_the_action_it_names(text, expected):
    assert actions(text, vocab("Bob", intents={4: "Alice"}, holders={"Society": "Bob", "Questions": "Chuck"})) == expected


def test_a_form_with_its_time_on_a_line_before_is_scheduled():
    (r,) = read("Scheduled action:\n- When: the start of nday 11 (Zarpint)\n- Action: give m10 to Chuck\n\n-- Bob",
                vocab("Bob"))
    assert (r.kind, r.spec.name, r.args["amount"], r.when.nday) == ("action", "give", "m10", 11)


def test_a_request_to_join_as_a_form():
    (r,) = read("Hello B Nomic,\nRequest: to become a Player\nName: Eve\nRecruited by: Dana, Chuck\nI've been "
                "reading the archives.\nEve", vocab("eve@example.net"))
    assert (r.spec.name, r.args["name"], r.args["recruiters"]) == ("join", "Eve", "Dana, Chuck")


def test_a_form_whose_sentence_reads_to_nothing_is_left_as_written():
    assert actions("Action: item\nNote: we discussed the fish\n") == []


# ---- chatter and times (the forty-third reserve)

def test_a_transaction_shown_after_if_i_wrote_say_is_not_done():
    text = ("In order. So if I wrote, say,\n    BEGIN TRANSACTION\n    I give m5 to Bob.\n    I assert that Bob "
            "holds at least m105.\n    END TRANSACTION\nthe assertion would be checked after the gift.")
    assert read(text, vocab("Ais523")) == []


def test_to_him_myself_is_to_him():
    got = actions("fine!! I withdraw it, and I give m15 to chuck myself then.", vocab("Dana"))
    assert ("give", {"amount": "m15", "player": "Chuck"}) in got


@pytest.mark.parametrize("text", [
    "I vote FOR Proposal 15, and I vote AGAINST Proposal 10, for the reasons I gave on the discussion list on Winday.",
    "3. I give m5 to the Beast, as is my custom on Teucer.",
])
def test_a_time_of_a_past_deed_or_a_habit_schedules_nothing(text):
    got = read(text, vocab("Ais523"))
    assert got and all(r.kind == "action" and r.when is None for r in got)


def test_a_document_label_over_a_transaction_is_no_document():
    got = read("For Chuck's benefit, since he cannot be bothered to colour his own\nProposal:\nBEGIN TRANSACTION\n"
               "I give m10 to Chuck.\nEND TRANSACTION\nAlice", vocab("Alice"))
    assert [r.kind for r in got] == ["transaction"]


def test_a_vote_word_then_a_remark_of_its_own_is_the_vote_on_the_quoted_proposal():
    quoted = "So I vote FOR 16, and I hope you will too."
    v = with_quoted(vocab("Alice", replied_proposals=(16,)), quoted)
    assert actions("Nope. AGAINST, the era stuff is a mess", v, quoted=quoted) == [
        ("vote", {"vote": "AGAINST", "which": "16"})]
    assert actions("AGAINST, Bob and Chuck", v, quoted=quoted) == []     # (a list, no remark: not this)
