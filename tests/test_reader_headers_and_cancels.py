"""A header line whose earlier sentences act, a header's time over its items, a time said
before a command, a lead that says when ("I will do the following on Zarpint:"), an intent
written as a form, cancelling the scheduled action a reply answers, a stance withdrawn said of
the stance ("Objection withdrawn."), and how an action is done said after it ("by destroying
m15").

Rule 4E7: "A Player may cancel a scheduled action before it occurs" (the author of a
scheduled action), and "Unambiguous targets and parameters specified in Game Actions are
valid regardless of capitalization, punctuation, or exact wording." Rule 4E15: Votes. The
game: tests/reader_world.py."""
import pytest

from reader_world import actions, read, vocab


def replying_to_a_schedule(actor="Wooble"):
    return vocab(actor, replying=True, replied_scheduled=(4,))


def test_the_sentences_of_a_header_line_before_the_header_are_read():
    got = actions("I cancel my scheduled vote on Proposal 16. I'll vote now instead:\nAGAINST 16.",
                  replying_to_a_schedule())
    assert [a for a, _ in got] == ["cancel_scheduled", "vote"]
    assert got[1][1] == {"vote": "AGAINST", "which": "16"}


def test_a_header_line_of_one_sentence_is_only_the_header():
    assert actions("I vote as follows:\nFOR 10\nAGAINST 11", vocab("Wooble")) == [
        ("vote", {"vote": "FOR", "which": "10"}), ("vote", {"vote": "AGAINST", "which": "11"})]


@pytest.mark.parametrize("text", [
    "nvm, cancel that.",
    "I cancel the scheduled action quoted above. Dana has been paid in cash.",
])
def test_cancelling_the_scheduled_action_replied_to(text):
    assert [a for a, _ in actions(text, replying_to_a_schedule())] == ["cancel_scheduled"]


def test_cancel_that_in_reply_to_mail_that_scheduled_nothing_is_no_cancel():
    assert actions("nvm, cancel that.", vocab("Wooble", replying=True)) == []


# ---- a stance withdrawn, said of the stance (Rules 4E21, 4E22: only the latest stance counts)

@pytest.mark.parametrize("text, target", [
    ("Objection withdrawn on intent 3.", "3"),
    ("My support is withdrawn from intent 4.", "4"),
    ("Fine. Objection withdrawn.", "3"),            # in reply to the intent
])
def test_objection_withdrawn_is_the_stance_withdrawn(text, target):
    got = actions(text, vocab("Wooble", replying=True, replied_intents=(3,), intents={3: "Bob", 4: "Alice"}))
    assert got == [("withdraw_stance", {"target": target})]


def test_an_objection_withdrawn_by_another_is_talk():
    assert actions("The objection withdrawn by Bob was silly.", vocab("Wooble")) == []


# ---- a header's time over its items (Rule 4E7: an action announced for a later time is scheduled)

@pytest.mark.parametrize("header", ["I will vote on Zarpint as follows:", "On Zarpint I vote as follows:"])
def test_items_under_a_header_with_a_time_are_scheduled_for_it(header):
    got = [r for r in read(f"{header}\n- FOR 10\n- AGAINST 11", vocab("Dana")) if r.kind == "action"]
    assert [(r.args["vote"], str(r.args["which"])) for r in got] == [("FOR", "10"), ("AGAINST", "11")]
    assert all(r.when is not None and r.when.nday == 11 for r in got)


def test_items_under_a_header_with_no_time_are_done_now():
    got = read("I vote as follows:\n- FOR 10\n- AGAINST 11", vocab("Dana"))
    assert [r.when for r in got] == [None, None]


# ---- how an action is done, said after it ("by destroying m15"), is no second action

def test_by_and_a_doing_after_an_action_says_how_it_is_done():
    assert actions("I pay my fine of m15, by destroying m15.", vocab("Wooble")) == [
        ("pay_fine", {"amount": "m15"})]


def test_a_role_said_after_by_and_a_doing_is_still_taken():
    got = read('I revise Proposal 17 by resubmitting it with a new title, "Quieter Nweek", and the '
               'following text:\n\n{{\nDuring nweek 9, no Player may submit more than one Consultation.\n}}',
               vocab("Chuck", proposals={17: ("Quiet Nweek", "Chuck")}))
    assert [r.kind for r in got] == ["action"] and "Quieter" in str(got[0].args.get("title"))


# ---- a time said first, then a command with no "I" (Rule 4E7: scheduled for that time)

@pytest.mark.parametrize("text, expected", [
    ("on zarpint: vote FOR 11", ("vote", {"vote": "FOR", "which": "11"})),
    ("On Zarpint, vote FOR 11.", ("vote", {"vote": "FOR", "which": "11"})),
    ("on Zarpint give m5 to Bob", ("give", {"amount": "m5", "player": "Bob"})),
    ("Zarpint: FOR 11", ("vote", {"vote": "FOR", "which": "11"})),
])
def test_a_command_after_a_time_is_scheduled_for_it(text, expected):
    (r,) = read(text, vocab("Wooble"))
    assert (r.kind, r.spec.name, {k: str(v) for k, v in r.args.items() if v}) == ("action", *expected)
    assert r.when is not None and r.when.nday == 11


@pytest.mark.parametrize("text", ["on Zarpint the Beast eats", "On Zarpint, Bob gave me m5."])
def test_a_time_then_no_command_is_no_action(text):
    assert actions(text, vocab("Wooble")) == []


# ---- an intent as a form: "Intent:" over "- what:" and "- how:" (Rule 4E21: announced, not done)

def test_an_intent_written_as_a_form_is_announced_never_done():
    got = read("Intent:\n- what: cause the Beast to give me m10\n- how: without objection\n\n"
               "(Gift Day is coming up.)", vocab("Dana"))
    assert [(r.kind, r.spec.name) for r in got] == [("action", "intend")]
    assert "give me m10" in got[0].args["rest"] and "without objection" in got[0].args["rest"]


def test_an_intent_label_over_a_number_in_a_form_of_another_action_still_names_the_intent():
    assert actions("Action: support\nIntent: #4", vocab("Dana", intents={4: "Alice"})) == [
        ("support", {"target": "4"})]


# ---- a lead that says when what follows its colon is done (Rule 4E7: scheduled)

@pytest.mark.parametrize("text", [
    "I will perform the following at 12:00 UTC tomorrow: I give m5 to Bob.",
    "I will do the following on Zarpint: I give m5 to Bob.",
    "On Zarpint I will do this: give m5 to Bob.",
    "Scheduled for Zarpint: I give m5 to Bob.",
])
def test_what_follows_a_timed_lead_is_scheduled_never_done_now(text):
    (r,) = read(text, vocab("Chuck"))
    assert (r.kind, r.spec.name, r.args["amount"], r.args["player"]) == ("action", "give", "m5", "Bob")
    assert r.when is not None


def test_a_lead_with_no_time_leaves_the_action_as_said():
    (r,) = read("I will do the following, eventually: I give m5 to Bob.", vocab("Chuck"))
    assert r.kind == "action" and r.when is None
