"""Challenges of displays and their answers, documents fenced off by rules of "=====",
Consultations asked under a label, and proposals named by words of their Title, read as a
careful officer would (Rule 4E7: "regardless of capitalization, punctuation, or exact
wording").

Rule 4E50: "Any Player may challenge a public display that is maintained by a Ministry
... by listing any errors he believes to be present in that public display"; the Minister
"is obligated to address those errors by either correcting them or indicating why he
believes them to be already correct". Rule 4E18: "Any External Force may as a Game Action
submit a Consultation", whose Question is a yes-or-no question. Rule 4E71: a Trick is
taught with its Timing. Rule 4E15: a proposal has a Title."""
import pytest

import bnomic.handlers.engine  # noqa: F401  (registers every action)
from bnomic.handlers import grammar
from bnomic.handlers.vocabulary import Vocabulary, default

PLAYERS = ("Alice", "Bob", "Chuck", "Dana", "Wooble", "The Beast")
HOLDERS = {"Change": "Alice", "Society": "Bob", "Questions": "Chuck"}
PROPOSALS = {10: ("Fishy Business", "Alice"), 11: ("Sock Amnesty", "Wooble"), 12: ("Clock Fix", "Bob"),
             13: ("Beast Diet", "Dana"), 14: ("Clock Fix II", "Bob"), 16: ("Eras Again", "Chuck")}


def vocab(actor="Wooble", **more):
    more = {"holders": HOLDERS, **more}
    return Vocabulary(players=PLAYERS, actor=actor, beast="The Beast", ministries=default().ministries,
                      proposals=PROPOSALS, open_proposals=tuple(PROPOSALS), **more)


def read(text, v=None):
    return [(r.kind, r.spec and r.spec.name, {k: str(v) for k, v in r.args.items() if v not in (None, "")})
            for r in grammar.read(text, v or vocab())]


def actions(text, v=None):
    return [(name, args) for kind, name, args in read(text, v) if kind == "action"]


# ------------------------------------------------- challenging a display (4E50)

@pytest.mark.parametrize("text, ministry", [
    ("CoE: the Registrar's player list shows Dana as Inactive, but she voted on Teucer.", "Society"),
    ("CoE: the Chairman's display lists Proposal 17 as Open.", "Change"),
    ("I challenge the Chairman's proposal display: proposal 15 is listed as by Alice.", "Change"),
])
def test_a_challenge_names_its_display_in_its_errors_or_before_them(text, ministry):
    (name, args), = actions(text)
    assert name == "challenge_display" and args["ministry"] == ministry and args["errors"]


def test_the_errors_after_the_colon_are_the_challenges_even_when_they_begin_with_i():
    (name, args), = actions("CoE on the Registrar's report: I have m120 not m100.")
    assert (name, args["ministry"], args["errors"]) == ("challenge_display", "Society", "I have m120 not m100")


def test_a_challenge_said_after_its_errors_takes_them_from_the_message():
    (name, args), = actions("Registrar's player display says I have 14 points; I have 15. CoE.")
    assert name == "challenge_display" and args["ministry"] == "Society"
    assert "14 points" in args["errors"]


def test_errors_that_name_two_ministries_name_no_display():
    assert actions("CoE: the Registrar's list and the Chairman's report disagree.") == []


def test_a_vote_before_a_colon_is_still_a_vote_and_what_follows_another_sentence():
    assert actions("I vote FOR 12: I like it.") == [("vote", {"vote": "FOR", "which": "12"})]


# the Minister's reply to a challenge of its display addresses the errors (4E50)
CHALLENGED = dict(replied_challenges=((7, "Society"),), replying=True)


@pytest.mark.parametrize("text", [
    "Accepted on Dana, fixed. Denied on the mackerel: you paid Chuck m20 the same day.",
    "Thanks, both fixed on the wiki.",
    "The display is correct as it stands: I think you were looking at a cached page.",
    "Quite right, my mistake.",
])
def test_the_ministers_reply_that_corrects_or_explains_answers_the_challenge(text):
    assert ("answer_challenge", "7") in [(n, a.get("number")) for n, a in actions(text, vocab("Bob", **CHALLENGED))]


@pytest.mark.parametrize("text, actor", [
    ("Fixed, thanks.", "Dana"),                                  # not the Minister
    ("I'll look at it tomorrow.", "Bob"),                        # neither corrects nor explains
    ("Is it really fixed?", "Bob"),                              # a question
])
def test_a_reply_that_is_not_the_ministers_answer_answers_nothing(text, actor):
    assert all(n != "answer_challenge" for n, _ in actions(text, vocab(actor, **CHALLENGED)))


def test_a_reply_to_mail_that_challenged_nothing_answers_nothing():
    assert all(n != "answer_challenge" for n, _ in actions("Fixed.", vocab("Bob", replying=True)))


# ------------------------------------------------------------ fenced documents

def test_a_document_between_rules_of_equals_signs_is_the_document_and_no_more():
    text = ('I intend, with support and without objection, to teach the Beast the following Trick, '
            'with Timing "Voting":\n\n=====\nThe Beast votes AGAINST.\n=====\n\nThanks all.')
    (kind, name, args), = read(text)
    assert (kind, name) == ("action", "intend")
    r = grammar.read(text, vocab())[0]
    assert r.args["document"] == "The Beast votes AGAINST."


def test_a_head_wrapped_over_two_lines_still_heads_its_document():
    text = ("I intend, with support and without objection, to teach the Beast the\n"
            "following Trick:\n\n=====\nThe Beast votes AGAINST.\n=====")
    r, = grammar.read(text, vocab())
    assert r.kind == "action" and r.args["document"] == "The Beast votes AGAINST."


def test_a_choice_in_quotes_is_the_choice():
    assert actions('I become "Paranoid".') == [("mental_state", {"state": "Paranoid"})]


def test_a_synonym_in_quotes_stays_the_words_as_written():
    assert actions('I answer "God knows" to Consultation 3.', vocab()) == [
        ("answer_consultation", {"which": "3", "word": "God knows"})]


# ------------------------------------------------------------- Consultations (4E18)

@pytest.mark.parametrize("text", [
    "CONSULTATION: Can the Beast vote on a proposal that is about the Beast?",
    'Consultation: does "Göd Knows" count as PARADOX, or\nonly "God Knows" without it?',
])
def test_a_question_under_a_consultation_label_submits_a_consultation(text):
    (name, args), = actions(text)
    assert name == "submit_consultation" and args["document"].startswith("Question: ")
    assert args["document"].endswith("?")


def test_a_statement_under_a_consultation_label_submits_nothing():
    assert actions("Consultation: the Oracle is slow this nweek.") == []


def test_what_follows_the_consultations_paragraph_is_read_again():
    got = actions("Consultation: is a Jiffy 3 rdays?\n\nI vote FOR 12.")
    assert [n for n, _ in got] == ["submit_consultation", "vote"]


# ------------------------------------------------- proposals by words of their Title (4E15)

@pytest.mark.parametrize("text, number", [
    ("I vote FOR the proposal about socks.", "11"),            # "Sock Amnesty"
    ("I vote AGAINST the proposal about the Beast.", "13"),    # "Beast Diet"
    ("I vote AGAINST the Eras one.", "16"),                    # "Eras Again"
])
def test_a_proposal_named_by_words_of_its_title(text, number):
    (name, args), = actions(text)
    assert name == "vote" and args["which"] == number


def test_title_words_two_proposals_share_are_ambiguous():
    assert [k for k, _, _ in read("I vote FOR the proposal about clocks.")] == ["ambiguous"]


def test_proposal_one_is_still_proposal_one():
    assert actions("I vote FOR proposal one.") == [("vote", {"vote": "FOR", "which": "1"})]


# ----------------------------------------------- intents named in a reply (4E21, 4E22)

REPLYING = dict(replying=True, replied_intents=(5, 6), intents={3: "Wooble", 4: "Alice", 5: "Bob", 6: "Bob"})


def test_the_second_one_is_the_second_intent_of_the_mail_replied_to():
    got = actions("I support the second one. I object to the first.", vocab("Dana", **REPLYING))
    assert got == [("support", {"target": "6"}), ("object", {"target": "5"})]


def test_an_ordinal_past_those_replied_to_names_none_of_them():
    (name, args), = actions("I object to the third one.", vocab("Dana", **REPLYING))
    assert name == "object" and not args["target"].isdigit()


def test_the_first_one_in_mail_that_replies_to_nothing_names_no_intent():
    assert all(a.get("target") not in ("5", "6") for _, a in actions("I object to the first one.", vocab("Dana")))


def test_the_authors_name_before_the_intents_number_is_whose_it_is():
    v = vocab("Dana", intents={3: "Wooble", 4: "Alice"})
    assert actions("I support Wooble's Intent #3.", v) == [("support", {"target": "3"})]
    # another's name before it is not read over: the officer would ask which was meant
    assert [k for k, _, _ in read("I support Bob's Intent #3.", v)] == ["incomplete"]


def test_the_intent_named_by_its_action_with_a_role_left_unsaid():
    v = vocab("Dana", intents={3: "Wooble", 4: "Alice"}, intent_actions={3: ("beast",), 4: ("retitle_rule",)})
    assert actions("I support Alice's intent to retitle Rule 4E9.", v) == [("support", {"target": "4"})]


@pytest.mark.parametrize("text", [
    "While I'm here, I also support Intent 4.",
    "I support Intent 4 after all.",
    "I support Intent 4 anyway.",
])
def test_a_circumstance_before_or_after_the_action_is_said_in_passing(text):
    assert actions(text, vocab("Dana", intents={4: "Alice"})) == [("support", {"target": "4"})]


# ------------------------------------------- a display named by what it shows (4E50)

@pytest.mark.parametrize("text, ministry", [
    ("I challenge the players display: Dana is Active.", "Society"),
    ("I challenge the Public Display of the current Proposals: 17 is Pending.", "Change"),
    ("I challenge the display of the Rules: 4E9 has Power 1.", "Law"),
    ("I challenge the display of the Consultations: 5 was ZOTTED.", "Questions"),
])
def test_a_display_named_by_what_it_shows_is_its_ministrys(text, ministry):
    (name, args), = actions(text)
    assert name == "challenge_display" and args["ministry"] == ministry


def test_an_intent_to_approve_the_display_of_the_players():
    r, = grammar.read("I intend, with 4 Support and without objection, to Approve the following Public "
                      "Display of the Players:\n{{\nPLAYERS (6)\n}}", vocab())
    assert r.kind == "action" and r.spec.name == "intend"
    assert grammar.match_action("I " + r.args["rest"].split(" with 4")[0].rstrip(":"), vocab()) == (
        next(a for a in grammar.ACTIONS if a.name == "approve_display"), {"ministry": "Society"})


def test_the_tweak_just_submitted_is_it_in_the_intent_that_follows():
    got = read('I submit the following Tweak:\n\n{{\nIn Rule 4E71, "perfoms" is replaced.\n}}\n\n'
               "and I intend, without objection, to Activate it.")
    assert [(k, n) for k, n, _ in got] == [("action", "submit_tweak"), ("action", "intend")]
    assert got[1][2]["rest"].lower().startswith("activate my tweak")


def test_it_with_no_submission_before_is_left_as_said():
    got = read("I intend, without objection, to Activate it.")
    assert all("my tweak" not in a.get("rest", "").lower() for _, _, a in got)


# ------------------------------------------------------------ scheduled actions (4E7)

SCHEDULED = dict(replying=True, replied_scheduled=(9,))


@pytest.mark.parametrize("text", ["Cancel that.", "I cancel that; I'll give it to her in person.",
                                  "Never mind; I cancel that.", "actually cancel that, I'll just vote now: FOR 11"])
def test_cancel_that_in_reply_to_mail_that_scheduled_an_action(text):
    got = actions(text, vocab(**SCHEDULED))
    assert got[0] == ("cancel_scheduled", {"number": "this"})
    assert all(n in ("cancel_scheduled", "vote") for n, _ in got)


def test_cancel_that_in_reply_to_mail_that_scheduled_nothing_is_not_read():
    assert actions("Cancel that.", vocab(replying=True)) == []


def test_unless_i_change_my_mind_is_no_condition():
    got = actions("On Thirnight I will vote FOR 15 and AGAINST 16, unless I change my mind before then.")
    assert [(a["vote"], a["which"]) for _, a in got] == [("FOR", "15"), ("AGAINST", "16")]
    assert all(r.when is not None for r in grammar.read(
        "On Thirnight I will vote FOR 15, unless I change my mind.", vocab()))


# ----------------------------------------------- several actions of one "I" (4E7)

def test_a_comma_and_a_verb_begin_another_action_of_the_same_i():
    got = actions("I vote FOR 12 AGAINST 14 ABSTAIN 15, become Paranoid, and hoist Setting Orange.")
    assert [n for n, _ in got] == ["vote", "vote", "vote", "mental_state", "hoist_flag"]


def test_a_comma_before_words_that_are_no_action_cuts_nothing():
    assert actions("I give m5 to Bob, take care.") == [("give", {"amount": "m5", "player": "Bob"})]


def test_a_count_before_i_is_no_time():
    (name, _), = actions("+1, I support.", vocab("Dana", replying=True))
    assert name == "support"


@pytest.mark.parametrize("text", ["At 18:00, I give m5 to Bob.", "At 6pm, I give m5 to Bob.",
                                  "On 25 November, I give m5 to Bob.", "Tomorrow, I give m5 to Bob."])
def test_a_time_bnomic_cannot_keep_is_still_refused(text):
    r, = grammar.read(text, vocab())
    assert r.kind == "unknown" and "no such time" in r.error


def test_withdrawing_a_stance_in_a_reply_to_mail_with_no_intent_is_left_to_the_thread():
    (name, args), = actions("Fair point. I withdraw my objection.", vocab("Dana", replying=True))
    assert name == "withdraw_stance" and not args.get("target")
    assert [k for k, _, _ in read("I withdraw my objection.", vocab("Dana"))] == ["incomplete"]


# ------------------------------------------------------------ joining (4E4)

def joins(text):
    return [a for n, a in actions(text, vocab(None)) if n == "join"]


@pytest.mark.parametrize("text, name, recruiters", [
    ("Hello! I'm Petra and I'd like to become a player. Alice, Bob and Chuck all told me I should, "
     "so they're my recruiters.", "Petra", "Alice, Bob, Chuck"),
    ("I'd like to join B Nomic. Please call me McFeely. Wooble and Dana\ntalked me into it over a pint.",
     "McFeely", "Wooble, Dana"),
    ('I request to join B Nomic, to be known as "Marigold". My recruiters,\nsuch as they are, are Bob and Dana.',
     "Marigold", "Bob, Dana"),
])
def test_the_newcomers_name_and_recruiters_said_anywhere_in_the_request(text, name, recruiters):
    (args,) = joins(text)
    assert args["name"].strip('"') == name and args["recruiters"] == recruiters


def test_im_before_no_name_names_no_one():
    assert joins("I'm new here and I'd like to join.") == []


# ------------------------------------------------------ the Registrar's display: addresses

@pytest.mark.parametrize("text, address", [
    ("Please add bob.nomic@example.org as an address I post from.", "bob.nomic@example.org"),
    ("Registrar, please note that I also post from alice.b@fastmail.example now.", "alice.b@fastmail.example"),
    ("I also post from ais523@bham.example, please add it to my entry.", "ais523@bham.example"),
])
def test_an_address_the_sender_asks_to_have_added_is_its_own(text, address):
    assert actions(text) == [("add_address", {"name": address})]


def test_please_remove_an_address_from_my_entry():
    assert actions("Please remove bob@old.example from my entry.") == [("remove_address", {"name": "bob@old.example"})]


def test_a_request_to_others_that_names_an_address_is_still_theirs():
    assert actions("Please give m5 to bob@example.org.") == []


def test_its_color_after_the_proposal_just_submitted_names_that_proposal():
    got = read('I submit a Proposal titled "Registrar Pay" with body\n\n{{\nSet A Few to 5.\n}}\n\n'
               "and set its Proposal Color to Beige.")
    assert got[-1] == ("action", "color_proposal", {"number": "new", "color": "Beige"})


# ------------------------------------------- a proposal submitted under a label (4E15)

@pytest.mark.parametrize("text, title", [
    ('Proposal "Vote Words" (no conflicts, no dependencies):\n{{\nIn Rule 4E15, replace "a" with "b".\n}}\n'
     "I've seen three yes votes thrown out this nweek; enough.", 'Vote Words'),
    ('Proposal: "Less Mackerel, More Fish"\n\nAmend Rule 4E34 by replacing "m25" with "m20".', 'Less Mackerel, More Fish'),
    ("Proposal: amend Rule 4E31 so that nday 13 is removed from the Calendar.", None),
])
def test_a_proposal_under_a_label_is_submitted(text, title):
    r, = grammar.read(text, vocab())
    assert r.kind == "action" and r.spec.name == "submit_proposal" and r.args.get("document")
    assert r.args.get("title") == title


@pytest.mark.parametrize("text", ["Proposal 12: FOR", "Proposal: let us all meet on IRC tonight."])
def test_a_label_over_a_vote_or_over_talk_submits_nothing(text):
    assert all(n != "submit_proposal" for n, _ in actions(text))


@pytest.mark.parametrize("text", ["I resign from all my Ministries.", "I resign from every Ministry I hold."])
def test_resigning_from_all_ones_ministries_is_one_resignation_each(text):
    v = vocab("Alice", holders={"Change": "Alice", "Law": "Alice", "Society": "Bob"})
    assert sorted(a["ministry"] for n, a in actions(text, v) if n == "resign_ministry") == ["Change", "Law"]


# ----------------------------------- the thing acted on, named in the capacity said (4E18, 4E72)

@pytest.mark.parametrize("text, name, role, number", [
    ("As Priest of Consultation 5 I request that the Oracle ZOT it.", "request_zot", "which", "5"),
    ("As a member of the Jury for Indictment 2, I find Wooble guilty.", "verdict", "number", "2"),
    ("As Priest of Consultation 5, I answer it TRUE.", "answer_consultation", "which", "5"),
])
def test_the_one_thing_the_sentence_names_is_what_the_attempt_acts_on(text, name, role, number):
    v = vocab("Dana", consultations=(5, 6), indictments=(2, 3))
    (n, args), = actions(text, v)
    assert (n, args[role]) == (name, number)


def test_two_things_named_are_not_chosen_between():
    v = vocab("Dana", consultations=(5, 6))
    assert [k for k, _, _ in read("As Priest of Consultation 5 and of Consultation 6, I request that the Oracle "
                                  "ZOT it.", v)] != ["action"]


def test_a_complete_action_before_a_colon_and_its_details_after():
    v = vocab("Chuck", consultations=(5,))
    assert actions("I tally the Claims on Consultation 5: one Consistent (Bob), one Inconsistent (Alice).", v) == [
        ("tally_claims", {"which": "5"})]
    assert [a["which"] for n, a in actions("I vote FOR 12: AGAINST 13.") if n == "vote"] == ["12", "13"]


@pytest.mark.parametrize("text, claim", [("Consistent.", "Consistent"), ("Consistent, for what it's worth.", "Consistent"),
                                         ("Inconsistent. The wiki was designated Public.", "Inconsistent")])
def test_a_claim_said_first_in_a_reply_to_an_answer(text, claim):
    assert actions(text, vocab("Bob", replying=True, replied_answers=(5,))) == [
        ("claim_consultation", {"which": "5", "claim": claim})]


@pytest.mark.parametrize("v", [dict(replying=True), dict(replying=True, replied_answers=(5, 6))])
def test_a_claim_word_alone_elsewhere_claims_nothing(v):
    assert actions("Consistent.", vocab("Bob", **v)) == []


def test_a_few_words_that_do_nothing_head_the_actions_after_a_colon():
    assert [(a["vote"], a["which"]) for n, a in actions("vote changes: 12 now AGAINST, 14 now FOR")] == [
        ("AGAINST", "12"), ("FOR", "14")]
