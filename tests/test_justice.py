"""Indictments (Rule 4E72), the Judge and the Jury (4E73), fines and
Registered Voters (4E73, 4E20), Contempt of Court's fines (4E60), played by
mail through the real CLI, with every draw checked against the seeded chance."""
from __future__ import annotations

import hashlib
import random

import pytest

from bnomic.handlers import grammar

from conftest import Game

PRIORITIES_8 = [("Ais523", "0"), ("Bob", "1"), ("Carol", "1"), ("Dave", "1"), ("Eve", "1"),
                ("Frank", "1/2"), ("Gina", "0"), ("The Beast", "0"), ("Wooble", "0")]


def mail(name: str) -> str:
    return f"{name.lower()}@example.org"


def setup(game, *names, judge="Frank", horde=()):
    for i, n in enumerate(names):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    if judge:
        game.post(mail(judge), "I assign the Ministry of Judging to myself.", "2008-09-01T09:00:00Z")
    for n in horde:
        game.admin("set", n, "active", "false")


def indict(game, author, offender, at, accusation="Misdemeanor", tidbit="cheese",
           example="On 2008-09-01 Wooble posted forty copies of one message to the list.",
           reasoning="Mild spamming of a mailing list is a Misdemeanor (Rule 4E59)."):
    body = (f"I submit the following Indictment:\nAccusation: {accusation}\nExample: {example}\n"
            f"Offender: {offender}\nTidbit: {tidbit}\n"
            + (f"Reasoning: {reasoning}\n" if reasoning else "") + "END INDICTMENT\n")
    return game.post(mail(author), body, at)


def events(game, kind=None):
    return [e for e in game.show("events") if kind is None or e["kind"] == kind]


def summaries(game, kind=None):
    return [e["summary"] for e in events(game, kind)]


def expected_draw(event_seq: int, candidates: list[str], k: int = 3) -> list[str]:
    """What Context.rng() gives for the event `event_seq` of a game seeded "test-seed"."""
    digest = hashlib.sha256(f"test-seed:{event_seq}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big")).sample(candidates, k)


def jury_event(game, number=1) -> dict:
    (e,) = [e for e in events(game, "jury") if e["data"]["indictment"] == number]
    return e


def show_indictment(game, number=1) -> dict:
    """The Indictment as the view kind "indictments" gives it, read from the game's database."""
    from bnomic.mailer import views
    from bnomic.store import close_database, open_database
    open_database(game.db)
    try:
        return {i["number"]: i for i in views.show("indictments")[0]}[number]
    finally:
        close_database()


def judging_display(game) -> str:
    from bnomic.mailer import views
    from bnomic.store import close_database, open_database
    open_database(game.db)
    try:
        return views.show("display", request=views.Request("Judging"))[1]
    finally:
        close_database()


EIGHT = ("Wooble", "Ais523", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina")


def full_setup(game):
    """Eight players: Frank the Judge, Dave the Chairman, Gina in the Horde; a
    proposal for the Voting Period; Ais523 indicts Wooble."""
    setup(game, *EIGHT, horde=("Gina",))
    game.post(mail("Dave"), "I become the Chairman.", "2008-09-01T09:30:00Z")
    game.post(mail("Bob"), 'I submit the following proposal, titled "One":\nRepeal Rule 4E60\n'
              "END PROPOSAL\n", "2008-09-01T10:00:00Z")
    game.admin("clock", "on")
    return indict(game, "Ais523", "Wooble", "2008-09-01T12:00:00Z")


# ------------------------------------------------------------------ the grammar

@pytest.mark.parametrize("text, name, args", [
    ("I find the Offender of Indictment 2 GUILTY.", "verdict", {"number": "2", "answer": "GUILTY"}),
    ("Indictment 2: NOT GUILTY", "verdict", {"number": "2", "answer": "NOT GUILTY"}),
    ("GUILTY on Indictment 2.", "verdict", {"number": "2", "answer": "GUILTY"}),
    ("I find Wooble not guilty of Indictment #3", "verdict",
     {"number": "3", "answer": "NOT GUILTY", "player": "Wooble"}),
    ("My verdict on Indictment 1 is GUILTY.", "verdict", {"number": "1", "answer": "GUILTY"}),
    ("I assign a fine of m20 to Wooble for Indictment 2.", "assign_fine",
     {"amount": "m20", "player": "Wooble", "number": "2"}),
    ("I fine Wooble 20 macks for Indictment 2.", "assign_fine",
     {"amount": "m20", "player": "Wooble", "number": "2"}),
    ("I destroy m20 to pay my fine.", "pay_fine", {"amount": "m20"}),
    ("I pay my fine.", "pay_fine", {}),
    ("I draw the Jury for Indictment 2.", "draw_jury", {"number": "2"}),
    ("I select Bob, Carol and Dave as the Jury for Indictment 2.", "name_jury",
     {"number": "2", "players": "Bob, Carol, Dave"}),
    ("The Jury of Indictment 2 is Bob, Carol and Dave.", "name_jury",
     {"number": "2", "players": "Bob, Carol, Dave"}),
])
def test_the_phrasings(text, name, args):
    (r,) = grammar.read(text)
    assert (r.spec.name, r.args) == (name, args)


def test_documents_end_at_their_end_line():
    text = ("I submit the following Indictment:\nAccusation: Felony\nExample: event 3\nOffender: Bob\n"
            "Tidbit: 3\nEND INDICTMENT\nI give m5 to Bob.\n"
            "I assign the following Punishment for Indictment 1: Set the points of Bob to 0\n"
            "END PUNISHMENT\nI vote FOR on 1.")
    r = grammar.read(text)
    assert [x.spec.name for x in r] == ["submit_indictment", "give", "assign_punishment", "vote"]
    assert r[0].args["document"] == "Accusation: Felony\nExample: event 3\nOffender: Bob\nTidbit: 3"
    assert r[2].args == {"number": "1", "document": "Set the points of Bob to 0"}
    assert grammar.read("I think Wooble is guilty of something on Indictment 2.") == []


# ------------------------------------------------------------ the whole story

def test_an_indictment_by_mail_to_a_fine_paid(game):
    r = full_setup(game)
    assert "Done: Indictment 1; the Offense (2008-09-01) was in nday 1 of nweek 1, within the last " \
           "nweek; its Jury, drawn by bnomic for the Judge: " in r
    assert "(Rule 4E72)" in r
    jury = jury_event(game)
    d = jury["data"]
    # step (1): Active 1, the Judge 1/2, Offender and submitter 0, the Horde (Gina, the Beast) 0
    assert [(p["player"], p["priority"]) for p in d["priorities"]] == PRIORITIES_8
    assert (d["step"], d["candidates"], d["size"]) == (2, ["Bob", "Carol", "Dave", "Eve"], 3)
    assert d["steps"] == ["(2) 4 Players have priority 1: a random 3 of them"]
    assert d["by"] == "bnomic for the Judge (Frank)" and jury["rule"] == "4E73"
    chosen = expected_draw(jury["seq"], ["Bob", "Carol", "Dave", "Eve"])
    assert d["chosen"] == chosen
    jurors = sorted(chosen)
    outsider = ({"Bob", "Carol", "Dave", "Eve"} - set(chosen)).pop()
    shown = show_indictment(game)
    assert shown["jury"] == jurors and shown["draw"]["event"] == jury["seq"]
    assert (shown["offender"], shown["author"], shown["accusation"], shown["tidbit"], shown["state"]) == \
        ("Wooble", "Ais523", "Misdemeanor", "cheese", "open")
    assert shown["reasoning"] == "Mild spamming of a mailing list is a Misdemeanor (Rule 4E59)."

    # only jurors answer; the latest answer counts; a majority of GUILTY convicts
    r = game.post(mail(outsider), "I find the Offender of Indictment 1 GUILTY.", "2008-09-02T10:00:00Z")
    assert f"Refused: only the members of its Jury answer on Indictment 1: " \
           f"{jurors[0]}, {jurors[1]} and {jurors[2]} (Rule 4E73)" in r
    game.post(mail(jurors[0]), "Indictment 1: GUILTY", "2008-09-02T10:10:00Z")
    game.post(mail(jurors[0]), "NOT GUILTY on Indictment 1.", "2008-09-02T10:20:00Z")
    game.post(mail(jurors[1]), "I find Wooble GUILTY on Indictment 1.", "2008-09-02T10:30:00Z")
    assert show_indictment(game)["state"] == "open"      # 1 GUILTY, 1 NOT GUILTY of 3
    assert show_indictment(game)["verdicts"] == {jurors[0]: "NOT GUILTY", jurors[1]: "GUILTY",
                                                 jurors[2]: None}
    r = game.post(mail("Frank"), "I assign a fine of m20 to Wooble for Indictment 1.", "2008-09-02T10:40:00Z")
    assert "Indictment 1 is not Decided yet (Rule 4E73)" in r
    game.post(mail(jurors[0]), "My verdict on Indictment 1 is GUILTY.", "2008-09-02T11:00:00Z")
    assert show_indictment(game)["state"] == "guilty"
    assert summaries(game, "decided") == ["the Jury of Indictment 1 Decides Wooble Guilty "
                                          "(2 GUILTY, 0 NOT GUILTY, of 3 jurors)"]

    # the Judge Assigns the fine; only the Judge; the Offender only
    r = game.post(mail("Bob"), "I assign a fine of m20 to Wooble for Indictment 1.", "2008-09-02T12:00:00Z")
    assert "only the Judge Assigns a Punishment (Rule 4E73)" in r
    r = game.post(mail("Frank"), "I assign a fine of m20 to Bob for Indictment 1.", "2008-09-02T12:05:00Z")
    assert "the Offender of Indictment 1 is Wooble, not Bob (Rule 4E73)" in r
    r = game.post(mail("Frank"), "I assign a fine of 2 points to Wooble for Indictment 1.",
                  "2008-09-02T12:07:00Z")
    assert "'points' is not a currency" in r and "Done" not in r
    r = game.post(mail("Frank"), "I assign a fine of m20 to Wooble for Indictment 1.", "2008-09-02T12:10:00Z")
    assert "Done" in r
    shown = show_indictment(game)
    assert (shown["punishment"], shown["fine"], shown["paid"]) == ("a fine of m20", 20, False)
    assert "the Judge (Frank) Assigns Wooble a fine of m20 for Indictment 1: Wooble is obligated to " \
           "destroy m20, and is not a Registered Voter until then" in summaries(game, "fine")
    r = game.post(mail("Frank"), "I fine Wooble m30 for Indictment 1.", "2008-09-02T12:20:00Z")
    assert "Indictment 1 has its fine already (Rule 4E73)" in r

    # the silent juror commits a Misdemeanor a Jiffy after the draw (4E73 "shall", 4E56)
    game.tick("2008-09-04T00:00:00Z")
    assert summaries(game, "misdemeanor") == [f"Misdemeanor: {jurors[2]}, on the Jury of Indictment 1, "
                                              "did not deliver an answer within a Jiffy"]

    # the Voting Period: Wooble, fined, is not a Registered Voter (4E20, 4E73)
    game.tick("2008-09-09T00:00:00Z")
    assert game.clock()["nday"] == 9
    r = game.post(mail("Wooble"), "I vote FOR on 1.", "2008-09-10T10:00:00Z")
    assert "Refused: Wooble is not a Registered Voter (Rule 4E20)" in r
    r = game.post(mail("Wooble"), "I destroy m25.", "2008-09-10T10:05:00Z")
    assert "you owe m20 (Indictment 1): a fine is paid by destroying exactly its macks (Rule 4E73)" in r
    r = game.post(mail("Wooble"), "I destroy m20.", "2008-09-10T10:10:00Z")
    assert "Done" in r
    assert game.players()["Wooble"]["mackerel"] == 30
    assert "Wooble destroys m20, paying the fine of Indictment 1; they are a Registered Voter again" \
        in summaries(game, "fine")
    r = game.post(mail("Wooble"), "I destroy m20.", "2008-09-10T10:15:00Z")
    assert "you have no unpaid fine; macks are destroyed only to pay a fine (Rule 4E73)" in r
    r = game.post(mail("Wooble"), "I vote FOR on 1.", "2008-09-10T10:20:00Z")
    assert "Done" in r
    assert show_indictment(game)["paid"] is True

    # the Judge's display: every Indictment and its outcome, and the Misdemeanors
    text = judging_display(game)
    assert "Rule 4E73: all Indictments and their outcomes." in text
    assert ("    Indictment 1: Misdemeanor, by Wooble; submitted by Ais523, 2008-09-01T12:00:00Z; "
            "Tidbit: cheese\n") in text
    assert ("        Priorities: Ais523 0, Bob 1, Carol 1, Dave 1, Eve 1, Frank 1/2, Gina 0, "
            "The Beast 0, Wooble 0\n") in text
    assert f"        Jury: {', '.join(jurors)} (selected by bnomic for the Judge (Frank), event " \
           f"{jury['seq']})\n" in text
    assert "        Outcome: Guilty\n        Punishment: a fine of m20\n        Fine: m20, paid\n" in text
    assert "UNPAID FINES (0: not Registered Voters until paid, Rule 4E73)\n    none\n" in text
    assert "MISDEMEANORS RECORDED (1)\n" in text and f"{jurors[2]}, on the Jury of Indictment 1" in text


def test_the_same_seed_draws_the_same_jury(game, tmp_path):
    full_setup(game)
    twin_dir = tmp_path / "twin"
    twin_dir.mkdir()
    twin = Game(twin_dir)
    full_setup(twin)
    a, b = jury_event(game), jury_event(twin)
    assert a["seq"] == b["seq"] and a["data"]["chosen"] == b["data"]["chosen"]
    assert a["data"]["chosen"] == expected_draw(a["seq"], ["Bob", "Carol", "Dave", "Eve"])
    # and a rebuild of the log draws it again, the same
    before = game.digest()
    game.cli("rebuild")
    assert game.digest() == before and jury_event(game)["data"] == a["data"]


# ------------------------------------------------------- the procedure's steps

def test_fewer_than_three_with_priority_one_the_judge_is_rounded_up(game):
    setup(game, "Wooble", "Ais523", "Bob", "Carol", "Frank")
    indict(game, "Ais523", "Wooble", "2008-09-01T12:00:00Z")
    d = jury_event(game)["data"]
    assert [(p["player"], p["priority"]) for p in d["priorities"]] == [
        ("Ais523", "0"), ("Bob", "1"), ("Carol", "1"), ("Frank", "1/2"), ("The Beast", "0"),
        ("Wooble", "0")]
    assert d["step"] == 3
    assert d["steps"] == ["(2) only 2 Players have priority 1",
                          "(3) Frank's priority rounded up to 1: 3 Players have priority 1: a random 3 of them"]
    assert d["candidates"] == ["Bob", "Carol", "Frank"]
    assert sorted(d["chosen"]) == ["Bob", "Carol", "Frank"]
    assert show_indictment(game)["jury"] == ["Bob", "Carol", "Frank"]


def test_fewer_still_all_active_players_are_the_jury_and_not_guilty(game):
    setup(game, "Wooble", "Ais523", "Bob", "Frank", "Gina", horde=("Gina",))
    indict(game, "Ais523", "Wooble", "2008-09-01T12:00:00Z")
    d = jury_event(game)["data"]
    assert [(p["player"], p["priority"]) for p in d["priorities"]] == [
        ("Ais523", "0"), ("Bob", "1"), ("Frank", "1/2"), ("Gina", "0"), ("The Beast", "0"),
        ("Wooble", "0")]
    assert d["step"] == 4
    assert d["steps"] == ["(2) only 1 Players have priority 1",
                          "(3) Frank's priority rounded up to 1: still only 2 Players have priority 1",
                          "(4) all 4 Active Players are the Jury"]
    # step (4) places every Active Player on the Jury: the Offender and the submitter too
    assert show_indictment(game)["jury"] == ["Ais523", "Bob", "Frank", "Wooble"]
    game.post(mail("Wooble"), "I find the Offender of Indictment 1 NOT GUILTY.", "2008-09-01T13:00:00Z")
    assert show_indictment(game)["state"] == "open"       # 1 of 4: not yet certain
    game.post(mail("Bob"), "I answer NOT GUILTY on Indictment 1.", "2008-09-01T13:10:00Z")
    shown = show_indictment(game)
    assert (shown["state"], shown["outcome"]) == ("not guilty", "Not Guilty")
    assert summaries(game, "decided") == ["the Jury of Indictment 1 Decides Wooble Not Guilty "
                                          "(0 GUILTY, 2 NOT GUILTY, of 4 jurors)"]
    r = game.post(mail("Frank"), "I assign a fine of m10 to Wooble for Indictment 1.", "2008-09-01T14:00:00Z")
    assert "a Punishment is Assigned to a Guilty Player, and Indictment 1 was Decided Not Guilty " \
           "(Rule 4E73)" in r
    r = game.post(mail("Ais523"), "GUILTY on Indictment 1.", "2008-09-01T14:10:00Z")
    assert "Done: the Jury had already Decided Wooble Not Guilty; the answer is recorded and changes " \
           "nothing" in r
    assert show_indictment(game)["state"] == "not guilty"


# ------------------------------------------------------------- refusals

def test_what_an_indictment_must_be(game):
    setup(game, "Wooble", "Ais523", "Bob", "Carol", "Frank")
    r = indict(game, "Ais523", "Wooble", "2008-09-01T12:00:00Z", tidbit="Cheese")
    assert "Refused: 'Cheese' is not a Tidbit: a Tidbit is exactly one of \"cheese\", " \
           "\"CREAMPUFF\", \"3\" (Rule 4E72)" in r
    r = indict(game, "Ais523", "Wooble", "2008-09-01T12:01:00Z", tidbit="three")
    assert "'three' is not a Tidbit" in r and "(Rule 4E72)" in r
    r = indict(game, "Ais523", "Wooble", "2008-09-01T12:02:00Z", accusation="Being rude")
    assert "'Being rude' is not a Crime" in r and "(Rule 4E72)" in r
    r = indict(game, "Ais523", "Zed", "2008-09-01T12:03:00Z")
    assert "there is no Player named 'Zed' (Rule 4E72)" in r
    r = indict(game, "Ais523", "Wooble", "2008-09-01T12:04:00Z", example="On 2008-09-05 he will spam.")
    assert "the Example names 2008-09-05, after this submission" in r
    r = indict(game, "Ais523", "Wooble", "2008-09-01T12:05:00Z", example="On 2008-08-20 he spammed.")
    assert "the Example names 2008-08-20, before this game began (2008-09-01): more than one nweek " \
           "ago (Rule 4E72)" in r
    r = game.post(mail("Ais523"), "I submit the following Indictment:\nAccusation: Felony\nTidbit: 3\n"
                  "END INDICTMENT", "2008-09-01T12:06:00Z")
    assert "this one lacks: Example, Offender (Rule 4E72)" in r
    assert events(game, "indictment") == []
    # these are good: CREAMPUFF, the numeral 3 in quotes, a Felony, an Example with no date
    r = indict(game, "Ais523", "Wooble", "2008-09-01T12:07:00Z", tidbit="CREAMPUFF")
    assert "Done: Indictment 1" in r
    r = indict(game, "Bob", "Wooble", "2008-09-01T12:08:00Z", tidbit='"3"', accusation="Felony",
               example="He flooded the wiki with junk.", reasoning=None)
    assert "Done: Indictment 2; bnomic cannot tell when the Offense occurred (the Example names no " \
           "date, nday or event), so it takes the Example to be within the last nweek as stated" in r
    assert (show_indictment(game, 2)["tidbit"], show_indictment(game, 2)["accusation"]) == ("3", "Felony")


def test_an_example_more_than_one_nweek_old_is_refused(game):
    setup(game, "Wooble", "Ais523", "Bob", "Carol", "Frank")
    game.admin("clock", "on")
    game.tick("2008-09-03T00:00:00Z")             # nday 3 of nweek 1
    seq = events(game)[-1]["seq"]
    game.next_nweek()
    game.next_nweek()                              # nday 1 of nweek 3
    game.admin("clock", "on")
    game.tick("2008-10-02T00:00:00Z")
    clock = game.clock()
    r = indict(game, "Ais523", "Wooble", "2008-10-02T10:00:00Z",
               example=f"Wooble did it, see event {seq}.")
    assert (f"the Example names event {seq}, in nday 3 of nweek 1: more than one nweek before this "
            f"submission (nday {clock['nday']} of nweek {clock['nweek']}) (Rule 4E72)") in r
    r = indict(game, "Ais523", "Wooble", "2008-10-02T10:05:00Z",
               example=f"Wooble did it in nday {clock['nday']} of nweek {clock['nweek'] - 1}.")
    assert "Done: Indictment 1" in r


# ----------------------------------------------------------------- the Judge

def test_a_vacant_judge_draws_nothing_until_someone_takes_the_ministry(game):
    setup(game, "Wooble", "Ais523", "Bob", "Carol", "Dave", "Frank", judge=None)
    r = indict(game, "Ais523", "Wooble", "2008-09-01T12:00:00Z")
    assert "the Ministry of Judging is Vacant: the Jury is selected when someone takes it" in r
    assert events(game, "jury") == [] and show_indictment(game)["outcome"] == \
        "waiting for a Judge to select the Jury (the Ministry of Judging is Vacant)"
    assert not [e for e in events(game, "obligation") if "Jury" in e["summary"]]
    r = game.post(mail("Bob"), "GUILTY on Indictment 1.", "2008-09-01T12:30:00Z")
    assert "Refused: Indictment 1 has no Jury yet (Rule 4E73)" in r
    game.tick("2008-09-05T00:00:00Z")
    assert events(game, "jury") == []
    game.post(mail("Frank"), "I assign the Ministry of Judging to myself.", "2008-09-05T09:00:00Z")
    jury = jury_event(game)
    assert jury["data"]["by"] == "bnomic for the Judge (Frank)"
    assert [(p["player"], p["priority"]) for p in jury["data"]["priorities"]] == [
        ("Ais523", "0"), ("Bob", "1"), ("Carol", "1"), ("Dave", "1"), ("Frank", "1/2"),
        ("The Beast", "0"), ("Wooble", "0")]
    assert jury["data"]["chosen"] == expected_draw(jury["seq"], ["Bob", "Carol", "Dave"])


def test_a_judge_who_kept_the_duty_is_obliged_and_selects_by_mail(game):
    setup(game, "Wooble", "Ais523", "Bob", "Carol", "Dave", "Frank")
    game.post(mail("Frank"), "I take back the duty to draw the Jury.", "2008-09-01T10:00:00Z")
    r = indict(game, "Ais523", "Wooble", "2008-09-01T12:00:00Z")
    assert "the Judge (Frank) is obliged to select its Jury" in r
    assert events(game, "jury") == []
    (o,) = [e for e in events(game, "obligation") if "select the Jury of Indictment 1" in e["summary"]]
    assert o["rule"] == "4E73"
    r = game.post(mail("Bob"), "I draw the Jury for Indictment 1.", "2008-09-01T12:30:00Z")
    assert "only the Judge selects a Jury (Rule 4E73)" in r
    r = game.post(mail("Frank"), "I draw the Jury for Indictment 1.", "2008-09-01T13:00:00Z")
    jury = jury_event(game)
    assert jury["data"]["by"] == "the Judge (Frank)"
    assert jury["data"]["chosen"] == expected_draw(jury["seq"], ["Bob", "Carol", "Dave"])
    assert f"obligation #{o['data']['obligation']} fulfilled: the Jury of Indictment 1 was selected by " \
           "the Judge (Frank)" in summaries(game, "obligation")
    r = game.post(mail("Frank"), "I draw the Jury for Indictment 1.", "2008-09-01T13:10:00Z")
    assert "Indictment 1 has its Jury already" in r
    # a second Indictment: the Judge names the Jury; it must be one the procedure could select
    indict(game, "Bob", "Wooble", "2008-09-01T14:00:00Z")
    r = game.post(mail("Frank"), "I select Ais523, Carol and Dave as the Jury for Indictment 2.",
                  "2008-09-01T14:10:00Z")
    assert "Done" in r
    r = game.post(mail("Frank"), "The Jury for Indictment 2 is Wooble, Carol and Dave.",
                  "2008-09-01T14:20:00Z")
    assert "Indictment 2 has its Jury already" in r
    indict(game, "Carol", "Bob", "2008-09-01T15:00:00Z")
    r = game.post(mail("Frank"), "The Jury for Indictment 3 is Wooble, Bob and Dave.", "2008-09-01T15:10:00Z")
    assert "Refused: the Jury is 3 Players with priority 1 (step 2); the candidates are Ais523, Dave " \
           "and Wooble (Rule 4E73)" in r
    assert show_indictment(game, 2)["jury"] == ["Ais523", "Carol", "Dave"]
    assert show_indictment(game, 3)["jury"] == []


# ------------------------------------------------- Contempt and other Punishments

def test_contempt_of_court_is_fined_from_m10_to_m60_and_other_punishments(game):
    setup(game, "Wooble", "Ais523", "Bob", "Carol", "Frank")
    indict(game, "Ais523", "Wooble", "2008-09-01T12:00:00Z", accusation="Contempt of Court",
           example="Wooble's five Consultations of this nweek were all ZOTTED.")
    for who in ("Bob", "Carol"):
        game.post(mail(who), "Indictment 1: GUILTY", "2008-09-01T13:00:00Z")
    assert show_indictment(game)["state"] == "guilty"
    r = game.post(mail("Frank"), "I assign a fine of m100 to Wooble for Indictment 1.", "2008-09-01T14:00:00Z")
    assert "the penalty for being Held in Contempt of Court is a fine of at least m10 and at most " \
           "m60, not m100 (Rule 4E60)" in r
    r = game.post(mail("Frank"), "I fine Wooble m5 for Indictment 1.", "2008-09-01T14:01:00Z")
    assert "not m5 (Rule 4E60)" in r
    r = game.post(mail("Frank"), "I fine Wooble m60 for Indictment 1.", "2008-09-01T14:02:00Z")
    assert "Done" in r
    # a Punishment other than a fine: in prose, an obligation on the Judge
    r = game.post(mail("Frank"), "I assign the following Punishment for Indictment 1:\n"
                  "Wooble may submit at most one proposal during the next nweek.\nEND PUNISHMENT",
                  "2008-09-01T14:10:00Z")
    assert "bnomic cannot make it itself (not all in the change language): obligation #" in r
    assert any("carry out the Punishment of Indictment 1 upon Wooble: Wooble may submit at most one "
               "proposal" in s for s in summaries(game, "obligation"))
    shown = show_indictment(game)
    assert shown["punishment"] == ("a fine of m60; Wooble may submit at most one proposal during the "
                                   "next nweek.")
    assert shown["contempt"] is True
    # a fine is destroyed whole: m60 is more than Wooble has
    r = game.post(mail("Wooble"), "I pay my fine.", "2008-09-01T15:00:00Z")
    assert "Wooble has m50, less than m60 (Rule 4E33)" in r


def test_a_punishment_in_the_change_language_is_made_at_once(game):
    setup(game, "Wooble", "Ais523", "Bob", "Carol", "Frank")
    game.admin("set", "Wooble", "points", "7")
    indict(game, "Ais523", "Wooble", "2008-09-01T12:00:00Z", accusation="Felony")
    for who in ("Bob", "Carol"):
        game.post(mail(who), "GUILTY on Indictment 1.", "2008-09-01T13:00:00Z")
    r = game.post(mail("Frank"), "I assign the following Punishment for Indictment 1:\n"
                  "Set the points of Bob to 0\nEND PUNISHMENT", "2008-09-01T14:00:00Z")
    assert "a Punishment is carried out upon the Guilty Player (Wooble); “Set the points of Bob to 0” " \
           "is not (Rule 4E73)" in r
    r = game.post(mail("Frank"), "I assign the following Punishment for Indictment 1:\n"
                  "Set the points of Wooble to 0\nSet the mackerel of Wooble to m10\nEND PUNISHMENT",
                  "2008-09-01T14:10:00Z")
    assert "Done" in r
    p = game.players()["Wooble"]
    assert (p["points"], p["mackerel"]) == (0, 10)
    assert show_indictment(game)["punishment"] == "Set the points of Wooble to 0\nSet the mackerel of Wooble to m10"
    # destroying macks all he has for a fine of exactly that much is possible (4E73)
    game.post(mail("Frank"), "I fine Wooble m10 for Indictment 1.", "2008-09-01T14:20:00Z")
    r = game.post(mail("Wooble"), "I destroy m10 to pay my fine.", "2008-09-01T14:30:00Z")
    assert "Done" in r and game.players()["Wooble"]["mackerel"] == 0


def test_show_consultations_and_indictments_and_their_displays(game):
    """The CLI contract (issue 7) and the Oracle's and the Judge's Public Displays."""
    import json
    game.join("Wooble", "2008-09-01T01:00:00Z")
    game.post("stranger@example.org", "I submit the following Consultation:\nQuestion: Is m0 a payment?\n",
              "2008-09-01T02:00:00Z")
    (row,) = json.loads(game.cli("show", "consultations", "--json"))
    assert {"number", "question", "supplicant", "priest", "state", "answer"} <= set(row)
    assert (row["question"], row["supplicant"], row["state"]) == ("Is m0 a payment?", "stranger@example.org", "Waiting")
    assert json.loads(game.cli("show", "indictments", "--json")) == []
    assert "PUBLIC DISPLAY OF THE MINISTRY OF QUESTIONS" in game.cli("show", "display", "Oracle")
    assert "PUBLIC DISPLAY OF THE MINISTRY OF JUDGING" in game.cli("show", "display", "Judge")
