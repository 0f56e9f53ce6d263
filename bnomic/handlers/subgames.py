"""Subgames (Rule 4E82) and the Gamemaster's display of them.

A Subgame is a Game Document. bnomic keeps its text verbatim and checks that
it has the five things the rule lists, each as a labelled part ("Name:",
"Joining:", "Ending:", "Communication:", "Trophy:"; the labels are data, in
PARTS). A Subgame is Pending when created; the Gamemaster opens it; the
Gamemaster records its win (bnomic cannot judge a Subgame's own ending,
docs/readings.md), and then it is Historical. Its Trophy is awarded by
bnomic when the change language (changes.py) can say what it is ("m20",
"5 points", "Set the points of the winner to 10"), otherwise the Gamemaster
is obliged to award it.
"""
from __future__ import annotations

import re

from ..store import Player, Subgame
from . import changes, ministries, names
from .context import Context, Rejected
from .frames import frame
from .registry import action
from .views import Request, view

# Rule 4E82's five requirements: (part, what the rule asks, the labels that give it)
PARTS = (
    ("name", "a name", ("name", "title", "subgame name", "subgame", "game")),
    ("joining", "how players may join or leave the Subgame",
     ("joining", "join", "joining and leaving", "joining/leaving", "joining & leaving", "leaving",
      "leave", "joining or leaving", "membership", "players", "how to join", "entry")),
    ("ending", "a way for the Subgame to end and how winners will be decided",
     ("ending", "end", "ends", "ending and winners", "ending/winners", "winning", "winners",
      "winner", "win", "how to win", "victory", "victory condition", "winning condition",
      "winning conditions", "end and winners", "end of the game", "scoring")),
    ("communication", "a means of communication for players to take actions",
     ("communication", "communications", "means of communication", "forum", "actions",
      "taking actions", "how to play", "where", "channel")),
    ("trophy", "a Trophy to be awarded to the winner(s)", ("trophy", "prize", "award", "reward")),
)
_LABELS = {label: part for part, _, labels in PARTS for label in labels}
_BULLET = re.compile(r"^[-*•]++\s*+|^\d++[.)]\s*+")

GM = "Games"        # Rule 4E82: the Ministry of Games; its Minister, the Gamemaster


def read_parts(document: str) -> dict[str, str]:
    """The parts a Subgame document gives: each labelled line ("Trophy: m20"),
    with the lines after it up to the next labelled line or a blank line."""
    found: dict[str, str] = {}
    current = None
    for line in document.splitlines():
        stripped = _BULLET.sub("", line.strip())
        label, colon, rest = stripped.partition(":")
        key = " ".join(label.lower().split()) if colon else ""
        if key.startswith("the "):
            key = key[4:]
        if key in _LABELS:
            current = _LABELS[key]
            if current in found:            # a second label of the same part adds to it
                found[current] = (found[current] + "\n" + rest.strip()).strip()
            else:
                found[current] = rest.strip()
            continue
        if not line.strip():
            current = None
        elif current is not None:
            found[current] = (found[current] + "\n" + line.strip()).strip()
    return {k: v for k, v in found.items() if v}


def missing(parts: dict[str, str]) -> list[str]:
    """Rule 4E82: what of the five requirements a Subgame document lacks."""
    return [what for part, what, _ in PARTS if not parts.get(part)]


def label(s: Subgame) -> str:
    return f"Subgame {s.id} (“{s.name}”)"


def find(number: str | None, name: str | None = None) -> Subgame:
    """The Subgame named by its number ("2", "#2") or its name."""
    if number:
        digits = number.strip().lstrip("#")
        s = Subgame.get_or_none(Subgame.id == int(digits)) if digits.isdigit() else None
        if s is None:
            raise Rejected(f"there is no Subgame {number}", rule="4E82")
        return s
    if name:
        wanted = " ".join(name.strip().strip('"“”').lower().split())
        for s in Subgame.select().order_by(Subgame.id):
            if " ".join(s.name.lower().split()) == wanted:
                return s
        raise Rejected(f"there is no Subgame named “{name.strip()}”", rule="4E82")
    raise Rejected("name the Subgame by its number (Subgame 2)", rule="4E82")


_SUBGAME = "subgame|sub-game|subgame number|the subgame"


@action("create_subgame",
        # Rule 4E82: "A Subgame is a Game Document. In order to be valid, a Subgame must:
        # -Have a name ... -Specify a Trophy"; "When a Subgame is created, its status is set
        # to Pending" (the document after the sentence, or inside {{ }})
        frame("create|submit|propose|start|post|make|found|set up|establish|present|launch"
              "|introduce|offer|write",
              "name:text[titled|entitled|called|named|with the name|name]?",
              also="subgame sub-game following new below a as follows", needs="subgame|sub-game"),
        rule="4E82", example='I create the following Subgame: Name: Guess a Number ... END SUBGAME',
        says="create a Subgame {name}", document="subgame", document_needed=True,
        not_actions=("I created a Subgame yesterday", "Wooble creates a Subgame",
                     "Should I create a Subgame?", "I think I'll create a Subgame",
                     "I would love a Subgame about chess"))
def create(ctx: Context, actor: Player, document: str = "", name: str | None = None) -> None:
    """Rule 4E82: a Subgame is valid only with its five parts; it is created Pending."""
    parts = read_parts(document)
    if name and name.strip().strip('"“”').strip():
        parts["name"] = name.strip().strip('"“”').strip()
    lacking = missing(parts)
    if lacking:
        raise Rejected("the Subgame is not valid: it does not " +
                       "; it does not ".join(f"{'have' if w == 'a name' else 'specify'} {w}"
                                             for w in lacking) +
                       " (write each as a labelled line: Name:, Joining:, Ending:, "
                       "Communication:, Trophy:)", rule="4E82")
    title = names.title(ctx.config, parts["name"].splitlines()[0].strip(), "Subgame's name", "4E82")
    s = Subgame.create(name=title, text=document.strip(), parts=parts, author=actor,
                       status="Pending", created_at=ctx.at)
    ctx.record("subgame", f"{actor.name} creates {label(s)}: it is Pending", rule="4E82",
               subgame=s.id, name=s.name, author=actor.name, status=s.status)
    ctx.notes.append(f"{label(s)} is Pending; the Gamemaster may open it")


@action("open_subgame",
        # Rule 4E82: "The Gamemaster may change any Subgame status from Pending to Open as a
        # game action"
        frame("open|start|launch|begin|activate|set|change|make|declare",
              "number:subgame[" + _SUBGAME + "]",          # "Subgame 1", "Mackerel Poker" (its name)
              also="status of to open as the pending from now subgame sub-game",
              needs="subgame|sub-game open|start|launch|begin|activate"),
        rule="4E82", example="I open Subgame 1", says="open Subgame {number}",
        not_actions=("I opened Subgame 1 yesterday", "Wooble opens Subgame 1",
                     "Should I open Subgame 1?", "I think I'll open Subgame 1"))
def open_subgame(ctx: Context, actor: Player, number: str) -> None:
    """Rule 4E82: the Gamemaster changes a Subgame's status from Pending to Open."""
    ministries.require_minister(ctx, actor, GM, "4E82",
                                "only the Gamemaster (the Minister of Games) may open a Subgame")
    s = find(number)
    if s.status != "Pending":
        raise Rejected(f"{label(s)} is {s.status}; only a Pending Subgame can be opened",
                       rule="4E82")
    s.status, s.opened_at = "Open", ctx.at
    s.save()
    ctx.record("subgame", f"{actor.name} opens {label(s)}", rule="4E82", subgame=s.id,
               status=s.status)


@action("win_subgame",
        # Rule 4E82: "When a subgame is won, it's status is set to Historical"; the
        # Gamemaster, who keeps its display, records the win (docs/readings.md)
        frame("declare|record|announce|proclaim|name|crown|certify|confirm|recognise|recognize",
              "players:player*", "number:subgame[of " + _SUBGAME.replace("|", "|of ") + "|" + _SUBGAME
              + "|in subgame|in the subgame]",
              also="winner winners the as and that has have won wins of", needs="subgame|sub-game"),
        rule="4E82", example="I declare Wooble the winner of Subgame 1",
        says="declare {players} the winner of Subgame {number}",
        not_actions=("I declared Wooble the winner of Subgame 1 yesterday",
                     "Wooble wins Subgame 1", "Should I declare Wooble the winner of Subgame 1?",
                     "I think Wooble won Subgame 1"))
def win(ctx: Context, actor: Player, players: str, number: str) -> None:
    """Rule 4E82: an Open Subgame is won: Historical, and its Trophy is awarded
    (by bnomic when the change language can say what it is, else the Gamemaster
    is obliged to)."""
    from .players import find_player
    gm = ministries.require_minister(ctx, actor, GM, "4E82",
                                     "only the Gamemaster (the Minister of Games) records the "
                                     "win of a Subgame")
    s = find(number)
    if s.status != "Open":
        raise Rejected(f"{label(s)} is {s.status}; only an Open Subgame can be won", rule="4E82")
    who = [find_player(ctx, w.strip(), "4E82") for w in players.split(",") if w.strip()]
    if not who:
        raise Rejected("name the winner(s)", rule="4E82")
    winners = [p.name for p in who]
    s.status, s.won_at, s.winners = "Historical", ctx.at, winners
    trophy = s.parts.get("trophy", "")
    s.trophy = trophy
    s.save()
    ctx.record("subgame", f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''} {label(s)}; "
               "it is Historical", rule="4E82", subgame=s.id, status=s.status, winners=winners)
    award(ctx, s, gm, winners, trophy)


def trophy_changes(trophy: str, winner: str) -> changes.Parsed:
    """The Trophy as changes for one winner, in the change language: an amount
    ("m20", "5 points") is given to the winner; "the winner" in an instruction
    is the winner ("Set the points of the winner to 10")."""
    quoted = '"' + winner.replace('"', "") + '"'
    one = " ".join(trophy.split())
    m = _AMOUNT.fullmatch(one.rstrip("."))
    if m:
        return changes.parse(f"Award {m.group(0)} to {quoted}")
    text = _WINNER.sub(quoted, trophy)
    return changes.parse(text)


_AMOUNT = re.compile(r"(?:m\d{1,9}+|\d{1,9}+ ?(?:mackerel|macks?|points?|m))", re.I)
_WINNER = re.compile(r"\b(?:the|each|every) winners?\b(?:\s++of the subgame)?+", re.I)


def award(ctx: Context, s: Subgame, gm, winners: list[str], trophy: str) -> None:
    """Make the Trophy's changes for every winner when every part of it is an
    instruction; otherwise oblige the Gamemaster to award it."""
    from .obligations import oblige
    parsed = [trophy_changes(trophy, n) for n in winners]
    if trophy.strip() and all(p.changes and not p.prose for p in parsed):
        results = [a for p in parsed
                   for a in changes.apply(ctx, p.changes, f"the Trophy of {label(s)}", "4E82")]
        for a in results:
            ctx.notes.append(("" if a.ok else "not made: ") + a.summary)
        if all(a.ok for a in results):
            ctx.record("trophy", f"the Trophy of {label(s)} is awarded to {' and '.join(winners)}",
                       rule="4E82", subgame=s.id, trophy=trophy, winners=winners)
            return
    oblige(ctx, gm, "award_trophy",
           f"award the Trophy of {label(s)} to {' and '.join(winners)}: {trophy.strip()}", "4E82",
           subgame=s.id)


def row(s: Subgame) -> dict:
    return {"number": s.id, "name": s.name, "status": s.status, "author": s.author.name,
            "created_at": s.created_at.isoformat(),
            "opened_at": s.opened_at.isoformat() if s.opened_at else None,
            "won_at": s.won_at.isoformat() if s.won_at else None,
            "winners": list(s.winners or []), "trophy": s.parts.get("trophy", ""),
            "parts": dict(s.parts), "text": s.text}


def gamemaster(ctx: Context) -> dict:
    """Rule 4E82: the Gamemaster's display: every Subgame, current and Historical."""
    return {"subgames": [row(s) for s in Subgame.select().order_by(Subgame.id)]}


@view("subgames", template="show_subgames.txt")
def subgames_view(ctx: Context, request: Request) -> list:
    """`bnomic show subgames`: every Subgame, its Status, winners and Trophy."""
    return gamemaster(ctx)["subgames"]
