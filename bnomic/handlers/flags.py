"""The Threat Awareness Flagpole (Rule 4E40) and the Message Of The nweek (4E39)."""
from __future__ import annotations

from ..store import Player
from .context import Context, Rejected
from .ministries import require_minister
from .frames import frame, role
from .registry import action

FLAGS = ["Pink Ponies", "Polka Dots", "Setting Orange", "Jolly Roger", "Black Watch Plaid"]
MEANINGS = {
    "Pink Ponies": "None (Nothing to see here, move along)",
    "Polka Dots": "Low (Strange things are afoot at the Circle B)",
    "Setting Orange": "Moderate (Something is rotten in the state of B)",
    "Jolly Roger": "High (Find a helmet)",
    "Black Watch Plaid": "Imminent (Put on the helmet)",
}


def flag_named(text: str) -> str | None:
    """The Flag a value names: in full ("Setting Orange"), or by words of one Flag only
    ("orange"; "pink" is Pink Ponies, "hot pink" no Flag)."""
    t = " ".join(text.lower().replace("flag", "").split()).strip(" .!\"'")
    t = t[4:] if t.startswith("the ") else t
    exact = next((f for f in FLAGS if f.lower() == t), None)
    if exact is not None or not t:
        return exact
    said = set(t.split())
    fitting = [f for f in FLAGS if said <= set(f.lower().split())]
    return fitting[0] if len(fitting) == 1 else None


def _flag_words() -> dict[str, str]:
    """Each Flag by its name, and by each word of its name no other Flag has ("orange")."""
    out = {f.lower(): f for f in FLAGS}
    for f in FLAGS:
        for w in f.lower().split():
            if sum(w in g.lower().split() for g in FLAGS) == 1 and w not in ("setting", "black", "watch"):
                out.setdefault(w, f)
    return out


_FLAG = role("flag:choice[to|as]", _flag_words())
_SET = "set|change|update|switch|move|put"


@action("hoist_flag",
        # Rule 4E40: "hoisting the X flag" is "setting the Threat Flag value to X"
        frame("hoist|raise|fly|run up|put up|hoisting|raising|flying", _FLAG,
              also="flag threat flagpole up on the pole", openers="hoisting|now hoisting|raising|flying"),
        frame("|".join(f"{v} {w}" for v in _SET.split("|")
                       for w in ("the threat flag", "the threat flag value", "the threat awareness flag",
                                 "the flag", "the value of the threat flag", "threat flag",
                                 "the threat flag's value", "the threat level")), _FLAG, also="value"),
        # (the rule's own words with a value no Flag has, "hoisting the Fluffy Kittens flag", or
        # one in quotes: read, so that the handler can say which values there are)
        frame("hoist the|hoisting the", "flag:text", also="flag", needs="flag"),
        frame("|".join(f"{v} the threat flag" for v in _SET.split("|")), "flag:text[to|as]"),
        rule="4E40", example="I hoist the Jolly Roger", says="hoist {flag}",
        not_actions=("I hoisted the Jolly Roger yesterday", "Wooble hoists the Pink Ponies",
                     "I raise the question of the flag", "Should I hoist the Jolly Roger?"))
def hoist(ctx: Context, actor: Player, flag: str) -> None:
    """Rule 4E40: the MoM may set the Threat Flag to Pink Ponies, Polka Dots,
    Setting Orange or Jolly Roger, not more than once per nday."""
    value = flag_named(flag)
    if value is None:
        raise Rejected(f"{flag!r} is not a Threat Flag ({', '.join(FLAGS[:4])})", rule="4E40")
    require_minister(ctx, actor, "Ministry", "4E40",
                     "only the Minister of Ministries may change the Threat Flag")
    if value == "Black Watch Plaid":
        raise Rejected("Black Watch Plaid flies only in a State of Emergency", rule="4E40")
    game = ctx.game
    if game.flag_changed_count == game.nday_changes:
        raise Rejected("the Threat Flag was already changed this nday", rule="4E40")
    before = game.threat_flag
    game.threat_flag, game.flag_changed_count = value, game.nday_changes
    game.save()
    ctx.record("flag", f"{actor.name} hoists {value} (was {before}): {MEANINGS[value]}",
               rule="4E40", before=before, after=value)


@action("change_motnw",
        # Rule 4E39: the Registrar, with Support, "may change the value of the motnw Message"
        frame("|".join(f"{v} {w}" for v in ("change", "set", "update", "alter", "replace", "make")
                       for w in ("the message of the nweek", "the motnw", "the motnw message",
                                 "the message of the motnw", "the motnw's message", "motnw",
                                 "the message of the nweek's message", "the value of the motnw message",
                                 "the motnw message attribute", "the message")),
              "message:text[to|to read|so that it reads|to say|:]"),
        rule="4E39", example='I change the Message of the nweek to "Hello"', says='change the motnw to "{message}"',
        supporters=1,
        not_actions=("I changed the Message of the nweek yesterday",
                     'Wooble changes the motnw to "Hi"', "Should I change the motnw?"))
def change_motnw(ctx: Context, actor: Player, message: str) -> None:
    """Rule 4E39: the Registrar, as a Game Action with Support, may change the
    Message (1 to 256 characters), at most once in an nweek."""
    require_minister(ctx, actor, "Society", "4E39",
                     "only the Registrar may change the Message of the nweek")
    text = message.strip().strip('"“”')
    longest = ctx.config.owned("flags.message_length")
    if not 1 <= len(text) <= longest:
        raise Rejected(f"the Message is 1 to {longest} characters", rule="4E39")
    game = ctx.game
    if game.motnw_changed_nweek == game.nweek:
        raise Rejected("the Message was already changed this nweek", rule="4E39")
    before = game.motnw
    game.motnw, game.motnw_changed_nweek = text, game.nweek
    game.save()
    ctx.record("motnw", f"{actor.name} sets the Message of the nweek: {text!r}", rule="4E39",
               before=before, after=text)
