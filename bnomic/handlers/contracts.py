"""Contracts (Rule 4E70), Articles of Incorporation (4E79), and the delegation
of a Ministry's powers by Contract (4E45).

bnomic cannot judge a Contract's free text. It keeps the text verbatim, every
version with its author; it accepts joining unless the text plainly forbids
it, leaving only where the text provides a means of leaving (4E70: "by no
other means"), and an amendment only from a party and only where the text
provides for amending it; every receipt says that a dispute goes to a
Consultation (4E18), whose Priest rules and whose Oracularity can rectify a
breach (4E70). The readings are docs/readings.md's.
"""
from __future__ import annotations

import re

from ..store import (Breach, Consultation, Contract, ContractParty, ContractVersion, Corporation, Delegation, Event,
                     Ministry, Player)
from . import consultations, entities
from .context import Context, Rejected
from .frames import frame
from .ministries import describe, find_ministry
from .players import find_player
from .registry import action
from .views import Request, view

DISPUTES = ("bnomic does not judge a Contract's text; a dispute about it goes to a Consultation "
            "(Rule 4E18), whose Priest can rule on it and whose Oracularity can rectify a breach "
            "(Rule 4E70)")

# --------------------------------------------------------------- the text

_FLAGS = re.I | re.M
# Rule 4E79: "a Contract declaring itself to be a set of Articles of Incorporation"
_ARTICLES = re.compile(r"\A\W*+(?:the\s++)?articles\s++of\s++incorporation\b|\b(?:this\s++(?:contract|document)"
                       r"|these)\s++(?:is|are|(?:hereby\s++)?declares?\s++(?:itself|themselves)(?:\s++to\s++be)?)"
                       r"\s++(?:a\s++set\s++of\s++|the\s++)?articles\s++of\s++incorporation\b", re.I)
_NAME = [re.compile(r"^[ \t]*+(?:corporation(?:'s)?[ \t]++name|name[ \t]++of[ \t]++the[ \t]++corporation|name"
                    r"|corporation)[ \t]*+:[ \t]*+(?P<name>[^\n]{1,100}+)$", _FLAGS),
         re.compile(r"\bthe\s++(?:name\s++of\s++the\s++corporation|corporation(?:'s)?\s++name)\s++(?:is|shall\s++be)"
                    r"\s++(?P<name>[^.\n]{1,100}+)", re.I),
         re.compile(r"\bthe\s++corporation\s++(?:is|shall\s++be)\s++(?:named|called)\s++(?P<name>[^.\n]{1,100}+)",
                    re.I)]
_OFFICERS = [re.compile(r"^[ \t]*+officers?[ \t]*+:[ \t]*+(?P<list>[^\n]{1,400}+)$", _FLAGS),
             re.compile(r"\bthe\s++officers?\s++(?:of\s++the\s++corporation\s++)?(?:is|are|shall\s++be)\s++"
                        r"(?P<list>[^.\n]{1,400}+)", re.I)]
_LIST_SEP = re.compile(r"(?<!\s)\s*+(?:,|;|\band\b|&)\s*+", re.I)
# Rule 4E70: "unless the text of that contract would prohibit such an action" (joining),
# "may provide a means by which a Legal Entity may cease to be bound" (leaving), and
# "may be changed only as the text of that Contract allows" (amending)
_NO = r"(?:no\s++(?:other\s++|new\s++|further\s++|additional\s++)?(?:legal\s++entit(?:y|ies)|players?|one|person|party|parties)" \
      r"\s++(?:may|can|shall|will)|(?:may|can|shall|will)\s++not|cannot|can't|never)"
_JOIN_FORBIDDEN = re.compile(_NO + r"\s++(?:\w++\s++){0,3}?(?:join|become\s++(?:a\s++)?(?:party|parties|bound)|sign)"
                             r"|\bclosed\s++to\s++(?:new\s++)?(?:parties|members|signatories)", re.I)
_LEAVE = re.compile(r"\b(?:leave|leaves|withdraw|withdraws|cease\s++to\s++be\s++(?:bound|a\s++party)|exit|quit"
                    r"|resign|terminate|unsign)\b", re.I)
_LEAVE_FORBIDDEN = re.compile(_NO + r"\s++(?:\w++\s++){0,3}?(?:leave|withdraw|exit|quit|resign|cease)", re.I)
_AMEND = re.compile(r"\b(?:amend(?:ed|s|ment|ments)?|chang(?:e|ed|es)|modif(?:y|ied|ies|ication)|revis(?:e|ed|ion)"
                    r"|edit(?:ed)?)\b", re.I)
_AMEND_FORBIDDEN = re.compile(_NO + r"\s++(?:\w++\s++){0,3}?(?:amend|change|modify|revise|edit)"
                              r"|\b(?:is|are)\s++(?:unamendable|immutable|unchangeable)\b", re.I)


def declares_articles(text: str) -> bool:
    """Rule 4E79: the text declares itself Articles of Incorporation (its first words
    are "Articles of Incorporation", or it says "This Contract is (a set of) Articles of
    Incorporation")."""
    return bool(_ARTICLES.search(text))


def _clean(name: str) -> str:
    name = name.strip().strip("\"'“”‘’*_").rstrip(".").strip()
    return name[4:].strip() if name.lower().startswith("the ") else name


def articles_of(text: str) -> tuple[str | None, list[str]]:
    """The Corporation's name and its Officers' names as the Articles give them
    ("Name: Burnt Sienna Corporation", "Officers: Wooble, Ais"), or None / []."""
    name = next((m.group("name") for p in _NAME if (m := p.search(text))), None)
    listed = next((m.group("list") for p in _OFFICERS if (m := p.search(text))), "")
    officers = [_clean(o) for o in _LIST_SEP.split(listed) if _clean(o)]
    return (_clean(name) or None) if name else None, officers


# the title a Contract gives itself (what players call it: "the Fishmongers' Guild"): a
# "Title:" line, "This Contract is known as ...", or a short heading on its first line
_TITLE_LINE = re.compile(r"^[ \t]*+(?:title|contract\s++name)[ \t]*+:[ \t]*+(?P<t>[^\n]{1,80}+)$", _FLAGS)
_KNOWN_AS = re.compile(r"\bthis\s++(?:contract|agreement|document)\s++(?:is|shall\s++be|will\s++be)"
                       r"(?:\s++hereby)?+\s++(?:called|named|titled|entitled|known\s++as)\s++(?P<t>[^\n.;,]{1,80}+)",
                       re.I)


def contract_title(text: str, announced: str | None = None) -> str:
    """The name a Contract goes by: as its creator announced it ("a Contract called the
    Fishmongers' Guild"), as its text names itself, or its first line if that is a short
    heading set apart; "" if none."""
    for said in (announced,
                 *(m.group("t") for m in (_TITLE_LINE.search(text[:2000]), _KNOWN_AS.search(text[:2000])) if m)):
        title = (said or "").strip().strip("\"“”'*_:").strip()
        if 3 < len(title) <= 80:
            return title
    lines = text.strip("\n").split("\n")
    first = lines[0].strip().strip("*_#=").strip().rstrip(":").strip()
    words = first.split()
    apart = len(lines) > 1 and not lines[1].strip()
    capitalised = sum(w[:1].isupper() for w in words) * 2 >= len(words)
    if (0 < len(words) <= 8 and len(first) <= 60 and not first.endswith((".", "?", "!", ";", ","))
            and first[:1].isalpha() and (apart or capitalised)):
        return first
    return ""


def _number(which: str) -> int:
    m = re.fullmatch(r"\s*+#?(\d{1,9}+)\s*+", which or "")
    if m is None:
        raise Rejected(f"name the Contract by its number (\"Contract 3\"), not {which!r}", rule="4E70")
    return int(m.group(1))


def find_contract(which: str, rule: str = "4E70") -> Contract:
    if not re.fullmatch(r"\s*+#?\d{1,9}+\s*+", which or "") and (which or "").strip().lower() != "this":
        return contract_titled(which, rule)      # 'the contract "Oracle's Little Helper"'
    c = Contract.get_or_none(Contract.id == _number(which))
    if c is None:
        raise Rejected(f"there is no Contract {_number(which)}", rule=rule)
    if c.state != "in force":
        raise Rejected(f"Contract {c.id} has no party left and is no longer a Game Document", rule="4E70")
    return c


def _title_key(title: str) -> str:
    """A title as compared: no case, quotes, "the" before it or "contract" after it."""
    t = " ".join(title.lower().replace("’", "'").strip("\"“”'. ").split())
    t = t[4:] if t.startswith("the ") else t
    return t[:-9].rstrip() if t.endswith(" contract") else t


def contract_titled(title: str, rule: str = "4E70") -> Contract:
    """The Contract in force with that title (Rule 4E70's Contracts are Game Documents the
    Arbiter displays by their titles), or a refusal that says there is none, or two."""
    want = _title_key(title)
    found = [c for c in Contract.select().where(Contract.state == "in force").order_by(Contract.id)
             if want and _title_key(c.title or "") == want]
    if not found:
        raise Rejected(f"there is no Contract in force titled {title!r}: name it by its number (\"Contract 3\")",
                       rule=rule)
    if len(found) > 1:
        raise Rejected(f"{len(found)} Contracts in force are titled {title!r}: say which by number "
                       f"({', '.join(str(c.id) for c in found)})", rule=rule)
    return found[0]


def bound(contract: Contract, entity: Player) -> ContractParty | None:
    return (ContractParty.select().where(ContractParty.contract == contract.id, ContractParty.party == entity.id,
                                         ContractParty.state == "bound").first())


def parties(contract: Contract) -> list[Player]:
    return [cp.party for cp in ContractParty.select().where(ContractParty.contract == contract.id,
                                                            ContractParty.state == "bound")
            .order_by(ContractParty.id)]


def _bind(ctx: Context, contract: Contract, entity: Player, why: str) -> None:
    ContractParty.create(contract=contract, party=entity, joined_at=ctx.at)
    ctx.record("contract", f"{entity.name} is bound by Contract {contract.id}: {why}", rule="4E70",
               contract=contract.id, party=entity.name, action="bound")


# --------------------------------------------------------------- creating

@action("create_contract",
        # Rule 4E70: "A Legal Entity, as a Game Action, may create a Game Document known as a
        # Contract"; 4E79: "a Contract declaring itself to be a set of Articles of Incorporation"
        frame("create|make|post|submit|offer|draw up|enter into|put forward|write|form|file|publish|adopt"
              "|present|establish", "title:text?[called|named|titled|entitled|known as]!",
              also="contract following new below text a set of articles of incorporation this these as follows",
              needs="contract|articles"),
        frame("incorporate", "name:text[as|named|called|the]?",
              also="corporation following articles of incorporation with these new a"),
        rule="4E70", example="I create the following Contract: Any party may leave by saying so. END CONTRACT",
        says="create a Contract", document="contract", document_needed=True, legal_entity=True,
        not_actions=("I created a Contract yesterday", "Wooble creates a Contract",
                     "Should I create a Contract?", "I think I'll make a contract with Ais",
                     "I read the Contract"))
def create(ctx: Context, actor: Player, document: str = "", name: str | None = None,
           title: str | None = None) -> None:
    """Rule 4E70: a Legal Entity creates a Contract by posting its text and becomes
    bound by it. Rule 4E79: one declaring itself Articles of Incorporation, giving a
    name and at least one Officer, defines a Corporation (a Legal Entity with m0)."""
    text = document.strip("\n")
    if not text.strip():
        raise Rejected("a Contract needs its text: write it after the sentence, ending with END "
                       "CONTRACT (or the message), or inside {{ }}", rule="4E70")
    articles = declares_articles(text) or name is not None
    officers: list[Player] = []
    corp_name = None
    if articles:
        corp_name, officer_names = articles_of(text)
        corp_name = corp_name or (_clean(name) if name else None)
        if not corp_name or not officer_names:
            missing = " and ".join(w for w, gone in (("a name (\"Name: Burnt Sienna Corporation\")", not corp_name),
                                                     ("at least one Officer (\"Officers: Wooble\")",
                                                      not officer_names)) if gone)
            raise Rejected(f"Articles of Incorporation must give the Corporation {missing}", rule="4E79")
        officers = [find_player(ctx, o, "4E79") for o in officer_names]
    c = Contract.create(text=text, author=actor, articles=articles, created_at=ctx.at, entry=ctx.entry,
                        title=f"Articles of Incorporation of the {corp_name}" if articles
                        else contract_title(text, title))
    ContractVersion.create(contract=c, version=1, text=text, author=actor, at=ctx.at, entry=ctx.entry)
    ctx.record("contract", f"{actor.name} creates Contract {c.id}" + (" (Articles of Incorporation)" if articles
                                                                     else ""),
               rule="4E70", contract=c.id, author=actor.name, articles=articles)
    _bind(ctx, c, actor, "its creator (Rule 4E70)")
    if articles:
        corp = entities.create_corporation(ctx, corp_name, officers, c.id)
        _bind(ctx, c, corp.entity, "the Corporation its Articles define (Rule 4E79)")
        ctx.notes.append(f"Contract {c.id}: the {corp.name} exists, with m0 and Officers "
                         + ", ".join(o.name for o in officers))
    else:
        ctx.notes.append(f"Contract {c.id}; {DISPUTES}")


# ---------------------------------------------------------- joining, leaving

# a Contract by number ("Contract 3") or by the title it gives itself ("the Fishmongers' Guild")
CONTRACT = "which:contract#[to|by|of|from|in|with|under]"


@action("join_contract",
        # Rule 4E70: "any Legal Entity may voluntarily become bound to a Contract unless the
        # text of that contract would prohibit such an action"
        frame("become a party|become party|become bound|join|sign|accede|agree to be bound|bind myself"
              "|enter|enter into|sign up|sign on|become a signatory|agree to",
              CONTRACT, also="contract hereby voluntarily"),
        # "I become a party to the Mackerel Mutual": a title the game may not know, as written
        # (the handler finds the Contract in force so titled, or says there is none)
        frame("become a party to|become party to|become bound by|become bound to|bind myself to"
              "|agree to be bound by|become a signatory to|accede to",
              "title:text", also="hereby voluntarily contract it this that"),
        rule="4E70", example="I become a party to Contract 3", says="become a party to Contract {which}",
        legal_entity=True,
        not_actions=("I joined Contract 3 yesterday", "Wooble becomes a party to Contract 3",
                     "Should I sign Contract 3?", "I think I'll join Contract 3"))
def join(ctx: Context, actor: Player, which: str | None = None, title: str | None = None) -> None:
    """Rule 4E70: a Legal Entity becomes bound to a Contract unless its text
    would prohibit it (a text bnomic finds plainly forbidding it)."""
    c = find_contract(which) if which is not None else contract_titled(title or "")
    if bound(c, actor):
        raise Rejected(f"{actor.name} is already a party to Contract {c.id}", rule="4E70")
    m = _JOIN_FORBIDDEN.search(c.text)
    if m:
        raise Rejected(f"the text of Contract {c.id} forbids it (“{m.group(0)}”); {DISPUTES}", rule="4E70")
    _bind(ctx, c, actor, "joined (Rule 4E70)")
    ctx.notes.append(f"nothing in the text of Contract {c.id} forbids joining; {DISPUTES}")


@action("leave_contract",
        # Rule 4E70: "A Contract may provide a means by which a Legal Entity may cease to be
        # bound by that Contract ... not ... by any other means"
        frame("leave|withdraw from|cease to be bound|cease to be a party|stop being a party|exit"
              "|quit|resign from|unsign|terminate my participation in|am no longer bound|opt out of",
              CONTRACT, also="contract hereby", needs="contract|party|bound"),   # not "I leave this here"
        rule="4E70", example="I leave Contract 3", says="leave Contract {which}", legal_entity=True,
        not_actions=("I left Contract 3 yesterday", "Wooble leaves Contract 3",
                     "Should I leave Contract 3?", "I think I'll leave Contract 3"))
def leave(ctx: Context, actor: Player, which: str) -> None:
    """Rule 4E70: a party ceases to be bound only by a means the Contract provides
    (bnomic: its text speaks of leaving and does not plainly forbid it). A Contract
    left with no party ceases to be a Game Document."""
    c = find_contract(which)
    row = bound(c, actor)
    if row is None:
        raise Rejected(f"{actor.name} is not a party to Contract {c.id}", rule="4E70")
    no = _LEAVE_FORBIDDEN.search(c.text)
    if no or not _LEAVE.search(c.text):
        why = f"its text forbids it (“{no.group(0)}”)" if no else "its text provides no means of leaving"
        raise Rejected(f"a party may cease to be bound by Contract {c.id} only as the Contract provides, "
                       f"and {why}; {DISPUTES}", rule="4E70")
    row.state, row.left_at = "left", ctx.at
    row.save()
    ctx.record("contract", f"{actor.name} is no longer bound by Contract {c.id}", rule="4E70",
               contract=c.id, party=actor.name, action="left")
    ctx.notes.append(f"the text of Contract {c.id} provides for leaving; {DISPUTES}")
    cease_if_empty(ctx, c)


def cease_if_empty(ctx: Context, c: Contract) -> None:
    """Rule 4E70: "If, at any time, a contract has less than one party, it ceases to be a
    Game Document." Its delegations end with it."""
    if parties(c):
        return
    c.state = "ceased"
    c.save()
    ctx.record("contract", f"Contract {c.id} has no party and ceases to be a Game Document", rule="4E70",
               contract=c.id, action="ceased")
    for d in Delegation.select().where(Delegation.contract == c.id, Delegation.state == "in force"):
        _end_delegation(ctx, d, f"Contract {c.id} ceased")


# --------------------------------------------------------------- amending

@action("amend_contract",
        # Rule 4E70: "A Contract may be changed only as the text of that Contract allows"
        frame("amend|change|modify|rewrite|replace the text of",      # "revise" is a proposal's (4E15)
              CONTRACT, also="contract to read as follows text its new with following so that it reads"),
        rule="4E70", example="I amend Contract 3 to read: Any party may leave. END CONTRACT",
        says="amend Contract {which}", document="contract", document_needed=True, legal_entity=True,
        not_actions=("I amended Contract 3 yesterday", "Wooble amends Contract 3",
                     "Should I amend Contract 3?"))
def amend(ctx: Context, actor: Player, which: str, document: str = "") -> None:
    """Rule 4E70: a Contract changes only as its text allows: bnomic takes an
    amendment from a party, when the text provides for amending and does not
    plainly forbid it; every version is kept, with its author."""
    c = find_contract(which)
    if bound(c, actor) is None:
        raise Rejected(f"only a party to Contract {c.id} may amend it, and {actor.name} is not one", rule="4E70")
    no = _AMEND_FORBIDDEN.search(c.text)
    if no or not _AMEND.search(c.text):
        why = f"its text forbids it (“{no.group(0)}”)" if no else "its text provides no way to change it"
        raise Rejected(f"Contract {c.id} may be changed only as its text allows, and {why}; {DISPUTES}",
                       rule="4E70")
    text = document.strip("\n")
    if not text.strip():
        raise Rejected("write the Contract's new text after the sentence, ending with END CONTRACT "
                       "(or the message), or inside {{ }}", rule="4E70")
    corp = corporation_of_articles(c)
    if corp is not None:
        _, names = articles_of(text)
        if not names:
            raise Rejected("Articles of Incorporation must define at least one Officer (\"Officers: Wooble\")",
                           rule="4E79")
        officers = [find_player(ctx, o, "4E79") for o in names]
    c.text, c.version = text, c.version + 1
    c.save()
    ContractVersion.create(contract=c, version=c.version, text=text, author=actor, at=ctx.at, entry=ctx.entry)
    ctx.record("contract", f"{actor.name} amends Contract {c.id} (version {c.version})", rule="4E70",
               contract=c.id, author=actor.name, version=c.version, action="amended")
    if corp is not None and [o.id for o in officers] != corp.officers:
        entities.set_officers(ctx, corp, officers, "4E79", f"Contract {c.id}, its Articles, amended")
    ctx.notes.append(f"Contract {c.id} is now at version {c.version}; {DISPUTES}")


def corporation_of_articles(c: Contract) -> Corporation | None:
    """The Corporation a Contract's Articles of Incorporation define (Rule 4E79), if any."""
    return Corporation.get_or_none(Corporation.contract == c.id) if c.articles else None


# ---------------------------------------------------- delegating (4E45)

@action("delegate_by_contract",
        # Rule 4E45: "A Minister may delegate some or all of its Ministry's defined powers to
        # another Legal Entity ..., as specified by a Contract to which both ... are Parties"
        frame("delegate|delegate the powers of|delegate the powers and duties of|delegate the duties of"
              "|delegate all the powers of|delegate all powers of",
              "ministry:ministry?[as|of]", "delegate:player[to]",
              # "the power to assign Proposal Numbers", "my power as Chairman to assign ..."
              "powers:text?[the power to|the powers to|power to|powers to|the power of|the duty of|the duty to"
              "|duty of|duty to|the duties of|the right to|the authority to|my power to|my duty of|my duty to"
              "|to]!",
              "which:contract#[under|by|as|per|in|as per|as specified by|as specified in|according to"
              "|pursuant to|as set out in|as provided by|as provided in|in accordance with|under the terms of"
              "|as laid down in|as described in]",
              also="powers power duty duties its my all of the and"),
        rule="4E45", example="I delegate the powers of the Ministry of Change to Wooble under Contract 3",
        says="delegate {ministry} to {delegate} under Contract {which}", legal_entity=True,
        not_actions=("I delegated the Ministry of Change to Wooble under Contract 3",
                     "Wooble delegates the Ministry of Change to Ais under Contract 3"))
def delegate(ctx: Context, actor: Player, delegate: str, which: str, ministry: str | None = None,
             powers: str | None = None) -> None:
    """Rule 4E45: the Minister delegates some or all of its Ministry's powers to a Legal
    Entity, as a Contract to which both are parties specifies. Lapses stay the Minister's.
    Unnamed, the Ministry is the one the actor holds; the powers named are recorded as
    said (the Contract specifies them: bnomic lets the delegate act for the Ministry)."""
    c = find_contract(which, "4E45")
    if ministry is None:
        held = list(Ministry.select(Ministry.name).where(Ministry.holder == actor.id).order_by(Ministry.name))
        if len(held) != 1:
            raise Rejected("say which Ministry's powers you delegate (\"the powers of the Ministry of Change\")"
                           if held else f"{actor.name} holds no Ministry, and only a Minister may delegate its "
                           "Ministry's powers", rule="4E45")
        ministry = held[0].name
    m = find_ministry(ctx, ministry, "4E45")
    if m.holder_id != actor.id:
        raise Rejected(f"only its Minister may delegate the powers of {describe(ctx.config, m)}", rule="4E45")
    to = entities.find_entity(ctx, delegate, "4E45")
    if to.id == actor.id:
        raise Rejected("a Minister delegates to another Legal Entity", rule="4E45")
    for who in (actor, to):
        if bound(c, who) is None:
            raise Rejected(f"{who.name} is not a party to Contract {c.id}; a delegation is as specified by "
                           "a Contract to which both the Minister and the delegate are parties", rule="4E45")
    Delegation.create(contract=c, ministry=m, minister=actor, delegate=to, at=ctx.at)
    ctx.record("delegation", f"{actor.name} delegates the powers of {describe(ctx.config, m)} to {to.name} "
               f"under Contract {c.id}" + (f" (the powers as said: “{powers.strip()}”)" if powers else ""),
               rule="4E45", ministry=m.name, minister=actor.name, delegate=to.name, contract=c.id,
               **({"powers": powers.strip()} if powers else {}))
    ctx.notes.append(f"{to.name} may perform the duties and actions of {describe(ctx.config, m)}; any "
                     f"penalty for a lapse stays {actor.name}'s (Rule 4E45); {DISPUTES}")


@action("revoke_delegation",
        # Rule 4E45: the Minister's delegation, as the Contract specifies, ended by the Minister
        frame("revoke|end|cancel|withdraw|terminate|take back",
              "ministry:ministry[of|for]?", "delegate:player?[to|from]",
              also="delegation the powers of my", needs="delegation|powers"),
        rule="4E45", example="I revoke the delegation of the Ministry of Change",
        says="revoke the delegation of {ministry}", legal_entity=True,
        not_actions=("I revoked the delegation of the Ministry of Change",))
def revoke(ctx: Context, actor: Player, ministry: str, delegate: str | None = None) -> None:
    """Rule 4E45: the Minister ends the delegations of its Ministry (to one delegate, or all)."""
    m = find_ministry(ctx, ministry, "4E45")
    q = Delegation.select().where(Delegation.ministry == m.name, Delegation.minister == actor.id,
                                  Delegation.state == "in force")
    rows = [d for d in q.order_by(Delegation.id)
            if delegate is None or d.delegate.name_key == entities.find_entity(ctx, delegate, "4E45").name_key]
    if not rows:
        raise Rejected(f"{actor.name} has delegated no powers of {describe(ctx.config, m)}", rule="4E45")
    for d in rows:
        _end_delegation(ctx, d, f"revoked by {actor.name}")


def _end_delegation(ctx: Context, d: Delegation, why: str) -> None:
    d.state = "ended"
    d.save()
    ctx.record("delegation", f"{d.delegate.name} no longer has the powers of the Ministry of {d.ministry_id}: "
               f"{why}", rule="4E45", ministry=d.ministry_id, delegate=d.delegate.name, contract=d.contract_id)


# ---------------------------------------------------- breach (4E70, 4E18)

@action("allege_breach",
        # Rule 4E70: "A Player may submit a Consultation indicating that a specified Legal
        # Entity who is bound by a specified Contract has failed ... to fulfill the
        # obligations and/or requirements bestowed on them by that Contract"
        frame("allege a breach of|allege breach of|report a breach of|claim a breach of|allege a violation of"
              "|submit a consultation alleging a breach of|consult the oracle on a breach of",
              CONTRACT, "party:player[by]", also="contract"),
        rule="4E70", example="I allege a breach of Contract 3 by Wooble",
        says="allege a breach of Contract {which} by {party}", document="consultation",
        not_actions=("I alleged a breach of Contract 3 by Wooble", "Wooble alleges a breach of Contract 3 by Ais",
                     "Should I allege a breach of Contract 3 by Wooble?"))
def allege(ctx: Context, actor: Player, which: str, party: str, document: str = "") -> None:
    """Rule 4E70: a Player submits a Consultation (4E18) that a party to a Contract
    failed it; its Priest rules, and an Oracularity rectifies the breach."""
    c = find_contract(which)
    accused = entities.find_entity(ctx, party, "4E70")
    if bound(c, accused) is None:
        raise Rejected(f"{accused.name} is not a party to Contract {c.id}", rule="4E70")
    question = (f"Has {accused.name}, bound by Contract {c.id}, failed (through action or inaction) to fulfill "
                f"the obligations and/or requirements that Contract bestows on them?")
    reasoning = document.strip()
    consultations.submit(ctx, actor, document=f"Question: {question}\n" + (f"Reasoning: {reasoning}\n"
                                                                          if reasoning else ""))
    made = Consultation.select().order_by(Consultation.id.desc()).first()
    Breach.create(consultation=made, contract=c, party=accused)
    ctx.record("contract", f"{actor.name} alleges that {accused.name} breached Contract {c.id} "
               f"(Consultation #{made.id})", rule="4E70", contract=c.id, party=accused.name,
               consultation=made.id, action="breach alleged")


# ---------------------------------------------------------- the display

def history(c: Contract) -> list[dict]:
    """What happened to a Contract, in order: the events that name it (created,
    bound, left, amended, delegations, breaches alleged, ceased)."""
    rows = Event.select().where(Event.kind.in_(("contract", "delegation", "corporation"))).order_by(Event.seq)
    return [{"at": e.at.strftime("%Y-%m-%d %H:%M UTC"), "what": e.summary, "rule": e.rule}
            for e in rows if e.data.get("contract") == c.id]


def contract_row(c: Contract) -> dict:
    """One Contract as the Arbiter's display and `show contracts --json` give it (a contract: add keys)."""
    corp = corporation_of_articles(c)
    return {"number": c.id, "title": c.title, "state": c.state, "articles": c.articles,
            "corporation": corp.name if corp else None, "author": c.author.name, "version": c.version,
            "text": c.text, "parties": [p.name for p in parties(c)],
            "versions": [{"version": v.version, "author": v.author.name, "text": v.text,
                          "at": v.at.strftime("%Y-%m-%d %H:%M UTC")}
                         for v in c.versions.order_by(ContractVersion.version)],
            "delegations": [{"ministry": d.ministry_id, "minister": d.minister.name, "delegate": d.delegate.name,
                             "state": d.state}
                            for d in Delegation.select().where(Delegation.contract == c.id).order_by(Delegation.id)],
            "history": history(c)}


def display(ctx: Context) -> dict:
    """Rule 4E70: the Arbiter's display: every Contract, its current text, its parties,
    its history. A game with none gives nothing more than the display's head."""
    rows = [contract_row(c) for c in Contract.select().order_by(Contract.id)]
    if not rows and not Corporation.select().exists():
        return {}
    return {"contracts": rows, "corporations": entities.corporations()}


@view("contracts", template="show_contracts.txt")
def contracts_view(ctx: Context, request: Request) -> list[dict]:
    """`bnomic show contracts --json` (a contract: add keys, never rename)."""
    return [contract_row(c) for c in Contract.select().order_by(Contract.id)]
