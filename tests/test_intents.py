"""Rules 4E21 (Objecting) and 4E22 (Supporting): intents, stances and the
windows, edge by edge, across ndays."""
import pytest

from bnomic.handlers.frames import frame
from bnomic.handlers.registry import action

# Two actions for these tests alone, with the default timings of 4E21 and 4E22.


@action("test_tweak", frame("activate test", "number:tweak"), rule="4E99",
        example="I activate test tweak 1", objections=2)
def _test_tweak(ctx, actor, number):
    ctx.record("test", f"test tweak {number} activated", rule="4E99", label=number)


@action("test_motion", frame("carry test motion", "number:number"), rule="4E99",
        example="I carry test motion 1", supporters=2)
def _test_motion(ctx, actor, number):
    ctx.record("test", f"test motion {number} carried", rule="4E99", label=number)


DAY = "2008-09-{:02d}T12:00:00Z"     # the Clock is On from Sept 1 (nday 1): Sept d is nday d


@pytest.fixture
def four(game):
    for name in ("Alice", "Bob", "Carol", "Dave"):
        game.join(name, "2008-09-01T09:00:00Z")
    game.admin("clock", "on")
    return game


def at(game, nday):
    game.tick(DAY.format(nday))
    assert game.clock()["nday"] == nday
    return DAY.format(nday)


def say(game, who, text, nday, **kw):
    return game.post(f"{who.lower()}@example.org", text, at(game, nday), **kw)


def done(game):
    return [e["data"]["label"] for e in game.show("events") if e["kind"] == "test"]


def test_announcing_records_the_intent_with_its_number(four):
    r = say(four, "Alice", "I intend to activate test tweak 1 without 2 objections.", 1)
    assert "Done: intent #1 (Rule 4E21)" in r
    sched = four.show("schedule")
    assert [(i["kind"], i["id"]) for i in sched] == [("intent", 1)]
    assert "Alice intends to activate test tweak 1" in sched[0]["description"]


def test_the_announced_condition_must_be_the_rules(four):
    r = say(four, "Alice", "I intend to activate test tweak 1 without objection", 1)
    assert "Rule 4E99 has this done without 2 objections" in r
    r = say(four, "Alice", "I intend to give m5 to Bob without objection", 1)
    assert "needs no announced intent" in r
    r = say(four, "Alice", "I intend to frobnicate without objection", 1)
    assert "cannot tell which action you intend" in r


@pytest.mark.parametrize("nday, ok, why", [
    (2, False, "2 more nday changes to go"),
    (3, False, "1 more nday change to go"),     # a day early
    (4, True, ""),                              # the first allowed day
    (5, True, ""),                              # the last allowed day
    (6, False, "the time to do it ended"),      # a day late
])
def test_without_objection_window_edges(four, nday, ok, why):
    say(four, "Alice", "I intend to activate test tweak 7 without 2 objections", 1)
    r = say(four, "Alice", "Having received no objections, I activate test tweak 7.", nday)
    assert (done(four) == ["7"]) is ok, r
    if not ok:
        assert why in r and "(Rule 4E21)" in r


def test_n_minus_1_objections_allow_and_n_forbid(four):
    say(four, "Alice", "I intend to activate test tweak 1 without 2 objections", 1)
    say(four, "Alice", "I intend to activate test tweak 2 without 2 objections", 1)
    say(four, "Bob", "I object to Alice's intent to activate test tweak 1. I object to intent #2", 2)
    say(four, "Carol", "I object to intent #2", 2)
    r = say(four, "Alice", "I activate test tweak 1. I activate test tweak 2.", 4)
    assert done(four) == ["1"]
    assert "intent #2: 2 Players object; it needed fewer than 2 (Rule 4E21)" in r


def test_only_the_latest_stance_counts(four):
    say(four, "Alice", "I intend to activate test tweak 1 without 2 objections", 1)
    say(four, "Bob", "I object to intent #1", 2)
    say(four, "Carol", "I object to intent #1", 2)
    say(four, "Carol", "I withdraw my objection to intent #1", 3)
    say(four, "Alice", "I activate test tweak 1", 4)
    assert done(four) == ["1"]


def test_nobody_objects_to_or_supports_their_own_intent(four):
    say(four, "Alice", "I intend to activate test tweak 1 without 2 objections", 1)
    r = say(four, "Alice", "I object to intent #1", 2)
    assert "may not object to an action they attempt to perform (Rule 4E21)" in r
    say(four, "Alice", "I intend to carry test motion 1 with 2 supporters", 2)
    r = say(four, "Alice", "I support intent #2", 2)
    assert "may not support an action they attempt to perform (Rule 4E22)" in r


def test_objecting_by_replying_to_the_announcement(four):
    four.post("alice@example.org", "I intend to activate test tweak 1 without 2 objections",
              at(four, 1), msgid="<intent-msg@example.org>")
    for who in ("Bob", "Carol"):
        say(four, who, "I object.", 2, headers={"In-Reply-To": "<intent-msg@example.org>"})
    r = say(four, "Alice", "I activate test tweak 1", 4)
    assert "2 Players object" in r and done(four) == []


def test_acting_without_an_intent_is_refused(four):
    r = say(four, "Alice", "I activate test tweak 1", 4)
    assert "announce it first" in r and "(Rule 4E21)" in r


def test_with_support_in_time(four):
    say(four, "Alice", "I intend to carry test motion 5 with 2 supporters", 1)
    say(four, "Bob", "I support Alice's intent to carry test motion 5", 2)
    r = say(four, "Alice", "I carry test motion 5", 2)
    assert "only 1 Players support it so far; it needs 2" in r
    say(four, "Carol", "I support intent #1", 3)        # the 2nd support, at the end of the 2 ndays
    say(four, "Alice", "With the required support, I carry test motion 5", 5)   # 2 ndays after
    assert done(four) == ["5"]


def test_support_arriving_late(four):
    say(four, "Alice", "I intend to carry test motion 5 with 2 supporters", 1)
    say(four, "Bob", "I support intent #1", 2)
    say(four, "Carol", "I support intent #1", 4)        # after the end of nday 3
    r = say(four, "Alice", "I carry test motion 5", 4)
    assert "did not receive 2 supporters within 2 ndays" in r and "(Rule 4E22)" in r


def test_acting_too_long_after_the_support(four):
    say(four, "Alice", "I intend to carry test motion 5 with 2 supporters", 1)
    say(four, "Bob", "I support intent #1", 1)
    say(four, "Carol", "I support intent #1", 2)
    r = say(four, "Alice", "I carry test motion 5", 5)
    assert "2 ndays to do it after the last needed support have passed" in r


def test_an_intent_is_used_once(four):
    say(four, "Alice", "I intend to activate test tweak 1 without 2 objections", 1)
    say(four, "Alice", "I activate test tweak 1", 4)
    r = say(four, "Alice", "I activate test tweak 1", 4)
    assert "announce it first" in r and done(four) == ["1"]


# ------------------------------------------------------- Rule 4E71: the Beast

def test_the_beast_acts_with_no_objection_in_two_rdays(four):
    four.post("alice@example.org", "I give m20 to The Beast", "2008-09-01T10:00:00Z")
    r = four.post("alice@example.org",
                  "I intend to cause the Beast to give m5 to Bob without objection in 2 rdays",
                  "2008-09-01T13:00:00Z")
    assert "Done" in r, r
    r = four.post("alice@example.org", "I cause the Beast to give m5 to Bob", "2008-09-02T13:00:00Z")
    assert "it may be done only after 2 rdays (from 2008-09-03 00:00 UTC) (Rule 4E71)" in r
    r = four.post("alice@example.org", "I cause the Beast to give m5 to Bob", "2008-09-03T10:00:00Z")
    assert "Done" in r
    players = four.players()
    assert (players["The Beast"]["mackerel"], players["Bob"]["mackerel"]) == (15, 55)
    assert players["The Beast"]["active"] is True          # it performed a Game Action
    # once per nweek
    four.post("alice@example.org",
              "I intend to cause the Beast to give m5 to Bob without objection in 2 rdays",
              "2008-09-03T11:00:00Z")
    r = four.post("alice@example.org", "I cause the Beast to give m5 to Bob", "2008-09-05T11:00:00Z")
    assert "already caused the Beast to act this nweek (Rule 4E71)" in r


def test_the_beast_objected_to(four):
    four.post("alice@example.org",
              "I intend to cause the Beast to forfeit without objection in 2 rdays",
              "2008-09-01T13:00:00Z")
    four.post("bob@example.org", "I object to Alice's intent to cause the Beast to forfeit",
              "2008-09-02T08:00:00Z")
    r = four.post("alice@example.org", "I cause the Beast to forfeit", "2008-09-03T10:00:00Z")
    assert "1 Player objects; it needed fewer than 1" in r
    assert "The Beast" in four.players()


def test_an_intent_named_by_its_author_by_this_or_as_mine(four):
    four.post("alice@example.org", "I intend to activate test tweak 1 without 2 objections",
              at(four, 1), msgid="<intent-one@example.org>")
    say(four, "Bob", "I object to Alice's intent", 2)                         # her only open one
    say(four, "Carol", "I object to this intent", 2, headers={"In-Reply-To": "<intent-one@example.org>"})
    say(four, "Alice", "I intend to carry test motion 2 with 2 supporters", 2)
    r = say(four, "Dave", "I object to Alice's intent", 2)
    assert "ambiguous: it can be read as “object to intent 1” or as “object to intent 2”" in r
    r = say(four, "Alice", "I withdraw my intent", 3)
    assert "ambiguous: it can be read as “withdraw my intent 1” or as “withdraw my intent 2”" in r
    r = say(four, "Alice", "I withdraw my intention to carry test motion 2", 3)
    assert "Done" in r
    r = say(four, "Alice", "I activate test tweak 1", 4)
    assert "2 Players object" in r and done(four) == []


def test_withdrawing_a_stance_under_ones_own_objection_names_the_intent_up_the_thread(four):
    # Rules 4E21, 4E22: "I withdraw my objection." in reply to one's objection, which
    # replied to the intent: the intent is the thread's (its References)
    four.post("alice@example.org", "I intend to activate test tweak 1 without 2 objections",
              at(four, 1), msgid="<intent-a@example.org>")
    four.post("bob@example.org", "I object.", at(four, 2), msgid="<obj-b@example.org>",
              headers={"In-Reply-To": "<intent-a@example.org>", "References": "<intent-a@example.org>"})
    four.post("carol@example.org", "I object too.", at(four, 2), msgid="<obj-c@example.org>",
              headers={"In-Reply-To": "<intent-a@example.org>", "References": "<intent-a@example.org>"})
    r = four.post("carol@example.org", "Fair point. I withdraw my objection.", at(four, 3),
                  headers={"In-Reply-To": "<obj-c@example.org>",
                           "References": "<intent-a@example.org> <obj-c@example.org>"})
    assert "Done" in r
    say(four, "Alice", "I activate test tweak 1", 4)
    assert done(four) == ["1"]


def withdrawn_in_a_thread_of_no_intent(game, who, text, nday):
    game.post("dave@example.org", "Carol, why object? It's a typo fix.", at(game, nday),
              msgid=f"<why-{nday}@example.org>")
    return game.post(f"{who.lower()}@example.org", text, at(game, nday),
                     headers={"In-Reply-To": f"<why-{nday}@example.org>",
                              "References": f"<why-{nday}@example.org>"})


def test_objection_withdrawn_in_a_thread_of_no_intent_is_the_senders_one_standing_stance(four):
    # Rules 4E21, 4E22: "Objection withdrawn." in reply to mail that announced no intent; the
    # sender's only standing Objection is the one withdrawn
    say(four, "Alice", "I intend to activate test tweak 1 without 2 objections", 1)
    say(four, "Alice", "I intend to activate test tweak 2 without 2 objections", 1)
    say(four, "Bob", "I object to intent #1", 2)
    say(four, "Carol", "I object to intent #1", 2)
    r = withdrawn_in_a_thread_of_no_intent(four, "Carol", "Fine. Objection withdrawn.", 3)
    assert "Done" in r
    say(four, "Alice", "I activate test tweak 1", 4)
    assert done(four) == ["1"]


def test_a_stance_withdrawn_that_could_be_either_of_two_is_refused(four):
    say(four, "Alice", "I intend to activate test tweak 1 without 2 objections", 1)
    say(four, "Alice", "I intend to activate test tweak 2 without 2 objections", 1)
    say(four, "Carol", "I object to intent #1. I object to intent #2.", 2)
    r = withdrawn_in_a_thread_of_no_intent(four, "Carol", "Objection withdrawn.", 3)
    assert "Done" not in r and "4E21" in r


def test_supporting_under_another_supporters_reply(four):
    four.post("alice@example.org", "I intend to carry test motion 1 with 2 supporters",
              at(four, 1), msgid="<motion@example.org>")
    four.post("bob@example.org", "Support.", at(four, 1), msgid="<sup-b@example.org>",
              headers={"In-Reply-To": "<motion@example.org>", "References": "<motion@example.org>"})
    r = four.post("carol@example.org", "+1, I support.", at(four, 1),
                  headers={"In-Reply-To": "<sup-b@example.org>",
                           "References": "<motion@example.org> <sup-b@example.org>"})
    assert "Done" in r
    say(four, "Alice", "I carry test motion 1", 2)
    assert done(four) == ["1"]


def test_objecting_under_another_objectors_reply_objects_to_the_intent_up_the_thread(four):
    # Rule 4E21: "I object too." in reply to Bob's objection, which replied to the intent:
    # the intent is the thread's (its References), not a role left unsaid
    four.post("alice@example.org", "I intend to activate test tweak 1 without 2 objections",
              at(four, 1), msgid="<intent-o@example.org>")
    four.post("bob@example.org", "I object.", at(four, 2), msgid="<obj-o@example.org>",
              headers={"In-Reply-To": "<intent-o@example.org>", "References": "<intent-o@example.org>"})
    r = four.post("carol@example.org", "I object too, for what it's worth.", at(four, 2),
                  headers={"In-Reply-To": "<obj-o@example.org>",
                           "References": "<intent-o@example.org> <obj-o@example.org>"})
    assert "Done" in r
    r = say(four, "Alice", "I activate test tweak 1", 4)
    assert "2 Players object" in r and done(four) == []


def test_objecting_in_a_reply_to_mail_with_no_intent_up_the_thread_says_which_rule(four):
    four.post("alice@example.org", "I vote FOR 1.", at(four, 1), msgid="<vote-o@example.org>")
    r = four.post("bob@example.org", "I object.", at(four, 1),
                  headers={"In-Reply-To": "<vote-o@example.org>", "References": "<vote-o@example.org>"})
    assert "reply to the message that announced it" in r and "4E21" in r


# ---------------------------------------------- acting on an intent by naming it (4E21, 4E22)

def test_acting_on_an_intent_by_its_number_performs_its_action(four):
    say(four, "Alice", "I intend to activate test tweak 7 without 2 objections", 1)
    r = say(four, "Alice", "I act on intent #1.", 4)
    assert done(four) == ["7"], r
    r = say(four, "Alice", "I act on intent #1.", 5)
    assert done(four) == ["7"] and "no open intent #1" in r


def test_doing_so_in_reply_to_the_announcement_performs_it(four):
    four.post("alice@example.org", "I intend to activate test tweak 8 without 2 objections",
              at(four, 1), msgid="<intent-8@example.org>")
    r = say(four, "Alice", "Having received no objections, I do so.", 4,
            headers={"In-Reply-To": "<intent-8@example.org>"})
    assert done(four) == ["8"], r


def test_acting_on_an_intent_keeps_its_window_and_its_objections(four):
    say(four, "Alice", "I intend to activate test tweak 7 without 2 objections", 1)
    r = say(four, "Alice", "I act on intent #1.", 2)
    assert done(four) == [] and "more nday changes to go" in r and "(Rule 4E21)" in r
    say(four, "Bob", "I object to intent #1", 2)
    say(four, "Carol", "I object to intent #1", 3)
    r = say(four, "Alice", "I act on intent #1.", 4)
    assert done(four) == [] and "2 Players object" in r


def test_only_the_author_acts_on_an_intent(four):
    say(four, "Alice", "I intend to carry test motion 2 with 2 supporters", 1)
    r = say(four, "Bob", "I act on intent #1.", 1)
    assert done(four) == [] and "only the Player who announced an intent may perform its action" in r


def test_acting_on_it_and_saying_the_action_performs_it_once(four):
    say(four, "Alice", "I intend to activate test tweak 7 without 2 objections", 1)
    r = say(four, "Alice", "I act on intent #1: I activate test tweak 7.", 4)
    assert done(four) == ["7"] and "Rejected" not in r and "no open intent" not in r, r


def test_plus_one_in_reply_to_an_intent_is_asked_about_not_counted(four):
    four.post("alice@example.org", "I intend to carry test motion 3 with 2 supporters",
              at(four, 1), msgid="<motion-3@example.org>")
    r = say(four, "Bob", "> I intend to carry test motion 3 with 2 supporters\n\n+1", 1,
            headers={"In-Reply-To": "<motion-3@example.org>"})
    assert "ambiguous" in r and "support intent 1" in r, r
    r = say(four, "Alice", "I carry test motion 3", 1)
    assert done(four) == [] and "only 0 Players support it" in r


def test_same_under_a_quoted_action_takes_none_and_asks(four):
    r = say(four, "Bob", "> I intend to carry test motion 3 with 2 supporters\n\nSame.", 1)
    assert "ambiguous" in r and "nothing: agreement is no Game Action" in r, r
    assert four.show("schedule") == []


def test_the_way_said_before_i_intend_is_the_way_announced(four):
    """Rules 4E21, 4E22: "With 2 supporters, I intend to ..." announces it with 2 supporters; said
    with another way than the rule's, it is refused, not announced the rule's way instead."""
    r = say(four, "Alice", "With 2 supporters, I intend to carry test motion 5.", 1)
    assert "Done: intent #1" in r, r
    say(four, "Bob", "I support intent #1", 1)
    say(four, "Carol", "I support intent #1", 2)
    r = say(four, "Alice", "I carry test motion 5", 2)
    assert done(four) == ["5"], r
    r = say(four, "Alice", "Without objection, I intend to carry test motion 6.", 2)
    assert "Done" not in r and "with 2 supporters" in r, r


def test_an_intent_announced_over_two_recipients_is_one_intent_for_each(four):
    # Rules 4E21, 4E71: an intent is to perform a single Game Action; "to each of Bob and
    # Carol" announces one for each, and each is performed (or objected to) on its own
    four.post("alice@example.org", "I give m20 to The Beast", "2008-09-01T10:00:00Z")
    r = four.post("alice@example.org", "I intend, without objection, to cause the Beast to give m5 to each "
                  "of Bob and Carol.", "2008-09-01T13:00:00Z")
    assert "Done: intent #1" in r and "Done: intent #2" in r, r
    descriptions = [i["description"] for i in four.show("schedule") if i["kind"] == "intent"]
    assert len(descriptions) == 2 and "Bob" in descriptions[0] and "Carol" in descriptions[1]
    four.post("dave@example.org", "I object to intent #2.", "2008-09-01T14:00:00Z")
    r = four.post("alice@example.org", "I act on intent #1.", "2008-09-03T10:00:00Z")
    assert "Done" in r, r
    players = four.players()
    assert (players["Bob"]["mackerel"], players["Carol"]["mackerel"]) == (55, 50)
