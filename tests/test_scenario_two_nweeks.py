"""Acceptance (issue 2): two full nweeks played through `ingest` and `tick`, the
Clock checked after every midnight (Rule 4E14), income at each nweek's start
(Rule 4E34)."""


def midnight(day: str) -> str:
    return f"2008-09-{day}T00:00:00Z" if len(day) == 2 else f"2008-{day}T00:00:00Z"


def expect_clock(game, nweek, nday, on, ndelay):
    c = game.clock()
    assert (c["nweek"], c["nday"], c["on"], c["ndelay"]) == (nweek, nday, on, ndelay), c
    return c


def test_two_full_nweeks(game):
    for name in ("Wooble", "Ais523", "Chuck"):
        game.join(name, "2008-09-01T10:00:00Z")
    assert {n: p["mackerel"] for n, p in game.players().items()} == {
        "The Beast": 0, "Wooble": 50, "Ais523": 50, "Chuck": 50}

    # Clock Off from the start: each midnight raises the ndelay, not the nday.
    game.tick(midnight("02"))
    expect_clock(game, 1, 1, False, 1)
    game.tick(midnight("03"))
    expect_clock(game, 1, 1, False, 2)

    game.admin("clock", "on")                      # turning it On sets ndelay to 0
    expect_clock(game, 1, 1, True, 0)

    # ndays 1 -> 8, one per midnight
    for day, nday in zip(["04", "05", "06", "07", "08", "09", "10"], range(2, 9)):
        game.tick(midnight(day))
        c = expect_clock(game, 1, nday, True, 0)
    assert c["nday_name"] == "Rushnight"

    # the start of nday 9 (Ballotday) is the start of Voting: the Clock turns Off
    game.tick(midnight("11"))
    c = expect_clock(game, 1, 9, False, 0)
    assert c["nday_name"] == "Ballotday" and c["voting"]

    # while Off the ndelay counts; turning On resets it
    game.tick(midnight("12"))
    expect_clock(game, 1, 9, False, 1)
    game.tick(midnight("13"))
    expect_clock(game, 1, 9, False, 2)
    game.admin("set", "Chuck", "active", "false")  # Chuck will earn no income
    game.tick("2008-09-13T15:00:00Z")
    game.admin("clock", "on")
    expect_clock(game, 1, 9, True, 0)

    for day, nday in zip(["14", "15", "16"], range(10, 13)):
        game.tick(midnight(day))
        expect_clock(game, 1, nday, True, 0)

    # nday 12 -> nday 1 of the next nweek, Clock Off, m25 to each Active player
    game.tick(midnight("17"))
    c = expect_clock(game, 2, 1, False, 0)
    assert c["nday_name"] == "Breakday" and not c["voting"]
    assert {n: p["mackerel"] for n, p in game.players().items()} == {
        "The Beast": 0, "Wooble": 75, "Ais523": 75, "Chuck": 50}

    # ---------------------------------------------------------------- nweek 2
    game.tick(midnight("18"))
    expect_clock(game, 2, 1, False, 1)
    game.tick("2008-09-18T12:00:00Z")
    game.admin("clock", "on")
    expect_clock(game, 2, 1, True, 0)
    for day, nday in zip(["19", "20", "21", "22", "23", "24", "25"], range(2, 9)):
        game.tick(midnight(day))
        expect_clock(game, 2, nday, True, 0)
    game.tick(midnight("26"))
    expect_clock(game, 2, 9, False, 0)
    game.admin("clock", "on")                      # turned On again at once
    expect_clock(game, 2, 9, True, 0)
    for day, nday in zip(["27", "28", "29"], range(10, 13)):
        game.tick(midnight(day))
        expect_clock(game, 2, nday, True, 0)

    # No tick this time: a mail stamped after the midnight makes the game
    # advance first, so the m25 of nweek 3 is there before Wooble gives m100.
    receipt = game.post("wooble@example.org", "I give m100 to Ais523.", "2008-09-30T05:00:00Z")
    assert "Done" in receipt, receipt
    c = expect_clock(game, 3, 1, False, 0)
    assert c["nyear"] == 1
    assert {n: p["mackerel"] for n, p in game.players().items()} == {
        "The Beast": 0, "Wooble": 0, "Ais523": 200, "Chuck": 50}

    # every midnight is in the event log, with the rule that moved the Clock
    clock_events = [e for e in game.show("events") if e["kind"] == "clock" and e["cause"] == "midnight" and "by" not in e["data"]]
    assert len(clock_events) == 29                 # Sept 2 .. Sept 30
    assert all(e["rule"] == "4E14" for e in clock_events)
    income = [e for e in game.show("events") if e["rule"] == "4E34" and "income" in e["summary"]]
    assert [(e["at"], e["data"]["player"]) for e in income] == [
        ("2008-09-17T00:00:00Z", "Wooble"), ("2008-09-17T00:00:00Z", "Ais523"),
        ("2008-09-30T00:00:00Z", "Wooble"), ("2008-09-30T00:00:00Z", "Ais523")]


def test_midnights_missed_while_down_fire_once_in_order(game):
    game.join("Wooble", "2008-09-01T10:00:00Z")
    game.admin("clock", "on")
    game.tick("2008-09-20T12:00:00Z")          # one call, nineteen midnights
    events = [e for e in game.show("events") if e["cause"] == "midnight" and e["kind"] == "clock" and "by" not in e["data"]]
    assert [e["at"][:10] for e in events] == [f"2008-09-{d:02d}" for d in range(2, 21)]
    # 8 midnights to nday 9 (Off), then ndelays 1..11
    expect_clock(game, 1, 9, False, 11)
