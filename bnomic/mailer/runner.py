"""The engine loop: the one writer that applies the log to the game (invariant 5).

For each unprocessed entry, in arrival order: advance the game to its time,
apply it, queue its receipt (when asked to), and mark it processed, all in one
transaction with everything it changed.
"""
from __future__ import annotations

from datetime import datetime

from .. import config as configuration
from ..handlers import engine
from ..handlers.context import game_config
from ..store import Entry, Outcome, Setup, log, upgrade, write_transaction
from . import parse, receipts


def create_game(start: datetime, nweek: int = 1, nday: int = 1, clock_on: bool = False,
                config: dict | None = None, seed: str = "") -> Setup:
    """Set up a new game in an empty database."""
    upgrade()
    if Setup.select().exists():
        raise FileExistsError("this database already holds a game")
    with write_transaction():
        setup = Setup.create(seed=seed, start_at=start, nweek=nweek, nday=nday,
                             clock_on=clock_on, config=config or configuration.defaults(),
                             advanced_to=start)
        engine.start_game(setup)
    return setup


def _apply_mail(entry: Entry, emit: bool) -> list[Outcome]:
    message = entry.message.get()
    raw = bytes(message.raw)
    config = game_config()
    try:
        mail = parse.parse(raw)
        post = parse.to_post(raw, entry.at, config, mail=mail)
    except Exception as e:   # kept in the log all the same; the sender is told if known
        return [Outcome.create(entry=entry.seq, position=1, action=None,
                               text="(the whole message)", accepted=False,
                               reason=f"this mail could not be read: {e}")]
    if receipts.is_preview(post, config):
        previewed = engine.preview_post(post, entry.seq)
        outcome = Outcome.create(entry=entry.seq, position=1, action="preview", text=post.subject,
                                 accepted=True, reason=f"previewed {len(previewed)} action(s); "
                                 "nothing changed")
        if emit:
            receipts.queue_receipt(entry, mail, post, previewed or [outcome.__data__],
                                   message.envelope_from, config, now=entry.at, preview=True)
        return [outcome]
    outcomes = engine.apply_post(post, entry.seq)
    if emit:
        receipts.queue_receipt(entry, mail, post, outcomes, message.envelope_from, config,
                               now=entry.at)
    return outcomes


def process(entry: Entry, emit: bool = False) -> list[Outcome]:
    """Apply one log entry. With emit, queue the mail it causes (receipts).
    The processed flag is read again under the write lock: when two processes
    race for the same entry, the second finds it done and does nothing."""
    engine.advance(entry.at)
    with write_transaction():
        entry = Entry.get_by_id(entry.seq)
        if entry.processed:
            return []
        if entry.kind == "mail":
            outcomes = _apply_mail(entry, emit)
        else:
            cmd = entry.command.get()
            outcomes = [engine.apply_command(cmd.verb, cmd.args, entry.seq, entry.at)]
        Entry.update(processed=True).where(Entry.seq == entry.seq).execute()
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
