"""The words of the game as of one message: what the reader resolves typed tokens
against (Rule 4E7: "Unambiguous targets and parameters ... are valid regardless of
capitalization, punctuation, or exact wording").

`Vocabulary` is plain data. `of_game()` gathers it from the state; tests and other
rulesets may build one by hand. The fixed words (vote words, currencies, numbers,
fillers) are data in `words.toml`, not code.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources


@dataclass(frozen=True, eq=False)      # hashed by identity: the lexer caches its names per vocabulary
class Vocabulary:
    players: tuple[str, ...] = ()                 # current Players' game names (the Beast included)
    actor: str | None = None                      # the sender's game name, if a Player ("me", "my")
    beast: str | None = None                      # the Beast's game name, if the game has one (4E71)
    # every way to name a Ministry, folded ("chairman", "ministry of change") -> its name ("Change")
    ministries: dict[str, str] = field(default_factory=dict)
    holders: dict[str, str] = field(default_factory=dict)          # Ministry name -> holder's name
    proposals: dict[int, tuple[str, str]] = field(default_factory=dict)   # number -> (title, author)
    intents: dict[int, str] = field(default_factory=dict)          # number -> author
    tweaks: dict[int, str] = field(default_factory=dict)           # number -> author
    refresh: dict[int, str] = field(default_factory=dict)          # Refresh Proposal number -> author
    consultations: tuple[int, ...] = ()
    indictments: tuple[int, ...] = ()
    # what the message replied to holds (its In-Reply-To): "this intent", "the above proposal"
    replied_intents: tuple[int, ...] = ()
    replied_proposals: tuple[int, ...] = ()

    def with_actor(self, actor: str | None) -> "Vocabulary":
        from dataclasses import replace
        return replace(self, actor=actor)


@cache
def words() -> dict:
    """The fixed vocabulary (words.toml): vote words, currencies, numbers, fillers."""
    with resources.files("bnomic.handlers").joinpath("words.toml").open("rb") as f:
        return tomllib.load(f)


@cache
def default() -> Vocabulary:
    """What a reading with no game knows (`vocab=None`): the Ministries of the default
    configuration, by every name, and no Players (names are taken as written)."""
    from ..config import Config, defaults
    return Vocabulary(ministries=ministry_words(Config(defaults())))


def ministry_words(config) -> dict[str, str]:
    from .ministries import aliases
    return aliases(config)


def of_game(ctx, actor_name: str | None = None, in_reply_to: str = "") -> Vocabulary:
    """The vocabulary as the state stands (the reader's view of the world)."""
    from ..store import Intent, Message, Ministry, Player, Proposal
    players = [p for p in Player.select().where(Player.is_player == True).order_by(Player.id)]  # noqa: E712
    beast = next((p.name for p in players if p.is_beast), None)
    holders = {m.name: m.holder.name for m in Ministry.select() if m.holder_id is not None}
    proposals = {}
    for p in Proposal.select().where(Proposal.number.is_null(False)):
        proposals[p.number] = (p.title or "", p.author.name if p.author_id else "")
    intents = {i.id: i.author.name for i in Intent.select()} if hasattr(Intent, "author") else {}
    replied: tuple[int, ...] = ()
    if in_reply_to:
        m = Message.get_or_none(Message.message_id == in_reply_to)
        if m is not None and hasattr(Intent, "entry"):
            replied = tuple(i.id for i in Intent.select().where(Intent.entry == m.entry).order_by(Intent.id))
    return Vocabulary(players=tuple(p.name for p in players), actor=actor_name, beast=beast,
                      ministries=ministry_words(ctx.config), holders=holders, proposals=proposals,
                      intents=intents, replied_intents=replied)
