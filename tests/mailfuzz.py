"""Hypothesis strategies for malformed mail: headers written twice or never,
encoded words in unknown charsets, folding, 8-bit bytes, NULs, and random
(often broken) MIME trees with game actions in them. Used by
tests/test_fuzz_engine.py (a few hundred examples) and bench/fuzz.py (tens of
thousands), both through the real engine into a real SQLite game."""
from __future__ import annotations

from hypothesis import strategies as st

ACTIONS = ["I join as Wooble.", "I give m1 to The Beast.", "I vote FOR on proposal 1.",
           "I intend to cause the Beast to give m3 to Wooble without objection.",
           "I become the Registrar.", "Please send the Registrar's display.", "digest daily",
           "BEGIN TRANSACTION\nI give m1 to The Beast\nEND TRANSACTION", "I submit the following "
           "proposal:\n{{ Title: x\nAmend Rule 4E1 }}", "> I give m5 to The Beast", "I forfeit."]
NAMES = ["From", "To", "Cc", "Subject", "Message-ID", "Date", "References", "In-Reply-To",
         "Received", "Auto-Submitted", "X-Loop", "Return-Path", "Reply-To", "Sender", "List-Id",
         "Authentication-Results", "MIME-Version", "Content-Type", "Content-Transfer-Encoding",
         "Delivered-To", "Precedence", "X-Original-To"]
ADDRESSES = ["w@example.org", "Wooble <w@example.org>", "\"A, B\" <ab@example.org>",
             "business@example.org", "bnomic@example.org", "discuss@example.org", "<>", "",
             "mailer-daemon@example.org", "undisclosed-recipients:;", "a@b@c", "<<x@y>>",
             "=?utf-8?b?w7zDtg==?= <u@example.org>", "x" * 300 + "@example.org"]
VALUES = st.one_of(
    st.sampled_from(ADDRESSES),
    st.sampled_from(["<id@example.org>", "<a@x> <b@x>", "no brackets", "<>", "<" + "m" * 300 + ">",
                     "Mon, 1 Sep 2008 10:00:00 +0000", "Thu, 31 Feb 2008 99:99:99 +9999", "yesterday",
                     "from a by b; Mon, 1 Sep 2008 10:00:00 +0000", "auto-replied", "no",
                     "=?utf-8?q?caf=C3=A9?=", "=?x-unknown?b?////?=", "=?utf-8?b?broken",
                     "text/plain; charset=\"koi8-r\"", "multipart/mixed; boundary=", "base64",
                     "mx.example.org; dkim=pass header.d=example.org", "bulk", "1.0"]),
    st.text(max_size=60),
    st.lists(st.sampled_from(["word", "\n\t", "\n ", ";", ",", "\"", "(comment)", "=?", "?="]),
             max_size=8).map("".join),
)


@st.composite
def headers(draw) -> bytes:
    """A header block: each name 0-3 times (a second Subject, no From...), in any order."""
    lines = []
    for name in draw(st.lists(st.sampled_from(NAMES), max_size=14)):
        value = draw(VALUES)
        lines.append(f"{draw(st.sampled_from([name, name.lower(), name.upper()]))}: {value}")
    raw = "\n".join(lines).encode("utf-8", "surrogateescape")
    return raw + draw(st.sampled_from([b"", b"\nX-Bytes: \xff\xfe\x00", b"\nNo colon here",
                                       b"\n\tcontinued", b"\nSubject: \x1b$B$3$s\x1b(B"]))


CHARSETS = st.sampled_from(["utf-8", "iso-8859-1", "koi8-r", "shift_jis", "us-ascii",
                            "x-unknown", "utf-16", ""])
CTYPES = st.sampled_from(["text/plain", "text/html", "application/octet-stream",
                          "multipart/mixed", "multipart/alternative", "message/rfc822",
                          "multipart/report", "text/enriched"])
TEXT = st.one_of(st.sampled_from(ACTIONS), st.text(max_size=200),
                 st.lists(st.sampled_from(ACTIONS), max_size=4).map("\n".join))


@st.composite
def mime(draw, depth: int = 0) -> bytes:
    """A MIME part: content headers and a body, nested up to two levels, often broken."""
    ctype = draw(CTYPES)
    charset = draw(CHARSETS)
    head = [f"Content-Type: {ctype}" + (f"; charset={charset}" if charset else "")
            + (f"; boundary=B{depth}" if ctype.startswith("multipart") else "")
            + draw(st.sampled_from(["", "; format=flowed", "; format=flowed; delsp=yes"]))]
    head.append(draw(st.sampled_from(["", "Content-Transfer-Encoding: base64",
                                      "Content-Transfer-Encoding: quoted-printable",
                                      "Content-Transfer-Encoding: 8bit",
                                      "Content-Disposition: attachment; filename=\"a.txt\""])))
    if ctype.startswith("multipart") and depth < 2:
        parts = draw(st.lists(mime(depth + 1), max_size=3))
        body = b"".join(f"--B{depth}\n".encode() + p + b"\n" for p in parts)
        body += draw(st.sampled_from([f"--B{depth}--\n".encode(), b""]))
    else:
        body = draw(st.one_of(st.binary(max_size=200),
                              TEXT.map(lambda t: t.encode("utf-8", "replace"))))
    return ("\n".join(h for h in head if h) + "\n\n").encode() + body


@st.composite
def mails(draw) -> tuple[bytes, str]:
    """(raw mail, SMTP envelope sender): a From most of the time, then the fuzzed headers."""
    n = draw(st.integers(0, 10**9))
    first = draw(st.sampled_from([f"From: p{n % 5000}@example.org\nTo: business@example.org\n"
                                  f"Message-ID: <f{n}@example.org>\n", ""])).encode()
    raw = first + draw(headers()) + b"\n" + draw(mime())
    envelope = draw(st.sampled_from([f"p{n % 5000}@example.org", "", "w@example.org"]))
    return raw, envelope


def unique(raw: bytes, n: int) -> bytes:
    """Nine mails in ten get a Message-ID of their own first (the first of two
    is the one read), so that few are dropped as already stored."""
    return raw if n % 10 == 0 else f"Message-ID: <fuzz{n}@example.org>\n".encode() + raw
