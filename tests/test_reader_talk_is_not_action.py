"""Talk that uses the game's words and must do nothing (Rule 4E7: an action is
"clearly and unambiguously" announced; a conditional action is no action).

Each case is chatter a careful officer would not act on: a quotation the mail program
escaped, a clause of someone's sentence ("until I publish the Ballot"), a question that
also exclaims, a past vote wrapped across lines, an action on a condition."""
import pytest

import bnomic.handlers.engine  # noqa: F401  (registers every action)
from bnomic.handlers import grammar
from bnomic.handlers.lexer import with_quoted
from bnomic.handlers.vocabulary import Vocabulary
from bnomic.mailer.parse import own_words, quoted_words

VOCAB = Vocabulary(players=("Alice", "Bob", "Chuck", "Wooble", "Ais523", "Dana", "The Beast"), actor="Ais523",
                   beast="The Beast", proposals={15: ("Tidy Up", "Dana"), 16: ("Eras Again", "Chuck")},
                   open_proposals=(15, 16), intents={4: "Alice"})


def actions(mail: str):
    vocab = with_quoted(VOCAB, quoted_words(mail))
    return [(r.spec.name, r.args) for r in grammar.read(own_words(mail), vocab) if r.kind == "action"]


@pytest.mark.parametrize("mail", [
    # a quotation whose ">" the mail program wrote as "&gt;"
    "&gt; I intend, without objection, to retitle Rule 4E9 to \"The Eras of B\".\n\n"
    "Ugh, my mail client mangled that quote. Anyway: I still mean it.",
    # "I <verb>" inside someone's clause
    "Voting hasn't opened officially until I publish the Ballot, but for\n"
    "the record I'll be voting FOR all of them except 16.",
    # a question that exclaims too
    "AGAINST 15?! That's my tidying proposal, what did it ever do to you?",
    # a past vote, wrapped by the mail program before its object
    "On Tue, Chuck wrote:\n> So about Proposal 16: the Fifth Era would start with nweek 8.\n\n"
    "Every cross-reference in the ruleset breaks. I've already voted\n"
    "AGAINST it and I'm not changing that.\n\n-- \nais523",
])
def test_talk_does_nothing(mail):
    assert actions(mail) == []


def test_an_action_as_soon_as_something_happens_is_conditional_and_refused():
    (r,) = grammar.read("I set the Threat Flag to Pink Ponies, as soon as someone makes me MoM.", VOCAB)
    assert r.kind != "action" and "Rule 4E7 knows no conditional actions" in r.error


def test_an_exclamation_is_still_an_action():
    assert actions("AGAINST 15!") == [("vote", {"vote": "AGAINST", "which": "15"})]


def test_a_vote_wrapped_after_its_verb_is_one_vote():
    assert actions("I vote\nFOR 15 and AGAINST 16.") == [("vote", {"vote": "FOR", "which": "15"}),
                                                          ("vote", {"vote": "AGAINST", "which": "16"})]
