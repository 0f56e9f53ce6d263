"""The pure tally (handlers/tally.py): Rule 4E15's steps and Rule 4E19's scoring,
table by table, with no game and no database."""
import pytest

from bnomic.handlers.tally import Counted, Decision, Score, count

A, B, C, D, E, F, G, H = range(1, 9)       # player ids


def votes(**by_word) -> dict[int, str]:
    """votes(FOR=[A, B], AGAINST=[C]) -> {A: "FOR", B: "FOR", C: "AGAINST"}"""
    return {voter: word for word, voters in by_word.items() for voter in voters}


def proposal(number, author=A, *, key=None, **kw) -> Counted:
    return Counted(key=key or number, number=number, author=author, **kw)


# ------------------------------------------------ step 1: Stamina (4E15)

@pytest.mark.parametrize("vested,stamina_voters,success,why", [
    # Stamina exactly half of an even number of Vested players is not less than half: counted on
    (4, [A, B], "Won", "Won: Strength 2 is positive"),
    (4, [A], "Discarded", "Discarded: Stamina 1 is less than half the 4 Vested players"),
    # half of an odd number: 2 is less than 2.5, 3 is not
    (5, [A, B], "Discarded", "Discarded: Stamina 2 is less than half the 5 Vested players"),
    (5, [A, B, C], "Won", "Won: Strength 3 is positive"),
    (0, [], "Lost", "Lost: Strength 0 is not positive"),      # nobody Vested: no Stamina needed
])
def test_stamina_against_half_the_vested_players(vested, stamina_voters, success, why):
    t = count([proposal(1, votes=votes(FOR=stamina_voters))], vested)
    assert (t.decisions[1].success, t.decisions[1].steps) == (success, (why,))


def test_abstain_is_not_stamina():
    t = count([proposal(1, votes=votes(FOR=[A], ABSTAIN=[B, C, D]))], vested=4)
    assert t.decisions[1].steps == ("Discarded: Stamina 1 is less than half the 4 Vested players",)


# -------------------------------------------- step 2: Strength and SHELVE

@pytest.mark.parametrize("ballot,success,shelved,why", [
    (votes(FOR=[A, B], AGAINST=[C]), "Won", False, "Won: Strength 1 is positive"),
    # equal FOR and AGAINST: Strength 0 is not positive
    (votes(FOR=[A, B], AGAINST=[C, D]), "Lost", False, "Lost: Strength 0 is not positive"),
    # SHELVE counts against; as FOR it would make Strength positive: Shelved (Discarded)
    (votes(FOR=[A], AGAINST=[B], SHELVE=[C]), "Discarded", True,
     "Discarded: Shelved: Strength -1 would be 1 with SHELVE as FOR"),
    # SHELVE as FOR would make Strength only 0: not Shelved, Lost
    (votes(FOR=[A], AGAINST=[B, C], SHELVE=[D]), "Lost", False, "Lost: Strength -2 is not positive"),
    # Strength 0 with SHELVE votes: not negative, so not Shelved
    (votes(FOR=[A, B], SHELVE=[C, D]), "Lost", False, "Lost: Strength 0 is not positive"),
])
def test_strength_decides_won_shelved_or_lost(ballot, success, shelved, why):
    d = count([proposal(1, votes=ballot)], vested=0).decisions[1]
    assert (d.success, d.shelved, d.steps) == (success, shelved, (why,))
    assert d.passed == (success == "Won")


def test_shelved_two_nweeks_running_is_lost_and_failed():
    t = count([proposal(1, votes=votes(FOR=[A], AGAINST=[B], SHELVE=[C]), shelved_last_nweek=True)], vested=0)
    d = t.decisions[1]
    assert (d.success, d.shelved, d.twice_shelved, d.failed) == ("Lost", False, True, True)
    assert d.steps == ("Lost: Shelved in two consecutive nweeks: Lost and Failed, and never on a later ballot",)


# ----------------------------------------- steps 3-5: Culling (4E15)

def test_a_proposal_depending_on_a_lost_one_is_culled():
    t = count([proposal(1, votes=votes(AGAINST=[A])),
               proposal(2, votes=votes(FOR=[A]), dependencies=(1,))], vested=0)
    assert t.decisions[2].success == "Lost"
    assert t.decisions[2].steps == ("Won: Strength 1 is positive",
                                    "Lost: Dependency Culling: it Depends on proposal 1, which is Lost")
    assert t.decisions[2].was_won and not t.decisions[2].passed


def test_dependency_culling_repeats_until_nothing_changes():
    # 3 depends on 2 (Won), 2 on 1 (Lost): listed first, 3 is culled only on the second round
    t = count([proposal(1, votes=votes(AGAINST=[A])),
               proposal(3, votes=votes(FOR=[A]), dependencies=(2,), key=13),
               proposal(2, votes=votes(FOR=[A]), dependencies=(1,), key=12)], vested=0)
    assert t.decisions[13].steps[-1] == "Lost: Dependency Culling: it Depends on proposal 2, which is Lost"


def test_a_dependency_outside_the_tally_is_looked_up():
    elsewhere = {7: "Discarded", 8: "Won"}.get
    t = count([proposal(1, votes=votes(FOR=[A]), dependencies=(8,)),
               proposal(2, votes=votes(FOR=[A]), dependencies=(8, 7))], vested=0,
              success_elsewhere=lambda n: elsewhere(n, "Undecided"))
    assert t.decisions[1].passed
    assert t.decisions[2].steps[-1] == "Lost: Dependency Culling: it Depends on proposal 7, which is Discarded"


def test_conflict_culling_keeps_the_stronger():
    t = count([proposal(1, votes=votes(FOR=[A, B]), conflicts=(2,)),
               proposal(2, votes=votes(FOR=[A, B, C]))], vested=0)
    assert (t.decisions[1].success, t.decisions[2].success) == ("Lost", "Won")
    assert t.decisions[1].steps[-1] == "Lost: Conflict Culling: it Conflicts with proposal 2, which is Won"


def test_equal_strength_the_higher_number_wins_the_conflict():
    # equal Strength: in descending number, so 2 is taken first and culls 1
    t = count([proposal(1, votes=votes(FOR=[A, B])), proposal(2, votes=votes(FOR=[C, D]), conflicts=(1,))],
              vested=0)
    assert (t.decisions[1].success, t.decisions[2].success) == ("Lost", "Won")
    assert t.decisions[1].steps == ("Won: Strength 2 is positive",
                                    "Lost: Conflict Culling: it Conflicts with proposal 2, which is Won")


def test_a_proposal_depending_on_one_removed_by_conflict_culling_is_culled_in_the_second_pass():
    # 1 and 2 conflict; 2 is stronger, so 1 is Lost by Conflict Culling; 3 depends on 1:
    # the first Dependency Culling saw 1 Won, the second culls 3
    t = count([proposal(1, votes=votes(FOR=[A])),
               proposal(2, votes=votes(FOR=[A, B]), conflicts=(1,)),
               proposal(3, votes=votes(FOR=[A]), dependencies=(1,))], vested=0)
    assert t.decisions[3].steps == ("Won: Strength 1 is positive",
                                    "Lost: Dependency Culling: it Depends on proposal 1, which is Lost")
    assert [t.decisions[n].passed for n in (1, 2, 3)] == [False, True, False]


def test_a_lost_proposal_does_not_cull_by_conflict():
    t = count([proposal(1, votes=votes(FOR=[A])), proposal(2, votes=votes(AGAINST=[A]), conflicts=(1,))],
              vested=0)
    assert t.decisions[1].passed and t.decisions[1].steps == ("Won: Strength 1 is positive",)


def test_a_shelved_proposal_culled_is_no_longer_shelved():
    t = count([proposal(1, votes=votes(AGAINST=[A])),
               proposal(2, votes=votes(FOR=[A], AGAINST=[B], SHELVE=[C]), dependencies=(1,))], vested=0)
    assert (t.decisions[2].success, t.decisions[2].shelved) == ("Lost", False)


# ------------------------------------------------------ scoring (4E19)

def test_voters_author_and_the_never_won_penalty():
    t = count([proposal(1, author=A, votes=votes(FOR=[A, B], AGAINST=[C], ABSTAIN=[D])),    # passes, 1
               proposal(2, author=E, votes=votes(AGAINST=[B]))], vested=0)                # Lost, never Won
    assert t.scores == {
        A: Score(2, ("+1: a Final Vote other than ABSTAIN on proposal 1", "+1: proposal 1 Passed with Strength 1"),
                 ("1",)),
        B: Score(2, ("+2: a Final Vote other than ABSTAIN on proposals 1, 2",), ("1", "2")),
        C: Score(1, ("+1: a Final Vote other than ABSTAIN on proposal 1",), ("1",)),
        E: Score(-3, ("-3: proposal 2 Failed and was never Won",)),
    }
    assert list(t.scores) == [A, B, C, E]       # in order of scoring: the points events' order
    assert t.decisions[2].failed and not t.decisions[1].failed


def test_the_penalty_is_a_parameter_and_a_once_won_proposal_fails_without_it():
    t = count([proposal(1, author=E, votes=votes(AGAINST=[B])),
               proposal(2, author=F, votes=votes(AGAINST=[B]), was_won=True)], vested=0, never_won_penalty=5)
    assert t.scores[E] == Score(-5, ("-5: proposal 1 Failed and was never Won",))
    assert F not in t.scores and t.decisions[2].failed


def test_a_shelved_or_discarded_proposal_scores_nothing_for_its_author():
    t = count([proposal(1, author=E, votes=votes(FOR=[A], AGAINST=[B], SHELVE=[C])),
               proposal(2, author=F, votes=votes(FOR=[A]))], vested=4)
    assert t.decisions[1].shelved and t.decisions[2].success == "Discarded"
    assert t.scores == {A: Score(1, ("+1: a Final Vote other than ABSTAIN on proposal 2",), ("2",))}
    assert not t.decisions[2].failed


def test_an_unnumbered_proposal_is_named_by_its_id():
    t = count([Counted(key=40, number=None, author=E, votes=votes(AGAINST=[B]))], vested=0)
    assert t.scores[E].reasons == ("-3: proposal #40 Failed and was never Won",)


def test_decisions_are_values():
    d = Decision(1)
    assert d.decide("Won", "x") == Decision(1, "Won", ("Won: x",)) and d == Decision(1)
