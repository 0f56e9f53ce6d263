"""Rule 4E15's Final Votes as voting.final_votes reads them (issue 16: the votes of
a Voting Period read as one range of the vote table, in id order) are what a
plain reading gives: for each proposal, the votes of its Voting Period in the
order cast, a later Vote of a voter replacing the earlier, of the voters asked
for; with votes of other nweeks interleaved in the table, proposals with no
votes or never Open, and more proposals in one nweek than one query binds."""
from __future__ import annotations

import importlib.util
import random
import sys
from datetime import timedelta
from pathlib import Path

from bnomic.handlers import voting
from bnomic.store import Game, Player, Proposal, Vote, close_database, open_database, write_transaction

_spec = importlib.util.spec_from_file_location(
    "bench_tally", Path(__file__).resolve().parent.parent / "bench" / "tally.py")
tally_bench = importlib.util.module_from_spec(_spec)
sys.modules["bench_tally"] = tally_bench
_spec.loader.exec_module(tally_bench)


def plainly(proposals, voters=None) -> dict:
    """Each proposal's votes of its Voting Period, one query per proposal, in id order."""
    out = {}
    for p in proposals:
        rows = list(Vote.select().where(Vote.proposal == p.id, Vote.nweek == p.voting_nweek).order_by(Vote.id))
        if rows:
            out[p.id] = {}
            for v in rows:
                if voters is None or v.voter_id in voters:
                    out[p.id][v.voter_id] = v.vote
    return out


def ordered(finals: dict) -> dict:
    return {pid: list(votes.items()) for pid, votes in finals.items()}


def test_final_votes_are_the_plain_reading(tmp_path):
    path = str(tmp_path / "nweek.sqlite")
    tally_bench.build(path, players=6, proposals=520, seed="finals")      # 520: more than one query binds
    open_database(path)
    rng = random.Random("finals")
    try:
        with write_transaction():
            now = Game.get().now
            pids = [p.id for p in Player.select().where(Player.is_player == True)]  # noqa: E712
            # proposals 1-40 had their Voting Period in nweek 1: their votes then, interleaved (by id)
            # with later votes of nweek 2 on other proposals, and votes of nweek 2 on them as well
            Proposal.update(voting_nweek=1).where(Proposal.number <= 40).execute()
            next_id = Vote.select(Vote.id).order_by(Vote.id.desc()).first().id + 1
            for i in range(600):
                n = rng.randint(1, 40) if i % 2 else rng.randint(41, 520)
                Vote.insert(id=next_id + i, proposal=n, voter=rng.choice(pids), vote=rng.choice(voting.VOTES),
                            nweek=1 if i % 2 else 2, at=now - timedelta(hours=1)).execute()
            # a proposal of nweek 2 nobody voted on, and one never Open
            for number, nweek in ((521, 2), (522, None)):
                Proposal.create(id=number, number=number, title="", body="", author=pids[0], status="Open",
                                success="Undecided", conflicts=[], dependencies=[], color="Blank",
                                submitted_at=now, voting_nweek=nweek)
            proposals = list(Proposal.select().order_by(Proposal.id))
            some = [p for p in proposals if p.number % 7 == 0]
            for subset in (proposals, some, proposals[::-1]):
                assert ordered(voting.final_votes(subset)) == ordered(plainly(subset))
                voters = set(pids[::2])
                assert ordered(voting.final_votes(subset, voters)) == ordered(plainly(subset, voters))
            got = voting.final_votes(proposals)
            assert 521 not in got and 522 not in got and len(got) == 520
            assert all(len(votes) >= 6 for pid, votes in got.items() if pid > 40)   # every player voted
    finally:
        close_database()
