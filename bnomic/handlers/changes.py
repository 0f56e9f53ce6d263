"""The change language: how Proposals (Rule 4E15), Tweaks (4E77), Tidiness
Lists (4E32) and Oracularities (4E18) write changes to the Rules and the
gamestate, so that bnomic can make them. docs/change-language.md is the
players' guide.

A body is read in three steps:

* `_scan` sets aside Comment Text (Rule 4E5: /* */ and [[ ]]; lines starting
  with # or //), and stands a marker in for each quoted string and {{ }} block,
  so that nothing inside them can end a sentence or look like a comment;
* `_pieces` cuts what is left at line ends and sentence ends (. or ;);
* each piece (or a few lines of one, when a mail program wrapped it) is matched
  against PHRASINGS; what matches none is prose, which the Rulekeeper carries out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from ..store import Rule, VictoryCondition, database, hot
from . import entities, names, rules
from .context import Context, Rejected
from .economy import change_points, credit, fmt, parse_amount, whole_number
from .players import find_player
from .settings import read_value, set_setting

# ------------------------------------------------------------------ phrasings

# What each placeholder may match, in the text with quotes and blocks set aside
# ({} is the group's name). `quoted` is a "..." string; `text` a string or a {{ }} block.
PLACEHOLDERS = {
    "rule": r"(?:rule (?:4e)?|4e)(?P<{}>\d+)",        # Rule 4E36: "Rule 15" is Rule 4E15
    "quoted": "(?P<{}>\ue002\\d+\ue003)",
    "text": "(?P<{}>\ue000\\d+\ue001|\ue002\\d+\ue003)",
    "power": r"(?P<{}>\d+ ?/ ?\d+|[^\s\ue000-\ue003]+)",          # 3/4, 0.75, 1
    "player": r"(?P<{}>.+?)",
    "attribute": r"(?P<{}>points|mackerel)",
    "quantity": r"(?P<{}>an? .+?)",                   # Rule 4E30: "A Jiffy", "An nDozen"
    "key": r"(?P<{}>[a-z_][\w-]*(?:\.[\w-]+)+)",         # players.weekly_income
    "value": r"(?P<{}>.+)",
    "corporation": r"(?P<{}>(?:the )?[^\s\ue000-\ue003].{{0,98}}?\bcorporation)",   # Rule 4E79
    "award": r"(?P<{}>m ?\d{{1,9}}+|\d{{1,9}}+ ?(?:mackerel|macks?|m|points?))",   # m20, 5 points
    "number": r"#?(?P<{}>\d{{1,9}}+)",
}
GROUP_NAMES = {"rule": "number"}        # a placeholder's group, unless the phrasing names it

_TITLED = r"(?:titled|entitled|called|named)"
_CREATE = r"create (?:a )?(?:new )?rule(?:,? " + _TITLED + r" {quoted:title})?"
_POWER = r"(?:,? with (?:a )?power (?:of )?{power})?"
_SECTION = r"(?:,? in (?:the )?section {quoted:section})?"
_WITH_TEXT = r",? (?:and|with) (?:the )?text\s*:?\s*{text}"

# (kind, phrasing): matched whole and case-blind against the instruction with
# its spaces and line ends made single spaces; the first that matches wins.
PHRASINGS = [
    ("create_rule", _CREATE + _POWER + _SECTION + _WITH_TEXT),
    ("create_rule", _CREATE + _SECTION + _POWER + _WITH_TEXT),
    ("amend_rule", r"amend {rule},? (?:to read|so that it reads)(?: as follows)?\s*:?\s*{text}"),
    ("amend_rule", r"replace the text of {rule} with\s*:?\s*{text}"),
    ("repeal_rule", r"repeal {rule}"),
    ("retitle_rule", r"(?:retitle|rename) {rule} (?:to|as) {quoted:title}"),
    ("retitle_rule", r"(?:set|change) the title of {rule} to {quoted:title}"),
    ("set_power", r"(?:set|change) the power of {rule} to {power}"),
    ("replace_text", r"in {rule},? replace {quoted:old} (?:with|by) {quoted:new}"),
    ("replace_text", r"replace {quoted:old} (?:with|by) {quoted:new} in {rule}"),
    ("set_quantity", r"set the configuration key {key} to {value}"),
    ("set_officers", r"(?:set|make) the officers of {corporation} (?:to|be) {value}"),
    ("set_attribute", r"set the {attribute} of {player} to {value}"),
    ("set_attribute", r"set {player}['’]s? {attribute} to {value}"),
    ("set_quantity", r"set (?:the (?:official quantity|value of) )?{quantity} to {value}"),
    # issue 15, part C (after the others, so that their places in _PATTERNS stay)
    ("create_victory_condition", r"create (?:a )?(?:new )?victory condition(?:,? " + _TITLED
     + r" {quoted:title})?" + _WITH_TEXT),
    ("repeal_victory_condition", r"repeal (?:the )?victory condition {number}"),
    ("award", r"(?:award|give|pay) {award} to {player}"),
]

# ---------------------------------------------------------------- what it gives


@dataclass
class Change:
    kind: str        # one of the kinds in PHRASINGS
    args: dict
    text: str        # the instruction as written


@dataclass
class Parsed:
    changes: list[Change]
    prose: list[str]   # non-blank parts that are neither an instruction nor a comment, in order


@dataclass
class Applied:
    change: Change
    ok: bool
    summary: str     # what it did, or why it could not


# ------------------------------------------------------------------ reading

_BLOCK, _QUOTE = "\ue000{}\ue001", "\ue002{}\ue003"
_MARKED = re.compile("([\ue000\ue002])(\\d+)([\ue001\ue003])")
_COMMENTS = {"/*": "*/", "[[": "]]"}                 # Rule 4E5: Comment Text
_QUOTES = {'"': '"”', "“": '”"'}
_LINE_COMMENT = re.compile(r"[ \t]*(?:#|//)")
_LIST_MARK = re.compile(r"\s*(?:\d+[.)]|[-*•])\s+")   # "1. ", "- ", "* "
_SENTENCE_END = re.compile(r"[.;](?=\s|$)")
MAX_WRAPPED_LINES = 8          # an instruction a mail program wrapped, or a block on the next line


def _compile(phrasing: str) -> re.Pattern:
    def group(m: re.Match) -> str:
        kind, name = m.group(1), m.group(2) or GROUP_NAMES.get(m.group(1), m.group(1))
        return PLACEHOLDERS[kind].format(name)
    return re.compile(re.sub(r"\{(\w+)(?::(\w+))?\}", group, phrasing), re.IGNORECASE)


_PATTERNS = [(kind, _compile(p)) for kind, p in PHRASINGS]


# where _scan has something to do: a block or comment opening, a quotation mark, a line's end
_SPECIAL = re.compile(r'\{\{|/\*|\[\[|["“]|\n')


def _scan(body: str) -> tuple[str, list[tuple[str, str, str]]]:
    """The body without comments, each block or quoted string replaced by a marker:
    (skeleton, [(opening, content, closing)]). What is not closed stays as written.
    (The text between two openings is copied as it is, not one character at a time.)"""
    out, literals, i, n, line_start = [], [], 0, len(body), True
    while i < n:
        if line_start:
            line_start = False
            if _LINE_COMMENT.match(body, i):        # a comment line (its line end stays)
                end = body.find("\n", i)
                i = n if end < 0 else end
                continue
        found = _SPECIAL.search(body, i)
        j = found.start() if found else n
        if j > i:
            out.append(body[i:j])
            i = j
            continue
        two, one = body[i:i + 2], body[i]
        if one == "\n":
            out.append(one)
            i, line_start = i + 1, True
            continue
        closing = "}}" if two == "{{" else _COMMENTS.get(two)
        end = body.find(closing, i + 2) if closing else -1
        if closing and end >= 0:
            if two == "{{":
                literals.append(("{{", body[i + 2:end], "}}"))
                out.append(_BLOCK.format(len(literals) - 1))
            else:
                out.append(" ")
            i = end + 2
            continue
        if one in _QUOTES and (end := _quote_end(body, i + 1, _QUOTES[one])) >= 0:
            literals.append((one, body[i + 1:end], body[end]))
            out.append(_QUOTE.format(len(literals) - 1))
            i = end + 1
            continue
        out.append(one)
        i += 1
    return "".join(out), literals


def _quote_end(body: str, start: int, closers: str) -> int:
    """Where a quoted string closes, on the line it opened on, or -1."""
    for j in range(start, len(body)):
        if body[j] == "\n":
            return -1
        if body[j] in closers:
            return j
    return -1


@dataclass
class _Piece:
    start: int          # span in the skeleton
    end: int            # without the . or ; that ended it
    stop: int           # with it
    ends_line: bool     # cut by a line end, not by . or ; (a wrapped line may go on)
    listed: bool        # begins a list item
    after_blank: bool   # a blank line (or a comment line) came before it


def _pieces(skeleton: str) -> list[_Piece]:
    """The skeleton cut at line ends and sentence ends; list marks left out."""
    pieces, offset, blank = [], 0, False
    for line in skeleton.split("\n"):
        mark = _LIST_MARK.match(line)
        start = mark.end() if mark else 0
        if not line.strip():
            blank = True
        cuts = [m.start() for m in _SENTENCE_END.finditer(line, start)] + [len(line)]
        first = True
        for cut in cuts:
            if line[start:cut].strip():
                lead = len(line[start:cut]) - len(line[start:cut].lstrip())
                pieces.append(_Piece(offset + start + lead, offset + cut,
                                     offset + min(cut + 1, len(line)), cut == len(line),
                                     bool(mark) and first, blank))
                first, blank = False, False
            start = cut + 1
        offset += len(line) + 1
    return pieces


def _restore(text: str, literals) -> str:
    return _MARKED.sub(lambda m: "".join(literals[int(m.group(2))]), text)


def _literal(value: str, literals) -> str:
    """A group's value: the content of a string or block, else the words as written."""
    m = _MARKED.fullmatch(value.strip())
    if m:
        content = literals[int(m.group(2))][1]
        return content.strip() if m.group(1) == "\ue000" else content
    return _restore(value, literals).strip()


def quantity_key(name: str) -> str:
    """Rule 4E30: "A Confused Baker's Dozen" -> "quantities.a_confused_bakers_dozen"."""
    slug = re.sub(r"[\s\-]+", "_", re.sub(r"['’]", "", name.strip().lower()))
    return f"quantities.{slug}"


def _args(kind: str, groups: dict, literals) -> dict:
    args = {k: _literal(v, literals) for k, v in groups.items() if v is not None}
    if "number" in args:
        args["number"] = int(args["number"])
    if "attribute" in args:
        args["attribute"] = args["attribute"].lower()
    if kind in ("create_rule", "create_victory_condition"):
        args.setdefault("title", "")
    if kind == "create_rule":
        args.setdefault("section", "")
    if kind == "set_quantity" and "quantity" in args:
        args["name"] = re.sub(r"\s+", " ", args.pop("quantity"))
        args["key"] = quantity_key(args["name"])
    elif kind == "set_quantity":
        args["name"] = args["key"]
    return args


def _match(skeleton_text: str, literals) -> Change | None:
    text = re.sub(r"\s+", " ", skeleton_text).strip()
    for kind, pattern in _PATTERNS:
        m = pattern.fullmatch(text)
        if m:
            return Change(kind, _args(kind, m.groupdict(), literals), _restore(text, literals))
    return None


def parse(body: str) -> Parsed:
    """The changes a Game Document's body states, and its prose, in order."""
    skeleton, literals = _scan(body.replace("\r\n", "\n"))
    pieces = _pieces(skeleton)
    changes, prose, run = [], [], []          # run: the prose pieces of the paragraph so far

    def close_run():
        if run:
            words = re.sub(r"[ \t]+", " ", skeleton[run[0].start:run[-1].stop])
            prose.append(_restore(words, literals).strip())
            run.clear()

    i = 0
    while i < len(pieces):
        if pieces[i].after_blank or pieces[i].listed:      # a paragraph or list item of its own
            close_run()
        found = _wrapped_change(skeleton, pieces, i, literals)
        if found:
            close_run()
            change, i = found
            changes.append(change)
        else:
            run.append(pieces[i])
            i += 1
    close_run()
    return Parsed(changes, prose)


def _wrapped_change(skeleton: str, pieces: list[_Piece], i: int, literals):
    """The change pieces i.. state, read across the lines a mail program wrapped
    (or a {{ }} block opened on the next line): (Change, next piece), or None."""
    for j in range(i, min(i + MAX_WRAPPED_LINES, len(pieces))):
        if j > i and not (pieces[j - 1].ends_line and not pieces[j].listed
                          and not pieces[j].after_blank):
            return None
        text = " ".join(skeleton[p.start:p.end] for p in pieces[i:j + 1])
        change = _match(text, literals)
        if change:
            return change, j + 1
    return None


def count_corrections(changes: list[Change]) -> int:
    """Rule 4E32: a Tidiness List earns a point for every three errors corrected."""
    return sum(1 for c in changes if c.kind == "replace_text")


# ------------------------------------------------------------------ applying

# kind -> fn(ctx, args, source, under) -> summary, or raises Rejected. `under` is the
# rule the change is made under (4E15 for a proposal), cited by its events.
APPLIERS: dict = {}


def applies(kind: str):
    def register(fn):
        APPLIERS[kind] = fn
        return fn
    return register


def apply(ctx: Context, changes: list[Change], source: str, rule: str) -> list[Applied]:
    """Make each change in order, each in its own savepoint: one that cannot be
    made is reported and changes nothing; the others are still made."""
    return [_apply_one(ctx, change, source, rule) for change in changes]


class _Undo(Exception):
    pass


def apply_all_or_nothing(ctx: Context, changes: list[Change], source: str,
                         rule: str) -> list[Applied]:
    """Rules 4E12, 4E18: a transaction (an Oracularity is one): if any change
    cannot be made, none is."""
    results: list[Applied] = []
    try:
        with database.atomic():
            results = apply(ctx, changes, source, rule)
            if not all(r.ok for r in results):
                raise _Undo
    except _Undo:
        ctx._config = None          # a setting made and undone is no longer in force
        failed = _short(next(r for r in results if not r.ok).change.text)
        results = [r if not r.ok else Applied(
            r.change, False, f"not made: the changes stand or fall together, and "
                             f"“{failed}” could not be made") for r in results]
    return results


def _short(text: str, most: int = 60) -> str:
    line = text.splitlines()[0] if text else ""
    return line if len(line) <= most and line == text else line[:most].rstrip() + "…"


def _apply_one(ctx: Context, change: Change, source: str, rule: str) -> Applied:
    try:
        with database.atomic():
            summary = APPLIERS[change.kind](ctx, change.args, source, rule)
    except Rejected as e:
        ctx._config = None          # in case the savepoint undid a setting
        return Applied(change, False, str(e))
    return Applied(change, True, summary)


def _rule(number: int) -> Rule:
    """Rule 4E36: only a Rule that exists and is not Repealed can be changed."""
    row = hot.get_or_none(Rule, number=number)     # (its SELECT built once)
    if row is None:
        raise Rejected(f"there is no Rule {rules.label(number)}", rule="4E36")
    if row.repealed:
        raise Rejected(f"Rule {rules.label(number)} has been repealed", rule="4E36")
    return row


def _changed(ctx: Context, row: Rule, what: str, source: str, under: str, rule: str = "4E36",
             **data) -> str:
    """Note a change in the Rule's history and the event log; returns its summary."""
    row.history = [*row.history, {"at": ctx.at.isoformat(), "what": f"{what} by {source}"}]
    row.save()
    summary = f"Rule {rules.label(row.number)} {what} by {source}"
    ctx.record("rule", summary, rule=rule, number=row.number, what=what, source=source,
               under=under, **data)
    return summary


def _power(text: str) -> Fraction:
    """Rule 4E75: a Power is a rational number from 0 to 1 inclusive."""
    try:
        power = Fraction(re.sub(r"\s+", "", text))
    except (ValueError, ZeroDivisionError):
        power = None
    if power is None or not 0 <= power <= 1:
        raise Rejected(f"{text!r} is not a Power: a Power is a rational number from 0 to 1, "
                       "like 3/4", rule="4E75")
    return power


@applies("create_rule")
def create_rule(ctx: Context, args: dict, source: str, under: str) -> str:
    # Rule 4E36: the lowest number never used; Rule 4E75: Power 1/2 unless said
    power = _power(args.get("power", "1/2"))
    title = names.title(ctx.config, args["title"], "Rule's Title", "4E36")
    row = Rule.create(number=rules.next_number(), title=title, text=args["text"],
                      section=args["section"], power_num=power.numerator,
                      power_den=power.denominator, history=[])
    return _changed(ctx, row, "created", source, under, title=row.title, section=row.section,
                    power=str(power), text=row.text)


@applies("amend_rule")
def amend_rule(ctx: Context, args: dict, source: str, under: str) -> str:
    row = _rule(args["number"])
    before, row.text = row.text, args["text"]
    return _changed(ctx, row, "amended", source, under, before=before, after=row.text)


@applies("repeal_rule")
def repeal_rule(ctx: Context, args: dict, source: str, under: str) -> str:
    row = _rule(args["number"])
    row.repealed = True
    return _changed(ctx, row, "repealed", source, under)


@applies("retitle_rule")
def retitle_rule(ctx: Context, args: dict, source: str, under: str) -> str:
    row = _rule(args["number"])
    before, row.title = row.title, names.title(ctx.config, args["title"], "Rule's Title", "4E36")
    return _changed(ctx, row, "retitled", source, under, before=before, after=row.title)


@applies("set_power")
def set_power(ctx: Context, args: dict, source: str, under: str) -> str:
    # Rule 4E75: Power is an Attribute of every Rule
    row = _rule(args["number"])
    power = _power(args["power"])
    before = Fraction(row.power_num, row.power_den)
    row.power_num, row.power_den = power.numerator, power.denominator
    return _changed(ctx, row, f"power set to {power}", source, under, rule="4E75",
                    before=str(before), after=str(power))


@applies("replace_text")
def replace_text(ctx: Context, args: dict, source: str, under: str) -> str:
    # Rule 4E32: a correction replaces every occurrence in the Rule's text
    row = _rule(args["number"])
    old, new = args["old"], args["new"]
    found = row.text.count(old) if old else 0
    if not found:
        raise Rejected(f"Rule {rules.label(row.number)} does not contain “{old}”", rule="4E36")
    row.text = row.text.replace(old, new)
    summary = _changed(ctx, row, "corrected", source, under, old=old, new=new, times=found)
    return f"{summary}: “{old}” → “{new}” ({found} time{'s' if found != 1 else ''})"


def _points(ctx: Context, text: str) -> int:
    n = whole_number(text)
    if n is None:
        raise Rejected(f"I cannot read {text!r} as a number of points", rule="4E17")
    return n


def _mackerel(ctx: Context, text: str) -> int:
    if re.fullmatch(r"\s*\d+\s*", text):
        return int(text)
    n, currency = parse_amount(ctx.config, text, rule="4E34")
    if currency != "mackerel":
        raise Rejected(f"{text!r} is not an amount of mackerel", rule="4E34")
    return n


# attribute -> (how its value is read, the rule that defines it)
ATTRIBUTES = {"points": (_points, "4E17"), "mackerel": (_mackerel, "4E34")}


@applies("set_attribute")
def set_attribute(ctx: Context, args: dict, source: str, under: str) -> str:
    attribute = args["attribute"]
    read, defined_by = ATTRIBUTES[attribute]
    player = find_player(ctx, args["player"], "4E4")
    new = read(ctx, args["value"])
    if not 0 <= new < 2**62:        # Rules 4E17, 4E33: never less than zero
        raise Rejected(f"{attribute} must be a whole number from 0 up", rule=defined_by)
    old = getattr(player, attribute)
    setattr(player, attribute, new)
    player.save()
    shown = (lambda n: fmt(n, "mackerel")) if attribute == "mackerel" else str
    summary = f"{player.name}'s {attribute} set from {shown(old)} to {shown(new)} by {source}"
    ctx.record(attribute, summary, rule=under, player=player.name, before=old, after=new,
               source=source)
    return summary


@applies("set_officers")
def set_officers(ctx: Context, args: dict, source: str, under: str) -> str:
    """Rule 4E79: the Officers of a Corporation (issue 15: a Laundry Corporation,
    which the ruleset gives none, gets them by proposal; docs/readings.md)."""
    corp = entities.find_corporation(ctx, args["corporation"], "4E79")
    names = [n for n in re.split(r"(?<!\s)\s*+(?:,|\band\b|&)\s*+", args["value"].strip().rstrip(".")) if n.strip()]
    officers = []
    for n in names:
        p = find_player(ctx, n, "4E79")
        if p.id not in [o.id for o in officers]:
            officers.append(p)
    if not officers:
        raise Rejected("name at least one Officer", rule="4E79")
    entities.set_officers(ctx, corp, officers, under, f"by {source}")
    return f"the Officers of the {corp.name} set to {', '.join(p.name for p in officers)} by {source}"


@applies("set_quantity")
def set_quantity(ctx: Context, args: dict, source: str, under: str) -> str:
    # Rule 4E30: the Official Quantities live in the configuration under quantities.*
    key, name = args["key"], args["name"]
    quantity = key.startswith("quantities.")
    cite = "4E30" if quantity else under
    current = ctx.config.get(key)
    if current is None:
        what = f"Official Quantity called “{name}”" if quantity else f"configuration key {key!r}"
        raise Rejected(f"there is no {what}", rule=cite)
    try:
        old, new = set_setting(ctx, key, read_value(args["value"], current), by=source, rule=under)
    except Rejected as e:
        raise Rejected(e.reason, rule=e.rule or cite) from None
    label = f"{name} ({key})" if quantity else key
    return f"{label} set from {old!r} to {new!r} by {source}"


@applies("award")
def award(ctx: Context, args: dict, source: str, under: str) -> str:
    """An amount given to a Player (a Subgame's Trophy, Rule 4E82): mackerel
    (Rule 4E34) or points (Rule 4E17, never below zero)."""
    player = find_player(ctx, args["player"], "4E4")
    text = args["award"].lower().replace(" ", "")
    n = int("".join(ch for ch in text if ch.isdigit()))
    if "point" in text:
        change_points(ctx, player, n, under, f"awarded by {source}")
        return f"{player.name} is awarded {n} point{'s' if n != 1 else ''} by {source}"
    credit(ctx, player, "mackerel", n, under, f"awarded by {source}")
    return f"{player.name} is awarded {fmt(n, 'mackerel')} by {source}"


@applies("create_victory_condition")
def create_victory_condition(ctx: Context, args: dict, source: str, under: str) -> str:
    # Rule 4E36: the Rulekeeper displays the Victory Conditions; 4E75: their changes come first
    title = names.title(ctx.config, args["title"], "Victory Condition's Title", "4E36") \
        if args["title"] else ""
    row = VictoryCondition.create(title=title, text=args["text"], source=source, created_at=ctx.at,
                                  history=[{"at": ctx.at.isoformat(), "what": f"created by {source}"}])
    summary = f"Victory Condition {row.id}{f' ({title})' if title else ''} created by {source}"
    ctx.record("victory_condition", summary, rule="4E36", number=row.id, title=title,
               text=row.text, source=source, under=under)
    return summary


@applies("repeal_victory_condition")
def repeal_victory_condition(ctx: Context, args: dict, source: str, under: str) -> str:
    row = VictoryCondition.get_or_none(VictoryCondition.id == args["number"])
    if row is None or row.repealed:
        raise Rejected(f"there is no Victory Condition {args['number']}", rule="4E36")
    row.repealed = True
    row.history = [*row.history, {"at": ctx.at.isoformat(), "what": f"repealed by {source}"}]
    row.save()
    summary = f"Victory Condition {row.id} repealed by {source}"
    ctx.record("victory_condition", summary, rule="4E36", number=row.id, source=source, under=under)
    return summary
