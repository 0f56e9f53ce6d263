"""Small changes made without objection, in the change language (changes.py):
Tweaks (Rule 4E77), Tidiness Lists (Rule 4E32), and the Rulekeeper's
retitling of a Rule (Rule 4E36)."""
from __future__ import annotations

from ..store import Intent, Player, Tweak
from . import changes
from .context import Context, Rejected
from .economy import credit
from .frames import frame
from .ministries import require_minister
from .players import name_key
from .registry import action

# ------------------------------------------------------------------ Tweaks


@action("submit_tweak",
        # Rule 4E77: "A Player may submit a single Tweak per nweek" (the document after it)
        frame("submit|make|post|propose|file|enter|present|offer|write",
              also="tweak following new below", needs="tweak"),
        rule="4E77", example="I submit the following Tweak: Set A Few to 5 END TWEAK",
        says="submit a Tweak", document="tweak", document_needed=True,
        not_actions=("I submitted a Tweak yesterday", "Wooble submits a Tweak",
                     "Should I submit a Tweak?"))
def submit_tweak(ctx: Context, actor: Player, document: str = "") -> None:
    """Rule 4E77: a Player may submit a single Tweak per nweek; it cannot be revised."""
    nweek = ctx.game.nweek
    if Tweak.select().where(Tweak.author == actor, Tweak.nweek == nweek).exists():
        raise Rejected("you have submitted a Tweak this nweek already", rule="4E77")
    if not document.strip():
        raise Rejected("write the Tweak's changes after the sentence, ending with END TWEAK",
                       rule="4E77")
    t = Tweak.create(author=actor, body=document.strip(),
                     nweek=nweek, at=ctx.at)
    ctx.record("tweak", f"{actor.name} submits Tweak {t.id}", rule="4E77", tweak=t.id,
               player=actor.name)
    ctx.notes.append(f"Tweak {t.id}: activate it without objection (announce the intent first)")


def _tweak(ctx: Context, actor: Player, number: str | None) -> Tweak:
    """The Tweak named by its number, or as the reader hands on words it could not
    resolve: "mine" or "this" (the actor's last), "of Bob" (Bob's last); none: the actor's last."""
    if number and number.startswith("of "):
        author = Player.get_or_none(Player.name_key == name_key(number[3:]))
        t = Tweak.select().where(Tweak.author == author).order_by(Tweak.id.desc()).first() \
            if author is not None else None
        if t is None:
            raise Rejected(f"{number[3:]} has submitted no Tweak", rule="4E77")
        return t
    if number in ("mine", "this"):
        number = None
    if number:
        t = Tweak.get_or_none(Tweak.id == int(number.lstrip("#")) if number.lstrip("#").isdigit() else -1)
        if t is None:
            raise Rejected(f"there is no Tweak {number}", rule="4E77")
        return t
    t = Tweak.select().where(Tweak.author == actor).order_by(Tweak.id.desc()).first()
    if t is None:
        raise Rejected("you have submitted no Tweak", rule="4E77")
    return t


def _attempted(ctx: Context, actor: Player | None, number: str | None = None) -> None:
    """Rule 4E77: an attempt counts even when it fails (objections, say): an
    attempt made after announcing the intent to Activate (docs/readings.md)."""
    if actor is None or not Intent.select().where(Intent.author == actor,
                                                   Intent.action == "activate_tweak").exists():
        return
    try:
        t = _tweak(ctx, actor, number)
    except Rejected:
        return
    if actor is not None and t.author_id == actor.id and t.state == "submitted":
        t.state = "attempted"
        t.save()
        ctx.record("tweak", f"{actor.name}'s attempt to Activate Tweak {t.id} failed; it cannot be "
                   "Activated now", rule="4E77", tweak=t.id)


@action("activate_tweak",
        # Rule 4E77: "As a Game Action without Objection, a Player can Activate a Tweak he
        # submitted" (no number: the actor's last Tweak)
        frame("activate|enact|apply|trigger|invoke|put into effect", "number:tweak?",
              also="tweak", needs="tweak"),
        rule="4E77", example="I activate Tweak 3", says="activate Tweak {number}",
        not_actions=("I activated my Tweak", "Wooble activates Tweak 3", "Should I activate Tweak 3?"),
        objections=1, attempted=_attempted)
def activate_tweak(ctx: Context, actor: Player, number: str | None = None) -> None:
    """Rule 4E77: as a Game Action without Objection, a Player can Activate a Tweak
    he submitted in the current or previous nweek, if he has not attempted it
    before; its changes take effect."""
    t = _tweak(ctx, actor, number)
    if t.author_id != actor.id:
        raise Rejected(f"Tweak {t.id} is {t.author.name}'s; only its author may Activate it", rule="4E77")
    if t.state != "submitted":
        raise Rejected(f"Tweak {t.id} was already {t.state}: it can be Activated once, if never "
                       "attempted before", rule="4E77")
    if t.nweek < ctx.game.nweek - 1:
        raise Rejected(f"Tweak {t.id} was submitted in nweek {t.nweek}; only one of this or the "
                       "previous nweek can be Activated", rule="4E77")
    parsed = changes.parse(t.body)
    if parsed.prose:
        raise Rejected("bnomic can make only the change language's changes; this Tweak also says: "
                       + " | ".join(parsed.prose)[:300], rule="4E77")
    done = changes.apply_all_or_nothing(ctx, parsed.changes, source=f"Tweak {t.id}", rule="4E77")
    failed = [a for a in done if not a.ok]
    if failed:
        raise Rejected("; ".join(a.summary for a in failed)[:500], rule="4E77")
    t.state = "activated"
    t.save()
    ctx.record("tweak", f"{actor.name} Activates Tweak {t.id}: " + "; ".join(a.summary for a in done),
               rule="4E77", tweak=t.id)


# ------------------------------------------------------------ Tidiness Lists

@action("submit_tidiness_list",
        # Rule 4E32: "any Player may as a Game Action and without objection correct these
        # errors by submitting a Tidiness List" (the document after it)
        frame("submit|make|post|file|enter|present|offer|write",
              also="tidiness list following new below", needs="tidiness"),
        rule="4E32", example='I intend to submit the following Tidiness List without objection: '
                             'In Rule 4E30, replace "recieve" with "receive" END LIST',
        # (no document_needed: done on its intent, its document is the one announced with it)
        says="submit a Tidiness List", document="tidiness list", objections=1, waiting="2 ndays",
        not_actions=("I submitted a Tidiness List", "Wooble submits a Tidiness List",
                     "Should I submit a Tidiness List?"))
def submit_tidiness_list(ctx: Context, actor: Player, document: str = "") -> None:
    """Rule 4E32: without objection (within two ndays) any Player may correct
    trivial errors in the Rules by submitting a Tidiness List; he gains a point
    for every three errors corrected."""
    text = (ctx.intent.args.get("document") if ctx.intent else None) or document
    parsed = changes.parse(text)
    others = [c.text for c in parsed.changes if c.kind != "replace_text"] + parsed.prose
    if others:
        raise Rejected("a Tidiness List only corrects the Rules' text "
                       '(In Rule 4E30, replace "recieve" with "receive"); it also says: '
                       + " | ".join(others)[:300], rule="4E32")
    if not parsed.changes:
        raise Rejected("the Tidiness List lists no corrections", rule="4E32")
    done = changes.apply_all_or_nothing(ctx, parsed.changes, source=f"{actor.name}'s Tidiness List",
                                        rule="4E32")
    failed = [a for a in done if not a.ok]
    if failed:
        raise Rejected("; ".join(a.summary for a in failed)[:500], rule="4E32")
    corrected = changes.count_corrections(parsed.changes)
    ctx.record("tidiness", f"{actor.name}'s Tidiness List corrects {corrected} errors", rule="4E32",
               player=actor.name, corrections=corrected)
    per_point = ctx.config.owned("tweaks.corrections_per_point")
    if corrected // per_point:
        credit(ctx, Player.get_by_id(actor.id), "points", corrected // per_point, "4E32",
               f"{corrected} errors corrected by a Tidiness List")


# --------------------------------------------------------- the Rulekeeper

@action("retitle_rule",
        # Rule 4E36: "The Rulekeeper may, as a Game Action without Objection, change a Rule's Title"
        frame("retitle|rename|re-title|re-name", "number:rule", "title:text[to|as|into]"),
        frame("change|set|alter|update|amend", "number:rule[of|the title of|title of|the name of|name of]",
              "title:text[to|as|into]", also="title name", needs="title"),
        rule="4E36", example='I retitle Rule 4E9 to "Eras"', says="retitle Rule {number} to {title}",
        objections=1,
        not_actions=("I retitled Rule 4E9 to Eras", "The Rulekeeper retitles Rule 4E9 to Eras",
                     "Should I retitle Rule 4E9 to Eras?"))
def retitle(ctx: Context, actor: Player, number: str, title: str) -> None:
    """Rule 4E36: the Rulekeeper may, as a Game Action without Objection, change a Rule's Title."""
    require_minister(ctx, actor, "Law", "4E36", "only the Rulekeeper may retitle a Rule")
    n = number.upper().removeprefix("4E")
    if not n.isdigit():
        raise Rejected(f"{number!r} is not a Rule number", rule="4E36")
    change = changes.Change("retitle_rule", {"number": int(n), "title": title.strip().strip('"“”')},
                            f"Retitle Rule 4E{n}")
    (done,) = changes.apply(ctx, [change], source=f"the Rulekeeper ({actor.name})", rule="4E36")
    if not done.ok:
        raise Rejected(done.summary, rule="4E36")
