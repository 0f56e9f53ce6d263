"""engine.quoted_vocabulary: lexer.with_quoted's vocabulary, one object per words and
quoted intents found (issue 16: the lexer keeps its names per vocabulary object)."""
from dataclasses import fields

from bnomic.handlers import engine, lexer
from bnomic.handlers.vocabulary import Vocabulary


def same(a, b) -> bool:
    return all(getattr(a, f.name) == getattr(b, f.name) for f in fields(Vocabulary))


WORDS = Vocabulary(players=("Alice", "Bob"), actor="Alice", intents={3: "Bob", 4: "Alice"})


def test_equal_to_with_quoted_field_for_field():
    for quoted in ("Welcome, all.", "I intend to do it (intent 3)", "I object to intent 3 and intent 4",
                   "   ", "I give m1 to Bob.", "I object to intent 3 and intent 4"):
        for _ in range(2):      # (the second time, the text's vocabulary as kept)
            assert same(engine.quoted_vocabulary(WORDS, quoted), lexer.with_quoted(WORDS, quoted)), quoted


def test_a_reply_and_not_a_reply_alike():
    reply = Vocabulary(players=("Alice", "Bob"), actor="Alice", intents={3: "Bob"}, replying=True)
    for words in (WORDS, reply):
        for quoted in ("the first one", "I object to the second intent 3", "it", "this intent"):
            assert same(engine.quoted_vocabulary(words, quoted), lexer.with_quoted(words, quoted)), quoted


def test_one_object_per_words_and_intents_found():
    a = engine.quoted_vocabulary(WORDS, "Welcome, all.")
    assert a is engine.quoted_vocabulary(WORDS, "I give m1 to Bob.")
    b = engine.quoted_vocabulary(WORDS, "I object to intent 3")
    assert b is engine.quoted_vocabulary(WORDS, "Intent 3 is silly") and b is not a
    assert b.quoted_intents == (3,) and b.replying
    assert engine.quoted_vocabulary(WORDS, "  ") is WORDS
    other = Vocabulary(players=("Alice", "Bob"), actor="Bob")
    assert engine.quoted_vocabulary(other, "Welcome, all.") is not a


def test_same_words_found_again_by_value():
    a = Vocabulary(players=("Alice", "Bob"), holders={"Change": "Bob"}, proposals={3: ("Fix", "Bob")})
    b = Vocabulary(players=("Alice", "Bob"), holders={"Change": "Bob"}, proposals={3: ("Fix", "Bob")})
    c = Vocabulary(players=("Alice", "Bob"), holders={"Change": "Alice"}, proposals={3: ("Fix", "Bob")})
    kept, by_actor = engine._same_words(a)
    assert kept is a and engine._same_words(b) == (a, by_actor)
    assert engine._same_words(c)[0] is c


def test_quoted_later_is_the_same_words_once_looked_at():
    """A replay's words (pinned readings: the quoted lines lexed only if a handler reads
    with the words): the first field read fills in every field as quoted_vocabulary's."""
    from dataclasses import replace
    for quoted in ("I object to intent 3 and intent 4", "Welcome, all.", "it"):
        later = engine._QuotedLater.of(WORDS, quoted)
        assert type(later) is engine._QuotedLater and isinstance(later, Vocabulary)
        assert same(later, engine.quoted_vocabulary(WORDS, quoted)), quoted
        assert type(later) is Vocabulary and "_later" not in later.__dict__
        moved = replace(engine._QuotedLater.of(WORDS, quoted), actor="Bob")
        assert moved.actor == "Bob" and moved.quoted_intents == later.quoted_intents
        assert not hasattr(later, "no_such_field")
    assert engine._QuotedLater.of(WORDS, "I object to intent 3").quoted_intents == (3,)
