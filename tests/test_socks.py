"""Socks and the Sock Market (Rules 4E68, 4E80) and the payout of a Colored
proposal (4E69), played by mail through the real CLI: a Laundry Corporation
given Officers by a Tweak creates Socks of its color, they are transferred in
each of the ways the rule lets a player name a Sock, destroyed by it, and
refused when not its own; a Blue proposal passes and pays the Blue
Corporation m100; the Washerwoman's display and `show socks` show it all, and
a rebuild reproduces the digest."""
from __future__ import annotations

from bnomic.handlers import grammar


def mail(name: str) -> str:
    return f"{name.lower()}@example.org"


def events(game, kind=None):
    return [e for e in game.show("events") if kind is None or e["kind"] == kind]


def corporations(game) -> dict:
    return {c["name"]: c for c in game.show("corporations")}


def test_every_way_the_rule_names_a_sock_is_read():
    """Rule 4E68: 'a [color] Sock', 'a Sock of the Color [color]', 'a Sock of
    [color]', 'a piece of [color] foowear' (the rule's spelling)."""
    for text, color in [("I transfer a Burnt Sienna Sock to Wooble", "Burnt Sienna"),
                        ("I transfer a Sock of the Color Beige to Wooble", "Beige"),
                        ("I transfer a Sock of Brick Red to Wooble", "Brick Red"),
                        ("I transfer a piece of Baby Blue foowear to Wooble", "Baby Blue"),
                        ("I give a piece of Blue footwear to Wooble", "Blue"),
                        ("I give Wooble a Burgundy sock", "Burgundy")]:
        (r,) = grammar.read(text)
        assert (r.kind, r.spec.name, r.args["color"], r.args["player"]) == (
            "action", "transfer_sock", color, "Wooble"), text
    (r,) = grammar.read("I transfer 2 Blue Socks to the Blue Corporation")
    assert (r.spec.name, r.args) == ("transfer_sock", {"count": "2", "color": "Blue",
                                                       "player": "Blue Corporation"})
    (r,) = grammar.read("On behalf of the Black Corporation, I create three Black Socks")
    assert (r.spec.name, r.args) == ("create_socks", {"count": "3", "color": "Black"})
    (r,) = grammar.read("I destroy a Sock of the Color Black")
    assert (r.spec.name, r.args) == ("destroy_socks", {"color": "Black"})
    for text, name in [("I transfer a Sock to Wooble", "transfer_sock"), ("I create a Sock", "create_socks"),
                       ("I destroy a Sock", "destroy_socks")]:
        (r,) = grammar.read(text)
        assert (r.kind, r.spec.name, r.missing) == ("incomplete", name, ("color",)), text
    for talk in ("I gave a Blue Sock to Wooble", "Wooble transfers a Blue Sock to Bob",
                 "Should I destroy a Blue Sock?", "I give m5 to Wooble"):
        assert not [x for x in grammar.read(talk) if x.spec is not None and "sock" in x.spec.name], talk


def test_socks_made_moved_and_destroyed_and_a_colored_proposal_pays(game):
    for i, n in enumerate(("Wooble", "Ais523", "Chuck")):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    game.admin("clock", "on")
    game.post(mail("Chuck"), "I become the Chairman.", "2008-09-01T08:00:00Z")
    # the ruleset names no Officers for the Laundry Corporations: a Tweak gives the Blue one
    r = game.post(mail("Wooble"), "I submit the following Tweak:\n"
                  "Set the Officers of the Blue Corporation to Wooble\nEND TWEAK\n"
                  "I intend to activate Tweak 1 without objection.", "2008-09-01T10:00:00Z")
    assert "intent #1" in r, r
    # a proposal painted Blue while Pending
    r = game.post(mail("Ais523"), 'I submit the following proposal, titled "Socks":\nSet A Few to 5\n'
                  "END PROPOSAL\nI change the Proposal Color of proposal 1 to Blue.", "2008-09-01T11:00:00Z")
    assert "Done (Rule 4E69)" in r, r
    r = game.post(mail("Wooble"), "On behalf of the Blue Corporation, I create a Blue Sock.",
                  "2008-09-01T12:00:00Z")
    assert "has no Officers" in r and "(Rule 4E79)" in r
    game.tick("2008-09-04T00:00:00Z")
    r = game.post(mail("Wooble"), "I activate Tweak 1.", "2008-09-04T09:00:00Z")
    assert "Done" in r, r
    assert corporations(game)["Blue Corporation"]["officers"] == ["Wooble"]

    # Rule 4E68: a Laundry Corporation creates Socks of its color, which it holds
    r = game.post(mail("Wooble"), "On behalf of the Blue Corporation, I create 3 Blue Socks.",
                  "2008-09-04T10:00:00Z")
    assert "Done" in r and "by the Blue Corporation, through its Officer Wooble" in r, r
    r = game.post(mail("Wooble"), "On behalf of the Blue Corporation, I create a Beige Sock.",
                  "2008-09-04T10:05:00Z")
    assert "may create Socks of its own color, Blue, not Beige (Rule 4E68)" in r
    r = game.post(mail("Ais523"), "On behalf of the Blue Corporation, I create a Blue Sock.",
                  "2008-09-04T10:10:00Z")
    assert "Ais523 is not an Officer of the Blue Corporation" in r and "Done" not in r
    r = game.post(mail("Chuck"), "I create a Blue Sock.", "2008-09-04T10:15:00Z")
    assert "only a Laundry Corporation may create Socks, and Chuck is none" in r and "(Rule 4E68)" in r
    socks = game.show("socks")
    assert socks["holders"] == [{"holder": "Blue Corporation", "socks": [1, 2, 3],
                                 "by_color": [{"color": "Blue", "count": 3}]}]

    # a Potential Sockholder transfers a Sock of a Color it holds, named as the rule names it
    r = game.post(mail("Wooble"), "On behalf of the Blue Corporation, I transfer 2 Blue Socks to Ais523.",
                  "2008-09-04T11:00:00Z")
    assert "Done" in r, r
    r = game.post(mail("Ais523"), "I give a piece of Blue foowear to Chuck.", "2008-09-04T11:10:00Z")
    assert "Done (Rule 4E68)" in r, r
    r = game.post(mail("Chuck"), "I transfer a Sock of the Color Blue to the Blue Corporation.",
                  "2008-09-04T11:20:00Z")
    assert "Done (Rule 4E68)" in r, r
    r = game.post(mail("Chuck"), "I transfer a Beige Sock to Wooble.", "2008-09-04T11:30:00Z")
    assert "Chuck holds 0 Beige Socks; a Sock is transferred only by its Sockholder (Rule 4E68)" in r

    # a Laundry Corporation destroys only Socks of its color that it holds
    r = game.post(mail("Wooble"), "On behalf of the Blue Corporation, I destroy 3 Blue Socks.",
                  "2008-09-04T12:00:00Z")
    assert ("the Blue Corporation holds 2 Blue Socks; a Laundry Corporation may only destroy socks "
            "of its color that are in its ownership (Rule 4E68)") in r, r
    r = game.post(mail("Wooble"), "On behalf of the Blue Corporation, I destroy 2 Blue Socks.",
                  "2008-09-04T12:10:00Z")
    assert "Done" in r, r
    r = game.post(mail("Wooble"), "On behalf of the Blue Corporation, I destroy a Blue Sock.",
                  "2008-09-04T12:20:00Z")
    assert "holds 0 Blue Socks" in r
    socks = game.show("socks")
    assert socks["holders"] == [{"holder": "Ais523", "socks": [2], "by_color": [{"color": "Blue", "count": 1}]}]
    assert [(s["number"], s["exists"]) for s in socks["socks"]] == [(1, False), (2, True), (3, False)]
    assert [t["action"] for t in socks["transactions"] if t["kind"] == "sock"] == [
        "create", "transfer", "transfer", "transfer", "destroy"]
    assert socks["proposals"] == [{"number": 1, "id": 1, "title": "Socks", "status": "Pending",
                                   "color": "Blue", "corporation": "Blue Corporation"}]
    shown = game.cli("show", "display", "Washerwoman")
    assert "bnomic does not keep" not in shown
    assert "    Ais523: 1 Blue (Socks 2)" in shown
    assert "Proposal 1 (Pending): Blue (its Corporation, if it Passes: the Blue Corporation)" in shown
    assert "the Blue Corporation destroys 2 Blue Socks (Sock 1, 3) (Rule 4E68)" in shown

    # Rule 4E69: the Blue proposal Passes and the Blue Corporation's macks increase by m100
    game.tick("2008-09-09T00:00:00Z")
    for i, n in enumerate(("Wooble", "Ais523", "Chuck")):
        game.post(mail(n), "I vote FOR on 1.", f"2008-09-09T1{i}:00:00Z")
    game.tick("2008-09-13T00:00:00Z")
    (p,) = game.show("proposals")
    assert p["passed"] and p["color"] == "Blue"
    assert corporations(game)["Blue Corporation"]["mackerel"] == 100
    (paid,) = [e for e in events(game, "mackerel") if e["rule"] == "4E69"]
    assert paid["summary"] == 'Blue Corporation gains m100: proposal 1 ("Socks") Passed with the Proposal Color Blue'
    tally = events(game, "tally")[-1]
    assert paid["seq"] > tally["seq"]                       # after the tally, in its order
    assert "Blue Corporation gains m100" in game.cli("show", "display", "Washerwoman")

    before = game.digest()
    game.cli("rebuild")
    assert game.digest() == before


def test_a_blank_proposal_pays_nobody_and_two_colors_pay_in_the_tallys_order(game):
    for i, n in enumerate(("Wooble", "Ais523")):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    game.admin("clock", "on")
    game.post(mail("Ais523"), "I become the Chairman.", "2008-09-01T08:00:00Z")
    for n, (title, color) in enumerate([("One", "Brick Red"), ("Two", None), ("Three", "Baby Blue")], 1):
        body = f'I submit the following proposal, titled "{title}":\nSet the points of Wooble to {n}\nEND PROPOSAL\n'
        if color:
            body += f"I change the Proposal Color of proposal {n} to {color}.\n"
        game.post(mail("Wooble" if n != 3 else "Ais523"), body, f"2008-09-0{n}T10:00:00Z")
    game.tick("2008-09-09T00:00:00Z")
    for i, n in enumerate(("Wooble", "Ais523")):
        game.post(mail(n), "I vote FOR on 1, 2, 3.", f"2008-09-09T1{i}:00:00Z")
    game.tick("2008-09-13T00:00:00Z")
    assert all(p["passed"] for p in game.show("proposals"))
    paid = [e["summary"] for e in events(game, "mackerel") if e["rule"] == "4E69"]
    assert paid == ['Brick Red Corporation gains m100: proposal 1 ("One") Passed with the Proposal Color '
                    'Brick Red', 'Baby Blue Corporation gains m100: proposal 3 ("Three") Passed with the '
                    'Proposal Color Baby Blue']
    corps = corporations(game)
    assert (corps["Brick Red Corporation"]["mackerel"], corps["Baby Blue Corporation"]["mackerel"],
            corps["Blue Corporation"]["mackerel"]) == (100, 100, 0)


def test_its_color_set_in_the_message_that_submits_it(game):
    # Rule 4E69: "change the Proposal Color of a Pending Proposal"; "its", after the
    # proposal submitted earlier in the same message, is that proposal
    game.join("Wooble", "2008-09-01T01:00:00Z")
    game.admin("clock", "on")
    r = game.post(mail("Wooble"), 'I submit a Proposal titled "Registrar Pay" with body\n\n{{\nSet A Few to 5\n}}\n\n'
                  "and set its Proposal Color to Beige.", "2008-09-01T10:00:00Z")
    assert r.count("Done") >= 2, r
    (p,) = game.show("proposals")
    assert p["color"] == "Beige"


def test_its_proposal_color_in_a_reply_changes_the_proposal_that_mail_submitted(game):
    # Rule 4E69: "I set its Proposal Color to ..." under the mail that submitted the proposal
    for i, n in enumerate(("Alice", "Bob")):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    game.admin("clock", "on")
    game.post(mail("Alice"), 'I submit the following proposal, titled "Socks":\nSet A Few to 5\nEND PROPOSAL',
              "2008-09-01T10:00:00Z", msgid="<socks-p@example.org>")
    r = game.post(mail("Bob"), "Happy with that. I set its Proposal Color to Brick Red, so the Brick Red "
                  "Corporation gets something out of it.", "2008-09-01T11:00:00Z",
                  headers={"In-Reply-To": "<socks-p@example.org>", "References": "<socks-p@example.org>"})
    assert "Done (Rule 4E69)" in r, r
    assert [p["color"] for p in game.show("proposals")] == ["Brick Red"]
