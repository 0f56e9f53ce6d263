"""How voting works: Rules 4E15 (Voting, Tallying), 4E19 (Scoring), 4E20
(Registered Voters), 4E14 (the Ballot and the Clock: the Chairman's and the
MoM's turning it On, the MoM's turning it Off) and 4E69 (Colors paid).

* At the beginning of nday 9 every Pending proposal becomes Open.
* The Chairman publishes the Ballot and may then turn the Clock On; bnomic
  does both for a Chairman who delegated the duty (4E45), never for a Vacant
  Ministry of Change.
* The MoM turns the Clock On when it is Off and no Ministry is Vacant; in the
  Voting Period that waits for the Ballot (docs/readings.md).
* Registered Voters vote FOR, AGAINST, ABSTAIN or SHELVE; the latest vote in
  the Voting Period is the Final Vote.
* At the end of the Voting Period (the end of nday 12) the tally runs in the
  order 4E15 gives, the Won proposals Pass (their changes applied, changes.py),
  all Open proposals become Historical and are scored (4E19). A proposal
  Shelved (Discarded by its SHELVE votes) returns to the next ballot, unless
  it was Shelved the nweek before too: then it is Lost and Failed (docs/readings.md).
* The results, with every vote and every step, are published for the Chairman.
"""
from __future__ import annotations

import re
from collections import defaultdict

from ..store import Event, Fine, Ministry, Obligation, Player, Proposal, Vote, database, hot
from .clock import in_voting_period, set_clock
from .economy import credit, set_points
from .entities import laundry
from .context import Context, Rejected
from . import changes
from .ministries import any_vacant, delegated, ensure, held_ministries, may_act_for, mom, require_minister, vacant
from .obligations import fulfil, fulfil_kind, oblige, open_obligation
from .proposals import find, label, number_all
from .frames import frame, role
from .registry import action, at_end_of, at_start_of, duty
from .shares import share
from .tally import VOTES, Counted, Decision, Score, count



# ------------------------------------------------------------ the voters

def registered_voters():
    """Rule 4E20: all Players are Registered Voters unless a rule says otherwise.
    Rule 4E73: a Player who has not destroyed the macks of a fine is not one."""
    fined = Fine.select(Fine.player).where(Fine.paid == False)  # noqa: E712
    return Player.select().where(Player.is_player == True, Player.id.not_in(fined))  # noqa: E712


def is_registered_voter(player: Player) -> bool:
    return registered_voters().where(Player.id == player.id).exists()


def vested_count() -> int:
    return Player.select().where(Player.is_player == True, Player.vested == True).count()  # noqa: E712


# ---------------------------------------------------------------- voting

_WHICH = r"(?P<which>all(?: (?:the |currently )?open)?(?: proposals)?|everything|(?:proposals? )?#?\d+(?:\s*(?:,|&|and)\s*#?\d+)*)"


_ALL = {"all": "all", "all open proposals": "all", "all proposals": "all", "everything": "all",
        "every proposal": "all", "every open proposal": "all", "all the open proposals": "all",
        "all of them": "all", "all currently open proposals": "all",
        # the Open proposals the message names nowhere else (grammar.read: "rest")
        "everything else": "rest", "all others": "rest", "all the others": "rest", "the rest": "rest",
        "all the rest": "rest", "all other proposals": "rest", "every other proposal": "rest",
        "the others": "rest", "the other proposals": "rest", "all remaining proposals": "rest",
        "the remaining proposals": "rest", "all remaining": "rest", "anything else": "rest",
        "everything other": "rest", "all else": "rest", "rest": "rest", "others": "rest",
        "everything on the ballot": "all", "all on the ballot": "all", "all the proposals on the ballot": "all",
        "everything else on the ballot": "rest", "the rest of the ballot": "rest",
        "all the rest of them": "rest", "the rest of them": "rest", "all the rest of them that are open": "rest",
        "the rest of them that are open": "rest", "the rest that are open": "rest", "all the rest that are open": "rest",
        "all the other open proposals": "rest", "the other open proposals": "rest", "every other open proposal": "rest",
        "all other open proposals": "rest", "the remaining open proposals": "rest",
        "everything open": "all", "everything that is open": "all", "everything currently open": "all",
        "everything that's open": "all", "everything that is currently open": "all", "all that's open": "all",
        "everything still open": "all", "everything that's still open": "all", "all still open": "all",
        # "FOR on both" (in a reply about two proposals: grammar._vote_on_the_quoted names them)
        "both": "both", "both of them": "both", "both proposals": "both", "both of those": "both",
        "all that are open": "all", "every open one": "all",
        **{f"the other {n}": "rest" for n in ("two", "three", "four", "five", "six", "2", "3", "4", "5", "6")},
        **{f"the remaining {n}": "rest" for n in ("two", "three", "four", "five", "six", "2", "3", "4", "5", "6")},
        "the remainder": "rest", "the remaining ones": "rest", "remainder": "rest", "the remaining": "rest",
        "each proposal": "all", "each open proposal": "all", "each of the open proposals": "all",
        "each of the proposals": "all", "each of them": "all", "every one of them": "all",
        # ("all seven Open Proposals", a count of them, is "all open proposals": grammar._COUNTED_ALL)
        }


# "except 14": the proposals a vote on all leaves out; "..., which is AGAINST": their own vote
_BUT = "but:proposal*[except|except for|excepted|excepting|but|but not|apart from|other than|save|excluding]!?"
_INSTEAD = ("instead:vote[which is|which are|which gets|which get|where i vote|which i vote"
            "|on which i vote|where it is|which i am|on which i|on which i am|on which i'm|on which my vote is"
            "|for which i vote|for which i|where i|which i|on which i am voting|on which i'm voting"
            "|which i am voting|which i'm voting|which i will vote|on which i will vote|which gets my]!?")


@action("vote",
        # Rule 4E15: a Vote is one of the words FOR, AGAINST, ABSTAIN, SHELVE, on Open proposals
        frame("vote|cast|cast my vote|cast my votes|place my vote|submit my vote|submit a vote|enter"
              "|change my vote|change my votes|switch my vote|update my vote|amend my vote"
              "|give my vote|give my votes|register my vote|record my vote|lodge my vote|put my vote"
              "|put me down|put me down as|mark me down|mark me down as|make the vote|make my vote|make a vote",
              "vote:vote[to|of]", role("which:proposal*[on|for|to|in|regarding|re|about|with respect to|upon"
                                       "|in favour of|in favor of]", _ALL),
              "was:vote[from|instead of|rather than|in place of]!?",                                               # "from FOR to AGAINST"
              _BUT, _INSTEAD,
              also="votes vote as follows of from me myself nweek",
              openers="my vote|my votes|votes|i am|i am voting|my own vote|my own votes"),                 # "I am AGAINST 12"
        frame("vote|cast|cast my vote|cast my votes", "vote:vote", role("which:choice", _ALL),
              also="on for to in", openers="my vote|my votes"),
        # "Count me AGAINST on 12" (not "Count me in": a Vote word said, or no vote at all)
        frame("count me|count me as|count me down as", "vote:vote",
              role("which:proposal*[on|for|to|in|regarding|re|about]", _ALL), _BUT, _INSTEAD,
              needs="for|against|abstain|shelve"),
        frame("", "vote:vote", role("which:proposal*[on|for|to|in|regarding|re|about]", _ALL), _BUT, _INSTEAD,
              also="from me", bare=True),                 # "AGAINST 12 from me", "FOR all except 13"
        frame("", "vote:vote", role("which:choice[on]!", _ALL), bare=True),     # "FOR on all"
        frame("", role("which:choice", {k: v for k, v in _ALL.items() if v == "rest"}), "vote:vote",
              bare=True),                                                       # "everything else: AGAINST"
        rule="4E15", example="I vote FOR on 12, 14", says="vote {vote} on {which}",
        not_actions=("I voted FOR 12 yesterday", "Should I vote AGAINST 13?", "for 12 years",
                     "Wooble votes FOR 12"))
def vote(ctx: Context, actor: Player, vote: str, which: str, was: str | None = None,
         but: str | None = None, instead: str | None = None, rest: str | None = None) -> None:
    """Rule 4E15: a Registered Voter may submit a Vote on an Open proposal: one
    of FOR, AGAINST, ABSTAIN or SHELVE; other words are ignored. Rule 4E28: a
    player who votes in an nweek becomes Vested at the next one. (`was`, the vote a
    change replaces, is said but not needed: the last vote counts. `rest`: the
    proposals were said as "everything else", which leaves the sender's earlier
    votes standing: docs/readings.md.)"""
    word = vote.upper()
    if word not in VOTES:
        raise Rejected(f"{vote!r} is not a Vote; a Vote is FOR, AGAINST, ABSTAIN or SHELVE", rule="4E15")
    if not is_registered_voter(actor):
        raise Rejected(f"{actor.name} is not a Registered Voter", rule="4E20")
    targets, refused = _targets(ctx, which)
    if but:                                 # "FOR everything except 14"
        left_out = {n.strip().lstrip("#") for n in but.split(",")}
        targets = [p for p in targets if str(p.number) not in left_out]
    if instead and not but:
        raise Rejected(f"{instead} on which proposals? (Rule 4E15)", rule="4E15")
    if rest:                                # "everything else: ABSTAIN" after "FOR 12" yesterday
        targets, voted = _not_voted_on(actor, targets)
        if voted:
            ctx.notes.append(f"your earlier vote stands on {_listed(voted)}: \"everything else\" is "
                             "the proposals you had not voted on (Rule 4E15)")
        if not targets:
            raise Rejected(f"you have voted on every other Open proposal already ({_listed(voted)})",
                           rule="4E15")
    for why in refused:
        ctx.notes.append(f"not counted: {why} (Rule 4E15)")
    if not targets:
        raise Rejected("; ".join(refused) or "there are no Open proposals to vote on", rule="4E15")
    game = ctx.game
    for p in targets:
        Vote.create(proposal=p, voter=actor, vote=word, nweek=p.voting_nweek, at=ctx.at, entry=ctx.entry)
    actor = Player.get_by_id(actor.id)
    actor.last_voted_nweek = game.nweek
    actor.save()
    numbers = ", ".join(str(p.number) for p in targets)
    ctx.record("vote", f"{actor.name} votes {word} on {'proposal' if len(targets) == 1 else 'proposals'} "
               f"{numbers}", rule="4E15", player=actor.name, vote=word,
               proposals=[p.number for p in targets])
    if instead and but:                     # "..., except 14, which is AGAINST"
        vote(ctx, actor, instead, but)


def _not_voted_on(actor: Player, targets: list[Proposal]) -> tuple[list[Proposal], list[Proposal]]:
    """The proposals the actor has cast no Vote on in their Voting Period, and those it has."""
    period = {p.id: p.voting_nweek for p in targets}
    voted = {v.proposal_id for v in Vote.select(Vote.proposal, Vote.nweek).where(
        Vote.voter == actor, Vote.proposal.in_(list(period))) if v.nweek == period[v.proposal_id]}
    return [p for p in targets if p.id not in voted], [p for p in targets if p.id in voted]


def _listed(proposals: list[Proposal]) -> str:
    return ("Proposal " if len(proposals) == 1 else "Proposals ") + ", ".join(str(p.number) for p in proposals)


def _targets(ctx: Context, which: str) -> tuple[list[Proposal], list[str]]:
    """The Open proposals a vote names, and why any other it names is refused."""
    if re.match(r"all|everything", which, re.I):
        return list(Proposal.select().where(Proposal.status == "Open", Proposal.number.is_null(False))
                    .order_by(Proposal.number)), []
    targets, refused = [], []
    for n in dict.fromkeys(int(x) for x in re.findall(r"\d+", which)):
        p = Proposal.get_or_none(Proposal.number == n)
        if p is None:
            refused.append(f"there is no proposal {n}")
        elif p.status != "Open":
            refused.append(f"{label(p)} is {p.status}, not Open")
        else:
            targets.append(p)
    return targets, refused


def final_votes(proposals: list[Proposal], voters: set[int] | None = None) -> dict[int, dict[int, str]]:
    """Rule 4E15: each voter's most recent Vote on each proposal in its Voting
    Period: {proposal id: {player id: vote}} (of `voters` only, if given).
    Read as plain rows (a tally reads tens of thousands), by the proposals'
    Voting Period: the votes of a Voting Period lie between the first and the
    last id its proposals' votes got in it (one probe of the proposal index
    each), read in that range of the table in id order, the order they were cast
    (a later Vote of a voter replaces the earlier): the table's rows in a run,
    not one index probe and table lookup per vote. (Meant for whole Voting
    Periods, as the tally and `show proposals` ask: a few proposals of a busy
    one would still read all of its votes.)"""
    by_nweek: dict[int, list[int]] = defaultdict(list)
    for p in proposals:
        by_nweek[p.voting_nweek].append(p.id)
    out: dict[int, dict[int, str]] = defaultdict(dict)
    mark = database.param
    for nweek, ids in by_nweek.items():
        chunks = [ids[i:i + 500] for i in range(0, len(ids), 500)]   # never a bound parameter per proposal past 500
        low = high = None
        for chunk in chunks:
            first, last = database.execute_sql(
                f'SELECT MIN("lo"), MAX("hi") FROM (SELECT (SELECT "id" FROM "vote" WHERE "proposal_id" = "p"."id" '
                f'AND "nweek" = {mark} ORDER BY "id" LIMIT 1) AS "lo", (SELECT "id" FROM "vote" WHERE '
                f'"proposal_id" = "p"."id" AND "nweek" = {mark} ORDER BY "id" DESC LIMIT 1) AS "hi" '
                f'FROM "proposal" AS "p" WHERE "p"."id" IN ({", ".join([mark] * len(chunk))})) AS "bounds"',
                [nweek, nweek, *chunk]).fetchone()
            if first is not None:
                low = first if low is None else min(low, first)
                high = last if high is None else max(high, last)
        if low is None:                     # no votes
            continue
        wanted = set(ids)
        found: dict[int, dict[int, str]] = {}
        for pid, voter, word in database.execute_sql(
                f'SELECT "proposal_id", "voter_id", "vote" FROM "vote" WHERE "id" >= {mark} AND "id" <= {mark} '
                f'AND "nweek" = {mark} ORDER BY "id"', [low, high, nweek]):
            got = found.get(pid)
            if got is None:
                if pid not in wanted:
                    continue
                got = found[pid] = {}
            if voters is None or voter in voters:
                got[voter] = word
        for chunk in chunks:                # in the order of a query per chunk by proposal id
            for pid in sorted(pid for pid in chunk if pid in found):
                out[pid] = found[pid]
    return out


def _plain_rows(query) -> list[tuple]:
    """A query's rows as the database gives them (ints and text: no field conversions)."""
    sql, params = query.sql()
    return list(database.execute_sql(sql, params))


# ------------------------------------------------------- the Voting Period

@at_start_of("voting", rule="4E15")
def open_proposals(ctx: Context) -> None:
    """Rule 4E15: at the beginning of each Voting Period all Pending proposals become Open."""
    nweek = ctx.game.nweek
    opened = []
    for p in Proposal.select().where(Proposal.status == "Pending").order_by(Proposal.number, Proposal.id):
        p.status, p.voting_nweek = "Open", nweek
        p.save()
        opened.append(p.number)
    if opened:
        ctx.record("open", f"the Voting Period of nweek {nweek} begins: proposals "
                   f"{', '.join(str(n) for n in opened)} are Open", rule="4E15", proposals=opened)


def open_now() -> list[Proposal]:
    # (its SELECT built once, the rows made directly: a tally reads hundreds)
    found = hot.fetch(Proposal, "open now", 'WHERE "t1"."status" = ? ORDER BY "t1"."number" IS NULL, '
                      '"t1"."number", "t1"."id"', ("Open",))
    if found is not None:
        return found
    return list(Proposal.select().where(Proposal.status == "Open")
                .order_by(Proposal.number.is_null(), Proposal.number, Proposal.id))


def ballot_published(ctx: Context) -> bool:
    return ctx.game.ballot_nweek == ctx.game.nweek


def ballot_data(ctx: Context) -> dict:
    return {"nweek": ctx.game.nweek,
            "proposals": [{"number": p.number, "title": p.title, "author": p.author.name,
                           "body": p.body, "conflicts": p.conflicts, "dependencies": p.dependencies,
                           "color": p.color} for p in open_now()]}


def publish_ballot(ctx: Context, by: str, mail: bool) -> None:
    """Rule 4E15: the Ballot lists every item voted on in the Voting Period
    (Rule 4E14: with the Open proposals' text)."""
    game = ctx.game
    game.ballot_nweek = game.nweek
    game.save()
    data = ballot_data(ctx)
    n = len(data["proposals"])
    ctx.record("ballot", f"{by} publishes the Ballot of nweek {game.nweek} "
               f"({'no' if n == 0 else n} Open proposal{'' if n == 1 else 's'})",
               rule="4E15", mail=mail, **data)


def chairman_may_turn_clock_on(ctx: Context, actor: Player) -> bool:
    """Rule 4E14: in the Voting Period, until the Clock next becomes On, the
    Chairman may turn it On, having first published a Ballot."""
    chairman = Ministry.get_or_none(Ministry.name == "Change")
    return (chairman is not None and may_act_for(ctx, actor, chairman) and     # or its delegate (4E45)
            in_voting_period(ctx.config, ctx.game) and ballot_published(ctx))


def waiting_for_ballot(ctx: Context) -> bool:
    """In the Voting Period the Clock waits for the Ballot (4E14): until it is
    published, the MoM's duty to turn the Clock On waits too (docs/readings.md)."""
    return in_voting_period(ctx.config, ctx.game) and not ballot_published(ctx)


@action("publish_ballot",
        # Rules 4E15, 4E14: the Chairman "is obligated to publish a Game Document known as a
        # ballot", "to a Public Forum a Ballot listing any Open Proposals" (the message is it)
        frame("publish|post|present|issue|send out|put out|distribute|give", "nweek:number[for nweek|of nweek]?",
              also="ballot below above following here", needs="ballot"),
        frame("", "nweek:number[for nweek|of nweek]?", also="ballot below follows",
              openers="this is the ballot|here is the ballot|here's the ballot|the ballot is below"
                      "|below is the ballot"),
        # a heading, as Chairmen write it: "BALLOT, nweek 7" (the nweek said: not "Ballot: 1st ...")
        frame("", "nweek:number[nweek|for nweek|of nweek]!", also="the", openers="ballot|the ballot"),
        rule="4E15", example="I publish the Ballot", says="publish the Ballot",
        not_actions=("I published the Ballot yesterday", "The Chairman publishes the Ballot",
                     "Should I publish the Ballot?"))
def chairman_publishes_ballot(ctx: Context, actor: Player, nweek: str | None = None) -> None:
    """Rules 4E14, 4E15: the Chairman publishes to a Public Forum the Ballot,
    listing every Open proposal (the message itself is the Ballot)."""
    require_minister(ctx, actor, "Change", "4E15", "only the Chairman publishes the Ballot")
    if nweek and nweek != str(ctx.game.nweek):
        raise Rejected(f"the Ballot to publish is nweek {ctx.game.nweek}'s, not nweek {nweek}'s",
                       rule="4E15")
    if ctx.post is None or not ctx.post.public:
        raise Rejected("a Ballot is published to a Public Forum", rule="4E14")
    if not in_voting_period(ctx.config, ctx.game):
        raise Rejected("the Ballot is for the Voting Period (from nday 9)", rule="4E15")
    listed = {int(n) for n in re.findall(r"\d+", ctx.post.text)}
    missing = [p.number for p in open_now() if p.number not in listed]
    if missing:
        raise Rejected(f"the Ballot must list every Open proposal; it lacks {missing}", rule="4E15")
    publish_ballot(ctx, f"the Chairman ({actor.name})", mail=False)
    fulfil_kind(ctx, "Change", "ballot", f"{actor.name} published the Ballot")


@action("publish_results",
        # Rule 4E15: "the Minister of Change is obligated to publish the results of the voting"
        frame("publish|post|present|issue|announce|give|send out|put out",
              "nweek:number[for nweek|of nweek|of the voting of nweek|of the voting for nweek]?",
              also="results result voting of the below above following here", needs="results"),
        # a heading: "RESULTS, nweek 7", "Results of voting, nweek 7:" (the nweek said)
        frame("", "nweek:number[nweek|for nweek|of nweek]!", also="the",
              openers="results|the results|results of voting|results of the voting|voting results"),
        rule="4E15", example="I publish the results of the voting", says="publish the results",
        not_actions=("I published the results yesterday", "The Chairman publishes the results",
                     "Should I publish the results?"))
def chairman_publishes_results(ctx: Context, actor: Player, nweek: str | None = None) -> None:
    """Rule 4E15: the Chairman publishes the results of the voting."""
    require_minister(ctx, actor, "Change", "4E15", "only the Chairman publishes the results")
    if ctx.post is None or not ctx.post.public:
        raise Rejected("the results are published to a Public Forum", rule="4E15")
    fulfil_kind(ctx, "Change", "results", f"{actor.name} published the results")
    ctx.record("results", f"the Chairman ({actor.name}) publishes the results", rule="4E15", mail=False)


def _chairman_held() -> bool:
    change = held_ministries().get("Change")
    return change is not None and change.holder_id is not None


def _chairman(ctx: Context) -> Player | None:
    """The Chairman, if the Ministry of Change is held (bnomic never acts for a Vacant one)."""
    change = held_ministries().get("Change")
    return None if change is None or change.holder_id is None else Player.get_by_id(change.holder_id)


def _chairman_obliged(ctx: Context, kind: str, does) -> None:
    """Fulfil the Chairman's open obligations of this kind, for a Chairman who delegated it (4E45)."""
    if not open_obligation("Change", kind):     # the usual case: nothing to fulfil
        return
    chairman = _chairman(ctx)
    if chairman is None or not delegated(ctx, kind):
        return
    by = f"bnomic, for the Chairman ({chairman.name}),"
    for o in Obligation.select().join(Ministry).where(
            Ministry.name == "Change", Obligation.kind == kind, Obligation.state == "open") \
            .order_by(Obligation.id):
        fulfil(ctx, o, does(o, by))


@duty("Change", "numbers", rule="4E15", does="assign Proposal Numbers to new proposals (Rule 4E15)")
def numbers_duty(ctx: Context) -> None:
    """Rule 4E15: the Chairman numbers each new proposal."""
    _chairman_obliged(ctx, "numbers", lambda o, by: f"numbered {number_all(ctx, by)} by bnomic for the Chairman")


@duty("Change", "results", rule="4E15", does="publish the results of the voting (Rule 4E15)")
def results_duty(ctx: Context) -> None:
    """Rule 4E15: the Chairman publishes the results of the voting."""
    def publish(o, by):
        publish_results(ctx, o.data["tally"], by)
        return "bnomic published the results for the Chairman"
    _chairman_obliged(ctx, "results", publish)


@duty("Change", "ballot", rule="4E15", does="publish the Ballot at the beginning of the Voting Period, "
                                             "then turn the Clock On (Rules 4E15, 4E14)")
def ballot_duty(ctx: Context) -> None:
    """Rules 4E15, 4E14: in the Voting Period the Chairman publishes the Ballot, and
    may then turn the Clock On; done by bnomic for a Chairman who delegated it."""
    if not _chairman_held() or not waiting_for_ballot(ctx):
        return
    chairman = _chairman(ctx)
    if delegated(ctx, "ballot"):
        publish_ballot(ctx, f"bnomic, for the Chairman ({chairman.name}),", mail=True)
        if not ctx.game.clock_on:
            set_clock(ctx, on=True, rule="4E14", by=f"bnomic for the Chairman ({chairman.name}), "
                      "after the Ballot")
    else:
        oblige(ctx, ensure(ctx, "Change"), "ballot", f"publish the Ballot of nweek {ctx.game.nweek}",
               "4E15", nweek=ctx.game.nweek)


# ------------------------------------------- the Clock and the Ballot (4E14)

@duty("Ministry", "clock_on", rule="4E14",
      does="turn the Clock On when it is Off and no Ministry is Vacant (Rule 4E14)")
def clock_on_duty(ctx: Context) -> None:
    """Rule 4E14: the Clock is Off and no Ministry is Vacant: the MoM is obligated to
    turn it On (in the Voting Period, once the Ballot is out). bnomic does so for a
    MoM who delegated the duty (4E45)."""
    game = ctx.game
    if game.clock_on or game.time_stopped or any_vacant() or waiting_for_ballot(ctx):
        fulfil_kind(ctx, "Ministry", "clock_on", "the Clock is On" if game.clock_on
                    else "a Ministry is Vacant" if any_vacant() else "game time is stopped"
                    if game.time_stopped else "the Clock waits for the Ballot")
        return
    if delegated(ctx, "clock_on"):
        set_clock(ctx, on=True, rule="4E14", by=f"bnomic for the MoM ({mom(ctx).name})")
    else:
        oblige(ctx, ensure(ctx, "Ministry"), "clock_on", "turn the Clock On", "4E14")


@action("clock_off",
        # Rule 4E14: "The Clock may be changed from On to Off as a Game Action by the MoM"
        frame("turn|set|switch|change|put", role("state:choice", {"off": "Off", "from on to off": "Off"}),
              also="clock to be", needs="clock"),
        frame("stop|halt|pause", also="clock", needs="clock"),
        rule="4E14", example="I turn the Clock Off", says="turn the Clock Off",
        not_actions=("I turned the Clock Off yesterday", "Wooble turns the Clock Off",
                     "I turn off the lights", "Should I turn the Clock Off?"))
def clock_off(ctx: Context, actor: Player, state: str = "Off") -> None:
    """Rule 4E14: the Clock may be changed from On to Off as a Game Action by the MoM.
    (`state` is the word read, "Off": the frame's own, nothing to check.)"""
    require_minister(ctx, actor, "Ministry", "4E14", "only the MoM may turn the Clock Off")
    set_clock(ctx, on=False, rule="4E14", by=f"the MoM ({actor.name})")


@action("clock_on",
        # Rule 4E14: the MoM "is obligated to turn the Clock On"; the Chairman may
        # "change the clock to be On" after the Ballot
        frame("turn|set|switch|change|put", role("state:choice", {"on": "On", "from off to on": "On"}),
              also="clock to be", needs="clock"),
        frame("start|restart|resume", also="clock", needs="clock"),
        rule="4E14", example="I turn the Clock On", says="turn the Clock On",
        not_actions=("I turned the Clock On yesterday", "The MoM turns the Clock On",
                     "I turn on the charm", "Should I turn the Clock On?"))
def clock_on(ctx: Context, actor: Player, state: str = "On") -> None:
    """Rules 4E14, 4E53: the MoM, obligated to turn the Clock On when it is Off and
    no Ministry is Vacant, has the power to; so has the Chairman in the Voting
    Period, after publishing a Ballot. (`state` is the word read, "On".)"""
    if chairman_may_turn_clock_on(ctx, actor):
        ctx.minister_power = "Change"       # a Ministry's power (4E45): a Corporation's Chairman too
        set_clock(ctx, on=True, rule="4E14", by=f"the Chairman ({actor.name}), after the Ballot")
        return
    require_minister(ctx, actor, "Ministry", "4E14",
                     "only the MoM may turn the Clock On, when no Ministry is Vacant (or the "
                     "Chairman, in the Voting Period, after publishing a Ballot)")
    if waiting_for_ballot(ctx):
        raise Rejected("in the Voting Period the Clock waits for the Chairman's Ballot", rule="4E14")
    if vacant().exists():
        names = ", ".join(m.name for m in vacant())
        raise Rejected(f"a Ministry is Vacant ({names}); the MoM turns the Clock On when none is",
                       rule="4E14")
    set_clock(ctx, on=True, rule="4E14", by=f"the MoM ({actor.name})")


def publish_results(ctx: Context, tally_seq: int, by: str, nweek: int | None = None) -> None:
    if nweek is None:       # (the tally knows it: its event's data is the whole result, megabytes)
        nweek = Event.get_by_id(tally_seq).data["nweek"]
    ctx.record("results", f"{by} publishes the results of nweek {nweek}", rule="4E15", mail=True,
               tally=tally_seq, nweek=nweek)


# --------------------------------------------------------------- the tally

@at_end_of("voting", rule="4E15")
def tally(ctx: Context) -> None:
    """Rule 4E15: when Voting ends, the tally (tally.count: Discarded for want of
    Stamina; Won, Discarded (Shelved) or Lost by Strength; Dependency Culling;
    Conflict Culling; Dependency Culling again); then the Won proposals Pass in
    number order, all Open proposals become Historical and are scored (4E19)."""
    nweek = ctx.game.nweek
    proposals = open_now()
    if not proposals:
        return
    finals = final_votes(proposals, {pid for (pid,) in _plain_rows(registered_voters().select(Player.id))})
    names = dict(_plain_rows(Player.select(Player.id, Player.name)))
    folded = {pid: name.casefold() for pid, name in names.items()}    # the results' order of voters
    vested = vested_count()
    counted = [Counted(p.id, p.number, p.author_id, finals.get(p.id, {}), tuple(p.dependencies),
                       tuple(p.conflicts), p.was_won, p.shelved_nweek == nweek - 1) for p in proposals]
    result = count(counted, vested, _success_of, never_won_penalty=ctx.config.owned("voting.failed_penalty"),
                   stamina_share=share(ctx, "voting.stamina_share"),
                   vote_points=ctx.config.owned("voting.vote_points"))
    # 6. the Won proposals Pass, in order by number
    changed = {p.id: ([], []) for p in proposals}
    for p in proposals:
        if result.decisions[p.id].passed:
            changed[p.id] = pass_proposal(ctx, p)
    # 7. all Open proposals become Historical (a Shelved one returns to the ballot)
    outcomes = {p.id: _close(ctx, p, c, result.decisions[p.id], nweek) for p, c in zip(proposals, counted)}
    _write_closed(proposals)
    scores = _apply_scores(ctx, result.scores, nweek)
    event = ctx.record("tally", f"the votes of nweek {nweek} are counted: "
                       + ", ".join(f"{_n(p)} {outcomes[p.id]}" for p in proposals),
                       rule="4E15", nweek=nweek, vested=vested,
                       proposals=[_result(p, c, result.decisions[p.id], outcomes[p.id], changed[p.id], names,
                                          folded)
                                  for p, c in zip(proposals, counted)],
                       scores=[{"player": names[pid], **s} for pid, s in sorted(
                           scores.items(), key=lambda kv: names[kv[0]].casefold())])
    _results_duty(ctx, event.seq, nweek)
    _pay_colors(ctx, [p for p in proposals if result.decisions[p.id].passed])


def _n(p: Proposal) -> str:
    return str(p.number) if p.number is not None else f"#{p.id}"


def _success_of(number: int) -> str:
    """The Success of a proposal not in this tally (a Dependency on an older one)."""
    row = Proposal.get_or_none(Proposal.number == number)
    return row.success if row else "Undecided"


def pass_proposal(ctx: Context, p: Proposal) -> tuple[list[str], list[str]]:
    """Rule 4E15: when a proposal Passes the game changes as its Body says: what
    the change language says is applied; the rest is left to the Rulekeeper."""
    parsed = changes.parse(p.body)
    done = changes.apply(ctx, parsed.changes, source=f"Proposal {_n(p)}", rule="4E15")
    applied = [a.summary for a in done if a.ok]
    unapplied = [f"{a.change.text}: {a.summary}" for a in done if not a.ok] + parsed.prose
    ctx.record("pass", f"{label(p)} Passes" + (f"; {len(applied)} change(s) applied" if applied else ""),
               rule="4E15", proposal=p.id, number=p.number, applied=applied, unapplied=unapplied)
    if unapplied:
        oblige(ctx, ensure(ctx, "Law"), "implement", f"make the changes of passed proposal {_n(p)} "
               "that bnomic could not apply: " + " | ".join(u[:300] for u in unapplied), "4E15",
               proposal=p.number)
    return applied, unapplied


def _apply_scores(ctx: Context, scores: dict[int, Score], nweek: int) -> dict[int, dict]:
    """The net change for each player, floored by Rule 4E17 (economy.set_points);
    what the results print of each."""
    out = {}
    players = {p.id: p for p in Player.select().where(Player.id.in_(list(scores)))} if scores else {}
    for pid, s in scores.items():
        player = players[pid]
        before, after = set_points(player, s.change)
        out[pid] = {"change": s.change, "reasons": list(s.reasons),
                    **({"voted_on": list(s.voted_on)} if s.voted_on else {}), "before": before, "after": after}
        ctx.record("points", f"{player.name}: {before} -> {after} points ("
                   + "; ".join(s.reasons) + ")", rule="4E19", player=player.name,
                   change=s.change, before=before, after=after, nweek=nweek)
    return out


def _close(ctx: Context, p: Proposal, c: Counted, d: Decision, nweek: int) -> str:
    """The proposal's row as the tally left it (written by _write_closed); returns its
    outcome as the results say it."""
    p.stamina, p.strength, p.was_won = c.stamina, c.strength, d.was_won
    p.passed, p.failed = d.passed, d.failed
    p.decided_by = d.steps[-1] if d.steps else ""
    if d.shelved:
        # Shelved: back to Pending for the next ballot (docs/readings.md)
        p.status, p.success, p.shelved_nweek = "Pending", "Undecided", nweek
        outcome = "Shelved (returns to the next ballot)"
    else:
        p.status, p.success = "Historical", d.success
        outcome = "Passed" if d.passed else d.success
        if d.twice_shelved:
            p.shelved_nweek, p.failed = nweek, True
    return outcome


# the columns _close sets: the only ones of a proposal the tally changes
_CLOSED = ("stamina", "strength", "was_won", "passed", "failed", "decided_by", "status", "success",
           "shelved_nweek")


def _write_closed(proposals: list[Proposal]) -> None:
    """The tally's columns of every closed proposal: one statement, built once, run for every row."""
    hot.update_rows(proposals, _CLOSED)


def _result(p: Proposal, c: Counted, d: Decision, outcome: str, changed: tuple[list[str], list[str]],
            names: dict[int, str], folded: dict[int, str] | None = None) -> dict:
    folded = folded or {pid: name.casefold() for pid, name in names.items()}
    order = sorted(c.votes, key=folded.__getitem__)     # (made without a Python step per vote: 50,000 a tally)
    votes = dict(zip(map(names.__getitem__, order), map(c.votes.__getitem__, order)))
    return {"number": p.number, "title": p.title, "author": names[p.author_id], "votes": votes,
            "for": c.tally("FOR"), "against": c.tally("AGAINST"), "abstain": c.tally("ABSTAIN"),
            "shelve": c.tally("SHELVE"), "stamina": c.stamina, "strength": c.strength, "success": d.success,
            "outcome": outcome, "passed": d.passed, "failed": d.failed,
            "steps": list(d.steps), "applied": changed[0], "unapplied": changed[1],
            "color": p.color}


def _results_duty(ctx: Context, tally_seq: int, nweek: int) -> None:
    """Rule 4E15: at the end of a Voting Period the Chairman publishes the results."""
    change = Ministry.get_or_none(Ministry.name == "Change")
    if change is not None and change.holder_id is not None and delegated(ctx, "results"):
        publish_results(ctx, tally_seq, f"bnomic, for the Chairman ({change.holder.name}),", nweek)
    else:
        oblige(ctx, ensure(ctx, "Change"), "results", "publish the results of the voting", "4E15",
               tally=tally_seq)


def _pay_colors(ctx: Context, passed: list[Proposal]) -> None:
    """Rule 4E69: "When a Proposal Passes, if that proposal had a Proposal Color
    other than Blank, the XXX Corporation (where XXX is the color of that
    Proposal) has its macks increased by m100": each passed proposal in the
    tally's order (by number), to its Color's Laundry Corporation (4E68)."""
    amount = ctx.config.owned("proposals.color_payment")
    corporations = {}               # each Color's Corporation found (or made) once
    for p in passed:
        if p.color != "Blank":
            corp = corporations.get(p.color) or corporations.setdefault(p.color, laundry(ctx, p.color))
            credit(ctx, corp.entity, "mackerel", amount, "4E69",
                   f"{label(p)} Passed with the Proposal Color {p.color}")
