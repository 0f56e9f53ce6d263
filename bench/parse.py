"""How fast bnomic reads actions: the corpus (tests/corpus/*.txt) read over and
over, as mail is read: the sender's own words, then the grammar.

    python bench/parse.py [--rounds N]

Prints messages and actions (readings) parsed per second.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bnomic.handlers import grammar  # noqa: E402  (registers every action)
from bnomic.mailer.parse import own_words  # noqa: E402


def corpus_bodies() -> list[str]:
    bodies = []
    for path in sorted((ROOT / "tests" / "corpus").glob("*.txt")):
        for block in path.read_text(encoding="utf-8").split("\n=== "):
            block = block[4:] if block.startswith("=== ") else block
            if block.strip():
                body = block.partition("\n")[2].rpartition("\n--- expect\n")[0]
                bodies.append(body)
    return bodies


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=50)
    args = ap.parse_args()
    bodies = corpus_bodies()
    if not bodies:
        sys.exit("no corpus found under tests/corpus")
    readings = sum(len(grammar.read(own_words(b))) for b in bodies)
    start = time.perf_counter()
    for _ in range(args.rounds):
        for body in bodies:
            grammar.read(own_words(body))
    elapsed = time.perf_counter() - start
    messages = len(bodies) * args.rounds
    print(f"bnomic parse benchmark: {len(bodies)} corpus messages x {args.rounds} rounds, "
          f"Python {sys.version.split()[0]}")
    print(f"  {messages} messages in {elapsed:.2f} s = {messages / elapsed:,.0f} messages/s")
    print(f"  {readings * args.rounds} actions/readings = {readings * args.rounds / elapsed:,.0f} "
          f"readings/s ({readings} per round)")


if __name__ == "__main__":
    main()
