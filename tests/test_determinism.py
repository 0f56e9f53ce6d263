"""Invariants 3 and 4: game logic never reads the wall clock or unseeded chance."""
import pathlib
import re

HANDLERS = pathlib.Path(__file__).parent.parent / "bnomic" / "handlers"
FORBIDDEN = [r"datetime\.now", r"datetime\.utcnow", r"\btime\.time\(", r"date\.today",
             r"random\.(random|choice|shuffle|randint|sample)\(", r"\bimport socket",
             r"smtplib", r"os\.urandom", r"secrets\."]


def test_handlers_do_not_read_the_wall_clock_or_unseeded_chance():
    for path in HANDLERS.glob("*.py"):
        text = path.read_text()
        for pattern in FORBIDDEN:
            assert not re.search(pattern, text), f"{path.name} uses {pattern}"
