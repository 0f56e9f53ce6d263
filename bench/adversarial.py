"""Seconds per adversarial message: each body of tests/test_adversarial.py's
ADVERSARIAL (long runs of spaces, tabs, commas, " and", quotes, unclosed
comments, a 100 kB line, the Registrar's display echoed, ...) read as the
engine reads mail: the sender's own words, then the grammar, within the
default step budget ([limits] in defaults.toml).

    python bench/adversarial.py [--rounds N]

Prints, per message, its size, the steps spent (or "over budget"), and the
best and median seconds over the rounds. The target: every one well under
100 ms.
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from bnomic.config import defaults  # noqa: E402
from bnomic.handlers import budget, grammar  # noqa: E402
from bnomic.mailer.parse import own_words  # noqa: E402
from test_adversarial import ADVERSARIAL  # noqa: E402

LIMITS = defaults()["limits"]

# heavier messages than the tests need, and an ordinary big one to compare
EXTRA = {
    "trailing-spaces-x50": (ADVERSARIAL["trailing-spaces"] + "\n") * 50,
    "near-misses-100": "\n".join(f"I giev m{i} to Wooble and some more words to make it long." for i in range(100)),
    "ordinary-300": "\n".join([f"I vote FOR {i}." for i in range(100)]
                               + [f"I think proposal {i} is a good idea, and we should all vote for it."
                                  for i in range(100)] + [f"I give m{i} to Wooble." for i in range(100)]),
}


def read_once(text: str) -> tuple[float, int, bool]:
    start = time.perf_counter()
    over = False
    try:
        with budget.bounded(LIMITS["read_steps"]) as b:
            grammar.read(own_words(text), max_line=LIMITS["max_line"])
    except budget.OverBudget:
        over = True
    return time.perf_counter() - start, b.spent, over


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    print(f"bnomic adversarial reading: {len(ADVERSARIAL)} messages x {args.rounds} rounds, "
          f"read_steps {LIMITS['read_steps']:,}, max_line {LIMITS['max_line']}, "
          f"Python {sys.version.split()[0]}")
    worst = 0.0
    for name, text in sorted(ADVERSARIAL.items()) + list(EXTRA.items()):
        runs = [read_once(text) for _ in range(args.rounds)]
        times = [t for t, _, _ in runs]
        _, steps, over = runs[0]
        worst = max(worst, min(times))
        print(f"  {name:<18} {len(text):>8,} chars  {steps:>11,} steps{' (over budget)' if over else '':<14}"
              f"  best {min(times) * 1000:8.2f} ms  median {statistics.median(times) * 1000:8.2f} ms")
    print(f"  slowest (best of rounds): {worst * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
