"""From raw mail to a Post, with mail-parser.

Only what the sender wrote is read for actions: quoted lines, the signature and
Comment Text (Rule 4E5) are dropped here.
"""
from __future__ import annotations

import hashlib
import re
from datetime import datetime
from html.parser import HTMLParser

import mailparser

from ..handlers.post import Post


def parse(raw: bytes):
    return mailparser.parse_from_bytes(raw)


def message_id(raw: bytes, mail=None) -> str:
    """The mail's Message-ID, or a stable one derived from its bytes."""
    mail = mail or parse(raw)
    mid = (mail.message_id or "").strip()
    if mid:
        return mid
    return f"<{hashlib.sha256(raw).hexdigest()[:32]}@bnomic.invalid>"


def sender(mail) -> tuple[str, str]:
    """(display name, address) of the From line; ('', '') when there is none."""
    found = mail.from_ or []
    if not found:
        return "", ""
    name, address = found[0]
    return name or "", (address or "").strip().lower()


def arrival_time(mail) -> datetime | None:
    """The newest Received header's time, else the Date header's, else None."""
    times = []
    for hop in mail.received or []:
        stamp = hop.get("date_utc")
        if stamp:
            try:
                times.append(datetime.fromisoformat(stamp))
            except ValueError:
                pass
    if times:
        return max(times)
    return mail.date if isinstance(mail.date, datetime) and mail.date.tzinfo else None


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data):
        self.parts.append(data)

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "p", "div", "li", "tr", "blockquote"):
            self.parts.append("\n")


def html_to_text(html: str) -> str:
    p = _Text()
    p.feed(html)
    return "".join(p.parts)


_COMMENT = re.compile(r"/\*.*?\*/|\[\[.*?\]\]", re.S)


def own_words(text: str) -> str:
    """The text without quoted lines, the signature, or Comment Text (Rule 4E5)."""
    text = _COMMENT.sub(" ", text)
    kept = []
    for line in text.splitlines():
        if line.rstrip() == "--":          # "-- " starts the signature
            break
        if line.lstrip().startswith(">"):
            continue
        kept.append(line)
    return "\n".join(kept)


def body_text(mail) -> str:
    if mail.text_plain:
        return "\n".join(mail.text_plain)
    if mail.text_html:
        return html_to_text("\n".join(mail.text_html))
    return ""


def to_post(raw: bytes, at: datetime, public: bool = True) -> Post:
    mail = parse(raw)
    name, address = sender(mail)
    return Post(sender=address, subject=mail.subject or "", text=own_words(body_text(mail)),
                at=at, message_id=message_id(raw, mail), display_name=name, public=public)
