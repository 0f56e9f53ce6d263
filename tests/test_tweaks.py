"""Issue 6: Tweaks (Rule 4E77), Tidiness Lists (4E32), the Rulekeeper's
retitling (4E36), and the obligation a passed proposal's prose leaves."""
from __future__ import annotations


def mail(name: str) -> str:
    return f"{name.lower()}@example.org"


def setup(game, *names):
    for i, n in enumerate(names):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    game.admin("clock", "on")


def events(game, kind=None):
    return [e["summary"] for e in game.show("events") if kind is None or e["kind"] == kind]


def test_a_tweak_is_activated_without_objection_and_its_change_takes_effect(game):
    setup(game, "Wooble", "Bob")
    r = game.post(mail("Wooble"), "I submit the following Tweak:\nSet A Few to 5\nEND TWEAK\n"
                  "I intend to activate Tweak 1 without objection.", "2008-09-01T10:00:00Z")
    assert "Tweak 1" in r and "intent #1" in r
    r = game.post(mail("Wooble"), "I submit the following Tweak:\nSet A Handful to 7", "2008-09-01T11:00:00Z")
    assert "you have submitted a Tweak this nweek already (Rule 4E77)" in r
    r = game.post(mail("Bob"), "I activate Tweak 1.", "2008-09-01T12:00:00Z")
    assert "Done" not in r
    game.tick("2008-09-04T00:00:00Z")                 # two ndays after the intent's nday
    r = game.post(mail("Wooble"), "Having received no objections, I activate Tweak 1.",
                  "2008-09-04T10:00:00Z")
    assert "Done" in r
    assert any("configuration quantities.a_few set from 4 to 5" in s for s in events(game, "setting"))
    r = game.post(mail("Wooble"), "I activate Tweak 1.", "2008-09-04T11:00:00Z")
    assert "Done" not in r          # its intent was used; a Tweak is activated once


def test_a_tweak_submitted_and_its_activation_intended_as_it(game):
    # Rule 4E77: "a Player can Activate a Tweak he submitted"; "it", after the Tweak just
    # submitted in the same message, is that Tweak
    setup(game, "Wooble", "Bob")
    r = game.post(mail("Wooble"), "I submit the following Tweak:\n\n{{\nSet A Few to 5\n}}\n\n"
                  "and I intend, without objection, to Activate it.", "2008-09-01T10:00:00Z")
    assert "Tweak 1" in r and "intent #1" in r
    game.tick("2008-09-04T00:00:00Z")
    r = game.post(mail("Wooble"), "No objections: I activate my Tweak.", "2008-09-04T10:00:00Z")
    assert "Done" in r
    assert any("configuration quantities.a_few set from 4 to 5" in s for s in events(game, "setting"))


def test_a_tweak_objected_to_cannot_be_attempted_again(game):
    setup(game, "Wooble", "Bob")
    game.post(mail("Wooble"), "I submit the following Tweak:\nSet A Few to 5\nEND TWEAK\n"
              "I intend to activate Tweak 1 without objection.", "2008-09-01T10:00:00Z")
    game.post(mail("Bob"), "I object to intent #1.", "2008-09-01T11:00:00Z")
    game.tick("2008-09-04T00:00:00Z")
    r = game.post(mail("Wooble"), "I activate Tweak 1.", "2008-09-04T10:00:00Z")
    assert "Done" not in r and "object" in r
    assert any("attempt to Activate Tweak 1 failed" in s for s in events(game, "tweak"))
    game.post(mail("Bob"), "I withdraw my objection to intent #1.", "2008-09-04T11:00:00Z")
    r = game.post(mail("Wooble"), "I activate Tweak 1.", "2008-09-04T12:00:00Z")
    assert "was already attempted" in r or "Done" not in r
    assert not any("quantities.a_few" in s for s in events(game, "setting"))


def test_a_tidiness_list_corrects_the_rules_and_pays_a_point_per_three(game):
    setup(game, "Wooble")
    body = ('I intend to submit the following Tidiness List without objection:\n'
            'In Rule 4E72, replace "occured" with "occurred"\n'
            'In Rule 4E30, replace "game purposes" with "Game purposes"\n'
            'Replace "the indicated numbers" with "the numbers indicated" in Rule 4E30\n'
            'END LIST\n')
    r = game.post(mail("Wooble"), body, "2008-09-01T10:00:00Z")
    assert "intent #1" in r
    game.tick("2008-09-03T00:00:00Z")
    r = game.post(mail("Wooble"), "I submit the Tidiness List.", "2008-09-03T10:00:00Z")
    assert "only from the end of the 2nd nday after the nday of the intent" in r   # 4E32
    assert "(Rule 4E32)" in r and "Done" not in r
    game.tick("2008-09-04T00:00:00Z")
    r = game.post(mail("Wooble"), "I submit the Tidiness List.", "2008-09-04T10:00:00Z")
    assert "Done" in r
    rules = {x["number"]: x for x in game.show("rules")}
    assert "occurred no more than one nweek" in rules["4E72"]["text"]
    assert rules["4E30"]["text"].startswith("For all Game purposes the following phrases are "
                                            "defined to mean the numbers indicated.")
    assert game.players()["Wooble"]["points"] == 1
    assert any("Tidiness List corrects 3 errors" in s for s in events(game))


def test_a_tidiness_list_only_corrects_text(game):
    setup(game, "Wooble")
    game.post(mail("Wooble"), "I intend to submit the following Tidiness List without objection:\n"
              "Repeal Rule 4E60\nEND LIST", "2008-09-01T10:00:00Z")
    game.tick("2008-09-05T00:00:00Z")
    r = game.post(mail("Wooble"), "I submit the Tidiness List.", "2008-09-05T10:00:00Z")
    assert "a Tidiness List only corrects the Rules' text" in r and "(Rule 4E32)" in r
    assert "4E60" in {x["number"] for x in game.show("rules")}


def test_the_rulekeeper_retitles_a_rule_without_objection(game):
    setup(game, "Wooble", "Bob")
    game.post(mail("Wooble"), "I become the Rulekeeper. I intend to retitle Rule 4E9 to \"Ages\" "
              "without objection.", "2008-09-01T10:00:00Z")
    r = game.post(mail("Bob"), "I intend to retitle Rule 4E9 to \"Mine\" without objection.",
                  "2008-09-01T10:00:00Z")
    game.tick("2008-09-04T00:00:00Z")
    r = game.post(mail("Bob"), 'I retitle Rule 4E9 to "Mine".', "2008-09-04T10:00:00Z")
    assert "only the Rulekeeper may retitle a Rule (Rule 4E36)" in r
    r = game.post(mail("Wooble"), 'I retitle Rule 4E9 to "Ages".', "2008-09-04T10:00:00Z")
    assert "Done" in r
    rule = {x["number"]: x for x in game.show("rules")}["4E9"]
    assert rule["title"] == "Ages" and "retitled by the Rulekeeper (Wooble)" in rule["history"][-1]["what"]


def test_prose_in_a_passed_proposal_obliges_the_rulekeeper(game):
    for i, n in enumerate(["Wooble", "Bob"]):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    game.post(mail("Bob"), "I become the Chairman. I become the Rulekeeper.", "2008-09-01T05:00:00Z")
    game.post(mail("Wooble"), 'I submit the following proposal, titled "Mixed":\n'
              "Repeal Rule 4E60.\nEvery player who likes fish gains m5.\nEND PROPOSAL",
              "2008-09-01T08:00:00Z")
    game.admin("clock", "on")
    game.tick("2008-09-09T00:00:00Z")
    game.post(mail("Wooble"), "I vote FOR on 1.", "2008-09-09T10:00:00Z")
    game.post(mail("Bob"), "I vote FOR on 1.", "2008-09-09T10:00:00Z")
    game.tick("2008-09-13T00:00:00Z")
    assert "4E60" not in {x["number"] for x in game.show("rules")}
    results = game.cli("show", "results")
    assert "    Applied: Rule 4E60 repealed by Proposal 1" in results
    assert "    Left to the Rulekeeper: Every player who likes fish gains m5." in results
    (ob,) = [s for s in events(game, "obligation") if "passed proposal 1" in s]
    assert ob.startswith("the Ministry of Law (Rulekeeper) is obliged to make the changes of passed "
                         "proposal 1 that bnomic could not apply: Every player who likes fish gains m5.")
    number = ob.split("obligation #")[1].rstrip(")")
    game.admin("fulfil", number, "gave", "m5", "to", "the", "fish-lovers")
    assert events(game, "obligation")[-1] == (f"obligation #{number} fulfilled: the operator: gave m5 "
                                              "to the fish-lovers")


def test_replaying_the_log_reproduces_an_nweek_of_proposals(game):
    setup(game, "Wooble", "Bob")
    game.post(mail("Bob"), "I become the Chairman.", "2008-09-01T05:00:00Z")
    game.post(mail("Wooble"), "I submit a proposal: Set the points of Bob to 7", "2008-09-01T08:00:00Z")
    game.tick("2008-09-09T00:00:00Z")
    game.post(mail("Wooble"), "FOR on all", "2008-09-09T10:00:00Z")
    game.tick("2008-09-13T00:00:00Z")
    digest = game.digest()
    assert game.players()["Bob"]["points"] == 7
    game.cli("rebuild")
    assert game.digest() == digest


def test_a_tweak_and_the_intent_to_activate_it_in_one_sentence(game):
    """Rule 4E77: "I submit the following Tweak and intend, without objection, to Activate it",
    the Tweak after it between {{ }}; and "{{ ... }} and intend ... to Activate it."."""
    setup(game, "Wooble", "Bob")
    r = game.post(mail("Wooble"), "I submit the following Tweak and intend, without objection, to\n"
                  "Activate it:\n\n{{\nSet A Few to 5\n}}\n", "2008-09-01T10:00:00Z")
    assert "Tweak 1" in r and "intent #1" in r, r
    r = game.post(mail("Bob"), "I submit a Tweak: {{ Set A Handful to 7 }} and intend, without objection, "
                  "to Activate it.", "2008-09-01T11:00:00Z")
    assert "Tweak 2" in r and "intent #2" in r, r
