"""From raw mail to a Post, with mail-parser for the headers and the stdlib's
message tree for the body.

Only what the sender wrote is read for actions: quoted lines, attributions,
signatures, forwarded or "Original Message" blocks and Comment Text (Rule 4E5)
are dropped here. Which forum the mail reached (Rule 4E6) and whether its From
line is vouched for are decided here too, from the configuration in force.
"""
from __future__ import annotations

import email
import email.header
import email.policy
import email.utils
import hashlib
import re
from datetime import datetime, timezone
from email.message import Message
from html.parser import HTMLParser

import mailparser

from ..config import Config
from ..handlers.post import Post


def parse(raw: bytes):
    """mail-parser's view of the mail; when mail-parser itself fails on malformed
    MIME, the stdlib's, with the same attributes, so the mail is still read."""
    try:
        return mailparser.parse_from_bytes(raw)
    except Exception:
        return _StdlibMail(raw)


class _StdlibMail:
    """The few attributes of mail-parser's MailParser that bnomic uses, from the stdlib."""

    def __init__(self, raw: bytes):
        self.message = email.message_from_bytes(raw, policy=email.policy.compat32)
        self.subject = self._header("Subject")
        self.message_id = self._header("Message-ID").strip()
        self.from_, self.to, self.cc = (self._addresses(h) for h in ("From", "To", "Cc"))
        self.received = []
        try:
            self.date = email.utils.parsedate_to_datetime(self._header("Date"))
        except (TypeError, ValueError, IndexError):
            self.date = None

    def _header(self, name: str) -> str:
        value = self.message.get(name)
        if value is None:
            return ""
        try:
            return str(email.header.make_header(email.header.decode_header(str(value))))
        except Exception:
            return str(value)

    def _addresses(self, name: str) -> list[tuple[str, str]]:
        return email.utils.getaddresses([str(v) for v in self.message.get_all(name) or []])


# ------------------------------------------------------------------ headers

def message_id(raw: bytes, mail=None) -> str:
    """The mail's Message-ID, or a stable one derived from its bytes."""
    mail = mail or parse(raw)
    mid = (mail.message_id or "").strip()
    return mid or derived_message_id(raw)


def derived_message_id(raw: bytes) -> str:
    """Stable for the same mail however it came: its From, To, Date, Subject and
    body, not the Received or Return-Path lines a delivery adds."""
    head, _, body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
    kept = [line for line in head.split(b"\n")
            if line.split(b":", 1)[0].strip().lower() in (b"from", b"to", b"date", b"subject")]
    digest = hashlib.sha256(b"\n".join(sorted(kept)) + b"\n\n" + body).hexdigest()[:32]
    return f"<{digest}@bnomic.invalid>"


def sender(mail) -> tuple[str, str]:
    """(display name, address) of the From line; ('', '') when there is none."""
    found = mail.from_ or []
    if not found:
        return "", ""
    name, address = found[0]
    return name or "", (address or "").strip().lower()


def header(mail, name: str) -> str:
    value = mail.message.get(name)
    return str(value) if value is not None else ""


def header_all(mail, name: str) -> list[str]:
    return [str(v) for v in (mail.message.get_all(name) or [])]


def received_time(mail) -> datetime | None:
    """When our own mail server received the mail: the topmost Received
    header's time, or None. Only the topmost was written by our server; the
    ones below it came with the mail and may say anything."""
    hops = mail.received or []
    if not hops:
        return None
    top = max(hops, key=lambda h: h.get("hop", 0))
    try:
        t = datetime.fromisoformat(top["date_utc"]) if top.get("date_utc") else None
    except (TypeError, ValueError):
        return None
    return t.replace(tzinfo=timezone.utc) if t is not None and t.tzinfo is None else t


def arrival_time(mail) -> datetime | None:
    """The topmost Received header's time, else the Date header's, else None."""
    return received_time(mail) or (
        mail.date if isinstance(mail.date, datetime) and mail.date.tzinfo else None)


# --------------------------------------------------------------------- body

class _Text(HTMLParser):
    BREAKS = {"br", "p", "div", "li", "tr", "blockquote", "h1", "h2", "h3", "pre"}

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.quote_depth = 0
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script", "head"):
            self.skip += 1
        if tag == "blockquote":
            self.quote_depth += 1
        if tag in self.BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("style", "script", "head"):
            self.skip = max(0, self.skip - 1)
        if tag == "blockquote":
            self.quote_depth = max(0, self.quote_depth - 1)
        if tag in self.BREAKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if self.skip:
            return
        if self.quote_depth:        # quoted in HTML: mark it as quoted text
            data = "\n".join("> " + line for line in data.split("\n"))
        self.parts.append(data)


def html_to_text(html: str) -> str:
    p = _Text()
    p.feed(html)
    p.close()
    return re.sub(r"[ \t]+", " ", "".join(p.parts))


def decode_part(part: Message) -> str:
    payload = part.get_payload(decode=True) or b""
    charset = part.get_content_charset() or "us-ascii"
    try:
        text = payload.decode(charset)
    except LookupError:                 # a charset Python does not know: guess
        try:
            text = payload.decode("utf-8")
        except UnicodeDecodeError:
            text = payload.decode("latin-1")
    except UnicodeDecodeError:          # the declared charset, with the damage marked
        text = payload.decode(charset, errors="replace")
    if part.get_param("format", "").lower() == "flowed":
        text = unflow(text, delsp=part.get_param("delsp", "").lower() == "yes")
    return text


def unflow(text: str, delsp: bool = False) -> str:
    """RFC 3676 format=flowed: join soft line breaks (a line ending in a space),
    only between lines of the same quote depth (section 4.5)."""
    out: list[str] = []
    current: str | None = None
    depth_open = 0
    for raw in text.replace("\r\n", "\n").split("\n"):
        depth = len(raw) - len(raw.lstrip(">"))
        line = raw[depth:]
        if line.startswith(" "):            # space-stuffing, after the quote marks
            line = line[1:]
        if current is not None and depth != depth_open:
            out.append(current)             # a paragraph never flows into another depth
            current = None
        flowed = line.endswith(" ") and line != "-- "
        piece = line[:-1] if flowed and delsp else line
        if current is None:
            current, depth_open = (">" * depth + " " if depth else "") + piece, depth
        else:
            current += piece
        if not flowed:
            out.append(current)
            current = None
    if current is not None:
        out.append(current)
    return "\n".join(out)


def _leaf_parts(msg: Message):
    """The parts the sender wrote, in order: not inside an attached message."""
    if msg.is_multipart():
        for sub in msg.get_payload():
            if sub.get_content_maintype() == "message":
                continue
            yield from _leaf_parts(sub)
    elif msg.get_content_disposition() != "attachment":
        yield msg


def body_text(mail) -> str:
    """The text/plain part; else the text/html part as text; else ''."""
    parts = list(_leaf_parts(mail.message))
    for kind in ("text/plain", "text/html"):
        for part in parts:
            if part.get_content_type() == kind:
                text = decode_part(part)
                text = html_to_text(text) if kind == "text/html" else text
                if text.strip():            # a blank text/plain beside real HTML
                    return text
    return ""


_COMMENT = re.compile(r"/\*.*?\*/|\[\[.*?\]\]", re.S)
_ATTRIBUTION = re.compile(r"^.*\bwrote\s*:\s*$|^\s*le\b.*\ba écrit\s*:\s*$", re.I)
_CUT = re.compile(
    r"^\s*(?:-{2,}\s*(?:original message|forwarded message)\s*-{2,}"
    r"|begin forwarded message:|_{8,}\s*$|-{5,}\s*$)", re.I)
_OUTLOOK_FROM = re.compile(r"^\s*\*?from:\*?\s", re.I)
_OUTLOOK_NEXT = re.compile(r"^\s*\*?(?:sent|date|to|subject):\*?\s", re.I)


def own_words(text: str) -> str:
    """What the sender wrote: no quoted lines, attributions, signature,
    forwarded or Original Message blocks, or Comment Text (Rule 4E5)."""
    lines = text.replace("\r\n", "\n").split("\n")
    kept: list[str] = []
    for i, line in enumerate(lines):
        if line.rstrip() == "--":           # "-- " starts the signature
            break
        if _CUT.match(line):
            break
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if _OUTLOOK_FROM.match(line) and _OUTLOOK_NEXT.match(nxt):
            break                           # an Outlook header block: the rest is quoted
        if line.lstrip().startswith(">"):
            continue
        if _ATTRIBUTION.match(line):
            if kept and kept[-1].strip().lower().startswith("on "):
                kept.pop()                  # "On Mon, 1 Sep 2008, Wooble" / "<w@x> wrote:"
            continue
        kept.append(line)
    # Comment Text last: a "/*" in the sender's words is not closed by a quoted "*/"
    return _COMMENT.sub(" ", "\n".join(kept))


# ----------------------------------------------------------- fora and trust

def _addresses(mail, field: str) -> list[str]:
    return [(a or "").strip().lower() for _, a in (getattr(mail, field, None) or [])]


def _list_id(mail) -> str:
    value = header(mail, "List-Id")
    m = re.search(r"<([^>]+)>", value)
    return (m.group(1) if m else value).strip().lower()


def _matches(forum: str, addresses: list[str], list_id: str) -> bool:
    forum = forum.strip().lower()
    return forum in addresses or (bool(list_id) and list_id in (forum, forum.replace("@", ".")))


def envelope_recipients(mail, rcpt_tos: list[str] | None = None) -> list[str]:
    """Where the mail reached bnomic, by the envelope: the LMTP/SMTP RCPT TO
    addresses; else (IMAP, archives) the topmost X-Original-To (the address as
    given to our mail server, before aliases), else the topmost Delivered-To,
    which our own mail server wrote; else [] (nothing known)."""
    if rcpt_tos:
        return [a.strip().strip("<>").lower() for a in rcpt_tos if a and a.strip()]
    for name in ("X-Original-To", "Delivered-To"):
        values = header_all(mail, name)
        if values:
            address = email.utils.parseaddr(values[0])[1].strip().lower()
            return [address] if address else []
    return []


def forum_of(mail, config: Config, rcpt_tos: list[str] | None = None) -> str:
    """Rule 4E6: 'public', 'discussion' or 'private', by To/Cc/List-Id. With no
    Public Fora configured, every mail is public but one that reached only a
    Discussion Forum.

    The headers are the sender's to write, so the envelope goes first
    (`addresses.forum_by_envelope`): a mail that reached bnomic only as the
    processor's own address did not come through a list, whatever its To:
    says, and is private. Mail with no envelope at all (old archives) is read
    by its headers alone."""
    public = config.get("addresses.public_fora", []) or []
    discussion = config.get("addresses.discussion_fora", []) or []
    if public and config.get("addresses.forum_by_envelope", False):
        envelope = envelope_recipients(mail, rcpt_tos)
        processor = (config.get("addresses.processor") or "bnomic@localhost").strip().lower()
        if envelope and all(a == processor for a in envelope):
            return "private"
    addresses = _addresses(mail, "to") + _addresses(mail, "cc")
    list_id = _list_id(mail)
    if any(_matches(f, addresses, list_id) for f in public):
        return "public"
    if any(_matches(f, addresses, list_id) for f in discussion):
        return "discussion"
    return "private" if public else "public"


def verified(mail, config: Config) -> bool:
    """The From line is trusted, or vouched for by the receiving MTA's
    Authentication-Results (dkim=pass aligned with From, or dmarc=pass)."""
    if config.get("auth.policy", "trust") != "dkim":
        return True
    authserv = (config.get("auth.authserv_id", "") or "").lower()
    _, address = sender(mail)
    domain = address.rpartition("@")[2]
    # Only the topmost Authentication-Results header with our authserv-id counts:
    # our server prepends its own; any below it came with the mail (RFC 8601 5).
    for value in header_all(mail, "Authentication-Results"):
        value = re.sub(r"\s+", " ", value).lower()
        server = value.split(";", 1)[0].strip().split(" ")[0]
        if not authserv or server != authserv:
            continue
        if re.search(r"\bdmarc=pass\b", value):
            return True
        for m in re.finditer(r"\bdkim=pass\b([^;]*)", value):
            d = re.search(r"header\.(?:d|i)=@?([^\s;]+)", m.group(1))
            if d is None or domain == d.group(1) or domain.endswith("." + d.group(1)):
                return True
        return False
    return False


def to_post(raw: bytes, at: datetime, config: Config | None = None, mail=None,
            rcpt_tos: list[str] | None = None) -> Post:
    """The Post a mail makes; `rcpt_tos` is its SMTP envelope, if it came by LMTP/SMTP."""
    mail = mail or parse(raw)
    name, address = sender(mail)
    forum, trusted = ("public", True) if config is None else (forum_of(mail, config, rcpt_tos),
                                                              verified(mail, config))
    return Post(sender=address, subject=mail.subject or "", text=own_words(body_text(mail)),
                at=at, message_id=message_id(raw, mail), display_name=name,
                forum=forum, verified=trusted,
                recipients=tuple(_addresses(mail, "to") + _addresses(mail, "cc")),
                in_reply_to=header(mail, "In-Reply-To").strip(),
                references=tuple(re.findall(r"<[^<>\s]+>", header(mail, "References"))))
