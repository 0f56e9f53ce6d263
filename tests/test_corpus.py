"""Issue 4: a corpus of real-world-style messages, each with the actions it
must yield, read as bnomic reads mail: the sender's own words (no quotes,
signature or Comment Text), then the grammar.

tests/corpus/*.txt hold the cases:

    === a short name for the case
    the message body, as a player would write it
    (quoted lines, signatures and all)
    --- expect
    give(amount=m10, player=Wooble)
    give(amount=m1, player=Ais523) x3
    submit_proposal(document=Title: X / Repeal Rule 4E60)   <- a document's lines joined by " / "
    at nday:8 forfeit()
    transaction[give(amount=m5, player=Bob); assert has_currency(amount=m40, op=at least, who=I)]
    ?                        <- a sentence reported as not understood
    (nothing after "--- expect": the message yields nothing)

Arguments are written as the grammar captures them (stripped), sorted by name.
"""
from __future__ import annotations

import pathlib

import pytest

from bnomic.handlers import grammar
from bnomic.mailer.parse import own_words

CORPUS = pathlib.Path(__file__).parent / "corpus"


def render(r: grammar.Reading) -> str:
    if r.kind == "transaction":
        return "transaction[" + "; ".join(render(s) for s in r.steps) + "]"
    if r.kind == "unknown":
        return "?"
    if r.kind == "ambiguous":
        return "ambiguous[" + " | ".join(r.alternatives) + "]"
    args = ", ".join(f"{k}={' / '.join(str(v).splitlines())}" for k, v in sorted(r.args.items()))
    name = f"assert {r.assertion.name}" if r.kind == "assertion" else r.spec.name
    out = f"{name}({args})"
    if r.kind == "incomplete":
        out = f"incomplete {out} missing={','.join(r.missing)}"
    if r.times > 1:
        out += f" x{r.times}"
    if r.when is not None:
        when = r.when.nday if r.when.kind == "nday" else (
            r.when.at.strftime("%Y-%m-%dT%H:%M") if r.when.kind == "utc" else "")
        out = f"at {r.when.kind}:{when} {out}" if when != "" else f"at {r.when.kind} {out}"
    return out


def load_cases():
    cases = []
    for path in sorted(CORPUS.glob("*.txt")):
        for block in path.read_text(encoding="utf-8").split("\n=== ")[0:]:
            block = block[4:] if block.startswith("=== ") else block
            if not block.strip():
                continue
            name, _, rest = block.partition("\n")
            body, sep, expect = rest.rpartition("\n--- expect\n")
            assert sep, f"{path.name}: case {name!r} has no '--- expect' line"
            lines = [line.strip() for line in expect.strip("\n").splitlines() if line.strip()]
            cases.append(pytest.param(body, lines, id=f"{path.stem}:{name.strip()}"))
    return cases


CASES = load_cases()


def yields(body: str) -> list[str]:
    return [render(r) for r in grammar.read(own_words(body))]


@pytest.mark.parametrize("body, expected", CASES)
def test_corpus(body, expected):
    assert yields(body) == expected


def test_the_corpus_is_big_enough():
    assert len(CASES) >= 150
