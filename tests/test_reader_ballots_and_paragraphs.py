"""What a careful officer reads in ballots written line by line, in Votes written under the
lines of a quoted ballot, in a thing named first and then called "it", and in the sender's
own paragraph after a document written without delimiters.

Rule 4E15: "Each Player may vote on each Open Proposal ... one of the words FOR, AGAINST,
ABSTAIN, or SHELVE; other words are ignored." Rule 4E7: "Unambiguous targets and
parameters specified in Game Actions are valid regardless of capitalization, punctuation,
or exact wording." Rule 4E69: a Proposal Color is set by its author."""
import pytest

import bnomic.handlers.engine  # noqa: F401  (registers every action)
from bnomic.handlers import grammar
from bnomic.handlers.vocabulary import Vocabulary, default
from bnomic.mailer.parse import own_words

PLAYERS = ("Alice", "Bob", "Chuck", "Dana", "Wooble", "The Beast")
PROPOSALS = {n: (title, "Bob") for n, title in [(10, "Fishy Business"), (11, "Sock Amnesty"),
                                                (12, "Clock Fix"), (13, "Beast Diet"), (14, "Clock Fix II"),
                                                (15, "Tidy Up"), (16, "Eras Again")]}


def vocab(actor="Dana"):
    return Vocabulary(players=PLAYERS, actor=actor, beast="The Beast", ministries=default().ministries,
                      proposals=PROPOSALS)


def read(text):
    return [(r.kind, r.spec and r.spec.name, {k: str(x) for k, x in r.args.items() if x not in (None, "")})
            for r in grammar.read(text, vocab())]


def votes(text):
    return [(a["which"], a["vote"]) for kind, name, a in read(text) if kind == "action" and name == "vote"]


# ------------------------------------------------- a ballot line, then the voter's own sentence

@pytest.mark.parametrize("text, which, vote", [
    ('Proposal 15 "Tidy Up": ABSTAIN, conflict of interest, I found half those typos.', "15", "ABSTAIN"),
    ("Proposal 15: ABSTAIN, I found half those typos.", "15", "ABSTAIN"),
    ("13 - SHELVE, I want another week on it.", "13", "SHELVE"),
])
def test_a_sentence_of_the_voters_own_after_a_ballot_line_is_no_part_of_the_vote(text, which, vote):
    assert votes(text) == [(which, vote)]


def test_a_second_vote_after_the_comma_is_still_read():
    assert votes("Proposal 15: FOR, I vote AGAINST 16 too.") == [("15", "FOR"), ("16", "AGAINST")]


# ------------------------------------------------- Votes under a quoted ballot (Rule 4E15)

BALLOT_REPLY = """Votes inline:

> 10 Fishy Business (Alice)
FOR
> 11 Sock Amnesty (Wooble)
AGAINST
> 13 Beast Diet (Ais523)
> 14 Clock Fix II (Bob)

SHELVE. Needs another nweek.

Bob
"""


def test_a_vote_under_a_quoted_ballot_entry_is_on_that_proposal():
    assert votes(own_words(BALLOT_REPLY)) == [("10", "FOR"), ("11", "AGAINST"), ("14", "SHELVE")]


def test_an_entry_left_without_a_vote_gets_none():
    assert "13" not in {which for which, _ in votes(own_words(BALLOT_REPLY))}


def test_a_vote_that_names_its_own_proposal_is_read_as_written():
    assert votes(own_words("> 10 Fishy Business (Alice)\nFOR 12, of course.\n")) == [("12", "FOR")]


def test_a_vote_word_under_quoted_prose_names_no_proposal():
    # (the quoted line is no ballot entry: nothing says which proposal the FOR is on)
    assert votes(own_words("> Please vote on the fish one.\nFOR\n")) == []


# ------------------------------------------------- a thing named first, then "it" (Rule 4E7)

@pytest.mark.parametrize("text", [
    "For proposal twelve, I am AGAINST it.",
    "On Proposal 12, I vote AGAINST it.",
    "Proposal 12, I vote AGAINST it.",
])
def test_it_after_a_proposal_named_first_is_that_proposal(text):
    assert votes(text) == [("12", "AGAINST")]


def test_an_intent_named_first_is_the_one_supported():
    assert [(n, a) for k, n, a in read("Intent 4, I support it.") if k == "action"] == [
        ("support", {"target": "4"})]


# ------------------------------------------------- the sender's own paragraph after a document

def test_the_senders_own_paragraph_ends_a_document_written_without_delimiters():
    got = read('I submit the following proposal, "Eras Again Again":\n\n'
               'Rule 4E9 is amended by appending: "The Fifth Era of B Nomic begins now."\n\n'
               "and I set its color to Beige.")
    submitted = [a for k, n, a in got if n == "submit_proposal"]
    assert len(submitted) == 1 and "Beige" not in submitted[0]["document"]
    assert ("action", "color_proposal") in [(k, n) for k, n, a in got]


def test_a_paragraph_that_takes_no_action_stays_in_the_document():
    got = read("I submit the following proposal:\n\nThe Beast may vote.\n\nI think this is overdue.")
    submitted = [a for k, n, a in got if n == "submit_proposal"]
    assert len(submitted) == 1 and "overdue" in submitted[0]["document"]


def test_a_player_written_into_the_document_without_i_stays_in_it():
    got = read("I submit the following proposal:\n\nThe Beast may vote.\n\nWooble gives m5 to the Beast.")
    submitted = [a for k, n, a in got if n == "submit_proposal"]
    assert len(submitted) == 1 and "Wooble gives m5" in submitted[0]["document"]
    assert not [n for k, n, a in got if n == "give"]


def test_it_after_a_proposal_named_first_without_a_comma():
    assert votes("proposal 16 I am AGAINST it.") == [("16", "AGAINST")]


def test_it_in_a_remark_after_the_vote_is_not_the_proposal_named_first():
    assert votes("On 12 I vote ABSTAIN, since I wrote half of it and don't want the point either way.") == [
        ("12", "ABSTAIN")]


def test_votes_after_a_lead_in_that_says_it_votes():
    assert votes("I want to make vote: proposal 10 is FOR, proposal 13 also FOR, proposal 16 I am AGAINST it.") == [
        ("10", "FOR"), ("13", "FOR"), ("16", "AGAINST")]


# ------------------------------------------------- taking back, and saying nothing is done (Rule 4E7)

def test_no_not_really_after_an_action_takes_it_back():
    assert read("I forfeit.\n\n(No, not really. But I was tempted after that last Ballot.)") == []


def test_not_really_sure_about_another_thing_takes_nothing_back():
    assert votes("I vote FOR 12. Not really sure about 13 yet.") == [("12", "FOR")]


def test_a_sender_who_says_none_of_what_follows_is_a_vote_casts_none():
    assert read("[Test of my new mail filter, please ignore. None of the following is\n"
                "a vote, I'm checking the line wrapping.]\n\nFOR 10 FOR 11 FOR 12") == []


# ------------------------------------------------- "Same." under quoted actions (Rules 4E15, 4E7)

def agreeing(text, quoted, v=None):
    return [(r.kind, r.alternatives) for r in grammar.read(text, v or vocab(), quoted=quoted)]


def test_same_under_a_quoted_vote_does_nothing_and_asks():
    got = agreeing("Same.", "I vote FOR 11.")
    assert got == [("ambiguous", ("vote FOR on 11 (as the quoted message)",
                                  "nothing: agreement is no Game Action"))]


@pytest.mark.parametrize("text", ["Me too!", "Ditto", "same here\nDana", "Same as Alice."])
def test_other_words_of_agreement_are_asked_about_the_same_way(text):
    assert [k for k, _ in agreeing(text, "I vote FOR 11 and AGAINST 12.")] == ["ambiguous"]


def test_same_under_quoted_talk_is_talk():
    assert agreeing("Same.", "I think the Beast is hungry.") == []


def test_agreement_with_more_said_is_read_as_written():
    assert votes_quoted("Same, and I vote AGAINST 12 too.", "I vote FOR 11.") == [("12", "AGAINST")]


def votes_quoted(text, quoted):
    return [(a["which"], str(a["vote"])) for r in grammar.read(text, vocab(), quoted=quoted)
            if r.kind == "action" and r.spec.name == "vote" for a in [r.args]]


def test_plus_one_under_an_intent_is_support_or_nothing():
    v = Vocabulary(players=PLAYERS, actor="Dana", beast="The Beast", ministries=default().ministries,
                   proposals=PROPOSALS, intents={4: "Bob"}, replied_intents=(4,), replying=True)
    assert agreeing("+1", "", v) == [("ambiguous", ("support intent 4", "nothing: agreement is no Game Action"))]


def test_plus_one_and_the_word_support_is_support():
    v = Vocabulary(players=PLAYERS, actor="Dana", beast="The Beast", ministries=default().ministries,
                   proposals=PROPOSALS, intents={4: "Bob"}, replied_intents=(4,), replying=True)
    assert [(r.kind, r.spec.name, r.args.get("target")) for r in grammar.read("+1, support.", v)] == [
        ("action", "support", "4")]


# ------------------------------------------------- "the intent", "that": which one (Rule 4E7)

def intents_vocab(**more):
    return Vocabulary(players=PLAYERS, actor="Dana", beast="The Beast", ministries=default().ministries,
                      proposals=PROPOSALS, intents={3: "Wooble", 4: "Bob"}, **more)


def test_the_intent_with_two_open_is_asked_about():
    got = grammar.read("I object to the intent.", intents_vocab())
    assert [(r.kind, r.alternatives) for r in got] == [
        ("ambiguous", ("object to intent 3", "object to intent 4"))]


def test_that_under_mail_that_announced_two_intents_is_asked_about():
    got = grammar.read("I object to that.", intents_vocab(replied_intents=(3, 4), replying=True))
    assert [r.kind for r in got] == ["ambiguous"]


def test_that_under_mail_that_announced_one_intent_is_that_one():
    got = grammar.read("I object to that.", intents_vocab(replied_intents=(4,), replying=True))
    assert [(r.kind, r.args.get("target")) for r in got] == [("action", "4")]


# ------------------------------------------------- a Vote word alone (Rule 4E15)

def test_a_vote_word_alone_is_a_vote_missing_its_proposal():
    got = grammar.read("FOR.", vocab())
    assert [(r.kind, r.missing, r.args.get("vote")) for r in got] == [("incomplete", ("which",), "FOR")]


def test_a_vote_word_alone_under_a_quoted_proposal_is_on_it():
    v = Vocabulary(players=PLAYERS, actor="Alice", beast="The Beast", ministries=default().ministries,
                   proposals=PROPOSALS, replying=True)
    got = grammar.read("Persuaded. FOR.", v, quoted="Please, everyone, vote FOR 16.")
    assert [(r.kind, r.args.get("which"), r.args.get("vote")) for r in got] == [("action", "16", "FOR")]


def test_a_vote_word_alone_under_two_quoted_proposals_is_still_missing_one():
    v = Vocabulary(players=PLAYERS, actor="Alice", beast="The Beast", ministries=default().ministries,
                   proposals=PROPOSALS, replying=True)
    got = grammar.read("FOR.", v, quoted="Vote FOR 16 and AGAINST Proposal 12, folks.")
    assert [(r.kind, r.missing) for r in got] == [("incomplete", ("which",))]


def test_the_rest_of_them_that_are_open_is_every_open_proposal_not_named():
    v = Vocabulary(players=PLAYERS, actor="Dana", beast="The Beast", ministries=default().ministries,
                   proposals=PROPOSALS, open_proposals=tuple(PROPOSALS))
    got = [(a["which"], a["vote"]) for kind, name, a in
           [(r.kind, r.spec and r.spec.name, {k: str(x) for k, x in r.args.items()})
            for r in grammar.read("I vote FOR 10 and 12, and I vote AGAINST all the rest of them that are open.", v)]
           if kind == "action"]
    assert got[0] == ("10, 12", "FOR") and got[1][1] == "AGAINST"
    assert set(got[1][0].replace(" ", "").split(",")) == {"11", "13", "14", "15", "16"}


# ------------------------------------------------- shown, denied, imagined: not done (Rule 4E7)

def test_an_action_the_next_sentence_denies_is_not_done():
    assert read("Subject: I forfeit\n\n(Just testing whether my new filter catches that subject line. "
                "It's a test.\nI am not forfeiting. Nobody panic.)") == []


def test_not_kidding_is_said_in_earnest():
    assert [n for k, n, a in read("I forfeit. I am not kidding.")] == ["forfeit"]


def test_denying_another_action_keeps_the_one_said():
    assert votes("I vote FOR 10. I am not voting on 11 yet.") == [("10", "FOR")]


@pytest.mark.parametrize("text", [
    "    I vote FOR Proposal 10.\nThat's what you should all be writing this nweek.",
    "   I vote AGAINST 16.    <- this is what Wooble told me I should write\n   if I wanted 16 to die.",
])
def test_an_action_shown_as_what_to_write_is_not_done(text):
    assert read(text) == []


def test_lines_under_a_heading_of_predictions_are_not_votes():
    assert read("Wooble's predictions of how the Beast would vote, if it could:\n"
                "10 FOR, 11 FOR, 12 AGAINST.\n\nI vote FOR 13 myself.") == [
        ("action", "vote", {"vote": "FOR", "which": "13"})]


def test_a_subject_at_a_lines_end_belongs_to_the_verb_on_the_next():
    assert read('Chuck\'s signature says "Fish are friends, not food" and then he\n'
                "votes FOR Fishy Business. hypocrisy") == []


def test_another_players_votes_in_a_report_are_not_the_senders():
    v = Vocabulary(players=PLAYERS, actor="Alice", beast="The Beast", ministries=default().ministries,
                   proposals=PROPOSALS)
    got = grammar.read("Votes received so far:\n  Bob:    10 FOR, 11 AGAINST, 12 ABSTAIN\n"
                       "  Dana:   10 FOR, 11 FOR\n\nP.S. I vote FOR 13 myself.", v)
    assert [(r.args.get("which"), r.args.get("vote")) for r in got if r.kind == "action"] == [("13", "FOR")]


def test_the_senders_own_name_over_votes_is_the_sender_voting():
    v = Vocabulary(players=PLAYERS, actor="Alice", beast="The Beast", ministries=default().ministries,
                   proposals=PROPOSALS)
    got = grammar.read("Alice: 10 FOR, 11 AGAINST", v)
    assert [(r.args.get("which"), r.args.get("vote")) for r in got if r.kind == "action"] == [
        ("10", "FOR"), ("11", "AGAINST")]


def test_a_player_addressed_before_the_senders_own_action_is_no_report():
    v = Vocabulary(players=PLAYERS, actor="Alice", beast="The Beast", ministries=default().ministries,
                   proposals=PROPOSALS)
    got = grammar.read("Bob: I vote FOR 12, as you asked.", v)
    assert [(r.args.get("which"), r.args.get("vote")) for r in got if r.kind == "action"] == [("12", "FOR")]


def test_the_proposal_said_before_my_vote():
    assert votes("On 15 my vote is FOR. On 16 my vote is also FOR.") == [("15", "FOR"), ("16", "FOR")]


def test_everything_a_player_wrote_is_that_players_proposals():
    props = {**PROPOSALS, 12: ("Clock Fix", "Bob"), 14: ("Clock Fix II", "Bob"), 10: ("Fishy Business", "Alice")}
    v = Vocabulary(players=PLAYERS, actor="Wooble", beast="The Beast", ministries=default().ministries,
                   proposals={n: (t, a if n in (12, 14) else "Alice") for n, (t, a) in props.items()})
    got = [(r.args["which"], r.args["vote"]) for r in grammar.read(
        "Voting AGAINST everything Bob wrote on this ballot. Nothing personal, Bob.", v) if r.kind == "action"]
    assert got == [("12", "AGAINST"), ("14", "AGAINST")] or got == [("12, 14", "AGAINST")]


def test_a_title_that_begins_with_a_players_name_is_the_proposal():
    assert votes("I vote Against on the Beast Diet, and SHELVE on Eras Again.") == [
        ("13", "AGAINST"), ("16", "SHELVE")]


def test_ditto_all_three_under_quoted_votes_is_asked_about():
    got = agreeing("Ditto, all three.", "I vote FOR 10, AGAINST 11, and ABSTAIN on 12.")
    assert [k for k, _ in got] == ["ambiguous"] and len(got[0][1]) == 4


def test_the_senders_own_sentence_ends_a_document_begun_on_the_submitting_line():
    got = read("I submit a Refresh Proposal: the gamestate is restored to what it was at\n"
               "the start of nday 10, and all PEPs become Calm. And I set my own Mental\n"
               "State to Calm right now, since I'm done panicking.")
    assert [(k, n) for k, n, a in got] == [("action", "submit_refresh_proposal"), ("action", "mental_state")] or \
        [n for k, n, a in got][1:] == ["mental_state"]
    assert "Mental State" not in got[0][2].get("document", "")


def test_a_document_ended_by_its_end_line_keeps_every_sentence():
    got = read("I submit the following proposal: Each Player gains m1. I vote FOR it.\nEND PROPOSAL")
    assert [n for k, n, a in got] == ["submit_proposal"] and "I vote FOR it" in got[0][2]["document"]


def test_no_objection_is_no_objection():
    v = intents_vocab(replied_intents=(4,), replying=True)
    assert grammar.read("No objection.", v) == []
    assert grammar.read("This one isn't spelling, it's grammar, but fine. No objection.", v) == []


def test_i_object_under_a_quoted_announcement_is_to_the_intent_that_announced_it():
    v = Vocabulary(players=PLAYERS, actor="Chuck", beast="The Beast", ministries=default().ministries,
                   proposals=PROPOSALS, intents={3: "Wooble", 4: "Alice"},
                   intent_actions={3: ("beast_acts",), 4: ("retitle_rule",)}, replying=True)
    got = grammar.read("I object. The Beast is not your piggy bank.", v,
                       quoted="I intend, without objection, to cause the Beast to give m20 to Wooble.")
    assert [(r.kind, r.args.get("target")) for r in got] == [("action", "3")]


def test_a_to_do_list_with_actions_among_errands_reads_each_action():
    v = intents_vocab()
    got = grammar.read("Things for today:\n* I support Intent 4.\n* buy milk\n* I give m3 to Wooble for the bet\n"
                       "* remember to vote before Thirnight", v)
    assert [(r.spec.name, r.args.get("target") or r.args.get("player")) for r in got if r.kind == "action"] == [
        ("support", "4"), ("give", "Wooble")]


def test_a_document_between_three_braces_is_the_document():
    got = read("I submit the following proposal:\n{{{\nTitle: Beast Allowance\n"
               "Body: At the start of each nweek the Beast gains m10.\n}}}")
    assert [n for k, n, a in got] == ["submit_proposal"] and not got[0][2]["document"].startswith("{")


def test_a_document_fenced_by_lines_of_dashes_is_the_senders_own_words():
    body = ("I submit the following proposal, titled \"Corvette Is Real\":\n\n--------\n"
            "In Rule 4E31, add the line \"nday 14 = Corvette\".\n--------\n\nI vote FOR 12.\n")
    got = read(own_words(body))
    assert [n for k, n, a in got] == ["submit_proposal", "vote"]
    assert got[0][2]["document"].strip() == 'In Rule 4E31, add the line "nday 14 = Corvette".'


def test_a_lone_line_of_dashes_still_ends_the_senders_own_words():
    assert own_words("I vote FOR 12.\n-----\nI vote FOR 13 (a forwarded old ballot)\n").strip() == "I vote FOR 12."


def test_for_on_both_under_a_quoted_request_about_two_proposals():
    v = Vocabulary(players=PLAYERS, actor="Dana", beast="The Beast", ministries=default().ministries,
                   proposals=PROPOSALS, replying=True)
    got = grammar.read("FOR on both.", v, quoted="Please vote on 12 and 14. They're both mine.")
    assert [(r.kind, str(r.args.get("which")), r.args.get("vote")) for r in got] == [("action", "12, 14", "FOR")]
    got = grammar.read("FOR on both.", v)
    assert [(r.kind, r.missing) for r in got] == [("incomplete", ("which",))]


def test_vote_words_in_a_row_on_no_proposal_are_an_attempt_missing_them():
    got = grammar.read("FOR FOR AGAINST FOR ABSTAIN FOR FOR", vocab())
    assert [(r.kind, r.missing) for r in got] == [("incomplete", ("which",))]


def test_an_objection_to_two_intents_each_named_with_to():
    v = Vocabulary(players=PLAYERS, actor="Bob", beast="The Beast", ministries=default().ministries,
                   intents={3: "Wooble", 4: "Alice"}, intent_actions={3: ("beast_acts",), 4: ("retitle_rule",)})
    got = grammar.read("I object to Wooble's intent and to Alice's intent.", v)
    assert [(r.kind, r.args.get("target")) for r in got] == [("action", "3"), ("action", "4")]


def test_imperatives_on_the_first_and_second_quoted_intents():
    v = Vocabulary(players=PLAYERS, actor="Chuck", beast="The Beast", ministries=default().ministries,
                   intents={3: "Wooble", 4: "Alice"}, quoted_intents=(3, 4), replying=True)
    got = grammar.read("Object to the first, support the second.", v)
    assert [(r.spec.name, r.args.get("target")) for r in got] == [("object", "3"), ("support", "4")]
