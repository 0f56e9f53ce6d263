"""Issue 11: operators are not left guessing. The command line (--config on
every command, --version, admin's verbs, init's word on the Clock), the
wording of what bnomic publishes, and the log a real run writes."""
from __future__ import annotations

import pytest


def test_a_ballot_of_one_proposal_is_worded_for_one(game):
    game.join("Carol", "2008-09-01T01:00:00Z")
    game.join("Wooble", "2008-09-01T02:00:00Z")
    game.post("carol@example.org", "I assign the Ministry of Change to myself.", "2008-09-01T03:00:00Z")
    game.post("wooble@example.org", 'I submit the following proposal, titled "One":\n'
              "Repeal Rule 4E60\nEND PROPOSAL\n", "2008-09-01T04:00:00Z")
    game.admin("clock", "on")
    game.tick("2008-09-09T00:00:00Z")
    text = game.cli("show", "ballot")
    assert "(1 Open proposal)" in text and "1 Open proposals" not in text
    assert "This proposal is Open." in text and "These 1" not in text
