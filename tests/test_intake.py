"""Issue 12 item 4: LMTP keeps answering while the engine holds its write
transaction. Mail is committed to the intake spool (its own SQLite file) and
answered 250; the engine drains the spool into the log in order."""
import smtplib
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from bnomic.mailer import inbound, runner
from bnomic.mailer.lmtp import StoreHandler, start_server
from bnomic.store import Message, intake, log, open_database, write_transaction
from conftest import Game, make_mail, recent
from servers import free_port
from test_edge import LoopThread


def send(port, raw, rcpts=("bnomic@example.org",)):
    with smtplib.LMTP("127.0.0.1", port, timeout=30) as lmtp:   # a hung store fails the test
        return lmtp.sendmail("w@example.org", list(rcpts), raw)


@pytest.fixture
def receiver(tmp_path):
    game = Game(tmp_path, start=recent())
    open_database(game.db)
    loop, port = LoopThread(), free_port()
    handler = StoreHandler(ThreadPoolExecutor(1), lambda: None, "lmtp", True)
    server = loop.run(start_server("lmtp", f"127.0.0.1:{port}", handler, 1 << 20))
    yield game, port
    loop.close(server)
    loop.stop()


def test_lmtp_answers_while_the_engine_holds_the_write_transaction(receiver):
    game, port = receiver
    held, release = threading.Event(), threading.Event()

    def engine_busy():                   # the engine in the middle of a long entry
        with write_transaction():
            held.set()
            release.wait(120)
    busy = threading.Thread(target=engine_busy)
    busy.start()
    assert held.wait(10)
    try:
        ids = [f"<busy{i}@example.org>" for i in range(5)]
        answers = [send(port, make_mail("w@example.org", f"I join as W{i}", msgid=mid))
                   for i, mid in enumerate(ids)]
        answers.append(send(port, make_mail("w@example.org", "again", msgid=ids[0])))  # a retry
        assert answers == [{}] * 6                       # every one got 250 ...
        assert busy.is_alive() and not release.is_set()  # ... while the engine still held the lock
        # the spool keeps mail as it came (the retry too: its Message-ID is read when drained)
        assert log.intake_backlog() == 6 and not log.has_message(ids[0])
    finally:
        release.set()
        busy.join(10)
    runner.process_pending()
    stored = [m.message_id for m in Message.select().order_by(Message.entry)]
    assert stored == ids                                  # in arrival order, each once
    assert log.intake_backlog() == 0
    send(port, make_mail("w@example.org", "again", msgid=ids[1]))   # already in the log
    runner.process_pending()
    assert Message.select().count() == 5


def test_a_crash_between_the_log_commit_and_the_spool_delete_doubles_nothing(tmp_path):
    game = Game(tmp_path, start=recent())
    open_database(game.db)
    inbound.receive(make_mail("w@example.org", "I join as Wooble", msgid="<c1@x>"), source="lmtp")
    (row,) = intake.waiting()
    # the drain's first step, done, then "killed" before it deleted the spool row
    log._append_mail(bytes(row.raw), row.message_id, row.sender, row.at, row.stored_at,
                     row.source, row.envelope_from, row.rcpt_tos)
    assert intake.count() == 1
    log.drain_intake()
    assert intake.count() == 0 and Message.select().count() == 1


def test_commands_and_ticks_come_after_mail_already_spooled(tmp_path):
    """The log's order is arrival order: what was answered 250 enters the log
    before a later command or a tick's promise."""
    game = Game(tmp_path, start=recent())
    open_database(game.db)
    inbound.receive(make_mail("w@example.org", "I join as Wooble", msgid="<o1@x>"), source="lmtp")
    game.admin("clock", "on")
    log_rows = game.show("log")
    assert [e["kind"] for e in log_rows][-2:] == ["mail", "command"]
    assert log_rows[-2]["message_id"] == "<o1@x>"


def test_a_spool_an_older_bnomic_left_is_drained_with_the_new_rows_in_received_order(tmp_path):
    """The receivers now store mail as it came (table `arrived`, read when
    drained); mail an older bnomic spooled already read (table `intake`) is
    drained with it, each in the order our mail server received it."""
    from datetime import timedelta
    game = Game(tmp_path, start=recent())
    open_database(game.db)
    now = inbound.wall_clock()
    inbound.receive(make_mail("v@example.org", "I join as Vole", msgid="<new@x>"), source="lmtp",
                    envelope_from="v@example.org")
    intake.put(make_mail("w@example.org", "I join as Wooble", msgid="<old@x>"), "<old@x>",
               "w@example.org", now - timedelta(seconds=30), now - timedelta(seconds=30), source="lmtp")
    assert {r.table for r in intake.waiting()} == {"intake", "arrived"}
    log.drain_intake()
    stored = list(Message.select().order_by(Message.entry))
    assert [(m.message_id, m.sender) for m in stored] == [("<old@x>", "w@example.org"),
                                                          ("<new@x>", "v@example.org")]
    assert intake.count() == 0
