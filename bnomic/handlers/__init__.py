"""The game: the action grammar and one module per rule area.

Importing this package registers every area's actions, hooks, deadlines and
operator commands in handlers.registry. Nothing here opens a socket or reads
the wall clock: time is passed in (invariant 3).
"""
from . import (  # noqa: F401  (they register themselves)
    admin, beast, clock, consultations, contracts, displays, economy, emergency, flags, intents, justice, ministers, ministries,
    obligations, players,
    proposals, scheduling, socks, subgames, tweaks, voting,
)
from .context import Context, Rejected
from .post import Post

__all__ = ["Context", "Rejected", "Post"]
