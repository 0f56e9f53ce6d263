"""The engine loop: the one writer that applies the log to the game (invariant 5).

For each unprocessed entry, in arrival order: advance the game to its time,
apply it, queue its receipt (when asked to), and mark it processed, all in one
transaction with everything it changed.
"""
from __future__ import annotations

from datetime import datetime

from .. import config as configuration
from ..handlers import engine
from ..handlers.context import RetroactiveChange, game_config
from ..store import Entry, Outcome, Setup, log, upgrade, write_transaction
from . import bounces, parse, publish, receipts
from .inbound import wall_clock


def create_game(start: datetime, nweek: int = 1, nday: int = 1, clock_on: bool = False,
                config: dict | None = None, seed: str = "", ruleset: str | None = None) -> Setup:
    """Set up a new game in an empty database (the seed ruleset unless one is given)."""
    upgrade()
    if Setup.select().exists():
        raise FileExistsError("this database already holds a game")
    with write_transaction():
        setup = Setup.create(seed=seed, start_at=start, nweek=nweek, nday=nday,
                             clock_on=clock_on, config=config or configuration.defaults(),
                             advanced_to=start, ruleset=ruleset)
        engine.start_game(setup)
    return setup


def _apply_mail(entry: Entry, emit: bool) -> list[Outcome]:
    message = entry.message.get()
    raw = bytes(message.raw)
    config = game_config()
    try:
        mail = parse.parse(raw)
        post = parse.to_post(raw, entry.at, config, mail=mail, rcpt_tos=message.rcpt_tos)
    except Exception as e:   # kept in the log all the same; the sender is told if known
        return [Outcome.create(entry=entry.seq, position=1, action=None,
                               text="(the whole message)", accepted=False,
                               reason=f"this mail could not be read: {e}")]
    bounce = bounces.note(entry, mail, post.sender, message.envelope_from, entry.at)
    if bounce is not None:          # a delivery report naming players' addresses
        return [bounce]
    to_processor = (receipts.processor_address(config) in post.recipients
                    and (post.forum != "public" or not config.get("addresses.public_fora")))
    if to_processor and publish.digest_request(post):
        period = publish.digest_request(post)
        publish.subscribe(post.sender, period, entry.at)
        return [Outcome.create(entry=entry.seq, position=1, action="digest", text=post.subject,
                               accepted=True, reason=f"digest {period} for {post.sender}")]
    if to_processor and publish.requested(post.subject + "\n" + post.text):
        # "please send the Registrar's display", to the processor (Rule 4E50)
        sent = publish.answer_requests(post, config, wall_clock()) if emit else []
        return [Outcome.create(entry=entry.seq, position=1, action="display_request",
                               text=post.subject, accepted=True,
                               reason="display requested" + (f": sent {', '.join(sent)}" if sent else ""))]
    if receipts.is_preview(post, config):
        previewed = engine.preview_post(post, entry.seq)
        outcome = Outcome.create(entry=entry.seq, position=1, action="preview", text=post.subject,
                                 accepted=True, reason=f"previewed {len(previewed)} action(s); "
                                 "nothing changed")
        if emit:
            receipts.queue_receipt(entry, mail, post, previewed or [outcome.__data__],
                                   message.envelope_from, config, now=wall_clock(), preview=True)
        return [outcome]
    outcomes = engine.apply_post(post, entry.seq)
    if emit:
        receipts.queue_receipt(entry, mail, post, outcomes, message.envelope_from, config,
                               now=wall_clock())
    return outcomes


def process(entry: Entry, emit: bool = False) -> list[Outcome]:
    """Apply one log entry. With emit, queue the mail it causes (receipts).
    The processed flag is read again under the write lock: when two processes
    race for the same entry, the second finds it done and does nothing."""
    engine.advance(entry.at)
    try:
        with write_transaction():
            entry = Entry.get_by_id(entry.seq)
            if entry.processed:
                return []
            if entry.kind == "mail":
                outcomes = _apply_mail(entry, emit)
            else:
                cmd = entry.command.get()
                outcomes = [engine.apply_command(cmd.verb, cmd.args, entry.seq, entry.at)]
            engine.apply_approvals(entry.seq, entry.at)
            Entry.update(processed=True).where(Entry.seq == entry.seq).execute()
        return outcomes
    except RetroactiveChange as change:
        return _simulate_again(entry, change, emit)


def _simulate_again(entry: Entry, change: RetroactiveChange, emit: bool) -> list[Outcome]:
    """Rules 4E50, 4E26: record the approved values in the log, anchored at the
    earlier entry, and replay the whole log so every later change is simulated
    on top of them. The approving entry is applied again within the replay."""
    from ..store import Approval
    with write_transaction():
        Approval.insert(entry=entry.seq, anchor=change.anchor_entry, values=change.values,
                        why=change.why).on_conflict_replace().execute()
    rebuild()
    outcomes = list(Outcome.select().where(Outcome.entry == entry.seq).order_by(Outcome.position))
    if emit and entry.kind == "mail":
        with write_transaction():
            message = entry.message.get()
            raw = bytes(message.raw)
            mail = parse.parse(raw)
            config = game_config()
            receipts.queue_receipt(entry, mail, parse.to_post(raw, entry.at, config, mail=mail,
                                                              rcpt_tos=message.rcpt_tos),
                                   outcomes, message.envelope_from, config, now=wall_clock())
    return outcomes


def process_pending(emit: bool = False, each=None) -> list[tuple[Entry, list[Outcome]]]:
    """Apply every entry not yet applied, in arrival order. `each` is called
    after every entry (the daemon's watchdog ping)."""
    done = []
    for entry in log.pending():
        done.append((entry, process(entry, emit)))
        if each is not None:
            each()
    return done


def advance_to(at: datetime, emit: bool = False, each=None) -> None:
    """Advance the game to `at` and remember it. The promise is recorded first:
    anything appended after it is stamped no earlier than `at`, so it is applied
    after the midnights before `at`, live and on replay alike."""
    log.mark_advanced(at)
    process_pending(emit, each)
    engine.advance(at)


def rebuild() -> None:
    """Replay the whole log into empty state tables (invariant 2). Nothing is
    mailed: the outbox keeps what was sent the first time."""
    setup = Setup.get()
    log.reset_state()
    with write_transaction():
        engine.start_game(setup)
    process_pending(emit=False)
    engine.advance(log.game_time())


def replay_into(path: str, until_seq: int | None, until_at: datetime | None) -> None:
    """Copy the log up to a point (entries up to seq `until_seq`, game time up
    to `until_at`) into a new SQLite game at `path`, replay it there, and leave
    that game open: the state as it stood then, for `bnomic show --as-of`."""
    from ..store import Command, Message, open_database
    setup = Setup.get().__data__.copy()
    entries = list(Entry.select().where(Entry.seq <= until_seq).order_by(Entry.seq).dicts()) \
        if until_seq is not None else []
    seqs = [e["seq"] for e in entries]
    messages = list(Message.select().where(Message.entry.in_(seqs)).dicts()) if seqs else []
    commands = list(Command.select().where(Command.entry.in_(seqs)).dicts()) if seqs else []
    open_database(path)
    upgrade()
    with write_transaction():
        Setup.insert(setup).execute()
        for e in entries:
            Entry.insert({**e, "processed": False}).execute()
        for m in messages:
            Message.insert(m).execute()
        for c in commands:
            Command.insert(c).execute()
        engine.start_game(Setup.get())
    process_pending()
    target = until_at or log.game_time()
    engine.advance(max(target, Setup.get().start_at))
