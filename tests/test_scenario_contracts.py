"""Acceptance (issue 15, part A): Contracts (Rule 4E70), Articles of
Incorporation and an Officer acting for its Corporation (4E79, 4E81), and the
delegation of a Ministry's powers by Contract (4E45), played by mail (real
.eml files through `bnomic ingest`: the mail parser, the reader, the engine),
each ending with a rebuild that reproduces the digest."""
import json

DISPUTE = "a dispute about it goes to a Consultation (Rule 4E18)"


def players(game, *names):
    for n in names:
        game.join(n, "2008-09-01T09:00:00Z")


def replayed(game):
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest


def test_a_contract_created_joined_amended_left_and_ceasing(game):
    players(game, "Wooble", "Ais", "Chuck")
    assert "There is no Contract in the game yet." in game.cli("show", "display", "Arbiter")
    r = game.post("wooble@example.org", "Hello all. I create the following Contract:\n"
                  "The parties post a haiku each nweek.\n"
                  "Any party may amend this Contract.\n"
                  "A party may leave this Contract by announcing it.\n"
                  "END CONTRACT\nCheers", "2008-09-01T10:00:00Z")
    assert "Done: Contract 1;" in r and DISPUTE in r, r
    r = game.post("ais@example.org", "I become a party to Contract 1.", "2008-09-01T11:00:00Z")
    assert "Read as: become a party to Contract 1" in r and "Done: nothing in the text of Contract 1 " \
        "forbids joining" in r and DISPUTE in r, r
    # inline, on the sentence's own line; its text forbids joining and says nothing of leaving
    r = game.post("chuck@example.org", "I create a Contract: Chuck owns the moon. No other Legal Entity "
                  "may join this Contract.", "2008-09-01T11:30:00Z")
    assert "Done: Contract 2;" in r, r
    r = game.post("ais@example.org", "I join Contract 2", "2008-09-01T11:40:00Z")
    assert "Refused: the text of Contract 2 forbids it (“No other Legal Entity may join”)" in r, r
    assert "(Rule 4E70)" in r
    r = game.post("chuck@example.org", "I leave Contract 2", "2008-09-01T11:50:00Z")
    assert "Refused: a party may cease to be bound by Contract 2 only as the Contract provides, and " \
        "its text provides no means of leaving" in r, r

    # amended, as its text allows, by a party; not by one who is not a party
    r = game.post("chuck@example.org", "I amend Contract 1 to read:\nChuck wins.\nEND CONTRACT",
                  "2008-09-01T12:00:00Z")
    assert "Refused: only a party to Contract 1 may amend it, and Chuck is not one (Rule 4E70)" in r, r
    r = game.post("ais@example.org", "I amend Contract 1 to read:\n"
                  "The parties post a limerick each nweek.\n"
                  "Any party may amend this Contract.\n"
                  "A party may leave this Contract by announcing it.\n"
                  "END CONTRACT", "2008-09-01T13:00:00Z")
    assert "Done: Contract 1 is now at version 2" in r, r
    (c1, c2) = game.show("contracts")
    assert c1["parties"] == ["Wooble", "Ais"] and c1["version"] == 2 and c1["state"] == "in force"
    assert c1["text"].startswith("The parties post a limerick")
    assert [(v["version"], v["author"]) for v in c1["versions"]] == [(1, "Wooble"), (2, "Ais")]
    assert c1["versions"][0]["text"].startswith("The parties post a haiku")
    assert c2["text"] == "Chuck owns the moon. No other Legal Entity may join this Contract."
    shown = game.cli("show", "display", "Business")
    assert "PUBLIC DISPLAY OF THE MINISTRY OF BUSINESS (Arbiter)" in shown
    assert "| The parties post a limerick each nweek." in shown and "Parties: Wooble, Ais" in shown
    assert "Ais amends Contract 1 (version 2)" in shown and "version 1, by Wooble" in shown

    # a breach alleged: a Consultation naming the Contract and the party
    r = game.post("chuck@example.org", "I allege a breach of Contract 1 by Ais.", "2008-09-01T13:30:00Z")
    assert "Read as: allege a breach of Contract 1 by Ais" in r and "Done" in r, r
    (cons,) = game.show("consultations")
    assert "Ais, bound by Contract 1, failed" in json.dumps(cons)
    assert "breached Contract 1 (Consultation #1)" in game.cli("show", "display", "Business")

    # left, by both parties: it ceases to be a Game Document
    r = game.post("wooble@example.org", "I leave Contract 1.", "2008-09-01T14:00:00Z")
    assert "Done: the text of Contract 1 provides for leaving" in r, r
    r = game.post("ais@example.org", "I withdraw from Contract 1.", "2008-09-01T15:00:00Z")
    assert "Done" in r, r
    c1 = game.show("contracts")[0]
    assert c1["state"] == "ceased" and c1["parties"] == []
    assert "Contract 1 has no party and ceases to be a Game Document" in [h["what"] for h in c1["history"]]
    r = game.post("chuck@example.org", "I become a party to Contract 1.", "2008-09-01T16:00:00Z")
    assert "Refused: Contract 1 has no party left and is no longer a Game Document (Rule 4E70)" in r, r
    replayed(game)


ARTICLES = ("I create the following Contract:\n"
            "Articles of Incorporation\n"
            "Name: Burnt Umber Corporation\n"
            "Officers: Wooble\n"
            "The Officers may amend these Articles.\n"
            "END CONTRACT")


def test_articles_and_an_officer_paying_receiving_and_usurping(game):
    players(game, "Wooble", "Ais", "Chuck")
    r = game.post("wooble@example.org", "I create the following Contract:\nArticles of Incorporation\n"
                  "Name: Nameless\nEND CONTRACT", "2008-09-01T09:30:00Z")
    assert "Refused: Articles of Incorporation must give the Corporation at least one Officer" in r, r
    assert "(Rule 4E79)" in r and game.show("contracts") == []
    r = game.post("wooble@example.org", ARTICLES, "2008-09-01T10:00:00Z")
    assert "the Burnt Umber Corporation exists, with m0 and Officers Wooble" in r, r
    corps = {c["name"]: c for c in game.show("corporations")}
    assert corps["Burnt Umber Corporation"] == {"name": "Burnt Umber Corporation", "color": None,
                                                "laundry": False, "mackerel": 0, "officers": ["Wooble"],
                                                "contract": 1}
    # receiving
    for who in ("ais", "chuck"):
        r = game.post(f"{who}@example.org", "I give m30 to the Burnt Umber Corporation.", "2008-09-01T11:00:00Z")
        assert "Done (Rule 4E33)" in r, r
    # paying, by its Officer; the receipt names both
    r = game.post("wooble@example.org", "On behalf of the Burnt Umber Corporation, I give m5 to Chuck.",
                  "2008-09-01T12:00:00Z")
    assert "Done: by the Burnt Umber Corporation, through its Officer Wooble (Rule 4E79) (Rule 4E33)" in r, r
    # not by one who is no Officer, and not a Player's action
    r = game.post("ais@example.org", "On behalf of the Burnt Umber Corporation, I give m5 to Ais.",
                  "2008-09-01T12:10:00Z")
    assert "Refused: Ais is not an Officer of the Burnt Umber Corporation, so cannot act on its behalf " \
        "(Rule 4E79)" in r, r
    r = game.post("wooble@example.org", "On behalf of the Burnt Umber Corporation:\nI become Ordained.",
                  "2008-09-01T12:20:00Z")
    assert "the Burnt Umber Corporation cannot do this: Rule 4E18 lets a Player do it" in r, r
    people = game.players()
    assert (people["Wooble"]["mackerel"], people["Ais"]["mackerel"], people["Chuck"]["mackerel"]) == (50, 20, 25)
    assert {c["name"]: c["mackerel"] for c in game.show("corporations")}["Burnt Umber Corporation"] == 55

    # usurping a Ministry for the Corporation (4E48: a Legal Entity with sufficient mack)
    r = game.post("ais@example.org", "I assign the Ministry of Change to myself with a Reward of m60",
                  "2008-09-01T13:00:00Z")
    assert "Done" in r, r
    r = game.post("wooble@example.org", "On behalf of the Burnt Umber Corporation, I usurp the Ministry of "
                  "Change, proposing a Reward of m40.", "2008-09-01T14:00:00Z")
    assert "Done: by the Burnt Umber Corporation, through its Officer Wooble" in r, r
    game.tick("2008-09-03T00:00:00Z")              # 2 rdays: it settles
    (change,) = [m for m in game.show("ministries") if m["name"] == "Change"]
    assert change["holder"] == "Burnt Umber Corporation" and change["reward"] == 40
    assert game.players()["Ais"]["mackerel"] == 50            # half the m60 Reward
    assert {c["name"]: c["mackerel"] for c in game.show("corporations")}["Burnt Umber Corporation"] == 25
    assert "Minister: Burnt Umber Corporation" in game.cli("show", "display", "Change")
    # the Articles amended by their Officer (a party? the Corporation is: through its Officer)
    r = game.post("wooble@example.org", "On behalf of the Burnt Umber Corporation, I amend Contract 1 to read:\n"
                  "Articles of Incorporation\nName: Burnt Umber Corporation\nOfficers: Wooble, Chuck\n"
                  "The Officers may amend these Articles.\nEND CONTRACT", "2008-09-03T10:00:00Z")
    assert "Done: by the Burnt Umber Corporation, through its Officer Wooble" in r, r
    r = game.post("chuck@example.org", "On behalf of the Burnt Umber Corporation, I resign from the "
                  "Ministry of Change.", "2008-09-03T11:00:00Z")
    assert "Done: by the Burnt Umber Corporation, through its Officer Chuck" in r, r
    replayed(game)


def test_a_ministrys_powers_delegated_by_contract(game):
    players(game, "Wooble", "Ais")
    game.post("wooble@example.org", "I assign the Ministry of Ministries to myself.", "2008-09-01T10:00:00Z")
    game.post("wooble@example.org", "I create a Contract: Ais may act as Registrar. A party may leave "
              "by saying so.", "2008-09-01T10:10:00Z")
    r = game.post("wooble@example.org", "I delegate the powers of the Ministry of Ministries to Ais under "
                  "Contract 1.", "2008-09-01T10:20:00Z")
    assert "Refused: Ais is not a party to Contract 1" in r and "(Rule 4E45)" in r, r
    game.post("ais@example.org", "I join Contract 1.", "2008-09-01T10:30:00Z")
    r = game.post("wooble@example.org", "I delegate the powers of the Ministry of Ministries to Ais under "
                  "Contract 1.", "2008-09-01T10:40:00Z")
    assert "Done: Ais may perform the duties and actions of the Ministry of Ministry (MetaMin)" in r, r
    assert "any penalty for a lapse stays Wooble's (Rule 4E45)" in r
    r = game.post("ais@example.org", "I hoist the Jolly Roger.", "2008-09-01T11:00:00Z")
    assert "Done: as Wooble's delegate for the Ministry of Ministry (MetaMin)" in r and "under Contract 1 (Rule 4E45)" in r, r
    assert "Wooble delegates the powers of the Ministry of Ministry (MetaMin) to Ais under Contract 1" in \
        game.cli("show", "display", "Business")
    game.post("ais@example.org", "I leave Contract 1.", "2008-09-01T12:00:00Z")   # no longer both parties
    r = game.post("ais@example.org", "I hoist the Pink Ponies.", "2008-09-08T11:00:00Z")
    assert "Refused: only the Minister of Ministries may change the Threat Flag" in r, r
    replayed(game)


def test_an_officer_pays_by_lmtp_and_the_mailed_receipt_names_both(live_game, tmp_path):
    """The whole mail path: the real daemon's LMTP receiver, the engine, the
    receipt sent by SMTP to a real sink on loopback."""
    from conftest import make_mail
    from daemon import DaemonProcess, Sink, lmtp_send, write_config
    from servers import free_port

    sink = Sink().start()
    port = free_port()
    daemon = DaemonProcess(write_config(tmp_path, sink.port, port), live_game.db).start(wait_port=port)
    try:
        mails = [("wooble@example.org", "I join as Wooble."), ("ais@example.org", "I join as Ais."),
                 ("wooble@example.org", ARTICLES),
                 ("ais@example.org", "I give m20 to the Burnt Umber Corporation."),
                 ("wooble@example.org", "On behalf of the Burnt Umber Corporation, I give m7 to Ais.")]
        for i, (sender, body) in enumerate(mails):
            assert lmtp_send(port, make_mail(sender, body, msgid=f"<corp{i}@example.org>")) == {}
            sink.wait_for(i + 1)
        received = sink.wait_for(len(mails))
        last = received[-1][2].get_payload(decode=True).decode()
        assert received[-1][1] == ["wooble@example.org"]
        assert "Done: by the Burnt Umber Corporation, through its Officer Wooble (Rule 4E79)" in last, last
    finally:
        daemon.terminate()
        sink.stop()
    assert {c["name"]: c["mackerel"] for c in live_game.show("corporations")}["Burnt Umber Corporation"] == 13
    assert live_game.players()["Ais"]["mackerel"] == 37
    replayed(live_game)


def test_a_contract_named_by_its_title_and_some_powers_delegated(game):
    # Rule 4E70: players name a Contract by the title it gives itself; 4E45: "some or all of
    # its Ministry's defined powers", the Ministry being the one the Minister holds
    players(game, "Wooble", "Ais")
    game.post("wooble@example.org", "I assign the Ministry of Ministries to myself.", "2008-09-01T10:00:00Z")
    r = game.post("wooble@example.org", "I create the following Contract:\n"
                  "The Fishmongers' Guild\n\nAny Player may join. A party may leave by saying so.\n"
                  "END CONTRACT", "2008-09-01T10:10:00Z")
    assert "Done: Contract 1;" in r, r
    assert game.show("contracts")[0]["title"] == "The Fishmongers' Guild"
    r = game.post("ais@example.org", "I agree to be bound by the Fishmongers' Guild.", "2008-09-01T10:20:00Z")
    assert "Read as: become a party to Contract 1" in r, r
    r = game.post("wooble@example.org", "I delegate the power to set the Threat Flag to Ais, as specified by "
                  "the Fishmongers' Guild, to which we are both parties.", "2008-09-01T10:30:00Z")
    assert "Done: Ais may perform the duties and actions of the Ministry of Ministry (MetaMin)" in r, r
    assert "(the powers as said: “set the Threat Flag”)" in game.cli("show", "display", "Business")
    r = game.post("ais@example.org", "I leave the Fishmongers' Guild.", "2008-09-01T10:40:00Z")
    assert "Read as: leave Contract 1" in r, r
    replayed(game)


def test_a_title_the_game_does_not_know_is_refused_and_said(game):
    # Rule 4E70: becoming bound names a Contract; one named by a title no Contract in force
    # has is read as the attempt it is and refused with the reason, never passed over
    players(game, "Wooble", "Ais")
    game.post("wooble@example.org", "I create the following Contract:\n"
              "The Mackerel Mutual\n\nAny Player may join. A party may leave by saying so.\n"
              "END CONTRACT", "2008-09-01T10:10:00Z")
    r = game.post("ais@example.org", "I become bound by the Trout Appreciation Society.", "2008-09-01T10:20:00Z")
    assert "Refused: there is no Contract in force titled 'Trout Appreciation Society'" in r and "(Rule 4E70)" in r, r
    r = game.post("ais@example.org", "I become a party to the Mackerel Mutual contract.", "2008-09-01T10:30:00Z")
    assert "Done" in r, r
    assert game.show("contracts")[0]["parties"] == ["Wooble", "Ais"]
    replayed(game)


def test_a_contract_named_in_quotes_after_the_word_contract(game):
    # Rule 4E70: 'the contract "The Mackerel Mutual"' names it by its title; a title no Contract
    # in force has is refused with the reason, never read as a Player (Rule 4E45's delegate)
    players(game, "Wooble", "Ais")
    game.post("wooble@example.org", "I assign the Ministry of Ministries to myself.", "2008-09-01T10:00:00Z")
    game.post("wooble@example.org", "I create the following Contract:\n"
              "The Mackerel Mutual\n\nAny Player may join. A party may leave by saying so.\n"
              "END CONTRACT", "2008-09-01T10:10:00Z")
    r = game.post("ais@example.org", 'I become a party to the contract "The Mackerel Mutual".', "2008-09-01T10:20:00Z")
    assert "Read as: become a party to Contract 1" in r and "Done" in r, r
    r = game.post("wooble@example.org", 'I delegate the power to set the Threat Flag to Ais, as specified by '
                  'the contract "Trout Club", to which Ais and I are both parties.', "2008-09-01T10:30:00Z")
    assert "there is no Contract in force titled 'Trout Club'" in r and "(Rule 4E45)" in r, r
    assert r.count("Read as: delegate") == 1, r
    r = game.post("wooble@example.org", 'I delegate the power to set the Threat Flag to Ais, as specified by '
                  'the contract "The Mackerel Mutual", to which Ais and I are both parties.', "2008-09-01T10:40:00Z")
    assert "Done: Ais may perform the duties and actions of the Ministry of Ministry (MetaMin)" in r, r
    replayed(game)
