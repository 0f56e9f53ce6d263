"""Issue 16: the statements run for every entry have their SQL text made once
(store/hot.py), and do what peewee's queries do: the same rows written, the
same rows read. Real SQLite files; a game played through the real `bnomic`."""
import mailbox
import traceback
from datetime import datetime, timezone

import peewee
import pytest

from bnomic.mailer import runner
from conftest import make_mail
from bnomic.store import (
    Address, Bounce, Entry, Event, Game, Outcome, Player, close_database, database, hot, open_database,
    write_transaction,
)

START = datetime(2008, 9, 1, tzinfo=timezone.utc)
AT = datetime(2008, 9, 1, 10, 30, tzinfo=timezone.utc)


def _game(path: str) -> None:
    open_database(path)
    runner.create_game(START, seed="hot")


def _rows(model) -> list[tuple]:
    cols = ", ".join(f'"{f.column_name}"' for f in model._meta.sorted_fields)
    pk = model._meta.primary_key.column_name
    return database.execute_sql(f'SELECT {cols} FROM "{model._meta.table_name}" ORDER BY "{pk}"').fetchall()


def _play(save) -> dict:
    """The same writes, each row saved by `save(row, **kw)`; every table's rows after."""
    with write_transaction():
        a = Player(name="Ais523", name_key="ais523", joined_nweek=1)
        save(a)
        b = Player(name="Wooble", name_key="wooble", mackerel=7, left_nweek=None)
        save(b)
        save(Address(address="ais@example.org", player=a), force_insert=True)
        save(Address(address="wooble@example.org", player=b.id), force_insert=True)
        save(Event(at=AT, cause="mail", entry=3, rule="4E33", kind="mackerel",
                   summary="Ais523 gives m5", data={"b": [1, 2], "a": None}))
        save(Outcome(entry=3, position=1, action=None, text="I give m5 to Wooble", accepted=True))
        a.mackerel, a.active, a.left_nweek = 45, True, None
        save(a)
        b.points = 3
        save(b, only=[Player.points])
        game = Game.get()
        game.now = AT
        save(game)
    return {m.__name__: _rows(m) for m in (Player, Address, Event, Outcome, Game)}


def test_save_writes_what_peewee_writes(tmp_path):
    _game(str(tmp_path / "peewee.sqlite"))
    by_peewee = _play(lambda row, **kw: peewee.Model.save(row, **kw))
    close_database()
    _game(str(tmp_path / "hot.sqlite"))
    by_hot = _play(lambda row, **kw: row.save(**kw))
    close_database()
    assert by_hot == by_peewee
    assert any(r[1] == "Ais523" and r[6] == 45 for r in by_hot["Player"]) and len(by_hot["Address"]) == 2


def test_reads_and_writes_as_peewee(tmp_path):
    _game(str(tmp_path / "game.sqlite"))
    with write_transaction():
        a = Player.create(name="Ais523", name_key="ais523", joined_nweek=1, active=True)
        Address.create(address="ais@example.org", player=a)
        Player.create(name="Wooble", name_key="wooble", is_player=False)
        Bounce.create(address="ais@example.org", since=AT, entry=1, reason="5.1.1")
        for where in ({"name_key": "ais523"}, {"is_player": False}, {"left_nweek": None},
                      {"id": 99}, {}):
            query = Player.select().order_by(Player.id)
            for k, v in where.items():
                query = query.where(getattr(Player, k) == v if v is not None else getattr(Player, k).is_null())
            expected = [p.__data__ for p in query]
            assert [p.__data__ for p in hot.rows(Player, where, ("id",))] == expected
            assert hot.exists(Player, **where) == bool(expected)
        row = hot.get(Player, name_key="ais523")
        assert row.__data__ == Player.get(Player.name_key == "ais523").__data__ and not row.is_dirty()
        assert hot.get_or_none(Player, name_key="nobody") is None
        with pytest.raises(Player.DoesNotExist):
            hot.get(Player, name_key="nobody")
        (first,) = hot.fetch(Player, "test join", 'INNER JOIN "address" AS "t2" ON ("t1"."id" = '
                             '"t2"."player_id") WHERE ("t2"."address" = ?)', ("ais@example.org",))
        assert first.__data__ == Player.get_by_id(a.id).__data__ and first.addresses.count() == 1
        assert hot.update(Player, {"points": 4, "vested": True}, {"name_key": "ais523"}) == 1
        assert (Player.get_by_id(a.id).points, Player.get_by_id(a.id).vested) == (4, True)
        assert hot.delete(Bounce, {"address": "ais@example.org"}) == 1
        assert Bounce.select().count() == 0
        assert hot.value("count", 'SELECT COUNT(*) FROM "player"') == Player.select().count() == 3
    close_database()


def _creates(create) -> tuple[dict, list]:
    """The same rows made by `create(Model, **values)`; every table's rows after, and
    what each create returned (its values, its key, what is dirty)."""
    made = []
    with write_transaction():
        a = create(Player, name="Ais523", name_key="ais523", joined_nweek=1)
        made.append(a)
        made.append(create(Address, address="ais@example.org", player=a))          # a foreign key
        made.append(create(Event, at=AT, cause="mail", entry=3, rule="4E33", kind="mackerel",
                           summary="Ais523 gives m5", data={"b": [1, 2], "a": None}))
        made.append(create(Event, at=AT, cause="midnight", kind="clock", summary="a new nday"))
        made.append(create(Outcome, entry=3, position=1, action=None, text="I give m5", accepted=True))
        made.append(create(Outcome, entry=3, position=2, action="give", text="x", accepted=False,
                           reason="no", rule="4E33", id=None))
    rows = {m.__name__: _rows(m) for m in (Player, Address, Event, Outcome)}
    return rows, [(type(r).__name__, r.__data__, r._pk, r.is_dirty(), r._dirty) for r in made]


def test_create_makes_what_peewee_makes(tmp_path):
    """StateModel.create (store/hot.create where it can) writes the rows, and returns
    rows, that peewee's create does (its __init__ and save)."""
    from peewee import Model
    _game(str(tmp_path / "peewee.sqlite"))
    by_peewee = _creates(lambda model, **kw: Model.create.__func__(model, **kw))
    close_database()
    _game(str(tmp_path / "hot.sqlite"))
    by_hot = _creates(lambda model, **kw: model.create(**kw))
    close_database()
    assert by_hot == by_peewee
    assert by_hot[0]["Event"][-1][0] == by_hot[0]["Event"][-2][0] + 1        # max + 1, counted on


def test_every_table_reads_as_peewee_value_for_value_and_type(tmp_path):
    """hot's rows leave a stored value as it is only where peewee's python_value would
    (an int of an integer field, a str of a text one, None): every column of every
    table, types compared too (True == 1, but a bool is not an int)."""
    from bnomic.store.models import LOG_MODELS, STATE_MODELS
    _game(str(tmp_path / "game.sqlite"))
    _play(lambda row, **kw: row.save(**kw))
    with write_transaction():
        seen = 0
        for model in (*STATE_MODELS, *LOG_MODELS):
            pk = model._meta.primary_key
            if pk is False or model._meta.composite_key:
                continue
            expected = [[(k, type(v), v) for k, v in r.__data__.items()]
                        for r in model.select().order_by(pk)]
            got = [[(k, type(v), v) for k, v in r.__data__.items()]
                   for r in hot.rows(model, {}, (pk.name,))]
            assert got == expected, model.__name__
            seen += len(got)
        assert seen > 50
    close_database()


def test_mail_builds_little_sql_through_peewee(game, tmp_path):
    """Ten gifts between Players ingested in one batch run few statements whose
    text peewee builds from a query tree: what is asked once per transaction,
    not per mail (the hot ones are made once; before issue 16 part C each such
    mail built about 35)."""
    for name in ("Ais523", "Wooble", "Chuck"):
        game.join(name, "2008-09-01T09:00:00Z")
    box = mailbox.mbox(str(tmp_path / "gifts.mbox"))
    for i in range(10):
        giver, to = [("ais523", "Wooble"), ("wooble", "Chuck"), ("chuck", "Ais523")][i % 3]
        box.add(make_mail(f"{giver}@example.org", f"I give m1 to {to}.",
                          date=f"2008-09-01T10:{i:02d}:00Z"))
    box.flush()
    built = []
    real = peewee.Database.execute

    def counting(self, query, *a, **kw):       # peewee's way from a query tree to SQL text
        frames = [f for f in traceback.extract_stack()[:-1]
                  if "bnomic/" in f.filename and "/store/" not in f.filename]
        built.append(f"{frames[-1].filename.split('bnomic/')[-1]}:{frames[-1].lineno}" if frames else "?")
        return real(self, query, *a, **kw)
    peewee.Database.execute = counting
    try:
        out = game.cli("ingest", str(tmp_path / "gifts.mbox"))
    finally:
        peewee.Database.execute = real
    assert out.count("Done: ") == 10 or out.count("give") >= 10, out
    assert [game.players()[n]["mackerel"] for n in ("Ais523", "Wooble", "Chuck")] == [49, 51, 50]
    assert len(built) <= 40, "\n".join(built)


def test_ingest_parses_each_mail_once(game, tmp_path):
    """`bnomic ingest` parses a mail to store it and does not parse it again to
    apply it (mailer/parse.py keeps the mails it parsed last)."""
    box = mailbox.mbox(str(tmp_path / "joins.mbox"))
    for i, name in enumerate(("Ais523", "Wooble", "Chuck", "Quazie")):
        box.add(make_mail(f"{name.lower()}@example.org", f"I join as {name}.",
                          date=f"2008-09-01T10:{i:02d}:00Z"))
    box.flush()
    from bnomic.mailer import parse
    parsed = []
    real = parse._parse         # (mail-parser, or for a plain mail its reading of the headers)

    def counting(raw, *a, **kw):
        parsed.append(raw)
        return real(raw, *a, **kw)
    parse._parse = counting
    try:
        game.cli("ingest", str(tmp_path / "joins.mbox"))
    finally:
        parse._parse = real
    assert set(game.players()) >= {"Ais523", "Wooble", "Chuck", "Quazie"}
    assert len(parsed) == len(set(parsed)) == 4


def test_ingest_parses_each_mail_once_beyond_the_mails_usually_kept(game, tmp_path, monkeypatch):
    """An archive of more mails than parse keeps (300; 2 here) is still parsed
    once: ingest parses all of it to order it before applying the first batch,
    and keeps it parsed meanwhile (parse.keeping)."""
    from bnomic.mailer import parse
    monkeypatch.setattr(parse, "_RECENT_KEPT", 2)
    monkeypatch.setattr(parse, "_limits", [2, parse._RECENT_BYTES], raising=False)
    box = mailbox.mbox(str(tmp_path / "joins.mbox"))
    for i, name in enumerate(("Ais523", "Wooble", "Chuck", "Quazie", "Murphy")):
        box.add(make_mail(f"{name.lower()}@example.org", f"I join as {name}.",
                          date=f"2008-09-01T10:{i:02d}:00Z"))
    box.flush()
    parsed = []
    real = parse._parse         # (mail-parser, or for a plain mail its reading of the headers)

    def counting(raw, *a, **kw):
        parsed.append(raw)
        return real(raw, *a, **kw)
    monkeypatch.setattr(parse, "_parse", counting)
    game.cli("ingest", str(tmp_path / "joins.mbox"))
    assert set(game.players()) >= {"Ais523", "Wooble", "Chuck", "Quazie", "Murphy"}
    assert len(parsed) == len(set(parsed)) == 5
    assert len(parse._RECENT) <= 2          # the usual bound again afterwards


def test_a_mail_parsed_again_is_the_same_reading():
    from bnomic.mailer import parse
    one, other = make_mail("a@example.org", "I join as A."), make_mail("b@example.org", "I join as B.")
    assert parse.parse(one) is parse.parse(bytes(one))
    assert parse.sender(parse.parse(other)) == ("", "b@example.org")
    assert parse.parse(bytearray(one)) is not parse.parse(one)      # not bytes: parsed each time


def test_the_from_line_is_read_once_per_mail():
    """The Post, the sender's trust and the reply gate each ask who sent a mail:
    its From line is read (strictly and leniently) once."""
    import email.utils
    from bnomic.mailer import parse
    raw = make_mail("ais@example.org", "I give m1 to Wooble.", name="Ais 523")
    mail = parse.parse(raw + b"\n")         # bytes of its own: not a mail parsed before
    reads = []
    real = email.utils.getaddresses

    def counting(*a, **kw):
        reads.append(a)
        return real(*a, **kw)
    email.utils.getaddresses = counting
    try:
        post = parse.to_post(raw, AT, mail=mail)
        again = parse.sender(mail), parse.from_line(mail)
    finally:
        email.utils.getaddresses = real
    assert post.sender == "ais@example.org" and post.display_name == "Ais 523"
    assert again == (("Ais 523", "ais@example.org"), ("Ais 523", "ais@example.org", ""))
    assert len(reads) == 1


def test_the_duties_are_put_in_order_once_per_transaction(tmp_path):
    """Rule 4E75's order of the Ministers' duties, run after every entry, is worked
    out once per transaction while the Rules' Powers are unchanged, and again after
    a Power changes."""
    from bnomic.handlers import ministries, registry
    from bnomic.handlers.context import Context
    from bnomic.store import Rule
    _game(str(tmp_path / "game.sqlite"))
    asked = []
    real = registry.precedence

    def counting(rule):
        asked.append(rule)
        return real(rule)
    registry.precedence = counting
    try:
        with write_transaction():
            ministries.perform_duties(Context(AT, "mail", 1))
            first = len(asked)
            ministries.perform_duties(Context(AT, "mail", 2))
            again = len(asked) - first
            Rule.update(power_num=3, power_den=4).where(Rule.number == Rule.select(Rule.number).scalar()).execute()
            ministries.perform_duties(Context(AT, "mail", 3))
            after_change = len(asked) - first - again
    finally:
        registry.precedence = real
        close_database()
    assert first >= len(registry.DUTIES) > 0
    assert again == 0 and after_change == first


def test_the_kept_vocabulary_follows_corporations_and_contracts(tmp_path):
    """The reader's vocabulary is kept within a transaction while its tables are
    unchanged: a Corporation or a Contract made in the same transaction (a batch of
    `bnomic ingest`, a rebuild) is in the next mail's words, as it is when each
    mail has a transaction of its own."""
    from bnomic.handlers import engine
    from bnomic.handlers.context import Context
    from bnomic.store import Contract, Corporation
    _game(str(tmp_path / "game.sqlite"))
    try:
        with write_transaction():
            ctx = Context(AT, "mail", 1)
            author = Player.create(name="Ais523", name_key="ais523", joined_nweek=1)
            before = engine.game_words(ctx, None, "")
            assert before.corporations == () and before.contracts == {}
            entity = Player.create(name="Acme Corporation", name_key="acme corporation", is_player=False)
            Corporation.create(name="Acme Corporation", name_key="acme corporation", entity=entity,
                               created_at=AT)
            assert engine.game_words(ctx, None, "").corporations == ("Acme Corporation",)
            made = Contract.create(title="Pact", text="We agree.", author=author, created_at=AT)
            assert engine.game_words(ctx, None, "").contracts == {made.id: "Pact"}
    finally:
        close_database()


@pytest.fixture
def vocabularies_made(monkeypatch):
    """The in_reply_to of each vocabulary.of_game call, and the real function."""
    from bnomic.handlers import vocabulary
    made = []
    real = vocabulary.of_game

    def counting(*args, **kw):
        made.append(args[2] if len(args) > 2 else kw.get("in_reply_to", ""))
        return real(*args, **kw)
    monkeypatch.setattr(vocabulary, "of_game", counting)
    return made, real


def test_a_join_adds_the_new_player_to_the_kept_vocabulary(tmp_path, vocabularies_made):
    """A join changes only the Players: the kept vocabulary gets the new Player
    (and a new Beast) without being made again, and is field for field what
    vocabulary.of_game makes; a Player who leaves, is renamed or rejoins as an
    earlier row has it made anew. Replies' vocabularies alike."""
    from dataclasses import fields
    from bnomic.handlers import engine, vocabulary
    from bnomic.handlers.context import Context
    from bnomic.store import Address, Ministry, Proposal
    _game(str(tmp_path / "game.sqlite"))
    made, real = vocabularies_made

    def same(actor=None, in_reply_to=""):
        kept = engine.game_words(ctx, actor, in_reply_to)
        fresh = real(ctx, actor, in_reply_to)
        for f in fields(vocabulary.Vocabulary):
            assert getattr(kept, f.name) == getattr(fresh, f.name), f.name
            assert type(getattr(kept, f.name)) is type(getattr(fresh, f.name)), f.name
        return kept

    def join(name, **kw):
        player = Player.create(name=name, name_key=name.lower(), joined_nweek=1, **kw)
        Address.create(address=f"{name.lower()}@example.org", player=player)
        return player

    try:
        with write_transaction():
            ctx = Context(AT, "mail", 1)
            Player.update(is_beast=False).execute()         # (the game's Beast: one who joins, below)
            alice = join("Alice")
            Ministry.update(holder=alice).where(Ministry.name == "Change").execute()
            Proposal.create(number=1, title="Clock Fix", author=alice, text="x", status="Open",
                            submitted_at=AT)
            from bnomic.store.log import _append_mail
            _append_mail(make_mail("alice@example.org", "Hello.", msgid="<a@x>"), "<a@x>",
                         "alice@example.org", AT, AT, "test", None, None)
            same(), same("Alice"), same(None, "<a@x>")
            assert made == ["", "<a@x>"]
            made.clear()
            join("Bob")
            join("Beast", is_beast=True)
            first = same()
            assert first.players[-3:] == ("Alice", "Bob", "Beast") and first.beast == "Beast"
            same("Bob")
            assert made == []
            made.clear()
            same(None, "<a@x>")                 # a join writes the address table: a reply's made again
            join("Carol")
            same(None, "<a@x>")
            assert made == ["<a@x>", "<a@x>"]
            made.clear()
            Player.update(name="Bobby").where(Player.name == "Bob").execute()    # renamed
            same()
            Player.update(is_player=False).where(Player.name == "Carol").execute()   # left
            same()
            Player.update(is_player=True).where(Player.name == "Carol").execute()    # rejoined, its own row
            same()
            assert made == ["", "", ""]
    finally:
        close_database()


def test_storing_mail_keeps_the_vocabulary_of_mail_that_replies_to_nothing(tmp_path, vocabularies_made):
    """A mail stored (a batch of `bnomic ingest` stores and applies in one
    transaction) changes only what a reply finds: the vocabulary of a mail that
    replies to nothing is not made again; a reply's is."""
    from bnomic.handlers import engine
    from bnomic.handlers.context import Context
    from bnomic.store.log import _append_mail
    _game(str(tmp_path / "game.sqlite"))
    made, _ = vocabularies_made
    try:
        with write_transaction():
            ctx = Context(AT, "mail", 1)
            engine.game_words(ctx, None, "")
            engine.game_words(ctx, None, "<a@x>")
            _append_mail(make_mail("p@example.org", "Hello.", msgid="<a@x>"), "<a@x>", "p@example.org",
                         AT, AT, "test", None, None)
            engine.game_words(ctx, None, "")
            engine.game_words(ctx, None, "<a@x>")
    finally:
        close_database()
    assert made == ["", "<a@x>", "<a@x>"]
