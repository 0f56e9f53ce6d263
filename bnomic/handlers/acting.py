"""Performing one action for an Outsider: the checks every action shares.

Used alike by a post's actions, a Transaction's steps, a scheduled action
when it falls due, and the Beast's actions.
"""
from __future__ import annotations

import logging

from ..store import Player, database
from . import intents, players
from .players import actor_of
from .context import Context, Rejected, RetroactiveChange
from .registry import ActionSpec

log = logging.getLogger("bnomic.engine")


def perform_once(ctx: Context, spec: ActionSpec, args: dict, actor: Player | None = None,
                 as_beast: bool = False):
    """Perform the action once, or raise Rejected. The caller holds a savepoint."""
    actor = actor if actor is not None or as_beast else actor_of(ctx)
    if spec.players_only and actor is None:
        raise Rejected("only Players can do this, and this address belongs to no Player",
                       rule="4E7")
    intent = intents.authorize(ctx, actor, spec, args) if spec.needs_intent else None
    ctx.intent = intent
    result = spec.fn(ctx, actor, **args)
    if intent is not None:
        intents.performed(ctx, intent)
    acted = actor or (result if isinstance(result, Player) else None)
    if acted is not None:
        players.note_action(ctx, acted)      # Rule 4E28: acting makes a Player Active
    return result


def perform(ctx: Context, spec: ActionSpec, args: dict, times: int = 1,
            actor: Player | None = None) -> tuple[int, Rejected | None]:
    """Perform the action up to `times` times, each in its own savepoint, stopping
    at the first refusal (Rule 4E7: each one checked for legality in turn)."""
    done = 0
    for _ in range(times):
        try:
            with database.atomic():
                perform_once(ctx, spec, args, actor)
            done += 1
        except Rejected as e:
            if spec.attempted is not None:
                with database.atomic():
                    spec.attempted(ctx, actor if actor is not None else actor_of(ctx), **args)
            return done, e
        except RetroactiveChange:
            raise
        except Exception as e:     # a defect or bad data: refuse it, never block the log
            return done, internal_error(e)
    return done, None


def internal_error(e: Exception) -> Rejected:
    """An unexpected failure of one action: it is rolled back and reported, and
    the log moves on (the same input fails the same way on replay)."""
    log.exception("internal error while applying an action")
    return Rejected(f"not applied: bnomic met an internal error ({type(e).__name__}: "
                    f"{' '.join(str(e).split())[:200]}); the operator has been told")
