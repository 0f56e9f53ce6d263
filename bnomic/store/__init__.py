"""The store: peewee models, the connection, migrations, the log, the intake spool and the digest."""
from . import intake
from .db import (
    StoreError, close_database, database, durable_transaction, open_database, snapshot, write_transaction,
)
from .digest import state_digest
from . import hot, versions
from . import migrations
from .migrations import upgrade
from .models import (
    Approval, Bounce, ALL_MODELS, LOG_MODELS, STATE_MODELS, Address, Checkpoint, Command, Deadline,
    Entry, Event, Game, Intent, Message, Ministry, Obligation, Outbox, Outcome, Parked, ParsedMail, Pinned, Player,
    Proposal, Publication, Rule, Setting, Setup, Snapshot, SnapshotPart, Stance, Subscription, Tweak, Usurpation, Vote,
    Claim, Consultation, Emergency, Fine, Indictment, RankedBallot, RefreshProposal, Verdict,
    Breach, Contract, ContractParty, ContractVersion, Corporation, Delegation,
    Trick, TrickDraw, Sock,
    Subgame, VictoryCondition,
)

__all__ = [
    "StoreError", "close_database", "database", "open_database", "state_digest", "write_transaction", "durable_transaction",
    "snapshot", "migrations", "upgrade", "ALL_MODELS", "LOG_MODELS", "STATE_MODELS", "Address", "Command",
    "Deadline", "Entry", "Event", "Game", "Message", "Outcome", "Player", "Setup",
    "Outbox", "Parked", "ParsedMail", "Pinned", "Checkpoint", "Setting", "Intent", "Stance", "Ministry", "Usurpation", "Obligation", "Publication", "Subscription", "Approval", "Rule",
    "Proposal", "Snapshot", "SnapshotPart", "Vote", "Tweak", "Claim", "Consultation", "Emergency", "Fine", "Indictment",
    "RankedBallot", "RefreshProposal", "Verdict", "Bounce", "versions", "hot",
    "Breach", "Contract", "ContractParty", "ContractVersion", "Corporation", "Delegation",
    "Trick", "TrickDraw", "Sock", "Subgame", "VictoryCondition",
]
