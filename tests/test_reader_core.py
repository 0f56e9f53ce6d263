"""The frame reader's mechanism (docs/reader.md): structure, typed tokens, frames,
choice and feedback, read through `grammar.read` with a game's vocabulary.

Sentences come from the rules' own words (4E7, 4E12, 4E15, 4E33) and from the
kinds of failure issue 13 lists; the rule areas' own wordings are tested beside
them (tests/test_frames_*.py).
"""
from __future__ import annotations

import pytest

from bnomic.config import Config, defaults
from bnomic.handlers import grammar
from bnomic.handlers.frames import frame, role
from bnomic.handlers.lexer import lex
from bnomic.handlers.ministries import aliases
from bnomic.handlers.registry import ACTIONS, action
from bnomic.handlers.lexer import clash
from bnomic.handlers.vocabulary import Vocabulary

VOCAB = Vocabulary(players=("Alice", "Bob", "Chuck", "Wooble", "Ais523", "Dana", "The Beast"),
                   actor="Dana", beast="The Beast", ministries=aliases(Config(defaults())),
                   holders={"Change": "Alice", "Society": "Bob"})


def read(text: str, vocab: Vocabulary = VOCAB):
    return [(r.kind, r.spec.name if r.spec else None, r.args, r.times) for r in grammar.read(text, vocab)]


# ------------------------------------------------------------------ tokens

def test_typed_tokens_are_resolved_against_the_vocabulary():
    toks = lex("I pay the Chairman ten macks and Wooble's m 5 for P12, #14 and Rule 4E9", VOCAB)
    senses = [t.senses[0] for t in toks if t.senses]
    assert ("player", "Alice") in [s for t in toks for s in t.senses]       # the Chairman holds Change
    assert ("ministry", "Change") in [s for t in toks for s in t.senses]
    assert ("amount", "m10") in senses and ("amount", "m5") in senses
    assert ("ref", ("proposal", 12)) in senses and ("ref", (None, 14)) in senses
    assert ("ref", ("rule", "4E9")) in senses
    assert next(t for t in toks if t.has("player") and t.sense("player") == "Wooble").possessive


@pytest.mark.parametrize("text", ["I give m5 to Wooble", "i GIVE M5 TO WOOBLE!", "I give 5 mackerel to wooble.",
                                  "I hereby give five macks to Wooble, please", "I pay Wooble m5",
                                  "To Wooble I give m5", "I give m 5 to Wooble"])
def test_exact_wording_does_not_matter(text):
    """Rule 4E7: parameters are valid regardless of capitalization, punctuation or exact wording."""
    assert read(text) == [("action", "give", {"amount": "m5", "player": "Wooble"}, 1)]


# ------------------------------------------------------------------ frames

def test_one_verb_over_several_objects_and_a_list_of_votes():
    assert read("I give m5 to Wooble and m3 to Bob") == [
        ("action", "give", {"amount": "m5", "player": "Wooble"}, 1),
        ("action", "give", {"amount": "m3", "player": "Bob"}, 1)]
    assert read("ABSTAIN on 3, SHELVE on 4, FOR on 5, 6 and 8, and AGAINST on 9") == [
        ("action", "vote", {"vote": "ABSTAIN", "which": "3"}, 1),
        ("action", "vote", {"vote": "SHELVE", "which": "4"}, 1),
        ("action", "vote", {"vote": "FOR", "which": "5, 6, 8"}, 1),
        ("action", "vote", {"vote": "AGAINST", "which": "9"}, 1)]


@pytest.mark.parametrize("text", ["I give Wooble a hug.", "I pay attention to Wooble's posts.",
                                  "I gave m5 to Wooble yesterday.", "Should I give m5 to Wooble?",
                                  "I think I'll give m5 to Wooble.", "Wooble gives m5 to Bob.",
                                  "for 12 years nobody voted", "I want to talk about proposal 12."])
def test_conversation_reads_to_nothing(text):
    assert read(text) == []


def test_a_dropped_role_is_named():
    (r,) = grammar.read("I give m5.", VOCAB)
    assert r.kind == "incomplete" and r.spec.name == "give" and r.missing == ("player",)
    (r,) = grammar.read("I vote yes on 12.", VOCAB)
    assert r.kind == "incomplete" and r.missing == ("vote",) and r.unread == ("yes",)


def test_a_typo_in_the_verb_is_reported_with_the_verb_meant():
    (r,) = grammar.read("I giev m5 to Wooble.", VOCAB)
    # the sentence as it would read with the verb meant (Rule 4E7: told, never done)
    assert r.kind == "unknown" and r.suggestions == ("I give m5 to Wooble",) and "“give”" in r.error


def test_two_readings_that_tie_are_refused_and_both_named():
    """Rule 4E7 accepts only unambiguous targets: when two actions read the clause
    equally well, nothing is done and the reading says both."""
    @action("_test_tie_a", frame("frobnicate", "player:player[to]"), rule="4E7", example="")
    def a(ctx, actor, player):
        pass

    @action("_test_tie_b", frame("frobnicate", "player:player[to]"), rule="4E7", example="")
    def b(ctx, actor, player):
        pass
    try:
        (r,) = grammar.read("I frobnicate to Wooble", VOCAB)
        assert r.kind == "ambiguous" and len(r.alternatives) == 2
    finally:
        del ACTIONS[-2:]


def test_a_condition_is_not_an_action():
    (r,) = grammar.read("I give m5 to Wooble if he asks.", VOCAB)
    assert r.kind == "unknown" and "conditional" in r.error


# ------------------------------------------------------------------ structure

def test_a_document_inline_in_braces_ends_where_its_braces_do():
    @action("_test_doc", frame("submit|file", role("what:choice", {"frobnication": "x"})),
            rule="4E8", example="", document="frobnication")
    def d(ctx, actor, what, document=""):
        pass
    try:
        rs = grammar.read("I submit the following frobnication: {{ Amend Rule 4E1 to read: {{ x }} "
                          "and I vote FOR 3 }}\nI give m5 to Wooble.", VOCAB)
        assert [r.spec.name for r in rs] == ["_test_doc", "give"]
        assert rs[0].args["document"] == "Amend Rule 4E1 to read: {{ x }} and I vote FOR 3"
    finally:
        del ACTIONS[-1:]


def test_a_ballot_written_as_a_list_under_a_header():
    assert read("I vote as follows:\n12 FOR\n13: AGAINST\n- SHELVE 14\n\nThanks!") == [
        ("action", "vote", {"vote": "FOR", "which": "12"}, 1),
        ("action", "vote", {"vote": "AGAINST", "which": "13"}, 1),
        ("action", "vote", {"vote": "SHELVE", "which": "14"}, 1)]


def test_step_labels_in_a_transaction_are_not_words_of_the_step():
    (t,) = grammar.read("BEGIN TRANSACTION\nStep 1: I give m5 to Wooble.\n2. I vote FOR 12.\n"
                        "END TRANSACTION", VOCAB)
    assert [s.spec.name for s in t.steps] == ["give", "vote"]


def test_reading_is_the_same_without_a_vocabulary_for_plain_names():
    assert read("I give m5 to Wooble", Vocabulary()) == [
        ("action", "give", {"amount": "m5", "player": "Wooble"}, 1)]


# ------------------------------------------------------------------ names

@pytest.mark.parametrize("name", ["FOR", "Chairman", "the Doctor", "Proposal", "m10", "Me"])
def test_a_name_that_is_a_word_of_the_game_clashes(name):
    assert clash(name, Config(defaults()))


def test_an_ordinary_name_does_not_clash():
    assert clash("Wooble", Config(defaults())) is None


def test_an_unknown_name_gets_the_player_meant_as_a_suggestion_only():
    (r,) = grammar.read("I give m5 to Woobel", VOCAB)
    assert r.kind == "action" and r.args["player"] == "Woobel"       # taken as written: never resolved
    assert r.hints == ("Woobel → Wooble",)


@pytest.mark.parametrize("text", ["I, Dana, hereby give m3 to Wooble...", "I give m3 to Wooble, grudgingly.",
                                  "I give m3 to Wooble (who asked nicely).", "Per Rule 4E33, I give m3 to Wooble",
                                  "I give m3 to Wooble (Rule 4E33)"])
def test_asides_citations_and_the_writers_own_name_are_not_parts_of_the_action(text):
    assert read(text) == [("action", "give", {"amount": "m3", "player": "Wooble"}, 1)]


def test_an_aside_may_name_things_the_action_has_no_part_for():
    assert read("I vote FOR on 12 -- and no, Bob didn't pay me.") == [
        ("action", "vote", {"vote": "FOR", "which": "12"}, 1)]


PROPOSALS = Vocabulary(players=("Alice", "Bob", "Dana"), actor="Bob",
                       proposals={12: ("Clock Fix", "Bob"), 13: ("Beast Diet", "Dana"),
                                  14: ("Clock Fix II", "Bob"), 15: ("Tidy Up", "Dana")},
                       replied_proposals=(15,))


@pytest.mark.parametrize("text, which", [
    ("I vote AGAINST on Clock Fix II.", "14"), ("I vote AGAINST the Beast Diet proposal.", "13"),
    ("I vote AGAINST on Bob's proposals.", "12, 14"), ("AGAINST on this one.", "15"),
    ("I vote AGAINST on 12 through 14.", "12, 13, 14"), ("I change my vote on 15 to AGAINST.", "15")])
def test_proposals_named_by_title_author_reply_and_range(text, which):
    assert read(text, PROPOSALS) == [("action", "vote", {"vote": "AGAINST", "which": which}, 1)]


def test_a_reference_that_names_two_things_is_ambiguous():
    (r,) = grammar.read("I vote AGAINST Bob's proposal.", PROPOSALS)
    assert r.kind == "ambiguous" and r.alternatives == ("vote AGAINST on 12", "vote AGAINST on 14")


def test_a_request_about_ones_own_things_is_in_the_first_person_but_one_to_others_is_not():
    assert read("Please convert four of my points into macks.") == [
        ("action", "exchange", {"number": "4", "wanted": "mackerel"}, 1)]
    assert read("Please vote FOR 12.") == [] and read("Please give me m5.") == []


GAME = Vocabulary(players=("Alice", "Bob", "Chuck", "Wooble", "Ais523", "Dana"), actor="Dana",
                  ministries=aliases(Config(defaults())),
                  proposals={10: ("Fishy Business", "Alice"), 11: ("Sock Amnesty", "Wooble"),
                             12: ("Clock Fix", "Bob"), 13: ("Beast Diet", "Ais523")})


@pytest.mark.parametrize("text, votes", [
    ("10. Fishy Business: FOR\n11. Sock Amnesty - AGAINST", [("FOR", "10"), ("AGAINST", "11")]),
    ("Proposal 12 (Clock Fix): FOR", [("FOR", "12")]),
    ("I vote FOR proposals 10-13.", [("FOR", "10, 11, 12, 13")]),
    ("I vote against Proposal 11 and for Proposal 12.", [("AGAINST", "11"), ("FOR", "12")]),
    ("P10 - FOR, P11 - AGAINST, P12 - ABSTAIN", [("FOR", "10"), ("AGAINST", "11"), ("ABSTAIN", "12")]),
    ("I vote: 10 FOR, 11 AGAINST, 12 SHELVE.", [("FOR", "10"), ("AGAINST", "11"), ("SHELVE", "12")]),
    ("I am voting FOR Clock Fix.", [("FOR", "12")]),
    ('I vote "FOR" on proposal 12.', [("FOR", "12")]),
    ("12 => FOR", [("FOR", "12")]),
    ("My votes for this nweek are as follows:\n10: FOR\n11: AGAINST", [("FOR", "10"), ("AGAINST", "11")]),
])
def test_ballots_as_players_write_them(text, votes):
    """Rule 4E15: FOR, AGAINST, ABSTAIN or SHELVE on Open proposals, in the forms real
    ballots take: a number before or after its vote, titles, ranges, lists."""
    assert read(text, GAME) == [("action", "vote", {"vote": v, "which": w}, 1) for v, w in votes]


@pytest.mark.parametrize("text", ["Tomorrow, I give m3 to Wooble.", "In 2 days I give m3 to Wooble.",
                                  "On September 3rd, I give m3 to Wooble.", "On the 3rd at noon UTC, I give m3 to Wooble."])
def test_a_time_bnomic_cannot_keep_is_refused_not_done_now(text):
    """Rule 4E7: an action for later is done at a time the rules name; any other time
    is not read as 'now'."""
    (r,) = grammar.read(text, VOCAB)
    assert r.kind == "unknown" and "no such time" in r.error


def test_a_circumstance_before_i_is_not_a_part_of_the_action():
    assert read("Having waited the two ndays, I give m3 to Wooble.") == [
        ("action", "give", {"amount": "m3", "player": "Wooble"}, 1)]
