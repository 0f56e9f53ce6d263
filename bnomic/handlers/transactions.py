"""Transactions (Rule 4E12): a list of actions and assertions that succeeds
whole or has no effect.

`run` checks the steps in sequence against the state as it would be; the
caller holds a savepoint and rolls it back when a step fails. The same
function runs every other list of changes that must succeed whole
(Oracularities, Refresh Proposals, approved Public Displays).
"""
from __future__ import annotations

from .acting import actor_of, perform_once
from .context import Context, Rejected
from .grammar import Reading
from .registry import Undecidable


class StepFailed(Exception):
    def __init__(self, number: int, step: Reading, reason: str, rule: str | None):
        super().__init__(reason)
        self.number, self.step, self.reason, self.rule = number, step, reason, rule


def run(ctx: Context, steps: list[Reading]) -> list[str]:
    """Apply every step in order; raise StepFailed at the first that fails.
    Returns what each step did, for the receipt."""
    done = []
    for number, step in enumerate(steps, 1):
        if step.when is not None:
            raise StepFailed(number, step, "a Transaction's actions happen now; it cannot "
                             "hold a scheduled action", "4E12")
        if step.kind == "assertion":
            try:
                true = step.assertion.fn(ctx, _actor(ctx), **step.args)
            except Undecidable as e:
                raise StepFailed(number, step, f"it cannot be determined with certainty: {e}",
                                 "4E12") from None
            except Rejected as e:
                raise StepFailed(number, step, f"it cannot be determined with certainty: "
                                 f"{e.reason}", "4E12") from None
            if not true:
                raise StepFailed(number, step, "the assertion is false", step.assertion.rule)
            done.append(f'"{step.text}": true')
        elif step.kind == "action":
            for _ in range(step.times):
                try:
                    perform_once(ctx, step.spec, step.args)
                except Rejected as e:
                    raise StepFailed(number, step, e.reason, e.rule) from None
            done.append(f'"{step.text}": done' + (f" {step.times} times" if step.times > 1 else ""))
        else:
            raise StepFailed(number, step, "not understood, so whether it is legal or true "
                             "cannot be determined", "4E12")
    return done


def _actor(ctx: Context):
    return actor_of(ctx)
