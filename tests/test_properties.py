"""Issue 4: property tests. Random text and random MIME never crash the reader,
and quoted text is never acted on."""
from datetime import datetime, timezone

from hypothesis import HealthCheck, example, given, settings, strategies as st

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


SPECS = {spec.name: spec for spec in ACTIONS}


def _roles(spec) -> set[str]:
    return {r.name for f in spec.frames for r in f.roles}


def _well_formed(r, text: str) -> None:
    """What a reading of each kind must hold, whatever the text was."""
    if r.kind in ("action", "incomplete"):
        assert SPECS.get(r.spec.name) is r.spec                 # a registered action
        assert set(r.args) <= _roles(r.spec) | {"document"}, (r.spec.name, r.args)
        assert r.times >= 1
    if r.kind == "incomplete":      # names roles the action has, or the words not understood
        assert r.missing and (set(r.missing) <= _roles(r.spec) or r.missing == (
            "(the words " + ", ".join(repr(w) for w in r.unread) + ")",) and r.unread), \
            (r.spec.name, r.missing, r.unread)
    if r.kind == "ambiguous":                                   # two or more, each said
        assert len(set(r.alternatives)) >= 2 and all(a.strip() for a in r.alternatives)
    if r.kind == "transaction":
        for step in r.steps:
            assert step.kind in ("action", "assertion", "incomplete", "ambiguous", "unknown")
            _well_formed(step, text)
    if r.kind == "unknown":
        assert r.spec is None and not r.args
    if r.kind != "transaction":                                 # its words are the text's own
        written = text.casefold()
        assert all(w.casefold() in written for w in r.text.split()), (r.text, text)


@FAST
@given(TEXT)
@example("I OBJECTIN")          # (a misspelt verb mended into another misspelt one, read again and again)
@example("I giv bob m10")
def test_the_grammar_never_crashes(text):
    """Random text is read without crashing, the same way twice, and every
    reading is well formed for its kind (an action is a registered one with
    only its own roles; a near-miss names roles the action has; ...)."""
    readings = grammar.read(text)
    for r in readings:
        _well_formed(r, text)
    again = grammar.read(text)
    assert [(r.kind, r.text, r.spec and r.spec.name, r.args, r.missing) for r in again] == \
        [(r.kind, r.text, r.spec and r.spec.name, r.args, r.missing) for r in readings]


def quote(text: str) -> str:
    return "\n".join("> " + line for line in text.splitlines())


@FAST
@given(own=TEXT, quoted=TEXT)
def test_quoted_text_is_never_acted_on(own, quoted):
    alone = grammar.read(parse.own_words(own))
    replied = grammar.read(parse.own_words(own + "\nOn Monday, Ais523 wrote:\n" + quote(quoted)))
    assert [(r.text, r.kind) for r in replied] == [(r.text, r.kind) for r in alone]


def _reads_as_its_action(spec) -> None:
    """The example reads as one reading: its own action, with one of its frames'
    required roles filled and no role of another frame. An action done under an
    intent with a document written after it (a Tidiness List) has the intent as
    its example: that reads as `intend`, naming the document."""
    readings = grammar.read(spec.example)
    assert len(readings) == 1, (spec.example, readings)
    r = readings[0]
    assert r.kind == "action", (spec.example, r.kind, r.missing, r.alternatives)
    if r.spec.name == "intend" and spec.needs_intent and spec.document:
        assert spec.document in r.args["rest"].casefold() and r.args["document"]
        return
    assert r.spec.name == spec.name, (spec.example, r.spec.name)
    filled = {k for k, v in r.args.items() if v not in (None, "", [], ())}
    fits = [f for f in spec.frames
            if {ro.name for ro in f.roles if ro.required} <= filled
            and set(r.args) <= {ro.name for ro in f.roles} | {"document"}]
    assert fits, (spec.example, r.args)


def test_every_example_reads_as_its_own_action_with_its_roles():
    for spec in ACTIONS:
        _reads_as_its_action(spec)


@FAST
@given(st.sampled_from(ACTIONS))
def test_a_quoted_example_of_every_action_does_nothing(spec):
    _reads_as_its_action(spec)                          # unquoted, it is that action
    assert grammar.read(parse.own_words(quote(spec.example))) == []


# the MIME strategy is the fuzz bench's (tests/mailfuzz.py)


@FAST
@given(part=mime(), sender=st.sampled_from(["w@example.org", "Name <w@x>", "", "<<>>", "\udcff@x"]),
       extra=st.binary(max_size=80))
# (a text part that is a colon alone: an empty sentence once read the first word of nothing)
@example(part=b"Content-Type: multipart/mixed; charset=utf-8; boundary=B0\n\n--B0\nContent-Type: text/plain; "
              b"charset=utf-8\n\n:\n--B0--\n", sender="w@example.org", extra=b"")
@example(part=b"Content-Type: text/plain\n\n:\n--\n", sender="w@example.org", extra=b"")
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
