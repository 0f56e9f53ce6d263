"""Ministries: Rule 4E45 (Ministries: names, holders, the duties bnomic performs),
4E47 (a Minister who loses Active vacates them). What Ministers do with them
(4E46-4E49: assigning, resigning, Rewards, usurping) is ministers.py: this module
declares no action, so that the reader's vocabulary (Ministries' names) and the
base modules may use it.

A Ministry is held by at most one Legal Entity or is Vacant; its Reward is
between m1 and m100. bnomic performs the duties a minister delegated to it
(the configuration's `ministries.delegated_duties`, less what the minister took
back by mail); it never acts for a Vacant ministry.
"""
from __future__ import annotations

import re
from math import floor

from ..config import Config, defaults
from ..store import Contract, ContractParty, Delegation, Ministry, Player, database, versions
from .context import Context, Rejected
from .events import MinistryHolderChanged, PlayerInactive, PlayerLeft
from .names import clean_name
from .registry import DUTIES, duty_named, emit, in_order, on

# ------------------------------------------------------------------ naming

def ministry_names(config: Config) -> list[str]:
    """Every ministry, in the configured order, then any others by name."""
    defined = [k for k, v in config["ministries"].items() if isinstance(v, dict)]
    order = [n for n in config.get("ministries.order", []) if n in defined]
    return order + sorted(set(defined) - set(order))


def _fold(text: str) -> str:
    t = clean_name(text).casefold().replace("ö", "o")
    t = re.sub(r"['’]s$", "", t)
    t = re.sub(r"^(?:the|my)\s+", "", t)
    return re.sub(r"\s+", " ", t)


def aliases(config: Config) -> dict[str, str]:
    """Every way players name a ministry, folded -> its name ('chairman' -> 'Change')."""
    out = {}
    for name in ministry_names(config):
        spec = config["ministries"][name]
        # a Ministry is named by its bare name ("Change"), but "the Ministry" alone is any
        # Ministry, not the Ministry of Ministry (Rule 4E51 names it so, or "MetaMinistry")
        bare = [name] if _fold(name) != "ministry" else []
        # (a one-word title names the office too: "the Chairmanship", "the Registrarship")
        office = [spec["title"] + "ship"] if spec["title"].isalpha() else []
        for alias in [*bare, f"Ministry of {name}", spec["title"], *spec.get("aliases", []), *office]:
            out[_fold(alias)] = name
    return out


def find_ministry(ctx: Context, text: str, rule: str, holder: Player | None = None) -> Ministry:
    """The Ministry named; "mine"/"theirs" (the reader's "my Ministry", "his Ministry"):
    the one Ministry `holder` holds."""
    if text in ("mine", "theirs") and holder is not None:
        return held_one(ctx, holder, rule)
    name = aliases(ctx.config).get(_fold(text))
    if name is None and text in ministry_names(ctx.config):
        name = text                 # the reader's canonical name ("Ministry", the MetaMin's)
    if name is None:
        raise Rejected(f"there is no Ministry called {clean_name(text)!r}", rule=rule)
    return ensure(ctx, name)


def title(config: Config, name: str) -> str:
    return config["ministries"][name]["title"]


def describe(config: Config, m: Ministry) -> str:
    return f"the Ministry of {m.name} ({title(config, m.name)})"


def held_ministries() -> dict[str, Ministry]:
    """Every Ministry's row by name: the one snapshot the duty and watch checks after
    every entry read (store/versions.py: read again only when the table changed).
    Shared: use `ministry(name)` for a row to change."""
    return versions.cached(database, "ministries", ("ministry",),
                           lambda: {m.name: m for m in Ministry.select().order_by(Ministry.name)})


def ministry(name: str) -> Ministry | None:
    """The Ministry's row (a copy the caller may change), or None."""
    return versions.clone(held_ministries().get(name))


def any_vacant() -> bool:
    """Rule 4E45: is some Ministry Vacant?"""
    return any(m.holder_id is None for m in held_ministries().values())


def ensure(ctx: Context, name: str) -> Ministry:
    """The ministry's row (every configured ministry has one from the game's start)."""
    row = ministry(name)
    if row is None:
        row = Ministry.create(name=name, reward=ctx.config["ministries.default_reward"])
    return row


def create_all(ctx: Context) -> None:
    """Rule 4E45 and the rules that create each ministry: all begin Vacant, at m100."""
    for name in ministry_names(ctx.config):
        ensure(ctx, name)


def held_one(ctx: Context, player: Player, rule: str) -> Ministry:
    """The one Ministry a Player holds ("his Ministry"), or Rejected naming the count."""
    held = list(held_by(player))
    if len(held) != 1:
        raise Rejected(f"{player.name} holds {len(held)} Ministries: name the one meant", rule=rule)
    return held[0]


def held_by(player: Player):
    return Ministry.select().where(Ministry.holder == player).order_by(Ministry.name)


def vacant():
    return Ministry.select().where(Ministry.holder.is_null()).order_by(Ministry.name)


# ---------------------------------------------------------------- holding

def give_ministry(ctx: Context, m: Ministry, holder: Player | None, why: str, rule: str) -> None:
    m.holder, m.held_since, m.kept_duties = holder, ctx.at if holder else None, []
    m.save()
    who = holder.name if holder else "nobody (Vacant)"
    ctx.record("ministry", f"{describe(ctx.config, m)} is held by {who}: {why}", rule=rule,
               ministry=m.name, holder=holder.name if holder else None)
    emit(ctx, MinistryHolderChanged(m, holder))


# how the event log says why a Minister's Ministries became Vacant
_VACATED = {(PlayerInactive, "rules"): "lost the Active property",
            (PlayerInactive, "operator"): "lost the Active property (the operator)",
            (PlayerLeft, "forfeit"): "forfeited (no longer a Legal Entity)",
            (PlayerLeft, "operator"): "was removed from the game"}


@on(PlayerInactive, PlayerLeft, rule="4E47")
def vacate_all(ctx: Context, event: PlayerInactive | PlayerLeft) -> None:
    """Rule 4E47: a Minister who loses Active (or stops being a Legal Entity)
    vacates every Ministry it holds."""
    why = _VACATED[type(event), event.by]
    for m in held_by(event.player):
        give_ministry(ctx, m, None, f"{event.player.name} {why}", "4E47")


# ----------------------------------------------------------------- duties

def require_minister(ctx: Context, actor: Player, name: str, rule: str, refusal: str) -> Ministry:
    """The Ministry `name` if `actor` holds it, or holds its powers by a delegation
    (Rule 4E45); else Rejected(refusal, rule). Notes on `ctx` that a Ministry's power
    is used: a Corporation that holds a Ministry acts with it through an Officer."""
    m = ensure(ctx, name)
    if not may_act_for(ctx, actor, m):
        raise Rejected(refusal, rule=rule)
    ctx.minister_power = m.name
    return m


def may_act_for(ctx: Context, actor: Player | None, m: Ministry) -> bool:
    """Rule 4E45: the Minister, or a Legal Entity to which the Minister delegated its
    Ministry's powers by a Contract to which both are still parties. A delegate's act
    says so in the receipt; any lapse stays the Minister's."""
    if actor is None or m.holder_id is None:
        return False
    if m.holder_id == actor.id:
        return True
    for d in Delegation.select().where(Delegation.ministry == m.name, Delegation.delegate == actor.id,
                                       Delegation.minister == m.holder_id, Delegation.state == "in force"):
        if _both_bound(d):
            ctx.notes.append(f"as {m.holder.name}'s delegate for {describe(ctx.config, m)} under Contract "
                             f"{d.contract_id} (Rule 4E45)")
            return True
    return False


def _both_bound(d: Delegation) -> bool:
    """A delegation is "as specified by a Contract to which both ... are Parties": both still are."""
    bound = {cp.party_id for cp in ContractParty.select().where(ContractParty.contract == d.contract_id,
                                                                ContractParty.state == "bound")}
    return {d.minister_id, d.delegate_id} <= bound and Contract.get_by_id(d.contract_id).state == "in force"


def mom(ctx: Context) -> Player | None:
    m = held_ministries().get("Ministry")
    return Player.get_by_id(m.holder_id) if m is not None and m.holder_id else None


def delegated(ctx: Context, duty: str, ministry_name: str | None = None) -> bool:
    """Does bnomic perform this duty for the minister who holds it (4E45)?"""
    owner = duty_named(duty).ministry
    row = held_ministries().get(ministry_name if owner == "*" else owner)
    return (row is not None and row.holder_id is not None
            and duty in ctx.config["ministries.delegated_duties"]
            and duty not in (row.kept_duties or []))


# the order displays and refusals list the duties in: defaults.toml's delegated_duties
_LISTED = {name: i for i, name in enumerate(defaults()["ministries"]["delegated_duties"])}


def duties_listed() -> list:
    """Every declared duty (`@duty`), in the order displays and refusals list them."""
    return sorted(DUTIES, key=lambda d: _LISTED.get(d.name, len(_LISTED)))


def perform_duties(ctx: Context) -> None:
    """The duties bnomic performs for ministers (4E45), as each area declares them
    (`@duty`), in Rule 4E75's order (kept within a transaction while the Rules'
    Powers are unchanged: store/versions.py); called after every change."""
    for d in versions.cached(database, "duties in order", ("rule",), lambda: in_order(DUTIES)):
        d.fn(ctx)


