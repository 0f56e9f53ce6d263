"""Ballots as players lay them out, and actions taken back in the same message, read as a
careful officer would (Rule 4E7: "regardless of capitalization, punctuation, or exact
wording"; a message may hold several actions, and an action said and then withdrawn in
the same breath was not meant).

Rule 4E15: a Vote is FOR, AGAINST, ABSTAIN or SHELVE on an Open proposal; a proposal has
a Title, Body, Conflicts and Dependencies, and its Author may revise it. Rule 4E7: an
action may be done later, at a time said with reference to NTime or UTC."""
import pytest

import bnomic.handlers.engine  # noqa: F401  (registers every action)
from bnomic.handlers import grammar
from bnomic.handlers.proposals import read_document
from bnomic.handlers.vocabulary import Vocabulary

PLAYERS = ("Alice", "Bob", "Chuck", "Dana", "The Beast")
VOCAB = Vocabulary(players=PLAYERS, actor="Alice", beast="The Beast",
                   proposals={10: ("Fishy Business", "Bob"), 11: ("Clock Fix", "Alice"),
                              12: ("Beast Diet", "Dana"), 13: ("Eras Again", "Chuck")},
                   open_proposals=(10, 11, 12, 13))


def read(text):
    return [(r.kind, r.spec and r.spec.name, {k: str(v) for k, v in r.args.items() if v not in (None, "")})
            for r in grammar.read(text, VOCAB)]


def votes(text):
    return [(r.args["vote"], str(r.args["which"])) for r in grammar.read(text, VOCAB)
            if r.kind == "action" and r.spec.name == "vote"]


# ----------------------------------------------------------------- ballots

def test_a_ballot_in_lowercase_lines_is_read_line_by_line():
    # "for" at a line's end is a Vote on a ballot's line, not a word the mailer cut off
    assert votes("P10: for\nP11: for\nP12: against") == [("FOR", "10"), ("FOR", "11"), ("AGAINST", "12")]


def test_a_ballot_wrapped_before_the_proposals_number_is_one_sentence():
    text = "I give m3 to Bob, and I vote AGAINST\nProposal 12 and FOR Proposal\n13."
    assert votes(text) == [("AGAINST", "12"), ("FOR", "13")]


def test_a_heading_that_is_no_action_reads_as_nothing():
    assert votes("Votes for this nweek:\n\n10 FOR\n11 AGAINST") == [("FOR", "10"), ("AGAINST", "11")]
    assert all(k == "action" for k, _, _ in read("Votes for this nweek:\n\n10 FOR\n11 AGAINST"))


def test_my_own_votes_introduce_votes():
    assert votes("My own votes: FOR 10, AGAINST 12.") == [("FOR", "10"), ("AGAINST", "12")]


def test_the_vote_replaced_is_said_and_not_a_vote_of_its_own():
    assert read("I now vote SHELVE on 13 instead of FOR.") == [
        ("action", "vote", {"vote": "SHELVE", "which": "13", "was": "FOR"})]


@pytest.mark.parametrize("text", ["I vote FOR 10 as well, on the same grounds.", "I vote FOR 10, for the same reason.",
                                  "FOR 10 today."])
def test_a_trailing_remark_leaves_the_vote(text):
    assert votes(text) == [("FOR", "10")]


def test_all_but_a_list_each_with_its_own_vote():
    assert votes("I vote FOR all Open proposals except 10 and 12, on which I vote AGAINST.") == [
        ("FOR", "11, 13"), ("AGAINST", "10, 12")]
    assert votes("I vote AGAINST every Open proposal other than 11, on which I SHELVE.") == [
        ("AGAINST", "10, 12, 13"), ("SHELVE", "11")]


def test_a_bare_vote_then_a_remark_after_a_comma():
    assert votes("SHELVE on Eras Again, I want one more nweek to think.") == [("SHELVE", "13")]


# ----------------------------------------------------------- taking back

@pytest.mark.parametrize("text", [
    "I forfeit.\n\nJust kidding. I'm staying.",
    "I give m5 to Bob. Never mind, ignore this one.",
    "I give m5 to Bob. No, wait, he owes me. Scratch that.",
])
def test_an_action_taken_back_in_the_same_message_is_not_done(text):
    assert read(text) == []


def test_a_correction_takes_back_the_slip_and_keeps_what_is_said_again():
    assert read("I give m50 to Bob. Sorry, that should be m5. I give m5 to Bob.") == [
        ("action", "give", {"amount": "m5", "player": "Bob"})]


def test_a_remark_about_someone_elses_joke_takes_nothing_back():
    assert votes("I vote FOR 10. Bob is kidding, surely.") == [("FOR", "10")]


# ------------------------------------------------------- proposals (4E15)

def test_a_title_line_above_a_body_in_braces():
    doc = read_document("Title: Sock Drawer\nConflicts: 11\n\n{{\nAmend Rule 4E68.\n}}")
    assert (doc["title"], doc["conflicts"], doc["body"]) == ("Sock Drawer", [11], "Amend Rule 4E68.")


def test_revise_to_read_and_its_color():
    got = read("I revise Proposal 11 to read:\n\n{{\nThe Clock is fixed.\n}}\n\nand I set its Proposal Color to Beige.")
    assert got == [("action", "revise_proposal", {"number": "11", "document": "The Clock is fixed."}),
                   ("action", "color_proposal", {"number": "11", "color": "Beige"})]


def test_its_with_nothing_before_it_stays_missing():
    assert read("I set its Proposal Color to Beige.")[0][0] == "incomplete"


# ----------------------------------------------------------- times (4E7)

@pytest.mark.parametrize("text,kind,nday,nweek", [
    ("At 00:00 UTC on nday 3 I give m5 to Bob.", "nday", 3, None),
    ("At the end of this nweek I give m5 to Bob.", "nweek", None, None),
    ("On nday 1 of nweek 8 I give m5 to Bob.", "nday", 1, 8),
])
def test_times_an_action_may_be_done_at(text, kind, nday, nweek):
    (r,) = grammar.read(text, VOCAB)
    assert (r.spec.name, r.when.kind, r.when.nday, r.when.nweek) == ("give", kind, nday, nweek)


def test_and_then_at_another_time_begins_another_action():
    got = grammar.read("On nday 5 I give m5 to Bob, and on nday 1 of nweek 8 I give m5 to Chuck.", VOCAB)
    assert [(r.args["player"], r.when.nday, r.when.nweek) for r in got] == [("Bob", 5, None), ("Chuck", 1, 8)]


# ------------------------------------------- counts (4E7) and quantities (4E30)

@pytest.mark.parametrize("text,times", [("I give m2 to Bob, a Handful of times.", 6),
                                        ("I give m1 to Bob a Bunch of times", 24),
                                        ("I give m1 to Bob a few times", 4)])
def test_an_official_quantity_counts_a_repeat(text, times):
    (r,) = grammar.read(text, VOCAB)
    assert (r.args["player"], r.times) == ("Bob", times)


def test_the_quantities_are_the_games_own():
    from dataclasses import replace
    changed = replace(VOCAB, quantities=(("a handful", 5),))     # a proposal set A Handful to 5
    (r,) = grammar.read("I give m2 to Bob a Handful of times.", changed)
    assert r.times == 5


def test_a_quantity_in_talk_is_no_count():
    assert read("That is a lot of fish for one nweek.") == []


@pytest.mark.parametrize("text,counts", [
    ("I give m10 to Bob 3 times and a Few times to Dana.", [("Bob", 3), ("Dana", 4)]),
    ("I give m5 to Bob and Chuck 3 times", [("Bob", 3), ("Chuck", 3)]),
    ("I give m5 to Bob 3 times and m2 to Chuck", [("Bob", 3), ("Chuck", 1)]),
    ("I give m5 to Bob 2 times and m2 to Chuck 3 times", [("Bob", 2), ("Chuck", 3)]),
])
def test_each_gift_keeps_its_own_count(text, counts):
    assert [(r.args["player"], r.times) for r in grammar.read(text, VOCAB)] == counts


# ------------------------------------------------------------ "my proposal"

def test_my_proposal_to_vote_on_is_the_one_of_mine_still_open():
    from dataclasses import replace
    vocab = replace(VOCAB, proposals={**VOCAB.proposals, 9: ("Old Clock", "Alice")})    # 9 is not Open
    (r,) = grammar.read("I vote FOR my proposal.", vocab)           # Rule 4E15: only an Open one
    assert (r.spec.name, r.args["which"]) == ("vote", "11")
    (r,) = grammar.read("I withdraw my proposal.", vocab)           # which one: not guessed
    assert r.kind == "ambiguous"
    (r,) = grammar.read("I change the color of my proposal to Baby Blue.", VOCAB)     # the only one
    assert (r.spec.name, r.args["number"]) == ("color_proposal", "11")


# ------------------------------------------------------------------ mail

def test_a_text_part_that_is_an_html_document_is_read_as_its_text():
    from bnomic.mailer.parse import own_words
    words = own_words("<html><body><p>I vote <b>FOR</b> 10 and <b>AGAINST</b> 12.</p></body></html>")
    assert votes(words) == [("FOR", "10"), ("AGAINST", "12")]


# ------------------------------------------------ whose proposals (4E15)

AUTHORS = Vocabulary(players=PLAYERS, actor="Alice", beast="The Beast",
                     proposals={10: ("Fishy Business", "Chuck"), 11: ("Clock Fix", "Alice"),
                                12: ("Beast Diet", "Bob"), 13: ("Eras Again", "Dana"),
                                14: ("Clock Fix II", "Bob"), 9: ("Old", "Alice")},
                     open_proposals=(10, 11, 12, 13, 14))


def author_votes(text):
    return [(r.args["vote"], str(r.args["which"])) for r in grammar.read(text, AUTHORS)
            if r.kind == "action" and r.spec.name == "vote"]


@pytest.mark.parametrize("text,want", [
    ("I vote FOR all of Bob's proposals and AGAINST all of Alice's.", [("FOR", "12, 14"), ("AGAINST", "11")]),
    ("I vote FOR every Open proposal except my own and Bob's.", [("FOR", "10, 13")]),
    ("ABSTAIN on everything except my own, which I vote FOR.", [("ABSTAIN", "10, 12, 13, 14"), ("FOR", "11")]),
    ("FOR on all of Bob's proposals, AGAINST everything else.", [("FOR", "12, 14"), ("AGAINST", "10, 11, 13")]),
])
def test_proposals_named_by_whose_they_are(text, want):
    assert author_votes(text) == want


# ------------------------------------------------- Votes after a lead-in

@pytest.mark.parametrize("text,want", [
    ("Re: the Ballot -- FOR 12 (mine), and I'll let the rest ride.", [("FOR", "12")]),
    ("Ballot or no Ballot, any Voter may vote. Which reminds me: FOR 13.", [("FOR", "13")]),
    ("The proposals are Open, so: FOR 10, AGAINST 11 (yes, 11 is mine).", [("FOR", "10"), ("AGAINST", "11")]),
])
def test_votes_after_a_lead_in(text, want):
    assert votes(text) == want


def test_a_lowercase_word_after_a_colon_is_no_vote():
    assert votes("A reminder: for what it's worth, the Ballot is late.") == []


# ------------------------------------------ Refresh Proposal ballots (4E0)

@pytest.mark.parametrize("text,ranking", [("I rank RP 3 first, then RP 1.", "3, 1"),
                                          ("Ranking: first choice RP2.", "2"),
                                          ("Ballot: 1 > 3 > 2", "1, 3, 2")])
def test_an_emergency_ballot_ranks(text, ranking):
    assert read(text) == [("action", "rank_refresh_proposals", {"ranking": ranking})]


def test_the_chairmans_heading_needs_its_nweek():
    assert read("BALLOT, nweek 7")[0][1] == "publish_ballot"
    assert all(name != "publish_ballot" for _, name, _ in read("Ballot: 1 > 3 > 2"))


# ------------------------------------------------------- other wordings

@pytest.mark.parametrize("text,answer,reasoning", [
    ("I answer Consultation 5 YES, with the following Oracularity:", "YES", "with the following Oracularity"),
    ("I answer Consultation 5: Affirmative, for the reasons Bob gave.", "YES", "for the reasons Bob gave"),
])
def test_an_answer_then_what_comes_with_it(text, answer, reasoning):   # Rule 4E18
    from bnomic.handlers.consultations import answer_word
    (got,) = read(text)
    assert (got[1], got[2]["which"]) == ("answer_consultation", "5")
    assert answer_word(got[2]["word"]) == (answer, reasoning)     # the handler keeps the rest as reasoning


def test_colour_as_the_verb():                                # Rule 4E69
    assert read("I colour 12 Teal.") == [("action", "color_proposal", {"number": "12", "color": "Teal"})]


def test_quantities_of_points_and_macks():                    # Rule 4E30
    assert read("I exchange a Handful of points for macks.")[0][2]["number"] == "6"
    assert read("I give a Bunch of macks to Bob.") == [("action", "give", {"amount": "m24", "player": "Bob"})]


# ----------------------------------------------- intents (4E21, 4E22) and more

INTENTS = Vocabulary(players=PLAYERS, actor="Alice", beast="The Beast", intents={3: "Bob", 4: "Chuck"})


def test_the_verbs_own_word_again_after_and():
    assert [r.args["target"] for r in grammar.read("I object to Intent 3 and to Intent 4.", INTENTS)] == ["3", "4"]


@pytest.mark.parametrize("text", ["I object to all current intents.", "I support both open intents."])
def test_every_open_intent(text):
    assert [r.args["target"] for r in grammar.read(text, INTENTS)] == ["3", "4"]


def test_every_open_intent_with_none_known_is_missing():
    (r,) = grammar.read("I object to all current intents.")
    assert (r.kind, r.missing) == ("incomplete", ("target",))


def test_a_name_to_go_by():                                    # Rule 4E4
    assert read("Please let me join. I'll go by Hobbes.") == [("action", "join", {"name": "Hobbes"})]


@pytest.mark.parametrize("text", ["Registrar: please add al@uni.example to my addresses.",
                                  "Registrar, please add al@uni.example to my entry."])
def test_the_officer_addressed_before_the_request(text):
    assert read(text) == [("action", "add_address", {"name": "al@uni.example"})]


@pytest.mark.parametrize("text", ["Next Breakday I will turn the Clock On.", "I turn the Clock On next Breakday."])
def test_next_nday_by_name(text):                              # Rules 4E7, 4E14
    (r,) = grammar.read(text, VOCAB)
    assert (r.spec.name, r.when.kind, r.when.nday) == ("clock_on", "nday", 1)


def test_a_transaction_begun_with_a_colon():                   # Rule 4E12
    (t,) = grammar.read("Begin transaction: I give m5 to Bob; I give m5 to Chuck; end transaction.", VOCAB)
    assert [s.args["player"] for s in t.steps] == ["Bob", "Chuck"] and not t.error
    (t,) = grammar.read("BEGIN TRANSACTION: I give m5 to Bob, I give m5 to Chuck.\n\nHmm, is that wise?", VOCAB)
    assert "no END TRANSACTION" in t.error


def test_each_other_player_the_beast_included():
    got = grammar.read("I give m5 to each other Player, the Beast included.", VOCAB)
    assert [r.args["player"] for r in got] == ["Bob", "Chuck", "Dana", "The Beast"]


# ------------------------------------------------- "you" in a reply (4E33)

def test_you_in_a_reply_is_the_player_replied_to(game):
    for name in ("Alice", "Dana"):
        game.join(name, "2008-09-01T09:00:00Z")
    game.post("dana@example.org", "Anyone want to buy a Burgundy Sock? m20.", "2008-09-01T10:00:00Z",
              msgid="<sock-offer@example.org>")
    before = game.players()["Dana"]["mackerel"]
    r = game.post("alice@example.org", "Sure. I give you m20.", "2008-09-01T11:00:00Z",
                  headers={"In-Reply-To": "<sock-offer@example.org>"})
    assert "Done" in r and game.players()["Dana"]["mackerel"] == before + 20
    r = game.post("alice@example.org", "I give you m20.", "2008-09-01T12:00:00Z")    # answering no one
    assert game.players()["Dana"]["mackerel"] == before + 20 and "missing" in r


# ------------------------------------------------ shown, not done; displays

@pytest.mark.parametrize("text", [
    "Not an action, just a draft for tomorrow:\n\n  I vote FOR 12.\n\nI'll send it properly later.",
    "You would write something like:\n\n    I give m5 to Bob\n",
])
def test_indented_lines_under_an_example_are_not_done(text):
    assert read(text) == []


def test_an_indented_ballot_under_i_vote_is_done():
    assert votes("I vote:\n  FOR 12\n  AGAINST 13") == [("FOR", "12"), ("AGAINST", "13")]


def test_a_display_named_by_where_it_is():                    # Rule 4E50
    (r,) = grammar.read("I approve the Registrar's display at http://wiki.example/Players?oldid=5")
    assert (r.spec.name, r.args) == ("approve_display", {"ministry": "Society", "at": "http://wiki.example/Players?oldid=5"})


def test_the_method_of_an_approval_says_its_number_of_supporters():
    from bnomic.handlers.registry import action_named
    assert action_named("approve_display").method == "with 4 supporters and without objection"


def test_a_proposal_named_by_words_of_its_title():            # Rule 4E7: never guessed between two
    vocab = Vocabulary(players=PLAYERS, actor="Alice", proposals={12: ("Clock Fix", "Bob"), 14: ("Clock Fix II", "Bob"),
                                                                  13: ("Fishy Business", "Dana")},
                       open_proposals=(12, 13, 14))
    (r,) = grammar.read("I vote AGAINST the fishy proposal.", vocab)
    assert (r.kind, r.args["which"]) == ("action", "13")
    (r,) = grammar.read("I vote FOR the clock proposal.", vocab)
    assert r.kind == "ambiguous" and r.alternatives == ("vote FOR on 12", "vote FOR on 14")
    (r,) = grammar.read("I vote FOR the frog proposal.", vocab)
    assert r.kind == "incomplete"


@pytest.mark.parametrize("text,errors", [
    ("CoE on the Chairman's display of Proposals: it lists 15 as Pending.", "it lists 15 as Pending"),
    ("I challenge the Chairman's display of Proposals: it lists 17 as Open.", "it lists 17 as Open"),
])
def test_a_display_challenged_in_list_words(text, errors):    # Rule 4E50
    (r,) = grammar.read(text)
    assert (r.kind, r.spec.name, r.args) == ("action", "challenge_display", {"ministry": "Change", "errors": errors})


def test_a_claim_under_the_consultations_number():           # Rule 4E18
    (r,) = grammar.read("Consultation 5: Inconsistent. Dana misread which contract it was.")
    assert (r.spec.name, r.args) == ("claim_consultation", {"which": "5", "claim": "Inconsistent"})


def test_whose_thing_it_is_is_not_a_player_of_the_action():   # Rule 4E18
    vocab = Vocabulary(players=PLAYERS + ("Ais523",), actor="Chuck")
    (r,) = grammar.read("I assign Ais523 as Priest for Dana's consultation, numbering it 7.", vocab)
    assert (r.spec.name, r.args) == ("assign_consultation", {"which": "of Dana", "player": "Ais523", "number": "7"})


def test_and_then_in_a_capacity_i_do_another():
    got = grammar.read("I assign myself the Ministry of Games at m80, and as Gamemaster I open Subgame 1.")
    assert [(r.spec.name, r.args) for r in got] == [("assign_ministry", {"ministry": "Games", "reward": "m80"}),
                                                    ("open_subgame", {"number": "1"})]


def test_title_lines_above_the_braces_and_what_follows_them():   # Rule 4E15
    got = grammar.read("I submit the following proposal:\n\nTitle: Sock Drawer\nConflicts: 11\n{{\n"
                       "Amend Rule 4E68 by appending a paragraph.\n}}\n\nAlso I vote FOR 12 while I'm here.", VOCAB)
    assert [r.spec.name for r in got] == ["submit_proposal", "vote"]
    doc = read_document(got[0].args["document"])
    assert (doc["title"], doc["conflicts"], doc["body"]) == ("Sock Drawer", [11], "Amend Rule 4E68 by appending a paragraph.")


OPEN3 = Vocabulary(players=PLAYERS + ("Wooble",), actor="Alice", intents={3: "Wooble", 4: "Bob", 5: "Wooble"})


@pytest.mark.parametrize("text,targets", [
    ("I object to all of Wooble's intents.", ["3", "5"]),
    ("I object to every intent currently outstanding, on principle.", ["3", "4", "5"]),
    ("Objection to all intents currently pending.", ["3", "4", "5"]),
])
def test_intents_named_together(text, targets):               # Rules 4E21, 4E22: one stance each
    assert [r.args["target"] for r in grammar.read(text, OPEN3)] == targets


def test_both_are_the_two_the_mail_answers_and_never_a_guess():
    from dataclasses import replace
    answering = replace(OPEN3, replied_intents=(4, 5), replying=True)
    assert [r.args["target"] for r in grammar.read("I object to both.", answering)] == ["4", "5"]
    (r,) = grammar.read("I object to both.", OPEN3)          # three open, answering none: which two?
    assert (r.kind, r.missing) == ("incomplete", ("target",))


def test_the_same_roles_in_another_order_are_one_reading():
    assert votes("10: FOR\n11: FOR\neverything else: AGAINST") == [("FOR", "10"), ("FOR", "11"), ("AGAINST", "12, 13")]


@pytest.mark.parametrize("text", ["I vote FOR 10 (obviously, it's mine) and AGAINST 12.",
                                  "I vote FOR 10 (it is mine) and AGAINST 12."])
def test_words_in_brackets_in_the_middle_and_the_rest_read_on(text):
    assert votes(text) == [("FOR", "10"), ("AGAINST", "12")]


def test_of_course_after_a_vote():
    assert votes("FOR 12, of course.") == [("FOR", "12")]


@pytest.mark.parametrize("text", ["I withdraw my vote on 10 and vote ABSTAIN instead.",
                                  "I retract my vote on 10 and vote ABSTAIN instead."])
def test_a_vote_replaced_in_one_sentence(text):                # Rule 4E15
    assert votes(text) == [("ABSTAIN", "10")]


@pytest.mark.parametrize("text,second", [
    ("I assign myself the Ministry of Ministry with Reward m100, then turn the Clock Off.", "clock_off"),
    ("I take the MetaMinistry, Reward m100, and turn the Clock Off so we can sort it out.", "clock_off"),
    ("I give m5 to Bob, and set my Mental State to Calm.", "mental_state"),
])
def test_a_second_verb_after_a_comma_and(text, second):        # Rule 4E7: several actions in one message
    assert [r.spec.name for r in grammar.read(text)][-1] == second


@pytest.mark.parametrize("text", ["I will also be posting from al@work.example from now on.",
                                  "Please add al@work.example to my addresses in the Registrar's display, I post from there."])
def test_an_address_said_as_players_say_it(text):            # Rule 4E4
    assert read(text)[0] == ("action", "add_address", {"name": "al@work.example"})
