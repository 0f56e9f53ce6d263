"""Votes as players write them (Rule 4E15: "The Vote must be one of the words FOR, AGAINST,
ABSTAIN, or SHELVE ... other words are ignored"):

- a ballot of titles, each with its Vote after a dash, a line each, is read line by line
  (the lines were joined as one the mailer had cut, and read as other Votes);
- "at the moment", "for the time being", "as things stand" after a Vote say when, which is now;
- a heading that names the proposal and a sentence that gives the Vote ("Changing my vote on
  10: I now vote FOR it") are one Vote;
- Vote words alone in a sentence of another language ("Ich stimme FOR 10 und AGAINST 16"),
  each with its proposal.

The game: tests/reader_world.py."""
import pytest

from reader_world import actions, read, vocab, votes


def test_a_ballot_of_titles_is_read_line_by_line():
    text = ("Quick votes before I vanish again:\n\nFishy Business - FOR\nSock Amnesty - FOR\n"
            "Beast Diet - AGAINST\nTidy Up - FOR\n\ncheers,\nBob")
    assert votes(text, vocab("Bob")) == [("FOR", "10"), ("FOR", "11"), ("AGAINST", "13"), ("FOR", "15")]


def test_a_ballot_of_titles_after_colons_too():
    assert votes("Fishy Business: FOR\nBeast Diet: AGAINST", vocab("Bob")) == [("FOR", "10"), ("AGAINST", "13")]


@pytest.mark.parametrize("text, expected", [
    ("I vote FOR 12 at the moment.", [("FOR", "12")]),
    ("I vote AGAINST 13 for the time being.", [("AGAINST", "13")]),
    ("I vote FOR 12, as things stand.", [("FOR", "12")]),
    ("FOR on everything that's open at the moment.", [("FOR", "all")]),
])
def test_now_said_after_a_vote_is_no_part_of_it(text, expected):
    assert votes(text, vocab("Bob")) == expected


@pytest.mark.parametrize("text, expected", [
    ("Changing my vote on 10: I now vote FOR it. Alice's arguments convinced me.", [("FOR", "10")]),
    ("Changing my vote on 10: I now vote FOR it.", [("FOR", "10")]),
])
def test_a_heading_that_names_the_proposal_and_a_vote_after_it_are_one_vote(text, expected):
    got = read(text, vocab("Wooble"))
    assert votes(text, vocab("Wooble")) == expected
    assert [r for r in got if r.kind == "incomplete"] == []


def test_a_heading_and_an_action_that_both_say_the_same_role_stay_apart():
    # (the heading names 10, the sentence names 12: not one Vote)
    got = read("Changing my vote on 10: I now vote FOR 12.", vocab("Wooble"))
    assert ("FOR", "12") in votes("Changing my vote on 10: I now vote FOR 12.", vocab("Wooble"))
    assert not any(r.kind == "action" and str(r.args.get("which")) == "10" for r in got)


@pytest.mark.parametrize("text, expected", [
    ("Ich stimme FOR 10 und AGAINST 16.", [("FOR", "10"), ("AGAINST", "16")]),
    ("Ich stimme FOR 10 und AGAINST 16. (Sorry, my English fails me at\nmidnight.)",
     [("FOR", "10"), ("AGAINST", "16")]),
])
def test_vote_words_alone_each_with_its_proposal(text, expected):
    assert votes(text, vocab("Dana")) == expected


@pytest.mark.parametrize("text", [
    "Wooble said FOR 10 and AGAINST 16.",
    "Should it be FOR 10 or AGAINST 10?",
    "Hm, FOR or AGAINST on 16? Tough.",
    "FOR 10 is not what I meant, AGAINST 16.",
])
def test_vote_words_of_another_or_asked_about_are_no_votes(text):
    assert actions(text, vocab("Dana")) == []


def test_a_ballot_of_items_with_remarks_after_the_vote_is_read_item_by_item():
    text = ("Morning everyone!\nRe Proposal 15: FOR (it's mine, of course)\nRe Proposal 10: FOR\n"
            "Re Proposal 12: SHELVE - needs another pass, the second paragraph contradicts 4E14\nDana x")
    assert votes(text, vocab("Dana")) == [("FOR", "15"), ("FOR", "10"), ("SHELVE", "12")]


@pytest.mark.parametrize("text, expected", [
    ("i'm going AGAINST 12 and FOR 14 since 14 seems to supersede it", [("AGAINST", "12"), ("FOR", "14")]),
    ("I vote AGAINST Proposal 12 and SHELVE on 14, in the hope that Bob resubmits a merged version next nweek.",
     [("AGAINST", "12"), ("SHELVE", "14")]),
    ("I vote AGAINST 12 in the hopes Bob fixes it.", [("AGAINST", "12")]),
])
def test_votes_said_going_or_with_a_hope_after_them(text, expected):
    assert votes(text, vocab("Dana")) == expected


@pytest.mark.parametrize("text", ["I'm going against my instincts here.", "I'm going for 12 of them."])
def test_going_with_no_vote_in_capitals_is_no_vote(text):
    assert actions(text, vocab("Dana")) == []


@pytest.mark.parametrize("text, expected", [
    # Rule 4E15's Votes said as verbs, after "I'll" as after "I will"
    ("I'll abstain on 16.", [("ABSTAIN", "16")]),
    ("I'll shelve 16.", [("SHELVE", "16")]),
    ("I vote SHELVE on 16 rather than kill it.", [("SHELVE", "16")]),
    ("I'll vote SHELVE on 16 rather than AGAINST.", [("SHELVE", "16")]),
])
def test_votes_said_as_verbs_after_ill_and_a_reason_after_rather_than(text, expected):
    assert votes(text, vocab("Chuck")) == expected


def test_shelve_it_in_a_reply_is_the_vote_on_the_proposal_it_answers():
    got = read("agree with Alice but I'll shelve it rather than kill it, the idea's ok",
               vocab("Chuck", replied_proposals=(16,), replying=True))
    assert [(r.args["vote"], str(r.args["which"])) for r in got if r.kind == "action"] == [("SHELVE", "this")]


def test_shelve_said_of_an_idea_is_no_vote():
    assert actions("I'll shelve the idea for now.", vocab("Chuck")) == []
