"""Contracts, Socks and delegation as players write them, against a game's vocabulary.

Rule 4E70: "any Legal Entity may voluntarily become bound to a Contract"; players name a
Contract by number or by the title it gives itself. Rule 4E68: "A Potential Sockholder may
transfer a Sock of a specified Color to another Potential Sockholder"; "For each sock color
there exists one Laundry Corporation titled "XXX Corporation"". Rule 4E45: "A Minister may
delegate some or all of its Ministry's defined powers to another Legal Entity ... as
specified by a Contract to which both ... are Parties". Rule 4E7: any wording, and
ambiguity refused. Each case is what a careful officer would read."""
import pytest

import bnomic.handlers.engine  # noqa: F401  (registers every action)
from bnomic.config import Config, defaults
from bnomic.handlers import grammar
from bnomic.handlers.contracts import contract_title
from bnomic.handlers.ministries import aliases
from bnomic.handlers.vocabulary import Vocabulary

PROPOSALS = {12: ("Clock Fix", "Bob"), 15: ("Tidy Up", "Dana")}


def vocab(actor="Alice", **more):
    base = dict(players=("Alice", "Bob", "Chuck", "Wooble", "Dana", "The Beast"), actor=actor,
                beast="The Beast", ministries=aliases(Config(defaults())),
                holders={"Change": "Alice", "Society": "Bob"}, proposals=PROPOSALS,
                open_proposals=tuple(PROPOSALS), contracts={1: "The Fishmongers' Guild"})
    return Vocabulary(**{**base, **more})


def read(text, v=None):
    return [(r.kind, r.spec and r.spec.name, {k: str(x) for k, x in r.args.items() if x is not None})
            for r in grammar.read(text, v or vocab())]


# ------------------------------------------------------------------ a Contract by its title

@pytest.mark.parametrize("text", [
    "I agree to be bound by the Fishmongers' Guild.",
    "I join The Fishmongers Guild.",
    "I become a party to the Fishmongers' Guild.",
    "I become bound by Contract 1.",
    "I bind myself to Contract 1 (the Fishmongers' Guild).",
])
def test_a_contract_is_named_by_number_or_title(text):
    assert read(text) == [("action", "join_contract", {"which": "1"})]


def test_leaving_a_contract_by_its_title():
    assert read("I leave the Fishmongers' Guild.") == [("action", "leave_contract", {"which": "1"})]


def test_a_title_not_in_the_game_names_nothing():
    assert read("I become a party to the Sock Exchange.", vocab(contracts={})) != [
        ("action", "join_contract", {"which": "1"})]


@pytest.mark.parametrize("text,title", [
    ("The Fishmongers' Guild\n\n1. Parties sell fish.", "The Fishmongers' Guild"),
    ("Title: Mackerel Mutual\nParties pay m1 each nweek.", "Mackerel Mutual"),
    ("This Contract is known as the Sock Exchange. Parties trade socks.", "the Sock Exchange"),
    ("Any party may leave by saying so.", ""),
    ("Parties pay m1 each nweek\nand more", ""),
])
def test_the_title_a_contract_gives_itself(text, title):
    assert contract_title(text) == title


def test_the_title_announced_with_the_contract():
    got = read("I create a contract called The Fishmongers' Guild: Any party may leave by saying so.")
    assert got[0][1] == "create_contract" and got[0][2]["title"] == "The Fishmongers' Guild"


# ------------------------------------------------------------------ Socks (4E68)

def test_a_remark_after_a_sock_transfer_is_not_its_recipient():
    assert read("I transfer my Blue Sock to Bob. Wear it in good health.") == [
        ("action", "transfer_sock", {"color": "Blue", "player": "Bob"})]


@pytest.mark.parametrize("text", [
    "I transfer a Burgundy Sock to Alice, and the other one to the Beast.",
    "I transfer a Burgundy Sock to Alice and another to the Beast.",
    "I give a Burgundy Sock to Alice and the other Burgundy Sock to the Beast.",
])
def test_the_same_transfer_again_to_another(text):
    got = [(k, n, a["color"], a["player"]) for k, n, a in read(text, vocab(actor="Dana"))]
    assert got == [("action", "transfer_sock", "Burgundy", "Alice"),
                   ("action", "transfer_sock", "Burgundy", "The Beast")]


def test_another_amount_to_another_player():
    assert read("I give m5 to Bob and another m5 to Chuck.") == [
        ("action", "give", {"amount": "m5", "player": "Bob"}),
        ("action", "give", {"amount": "m5", "player": "Chuck"})]


@pytest.mark.parametrize("text,who", [
    ("I transfer a Blue Sock to the Blue Corporation.", "Blue Corporation"),
    ("I give m5 to the Burgundy Corporation.", "Burgundy Corporation"),
])
def test_the_laundry_corporations_are_named_as_players_are(text, who):
    (kind, _, args), = read(text)
    assert kind == "action" and args["player"] == who


# ------------------------------------------------------------------ delegation (4E45)

@pytest.mark.parametrize("text,ministry,powers", [
    ("I delegate the powers of the Ministry of Change to Wooble under Contract 1.", "Change", None),
    ("I delegate the power to assign Proposal Numbers to Bob, as specified by the Fishmongers' Guild "
     "(Contract 1), to which we are both parties.", "Change", "assign Proposal Numbers"),  # Alice's own
    ("I delegate my power as Chairman to assign Proposal Numbers to Bob, as specified by Contract 1.",
     "Change", "assign Proposal Numbers"),
])
def test_delegating_some_powers_as_a_contract_specifies(text, ministry, powers):
    (kind, name, args), = read(text)
    assert (kind, name, args["which"]) == ("action", "delegate_by_contract", "1")
    assert args.get("ministry") == ministry and args.get("powers") == powers
    assert args["delegate"] in ("Wooble", "Bob")


def test_a_relative_clause_after_an_action_is_a_remark():
    assert read("I give m5 to Bob, to whom I owe it.") == [("action", "give", {"amount": "m5", "player": "Bob"})]


@pytest.mark.parametrize("text", [
    "I give m5 to Bob, to whom Dana owes m3.",          # a name and an amount in it: still the remark's
    "I give m5 to Bob, of whom Chuck is fond.",
])
def test_a_relative_clause_with_its_own_subject_names_nothing_the_action_takes(text):
    assert read(text) == [("action", "give", {"amount": "m5", "player": "Bob"})]


@pytest.mark.parametrize("text,which", [
    # Rule 4E70: a Contract is named by the title it gives itself, here after the word "contract"
    ('As Chairman, I delegate the power to assign Proposal Numbers to Dana, as specified by the contract '
     '"Oracle\'s Little Helper", to which Dana and I are both parties.', "Oracle's Little Helper"),
    ('I delegate the powers of the Ministry of Change to Wooble under Contract "The Fishmongers\' Guild".', "1"),
    ('I delegate the powers of the Ministry of Change to Wooble under Contract 1, to which Wooble and I '
     'are both parties.', "1"),
])
def test_a_delegation_under_a_contract_named_in_quotes_is_one_delegation(text, which):
    (kind, name, args), = read(text)
    assert (kind, name, args["which"]) == ("action", "delegate_by_contract", which)
    assert args["delegate"] in ("Dana", "Wooble") and args.get("ministry") == "Change"


# ------------------------------------------------------------------ titles in running text

def test_a_title_in_lowercase_running_text_is_words():
    got = read("And, to tidy up, I vote FOR 12.")
    assert [(a["vote"], a["which"]) for k, n, a in got if n == "vote"] == [("FOR", "12")]


def test_a_title_is_still_read_as_written_or_in_an_all_lowercase_mail():
    for text in ("I vote AGAINST Tidy Up.", "i vote against tidy up"):
        assert [(a["vote"], a["which"]) for k, n, a in read(text) if n == "vote"] == [("AGAINST", "15")]


def test_the_contract_said_first_in_the_sentence():
    # Rule 4E45: "as specified by a Contract to which both ... are Parties", said before the "I"
    text = ("As provided in clause 4 of the Fishmongers' Guild (Contract 1), to which Bob and I are both "
            "parties, I delegate to Bob the Chairman's power to assign Proposal Numbers.")
    (kind, name, args), = read(text)
    assert (kind, name, args["which"], args["delegate"]) == ("action", "delegate_by_contract", "1", "Bob")
    (kind, name, args), = read("Bob is nice. I delegate to Bob the Chairman's power to assign Proposal Numbers.")
    assert kind == "incomplete"             # (no Contract said in its sentence)
