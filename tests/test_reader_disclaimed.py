"""What the sender says is not done: a disclaimer after the actions ("not an action", "not
doing any of them"), a heading that is one ("Tentative votes (not cast yet):"), a taking
back ("No, wait, I don't."), a wish asked about ("Is that all right with everyone?"), a list
of what is done ("(done)"), a doing in brackets that describes an intent; and an action done
once said twice ("I pay my fine of m15 ..., destroying the m15").

Rule 4E7: a Game Action is performed by announcing it; these announce none. The game:
tests/reader_world.py."""
import pytest

from reader_world import actions, read, vocab


@pytest.mark.parametrize("text", [
    "Reinforce, reinforce, reinforce.\n\n(I know I can only do it once. This is a joke about the "
    "Trick reward loop, not an action.)",
    "Reinforce. Punish. Reinforce. (I'm showing the newbies the options, not doing any of them.)",
    "Tentative votes (not cast yet, just telling people what I'm thinking):\nFOR 10, AGAINST 11. "
    "I'll send the real ballot tomorrow.",
    "On Breakday I will publish the results. (Not a scheduled action, just a promise -\nresults are "
    "a document, I can't pre-write them.)",
    "I forfeit.\n\nNo, wait, I don't. I meant to type something else and hit send early.",
    "I'm forfeiting. No I'm not. Just checking you're all awake.",
    "Here is a list of things I am NOT doing today:\n- voting on 16\n- giving Chuck any mackerel\n"
    "- objecting to Intent 3\nHave a nice nday.",
    "I'd like to give m15 to Dana. Is that all right with everyone?",
    "So, the Chairman's duties this nweek as I see them: publish the ballot\n(done), turn the Clock on "
    "(done), number any new proposals (none yet),\npublish results at the end of Thirnight (pending).",
    'Reminder: my Intent #4 (retitling 4E9 to "The Eras of B") is still open.',
])
def test_what_the_sender_says_is_not_done_is_not_done(text):
    got = read(text, vocab("Alice", intents={3: "Bob", 4: "Alice"}))
    assert [r for r in got if r.kind in ("action", "transaction")] == [], [r.read_as for r in got]


@pytest.mark.parametrize("text, expected", [
    # a disclaimer of something else, said before more of the sender's words: the actions stand
    ("I vote FOR 10. (Tallying is not an action anyone can take for me, sadly.) I also vote "
     "AGAINST 11.", [("vote", {"vote": "FOR", "which": "10"}), ("vote", {"vote": "AGAINST", "which": "11"})]),
    # a doing in brackets that is one more action of the sender's
    ("I vote FOR 12 (voting AGAINST 13 too).",
     [("vote", {"vote": "FOR", "which": "12"}), ("vote", {"vote": "AGAINST", "which": "13"})]),
    # a wish with no question after it
    ("I'd like to give m15 to Dana.", [("give", {"amount": "m15", "player": "Dana"})]),
    # an action, then a question about something else
    ("I give m15 to Dana. Is the Clock On yet?", [("give", {"amount": "m15", "player": "Dana"})]),
])
def test_actions_stand_beside_what_disclaims_nothing_of_them(text, expected):
    assert actions(text, vocab("Alice")) == expected


# ---- an action that, done twice over, is done once, said twice in one mail (words.toml said_once)

@pytest.mark.parametrize("text, expected", [
    ("fine. I pay my fine of m15 for Indictment 2, destroying the m15. can I vote again now?",
     [("pay_fine", {"amount": "m15", "number": "2"})]),                           # Rule 4E73: paid once
    ("ZOT! Consultation 5 is hereby ZOTted.", [("zot_consultation", {"which": "5"})]),   # Rule 4E18
    ("I object to intent 3. The Beast is mine. (but i do object to intent 3)",
     [("object", {"target": "3"})]),                                              # Rule 4E21: the latest counts
])
def test_an_action_done_once_said_twice_is_done_once(text, expected):
    got = actions(text, vocab("Chuck", intents={3: "Bob"}, consultations=(5,), indictments=(2,)))
    assert [a for a, _ in got] == [a for a, _ in expected]
    assert all(args.items() <= dict(got[0][1]).items() for _, args in expected)


def test_the_same_vote_said_again_after_another_is_kept_the_last_standing():
    assert [a["vote"] for _, a in actions("FOR 12. No, AGAINST 12. Oh fine, FOR 12.", vocab("Chuck"))][-1] == "FOR"
