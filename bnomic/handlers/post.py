"""A Post: the game's view of one mail (Rule 4E7: a message to a Forum)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class Post:
    sender: str                 # the address it came from, lower case
    subject: str
    text: str                   # what the sender wrote: no quotes, no signature
    at: datetime                # arrival time (UTC): when its actions happen
    message_id: str
    display_name: str = ""      # the From header's name, if any
    forum: str = "public"       # Rule 4E6: "public", "discussion" or "private"
    verified: bool = True       # the From line is trusted (auth policy)
    unverified_why: str = ""    # when it is not: why (mailer/parse.vouch)
    recipients: tuple[str, ...] = field(default=())
    in_reply_to: str = ""       # the Message-ID this answers, if any
    references: tuple[str, ...] = field(default=())
    quoted: str = ""            # the lines it quotes, unquoted: what a reply answers (never acted on)

    @property
    def public(self) -> bool:
        return self.forum == "public"
