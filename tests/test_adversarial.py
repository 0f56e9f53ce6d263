"""Issue 11 item 1, issue 12 item 4: no message can stall the game, and one
message's work is bounded.

Adversarial lines go through the real reader (the sender's own words, then the
grammar) with a step budget: each is read within a bound counted in steps,
never timed here (bench/adversarial.py reports the seconds). Through `bnomic
ingest`: a message over its budget is refused with its reason and the next is
still applied; long lines are not read; the action limits are refused citing
them; bnomic's own mail echoed by the list is stored but never read; `bnomic
preview` works on a copy and takes no write lock.
"""
from __future__ import annotations

import random
import re
import sqlite3
from datetime import datetime, timezone

import pytest

from bnomic.config import defaults
from bnomic.handlers import budget, grammar
from bnomic.mailer.parse import own_words, strip_comments

from conftest import Game, game_with_limits

LIMITS = defaults()["limits"]


def _registrar(rows: int) -> str:
    row = "%-20s %7d %9s  %-6s %-6s  %s" % ("Wooble", 12, "m50", "yes", "no", "wooble@example.org")
    return "\n".join([row] * rows)


# name -> a message body made to stall a backtracking reader
ADVERSARIAL = {
    "spaces": "I give m5 to " + " " * 1900 + "x!?",
    "spaces-30": "I give m5 to Wooble" + " " * 30 + "x",
    "tabs": "I give\t" + "\t" * 1900 + "!?",
    "commas": "I give " + "," * 1900 + "x",
    "comma-space": "I give m5 to A" + ", " * 900 + "!?",
    "and": "I give m5 to A" + " and" * 450 + " x!?",
    "quotes": 'I submit "' + '"' * 1900 + "x",
    "i-give": "I give " * 270 + "!?",
    "unclosed-comment": "I give m5 to A /*" + " /*" * 30000,
    "unclosed-wiki": "I give m5 to A [[" + " [[" * 30000,
    "line-100kB": "I give m5 to A " + "a" * 100_000,
    "many-lines": ("I give m5 to " + " " * 1500 + "x!?\n") * 60,
    "registrar": _registrar(1500),
    "trailing-spaces": "I vote FOR 12" + " ." * 900 + " please",
}


def _read(text: str, limit: int | None) -> tuple[int, list[grammar.Reading] | None]:
    """Read as the engine does; (steps spent, readings or None when over budget)."""
    try:
        with budget.bounded(limit) as b:
            readings = grammar.read(own_words(text), max_line=LIMITS["max_line"])
    except budget.OverBudget:
        return b.spent, None
    return b.spent, readings


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_each_adversarial_message_is_read_within_its_step_budget(name):
    spent, readings = _read(ADVERSARIAL[name], LIMITS["read_steps"])
    # the budget is the bound: a message either is read within it or is stopped at it
    # (overshooting by at most one charge: every phrasing against one longest line)
    assert spent <= LIMITS["read_steps"] + 10 * LIMITS["max_line"] * 40
    if name != "registrar":           # 1500 lines of the display: stopped by the budget
        assert readings is not None
    again, _ = _read(ADVERSARIAL[name], LIMITS["read_steps"])
    assert again == spent          # deterministic: a replay comes to the same verdict


def test_a_line_over_the_limit_is_not_read_and_says_why():
    readings = grammar.read("I give m5 to Wooble.\nI give m5 to " + "x" * 3000 + "\nI forfeit.",
                            max_line=2000)
    assert [r.spec.name if r.spec else None for r in readings] == ["give", None, "forfeit"]
    assert "3013 characters long" in readings[1].error and "limits.max_line = 2000" in readings[1].error


def test_the_progress_callback_is_called_while_a_long_message_is_read():
    pings = []
    budget.set_progress(lambda: pings.append(1), every=10_000)
    try:
        # (each line its own: a line said again is read once, at no cost, grammar.read_sentence)
        _read("".join(f"I give m5 to Wooble and m3 to Bob (line {k}).\n" for k in range(200)), None)
    finally:
        budget.set_progress(None)
    assert len(pings) >= 10


def test_readings_stay_the_same_for_ordinary_text():
    text = "I vote FOR 12, please :)\nI give m5 to Wooble and m3 to Bob, then I forfeit.\n" \
           "On nday 8, I give m1 to Bob 3 times, for the maps."
    got = [(r.spec.name, r.args, r.times, r.when.nday if r.when else None) for r in grammar.read(text)]
    assert got == [("vote", {"vote": "FOR", "which": "12"}, 1, None),
                   ("give", {"amount": "m5", "player": "Wooble"}, 1, None),
                   ("give", {"amount": "m3", "player": "Bob"}, 1, None),
                   ("forfeit", {}, 1, None),
                   ("give", {"amount": "m1", "player": "Bob"}, 3, 8)]


_OLD_TRAIL = re.compile(r"(?:[\s.!?;,]+|[\s,]+(?:please|pls|plz|thanks|thank you|thx)\b|\s+[:;]-?[()DPp]+"
                        r"|\s*,\s*then\b|[\s,]+(?:anyway|too|as well|though|instead)\b)+$", re.I)


def test_trailing_words_are_stripped_as_the_old_pattern_did():
    rng = random.Random(11)
    pieces = ["I vote", " ", ",", ".", "!", " please", " thanks", " thank you", " too", " :)", ";-P",
              " then", ", then", "as well", " instead", "x", " though", " D", "?"]
    for _ in range(4000):
        s = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 7)))
        assert grammar.strip_trail(s) == _OLD_TRAIL.sub("", s), s


_OLD_COMMENT = re.compile(r"/\*.*?\*/|\[\[.*?\]\]", re.S)


def test_comment_text_is_stripped_as_before_and_an_unclosed_one_is_left():
    rng = random.Random(5)
    for _ in range(4000):
        s = "".join(rng.choice(["/*", "*/", "[[", "]]", "a", "/", "*", "[", "]", " ", "\n"])
                    for _ in range(rng.randint(0, 14)))
        assert strip_comments(s) == _OLD_COMMENT.sub(" ", s), s
    unclosed = "I give m5 to A /*" + " /*" * 50_000 + " [[ x ]] [[" * 1000
    assert strip_comments(unclosed) == _OLD_COMMENT.sub(" ", unclosed[:200_000])


# ------------------------------------------------------- through bnomic ingest

_game = game_with_limits


def _outcomes(game: Game, sender: str) -> list[list[dict]]:
    """Each mail's outcomes from `sender`, in order."""
    return [m["outcomes"] for m in game.mails() if m["sender"] == sender]


def test_a_message_over_budget_is_refused_and_the_next_is_applied(tmp_path):
    game = _game(tmp_path, read_steps=200_000)
    game.join("Wooble", "2008-09-01T10:00:00Z")
    # (each line its own: a line said again is read once, at no cost, grammar.read_sentence)
    out = game.post("wooble@example.org",
                    "".join(f"I give m1 to The Beast and m1 to Bob (line {k}).\n" for k in range(300)),
                    "2008-09-01T11:00:00Z")
    assert "took more than 200000 steps" in out and "limits.read_steps = 200000" in out
    assert "Rule 4E7" in out
    out = game.post("wooble@example.org", "I give m5 to The Beast.", "2008-09-01T12:00:00Z")
    assert game.players()["Wooble"]["mackerel"] == 45
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest


def test_a_100kB_line_is_not_read_and_the_receipt_says_so(game):
    game.join("Wooble", "2008-09-01T10:00:00Z")
    out = game.post("wooble@example.org", "I give m5 to The Beast.\nI give m1 to " + "B" * 100_000,
                    "2008-09-01T11:00:00Z")
    assert "limits.max_line = 2000" in out
    assert game.players()["Wooble"]["mackerel"] == 45


def test_actions_per_message_are_limited_citing_the_limit(tmp_path):
    game = _game(tmp_path, actions_per_message=3)
    game.join("Wooble", "2008-09-01T10:00:00Z")
    out = game.post("wooble@example.org", "I give m1 to The Beast 2 times.\nI give m1 to The Beast.\n"
                    "I give m1 to The Beast.\nI give m1 to The Beast.", "2008-09-01T11:00:00Z")
    assert "limits.actions_per_message = 3" in out and "(and 1 more)" in out
    assert game.players()["Wooble"]["mackerel"] == 47


def test_actions_per_sender_per_day_are_limited_and_counted_from_the_state(tmp_path):
    game = _game(tmp_path, actions_per_sender_per_day=4)
    game.join("Wooble", "2008-09-01T10:00:00Z")      # joining is an action: 1
    game.post("wooble@example.org", "I give m1 to The Beast 2 times.", "2008-09-01T11:00:00Z")   # 3
    out = game.post("wooble@example.org", "I give m1 to The Beast.\nI give m1 to The Beast.",
                    "2008-09-01T12:00:00Z")
    assert "has done 3 actions this UTC day" in out and "limits.actions_per_sender_per_day = 4" in out
    assert game.players()["Wooble"]["mackerel"] == 47
    game.post("wooble@example.org", "I give m1 to The Beast.", "2008-09-02T00:00:01Z")  # a new day
    assert game.players()["Wooble"]["mackerel"] == 46
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest


# ------------------------------------------------------------- own mail echoed

def _display_echo(game: Game, tmp_path, rewrite=None) -> bytes:
    """The Society display (the players, names padded to 20 columns) as bnomic mails it (outbound.build of its outbox row)."""
    from bnomic.handlers.context import Context, game_config
    from bnomic.mailer import outbound, publish
    from bnomic.store import Game as GameRow, open_database, write_transaction
    open_database(game.db)
    config = game_config()
    with write_transaction():
        ctx = Context(GameRow.get().now, "command")
        text = publish.display_text(ctx, "Society")
        row = publish.display_mail("Society", text + "\nI give m5 to The Beast.\n",
                                   ["business@example.org"], config,
                                   datetime(2008, 9, 1, 12, tzinfo=timezone.utc), key="echo-test")
    msg = outbound.build(row, config)
    if rewrite:
        rewrite(msg)
    return bytes(msg)


def _ingest(game: Game, tmp_path, raw: bytes, at: str) -> str:
    path = tmp_path / f"echo{abs(hash(raw))}.eml"
    path.write_bytes(raw)
    return game.cli("ingest", "--at", at, str(path))


def test_own_display_echoed_by_the_list_is_stored_but_not_read(game, tmp_path):
    game.join("Wooble", "2008-09-01T10:00:00Z")
    game.join("Bob", "2008-09-01T10:30:00Z")
    before = game.players()
    _ingest(game, tmp_path, _display_echo(game, tmp_path), "2008-09-01T13:00:00Z")
    [outcomes] = _outcomes(game, "bnomic@localhost")
    assert len(outcomes) == 1 and "bnomic's own mail, not read" in outcomes[0]["reason"]
    assert game.players() == before


def test_own_mail_with_from_and_x_loop_rewritten_is_known_by_its_message_id(game, tmp_path):
    game.join("Wooble", "2008-09-01T10:00:00Z")

    def list_rewrites(msg):              # a list that munges From and drops X-Loop
        del msg["From"], msg["X-Loop"]
        msg["From"] = "bnomic via B Nomic <business@example.org>"
    _ingest(game, tmp_path, _display_echo(game, tmp_path, list_rewrites), "2008-09-01T13:00:00Z")
    [outcomes] = _outcomes(game, "business@example.org")
    assert len(outcomes) == 1 and "its Message-ID is one bnomic sent" in outcomes[0]["reason"]


# ------------------------------------------------------------------- preview

def test_preview_takes_no_write_lock(game, tmp_path):
    """While the preview works on its copy, another writer can write the real file."""
    from bnomic.handlers import engine
    from bnomic.store import open_database, snapshot
    game.join("Wooble", "2008-09-01T10:00:00Z")
    before = game.digest()
    open_database(game.db)
    with snapshot():
        from bnomic.handlers.post import Post
        post = Post(sender="wooble@example.org", subject="", text="I give m5 to The Beast.",
                    at=datetime(2008, 9, 1, 11, tzinfo=timezone.utc), message_id="<p@x>")
        previewed = engine.preview_post(post, None)
        other = sqlite3.connect(game.db, timeout=0)
        other.execute("BEGIN IMMEDIATE")           # fails at once if the lock were held
        other.execute("CREATE TABLE scratch (x)")
        other.execute("ROLLBACK")
        other.close()
    assert previewed and previewed[0]["accepted"]
    assert game.digest() == before


# ----------------------------------------------------------- a static check

# Patterns with an unbounded quantifier inside another, each read and found safe:
# every repetition must begin or end with a literal the inner quantifier cannot
# match, so the text is cut into repetitions in one way only.
REVIEWED_NESTED = {
    "bnomic.handlers.changes._PATTERNS[10][1]": "(?:\\.[\\w-]+)+: each part begins with '.'",
    "bnomic.handlers.grammar._POLITE": "each repetition begins with a whole polite word",
    "bnomic.handlers.grammar._I_POLITE": "each repetition begins with a whole word",
    "action rank_refresh_proposals[0]": "each further number follows a separator word or sign",
    "action rank_refresh_proposals[1]": "each further number follows a separator word or sign",
    "action vote[0]": "each further number follows ',', '&' or 'and'",
    "action vote[1]": "each further number follows ',', '&' or 'and'",
}


def _nested_unbounded(items) -> bool:
    from re import _constants as C
    repeats = (C.MAX_REPEAT, C.MIN_REPEAT)

    def walk(items):
        for op, av in items:
            yield op, av
            if op in repeats or op is C.POSSESSIVE_REPEAT:
                yield from walk(av[2])
            elif op is C.SUBPATTERN:
                yield from walk(av[3])
            elif op is C.BRANCH:
                for branch in av[1]:
                    yield from walk(branch)
            elif op in (C.ASSERT, C.ASSERT_NOT):
                yield from walk(av[1])
            # an atomic group is never backtracked into: not walked

    return any(op in repeats and av[1] == C.MAXREPEAT and
               any(op2 in repeats and av2[1] == C.MAXREPEAT for op2, av2 in walk(av[2]))
               for op, av in walk(items))


def test_no_pattern_nests_unbounded_quantifiers_unless_reviewed():
    """The shape that backtracks exponentially, (x+)+, found in every regular
    expression bnomic holds (bench/regex.py measures the rest)."""
    import importlib.util
    import pathlib
    from re import _parser
    path = pathlib.Path(__file__).parent.parent / "bench" / "regex.py"
    spec = importlib.util.spec_from_file_location("bnomic_bench_regex", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    found = {where for where, text, flags, _ in bench.all_patterns()
             if _nested_unbounded(list(_parser.parse(text, flags)))}
    assert found <= set(REVIEWED_NESTED), sorted(found - set(REVIEWED_NESTED))
