"""Legal Entities (Rule 4E81): Players and Corporations (4E79), and the eight
Laundry Corporations of Rule 4E68.

A Legal Entity is one row of the Player table: a Player's own, or a
Corporation's `entity` row (is_player False), which holds its mackerel and
whatever else a Legal Entity may hold (Ministries 4E45, Contracts 4E70,
Socks 4E68). So money moves with economy.credit/debit/transfer, and a
Ministry's holder may be either, without asking which.

The Laundry Corporations exist from the start of every game (4E68). Their
rows are made the first time one is needed (named in an action, paid, given
Socks): a row of m0 and no Officers says nothing a missing row does not, and
so a game that never touches them, an old one replayed included, keeps its
digest. `corporations()` lists all eight either way.
"""
from __future__ import annotations

import re

from ..store import Corporation, Player, hot
from .colors import LAUNDRY_NAMES, SOCK_COLORS, laundry_name
from .context import Context, Rejected
from .names import clean_name
from .players import actor_of, current_named, name_key
from .views import Request, view

# ------------------------------------------------------------------ names

def corporation_key(text: str) -> str:
    """A Corporation's name folded for matching: case-blind, without a leading
    "the" ("the Burnt Sienna Corporation" is the Burnt Sienna Corporation)."""
    key = " ".join(name_key(text).split())
    return key[4:] if key.startswith("the ") else key


_LAUNDRY_KEYS = {corporation_key(n): c for n, c in zip(LAUNDRY_NAMES, SOCK_COLORS)}


def laundry_color(text: str) -> str | None:
    """The Sock Color whose Laundry Corporation the text names, or None."""
    return _LAUNDRY_KEYS.get(corporation_key(text))


# ------------------------------------------------------------------ finding

def corporation_of(entity: Player | None) -> Corporation | None:
    """The Corporation whose Legal Entity row this is, or None (a Player)."""
    if entity is None or entity.is_player:
        return None
    return Corporation.get_or_none(Corporation.entity == entity.id)


def is_corporation(entity: Player | None) -> bool:
    return corporation_of(entity) is not None


def laundry(ctx: Context, color: str) -> Corporation:
    """Rule 4E68: the Laundry Corporation of a Sock Color, its row made if this
    is the first time it is needed."""
    if color not in SOCK_COLORS:
        raise Rejected(f"{color!r} is not a Sock Color ({', '.join(SOCK_COLORS)})", rule="4E68")
    name = laundry_name(color)
    found = Corporation.get_or_none(Corporation.name_key == corporation_key(name))
    return found if found is not None else _make(ctx, name, color=color)


def find_corporation(ctx: Context, text: str, rule: str) -> Corporation:
    """The Corporation the text names ("the Blue Corporation"), or a refusal that says so."""
    key = corporation_key(text)
    found = Corporation.get_or_none(Corporation.name_key == key)
    if found is not None:
        return found
    if key in _LAUNDRY_KEYS:
        return laundry(ctx, _LAUNDRY_KEYS[key])
    raise Rejected(f"there is no Corporation named {clean_name(text)!r}", rule=rule)


def find_entity(ctx: Context, text: str, rule: str) -> Player:
    """Rule 4E81: the Legal Entity the text names, a current Player (or the
    Beast) or a Corporation; its row either way. Refuses, citing `rule`."""
    found = current_named(name_key(text))
    if found is not None:
        return found
    try:
        return find_corporation(ctx, text, rule).entity
    except Rejected:
        raise Rejected(f"there is no Player or Corporation named {clean_name(text)!r}",
                       rule=rule) from None


def corporations() -> list[dict]:
    """Every Corporation, the eight Laundry Corporations first (in 4E68's order, with
    or without a row), then the others by number: name, color, mackerel, Officers, Articles."""
    rows = {c.name_key: c for c in Corporation.select().order_by(Corporation.id)}
    names = {p.id: p.name for p in Player.select(Player.id, Player.name)}
    out = []
    for color, name in zip(SOCK_COLORS, LAUNDRY_NAMES):
        c = rows.pop(corporation_key(name), None)
        out.append(_view(c, names) if c else {"name": name, "color": color, "laundry": True,
                                               "mackerel": 0, "officers": [], "contract": None})
    out.extend(_view(c, names) for c in rows.values())
    return out


@view("corporations", template="show_corporations.txt")
def corporations_view(ctx: Context, request: Request) -> list[dict]:
    """`bnomic show corporations --json` (a contract: add keys, never rename)."""
    return corporations()


def _view(c: Corporation, names: dict) -> dict:
    return {"name": c.name, "color": c.color, "laundry": c.color is not None,
            "mackerel": c.entity.mackerel, "officers": [names.get(i, f"#{i}") for i in c.officers],
            "contract": c.contract}


# ------------------------------------------------------------------ making

def create_corporation(ctx: Context, name: str, officers: list[Player], contract: int,
                       rule: str = "4E79") -> Corporation:
    """Rule 4E79: a Corporation defined by Articles of Incorporation (Contract
    `contract`), with its Officers; a Legal Entity starting with m0."""
    name = clean_name(name)
    if not re.search(r"\w", name) or re.search(r"[@,;:.\n]", name):
        raise Rejected(f"{name!r} cannot be a Corporation's name: other Players could not name it in "
                       "an action (no address, and no , ; : .)", rule=rule)
    if laundry_color(name):
        raise Rejected(f"the {laundry_name(laundry_color(name))} is a Laundry Corporation, which "
                       "exists already (Rule 4E68: one for each Sock Color, and no other)", rule=rule)
    if Corporation.get_or_none(Corporation.name_key == corporation_key(name)) or \
            Player.get_or_none(Player.name_key == name_key(name)):
        raise Rejected(f"the name {name!r} is taken by another Legal Entity", rule=rule)
    if not officers:
        raise Rejected("Articles of Incorporation must define at least one Officer", rule="4E79")
    return _make(ctx, name, officers=[p.id for p in officers], contract=contract)


def _make(ctx: Context, name: str, color: str | None = None, officers: list[int] | None = None,
          contract: int | None = None) -> Corporation:
    entity = Player.create(name=name, name_key=name_key(name), is_player=False, mackerel=0)
    corp = Corporation.create(name=name, name_key=corporation_key(name), entity=entity, color=color,
                              contract=contract, officers=officers or [], created_at=ctx.at,
                              entry=ctx.entry)
    why = ("a Laundry Corporation (Rule 4E68), which exists from the start" if color
           else f"its Articles of Incorporation are Contract {contract}")
    ctx.record("corporation", f"the {name} is a Legal Entity with m0: {why}",
               rule="4E68" if color else "4E79", corporation=name, contract=contract)
    return corp


def set_officers(ctx: Context, corp: Corporation, officers: list[Player], rule: str, why: str) -> None:
    corp.officers = [p.id for p in officers]
    corp.save()
    ctx.record("corporation", f"the Officers of the {corp.name} are now "
               f"{', '.join(p.name for p in officers) or 'none'}: {why}", rule=rule,
               corporation=corp.name, officers=[p.name for p in officers])


# ------------------------------------------------------------------ acting

def officer_acting_for(ctx: Context, corp: Corporation) -> Player:
    """Rule 4E79: the sender of the post, if an Officer of the Corporation, who may act for it."""
    officer = actor_of(ctx)
    if officer is None or officer.id not in corp.officers:
        who = officer.name if officer is not None else "this address"
        if not corp.officers:
            raise Rejected(f"the {corp.name} has no Officers, so no one may act on its behalf "
                           "(a Laundry Corporation acts only as the rules make it, until Articles "
                           "for it define Officers; docs/readings.md)", rule="4E79")
        raise Rejected(f"{who} is not an Officer of the {corp.name}, so cannot act on its behalf",
                       rule="4E79")
    return officer


# Rule 4E79: "explicitly stating that the Actions described in the message are being
# performed by the Corporation": "On behalf of the Blue Corporation, I ...", or a line
# "On behalf of the Blue Corporation:" that goes for the actions after it
_ON_BEHALF = re.compile(r"(?i)\b(?:for and on behalf of|on behalf of)"
                        r" ++(?P<who>[^,:;.!?\n]{1,100}+)[,:]")
_OWN_BEHALF = re.compile(r"(?i)\b(?:on my own behalf|for myself|in my own name)\s*+[,:]")


def behalf_in(text: str) -> str | None:
    """The Legal Entity a sentence says it acts on behalf of ("On behalf of the
    Blue Corporation, I give m5 to Wooble" -> "the Blue Corporation"), or None."""
    m = _ON_BEHALF.search(text)
    return m.group("who").strip() if m else None


def behalves(post_text: str, reading_texts: list[str]) -> list[str | None]:
    """For each reading of a post (in order), on whose behalf it is done (None: the
    sender's own): a statement in its own sentence or just before it on its line
    ("On behalf of the Blue Corporation: I give ..."), else the last line-alone
    statement above it ("On behalf of the Blue Corporation:"); a line-alone "On my
    own behalf:" ends that."""
    out: list[str | None] = []
    pos, current = 0, None
    for text in reading_texts:
        found = post_text.find(text, pos) if text else -1
        if found < 0:                    # not found as written (a sentence read across lines)
            out.append(behalf_in(text or "") or current)
            continue
        line_start = post_text.rfind("\n", 0, found) + 1
        for line in post_text[pos:line_start].splitlines():
            if _OWN_BEHALF.search(line) and not line[_OWN_BEHALF.search(line).end():].strip():
                current = None
            elif _alone(line):
                current = behalf_in(line)
        own = behalf_in(text) or behalf_in(post_text[max(line_start, pos):found])
        out.append(own if own is not None else current)
        pos = found + len(text)
    return out


def _alone(line: str) -> bool:
    """A line that is only a statement ("On behalf of the Blue Corporation:")."""
    m = _ON_BEHALF.search(line)
    return m is not None and not line[m.end():].strip() and not line[:m.start()].strip()


def may_speak_for(ctx: Context, who: str) -> Player | None:
    """Rule 4E79: the Legal Entity a post's sender acts for when a sentence says
    "on behalf of" `who`: a Corporation of which the sender is an Officer; None
    when it names the sender itself. Refuses otherwise, saying why. (Whether the
    Corporation may do the action is the engine's check: `ActionSpec.legal_entity`.)"""
    entity = find_entity(ctx, who, "4E79")
    corp = corporation_of(entity)
    if corp is None:
        sender = actor_of(ctx)
        if sender is not None and sender.id == entity.id:
            return None
        raise Rejected(f"{entity.name} is a Player, and acts only for itself; only a Corporation's "
                       "Officer acts on behalf of another (Rule 4E79)", rule="4E79")
    officer_acting_for(ctx, corp)
    return corp.entity


def not_for_corporations(entity: Player, rule: str) -> Rejected:
    """Why a Corporation cannot do an action whose rule is a Player's."""
    return Rejected(f"the {entity.name} cannot do this: Rule {rule} lets a Player do it, not any Legal "
                    "Entity (a Corporation is a Legal Entity, not a Player: Rule 4E81)", rule="4E81")
