"""Rules 4E53 (obligations in a Jiffy), 4E56 (Misdemeanors), 4E50 (challenges)."""
from test_ministries import CLAIMS, claim_all, holders  # noqa: F401


def cabinet(game):
    for name in CLAIMS:
        game.join(name, "2008-09-01T09:00:00Z")
    claim_all(game)
    return game


def misdemeanors(game):
    return [e for e in game.show("events") if e["kind"] == "misdemeanor"]


def test_a_challenge_answered_in_time(game):
    cabinet(game)
    r = game.post("carol@example.org", "I challenge the Registrar's display: Dave has m60, not m50",
                  "2008-09-01T13:00:00Z")
    assert "Done: obligation #1 on the Ministry of Society (Registrar) (Rule 4E50)" in r
    assert any(i["action"] == "obligation_due" for i in game.show("schedule"))
    r = game.post("alice@example.org", "I answer obligation #1: the display is right",
                  "2008-09-02T10:00:00Z")
    assert "which you do not hold (Rule 4E53)" in r                 # Bob is the Registrar
    r = game.post("bob@example.org", "I answer obligation #1: the display is right, see the events",
                  "2008-09-02T10:00:00Z")
    assert "Done (Rule 4E50)" in r
    game.tick("2008-09-06T00:00:00Z")
    assert misdemeanors(game) == []


def test_the_ministers_reply_to_the_challenge_answers_it(game):
    # Rule 4E50: the Minister addresses the errors "by either correcting them or indicating
    # why he believes them to be already correct": a reply to the challenge that does so
    cabinet(game)
    game.post("carol@example.org", "CoE: the Registrar's display lists Dave with m50; he has m60.",
              "2008-09-01T13:00:00Z", msgid="<coe1@example.org>")
    r = game.post("alice@example.org", "Fixed, thanks.", "2008-09-02T09:00:00Z",
                  headers={"In-Reply-To": "<coe1@example.org>"})
    assert "Done (Rule 4E50)" not in r                                  # Alice is not the Registrar
    r = game.post("bob@example.org", "Quite right, fixed on the wiki.", "2008-09-02T10:00:00Z",
                  headers={"In-Reply-To": "<coe1@example.org>"})
    assert "Done (Rule 4E50)" in r
    game.tick("2008-09-06T00:00:00Z")
    assert misdemeanors(game) == []
    r = game.post("bob@example.org", "Fixed again.", "2008-09-06T10:00:00Z",
                  headers={"In-Reply-To": "<coe1@example.org>"})
    assert "Done (Rule 4E50)" not in r                                  # answered already: nothing to answer


def test_a_lapsed_obligation_lets_any_player_remove_the_minister(game):
    cabinet(game)
    game.post("carol@example.org", "I challenge the Registrar's display: it is wrong",
              "2008-09-01T13:00:00Z")
    r = game.post("carol@example.org", "I remove Bob from the Ministry of Society", "2008-09-02T13:00:00Z")
    assert "has let no obligation" in r and "(Rule 4E53)" in r
    game.tick("2008-09-04T00:00:00Z")               # a Jiffy: 3 rdays from Sept 1 13:00
    (m,) = misdemeanors(game)
    assert m["rule"] == "4E56" and m["at"] == "2008-09-04T00:00:00Z" and "Bob" in m["summary"]
    r = game.post("carol@example.org", "I remove Bob from the Registrar", "2008-09-04T10:00:00Z")
    assert "Done (Rule 4E53)" in r
    assert holders(game)["Society"] is None


def test_a_new_minister_gets_a_fresh_jiffy(game):
    cabinet(game)
    game.post("carol@example.org", "I challenge the Registrar's display: it is wrong",
              "2008-09-01T13:00:00Z")
    game.post("bob@example.org", "I resign as Registrar", "2008-09-02T10:00:00Z")
    game.post("carol@example.org", "I become the Registrar", "2008-09-03T10:00:00Z")
    game.tick("2008-09-05T00:00:00Z")               # the old Jiffy has passed
    assert misdemeanors(game) == []
    game.tick("2008-09-06T00:00:00Z")               # a Jiffy from Sept 3 10:00
    assert [m["data"]["player"] for m in misdemeanors(game)] == ["Carol"]


def test_the_moms_own_clock_duty(game):
    cabinet(game)
    game.post("dave@example.org", "I take back the duty to turn the Clock On. I turn the Clock Off.",
              "2008-09-01T12:00:00Z")
    obligations = [e for e in game.show("events") if e["kind"] == "obligation"]
    assert "obliged to turn the Clock On within a Jiffy" in obligations[-1]["summary"]
    game.post("dave@example.org", "I turn the Clock On", "2008-09-02T12:00:00Z")
    assert "fulfilled: the Clock is On" in [e for e in game.show("events")
                                            if e["kind"] == "obligation"][-1]["summary"]
    game.tick("2008-09-06T00:00:00Z")
    assert misdemeanors(game) == []


def test_an_unchallenged_display_counts_as_approved_at_the_nweeks_end(game):
    cabinet(game)
    game.post("carol@example.org", "I challenge the Registrar's display: it is wrong",
              "2008-09-01T13:00:00Z")
    game.post("bob@example.org", "I answer obligation #1: it is right", "2008-09-01T14:00:00Z")
    game.next_nweek()
    approved = {e["data"]["ministry"] for e in game.show("events") if e["kind"] == "approved"}
    assert "Society" not in approved and {"Law", "Change", "Ministry", "Judging"} <= approved
    assert len(approved) == 10


def test_a_minister_who_keeps_the_display_must_update_it(game):
    cabinet(game)
    r = game.post("bob@example.org", "I take back the duty to publish the Registrar's display",
                  "2008-09-01T12:00:00Z")
    assert "Done (Rule 4E45)" in r
    game.post("erin@example.org", "I join as Erin", "2008-09-01T13:00:00Z")     # the data changes
    obliged = [e for e in game.show("events") if e["kind"] == "obligation"]
    assert "update its Public Display" in obliged[-1]["summary"]
    game.post("bob@example.org", "I have updated the Registrar's display", "2008-09-02T10:00:00Z")
    assert "fulfilled" in [e for e in game.show("events") if e["kind"] == "obligation"][-1]["summary"]
    game.tick("2008-09-06T00:00:00Z")
    assert misdemeanors(game) == []
    assert "performed by the minister" in game.cli("show", "display", "MetaMin")


def test_the_chairman_numbering_one_proposal_by_its_title_is_read_as_numbering(game):
    # Rule 4E15: the Chairman assigns "a new Proposal Number" to each proposal whose number is
    # null; said for one ("Proposal Number 18 to Bob's Sock Drawer"), it is that act (here the
    # proposal was numbered when it was submitted, so there is nothing left to number)
    cabinet(game)
    game.post("bob@example.org", 'I submit the following proposal, titled "Sock Drawer":\nSet A Few to 5\n'
              "END PROPOSAL", "2008-09-01T11:00:00Z")
    r = game.post("alice@example.org", "I assign Proposal Number 18 to Bob's \"Sock Drawer\" proposal.",
                  "2008-09-01T12:00:00Z")
    assert "Read as: number the new proposals" in r
    assert "every proposal has a number already (Rule 4E15)" in r


def test_only_the_chairman_numbers_proposals(game):
    cabinet(game)
    game.post("bob@example.org", 'I submit the following proposal, titled "Sock Drawer":\nSet A Few to 5\n'
              "END PROPOSAL", "2008-09-01T11:00:00Z")
    r = game.post("bob@example.org", "I assign Proposal Number 1 to my proposal.", "2008-09-01T12:00:00Z")
    assert "only the Chairman assigns Proposal Numbers (Rule 4E15)" in r
