"""From raw mail to a Post, with mail-parser for the headers and the stdlib's
message tree for the body.

Only what the sender wrote is read for actions: quoted lines, attributions,
signatures, forwarded or "Original Message" blocks and Comment Text (Rule 4E5)
are dropped here. Which forum the mail reached (Rule 4E6) and whether its From
line is vouched for are decided here too, from the configuration in force.
"""
from __future__ import annotations

import email
import email.errors
import email.header
import email.policy
import email.utils
import hashlib
import html
import re
import threading
from collections import OrderedDict
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import lru_cache
from email.message import Message
from html.parser import HTMLParser

import authres
import mailparser

from ..config import Config
from ..handlers.post import Post
from . import headers


# the mails parsed last, by their bytes: `bnomic ingest` parses each mail of a batch
# when it stores it and again when it applies it, in the same process (issue 16)
_RECENT: OrderedDict = OrderedDict()
_RECENT_KEPT = 300          # more than a batch of `bnomic ingest` (cli.INGEST_BATCH)
_RECENT_BYTES = 8 << 20     # and no more than 8 MB of mail (a large one is parsed again)
_recent_lock = threading.Lock()
_recent_size = [0]
_limits = [_RECENT_KEPT, _RECENT_BYTES]      # as now (see `keeping`)


@contextmanager
def keeping(mails: int, raw_bytes: int):
    """Keep up to `mails` mails parsed (and `raw_bytes` of their bytes) while
    inside, then go back to the usual bounds. `bnomic ingest` parses a whole
    archive to put it in arrival order before it applies the first batch: with
    the usual 300 kept, an archive of more than that was parsed twice."""
    with _recent_lock:
        before = list(_limits)
        _limits[:] = [max(mails, before[0]), max(raw_bytes, before[1])]
    try:
        yield
    finally:
        with _recent_lock:
            _limits[:] = before
            _trim()


def _trim() -> None:
    """Drop the mails parsed longest ago beyond the bounds (under _recent_lock)."""
    kept, size = _limits
    while _RECENT and (len(_RECENT) > kept or _recent_size[0] > size):
        old, _ = _RECENT.popitem(last=False)
        _recent_size[0] -= len(old)


def parse(raw: bytes):
    """mail-parser's view of the mail; when mail-parser itself fails on malformed
    MIME, the stdlib's, with the same attributes, so the mail is still read.
    The same bytes parsed again lately give the same object (read it only)."""
    if not isinstance(raw, bytes):
        return _parse(raw)
    with _recent_lock:
        mail = _RECENT.get(raw)
        if mail is not None:
            _RECENT.move_to_end(raw)
            return mail
    mail = _parse(raw)
    with _recent_lock:
        if raw not in _RECENT and len(raw) <= _RECENT_BYTES // 16:
            _RECENT[raw] = mail
            _recent_size[0] += len(raw)
            _trim()
    return mail


def _parse(raw: bytes):
    try:
        # what mailparser.parse_from_bytes does: the stdlib's message, then MailParser
        message = email.message_from_bytes(raw)
        try:
            plain = _plain(message)
        except Exception:
            plain = False
        if plain:
            return _HeadersOnly(message)
        return mailparser.MailParser(message)
    except Exception:
        return _StdlibMail(raw)


class _HeadersOnly(mailparser.MailParser):
    """mail-parser's reading of a plain mail's headers (its `_reset`: the header index,
    the address headers, Date and Received; `subject`, `message_id`, `to`, `cc`,
    `date`, `received` are its own values), without its pass over the body (parts,
    attachments, decoded text, defects) that bnomic never reads: it takes the body
    from the stdlib's message (issue 16: most of mail-parser's cost). Only for a mail
    on which that pass cannot fail (`_plain`), so the fallback is taken as before."""

    def parse(self):
        self._reset()
        return self


_PLAIN_CTE = frozenset({"", "7bit", "8bit", "quoted-printable"})
_PLAIN_CHARSETS = frozenset({None, "us-ascii", "utf-8", "iso-8859-1"})


def _plain(message: Message) -> bool:
    """A mail whose body mail-parser's pass reads without fail: one text/plain part,
    no defects, headers of plain ASCII with no encoded words, no Content-Disposition
    or Content-ID (no attachment), a usual transfer encoding and charset."""
    if message.is_multipart() or message.defects or message.get_content_type() != "text/plain":
        return False
    for name, value in message.raw_items():
        if not (isinstance(value, str) and name.isascii() and value.isascii()) or "=?" in value:
            return False
        if name.lower() in ("content-disposition", "content-id"):
            return False
    return (str(message.get("content-transfer-encoding", "")).strip().lower() in _PLAIN_CTE
            and message.get_content_charset() in _PLAIN_CHARSETS)


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

def one(value) -> str:
    """One header value as text: mail-parser gives a list for a header written
    twice (a malformed mail); the first is the one read."""
    if isinstance(value, (list, tuple)):
        value = next((v for v in value if v), "")
    return str(value) if value else ""


def message_id(raw: bytes, mail=None) -> str:
    """The mail's Message-ID, or a stable one derived from its bytes."""
    mail = mail or parse(raw)
    mid = one(mail.message_id).strip()
    return mid or derived_message_id(raw)


def derived_message_id(raw: bytes) -> str:
    """Stable for the same mail however it came: its From, To, Date, Subject and
    body, not the Received or Return-Path lines a delivery adds."""
    head, _, body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
    kept = [line for line in head.split(b"\n")
            if line.split(b":", 1)[0].strip().lower() in (b"from", b"to", b"date", b"subject")]
    digest = hashlib.sha256(b"\n".join(sorted(kept)) + b"\n\n" + body).hexdigest()[:32]
    return f"<{digest}@bnomic.invalid>"


def from_line(mail) -> tuple[str, str, str]:
    """(display name, address, why not): the one address of the one From line,
    or ('', '', the reason it cannot be told who sent the mail).

    The From line is read twice, by the email package's strict RFC 5322 parser
    and by the lenient one mail-parser uses; both must find the same single
    address, so a line that readers take differently ("alice@example.org
    <mallory@attacker.example>", an address hidden in an encoded word) is refused.

    Read once per mail (the Post, the sender's trust, the reply gate and the
    own-mail check each ask): kept on the mail object, as the auth results are."""
    kept = getattr(mail, "_bnomic_from_line", None)
    if kept is not None:
        return kept
    found = _from_line(mail)
    try:
        mail._bnomic_from_line = found
    except AttributeError:          # an object that takes no attributes: read each time
        pass
    return found


def _from_line(mail) -> tuple[str, str, str]:
    lines = [str(v) for v in (mail.message.get_all("From") or [])]
    if not lines:
        return "", "", "the mail has no From line"
    if len(lines) > 1:
        return "", "", f"the mail has {len(lines)} From lines"
    return _read_from(" ".join(lines[0].split()))


@lru_cache(maxsize=1024)
def _read_from(value: str) -> tuple[str, str, str]:
    """`_from_line` of one From line's text: the same text reads the same, so
    the players' own From lines are parsed by both parsers once (issue 16)."""
    try:
        strict = email.policy.default.header_factory("From", value)
        found = [(a.display_name, a.addr_spec) for a in strict.addresses]
        broken = any(isinstance(d, email.errors.InvalidHeaderDefect) for d in strict.defects)
    except Exception:
        found, broken = [], True
    lenient = [a for _, a in email.utils.getaddresses([value]) if a]
    if len(found) > 1 or len(lenient) > 1:
        return "", "", "the From line has more than one address"
    if broken or len(found) != 1 or lenient != [found[0][1]] or not _ADDRESS.fullmatch(found[0][1]):
        return "", "", "the From line holds no single plain address"
    name, address = found[0]
    return name or "", address.lower(), ""


# One mailbox, local@domain: no spaces, controls, quotes, brackets or a second "@".
_ADDRESS = re.compile(r"(?<![^\s\x00-\x1f\x7f<>()\[\]\\,;:\"@])[^\s\x00-\x1f\x7f<>()\[\]\\,;:\"@]++@[^\s\x00-\x1f\x7f<>()\[\]\\,;:\"@]++")


def sender(mail) -> tuple[str, str]:
    """(display name, address) of the From line; ('', '') when there is none,
    or when it holds more than one address or is there more than once."""
    name, address, _ = from_line(mail)
    return name, address


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
        elif tag in ("td", "th"):
            self.parts.append(" ")          # a table's cells, apart on their row ("13 AGAINST")

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


_COMMENTS = {"/*": "*/", "[[": "]]"}       # Rule 4E5: Comment Text
_ATTRIBUTION = re.compile(r"^.*\bwrote\s*:\s*$|^\s*le\b.*\ba écrit\s*:\s*$", re.I)
_CUT = re.compile(
    r"^\s*(?:-{2,}\s*(?:original message|forwarded message)\s*-{2,}"
    r"|begin forwarded message:|_{8,}\s*$|-{5,}\s*$)", re.I)
_OUTLOOK_FROM = re.compile(r"^\s*\*?from:\*?\s", re.I)
_OUTLOOK_NEXT = re.compile(r"^\s*\*?(?:sent|date|to|subject):\*?\s", re.I)


# a text part that is an HTML document all the same (some mail programs label it text/plain),
# or a fragment of one ("<div>I vote FOR 12&nbsp;and AGAINST 14.</div><br>")
_HTML_DOCUMENT = re.compile(r"\s*+<(?:!doctype\s++html|html|body|div|p|br|span|font|table|blockquote)\b", re.I)
# or HTML whose block tags come after a first line of text ("My votes:<br>" then a <table>):
# two block tags or more
_HTML_TAG = re.compile(r"<(?:br|div|p|table|tr|td|li|ul|ol)\b[^<>\n]{0,200}+>", re.I)


def _is_html(text: str) -> bool:
    if _HTML_DOCUMENT.match(text):
        return True
    found = _HTML_TAG.search(text)
    return found is not None and _HTML_TAG.search(text, found.end()) is not None


# HTML's character references left in a plain text ("FOR 12&nbsp;and", "&gt; I object"): the
# characters they stand for
_ENTITY = re.compile(r"&(?:nbsp|amp|lt|gt|quot|apos|#\d{1,7}+|#x[0-9a-f]{1,6}+);", re.I)


def _entities_read(text: str) -> str:
    return _ENTITY.sub(lambda m: " " if m.group(0).lower() == "&nbsp;" else html.unescape(m.group(0)), text)


def _as_plain(text: str) -> str:
    """A text part as plain text: HTML (a document, or a fragment) as the text it shows,
    HTML's character references as the characters they stand for."""
    if "<" in text and _is_html(text):
        return html_to_text(text)
    return _entities_read(text) if "&" in text else text


_BARE_RULE = re.compile(r"[ \t]*+(?:-{3,}+|_{3,}+)[ \t]*+$")


def _fence_pair(lines: list[str], i: int) -> bool:
    """A bare line of dashes (or underscores) that another such line of the sender's closes
    further down: a document's fence ("------" above and below a proposal's text), not the
    start of a forwarded or quoted block."""
    if not _BARE_RULE.match(lines[i]):
        return False
    mark = lines[i].strip()[0]
    return any(_BARE_RULE.match(x) and x.strip()[0] == mark for x in lines[i + 1:i + 200])


def _bbcode_quoted(text: str) -> str:
    """A forum's quotation, '[quote="Alice"]I intend to ...[/quote]', as the quoted lines
    ("> I intend to ...") a mail client writes: someone else's words, never the sender's.
    (With str.find, once over the text: an unclosed "[quote]" is left as written.)"""
    low, out, i = text.lower(), [], 0
    while True:
        start = low.find("[quote", i)
        if start < 0:
            break
        head_end = low.find("]", start)
        end = low.find("[/quote]", head_end) if head_end >= 0 else -1
        if end < 0 or (low[start + 6:start + 7] not in ("]", "=", " ")) or head_end - start > 90:
            break
        quoted = text[head_end + 1:end]
        out.append(text[i:start])
        if out[-1] and not out[-1].endswith("\n"):
            out.append("\n")
        out.append("\n".join("> " + q for q in quoted.strip("\n").split("\n")) + "\n")
        i = end + len("[/quote]")
    out.append(text[i:])
    return "".join(out)


# a quoted-printable soft line break left in a text its mail did not declare so ("AGAIN=" /
# "ST 16"): inside a word, the two halves of the word
_SOFT_BREAK = re.compile(r"(?<=[A-Za-z])=\r?\n(?=[A-Za-z])")
# ... and a space or tab it encoded at a line's end ("I exchange two points for mackerel.=20"),
# never a number said
_ENCODED_SPACE = re.compile(r"=(?:20|09)(?=\r?\n|\Z)")


# an RFC 2047 encoded-word a mail program left in the body: "=?UTF-8?Q?I_vote_FOR_Proposal_10?="
_ENCODED_WORD = re.compile(r"=\?[\w.:-]{1,40}+\?[QqBb]\?[^?\s]{1,2000}+\?=")


def _encoded_word(m: re.Match) -> str:
    """The encoded-word's text, decoded by the standard library (email.header); left as it is
    when it is not one."""
    try:
        return str(email.header.make_header(email.header.decode_header(m.group())))
    except (ValueError, LookupError, UnicodeError, email.errors.HeaderParseError):
        return m.group()


def _plain_text(text: str) -> str:
    text = _as_plain(text)
    if "=?" in text:
        text = _ENCODED_WORD.sub(_encoded_word, text)
    if "=\n" in text or "=\r\n" in text:
        text = _SOFT_BREAK.sub("", text)
    if "=20" in text or "=09" in text:
        text = _ENCODED_SPACE.sub(" ", text)
    return _bbcode_quoted(text) if "[quote" in text.lower() else text


# "PS: AGAINST 16, forgot that one." below the signature: the sender's words again
_POSTSCRIPT = re.compile(r"\s*+p\.?\s*+p?\.?\s*+s\b\.?\s*+[:.,-]?", re.I)


def own_words(text: str) -> str:
    """What the sender wrote: no quoted lines, attributions, signature,
    forwarded or Original Message blocks, or Comment Text (Rule 4E5). A text
    that is an HTML document is read as the text it shows; a postscript below
    the signature ("PS: ...") is the sender's own again."""
    text = _plain_text(text)
    lines = text.replace("\r\n", "\n").split("\n")
    kept: list[str] = []
    fence = None                            # the mark of a fence opened above ("------")
    signature = False
    for i, line in enumerate(lines):
        if signature and not _POSTSCRIPT.match(line):
            continue
        signature = False
        if line.rstrip() == "--":           # "-- " starts the signature
            if not any(_POSTSCRIPT.match(x) for x in lines[i + 1:i + 12]):
                break
            signature = True
            continue
        if _BARE_RULE.match(line) and (fence == line.strip()[0] or _fence_pair(lines, i)):
            fence = None if fence == line.strip()[0] else line.strip()[0]     # a document's fence
            kept.append(line)
            continue
        if _CUT.match(line):
            break
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if _OUTLOOK_FROM.match(line) and _OUTLOOK_NEXT.match(nxt):
            break                           # an Outlook header block: the rest is quoted
        if _quoted(line):
            continue
        line = _voted_inline(lines, i, line)
        if _ATTRIBUTION.match(line):
            if (kept and kept[-1].strip().lower().startswith("on ")
                    and not line.strip().lower().startswith("on ")):
                kept.pop()                  # "On Mon, 1 Sep 2008, Wooble" / "<w@x> wrote:"
                                            # (an attribution whole on its line keeps the one above)
            continue
        kept.append(line)
    # Comment Text last: a "/*" in the sender's words is not closed by a quoted "*/"
    return strip_comments("\n".join(kept))


# Rule 4E15's Votes written under the lines of a quoted ballot: "> 12 Clock Fix (Bob)" and
# then "FOR" (or "AGAINST. It fixes nothing."): the vote is on the proposal quoted above it
_BALLOT_ENTRY = re.compile(r"\s*+(?:&gt;|>)[>\s]*+(?:proposal\s*+|prop\.?+\s*+|p|#)?+(?P<n>\d{1,6}+)\b[.:)]?+\s++\S",
                           re.I)
_LONE_VOTE = re.compile(r"\s*+(?:for|against|abstain|shelve)\b(?!\s*+(?:proposal|prop\b|p?\d|#))", re.I)


def _voted_inline(lines: list[str], i: int, line: str) -> str:
    """The own line `lines[i]`, or, where it is a Vote alone under a quoted ballot entry,
    that Vote on the entry's proposal ("Proposal 12: FOR")."""
    if not _LONE_VOTE.match(line):
        return line
    j = i - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    m = _BALLOT_ENTRY.match(lines[j]) if j >= 0 else None
    return f"Proposal {m.group('n')}: {line.strip()}" if m else line


def quoted_words(text: str) -> str:
    """The lines a mail quotes ("> ..."), unquoted: the context a reply answers
    ("I object." under a quoted intent). Never read for actions."""
    out = []
    text = _plain_text(text)
    for line in text.replace("\r\n", "\n").split("\n"):
        if _quoted(line):
            stripped = line.lstrip()
            stripped = stripped[4:] if stripped.startswith("&gt;") else stripped
            out.append(stripped.lstrip("> "))
    return "\n".join(out)


def _quoted(line: str) -> bool:
    """A quoted line: "> ...", or "&gt; ..." where a mail client escaped the mark."""
    return line.lstrip().startswith((">", "&gt;"))


def strip_comments(text: str) -> str:
    """Rule 4E5: each Comment Text ("/* ... */", "[[ ... ]]", the first close after
    the open) becomes one space; an open with no close is left as written. One
    pass with str.find, so an unclosed "/*" or "[[" costs linear time (as a
    regular expression, each unclosed open rescanned the rest of the text)."""
    following = {start: text.find(start) for start in _COMMENTS}
    out, i = [], 0
    while True:
        found = [(at, start) for start, at in following.items() if at >= 0]
        if not found:
            break
        at, start = min(found)
        close = text.find(_COMMENTS[start], at + 2)
        if close < 0:              # never closed: no later one of this kind closes either
            following[start] = -1
            continue
        out += [text[i:at], " "]
        i = close + 2
        for s, where in following.items():
            if 0 <= where < i:
                following[s] = text.find(s, i)
    out.append(text[i:])
    return "".join(out)


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


# The longest Authentication-Results value read; a longer one is not believed.
# Our own server writes a few hundred characters (authres parses in O(n^2)).
MAX_AUTH_RESULTS = 8192


def _auth_results(mail, authserv: str):
    """The topmost Authentication-Results header our own server wrote (its
    authserv-id is ours), parsed; None when there is none or it is unreadable.
    Our server prepends its header, so any below it came with the mail: only
    the topmost counts (RFC 8601 section 5; the server must also remove forged
    copies that carry its authserv-id)."""
    for value in header_all(mail, "Authentication-Results"):
        value = value.strip()
        try:
            if len(value) > MAX_AUTH_RESULTS:
                raise authres.AuthResError("too long")
            parsed = authres.AuthenticationResultsHeader.parse_value(value)
        except (authres.AuthResError, ValueError, TypeError):
            first = re.split(r"[\s;(]", value, maxsplit=1)[0].lower()
            if first == authserv:
                return None            # ours, but unreadable: vouches for nothing
            continue
        if (parsed.authserv_id or "").lower() == authserv:
            return parsed
    return None


def _parsed_auth_results(mail, authserv: str):
    """`_auth_results`, parsed once per mail: the engine vouches for a sender
    when it makes the Post and again at the reply gate, and authres is nearly
    all of that cost."""
    cache = getattr(mail, "_bnomic_auth_results", None)
    if cache is None or cache[0] != authserv:
        cache = (authserv, _auth_results(mail, authserv))
        try:
            mail._bnomic_auth_results = cache
        except AttributeError:          # an object that takes no attributes: parse each time
            pass
    return cache[1]


def _aligned(signer: str, domain: str) -> bool:
    """Strict-or-subdomain alignment: the signing domain is the From domain or a
    parent of it (whoever controls example.org's DNS controls lists.example.org's)."""
    signer = signer.strip().lower().rstrip(".")
    return bool(signer) and (domain == signer or domain.endswith("." + signer))


def vouch(mail, config: Config) -> str:
    """Why the From line cannot be believed, or '' when it can: it must hold one
    address; under `auth.policy = "dkim"` the topmost Authentication-Results of
    our authserv-id must hold dkim=pass with header.d aligned with the From
    domain, or dmarc=pass with header.from equal to it."""
    _, address, why = from_line(mail)
    if why:
        return why
    if config.get("auth.policy", "trust") != "dkim":
        return ""
    authserv = (config.get("auth.authserv_id", "") or "").strip().lower()
    results = _parsed_auth_results(mail, authserv) if authserv else None
    if results is None:
        return f"the receiving mail server ({authserv or 'no authserv-id configured'}) wrote no " \
               "readable Authentication-Results for it"
    domain = address.rpartition("@")[2].rstrip(".")
    for r in results.results:
        method, result = (r.method or "").lower(), (r.result or "").lower()
        props = {(p.type or "").lower() + "." + (p.name or "").lower(): p.value or ""
                 for p in r.properties}
        if result != "pass":
            continue
        if method == "dkim" and _aligned(props.get("header.d", ""), domain):
            return ""
        if method == "dmarc" and props.get("header.from", "").strip().lower().rstrip(".") == domain:
            return ""
    return f"the receiving mail server's Authentication-Results hold no dkim=pass for " \
           f"{domain} (header.d) and no dmarc=pass for it (header.from)"


def verified(mail, config: Config) -> bool:
    """The From line is trusted, or vouched for by the receiving MTA's
    Authentication-Results (see `vouch`)."""
    return not vouch(mail, config)


def post_fields(raw: bytes, mail) -> dict:
    """What a Post takes from the mail alone, whatever the configuration: the
    same for the same bytes, so a replay reads them as stored (mailer/parsed.py)."""
    name, address, why = from_line(mail)
    body = body_text(mail)
    return {"sender": address, "display_name": name, "from_why": why,
            "subject": headers.plain(one(mail.subject)), "text": own_words(body),
            "quoted": quoted_words(body), "message_id": message_id(raw, mail),
            "recipients": _addresses(mail, "to") + _addresses(mail, "cc"),
            "in_reply_to": header(mail, "In-Reply-To").strip(),
            "references": re.findall(r"<[^<>\s]+>", header(mail, "References"))}


def to_post(raw: bytes, at: datetime, config: Config | None = None, mail=None,
            rcpt_tos: list[str] | None = None) -> Post:
    """The Post a mail makes; `rcpt_tos` is its SMTP envelope, if it came by LMTP/SMTP.
    `mail` may be a parsed.Parsed: the mail's own fields are then the stored ones."""
    mail = mail or parse(raw)
    fields = getattr(mail, "_bnomic_post_fields", None)
    if fields is None:
        fields = post_fields(raw, mail)
    why = fields["from_why"] if config is None else vouch(mail, config)
    forum = "public" if config is None else forum_of(mail, config, rcpt_tos)
    return Post(sender=fields["sender"], subject=fields["subject"], text=fields["text"],
                quoted=fields["quoted"], at=at, message_id=fields["message_id"],
                display_name=fields["display_name"], forum=forum, verified=not why,
                unverified_why=why, recipients=tuple(fields["recipients"]),
                in_reply_to=fields["in_reply_to"], references=tuple(fields["references"]))
