"""Issue 16: what the engine asks after every entry is read once per write
transaction while its tables are unchanged (store/versions.py), and read
again as soon as they change: by a write, a cascade, a rollback. A real game
in a real SQLite file; statements counted with sqlite3's trace callback."""
from contextlib import contextmanager
from datetime import datetime, timezone
from fractions import Fraction

import pytest

from bnomic.handlers import context, engine, ministries, registry
from bnomic.handlers.context import Context, game_config
from bnomic.mailer import runner
from bnomic.store import (
    Event, Game, Ministry, Player, Rule, Setting, close_database, database, open_database,
    write_transaction,
)

START = datetime(2008, 9, 1, tzinfo=timezone.utc)


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "game.sqlite")
    open_database(path)
    runner.create_game(START, seed="versions")
    yield path
    close_database()


@contextmanager
def counted():
    """The SELECTs the game's connection runs in the block."""
    seen = []
    conn = database.connection()
    conn.set_trace_callback(lambda sql: seen.append(sql) if sql.lstrip().upper().startswith("SELECT") else None)
    try:
        yield seen
    finally:
        conn.set_trace_callback(None)


def test_the_rules_powers_are_read_once_per_transaction(db):
    with write_transaction():
        with counted() as selects:
            assert registry.power(14) == registry.power(14) == Fraction(1, 2)
            registry.power(15)
        assert len(selects) == 1


def test_a_write_to_the_table_is_seen_at_once(db):
    with write_transaction():
        assert registry.power(14) == Fraction(1, 2)
        Rule.update(power_num=2, power_den=3).where(Rule.number == 14).execute()
        assert registry.power(14) == Fraction(2, 3)


def test_rows_updated_by_one_executemany_are_seen_at_once(db):
    from bnomic.store import hot
    with write_transaction():
        assert registry.power(14) == Fraction(1, 2)
        row = Rule.get(Rule.number == 14)
        row.power_num, row.power_den = 2, 3
        hot.update_rows([row], ("power_num", "power_den"))     # the tally's closed proposals' way
        assert registry.power(14) == Fraction(2, 3)


def test_a_rolled_back_savepoint_is_forgotten(db):
    with write_transaction():
        with pytest.raises(ZeroDivisionError):
            with database.atomic():
                Rule.update(power_num=1, power_den=1).where(Rule.number == 14).execute()
                assert registry.power(14) == 1
                1 / 0
        assert registry.power(14) == Fraction(1, 2)


def test_a_rolled_back_savepoint_forgets_only_the_tables_it_wrote(db):
    """A refused action undoes its own writes: what was read of the other tables holds."""
    with write_transaction():
        ctx = Context(START, "command")
        assert registry.power(14) == Fraction(1, 2)
        first = ctx.record("test", "one").seq
        with pytest.raises(ZeroDivisionError):
            with database.atomic():
                ctx.record("test", "rolled back")
                1 / 0
        with counted() as selects:
            assert registry.power(14) == Fraction(1, 2)            # the rule table: not written
        assert selects == []
        assert ctx.record("test", "after").seq == first + 1        # the event table: counted afresh


def test_a_savepoint_released_inside_one_rolled_back_is_undone_too(db):
    with write_transaction():
        assert registry.power(14) == Fraction(1, 2)
        with pytest.raises(ZeroDivisionError):
            with database.atomic():
                with database.atomic():
                    Rule.update(power_num=1, power_den=1).where(Rule.number == 14).execute()
                assert registry.power(14) == 1                      # read inside, after the inner release
                1 / 0
        assert registry.power(14) == Fraction(1, 2)
        with database.atomic() as savepoint:                        # rolled back and begun again (store/log.py)
            Rule.update(power_num=1, power_den=3).where(Rule.number == 14).execute()
            assert registry.power(14) == Fraction(1, 3)
            savepoint.rollback()
            assert registry.power(14) == Fraction(1, 2)
            Rule.update(power_num=2, power_den=3).where(Rule.number == 14).execute()
        assert registry.power(14) == Fraction(2, 3)
        with pytest.raises(ZeroDivisionError):
            with database.atomic():
                Rule.update(power_num=1, power_den=1).where(Rule.number == 14).execute()
                assert registry.power(14) == 1
                with database.atomic():
                    assert registry.power(14) == 1
                1 / 0
        assert registry.power(14) == Fraction(2, 3)


def test_a_delete_cascades_to_the_tables_that_refer_to_it(db):
    with write_transaction():
        ctx = Context(START, "command")
        p = Player.create(name="Wooble", name_key="wooble", joined_nweek=1)
        ministries.give_ministry(ctx, ministries.ensure(ctx, "Change"), p, "test", "4E45")
        assert ministries.held_ministries()["Change"].holder_id == p.id
        Player.delete().where(Player.id == p.id).execute()      # ON DELETE SET NULL on ministry.holder
        assert ministries.held_ministries()["Change"].holder_id is None


def test_nothing_is_kept_outside_a_transaction_or_across_transactions(db):
    with counted() as selects:
        registry.power(14)
        registry.power(14)
    assert len(selects) == 2
    with write_transaction():
        registry.power(14)
    Rule.update(power_num=1, power_den=3).where(Rule.number == 14).execute()
    with write_transaction():
        assert registry.power(14) == Fraction(1, 3)


def test_rows_handed_out_are_copies(db):
    with write_transaction():
        game = context.current_game()
        game.threat_flag = "changed, never saved"
        assert context.current_game().threat_flag == "Pink Ponies"
        m = ministries.ministry("Change")
        m.kept_duties.append("ballot")
        assert ministries.held_ministries()["Change"].kept_duties == []


def test_the_configuration_follows_settings(db):
    with write_transaction():
        assert game_config()["receipts.daily_cap"] == 20
        Setting.create(key="receipts.daily_cap", value=3)
        assert game_config()["receipts.daily_cap"] == 3


def test_row_numbers_are_max_plus_one_without_asking_each_time(db):
    with write_transaction():
        ctx = Context(START, "command")
        first = ctx.record("test", "one").seq
        with counted() as selects:
            assert [ctx.record("test", str(i)).seq for i in range(3)] == [first + 1, first + 2, first + 3]
        assert not [s for s in selects if "MAX" in s.upper()]
        Event.delete().where(Event.seq > first).execute()     # a write: counted afresh
        assert ctx.record("test", "again").seq == first + 1
        with pytest.raises(ZeroDivisionError):
            with database.atomic():
                ctx.record("test", "rolled back")
                1 / 0
        assert ctx.record("test", "after").seq == first + 2


def test_an_update_by_key_keeps_the_next_number(db):
    """An UPDATE of a row by its key cannot change the largest key: the obligation's
    deadline, set just after its insert, leaves the next obligation's number known
    (a tally obliges the Rulekeeper once per proposal it could not apply)."""
    from bnomic.handlers.obligations import oblige
    with write_transaction():
        ctx = Context(START, "command")
        law = Ministry.get(Ministry.name == "Law")
        first = oblige(ctx, law, "implement", "make the changes of 1", "4E15", proposal=1).id
        with counted() as selects:
            ids = [oblige(ctx, law, "implement", f"make the changes of {n}", "4E15", proposal=n).id
                   for n in (2, 3)]
            again = oblige(ctx, law, "implement", "make the changes of 2", "4E15", proposal=2).id
        assert ids == [first + 1, first + 2] and again == first + 1   # made in this transaction: seen
        assert not [s for s in selects if "MAX" in s.upper()]
        row = Event.get(Event.seq == Event.select(Event.seq).order_by(Event.seq.desc()).first().seq)
        row.summary = "changed"
        row.save()                                              # an update by key, then an insert
        assert ctx.record("test", "next").seq == row.seq + 1


def test_the_checks_after_an_entry_read_one_snapshot(db):
    """The duty and watch checks after every entry (Chairman, Oracle, Judge, kept
    displays, the Emergency, obligations) ask few questions of the database, and
    none twice: they used to issue 16-19 statements per entry, now one."""
    with write_transaction():
        ctx = Context(START, "command")
        for i in range(3):
            p = Player.create(name=f"P{i}", name_key=f"p{i}", joined_nweek=1)
        for name in ("Change", "Questions", "Judging", "Ministry"):
            ministries.give_ministry(ctx, ministries.ensure(ctx, name), p, "test", "4E45")
        engine.perform_duties(Context(START, "mail", 1))          # the first reads the snapshot
        with counted() as selects:
            engine.perform_duties(Context(START, "mail", 2))
        assert len(selects) <= 2, selects          # the count of Paranoid PEPs (Rule 4E0)
        assert len(set(selects)) == len(selects), selects


def test_moving_time_writes_the_kept_game_row_through(db):
    """engine._set_now changes the kept game row as its UPDATE changes the table:
    the row read next is the row the table holds, with no statement for it."""
    for at in (datetime(2008, 9, 1, 0, 0, 7, 123456, tzinfo=timezone.utc),
               datetime(2008, 9, 2, tzinfo=timezone.utc),
               datetime(2008, 9, 2, 3, 4, 5, tzinfo=timezone.utc)):
        with write_transaction():
            context.current_game()
            with counted() as selects:
                engine._set_now(at)
                kept = context.current_game()
            assert selects == []
            fresh = Game.get()
            assert kept.__data__ == fresh.__data__ and kept.now == at
            assert str(kept.now) == str(fresh.now) and kept.now.tzinfo == fresh.now.tzinfo


def test_moving_time_with_no_row_kept_keeps_none(db):
    with write_transaction():
        engine._set_now(datetime(2008, 9, 3, tzinfo=timezone.utc))
        with counted() as selects:
            assert context.current_game().now == datetime(2008, 9, 3, tzinfo=timezone.utc)
        assert len(selects) == 1


@contextmanager
def all_statements():
    """Every statement the game's connection runs in the block (each once: the
    trace callback repeats a statement's text for its triggers' steps)."""
    seen = []
    conn = database.connection()
    conn.set_trace_callback(lambda sql: seen.append(sql) if not seen or seen[-1] != sql else None)
    try:
        yield seen
    finally:
        conn.set_trace_callback(None)


def test_a_lazy_savepoint_that_only_reads_runs_no_statement_of_its_own(db):
    from bnomic.store import versions
    with write_transaction():
        with all_statements() as seen:
            with versions.lazy_savepoint(database):
                assert registry.power(14) == Fraction(1, 2)
            with pytest.raises(ZeroDivisionError):
                with versions.lazy_savepoint(database):
                    registry.power(15)
                    1 / 0
        assert not [s for s in seen if s.split()[0].upper() in ("SAVEPOINT", "RELEASE", "ROLLBACK")]


def test_a_lazy_savepoint_begins_before_its_first_write_and_undoes_it(db):
    from bnomic.store import versions
    with write_transaction():
        assert registry.power(14) == Fraction(1, 2)
        with all_statements() as seen:
            with pytest.raises(ZeroDivisionError):
                with versions.lazy_savepoint(database):
                    assert registry.power(15) is not None
                    Rule.update(power_num=1, power_den=1).where(Rule.number == 14).execute()
                    assert registry.power(14) == 1
                    1 / 0
        kinds = [s.split()[0].upper() for s in seen]
        assert kinds.index("SAVEPOINT") < kinds.index("UPDATE") and "ROLLBACK" in kinds
        assert registry.power(14) == Fraction(1, 2)
        with versions.lazy_savepoint(database):          # written and kept
            Rule.update(power_num=2, power_den=3).where(Rule.number == 14).execute()
        assert registry.power(14) == Fraction(2, 3)
    with write_transaction():
        assert registry.power(14) == Fraction(2, 3)


def test_savepoints_inside_a_lazy_one_nest_in_it(db):
    """A savepoint (or a lazy one that writes) begun inside a lazy one waiting: the
    outer one begins first, so rolling it back undoes what the inner ones released."""
    from bnomic.store import versions
    with write_transaction():
        with pytest.raises(ZeroDivisionError):
            with versions.lazy_savepoint(database):
                with versions.lazy_savepoint(database):
                    registry.power(14)                      # reads only: no statement
                with database.atomic():
                    Rule.update(power_num=1, power_den=1).where(Rule.number == 14).execute()
                with versions.lazy_savepoint(database):
                    Rule.update(power_num=1, power_den=5).where(Rule.number == 15).execute()
                assert registry.power(14) == 1 and registry.power(15) == Fraction(1, 5)
                1 / 0
        assert registry.power(14) == Fraction(1, 2)
        assert registry.power(15) != Fraction(1, 5)
        with pytest.raises(ZeroDivisionError):
            with versions.lazy_savepoint(database):
                hot_rule = Rule.get(Rule.number == 14)
                hot_rule.power_num, hot_rule.power_den = 3, 4
                from bnomic.store import hot
                hot.update_rows([hot_rule], ("power_num", "power_den"))   # an executemany
                1 / 0
        assert registry.power(14) == Fraction(1, 2)


def test_a_lazy_savepoint_outside_a_transaction_is_one(db):
    from bnomic.store import versions
    with pytest.raises(ZeroDivisionError):
        with versions.lazy_savepoint(database):
            Rule.update(power_num=1, power_den=1).where(Rule.number == 14).execute()
            1 / 0
    with write_transaction():
        assert registry.power(14) == Fraction(1, 2)


def test_lazy_savepoints_are_each_threads_own(db):
    """The daemon's threads share the database object (each its own connection): a
    lazy savepoint waiting in the engine's thread is never begun by another's write."""
    import threading
    from bnomic.store import versions
    seen = []
    with write_transaction():
        with versions.lazy_savepoint(database):
            assert len(database.obj._versions.lazy) == 1
            other = threading.Thread(target=lambda: seen.append(list(database.obj._versions.lazy)))
            other.start()
            other.join()
        assert database.obj._versions.lazy == []
    assert seen == [[]]


# ---------------------------------------------------------------- by column

def _count_paranoid():
    from bnomic.handlers import emergency
    return emergency.paranoid_count()


def test_a_value_kept_on_columns_outlives_an_update_of_other_columns(db):
    """versions.columns: an UPDATE of plain values counts a write to the columns it
    sets; a value that reads only other columns of the table is kept (a gift's
    UPDATE of mackerel leaves the count of Paranoid PEPs, Rule 4E0)."""
    from bnomic.store import hot
    with write_transaction():
        p = Player.create(name="Wooble", name_key="wooble", joined_nweek=1, mackerel=5)
        assert _count_paranoid() == 0
        with counted() as selects:
            p.mackerel = 7
            p.save(only=[Player.mackerel])                          # UPDATE "player" SET "mackerel" = ?
            hot.update(Player, {"points": 3}, {"id": p.id})
            database.execute_sql('UPDATE "player" SET "vested" = 1, "left_nweek" = NULL WHERE "id" = ?',
                                 (p.id,))
            assert _count_paranoid() == 0
        assert selects == []
        Player.update(mental_state="Paranoid").where(Player.id == p.id).execute()
        assert _count_paranoid() == 1                               # a column it reads: read again
        p.save()                                                    # every column (Sane again)
        assert _count_paranoid() == 0


def test_a_value_kept_on_columns_is_read_again_after_any_other_write(db):
    """An INSERT, a DELETE, an UPDATE not of plain values and a rollback over a write of
    the columns: each is read again ("table.*" or the column counted)."""
    with write_transaction():
        p = Player.create(name="Wooble", name_key="wooble", joined_nweek=1, mental_state="Paranoid")
        assert _count_paranoid() == 1
        q = Player.create(name="Blob", name_key="blob", joined_nweek=1, mental_state="Paranoid")
        assert _count_paranoid() == 2                               # an INSERT
        database.execute_sql('UPDATE "player" SET "mental_state" = "mental_state" || ? WHERE "id" = ?',
                             ("!", q.id))
        assert _count_paranoid() == 1                               # an expression: any column
        Player.delete().where(Player.id == q.id).execute()
        assert _count_paranoid() == 1
        with pytest.raises(ZeroDivisionError):
            with database.atomic():
                Player.update(mental_state="Sane").where(Player.id == p.id).execute()
                assert _count_paranoid() == 0
                1 / 0
        assert _count_paranoid() == 1                               # the rollback undid the column's write
        with pytest.raises(ZeroDivisionError):
            with database.atomic():
                Player.update(mackerel=3).where(Player.id == p.id).execute()
                1 / 0
        with counted() as selects:
            assert _count_paranoid() == 1                           # a rollback of another column only
        assert selects == []


def test_the_set_columns_of_an_update_are_read_from_its_text():
    from bnomic.store import versions
    assert versions._set_columns('UPDATE "player" SET "mackerel" = ? WHERE ("player"."id" = ?)') \
        == ("player.mackerel",)
    assert versions._set_columns('UPDATE "player" SET "a" = ?, "b" = NULL, "c" = 3 WHERE "id" = ?') \
        == ("player.a", "player.b", "player.c")
    assert versions._set_columns('UPDATE "game" SET "now" = ?') == ("game.now",)
    for sql in ('UPDATE "x" SET "a" = ("a" + ?)', 'UPDATE OR REPLACE "x" SET "a" = ?',
                'UPDATE "x" SET "a" = ?, "b" = "c"', "UPDATE \"x\" SET \"a\" = 'it''s'",
                'UPDATE x SET a = ?'):
        assert versions._set_columns(sql) is None, sql


def test_the_tables_a_value_kept_on_columns_reads_are_its_tables(db):
    """reading_tables (the displays' regathering, mailer/publish.py) names the table."""
    from bnomic.store import versions
    with write_transaction():
        _count_paranoid()
        with versions.reading_tables(database) as read:
            _count_paranoid()
        assert "player" in read and not any("." in t for t in read)


def test_the_senders_row_is_read_once_for_a_gift(db):
    """The sender's row, found by address, is not fetched again by the gift (Rule 4E33)
    nor by Rule 4E28's check when the sender is Active and acted this nweek."""
    from bnomic.handlers import players
    with write_transaction():
        game = context.current_game()
        p = Player.create(name="Wooble", name_key="wooble", joined_nweek=1, active=True,
                          last_action_nweek=game.nweek)
        from bnomic.store import Address
        Address.create(address="wooble@example.org", player=p)
        actor = players.player_by_address("wooble@example.org")
        ctx = Context(START, "command")
        players.note_action(ctx, actor)
        with counted() as selects:
            assert players.player_row(p.id).mackerel == actor.mackerel
            players.note_action(ctx, actor)
        assert selects == []
        Player.update(active=False).where(Player.id == p.id).execute()
        players.note_action(ctx, actor)                             # read again, made Active again
        assert Player.get_by_id(p.id).active
