"""Issue 13: the actions of Judgment (Rule 4E18), Justice (Rules 4E72, 4E73) and the
State of Emergency (Rule 4E0) read through frames (docs/reader.md): each in its own
rule's words and in other wordings a careful officer would accept (Rule 4E7), roles in
any order; each of their `not_actions` reads to nothing; a dropped role is reported by
name. Then the general parts of the frame reader these areas needed."""
from __future__ import annotations

import pytest

from bnomic.config import Config, defaults
from bnomic.handlers import engine  # noqa: F401  (registers every rule area's actions)
from bnomic.handlers import frames, grammar, ministries
from bnomic.handlers.frames import frame, role
from bnomic.handlers.lexer import lex
from bnomic.handlers.registry import ACTIONS
from bnomic.handlers.vocabulary import Vocabulary

AREAS = ("consultations", "justice", "emergency")
MINE = [spec for spec in ACTIONS if spec.fn.__module__.rsplit(".", 1)[-1] in AREAS]

VOCAB = Vocabulary(players=("Wooble", "Ais523", "Bob", "Carol", "Dave", "Frank"), actor="Bob",
                   ministries=ministries.aliases(Config(defaults())),
                   holders={"Questions": "Carol", "Judging": "Frank", "Ministry": "Wooble"},
                   refresh={1: "Wooble", 2: "Carol"})


def one(text: str, vocab=VOCAB) -> grammar.Reading:
    readings = grammar.read(text, vocab=vocab)
    assert len(readings) == 1, [(r.kind, r.spec and r.spec.name, r.args) for r in readings]
    return readings[0]


CASES = [
    # ---- Rule 4E18: the Ordained property
    ("I gain the Ordained Property.", "become_ordained", {}),            # the rule's words
    ("I become Ordained.", "become_ordained", {}),
    ("I ordain myself", "become_ordained", {}),
    ("I would like to become ordained, please", "become_ordained", {}),
    ("I remove my Ordained Property.", "leave_ordained", {}),            # the rule's words
    ("I am no longer Ordained.", "leave_ordained", {}),
    ("I renounce my Ordained property", "leave_ordained", {}),
    ("I will no longer be ordained", "leave_ordained", {}),
    ("I unordain myself", "leave_ordained", {}),
    ("I wish to be Ordained", "become_ordained", {}),
    # ---- Consultations
    ("I submit a Consultation:\nQuestion: Is a Jiffy 3 rdays?", "submit_consultation",
     {"document": "Question: Is a Jiffy 3 rdays?"}),                     # the rule's words
    ("I pose the following Consultation:\nQuestion: Does the Beast vote?\nEND CONSULTATION",
     "submit_consultation", {"document": "Question: Does the Beast vote?"}),
    ("I consult the Oracle:\nQuestion: Is it?", "submit_consultation", {"document": "Question: Is it?"}),
    # the Oracle's hand
    ("I select Bob as the Priest of Consultation 3", "assign_consultation",   # the rule's words
     {"which": "3", "player": "Bob"}),
    ("I assign a priest to Consultation 3: Bob", "assign_consultation", {"which": "3", "player": "Bob"}),
    ("I assign Consultation 3 to Bob.", "assign_consultation", {"which": "3", "player": "Bob"}),
    ("I assign Bob to Consultation #3", "assign_consultation", {"which": "3", "player": "Bob"}),
    ("I reassign Consultation 3.", "assign_consultation", {"which": "3"}),
    ("I reassign the Consultation 3 to a new Priest", "assign_consultation", {"which": "3"}),
    ("I randomly select a Priest for Consultation 3", "assign_consultation", {"which": "3"}),
    ("I assign Consultation 3 at random", "assign_consultation", {"which": "3", "player": "at random"}),
    ("I assign the unnumbered Consultation #2 to a random Priest, as number 7.", "assign_consultation",
     {"which": "2", "unnumbered": "unnumbered", "player": "at random", "number": "7"}),
    ("I assign Consultation 3 to Dave, numbered 9", "assign_consultation",
     {"which": "3", "player": "Dave", "number": "9"}),
    ("I choose 7 as the number of Consultation 3", "number_consultation",   # the rule's words
     {"which": "3", "number": "7"}),
    ("I number Consultation 3 as 7.", "number_consultation", {"which": "3", "number": "7"}),
    ("I renumber Consultation 3 as Consultation 7", "number_consultation", {"which": "3", "number": "7"}),
    ("I set the number of Consultation 3 to 7", "number_consultation", {"which": "3", "number": "7"}),
    ("I give Consultation 3 the number 7", "number_consultation", {"which": "3", "number": "7"}),
    ("I wield the staff of ZOT on Consultation 3.", "zot_consultation", {"which": "3"}),   # the rule's words
    ("I ZOT Consultation 3", "zot_consultation", {"which": "3"}),
    ("I zot consultation #3!", "zot_consultation", {"which": "3"}),
    ("I wield the staff of ZOT against Consultation 3", "zot_consultation", {"which": "3"}),
    ("I declare Consultation 3 ZOTTED", "zot_consultation", {"which": "3"}),
    ("I ZOT Consultation 3 as malformed", "zot_consultation", {"which": "3"}),
    ("I ZOT the unnumbered Consultation #4", "zot_consultation", {"which": "4", "unnumbered": "unnumbered"}),
    ("I request the Oracle to ZOT Consultation 3", "request_zot", {"which": "3"}),   # the rule's words
    ("I request a ZOT of Consultation 3.", "request_zot", {"which": "3"}),
    ("I ask the Oracle to ZOT Consultation 3", "request_zot", {"which": "3"}),
    ("I request that Consultation 3 be ZOTTED", "request_zot", {"which": "3"}),
    ("I ask for a zotting of Consultation 3", "request_zot", {"which": "3"}),
    # the Answer
    ("I answer Consultation 3 YES.", "answer_consultation",                  # the rule's words
     {"which": "3", "word": "YES", "document": ""}),
    ("I answer Consultation 3: Göd Knows", "answer_consultation", {"which": "3", "word": "PARADOX", "document": ""}),
    ("I answer Correct to Consultation 3", "answer_consultation", {"which": "3", "word": "YES", "document": ""}),
    ("My answer to Consultation 3 is False.", "answer_consultation", {"which": "3", "word": "NO", "document": ""}),
    ("I submit my Answer to Consultation 3: YES", "answer_consultation", {"which": "3", "word": "YES", "document": ""}),
    ("I reply to Consultation 3 with Affirmative", "answer_consultation",
     {"which": "3", "word": "YES", "document": ""}),
    ('I answer "God knows" to Consultation 3.', "answer_consultation",
     {"which": "3", "word": "God knows", "document": ""}),
    # a word that is no Answer, or one with its Reasoning, reaches the handler as written
    ("I answer Consultation 3 Perhaps.", "answer_consultation", {"which": "3", "word": "Perhaps", "document": ""}),
    ("I answer Consultation 3 NO, because the rules say so.", "answer_consultation",
     {"which": "3", "word": "NO, because the rules say so", "document": ""}),
    ("I answer Consultation 3 NO.\nReasoning: it is not.\nEND ANSWER", "answer_consultation",
     {"which": "3", "word": "NO", "document": "Reasoning: it is not."}),
    ("I submit an Oracularity for Consultation 3:\nRepeal Rule 4E60", "submit_oracularity",   # the rule's words
     {"which": "3", "document": "Repeal Rule 4E60"}),
    ("I attach the following Oracularity to my answer to Consultation 3:\nRepeal Rule 4E60\nEND ORACULARITY",
     "submit_oracularity", {"which": "3", "document": "Repeal Rule 4E60"}),
    # Claims
    ("I make a Claim regarding Consultation 3 that the Answer is Inconsistent", "claim_consultation",
     {"which": "3", "claim": "Inconsistent"}),                             # the rule's words
    ("I believe the answer and Oracularity of Consultation 3 to be Consistent", "claim_consultation",
     {"which": "3", "claim": "Consistent"}),
    ("I claim Consultation 3 is Inconsistent.", "claim_consultation", {"which": "3", "claim": "Inconsistent"}),
    ("I make a Claim of Consistency on Consultation 3.", "claim_consultation", {"which": "3", "claim": "Consistent"}),
    ("I claim that Consultation 3's answer is consistent", "claim_consultation",
     {"which": "3", "claim": "Consistent"}),
    ("I find Consultation 3 Inconsistent", "claim_consultation", {"which": "3", "claim": "Inconsistent"}),
    ("I tally the Claims on Consultation 3.", "tally_claims", {"which": "3"}),   # the rule's words
    ("I count the claims for Consultation 3", "tally_claims", {"which": "3"}),
    # ---- Rule 4E72: Indictments
    ("I submit an Indictment:\nAccusation: Felony", "submit_indictment", {"document": "Accusation: Felony"}),
    ("I submit the following Indictment against Wooble:\nAccusation: Felony\nEND INDICTMENT",
     "submit_indictment", {"player": "Wooble", "document": "Accusation: Felony"}),
    ("I indict Wooble:\nAccusation: Felony", "submit_indictment", {"player": "Wooble", "document": "Accusation: Felony"}),
    # ---- Rule 4E73: the Jury, verdicts, Punishments
    ("I randomly select a Jury for Indictment 2", "draw_jury", {"number": "2"}),   # the rule's words
    ("I draw the Jury for Indictment 2.", "draw_jury", {"number": "2"}),
    ("I select the jury of indictment #2 at random", "draw_jury", {"number": "2"}),
    ("I select Bob, Carol and Dave as the Jury for Indictment 2.", "name_jury",
     {"players": "Bob, Carol, Dave", "number": "2"}),
    ("I select the Jury for Indictment 2: Bob, Carol and Dave", "name_jury",
     {"players": "Bob, Carol, Dave", "number": "2"}),
    ("The Jury of Indictment 2 is Bob, Carol & Dave.", "name_jury", {"players": "Bob, Carol, Dave", "number": "2"}),
    ("The Jury for Indictment 2 shall be Bob, Carol and Dave", "name_jury",
     {"players": "Bob, Carol, Dave", "number": "2"}),
    ("I deliver an answer of GUILTY on Indictment 2", "verdict", {"number": "2", "answer": "GUILTY"}),
    ("I find the Offender of Indictment 2 GUILTY.", "verdict", {"number": "2", "answer": "GUILTY"}),
    ("I find Wooble not guilty of Indictment #2", "verdict", {"number": "2", "player": "Wooble", "answer": "NOT GUILTY"}),
    ("I answer NOT GUILTY on Indictment 2.", "verdict", {"number": "2", "answer": "NOT GUILTY"}),
    ("My verdict on Indictment 2 is GUILTY.", "verdict", {"number": "2", "answer": "GUILTY"}),
    ("GUILTY on Indictment 2.", "verdict", {"number": "2", "answer": "GUILTY"}),
    ("Indictment 2: NOT GUILTY", "verdict", {"number": "2", "answer": "NOT GUILTY"}),
    ("I vote GUILTY on Indictment 2", "verdict", {"number": "2", "answer": "GUILTY"}),
    ("I assign a Punishment of a fine of m20 to Wooble for Indictment 2", "assign_fine",   # the rule's words
     {"amount": "m20", "player": "Wooble", "number": "2"}),
    ("I assign a fine of m20 to Wooble for Indictment 2.", "assign_fine",
     {"amount": "m20", "player": "Wooble", "number": "2"}),
    ("I fine Wooble 20 macks for Indictment 2.", "assign_fine", {"amount": "m20", "player": "Wooble", "number": "2"}),
    ("I fine Wooble twenty mackerel for Indictment 2", "assign_fine",
     {"amount": "m20", "player": "Wooble", "number": "2"}),
    ("I impose a fine of m20 on Wooble (Indictment 2)", "assign_fine",
     {"amount": "m20", "player": "Wooble", "number": "2"}),
    ("I assign Wooble a fine of m20 for Indictment 2", "assign_fine", {"amount": "m20", "player": "Wooble", "number": "2"}),
    ("I assign a fine of 2 points to Wooble for Indictment 2", "assign_fine",
     {"points": "2", "player": "Wooble", "number": "2"}),
    ("I assign the following Punishment for Indictment 2:\nSet the points of Wooble to 0\nEND PUNISHMENT",
     "assign_punishment", {"number": "2", "document": "Set the points of Wooble to 0"}),
    ("I assign Wooble the following punishment for Indictment 2:\nSet the points of Wooble to 0",
     "assign_punishment", {"number": "2", "player": "Wooble", "document": "Set the points of Wooble to 0"}),
    ("I destroy m20.", "pay_fine", {"amount": "m20"}),                    # the rule's words
    ("I destroy m20 to pay my fine.", "pay_fine", {"amount": "m20"}),
    ("I destroy 20 macks to pay the fine for Indictment 2", "pay_fine", {"amount": "m20", "number": "2"}),
    ("I pay my fine.", "pay_fine", {}),
    ("I pay my fine for Indictment 2 by destroying m20", "pay_fine", {"number": "2", "amount": "m20"}),
    ("I settle my fine", "pay_fine", {}),
    ("I destroy m20 as required by my fine", "pay_fine", {"amount": "m20"}),
    # ---- Rule 4E0: the State of Emergency
    ("I set my Mental State to Paranoid.", "mental_state", {"state": "Paranoid"}),   # the rule's words
    ("I am Paranoid.", "mental_state", {"state": "Paranoid"}),
    ("I'm calm now", "mental_state", {"state": "Calm"}),
    ("My Mental State is now Paranoid", "mental_state", {"state": "Paranoid"}),
    ("I become Paranoid", "mental_state", {"state": "Paranoid"}),
    ("I designate x@example.org as the Emergency Forum.", "designate_forum",   # the rule's words
     {"forum": "x@example.org"}),
    ("I designate the Emergency Forum of Procedure 2 to be the IRC channel #bnomic", "designate_forum",
     {"number": "2", "forum": "the IRC channel #bnomic"}),
    ("I designate the mailing list x@example.org as the Emergency Forum", "designate_forum",
     {"forum": "x@example.org"}),
    ('I name "irc.example.org #bnomic" as the Emergency Forum', "designate_forum",
     {"forum": "irc.example.org #bnomic"}),
    ("I am initializing the Pause.", "initialise_pause", {}),            # the rule's words
    ("I initialise the Pause", "initialise_pause", {}),
    ("I initialize the pause of Procedure 2", "initialise_pause", {"number": "2"}),
    ("I announce my intention to increment the Pause.", "increment_pause", {}),   # the rule's words
    ("I intend to increment the Pause by one", "increment_pause", {}),
    ("I voice objection to incrementing the Pause", "object_increment", {}),   # the rule's words
    ("I object to incrementing the Pause.", "object_increment", {}),
    ("I object to the Coordinator's intention to increment the Pause", "object_increment", {}),
    ("I submit a Refresh Proposal:\nRepeal Rule 4E61", "submit_refresh_proposal",   # the rule's words
     {"document": "Repeal Rule 4E61"}),
    ("I revise my Refresh Proposal:\nRepeal Rule 4E61\nEND REFRESH PROPOSAL", "submit_refresh_proposal",
     {"which": "mine", "document": "Repeal Rule 4E61"}),
    ("I withdraw my Refresh Proposal.", "withdraw_refresh_proposal", {"which": "mine"}),   # the rule's words
    ("I withdraw Refresh Proposal 2", "withdraw_refresh_proposal", {"which": "2"}),
    ("I cast my Ballot: 3, 1, 2", "rank_refresh_proposals", {"ranking": "3, 1, 2"}),   # the rule's words
    ("I rank the Refresh Proposals: 3, 1, 2", "rank_refresh_proposals", {"ranking": "3, 1, 2"}),
    ("I rank RP 3 > RP 1 > RP 2", "rank_refresh_proposals", {"ranking": "3, 1, 2"}),
    ("My ballot is 3, 1 and 2", "rank_refresh_proposals", {"ranking": "3, 1, 2"}),
    ("I vote for Refresh Proposal 2, then Refresh Proposal 1", "rank_refresh_proposals", {"ranking": "2, 1"}),
    ("I rank Carol's Refresh Proposal, then Wooble's Refresh Proposal", "rank_refresh_proposals",
     {"ranking": "2, 1"}),
    ("I initiate another Emergency Procedure.", "parallel_procedure", {}),   # the rule's words
    ("I start a new, parallel Emergency Procedure", "parallel_procedure", {}),
    # Rule 4E60: "... may not submit more than one proposal during the following nweek"
    ("I limit Wooble to one proposal during the following nweek for Indictment 2", "limit_proposals",
     {"player": "Wooble", "number": "2"}),
    ("I impose a limit of at most one proposal during the following nweek on Wooble for Indictment 2",
     "limit_proposals", {"player": "Wooble", "number": "2"}),
]


@pytest.mark.parametrize("text, name, args", CASES)
def test_each_action_in_its_rules_words_and_others(text, name, args):
    r = one(text)
    assert (r.kind, r.spec.name, r.args) == ("action", name, args)


def test_every_action_of_these_areas_is_declared_as_frames_and_read_in_its_example():
    assert len(MINE) == 28                  # 4E60's limit on proposals since issue 15
    for spec in MINE:
        assert spec.frames and spec.says, spec.name
        r = one(spec.example)
        assert (r.kind, r.spec.name) == ("action", spec.name)
    assert {name for _, name, _ in CASES} == {spec.name for spec in MINE}


def test_a_ranked_ballot_written_as_numbered_lines_under_its_header():
    text = "Here is my vote.\n\nMy ranking:\n1. Refresh Proposal 3\n2. Carol's Refresh Proposal\n3. RP 1\n\nCheers"
    r = one(text)
    assert (r.spec.name, r.args) == ("rank_refresh_proposals", {"ranking": "3, 2, 1"})
    r = one("My ballot:\n1. 3\n2. 1\n3. 2")
    assert (r.spec.name, r.args) == ("rank_refresh_proposals", {"ranking": "3, 1, 2"})


def test_the_receipt_echoes_the_reading():
    assert one("I assign Consultation 3 to Bob.").read_as == "select Bob as the Priest of Consultation 3"
    assert one("Indictment 2: NOT GUILTY").read_as == "answer NOT GUILTY on Indictment 2"
    assert one("I fine Wooble 20 macks for Indictment 2").read_as == "fine Wooble m20 for Indictment 2"
    assert one("I'm paranoid").read_as == "set my Mental State to Paranoid"


@pytest.mark.parametrize("spec", MINE, ids=lambda s: s.name)
def test_what_must_read_to_nothing_reads_to_nothing(spec):
    assert spec.not_actions, spec.name
    for text in spec.not_actions:
        assert grammar.read(text, vocab=VOCAB) == [], (spec.name, text)


@pytest.mark.parametrize("text", [
    "I claim the Ministry of Questions", "I assign the Ministry of Judging to myself",
    "I object to this intent", "I object to Wooble's intent to increment Carol's points",
    "I submit the following proposal:\nRepeal Rule 4E60", "I withdraw my proposal",
    "I become the Chairman", "I vote FOR on 3", "I give m5 to Bob", "I answer the phone",
    "I give $10 to Wooble", "I vote MAYBE on 12", "I give 10 to Wooble", "I pay 3 to Bob",
    "I vote FOR 3, 1", "I vote for 12"])
def test_other_actions_words_are_not_read_as_these_areas_actions(text):
    assert not [r for r in grammar.read(text, vocab=VOCAB) if r.spec in MINE and r.kind == "action"]


@pytest.mark.parametrize("text, name, missing", [
    ("I assign a fine of m20 to Wooble", "assign_fine", ("number",)),
    ("I answer YES", "answer_consultation", ("which",)),
    ("I ZOT", "zot_consultation", ("which",)),
    ("I tally the Claims", "tally_claims", ("which",)),
    ("I number Consultation 3", "number_consultation", ("number",)),
    ("I claim Consultation 3 is", "claim_consultation", ("claim",)),
    ("I draw the Jury", "draw_jury", ("number",)),
    ("I find Wooble GUILTY", "verdict", ("number",)),
    ("I name the Jury for Indictment 2", "name_jury", ("players",)),
    ("I set my Mental State", "mental_state", ("state",)),
    ("I designate as the Emergency Forum", "designate_forum", ("forum",)),
    ("I rank the Refresh Proposals", "rank_refresh_proposals", ("ranking",)),
])
def test_a_dropped_role_is_reported_by_name(text, name, missing):
    r = one(text)
    assert (r.kind, r.spec.name, r.missing) == ("incomplete", name, missing)


def test_the_same_readings_without_a_vocabulary():
    """The open world (no vocabulary yet): names are taken as written."""
    for text, name, args in [
            ("I find Wooble GUILTY on Indictment 1.", "verdict", {"number": "1", "player": "Wooble", "answer": "GUILTY"}),
            ("I select Bob, Carol and Dave as the Jury for Indictment 2.", "name_jury",
             {"players": "Bob, Carol, Dave", "number": "2"}),
            ("I assign Wooble a fine of m20 for Indictment 1", "assign_fine",
             {"amount": "m20", "player": "Wooble", "number": "1"}),
            ("I ask the Oracle to ZOT Consultation 1.", "request_zot", {"which": "1"})]:
        r = one(text, vocab=None)
        assert (r.kind, r.spec.name, r.args) == ("action", name, args)


# ------------------------------------------- the general parts these areas needed

def filled(fr, text, vocab=VOCAB):
    f = frames.fill(fr, lex(text, vocab), 2, vocab is None, vocab)
    return f.complete, f.args(), f.unaccounted


def test_an_unmarked_text_role_takes_the_rest_of_the_clause_once_the_other_roles_are_filled():
    fr = frame("answer", "which:consultation[to]", "word:text")
    assert filled(fr, "I answer Consultation 1 Perhaps so") == (True, [{"which": "1", "word": "Perhaps so"}], [])
    assert filled(fr, "I answer Consultation 1 NO, because") == (
        True, [{"which": "1", "word": "NO, because"}], [])
    # not before them: "to nobody" is no Consultation, and nothing is taken as the word
    assert filled(fr, "I answer to nobody")[0] is False
    assert filled(fr, "I answer to nobody")[1] == [{}]


def test_a_token_of_several_words_is_the_frames_own_when_each_word_is():
    fr = frame("initiate", also="another emergency procedure")
    assert filled(fr, "I initiate another Emergency Procedure") == (True, [{}], [])
    assert filled(frame("initiate", also="another emergency"), "I initiate another Emergency Procedure")[0] is False


def test_against_introduces_a_role_as_for_and_to_do():
    fr = frame("indict", "player:player![against]", also="indictment")
    assert filled(fr, "I indict against Wooble") == (True, [{"player": "Wooble"}], [])


def test_a_name_taken_as_written_ends_where_a_word_the_frame_knows_begins():
    fr = frame("find", "number:indictment[on]", "player:player?",
               role("answer:choice", {"guilty": "GUILTY", "not guilty": "NOT GUILTY"}), also="offender")
    assert filled(fr, "I find Wooble not guilty on Indictment 3", vocab=None)[1] == [
        {"number": "3", "player": "Wooble", "answer": "NOT GUILTY"}]
    fr = frame("assign", "amount:amount", "player:player?", also="fine of")
    assert filled(fr, "I assign Wooble a fine of m20", vocab=None)[1] == [{"amount": "m20", "player": "Wooble"}]


def test_a_list_of_names_taken_as_written():
    fr = frame("select", "players:player*", also="jury as the")
    assert filled(fr, "I select Bob, Carol and Dave as the Jury", vocab=None) == (
        True, [{"players": "Bob, Carol, Dave"}], [])


def test_the_plural_kind_word_names_no_one_thing():
    fr = frame("rank", "ranking:refresh*")
    assert filled(fr, "I rank the Refresh Proposals: 3, 1")[1] == [{"ranking": "3, 1"}]
    assert filled(frame("withdraw", "which:refresh"), "I withdraw the Refresh Proposal")[1] == [{"which": "this"}]


def test_a_role_marked_named_takes_a_reference_written_with_its_kind_never_a_bare_number():
    fr = frame("zot", "which:consultation#")
    assert filled(fr, "I zot Consultation 3")[:2] == (True, [{"which": "3"}])
    assert filled(fr, "I zot #3")[:2] == (True, [{"which": "3"}])
    assert filled(fr, "I zot 3")[:2] == (False, [{}])
    assert filled(frame("zot", "which:consultation"), "I zot 3")[:2] == (True, [{"which": "3"}])


def test_a_reference_with_a_possessive_number():
    assert [t.senses for t in lex("Consultation 3's answer")][0] == [("ref", ("consultation", 3))]


def test_a_document_head_is_read_whole_before_it_is_cut_at_its_colon():
    """'I answer Consultation 1: Affirmative' is one sentence: its head alone is an
    attempt read only in part, not an action taking 'Affirmative' as its document."""
    r = one("I answer Consultation 1: Affirmative\nIt is.")
    assert (r.kind, r.args) == ("action", {"which": "1", "word": "YES", "document": "It is."})
