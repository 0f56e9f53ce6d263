"""Header values that came from mail, made safe to write into bnomic's own mail.

Anything a player wrote can reach a header of bnomic's mail: a Subject echoed
in a receipt, a Message-ID answered with In-Reply-To and References, an
address named in play. Such a value is decoded (RFC 2047), stripped of control
characters, and handed to the email package's header API as plain text, which
encodes it again; Message-IDs must be msg-ids (RFC 5322 3.6.4) or are dropped,
and addresses must be one plain address. `check_serialized` then reads the
bytes bnomic is about to send and refuses a message whose header lines are not
exactly the headers it set: Python before 3.11.10 could write a decoded CR/LF
into the header block (CVE-2024-6923), and bnomic does not rely on the patch level.
"""
from __future__ import annotations

import email.policy
import re
import unicodedata

# The longest Subject bnomic writes (characters); the rest is cut.
SUBJECT_LENGTH = 200

# Bidi embeddings, overrides and isolates, and the marks: they reorder what is shown.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")

_DECODE = email.policy.default.header_factory


def plain(value: str) -> str:
    """Every control character, line or paragraph separator a space; no bidi
    controls; runs of white space one space."""
    out = []
    for c in value:
        if c in BIDI_CONTROLS:
            continue
        out.append(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c)
    return " ".join("".join(out).split())


def decoded(value: str) -> str:
    """A header value as a reader sees it: RFC 2047 encoded words decoded the way
    the email package decodes what it is given, control characters removed."""
    value = plain(value)
    for _ in range(4):              # an encoded word inside an encoded word: decode again
        try:
            once = plain(str(_DECODE("Subject", value)))
        except Exception:
            break
        if once == value:
            return value
        value = once
    # still decodes to something else: what is left of "=?" is no encoded word
    return plain(value.replace("=?", "= ?"))


def text(value: str, limit: int = SUBJECT_LENGTH) -> str:
    """Text from mail for an unstructured header (a Subject): decoded, plain, at
    most `limit` characters. Assigning it to an EmailMessage header leaves it
    unchanged (it holds nothing the email package would decode again)."""
    value = decoded(value)
    if len(value) > limit:
        value = decoded(value[:limit - 1].rstrip() + "…")
    return value


# RFC 5322 3.6.4 msg-id, id-left "@" id-right, in printable ASCII: dot-atom-text
# (atext and ".") on each side, or a no-fold-literal on the right. No "=?",
# so nothing in it is an encoded word.
_ATEXT = r"[\x21\x23-\x27\x2a\x2b\x2d-\x39\x3d\x3f\x41-\x5a\x5e-\x7e]"
MSG_ID = re.compile(rf"<{_ATEXT}{{1,200}}+@(?:{_ATEXT}{{1,200}}+|\[[\x21-\x5a\x5e-\x7e]{{0,200}}+\])>")
MAX_REFERENCES = 20


def msg_id(value: str | None) -> str | None:
    """The value as one msg-id ("<left@right>"), or None when it is not one."""
    value = (value or "").strip()
    if MSG_ID.fullmatch(value) and "=?" not in value and len(value) <= 250:
        return value
    return None


def msg_ids(value: str | None, limit: int = MAX_REFERENCES) -> list[str]:
    """The msg-ids in a References or In-Reply-To value, in order, without
    duplicates; the last `limit` of them. Anything else in it is dropped."""
    found: list[str] = []
    for token in re.findall(r"<[^<>]*+>", value or ""):
        good = msg_id(token)
        if good and good not in found:
            found.append(good)
    return found[-limit:]


# One mailbox: local@domain, no white space, controls, quotes, brackets or second "@".
ADDRESS = re.compile(r"[^\s\x00-\x1f\x7f<>()\[\]\\,;:\"@]{1,64}+@[^\s\x00-\x1f\x7f<>()\[\]\\,;:\"@]{1,255}+")


def address(value: str | None) -> str | None:
    """The value as one plain address, or None."""
    value = (value or "").strip()
    return value if ADDRESS.fullmatch(value) and "=?" not in value else None


class UnsafeHeaders(ValueError):
    """The serialized message's header block is not the headers that were set."""


def check_serialized(data: bytes, names: list[str]) -> None:
    """Raise UnsafeHeaders unless the header block of `data` (the bytes to be
    sent) holds exactly the header fields `names`, in that order, and nothing
    that is not a header field."""
    head, sep, _ = data.partition(b"\r\n\r\n")
    if not sep:
        head, sep, _ = data.partition(b"\n\n")
    seen: list[str] = []
    for line in head.replace(b"\r\n", b"\n").split(b"\n"):
        if line[:1] in (b" ", b"\t"):
            if not seen:
                raise UnsafeHeaders("the header block starts with a continuation line")
            continue                        # a folded line belongs to the field above
        name, colon, _ = line.partition(b":")
        if not colon or not re.fullmatch(rb"[!-9;-~]+", name):
            raise UnsafeHeaders(f"not a header field: {line[:60]!r}")
        seen.append(name.decode("ascii").lower())
    if b"\r" in head.replace(b"\r\n", b""):
        raise UnsafeHeaders("a bare carriage return in the header block")
    if seen != [n.lower() for n in names]:
        raise UnsafeHeaders(f"header fields {seen} where {[n.lower() for n in names]} were set")
