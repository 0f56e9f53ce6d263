"""Issue 4: property tests. Random text and random MIME never crash the reader,
and quoted text is never acted on."""
from datetime import datetime, timezone

from hypothesis import HealthCheck, given, settings, strategies as st

from bnomic.config import Config, defaults
from bnomic.handlers import grammar
from bnomic.handlers.registry import ACTIONS
from bnomic.mailer import parse
from mailfuzz import mime

AT = datetime(2008, 9, 1, tzinfo=timezone.utc)
CONFIG = Config(defaults())
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# words that make sentences look like actions, so the reader's paths get exercised
WORDS = st.sampled_from(
    ["I", "give", "m10", "to", "Wooble", "join", "as", "forfeit", "exchange", "points", "for",
     "mackerel", "intend", "without", "objection", "with", "support", "object", "#3", "On",
     "nday", "8,", "BEGIN", "TRANSACTION", "END", "the", "Clock", "is", "On", "3", "times",
     "cancel", "scheduled", "action", "Beast", "cause", ".", ";", "\n", ">", "/*", "*/", "[[",
     "]]", "--", "2008-09-01", "at", "12:00", "UTC", "remove", "Active", "property", "from"])
SENTENCES = st.lists(WORDS, max_size=30).map(" ".join)
TEXT = st.one_of(st.text(max_size=400), SENTENCES,
                 st.lists(SENTENCES, max_size=8).map("\n".join))


@FAST
@given(TEXT)
def test_the_grammar_never_crashes(text):
    for r in grammar.read(text):
        assert r.kind in ("action", "unknown", "transaction", "assertion", "incomplete", "ambiguous")


def quote(text: str) -> str:
    return "\n".join("> " + line for line in text.splitlines())


@FAST
@given(own=TEXT, quoted=TEXT)
def test_quoted_text_is_never_acted_on(own, quoted):
    alone = grammar.read(parse.own_words(own))
    replied = grammar.read(parse.own_words(own + "\nOn Monday, Ais523 wrote:\n" + quote(quoted)))
    assert [(r.text, r.kind) for r in replied] == [(r.text, r.kind) for r in alone]


@FAST
@given(st.sampled_from([spec.example for spec in ACTIONS]))
def test_a_quoted_example_of_every_action_does_nothing(example):
    assert grammar.read(example)                        # unquoted, it is an action
    assert grammar.read(parse.own_words(quote(example))) == []


# the MIME strategy is the fuzz bench's (tests/mailfuzz.py)


@FAST
@given(part=mime(), sender=st.sampled_from(["w@example.org", "Name <w@x>", "", "<<>>", "\udcff@x"]),
       extra=st.binary(max_size=80))
def test_random_mime_never_crashes_the_reader(part, sender, extra):
    raw = (f"From: {sender}\nTo: business@example.org\nSubject: s\n".encode("utf-8", "surrogateescape")
           + extra.replace(b"\n\n", b"\n") + b"\n" + part)
    post = parse.to_post(raw, AT, CONFIG)
    grammar.read(post.text)
    assert post.message_id


@FAST
@given(st.binary(max_size=600))
def test_random_bytes_never_crash_the_reader(raw):
    try:
        post = parse.to_post(raw, AT, CONFIG)
    except Exception as e:          # the runner answers "this mail could not be read"
        raise AssertionError(f"to_post raised {type(e).__name__}: {e}") from None
    grammar.read(post.text)
