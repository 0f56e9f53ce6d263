"""Rules 4E45-4E49 and 4E14's MoM duty, played by mail."""
import pytest

CLAIMS = {
    "Alice": ["the Ministry of Change", "Rulekeeper", "the Doctor"],
    "Bob": ["Registrar", "Oracle", "Washerwoman"],
    "Carol": ["Ranger", "GM", "Arbiter"],
    "Dave": ["Judge", "Kurt Gödel"],            # the MoM, by one of its names
}


@pytest.fixture
def cabinet(game):
    for name in CLAIMS:
        game.join(name, "2008-09-01T09:00:00Z")
    return game


def holders(game):
    return {m["name"]: m["holder"] for m in game.show("ministries")}


def rewards(game):
    return {m["name"]: m["reward"] for m in game.show("ministries")}


def claim_all(game, at="2008-09-01T10:00:00Z"):
    for who, names in CLAIMS.items():
        body = "\n".join(f"I assign {n} to myself." for n in names)
        game.post(f"{who.lower()}@example.org", body, at)


def test_every_ministry_starts_vacant_at_m100(cabinet):
    ms = cabinet.show("ministries")
    assert [m["name"] for m in ms] == ["Law", "Time", "Society", "Change", "Ministry", "Questions",
                                       "Laundry", "Fauna", "Games", "Business", "Judging"]
    assert all(m["holder"] is None and m["reward"] == 100 for m in ms)
    assert {m["name"]: m["title"] for m in ms}["Ministry"] == "MetaMin"


def test_claiming_all_eleven_turns_the_clock_on_for_the_mom(cabinet):
    cabinet.post("alice@example.org", "I take the Ministry of Change with a Reward of m80.",
                 "2008-09-01T10:00:00Z")
    assert rewards(cabinet)["Change"] == 80
    r = cabinet.post("bob@example.org", "I assign the Chairman to myself", "2008-09-01T10:00:00Z")
    assert "held by Alice, not Vacant" in r and "(Rule 4E46)" in r
    r = cabinet.post("bob@example.org", "I become the Registrar at m101", "2008-09-01T10:00:00Z")
    assert "a Reward is between m1 and m100 (Rule 4E48)" in r
    claim_all(cabinet)
    assert all(holders(cabinet).values())
    assert holders(cabinet)["Ministry"] == "Dave"
    clock = cabinet.clock()
    assert clock["on"] is True and clock["ndelay"] == 0
    on = [e for e in cabinet.show("events") if e["kind"] == "clock" and e["data"].get("on") is True]
    assert "bnomic for the MoM (Dave)" in on[0]["summary"] and on[0]["rule"] == "4E14"


def test_the_clock_stays_off_while_a_ministry_is_vacant(cabinet):
    CLAIMS_BUT_ONE = dict(CLAIMS, Carol=["Ranger", "GM"])
    for who, names in CLAIMS_BUT_ONE.items():
        cabinet.post(f"{who.lower()}@example.org",
                     "\n".join(f"I assign {n} to myself." for n in names), "2008-09-01T10:00:00Z")
    assert cabinet.clock()["on"] is False
    r = cabinet.post("dave@example.org", "I turn the Clock On", "2008-09-01T11:00:00Z")
    assert "a Ministry is Vacant (Business)" in r and "(Rule 4E14)" in r
    r = cabinet.post("alice@example.org", "I turn the Clock On", "2008-09-01T11:00:00Z")
    assert "only the MoM" in r


def test_a_usurpation_succeeds_and_a_later_one_outbids_it(cabinet):
    claim_all(cabinet)
    r = cabinet.post("bob@example.org", "I usurp the Ministry of Change, proposing a Reward of m60",
                     "2008-09-01T13:00:00Z")
    assert "Done (Rule 4E48)" in r
    cabinet.post("carol@example.org", "I usurp the Chairman, proposing m40", "2008-09-02T13:00:00Z")
    assert holders(cabinet)["Change"] == "Alice"
    cabinet.tick("2008-09-03T00:00:00Z")           # 2 rdays after Bob's: it settles
    assert holders(cabinet)["Change"] == "Bob" and rewards(cabinet)["Change"] == 60
    money = {p: v["mackerel"] for p, v in cabinet.players().items()}
    assert (money["Alice"], money["Bob"]) == (100, 0)      # half of m100 from Bob to Alice
    cabinet.tick("2008-09-04T00:00:00Z")           # Carol's settles: m60 is still above m40
    assert holders(cabinet)["Change"] == "Carol" and rewards(cabinet)["Change"] == 40
    money = {p: v["mackerel"] for p, v in cabinet.players().items()}
    assert (money["Bob"], money["Carol"]) == (30, 20)


def test_revising_the_reward_defeats_a_usurpation(cabinet):
    claim_all(cabinet)
    cabinet.post("dave@example.org", "I usurp the Rulekeeper, proposing a Reward of m70",
                 "2008-09-01T13:00:00Z")
    r = cabinet.post("alice@example.org", "I revise the Reward of the Ministry of Law to m70",
                     "2008-09-02T08:00:00Z")
    assert "Done (Rule 4E48)" in r
    cabinet.tick("2008-09-03T00:00:00Z")
    assert holders(cabinet)["Law"] == "Alice"
    lapsed = [e for e in cabinet.show("events") if e["kind"] == "usurp" and "lapses" in e["summary"]]
    assert lapsed and "not higher than the proposed m70" in lapsed[0]["summary"]


def test_usurping_needs_half_the_reward(cabinet):
    claim_all(cabinet)
    cabinet.post("bob@example.org", "I give m30 to Alice", "2008-09-01T12:00:00Z")
    r = cabinet.post("bob@example.org", "I usurp the Judge at m50", "2008-09-01T13:00:00Z")
    assert "you have m20; usurping needs at least half the Reward (m100) (Rule 4E48)" in r


def test_forfeiting_vacates_and_vacant_rewards_reset_each_nweek(cabinet):
    claim_all(cabinet)
    cabinet.post("bob@example.org", "I revise the reward of the Registrar to m30", "2008-09-01T12:00:00Z")
    cabinet.post("bob@example.org", "I forfeit", "2008-09-01T13:00:00Z")
    assert holders(cabinet)["Society"] is None and rewards(cabinet)["Society"] == 30
    assert cabinet.clock()["on"] is True           # it was already On; a Vacancy does not stop it
    cabinet.post("alice@example.org", "I resign as Chairman", "2008-09-01T14:00:00Z")
    assert holders(cabinet)["Change"] is None
    cabinet.next_nweek()
    assert rewards(cabinet)["Society"] == 100


def test_weekly_rewards_go_to_ministers_who_held_since_the_clock_first_went_on(cabinet):
    claim_all(cabinet)                              # the Clock turns On at 10:00
    cabinet.post("bob@example.org", "I usurp the Doctor proposing m50", "2008-09-01T13:00:00Z")
    cabinet.tick("2008-09-03T00:00:00Z")            # Bob takes Time after the Clock went On
    before = {p: v["mackerel"] for p, v in cabinet.players().items()}
    cabinet.next_nweek()
    after = {p: v["mackerel"] for p, v in cabinet.players().items()}
    earned = {p: after[p] - before[p] - 25 for p in CLAIMS}       # less the m25 income
    assert earned == {"Alice": 200, "Bob": 300, "Carol": 300, "Dave": 200}
    paid = [e for e in cabinet.show("events") if e["rule"] == "4E49"]
    assert not any("Ministry of Time" in e["summary"] for e in paid)


def test_a_minister_takes_a_duty_back(cabinet):
    claim_all(cabinet)
    r = cabinet.post("dave@example.org", "I take back the duty to turn the Clock On. "
                     "I turn the Clock Off.", "2008-09-01T12:00:00Z")
    assert r.count("Done") == 2
    assert cabinet.clock()["on"] is False           # bnomic no longer turns it On for the MoM
    cabinet.post("dave@example.org", "I delegate the duty to turn the Clock On to bnomic",
                 "2008-09-01T13:00:00Z")
    assert cabinet.clock()["on"] is True


def test_the_cabinet_replays(cabinet):
    claim_all(cabinet)
    cabinet.post("bob@example.org", "I usurp the Ministry of Change, proposing m60", "2008-09-01T13:00:00Z")
    cabinet.next_nweek()
    digest = cabinet.digest()
    cabinet.cli("rebuild")
    assert cabinet.digest() == digest


def test_the_operator_removing_active_vacates_the_ministers_ministries(cabinet):
    """Rule 4E47: a Minister who loses Active vacates its Ministries, however it
    loses it; `admin set X active false` once left X holding them."""
    claim_all(cabinet)
    assert holders(cabinet)["Society"] == "Bob"
    cabinet.admin("set", "Bob", "active", "false")
    held = holders(cabinet)
    assert [m for m, h in held.items() if h is None] == ["Society", "Questions", "Laundry"]
    vacated = [e for e in cabinet.show("events") if e["kind"] == "ministry" and e["data"]["holder"] is None]
    assert [e["rule"] for e in vacated] == ["4E47"] * 3
    assert all("Bob lost the Active property (the operator)" in e["summary"] for e in vacated)
    cabinet.admin("set", "Bob", "active", "false")           # already inactive: nothing more
    assert len([e for e in cabinet.show("events") if e["kind"] == "ministry"
                and e["data"]["holder"] is None]) == 3


def test_revising_from_the_reward_it_has_to_a_lower_one(cabinet):
    claim_all(cabinet)
    r = cabinet.post("bob@example.org", "I lower the reward of the Registrar from m80 to m75.",
                     "2008-09-01T12:00:00Z")
    assert rewards(cabinet)["Society"] == 100 and "is m100, not m80" in r and "(Rule 4E48)" in r
    cabinet.post("bob@example.org", "I lower the reward of the Registrar from m100 to m75.", "2008-09-01T12:05:00Z")
    assert rewards(cabinet)["Society"] == 75


def test_the_office_named_with_ship_is_its_ministry(cabinet):
    claim_all(cabinet)
    r = cabinet.post("bob@example.org", "I usurp the Chairmanship, offering m60.", "2008-09-01T12:00:00Z")
    assert "usurp Change proposing m60" in r and "Done (Rule 4E48)" in r, r
