"""Issue 6: a whole nweek of proposing and voting by mail (Rules 4E15, 4E19,
4E20, 4E28, 4E14's Ballot), with every figure of the published results checked."""
from __future__ import annotations

import json

import pytest

PLAYERS = ["Wooble", "Ais523", "Bob", "Carol", "Dave"]


def mail(name: str) -> str:
    return f"{name.lower()}@example.org"


def submit(game, who, title, body, at, head=""):
    return game.post(mail(who), f'I submit the following proposal, titled "{title}":\n{head}{body}\n'
                     "END PROPOSAL\n", at)


@pytest.fixture
def nweek(game):
    """Five Vested players, Carol the Chairman, seven proposals, the Voting Period begun."""
    for i, n in enumerate(PLAYERS):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    game.post(mail("Carol"), "I assign the Ministry of Change to myself.", "2008-09-01T07:00:00Z")
    for n in PLAYERS:
        game.admin("set", n, "vested", "true")
    submit(game, "Wooble", "Quantities", "Amend Rule 4E30 to read: {{ There are no Quantities. }}",
           "2008-09-01T08:00:00Z")
    submit(game, "Ais523", "Quiet", "Repeal Rule 4E60", "2008-09-01T08:01:00Z")
    submit(game, "Bob", "Later", "Repeal Rule 4E61", "2008-09-01T08:02:00Z")
    submit(game, "Dave", "Base", 'Retitle Rule 4E9 to "Ages"', "2008-09-01T08:03:00Z")
    submit(game, "Carol", "Needs base", "Set the Power of Rule 4E9 to 2/3", "2008-09-01T08:04:00Z",
           head="Dependencies: 4\n")
    submit(game, "Wooble", "Winner", "Set the mackerel of Wooble to m500", "2008-09-01T08:05:00Z")
    submit(game, "Ais523", "Loser", "Set the mackerel of Ais523 to m500", "2008-09-01T08:06:00Z",
           head="Conflicts: 6\n")
    game.admin("clock", "on")
    game.tick("2008-09-09T00:00:00Z")
    return game


VOTES = {
    "Wooble": "FOR on 1, 2, 4, 6; SHELVE on 3; AGAINST on 5",
    "Ais523": "I vote FOR on 1, 2, 5, 6, 7. I vote SHELVE on 3. AGAINST on 4",
    "Bob": "I vote AGAINST on all Open proposals. FOR on 1, 3, 5, 6, 7. ABSTAIN on 2.",  # the latest counts
    "Carol": "FOR on 1, 5, 6, 7; AGAINST on 3, 4",
    "Dave": "AGAINST on 1; FOR on 4, 5, 6, 7; ABSTAIN on 2",
}


def vote_all(game):
    for i, (n, v) in enumerate(VOTES.items()):
        game.post(mail(n), v, f"2008-09-10T1{i}:00:00Z")


def test_the_ballot_is_published_for_the_chairman_and_the_clock_turns_on(nweek):
    clock = nweek.clock()
    assert (clock["nday"], clock["voting"], clock["on"]) == (9, True, True)
    text = nweek.cli("show", "ballot")
    assert text.startswith("Subject: [B Nomic] Ballot for nweek 1\n")
    assert "bnomic, for the Chairman (Carol), publishes the Ballot of nweek 1 (7 Open proposals)" in text
    assert "    I vote FOR on 1\n    FOR on 1, 2, 3, 4, 5, 6, 7\n" in text
    assert "A Vote is FOR, AGAINST, ABSTAIN or SHELVE" in text
    assert ("PROPOSAL 5: Needs base\nAuthor: Carol\nDependencies: 4\n\n"
            "Set the Power of Rule 4E9 to 2/3\n") in text
    assert "PROPOSAL 7: Loser\nAuthor: Ais523\nConflicts: 6\n\nSet the mackerel" in text
    assert "PROPOSAL 1: Quantities\nAuthor: Wooble\n\nAmend Rule 4E30" in text
    events = [e["summary"] for e in nweek.show("events")]
    i = events.index("the Voting Period of nweek 1 begins: proposals 1, 2, 3, 4, 5, 6, 7 are Open")
    assert "publishes the Ballot" in events[i + 1] and "Clock" in events[i + 2]
    assert all(p["status"] == "Open" for p in nweek.show("proposals"))


def test_a_full_nweek_of_voting_and_its_published_results(nweek):
    vote_all(nweek)
    nweek.tick("2008-09-13T00:00:00Z")
    assert nweek.clock()["nweek"] == 2
    props = {p["number"]: p for p in nweek.show("proposals")}
    expect = {  # number: (success, passed, status, stamina, strength)
        1: ("Won", True, "Historical", 5, 3),
        2: ("Discarded", False, "Historical", 2, 2),       # Stamina 2 < 5/2
        3: ("Undecided", False, "Pending", 4, -2),         # Shelved: back to the next ballot
        4: ("Lost", False, "Historical", 5, -1),
        5: ("Lost", False, "Historical", 5, 3),            # Won, then culled: depends on 4
        6: ("Won", True, "Historical", 5, 5),
        7: ("Lost", False, "Historical", 4, 4),            # Won, then culled: conflicts with 6
    }
    for n, (success, passed, status, stamina, strength) in expect.items():
        p = props[n]
        assert (p["success"], p["passed"], p["status"], p["stamina"], p["strength"]) == \
            (success, passed, status, stamina, strength), n
    assert props[1]["votes"] == {"Ais523": "FOR", "Bob": "FOR", "Carol": "FOR", "Dave": "AGAINST",
                                 "Wooble": "FOR"}
    assert props[2]["votes"]["Dave"] == "ABSTAIN"
    # the amendment and the other changes of the passed proposals are applied
    rules = {r["number"]: r for r in nweek.show("rules")}
    assert rules["4E30"]["text"] == "There are no Quantities."
    assert any("Proposal 1" in h["what"] for h in rules["4E30"]["history"])
    assert (rules["4E9"]["title"], rules["4E9"]["power"]) == ("Eras", "1/2")   # 4 Lost, 5 culled
    assert "4E60" in rules                          # proposal 2 Discarded: not repealed
    # scoring (4E19): +1 per Final Vote not ABSTAIN on a proposal become Historical;
    # Strength to the author of a passed one; -3 for Failed and never Won
    points = {n: p["points"] for n, p in nweek.players().items()}
    assert points == {"Wooble": 5 + 3 + 5, "Ais523": 6, "Bob": 5, "Carol": 5, "Dave": 5 - 3,
                      "The Beast": 0}
    # proposal 6 set Wooble's mackerel at the tally; the new nweek's m25 came after (4E75)
    assert nweek.players()["Wooble"]["mackerel"] == 525

    text = nweek.cli("show", "results")
    assert text.startswith("Subject: [B Nomic] Results of the voting of nweek 1\n")
    assert ("Vested players: 5. A proposal with a Stamina less than half of\n"
            "that (2.5) is Discarded.") in text
    block = text.split("PROPOSAL 5: Needs base, by Carol\n")[1].split("-----")[0]
    assert block == ("OUTCOME: LOST (Failed)\nVotes:\n"
                     "    Ais523               FOR\n    Bob                  FOR\n"
                     "    Carol                FOR\n    Dave                 FOR\n"
                     "    Wooble               AGAINST\n\n"
                     "FOR 4, AGAINST 1, SHELVE 0, ABSTAIN 0\nStamina 5, Strength 3\n"
                     "    Won: Strength 3 is positive\n"
                     "    Lost: Dependency Culling: it Depends on proposal 4, which is Lost\n\n")
    assert "    Lost: Conflict Culling: it Conflicts with proposal 6, which is Won\n" in text
    assert "    Discarded: Stamina 2 is less than half the 5 Vested players\n" in text
    assert ("OUTCOME: SHELVED (RETURNS TO THE NEXT BALLOT)" in text and
            "    Discarded: Shelved: Strength -2 would be 2 with SHELVE as FOR\n" in text)
    assert "    Applied: Rule 4E30 amended by Proposal 1" in text
    # every figure of every proposal, as published: FOR, AGAINST, SHELVE, ABSTAIN, Stamina, Strength
    counts = {1: (4, 1, 0, 0, 5, 3), 2: (2, 0, 0, 2, 2, 2), 3: (1, 1, 2, 0, 4, -2),
              4: (2, 3, 0, 0, 5, -1), 5: (4, 1, 0, 0, 5, 3), 6: (5, 0, 0, 0, 5, 5),
              7: (4, 0, 0, 0, 4, 4)}
    outcomes = {1: "PASSED", 2: "DISCARDED", 3: "SHELVED (RETURNS TO THE NEXT BALLOT)", 4: "LOST (Failed)",
                5: "LOST (Failed)", 6: "PASSED", 7: "LOST (Failed)"}
    for n, (f, a, sh, ab, stamina, strength) in counts.items():
        block = text.split(f"PROPOSAL {n}: ")[1].split("-----")[0]
        assert f"OUTCOME: {outcomes[n]}\n" in block, n
        assert f"FOR {f}, AGAINST {a}, SHELVE {sh}, ABSTAIN {ab}\nStamina {stamina}, Strength {strength}\n" \
            in block, n
        for voter, vote in props[n]["votes"].items():
            assert f"    {voter:<20} {vote}\n" in block, (n, voter)
    # every score change, as published
    for line in ("    Ais523: 0 -> 6 (+6)\n", "    Bob: 0 -> 5 (+5)\n", "    Carol: 0 -> 5 (+5)\n",
                 "    Dave: 0 -> 2 (+2)\n", "    Wooble: 0 -> 13 (+13)\n"):
        assert line in text
    assert ("    Dave: 0 -> 2 (+2)\n"
            "        +5: a Final Vote other than ABSTAIN on proposals 1, 4, 5, 6, 7\n"
            "        -3: proposal 4 Failed and was never Won\n") in text
    assert ("    Wooble: 0 -> 13 (+13)\n"
            "        +5: a Final Vote other than ABSTAIN on proposals 1, 2, 4, 5, 6\n"
            "        +3: proposal 1 Passed with Strength 3\n"
            "        +5: proposal 6 Passed with Strength 5\n") in text
    # the Vested property follows the votes (4E28): all five voted in nweek 1
    assert all(nweek.players()[n]["vested"] for n in PLAYERS)


def test_votes_on_proposals_that_are_not_open_are_refused_with_the_reason(nweek):
    r = nweek.post(mail("Bob"), "I vote FOR on 3, 99. I vote MAYBE on 1.", "2008-09-10T10:00:00Z")
    assert "not counted: there is no proposal 99 (Rule 4E15)" in r
    assert "missing: the vote; not understood: “MAYBE”" in r and '(for example "I vote FOR on 12, 14") (Rule 4E15)' in r
    submit(nweek, "Bob", "Too late", "Repeal Rule 4E62", "2008-09-10T11:00:00Z")
    r = nweek.post(mail("Bob"), "I vote FOR on 8.", "2008-09-10T12:00:00Z")
    assert 'proposal 8 ("Too late") is Pending, not Open (Rule 4E15)' in r
    r = nweek.post("stranger@example.org", "I vote FOR on 1.", "2008-09-10T12:00:00Z")
    assert "Rule 4E" in r and "Done" not in r


def test_a_proposal_shelved_in_two_consecutive_nweeks_never_returns(nweek):
    vote_all(nweek)
    nweek.tick("2008-09-13T00:00:00Z")
    later = {p["number"]: p for p in nweek.show("proposals")}[3]
    assert later["status"] == "Pending"
    # nweek 2: to the Voting Period; it is on the ballot again and shelved again
    nweek.admin("clock", "on")
    nweek.tick("2008-09-21T00:00:00Z")
    assert nweek.clock()["nday"] == 9
    assert "PROPOSAL 3: Later" in nweek.cli("show", "ballot", "2")
    nweek.post(mail("Wooble"), "SHELVE on 3", "2008-09-21T10:00:00Z")
    nweek.post(mail("Ais523"), "SHELVE on 3", "2008-09-21T10:01:00Z")
    nweek.post(mail("Carol"), "AGAINST on 3", "2008-09-21T10:02:00Z")
    nweek.tick("2008-09-25T00:00:00Z")
    p = {p["number"]: p for p in nweek.show("proposals")}[3]
    assert (p["status"], p["success"], p["failed"], p["passed"]) == ("Historical", "Lost", True, False)
    assert p["decided_by"].startswith("Lost: Shelved in two consecutive nweeks")
    results = nweek.cli("show", "results", "2")
    assert "        -3: proposal 3 Failed and was never Won\n" in results
    # nweek 3: it is not on the ballot
    nweek.admin("clock", "on")
    nweek.tick("2008-10-03T00:00:00Z")
    assert nweek.clock()["nday"] == 9
    assert "PROPOSAL 3" not in nweek.cli("show", "ballot", "3")
    assert "No proposal is Open" in nweek.cli("show", "ballot", "3")


def test_the_chairman_who_keeps_the_ballot_duty_publishes_and_turns_the_clock_on(game):
    for i, n in enumerate(PLAYERS[:3]):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    game.post(mail("Bob"), "I assign the Ministry of Change to myself. I take back the duty to "
              "publish the ballot.", "2008-09-01T07:00:00Z")
    submit(game, "Wooble", "One", "Repeal Rule 4E60", "2008-09-01T08:00:00Z")
    game.admin("clock", "on")
    game.tick("2008-09-09T00:00:00Z")
    assert game.clock()["on"] is False         # it waits for the Chairman's Ballot
    obligations = [e["summary"] for e in game.show("events") if "obliged" in e["summary"]]
    assert any("publish the Ballot of nweek 1" in s for s in obligations)
    r = game.post(mail("Bob"), "I turn the Clock On.", "2008-09-09T09:00:00Z")
    assert "Chairman, in the Voting Period, after publishing a Ballot" in r
    r = game.post(mail("Bob"), "I publish the Ballot.\n\nProposal 2: nothing", "2008-09-09T09:30:00Z")
    assert "the Ballot must list every Open proposal; it lacks [1] (Rule 4E15)" in r
    r = game.post(mail("Bob"), "I publish the Ballot.\n\nProposal 1 (One), by Wooble: Repeal Rule 4E60",
                  "2008-09-09T10:00:00Z")
    assert "Done" in r
    r = game.post(mail("Bob"), "I turn the Clock On.", "2008-09-09T11:00:00Z")
    assert "Done" in r and game.clock()["on"] is True


def test_a_vacant_ministry_of_change_leaves_the_clock_off(game):
    game.join("Wooble", "2008-09-01T01:00:00Z")
    submit(game, "Wooble", "One", "Repeal Rule 4E60", "2008-09-01T08:00:00Z")
    assert game.show("proposals")[0]["number"] is None     # nobody numbers it
    game.admin("clock", "on")
    game.tick("2008-09-11T00:00:00Z")
    c = game.clock()
    assert (c["nday"], c["on"], c["ndelay"]) == (9, False, 2)
    assert game.run("show", "ballot")[0] != 0
    # a Chairman arrives: bnomic numbers the proposal, publishes the Ballot, turns the Clock On
    game.post(mail("Wooble"), "I become the Chairman.", "2008-09-11T09:00:00Z")
    assert game.show("proposals")[0]["number"] == 1
    assert game.clock()["on"] is True
    assert "PROPOSAL 1: One" in game.cli("show", "ballot")


def test_revising_withdrawing_and_colors(game):
    for i, n in enumerate(PLAYERS[:2]):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    game.post(mail("Ais523"), "I become the Chairman.", "2008-09-01T05:00:00Z")
    r = game.post(mail("Wooble"), "I submit a proposal:\nRepeal Rule 4E60", "2008-09-01T08:00:00Z",
                  subject="Proposal: Tidy up")
    assert 'proposal 1 ("Tidy up")' in r
    r = game.post(mail("Ais523"), "I revise proposal 1:\nRepeal Rule 4E61", "2008-09-01T09:00:00Z")
    assert "only its Author may revise it (Rule 4E15)" in r
    game.post(mail("Wooble"), "I revise proposal 1:\nRepeal Rule 4E61\nEND PROPOSAL\n"
              "I change the Proposal Color of proposal 1 to Burnt Sienna.", "2008-09-01T10:00:00Z")
    p = game.show("proposals")[0]
    assert (p["title"], p["body"], p["color"]) == ("Tidy up", "Repeal Rule 4E61", "Burnt Sienna")
    r = game.post(mail("Wooble"), "I change the Proposal Color of proposal 1 to Blue.",
                  "2008-09-01T11:00:00Z")
    assert "you have changed a Proposal Color this nday already (Rule 4E69)" in r
    r = game.post(mail("Wooble"), "I change the Proposal Color of proposal 1 to Mauve.",
                  "2008-09-01T11:00:00Z")
    assert "'Mauve' is not a Proposal Color" in r
    r = game.post(mail("Wooble"), "I submit the following proposal:\nDependencies: 7\nRepeal Rule 4E62",
                  "2008-09-01T12:00:00Z")
    assert "its Dependencies name proposal 7, which does not exist (Rule 4E15)" in r
    game.post(mail("Wooble"), "I withdraw proposal 1.", "2008-09-01T13:00:00Z")
    p = game.show("proposals")[0]
    assert (p["status"], p["success"]) == ("Historical", "Lost")
    r = game.post(mail("Wooble"), "I submit a proposal: Repeal Rule 4E63", "2008-09-01T14:00:00Z")
    assert json.loads(game.cli("show", "proposals", "--json"))[1]["number"] == 2   # never reused


def test_show_proposals_json_is_the_contract(nweek):
    row = nweek.show("proposals")[0]
    for key in ("number", "title", "author", "status", "success", "passed", "votes", "strength",
                "stamina", "color"):
        assert key in row
    assert (row["number"], row["title"], row["author"], row["status"]) == (1, "Quantities", "Wooble", "Open")


def test_the_ballot_and_the_results_are_mailed_to_the_list_once(nweek):
    """What the daemon's publisher queues: the same text `show ballot|results` prints."""
    from datetime import datetime, timezone
    from bnomic.handlers.context import game_config
    from bnomic.mailer import publish
    from bnomic.store import Outbox, open_database, write_transaction
    vote_all(nweek)
    nweek.tick("2008-09-13T00:00:00Z")
    ballot = nweek.cli("show", "ballot", "1").split("\n\n", 1)[1]
    results = nweek.cli("show", "results", "1").split("\n\n", 1)[1]
    open_database(nweek.db)
    now = datetime(2008, 9, 13, 0, 5, tzinfo=timezone.utc)
    with write_transaction():
        publish.notify(game_config(), now)
        publish.notify(game_config(), now)
    rows = {r.kind: r for r in Outbox.select().where(Outbox.kind.in_(["ballot", "results"]))}
    assert Outbox.select().where(Outbox.kind.in_(["ballot", "results"])).count() == 2
    assert rows["ballot"].subject == "[B Nomic] Ballot for nweek 1" and rows["ballot"].body == ballot
    assert rows["results"].subject == "[B Nomic] Results of the voting of nweek 1"
    assert rows["results"].body == results
    assert rows["ballot"].to == rows["results"].to == [publish.list_address(game_config())]


def test_a_proposal_written_as_a_form_keeps_its_attributes_out_of_its_body(game):
    """Rule 4E15: a proposal's Title, Conflicts and Dependencies are Attributes, not its Body,
    whether written above the Body (with a "Body:" or "Text:" label) or below it."""
    game.join("Dana", "2008-09-01T01:00:00Z")
    r = game.post(mail("Dana"), "Here's a proposal (submitting it):\n\n  Title: The Calm Clause\n  Text:\n"
                  '    Amend Rule 4E0 by replacing "four PEPs" with "five PEPs".\n  Conflicts: none\n'
                  "  Dependencies: none\n", "2008-09-01T02:00:00Z")
    assert "Done" in r, r
    (p,) = [p for p in game.show("proposals") if p["title"] == "The Calm Clause"]
    assert p["body"].strip() == 'Amend Rule 4E0 by replacing "four PEPs" with "five PEPs".'


def test_a_proposal_headed_by_its_title_underlined_takes_it_as_its_title(game):
    """Rule 4E15: a Title is optional; "__Sock Day__" heading the Body is the Title, not text."""
    game.join("Dana", "2008-09-01T01:00:00Z")
    r = game.post(mail("Dana"), "I submit a proposal:\n\n{{__Sock Day__\nOn Sock Day, each Player who holds a Sock "
                  "gains m5. }}\n", "2008-09-01T02:00:00Z")
    assert "Done" in r, r
    (p,) = [p for p in game.show("proposals") if p["title"] == "Sock Day"]
    assert p["body"].strip() == "On Sock Day, each Player who holds a Sock gains m5."


def test_a_colour_set_with_its_proposal_and_a_colon_after_it(game):
    # Rule 4E69: "change the Proposal Color of a Pending Proposal to a value of his choice";
    # the colon that leads to the document below is no part of the Color
    game.join(PLAYERS[0], "2008-09-01T01:00:00Z")
    r = game.post(mail(PLAYERS[0]), "I submit this proposal and set its Proposal Color to Burgundy:\n\n"
                  "{{\nRepeal Rule 4E60.\n}}", "2008-09-01T08:00:00Z")
    assert "Done" in r and "not a Proposal Color" not in r, r
    assert game.show("proposals")[0]["color"] == "Burgundy"



def test_everything_else_leaves_the_senders_earlier_votes_standing(nweek):
    # docs/readings.md: "everything else" is the Open proposals the sender has not voted on
    def bobs():
        return {p["number"]: p["votes"].get("Bob") for p in nweek.show("proposals")}
    nweek.post(mail("Bob"), "I vote FOR on 2.", "2008-09-10T10:00:00Z")
    r = nweek.post(mail("Bob"), "AGAINST 3. Everything else: ABSTAIN", "2008-09-10T11:00:00Z")
    assert "your earlier vote stands on Proposal 2" in r and "(Rule 4E15)" in r
    assert bobs() == {1: "ABSTAIN", 2: "FOR", 3: "AGAINST", 4: "ABSTAIN", 5: "ABSTAIN", 6: "ABSTAIN", 7: "ABSTAIN"}
    nweek.post(mail("Bob"), "AGAINST on all Open proposals. FOR 5.", "2008-09-10T12:00:00Z")    # "all" is all
    assert bobs() == {1: "AGAINST", 2: "AGAINST", 3: "AGAINST", 4: "AGAINST", 5: "FOR", 6: "AGAINST", 7: "AGAINST"}
    r = nweek.post(mail("Bob"), "SHELVE everything else.", "2008-09-10T13:00:00Z")
    assert "you have voted on every other Open proposal already (Proposals 1, 2, 3, 4, 5, 6, 7)" in r
    assert bobs()[1] == "AGAINST"
