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
    # Legal Entities that are not Players (Rule 4E81): the Corporations, named as Players are;
    # the Laundry Corporations (4E68) exist in every game and are always known
    corporations: tuple[str, ...] = ()
    actor: str | None = None                      # the sender's game name, if a Player ("me", "my")
    beast: str | None = None                      # the Beast's game name, if the game has one (4E71)
    # every way to name a Ministry, folded ("chairman", "ministry of change") -> its name ("Change")
    ministries: dict[str, str] = field(default_factory=dict)
    holders: dict[str, str] = field(default_factory=dict)          # Ministry name -> holder's name
    proposals: dict[int, tuple[str, str]] = field(default_factory=dict)   # number -> (title, author)
    open_proposals: tuple[int, ...] = ()          # the Open ones (Rule 4E15), for "everything else"
    intents: dict[int, str] = field(default_factory=dict)          # number -> author
    # number -> the action it announced (registry names: "retitle_rule"), so that an intent
    # named by what it would do ("Alice's intent to retitle Rule 4E9") is found
    intent_actions: dict[int, tuple[str, ...]] = field(default_factory=dict)
    tweaks: dict[int, str] = field(default_factory=dict)           # number -> author
    refresh: dict[int, str] = field(default_factory=dict)          # Refresh Proposal number -> author
    consultations: tuple[int, ...] = ()
    contracts: dict[int, str] = field(default_factory=dict)       # number -> title (Rule 4E70), in force
    subgames: dict[int, str] = field(default_factory=dict)        # number -> name (Rule 4E82), not Historical
    indictments: tuple[int, ...] = ()
    # what the message replied to holds (its In-Reply-To): "this intent", "the above proposal"
    replied_intents: tuple[int, ...] = ()
    replied_proposals: tuple[int, ...] = ()
    # the challenges (Rule 4E50) the replied mail made and no one has answered yet:
    # (obligation number, the Ministry whose display was challenged)
    replied_challenges: tuple[tuple[int, str], ...] = ()
    # the actions the replied mail scheduled (Rule 4E7) that are still to happen
    replied_scheduled: tuple[int, ...] = ()
    # the Consultations whose Answer the replied mail gave (Rule 4E18), by number
    replied_answers: tuple[int, ...] = ()
    quoted_intents: tuple[int, ...] = ()          # intents the quoted lines name ("> I object to Intent 3")
    # the message answers another (In-Reply-To, or lines quoted): only then may a bare "it"
    # or "this" name the thing answered ("I object to it"); otherwise it is talk ("I want to
    # rewrite it")
    replying: bool = False
    # Rule 4E30's Official Quantities by name ("a handful" -> 6), as the game's configuration
    # has them (a proposal may change them); empty: bnomic's defaults
    quantities: tuple[tuple[str, int], ...] = ()
    # the Player whose mail this one answers ("Sure. I give you m20."), if a Player
    addressee: str | None = None

    def with_actor(self, actor: str | None) -> "Vocabulary":
        from dataclasses import replace
        # (a Player answering their own mail addresses no one by "you")
        return replace(self, actor=actor, addressee=None if self.addressee == actor else self.addressee)


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
    return Vocabulary(ministries=ministry_words(Config(defaults())), quantities=quantity_words(Config(defaults())))


def quantity_words(config) -> tuple[tuple[str, int], ...]:
    """Rule 4E30: the Official Quantities that are numbers, by their names ("a few" -> 4)."""
    table = config.get("quantities", {}) or {}
    return tuple((key.replace("_", " "), value) for key, value in table.items()
                 if isinstance(value, int) and not isinstance(value, bool))


def ministry_words(config) -> dict[str, str]:
    from .ministries import aliases
    return aliases(config)


def of_game(ctx, actor_name: str | None = None, in_reply_to: str = "") -> Vocabulary:
    """The vocabulary as the state stands (the reader's view of the world)."""
    from ..store import (Consultation, Contract, Corporation, Deadline, Entry, Indictment, Intent, Message, Ministry,
                         Obligation, Player, Proposal, RefreshProposal, Subgame, Tweak)
    players = list(Player.select().where(Player.is_player == True).order_by(Player.id))  # noqa: E712
    names = {p.id: p.name for p in players}
    beast = next((p.name for p in players if p.is_beast), None)
    holders = {m.name: names[m.holder_id] for m in Ministry.select()
               if m.holder_id is not None and m.holder_id in names}
    proposals = {p.number: (p.title or "", names.get(p.author_id, ""))
                 for p in Proposal.select().where(Proposal.status != "Historical",
                                                  Proposal.number.is_null(False))}
    open_intents = list(Intent.select().where(Intent.state == "open"))
    intents = {i.id: names.get(i.author_id, "") for i in open_intents}
    intent_actions = {i.id: (i.action,) for i in open_intents}
    tweaks = {t.id: names.get(t.author_id, "") for t in Tweak.select().where(Tweak.state != "activated")}
    refresh = {r.id: names.get(r.author_id, "")
               for r in RefreshProposal.select().where(RefreshProposal.state == "submitted")}
    replied_intents: tuple[int, ...] = ()
    replied_proposals: tuple[int, ...] = ()
    replied_challenges: tuple[tuple[int, str], ...] = ()
    replied_scheduled: tuple[int, ...] = ()
    replied_answers: tuple[int, ...] = ()
    addressee = None
    if in_reply_to:
        m = Message.get_or_none(Message.message_id == in_reply_to)
        if m is not None:
            entry = m.entry_id
            from ..store import Address
            to = Address.get_or_none(Address.address == m.sender)
            addressee = names.get(to.player_id) if to is not None else None
            replied_intents = tuple(i.id for i in Intent.select().where(Intent.entry == entry)
                                    .order_by(Intent.id))
            replied_proposals = tuple(p.number for p in Proposal.select().where(
                Proposal.entry == entry, Proposal.number.is_null(False)).order_by(Proposal.number))
            replied_challenges = tuple(
                (o.id, name) for o, name in ((o, Ministry.get_by_id(o.ministry_id).name) for o in Obligation.select()
                                             .where(Obligation.kind == "answer_challenge", Obligation.state == "open")
                                             .order_by(Obligation.id))
                if o.data.get("entry") == entry)
            answered_at = Entry.get_by_id(entry).at
            replied_answers = tuple(c.number for c in Consultation.select().where(
                Consultation.answered_at == answered_at, Consultation.number.is_null(False),
                Consultation.state == "Answered").order_by(Consultation.number))
            replied_scheduled = tuple(d.id for d in Deadline.select().where(
                Deadline.action == "scheduled_action", Deadline.state == "pending").order_by(Deadline.id)
                if d.args.get("message_id") == in_reply_to)
    return Vocabulary(
        players=tuple(p.name for p in players), actor=actor_name, beast=beast,
        ministries=ministry_words(ctx.config), holders=holders, proposals=proposals,
        quantities=quantity_words(ctx.config),
        open_proposals=tuple(p.number for p in Proposal.select().where(
            Proposal.status == "Open", Proposal.number.is_null(False)).order_by(Proposal.number)),
        intents=intents, intent_actions=intent_actions, tweaks=tweaks, refresh=refresh,
        consultations=tuple(c.number for c in Consultation.select().where(Consultation.number.is_null(False))),
        indictments=tuple(i.id for i in Indictment.select()),
        corporations=tuple(c.name for c in Corporation.select(Corporation.name).order_by(Corporation.id)),
        contracts={c.id: c.title for c in Contract.select(Contract.id, Contract.title)
                   .where(Contract.state == "in force")},
        subgames={s.id: s.name for s in Subgame.select(Subgame.id, Subgame.name)
                  .where(Subgame.status != "Historical").order_by(Subgame.id)},
        replied_intents=replied_intents, replied_proposals=replied_proposals, replying=bool(in_reply_to),
        replied_challenges=replied_challenges, replied_scheduled=replied_scheduled,
        replied_answers=replied_answers,
        addressee=addressee if addressee != actor_name else None)


# words a Player's name must not be, or the reader could not tell the name from them
