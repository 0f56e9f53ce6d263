"""Rule 4E7: actions specified for a time in the future."""
import pytest


@pytest.fixture
def two(game):
    game.join("Alice", "2008-09-01T09:00:00Z")
    game.join("Bob", "2008-09-01T09:00:00Z")
    game.admin("clock", "on")
    return game


def gifts_to_bob(game):
    return [(e["at"], e["data"]["amount"]) for e in game.show("events")
            if e["rule"] == "4E33" and e["data"].get("player") == "Bob"]


def test_on_nday_8_happens_at_the_start_of_the_next_nday_8(two):
    r = two.post("alice@example.org", "On nday 3, I give m5 to Bob.", "2008-09-01T10:00:00Z")
    assert "Done: scheduled for at the start of nday 3 of nweek 1 as #" in r
    two.tick("2008-09-02T23:59:00Z")
    assert gifts_to_bob(two) == []
    two.tick("2008-09-03T00:00:00Z")
    assert gifts_to_bob(two) == [("2008-09-03T00:00:00Z", 5)]
    # it happened after the Clock showed nday 3
    at_midnight = [e["kind"] for e in two.show("events") if e["at"] == "2008-09-03T00:00:00Z"]
    assert at_midnight.index("clock") < at_midnight.index("mackerel")


def test_a_past_nday_means_the_next_nweek(two):
    two.tick("2008-09-04T10:00:00Z")                       # nday 4
    r = two.post("alice@example.org", "On Mulberry, I give m5 to Bob", "2008-09-04T10:00:00Z")
    assert "nday 3 of nweek 2" in r


def test_same_moment_in_arrival_order(two):
    two.post("bob@example.org", "At the start of the next nweek, I give m7 to Alice",
             "2008-09-01T10:00:00Z")
    two.post("alice@example.org", "At the start of the next nweek, I give m60 to Bob",
             "2008-09-01T11:00:00Z")
    two.post("bob@example.org", "At the start of the next nweek, I give m100 to Alice",
             "2008-09-01T12:00:00Z")
    two.next_nweek()
    p = two.players()
    # Bob m7 to Alice; Alice (50+25 income+7) m60 to Bob; Bob (50+25-7+60) m100 to Alice
    assert (p["Alice"]["mackerel"], p["Bob"]["mackerel"]) == (50 + 25 + 7 - 60 + 100, 50 + 25 - 7 + 60 - 100)


def test_at_a_utc_time(two):
    two.post("alice@example.org", "On 2008-09-02 at 12:00 UTC I give m2 to Bob.",
             "2008-09-01T10:00:00Z")
    two.post("alice@example.org", "At 06:30 UTC on 2008-09-02, I give m3 to Bob.",
             "2008-09-01T10:00:00Z")
    two.tick("2008-09-03T00:00:00Z")
    assert gifts_to_bob(two) == [("2008-09-02T06:30:00Z", 3), ("2008-09-02T12:00:00Z", 2)]


def test_a_utc_time_of_day_today_tomorrow_or_next(two):
    """Rule 4E7: "with reference ... to Coordinated Universal Time": a time of day is
    today's, tomorrow's, or (said alone) its next occurrence after the message."""
    two.post("alice@example.org", "At 18:00 UTC today I give m1 to Bob.", "2008-09-01T10:00:00Z")
    two.post("alice@example.org", "Tomorrow at noon UTC I give m2 to Bob.", "2008-09-01T10:00:00Z")
    two.post("alice@example.org", "I give m3 to Bob at 09:15 UTC.", "2008-09-01T10:00:00Z")   # passed today
    two.post("alice@example.org", "I give m4 to Bob at 23:00 UTC.", "2008-09-01T10:00:00Z")   # still today
    two.tick("2008-09-03T00:00:00Z")
    assert gifts_to_bob(two) == [("2008-09-01T18:00:00Z", 1), ("2008-09-01T23:00:00Z", 4),
                                 ("2008-09-02T09:15:00Z", 3), ("2008-09-02T12:00:00Z", 2)]


def test_a_time_of_day_already_past_today_is_refused(two):
    r = two.post("alice@example.org", "At 08:00 UTC today I give m1 to Bob.", "2008-09-01T10:00:00Z")
    assert "2008-09-01 08:00 UTC has already passed (Rule 4E7)" in r


def test_a_time_of_day_without_utc_is_no_time_the_rules_know(two):
    r = two.post("alice@example.org", "At 18:00 today I give m1 to Bob.", "2008-09-01T10:00:00Z")
    assert "no such time" in r
    two.tick("2008-09-03T00:00:00Z")
    assert gifts_to_bob(two) == []


def test_a_past_time_is_refused(two):
    r = two.post("alice@example.org", "On 2008-08-01 at 12:00 UTC I give m2 to Bob.",
                 "2008-09-01T10:00:00Z")
    assert "has already passed (Rule 4E7)" in r


def test_the_author_cancels_it_and_nobody_else_can(two):
    r = two.post("alice@example.org", "On nday 3, I give m5 to Bob.", "2008-09-01T10:00:00Z")
    number = r.split("as #")[1].split(" ")[0]
    assert [i["id"] for i in two.show("schedule")] == [int(number)]
    r = two.post("bob@example.org", f"I cancel scheduled action #{number}", "2008-09-01T11:00:00Z")
    assert "no pending scheduled action" in r
    r = two.post("alice@example.org", f"I cancel my scheduled action #{number}", "2008-09-01T11:00:00Z")
    assert "Done (Rule 4E7)" in r
    two.tick("2008-09-04T00:00:00Z")
    assert gifts_to_bob(two) == [] and two.show("schedule") == []


def test_legality_is_checked_when_it_happens(two):
    two.post("alice@example.org", "On nday 2, I give m50 to Bob.", "2008-09-01T10:00:00Z")
    two.post("alice@example.org", "I give m10 to Bob", "2008-09-01T11:00:00Z")
    two.tick("2008-09-03T00:00:00Z")
    log = two.show("log")
    scheduled = [o for e in log for o in e["outcomes"] if o["text"].startswith("(scheduled)")]
    assert scheduled[0]["accepted"] is False and "less than m50" in scheduled[0]["reason"]


def test_one_time_for_two_objects_does_each_once(two):
    # one scheduled sentence, two actions: each happens, once (not the first twice)
    r = two.post("alice@example.org", "On nday 3, I give m5 to Bob and m7 to Bob.", "2008-09-01T10:00:00Z")
    assert r.count("Done: scheduled for at the start of nday 3 of nweek 1") == 2
    two.tick("2008-09-03T00:00:00Z")
    assert gifts_to_bob(two) == [("2008-09-03T00:00:00Z", 5), ("2008-09-03T00:00:00Z", 7)]


def test_cancel_my_only_scheduled_action_without_its_number(two):
    two.post("alice@example.org", "On nday 3, I give m5 to Bob.", "2008-09-01T10:00:00Z")
    r = two.post("alice@example.org", "I cancel my scheduled action.", "2008-09-01T11:00:00Z")
    assert "Done" in r and two.show("schedule") == []
    assert "you have no pending scheduled actions (Rule 4E7)" in two.post(
        "alice@example.org", "I cancel my scheduled action.", "2008-09-01T12:00:00Z")


def test_cancel_all_my_scheduled_actions_cancels_each_of_mine_and_no_one_elses(two):
    # Rule 4E7: the author may cancel their scheduled actions; "all my ..." is each of them
    two.post("alice@example.org", "On nday 3, I give m5 to Bob.", "2008-09-01T10:00:00Z")
    two.post("alice@example.org", "On nday 4, I give m6 to Bob.", "2008-09-01T10:01:00Z")
    two.post("bob@example.org", "On nday 3, I give m7 to Alice.", "2008-09-01T10:02:00Z")
    r = two.post("alice@example.org", "I cancel all my scheduled actions. Plans changed.", "2008-09-01T11:00:00Z")
    assert "Done" in r
    assert len(two.show("schedule")) == 1
    two.tick("2008-09-05T00:00:00Z")
    assert [amount for _, amount in gifts_to_bob(two) if amount > 0] == []     # (Bob's own gift did happen)
    assert [amount for _, amount in gifts_to_bob(two)] == [-7]
    assert "you have no pending scheduled actions (Rule 4E7)" in two.post(
        "alice@example.org", "I cancel all my scheduled actions.", "2008-09-05T01:00:00Z")


def test_cancel_a_scheduled_action_named_by_what_it_does(two):
    # Rule 4E7: the author cancels the one the words fit; two fitting are not guessed between
    two.join("Chuck", "2008-09-01T09:00:00Z")
    two.post("alice@example.org", "On nday 3, I give m5 to Bob.", "2008-09-01T10:00:00Z")
    two.post("alice@example.org", "On nday 3, I give m6 to Chuck.", "2008-09-01T10:01:00Z",
             msgid="<chuck-gift@example.org>")
    r = two.post("alice@example.org", "I cancel my scheduled action.", "2008-09-01T11:00:00Z")
    assert "you have 2 pending scheduled actions" in r
    r = two.post("alice@example.org", "I cancel the scheduled gift to Bob.", "2008-09-01T11:01:00Z")
    assert "Done" in r
    two.tick("2008-09-03T00:00:00Z")
    assert gifts_to_bob(two) == []
    assert [e["data"]["amount"] for e in two.show("events")
            if e["rule"] == "4E33" and e["data"].get("player") == "Chuck"] == [6]


def test_cancel_a_scheduled_action_named_by_its_kind(two):
    # Rule 4E7: "my scheduled give" is the one give of two scheduled actions (the other a forfeit)
    two.post("alice@example.org", "On nday 3, I give m5 to Bob.", "2008-09-01T10:00:00Z")
    two.post("alice@example.org", "On nday 3, I forfeit.", "2008-09-01T10:01:00Z")
    r = two.post("alice@example.org", "I cancel my scheduled give.", "2008-09-01T11:00:00Z")
    assert "Done" in r, r
    two.tick("2008-09-03T00:00:00Z")
    assert gifts_to_bob(two) == []
    assert "Alice" not in two.show("players")           # the forfeit happened: only the give was cancelled


def test_cancel_that_scheduled_action_in_a_reply(two):
    two.post("alice@example.org", "On nday 3, I give m5 to Bob.", "2008-09-01T10:00:00Z", msgid="<g1@example.org>")
    two.post("alice@example.org", "On nday 4, I give m7 to Bob.", "2008-09-01T10:01:00Z", msgid="<g2@example.org>")
    r = two.post("alice@example.org", "I cancel that scheduled gift.", "2008-09-01T11:00:00Z",
                 headers={"In-Reply-To": "<g2@example.org>"})
    assert "Done" in r
    two.tick("2008-09-04T00:00:00Z")
    assert [amount for _, amount in gifts_to_bob(two)] == [5]


@pytest.mark.parametrize("said", ["Cancel that.", "Actually, cancel that; I'll decide later.", "Never mind; I cancel that."])
def test_cancel_that_in_a_reply_to_ones_own_scheduling_mail(two, said):
    # Rule 4E7: the author cancels the action the mail replied to scheduled, and only that one
    two.post("alice@example.org", "On nday 3, I give m5 to Bob.", "2008-09-01T10:00:00Z", msgid="<g1@example.org>")
    two.post("alice@example.org", "On nday 4, I give m7 to Bob.", "2008-09-01T10:01:00Z", msgid="<g2@example.org>")
    r = two.post("alice@example.org", said, "2008-09-01T11:00:00Z", headers={"In-Reply-To": "<g2@example.org>"})
    assert "Done" in r
    two.tick("2008-09-05T00:00:00Z")
    assert [amount for _, amount in gifts_to_bob(two)] == [5]


def test_cancel_that_from_another_player_cancels_nothing(two):
    two.post("alice@example.org", "On nday 3, I give m5 to Bob.", "2008-09-01T10:00:00Z", msgid="<g1@example.org>")
    r = two.post("bob@example.org", "Cancel that.", "2008-09-01T11:00:00Z", headers={"In-Reply-To": "<g1@example.org>"})
    assert "Done" not in r and "(Rule 4E7)" in r
    two.tick("2008-09-04T00:00:00Z")
    assert [amount for _, amount in gifts_to_bob(two)] == [5]


def test_cancel_that_in_reply_to_mail_that_scheduled_nothing_is_no_action(two):
    two.post("alice@example.org", "I give m5 to Bob.", "2008-09-01T10:00:00Z", msgid="<g1@example.org>")
    r = two.post("alice@example.org", "Cancel that.", "2008-09-01T11:00:00Z", headers={"In-Reply-To": "<g1@example.org>"})
    assert "Done" not in r


def test_a_utc_time_on_a_weekday_is_that_weekdays_next_occurrence(two):
    """Rule 4E7's UTC: "at 18:00 UTC on Thursday" is the next Thursday of the UTC calendar
    (2008-09-01 was a Monday); said on that weekday after the time, the one a week on."""
    two.post("alice@example.org", "At 18:00 UTC on Thursday I give m1 to Bob.", "2008-09-01T10:00:00Z")
    two.post("alice@example.org", "I give m2 to Bob on Monday at 09:00 UTC.", "2008-09-01T10:00:00Z")   # passed
    two.post("alice@example.org", "I give m3 to Bob on Monday at 11:00 UTC.", "2008-09-01T10:00:00Z")   # today
    two.tick("2008-09-09T00:00:00Z")
    assert gifts_to_bob(two) == [("2008-09-01T11:00:00Z", 3), ("2008-09-04T18:00:00Z", 1),
                                 ("2008-09-08T09:00:00Z", 2)]


def test_an_nday_named_of_a_given_nweek(two):
    """Rule 4E14's nday names, of an nweek said: "On Breakday of nweek 2" is nday 1 of nweek 2."""
    r = two.post("alice@example.org", "On Breakday of nweek 2 I will give m5 to Bob.", "2008-09-01T10:00:00Z")
    assert "scheduled for at the start of nday 1 of nweek 2" in r, r


def test_a_utc_time_on_a_date_without_a_year_is_its_next_occurrence(two):
    """Rule 4E7: "at 12:00 UTC on 3 September": that date's next occurrence (UTC)."""
    r = two.post("alice@example.org", "At 12:00 UTC on 3 September I will give m2 to Bob, unless I change my "
                 "mind before then, in which case I'll say so.", "2008-09-01T10:00:00Z")
    assert "Done: scheduled" in r, r
    two.post("alice@example.org", "I give m3 to Bob on September 2nd at 08:00 UTC.", "2008-09-01T10:00:00Z")
    r = two.post("alice@example.org", "At 12:00 UTC on 31 February I give m4 to Bob.", "2008-09-01T10:00:00Z")
    assert "Done" not in r
    two.tick("2008-09-04T00:00:00Z")
    assert gifts_to_bob(two) == [("2008-09-02T08:00:00Z", 3), ("2008-09-03T12:00:00Z", 2)]


def test_one_verb_over_two_actions_each_with_its_own_nday(two):
    """Rule 4E7: "I give m2 to Bob on nday 3 and m3 to Bob on nday 4": each at its time."""
    r = two.post("alice@example.org", "I give m2 to Bob on nday 3 and m3 to Bob on nday 4.", "2008-09-01T10:00:00Z")
    assert r.count("Done: scheduled") == 2, r
    two.tick("2008-09-05T00:00:00Z")
    assert gifts_to_bob(two) == [("2008-09-03T00:00:00Z", 2), ("2008-09-04T00:00:00Z", 3)]


@pytest.mark.parametrize("said", ["On Mulberry of next nweek, I give m5 to Bob.",
                                  "I give m5 to Bob on nday 3 of the next nweek."])
def test_an_nday_of_the_next_nweek_is_that_one_not_this_one(two, said):
    # Rule 4E7: a time "with reference ... to The Clock"; nday 3 is still ahead this nweek,
    # but the sender named the next nweek's
    r = two.post("alice@example.org", said, "2008-09-01T10:00:00Z")
    assert "nday 3 of nweek 2" in r, r


@pytest.mark.parametrize("said", ["At 09:00 UTC on nday 3, I give m5 to Bob.",
                                  "I give m5 to Bob on Mulberry at 09:00 UTC."])
def test_a_utc_time_within_a_named_nday_is_that_time_once_the_nday_has_begun(two, said):
    # Rule 4E7: "at a specific time": nday 3 (Mulberry) begins at midnight on 2008-09-03,
    # and 09:00 UTC of it is the time
    r = two.post("alice@example.org", said, "2008-09-01T10:00:00Z")
    assert "scheduled for at the start of nday 3 of nweek 1, at 09:00 UTC as #" in r, r
    number = r.split("as #")[1].split(" ")[0]
    two.tick("2008-09-03T08:59:00Z")
    assert gifts_to_bob(two) == []
    two.tick("2008-09-03T09:00:00Z")
    assert gifts_to_bob(two) == [("2008-09-03T09:00:00Z", 5)]
    # still the one number its author was given: cancelling it now finds nothing pending
    r = two.post("alice@example.org", f"I cancel my scheduled action #{number}.", "2008-09-03T10:00:00Z")
    assert "Done" not in r


def test_a_utc_time_within_an_nday_can_be_cancelled_by_its_number_after_the_nday_begins(two):
    r = two.post("alice@example.org", "At 09:00 UTC on nday 3 I give m5 to Bob.", "2008-09-01T10:00:00Z")
    number = r.split("as #")[1].split(" ")[0]
    two.tick("2008-09-03T01:00:00Z")                     # nday 3 has begun; 09:00 has not come
    r = two.post("alice@example.org", f"I cancel my scheduled action #{number}.", "2008-09-03T02:00:00Z")
    assert "Done" in r, r
    two.tick("2008-09-04T00:00:00Z")
    assert gifts_to_bob(two) == []


def test_tonight_at_a_utc_time_is_todays(two):
    two.post("alice@example.org", "At 23:59 UTC tonight I give m1 to Bob.", "2008-09-01T10:00:00Z")
    two.tick("2008-09-02T00:00:00Z")
    assert gifts_to_bob(two) == [("2008-09-01T23:59:00Z", 1)]


def test_scratch_all_my_scheduled_actions_cancels_them(two):
    # Rule 4E7: the author cancels before it happens, in their own words
    two.post("alice@example.org", "On nday 3, I give m5 to Bob.", "2008-09-01T10:00:00Z")
    r = two.post("alice@example.org", "Scratch all my scheduled actions, please, Doctor. Plans changed.",
                 "2008-09-01T11:00:00Z")
    assert "Done" in r, r
    two.tick("2008-09-04T00:00:00Z")
    assert gifts_to_bob(two) == []
