"""The tally of a busy nweek (issue 16, part E) gathers its input in a few
set-based queries and writes its results in bulk: what it decides, records and
writes is what it was before (a fingerprint taken with the code before the
change), on the nweek bench/tally.py builds (Conflicts, Dependencies, Shelved
proposals, players voting twice), smaller."""
from __future__ import annotations

import hashlib
import json
import importlib.util
import sys
from pathlib import Path

from bnomic.handlers import voting
from bnomic.handlers.context import Context
from bnomic.store import Event, Game, Player, Proposal, close_database, open_database, write_transaction

# bench/tally.py, its builder of the nweek, by path: another "tally" (tests/heldout's) may be
# on sys.path first when the whole suite runs
_spec = importlib.util.spec_from_file_location(
    "bench_tally", Path(__file__).resolve().parent.parent / "bench" / "tally.py")
tally_bench = importlib.util.module_from_spec(_spec)
sys.modules["bench_tally"] = tally_bench
_spec.loader.exec_module(tally_bench)

# taken with the tally as it was before issue 16, part E (commit 1c87fd8)
BEFORE = "1607ba1aa7972a3b6f99fa59a8deba38e2fd628b8a8022c02436c1b4be92701c"


def fingerprint(before: int) -> str:
    events = [[e.kind, e.rule, e.summary, e.data] for e in
              Event.select().where(Event.seq > before).order_by(Event.seq)]
    proposals = [[p.number, p.status, p.success, p.passed, p.failed, p.was_won, p.stamina, p.strength,
                  p.shelved_nweek, p.decided_by] for p in Proposal.select().order_by(Proposal.id)]
    points = [[p.name, p.points, p.mackerel] for p in Player.select().order_by(Player.id)]
    return hashlib.sha256(json.dumps([events, proposals, points], sort_keys=True,
                                     default=str).encode()).hexdigest()


def test_the_tallys_results_are_what_they_were(tmp_path):
    path = str(tmp_path / "nweek.sqlite")
    tally_bench.build(path, players=24, proposals=80, seed="unchanged")
    open_database(path)
    try:
        before = Event.select(Event.seq).order_by(Event.seq.desc()).first().seq
        with write_transaction():
            voting.tally(Context(Game.get().now, "midnight"))
        tallied = Event.get(Event.kind == "tally").data
        assert len(tallied["proposals"]) == 80
        assert {p["outcome"].split(" (")[0] for p in tallied["proposals"]} >= {"Passed", "Lost", "Shelved"}
        assert fingerprint(before) == BEFORE
    finally:
        close_database()
