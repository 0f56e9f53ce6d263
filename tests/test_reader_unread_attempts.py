"""An attempt said too loosely to act on is told, not passed over in silence.

Rule 4E7: "Unambiguous targets and parameters specified in Game Actions are valid
regardless of capitalization, punctuation, or exact wording." What a careful officer
cannot act on, bnomic must say it did not understand (issue 13: "ambiguity is refused
and said, never guessed"; a silent miss is a defect). A post none of whose sentences
reads to anything, but which holds an action's verb said by "I" (or as a command) with a
thing the game knows (a proposal, an intent, an amount, a Player) and a few words
more, gets a near-miss that names the action as far as it was understood and the words
that were not. Talk stays talk: a condition or a denial anywhere in the sentence, a
second "I" among the words left over, a verb whose own object is something else, and
any post that does read to something leave it unsaid.
The game (tests/reader_world.py): Open proposals 10, 11, 12, 13, 15 and 16; Intents 3
and 4; Players Alice, Bob, Chuck, Dana and Wooble."""
import pytest

from reader_world import read


def told(text):
    """The near-misses read: (action, the words not understood)."""
    return [(r.spec.name, r.unread) for r in read(text) if r.kind == "incomplete"]


@pytest.mark.parametrize("text, name, unread", [
    ("I revise Proposal 11 to strike section 2.", "revise_proposal", ("strike", "section")),
    ("Under 4E15 I revise Proposal 11 to strike section 2.", "revise_proposal", ("strike", "section")),
    ("I object to both of Wooble's intents from this morning.", "object", ("from", "morning")),
    ("I vote FOR every proposal whose number is even.", "vote", ("whose", "number")),
])
def test_an_attempt_with_words_not_understood_is_told(text, name, unread):
    got = told(text)
    assert [g[0] for g in got] == [name], (text, got)
    assert set(unread) <= set(got[0][1]), got


def test_the_receipt_names_the_action_and_the_words(game):
    game.join("Wooble", "2008-09-01T01:00:00Z")
    game.join("Bob", "2008-09-01T02:00:00Z")
    r = game.post("bob@example.org", 'I submit the following proposal, titled "Quiet":\nRepeal Rule 4E60\n'
                  "END PROPOSAL\n", "2008-09-01T03:00:00Z")
    r = game.post("bob@example.org", "I revise Proposal 1 to strike section 2 of it entirely.",
                  "2008-09-01T04:00:00Z")
    assert "understood as far as: revise" in r and "not understood: “strike”" in r, r


@pytest.mark.parametrize("text", [
    # a condition in the sentence, before the clause or after it (Rule 4E7 knows none)
    "If nobody objects by Zarpint I'll act on Intent 3 sometime over the weekend.",
    "So if only Bob and I vote on 15 it gets Discarded regardless.",
    "I intend to usurp the Ministry of Society at m60 on Zarpint if Bob still hasn't fixed my address.",
    # a denial
    "I can't support my own intent 4 at all, sadly.",
    # a second "I" among the words left over: another clause
    "At some point I'll give Bob the m10 I owe him.",
    # the verb's own object is something else
    "I resign myself to losing the Ministry of Law.",
    "I remove my objection to the Ministry of Law.",
    # what fills the role owns the next word
    "I accept the Chairman's ruling on this.",
    # a vote word alone is no thing of the game's
    "I vote FOR pizza and AGAINST Mondays.",
    # too many words left over: talk that holds a verb
    "I'm going to submit a Consultation asking whether the Beast can hold a Sock.",
])
def test_talk_with_an_actions_words_is_not_told(text):
    assert told(text) == [], (text, told(text))


def test_a_loose_attempt_beside_an_action_read_is_not_told():
    # told only where the whole post reads to nothing: beside a vote read, the loose clause
    # is not reported (the post is acted on as far as it is understood)
    got = read("I vote FOR 12.\n\nI revise Proposal 11 to strike section 2.")
    assert [(r.kind, r.spec.name) for r in got] == [("action", "vote")]


def test_an_action_taken_back_leaves_nothing_to_tell():
    assert read("I give m5 to Bob. No, wait, he owes me. Scratch that.") == []


@pytest.mark.parametrize("text, meant", [
    ("I objet to Intent 3.", "I object to Intent 3"),          # a letter left out
    ("I suport intent 4.", "I support intent 4"),
    ("I giev m5 to Bob.", "I give m5 to Bob"),                 # two letters swapped
    ("I gives m5 to Bob.", "I give m5 to Bob"),                # a letter added
])
def test_a_misspelt_verb_over_a_whole_action_is_told_with_the_sentence_meant(text, meant):
    # Rule 4E7: never done on a guess, never passed over: "did you mean ...?"
    got = read(text)
    assert [(r.kind, r.suggestions) for r in got] == [("unknown", (meant,))], got
    assert "did you mean" in got[0].error and "(Rule 4E7)" in got[0].error


@pytest.mark.parametrize("text", [
    "I reinforced it yesterday, don't ask me why.",           # a past, not a typo
    "Received, thanks. I'll spend it wisely (on fish).",      # "send" would miss its amount
])
def test_a_word_near_a_verb_over_no_whole_action_is_not_told(text):
    assert [r for r in read(text) if r.error] == []


def test_a_condition_in_another_paragraph_leaves_the_attempt_told():
    # the sentence around the clause ends at a blank line as at a full stop
    got = told("If nobody objects we are fine\n\nI revise Proposal 11 to strike section 2")
    assert [g[0] for g in got] == ["revise_proposal"]
