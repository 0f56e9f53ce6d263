"""The engine: moves game time forward and applies posts and commands.

Game time only moves here, and only to an instant it is given:
`advance(to)` fires every midnight and deadline up to `to`, in order; each
midnight runs, per Rule 4E14 and the readings in rulings.md:

1. what happens at the END of the periods that are ending (deadlines counted
   in ndays or ndelays, the end of the Voting Period, the end of the nweek),
2. the Clock change itself,
3. what happens at the START of the periods that begin, together with the
   deadlines due at that instant,

each group in the order of Rule 4E75 (higher Power first, then lower number).
"""
from __future__ import annotations

import contextvars
import inspect
import re
import weakref
from contextlib import contextmanager, nullcontext
from collections import OrderedDict
from dataclasses import dataclass, fields, replace
from datetime import datetime, timedelta

from ..config import defaults
from ..store import (Approval, Deadline, Entry, Game, Message, Ministry, Outcome, Player, Setup, database,
                     hot, versions, write_transaction)
from . import (acting, budget, clock, emergency, entities, grammar, lexer, ministries, pinned, players, rules,
               scheduling, transactions, vocabulary)
from .context import Context, Rejected, RetroactiveChange, current_game
from .durations import next_midnight
from .players import player_by_address
from .post import Post
from .events import ClockTurnedOn
from .registry import COMMANDS, DEADLINES, HOOKS, on, precedence


# ---------------------------------------------------------------- a new game

def start_game(setup: Setup) -> None:
    """Create the gamestate a game begins with, from its Setup."""
    Game.create(now=setup.start_at, nweek=setup.nweek, nday=setup.nday,
                clock_on=setup.clock_on)
    ctx = Context(setup.start_at, "command", _setup=setup)
    ctx.record("game", f"the game begins: {clock.describe(ctx.game, ctx.config)}",
               rule="4E14", nweek=setup.nweek, nday=setup.nday, on=setup.clock_on)
    beast = ctx.config.get("players.beast")
    if beast:
        # Rule 4E4, 4E71: the Operantly Conditioned Beast is an Outsider and a Player.
        Player.create(name=beast, name_key=players.name_key(beast), is_beast=True,
                      joined_nweek=setup.nweek)
        ctx.record("join", f"{beast} is a Player", rule="4E71", player=beast)
    ministries.create_all(ctx)
    rules.load(ctx, setup.ruleset if setup.ruleset is not None else rules.seed_ruleset())


# -------------------------------------------------------------- moving time

def advance(to: datetime) -> None:
    """Advance the game to the instant `to`, firing everything due on the way.

    Each step reads the game and applies what comes next inside one write
    transaction, so two processes advancing at once serialise and never fire
    the same midnight twice."""
    while _step_towards(to):
        pass


def _step_towards(to: datetime) -> bool:
    """Fire the next midnight or deadline before `to`; False once the game is at `to`."""
    with _step_transaction():
        game = current_game()
        if to <= game.now:
            return False
        midnight = next_midnight(game.now)
        due_at = next_dated_deadline()
        if due_at is not None and due_at < midnight and due_at <= to:
            _set_now(max(due_at, game.now))
            ctx = Context(Game.get().now, "deadline")
            _run_in_order(ctx, _absolute_deadlines_due(ctx.at))
            perform_duties(ctx)
            return True
        if midnight <= to:
            _set_now(midnight)
            ctx = Context(midnight, "midnight")
            run_midnight(ctx)
            perform_duties(ctx)
            return True
        _set_now(to)
        return False


def _step_transaction():
    """A step's own write transaction; none inside a caller's on a game's SQLite (a
    rebuild, an ingest batch, a replay): a savepoint there would never be rolled back
    alone, as every caller lets a failure here end its transaction (runner.process
    advances outside the try that parks an entry; nothing between catches), so it
    was two statements an entry for nothing (issue 16). Elsewhere (PostgreSQL, a
    preview's copy) as before."""
    if versions.active(database):
        return nullcontext()
    return write_transaction()


def next_dated_deadline() -> datetime | None:
    """When the next pending deadline with a date falls due (one query per change
    of the deadline table within a transaction: store/versions.py)."""
    def first():
        row = (Deadline.select(Deadline.due_at)
               .where(Deadline.state == "pending", Deadline.due_at.is_null(False))
               .order_by(Deadline.due_at).first())
        return row.due_at if row is not None else None
    return versions.cached(database, "next dated deadline", ("deadline",), first)


def _set_now(at: datetime) -> None:
    row = versions.kept(database, "game", ("game",))      # (context.current_game's)
    hot.update(Game, {"now": at}, {})
    if row is not None:     # written through: the kept game row as a read would give it now
        row.now = Game.now.python_value(Game.now.db_value(at))
        versions.keep(database, "game", ("game",), row)


def run_midnight(ctx: Context) -> None:
    game = ctx.game
    change = clock.plan_midnight(game, ctx.config)
    every_midnight = _hooks([clock.Edge("start", "midnight")])   # 00:00 UTC, Clock or not (4E0)
    if change is None:   # game time is stopped: the Clock does not move
        _run_in_order(ctx, every_midnight + _absolute_deadlines_due(ctx.at))
        return
    _run_in_order(ctx, _hooks(change.ending()) + _period_deadlines_due(game, change))
    clock.apply_midnight(ctx, change)
    _run_in_order(ctx, _hooks(change.starting()) + every_midnight + _absolute_deadlines_due(ctx.at)
                  + _start_deadlines_due(ctx.game, change))


@dataclass
class _Due:
    rule: str | None
    order: int
    run: callable


def _hooks(edges) -> list[_Due]:
    out = []
    for e in edges:
        for i, h in enumerate(HOOKS):
            if h.edge == e.edge and h.period == e.period and (h.nday is None or h.nday == e.nday):
                out.append(_Due(h.rule, i, lambda ctx, h=h: h.fn(ctx)))
    return out


def _deadline_due(row: Deadline) -> _Due:
    def run(ctx: Context, row=row):
        if row.due_at is not None and ctx.game.time_stopped and row.rule != "4E0":
            # Rule 4E0: while game time is stopped, deadlines with absolute dates do not occur
            row.state = "dropped"
            row.save()
            ctx.record("schedule", f"{row.action} did not occur: game time is stopped",
                       rule="4E0", deadline=row.id, action=row.action)
            return
        row.state = "fired"
        row.save()
        DEADLINES[row.action](ctx.derive("deadline"), **row.args)
    return _Due(row.rule, row.id, run)


def _absolute_deadlines_due(at: datetime) -> list[_Due]:
    rows = Deadline.select().where(Deadline.state == "pending", Deadline.due_at <= at)
    return [_deadline_due(r) for r in rows]


def _period_deadlines_due(game: Game, change: clock.Midnight) -> list[_Due]:
    """Deadlines at the end of an nday or ndelay that ends at this midnight."""
    pending = Deadline.select().where(Deadline.state == "pending", Deadline.due_at.is_null())
    out = []
    for r in pending:
        if r.counter == "nday" and change.nday_changed and r.count <= game.nday_changes + 1:
            out.append(_deadline_due(r))
        elif r.counter == "ndelay" and change.ndelay_changed and r.count <= game.ndelay_changes + 1:
            out.append(_deadline_due(r))
        elif (r.counter is None and r.edge == "end" and change.nday_changed
              and (r.nweek, r.nday) <= (game.nweek, game.nday)):
            out.append(_deadline_due(r))
    return out


@on(ClockTurnedOn, rule="4E14")
def end_of_current_ndelay(ctx: Context, event: ClockTurnedOn) -> None:
    """Rule 4E14: turning the Clock On ends the current ndelay: what was due at
    its end happens now (ndelay-counted deadlines, end-of-ndelay hooks)."""
    game = ctx.game
    pending = Deadline.select().where(Deadline.state == "pending", Deadline.counter == "ndelay",
                                      Deadline.count <= game.ndelay_changes + 1)
    _run_in_order(ctx, _hooks([clock.Edge("end", "ndelay")]) + [_deadline_due(r) for r in pending])


def _start_deadlines_due(game: Game, change: clock.Midnight) -> list[_Due]:
    """Deadlines at the start of an nday that has just begun (scheduled actions)."""
    if not change.nday_changed:
        return []
    pending = Deadline.select().where(Deadline.state == "pending", Deadline.due_at.is_null(),
                                      Deadline.counter.is_null(), Deadline.edge == "start")
    return [_deadline_due(r) for r in pending if (r.nweek, r.nday) <= (game.nweek, game.nday)]


def _run_in_order(ctx: Context, dues: list[_Due]) -> None:
    """Rule 4E75: simultaneous changes in order of their rules' precedence."""
    for d in sorted(dues, key=lambda d: (precedence(d.rule), d.order)):
        d.run(ctx)


# --------------------------------------------------------- applying a post

_LIMITS = defaults()["limits"]       # for a game created before [limits] existed


LIMIT = "limit"      # the Outcome.action of a refusal by one of the [limits]


def limit(ctx: Context, key: str) -> int:
    """A bound on one message's work, from the game's [limits] (defaults.toml)."""
    return int(ctx.config.get(f"limits.{key}", _LIMITS[key]))


def read_post(ctx: Context, post: Post, vocab: vocabulary.Vocabulary | None = None
              ) -> list[grammar.Reading] | None:
    """The post read by the current reader, against the state as it is now
    (`vocab`: its words, if the caller has them), within the step budget
    ([limits] read_steps); None when over it."""
    try:
        with budget.bounded(limit(ctx, "read_steps")):
            return grammar.read(post.text, vocab=vocab or vocabulary_of(ctx, post),
                                max_line=limit(ctx, "max_line"), quoted=post.quoted or "")
    except budget.OverBudget:
        return None


# set by `checking_readings()` (bnomic rebuild --check-readings): the entries whose
# pinned readings differ from what the current reader reads
_CHECKING: contextvars.ContextVar[set | None] = contextvars.ContextVar("check_readings", default=None)


@contextmanager
def checking_readings():
    """While the block runs, every post applied from pinned readings is also read
    with the current reader; the set yielded collects the entries that differ."""
    changed: set[int] = set()
    token = _CHECKING.set(changed)
    try:
        yield changed
    finally:
        _CHECKING.reset(token)


_UNLOADED = object()


def post_readings(ctx: Context, post: Post, entry: int, store: bool = True,
                  vocab: vocabulary.Vocabulary | None = None, pin=_UNLOADED) -> list[grammar.Reading] | None:
    """The readings of log entry `entry`'s post (None: over the step budget):
    those pinned for it if any (issue 13: a replay applies what was read then,
    whatever today's reader says), else read now and, with `store`, pinned.
    What is applied is always the pinned form (the JSON read back), so a live
    run and its replay apply the very same readings. `pin`: pinned.load(entry),
    if the caller has it."""
    if pin is _UNLOADED:
        pin = pinned.load(entry) if entry else None
    if pin is None:
        readings = read_post(ctx, post, vocab)
        if store and entry:
            pin = pinned.save(entry, readings, new=True)     # (none was found: nothing to replace)
            return pin.readings()
        return readings
    changed = _CHECKING.get()
    if changed is not None and entry not in changed and pinned.canonical(read_post(ctx, post, vocab)) != pin.text:
        changed.add(entry)
    return pin.readings()


def apply_post(post: Post, entry: int, store: bool = True) -> list[Outcome]:
    """Apply the actions of one post, in the order written (Rule 4E7).

    The post is read once and its readings pinned (`post_readings`; not with
    `store` False, as a preview does). Each action runs in its own savepoint:
    a refused action changes nothing. The work is bounded ([limits]): reading
    within a budget of steps (over it, nothing of the message is done), lines
    up to a length, and a number of actions per message and per sender per
    UTC day.
    """
    ctx = Context(post.at, "mail", entry, post=post)
    pin = pinned.load(entry) if entry else None
    # the words as the post finds it: read once, used twice (reading, and what a handler
    # reads while the post is applied); pinned readings (a replay) are not read again, so
    # the quoted lines are lexed only if a handler looks at the words (issue 16)
    vocab = vocabulary_of(ctx, post, quoted_later=pin is not None and _CHECKING.get() is None)
    readings = post_readings(ctx, post, entry, store, vocab, pin=pin)
    if readings is None:
        steps = limit(ctx, "read_steps")
        return [Outcome.create(entry=entry, position=1, action=LIMIT, text="(the whole message)",
                               accepted=False, rule="4E7",
                               reason=f"not read: reading this message took more than {steps} steps, "
                                      f"the most bnomic spends on one message (limits.read_steps = "
                                      f"{steps}); nothing in it was done")]
    refusal = not_acted_on(post)
    # Rule 4E0: a Mental State is set in a forum that was Public within the past month too
    lately = refusal is not None and post.verified and emergency.public_lately(ctx, post)
    if refusal and not lately:
        return [Outcome.create(entry=entry, position=position, action=r.spec.name if r.spec else None,
                               text=r.text, accepted=False, reason=refusal.reason, rule=refusal.rule)
                for position, r in enumerate(readings, 1)]
    outcomes = []
    allowed, why = _actions_allowed(ctx, post, entry)
    count = 0
    # Rule 4E79: "On behalf of the X Corporation, ...": whose each action is
    behalf = entities.behalves(post.text or "", [r.text or "" for r in readings])
    # what a handler reads (an intent's action) resolves names the same way
    with grammar.reading_with(vocab):
        for position, reading in enumerate(readings, 1):
            count += _weight(reading)
            if count > allowed:
                rest = len(readings) - position
                outcomes.append(Outcome.create(
                    entry=entry, position=position, action=LIMIT, accepted=False, rule="4E7",
                    text=reading.text + (f" (and {rest} more)" if rest else ""),
                    reason=f"not done, nor anything after it: {why}"))
                break
            if lately and not (reading.kind == "action" and reading.spec is not None
                               and reading.spec.name in emergency.LATELY_PUBLIC):
                outcomes.append(Outcome.create(
                    entry=entry, position=position, action=reading.spec.name if reading.spec else None,
                    text=reading.text, accepted=False, reason=refusal.reason, rule=refusal.rule))
                continue
            outcomes.append(_apply_reading(ctx, reading, position, behalf[position - 1]))
            budget.ping()
    perform_duties(ctx)
    return outcomes


def vocabulary_of(ctx: Context, post: Post, quoted_later: bool = False) -> vocabulary.Vocabulary:
    """The words of the game as the post finds it: its sender ("me"), what it replies to.
    With `quoted_later`, what the quoted lines add is worked out when the words are
    first looked at (_QuotedLater: it depends on the words and the lines alone, not
    on the state, so later is the same)."""
    actor = player_by_address(post.sender) if post.sender else None
    words = game_words(ctx, actor.name if actor is not None else None, post.in_reply_to or "")
    if not post.quoted:
        return words
    return _QuotedLater.of(words, post.quoted) if quoted_later else quoted_vocabulary(words, post.quoted)


class _QuotedLater(vocabulary.Vocabulary):
    """`quoted_vocabulary(words, quoted)`, made when the object is first looked at:
    lexing the quoted lines is the reader's work, needed only if the post is read
    (a replay applies its pinned readings instead) or a handler reads with the post's
    words (grammar.reading_with). The result depends on `words` (immutable) and the
    lines alone, so made later it is the same, field for field. The first attribute
    read fills the fields in and makes the object a plain Vocabulary (the same
    object: the lexer keeps its names per vocabulary object)."""

    @classmethod
    def of(cls, words: vocabulary.Vocabulary, quoted: str) -> "_QuotedLater":
        obj = object.__new__(cls)
        object.__getattribute__(obj, "__dict__")["_later"] = (words, quoted)
        return obj

    def __getattribute__(self, name):
        d = object.__getattribute__(self, "__dict__")
        later = d.pop("_later", None)
        if later is not None:
            d.update(quoted_vocabulary(*later).__dict__)
            object.__setattr__(self, "__class__", vocabulary.Vocabulary)
        return object.__getattribute__(self, name)


# words -> (the same with replying set and no quoted intents, {quoted intents: vocabulary})
_QUOTED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def quoted_vocabulary(words: vocabulary.Vocabulary, quoted: str) -> vocabulary.Vocabulary:
    """`lexer.with_quoted(words, quoted)`, the same words field for field, but one object
    for each `words` and set of quoted intents found: the lexer keeps its table of names
    per vocabulary object, so a new object for every mail with quoted lines made it
    build that table again for every such mail (issue 16). The quoted lines are lexed
    against `words` itself, or, when that is already a reply's (replying set, no quoted
    intents), against the kept object, which then equals it field for field."""
    if not quoted.strip():
        return words
    kept = _QUOTED.get(words)
    if kept is None:
        kept = _QUOTED[words] = (replace(words, quoted_intents=(), replying=True), {})
    base, by_found = kept
    same = words.replying and not words.quoted_intents
    read = lexer.with_quoted(base if same else words, quoted)
    if not read.quoted_intents:
        return base
    return by_found.setdefault(read.quoted_intents, replace(base, quoted_intents=read.quoted_intents))


# what vocabulary.of_game reads besides the Players (whom the key holds, below); the
# Message table only for a reply (the mail it answers), so storing mail keeps the rest
_WORDS_FROM = ("ministry", "proposal", "intent", "tweak", "refreshproposal", "consultation",
               "indictment", "corporation", "contract", "setup", "setting", "subgame")
# (the Player replied to: Vocabulary.addressee; the challenges it made and the actions it
# scheduled: replied_challenges, replied_scheduled)
_REPLY_WORDS_FROM = _WORDS_FROM + ("message", "address", "obligation", "deadline")
_PLAYERS = 'SELECT "id", "name", "is_beast" FROM "player" WHERE "is_player" ORDER BY "id"'
_PLAYERS_READS = versions.columns("player", "id", "name", "is_beast", "is_player")
_KEPT_VOCABULARIES = 64


def _current_players() -> tuple:
    return tuple(database.execute_sql(_PLAYERS).fetchall())
_TOP_PLAYER = 'SELECT MAX("id") FROM "player"'


def game_words(ctx: Context, actor: str | None, in_reply_to: str) -> vocabulary.Vocabulary:
    """vocabulary.of_game, kept within a transaction (a rebuild, an ingest batch) while
    what it is made of is unchanged: the other tables it reads (store/versions.py) and
    the current Players' names, asked in one plain statement (the player table itself
    changes with every gift). The same object each time, so the lexer's own cache of
    names per vocabulary holds too."""
    if not versions.active(database):
        return vocabulary.of_game(ctx, actor, in_reply_to)
    # (kept while no write touches the columns it reads: a gift's UPDATE of mackerel leaves it)
    players = versions.cached(database, "current players' names", _PLAYERS_READS, _current_players)
    if in_reply_to:
        kept = versions.cached(database, "vocabularies of replies", _REPLY_WORDS_FROM, dict)
    else:
        kept = versions.cached(database, "vocabularies", _WORDS_FROM, dict)
    hit = kept.get(in_reply_to)
    if hit is None or hit[0] != players:
        if len(kept) >= _KEPT_VOCABULARIES:
            kept.clear()
        top = database.execute_sql(_TOP_PLAYER).fetchone()[0]
        joined = _joined(hit, players)
        if joined is not None:
            words = _same_words(joined)
        else:
            # the actor is one field ("me"): the rest is the same for every sender
            words = _same_words(vocabulary.of_game(ctx, None, in_reply_to))
        hit = kept[in_reply_to] = (players, *words, top)
    _, words, by_actor, _ = hit
    if actor is None:
        return words
    if actor not in by_actor:
        by_actor[actor] = words.with_actor(actor)
    return by_actor[actor]


def _joined(hit: tuple | None, players: tuple) -> vocabulary.Vocabulary | None:
    """The kept vocabulary with the Players who joined since it was made, when that
    is all that changed (a join: Rule 4E3): every Player it had is still one, by the
    same name, and each Player added is a row of the player table made since (its id
    above every id the table had then). Nothing else of_game reads has changed (the
    kept vocabularies are dropped when one of those tables is written), and no row of
    them can name a Player row made after it (their references to Players are foreign
    keys, enforced: store/db.py), so of_game would build the kept one
    with only `players` and `beast` new: the same, field for field. Otherwise None
    (a Player who left, was renamed or rejoined as an earlier row: made anew)."""
    if hit is None:
        return None
    before, words, _, top = hit
    if players[:len(before)] != before or any(row[0] <= (top or 0) for row in players[len(before):]):
        return None
    return replace(words, players=tuple(row[1] for row in players),
                   beast=next((row[1] for row in players if row[2]), None))


# vocabularies made lately, by their value: (the first object of that value, {actor: its
# with_actor}); an ingest of many batches, a transaction each, finds the same words again
# (the engine's thread alone makes vocabularies: invariant 5, one writer)
_SAME: OrderedDict = OrderedDict()
_SAME_KEPT = 16


def _same_words(words: vocabulary.Vocabulary) -> tuple[vocabulary.Vocabulary, dict]:
    """The vocabulary made before with the same value as `words`, if one was lately, and
    its vocabularies by actor: the lexer keeps its table of names per vocabulary object,
    and `game_words` keeps its vocabularies only within a transaction (issue 16). Equal
    field for field (a dict in the same order), so the reader reads the same."""
    try:
        key = tuple(tuple(v.items()) if isinstance(v, dict) else v
                    for v in (getattr(words, f.name) for f in fields(vocabulary.Vocabulary)))
        hash(key)
    except TypeError:           # a field holding a list: not kept
        return words, {}
    hit = _SAME.get(key)
    if hit is None:
        hit = _SAME[key] = (words, {})
        while len(_SAME) > _SAME_KEPT:
            _SAME.popitem(last=False)
    else:
        _SAME.move_to_end(key)
    return hit


def _weight(reading: grammar.Reading) -> int:
    """How many actions a reading counts for against the limits: each repetition
    and each step of a Transaction; a near-miss or a line not read counts none."""
    if reading.steps is not None:
        return max(1, len(reading.steps))
    if reading.spec is None or reading.kind != "action":
        return 0
    return max(1, min(reading.times, grammar.MAX_REPEAT))


def _actions_allowed(ctx: Context, post: Post, entry: int) -> tuple[int, str]:
    """How many actions this message may still do, and the limit that says so.
    The day's count comes from the state (the Outcomes of the sender's earlier
    mail that UTC day), so a replay counts the same."""
    per_message, per_day = limit(ctx, "actions_per_message"), limit(ctx, "actions_per_sender_per_day")
    done_today = actions_today(post, entry)
    left_today = max(0, per_day - done_today)
    if left_today < per_message:
        return left_today, (f"{post.sender or 'this sender'} has done {done_today} actions this UTC day, and "
                            f"bnomic does at most {per_day} a day for one sender "
                            f"(limits.actions_per_sender_per_day = {per_day})")
    return per_message, (f"bnomic does at most {per_message} actions from one message, counting "
                         f"each repetition and each step of a Transaction "
                         f"(limits.actions_per_message = {per_message})")


_COUNTED_AS = re.compile(r"^done \d+ of (\d+) times")


_NOT_COUNTED = ("preview", "digest", "display_request", "own_mail", LIMIT)
# the day's entries found by the log's `at` index, then their senders compared ("+": not by
# the sender index, which would walk every mail the sender ever sent: a cost that grew with
# the game's length, about 1.5 ms an entry at 50,000 messages; bench/history.py)
_REASONS_TODAY = ('SELECT "t1"."reason" FROM "outcome" AS "t1" INNER JOIN "log" AS "t2" ON ("t2"."seq" = "t1"."entry") '
                  'INNER JOIN "message" AS "t3" ON ("t3"."entry_id" = "t2"."seq") WHERE (+"t3"."sender" = ?) '
                  'AND ("t2"."at" >= ?) AND ("t2"."at" < ?) AND ("t1"."action" IS NOT NULL) '
                  'AND ("t1"."action" NOT IN (?, ?, ?, ?, ?))')


def actions_today(post: Post, entry: int) -> int:
    """The actions the sender's mail did or tried earlier this UTC day (Outcomes with
    an action; "N times" counts N), before this entry."""
    sender = _kept_sender(entry) if entry else None
    if sender is _UNLOADED:
        sender = hot.value("sender of", 'SELECT "sender" FROM "message" WHERE "entry_id" = ?', (entry,))
    if sender is hot.NOTHING:
        message = Message.get_or_none(Message.entry == entry)
        sender = message.sender if message is not None else None
    if sender is None:
        sender = (post.sender or "").lower()
    start = post.at.replace(hour=0, minute=0, second=0, microsecond=0)
    params = (sender, Entry.at.db_value(start), Entry.at.db_value(start + timedelta(days=1)), *_NOT_COUNTED)
    if entry:
        counted = _actions_today_kept(sender, start, params, entry)
        if counted is not None:
            return counted
    reasons = (hot.all_rows("reasons today, before", _REASONS_TODAY + ' AND ("t2"."seq" < ?)',
                            (*params, entry)) if entry
               else hot.all_rows("reasons today", _REASONS_TODAY, params))
    if reasons is not None:
        return sum(_counted(reason) for reason, in reasons)
    rows = (Outcome.select(Outcome.reason)
            .join(Entry, on=(Outcome.entry == Entry.seq))
            .join(Message, on=(Message.entry == Entry.seq))
            .where(Message.sender == sender, Entry.at >= start, Entry.at < start + timedelta(days=1),
                   Outcome.action.is_null(False),
                   Outcome.action.not_in(_NOT_COUNTED)))
    if entry:
        rows = rows.where(Entry.seq < entry)
    return sum(_counted(row.reason) for row in rows)


def note_sender(entry: int, sender: str | None) -> None:
    """Entry `entry`'s mail is from `sender` (its stored, lowercased address), as the
    runner just read it: actions_today asks no more within this transaction (a mail's
    sender is never rewritten; the stamp says its table was not either)."""
    kept = versions.values(database)
    if kept is not None:
        kept[("sender of", entry)] = (versions.kept_rows_stamp(database, ("message",)), sender)


def _kept_sender(entry: int):
    """note_sender's answer for `entry`, or _UNLOADED."""
    kept = versions.values(database)
    hit = kept.get(("sender of", entry)) if kept is not None else None
    if hit is None or hit[0] != versions.kept_rows_stamp(database, ("message",)):
        return _UNLOADED
    return hit[1]


# the Outcomes not yet counted (params: the sender, the day's bounds, _NOT_COUNTED, then
# the entry counted up to, this entry, the largest Outcome key then, that entry again):
# those of the sender's mail since the entry counted up to, found by the sender's mail
# (the message table's sender index, by entry), and any added since for an earlier
# entry (none, as the engine goes: the ledger's order is checked, not assumed), found by
# the Outcomes' keys; each part joined in that order (CROSS JOIN)
_TODAY_TERMS = ('(+"t2"."at" >= ?) AND (+"t2"."at" < ?) AND ("t1"."action" IS NOT NULL) '
                'AND ("t1"."action" NOT IN (?, ?, ?, ?, ?))')
_REASONS_SINCE = ('SELECT "t1"."reason" FROM "message" AS "t3" CROSS JOIN "log" AS "t2" ON ("t2"."seq" = "t3"."entry_id") '
                  'CROSS JOIN "outcome" AS "t1" ON ("t1"."entry" = "t2"."seq") WHERE ("t3"."sender" = ?) AND '
                  + _TODAY_TERMS + ' AND ("t3"."entry_id" >= ?) AND ("t3"."entry_id" < ?)'
                  ' UNION ALL '
                  'SELECT "t1"."reason" FROM "outcome" AS "t1" CROSS JOIN "log" AS "t2" ON ("t2"."seq" = "t1"."entry") '
                  'CROSS JOIN "message" AS "t3" ON ("t3"."entry_id" = "t2"."seq") WHERE (+"t3"."sender" = ?) AND '
                  + _TODAY_TERMS + ' AND ("t1"."id" > ?) AND ("t1"."entry" < ?)')


# the statements above, which read Outcomes only through the log rows they join (by
# `"t1"."entry"` = a log row's seq): a scratch game that holds the Outcomes of the log
# entries it holds answers them as the game would (store/ledgers.py, runner.replay_into)
OUTCOMES_THROUGH_THE_LOG = (_REASONS_TODAY, _REASONS_TODAY + ' AND ("t2"."seq" < ?)', _REASONS_SINCE)


def _actions_today_kept(sender: str, start: datetime, params: tuple, entry: int) -> int | None:
    """actions_today's count, carried on within a write transaction (a rebuild, an ingest
    batch) from what it counted for the sender's earlier mail that day: the count then,
    plus the Outcomes not counted then (_REASONS_SINCE: a few rows found by the sender's
    mail and by their keys, where the whole query walks the day's entries: issue 16).
    Valid while no Outcome has been changed or removed since (versions.kept_rows_stamp);
    an entry's time and its
    mail's sender are never rewritten (the log is only ever marked processed; removing
    an entry would remove its mail, a rewrite of `message`). None where nothing is kept
    (not SQLite, outside a transaction): the caller counts in full."""
    kept = versions.values(database)
    stamp = versions.kept_rows_stamp(database, ("outcome", "message"))
    if kept is None or stamp is None or not hot.fast():
        return None
    key = ("actions today", sender, start)
    hit = kept.get(key)
    if hit is not None and hit[0] == stamp and hit[1] <= entry:
        _, upto, largest, count = hit
        reasons = hot.all_rows("reasons today, since", _REASONS_SINCE,
                               (*params, upto, entry, *params, largest, upto))
    else:
        largest, count, upto = None, 0, None
        reasons = hot.all_rows("reasons today, before", _REASONS_TODAY + ' AND ("t2"."seq" < ?)',
                               (*params, entry))
    count += sum(_counted(reason) for reason, in reasons)
    top = versions.known_key(database, "outcome")        # the next key, if counted (no query)
    top = top - 1 if top is not None else hot.value("largest outcome", 'SELECT MAX("id") FROM "outcome"') or 0
    kept[key] = (stamp, entry, top, count)
    return count


def _counted(reason: str | None) -> int:
    m = _COUNTED_AS.match(reason or "")
    return int(m.group(1)) if m else 1


def perform_duties(ctx: Context) -> None:
    """What bnomic does for the ministers after every change (Rule 4E45), and what
    the rules watch "at any time": four Paranoid PEPs or fewer (Rules 4E0, 4E40)."""
    for duty in (ministries.perform_duties, emergency.check):
        try:
            # most find nothing to do: a lazy savepoint runs no statement until one writes
            with versions.lazy_savepoint(database):
                duty(ctx.derive(ctx.cause, ctx.entry))
        except Rejected:
            pass


class _Undo(Exception):
    """Raised to roll a preview's savepoint back."""


def preview_post(post: Post, entry: int | None) -> list[dict]:
    """What the post's actions would do now, applied to a copy of the state:
    a savepoint that is always rolled back. Nothing changes."""
    captured: list[dict] = []
    try:
        with database.atomic():
            for o in apply_post(replace(post, forum="public"), entry or 0, store=False):
                captured.append({"action": o.action, "text": o.text, "accepted": o.accepted,
                                 "reason": o.reason, "rule": o.rule})
            raise _Undo
    except _Undo:
        pass
    return captured


def not_acted_on(post: Post) -> Rejected | None:
    """Why none of a post's actions count, if so: Rule 4E7 wants a message to a
    Public Forum (4E6) from the Outsider who takes the action."""
    if post.forum == "discussion":
        return Rejected("not acted on: this message reached only a Discussion Forum; Game "
                        "Actions count only in a message to a Public Forum", rule="4E6")
    if post.forum != "public":
        return Rejected("not acted on: this message reached no Public Forum; Game Actions "
                        "count only in a message to a Public Forum", rule="4E6")
    if not post.verified:
        why = post.unverified_why or ("the receiving mail server did not vouch for the From "
                                      "line (no dkim=pass or dmarc=pass in Authentication-Results)")
        return Rejected(f"not acted on: {why}, so it cannot be told who sent it", rule="4E7")
    return None


def _apply_reading(ctx: Context, reading: grammar.Reading, position: int,
                   behalf: str | None = None) -> Outcome:
    if behalf is not None and not isinstance(reading, pinned.Lost) and reading.kind in ("action", "transaction") \
            and reading.times <= grammar.MAX_REPEAT:
        return _apply_on_behalf(ctx, reading, position, behalf)
    if isinstance(reading, pinned.Lost):        # pinned as an action bnomic no longer has
        return Outcome.create(entry=ctx.entry, position=position, action=reading.action,
                              text=reading.text, accepted=False, reason=reading.error, rule="4E7")
    if reading.kind == "transaction":
        return _apply_transaction(ctx, reading, position)
    if reading.spec is None and reading.error.startswith("not read"):   # a line too long ([limits])
        return Outcome.create(entry=ctx.entry, position=position, action=LIMIT, text=reading.text,
                              accepted=False, reason=reading.error, rule="4E7")
    if reading.kind == "ambiguous":
        # Rule 4E7: only unambiguous targets and parameters are valid; nothing is guessed
        said = " or as ".join(f"“{a}”" for a in reading.alternatives)
        return Outcome.create(entry=ctx.entry, position=position, action=None, text=reading.text,
                              accepted=False, rule="4E7",
                              reason=f"ambiguous: it can be read as {said}; nothing was done: "
                                     f"say which")
    if reading.kind == "incomplete":
        return Outcome.create(entry=ctx.entry, position=position, action=reading.spec.name,
                              text=reading.text, accepted=False, rule=reading.spec.rule,
                              reason=incomplete_reason(reading))
    if reading.spec is None and reading.error:
        hint = " or ".join(f'"{s}"' for s in reading.suggestions)
        return Outcome.create(entry=ctx.entry, position=position, action=None, text=reading.text,
                              accepted=False, rule="4E7",
                              reason=reading.error + (f" (for example {hint})" if hint else ""))
    if reading.spec is None:
        hint = " or ".join(f'"{s}"' for s in reading.suggestions)
        reason = (f"did you mean {hint}?" if hint else
                  f"it reads like an action, but matches none (phrasings are suggested for the first "
                  f"{grammar.MAX_SUGGESTED} such sentences of a message)")
        return Outcome.create(entry=ctx.entry, position=position, action=None, text=reading.text,
                              accepted=False, reason=reason)
    if reading.times > grammar.MAX_REPEAT:
        return Outcome.create(entry=ctx.entry, position=position, action=reading.spec.name,
                              text=reading.text, accepted=False, rule="4E7",
                              reason=f"bnomic repeats an action at most {grammar.MAX_REPEAT} "
                                     f"times in one message; nothing was done")
    if reading.when is not None:
        return scheduling.schedule_reading(ctx, reading, position)
    ctx.notes = []
    done, refusal = acting.perform(ctx, reading.spec, reading.args, reading.times)
    reason = "; ".join(ctx.notes)
    if reading.times > 1:
        reason = f"done {done} of {reading.times} times" + (f"; {reason}" if reason else "")
    if refusal is not None:
        reason = (f"{reason}; then refused: {refusal.reason}" if done else refusal.reason)
        reason += "".join(f"; did you mean {h.split(' → ')[1]}?" for h in reading.hints)
    return Outcome.create(entry=ctx.entry, position=position, action=reading.spec.name,
                          text=reading.text, accepted=refusal is None or done > 0,
                          reason=reason, rule=refusal.rule if refusal else reading.spec.rule)


def _apply_on_behalf(ctx: Context, reading: grammar.Reading, position: int, behalf: str) -> Outcome:
    """Rule 4E79: an Officer acts for its Corporation by a message stating that the
    actions are the Corporation's. The action is the Corporation's (its actor is
    the Corporation's Legal Entity row); the receipt names both."""
    name = reading.spec.name if reading.spec is not None else "transaction"
    try:
        if reading.kind == "transaction" or reading.when is not None:
            raise Rejected("bnomic does not perform a Transaction or a scheduled action on behalf of "
                           "a Corporation; write the actions one by one, now", rule="4E79")
        actor = entities.may_speak_for(ctx, behalf)
    except Rejected as refusal:
        return Outcome.create(entry=ctx.entry, position=position, action=name,
                              text=reading.text, accepted=False, reason=refusal.reason, rule=refusal.rule)
    if actor is None:                    # "on behalf of" the sender itself
        return _apply_reading(ctx, reading, position)
    ctx.notes = []
    spec = reading.spec if reading.spec.legal_entity else replace(reading.spec, fn=_as_minister(reading.spec))
    done, refusal = acting.perform(ctx, spec, reading.args, reading.times, actor=actor)
    officer = players.actor_of(ctx)
    by = f"by the {actor.name}, through its Officer {officer.name} (Rule 4E79)"
    reason = "; ".join([by] + ctx.notes)
    if reading.times > 1:
        reason = f"done {done} of {reading.times} times {reason}"
    if refusal is not None:
        reason = f"{reason}; then refused: {refusal.reason}" if done else f"{by}: {refusal.reason}"
    return Outcome.create(entry=ctx.entry, position=position, action=reading.spec.name,
                          text=reading.text, accepted=refusal is None or done > 0,
                          reason=reason, rule=refusal.rule if refusal else reading.spec.rule)


def _as_minister(spec):
    """An action whose rule is a Player's, done for a Corporation: allowed only as a
    Ministry's power (Rule 4E45: a Ministry is held by a Legal Entity; the handler
    checked it with ministries.require_minister), else refused and undone (4E81)."""
    def fn(ctx: Context, actor: Player, **args):
        ctx.minister_power = None
        try:
            result = spec.fn(ctx, actor, **args)
        except Exception:
            if ctx.minister_power is None:      # refused (or failed) before any Ministry's power
                raise entities.not_for_corporations(actor, spec.rule) from None
            raise
        if ctx.minister_power is None:
            raise entities.not_for_corporations(actor, spec.rule)
        return result
    return fn


def incomplete_reason(reading: grammar.Reading) -> str:
    """Feedback by frame: "understood as far as: give m5; missing: the player"."""
    missing = [m for m in reading.missing if not m.startswith("(")]
    out = f"understood as far as: {reading.read_as}"
    if missing:
        out += "; missing: " + ", ".join(f"the {m}" for m in missing)
    if reading.error:                       # "not a Vote: 'yes'; Rule 4E15 counts only ..."
        out += "; " + reading.error
    elif reading.unread:
        out += "; not understood: " + ", ".join(f"“{w}”" for w in reading.unread)
    out += "".join(f"; did you mean {h.split(' → ')[1]}?" for h in reading.hints)
    if reading.suggestions:
        out += f' (for example "{reading.suggestions[0]}")'
    return out


def _apply_transaction(ctx: Context, reading: grammar.Reading, position: int) -> Outcome:
    """Rule 4E12: all the steps take effect, in order, or none does."""
    steps = reading.steps or []
    try:
        if reading.error:
            raise transactions.StepFailed(0, reading, reading.error, "4E12")
        if not steps:
            raise transactions.StepFailed(0, reading, "it lists no actions or assertions", "4E12")
        try:
            with database.atomic():      # a savepoint: any failure undoes every step
                done = transactions.run(ctx, steps)
        except (transactions.StepFailed, RetroactiveChange):
            raise
        except Exception as e:
            raise transactions.StepFailed(0, reading, acting.internal_error(e).reason, None) from None
    except transactions.StepFailed as f:
        where = f'step {f.number} ("{f.step.text}") failed: ' if f.number else ""
        return Outcome.create(entry=ctx.entry, position=position, action="transaction",
                              text=reading.text, accepted=False, rule=f.rule or "4E12",
                              reason=f"{where}{f.reason}; the Transaction Fails and has no effect")
    return Outcome.create(entry=ctx.entry, position=position, action="transaction",
                          text=reading.text, accepted=True, rule="4E12",
                          reason=f"the Transaction Succeeds: " + "; ".join(done))


def apply_command(verb: str, args: list[str], entry: int, at: datetime) -> Outcome:
    """Apply one operator command; a refused command changes nothing."""
    ctx = Context(at, "command", entry)
    text = " ".join([verb, *args])
    fn = COMMANDS.get(verb)
    try:
        if fn is None:
            raise Rejected(f"unknown command {verb!r}; commands: {', '.join(sorted(COMMANDS))}")
        try:
            inspect.signature(fn).bind(ctx, *args)
        except TypeError:
            raise Rejected(f"wrong arguments for {verb!r}: "
                           f"{(fn.__doc__ or '').strip().splitlines()[0]}") from None
        try:
            with database.atomic():
                summary = fn(ctx, *args)
        except Rejected:
            raise
        except Exception as e:
            raise acting.internal_error(e) from None
    except Rejected as e:
        return Outcome.create(entry=entry, position=1, action=verb, text=text,
                              accepted=False, reason=e.reason, rule=e.rule)
    perform_duties(ctx)
    return Outcome.create(entry=entry, position=1, action=verb, text=text,
                          accepted=True, reason=summary or "")


def apply_approvals(entry: int, at: datetime) -> None:
    """Rule 4E50: after the entry an approved display is anchored at, the
    gamestate is set to what the display says (then later entries replay on it)."""
    # the anchors, read once per transaction while the table is unchanged (store/versions.py)
    if entry not in versions.cached(database, "approval anchors", ("approval",),
                                    lambda: {a.anchor for a in Approval.select(Approval.anchor)}):
        return
    for approval in Approval.select().where(Approval.anchor == entry).order_by(Approval.entry):
        ctx = Context(at, "command", entry)
        for name, attrs in sorted(approval.values.get("players", {}).items()):
            p = Player.get_or_none(Player.name_key == name, Player.is_player == True)  # noqa: E712
            if p is None:
                continue
            for attr, value in sorted(attrs.items()):
                if getattr(p, attr) != value:
                    ctx.record(attr, f"{p.name}'s {attr} set from {getattr(p, attr)} to {value} by "
                               f"an approved display ({approval.why})", rule="4E50",
                               player=p.name, before=getattr(p, attr), after=value)
                    setattr(p, attr, value)
            p.save()
        _apply_metamin(ctx, approval)


def _apply_metamin(ctx: Context, approval) -> None:
    """An approved MetaMin's display: holders, Rewards, the Message, the Flag."""
    why = f"an approved display ({approval.why})"
    for name, state in sorted(approval.values.get("ministries", {}).items()):
        m = Ministry.get_or_none(Ministry.name == name)
        if m is None:
            continue
        holder = (Player.get_or_none(Player.name_key == state["holder"], Player.is_player == True)  # noqa: E712
                  if state["holder"] else None)
        if (holder.id if holder else None) != m.holder_id:
            ministries.give_ministry(ctx, m, holder, why, "4E50")
            m = Ministry.get_by_id(name)
        if m.reward != state["reward"]:
            ctx.record("reward", f"the Reward of the Ministry of {name} set from m{m.reward} to "
                       f"m{state['reward']} by {why}", rule="4E50", ministry=name,
                       before=m.reward, after=state["reward"])
            m.reward = state["reward"]
            m.save()
    game = Game.get()
    for field in ("motnw", "threat_flag"):
        value = approval.values.get(field)
        if value and getattr(game, field) != value:
            ctx.record(field, f"{field} set to {value!r} by {why}", rule="4E50", after=value)
            setattr(game, field, value)
    game.save()
