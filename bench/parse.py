"""How fast bnomic reads actions: the corpora read over and over, as mail is read
(the sender's own words, then the reader), with the vocabulary of a game of six
players, eleven ministries and open proposals.

    python bench/parse.py [--rounds N]

Prints messages, sentences and readings per second, on one core. The corpora are
tests/corpus (old development set), tests/reader (development set) and
tests/heldout (the held-out set, read here only as input text: never tuned on).
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bnomic.config import Config, defaults  # noqa: E402
from bnomic.handlers import grammar  # noqa: E402  (registers every action)
from bnomic.handlers.ministries import aliases  # noqa: E402
from bnomic.handlers.vocabulary import Vocabulary  # noqa: E402
from bnomic.mailer.parse import own_words  # noqa: E402

CORPORA = ("tests/corpus", "tests/reader", "tests/heldout")


def corpus_bodies() -> list[str]:
    bodies = []
    for folder in CORPORA:
        for path in sorted((ROOT / folder).glob("*.txt")):
            text = path.read_text(encoding="utf-8")
            for block in text.split("\n=== "):
                head, sep, rest = block.partition("\n---\n")
                if sep:
                    bodies.append(rest.partition("\n--- expect")[0])
                elif "--- expect" in block:
                    body = block.partition("\n")[2].rpartition("\n--- expect\n")[0]
                    bodies.append(body)
    return [b for b in bodies if b.strip()]


def vocabulary() -> Vocabulary:
    return Vocabulary(
        players=("Alice", "Bob", "Chuck", "Wooble", "Ais523", "Dana", "The Beast"), actor="Wooble",
        beast="The Beast", ministries=aliases(Config(defaults())),
        holders={"Change": "Alice", "Society": "Bob", "Questions": "Chuck"},
        proposals={n: (f"Proposal {n}", "Bob") for n in range(10, 18)},
        intents={3: "Wooble", 4: "Alice"}, tweaks={3: "Bob"}, refresh={1: "Alice", 2: "Bob", 3: "Chuck"},
        consultations=(5, 6), indictments=(2,))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    bodies = [own_words(b) for b in corpus_bodies()]
    if not bodies:
        sys.exit("no corpus found")
    vocab = vocabulary()
    sentences = sum(len(list(grammar.sentences(b))) for b in bodies)
    readings = sum(len(grammar.read(b, vocab)) for b in bodies)
    start = time.process_time()       # CPU time of this process: one core, whatever else runs
    for _ in range(args.rounds):
        for body in bodies:
            grammar.read(body, vocab)
    elapsed = time.process_time() - start
    messages = len(bodies) * args.rounds
    print(f"bnomic parse benchmark: {len(bodies)} messages ({sentences} sentences) x {args.rounds} "
          f"rounds, Python {sys.version.split()[0]}, one core")
    print(f"  {messages / elapsed:,.0f} messages/s")
    print(f"  {sentences * args.rounds / elapsed:,.0f} sentences/s")
    print(f"  {readings * args.rounds / elapsed:,.0f} readings/s ({readings} per round)")


if __name__ == "__main__":
    main()
