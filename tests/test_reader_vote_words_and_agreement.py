"""A Vote word standing alone in a mail that reads to nothing else, agreement with quoted
actions followed by the sender's own words, several Votes in a clause that does not read whole,
and an attempt named by its action's own word.

Rule 4E15: "A Registered Voter may submit a Vote on an Open proposal at any time. The Vote
must be one of the words FOR, AGAINST, ABSTAIN, or SHELVE; other words are ignored." Rule
4E7: "Unambiguous targets and parameters specified in Game Actions are valid regardless of
capitalization, punctuation, or exact wording." The game: tests/reader_world.py."""
import pytest

from reader_world import actions, read, vocab, votes


# ---- a Vote word alone, the other words ignored (Rule 4E15)

@pytest.mark.parametrize("text, expected", [
    ("Let it be recorded that Proposal 11 is hereby voted AGAINST by me.", [("AGAINST", "11")]),
    ("Please count me as FOR on 10 through 13.\n\n-- Bob", [("FOR", "10, 11, 12, 13")]),
    ("My position on Proposal 16, for the record: SHELVE.", [("SHELVE", "16")]),
    ("Proposal 12: ABSTAIN from me, it does nothing either way", [("ABSTAIN", "12")]),
])
def test_a_vote_word_with_its_proposal_is_the_vote_whatever_the_other_words(text, expected):
    assert votes(text, vocab("Bob")) == expected


def test_a_vote_word_alone_in_a_reply_is_on_the_one_proposal_quoted():
    got = actions("Fine, put me down as AGAINST then.", vocab("Bob", replying=True),
                  quoted="Proposal 13 needs a few more votes.")
    assert got == [("vote", {"vote": "AGAINST", "which": "13"})]


@pytest.mark.parametrize("text", [
    "If 14 passes I'll be AGAINST 16.",                              # a condition (Rule 4E7)
    "I would be FOR 13 if it didn't starve the Beast.",             # a hypothetical
    "Chuck is AGAINST 12, apparently.",                               # another Player's
    "You should all be FOR 10.",                                     # said to others
    "Does a SHELVE count towards quorum? Asking before I SHELVE 12.",  # spoken of, and a plan
    "So your Final Vote on 13 is AGAINST.",                          # another's
    "Last nweek I scheduled a vote FOR 13 for Ballotday.",          # a past
    "Not AGAINST 12 any more, just undecided.",                     # a denial
    "Example for newcomers:\n\n    I vote FOR 10.\n\nWrite your own.",   # shown, indented
    "PROPOSAL 12 IS FOR CLOCKS.",                                    # shouting is no Vote
    "FOR 12, 14 and AGAINST 16 is how the ballot went.",            # two Vote words: not this way
])
def test_a_vote_word_said_otherwise_than_as_done_is_no_vote(text):
    assert votes(text, vocab("Bob")) == []


def test_a_vote_word_is_not_looked_for_beside_what_the_mail_does_read():
    # the mail reads to a gift: a Vote word elsewhere in it is left to the frames
    assert actions("I give m5 to Alice. The Fishy Business gets AGAINST 10 from Chuck, I hear.",
                   vocab("Bob")) == [("give", {"amount": "m5", "player": "Alice"})]


def test_a_vote_word_with_a_number_no_proposal_has_is_no_vote():
    assert votes("AGAINST, for 3 reasons: 40 of them at least.", vocab("Bob")) == []


# ---- agreement, then the sender's own words

def test_same_except_casts_the_exception_and_asks_about_the_rest():
    got = read("Same, except AGAINST 13 because I like a fat Beast.", vocab("Wooble"),
               quoted="I vote FOR 10, 11, 12, 13 and 15.")
    assert [(r.kind, r.args.get("vote"), str(r.args.get("which"))) for r in got if r.kind == "action"] == [
        ("action", "AGAINST", "13")]
    (asked,) = [r for r in got if r.kind == "ambiguous"]
    assert len(asked.alternatives) == 5                      # FOR on 10, 11, 12, 15, or nothing
    assert not any("13" in a for a in asked.alternatives[:-1])
    assert asked.alternatives[-1].startswith("nothing")


def test_ditto_on_one_proposal_but_another_vote_on_the_next():
    got = read("Ditto on 10, but FOR 11. Socks for all!", vocab("Dana"), quoted="I vote FOR 10 and AGAINST 11.")
    assert [(r.args.get("vote"), str(r.args.get("which"))) for r in got if r.kind == "action"] == [("FOR", "11")]
    (asked,) = [r for r in got if r.kind == "ambiguous"]
    assert len(asked.alternatives) == 2 and "10" in asked.alternatives[0] and "FOR" in asked.alternatives[0]


def test_same_as_a_player_on_some_proposals_is_asked_about_those():
    got = read("Same as Alice on 10 through 11.", vocab("Bob"), quoted="I vote FOR 10, 11 and 12.")
    (asked,) = got
    assert asked.kind == "ambiguous" and len(asked.alternatives) == 3
    assert not any("12" in a for a in asked.alternatives)


def test_agreed_with_a_vote_of_ones_own_casts_it_and_asks_nothing():
    got = read("Agreed, AGAINST from me too.", vocab("Wooble", replying=True, replied_proposals=(13,)),
               quoted="I vote AGAINST 13, and I urge everyone else to do the same.")
    assert [(r.kind, r.args.get("vote"), str(r.args.get("which"))) for r in got] == [("action", "AGAINST", "13")]


def test_agreement_with_quoted_votes_bnomic_cannot_read_is_told_never_passed_over():
    (r,) = read("me too", vocab("Dana"), quoted="Re Proposal 12\nVote: FOR")
    assert r.kind not in ("action", "ambiguous") and "4E15" in r.error


@pytest.mark.parametrize("text, quoted", [
    ("Same problem as 12, I think.", "I vote FOR 12."),
    ("Same.", "Let's all go to the pub."),
    ("Same as 12, really.", "I vote FOR 12."),
])
def test_a_likeness_or_agreement_with_no_action_is_no_action_and_no_question(text, quoted):
    assert read(text, vocab("Dana"), quoted=quoted) == []


# ---- an attempt named by its action's own word, though no role is filled (Rule 4E7: told)

@pytest.mark.parametrize("text, action", [
    ("I pay part of my fine. Happy now?", "pay_fine"),                       # Rule 4E74's fine
    ("I select Fish Rain as the Trick to be performed.", "select_trick"),    # Rule 4E71's Trick
])
def test_an_attempt_that_names_its_action_is_told_never_passed_over(text, action):
    (r,) = read(text, vocab("Wooble"))
    assert (r.kind, r.spec.name) == ("incomplete", action)


@pytest.mark.parametrize("text", [
    "I'll publish the Ballot on schedule.",                      # a plan
    "They can't do anything with it except make and destroy socks.",
    "I exchange 4 points for mackerel, according to Rule 4E34 at rate 5.",   # its number said
])
def test_no_attempt_is_told_where_the_action_is_planned_or_its_roles_are_said(text):
    assert not any(r.kind == "incomplete" and not r.args for r in read(text, vocab("Wooble")))


# ---- several Votes in one clause that does not read whole: each Vote word with its proposals

def test_each_vote_of_a_clause_that_does_not_read_whole_is_cast_and_the_rest_told():
    got = read("I vote FOR 11 obviously since it's mine and AGAINST 13 because the Beast is hungry enough "
               "already", vocab("Wooble"))
    assert [(r.kind, r.args.get("vote"), str(r.args.get("which"))) for r in got if r.kind == "action"] == [
        ("action", "AGAINST", "13")]
    assert any(r.kind == "incomplete" for r in got)           # "FOR 11 obviously since": told


def test_a_vote_then_a_vote_word_with_no_proposal_casts_the_first_and_tells_the_second():
    got = read("I vote FOR 10 and AGAINST.", vocab("Alice"))
    assert [(r.kind, r.args.get("vote"), str(r.args.get("which"))) for r in got] == [
        ("action", "FOR", "10"), ("incomplete", "AGAINST", "None")]


@pytest.mark.parametrize("text", [
    "I vote FOR 13 and AGAINST it.",                      # contradictory: nothing split
    "Votes: 10 FOR, 11 FOR, 12 F, 13 AGAINTS",            # a ballot, each proposal before its Vote
    "I vote FOR Proposal 10 and Proposal 12=2C and AGAINST Proposal 1=\n6.",   # no proposal 1
])
def test_a_clause_is_not_split_where_its_votes_contradict_or_name_no_proposal_of_the_game(text):
    got = read(text, vocab("Alice"))
    assert not any(r.kind == "action" and r.args.get("vote") == "AGAINST" for r in got)
