"""What a careful officer reads in Votes said loosely: a word about the action between commas,
a reason in the middle of a list, the sender's own proposals called "mine", Votes paired with
a range of proposals "respectively", the Vote said as what the sender is ("for 15 I am
ABSTAIN"), and the order of the actions said after them.

Rule 4E15: "Players may submit a Vote on any Open proposal ... A Vote is one of the words FOR,
AGAINST, ABSTAIN, or SHELVE". Rule 4E7: "Unambiguous targets and parameters specified in Game
Actions are valid regardless of capitalization, punctuation, or exact wording."
The game (tests/reader_world.py): Open proposals 10 (Alice), 11 (Wooble), 12 (Bob), 13 (Wooble),
15 (Dana) and 16 (Chuck)."""
import pytest

from bnomic.handlers import grammar

from bnomic.mailer.parse import own_words, quoted_words
from reader_world import World, actions, read, vocab
from reader_world import votes as _votes


# a game with a Pending proposal beside the Open ones, and two of Bob's that share a title word
WORLD = World({10: ("Fishy Business", "Alice"), 11: ("Sock Amnesty", "Wooble"), 12: ("Clock Fix", "Bob"),
               14: ("Clock Fix II", "Bob"), 16: ("Eras Again", "Chuck"), 17: ("Quiet Nweek", "Chuck")})


def pending_game(who):
    """WORLD's game, where 17 is Pending (not yet Open)."""
    return WORLD.vocab(who, open_proposals=(10, 11, 12, 14, 16))


def acted(text, v=None, quoted=""):
    """The actions read (as Readings), leaving out reports and near-misses."""
    return [r for r in read(text, v, quoted=quoted) if r.kind == "action"]


def votes(text, v=None):
    """Each (Vote, proposal), a Vote on several proposals taken apart."""
    return [(vote, n.strip()) for vote, which in _votes(text, v) for n in which.split(",")]


@pytest.mark.parametrize("text, expected", [
    ("I vote FOR Sock Amnesty, obviously, and AGAINST Fishy Business.", [("FOR", "11"), ("AGAINST", "10")]),
    ("I vote FOR 11, naturally, and AGAINST 12.", [("FOR", "11"), ("AGAINST", "12")]),
])
def test_a_word_about_the_vote_between_commas_leaves_the_list_going_on(text, expected):
    assert votes(text) == expected


def test_a_word_about_the_vote_at_the_end_is_no_part_of_it():
    assert votes("I vote FOR 11, obviously, it's a good one.") == [("FOR", "11")]


def test_a_reason_in_the_middle_of_a_list_ends_at_the_next_vote():
    got = votes("I'm FOR 15 (well, I wrote it), SHELVE on 16 because I think Chuck needs another pass "
                "at the wording, and against everything else.")
    assert got == [("FOR", "15"), ("SHELVE", "16"), ("AGAINST", "10"), ("AGAINST", "11"),
                   ("AGAINST", "12"), ("AGAINST", "13")]


def test_a_reason_that_goes_on_about_someone_stays_a_reason():
    assert actions("I give m5 to Bob because he asked, and Chuck agreed.") == [
        ("give", {"amount": "m5", "player": "Bob"})]


@pytest.mark.parametrize("text", ["Mine: FOR.", "I vote FOR mine.", "FOR my own."])
def test_mine_is_the_senders_own_open_proposals(text):
    assert votes(text, vocab("Wooble")) == [("FOR", "11"), ("FOR", "13")]


def test_everything_but_mine_and_then_mine():
    assert votes("Everything except my own: AGAINST. Mine: FOR.", vocab("Alice")) == [
        ("AGAINST", "11"), ("AGAINST", "12"), ("AGAINST", "13"), ("AGAINST", "15"), ("AGAINST", "16"),
        ("FOR", "10")]


@pytest.mark.parametrize("text, expected", [
    ("FOR, FOR, AGAINST, FOR on 10 to 13 respectively.",
     [("FOR", "10"), ("FOR", "11"), ("AGAINST", "12"), ("FOR", "13")]),
    ("I vote FOR, AGAINST and SHELVE on 11-13 respectively.", [("FOR", "11"), ("AGAINST", "12"), ("SHELVE", "13")]),
    ("On 10, 11 and 12 I vote FOR, AGAINST and SHELVE respectively.",
     [("FOR", "10"), ("AGAINST", "11"), ("SHELVE", "12")]),
])
def test_votes_paired_respectively_with_a_range_take_each_proposal_in_it(text, expected):
    assert votes(text) == expected


def test_a_range_that_does_not_pair_with_the_votes_is_not_guessed():
    assert votes("FOR, AGAINST on 10-13 respectively.") == []


@pytest.mark.parametrize("text, expected", [
    ("For the 15 I am ABSTAIN.", [("ABSTAIN", "15")]),
    ("On 15 I am AGAINST.", [("AGAINST", "15")]),
    ("On 15 I'm FOR.", [("FOR", "15")]),
    ("Hello. I give my vote AGAINST to the proposal 16, Eras Again, and for the 15 I am ABSTAIN.",
     [("AGAINST", "16"), ("ABSTAIN", "15")]),
    ("I vote AGAINST 16 and for 15 I vote ABSTAIN.", [("AGAINST", "16"), ("ABSTAIN", "15")]),
])
def test_a_proposal_named_first_then_the_vote_said_as_what_i_am(text, expected):
    assert votes(text) == expected


def test_the_order_of_the_actions_said_after_them_is_no_part_of_the_last():
    got = actions("I give m5 to Alice and set the Proposal Color of 16 to Blue and vote AGAINST 10, "
                  "in that order, because I'm complicated.")
    assert [name for name, _ in got] == ["give", "color_proposal", "vote"]
    assert got[2][1]["vote"] == "AGAINST" and got[2][1]["which"] == "10"


# ---------------------------------------------------------------- intents named loosely
# Rule 4E21: "Objecting is a Game Action"; Rule 4E22: "Supporting is a Game Action". An intent is
# named by its number, by whose it is, or by the mail that announced it.

def _stances(text, v):
    return [(name, args.get("target")) for name, args in actions(text, v)]


@pytest.mark.parametrize("text, expected", [
    ("Objection to Wooble's intent about the Beast's mackerel.", [("object", "3")]),
    ("I object to Wooble's intent regarding the Beast.", [("object", "3")]),
    ("I support Alice's intent for the retitling of 4E9.", [("support", "4")]),
])
def test_what_an_intent_is_about_said_after_whose_it_is(text, expected):
    assert _stances(text, vocab("Chuck", intents={3: "Wooble", 4: "Alice"})) == expected


@pytest.mark.parametrize("text", [
    "I object to the intent of Alice.",
    "I am objecting to the intent of Alice.",
    "I am objecting the intent of Alice for the retitling of 4E9.",
])
def test_the_intent_of_a_player_is_that_players_intent(text):
    assert _stances(text, vocab("Chuck", intents={3: "Wooble", 4: "Alice"})) == [("object", "4")]


def test_an_intent_named_only_by_what_it_is_about_is_not_guessed():
    assert _stances("I object to the intent about the mackerel.", vocab("Chuck", intents={3: "Wooble", 4: "Alice"})) == []


def _intended(text, v):
    """(the action each intent announces, the way said for it), as the intent handler takes
    them from the announcement (Rules 4E21, 4E22)."""
    out = []
    for r in read(text, v):
        if r.kind == "action" and r.spec.name == "intend":
            m = grammar.INTENT_METHOD.match(r.args["rest"])
            found = grammar.match_action("I " + (m.group("action") if m else r.args["rest"]), v)
            out.append((found[0].name if found else None, " ".join(m.group("cond").split()).strip(" ,:").lower() if m else ""))
    return out


@pytest.mark.parametrize("text", [
    "Intent: to cause the Beast to give m20 to me.",
    "Intent: I cause the Beast to give m20 to me.",
    "Intention: I will cause the Beast to give m20 to me.",
])
def test_an_intent_under_its_label_is_announced_not_done(text):
    assert _intended(text, vocab("Wooble")) == [("beast_acts", "without objection")]
    assert [r.spec.name for r in read(text, vocab("Wooble")) if r.kind == "action"] == ["intend"]


def test_a_label_that_begins_a_remark_announces_nothing():
    assert actions("Intent: to be honest, nobody cares.", vocab("Wooble")) == []


def test_the_way_said_after_the_display_it_announces_stays_the_way():
    text = ("I hereby announce my intent to Approve the following Public Display, with 4 Support and "
            "no Objections:\n\n{{\nMINISTRIES OF B NOMIC, nweek 7\nChange (Chairman): Alice, Reward m60\n}}")
    assert _intended(text, vocab("Alice")) == [("approve_display", "with 4 support and no objections")]


@pytest.mark.parametrize("text", [
    "I intend, with 4 Support and no Objections, to Approve the Oracle's display as follows:\n\n{{\nCONSULTATIONS\n}}",
    "I intend, with 4 Support and no Objections, to Approve the Chairman's report of nweek 7 as it stands.",
])
def test_a_display_approved_as_follows_or_as_it_stands(text):
    assert _intended(text, vocab("Chuck")) == [("approve_display", "with 4 support and no objections")]


@pytest.mark.parametrize("text", ["I approve of the report.", "I approve of the display of Society."])
def test_approving_of_something_is_an_opinion(text):
    assert read(text, vocab("Chuck")) == [] or all(r.kind != "action" for r in read(text, vocab("Chuck")))


# ---------------------------------------------------------------- officers' and players' forms

def _names(text, v):
    return [name for name, _ in actions(text, v)]


@pytest.mark.parametrize("text", [
    'Numbering, as Chairman: Chuck\'s "Mulberry Jam" becomes Proposal 18, and Dana\'s "Sock Drawer" '
    'becomes Proposal 19.',
    'Proposal Numbers: "Fewer Fish" gets 18, "Jury Pay" gets 19.',
    "Numbering: Wooble's one-liner is 18.",
])
def test_the_chairmans_numbering_under_its_heading_numbers_the_new_proposals(text):
    # Rule 4E15: "The Chairman is obligated to assign a new Proposal Number ... to each proposal"
    got = acted(text, vocab("Alice"))
    assert [r.spec.name for r in got] == ["number_proposals"]


@pytest.mark.parametrize("text", ["Numbered 18.", "Number 19 for this one."])
def test_numbered_in_reply_to_the_submission(text):
    assert _names(text, vocab("Alice", replying=True)) == ["number_proposals"]


@pytest.mark.parametrize("text", [
    "Numbered 18.",                                            # answering no mail: which is not said
    "Numbering: a thought about the rules.",
    "I assign Dana as Priest of Consultation 6, and give it the\nnumber 7.",   # a wrapped line
])
def test_numbering_said_of_nothing_numbers_nothing(text):
    assert "number_proposals" not in _names(text, vocab("Alice", consultations=(5, 6)))


@pytest.mark.parametrize("text", ["Consistent, re CON 5.", "I claim Consistent on CON 5."])
def test_con_is_a_consultation(text):
    # Rule 4E18: a Claim that the Answer is Consistent or Inconsistent
    got = actions(text, vocab("Alice", consultations=(5, 6)))
    assert [(n, a.get("which") or a.get("consultation")) for n, a in got] == [("claim_consultation", "5")]


def test_the_pros_and_cons_are_no_consultation():
    assert actions("The pros and cons of 5 things.", vocab("Alice", consultations=(5, 6))) == []


def test_a_scheduled_vote_named_by_what_it_votes_against():
    # Rule 4E7: the author of a scheduled action may cancel it
    got = actions("I cancel my scheduled vote against 16.", vocab("Bob"))
    assert [n for n, _ in got] == ["cancel_scheduled"] and "16" in got[0][1].get("what", "")


@pytest.mark.parametrize("text", ["I'm going Paranoid.", "I'm going Paranoid too, might as well join the party."])
def test_going_paranoid_sets_the_mental_state(text):
    # Rule 4E0: a PEP sets his Mental State by "stating that he does so, and specifying his new Mental State"
    assert actions(text, vocab("Wooble")) == [("mental_state", {"state": "Paranoid"})]


@pytest.mark.parametrize("text", ["I am going home.", "Wooble is going Paranoid.", "I was going Paranoid."])
def test_going_elsewhere_or_someone_elses_state_is_no_action(text):
    assert actions(text, vocab("Wooble")) == []


@pytest.mark.parametrize("text", [
    "Please note my new address, chuck@b.example; I'll be posting from there from now on.",
    "Please note my new address: chuck@b.example.",
])
def test_a_new_address_to_note(text):
    assert [(n, a.get("name")) for n, a in actions(text, vocab("Chuck"))] == [("add_address", "chuck@b.example")]


def test_the_ballot_published_under_its_heading_and_said_again_is_published_once():
    # Rule 4E15: the Chairman publishes the Ballot; "the above" is the one under its heading
    text = ("Ballot for nweek 7. Voting is open until the end of Thirnight.\n\n{{\n10 Fishy Business (Alice)\n"
            "11 Sock Amnesty (Wooble)\n}}\n\nI publish the above as the Ballot, and having done so I turn "
            "the Clock On.")
    assert _names(text, vocab("Alice")) == ["publish_ballot", "clock_on"]


@pytest.mark.parametrize("text, expected", [
    ("i give wooble m 10 sorry for the ZOT joke", [("give", {"amount": "m10", "player": "Wooble"})]),
    ("I vote FOR 12 thanks for writing it", [("vote", {"vote": "FOR", "which": "12"})]),
])
def test_an_apology_or_thanks_run_on_after_the_action_is_no_part_of_it(text, expected):
    assert actions(text, vocab("Chuck")) == expected


def test_an_apology_before_more_of_the_action_leaves_it_whole():
    got = votes("My votes this nweek, sorry about the line breaks, my client does this: FOR 10, FOR 11, "
                "AGAINST 12.")
    assert got == [("FOR", "10"), ("FOR", "11"), ("AGAINST", "12")]


def test_what_matters_is_that_i_act():
    assert actions("What matters is that I give m7 to Wooble, because he was right.", vocab("Chuck")) == [
        ("give", {"amount": "m7", "player": "Wooble"})]


def test_the_point_about_someone_else_is_no_action():
    assert actions("The point is that Bob gave m5 to Chuck.", vocab("Wooble")) == []


# Rule 4E18: "Consultations are given a Consultation Number by the Oracle when assigned to a
# Priest ... The Oracle may ... choose a number of his liking for a new Consultation."

def _assigned(text, **more):
    v = vocab("Chuck", consultations=(5, 6), replying=True, **more)
    return [(r.spec.name, r.args.get("which"), r.args.get("player"), r.args.get("number"))
            for r in read(text, v) if r.kind == "action"]


@pytest.mark.parametrize("text, expected", [
    ("I assign Consultation 6 to Dana, and it is Consultation 7.", [("assign_consultation", "6", "Dana", "7")]),
    ("I assign Consultation 6 to Dana, and it's number 8.", [("assign_consultation", "6", "Dana", "8")]),
    ("I assign this to Dana as Priest, Consultation number 7.", [("assign_consultation", "this", "Dana", "7")]),
    ("I assign this to Dana as Priest with the number 7.", [("assign_consultation", "this", "Dana", "7")]),
])
def test_the_number_said_after_the_assignment_is_the_number_it_is_given(text, expected):
    assert _assigned(text) == expected


def test_a_consultation_named_by_whose_it_is_and_what_it_asks():
    got = [r for r in read("I assign Dana as Priest of Wooble's Consultation about forfeiting voters.",
                           vocab("Chuck", consultations=(5, 6))) if r.kind == "action"]
    assert [(r.spec.name, r.args.get("player")) for r in got] == [("assign_consultation", "Dana")]
    assert "Wooble" in str(got[0].args.get("which"))


def test_what_it_asks_ends_before_the_next_verb_on_it():
    got = _assigned("I assign Dana as Priest of Wooble's Consultation about late objections and number it 7.")
    assert [g[0] for g in got] == ["assign_consultation", "number_consultation"]


def test_the_consultation_quoted_above():
    got = _assigned("As Oracle, I assign Dana as the Priest of the Consultation quoted above.")
    assert got == [("assign_consultation", "this", "Dana", None)]


# ---------------------------------------------------------------- fresh mail, second batch

def test_a_forum_quotation_is_someone_elses_words():
    # Rule 4E7: the sender "specifying that he is taking that action": quoted words are another's
    text = '[quote="Alice"]I intend to retitle Rule 4E31 to "The Calendar of B"[/quote]\n\nNice idea. I\'m not objecting.'
    assert own_words(text).strip() == "Nice idea. I'm not objecting."
    assert "I intend to retitle" in quoted_words(text)
    assert actions(own_words(text), vocab("Chuck")) == []


def test_a_postscript_below_the_signature_is_the_senders_own():
    text = "Thanks all for a lively nweek.\n\n-- \nWooble\n\nPS: AGAINST 16, forgot that one."
    assert votes(own_words(text), vocab("Wooble")) == [("AGAINST", "16")]
    assert "Player since" not in own_words("I vote FOR 12.\n-- \nWooble\nPlayer since 2008\n")


@pytest.mark.parametrize("text", ["I do vote AGAINST 16.", "But I do vote AGAINST 16, out of sheer spite."])
def test_an_emphatic_do_before_the_verb(text):
    assert votes(text) == [("AGAINST", "16")]


def test_everything_else_except_one_leaves_that_one_out():
    assert votes("FOR 11, AGAINST 13, SHELVE everything else except 16, which I'll decide on tomorrow.") == [
        ("FOR", "11"), ("AGAINST", "13"), ("SHELVE", "10"), ("SHELVE", "12"), ("SHELVE", "15")]


def test_everything_else_except_one_which_gets_another_vote():
    assert votes("FOR 11, SHELVE everything else except 16, which is AGAINST.") == [
        ("FOR", "11"), ("SHELVE", "10"), ("SHELVE", "12"), ("SHELVE", "13"), ("SHELVE", "15"), ("AGAINST", "16")]


def test_both_pending_intents():
    got = [a.get("target") for n, a in actions("I object to both pending intents.",
                                                 vocab("Chuck", intents={3: "Wooble", 4: "Alice"}))]
    assert got == ["3", "4"]


@pytest.mark.parametrize("text", ["I give m1 to each of the other Players.", "I give m1 to everyone else.",
                                  "In a fit of generosity I give m1 to all of the other players."])
def test_each_of_the_other_players(text):
    got = actions(text, vocab("Wooble"))
    assert [a["player"] for _, a in got] == ["Alice", "Bob", "Chuck", "Dana", "The Beast"]


@pytest.mark.parametrize("text", [
    "Registrar: please note that I also post from ais523@alt.example.net, in case my usual server falls over again.",
    "I also post from ais523@alt.example.net, because my server fails.",
])
def test_an_address_posted_from_with_a_reason(text):
    assert [(n, a.get("name")) for n, a in actions(text, vocab("Dana"))] == [("add_address", "ais523@alt.example.net")]


@pytest.mark.parametrize("text", ["Join request. Name: Hank.", "Application to join. Name: Hank."])
def test_a_join_request_under_its_label(text):
    # Rule 4E4: a request "to become a Player and a uniquely identifying name"
    v = vocab(None)
    assert [(n, a.get("name", "").lower()) for n, a in actions(text, v)] == [("join", "hank")]


def test_a_mail_said_again_in_case_the_first_was_lost():
    assert [n for n, _ in actions("In case my last mail got eaten by the list: I ZOT Consultation 6.",
                                  vocab("Chuck", consultations=(5, 6)))] == ["zot_consultation"]


def test_a_condition_before_a_comma_is_still_asked_about():
    assert actions("If Bob objects, I support intent 3.", vocab("Chuck", intents={3: "Wooble"})) == []


@pytest.mark.parametrize("text, who, expected", [
    ("I change the Proposal Color of Chuck's pending proposal to Burnt Sienna.", "Dana", "17"),
    ("I withdraw my quiet proposal; it was too quiet even for me.", "Chuck", "17"),
    ("I vote FOR Chuck's open proposal.", "Dana", "16"),
])
def test_whose_proposal_and_a_word_that_tells_which(text, who, expected):
    # Rule 4E7: "Unambiguous targets ... regardless of exact wording"
    got = [a.get("number") or a.get("which") or a.get("proposal") for _, a in actions(text, pending_game(who))]
    assert got == [expected]


def test_a_word_that_fits_two_of_theirs_is_not_guessed():
    assert votes("I vote FOR Bob's clock proposal.", pending_game("Dana")) == []


def test_as_per_an_intent_after_a_long_circumstance():
    # Rules 4E21, 4E22: an action done under an intent announced before
    got = actions('It has been three ndays and nobody objected, so as per Intent 4 I retitle Rule 4E9 to '
                  '"The Eras of B".', vocab("Alice", intents={4: "Alice"}))
    assert [(n, a.get("title")) for n, a in got] == [("retitle_rule", "The Eras of B")]


@pytest.mark.parametrize("text", [
    "Consultation: is a Corporation a Player? Unbeliever: Chuck.",
    "I'm not a player, but I'm told anyone may do this. Consultation: is a Corporation a Player? Unbeliever: Chuck.",
])
def test_a_consultation_with_its_unbeliever_on_its_line(text):
    # Rule 4E18: a Consultation's Question, and the Unbeliever it may name
    got = acted(text, vocab("Alice"))
    assert [r.spec.name for r in got] == ["submit_consultation"]
    assert got[0].args["document"] == "Question: is a Corporation a Player?\nUnbeliever: Chuck"


def _ranked(text):
    v = vocab("Bob", refresh={1: "Alice", 2: "Bob", 3: "Chuck"})
    return [a.get("ranking") for n, a in actions(text, v) if n == "rank_refresh_proposals"]


@pytest.mark.parametrize("text, expected", [
    ("I rank Bob's first, then Alice's, and I don't care about Chuck's.", ["2,1"]),
    ("I rank Bob's Refresh Proposal first, then Alice's.", ["2,1"]),
    ("RP1 first, then RP2. I don't rank RP3 at all; ending the game is silly.", ["1,2"]),
])
def test_a_ballot_ranking_refresh_proposals_by_whose_they_are_or_first_then(text, expected):
    # Rule 4E0: "This Ballot shall rank some (or all) of the Refresh Proposals in order of preference"
    assert [str(x).replace(" ", "") for x in _ranked(text)] == expected


def test_first_said_of_something_else_ranks_nothing():
    assert read("I think I'll vote AGAINST 16, but I want to hear Chuck's argument first.",
                vocab("Bob", refresh={1: "Alice", 2: "Bob", 3: "Chuck"})) == []


def test_points_exchanged_for_the_mackerel_wanted():
    # Rule 4E34: 1 point buys m5
    assert actions("I convert some of my points into m25.", vocab("Chuck")) == [("exchange", {"wanted": "m25"})]


def test_some_points_says_not_how_many():
    got = read("I exchange some points.", vocab("Chuck"))
    assert [(r.kind, r.missing) for r in got] == [("incomplete", ("number",))]


@pytest.mark.parametrize("text, expected", [
    ("Bad Beast! I punish Fish Rain.", ["punish_trick"]),
    ("Punish Fish Rain. My garden is ruined.", ["punish_trick"]),
    ('I reinforce "Sock Sorting".', ["reinforce_trick"]),
    ("Punish! Punish the Fish Rain trick! My mailbox is still wet.", ["punish_trick"]),
])
def test_a_trick_named_by_its_nickname_is_the_last_trick(text, expected):
    # Rule 4E71: "a Player may Punish [Reinforce] the last Trick that has been performed"
    assert [n for n, _ in actions(text, vocab("Chuck"))] == expected


def test_punishing_a_player_is_no_trick():
    assert "punish_trick" not in [n for n, _ in actions("I punish Wooble.", vocab("Chuck"))]


def test_decided_and_done():
    text = ("After a great deal of thought, and having talked to Chuck about it over the weekend, I have "
            "decided to give m10 to Chuck, which I hereby do, and I hope that settles the matter.")
    assert actions(text, vocab("Dana")) == [("give", {"amount": "m10", "player": "Chuck"})]


def test_decided_alone_is_no_action():
    assert actions("I have decided to give m10 to Chuck.", vocab("Dana")) == []


@pytest.mark.parametrize("text, who", [
    ("Tally of Claims on Consultation 5: Alice Inconsistent, Bob Consistent. One each, so the Answer stands.",
     "Wooble"),
    ("Claims on Consultation 5: Bob Inconsistent; Dana, Alice, Wooble Consistent. The answer stands.", "Chuck"),
])
def test_the_tally_of_claims_under_its_heading(text, who):
    # Rule 4E18: "A Jiffy after the Answer has been submitted the Oracle shall tally any such Claims"
    v = vocab(who, consultations=(5, 6), holders={"Questions": "Chuck"})
    assert [n for n, _ in actions(text, v)] == ["tally_claims"]


def test_someone_elses_list_of_claims_tallies_nothing():
    v = vocab("Wooble", consultations=(5, 6), holders={"Questions": "Chuck"})
    assert actions("Claims on Consultation 5: Bob Inconsistent; Dana Consistent.", v) == []


def test_a_soft_line_break_left_in_the_text():
    assert votes(own_words("I vote FOR 15 and AGAIN=\nST 16.")) == [("FOR", "15"), ("AGAINST", "16")]


def test_a_space_encoded_at_a_lines_end_is_a_space_not_a_number():
    assert own_words("I vote FOR 15.=20\nAnd AGAINST 16.=09\n") == "I vote FOR 15. \nAnd AGAINST 16. \n"
    assert votes(own_words("FOR=20\n15")) == [("FOR", "15")]
    assert own_words("Set x=205\n") == "Set x=205\n"


def test_a_revised_version_under_its_label():
    # Rule 4E15: the author may revise a Pending proposal
    text = "Revised version of my Sock Drawer proposal (not numbered yet, I think):\n\nTitle: Sock Drawer\nBody:\nCreate a new Rule."
    v = World({10: ("Fishy Business", "Alice"), 17: ("Sock Drawer", "Dana")}).vocab("Dana", open_proposals=(10,))
    got = acted(text, v)
    assert [(r.spec.name, r.args.get("number")) for r in got] == [("revise_proposal", "17")]
    assert "Create a new Rule." in got[0].args["document"]


@pytest.mark.parametrize("text, quoted", [
    ("Me too.", "I object to intent 4."),
    ("Same.", "I object to Intent 3.\n-- Ais523"),
])
def test_agreeing_with_a_quoted_objection_objects(text, quoted):
    # Rule 4E21: "Objecting is a Game Action"; it needs no word of its own, and the quoted one
    # names its intent
    v = vocab("Dana", intents={3: "Wooble", 4: "Alice"}, replying=True)
    got = [(r.spec.name, r.args.get("target")) for r in read(text, v, quoted=quoted) if r.kind == "action"]
    assert got == [("object", quoted.split()[-1].rstrip(".") if "\n" not in quoted else "3")]


def test_agreeing_with_a_quoted_vote_is_still_asked():
    # Rule 4E15: "A Vote is one of the words FOR, AGAINST, ABSTAIN, or SHELVE"
    got = read("Same.", vocab("Dana", replying=True), quoted="I vote FOR 11.")
    assert [r.kind for r in got] == ["ambiguous"] or all(r.kind != "action" for r in got)


def test_a_second_intent_named_after_and_to():
    got = actions("I object to Wooble's intent to have the Beast pay him, and to Alice's intent to retitle 4E9.",
                  vocab("Bob", intents={3: "Wooble", 4: "Alice"}))
    assert [a.get("target") for _, a in got] == ["3", "4"]


@pytest.mark.parametrize("text", ["Thanks, but I don't need it. I give it straight back.", "Aw. I give it back."])
def test_a_gift_given_back_to_the_giver(text):
    # Rule 4E33: a COO can give currency to another COO; "it" is the gift quoted, "back" its giver
    v = vocab("Dana", addressee="Chuck", replying=True)
    assert actions(text, v, quoted="I give m15 to Dana, who does the actual Priest work.") == [
        ("give", {"amount": "m15", "player": "Chuck"})]


def test_giving_back_what_no_quoted_mail_gave_is_not_guessed():
    v = vocab("Dana", addressee="Chuck", replying=True)
    assert actions("I give it back.", v, quoted="I vote FOR 12.") == []


def test_the_results_under_their_heading_on_one_line():
    # Rule 4E15: "the Minister of Change is obligated to publish the results of the voting"
    got = actions("Results, nweek 7: 10, 12 and 15 pass; 11, 13 and 16 fail; 14 shelved.\nFull tallies on the wiki.",
                  vocab("Alice"))
    assert [n for n, _ in got] == ["publish_results"]


def test_a_ministry_given_a_new_reward():
    # Rule 4E48: a Minister may "Revise the Reward Value of its Ministry"
    got = actions("I give the Ministry of Questions a new Reward of m40 by revising it.", vocab("Chuck"))
    assert [(n, a.get("reward")) for n, a in got] == [("revise_reward", "m40")]


def test_but_at_the_start_is_no_exception():
    # "But 14 is mine, so FOR on that": no Vote on all but 14 (the sender's own words, read as said)
    assert ("FOR", "12") not in votes("But 14 is mine, so FOR on that as well.", vocab("Bob"))
    assert votes("But I vote AGAINST 16.") == [("AGAINST", "16")]


def test_a_purpose_before_the_i():
    got = actions("But to discourage you I revise the Reward of the Ministry of Time to m60.",
                  vocab("Ais523", addressee="Chuck", replying=True))
    assert [(n, a.get("reward")) for n, a in got] == [("revise_reward", "m60")]


@pytest.mark.parametrize("text, answer", [("NOT GUILTY on 2. Two messages in an hour is not spamming.", "NOT GUILTY"),
                                          ("GUILTY on 2.", "GUILTY")])
def test_a_jury_answer_on_a_bare_number(text, answer):
    # Rule 4E73: "Each member of the Jury shall deliver an answer"
    got = actions(text, vocab("Dana", indictments=(2, 3)))
    assert [(n, a.get("answer"), a.get("number")) for n, a in got] == [("verdict", answer, "2")]


def test_resigning_from_the_ministries_of_two():
    # Rule 4E46: a Minister may resign
    got = actions("I resign from the Ministries of Time and Fauna.", vocab("Bob", holders={"Time": "Bob", "Fauna": "Bob"}))
    assert [(n, a.get("ministry")) for n, a in got] == [("resign_ministry", "Time"), ("resign_ministry", "Fauna")]


def test_resigning_effective_immediately():
    got = actions("I resign, effective immediately.", vocab("Bob", holders={"Society": "Bob"}))
    assert [n for n, _ in got] == ["resign_ministry"]


def test_colour_for_a_proposal_under_its_label():
    got = actions("Colour for 16: Baby blue.", vocab("Dana"))
    assert [(n, a.get("number"), a.get("color", "").lower()) for n, a in got] == [("color_proposal", "16", "baby blue")]


def test_my_vote_of_for_upon_a_proposal():
    assert votes("I hereby cast my vote of FOR upon proposal sixteen (Eras Again).") == [("FOR", "16")]


def test_typos_apologised_for_after_the_votes():
    assert votes("vote FOR 15 AGAINST 16 sorry typos") == [("FOR", "15"), ("AGAINST", "16")]


@pytest.mark.parametrize("text", ["I cancel the vote I scheduled for Thirnight this morning.",
                                  "I cancel the action I scheduled for Breakday (the m10 to Chuck)."])
def test_a_scheduled_action_named_as_the_one_i_scheduled(text):
    # Rule 4E7: its author may cancel a scheduled action
    assert [n for n, _ in actions(text, vocab("Bob"))] == ["cancel_scheduled"]


@pytest.mark.parametrize("text, title", [
    ("Proposal: Oracle Pay Rise\n\n  Set the Reward of the Ministry of Questions to m100.", "Oracle Pay Rise"),
    ("Proposal: Quiet Nweek III (conflicts with 17)\n\n  During nweek 10, the Clock is Off.", "Quiet Nweek III"),
    ("[PROPOSAL] Sock Inflation\n\nAmend Rule 4E68 by adding a sentence.", "Sock Inflation"),
])
def test_a_proposal_under_its_label_with_its_text_set_in(text, title):
    # Rule 4E15: a proposal's text is a document, never read for actions
    got = acted(text, vocab("Chuck"))
    assert [(r.spec.name, r.args.get("title")) for r in got] == [("submit_proposal", title)]


def test_make_me_a_player():
    # Rule 4E4: a request "to become a Player and a uniquely identifying name"
    got = read("Please make me a Player! I've been lurking on the list for months.", vocab(None))
    assert [(r.kind, r.spec.name, r.missing) for r in got] == [("incomplete", "join", ("name",))]
    assert actions("Make me a Player, name Zed.", vocab(None)) == [("join", {"name": "Zed"})]


def test_i_should_like_to_vote():
    assert votes("I should like to vote FOR 15.") == [("FOR", "15")]


def test_a_proposal_described_by_what_it_does():
    # Rule 4E7: an unambiguous target, in any wording: every word of one Open proposal's Title
    assert votes("I vote FOR the proposal that puts the Beast on a diet.",
                 World({13: ("Beast Diet", "Wooble"), 12: ("Clock Fix", "Bob")}).vocab("Chuck")) == [("FOR", "13")]


def test_a_description_that_fits_none_names_none():
    assert votes("I vote FOR the proposal that feeds the fish.",
                 World({13: ("Beast Diet", "Wooble"), 12: ("Clock Fix", "Bob")}).vocab("Chuck")) == []


@pytest.mark.parametrize("text", [
    "Indictment!\n\nAccusation: Felony\nOffender: Dana\nExample: Dana severely spammed b-discuss on Wonko.",
    "Indictment. Accusation: Felony. Offender: Bob. Example: he severely spammed the list on Wonko.",
])
def test_an_indictment_under_its_label_and_fields(text):
    # Rule 4E72: an Indictment is a Game Document of its fields (the handler says which are missing)
    got = acted(text, vocab("Wooble"))
    assert [r.spec.name for r in got] == ["submit_indictment"]
    assert "Accusation: Felony" in got[0].args["document"] and "Offender:" in got[0].args["document"]


def test_indictment_before_a_remark_submits_nothing():
    assert read("Indictment. I think Bob did it.", vocab("Wooble")) == []
