"""Issue 13: README's "What players write" is a guide, and its examples stay true. Every
example in its table that is a whole sentence ("I ...", not a form field, a header before
a document or an END line) reads as an action, as the table says; the rest of the guide's
readings are held by the reader's own tests (tests/test_reader_*.py)."""
import re
from pathlib import Path

import pytest

import bnomic.handlers.engine  # noqa: F401  (registers every action)
from bnomic.handlers import grammar

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()
GUIDE = README[README.index("## What players write"):README.index("\n## ", README.index("## What players write") + 1)]


def examples() -> list[tuple[str, str]]:
    out = []
    for line in GUIDE.splitlines():
        if not line.startswith("| ") or line.startswith(("| action", "| ---")):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        out += [(cells[0], e) for e in re.findall(r"`([^`]+)`", cells[1])
                if e.startswith("I ") and not e.rstrip().endswith((":", "…"))]
    return out


EXAMPLES = examples()


def test_the_guide_has_its_table():
    assert len(EXAMPLES) > 50, "README's guide lost its table of examples"


@pytest.mark.parametrize("action, text", EXAMPLES, ids=[t for _, t in EXAMPLES])
def test_each_sentence_the_guide_shows_reads_as_an_action(action, text):
    got = grammar.read(text)
    assert got and got[0].kind in ("action", "transaction"), (action, text, [(r.kind, r.error) for r in got])
