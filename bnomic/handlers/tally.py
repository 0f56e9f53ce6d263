"""The tally of Rule 4E15 and the scoring of Rule 4E19, as a pure function.

`count(proposals, vested, ...)` takes the Open proposals as small records (their
Final Votes, Dependencies, Conflicts and history) and returns, for each, what
each step decided and why, and each Player's change of score with the reasons
the results print. It reads nothing and changes nothing: voting.py gathers its
input from the state, then passes the Won proposals, closes them and applies
the scores (economy.set_points: Rule 4E17's floor).

The steps, in 4E15's order:

1. a proposal with Stamina less than half the number of Vested players is Discarded;
2. each one still Undecided is Won (Strength positive), Discarded as Shelved
   (negative Strength that SHELVE votes counted FOR would make positive), or Lost;
   Shelved in two consecutive nweeks is Lost (docs/readings.md);
3. Dependency Culling: in ascending order, one Depending on a Lost or Discarded
   proposal becomes Lost, repeated until nothing changes;
4. Conflict Culling: in descending Strength (then number), a Won proposal makes
   every proposal that Conflicts with it Lost;
5. Dependency Culling again;
6. the Won proposals Pass.

Scoring (4E19), for each proposal becoming Historical (not a Shelved one): a point
to each voter whose Final Vote was not ABSTAIN; the Author gains a passed
proposal's Strength, or loses `never_won_penalty` if it Failed and was never Won.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Callable, Mapping

from ..config import defaults
from .shares import words

VOTES = ("FOR", "AGAINST", "ABSTAIN", "SHELVE")


@dataclass(frozen=True)
class Counted:
    """One Open proposal as the tally sees it."""
    key: int                                # the proposal's id
    number: int | None                      # its Proposal Number (None: never numbered)
    author: int                             # the Author's player id
    votes: Mapping[int, str]                # voter id -> Final Vote (FOR, AGAINST, ABSTAIN, SHELVE)
    dependencies: tuple[int, ...] = ()      # numbers of the proposals it Depends on
    conflicts: tuple[int, ...] = ()         # numbers of the proposals it Conflicts with
    was_won: bool = False                   # Won at an earlier tally
    shelved_last_nweek: bool = False        # Shelved in the previous nweek

    @property
    def name(self) -> str:
        return str(self.number) if self.number is not None else f"#{self.key}"

    @cached_property
    def _tallies(self) -> Counter:
        # counted once: the steps ask a proposal's tallies many times
        return Counter(self.votes.values())

    def tally(self, word: str) -> int:
        return self._tallies[word]

    @property
    def stamina(self) -> int:
        """Rule 4E15: the number of FOR, AGAINST and SHELVE votes."""
        return self.tally("FOR") + self.tally("AGAINST") + self.tally("SHELVE")

    @property
    def strength(self) -> int:
        """Rule 4E15: FOR votes less AGAINST and SHELVE votes."""
        return self.tally("FOR") - self.tally("AGAINST") - self.tally("SHELVE")


@dataclass(frozen=True)
class Decision:
    """What the tally made of one proposal, and every step that decided it."""
    key: int
    success: str = "Undecided"              # Won | Lost | Discarded
    steps: tuple[str, ...] = ()             # "Won: Strength 2 is positive", in order
    was_won: bool = False                   # Won now or at an earlier tally (4E19)
    shelved: bool = False                   # Discarded by its SHELVE votes: returns to the ballot
    twice_shelved: bool = False             # Shelved two nweeks running: Lost and Failed
    passed: bool = False
    failed: bool = False                    # Historical and not passed (4E19)

    def decide(self, success: str, why: str, shelved: bool = False) -> "Decision":
        return replace(self, success=success, shelved=shelved, steps=self.steps + (f"{success}: {why}",))


@dataclass(frozen=True)
class Score:
    """One Player's change of score from this tally (before Rule 4E17's floor)."""
    change: int = 0
    reasons: tuple[str, ...] = ()
    voted_on: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tally:
    decisions: dict[int, Decision]                      # by proposal key, in the order given
    scores: dict[int, Score] = field(default_factory=dict)   # by player id, in order of scoring


def count(proposals: list[Counted], vested: int, success_elsewhere: Callable[[int], str] = lambda n: "Undecided",
          never_won_penalty: int | None = None, stamina_share: Fraction | None = None,
          vote_points: int | None = None) -> Tally:
    """Rules 4E15, 4E19: the tally of `proposals` (in ascending order: number, then
    unnumbered ones) with `vested` Vested players. `success_elsewhere(n)` is the
    Success of proposal n when it is not in this tally (a Dependency on an older one).
    The game's numbers (defaults.toml, invariant 7) come in as arguments: the share of
    Vested players Stamina must reach (4E15's "half"), and 4E19's points."""
    numbers = defaults()["voting"]          # a number not given is the game's default (invariant 7)
    never_won_penalty = numbers["failed_penalty"] if never_won_penalty is None else never_won_penalty
    vote_points = numbers["vote_points"] if vote_points is None else vote_points
    stamina_share = Fraction(str(numbers["stamina_share"])) if stamina_share is None else stamina_share
    d = {p.key: Decision(p.key, was_won=p.was_won) for p in proposals}
    # 1. Stamina less than half the number of Vested players: Discarded
    for p in proposals:
        if p.stamina < stamina_share * vested:
            d[p.key] = d[p.key].decide("Discarded", f"Stamina {p.stamina} is less than {words(stamina_share)} "
                                                    f"the {vested} Vested players")
    # 2. Won / Discarded (Shelved) / Lost, for those still Undecided
    for p in proposals:
        if d[p.key].success != "Undecided":
            continue
        strength, shelve = p.strength, p.tally("SHELVE")
        if strength > 0:
            d[p.key] = replace(d[p.key].decide("Won", f"Strength {strength} is positive"), was_won=True)
        elif strength < 0 and strength + 2 * shelve > 0:
            if p.shelved_last_nweek:
                d[p.key] = replace(d[p.key].decide("Lost", "Shelved in two consecutive nweeks: Lost and Failed, "
                                                           "and never on a later ballot"), twice_shelved=True)
            else:
                d[p.key] = d[p.key].decide("Discarded", f"Shelved: Strength {strength} would be "
                                                        f"{strength + 2 * shelve} with SHELVE as FOR", shelved=True)
        else:
            d[p.key] = d[p.key].decide("Lost", f"Strength {strength} is not positive")
    # 3-5. Dependency Culling, Conflict Culling, Dependency Culling
    _dependency_culling(proposals, d, success_elsewhere)
    _conflict_culling(proposals, d)
    _dependency_culling(proposals, d, success_elsewhere)
    # 6. the Won proposals Pass
    for p in proposals:
        if d[p.key].success == "Won":
            d[p.key] = replace(d[p.key], passed=True)
    scores = _score(proposals, d, never_won_penalty, vote_points)
    return Tally(d, scores)


def _dependency_culling(proposals: list[Counted], d: dict[int, Decision], elsewhere: Callable[[int], str]) -> None:
    """Rule 4E15: in ascending number, a proposal Depending on a Lost or
    Discarded one becomes Lost; repeated until nothing changes."""
    in_tally = {p.number: p.key for p in proposals if p.number is not None}
    changed = True
    while changed:
        changed = False
        for p in proposals:
            if d[p.key].success == "Lost":
                continue
            for n in p.dependencies:
                success = d[in_tally[n]].success if n in in_tally else elsewhere(n)
                if success in ("Lost", "Discarded"):
                    d[p.key] = d[p.key].decide("Lost", f"Dependency Culling: it Depends on proposal {n}, "
                                                       f"which is {success}")
                    changed = True
                    break


def _conflict_culling(proposals: list[Counted], d: dict[int, Decision]) -> None:
    """Rule 4E15: in descending Strength (and descending number when equal), a Won
    proposal makes every proposal that Conflicts with it Lost."""
    by_number = {p.number: p for p in proposals if p.number is not None}
    conflicting: dict[int, set[int]] = {p.key: set() for p in proposals}     # either lists the other
    for p in proposals:
        for n in p.conflicts:
            if n in by_number and n != p.number:
                conflicting[p.key].add(by_number[n].key)
                conflicting[by_number[n].key].add(p.key)
    for p in sorted(proposals, key=lambda p: (p.strength, p.number or 0), reverse=True):
        if d[p.key].success != "Won":
            continue
        for other in sorted(conflicting[p.key]):
            if d[other].success != "Lost":
                d[other] = d[other].decide("Lost", f"Conflict Culling: it Conflicts with proposal {p.name}, "
                                                   "which is Won")


def _score(proposals: list[Counted], d: dict[int, Decision], penalty: int, vote_points: int) -> dict[int, Score]:
    """Rule 4E19, for each proposal becoming Historical (a Shelved one does not
    yet): a point to each player whose Final Vote was not ABSTAIN; its Author
    gains a passed proposal's Strength, or loses `penalty` if it Failed and was
    never Won. Marks the Failed ones."""
    # each player's change, reasons and proposals voted on, gathered in lists (in the
    # order players first appear) and made Scores once at the end
    gathered: dict[int, tuple[list[int], list[str], list[str]]] = {}

    def add(player: int, change: int, reason: str | None = None, voted_on: str | None = None):
        g = gathered.get(player)
        if g is None:
            g = gathered[player] = ([0], [], [])
        g[0][0] += change
        if reason:
            g[1].append(reason)
        if voted_on:
            g[2].append(voted_on)

    for p in proposals:
        r = d[p.key]
        if r.shelved:
            continue
        name = p.name
        for voter in sorted(v for v, w in p.votes.items() if w != "ABSTAIN"):
            g = gathered.get(voter)
            if g is None:
                g = gathered[voter] = ([0], [], [])
            g[0][0] += vote_points
            g[2].append(name)
        if r.passed:
            add(p.author, p.strength, f"+{p.strength}: proposal {p.name} Passed with Strength {p.strength}")
        elif r.success != "Discarded":
            d[p.key] = replace(r, failed=True)
            if not r.was_won:
                add(p.author, -penalty, f"-{penalty}: proposal {p.name} Failed and was never Won")
    scores = {player: Score(g[0][0], tuple(g[1]), tuple(g[2])) for player, g in gathered.items()}
    for player, s in scores.items():
        if s.voted_on:
            n = len(s.voted_on)
            scores[player] = replace(s, reasons=(f"+{n * vote_points}: a Final Vote other than ABSTAIN on "
                                                 f"{'proposal' if n == 1 else 'proposals'} "
                                                 f"{', '.join(s.voted_on)}",) + s.reasons)
    return scores
