"""Issue 13: the reader's invariances (Rule 4E7: "Unambiguous targets and parameters
... are valid regardless of capitalization, punctuation, or exact wording").

For one canonical sentence per bnomic action (tests/reader_cases.py), hypothesis
writes variants: roles permuted where the action allows (each keeping its marker),
synonyms of the verb, other spellings of a role, fillers ("hereby", "also",
"please"), case and punctuation. Each must give the same reading. The same
sentences turned into talk (past tense, "I think I'll ...", a question, the third
person, a quotation) must give no action, and the sentence with a required role
left out must give a near-miss naming that role.

The last test reads both corpora (tests/reader and, as input text only,
tests/heldout) under two PYTHONHASHSEEDs and compares the readings.
"""
from __future__ import annotations

import itertools
import json
import os
import pathlib
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import reader_corpus as corpus
from reader_cases import CASES, Case
from bnomic.handlers import registry
import bnomic.handlers.engine  # noqa: F401  (registers every rule area's actions)

# Deterministic (derandomized, no example database) and without shrinking: a
# failing variant is printed as found, and a run costs the same every time.
VARIANTS = settings(max_examples=int(os.environ.get("READER_VARIANTS", "25")), derandomize=True,
                    database=None, deadline=None, phases=(Phase.explicit, Phase.generate),
                    suppress_health_check=list(HealthCheck))

IDS = [f"{i:02d}-{case.name}" for i, case in enumerate(CASES)]
FILLERS = ("", "hereby ", "also ")
LEADS = ("", "Also, ", "OK. ")
TRAILS = ("", ", please")
ENDS = (".", "!", "", " .")
CASINGS = ("as written", "lower", "upper")
ACTING = ("action", "transaction", "assertion", "incomplete", "ambiguous")


def _tidy(text: str) -> str:
    text = " ".join(text.split())
    for mark in (",", ":", ")"):
        text = text.replace(" " + mark, mark)
    return text.replace("( ", "(").replace(",,", ",")


def predicate(case: Case, verb: str, phrases: list[str]) -> str:
    """The verb form with the role phrases in place."""
    roles = " ".join(phrases)
    return _tidy(verb.replace("{roles}", roles) if "{roles}" in verb else f"{verb} {roles}")


def message(case: Case, sentence: str) -> corpus.Message:
    body = f"{sentence} {case.document}".strip() if case.document else sentence
    return corpus.Message("inv", case.sender, case.context, {}, body, ())


def reading_of(case: Case, sentence: str) -> list[corpus.Line]:
    return corpus.lines_of(corpus.read(message(case, sentence)))


def _end(case: Case, text: str, mark: str = ".") -> str:
    """A sentence's last mark: none before a document (its sentence ends in ":")."""
    return text if case.document else text + mark


def canonical(case: Case) -> str:
    return _end(case, f"I {predicate(case, case.verbs[0][0], [r.phrases[0] for r in case.roles])}")


@st.composite
def variants(draw, case: Case) -> str:
    verb = draw(st.sampled_from([v[0] for v in case.verbs]))
    phrases = [draw(st.sampled_from(r.phrases)) for r in case.roles]
    if case.free:
        phrases = list(draw(st.sampled_from(list(itertools.permutations(phrases)))))
    text = f"{draw(st.sampled_from(LEADS))}I {draw(st.sampled_from(FILLERS))}{predicate(case, verb, phrases)}"
    if not case.document:
        text += draw(st.sampled_from(TRAILS)) + draw(st.sampled_from(ENDS))
    if case.fold:
        casing = draw(st.sampled_from(CASINGS))
        text = text.lower() if casing == "lower" else text.upper() if casing == "upper" else text
    return text


def non_actions(case: Case) -> dict[str, str]:
    """The canonical sentence turned into talk: no action may be read from any."""
    phrases = [r.phrases[0] for r in case.roles]
    present, past, third = case.verbs[0]
    doing = predicate(case, present, phrases)
    other = "Dana" if case.sender == "Wooble" else "Wooble"
    return {
        "past": _end(case, f"I {predicate(case, past, phrases)}"),
        "plan": _end(case, f"I think I'll {doing}"),
        "question": f"Should I {doing.rstrip(':')}?",
        "third person": _end(case, f"{other} {predicate(case, third, phrases)}"),
        "quoted": f"On Monday, {other} wrote:\n> I {doing}\n\nNoted.",
    }


_DANGLING = (" from", " of", " to", " for", " on", " as", ",")


def dropped(case: Case, role) -> str:
    """The canonical sentence without one role (and the preposition it leaves hanging)."""
    phrases = [r.phrases[0] for r in case.roles if r is not role]
    text = predicate(case, case.verbs[0][0], phrases)
    while text.endswith(_DANGLING):
        text = text[: text.rfind(" ")] if not text.endswith(",") else text[:-1]
    return _end(case, f"I {text}")


DROPS = [(case, role) for case in CASES for role in case.roles if role.required]


# ------------------------------------------------------------------ the table itself

def test_the_table_covers_every_action():
    named = set()
    for case in CASES:
        named |= corpus.action_names(case.reading)
    ours = {spec.name for spec in registry.ACTIONS if spec.fn.__module__.startswith("bnomic.")}
    assert ours - named == set()


def test_the_sentences_are_made_as_described():
    give = next(c for c in CASES if c.name == "give")
    assert canonical(give) == "I give m5 to Wooble."
    assert non_actions(give)["past"] == "I gave m5 to Wooble."
    assert non_actions(give)["question"] == "Should I give m5 to Wooble?"
    assert non_actions(give)["third person"] == "Wooble gives m5 to Wooble."
    assert dropped(give, give.roles[1]) == "I give m5."
    remove = next(c for c in CASES if c.name == "remove_active")
    assert dropped(remove, remove.roles[0]) == "I remove the Active property."
    assign = [c for c in CASES if c.name == "assign_ministry"]
    assert canonical(assign[0]) == "I assign the Ministry of Law to myself with a Reward of m90."
    assert canonical(assign[1]) == "I assign myself the Ministry of Law with a Reward of m90."


# ------------------------------------------------------------------ invariances

class TestSameReading:
    @pytest.mark.parametrize("case", CASES, ids=IDS)
    def test_canonical_sentence(self, case):
        assert corpus.matches([case.reading], reading_of(case, canonical(case))), canonical(case)

    @pytest.mark.parametrize("case", CASES, ids=IDS)
    def test_variants_read_the_same(self, case):
        @VARIANTS
        @given(variants(case))
        def check(sentence):
            got = reading_of(case, sentence)
            assert corpus.matches([case.reading], got), (sentence, [str(g) for g in got])
        check()


# Today's reader already reads none of these as actions: kept strict, so the new
# reader must not start reading talk.
class TestNoAction:
    @pytest.mark.parametrize("form", ["past", "plan", "question", "third person", "quoted"])
    @pytest.mark.parametrize("case", CASES, ids=IDS)
    def test_talk_is_not_an_action(self, case, form):
        sentence = non_actions(case)[form]
        got = [g for g in reading_of(case, sentence) if g.kind != "unknown"]
        assert got == [], (sentence, [str(g) for g in got])


class TestDroppedRole:
    @pytest.mark.parametrize("case, role", DROPS, ids=[f"{CASES.index(c):02d}-{c.name}-{r.key}" for c, r in DROPS])
    def test_a_missing_role_is_named(self, case, role):
        sentence = dropped(case, role)
        got = reading_of(case, sentence)
        assert [g.kind for g in got] == ["incomplete"], (sentence, [str(g) for g in got])
        assert got[0].name == case.name and role.key in got[0].missing, (sentence, str(got[0]))


# ------------------------------------------------------------------ determinism

_DUMP = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import reader_corpus as corpus
try:
    from bnomic.handlers.pinned import to_json
except ImportError:
    to_json = None

def plain(v):
    if hasattr(v, "kind") and hasattr(v, "args"):
        spec = getattr(v, "spec", None)
        assertion = getattr(v, "assertion", None)
        return {"kind": v.kind, "name": spec.name if spec else (assertion.name if assertion else None),
                "args": sorted((k, plain(x)) for k, x in v.args.items()),
                "times": getattr(v, "times", 1), "when": plain(getattr(v, "when", None)),
                "missing": [plain(m) for m in (getattr(v, "missing", ()) or ())],
                "alternatives": [plain(a) for a in (getattr(v, "alternatives", ()) or ())],
                "steps": [plain(s) for s in (v.steps or [])] if getattr(v, "steps", None) is not None else None}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, (set, frozenset)):
        return sorted(plain(x) for x in v)
    if isinstance(v, dict):
        return sorted((str(k), plain(x)) for k, x in v.items())
    if v is None or isinstance(v, (int, float, bool)):
        return v
    return str(v)

out = {}
for folder in (corpus.DEVELOPMENT, corpus.HELDOUT):
    for m in corpus.load(folder):
        readings = corpus.read(m)
        out[folder.name + "/" + m.id] = (to_json(readings) if to_json is not None
                                         else json.dumps(plain(readings), sort_keys=True))
json.dump(out, sys.stdout, sort_keys=True)
"""


def _readings_under(seed: str) -> dict:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    tests = pathlib.Path(__file__).parent
    done = subprocess.run([sys.executable, "-c", _DUMP, str(tests)], env=env, capture_output=True,
                          text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_both_corpora_read_the_same_under_any_hash_seed():
    first, second = _readings_under("1"), _readings_under("4242")
    assert len(first) >= 250 + 300, "both corpora are read"
    # message ids only: the held-out messages are never shown (they are input text here)
    assert sorted(k for k in first if first[k] != second.get(k)) == []
    assert first.keys() == second.keys()
