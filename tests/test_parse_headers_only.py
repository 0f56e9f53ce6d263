"""parse._HeadersOnly: a plain mail's headers read by mail-parser's own code, its
pass over the body left out (issue 16), gives what the whole of mail-parser gives:
the same header values, the same stored fields (parsed.Parsed), and no plain mail
on which the whole parse would have failed (then the stdlib's fallback is taken)."""
import email
import sys
from pathlib import Path

import mailparser
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bnomic.mailer import parse, parsed

sys.path.insert(0, str(Path(__file__).parent))
from mailfuzz import ACTIONS, NAMES, mails  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ASCII = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=60)
VALUES = st.one_of(
    st.sampled_from(["w@example.org", "Wooble <w@example.org>", "\"A, B\" <ab@example.org>", "<>", "",
                     "a@b@c", "<<x@y>>", "undisclosed-recipients:;", "<id@example.org>", "<a@x> <b@x>",
                     "Mon, 1 Sep 2008 10:00:00 +0000", "Thu, 31 Feb 2008 99:99:99 +9999", "yesterday",
                     "from a by b; Mon, 1 Sep 2008 10:00:00 +0000", "auto-replied", "text/plain",
                     "text/plain; charset=utf-8", "text/plain; charset=us-ascii", "7bit", "8bit",
                     "quoted-printable", "from mx.example.org (mx [10.0.0.1]) by b.example.org "
                     "with ESMTP id 1; Tue, 2 Sep 2008 10:00:00 +0200"]),
    ASCII,
    st.lists(st.sampled_from(["word", "\n\t", "\n ", ";", ",", "\"", "(comment)", "<", ">", "@"]),
             max_size=8).map("".join))


@st.composite
def plain_mails(draw) -> bytes:
    lines = [f"{draw(st.sampled_from([n, n.lower()]))}: {draw(VALUES)}"
             for n in draw(st.lists(st.sampled_from(NAMES), max_size=14))]
    body = draw(st.one_of(st.sampled_from(ACTIONS), ASCII, st.binary(max_size=100)))
    body = body if isinstance(body, bytes) else body.encode()
    return ("\n".join(lines) + "\n\n").encode() + body


def whole(raw: bytes):
    """What parse._parse gave before: the whole of mail-parser, or the fallback."""
    try:
        return mailparser.parse_from_bytes(raw)
    except Exception:
        return parse._StdlibMail(raw)


def same(raw: bytes) -> None:
    got, want = parse._parse(raw), whole(raw)
    assert type(got) is type(want) or (isinstance(got, parse._HeadersOnly)
                                       and type(want) is mailparser.MailParser), (got, want)
    for name in ("subject", "message_id", "to", "cc", "date", "received"):
        assert getattr(got, name) == getattr(want, name), name
    try:
        fields = parsed.Parsed.of(raw, want).fields
    except Exception as e:
        try:
            parsed.Parsed.of(raw, got)
        except Exception as f:
            assert type(f) is type(e)
            return
        raise AssertionError(f"only the whole parse fails: {e!r}")
    assert parsed.Parsed.of(raw, got).fields == fields


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(plain_mails())
def test_plain_mails_read_the_same(raw):
    same(raw)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(mails())
def test_fuzzed_mails_read_the_same(mail):
    same(mail[0])


def test_example_and_bench_mails_take_the_short_way_and_read_the_same():
    sys.path.insert(0, str(ROOT / "bench"))
    from ingest import make_mails
    raws = [p.read_bytes() for p in sorted(ROOT.glob("examples/**/*.eml"))] + make_mails(80, 10, "t")
    for raw in raws:
        same(raw)
    assert sum(isinstance(parse._parse(r), parse._HeadersOnly) for r in raws) >= 80
    assert parse._plain(email.message_from_bytes(raws[-1]))
