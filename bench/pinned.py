"""What pinning readings costs, and what a replay from pins saves: the corpus
(tests/corpus/*.txt) read by the reader, written as pinned JSON and read back.

    python bench/pinned.py [--rounds N]

Prints, per message: reading it (grammar.read, as the first processing and a
replay before pinning did), writing its readings as canonical JSON
(pinned.to_json, once per mail), reading that JSON back (pinned.from_json,
what every replay now does instead of reading), and the stored size.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bnomic.handlers import grammar, pinned  # noqa: E402  (registers every action)
from bnomic.mailer.parse import own_words  # noqa: E402
from parse import corpus_bodies  # noqa: E402


def rate(label: str, n: int, fn) -> float:
    start = time.perf_counter()
    fn()
    elapsed = time.perf_counter() - start
    print(f"  {label:<28} {n / elapsed:>10,.0f} messages/s  ({elapsed / n * 1e6:,.0f} µs each)")
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    texts = [own_words(b) for b in corpus_bodies()]
    if not texts:
        sys.exit("no corpus found under tests/corpus")
    read = [grammar.read(t) for t in texts]
    stored = [pinned.to_json(r) for r in read]
    assert [pinned.from_json(s) for s in stored] == read, "a reading did not come back as it went"
    n = len(texts) * args.rounds
    print(f"bnomic pinned-readings benchmark: {len(texts)} corpus messages x {args.rounds} rounds, "
          f"Python {sys.version.split()[0]}, reader version {grammar.READER_VERSION}")
    t_read = rate("grammar.read", n, lambda: [grammar.read(t) for _ in range(args.rounds) for t in texts])
    rate("pinned.to_json", n, lambda: [pinned.to_json(r) for _ in range(args.rounds) for r in read])
    t_back = rate("pinned.from_json", n, lambda: [pinned.from_json(s) for _ in range(args.rounds)
                                                  for s in stored])
    size = sum(len(s.encode()) for s in stored)
    print(f"  stored JSON: {size:,} bytes for {len(stored)} messages = {size / len(stored):,.0f} bytes "
          f"each; a replay reads pins {t_read / t_back:,.1f} times faster than it read the text")


if __name__ == "__main__":
    main()
