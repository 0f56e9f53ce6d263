"""Issue 15, part C: the results mail of a large nweek stays readable: above
`displays.results_full_above_chars`, a summary first and every vote in a second
mail that answers it (Rule 4E15: together they are the results)."""
from __future__ import annotations

from datetime import datetime, timezone

from test_voting import nweek, vote_all  # noqa: F401  (the fixture)


def results_rows(game):
    from bnomic.handlers.context import game_config
    from bnomic.mailer import publish
    from bnomic.store import Outbox, close_database, open_database, write_transaction
    open_database(game.db)
    try:
        now = datetime(2008, 9, 13, 0, 5, tzinfo=timezone.utc)
        with write_transaction():
            publish.notify(game_config(), now)
            publish.notify(game_config(), now)
        return [{"id": r.message_id, "subject": r.subject, "body": r.body, "in_reply_to": r.in_reply_to,
                 "to": r.to} for r in Outbox.select().where(Outbox.kind == "results").order_by(Outbox.id)]
    finally:
        close_database()


def test_long_results_are_a_summary_then_every_vote(nweek):  # noqa: F811
    nweek.admin("setting", "displays.results_full_above_chars", "500")
    vote_all(nweek)
    nweek.tick("2008-09-13T00:00:00Z")
    full = nweek.cli("show", "results", "1").split("\n\n", 1)[1]
    assert len(full) > 500
    summary, votes = results_rows(nweek)
    assert summary["subject"] == "[B Nomic] Results of the voting of nweek 1"
    assert votes["subject"] == "[B Nomic] Results of the voting of nweek 1: every vote"
    assert votes["body"] == full and votes["in_reply_to"] == summary["id"]
    assert summary["to"] == votes["to"]
    body = summary["body"]
    assert "SUMMARY" in body and "Votes:" not in body and "every vote" in body
    assert len(body) < len(full)
    for number in range(1, 8):
        assert any(line.split()[:1] == [str(number)] for line in body.splitlines()), number
    assert "SCORE CHANGES (Rule 4E19)" in body


def test_short_results_are_one_mail(nweek):  # noqa: F811
    vote_all(nweek)
    nweek.tick("2008-09-13T00:00:00Z")
    (only,) = results_rows(nweek)
    assert "Votes:" in only["body"] and only["in_reply_to"] is None


def test_each_vote_is_a_line_and_no_votes_say_none():
    """The votes block (issue 16: written by one filter call, not a template loop per vote)."""
    from types import SimpleNamespace
    from bnomic.render import render
    proposal = {"number": 1, "title": "T", "author": "Bob", "outcome": "Lost", "failed": True, "for": 1,
                "against": 1, "shelve": 0, "abstain": 1, "stamina": 2, "strength": 0, "steps": [],
                "applied": [], "unapplied": []}
    d = {"nweek": 3, "vested": 4, "scores": [],
         "proposals": [dict(proposal, votes={"Ais523": "FOR", "bob": "AGAINST", "Carol": "ABSTAIN"}),
                       dict(proposal, number=2, votes={})]}
    text = render("results.txt", event=SimpleNamespace(summary="counted"), d=d)
    first, second = text.split("PROPOSAL 1:")[1].split("PROPOSAL 2:")
    assert ("Votes:\n    Ais523               FOR\n    bob                  AGAINST\n"
            "    Carol                ABSTAIN\n\nFOR 1,") in first
    assert "Votes:\n    none\n\nFOR 1," in second
