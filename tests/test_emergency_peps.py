"""Issue 15, part C: Rule 4E0's PEPs when fewer than four Players exist, and its
"any forum that was a Public Forum within the past month"."""
from __future__ import annotations

from datetime import datetime, timezone

from bnomic.handlers.emergency import month_before


def mail(name: str) -> str:
    return f"{name.lower()}@example.org"


def test_with_fewer_than_four_players_the_peps_are_the_players_before_the_drop(game):
    for i, n in enumerate(["Wooble", "Bob", "Carol", "Dave"]):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    game.admin("clock", "on")
    game.admin("remove-player", "The Beast")        # four Players: Wooble, Bob, Carol, Dave
    r = game.post(mail("Dave"), "I forfeit.", "2008-09-01T08:00:00Z")
    assert "Done" in r                              # three Players now
    for i, n in enumerate(["Wooble", "Bob", "Carol"]):
        r = game.post(mail(n), "I set my Mental State to Paranoid.", f"2008-09-01T09:1{i}:00Z")
        assert "Done" in r, r
    assert game.show("emergency")["active"] is False
    # Dave is no Player now, but still a PEP: there are fewer than four Players
    r = game.post(mail("Dave"), "I set my Mental State to Paranoid.", "2008-09-01T10:00:00Z")
    assert "Done" in r, r
    e = game.show("emergency")
    assert e["active"] is True and sorted(e["paranoid"]) == ["Bob", "Carol", "Dave", "Wooble"]
    played = game.digest()
    game.cli("rebuild")
    assert game.digest() == played


def test_a_former_player_is_no_pep_while_four_players_remain(game):
    for i, n in enumerate(["Wooble", "Bob", "Carol", "Dave", "Eve"]):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    game.post(mail("Eve"), "I forfeit.", "2008-09-01T08:00:00Z")
    r = game.post(mail("Eve"), "I set my Mental State to Paranoid.", "2008-09-01T09:00:00Z")
    assert "Done" not in r and "(Rule 4E0)" in r


def test_a_forum_public_within_the_past_month_still_sets_a_mental_state(game):
    game.admin("setting", "addresses.public_fora", '["old@example.org"]')
    for i, n in enumerate(["Wooble", "Bob"]):
        game.post(mail(n), f"I join as {n}.", f"2008-09-01T0{i + 1}:00:00Z", to="old@example.org")
    game.tick("2008-10-05T00:00:00Z")
    game.admin("setting", "addresses.public_fora", '["new@example.org"]')
    r = game.post(mail("Wooble"), "I set my Mental State to Paranoid.", "2008-10-20T10:00:00Z",
                  to="old@example.org")
    assert "Done" in r, r
    r = game.post(mail("Bob"), "I set my Mental State to Paranoid and I give m1 to Wooble.",
                  "2008-10-20T11:00:00Z", to="old@example.org")
    assert "Done (Rule 4E0)" in r and "reached no Public Forum" in r     # only the Mental State
    r = game.post(mail("Bob"), "I set my Mental State to Calm.", "2008-10-20T12:00:00Z",
                  to="elsewhere@example.org")
    assert "Done" not in r and "reached no Public Forum" in r
    game.tick("2008-11-06T00:00:00Z")
    r = game.post(mail("Bob"), "I set my Mental State to Calm.", "2008-11-06T10:00:00Z",
                  to="old@example.org")
    assert "Done" not in r and "reached no Public Forum" in r
    r = game.post(mail("Bob"), "I set my Mental State to Calm.", "2008-11-06T11:00:00Z",
                  to="new@example.org")
    assert "Done" in r


def test_a_month_before_is_the_same_day_of_the_month_before():
    def t(s):
        return datetime.fromisoformat(s).replace(tzinfo=timezone.utc)
    assert month_before(t("2008-10-02T10:00:00")) == t("2008-09-02T10:00:00")
    assert month_before(t("2008-03-31T00:00:00")) == t("2008-02-29T00:00:00")
    assert month_before(t("2009-01-15T00:00:00")) == t("2008-12-15T00:00:00")
