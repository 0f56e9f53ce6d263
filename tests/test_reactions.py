"""The reaction and duty registry (handlers/registry.py): typed events, declared duties."""
import pytest

import bnomic.handlers  # noqa: F401  (every area declares itself)
from bnomic.config import defaults
from bnomic.handlers import events, registry


def test_a_reaction_is_declared_for_an_event_class_not_a_name():
    with pytest.raises(TypeError):
        registry.on("player.left", rule="4E47")


def test_the_lost_active_cascade_is_one_subscription_per_area():
    """Rules 4E47, 4E18: losing Active (either way) vacates Ministries and Ordination;
    each area reacts once, to both kinds, with one function."""
    for kind in (events.PlayerInactive, events.PlayerLeft):
        reacting = {(r.fn.__module__, r.fn.__name__, r.rule) for r in registry.REACTIONS if r.kind is kind}
        also = ({("bnomic.handlers.emergency", "track_peps", "4E0")}      # 4E0: who the PEPs were
                if kind is events.PlayerLeft else set())
        assert reacting == {("bnomic.handlers.ministries", "vacate_all", "4E47"),
                            ("bnomic.handlers.consultations", "ordained_needs_active", "4E18")} | also


def test_every_delegable_duty_is_declared_by_an_area_and_no_other():
    declared = {d.name: d.ministry for d in registry.DUTIES}
    assert set(declared) == set(defaults()["ministries"]["delegated_duties"])
    assert declared == {"clock_on": "Ministry", "displays": "*", "ballot": "Change", "results": "Change",
                        "numbers": "Change", "priests": "Questions", "jury": "Judging", "tricks": "Fauna"}
    assert all(d.does.endswith(")") and "Rule" in d.does for d in registry.DUTIES)
    with pytest.raises(ValueError):
        registry.duty("Change", "ballot", rule="4E15", does="twice")(lambda ctx: None)


def test_the_chairmans_clock_rule_lives_with_voting():
    """4E14/4E15: the Clock's actions and the MoM's Clock duty are in voting.py."""
    assert registry.action_named("clock_on").fn.__module__ == "bnomic.handlers.voting"
    assert registry.action_named("clock_off").fn.__module__ == "bnomic.handlers.voting"
    assert registry.duty_named("clock_on").fn.__module__ == "bnomic.handlers.voting"
