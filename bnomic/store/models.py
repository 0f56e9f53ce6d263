"""The tables of a bnomic game.

Two kinds, kept apart on purpose:

* the LOG (Setup, Entry, Message, Command, and what is kept beside them in
  LOG_MODELS): what happened from outside, in arrival order, and how it was
  read. It is the truth and is never rewritten by a replay.
* the STATE (everything in STATE_MODELS): what the rules made of the log.
  `bnomic rebuild` empties these tables and replays the log into them.
"""
from __future__ import annotations

from peewee import (
    AutoField, BlobField, BooleanField, CharField, ForeignKeyField,
    IntegerField, Model, TextField, fn,
)

from . import hot, versions
from .db import database
from .fields import JSONField, UTCDateTimeField


class BaseModel(Model):
    class Meta:
        database = database

    def save(self, force_insert=False, only=None):
        """peewee's save, its SQL made once per table and columns (store/hot.py)."""
        done = hot.save(self, force_insert, only)
        return super().save(force_insert=force_insert, only=only) if done is None else done


class StateModel(BaseModel):
    """A table of the gamestate. Its numbered rows get max+1 from the code, under
    the write lock, never from a database sequence: PostgreSQL sequences skip
    numbers after a crash, and these numbers are part of the state (intent #3,
    scheduled action #4, the seed of a random draw), so a replay must repeat them."""

    @classmethod
    def create(cls, **query):
        """peewee's create (max + 1 for the key, as `save`), the row made and inserted
        by store/hot.py where it can: without peewee's per-field work (issue 16)."""
        pk = cls._meta.primary_key
        if isinstance(pk, AutoField) and query.get(pk.name) is None and hot.fast():
            table = cls._meta.table_name
            key = versions.next_key(database, table, lambda: cls.select(fn.MAX(pk)).scalar())
            row = hot.create(cls, query, pk.name, key)
            if row is not None:
                versions.used_key(database, table, key)
                return row
        return super().create(**query)

    def save(self, force_insert=False, only=None):
        pk = self._meta.primary_key
        if isinstance(pk, AutoField) and self._pk is None:
            table = self._meta.table_name
            # max + 1, counted on within a transaction (store/versions.py: no SELECT MAX per row)
            self._pk = versions.next_key(database, table, lambda: type(self).select(fn.MAX(pk)).scalar())
            done = super().save(force_insert=True, only=only)
            versions.used_key(database, table, self._pk)
            return done
        if isinstance(pk, AutoField) and not force_insert:
            # an UPDATE by key leaves the largest key as it was: the next number counted
            # before it still holds after it (an obligation's deadline set just after its insert)
            known = versions.known_key(database, self._meta.table_name)
            done = super().save(only=only)
            if known is not None:
                versions.used_key(database, self._meta.table_name, known - 1)
            return done
        return super().save(force_insert=force_insert, only=only)


# --------------------------------------------------------------------- the log

class Setup(BaseModel):
    """How the game was created, and how far it has been advanced (one row)."""
    id = IntegerField(primary_key=True, default=1)
    seed = CharField()                       # seeds every random draw (invariant 4)
    start_at = UTCDateTimeField()
    nweek = IntegerField()
    nday = IntegerField()
    clock_on = BooleanField()
    config = JSONField()                     # the merged game configuration
    advanced_to = UTCDateTimeField()         # the latest instant the game was advanced to
    ruleset = TextField(null=True)           # the initial ruleset (Rule 4E36), as given


class Entry(BaseModel):
    """One thing that arrived, in arrival order: a mail or an operator command."""
    seq = AutoField()                        # the arrival sequence
    kind = CharField()                       # "mail" | "command"
    at = UTCDateTimeField(index=True)        # game time at which it takes effect
    processed = BooleanField(default=False, index=True)

    class Meta:
        table_name = "log"


class Message(BaseModel):
    """A mail's raw bytes, exactly as received."""
    entry = ForeignKeyField(Entry, primary_key=True, backref="message", on_delete="CASCADE")
    message_id = CharField(unique=True)
    sender = CharField(index=True)           # envelope or From address, lower case
    raw = BlobField()
    stored_at = UTCDateTimeField()           # wall-clock time the bytes were committed
    source = CharField(default="")           # "ingest FILE", "lmtp", "imap"...
    envelope_from = CharField(null=True)     # SMTP MAIL FROM ("" for a bounce), if it came by SMTP/LMTP
    rcpt_tos = JSONField(null=True)          # SMTP RCPT TO addresses, if it came by SMTP/LMTP


class Command(BaseModel):
    """An operator command, kept in the log so a replay repeats it."""
    entry = ForeignKeyField(Entry, primary_key=True, backref="command", on_delete="CASCADE")
    verb = CharField()
    args = JSONField()
    issued_at = UTCDateTimeField()           # wall-clock time it was given


class Outbox(BaseModel):
    """Mail bnomic sends. Its Message-ID is fixed when queued, so a retry or a
    restart never sends a second copy. Not game state: a rebuild keeps it."""
    id = AutoField()
    message_id = CharField(unique=True)
    kind = CharField()                       # "receipt", "notice", "ballot"...
    to = JSONField()                         # list of addresses
    subject = TextField()
    body = TextField()
    in_reply_to = CharField(null=True)
    references = TextField(null=True)
    auto_submitted = CharField(default="auto-generated")
    entry = IntegerField(null=True, index=True)  # the log entry it answers, if any
    queued_at = UTCDateTimeField()
    state = CharField(default="queued", index=True)  # queued | sending | sent | failed | unknown
    attempts = IntegerField(default=0)
    next_attempt_at = UTCDateTimeField(null=True)
    last_error = TextField(null=True)
    sent_at = UTCDateTimeField(null=True)


class Checkpoint(BaseModel):
    """How far a mail source has been read (the IMAP poller's UIDVALIDITY and last UID)."""
    source = CharField(primary_key=True)     # e.g. "imap:bot@127.0.0.1:143/INBOX"
    uidvalidity = IntegerField(null=True)
    last_uid = IntegerField(default=0)
    updated_at = UTCDateTimeField(null=True)


class Publication(BaseModel):
    """The last time each Public Display was published, and what it said."""
    name = CharField(primary_key=True)       # the ministry ("Society")
    digest = CharField()
    at = UTCDateTimeField()
    message_id = CharField()


class Subscription(BaseModel):
    """A player's digest by mail: "digest daily", "digest weekly" (or off: no row)."""
    address = CharField(primary_key=True)
    period = CharField()                     # daily | weekly
    since = UTCDateTimeField()


class Approval(BaseModel):
    """An approved Public Display (Rule 4E50): values set as of an earlier entry.
    Kept with the log, so every replay applies it at the same point."""
    entry = IntegerField(primary_key=True)   # the entry whose action approved it
    anchor = IntegerField(index=True)        # the entry after which the values hold
    values = JSONField()
    why = TextField()


class Parked(BaseModel):
    """A log entry the engine failed on (an internal error, not a refusal), set
    aside so the game goes on. Kept with the log: a replay parks it again at
    the same point, and an operator's `retry` command applies it later."""
    entry = IntegerField(primary_key=True)   # the log entry (seq) that failed
    error = TextField()                      # the exception, for the operator
    first_failed_at = UTCDateTimeField()     # wall clock
    last_failed_at = UTCDateTimeField()
    attempts = IntegerField(default=1)
    state = CharField(default="parked", index=True)   # parked | applied
    retried_by = IntegerField(null=True)     # the retry command's entry that applied it


class Pinned(BaseModel):
    """The readings of a log entry's mail (issue 13), pinned when it was first
    read: canonical JSON (handlers/pinned.py) and the reader's version. Kept
    with the log, so a rebuild replays what was read then, not what today's
    reader would read; `bnomic reread` replaces them, on the record."""
    entry = IntegerField(primary_key=True)   # the log entry (seq) whose mail was read
    reader = IntegerField()                  # grammar.READER_VERSION then
    readings = TextField(null=True)          # canonical JSON list; NULL: over limits.read_steps


class ParsedMail(BaseModel):
    """A mail's parsed fields (issue 16, part H; mailer/parsed.py): what the
    engine reads of it that does not depend on the configuration, stored at
    its entry's first apply, so a replay never parses the raw mail again.
    Kept with the log; made from the raw mail alone (`rebuild --reparse`)."""
    entry = IntegerField(primary_key=True)   # the log entry (seq) whose mail it is
    version = IntegerField()                 # parsed.VERSION then: another version is parsed again
    fields = TextField()                     # JSON


class Snapshot(BaseModel):
    """The state as it stood right after one log entry (issue 16): derived, never
    the log's truth. A replay (`--as-of`, an approval's) may start from it
    instead of from nothing; `rebuild` throws every one away and takes them
    again. store/snapshots.py says what a row holds and when it is trusted."""
    seq = IntegerField(primary_key=True)     # the entry after which (its approvals included)
    at = UTCDateTimeField()                  # that entry's time (the game's now then)
    nweek = IntegerField()
    digest = TextField()                     # state_digest() then: what a rebuild gives there
    code = CharField()                       # bnomic's version and the reader's, that made it
    approvals = JSONField(default=list)      # the approvals (their entries) anchored up to seq
    ledger = JSONField(default=dict)         # event and outcome: the highest key then
    checksum = CharField()                   # sha256 of `tables`
    tables = BlobField()                     # zlib(JSON): every other state table's rows


class SnapshotPart(BaseModel):
    """Up to snapshots.CHUNK rows of one state table, as a snapshot (format 2) names
    them by their hash: a part unchanged from one snapshot to the next is stored
    once (schema 12). Derived, like Snapshot."""
    hash = CharField(primary_key=True)       # sha256 of the rows' JSON (before compression)
    blob = BlobField()                       # zlib(JSON): the rows


LOG_MODELS = [Setup, Entry, Message, Command, Outbox, Checkpoint, Publication, Subscription,
              Approval, Parked, Pinned, ParsedMail]


# ------------------------------------------------------------------ the state

class Game(StateModel):
    """The Clock (Rule 4E14) and the game's own sense of now (one row)."""
    id = IntegerField(primary_key=True, default=1)
    now = UTCDateTimeField()                 # game time: the state is as of this instant
    nweek = IntegerField()
    nday = IntegerField()
    clock_on = BooleanField()
    ndelay = IntegerField(default=0)
    nday_changes = IntegerField(default=0)   # every change of the nday ever: nday durations count these
    ndelay_changes = IntegerField(default=0) # likewise for ndelays (a reset to 0 is not a change)
    time_stopped = BooleanField(default=False)   # Rule 4E0: game time stops in an Emergency
    clock_first_on_at = UTCDateTimeField(null=True)  # Rule 4E49: when the Clock was first On this nweek
    threat_flag = CharField(default="Pink Ponies")       # Rule 4E40
    flag_changed_count = IntegerField(null=True)         # nday_changes when the MoM last changed it
    motnw = TextField(default="This space intentionally left blank")   # Rule 4E39
    motnw_changed_nweek = IntegerField(null=True)
    ballot_nweek = IntegerField(null=True)   # Rules 4E14, 4E15: the nweek whose Ballot was published
    peps_before = JSONField(null=True)       # Rule 4E0: the Players (ids) when there were last four or more


class Player(StateModel):
    """An Outsider who is or was a Player (Rule 4E4), with the attributes of 4E17, 4E28, 4E34;
    or the Legal Entity row of a Corporation (Rule 4E81: is_player False, and a
    Corporation row names it), so that whatever a Legal Entity holds (mackerel,
    Ministries, Socks, Contracts) refers to one table."""
    id = AutoField()
    name = CharField()
    name_key = CharField(unique=True)        # the name folded for matching (rulings: case-blind)
    is_player = BooleanField(default=True)
    is_beast = BooleanField(default=False)
    points = IntegerField(default=0)
    mackerel = IntegerField(default=0)
    active = BooleanField(default=False)
    vested = BooleanField(default=False)
    joined_nweek = IntegerField(null=True)
    left_nweek = IntegerField(null=True)
    last_action_nweek = IntegerField(null=True)
    last_voted_nweek = IntegerField(null=True)
    color_changed_count = IntegerField(null=True)   # Rule 4E69: game.nday_changes at the last change
    ordained = BooleanField(default=False)           # Rule 4E18
    unordained_until_nweek = IntegerField(null=True)  # 4E18: replaced for silence; no Ordained before it
    mental_state = CharField(default="Calm")         # Rule 4E0: Calm | Paranoid


class Address(StateModel):
    """A mail address a player posts from."""
    address = CharField(primary_key=True)    # lower case
    player = ForeignKeyField(Player, backref="addresses", on_delete="CASCADE")


class Event(StateModel):
    """One change to the gamestate, what caused it, and the rule it applied."""
    seq = AutoField()
    at = UTCDateTimeField()
    cause = CharField()                      # "mail", "command", "midnight", "deadline"
    entry = IntegerField(null=True, index=True)  # log seq of the mail or command, if any
    rule = CharField(null=True)              # "4E34"
    kind = CharField()                       # "mackerel", "clock", "join"...
    summary = TextField()
    data = JSONField(default=dict)


class Outcome(StateModel):
    """What one action in a mail or command came to: done, or refused and why."""
    id = AutoField()
    entry = IntegerField(index=True)
    position = IntegerField()
    action = CharField(null=True)            # None: looked like an action, not understood
    text = TextField()
    accepted = BooleanField()
    reason = TextField(default="")
    rule = CharField(null=True)


class Deadline(StateModel):
    """Something the rules will do later, due at an instant or at a point of game time."""
    id = AutoField()
    due_at = UTCDateTimeField(null=True, index=True)   # absolute: rdays, Jiffies, UTC
    counter = CharField(null=True)           # "nday" | "ndelay": due when that counter reaches count
    count = IntegerField(null=True)
    nweek = IntegerField(null=True)          # due at the end (or start) of this nday of this nweek
    nday = IntegerField(null=True)
    edge = CharField(default="end")          # for nweek/nday: "end" or "start" of that nday
    action = CharField()                     # a name registered with handlers.registry.deadline
    args = JSONField(default=dict)
    rule = CharField(null=True)
    state = CharField(default="pending", index=True)   # pending | fired | cancelled
    created_at = UTCDateTimeField()


class Intent(StateModel):
    """An announced intention to act without objection or with support (Rules 4E21, 4E22)."""
    id = AutoField()
    author = ForeignKeyField(Player, backref="intents", on_delete="CASCADE")
    text = TextField()                       # the action as announced
    action = CharField()                     # the registered action it names
    args = JSONField(default=dict)
    objections = IntegerField(null=True)     # "without N objections": N
    supporters = IntegerField(null=True)     # "with N supporters": N
    announced_at = UTCDateTimeField()
    announced_count = IntegerField()         # game.nday_changes when announced (the nday D)
    opens_at = UTCDateTimeField(null=True)   # a rule's own waiting time, as an instant
    opened_count = IntegerField(null=True)   # game.nday_changes when that waiting time ended
    message_id = CharField(null=True, index=True)   # the announcing mail (replies name it)
    entry = IntegerField(null=True)
    state = CharField(default="open", index=True)   # open | performed | withdrawn


class Stance(StateModel):
    """A player's objection or support to an intent; only the latest counts."""
    id = AutoField()
    intent = ForeignKeyField(Intent, backref="stances", on_delete="CASCADE")
    player = ForeignKeyField(Player, on_delete="CASCADE")
    stance = CharField()                     # "object" | "support" | "none"
    at = UTCDateTimeField()
    count = IntegerField()                   # game.nday_changes at that moment


class Ministry(StateModel):
    """A Ministry (Rule 4E45): at most one holder, and a Reward (4E48)."""
    name = CharField(primary_key=True)       # "Change"
    holder = ForeignKeyField(Player, null=True, backref="ministries", on_delete="SET NULL")
    reward = IntegerField()
    held_since = UTCDateTimeField(null=True)
    kept_duties = JSONField(default=list)    # duties the minister took back from bnomic (4E45)
    display_digest = CharField(null=True)    # the display's data when its minister last had it right


class Usurpation(StateModel):
    """Rule 4E48: a Usurp, settled 2 rdays after it was made."""
    id = AutoField()
    ministry = ForeignKeyField(Ministry, on_delete="CASCADE")
    usurper = ForeignKeyField(Player, on_delete="CASCADE")
    proposed = IntegerField()
    at = UTCDateTimeField()
    state = CharField(default="pending")     # pending | settled | lapsed


class Obligation(StateModel):
    """A duty a rule puts on a Ministry, to be done within a Jiffy (Rule 4E53)."""
    id = AutoField()
    ministry = ForeignKeyField(Ministry, on_delete="CASCADE")
    kind = CharField()                       # "answer_challenge", "clock_on"...
    text = TextField()                       # what must be done, for people
    rule = CharField()
    arose_at = UTCDateTimeField()
    deadline = IntegerField(null=True)       # the Deadline row that checks it
    state = CharField(default="open", index=True)   # open | fulfilled | lapsed
    lapsed_holder = ForeignKeyField(Player, null=True, on_delete="SET NULL")
    data = JSONField(default=dict)


class Rule(StateModel):
    """A Rule (4E36) with its Power (4E75) and its history."""
    number = IntegerField(primary_key=True)  # 14 for Rule 4E14
    title = TextField(default="")
    text = TextField(default="")
    section = TextField(default="")
    power_num = IntegerField(default=1)      # Power: a rational number from 0 to 1
    power_den = IntegerField(default=2)
    repealed = BooleanField(default=False)
    history = JSONField(default=list)        # [{"at", "what"}]


class Setting(StateModel):
    """A key of the game configuration changed during play (by an operator's
    logged command, or later by a passed proposal): it overrides setup.config."""
    key = CharField(primary_key=True)        # dotted: "addresses.public_fora"
    value = JSONField()


class Proposal(StateModel):
    """A Proposal (Rule 4E15), a Game Document, with its Proposal Color (4E69).
    `id` is the document's identity; its Proposal Number may be null until assigned."""
    id = AutoField()
    number = IntegerField(null=True, unique=True)
    title = TextField(default="")
    body = TextField(default="")
    author = ForeignKeyField(Player, on_delete="CASCADE")
    status = CharField(default="Pending", index=True)    # Pending | Open | Historical
    success = CharField(default="Undecided")             # Won | Discarded | Lost | Undecided
    conflicts = JSONField(default=list)                  # Proposal Numbers
    dependencies = JSONField(default=list)
    color = CharField(default="Blank")
    submitted_at = UTCDateTimeField()
    entry = IntegerField(null=True)
    revisions = IntegerField(default=0)
    voting_nweek = IntegerField(null=True)   # the nweek whose Voting Period it is (was) Open in
    shelved_nweek = IntegerField(null=True)  # the last nweek it was Shelved in
    was_won = BooleanField(default=False)    # Rule 4E19: "never Won"
    passed = BooleanField(default=False)
    failed = BooleanField(default=False)
    stamina = IntegerField(null=True)
    strength = IntegerField(null=True)
    decided_by = TextField(default="")       # the step of the tally that decided it


class Vote(StateModel):
    """A Vote on an Open proposal (Rule 4E15); the latest in its Voting Period is the Final Vote."""
    id = AutoField()
    proposal = ForeignKeyField(Proposal, backref="votes", on_delete="CASCADE")
    voter = ForeignKeyField(Player, on_delete="CASCADE")
    vote = CharField()                       # FOR | AGAINST | ABSTAIN | SHELVE
    nweek = IntegerField()
    at = UTCDateTimeField()
    entry = IntegerField(null=True)


class Tweak(StateModel):
    """A Tweak (Rule 4E77): one per player per nweek, never revised, activated once."""
    id = AutoField()
    author = ForeignKeyField(Player, on_delete="CASCADE")
    body = TextField()
    nweek = IntegerField()
    at = UTCDateTimeField()
    state = CharField(default="submitted")   # submitted | attempted | activated


class Consultation(StateModel):
    """A Consultation (Rule 4E18): a yes/no Question for a Priest to Answer."""
    id = AutoField()                         # the document's identity; `number` is the Oracle's
    number = IntegerField(null=True, unique=True)
    question = TextField()
    reasoning = TextField(default="")
    supplicant = CharField()                 # the External Force who submitted it (name or address)
    supplicant_player = ForeignKeyField(Player, null=True, on_delete="SET NULL")
    unbeliever = ForeignKeyField(Player, null=True, on_delete="SET NULL")
    priest = ForeignKeyField(Player, null=True, on_delete="SET NULL")
    former_priests = JSONField(default=list)  # player ids already selected as its Priest
    state = CharField(default="Waiting", index=True)   # Waiting | Answered | Pondered | ZOTTED
    answer = CharField(null=True)            # YES | NO | PARADOX
    answer_reasoning = TextField(default="")
    oracularity = TextField(null=True)
    answered_at = UTCDateTimeField(null=True)
    answer_round = IntegerField(default=0)   # which Answer the Claims are about
    zot_requested = BooleanField(default=False)
    submitted_at = UTCDateTimeField()
    entry = IntegerField(null=True)
    draws = JSONField(default=list)          # every Priest draw, shown: [{"candidates", "chosen", ...}]


class Claim(StateModel):
    """A Claim of Consistency or Inconsistency about an Answer (Rule 4E18)."""
    id = AutoField()
    consultation = ForeignKeyField(Consultation, backref="claims", on_delete="CASCADE")
    player = ForeignKeyField(Player, on_delete="CASCADE")
    claim = CharField()                      # Consistent | Inconsistent
    answer_round = IntegerField()
    at = UTCDateTimeField()


class Indictment(StateModel):
    """An Indictment (Rule 4E72) and its Jury's verdict (4E73)."""
    id = AutoField()
    author = ForeignKeyField(Player, on_delete="CASCADE")
    offender = ForeignKeyField(Player, on_delete="CASCADE")
    accusation = TextField()                 # the Crime
    example = TextField()                    # the Offense
    tidbit = CharField()
    reasoning = TextField(default="")
    submitted_at = UTCDateTimeField()
    entry = IntegerField(null=True)
    jury = JSONField(default=list)           # player ids
    draw = JSONField(default=dict)           # the Jury draw, shown
    state = CharField(default="open", index=True)   # open | guilty | not guilty
    punishment = TextField(null=True)


class Verdict(StateModel):
    """A juror's answer, GUILTY or NOT GUILTY (Rule 4E73); the latest counts."""
    id = AutoField()
    indictment = ForeignKeyField(Indictment, backref="verdicts", on_delete="CASCADE")
    juror = ForeignKeyField(Player, on_delete="CASCADE")
    answer = CharField()
    at = UTCDateTimeField()


class Fine(StateModel):
    """A fine in macks (Rules 4E73, 4E60): the Player must destroy them, and is
    no Registered Voter until done."""
    id = AutoField()
    player = ForeignKeyField(Player, on_delete="CASCADE")
    amount = IntegerField()
    reason = TextField()
    indictment = ForeignKeyField(Indictment, null=True, on_delete="SET NULL")
    at = UTCDateTimeField()
    paid = BooleanField(default=False)
    proposal_limit_nweek = IntegerField(null=True)   # Rule 4E60: at most one proposal in this nweek
    limited_proposals = IntegerField(default=0)      # the proposals submitted in it


class Emergency(StateModel):
    """An Emergency Procedure (Rule 4E0)."""
    id = AutoField()
    started_at = UTCDateTimeField()
    first_step = IntegerField(default=1)     # a parallel Procedure starts at step 3
    coordinator = ForeignKeyField(Player, null=True, on_delete="SET NULL")
    forum = TextField(null=True)
    forum_by = CharField(null=True)
    pause = IntegerField(null=True)          # null until initialised
    pause_changed_at = UTCDateTimeField(null=True)
    increment_asked_at = UTCDateTimeField(null=True)   # the Coordinator's intent to increment
    increment_objected = BooleanField(default=False)
    ballot_published = BooleanField(default=False)
    state = CharField(default="running", index=True)   # running | completed | stopped
    count = JSONField(default=list)          # the instant-runoff rounds, shown
    winner = IntegerField(null=True)         # the selected RefreshProposal id


class RefreshProposal(StateModel):
    """A Refresh Proposal (Rule 4E0, step 5): one per PEP per Procedure."""
    id = AutoField()
    emergency = ForeignKeyField(Emergency, backref="refresh_proposals", on_delete="CASCADE")
    author = ForeignKeyField(Player, on_delete="CASCADE")
    body = TextField()
    state = CharField(default="submitted")   # submitted | withdrawn
    revisions = IntegerField(default=0)
    at = UTCDateTimeField()


class RankedBallot(StateModel):
    """A PEP's ranked Ballot of Refresh Proposals (Rule 4E0, step 7)."""
    id = AutoField()
    emergency = ForeignKeyField(Emergency, backref="ballots", on_delete="CASCADE")
    voter = ForeignKeyField(Player, on_delete="CASCADE")
    ranking = JSONField()                    # RefreshProposal ids, most preferred first
    at = UTCDateTimeField()


# ------------------------------------------------- Legal Entities (issue 15)

class Corporation(StateModel):
    """A Corporation (Rule 4E79), a Legal Entity (4E81). Its currency and
    whatever it holds are on its `entity` row of the Player table (is_player
    False). A Laundry Corporation (4E68) has a `color` and no Articles; its row
    is made the first time it is needed (it exists from the start either way)."""
    id = AutoField()
    name = CharField()                       # "Burnt Sienna Corporation"
    name_key = CharField(unique=True)        # folded, without a leading "the"
    entity = ForeignKeyField(Player, unique=True, backref="corporation", on_delete="CASCADE")
    color = CharField(null=True)             # Rule 4E68: a Laundry Corporation's Sock Color
    contract = IntegerField(null=True)       # the Contract that is its Articles of Incorporation
    officers = JSONField(default=list)       # Player ids of its Officers (4E79)
    created_at = UTCDateTimeField()
    entry = IntegerField(null=True)


class Contract(StateModel):
    """A Contract (Rule 4E70), a Game Document: its current text (every version
    is a ContractVersion), whether it declares itself Articles of Incorporation
    (4E79), and whether it is still a Game Document."""
    id = AutoField()                         # "Contract 3"
    title = TextField(default="")
    text = TextField()
    version = IntegerField(default=1)
    author = ForeignKeyField(Player, on_delete="CASCADE")       # the Legal Entity that created it
    articles = BooleanField(default=False)   # Rule 4E79
    state = CharField(default="in force", index=True)   # in force | ceased (no party left)
    created_at = UTCDateTimeField()
    entry = IntegerField(null=True)


class ContractParty(StateModel):
    """A Legal Entity bound by a Contract (Rule 4E70), from when, until when."""
    id = AutoField()
    contract = ForeignKeyField(Contract, backref="parties", on_delete="CASCADE")
    party = ForeignKeyField(Player, on_delete="CASCADE")
    joined_at = UTCDateTimeField()
    left_at = UTCDateTimeField(null=True)
    state = CharField(default="bound", index=True)      # bound | left


class ContractVersion(StateModel):
    """One version of a Contract's text and who made it (Rule 4E70: changed only
    as its text allows; every version is kept)."""
    id = AutoField()
    contract = ForeignKeyField(Contract, backref="versions", on_delete="CASCADE")
    version = IntegerField()
    text = TextField()
    author = ForeignKeyField(Player, on_delete="CASCADE")
    at = UTCDateTimeField()
    entry = IntegerField(null=True)


class Delegation(StateModel):
    """Rule 4E45: a Minister delegates its Ministry's powers to a Legal Entity,
    as a Contract to which both are parties specifies."""
    id = AutoField()
    contract = ForeignKeyField(Contract, on_delete="CASCADE")
    ministry = ForeignKeyField(Ministry, on_delete="CASCADE")
    minister = ForeignKeyField(Player, on_delete="CASCADE")
    delegate = ForeignKeyField(Player, on_delete="CASCADE")
    at = UTCDateTimeField()
    state = CharField(default="in force", index=True)   # in force | ended


class Breach(StateModel):
    """Rule 4E70: a Consultation alleging that a party failed a Contract."""
    consultation = ForeignKeyField(Consultation, primary_key=True, on_delete="CASCADE")
    contract = ForeignKeyField(Contract, on_delete="CASCADE")
    party = ForeignKeyField(Player, on_delete="CASCADE")

class Trick(StateModel):
    """A Trick the Beast was taught (Rule 4E71): the changes its performance
    enacts (in the change language), its Response and Timing. `id` is its number."""
    id = AutoField()
    changes = TextField()
    timing = CharField(default="Anytime")        # Anytime | Voting
    response = IntegerField()
    taught_by = CharField(default="")            # the Player who Taught it
    taught_at = UTCDateTimeField()
    entry = IntegerField(null=True)
    ceased = BooleanField(default=False)         # its Response would have become 0
    performed = IntegerField(default=0)          # how many times the Beast performed it


class TrickDraw(StateModel):
    """One time the Beast is to perform a Trick (Rule 4E71, at the start of nday
    1, 5 and 9), and how the Trick was selected: the Tricks that could be, each
    with its Response, the number drawn and the Trick it selected."""
    id = AutoField()
    nweek = IntegerField()
    nday = IntegerField()
    voting = BooleanField()                      # a Voting Period was in progress when it fell due
    due_at = UTCDateTimeField()
    state = CharField(default="due", index=True)  # due | performed | nothing (no Trick could be)
    by = TextField(default="")                   # who selected it
    candidates = JSONField(default=list)         # [{"trick": 1, "response": 10}, ...] by number
    roll = IntegerField(null=True)               # the number drawn, from 1 to the sum of Responses
    trick = IntegerField(null=True)              # the Trick performed
    event = IntegerField(null=True)              # the event that published the draw
    performed_at = UTCDateTimeField(null=True)
    responders = JSONField(default=list)         # Players who Reinforced or Punished it since


class Sock(StateModel):
    """A Sock (Rule 4E68), a Game Object: its Sock Color and its Sockholder, a
    Potential Sockholder (any Legal Entity, 4E81: a Player's or a Corporation's
    row). A destroyed Sock keeps its row, so its number is never used again."""
    id = AutoField()
    color = CharField()
    holder = ForeignKeyField(Player, on_delete="CASCADE")
    created_at = UTCDateTimeField()
    entry = IntegerField(null=True)
    destroyed_at = UTCDateTimeField(null=True)


class Subgame(StateModel):
    """A Subgame (Rule 4E82), a Game Document: its text, the parts the rule asks
    for as found in it, its Status, and, once won, its winners and Trophy."""
    id = AutoField()                         # the Subgame's number
    name = TextField()
    text = TextField()                       # the document, verbatim
    parts = JSONField(default=dict)          # part -> what the document says of it
    author = ForeignKeyField(Player, on_delete="CASCADE")
    status = CharField(default="Pending", index=True)    # Pending | Open | Historical
    created_at = UTCDateTimeField()
    opened_at = UTCDateTimeField(null=True)
    won_at = UTCDateTimeField(null=True)
    winners = JSONField(default=list)        # the winners' names
    trophy = TextField(default="")           # what the Trophy was: awarded, or owed by the GM


class VictoryCondition(StateModel):
    """A Victory Condition (Rule 4E36: the Rulekeeper displays them; 4E75: its
    changes come first), created by a change in the change language."""
    id = AutoField()
    title = TextField(default="")
    text = TextField()
    source = TextField()                     # what created it ("Proposal 12")
    created_at = UTCDateTimeField()
    repealed = BooleanField(default=False)
    history = JSONField(default=list)


class Bounce(BaseModel):
    """An address bnomic's mail to which bounced (a delivery report to the
    processor named it): not mailed until mail from it is read again. State:
    a replay of the log marks it again."""
    address = CharField(primary_key=True)    # lower case
    since = UTCDateTimeField()               # game time of the report
    entry = IntegerField()                   # the log entry of the report
    reason = TextField(default="")           # the report's Status and Diagnostic-Code


STATE_MODELS = [Game, Player, Address, Event, Outcome, Deadline, Setting, Intent, Stance,
                Ministry, Usurpation, Obligation, Rule, Proposal, Vote, Tweak, Consultation, Claim,
                Indictment, Verdict, Fine, Emergency, RefreshProposal, RankedBallot, Bounce,
                Corporation, Contract, ContractParty, ContractVersion, Delegation, Breach,
                Trick, TrickDraw, Sock,
                Subgame, VictoryCondition]


class SchemaVersion(BaseModel):
    version = IntegerField()


ALL_MODELS = LOG_MODELS + STATE_MODELS + [Snapshot, SnapshotPart, SchemaVersion]


def _referrers() -> dict[str, set[str]]:
    """table -> every table a DELETE or UPDATE of it may change by its foreign keys
    (store/versions.py), followed through cascades."""
    direct: dict[str, set[str]] = {}
    for model in ALL_MODELS:
        for fk in model._meta.refs:
            direct.setdefault(fk.rel_model._meta.table_name, set()).add(model._meta.table_name)
    closed = {}
    for table in direct:
        seen, todo = set(), [table]
        while todo:
            for other in direct.get(todo.pop(), ()):
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        closed[table] = seen
    return closed


versions.REFERRERS.update(_referrers())
