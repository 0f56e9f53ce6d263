"""Intents, objections and support: Rules 4E21 (Objecting) and 4E22 (Supporting).

An action a rule lets be done "without N objections" or "with N supporters"
(declared with `objections=`/`supporters=` in the registry) needs an announced
intent first: "I intend to X without objection". Players then object or
support, naming the intent or replying to its message; only each player's
latest stance counts, and nobody objects to or supports their own intent.

The windows, in counts of nday changes (readings in rulings.md): an intent
announced in nday D may be acted on
- without N objections: from the end of nday D+2 to the end of nday D+4,
  with fewer than N Players objecting (4E21);
- with N supporters: within 2 ndays after the Nth support, which must come
  by the end of nday D+2 (4E22);
- when the rule sets its own waiting time ("no objection in two rdays"):
  after that time, and for 2 ndays following it (4E21).
"""
from __future__ import annotations

import re

from ..store import Game, Intent, Player, Stance
from . import durations, grammar
from .context import Context, Rejected
from .players import find_player, name_key
from .registry import ActionSpec, action, action_named, deadline

_WITHIN = r"(?:\s++(?:in|within|after)\s++(?:\w++\s++)?(?:r?days?|ndays?|jiffy|jiffies))?"
_CONDITIONS = re.compile(
    r"^(?P<action>.*?[^\s,])(?P<cond>(?:[\s,]++(?:and\s++|but\s++)?(?:(?:without|with\s++no)\s++(?:\w++\s++)?"
    r"objections?|with\s++(?:\w++\s++)?(?:supporters?|supports?))" + _WITHIN + r")+)$", re.I)
_WITHOUT = re.compile(r"(?:without|with\s+no)\s+(?:(?P<n>\w+)\s+)?objections?", re.I)
_WITH = re.compile(r"with\s+(?:(?P<n>\w+)\s+)?(?:supporters?|supports?)", re.I)


# an intent says how the action is to be done; "I intend to be away next week" is talk
_SAYS_HOW = r"(?=.*\b(?:objections?|support(?:ers?|s)?)\b)"
# what a stance names: an intent (find_intent), or "this", the message replied to
_AN_INTENT = r"(?=.*(?:#\s*\d|\bintent|\bplan\b))"
_THIS = r"(?: (?:to |against |for )?(?:this|that|it|the above)(?: intent(?:ion)?| one| action)?)?"


def _count(word: str | None) -> int | None:
    if word is None or word.lower() in ("a", "any", "no"):
        return 1
    return grammar.number(word)


def normalise_args(args: dict) -> dict:
    return {k: name_key(str(v)) for k, v in sorted(args.items())}


# ------------------------------------------------------------------ announce

@action("intend",
        r"i (?:hereby )?(?:intend|plan|announce (?:my|an) intent(?:ion)?) to " + _SAYS_HOW + "{name:rest}",
        rule="4E21", example="I intend to cause the Beast to give m5 to Wooble without objection",
        keywords=("intend", "intent", "intention"))
def intend(ctx: Context, actor: Player, rest: str, document: str | None = None) -> Intent:
    """Rules 4E21, 4E22: announce the intention to perform an action that must be
    done without N objections or with N supporters."""
    m = _CONDITIONS.match(rest.strip())
    if not m:
        raise Rejected('say how the action is to be done: "without objection", "without 2 '
                       'objections", "with support", "with 3 supporters"', rule="4E21")
    objections = supporters = None
    for c in _WITHOUT.finditer(m.group("cond")):
        objections = _count(c.group("n"))
    for c in _WITH.finditer(m.group("cond")):
        supporters = _count(c.group("n"))
    found = grammar.match_action("I " + m.group("action").strip())
    if not found:
        raise Rejected(f"I cannot tell which action you intend: {m.group('action')!r}", rule="4E21")
    spec, args = found
    if not spec.needs_intent:
        raise Rejected(f"{spec.name.replace('_', ' ')} needs no announced intent "
                       f"(Rule {spec.rule}): just do it", rule="4E21")
    if (objections, supporters) != (spec.objections, spec.supporters):
        raise Rejected(f"Rule {spec.rule} has this done {requirement(spec)}; announce it so",
                       rule=spec.rule)
    if spec.takes_document:
        args = {**args, "document": ctx.post.text if ctx.post else ""}    # Rule 4E8
    elif spec.document:
        args = {**args, "document": document or ""}     # the document written after it
    game = ctx.game
    intent = Intent.create(author=actor, text=m.group("action").strip(), action=spec.name,
                           args=args, objections=objections, supporters=supporters,
                           announced_at=ctx.at, announced_count=game.nday_changes,
                           message_id=ctx.post.message_id if ctx.post else None, entry=ctx.entry)
    if spec.waiting and durations.parse(spec.waiting)[1] in ("rdays", "jiffies"):
        due = durations.due_after(ctx, spec.waiting)
        intent.opens_at = due.at
        intent.save()
        durations.schedule(ctx, due, "intent_opens", spec.rule, intent=intent.id)
    ctx.record("intent", f"{actor.name} intends to {intent.text} {requirement(spec)} "
               f"(intent #{intent.id})", rule="4E22" if supporters and not objections else "4E21",
               intent=intent.id, player=actor.name, action=spec.name)
    ctx.notes.append(f"intent #{intent.id}")
    return intent


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def requirement(spec: ActionSpec) -> str:
    parts = []
    if spec.supporters:
        parts.append("with support" if spec.supporters == 1 else f"with {spec.supporters} supporters")
    if spec.objections:
        parts.append("without objection" if spec.objections == 1
                     else f"without {spec.objections} objections")
    text = " and ".join(parts)
    return f"{text} in {spec.waiting}" if spec.waiting else text


@deadline("intent_opens")
def intent_opens(ctx: Context, intent: int) -> None:
    """Rule 4E21: a rule's own waiting time is over; the two ndays to act begin."""
    row = Intent.get_or_none(Intent.id == intent)
    if row is not None:
        row.opened_count = ctx.game.nday_changes
        row.save()
        ctx.record("intent", f"intent #{row.id} may now be acted on, for 2 ndays", rule="4E21",
                   intent=row.id)


# ------------------------------------------------------ objecting, supporting

def find_intent(ctx: Context, target: str | None) -> Intent:
    """The intent a stance names ('intent #3', "Wooble's intent to ...", 'the
    intent to ...'), or the one whose announcement this post replies to."""
    q = Intent.select().where(Intent.state == "open")
    if target:
        t = target.strip()
        m = re.search(r"#\s*(\d+)|\bintent(?:ion)?\s+(?:number\s+|no\.?\s*)?(\d+)\b", t, re.I)
        if m:
            found = q.where(Intent.id == int(m.group(1) or m.group(2))).first()
            if found:
                return found
            raise Rejected(f"there is no open intent #{m.group(1) or m.group(2)}", rule="4E21")
        m = re.match(r"^(?:(?P<who>.+?)['’]s\s+)?(?:the\s+|an?\s+)?(?:intent(?:ion)?|plan)\s+to\s+(?P<what>.+)$", t, re.I)
        if m:
            found = grammar.match_action("I " + m.group("what"))
            candidates = list(q.order_by(Intent.id))
            if m.group("who"):
                author = find_player(ctx, m.group("who"), "4E21")
                candidates = [i for i in candidates if i.author_id == author.id]
            if found:
                spec, args = found
                same = [i for i in candidates if i.action == spec.name
                        and normalise_args(i.args) == normalise_args(args)]
                candidates = same or [i for i in candidates if i.action == spec.name]
            if len(candidates) == 1:
                return candidates[0]
            if candidates:
                raise Rejected(f"that names {len(candidates)} open intents: say which, e.g. "
                               f"intent #{candidates[0].id}", rule="4E21")
            raise Rejected(f"there is no open intent matching {t!r}", rule="4E21")
        raise Rejected(f"I cannot tell which intent {t!r} means; say e.g. 'intent #3'", rule="4E21")
    post = ctx.post
    for mid in ([post.in_reply_to] if post and post.in_reply_to else []) + list(reversed(post.references if post else ())):
        found = q.where(Intent.message_id == mid).first()
        if found:
            return found
    raise Rejected("name the intent (e.g. 'I object to intent #3') or reply to the message "
                   "that announced it", rule="4E21")


def take_stance(ctx: Context, actor: Player, target: str | None, stance: str, rule: str) -> None:
    intent = find_intent(ctx, target)
    if intent.author_id == actor.id and stance != "none":
        verb = "object to" if stance == "object" else "support"
        raise Rejected(f"a Player may not {verb} an action they attempt to perform", rule=rule)
    Stance.create(intent=intent, player=actor, stance=stance, at=ctx.at,
                  count=ctx.game.nday_changes)
    words = {"object": "objects to", "support": "supports", "none": "withdraws their stance on"}
    ctx.record("stance", f"{actor.name} {words[stance]} intent #{intent.id} "
               f"({intent.author.name}'s intent to {intent.text})", rule=rule,
               intent=intent.id, player=actor.name, stance=stance)


@action("object",
        r"i object" + _THIS,
        r"i object (?:to|against) " + _AN_INTENT + "{name:target}",
        rule="4E21", example="I object to Wooble's intent to cause the Beast to forfeit",
        keywords=("object", "objection"))
def object_(ctx: Context, actor: Player, target: str | None = None) -> None:
    """Rule 4E21: Objecting is a Game Action."""
    take_stance(ctx, actor, target, "object", "4E21")


@action("support",
        r"i support" + _THIS,
        r"i support " + _AN_INTENT + "{name:target}",
        rule="4E22", example="I support intent #3", keywords=("support",))
def support(ctx: Context, actor: Player, target: str | None = None) -> None:
    """Rule 4E22: Supporting is a Game Action."""
    take_stance(ctx, actor, target, "support", "4E22")


@action("withdraw_stance",
        r"i (?:withdraw|retract) my (?:objection|support)(?: (?:to|for|of|from|on) {name:target})?",
        rule="4E21", example="I withdraw my objection to intent #3", keywords=("withdraw", "retract"))
def withdraw_stance(ctx: Context, actor: Player, target: str | None = None) -> None:
    """Rules 4E21, 4E22: only a player's latest stance counts; this one is none."""
    take_stance(ctx, actor, target, "none", "4E21")


@action("withdraw_intent",
        r"i (?:withdraw|abandon|cancel) my (?:intent(?:ion)?|plan) (?:#\s*)?{number}",
        r"i (?:withdraw|abandon|cancel) my (?:intent(?:ion)?|plan) to {name:what}",
        rule="4E21", example="I withdraw my intent #3", keywords=("withdraw", "intent"))
def withdraw_intent(ctx: Context, actor: Player, number: str | None = None,
                    what: str | None = None) -> None:
    intent = find_intent(ctx, f"#{number.lstrip('#')}" if number else f"intent to {what}")
    if intent.author_id != actor.id:
        raise Rejected(f"intent #{intent.id} is {intent.author.name}'s, not yours", rule="4E21")
    intent.state = "withdrawn"
    intent.save()
    ctx.record("intent", f"{actor.name} withdraws intent #{intent.id}", rule="4E21",
               intent=intent.id)


# ---------------------------------------------------------------- the windows

def latest_stances(intent: Intent, until=None) -> dict[int, Stance]:
    latest = {}
    for s in intent.stances.order_by(Stance.id):
        if until is None or s.at <= until:
            latest[s.player_id] = s
    return latest


def objectors(intent: Intent) -> list[int]:
    return [p for p, s in latest_stances(intent).items() if s.stance == "object"]


def support_reached(intent: Intent, until=None) -> Stance | None:
    """The stance that brought support to N (counting latest stances), if any."""
    latest = {}
    for s in intent.stances.order_by(Stance.id):
        if until is not None and s.at > until:
            break
        latest[s.player_id] = s.stance
        if sum(v == "support" for v in latest.values()) >= intent.supporters:
            return s
    return None


def window_problem(ctx: Context, intent: Intent, spec: ActionSpec) -> str | None:
    """Why the intended action may not be performed now, or None if it may."""
    c, c0 = ctx.game.nday_changes, intent.announced_count
    waiting = durations.parse(spec.waiting) if spec.waiting else None
    absolute = waiting is not None and waiting[1] in ("rdays", "jiffies")
    if absolute:
        if ctx.at < intent.opens_at:
            return f"it may be done only after {spec.waiting} (from {durations.Due(at=intent.opens_at).describe()})"
        if intent.opened_count is None or c > intent.opened_count + 2:
            return f"the 2 ndays to do it after the {spec.waiting} have passed"
    if intent.objections:
        if not absolute:
            w = waiting[0] if waiting else 2
            if c < c0 + w + 1:
                return (f"it may be done only from the end of the {ordinal(w)} nday after the nday of the "
                        f"intent ({c0 + w + 1 - c} more nday change{'s' if c0 + w + 1 - c != 1 else ''} to go)")
            if c > c0 + w + 2:
                return f"the time to do it ended with the {ordinal(w + 2)} nday after the nday of the intent"
        n = len(objectors(intent))
        if n >= intent.objections:
            return (f"{n} Player{'s' if n != 1 else ''} object{'s' if n == 1 else ''}; it needed "
                    f"fewer than {intent.objections}")
    if intent.supporters:
        reached = support_reached(intent, until=intent.opens_at if absolute else None)
        now_support = sum(s.stance == "support" for s in latest_stances(intent).values())
        late = f"it did not receive {intent.supporters} supporter{'s' if intent.supporters != 1 else ''} " \
               f"within 2 ndays of the nday of the intent"
        if reached is None:
            if not absolute and c <= c0 + 2:
                return f"only {now_support} Players support it so far; it needs {intent.supporters}"
            return late
        if not absolute and reached.count > c0 + 2:
            return late
        if now_support < intent.supporters:
            return f"only {now_support} Players support it now; it needs {intent.supporters}"
        if not absolute and c > reached.count + 2:
            return "the 2 ndays to do it after the last needed support have passed"
    return None


def authorize(ctx: Context, actor: Player | None, spec: ActionSpec, args: dict) -> Intent:
    """The announced intent under which `actor` may do this action now, or Rejected."""
    rule = "4E22" if spec.supporters and not spec.objections else "4E21"
    if actor is None:
        raise Rejected("only a Player who announced the intent can do this", rule=rule)
    mine = list(Intent.select().where(Intent.author == actor, Intent.action == spec.name,
                                      Intent.state == "open").order_by(Intent.id))
    wanted = normalise_args(args)
    same = [i for i in mine
            if normalise_args({k: v for k, v in i.args.items() if k != "document"}) == wanted]
    reply = ctx.post.in_reply_to if ctx.post else ""
    chosen = (same or [i for i in mine if reply and i.message_id == reply] or
              (mine if len(mine) == 1 else []))
    if not chosen:
        raise Rejected(f"Rule {spec.rule} has this done {requirement(spec)}: announce it first "
                       f'("I intend to {spec.example[2:]} {requirement(spec)}")', rule=rule)
    problems = []
    for intent in chosen:
        problem = window_problem(ctx, intent, spec)
        if problem is None:
            return intent
        problems.append(f"intent #{intent.id}: {problem}")
    raise Rejected("; ".join(problems), rule=spec.rule if spec.waiting else rule)


def performed(ctx: Context, intent: Intent) -> None:
    intent.state = "performed"
    intent.save()
    ctx.record("intent", f"intent #{intent.id} carried out: {intent.author.name} {intent.text}",
               rule="4E21", intent=intent.id, nweek=ctx.game.nweek)


def open_intents():
    return Intent.select().where(Intent.state == "open").order_by(Intent.id)


def describe_window(intent: Intent, game: Game) -> str:
    """For the Doctor's schedule: when this intent may be acted on."""
    spec = action_named(intent.action)
    c0 = intent.announced_count
    parts = []
    if spec.waiting and durations.parse(spec.waiting)[1] in ("rdays", "jiffies"):
        parts.append(f"from {durations.Due(at=intent.opens_at).describe()} for 2 ndays")
    elif intent.objections:
        w = durations.parse(spec.waiting)[0] if spec.waiting else 2
        parts.append(f"after {max(0, c0 + w + 1 - game.nday_changes)} more nday change(s), "
                     f"for 2 ndays")
    if intent.objections:
        parts.append(f"{len(objectors(intent))} objection(s), fewer than {intent.objections} needed")
    if intent.supporters:
        now_support = sum(s.stance == "support" for s in latest_stances(intent).values())
        parts.append(f"{now_support} of {intent.supporters} supporter(s)")
    return "; ".join(parts)
