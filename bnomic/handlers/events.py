"""What happens in one rule area that others react to (handlers/registry.py: `@on`).

Each kind of event is a small frozen dataclass with its fields declared; an
area emits one (`registry.emit(ctx, event)`) and every reaction declared for its
kind runs, in Rule 4E75's order. The fields are the store's rows as they stand.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..store import Ministry, Player


@dataclass(frozen=True)
class PlayerInactive:
    """Rule 4E28: a Player lost the Active property, by the rules (another Player
    removed it) or by the operator (`bnomic admin set X active false`)."""
    player: Player
    by: Literal["rules", "operator"]


@dataclass(frozen=True)
class PlayerLeft:
    """Rule 4E4: an Outsider stopped being a Player (and so lost Active): it
    Forfeited, or the operator removed it (`bnomic admin remove-player`)."""
    player: Player
    by: Literal["forfeit", "operator"]


@dataclass(frozen=True)
class MinistryHolderChanged:
    """Rules 4E46-4E48, 4E53: a Ministry has a new holder, or became Vacant (holder None)."""
    ministry: Ministry
    holder: Player | None           # None: the Ministry became Vacant


@dataclass(frozen=True)
class ClockTurnedOn:
    """Rule 4E14: the Clock was turned On ("the current ndelay immediately ends")."""


Event = PlayerInactive | PlayerLeft | MinistryHolderChanged | ClockTurnedOn
