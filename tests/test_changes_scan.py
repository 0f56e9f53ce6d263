"""changes._scan (issue 16: it jumps from one opening to the next instead of
stepping through every character) reads a body as the character-by-character
scan before it did: the same skeleton and literals for every body, on bodies
made of the characters it cares about (Rule 4E5's Comment Text, {{ }} blocks,
quotation marks, line comments, line ends) and on the repository's own text."""
from __future__ import annotations

import random
from pathlib import Path

from bnomic.handlers import changes
from bnomic.handlers.changes import _BLOCK, _COMMENTS, _LINE_COMMENT, _QUOTE, _QUOTES, _quote_end


def stepwise(body: str):
    """The scan as it was: one character at a time."""
    out, literals, i, line_start = [], [], 0, True
    while i < len(body):
        if line_start and _LINE_COMMENT.match(body, i):
            end = body.find("\n", i)
            i = len(body) if end < 0 else end
            continue
        two, one = body[i:i + 2], body[i]
        closing = "}}" if two == "{{" else _COMMENTS.get(two)
        end = body.find(closing, i + 2) if closing else -1
        if closing and end >= 0:
            if two == "{{":
                literals.append(("{{", body[i + 2:end], "}}"))
                out.append(_BLOCK.format(len(literals) - 1))
            else:
                out.append(" ")
            i, line_start = end + 2, False
            continue
        if one in _QUOTES and (end := _quote_end(body, i + 1, _QUOTES[one])) >= 0:
            literals.append((one, body[i + 1:end], body[end]))
            out.append(_QUOTE.format(len(literals) - 1))
            i, line_start = end + 1, False
            continue
        out.append(one)
        line_start = one == "\n" or (line_start and one in " \t")
        i += 1
    return "".join(out), literals


PIECES = ["{", "}", "{{", "}}", "/", "*", "/*", "*/", "[", "]", "[[", "]]", '"', "“", "”", "#", "//",
          " ", "\t", "\n", "a", "Set the points of Bob to 3", ".", ";", "  #", "\n#", "\n  //", "\n\n"]


def test_the_scan_reads_as_the_stepwise_scan():
    rng = random.Random("scan")
    for _ in range(20000):
        body = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 30)))
        assert changes._scan(body) == stepwise(body), repr(body)


def test_the_scan_reads_the_repositorys_text_as_the_stepwise_scan():
    root = Path(__file__).resolve().parent.parent
    texts = [p.read_text(encoding="utf-8") for p in sorted(root.glob("examples/**/*")) + sorted(root.glob("docs/*.md"))
             if p.is_file()]
    assert texts
    for text in texts:
        assert changes._scan(text) == stepwise(text)
