"""Forms players write that the rules' own words allow (Rule 4E7: "regardless of
capitalization, punctuation, or exact wording"), and ambiguity refused and said.

Rule 4E7: an action's targets must be unambiguous; "to Alice or Bob" names two. Rule
4E0, step 7: a PEP's Ballot "shall rank some (or all) of the Refresh Proposals in order
of preference". Rule 4E12: a Transaction's beginning and end. Rule 4E69: the Proposal
Color of a Pending proposal. Rule 4E71: the Ranger "select[s] a Trick to be performed"."""
import pytest

import bnomic.handlers.engine  # noqa: F401  (registers every action)
from bnomic.handlers import grammar
from bnomic.handlers.vocabulary import Vocabulary

VOCAB = Vocabulary(players=("Alice", "Bob", "Chuck", "Wooble", "Dana", "The Beast"), actor="Dana",
                   beast="The Beast", proposals={12: ("Clock Fix", "Bob"), 17: ("Quiet Nweek", "Chuck")},
                   open_proposals=(12,), refresh={1: "Alice", 2: "Bob", 3: "Chuck"})


def read(text):
    return grammar.read(text, VOCAB)


@pytest.mark.parametrize("text,either", [
    ("I give m5 to Alice or Bob, whoever has less.", ("give m5 to Alice", "give m5 to Bob")),
    ("I give m20 to Chuck or Wooble, whichever of you is poorer.", ("give m20 to Chuck", "give m20 to Wooble")),
    ("I vote FOR or AGAINST 12.", ("vote FOR on 12", "vote AGAINST on 12")),
])
def test_either_of_two_values_is_ambiguous_and_says_both(text, either):
    (r,) = read(text)
    assert r.kind == "ambiguous" and tuple(r.alternatives) == either


@pytest.mark.parametrize("text", ["RP3 > RP1 > RP2", "RP 3 > RP 1 > RP 2", "My ballot: RP3, RP1, RP2"])
def test_a_ranking_of_refresh_proposals_alone(text):
    (r,) = read(text)
    assert (r.kind, r.spec.name, r.args["ranking"]) == ("action", "rank_refresh_proposals", "3, 1, 2")


def test_bare_numbers_with_arrows_rank_only_where_those_refresh_proposals_are():
    # (2026-11-24: "3 > 1 > 2" is a Ballot during an Emergency that has Refresh Proposals 1-3,
    # as officers read it; elsewhere it ranks nothing)
    assert [r.args["ranking"] for r in read("3 > 1 > 2") if r.kind == "action"] == ["3, 1, 2"]
    outside = Vocabulary(players=VOCAB.players, actor="Dana", beast="The Beast", proposals=VOCAB.proposals)
    assert [r for r in grammar.read("3 > 1 > 2", outside) if r.kind == "action"] == []


@pytest.mark.parametrize("begin,end", [("BEGIN TRANSACTION", "END TRANSACTION"),
                                       ("Transaction start", "Transaction end"),
                                       ("Start of transaction:", "End of transaction.")])
def test_the_ends_of_a_transaction(begin, end):
    (r,) = read(f"{begin}\n- I give m5 to Bob\n- I assert that I still hold m5\n{end}\n")
    assert r.kind == "transaction" and [s.kind for s in r.steps] == ["action", "assertion"]


def test_a_proposal_named_by_its_number_possessive():
    (r,) = read("I change 17's color to Blue.")
    assert r.kind == "action" and str(r.args["number"]) == "17" and r.args["color"] == "Blue"


@pytest.mark.parametrize("text,trick", [("I select Trick 2 (Fish Rain) to be performed.", "2"),
                                        ("I select the Trick the Beast performs.", None)])
def test_the_trick_selected_may_be_named(text, trick):
    (r,) = read(text)
    assert r.kind == "action" and r.spec.name == "select_trick" and r.args.get("trick") in (trick, None)
    assert (r.args.get("trick") is None) == (trick is None)
