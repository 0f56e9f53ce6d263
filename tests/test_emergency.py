"""Issue 7: the State of Emergency (Rule 4E0) and the Threat Flag it raises (4E40)."""
from __future__ import annotations

import pytest

from bnomic.handlers.emergency import instant_runoff

PEPS = ["Wooble", "Ais523", "Bob", "Carol", "Dave"]
FORUM = "emergency@example.org"


def mail(name: str) -> str:
    return f"{name.lower()}@example.org"


def emergency(game):
    return game.show("emergency")


@pytest.fixture
def crisis(game):
    """Five PEPs, Wooble the MoM; a game-time and an absolute deadline pending;
    then four PEPs turn Paranoid on nday 3."""
    for i, n in enumerate(PEPS):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    game.post(mail("Wooble"), "I become the MoM.", "2008-09-01T07:00:00Z")
    game.admin("clock", "on")
    game.tick("2008-09-03T08:00:00Z")
    game.post(mail("Bob"), "On nday 5, I give m5 to Carol.", "2008-09-03T09:00:00Z")
    game.post(mail("Dave"), "At 2008-09-05 12:00 UTC, I give m5 to Carol.", "2008-09-03T09:00:00Z")
    for i, n in enumerate(PEPS[1:4]):
        game.post(mail(n), "I set my Mental State to Paranoid.", f"2008-09-03T09:1{i}:00Z")
    assert emergency(game)["active"] is False
    game.post(mail("Wooble"), "I am Paranoid.", "2008-09-03T10:00:00Z")
    return game


def test_four_paranoid_peps_start_an_emergency(crisis):
    e = emergency(crisis)
    assert e["active"] is True and e["coordinator"] == "Wooble"
    assert sorted(e["paranoid"]) == ["Ais523", "Bob", "Carol", "Wooble"]
    assert e["threat_flag"] == "Black Watch Plaid" and e["pause"] is None
    assert crisis.clock()["time_stopped"] is True
    r = crisis.post(mail("Bob"), "I designate x@example.org as the Emergency Forum.", "2008-09-03T11:00:00Z")
    assert "the Emergency Coordinator designates the Emergency Forum in the first 24 hours" in r


def test_an_emergency_from_the_fourth_paranoid_message_to_the_applied_refresh_proposal(crisis):
    g = crisis
    g.post(mail("Wooble"), f"I designate {FORUM} as the Emergency Forum.", "2008-09-03T11:00:00Z")
    r = g.post(mail("Wooble"), "I initialise the Pause.", "2008-09-03T11:30:00Z")
    assert f"send this to the Emergency Forum ({FORUM})" in r
    g.post(mail("Wooble"), "I initialise the Pause.", "2008-09-03T12:00:00Z", to=FORUM)
    assert emergency(g)["pause"] == 0
    bodies = {"Wooble": "Set the points of Ais523 to 9", "Ais523": "Set the points of Bob to 9",
              "Bob": "Set A Few to 5", "Dave": "Repeal Rule 4E60"}
    for i, (n, body) in enumerate(bodies.items()):
        r = g.post(mail(n), f"I submit the following Refresh Proposal:\n{body}\nEND REFRESH PROPOSAL",
                   f"2008-09-04T1{i}:00:00Z", to=FORUM)
        assert "Done" in r, r
    assert [p["id"] for p in emergency(g)["refresh_proposals"]] == [1, 2, 3, 4]
    g.tick("2008-09-08T00:00:00Z")                 # five 00:00 UTC: the Pause is 5
    e = emergency(g)
    assert e["pause"] == 5
    r = g.post(mail("Carol"), "I submit the following Refresh Proposal:\nRepeal Rule 4E61",
               "2008-09-08T09:00:00Z", to=FORUM)
    assert "Refresh Proposals are submitted before it is 5 (Rule 4E0)" in r
    ballot = g.cli("show", "events", "--json")
    assert "the Ballot of Emergency Procedure 1: Refresh Proposals 1, 2, 3, 4" in ballot
    rankings = {"Wooble": "1, 2", "Ais523": "1, 3", "Bob": "2, 1", "Carol": "3, 2", "Dave": "4, 2"}
    for i, (n, ranking) in enumerate(rankings.items()):
        r = g.post(mail(n), f"I rank the Refresh Proposals: {ranking}", f"2008-09-08T1{i}:00:00Z", to=FORUM)
        assert "Done" in r, r
    r = g.post(mail("Dave"), "I rank the Refresh Proposals: 1", "2008-09-08T16:00:00Z", to=FORUM)
    assert "each PEP casts a single Ballot (Rule 4E0)" in r
    assert g.clock()["nday"] == 3                  # the Clock has not moved
    g.tick("2008-09-10T00:00:00Z")                 # the Pause is 7: the count
    e = emergency(g)
    assert e["active"] is False and e["state"] == "completed" and e["paranoid"] == []
    assert e["threat_flag"] == "Jolly Roger"
    (count,) = [x for x in g.show("events") if x["kind"] == "emergency_count"]
    lines = count["data"]["lines"]
    assert lines[0].startswith("round 1: RP 1: 2, RP 2: 1, RP 3: 1, RP 4: 1; tie for fewest between "
                               "[2, 3, 4], drawn at random: RP ")
    assert e["winner"] == 1 and lines[-1].endswith("RP 1 has a majority")
    # the same seed draws the same: the count is part of the replayed state
    digest = g.digest()
    g.cli("rebuild")
    assert g.digest() == digest
    assert g.players()["Ais523"]["points"] == 9           # Refresh Proposal 1's change
    assert g.clock()["time_stopped"] is False and g.clock()["nday"] == 3


def test_the_clock_stands_still_and_deadlines_land_afterwards_shifted(crisis):
    g = crisis
    g.post(mail("Wooble"), f"I designate {FORUM} as the Emergency Forum.", "2008-09-03T11:00:00Z")
    g.tick("2008-09-06T12:00:00Z")
    c = g.clock()
    assert (c["nweek"], c["nday"], c["ndelay"], c["time_stopped"]) == (1, 3, 0, True)
    assert g.players()["Carol"]["mackerel"] == 50           # nothing fired
    events = [x["summary"] for x in g.show("events")]
    assert "scheduled_action did not occur: game time is stopped" in events   # the absolute one
    g.post(mail("Carol"), "I am Calm.", "2008-09-06T13:00:00Z")        # three Paranoid: over
    assert g.clock()["time_stopped"] is False and emergency(g)["active"] is False
    g.tick("2008-09-07T00:00:00Z")
    assert g.clock()["nday"] == 4 and g.players()["Carol"]["mackerel"] == 50
    g.tick("2008-09-08T00:00:00Z")                    # nday 5 at last: three rdays late
    assert g.clock()["nday"] == 5 and g.players()["Carol"]["mackerel"] == 55


def test_mental_states_are_set_in_public_and_calm_on_mulberry_under_pink_ponies(game):
    for i, n in enumerate(PEPS[:2]):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    game.post(mail("Wooble"), "I am Paranoid.", "2008-09-01T10:00:00Z")
    assert emergency(game)["paranoid"] == ["Wooble"]
    game.admin("clock", "on")
    game.tick("2008-09-03T00:00:00Z")                 # Mulberry, nday 3, Pink Ponies
    assert emergency(game)["paranoid"] == []


def test_instant_runoff_rounds():
    winner, rounds = instant_runoff([[1, 2], [2], [3, 1], [1]], [1, 2, 3], draw=lambda t: t[0])
    assert winner == 1
    assert rounds[0] == {"round": 1, "votes": {"1": 2, "2": 1, "3": 1}, "ballots": 4,
                         "tie": [2, 3], "eliminated": 2}
    assert rounds[1] == {"round": 2, "votes": {"1": 2, "3": 1}, "ballots": 3, "selected": 1}
    # exhausted ballots are discarded from later rounds
    winner, rounds = instant_runoff([[1], [2], [2], [3], [3]], [1, 2, 3], draw=lambda t: t[-1])
    assert rounds[1]["ballots"] == 4 and rounds[0]["eliminated"] == 1


def test_the_count_is_published_round_by_round(crisis):
    from bnomic.mailer import publish
    from bnomic.store import Event, open_database
    g = crisis
    g.post(mail("Wooble"), f"I designate {FORUM} as the Emergency Forum.", "2008-09-03T11:00:00Z")
    g.post(mail("Wooble"), "I initialise the Pause.", "2008-09-03T12:00:00Z", to=FORUM)
    for i, n in enumerate(["Wooble", "Ais523", "Bob"]):
        g.post(mail(n), f"I submit the following Refresh Proposal:\nSet the points of {n} to 4\n"
               "END REFRESH PROPOSAL", f"2008-09-04T1{i}:00:00Z", to=FORUM)
    g.tick("2008-09-08T00:00:00Z")
    for i, (n, ranking) in enumerate({"Wooble": "1", "Ais523": "2", "Bob": "3, 1", "Carol": "1"}.items()):
        g.post(mail(n), f"My ballot: {ranking}", f"2008-09-08T1{i}:00:00Z", to=FORUM)
    g.tick("2008-09-10T00:00:00Z")
    open_database(g.db)
    (event,) = Event.select().where(Event.kind == "emergency_count")
    subject, body = publish.published_mail(event)
    assert subject == "[B Nomic] State of Emergency: the count of Emergency Procedure 1: Refresh Proposal 1 is selected"
    assert ("THE COUNT, BY INSTANT RUNOFF (Rule 4E0, step 8)\n"
            "    round 1: RP 1: 2, RP 2: 1, RP 3: 1; tie for fewest between [2, 3], drawn at random: "
            f"RP {event.data['rounds'][0]['eliminated']} eliminated\n") in body
    assert "Refresh Proposal 1 is selected.\n" in body
    assert "    Applied: Wooble's points set from 0 to 4 by Refresh Proposal 1\n" in body
    assert body.rstrip().endswith("All PEPs are Calm.\n-- \nbnomic, the B Nomic mail processor".rstrip())


def test_a_paranoid_pep_forfeiting_ends_the_emergency(crisis):
    assert emergency(crisis)["active"] is True
    crisis.post(mail("Bob"), "I forfeit the game.", "2008-09-03T12:00:00Z")
    e = emergency(crisis)
    assert e["active"] is False and e["state"] == "stopped" and e["threat_flag"] == "Jolly Roger"
    assert crisis.clock()["time_stopped"] is False


@pytest.mark.parametrize("objection, pause", [(False, 2), (True, 1)])
def test_the_coordinators_unopposed_intent_increments_the_pause(crisis, objection, pause):
    g = crisis
    g.post(mail("Wooble"), f"I designate {FORUM} as the Emergency Forum.", "2008-09-03T11:00:00Z")
    g.post(mail("Wooble"), "I initialise the Pause.", "2008-09-03T12:00:00Z", to=FORUM)
    r = g.post(mail("Bob"), "I intend to increment the Pause.", "2008-09-03T12:30:00Z", to=FORUM)
    assert "only the Emergency Coordinator may announce this (Rule 4E0)" in r
    g.post(mail("Wooble"), "I intend to increment the Pause.", "2008-09-03T13:00:00Z", to=FORUM)
    if objection:
        g.post(mail("Dave"), "I object to incrementing the Pause.", "2008-09-04T09:00:00Z", to=FORUM)
    g.tick("2008-09-04T13:00:00Z")          # 00:00 UTC (+1), then 24 hours after the intent
    assert emergency(g)["pause"] == pause


def test_a_parallel_procedure_after_fourteen_days(crisis):
    g = crisis
    r = g.post(mail("Dave"), "I initiate another Emergency Procedure.", "2008-09-10T10:00:00Z")
    assert "Procedure 1 has run less than 14 days (Rule 4E0)" in r
    r = g.post(mail("Dave"), "I initiate another Emergency Procedure.", "2008-09-17T10:00:00Z")
    assert "Done" in r
    procs = emergency(g)["procedures"]
    assert [(p["id"], p["state"]) for p in procs] == [(1, "running"), (2, "running")]
    assert emergency(g)["coordinator"] == "Dave"


def test_a_ballot_of_numbered_lines_names_refresh_proposals_by_author_and_one_revises_only_his_own(crisis):
    """Rule 4E0, steps 5 and 7 (issue 13): "revise or withdraw his own Refresh Proposal";
    a Ballot "shall rank some (or all) of the Refresh Proposals in order of preference",
    here as numbered lines under "My ranking:", one named by its author."""
    g = crisis
    g.post(mail("Wooble"), f"I designate {FORUM} as the Emergency Forum.", "2008-09-03T11:00:00Z")
    g.post(mail("Wooble"), "I initialise the Pause.", "2008-09-03T12:00:00Z", to=FORUM)
    for i, n in enumerate(["Wooble", "Ais523"]):
        g.post(mail(n), f"I submit a Refresh Proposal:\nSet the points of {n} to 4\nEND REFRESH PROPOSAL",
               f"2008-09-04T1{i}:00:00Z", to=FORUM)
    r = g.post(mail("Ais523"), "I withdraw Refresh Proposal 1.", "2008-09-04T13:00:00Z", to=FORUM)
    assert "Refresh Proposal 1 is not yours: a PEP revises or withdraws only his own (yours is 2) (Rule 4E0)" in r
    r = g.post(mail("Ais523"), "I revise my Refresh Proposal:\nSet the points of Ais523 to 5\n",
               "2008-09-04T14:00:00Z", to=FORUM)
    assert "Done" in r
    assert [(p["id"], p["body"]) for p in emergency(g)["refresh_proposals"]] == [
        (1, "Set the points of Wooble to 4"), (2, "Set the points of Ais523 to 5")]
    g.tick("2008-09-08T00:00:00Z")
    r = g.post(mail("Bob"), "Here it is.\n\nMy ranking:\n1. Ais523's Refresh Proposal\n2. RP 1\n",
               "2008-09-08T10:00:00Z", to=FORUM)
    assert "Done" in r, r
    assert "Bob casts a Ballot: 2 > 1" in [x["summary"] for x in g.show("events")]
