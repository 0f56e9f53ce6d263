"""Proposals (Rule 4E15): submitting, revising and withdrawing them, their
Proposal Numbers, and their Proposal Color (Rule 4E69).

Voting on them, the Ballot and the tally are in voting.py. A proposal is
written as a document after the sentence that submits it:

    I submit the following proposal, titled "Eras":
    Dependencies: 12
    Retitle Rule 4E9 to "Eras"
    END PROPOSAL

(the block ends at "END PROPOSAL" or with the message; see grammar.py).
"""
from __future__ import annotations

import re

from ..store import Fine, Message, Ministry, Player, Proposal
from . import names
from .context import Context, Rejected
from .frames import frame, role
from .ministries import delegated, ensure, require_minister
from .obligations import fulfil_kind, oblige
from .players import name_key
from .registry import action

STATUSES = ("Pending", "Open", "Historical")
COLORS = ["Blue", "Black", "Brown", "Burnt Sienna", "Beige", "Burgundy", "Brick Red", "Baby Blue",
          "Blank"]

# The lines of a proposal's document that set its other Attributes (4E15), not its Body.
_TITLE_LINE = re.compile(r"^\s*(?:title|proposal(?:\s+title)?)\s*:\s*(?P<v>.+?)\s*$", re.I)
_CONFLICTS_LINE = re.compile(r"^\s*conflicts?(?:\s+with)?\s*:\s*(?P<v>.*?)\s*$", re.I)
_DEPENDS_LINE = re.compile(r"^\s*(?:dependencies|depends(?:\s+on)?|dependency)\s*:\s*(?P<v>.*?)\s*$", re.I)
_SUBJECT_TITLE = re.compile(r"\bproposal\s*:\s*(?P<v>.+?)\s*$", re.I)
_NUMBERS = re.compile(r"(\d+)")     # "#12, #13" or "12 13": the numbers
_HEADING_LINE = re.compile(r"^\s*+(?:__|\*\*)(?P<v>[^_*\n]{1,80}+)(?:__|\*\*)\s*+(?P<rest>.*)$")
_BODY_LINE = re.compile(r"^\s*(?:body|text|proposal\s+text)\s*:\s*(?P<v>.*?)\s*$", re.I)
_NONE = re.compile(r"^\s*+(?:(?:none|nothing|-|n/?a)\s*+)?$", re.I)


# ----------------------------------------------------------------- reading

def read_document(document: str) -> dict:
    """A proposal's document -> its title (if a line gives one), conflicts,
    dependencies (Proposal Numbers) and body (everything else). Rule 4E15's Attributes
    may be written as a form: "Title:" and the others above the body, a "Body:" (or
    "Text:") label before it, "Conflicts:" and "Dependencies:" below it."""
    out = {"title": None, "conflicts": [], "dependencies": []}
    body: list[str] = []
    lines = document.strip("\n").splitlines()
    heading = _HEADING_LINE.match(lines[0]) if lines else None
    if heading is not None:                 # "__Sock Day__" (or **Sock Day**) over the body: its Title
        out["title"] = heading.group("v").strip()
        lines = ([heading.group("rest")] if heading.group("rest").strip() else []) + lines[1:]
    below: list[str] = []   # attribute lines after the body, read as those above it
    while lines and (not lines[-1].strip() or _CONFLICTS_LINE.match(lines[-1]) or _DEPENDS_LINE.match(lines[-1])):
        below.insert(0, lines.pop())
    if not any(x.strip() for x in lines):
        lines, below = lines + below, []
    header = True           # attribute lines are read at the top, before the body
    for line, after in [(x, False) for x in lines] + [(x, True) for x in below]:
        m = (_TITLE_LINE.match(line) or _CONFLICTS_LINE.match(line) or _DEPENDS_LINE.match(line)) \
            if header or after else None
        if m is None:
            labelled = _BODY_LINE.match(line) if header else None
            if labelled is not None:            # "Body:" / "Text: Amend Rule 4E0 ..."
                header = False
                if labelled.group("v"):
                    body.append(labelled.group("v"))
                continue
            if line.strip():
                header = False
            if not after:
                body.append(line)
            continue
        value = m.group("v")
        if m.re is _TITLE_LINE:
            out["title"] = value.strip().strip('"“”')
        elif not _NONE.match(value):
            key = "conflicts" if m.re is _CONFLICTS_LINE else "dependencies"
            out[key] = sorted({int(n) for n in _NUMBERS.findall(value)})
    said = "\n".join(body).strip()
    if said.startswith("{{") and said.endswith("}}") and said.count("{{") == 1:
        said = said[2:-2].strip("\n").strip()     # "Title: X" then the Body between {{ and }}
    out["body"] = said
    return out


def title_from(ctx: Context, given: str | None, document_title: str | None) -> str:
    """Rule 4E15: the Title is optional: said in the action, in the document, or
    in the subject ("Proposal: Eras")."""
    for t in (given, document_title):
        if t:
            return names.title(ctx.config, t.strip().strip('"“”').strip(), "Title", "4E15")
    subject = ctx.post.subject if ctx.post is not None else ""
    m = _SUBJECT_TITLE.search(re.sub(r"^(?:\s*+(?:re|fwd?|aw)\s*+:\s*+)+", "", subject, flags=re.I))
    return names.title(ctx.config, m.group("v").strip().strip('"“”'), "Title", "4E15") if m else ""


def find(ctx: Context, text: str, rule: str = "4E15", actor: Player | None = None) -> Proposal:
    """The proposal named by its number ('12', '#12', 'proposal 12'), its quoted title,
    or as the reader hands on words it could not resolve: "mine" (the actor's), "of Bob"
    (Bob's), "this" (the one the message replies to)."""
    t = text.strip().strip(".")
    if t == "new":                      # "... and set its Proposal Color": the one this mail just submitted
        p = (Proposal.select().where(Proposal.entry == ctx.entry).order_by(Proposal.id.desc()).first()
             if ctx.entry is not None else None)
        if p is None:
            raise Rejected("this message submitted no proposal for \"it\" to name", rule=rule)
        return p
    if t == "mine" or t == "this" or t.startswith("of "):
        return _find_by_words(ctx, t, rule, actor)
    t = re.sub(r"^(?:the\s+)?(?:proposal\s+)?(?:no\.?\s*|number\s+)?", "", t, flags=re.I)
    m = re.fullmatch(r"#?\s*(\d+)", t)
    if m:
        p = Proposal.get_or_none(Proposal.number == int(m.group(1)))
        if p is None:
            raise Rejected(f"there is no proposal numbered {m.group(1)}", rule=rule)
        return p
    title = re.sub(r"^(?:titled|called|named)\s+", "", t, flags=re.I).strip('"“”')
    found = list(Proposal.select().where(Proposal.title == title, Proposal.status != "Historical")
                 .order_by(Proposal.id))
    if len(found) != 1:
        raise Rejected(f"name the proposal by its number; {title!r} names "
                       f"{'none' if not found else 'several'} of the current proposals", rule=rule)
    return found[0]


def _find_by_words(ctx: Context, t: str, rule: str, actor: Player | None) -> Proposal:
    current = Proposal.select().where(Proposal.status != "Historical").order_by(Proposal.id)
    if t == "this":
        m = Message.get_or_none(Message.message_id == ctx.post.in_reply_to) \
            if ctx.post is not None and ctx.post.in_reply_to else None
        found = list(current.where(Proposal.entry == m.entry_id)) if m is not None else []
        what = "the message this replies to"
    else:
        who = actor if t == "mine" else Player.get_or_none(Player.name_key == name_key(t[3:]))
        found = list(current.where(Proposal.author == who)) if who is not None else []
        what = "you" if t == "mine" else t[3:]
    if len(found) != 1:
        raise Rejected(f"name the proposal by its number: {what} "
                       f"{'has' if t != 'mine' else 'have'} {len(found)} current proposals", rule=rule)
    return found[0]


def label(p: Proposal) -> str:
    name = f"proposal {p.number}" if p.number is not None else f"the unnumbered proposal #{p.id}"
    return f'{name} ("{p.title}")' if p.title else name


def _check_references(numbers: list[int], own: int | None, what: str) -> None:
    """Rule 4E15: Conflicts and Dependencies are sets of *other* proposals."""
    for n in numbers:
        if n == own:
            raise Rejected(f"a proposal cannot list itself among its {what}", rule="4E15")
        if not Proposal.select().where(Proposal.number == n).exists():
            raise Rejected(f"its {what} name proposal {n}, which does not exist", rule="4E15")


# -------------------------------------------------------------- submitting

# Rule 4E15: "He may optionally also specify its Title": said in the sentence that submits it
TITLE = ("title:text[titled|entitled|called|named|with the title|with title|title|title:|under the title"
         "|under the name|retitling it|retitled|renaming it|with a new title|with the new title|its title becomes"
         "|its title is now|its title is]?")


@action("submit_proposal",
        # Rule 4E15: "Any player may submit a proposal ... To submit a proposal, a player need
        # only specify its Body" (the document after the sentence, or inside {{ }})
        frame("submit|make|put forward|table|present|file|post|enter|offer|raise|create|write",
              TITLE, also="proposal proposals following new below body text with two three both as it",
              needs="proposal|proposals"),
        frame("propose", TITLE, also="proposal following new below"),
        rule="4E15", example='I submit the following proposal, titled "Eras": ... END PROPOSAL',
        says="submit a proposal {title}", document="proposal", document_needed=True,
        not_actions=("I submitted a proposal yesterday", "Wooble submits a proposal",
                     "Should I submit a proposal?", "I propose a toast to Wooble",
                     "I propose that we all go home"))
def submit(ctx: Context, actor: Player, document: str = "", title: str | None = None) -> None:
    """Rule 4E15: any player may submit a proposal by specifying its Body, and
    optionally its Title, Conflicts and Dependencies. It is Pending, Undecided,
    and has no Proposal Number until the Chairman assigns one."""
    doc = read_document(document)
    if not doc["body"]:
        raise Rejected("a proposal needs a Body: write it after the sentence that submits it, "
                       "ending with END PROPOSAL (or the end of the message)", rule="4E15")
    _check_references(doc["conflicts"], None, "Conflicts")
    _check_references(doc["dependencies"], None, "Dependencies")
    _within_limit(ctx, actor)
    p = Proposal.create(title=title_from(ctx, title, doc["title"]),
                        body=doc["body"], author=actor, conflicts=doc["conflicts"],
                        dependencies=doc["dependencies"], submitted_at=ctx.at, entry=ctx.entry)
    ctx.record("proposal", f"{actor.name} submits {label(p)}", rule="4E15", proposal=p.id,
               author=actor.name, title=p.title, conflicts=p.conflicts, dependencies=p.dependencies)
    assign_number_if_delegated(ctx, p)
    ctx.notes.append(label(Proposal.get_by_id(p.id)))


def _within_limit(ctx: Context, actor: Player) -> None:
    """Rule 4E60: a Player fined for Contempt of Court with "a limit of at most one
    proposal during the following nweek" submits at most one in that nweek."""
    limits = list(Fine.select().where(Fine.player == actor,
                                      Fine.proposal_limit_nweek == ctx.game.nweek))
    if any(f.limited_proposals >= 1 for f in limits):
        raise Rejected(f"you are limited to at most one proposal during nweek {ctx.game.nweek} "
                       "(a penalty for being Held in Contempt of Court), and have submitted it",
                       rule="4E60")
    for f in limits:
        f.limited_proposals += 1
        f.save()


@action("revise_proposal",
        # Rule 4E15: "may revise a Pending proposal he owns by resubmitting it"
        frame("revise|resubmit|amend|replace|rewrite|update|edit", "number:proposal", TITLE,
              also="proposal as follows with text new by resubmitting it to read reads say so that body this following replace replacing its"),
        rule="4E15", example="I revise proposal 12: ... END PROPOSAL", says="revise proposal {number}",
        document="proposal", document_needed=True,
        not_actions=("I revised proposal 12 yesterday", "Wooble revises proposal 12",
                     "Should I revise proposal 12?"))
def revise(ctx: Context, actor: Player, number: str, document: str = "", title: str | None = None) -> None:
    """Rule 4E15: a player may revise a Pending proposal he owns by resubmitting it."""
    p = find(ctx, number, actor=actor)
    if p.author_id != actor.id:
        raise Rejected(f"{label(p)} is {p.author.name}'s; only its Author may revise it", rule="4E15")
    if p.status != "Pending":
        raise Rejected(f"{label(p)} is {p.status}; only a Pending proposal can be revised", rule="4E15")
    doc = read_document(document)
    if not doc["body"]:
        raise Rejected("the revision needs the whole new Body after the sentence", rule="4E15")
    _check_references(doc["conflicts"], p.number, "Conflicts")
    _check_references(doc["dependencies"], p.number, "Dependencies")
    p.title = title_from(ctx, title, doc["title"]) or p.title
    p.body, p.conflicts, p.dependencies = doc["body"], doc["conflicts"], doc["dependencies"]
    p.revisions += 1
    p.save()
    ctx.record("proposal", f"{actor.name} revises {label(p)} (revision {p.revisions})", rule="4E15",
               proposal=p.id, title=p.title, conflicts=p.conflicts, dependencies=p.dependencies)


@action("withdraw_proposal",
        # Rule 4E15: "a Player may withdraw a proposal with a status of Pending if they are
        # the Author of that Proposal"
        frame("withdraw|retract|pull|take back|rescind|drop", "number:proposal",
              also="proposal from consideration"),
        rule="4E15", example="I withdraw proposal 12", says="withdraw proposal {number}",
        not_actions=("I withdrew proposal 12", "Wooble withdraws proposal 12",
                     "Should I withdraw proposal 12?"))
def withdraw(ctx: Context, actor: Player, number: str) -> None:
    """Rule 4E15: the Author may withdraw a Pending proposal: it becomes
    Historical and Lost."""
    p = find(ctx, number, actor=actor)
    if p.author_id != actor.id:
        raise Rejected(f"{label(p)} is {p.author.name}'s; only its Author may withdraw it",
                       rule="4E15")
    if p.status != "Pending":
        raise Rejected(f"{label(p)} is {p.status}; only a Pending proposal can be withdrawn",
                       rule="4E15")
    p.status, p.success, p.decided_by = "Historical", "Lost", "withdrawn by its Author"
    p.save()
    ctx.record("proposal", f"{actor.name} withdraws {label(p)}: it is Historical and Lost",
               rule="4E15", proposal=p.id, status=p.status, success=p.success)


# ------------------------------------------------------------ the numbers

def next_number() -> int:
    """Rule 4E15: greater than every Proposal Number used before (from 1, rulings.md)."""
    last = Proposal.select(Proposal.number).where(Proposal.number.is_null(False)) \
        .order_by(Proposal.number.desc()).first()
    return (last.number if last else 0) + 1


def number_all(ctx: Context, by: str) -> list[int]:
    """Rule 4E15: give each proposal whose number is null a new one, in the order submitted."""
    given = []
    for p in Proposal.select().where(Proposal.number.is_null()).order_by(Proposal.id):
        p.number = next_number()
        p.save()
        given.append(p.number)
        ctx.record("proposal", f"{by} assigns the number {p.number} to {label(p)}", rule="4E15",
                   proposal=p.id, number=p.number)
    return given


def assign_number_if_delegated(ctx: Context, p: Proposal) -> None:
    """The Chairman is obligated to number new proposals (4E15); bnomic does it for a
    Chairman who delegated the duty (4E45), else the obligation stands."""
    chairman = Ministry.get_or_none(Ministry.name == "Change")
    if delegated(ctx, "numbers"):
        number_all(ctx, f"bnomic, for the Chairman ({chairman.holder.name}),")
    else:
        oblige(ctx, ensure(ctx, "Change"), "numbers", "assign Proposal Numbers to the new proposals",
               "4E15")


@action("number_proposals",
        # Rule 4E15: "The Chairman is obligated to assign a new Proposal Number ... to each
        # proposal with a number of null"
        frame("number|assign numbers to|assign proposal numbers to|give numbers to|give proposal numbers to",
              also="new pending unnumbered proposals proposal", needs="proposals"),
        frame("assign|allocate|give out|hand out|give", also="proposal proposals numbers new pending "
              "unnumbered to", needs="numbers"),
        # "I assign Proposal Number 18 to Wooble's "Sock Drawer" proposal", "I assign this proposal
        # the Proposal Number 18": the number the Chairman says, and what it is said for as written
        # (Rule 4E15 sets which number each new proposal gets: the handler numbers them all so)
        frame("assign|allocate|give", role("said:number[proposal number|number]?"),
              "which:proposal?", "what:text[to]?", also="proposal this the", needs="number"),
        rule="4E15", example="I number the new proposals", says="number the new proposals",
        not_actions=("I numbered the new proposals", "The Chairman numbers the new proposals",
                     "Should I number the new proposals?"))
def number_proposals(ctx: Context, actor: Player, said: str | None = None, which: str | None = None,
                     what: str | None = None) -> None:
    """Rule 4E15: the Chairman assigns Proposal Numbers (in the order submitted). A number said
    for one proposal ("Proposal Number 18 to Wooble's Sock Drawer") is the Chairman's doing so;
    the numbers are the ones the rule gives, which the receipt lists."""
    require_minister(ctx, actor, "Change", "4E15", "only the Chairman assigns Proposal Numbers")
    given = number_all(ctx, f"the Chairman ({actor.name})")
    if not given:
        raise Rejected("every proposal has a number already", rule="4E15")
    said = said or (which if which and str(which).isdigit() else None)   # "Proposal Number 18" reads as a proposal's
    if said is not None and str(said).isdigit() and int(said) not in given:
        ctx.notes.append(f"Rule 4E15 gives the new proposals the numbers {given}, not {said}")
    fulfil_kind(ctx, "Change", "numbers", f"{actor.name} numbered proposals {given}")


# ----------------------------------------------------------------- colors

_RECOLOR = "change|set|paint|make|color|colour|recolor|recolour|turn|dye"
_WHOSE_COLOR = ("number:proposal[the proposal color of|the proposal colour of|proposal color of"
                "|proposal colour of|the color of|the colour of|color of|colour of]")


@action("color_proposal",
        # Rule 4E69: "change the Proposal Color of a Pending Proposal to a value of his choice"
        # "paint proposal 12 Blue": a Color, in any order
        frame(_RECOLOR, _WHOSE_COLOR, role("color:choice", {c.lower(): c for c in COLORS}),
              role("was:choice[from]?", {c.lower(): c for c in COLORS}),    # "from Blank to Baby Blue"
              also="color colour to into as of",          # "... of 17 to Blue and of 18 to Blue"
              # "Proposal colour for 17: Burnt Sienna please": the Attribute named, then its value
              openers="proposal color for|proposal colour for|color for|colour for"),
        # "... to Mauve": the words after "to", which the handler checks against the Range
        frame(_RECOLOR, _WHOSE_COLOR, "color:text[to|as|into]!", also="color colour"),
        # "I colour 17 Teal": the verb says it is the Color, the words after the proposal are it
        frame("color|colour|paint|recolor|recolour|dye", _WHOSE_COLOR, "color:text"),
        rule="4E69", example="I change the Proposal Color of proposal 12 to Burnt Sienna",
        says="change the Proposal Color of proposal {number} to {color}",
        not_actions=("I changed the Proposal Color of proposal 12 to Blue",
                     "Wooble changes the Proposal Color of proposal 12 to Blue",
                     "I feel blue about proposal 12", "Should I paint proposal 12 Blue?"))
def color(ctx: Context, actor: Player, number: str, color: str, was: str | None = None) -> None:
    """Rule 4E69: a Player may change the Proposal Color of a Pending proposal,
    at most once per nday. (`was`, the Color it had, is said but not needed.)"""
    wanted = next((c for c in COLORS if c.lower() == " ".join(color.lower().strip(' .":;,!').split())), None)
    if wanted is None:
        raise Rejected(f"{color!r} is not a Proposal Color ({', '.join(COLORS)})", rule="4E69")
    p = find(ctx, number, "4E69", actor=actor)
    if p.status != "Pending":
        raise Rejected(f"{label(p)} is {p.status}; only a Pending proposal's Color can change",
                       rule="4E69")
    actor = Player.get_by_id(actor.id)
    game = ctx.game
    if actor.color_changed_count == game.nday_changes:
        raise Rejected("you have changed a Proposal Color this nday already", rule="4E69")
    before, p.color = p.color, wanted
    p.save()
    actor.color_changed_count = game.nday_changes
    actor.save()
    ctx.record("color", f"{actor.name} changes the Proposal Color of {label(p)} from {before} to "
               f"{wanted}", rule="4E69", proposal=p.id, before=before, after=wanted)


# ------------------------------------------------------------ the display

def row(p: Proposal, votes: dict | None = None) -> dict:
    """A proposal as `bnomic show proposals --json` gives it (a contract: add, never rename)."""
    return {"number": p.number, "title": p.title, "author": p.author.name, "status": p.status,
            "success": p.success, "passed": p.passed, "votes": votes or {},
            "strength": p.strength, "stamina": p.stamina, "color": p.color,
            "conflicts": p.conflicts, "dependencies": p.dependencies, "failed": p.failed,
            "decided_by": p.decided_by, "voting_nweek": p.voting_nweek, "body": p.body}
