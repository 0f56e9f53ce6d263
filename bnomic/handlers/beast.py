"""The Operantly Conditioned Beast (Rule 4E71)."""
from __future__ import annotations

from ..store import Event, Intent, Player
from . import grammar
from .acting import perform_once
from .context import Context, Rejected
from .frames import frame
from .registry import action


# Rule 4E71: "The Operantly Conditioned Beast (aka The Beast or The OCB)"
_BEAST = ("the beast", "beast", "the ocb", "ocb", "the operantly conditioned beast",
          "operantly conditioned beast", "the operantly-conditioned beast")


@action("beast_acts",
        # Rule 4E71: "cause the Beast to take a single Game Action"; what it does is read
        # by the handler, and refused with the rule when it is no such action
        frame("|".join(f"{v} {b}" for v in ("cause", "have", "get", "instruct", "order", "direct",
                                            "command", "tell", "ask")
                       for b in _BEAST), "rest:clause[to|to take the action|to perform the action]"),
        frame("|".join(f"{v} {b}" for v in ("make", "have") for b in _BEAST), "rest:clause[]"),
        rule="4E71", example="I cause the Beast to give m5 to Wooble", says="cause the Beast to {rest}",
        objections=1, waiting="2 rdays",
        not_actions=("I caused the Beast to give m5 to Wooble last nweek",
                     "Wooble causes the Beast to forfeit", "Should I make the Beast forfeit?",
                     "I think I'll cause the Beast to give m5 to Wooble"))
def beast_acts(ctx: Context, actor: Player, rest: str) -> None:
    """Rule 4E71: any Player may, once per nweek, as a Game Action with no
    objection in two rdays, cause the Beast to take a single Game Action."""
    nweek = ctx.game.nweek
    earlier = (Intent.select().where(Intent.author == actor, Intent.action == "beast_acts",
                                     Intent.state == "performed"))
    if any(_performed_in(i) == nweek for i in earlier):
        raise Rejected("you have already caused the Beast to act this nweek", rule="4E71")
    found = grammar.match_action("I " + rest)
    if not found:
        raise Rejected(f"I cannot tell what the Beast is to do: {rest!r}", rule="4E71")
    spec, args = found
    if spec.needs_intent or spec.name == "beast_acts":
        raise Rejected("the Beast can be caused to take a single, simple Game Action", rule="4E71")
    beast = Player.get_or_none(Player.is_beast == True, Player.is_player == True)  # noqa: E712
    if beast is None:
        raise Rejected("there is no Beast in this game", rule="4E71")
    perform_once(ctx, spec, args, actor=beast)
    ctx.record("beast", f"{actor.name} causes the Beast to {rest}", rule="4E71",
               player=actor.name, nweek=nweek)


def _performed_in(intent: Intent) -> int | None:
    e = (Event.select().where(Event.kind == "intent", Event.summary.startswith(
        f"intent #{intent.id} carried out")).first())
    return e.data.get("nweek") if e else None
