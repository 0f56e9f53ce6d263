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
from dataclasses import replace

from ..store import Game, Intent, Player, Stance
from . import durations, grammar
from .context import Context, Rejected
from .frames import frame, role
from .players import find_player, name_key
from .registry import ActionSpec, action, action_named, deadline

# "<action> without objection", "<action>, with 2 supporters and without objection" (4E21, 4E22)
_CONDITIONS = grammar.INTENT_METHOD
# (Rule 4E50's own words: "with 4 Support and no Objections")
_WITHOUT = re.compile(r"(?:without|with\s+no|(?<![\w-])no)\s+(?:(?P<n>\w+)\s+)?objections?", re.I)
_WITH = re.compile(r"with\s+(?:(?P<n>\w+)\s+)?(?:supporters?|supports?)", re.I)


def _count(word: str | None) -> int | None:
    if word is None or word.lower() in ("a", "any", "no"):
        return 1
    return grammar.number(word)


def normalise_args(args: dict) -> dict:
    return {k: name_key(str(v)) for k, v in sorted(args.items())}


# ------------------------------------------------------------------ announce

@action("intend",
        # Rules 4E21, 4E22: "a Player must first announce his intention to perform that action"
        # and say how: "without N objections", "with N supporters" (the handler reads them)
        frame("intend|plan|announce my intent|announce my intention|announce an intent|announce an intention"
              "|announce the intent|announce the intention|hereby announce my intent|give notice of my intent"
              "|give notice of my intention|state my intent|state my intention|declare my intent"
              "|declare my intention|announce that i intend|announce that i will|announce",
              "rest:clause[to|that i will|i will]",
              needs="objection|objections|support|supporters|supports|supporter"),
        rule="4E21", example="I intend to cause the Beast to give m5 to Wooble without objection",
        says="intend to {rest}",
        not_actions=("I plan to be away next week", "I intended to cause the Beast to forfeit",
                     "Wooble intends to cause the Beast to forfeit without objection",
                     "Do I intend to cause the Beast to forfeit without objection?"))
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
    spec = terms(ctx, spec)
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


def terms(ctx: Context, spec: ActionSpec) -> ActionSpec:
    """The action's 4E21/4E22 terms as numbers: an N declared as a configuration
    key (invariant 7: "with 4 Support" of 4E50 is the game's) read from the game."""
    def number(n):
        return ctx.config.owned(n) if isinstance(n, str) else n
    return replace(spec, objections=number(spec.objections), supporters=number(spec.supporters))


def requirement(spec: ActionSpec) -> str:
    text = spec.method
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

def find_intent(ctx: Context, target: str | None, by: str | None = None, what: str | None = None,
                actor: Player | None = None) -> Intent:
    """The intent a stance names, or the one whose announcement this post replies to.
    `target` is as the reader gives it: a number ("3"), "this" (the message replied
    to), "mine", "of Wooble", or words as written ("intent #3", "Wooble's intent to
    ..."); `by` its author; `what` the action it announced ("cause the Beast to forfeit")."""
    q = Intent.select().where(Intent.state == "open")
    t = (target or "").strip()
    if t.isdigit() or re.fullmatch(r"#\s*\d+", t):
        wanted = int(t.lstrip("#").strip())
        found = q.where(Intent.id == wanted).first()
        if found:
            return found
        raise Rejected(f"there is no open intent #{wanted}", rule="4E21")
    who = by
    if t == "mine":
        who = actor.name if actor is not None else None
        if who is None:
            raise Rejected("only a Player has intents", rule="4E21")
    elif t.startswith("of "):
        who = t[3:]
    elif t and t != "this":
        m = re.search(r"#\s*(\d+)|\bintent(?:ion)?\s+(?:number\s+|no\.?\s*)?(\d+)\b", t, re.I)
        if m:
            return find_intent(ctx, m.group(1) or m.group(2))
        m = re.match(r"^(?:(?P<who>.+?)['’]s\s+)?(?:the\s+|an?\s+)?(?:intent(?:ion)?|plan)\s+to\s+(?P<what>.+)$",
                     t, re.I)
        if not m:
            raise Rejected(f"I cannot tell which intent {t!r} means; say e.g. 'intent #3'", rule="4E21")
        who, what = m.group("who") or who, m.group("what")
    if what and re.search(r"#\s*\d", what):          # "to #3, the Beast has done enough"
        return find_intent(ctx, re.search(r"#\s*(\d+)", what).group(1))
    if who or what or t == "mine":
        candidates = list(q.order_by(Intent.id))
        if who:
            author = find_player(ctx, who, "4E21")
            candidates = [i for i in candidates if i.author_id == author.id]
        if what:
            found = grammar.match_action("I " + what)
            if found:
                spec, args = found
                same = [i for i in candidates if i.action == spec.name
                        and normalise_args(i.args) == normalise_args(args)]
                candidates = same or [i for i in candidates if i.action == spec.name]
            elif not who:
                raise Rejected(f"I cannot tell which action {what!r} is; name the intent, "
                               "e.g. 'intent #3'", rule="4E21")
        if len(candidates) == 1:
            return candidates[0]
        if candidates:
            raise Rejected(f"that names {len(candidates)} open intents: say which, e.g. "
                           f"intent #{candidates[0].id}", rule="4E21")
        said = " ".join(x for x in (f"{who}'s" if who else "", f"intent to {what}" if what else "intent") if x)
        raise Rejected(f"there is no open intent matching {said!r}", rule="4E21")
    post = ctx.post
    for mid in ([post.in_reply_to] if post and post.in_reply_to else []) + list(reversed(post.references if post else ())):
        found = q.where(Intent.message_id == mid).first()
        if found:
            return found
    raise Rejected("name the intent (e.g. 'I object to intent #3') or reply to the message "
                   "that announced it", rule="4E21")


def take_stance(ctx: Context, actor: Player, target: str | None, stance: str, rule: str,
                what: str | None = None) -> None:
    intent = find_intent(ctx, target, what=what, actor=actor)
    if intent.author_id == actor.id and stance != "none":
        verb = "object to" if stance == "object" else "support"
        raise Rejected(f"a Player may not {verb} an action they attempt to perform", rule=rule)
    Stance.create(intent=intent, player=actor, stance=stance, at=ctx.at,
                  count=ctx.game.nday_changes)
    words = {"object": "objects to", "support": "supports", "none": "withdraws their stance on"}
    ctx.record("stance", f"{actor.name} {words[stance]} intent #{intent.id} "
               f"({intent.author.name}'s intent to {intent.text})", rule=rule,
               intent=intent.id, player=actor.name, stance=stance)


# Which intent a stance names: a number ("intent #3", "#3"), "this intent" (the message
# replied to), "my intent", "Bob's intent" ("of Bob"), and what it announced ("the intent
# to X"); the handler finds it (find_intent).
# "I object to all current intents": each intent still open (grammar._every_intent)
_TARGET = role("target:intent?", {**{w: "all" for w in (
    "all current intents", "all open intents", "all the open intents", "all pending intents", "all intents",
    "all the intents", "both open intents", "both intents", "both the intents", "every intent",
    "every open intent", "every current intent", "each open intent", "each intent", "every outstanding intent",
    "all outstanding intents", "every pending intent", "all intents currently pending",
    "every intent currently outstanding", "all intents currently outstanding", "every intent currently open",
    "every intent currently pending", "all intents currently open", "every open intent currently pending",
    "all pending intents", "every intent now open", "all the pending intents", "all the current intents",
    "all of them")}, **{w: "both" for w in (
    "both", "both of them", "both pending intents", "both the pending intents", "both current intents",
    "both outstanding intents", "both of the intents", "both the intents", "both intents currently outstanding",
    "both intents currently pending", "both intents currently open")},
    # "both of the outstanding intents", "all of the open intents"
    **{f"{q} {of}{adj} intents": ("both" if q == "both" else "all") for q in ("both", "all")
       for of in ("of the ", "the ") for adj in ("open", "pending", "current", "outstanding")}})
_WHAT = "what:text?[intent to|intention to|plan to|the intent to|the intention to|the plan to|an intent to]"
# "Wooble's intent about the Beast's mackerel": what the intent is about, said to tell it apart;
# the intent is the one named (by number, author or reply), never found by these words alone
_ABOUT = ("about:text?[intent about|intent regarding|intent concerning|intent re|intent for|intention about"
          "|intention regarding|intention for|intent on]")


@action("object",
        # Rule 4E21: "Objecting is a Game Action"
        frame("object|object to|object against|object on|raise an objection to|lodge an objection to"
              "|register an objection to|register my objection to|state my objection to|hereby object to",
              _TARGET, _WHAT, _ABOUT, also="objection announced announcement",
              openers="object|objection|objected|objection to"),
        rule="4E21", example="I object to Wooble's intent to cause the Beast to forfeit",
        says="object to intent[ {target}][ to {what}]",
        not_actions=("I object to the way this game is run!", "Wooble objected to intent #3",
                     "I objected to intent #3 yesterday", "I don't object, for what it's worth",
                     "I object to Proposal 12, it's badly written", "Should I object?"))
def object_(ctx: Context, actor: Player, target: str | None = None, what: str | None = None,
            about: str | None = None) -> None:
    """Rule 4E21: Objecting is a Game Action. (`about`, what the sender says the intent is
    about, is said but not needed: the intent is the one named.)"""
    take_stance(ctx, actor, target, "object", "4E21", what=what)


@action("support",
        # Rule 4E22: "Supporting is a Game Action"
        frame("support|lend my support to|give my support to|offer my support to|add my support to"
              "|hereby support|am in support of|endorse",
              _TARGET, _WHAT, _ABOUT, also="announced announcement", openers="support|supported|seconded|support for"),
        rule="4E22", example="I support intent #3", says="support intent[ {target}][ to {what}]",
        not_actions=("I support the idea of a new currency, personally", "Chuck supported it",
                     "I supported intent #3 yesterday", "I support Wooble for Registrar",
                     "Would you support intent #3?"))
def support(ctx: Context, actor: Player, target: str | None = None, what: str | None = None,
            about: str | None = None) -> None:
    """Rule 4E22: Supporting is a Game Action. (`about`, as for an objection, is not needed.)"""
    take_stance(ctx, actor, target, "support", "4E22", what=what)


_UNSAY = ("withdraw|retract|rescind|take back|drop|remove|cancel|revoke|pull")


@action("withdraw_stance",
        # Rules 4E21, 4E22: only each Player's latest stance counts
        frame("|".join(f"{v} {d} {w}" for v in _UNSAY.split("|") for d in ("my", "the", "that", "this")
                       for w in ("objection", "support", "objections"))
              # "Objection withdrawn.", "My support is withdrawn from intent 3": said of the stance
              + "|" + "|".join(f"{m}{w} {b}{p}" for m in ("", "my ") for w in ("objection", "objections", "support")
                               for b in ("", "is ", "are ") for p in ("withdrawn", "retracted")),
              "target:intent?[to|from|on|against|of|for|regarding|re]", _WHAT,
              also="announced announcement"),
        rule="4E21", example="I withdraw my objection to intent #3", says="withdraw my stance on intent[ {target}][ to {what}]",
        not_actions=("I withdrew my objection yesterday", "Wooble withdraws his support",
                     "Should I withdraw my objection?"))
def withdraw_stance(ctx: Context, actor: Player, target: str | None = None,
                    what: str | None = None) -> None:
    """Rules 4E21, 4E22: only a player's latest stance counts; this one is none. Named by
    nothing ("Objection withdrawn.") outside a thread of the intent's, it is the sender's one
    standing Objection or Support on an open intent, when there is exactly one."""
    if target is None and what is None:
        try:
            find_intent(ctx, None, actor=actor)
        except Rejected:
            standing = _standing_stances(actor)
            if len(standing) == 1:
                target = str(standing[0])
    take_stance(ctx, actor, target, "none", "4E21", what=what)


def _standing_stances(actor: Player) -> list[int]:
    """The open intents on which the Player's latest stance is an Objection or a Support."""
    latest: dict[int, str] = {}
    for s in (Stance.select(Stance.intent, Stance.stance).join(Intent)
              .where(Stance.player == actor, Intent.state == "open").order_by(Stance.id)):
        latest[s.intent_id] = s.stance
    return sorted(n for n, stance in latest.items() if stance != "none")


@action("withdraw_intent",
        # Rule 4E21: the author of an intent may withdraw it (it is then not acted on)
        frame(_UNSAY + "|abandon|give up|call off|scrap", "number:intent?",
              "what:text?[to|intent to|intention to|plan to]", also="intent intention plan announced",
              needs="intent|intention|intents|intentions|plan"),
        rule="4E21", example="I withdraw my intent #3", says="withdraw my intent[ {number}][ to {what}]",
        not_actions=("I withdrew my intent #3 yesterday", "Wooble withdraws his intent #3"))
def withdraw_intent(ctx: Context, actor: Player, number: str | None = None,
                    what: str | None = None) -> None:
    """Rule 4E21: an intent's author may withdraw it: "I withdraw my intent #3", "...
    my intention to cause the Beast to forfeit", or "my intent" in reply to it."""
    if number and number.lstrip("#").strip().isdigit():
        number = number.lstrip("#").strip()
    intent = find_intent(ctx, number or "mine", None, what, actor)
    if intent.author_id != actor.id:
        raise Rejected(f"intent #{intent.id} is {intent.author.name}'s, not yours", rule="4E21")
    intent.state = "withdrawn"
    intent.save()
    ctx.record("intent", f"{actor.name} withdraws intent #{intent.id}", rule="4E21",
               intent=intent.id)


@action("act_on_intent",
        # Rules 4E21, 4E22: "Having made such an announcement, the Player can perform the action"
        frame("act on|act upon|perform|carry out|execute|enact|resolve|exercise|do", _TARGET,
              also="announced announcement action intended now in", needs="intent|intention|intents|intentions|it|this|that|so"),
        frame("do so|do it|do that|do this|now do so|hereby do so", _TARGET, also="now hereby"),
        rule="4E21", example="I act on intent #3", says="perform the action of intent[ {target}]",
        not_actions=("I acted on intent #3 yesterday", "Wooble acts on intent #3",
                     "Should I act on intent #3?", "I think I'll do it tomorrow", "I do it all the time",
                     "I perform my duties"))
def act_on(ctx: Context, actor: Player, target: str | None = None) -> None:
    """Rules 4E21, 4E22: the author of an intent performs the action it announced ("I act
    on intent #3", "Having received no objections, I do so." in reply to it), when its
    window is open and its objections and support allow."""
    intent = find_intent(ctx, target, None, None, actor)
    rule = "4E22" if intent.supporters and not intent.objections else "4E21"
    if intent.author_id != actor.id:
        raise Rejected(f"intent #{intent.id} is {intent.author.name}'s: only the Player who announced "
                       "an intent may perform its action", rule=rule)
    spec = action_named(intent.action)
    problem = window_problem(ctx, intent, terms(ctx, spec))
    if problem is not None:
        raise Rejected(f"intent #{intent.id}: {problem}", rule=spec.rule if spec.waiting else rule)
    ctx.intent = intent
    spec.fn(ctx, actor, **dict(intent.args))
    performed(ctx, intent)


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
    # Rules 4E21, 4E22: the wait and the window ([intents] in defaults.toml: 2 and 2 ndays)
    wait, window = ctx.config.owned("intents.wait_ndays"), ctx.config.owned("intents.window_ndays")
    waiting = durations.parse(spec.waiting) if spec.waiting else None
    absolute = waiting is not None and waiting[1] in ("rdays", "jiffies")
    if absolute:
        if ctx.at < intent.opens_at:
            return f"it may be done only after {spec.waiting} (from {durations.Due(at=intent.opens_at).describe()})"
        if intent.opened_count is None or c > intent.opened_count + window:
            return f"the {window} ndays to do it after the {spec.waiting} have passed"
    if intent.objections:
        if not absolute:
            w = waiting[0] if waiting else wait
            if c < c0 + w + 1:
                return (f"it may be done only from the end of the {ordinal(w)} nday after the nday of the "
                        f"intent ({c0 + w + 1 - c} more nday change{'s' if c0 + w + 1 - c != 1 else ''} to go)")
            if c > c0 + w + window:
                return f"the time to do it ended with the {ordinal(w + window)} nday after the nday of the intent"
        n = len(objectors(intent))
        if n >= intent.objections:
            return (f"{n} Player{'s' if n != 1 else ''} object{'s' if n == 1 else ''}; it needed "
                    f"fewer than {intent.objections}")
    if intent.supporters:
        reached = support_reached(intent, until=intent.opens_at if absolute else None)
        now_support = sum(s.stance == "support" for s in latest_stances(intent).values())
        late = f"it did not receive {intent.supporters} supporter{'s' if intent.supporters != 1 else ''} " \
               f"within {window} ndays of the nday of the intent"
        if reached is None:
            if not absolute and c <= c0 + window:
                return f"only {now_support} Players support it so far; it needs {intent.supporters}"
            return late
        if not absolute and reached.count > c0 + window:
            return late
        if now_support < intent.supporters:
            return f"only {now_support} Players support it now; it needs {intent.supporters}"
        if not absolute and c > reached.count + window:
            return f"the {window} ndays to do it after the last needed support have passed"
    return None


def authorize(ctx: Context, actor: Player | None, spec: ActionSpec, args: dict) -> Intent:
    """The announced intent under which `actor` may do this action now, or Rejected."""
    spec = terms(ctx, spec)
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


def describe_window(intent: Intent, game: Game, config) -> str:
    """For the Doctor's schedule: when this intent may be acted on."""
    spec = action_named(intent.action)
    c0 = intent.announced_count
    wait, window = config.owned("intents.wait_ndays"), config.owned("intents.window_ndays")
    parts = []
    if spec.waiting and durations.parse(spec.waiting)[1] in ("rdays", "jiffies"):
        parts.append(f"from {durations.Due(at=intent.opens_at).describe()} for {window} ndays")
    elif intent.objections:
        w = durations.parse(spec.waiting)[0] if spec.waiting else wait
        parts.append(f"after {max(0, c0 + w + 1 - game.nday_changes)} more nday change(s), "
                     f"for {window} ndays")
    if intent.objections:
        parts.append(f"{len(objectors(intent))} objection(s), fewer than {intent.objections} needed")
    if intent.supporters:
        now_support = sum(s.stance == "support" for s in latest_stances(intent).values())
        parts.append(f"{now_support} of {intent.supporters} supporter(s)")
    return "; ".join(parts)
