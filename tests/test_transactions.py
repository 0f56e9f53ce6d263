"""Rule 4E12: a Transaction succeeds whole, in order, or has no effect."""
import pytest


@pytest.fixture
def three(game):
    for name in ("Alice", "Bob", "Carol"):
        game.join(name, "2008-09-01T09:00:00Z")
    return game


T = "2008-09-01T10:00:00Z"


def test_the_third_of_four_steps_fails_and_nothing_changes(three):
    before_players, before_events = three.show("players"), three.show("events")
    r = three.post("alice@example.org", """Here goes:
BEGIN TRANSACTION
I give m10 to Bob.
I have at least m40.
I give m100 to Carol.
The Clock is Off.
END TRANSACTION
""", T)
    assert ('step 3 ("I give m100 to Carol") failed: Alice has m40, less than m100; '
            'the Transaction Fails and has no effect (Rule 4E33)') in r
    assert three.show("players") == before_players
    assert three.show("events") == before_events


def test_all_steps_succeed_in_order(three):
    r = three.post("alice@example.org", """begin transaction
I give m10 to Bob
I have exactly m40
Bob has m60
I give m15 to Carol twice
Carol has more than m70
the clock is off
Alice is a Player
Dave is not a player
end transaction""", T)
    assert "Done: the Transaction Succeeds" in r and "(Rule 4E12)" in r
    p = three.players()
    assert (p["Alice"]["mackerel"], p["Bob"]["mackerel"], p["Carol"]["mackerel"]) == (10, 60, 80)
    gives = [e["data"]["player"] for e in three.show("events")
             if e["rule"] == "4E33" and e["data"].get("amount", 0) > 0]
    assert gives == ["Bob", "Carol", "Carol"]             # in the order listed


@pytest.mark.parametrize("assertion, why", [
    ("Proposal 12 is Open", "cannot be determined"),        # no such thing to decide
    ("The clock is On", "the assertion is false"),
    ("Zed is Active", "cannot be determined with certainty: there is no Player named 'Zed'"),
    ("I frobnicate the widget", "cannot be determined"),
])
def test_a_false_or_undecidable_assertion_fails_it(three, assertion, why):
    r = three.post("alice@example.org",
                   f"BEGIN TRANSACTION\nI give m5 to Bob\n{assertion}\nEND TRANSACTION", T)
    assert why in r and "the Transaction Fails and has no effect" in r
    assert three.players()["Bob"]["mackerel"] == 50


def test_a_transaction_without_its_end_fails(three):
    r = three.post("alice@example.org", "BEGIN TRANSACTION\nI give m5 to Bob\n", T)
    assert "has no END TRANSACTION after it" in r
    assert three.players()["Bob"]["mackerel"] == 50


def test_actions_around_a_transaction_still_happen(three):
    r = three.post("alice@example.org", "I give m1 to Carol.\nBEGIN TRANSACTION\nI give m99 to Bob\n"
                   "END TRANSACTION\nI give m2 to Carol.", T)
    assert r.count("Done") == 2
    assert three.players()["Carol"]["mackerel"] == 53


def test_quoted_transactions_are_not_acted_on(three):
    r = three.post("bob@example.org", "> BEGIN TRANSACTION\n> I give m5 to Carol\n> END TRANSACTION\n"
                   "Nice one.", T)
    assert "No game actions found" in r


@pytest.mark.parametrize("written", [
    "I submit the following proposal:\n{{\nThe Beast may vote on proposals about itself.\n}}\n",
    "I submit the following proposal:\nTitle: Beast Rights\nBody: The Beast may vote on proposals about itself.\n",
])
def test_a_transaction_whose_step_submits_a_document(three, written):
    # Rule 4E12's steps are Game Actions as any; a proposal's Body (Rule 4E15) may be one of
    # them, written in {{ }} or as a form, and the step after it is a step of its own
    r = three.post("alice@example.org", "BEGIN TRANSACTION\n" + written +
                   "I set its Proposal Color to Black.\nI give m5 to Bob.\nEND TRANSACTION\n", T)
    assert "Done: the Transaction Succeeds" in r, r
    (p,) = three.show("proposals")
    assert (p["body"].strip(), p["color"]) == ("The Beast may vote on proposals about itself.", "Black")
    assert three.players()["Bob"]["mackerel"] == 55


def test_a_transaction_with_a_document_fails_whole(three):
    r = three.post("alice@example.org", "BEGIN TRANSACTION\nI submit the following proposal:\n{{\nRepeal Rule 4E60.\n}}\n"
                   "I give m500 to Bob.\nEND TRANSACTION\n", T)
    assert "the Transaction Fails and has no effect" in r, r
    assert three.show("proposals") == []


def test_an_assertion_among_steps_that_hold_a_document_still_decides(three):
    # Rule 4E12: an assertion that is false makes the Transaction fail, documents or not
    r = three.post("alice@example.org", "BEGIN TRANSACTION\nAssert that the Clock is On.\n"
                   "I submit the following proposal:\n{{\nRepeal Rule 4E60.\n}}\nEND TRANSACTION\n", T)
    assert "the Transaction Fails and has no effect" in r and "the assertion is false" in r, r
    assert three.show("proposals") == []
