"""Players: joining and forfeiting (Rule 4E4), Active and Vested (Rule 4E28)."""
from __future__ import annotations

import re

from ..store import Address, Player, database, hot, versions
from . import grammar, lexer, names
from .colors import LAUNDRY_NAMES
from .names import clean_name
from .context import Context, Rejected
from .frames import frame
from .events import PlayerInactive, PlayerLeft
from .registry import Undecidable, action, assertion, at_start_of, emit

# ------------------------------------------------------------------- finding

BEAST_NAMES = frozenset({"the beast", "beast", "the ocb", "ocb", "the operantly conditioned beast",
                         "operantly conditioned beast"})


def name_key(name: str) -> str:
    """Names match without regard to case or surrounding punctuation (rulings.md)."""
    return clean_name(name).casefold()


def player_by_address(address: str) -> Player | None:
    """The current Player who posts from this address, if any (asked twice per
    mail: kept while neither table changes, store/versions.py; a copy). The row
    found is kept by its key too (`player_row`: the actor's own row, read again by
    the action, is not fetched again)."""
    return versions.clone(versions.cached(
        database, ("player by address", address.lower()), ("player", "address"),
        lambda: _kept_by_key(_by_address(address.lower()))))


def player_row(key: int) -> Player:
    """The Player table's row `key` (a Player's or a Corporation's, Rule 4E81), as
    `hot.get(Player, id=key)` reads it: kept within a write transaction while the table
    is unwritten (store/versions.py; a copy). Raises Player.DoesNotExist."""
    return versions.clone(versions.cached(database, ("player row", key), ("player",),
                                          lambda: hot.get(Player, id=key)))


def _kept_by_key(row: Player | None) -> Player | None:
    if row is not None:
        versions.keep(database, ("player row", row.id), ("player",), row)
    return row


def _by_address(address: str) -> Player | None:
    found = hot.fetch(Player, "by address", 'INNER JOIN "address" AS "t2" ON ("t1"."id" = "t2"."player_id") '
                      'WHERE ("t2"."address" = ?) AND ("t1"."is_player" = ?) LIMIT 1', (address, True))
    if found is not None:
        return found[0] if found else None
    return (Player.select().join(Address)
            .where(Address.address == address, Player.is_player == True)  # noqa: E712
            .first())


def _with_address(address: str) -> Player | None:
    """The Player row (a Player now or not) that posts from this address, if any."""
    found = hot.fetch(Player, "any by address", 'INNER JOIN "address" AS "t2" ON ("t1"."id" = "t2"."player_id") '
                      'WHERE ("t2"."address" = ?) LIMIT 1', (address,))
    if found is not None:
        return found[0] if found else None
    return Player.select().join(Address).where(Address.address == address).first()


def actor_of(ctx: Context) -> Player | None:
    """The Player who sent the post being applied, if any."""
    return player_by_address(ctx.post.sender) if ctx.post else None


def find_player(ctx: Context, text: str, rule: str) -> Player:
    """The current Player named by text, or a rejection that says who is meant."""
    found = current_named(name_key(text))
    if found is None:
        raise Rejected(f"there is no Player named {clean_name(text)!r}", rule=rule)
    return found


def current_named(key: str) -> Player | None:
    """The current Player whose folded name is `key` (a name of the Beast: the Beast)."""
    where = {"is_player": True, "is_beast": True} if key in BEAST_NAMES else {"is_player": True, "name_key": key}
    found = hot.rows(Player, where, (), 1)
    if found is not None:
        return found[0] if found else None
    q = Player.select().where(Player.is_player == True)  # noqa: E712
    q = q.where(Player.is_beast == True) if key in BEAST_NAMES else q.where(Player.name_key == key)  # noqa: E712
    return q.first()


def current_players():
    return Player.select().where(Player.is_player == True).order_by(Player.id)  # noqa: E712


# ------------------------------------------------------------------- Active

def note_action(ctx: Context, player: Player) -> None:
    """Rule 4E28: a Player who performs a Game Action gains the Active property."""
    nweek = ctx.game.nweek
    # most often nothing to do: a Player, Active, who acted this nweek already (what it
    # reads kept while no write touches those columns, store/versions.py: a gift's
    # UPDATE of mackerel leaves it)
    if versions.active(database) and versions.cached(database, ("acted", player.id), _ACTED_READS,
                                                     lambda: _acted(player.id)) == (True, True, nweek):
        return
    player = hot.get(Player, id=player.id)
    if not player.is_player:
        return
    if player.last_action_nweek != nweek:
        player.last_action_nweek = nweek
        player.save()
    if not player.active:
        set_active(ctx, player, True, "4E28", "performed a Game Action")


_ACTED_READS = versions.columns("player", "id", "is_player", "active", "last_action_nweek")


def _acted(key: int) -> tuple | None:
    """(is a Player, Active, the nweek of the last Game Action) of row `key`; None if
    there is no such row or not on SQLite."""
    found = hot.all_rows("acted", 'SELECT "is_player", "active", "last_action_nweek" FROM "player" '
                         'WHERE "id" = ?', (key,))
    if not found:
        return None
    is_player, active, nweek = found[0]
    return bool(is_player), bool(active), nweek


def set_active(ctx: Context, player: Player, active: bool, rule: str, why: str) -> None:
    player.active = active
    player.save()
    ctx.record("active", f"{player.name} {'gains' if active else 'loses'} Active: {why}",
               rule=rule, player=player.name, active=active)
    if not active:
        emit(ctx, PlayerInactive(player, by="rules"))       # Rules 4E47, 4E18 react


def leave(ctx: Context, player: Player, by: str, summary: str, rule: str) -> None:
    """Rule 4E4: the Player stops being one (forfeiting, or removed by the operator),
    losing Active and Vested; the areas that care react (PlayerLeft)."""
    player.is_player, player.left_nweek = False, ctx.game.nweek
    player.active = player.vested = False
    player.save()
    ctx.record("forfeit", summary, rule=rule, player=player.name)
    emit(ctx, PlayerLeft(player, by=by))        # Rules 4E47, 4E18 react


@action("remove_active",
        # Rule 4E28: "remove the Active property of another Player"
        frame("remove|strip|take away|revoke|clear|take", "player:player[from|of|off]",
              also="active property status flag", needs="active"),
        frame("deactivate|inactivate|de-activate", "player:player"),
        frame("make|mark|declare|render|set", "player:player", also="inactive as", needs="inactive"),
        rule="4E28", example="I remove the Active property from Wooble",
        says="remove the Active property of {player}",
        not_actions=("I removed the Active property from Wooble last week",
                     "Wooble removes my Active property", "I make Wooble happy",
                     "Should I deactivate Wooble?", "I remove my hat"))
def remove_active(ctx: Context, actor: Player, player: str) -> None:
    """Rule 4E28: any Player may remove the Active property of another Player
    who has not performed a Game Action in the current or previous nweek."""
    target = find_player(ctx, player, "4E28")
    if target.id == actor.id:
        raise Rejected("you can only remove the Active property of another Player", rule="4E28")
    if not target.active:
        raise Rejected(f"{target.name} is not Active", rule="4E28")
    nweek = ctx.game.nweek
    if target.last_action_nweek is not None and target.last_action_nweek >= nweek - 1:
        raise Rejected(f"{target.name} performed a Game Action in nweek "
                       f"{target.last_action_nweek}; Active can be removed only from a Player "
                       f"who has not acted in the current or previous nweek", rule="4E28")
    set_active(ctx, target, False, "4E28", f"removed by {actor.name}")


@at_start_of("nweek", rule="4E28")
def update_vested(ctx: Context) -> None:
    """Rule 4E28: at the beginning of each nweek, the players that voted in the
    previous nweek gain Vested; those that did not vote lose it."""
    previous = ctx.game.nweek - 1
    for p in current_players():
        vested = p.last_voted_nweek == previous
        if p.vested != vested:
            p.vested = vested
            p.save()
            ctx.record("vested", f"{p.name} {'gains' if vested else 'loses'} Vested "
                       f"({'voted' if vested else 'did not vote'} in nweek {previous})",
                       rule="4E28", player=p.name, vested=vested)


# ------------------------------------------------------------ joining (4E4)

_RECRUITED = re.compile(
    r"(?<![,;(\s])[,;(\s]*+(?:and\s++)?(?:i\s++was\s++|i'm\s++|having\s++been\s++)?"
    r"(?:recruited|referred|invited|brought(?:\s++in)?|sent)\s++(?:here\s++)?by\s++(?P<who>.+?)\)?$",
    re.I)


def split_recruiters(text: str) -> tuple[str, list[str]]:
    """'Wooble, recruited by A, B and C' -> ('Wooble', ['A', 'B', 'C'])."""
    m = _RECRUITED.search(text)
    if not m:
        return text, []
    who = re.split(r"(?<!\s)\s*+(?:,|\band\b|&|\+)\s*+", m.group("who"))
    return text[:m.start()], [w for w in (clean_name(x) for x in who) if w]


def starting_mackerel(ctx: Context, player: Player) -> None:
    """Rule 4E34: whenever an entity becomes a Player with less than m50, it is set to m50."""
    floor = ctx.config["players.starting_mackerel"]
    if player.mackerel < floor:
        ctx.record("mackerel", f"{player.name}'s mackerel set to m{floor} on becoming a Player",
                   rule="4E34", player=player.name, before=player.mackerel, after=floor)
        player.mackerel = floor
        player.save()


def recruitment_bonus(ctx: Context, newcomer: Player, names: list[str]) -> list[str]:
    """Rule 4E4: m60 evenly divided among the named recruiters, fractions destroyed.
    Returns the names that are not current players (they get nothing)."""
    recruiters, unknown = [], []
    for n in names:
        p = Player.get_or_none((Player.name_key == name_key(n)) & (Player.is_player == True))  # noqa: E712
        if p is not None and p.id == newcomer.id:
            ctx.notes.append("a newcomer cannot recruit themselves")
        elif p is None:
            unknown.append(n)
        elif p not in recruiters:
            recruiters.append(p)
    if recruiters:
        share = ctx.config["players.recruitment_bonus"] // len(recruiters)
        for p in recruiters:
            p.mackerel += share
            p.save()
            ctx.record("mackerel", f"{p.name} gains m{share}, recruitment bonus for "
                       f"{newcomer.name}", rule="4E4", player=p.name, amount=share)
    return unknown


def usable_name(ctx: Context, name: str, former: Player | None = None) -> str:
    """Rule 4E4: a new Player's name, checked: usable in actions and uniquely
    identifying (not taken, and not like another: `distinct_name`). `former`
    is the same entity joining again."""
    name = clean_name(name)
    if lookalikes_refused(ctx):
        name = clean_name(names.normalise(name))
    longest = int(ctx.config.owned("limits.name_length"))
    if not re.search(r"\w", name) or len(name) > longest or re.search(r"[@,;:.\n]", name):
        raise Rejected(f"{name!r} is not a usable name: give one of 1 to {longest} characters, with "
                       "a letter or digit, and no address or , ; : . (they end sentences and lists, "
                       "so other players could not name you in an action)", rule="4E4")
    taken = hot.get_or_none(Player, name_key=name_key(name))       # (its SQL made once: store/hot.py)
    if taken is not None and (former is None or taken.id != former.id):
        raise Rejected(f"the name {name!r} is already taken; a Player's name must identify "
                       "them uniquely", rule="4E4")
    if name_key(name) in BEAST_NAMES:
        raise Rejected(f"the name {name!r} belongs to the Operantly Conditioned Beast", rule="4E4")
    if name_key(name).removeprefix("the ") in {name_key(n) for n in LAUNDRY_NAMES}:
        raise Rejected(f"the name {name!r} is a Laundry Corporation's (Rule 4E68), and a Player's "
                       "name must identify them uniquely", rule="4E4")
    if ctx.config.get("limits.vocabulary_names", "allow") == "refuse":
        word = lexer.clash(name, ctx.config)
        if word:
            raise Rejected(f"the name {name!r} is {word}, so actions naming you could not be read one "
                           "way; a Player's name must identify them uniquely", rule="4E4")
    return distinct_name(ctx, name, former)


def lookalikes_refused(ctx: Context) -> bool:
    """`limits.lookalike_names = "refuse"`; a game made before the setting
    existed lacks it and replays as it was read then."""
    return ctx.config.get("limits.lookalike_names", "allow") == "refuse"


def distinct_name(ctx: Context, name: str, former: Player | None = None) -> str:
    """Rule 4E4, "a uniquely identifying name": the name normalised, refused when it
    holds control or unassigned characters, or when it is confusable with any
    Player's name, past or present, or a name of the Beast (handlers/names.py)."""
    if not lookalikes_refused(ctx):
        return name
    name = clean_name(names.normalise(name))
    why = names.problem(name)
    if why:
        raise Rejected(f"{name!r} is not a usable name: {why}", rule="4E4")
    everyone = hot.rows(Player, None, ("id",))                 # (None: not SQLite)
    for other in everyone if everyone is not None else Player.select().order_by(Player.id):
        if (former is None or other.id != former.id) and names.confusable(name, other.name):
            raise Rejected(f"the name {name!r} looks like {other.name!r}, the name of "
                           f"{'the Beast' if other.is_beast else 'another Player'}; a Player's "
                           "name must identify them uniquely", rule="4E4")
    for beast in sorted(BEAST_NAMES):
        if names.confusable(name, beast):
            raise Rejected(f"the name {name!r} looks like {beast!r}, a name of the Operantly "
                           "Conditioned Beast", rule="4E4")
    return name


# Rule 4E4: "a request to become a Player and a uniquely identifying name that e
# wishes to be known by"; the name is everything after its marker (recruiters, named
# after it, are split off by the handler)
_NAME = ("name:text[as|under the name|with the name|named|called|using the name|by the name"
         "|by the name of|under the name of|and my name is|my name is|my name will be|name|name :"
         "|known as|to be known as|be known as|and be known as|going by|under|with name"
         "|i wish to be known as|and i wish to be known as|and wish to be known as|wishing to be known as"
         "|the name i wish to be known by is|and the name i wish to be known by is|i want to be known as"
         "|and i want to be known as|please call me|call me|you can call me]")
_JOIN = ("join|join the game|join b nomic|join b|join nomic|joining|joining the game|joining b nomic"
         "|become a player|be a player|become a new player|become a player of b nomic"
         "|join as a player|join as a new player|join the game as a player|join b nomic as a player"
         "|register|register as a player|sign up|sign up as a player|play|play b nomic|enter the game"
         "|become a player and|make a request to become a player|request to become a player"
         "|ask to become a player|ask to join|request to join|request membership|apply to join"
         "|ask to be a player|request to be a player")


@action("join",
        frame(_JOIN, _NAME, also="player players new game nomic b of in the this"),      # "join B Nomic", "a Player of B Nomic"
        frame("", _NAME, openers="register me|sign me up|sign me|add me|count me in|enrol me|enroll me"
              "|add me as a player|add me as a new player|sign me up as a player|register me as a player"
              "|let me join|let me in|please add me|i'd like to join|i would like to join|request to join"
              "|request to become a player|my request to become a player|join request|joining request"
              "|request for membership|application to join|application for membership"     # "Join request. Name: Hank."
              "|make me a player|please make me a player|make me a new player",
              also="player new game"),
        rule="4E4", example="I join as Wooble", players_only=False, says="join as {name}",
        not_actions=("I joined as Wooble in nweek 140", "Wooble joins as Zed",
                     "Should I join as Wooble?", "I join Wooble in congratulating Chuck"))
def join(ctx: Context, actor: Player | None, name: str | None = None,
         recruiters: str | None = None) -> Player:
    """Rule 4E4: an External Force who is not a Player, and was not one in the
    current or previous nweek, becomes a Player by asking to, under a unique name."""
    address = ctx.post.sender
    if actor is not None:
        raise Rejected(f"you are already a Player, as {actor.name}", rule="4E4")
    if not name:
        raise Rejected("a request to become a Player must give the name you wish to be "
                       "known by, e.g. \"I join as Wooble\"", rule="4E4")
    named = [clean_name(x) for x in (recruiters or "").split(",") if x.strip()]
    name, recruiters = split_recruiters(name)
    if not recruiters:
        for sentence in grammar.sentences(ctx.post.text):
            _, recruiters = split_recruiters(sentence)
            if recruiters:
                break
    recruiters = recruiters or named        # the reader's (Rule 4E4's other wordings)
    nweek = ctx.game.nweek
    former = _with_address(address)
    name = usable_name(ctx, name, former)
    wait = ctx.config.owned("players.rejoin_after_nweeks")
    if former is not None and former.left_nweek is not None and former.left_nweek >= nweek - wait:
        raise Rejected(f"you were a Player ({former.name}) in nweek {former.left_nweek}; "
                       f"you can join again from nweek {former.left_nweek + wait + 1}", rule="4E4")

    if former is not None:
        player = former
        player.name, player.name_key = name, name_key(name)
        player.is_player, player.left_nweek, player.joined_nweek = True, None, nweek
        player.save()
    else:
        player = Player.create(name=name, name_key=name_key(name), joined_nweek=nweek)
        Address.create(address=address, player=player)
    ctx.record("join", f"{name} becomes a Player", rule="4E4", player=name, address=address)
    starting_mackerel(ctx, player)
    unknown = recruitment_bonus(ctx, player, recruiters)
    if unknown:
        ctx.notes.append(f"no recruitment bonus for {', '.join(unknown)}: not current Players")
    return player


@action("forfeit",
        # Rule 4E4: "A Player may cease to be a Player by Forfeiting the game"
        frame("forfeit|forfeit the game|forfeit b nomic|forfeit b|quit|quit the game|quit b nomic"
              "|resign from the game|resign from b nomic|leave the game|leave b nomic|leave nomic"
              "|cease to be a player|stop being a player|stop playing|withdraw from the game"
              "|retire from the game|exit the game|forfeiting|forfeiting the game",
              also="game nomic by forfeiting of b", why=False),     # "I forfeit the game of B Nomic"
        rule="4E4", example="I forfeit the game", says="forfeit the game",
        not_actions=("I forfeited last nweek", "Wooble forfeits", "Should I forfeit?",
                     "I quit smoking last week", "I leave for Paris tomorrow",
                     "I forfeit, just kidding", "I leave this here"))
def forfeit(ctx: Context, actor: Player) -> None:
    """Rule 4E4: a Player may cease to be a Player by Forfeiting, at any time."""
    actor = Player.get_by_id(actor.id)
    leave(ctx, actor, "forfeit", f"{actor.name} forfeits and is no longer a Player", "4E4")


# ----------------------------------------------------------------- addresses

_ADDRESS = re.compile(r"<?(?<![^\s<>@])([^\s<>@]++@[^\s<>@]+\.[^\s<>@.]++)>?")   # (starts where a run starts: linear)


def parse_address(text: str) -> str:
    m = _ADDRESS.fullmatch(text.strip().strip(".,;"))
    if not m or len(m.group(1)) > 254:       # RFC 5321's longest address
        raise Rejected(f"{text!r} is not a mail address", rule="4E4")
    return m.group(1).lower()


@action("add_address",
        frame("add|register|include|use|note|take note of|make a note of|record",   # "Please note my new address, ..."
              "name:email[the address|address|the e-mail address|e-mail address"
              "|email address|the email address]",
              also="address addresses e-mail email mail to my as an another a second new additional for entry record "
                   "me account list of too well i post from in the registrar's registrar display registry players"),
        frame("post from|write from|send mail from|mail from|post also from|also post from|be posting from"
              "|also be posting from|am posting from|am also posting from|will be posting from"
              "|will sometimes be posting from|will also be posting from|sometimes post from",
              "name:email", also="too well as now from on"),      # ("..., in case my server falls over")
        # "Registrar: please accept mail from dana@post.example as coming from me" (asked of
        # the Registrar, who keeps the addresses: the sender's own request all the same)
        frame("accept mail from|accept email from|accept e-mail from|accept messages from|accept posts from"
              "|treat mail from|treat email from|treat messages from|treat posts from|recognise|recognize"
              "|count mail from|count",
              "name:email", also="as coming from me mine my own valid too well also address addresses"),
        rule="4E4", example="I add the address wooble@home.example to my addresses",
        says="add the address {name}",
        not_actions=("I mostly post from home these days", "I added wooble@home.example last week",
                     "Wooble adds wooble@home.example to his addresses"))
def add_address(ctx: Context, actor: Player, name: str) -> None:
    """A Player may post from another address too. It must come from one of the
    Player's addresses, and the new one must never have been anyone's."""
    address = parse_address(name)
    owner = Address.get_or_none(Address.address == address)
    if owner is not None:
        whose = "yours already" if owner.player_id == actor.id else "another Player's"
        raise Rejected(f"the address {address} is {whose}", rule="4E4")
    Address.create(address=address, player=actor)
    ctx.record("address", f"{actor.name} may post from {address}", rule="4E4",
               player=actor.name, address=address)


@action("remove_address",
        frame("remove|drop|delete|unregister|stop using|retire|no longer use|am no longer using"
              "|no longer post from|am no longer posting from|stop posting from|will stop posting from",
              "name:email[the address|address"
              "|the e-mail address|e-mail address|email address|the email address]",
              also="address addresses e-mail email mail from my the list of account entry record display "
                   "registrar's registrar on in"),
        frame("take", "name:email[the address|address|the e-mail address|e-mail address|email address"
              "|the email address]", also="off out of from my the list account entry record display "
                                          "registrar's registrar addresses", needs="off|out"),
        rule="4E4", example="I remove the address wooble@old.example",
        says="remove the address {name}",
        not_actions=("I removed wooble@old.example yesterday", "Should I remove wooble@old.example?"))
def remove_address(ctx: Context, actor: Player, name: str) -> None:
    address = parse_address(name)
    row = Address.get_or_none(Address.address == address, Address.player == actor)
    if row is None:
        raise Rejected(f"{address} is not one of your addresses", rule="4E4")
    if actor.addresses.count() == 1:
        raise Rejected("that is your only address; add another first", rule="4E4")
    row.delete_instance()
    ctx.record("address", f"{actor.name} no longer posts from {address}", rule="4E4",
               player=actor.name, address=address)


# ------------------------------------------------- assertions (Rule 4E12)

def _named(ctx: Context, who: str) -> Player | None:
    key = name_key(who)
    if key in ("i", "me"):
        return actor_of(ctx)
    return Player.get_or_none(Player.name_key == key)


_IS = r"(?: is| am|['’]s|['’]m)(?P<neg> not|n['’]t)?"


@assertion("is_player", r"{player}" + _IS + r" a player", rule="4E4")
def is_player(ctx: Context, actor, player: str, neg: str | None = None) -> bool:
    p = _named(ctx, player)
    return (p is not None and p.is_player) != bool(neg)


@assertion("has_property", r"{player}" + _IS + r" (?P<prop>active|vested)", rule="4E28")
def has_property(ctx: Context, actor, player: str, prop: str, neg: str | None = None) -> bool:
    p = _named(ctx, player)
    if p is None or not p.is_player:
        raise Undecidable(f"there is no Player named {clean_name(player)!r}")
    return getattr(p, prop.lower()) != bool(neg)
