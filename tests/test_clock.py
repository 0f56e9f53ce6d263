"""Rule 4E14 (NTime) and 4E31 (Calendar): the Calendar, durations, deadlines,
the order of what happens at a midnight, stopping game time."""
from datetime import datetime, timezone

import pytest

from bnomic.config import Config, defaults
from bnomic.handlers import clock, durations
from bnomic.handlers.context import Context
from bnomic.handlers.registry import deadline
from bnomic.store import Game as GameRow, database, open_database

CFG = Config(defaults())


def t(text):
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


fired = []


@deadline("test_ping")
def ping(ctx, label):
    ctx.record("test", f"ping {label}", rule="4E99", label=label)


def schedule(game, due_fn, label, rule="4E99"):
    """Schedule a test deadline from the game's present moment."""
    open_database(game.db)
    with database.atomic():
        g = GameRow.get()
        ctx = Context(g.now, "command")
        durations.schedule(ctx, due_fn(ctx, g), "test_ping", rule, label=label)


def pings(game):
    return [(e["at"], e["data"]["label"]) for e in game.show("events") if e["kind"] == "test"]


# ------------------------------------------------------------------ calendar

@pytest.mark.parametrize("nday, name", [(1, "Breakday"), (2, "Winday"), (3, "Mulberry"),
                                        (8, "Rushnight"), (9, "Ballotday"), (12, "Thirnight")])
def test_calendar_names(nday, name):
    assert clock.nday_name(CFG, nday) == name


@pytest.mark.parametrize("nweek, nyear", [(1, 1), (10, 1), (11, 2), (20, 2), (135, 14)])
def test_nyears_are_ten_nweeks(nweek, nyear):
    assert clock.nyear(CFG, nweek) == nyear


def test_holidays():
    assert clock.holiday(CFG, 5, 1) == "Paranoia-Free Day"
    assert clock.holiday(CFG, 15, 1) == "Paranoia-Free Day"
    assert clock.holiday(CFG, 10, 11) == "Gift Day"
    assert clock.holiday(CFG, 5, 2) is None
    # Agoran Silly Hat Day falls on "Corvette", which names no nday (rulings.md)
    assert not any(clock.holiday(CFG, 4, d) for d in range(1, 13))


# ----------------------------------------------------------------- durations

def test_rdays_end_at_the_xth_midnight():
    # rulings.md: a Jiffy (3 rdays) from Monday 13:00 ends Thursday 00:00;
    # a usurpation made Monday 13:00 settles Wednesday 00:00.
    assert durations.rdays(t("2008-09-01T13:00:00"), 3).at == t("2008-09-04T00:00:00")
    assert durations.rdays(t("2008-09-01T13:00:00"), 2).at == t("2008-09-03T00:00:00")
    assert durations.rdays(t("2008-09-01T00:00:00"), 1).at == t("2008-09-02T00:00:00")


def test_durations_in_words():
    assert durations.parse("3 rdays") == (3, "rdays")
    assert durations.parse("a Jiffy") == (1, "jiffies")
    assert durations.parse("2 ndays") == (2, "ndays")
    with pytest.raises(ValueError):
        durations.parse("three fortnights")


def test_two_ndays_from_the_middle_of_nday_2_end_at_the_end_of_nday_4(game):
    # Rule 4E14's own example
    game.admin("clock", "on")
    game.tick("2008-09-02T12:00:00Z")
    assert game.clock()["nday"] == 2
    schedule(game, lambda ctx, g: durations.ndays(g, 2), "two ndays")
    game.tick("2008-09-04T23:59:59Z")
    assert pings(game) == []
    game.tick("2008-09-05T00:00:00Z")
    assert pings(game) == [("2008-09-05T00:00:00Z", "two ndays")]
    # it happened at the END of nday 4: before the Clock moved to nday 5
    events = [e for e in game.show("events") if e["at"] == "2008-09-05T00:00:00Z"]
    assert [e["kind"] for e in events] == ["test", "clock"]
    assert events[1]["data"]["nday"] == 5


def test_ndays_wait_while_the_clock_is_off(game):
    schedule(game, lambda ctx, g: durations.ndays(g, 1), "one nday")
    game.tick("2008-09-10T00:00:00Z")       # Clock Off: no nday changes
    assert pings(game) == []
    game.admin("clock", "on")
    game.tick("2008-09-11T00:00:00Z")
    assert pings(game) == []
    game.tick("2008-09-12T00:00:00Z")
    assert pings(game) == [("2008-09-12T00:00:00Z", "one nday")]


def test_ndelays_count_while_off(game):
    schedule(game, lambda ctx, g: durations.ndelays(g, 2), "two ndelays")
    game.tick("2008-09-03T00:00:00Z")
    assert pings(game) == []
    game.tick("2008-09-04T00:00:00Z")
    assert pings(game) == [("2008-09-04T00:00:00Z", "two ndelays")]


def test_turning_the_clock_on_ends_the_current_ndelay(game):
    schedule(game, lambda ctx, g: durations.ndelays(g, 1), "one ndelay")
    game.tick("2008-09-02T12:00:00Z")            # one ndelay change: now in the ndelay after it
    assert pings(game) == []
    game.admin("clock", "on")                    # that ndelay ends now (Rule 4E14)
    assert pings(game) == [("2008-09-02T12:00:00Z", "one ndelay")]


def test_nweeks_end_at_the_end_of_the_same_nday(game):
    game.admin("clock", "on")
    game.tick("2008-09-03T12:00:00Z")        # nday 3 of nweek 1
    schedule(game, lambda ctx, g: durations.nweeks(g, 1), "one nweek")
    game.next_nweek()
    game.admin("clock", "on")
    game.tick("2008-09-15T00:00:00Z")
    c = game.clock()
    assert (c["nweek"], c["nday"]) == (2, 3) and pings(game) == []
    game.tick("2008-09-16T00:00:00Z")
    assert pings(game) == [("2008-09-16T00:00:00Z", "one nweek")]


def test_a_jiffy_deadline_fires_at_its_instant_before_later_mail(game):
    game.tick("2008-09-01T13:00:00Z")
    schedule(game, lambda ctx, g: durations.jiffies(ctx), "jiffy")
    schedule(game, lambda ctx, g: durations.Due(at=t("2008-09-02T06:30:00")), "half past six")
    game.join("Wooble", "2008-09-03T08:00:00Z")
    assert pings(game) == [("2008-09-02T06:30:00Z", "half past six")]
    game.tick("2008-09-04T00:00:00Z")
    assert pings(game)[-1] == ("2008-09-04T00:00:00Z", "jiffy")


def test_the_jiffy_is_a_quantity_of_the_configuration(tmp_path):
    from conftest import Game
    cfg = tmp_path / "game.toml"
    cfg.write_text('[quantities]\na_jiffy = "4 rdays"\n')
    game = Game(tmp_path, config=str(cfg))
    game.tick("2008-09-01T13:00:00Z")
    schedule(game, lambda ctx, g: durations.jiffies(ctx), "jiffy")
    game.tick("2008-09-06T00:00:00Z")
    assert pings(game) == [("2008-09-05T00:00:00Z", "jiffy")]


# ------------------------------------------------- the order at a midnight

def test_end_of_nweek_before_the_clock_change_before_the_start_of_the_next(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.admin("clock", "on")
    game.tick("2008-09-12T00:00:00Z")
    assert game.clock()["nday"] == 9
    game.admin("clock", "on")
    game.tick("2008-09-15T12:00:00Z")
    assert game.clock()["nday"] == 12
    schedule(game, lambda ctx, g: durations.ndays(g, 0), "end of nday 12")
    game.tick("2008-09-16T00:00:00Z")
    kinds = [(e["kind"], e["rule"]) for e in game.show("events") if e["at"] == "2008-09-16T00:00:00Z"]
    # end of nday 12 -> the Clock change (Rule 4E14) -> the new nweek's income (4E34)
    assert kinds == [("test", "4E99"), ("clock", "4E14"), ("mackerel", "4E34")]


def test_the_voting_period_turns_the_clock_off_after_the_nday_changes(game):
    game.admin("clock", "on")
    game.tick("2008-09-09T00:00:00Z")
    events = [e for e in game.show("events") if e["at"] == "2008-09-09T00:00:00Z"]
    assert [(e["kind"], e["data"].get("nday"), e["data"].get("on")) for e in events] == [
        ("clock", 9, True), ("clock", None, False)]
    assert "beginning of the Voting Period" in events[1]["summary"]


# ------------------------------------------------------- stopping game time

def test_stopped_game_time_does_not_move_the_clock_or_nday_deadlines(game):
    game.admin("clock", "on")
    game.tick("2008-09-02T12:00:00Z")
    schedule(game, lambda ctx, g: durations.ndays(g, 1), "postponed")
    game.admin("time", "stop")
    game.tick("2008-09-10T00:00:00Z")
    c = game.clock()
    assert (c["nday"], c["on"], c["ndelay"], c["time_stopped"]) == (2, True, 0, True)
    assert pings(game) == []
    game.admin("time", "resume")
    game.tick("2008-09-11T00:00:00Z")
    assert game.clock()["nday"] == 3 and pings(game) == []
    game.tick("2008-09-12T00:00:00Z")
    assert pings(game) == [("2008-09-12T00:00:00Z", "postponed")]


def test_clock_on_twice_is_refused_and_cited(game):
    game.admin("clock", "on")
    code, out, err = game.run("admin", "clock", "on")
    assert code == 1
    assert err.strip() == "bnomic: refused: the Clock is already On (Rule 4E14)"


# --------------------------------------------------------------- chance

def test_chance_is_seeded_by_the_game_seed_and_the_event_sequence(game):
    open_database(game.db)
    ctx = Context(GameRow.get().now, "command")
    a = [ctx.rng().random() for _ in range(2)]
    assert a[0] == a[1]                       # same next event: same draw
    ctx.record("test", "an event", label="x")
    b = ctx.rng().random()
    assert b != a[0]                          # the next event: another draw
