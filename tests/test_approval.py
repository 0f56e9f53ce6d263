"""Rule 4E50: approving a doctored display rewrites history by replay."""

PLAYERS = ["Alice", "Bob", "Carol", "Dave", "Erin"]


def test_approving_a_doctored_display_rewrites_history(game):
    for name in PLAYERS:
        game.join(name, "2008-09-01T09:00:00Z")
    display = game.cli("show", "display", "Registrar")
    doctored = "\n".join(line.replace("m50", "m500") if line.startswith("Alice") else line
                         for line in display.splitlines())
    game.post("alice@example.org", "I intend to approve the Registrar's display with 4 supporters "
              "and without objection.\n\n" + doctored, "2008-09-01T10:00:00Z", msgid="<approve@x>")
    # later changes, which must be simulated again on top of the approved display
    game.post("alice@example.org", "I give m10 to Bob", "2008-09-01T11:00:00Z")
    for name in ("Bob", "Carol", "Dave", "Erin"):
        game.post(f"{name.lower()}@example.org", "I support intent #1", "2008-09-01T12:00:00Z")
    r = game.post("alice@example.org", "I approve the Registrar's display", "2008-09-02T10:00:00Z")
    assert "may be done only after 2 rdays" in r
    before = game.players()["Alice"]["mackerel"]
    assert before == 40
    r = game.post("alice@example.org", "Having received enough support, I approve the Registrar's "
                  "display", "2008-09-03T10:00:00Z")
    assert "Done (Rule 4E50)" in r
    players = game.players()
    assert players["Alice"]["mackerel"] == 490          # m500 as approved, less the m10 given later
    assert players["Bob"]["mackerel"] == 60
    events = game.show("events")
    rewrite = [e for e in events if e["rule"] == "4E50" and e["kind"] == "mackerel"]
    assert rewrite and rewrite[0]["at"] == "2008-09-01T10:00:00Z" and rewrite[0]["data"]["after"] == 500
    assert any(e["kind"] == "approved" for e in events)
    digest = game.digest()
    game.cli("rebuild")                                  # the approval is in the log: it replays
    assert game.digest() == digest


def test_an_approval_objected_to_changes_nothing(game):
    for name in PLAYERS:
        game.join(name, "2008-09-01T09:00:00Z")
    doctored = game.cli("show", "display", "Registrar").replace("m50 ", "m90 ")
    game.post("alice@example.org", "I intend to approve the Registrar's display with 4 supporters "
              "and without objection.\n\n" + doctored, "2008-09-01T10:00:00Z")
    for name in ("Bob", "Carol", "Dave", "Erin"):
        game.post(f"{name.lower()}@example.org", "I support intent #1", "2008-09-01T12:00:00Z")
    game.post("erin@example.org", "I object to intent #1", "2008-09-01T13:00:00Z")
    r = game.post("alice@example.org", "I approve the Registrar's display", "2008-09-03T10:00:00Z")
    assert "1 Player objects; it needed fewer than 1" in r
    assert game.players()["Alice"]["mackerel"] == 50


def test_approving_a_metamin_display_moves_a_ministry(game):
    for name in PLAYERS:
        game.join(name, "2008-09-01T09:00:00Z")
    game.post("bob@example.org", "I become the Chairman", "2008-09-01T09:30:00Z")
    shown = game.cli("show", "display", "MetaMin")
    doctored = shown.replace("Change     Chairman     Bob              m100",
                             "Change     Chairman     Alice            m70 ")
    assert doctored != shown
    game.post("alice@example.org", "I intend to approve the MetaMin's display with 4 supporters "
              "and without objection.\n\n" + doctored, "2008-09-01T10:00:00Z")
    for name in ("Bob", "Carol", "Dave", "Erin"):
        game.post(f"{name.lower()}@example.org", "I support intent #1", "2008-09-01T12:00:00Z")
    r = game.post("alice@example.org", "I approve the MetaMin's display", "2008-09-03T10:00:00Z")
    assert "Done (Rule 4E50)" in r
    change = {m["name"]: m for m in game.show("ministries")}["Change"]
    assert (change["holder"], change["reward"]) == ("Alice", 70)


def test_the_rangers_display(game):
    text = game.cli("show", "display", "Ranger")
    assert "The Beast: a Player, not Active, m0, 0 points" in text
    assert "TRICKS (Response, Timing)\n    none has been taught" in text


def test_a_display_approved_without_naming_whose_it_is_says_so_itself(game):
    # Rule 4E50: the display "provided in full" says whose it is by its heading
    for name in PLAYERS:
        game.join(name, "2008-09-01T09:00:00Z")
    display = game.cli("show", "display", "Registrar")
    assert display.startswith("PUBLIC DISPLAY OF THE MINISTRY OF SOCIETY")
    doctored = "\n".join(line.replace("m50", "m500") if line.startswith("Alice") else line
                         for line in display.splitlines())
    game.post("alice@example.org", "I intend, with 4 Support and without objection, to Approve the "
              "following Public Display:\n\n{{\n" + doctored + "\n}}", "2008-09-01T10:00:00Z", msgid="<approve@x>")
    for name in ("Bob", "Carol", "Dave", "Erin"):
        game.post(f"{name.lower()}@example.org", "I support intent #1", "2008-09-01T12:00:00Z")
    r = game.post("alice@example.org", "Supported and unopposed. I Approve the display.", "2008-09-03T10:00:00Z",
                  headers={"In-Reply-To": "<approve@x>"})
    assert "Done (Rule 4E50)" in r
    assert game.players()["Alice"]["mackerel"] == 500


def test_the_intent_announced_in_the_rule_s_own_words_is_announced(game):
    # Rule 4E50: "as a Game Action with 4 Support and no Objections within 2 rdays"
    for name in PLAYERS:
        game.join(name, "2008-09-01T09:00:00Z")
    r = game.post("alice@example.org", "I intend, with 4 Support and no Objections, to Approve the following\n"
                  "Public Display:\n\n{{\nAlice 500\n}}", "2008-09-01T10:00:00Z")
    assert "Done: intent #1" in r
    assert [e["data"]["intent"] for e in game.show("events") if e["kind"] == "intent"] == [1]


def test_a_display_that_does_not_say_whose_it_is_is_not_approved(game):
    for name in PLAYERS:
        game.join(name, "2008-09-01T09:00:00Z")
    game.post("alice@example.org", "I intend, with 4 Support and without objection, to Approve the "
              "following Public Display:\n\n{{\nAlice 500\n}}", "2008-09-01T10:00:00Z", msgid="<approve@x>")
    for name in ("Bob", "Carol", "Dave", "Erin"):
        game.post(f"{name.lower()}@example.org", "I support intent #1", "2008-09-01T12:00:00Z")
    r = game.post("alice@example.org", "I Approve the display.", "2008-09-03T10:00:00Z",
                  headers={"In-Reply-To": "<approve@x>"})
    assert "whose Public Display is approved is not said" in r and "(Rule 4E50)" in r
    assert game.players()["Alice"]["mackerel"] == 50
