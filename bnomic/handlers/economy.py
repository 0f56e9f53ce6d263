"""Points and money: Rules 4E17 (Points), 4E33 (Currency), 4E34 (Mackerel)."""
from __future__ import annotations

import re

from ..config import Config
from ..store import Player, database, hot
from .context import Context, Rejected
from .grammar import number
from .entities import find_entity
from .players import actor_of, current_players, player_row
from .frames import frame, role
from .registry import Undecidable, action, assertion, at_start_of

# ------------------------------------------------------------------ amounts

def currency_named(config: Config, word: str) -> str | None:
    """The currency a word names ('macks' -> 'mackerel'), or None."""
    w = word.strip().lower().rstrip(".")
    for currency, spec in config["currencies"].items():
        if w == currency or w in spec.get("names", []):
            return currency
    return None


def parse_amount(config: Config, text: str, rule: str = "4E33") -> tuple[int, str]:
    """'m50', '50m', '50 mackerel', '50 macks' -> (50, 'mackerel').

    Refuses, citing the rule, an amount it cannot read, a negative one, or a
    currency the rules do not define."""
    t = re.sub(r"\s+", " ", text.strip().lower()).replace(",", "")
    m = (re.fullmatch(r"(?P<cur>[a-z]+) ?(?P<n>[-+−]?\d+)", t)
         or re.fullmatch(r"(?P<n>[-+−]?\d++|[a-z]{1,12}) ?(?:of )?(?P<cur>[a-z]+)", t))   # a number word is short
    n = whole_number(m.group("n")) if m else None
    if n is None:
        raise Rejected(f"I cannot read {text!r} as an amount of currency; write it like m50 "
                       "or 50 mackerel", rule=rule)
    currency = currency_named(config, m.group("cur"))
    if currency is None:
        known = ", ".join(config["currencies"])
        raise Rejected(f"{m.group('cur')!r} is not a currency (the currencies are: {known})",
                       rule=rule)
    if n < 0:
        raise Rejected(f"an amount cannot be less than zero ({text})", rule="4E33")
    return n, currency


def whole_number(word: str) -> int | None:
    """'12', '-3', 'twelve' -> the number; anything else -> None."""
    word = word.strip().replace("−", "-")
    if re.fullmatch(r"[-+]?\d+", word):
        return int(word)
    return number(word)


def fmt(amount: int, currency: str) -> str:
    """Rule 4E34: mackerel is written starting with a lowercase m, e.g. m50."""
    return f"m{amount}" if currency == "mackerel" else f"{amount} {currency}"


def balance(owner: Player, currency: str) -> int:
    return getattr(owner, currency)


def credit(ctx: Context, owner: Player, currency: str, amount: int, rule: str, why: str):
    setattr(owner, currency, balance(owner, currency) + amount)
    # Rule 4E33: the balance alone is written (store/versions.py counts writes by column)
    owner.save(only=[getattr(Player, currency)])
    ctx.record(currency, f"{owner.name} gains {fmt(amount, currency)}: {why}", rule=rule,
               player=owner.name, amount=amount, balance=balance(owner, currency))


def debit(ctx: Context, owner: Player, currency: str, amount: int, rule: str, why: str):
    """Take amount from owner; Rule 4E33 (rulings): a payment that would go below
    zero does not happen at all."""
    if amount > balance(owner, currency):
        raise Rejected(f"{owner.name} has {fmt(balance(owner, currency), currency)}, less "
                       f"than {fmt(amount, currency)}", rule="4E33")
    setattr(owner, currency, balance(owner, currency) - amount)
    owner.save(only=[getattr(Player, currency)])
    ctx.record(currency, f"{owner.name} loses {fmt(amount, currency)}: {why}", rule=rule,
               player=owner.name, amount=-amount, balance=balance(owner, currency))


def transfer(ctx: Context, giver: Player, receiver: Player, amount: int, currency: str, rule: str,
             why: str = "") -> None:
    """Rule 4E33: currency from one COO (a Legal Entity, 4E81: a Player or a
    Corporation) to another: refused, and nothing happens, when the giver has
    none or less than the amount."""
    giver, receiver = Player.get_by_id(giver.id), Player.get_by_id(receiver.id)
    if balance(giver, currency) <= 0 and amount > 0:
        raise Rejected(f"{giver.name} has {fmt(balance(giver, currency), currency)}; a COO with none "
                       f"cannot give {currency}", rule="4E33")
    debit(ctx, giver, currency, amount, rule, f"to {receiver.name}" + (f" ({why})" if why else ""))
    credit(ctx, receiver, currency, amount, rule, f"from {giver.name}" + (f" ({why})" if why else ""))


def set_points(player: Player, delta: int) -> tuple[int, int]:
    """Rule 4E17: a score cannot be less than zero. Every change of a score goes
    through here; the caller records it. Returns (before, after)."""
    before = player.points
    player.points = max(0, before + delta)
    mark = database.param               # the score alone, by a statement written once
    database.execute_sql(f'UPDATE "player" SET "points" = {mark} WHERE "id" = {mark}',
                         (player.points, player.id))
    return before, player.points


def change_points(ctx: Context, player: Player, delta: int, rule: str, why: str) -> int:
    """A change of a Player's score (Rule 4E17's floor: set_points), recorded. Returns the change made."""
    before, after = set_points(player, delta)
    made = after - before
    if made:
        ctx.record("points", f"{player.name} {'gains' if made > 0 else 'loses'} "
                   f"{abs(made)} point{'s' if abs(made) != 1 else ''}: {why}",
                   rule=rule, player=player.name, amount=made, points=player.points)
    return made


# ------------------------------------------------------------------ actions

_WHY = r"(?:,? (?:for|as) .+)?"      # "I pay m10 to Wooble for the map"


@action("give",
        frame("give|pay|transfer|send|donate|tip|hand over|hand",
              "amount:amount", "player:player[to|unto|over to|into the account of]",
              also="some money currency cash macks mackerel mack another more further extra additional"),
        rule="4E33", example="I give m10 to Wooble", says="give {amount} to {player}",
        legal_entity=True,
        not_actions=("I give Wooble a hug", "I pay attention to Wooble's posts",
                     "I gave m5 to Wooble yesterday", "Should I give m5 to Wooble?"))
def give(ctx: Context, actor: Player, amount: str, player: str) -> None:
    """Rule 4E33: a COO can give currency to another COO: the amount cannot be
    greater than what it has, or less than zero. Rule 4E81: every Legal Entity
    (a Player or a Corporation) is a COO, so either gives and receives."""
    n, currency = parse_amount(ctx.config, amount)
    recipient = find_entity(ctx, player, "4E33")
    giver = player_row(actor.id)        # (the sender's row, read for this mail already)
    if recipient.id == giver.id:
        raise Rejected("currency can only be given to another COO", rule="4E33")
    if balance(giver, currency) <= 0:
        raise Rejected(f"you have {fmt(balance(giver, currency), currency)}; a COO with none "
                       f"cannot give {currency}", rule="4E33")
    debit(ctx, giver, currency, n, "4E33", f"given to {recipient.name}")
    credit(ctx, recipient, currency, n, "4E33", f"given by {giver.name}")


_CURRENCY = {"mackerel": "mackerel", "macks": "mackerel", "mack": "mackerel", "m": "mackerel",
             "mackerels": "mackerel", "currency": "mackerel", "money": "mackerel", "cash": "mackerel"}


@action("exchange",
        # Rule 4E33: a Player may exchange points for currency at the currency's rate
        frame("exchange|convert|trade|swap|cash in|cash|turn|sell",
              "number:points", role("wanted:amount[for|into|to|in]?", _CURRENCY),
              also="of points point my some"),
        frame("exchange|convert|trade|swap|cash in|cash|turn|sell",
              role("number:choice", {"all": "all", "all of": "all", "every": "all"}),
              role("wanted:amount[for|into|to|in]?", _CURRENCY), also="of points point my",
              needs="points"),
        frame("exchange|convert|trade|swap|cash in|cash|turn|sell",      # "points for m20": as many as buy it
              "wanted:amount[for|into|to|in]", also="of points point my some enough", needs="points"),
        rule="4E33", example="I exchange 2 points for mackerel", says="exchange {number} points",
        not_actions=("I exchange pleasantries with Wooble",))
def exchange(ctx: Context, actor: Player, number: str | None = None, wanted: str | None = None) -> None:
    """Rules 4E33, 4E34: a Player exchanges points for currency at the currency's
    rate (1 point for m5); not less than 0 points, nor more than they have."""
    if number is None:                  # "points for m20": the points that buy it
        amount, currency = parse_amount(ctx.config, wanted or "")
        rate = ctx.config[f"currencies.{currency}.exchange_rate"]
        if amount % rate:
            raise Rejected(f"{wanted} is not a whole number of points at {rate} a point", rule="4E34")
        number = str(amount // rate)
    if number.lower() == "all":
        points = Player.get_by_id(actor.id).points
    else:
        points = whole_number(number)
        if points is None:
            raise Rejected(f"I cannot read {number!r} as a number of points", rule="4E33")
    if points < 0:
        raise Rejected("you cannot exchange less than 0 points", rule="4E33")
    currency, asked = "mackerel", None
    if wanted:
        currency = currency_named(ctx.config, wanted)
        if currency is None:
            asked, currency = parse_amount(ctx.config, wanted)
    rate = ctx.config[f"currencies.{currency}.exchange_rate"]
    if asked is not None and asked != points * rate:
        raise Rejected(f"{points} points exchange for {fmt(points * rate, currency)}, "
                       f"not {fmt(asked, currency)} (the rate is {rate})", rule="4E34")
    player = Player.get_by_id(actor.id)
    if points > player.points:
        raise Rejected(f"you have {player.points} points, fewer than {points}", rule="4E33")
    change_points(ctx, player, -points, "4E33", f"exchanged for {currency}")
    credit(ctx, player, currency, points * rate, "4E34",
           f"{points} points exchanged at {rate} per point")


@at_start_of("nweek", rule="4E34")
def weekly_income(ctx: Context) -> None:
    """Rule 4E34: at the beginning of each nweek, each Active Player gains m25."""
    income = ctx.config["players.weekly_income"]
    for p in current_players().where(Player.active == True):  # noqa: E712
        credit(ctx, p, "mackerel", income, "4E34", f"income for nweek {ctx.game.nweek}")


# ------------------------------------------------- assertions (Rule 4E12)

COMPARISONS = {
    None: lambda a, b: a == b, "exactly": lambda a, b: a == b, "at least": lambda a, b: a >= b,
    "more than": lambda a, b: a > b, "at most": lambda a, b: a <= b,
    "fewer than": lambda a, b: a < b, "less than": lambda a, b: a < b, "no more than": lambda a, b: a <= b,
}
_OP = r"(?:(?P<op>exactly|at least|more than|at most|fewer than|less than|no more than) )?"


def _holder(ctx: Context, who: str) -> Player:
    if who.lower() in ("i", "me"):
        p = actor_of(ctx)
    else:
        p = Player.get_or_none(Player.name_key == who.strip().casefold(), Player.is_player == True)  # noqa: E712
    if p is None:
        raise Undecidable(f"there is no Player {who!r}")
    return p


@assertion("has_points", r"(?P<who>i|{player}) (?:have|has) " + _OP + r"{number} points?", rule="4E17")
def has_points(ctx: Context, actor, number: str, who: str | None = None, player: str | None = None,
               op: str | None = None) -> bool:
    p = _holder(ctx, player or who)
    return COMPARISONS[op and op.lower()](p.points, int(number))


@assertion("has_currency", r"(?P<who>i|{player}) (?:have|has|own|owns|hold|holds) " + _OP + r"{amount}", rule="4E33")
def has_currency(ctx: Context, actor, amount: str, who: str | None = None, player: str | None = None,
                 op: str | None = None) -> bool:
    n, currency = parse_amount(ctx.config, amount)
    p = _holder(ctx, player or who)
    return COMPARISONS[op and op.lower()](balance(p, currency), n)
