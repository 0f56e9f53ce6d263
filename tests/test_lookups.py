"""store/lookups.py (issue 16): rows read with their SELECT built once are the
rows peewee reads (each field's value as peewee gives it, nothing dirty), and a
row that is not there is None."""
from __future__ import annotations

from bnomic.store import Obligation, Player, Proposal, Rule, close_database, lookups, open_database


def test_rows_read_with_their_select_built_once_are_peewees(game):
    for name in ("Alice", "Bob"):
        game.join(name, "2008-09-01T09:00:00Z")
    game.post("alice@example.org", "I submit a proposal: Set the points of Bob to 5",
              "2008-09-01T10:00:00Z")
    open_database(game.db)
    try:
        bob = lookups.first(Player, '"is_player" AND "name_key" = ?', ("bob",))
        assert bob.__data__ == Player.get(Player.name_key == "bob").__data__ and not bob._dirty
        assert lookups.first(Player, '"is_player" AND "name_key" = ?', ("nobody",)) is None
        rule = lookups.first(Rule, '"number" = ?', (15,))
        assert rule.__data__ == Rule.get(Rule.number == 15).__data__
        proposals = lookups.every(Proposal, '"id" > ? ORDER BY "id"', (0,))
        assert proposals and [p.__data__ for p in proposals] == [
            p.__data__ for p in Proposal.select().order_by(Proposal.id)]
        for o in Obligation.select():
            assert lookups.first(Obligation, '"id" = ?', (o.id,)).__data__ == o.__data__
    finally:
        close_database()
