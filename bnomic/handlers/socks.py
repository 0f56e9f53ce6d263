"""Socks and the Sock Market (Rules 4E68, 4E80), and the Washerwoman's display.

A Sock is a Game Object with a Sock Color and a Sockholder, a Potential
Sockholder: any Legal Entity (4E81), so a Player's or a Corporation's row of
the Player table. A Laundry Corporation creates Socks of its own color (held
by it: the Sockholder's default) and destroys those of its color it holds; a
Potential Sockholder transfers a Sock of a Color it holds to another. Each
change is an event of kind "sock" (the Sock Market's transactions, which the
Washerwoman's display lists); a destroyed Sock keeps its row, marked, so its
number is never used again.
"""
from __future__ import annotations

from ..store import Event, Player, Proposal, Sock
from .colors import SOCK_COLORS, color_named, laundry_name
from .context import Context, Rejected
from .entities import corporation_of, find_entity
from .frames import frame, role
from .grammar import number
from .registry import action
from .views import Request, view

# Rule 4E68: "a [color] Sock", "a Sock of the Color [color]", "a Sock of [color]", "a piece of
# [color] foowear" (the rule's spelling; "footwear" too), and "its Color"
COLOR = role("color:choice[of the color|of the colour|of color|of colour|of|]",
             {c.lower(): c for c in SOCK_COLORS})
COUNT = role("count:number?", {"both": "2", "both of": "2"})      # "both my Burgundy Socks": two
_SOCK_WORDS = "sock socks a an one piece pieces pair of foowear footwear the color colour"
_NEEDS = "sock|socks|foowear|footwear"
_GIVE = "transfer|give|hand|hand over|send|deliver"


def _count(ctx: Context, text: str | None, rule: str) -> int:
    n = 1 if not text else number(str(text))
    most = ctx.config.owned("socks.most_at_once")
    if n is None or n < 1:
        raise Rejected(f"{text!r} is not a number of Socks", rule=rule)
    if n > most:
        raise Rejected(f"at most {most} Socks in one action ([socks] most_at_once)", rule=rule)
    return n


def _color(text: str) -> str:
    found = color_named(text)
    if found is None:
        raise Rejected(f"{text!r} is not a Sock Color ({', '.join(SOCK_COLORS)})", rule="4E68")
    return found


def held(entity: Player, color: str | None = None):
    q = Sock.select().where(Sock.holder == entity.id, Sock.destroyed_at.is_null())
    if color is not None:
        q = q.where(Sock.color == color)
    return q.order_by(Sock.id)


def _socks(n: int, color: str) -> str:
    return f"{n} {color} Sock" + ("s" if n != 1 else "")


def _laundry_of(actor: Player, what: str):
    """Rule 4E68: only a Laundry Corporation creates or destroys Socks, through an Officer (4E79)."""
    corp = corporation_of(actor)
    if corp is None or corp.color is None:
        who = f"the {corp.name}" if corp is not None else actor.name
        raise Rejected(f"only a Laundry Corporation may {what} Socks, and {who} is none; its Officer "
                       "writes: On behalf of the Blue Corporation, I " + what + " a Blue Sock",
                       rule="4E68")
    return corp


@action("create_socks",
        # Rule 4E68: "A Laundry Corporation is a Corporation which may create or destroy socks
        # of its appropriate color"
        frame("create|make|manufacture|produce", COUNT, COLOR,
              also=_SOCK_WORDS + " new", needs=_NEEDS),
        rule="4E68", example="On behalf of the Blue Corporation, I create 3 Blue Socks",
        says="create {count} {color} Socks", legal_entity=True,
        not_actions=("The Blue Corporation created 3 Blue Socks", "Should I create a Blue Sock?",
                     "I think I'll create a Blue Sock", "I created a Blue Sock yesterday"))
def create_socks(ctx: Context, actor: Player, color: str, count: str | None = None) -> None:
    """Rule 4E68: a Laundry Corporation creates Socks of its color; it holds them
    (the Sockholder's default is the Corporation of the Sock's color)."""
    corp = _laundry_of(actor, "create")
    wanted, n = _color(color), _count(ctx, count, "4E68")
    if wanted != corp.color:
        raise Rejected(f"the {corp.name} may create Socks of its own color, {corp.color}, not "
                       f"{wanted}", rule="4E68")
    made = [Sock.create(color=wanted, holder=corp.entity, created_at=ctx.at, entry=ctx.entry).id
            for _ in range(n)]
    ctx.record("sock", f"the {corp.name} creates {_socks(n, wanted)} (Sock {_ids(made)}), which it holds",
               rule="4E68", action="create", color=wanted, count=n, socks=made, to=corp.entity.name,
               by=corp.name)
    ctx.notes.append(f"Sock {_ids(made)}")


@action("destroy_socks",
        # Rule 4E68: "A Laundry Corporation may only destroy socks of its color that are in its
        # ownership"
        frame("destroy|discard|throw away|dispose of", COUNT, COLOR,
              also=_SOCK_WORDS + " my our its", needs=_NEEDS),
        rule="4E68", example="On behalf of the Blue Corporation, I destroy a Blue Sock",
        says="destroy {count} {color} Socks", legal_entity=True,
        not_actions=("The Blue Corporation destroyed a Blue Sock", "Should I destroy a Blue Sock?",
                     "I think I'll destroy a Blue Sock", "I destroyed a Blue Sock yesterday"))
def destroy_socks(ctx: Context, actor: Player, color: str, count: str | None = None) -> None:
    """Rule 4E68: a Laundry Corporation destroys Socks of its color that it holds, and only those."""
    corp = _laundry_of(actor, "destroy")
    wanted, n = _color(color), _count(ctx, count, "4E68")
    if wanted != corp.color:
        raise Rejected(f"the {corp.name} may destroy only Socks of its own color, {corp.color}, not "
                       f"{wanted}", rule="4E68")
    mine = list(held(corp.entity, wanted))
    if len(mine) < n:
        raise Rejected(f"the {corp.name} holds {_socks(len(mine), wanted)}; a Laundry Corporation may "
                       "only destroy socks of its color that are in its ownership", rule="4E68")
    gone = [s.id for s in mine[:n]]
    Sock.update(destroyed_at=ctx.at).where(Sock.id.in_(gone)).execute()
    ctx.record("sock", f"the {corp.name} destroys {_socks(n, wanted)} (Sock {_ids(gone)})", rule="4E68",
               action="destroy", color=wanted, count=n, socks=gone, **{"from": corp.entity.name},
               by=corp.name)


@action("transfer_sock",
        # Rule 4E68: "A Potential Sockholder may transfer a Sock of a specified Color to another
        # Potential Sockholder as a Game Action"
        frame(_GIVE, COUNT, COLOR, "player:player[to|unto|over to]", also=_SOCK_WORDS + " my our its",
              needs=_NEEDS),
        rule="4E68", example="I transfer a Burnt Sienna Sock to Wooble",
        says="transfer {count} {color} Socks to {player}", legal_entity=True,
        not_actions=("I transferred a Blue Sock to Wooble", "Wooble transfers a Blue Sock to Bob",
                     "Should I give a Blue Sock to Wooble?", "I think I'll give a Blue Sock to Wooble"))
def transfer_sock(ctx: Context, actor: Player, color: str, player: str, count: str | None = None) -> None:
    """Rule 4E68: one Sock of the specified Color belonging to the Potential
    Sockholder gets the other as its Sockholder (each, for a number of them)."""
    wanted, n = _color(color), _count(ctx, count, "4E68")
    to = find_entity(ctx, player, "4E68")
    giver = Player.get_by_id(actor.id)
    if to.id == giver.id:
        raise Rejected("a Sock is transferred to another Potential Sockholder", rule="4E68")
    mine = list(held(giver, wanted))
    if len(mine) < n:
        raise Rejected(f"{giver.name} holds {_socks(len(mine), wanted)}; a Sock is transferred only by "
                       "its Sockholder", rule="4E68")
    moved = [s.id for s in mine[:n]]
    Sock.update(holder=to.id).where(Sock.id.in_(moved)).execute()
    ctx.record("sock", f"{giver.name} transfers {_socks(n, wanted)} (Sock {_ids(moved)}) to {to.name}",
               rule="4E68", action="transfer", color=wanted, count=n, socks=moved,
               to=to.name, by=giver.name, **{"from": giver.name})


def _ids(ids: list[int]) -> str:
    return ", ".join(str(i) for i in ids)


# ------------------------------------------------------ the Washerwoman's display

def socks_data(ctx: Context) -> dict:
    """Rule 4E80: "a Public Display of all Sock Market activity, including the
    color of proposals": who holds which Socks, every Sock Market transaction
    (Socks created, transferred, destroyed; Proposal Colors changed; the m100 a
    Colored proposal paid its Corporation), and the Color of every Pending and
    Open proposal. Also what `bnomic show socks --json` prints."""
    holders: dict[str, dict] = {}
    for s in Sock.select().where(Sock.destroyed_at.is_null()).order_by(Sock.id):
        h = holders.setdefault(s.holder.name, {"holder": s.holder.name, "socks": [], "by_color": {}})
        h["socks"].append(s.id)
        h["by_color"][s.color] = h["by_color"].get(s.color, 0) + 1
    for h in holders.values():
        h["by_color"] = [{"color": c, "count": h["by_color"][c]} for c in SOCK_COLORS if c in h["by_color"]]
    market = [{"seq": e.seq, "at": e.at.isoformat(), "kind": e.kind, "rule": e.rule, "summary": e.summary,
               "action": e.data.get("action")}
              for e in Event.select().where((Event.kind == "sock") | (Event.kind == "color")
                                            | ((Event.kind == "mackerel") & (Event.rule == "4E69")))
              .order_by(Event.seq)]
    order = (Proposal.number.is_null(), Proposal.number, Proposal.id)
    proposals = [{"number": p.number, "id": p.id, "title": p.title, "status": p.status, "color": p.color,
                  "corporation": None if p.color == "Blank" else laundry_name(p.color)}
                 for p in Proposal.select().where(Proposal.status.in_(["Pending", "Open"])).order_by(*order)]
    return {"holders": sorted(holders.values(), key=lambda h: h["holder"].casefold()),
            "socks": [{"number": s.id, "color": s.color, "holder": s.holder.name,
                       "exists": s.destroyed_at is None}
                      for s in Sock.select().order_by(Sock.id)],
            "transactions": market, "proposals": proposals}


@view("socks", template="show_socks.txt")
def socks_view(ctx: Context, request: Request) -> dict:
    """`bnomic show socks [--json]` (a contract: add keys, never rename)."""
    return socks_data(ctx)
