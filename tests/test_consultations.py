"""Rule 4E18 (Judgment) and Rule 4E60 (Contempt of Court), played by mail
through the real command line: Consultations submitted, numbered and given a
Priest drawn at random (shown, reproducible), Answered, Claimed, overturned,
Pondered with their Oracularity made, ZOTTED; the Ordained property."""
from __future__ import annotations

import hashlib
import random

import pytest

from conftest import Game

PLAYERS = ["Wooble", "Bob", "Carol", "Dave", "Eve"]


def mail(name: str) -> str:
    return f"{name.lower()}@example.org"


def consultations(game) -> dict:
    """{number or "#id": view}, as `bnomic show consultations --json` gives them."""
    rows = game.show("consultations")
    return {r["number"] if r["number"] is not None else f"#{r['id']}": r for r in rows}


def events(game, kind=None, rule=None):
    return [e for e in game.show("events") if (kind is None or e["kind"] == kind)
            and (rule is None or e["rule"] == rule)]


def ordained(game) -> list[str]:
    from bnomic.store import Player, open_database
    open_database(game.db)
    return sorted(p.name for p in Player.select().where(Player.ordained == True))  # noqa: E712


def consult(game, sender, question, at, reasoning="", unbeliever="", end=True):
    body = f"I submit the following Consultation:\nQuestion: {question}\n"
    body += f"Reasoning: {reasoning}\n" if reasoning else ""
    body += f"Unbeliever: {unbeliever}\n" if unbeliever else ""
    body += "END CONSULTATION\n" if end else ""
    return game.post(sender, body, at)


def setup(game, oracle="Wooble", ordain=("Bob", "Carol", "Dave", "Eve"), clock=True):
    """Five Active players; the Oracle takes the Ministry of Questions; some become Ordained."""
    for i, n in enumerate(PLAYERS):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    if oracle:
        game.post(mail(oracle), "I assign the Ministry of Questions to myself.", "2008-09-01T06:00:00Z")
    for n in ordain:
        r = game.post(mail(n), "I become Ordained.", "2008-09-01T06:30:00Z")
        assert "Done (Rule 4E18)" in r, r
    if clock:
        game.admin("clock", "on")
    return game


# ------------------------------------------------------ the whole loop

def test_a_consultation_by_mail_from_submission_to_pondered_with_its_oracularity(game):
    setup(game)
    r = consult(game, "stranger@example.org", "Is a Jiffy three rdays?", "2008-09-01T10:00:00Z",
                reasoning="Rule 4E30 says so, but the Clock is odd.", unbeliever="Carol")
    assert "Done: Consultation 1, Priest " in r                   # an External Force may submit
    c = consultations(game)[1]
    assert (c["question"], c["reasoning"], c["supplicant"], c["unbeliever"], c["state"]) == (
        "Is a Jiffy three rdays?", "Rule 4E30 says so, but the Clock is odd.", "stranger@example.org",
        "Carol", "Waiting")
    (draw,) = c["draws"]
    # Carol is the Unbeliever and Wooble the Oracle: Bob, Dave and Eve were eligible
    assert draw["candidates"] == ["Bob", "Dave", "Eve"] and draw["chosen"] == c["priest"]
    assert draw["by"] == "bnomic, for the Oracle (Wooble)," and draw["how"] == "drawn at random"
    priest = c["priest"]
    other = next(n for n in ("Bob", "Dave", "Eve") if n != priest)
    r = game.post(mail(other), "I answer Consultation 1 YES.", "2008-09-01T11:00:00Z")
    assert f"only the Priest of Consultation 1 may Answer it ({priest}) (Rule 4E18)" in r

    answer = ("I answer Consultation 1 YES.\n"
              "Reasoning: Rule 4E30 defines it.\n"
              "Oracularity:\n"
              "Set the points of Bob to 3\n"
              "Amend Rule 4E30 to read: {{ A Jiffy = 3 rdays. }}\n"
              "Also, the Rulekeeper should dust the ruleset.\n"
              "END ORACULARITY\n"
              "I give m5 to Carol.\n")
    r = game.post(mail(priest), answer, "2008-09-01T12:00:00Z")
    assert "its Oracularity has 2 change(s) bnomic makes when it is Pondered, and 1 part(s) in prose" in r
    assert r.count("Done") == 2                                   # the give after END ORACULARITY too
    c = consultations(game)[1]
    assert (c["state"], c["answer"], c["answer_reasoning"], c["answer_round"]) == (
        "Answered", "YES", "Rule 4E30 defines it.", 1)
    assert c["oracularity"].startswith("Set the points of Bob to 3\nAmend Rule 4E30")
    assert c["answered_at"] == "2008-09-01T12:00:00+00:00"

    # a Jiffy later (Sept 4 00:00) bnomic tallies for the Oracle: no Claims, the Answer stands
    game.tick("2008-09-04T00:00:00Z")
    (t,) = [e for e in events(game, "consultation") if e["data"].get("action") == "tally"]
    assert t["summary"] == ("bnomic, for the Oracle (Wooble), tallies the Claims on the Answer to "
                            "Consultation 1: 0 Consistent, 0 Inconsistent; the Answer stands")
    # four full ndays after nday 1 (the Answer's): ndays 2, 3, 4, 5; Pondered as nday 5 ends
    game.tick("2008-09-05T23:59:00Z")
    assert consultations(game)[1]["state"] == "Answered"
    assert game.players()["Bob"]["points"] == 0
    game.tick("2008-09-06T00:00:00Z")
    c = consultations(game)[1]
    assert c["state"] == "Pondered"
    assert game.players()["Bob"]["points"] == 3
    rules = {x["number"]: x for x in game.show("rules")}
    assert rules["4E30"]["text"] == "A Jiffy = 3 rdays."
    assert any("Consultation 1's Oracularity" in h["what"] for h in rules["4E30"]["history"])
    (o,) = events(game, "oracularity")
    assert o["at"] == "2008-09-06T00:00:00Z" and len(o["data"]["applied"]) == 2
    assert o["data"]["unapplied"] == ["Also, the Rulekeeper should dust the ruleset."]
    # the prose is the Rulekeeper's to carry out
    assert any("Ministry of Law (Rulekeeper) is obliged to make the changes of Consultation 1's "
               "Oracularity" in e["summary"] for e in events(game, "obligation"))


def test_an_answer_overturned_by_claims_goes_back_to_waiting_with_a_new_priest(game):
    setup(game, ordain=("Bob", "Carol", "Dave", "Eve"))
    consult(game, mail("Dave"), "Is the Beast a Player?", "2008-09-01T10:00:00Z", unbeliever="Eve")
    c = consultations(game)[1]
    first = c["priest"]
    assert c["draws"][0]["candidates"] == ["Bob", "Carol"]        # Dave asked, Eve disbelieves
    game.post(mail(first), "I answer Consultation 1 NO.\nOracularity:\nSet the points of Dave to 9\n"
              "END ORACULARITY", "2008-09-01T12:00:00Z")
    other = "Carol" if first == "Bob" else "Bob"
    # the Priest, the Unbeliever and the Supplicant may not Claim
    for who, role in ((first, "its Priest"), ("Eve", "its Unbeliever"), ("Dave", "its Supplicant")):
        r = game.post(mail(who), "I claim Consultation 1 is Inconsistent.", "2008-09-01T13:00:00Z")
        assert f"{who} is {role}, who may not make a Claim about its Answer (Rule 4E18)" in r
    # a Player's last Claim counts: Wooble changes his mind
    game.post(mail("Wooble"), "I claim Consultation 1 is Inconsistent.", "2008-09-01T14:00:00Z")
    game.post(mail("Wooble"), "I make a Claim of Consistency on Consultation 1.", "2008-09-02T10:00:00Z")
    game.post(mail(other), "I claim the Answer to Consultation 1 is Inconsistent.", "2008-09-02T11:00:00Z")
    game.join("Frank", "2008-09-02T12:00:00Z")
    game.post(mail("Frank"), "I find Consultation 1 Inconsistent.", "2008-09-02T13:00:00Z")
    assert consultations(game)[1]["claims"] == {other: "Inconsistent", "Frank": "Inconsistent",
                                                "Wooble": "Consistent"}
    game.tick("2008-09-03T23:59:00Z")
    assert consultations(game)[1]["state"] == "Answered"
    game.tick("2008-09-04T00:00:00Z")                             # a Jiffy after the Answer
    c = consultations(game)[1]
    assert (c["state"], c["answer"], c["oracularity"], c["answered_at"]) == ("Waiting", None, None, None)
    (t,) = [e for e in events(game, "consultation") if e["data"].get("action") == "tally"]
    assert (t["data"]["consistent"], t["data"]["inconsistent"], t["data"]["overturned"]) == (
        ["Wooble"], sorted(["Frank", other]), True)
    # the new Priest: the only eligible one left (the first Priest is excluded now)
    assert c["priest"] == other and c["former_priests"] == [first, other]
    assert c["draws"][1]["candidates"] == [other] and "overturned by Claims" in c["draws"][1]["why"]
    # the discarded Oracularity is never made (it would have been as nday 5 ended)
    game.tick("2008-09-06T10:00:00Z")
    assert game.players()["Dave"]["points"] == 0 and events(game, "oracularity") == []
    # the new Priest answers within his Jiffy; the new Answer counts its Claims afresh
    r = game.post(mail(other), "I answer Consultation 1 Affirmative.", "2008-09-06T10:00:00Z")
    c = consultations(game)[1]
    assert (c["state"], c["answer"], c["answer_round"], c["claims"]) == ("Answered", "YES", 2, {})


# ---------------------------------------------------------------- the draw

def _played(tmp_path, sub):
    g = Game(tmp_path / sub)
    setup(g)
    consult(g, mail("Bob"), "Is nday 13 Armageddon?", "2008-09-01T10:00:00Z")
    return consultations(g)[1]


def test_the_draw_is_reproducible_and_shown(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, b = _played(tmp_path, "a"), _played(tmp_path, "b")
    assert a["priest"] == b["priest"] and a["draws"] == b["draws"]
    (draw,) = a["draws"]
    assert draw["candidates"] == ["Carol", "Dave", "Eve"]         # Bob asked, Wooble is the Oracle
    # anyone with the seed can check it: the draw of event N is seeded by "seed:N"
    digest = hashlib.sha256(f"test-seed:{draw['event']}".encode()).digest()
    index = random.Random(int.from_bytes(digest[:16], "big")).randrange(len(draw["candidates"]))
    assert draw["chosen"] == draw["candidates"][index] == a["priest"]


def test_who_is_eligible_and_the_oracle_when_nobody_is(game):
    setup(game, ordain=("Bob", "Carol", "Wooble"))
    assert ordained(game) == ["Bob", "Carol", "Wooble"]
    # Bob asks, Carol disbelieves, Wooble is the Oracle, Dave and Eve are not Ordained
    consult(game, mail("Bob"), "Is this fair?", "2008-09-01T10:00:00Z", unbeliever="Carol")
    c = consultations(game)[1]
    assert c["draws"][0]["candidates"] == [] and c["priest"] == "Wooble"
    assert c["draws"][0]["how"] == "no Player is eligible: the Oracle is selected"
    game.post(mail("Dave"), "I become Ordained.", "2008-09-01T11:00:00Z")
    consult(game, mail("Bob"), "Is that fair?", "2008-09-01T12:00:00Z", unbeliever="Carol")
    assert consultations(game)[2]["priest"] == "Dave"
    r = consult(game, mail("Bob"), "Is it?", "2008-09-01T12:30:00Z", unbeliever="Zaphod")
    assert "there is no Player named 'Zaphod' (Rule 4E18)" in r
    r = game.post(mail("Bob"), "I submit the following Consultation:\nEND CONSULTATION", "2008-09-01T12:40:00Z")
    assert "a Consultation needs a Question" in r and "(Rule 4E18)" in r


# ------------------------------------------------------ the Oracle's hand

def test_a_vacant_ministry_of_questions_draws_nothing_until_someone_takes_it(game):
    setup(game, oracle=None)
    r = consult(game, mail("Bob"), "Is the Oracle needed?", "2008-09-01T10:00:00Z")
    assert "Done: the unnumbered Consultation #1, waiting for the Oracle to assign a Priest or ZOT it" in r
    c = consultations(game)["#1"]
    assert (c["number"], c["priest"], c["draws"]) == (None, None, [])
    assert any("Ministry of Questions (Oracle) is obliged to assign a Priest to the unnumbered "
               "Consultation #1 or ZOT it" in e["summary"] for e in events(game, "obligation"))
    # an External Force asks too, then becomes a Player and is Ordained: still its Supplicant
    consult(game, "zaphod@example.org", "Can I play?", "2008-09-01T11:00:00Z")
    game.join("Zaphod", "2008-09-01T12:00:00Z")
    game.post(mail("Zaphod"), "I become Ordained.", "2008-09-01T12:10:00Z")
    game.tick("2008-09-05T00:00:00Z")                       # nobody to blame: no Misdemeanor
    assert events(game, "misdemeanor") == []
    game.post(mail("Wooble"), "I assign the Ministry of Questions to myself.", "2008-09-05T10:00:00Z")
    cs = consultations(game)
    assert cs[1]["draws"][0]["candidates"] == ["Carol", "Dave", "Eve", "Zaphod"]
    assert cs[1]["priest"] == cs[1]["draws"][0]["chosen"]
    assert cs[1]["draws"][0]["by"] == "bnomic, for the Oracle (Wooble),"
    assert (cs[2]["supplicant"], cs[2]["draws"][0]["candidates"]) == (
        "zaphod@example.org", ["Bob", "Carol", "Dave", "Eve"])
    assert any("obligation #1 fulfilled" in e["summary"] for e in events(game, "obligation"))


def test_an_oracle_who_kept_the_duty_assigns_numbers_and_zots_by_mail(game):
    setup(game)
    r = game.post(mail("Wooble"), "I take back the duty to draw Priests.", "2008-09-01T07:00:00Z")
    assert "Done" in r
    consult(game, mail("Bob"), "Question one?", "2008-09-01T10:00:00Z")
    consult(game, mail("Bob"), "Question two?", "2008-09-01T10:05:00Z")
    consult(game, mail("Carol"), "Question three?", "2008-09-01T10:10:00Z")
    assert all(c["priest"] is None and c["number"] is None for c in consultations(game).values())
    r = game.post(mail("Bob"), "I assign Consultation 1 to Carol.", "2008-09-01T11:00:00Z")
    assert "only the Oracle may assign a Consultation to a Priest (Rule 4E18)" in r
    r = game.post(mail("Wooble"), "I assign Consultation 1 to Bob.", "2008-09-01T11:00:00Z")
    assert "Bob is its Supplicant: not eligible as its Priest (eligible: Carol, Dave, Eve) (Rule 4E18)" in r
    r = game.post(mail("Wooble"), "I assign Consultation 1 to Dave.", "2008-09-01T11:01:00Z")
    assert "Done: Consultation 1: Priest Dave" in r
    r = game.post(mail("Wooble"), "I assign the unnumbered Consultation #2 to a random Priest, as number 7.",
                  "2008-09-01T11:02:00Z")
    assert "Done: Consultation 7: Priest " in r
    r = game.post(mail("Wooble"), "I ZOT Consultation 1.", "2008-09-01T11:03:00Z")
    assert "has its Priest (Dave), who has not requested a ZOT" in r and "(Rule 4E18)" in r
    r = game.post(mail("Wooble"), "I ZOT Consultation 3.", "2008-09-01T11:04:00Z")
    assert "Done" in r
    cs = consultations(game)
    assert (cs["#3"]["state"], cs[1]["priest"], cs[7]["draws"][0]["by"]) == ("ZOTTED", "Dave", "the Oracle (Wooble)")
    assert len([o for o in events(game, "obligation") if "fulfilled" in o["summary"]]) == 3
    # the Priest asks for a ZOT; the Oracle reassigns instead
    r = game.post(mail("Dave"), "I request a ZOT of Consultation 1.", "2008-09-01T12:00:00Z")
    assert "Done" in r
    r = game.post(mail("Wooble"), "I assign Consultation 1 to Dave.", "2008-09-01T12:10:00Z")
    assert "Dave was selected as its Priest before: not eligible" in r
    r = game.post(mail("Wooble"), "I reassign Consultation 1.", "2008-09-01T12:20:00Z")
    c = consultations(game)[1]
    assert c["priest"] in ("Carol", "Eve") and c["draws"][1]["candidates"] == ["Carol", "Eve"]
    # the new Priest asks for a ZOT too; this time the Oracle grants it
    game.post(mail(c["priest"]), "I ask the Oracle to ZOT Consultation 1.", "2008-09-01T13:00:00Z")
    r = game.post(mail("Wooble"), "I wield the staff of ZOT on Consultation 1.", "2008-09-01T13:10:00Z")
    assert "Done" in r and consultations(game)[1]["state"] == "ZOTTED"
    r = game.post(mail(c["priest"]), "I answer Consultation 1 YES.", "2008-09-01T13:20:00Z")
    assert "Consultation 1 is ZOTTED; only a Waiting Consultation is Answered (Rule 4E18)" in r
    # the Oracle tallies by hand, a Jiffy after an Answer
    p7 = consultations(game)[7]["priest"]
    game.post(mail(p7), "I answer Consultation 7 NO.", "2008-09-01T14:00:00Z")
    game.post(mail("Eve" if p7 != "Eve" else "Dave"), "I claim Consultation 7 is Inconsistent.",
              "2008-09-01T15:00:00Z")
    r = game.post(mail("Wooble"), "I tally the Claims on Consultation 7.", "2008-09-02T10:00:00Z")
    assert "there is no tally due on Consultation 7 (Answered)" in r
    game.tick("2008-09-04T00:00:00Z")
    assert any("tally the Claims on the Answer to Consultation 7" in e["summary"]
               for e in events(game, "obligation"))
    r = game.post(mail("Wooble"), "I tally the Claims on Consultation 7.", "2008-09-04T10:00:00Z")
    c7 = consultations(game)[7]
    assert (c7["state"], c7["priest"]) == ("Waiting", None)       # the Oracle must now assign anew
    assert c7["former_priests"] == [p7]


def test_numbers_start_at_one_and_follow_the_greatest(game):
    setup(game)
    game.post(mail("Wooble"), "I take back the duty to draw Priests.", "2008-09-01T07:00:00Z")
    consult(game, mail("Bob"), "A?", "2008-09-01T10:00:00Z")
    consult(game, mail("Bob"), "B?", "2008-09-01T10:01:00Z")
    game.post(mail("Wooble"), "I number Consultation 2 as 5.", "2008-09-01T10:02:00Z")
    r = game.post(mail("Wooble"), "I number Consultation 1 as 5.", "2008-09-01T10:03:00Z")
    assert "the number 5 is already in use (Consultation 5) (Rule 4E18)" in r
    game.post(mail("Wooble"), "I delegate the duty to draw Priests to bnomic.", "2008-09-01T10:04:00Z")
    assert sorted(k for k in consultations(game)) == [1, 5]      # 1 was free; the first took it
    consult(game, mail("Bob"), "C?", "2008-09-01T10:05:00Z")
    assert sorted(k for k in consultations(game)) == [1, 5, 6]


# ------------------------------------------------ the silent Priest

def test_a_silent_priest_is_replaced_and_not_reordained_until_the_next_nweek(game):
    setup(game, ordain=("Bob", "Carol"))
    consult(game, mail("Dave"), "Will Bob answer?", "2008-09-01T10:00:00Z", unbeliever="Carol")
    c = consultations(game)[1]
    assert c["priest"] == "Bob"                                   # the only one eligible
    consult(game, mail("Dave"), "And this?", "2008-09-02T10:00:00Z", unbeliever="Carol")
    assert consultations(game)[2]["priest"] == "Bob"
    game.tick("2008-09-03T23:59:00Z")
    assert consultations(game)[1]["priest"] == "Bob"
    game.tick("2008-09-04T00:00:00Z")                             # a Jiffy after the first draw
    cs = consultations(game)
    # Bob ceases to be the Priest of both; nobody is left: the Oracle is selected
    assert (cs[1]["priest"], cs[2]["priest"]) == ("Wooble", "Wooble")
    assert cs[1]["former_priests"] == ["Bob", "Wooble"]
    assert ordained(game) == ["Carol"]
    (e,) = [e for e in events(game, "ordained") if e["data"]["player"] == "Bob" and not e["data"]["ordained"]]
    assert e["data"]["until_nweek"] == 2 and e["at"] == "2008-09-04T00:00:00Z"
    r = game.post(mail("Bob"), "I become Ordained.", "2008-09-04T10:00:00Z")
    assert "cannot regain it until nweek 2 (Rule 4E18)" in r
    # the Oracle is never replaced for silence
    game.tick("2008-09-08T00:00:00Z")
    assert consultations(game)[1]["priest"] == "Wooble"
    game.next_nweek()
    r = game.post(mail("Bob"), "I become Ordained.", "2008-09-14T10:00:00Z")
    assert "Done (Rule 4E18)" in r and "Bob" in ordained(game)


def test_ordained_is_gained_by_active_players_and_lost_with_active(game):
    setup(game, ordain=("Bob", "Carol", "Dave", "Eve"))
    r = game.post(mail("Bob"), "I become Ordained.", "2008-09-01T07:00:00Z")
    assert "Bob is Ordained already (Rule 4E18)" in r
    r = game.post(mail("Bob"), "I am no longer Ordained.", "2008-09-01T07:10:00Z")
    assert "Done (Rule 4E18)" in r
    r = game.post(mail("Bob"), "I renounce my Ordained property.", "2008-09-01T07:20:00Z")
    assert "Bob is not Ordained (Rule 4E18)" in r
    game.admin("set", "Carol", "active", "false")
    r = game.post(mail("Dave"), "I forfeit.", "2008-09-01T07:30:00Z")
    game.admin("remove-player", "Eve")
    assert ordained(game) == []
    lost = [e["summary"] for e in events(game, "ordained") if not e["data"]["ordained"]]
    assert lost == ["Bob loses the Ordained property: removed by themselves",
                    "Carol loses the Ordained property: lost the Active property (the operator)",
                    "Dave loses the Ordained property: forfeited, losing the Active property",
                    "Eve loses the Ordained property: removed from the game, losing the Active property"]
    # an inactive Player may not become Ordained (the attempt is no Game Action)
    r = game.post(mail("Carol"), "I become Ordained.", "2008-09-01T08:00:00Z")
    assert "only an Active Player may become Ordained; Carol is not Active (Rule 4E18)" in r


# ----------------------------------------------------------------- answers

@pytest.mark.parametrize("said, answer, reasoning", [
    ("I answer Consultation 1 YES.", "YES", ""),
    ("I answer Consultation 1 True.", "YES", ""),
    ("I answer Consultation 1: Affirmative", "YES", ""),
    ("I answer Correct to Consultation 1.", "YES", ""),
    ("I answer Consultation 1 NO, because the rules say so.", "NO", "because the rules say so"),
    ("My answer to Consultation 1 is False.", "NO", ""),
    ("I answer Consultation 1 negative.", "NO", ""),
    ("I answer Consultation 1 Incorrect.", "NO", ""),
    ("I answer Consultation 1 PARADOX.", "PARADOX", ""),
    ("I answer Consultation 1 Maybe.", "PARADOX", ""),
    ("I answer Consultation 1 Undecidable.", "PARADOX", ""),
    ("I answer Consultation 1: Göd Knows", "PARADOX", ""),
    ('I answer "God knows" to Consultation 1.', "PARADOX", ""),
])
def test_the_answers_and_their_synonyms(game, said, answer, reasoning):
    setup(game, ordain=("Bob",))
    consult(game, mail("Carol"), "Well?", "2008-09-01T10:00:00Z")
    r = game.post(mail("Bob"), said, "2008-09-01T11:00:00Z")
    assert "Done" in r, r
    c = consultations(game)[1]
    assert (c["state"], c["answer"], c["answer_reasoning"]) == ("Answered", answer, reasoning)


def test_an_answer_that_is_none_of_them_is_refused(game):
    setup(game, ordain=("Bob",))
    consult(game, mail("Carol"), "Well?", "2008-09-01T10:00:00Z")
    r = game.post(mail("Bob"), "I answer Consultation 1 Perhaps.", "2008-09-01T11:00:00Z")
    assert "'Perhaps' is no Answer: answer YES (True, Affirmative, Correct)" in r and "(Rule 4E18)" in r
    assert consultations(game)[1]["state"] == "Waiting"


def test_claims_close_three_ndays_after_the_answer(game):
    setup(game, ordain=("Bob",))
    consult(game, mail("Carol"), "Well?", "2008-09-01T10:00:00Z")
    game.post(mail("Bob"), "I answer Consultation 1 YES.", "2008-09-01T11:00:00Z")
    game.tick("2008-09-04T10:00:00Z")                         # nday 4: the 3rd full nday after
    r = game.post(mail("Dave"), "I claim Consultation 1 is Inconsistent.", "2008-09-04T10:00:00Z")
    assert "Done" in r and "no tally remains to count it" in r   # tallied at the Jiffy (Sept 4 00:00)
    game.tick("2008-09-05T10:00:00Z")
    r = game.post(mail("Eve"), "I claim Consultation 1 is Inconsistent.", "2008-09-05T10:00:00Z")
    assert "were due within 3 ndays (or ndelays) of it (Rule 4E18)" in r


def test_pondered_counts_ndelays_while_the_clock_is_off(game):
    setup(game, ordain=("Bob",), clock=False)
    consult(game, mail("Carol"), "Well?", "2008-09-01T10:00:00Z")
    game.post(mail("Bob"), "I answer Consultation 1 YES.", "2008-09-01T11:00:00Z")
    game.tick("2008-09-03T00:00:00Z")                         # ndelays 1, 2: two periods ended
    game.admin("clock", "on")                                 # cuts ndelay 2 short: not counted
    game.tick("2008-09-05T23:00:00Z")                         # ndays end Sept 4, 5 (periods 3, 4)
    assert consultations(game)[1]["state"] == "Answered"
    game.tick("2008-09-06T00:00:00Z")                         # the 5th: four whole ones after the Answer's
    assert consultations(game)[1]["state"] == "Pondered"
    (e,) = [e for e in events(game, "consultation") if e["data"].get("action") == "pondered"]
    assert e["at"] == "2008-09-06T00:00:00Z"


def test_an_oracularity_is_all_or_nothing(game):
    setup(game, ordain=("Bob",))
    consult(game, mail("Carol"), "Well?", "2008-09-01T10:00:00Z")
    r = game.post(mail("Bob"), "I answer Consultation 1 YES.\nEND ANSWER\n"
                  "I submit the following Oracularity for Consultation 1:\n"
                  "Set the points of Bob to 3\nRepeal Rule 4E999\nEND ORACULARITY", "2008-09-01T11:00:00Z")
    assert r.count("Done") == 2 and "its Oracularity has 2 change(s)" in r
    r = game.post(mail("Bob"), "I submit the following Oracularity for Consultation 1:\nRepeal Rule 4E60\n",
                  "2008-09-01T12:00:00Z")
    assert "an Oracularity is part of an Answer: submit it in the message with your Answer" in r
    game.tick("2008-09-06T00:00:00Z")
    assert consultations(game)[1]["state"] == "Pondered"
    assert game.players()["Bob"]["points"] == 0                       # Rule 4E999 does not exist
    (o,) = events(game, "oracularity")
    assert o["data"]["applied"] == [] and o["data"]["unapplied"][1] == (
        "Repeal Rule 4E999: there is no Rule 4E999 (Rule 4E36)")
    assert "the changes stand or fall together" in o["data"]["unapplied"][0]
    assert "4E60" in {x["number"] for x in game.show("rules")}


def test_an_action_after_an_answer_without_end_is_part_of_it(game):
    setup(game, ordain=("Bob",))
    consult(game, mail("Carol"), "Well?", "2008-09-01T10:00:00Z")
    r = game.post(mail("Bob"), "I answer Consultation 1 NO.\nIt is not.\nI give m5 to Carol.",
                  "2008-09-01T11:00:00Z")
    assert "“I give m5 to Carol” is part of this Answer, not done: end an Answer with END ANSWER" in r
    assert consultations(game)[1]["answer_reasoning"] == "It is not.\nI give m5 to Carol."
    assert game.players()["Carol"]["mackerel"] == 50


# ------------------------------------------------------------------- 4E60

def test_five_consultations_of_one_nweek_all_zotted_are_contempt_of_court(game):
    setup(game)
    game.post(mail("Wooble"), "I take back the duty to draw Priests.", "2008-09-01T07:00:00Z")
    for i in range(5):
        consult(game, mail("Eve"), f"Silly question {i}?", f"2008-09-01T1{i}:00:00Z")
    for i in range(1, 5):
        assert "Done" in game.post(mail("Wooble"), f"I ZOT Consultation {i}.", "2008-09-02T10:00:00Z")
    assert events(game, "misdemeanor") == []
    game.post(mail("Wooble"), "I ZOT Consultation 5.", "2008-09-02T11:00:00Z")
    (m,) = events(game, "misdemeanor")
    assert m["rule"] == "4E60" and m["data"]["player"] == "Eve" and m["data"]["nweek"] == 1
    assert m["summary"].startswith("Misdemeanor: Eve is Held in Contempt of Court: 5 Consultations")
    assert m["data"]["consultations"] == [1, 2, 3, 4, 5]


def test_zotted_consultations_of_different_nweeks_are_no_contempt(game):
    setup(game)
    game.post(mail("Wooble"), "I take back the duty to draw Priests.", "2008-09-01T07:00:00Z")
    for i in range(4):
        consult(game, mail("Eve"), f"Silly question {i}?", f"2008-09-01T1{i}:00:00Z")
    game.next_nweek()
    consult(game, mail("Eve"), "Another?", "2008-09-14T10:00:00Z")
    for i in range(1, 6):
        game.post(mail("Wooble"), f"I ZOT Consultation {i}.", "2008-09-14T11:00:00Z")
    assert all(c["state"] == "ZOTTED" for c in consultations(game).values())
    assert [e for e in events(game, "misdemeanor") if e["rule"] == "4E60"] == []


# ----------------------------------------------------------- the display

def test_the_oracles_display(game):
    from bnomic.handlers import consultations as module
    from bnomic.handlers import displays
    from bnomic.handlers.context import Context
    from bnomic.render import render
    from bnomic.store import Game as GameRow, open_database
    setup(game, ordain=("Bob",))
    consult(game, mail("Carol"), "Is a Jiffy three rdays?", "2008-09-01T10:00:00Z", reasoning="Just asking.")
    game.post(mail("Bob"), "I answer Consultation 1 YES.\nReasoning: It is.\nOracularity:\n"
              "Set the points of Bob to 3\nEND ANSWER", "2008-09-01T11:00:00Z")
    game.post(mail("Dave"), "I claim Consultation 1 is Consistent.", "2008-09-01T12:00:00Z")
    open_database(game.db)
    ctx = Context(GameRow.get().now, "command")
    data = {**displays.common(ctx, "Questions"), **module.display(ctx)}
    text = render("display_Questions.txt", d=data)
    assert "PUBLIC DISPLAY OF THE MINISTRY OF QUESTIONS (Oracle)\nMinister: Wooble\n" in text
    assert ("CURRENT CONSULTATIONS (1)\n"
            "    Consultation 1 (Answered: YES): Is a Jiffy three rdays?\n"
            "        Supplicant Carol; Priest Bob\n"
            "        Reasoning: Just asking.\n"
            "        Priest 1: Bob, drawn at random among Bob; a new Consultation (bnomic, for the "
            "Oracle (Wooble), event ") in text
    assert ("        Answered 2008-09-01 11:00 UTC: It is.\n"
            "        Oracularity:\n"
            "            Set the points of Bob to 3\n"
            "        Claims: Dave Consistent\n") in text
    assert "DECIDED (0)\n    none\n" in text
    assert text.endswith("ORDAINED PLAYERS (1)\n    Bob\n")


def test_a_rebuild_gives_the_same_consultations(game):
    setup(game)
    consult(game, mail("Bob"), "Is it?", "2008-09-01T10:00:00Z")
    priest = consultations(game)[1]["priest"]
    game.post(mail(priest), "I answer Consultation 1 NO.", "2008-09-01T11:00:00Z")
    game.post(mail("Wooble"), "I claim Consultation 1 is Inconsistent.", "2008-09-01T12:00:00Z")
    game.tick("2008-09-04T00:00:00Z")
    before, digest = consultations(game), game.digest()
    game.cli("rebuild")
    assert consultations(game) == before and game.digest() == digest


def test_a_consultation_named_by_no_number_is_refused_saying_so(game):
    """Rule 4E18 (issue 13): "I ZOT it" reads as a ZOT of the Consultation meant;
    bnomic names Consultations by number only, and says so."""
    setup(game)
    game.post(mail("Wooble"), "I take back the duty to draw Priests.", "2008-09-01T07:00:00Z")
    consult(game, mail("Carol"), "Is a Jiffy three rdays?", "2008-09-01T10:00:00Z")
    r = game.post(mail("Wooble"), "I ZOT it.", "2008-09-01T11:00:00Z")
    # "it" in a message that answers nothing names nothing: the receipt asks for the number
    assert "Refused: understood as far as: zot consultation; missing:" in r
    assert '"I ZOT Consultation 3") (Rule 4E18)' in r
    r = game.post(mail("Wooble"), "I wield the staff of ZOT against the unnumbered Consultation #1.",
                  "2008-09-01T11:05:00Z")
    assert "Done" in r


def test_a_claim_said_first_in_a_reply_to_the_answer(game):
    # Rule 4E18: a Claim that the Answer is Consistent or Inconsistent; "Consistent." in reply
    # to the mail that gave the Answer is one, about that Answer
    setup(game, ordain=("Bob", "Carol", "Dave", "Eve"))
    consult(game, mail("Dave"), "Is the Beast a Player?", "2008-09-01T10:00:00Z", unbeliever="Eve")
    priest = consultations(game)[1]["priest"]
    game.post(mail(priest), "I answer Consultation 1 NO.", "2008-09-01T12:00:00Z", msgid="<answer@x>")
    r = game.post(mail("Wooble"), "Consistent, for what it's worth.", "2008-09-01T13:00:00Z",
                  headers={"In-Reply-To": "<answer@x>"})
    assert "Done" in r, r
    r = game.post(mail("Carol" if priest != "Carol" else "Bob"),
                  "Inconsistent. The Beast is a Player by Rule 4E4.", "2008-09-01T14:00:00Z",
                  headers={"In-Reply-To": "<answer@x>"})
    claims = consultations(game)[1]["claims"]
    assert claims["Wooble"] == "Consistent" and "Inconsistent" in claims.values()
    # in reply to other mail, the word alone claims nothing
    r = game.post(mail("Wooble"), "Inconsistent.", "2008-09-01T15:00:00Z")
    assert consultations(game)[1]["claims"]["Wooble"] == "Consistent"


def test_the_oracle_zots_the_consultation_its_reply_answers(game):
    # Rule 4E18: "The Oracle may ... ZOT a Waiting Consultation"; "ZOT." in reply to the
    # mail that submitted it is that Consultation
    setup(game, ordain=("Bob", "Carol", "Dave", "Eve"))
    game.post(mail("Wooble"), "I take back the duty to draw Priests.", "2008-09-01T07:00:00Z")
    game.post(mail("Dave"), "I submit the following Consultation:\nQuestion: Is the Beast a Player?\n"
              "END CONSULTATION\n", "2008-09-01T10:00:00Z", msgid="<consult@x>")
    game.post(mail("Dave"), "I submit the following Consultation:\nQuestion: Is a Jiffy 3 rdays?\n"
              "END CONSULTATION\n", "2008-09-01T10:05:00Z", msgid="<consult2@x>")
    r = game.post(mail("Wooble"), "ZOT. The rules already say so.", "2008-09-01T11:00:00Z",
                  headers={"In-Reply-To": "<consult@x>"})
    assert "Done" in r, r
    assert [c["state"] for c in consultations(game).values()] == ["ZOTTED", "Waiting"]


def test_this_consultation_in_reply_to_mail_that_gave_none_is_refused(game):
    setup(game, ordain=("Bob", "Carol", "Dave", "Eve"))
    game.post(mail("Dave"), "I give m1 to Bob.", "2008-09-01T10:00:00Z", msgid="<gift@x>")
    r = game.post(mail("Wooble"), "I ZOT this Consultation.", "2008-09-01T11:00:00Z",
                  headers={"In-Reply-To": "<gift@x>"})
    assert "gave no Consultation" in r and "(Rule 4E18)" in r


def test_the_unbeliever_named_in_the_submitting_sentence(game):
    # Rule 4E18: a Consultation has "optionally, a Player as an Unbeliever"; named in the
    # sentence that submits it as well as on an "Unbeliever:" line
    setup(game)
    r = game.post(mail("Dave"), "I submit a Consultation with Carol as Unbeliever:\n"
                  "Question: Is a Jiffy three rdays?\nReasoning: Rule 4E30 says so.", "2008-09-01T10:00:00Z")
    assert "Done" in r, r
    c = consultations(game)[1]
    assert (c["question"], c["unbeliever"]) == ("Is a Jiffy three rdays?", "Carol")
    assert "Carol" not in c["draws"][0]["candidates"]


def test_a_consultation_written_as_a_form_with_q_and_r(game):
    # Rule 4E18: a Question, optionally Reasoning and an Unbeliever; "Q:" and "R:" are how
    # players label them as often as not (docs/readings.md)
    setup(game)
    r = game.post(mail("Dave"), "CONSULTATION\nQ: Is a Jiffy three rdays?\nR: Rule 4E30 says so.\n"
                  "Unbeliever: Carol", "2008-09-01T10:00:00Z")
    assert "Done" in r, r
    c = consultations(game)[1]
    assert (c["question"], c["reasoning"], c["unbeliever"]) == ("Is a Jiffy three rdays?", "Rule 4E30 says so.",
                                                                 "Carol")
