"""Issue 11, item 8: fuzzed mail through the real engine, into a real SQLite
game, with receipts: no exception, no parked entry, nothing left unprocessed.
(bench/fuzz.py runs the same with tens of thousands of messages.)"""
from hypothesis import HealthCheck, given, settings

from bnomic.mailer import inbound, runner
from bnomic.store import Entry, Parked, open_database

from mailfuzz import mails, unique


def test_fuzzed_mail_never_fails_the_engine(live_game):
    open_database(live_game.db)
    count = [0]

    @settings(max_examples=150, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(mails())
    def one(mail):
        raw, envelope = mail
        count[0] += 1
        inbound.store_raw(unique(raw, count[0]), source="fuzz", envelope_from=envelope)
        runner.process_pending(emit=True)
        parked = list(Parked.select().dicts())
        assert parked == [], (raw, parked)
    one()
    assert Entry.select().where(Entry.processed == False).count() == 0   # noqa: E712
