"""Whether the reader still reads the corpora as it did: a count and a hash of the
readings per corpus, for work on the reader's speed that must change no reading.

    python bench/readings_hash.py [--save NOW.json] [--diff OLD.json]

Reads every message of tests/corpus, tests/reader and tests/heldout as bench/parse.py
does (the sender's own words, the same vocabulary of a game of six players), and also
with no vocabulary (names taken as written), and prints per corpus the messages, the
readings and a hash of the readings (pinned.to_json: actions, arguments, near-misses,
errors, suggestions, alternatives...). With --save, the per-message hashes go to a
JSON file; with --diff OLD.json, the ids of the messages ("reader/01-votes.txt:d0101")
whose reading changed since that file. The held-out messages (tests/heldout) are never
printed, nor their readings: only their ids, so that no one tunes the reader on them.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bnomic.handlers import grammar  # noqa: E402  (registers every action)
from bnomic.handlers.pinned import to_json  # noqa: E402
from bnomic.mailer.parse import own_words  # noqa: E402

# bench/parse.py's corpora and vocabulary, loaded by path (bench/ holds a profile.py
# that would shadow the standard library's if bench/ were put on the path)
_spec = importlib.util.spec_from_file_location("bench_parse", ROOT / "bench" / "parse.py")
bench_parse = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_parse)


def messages() -> list[tuple[str, str, str]]:
    """(corpus, id, body) for every message, cut as bench/parse.corpus_bodies cuts them."""
    out = []
    for folder in bench_parse.CORPORA:
        corpus = folder.split("/")[-1]
        for path in sorted((ROOT / folder).glob("*.txt")):
            text = path.read_text(encoding="utf-8")
            for k, block in enumerate(text.split("\n=== ")):
                head, sep, rest = block.partition("\n---\n")
                name = head.partition("\n")[0].strip() if k else f"#{k}"
                if sep:
                    body = rest.partition("\n--- expect")[0]
                elif "--- expect" in block:
                    body = block.partition("\n")[2].rpartition("\n--- expect\n")[0]
                else:
                    continue
                if body.strip():
                    out.append((corpus, f"{corpus}/{path.name}:{name}#{k}", body))
    return out


def hashes() -> tuple[dict[str, dict[str, str]], dict[str, int]]:
    """corpus -> message id -> hash of its readings (with the bench's vocabulary, and with
    none), and corpus -> how many readings (with the vocabulary)."""
    vocab = bench_parse.vocabulary()
    out: dict[str, dict[str, str]] = {}
    count: dict[str, int] = {}
    for corpus, mid, body in messages():
        words = own_words(body)
        got = grammar.read(words, vocab)
        said = to_json(got) + "\n" + to_json(grammar.read(words))
        out.setdefault(corpus, {})[mid] = hashlib.sha256(said.encode()).hexdigest()[:16]
        count[corpus] = count.get(corpus, 0) + len(got)
    return out, count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--save", help="write the per-message hashes to this JSON file")
    ap.add_argument("--diff", help="print the ids of messages whose reading differs from this file's")
    args = ap.parse_args()
    now, count = hashes()
    expected = len(bench_parse.corpus_bodies())
    got = sum(len(v) for v in now.values())
    if got != expected:
        sys.exit(f"cut {got} messages, bench/parse.py reads {expected}")
    for corpus, table in now.items():
        whole = hashlib.sha256("".join(f"{k}={v}\n" for k, v in sorted(table.items())).encode())
        print(f"{corpus:8} {len(table):5} messages {count[corpus]:5} readings  {whole.hexdigest()[:16]}")
    if args.save:
        pathlib.Path(args.save).write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
    if args.diff:
        old = json.loads(pathlib.Path(args.diff).read_text())
        changed = [mid for corpus in sorted(set(now) | set(old))
                   for mid in sorted(set(now.get(corpus, {})) | set(old.get(corpus, {})))
                   if now.get(corpus, {}).get(mid) != old.get(corpus, {}).get(mid)]
        for mid in changed:
            print("changed:", mid)
        print(f"{len(changed)} messages read differently")
        sys.exit(1 if changed else 0)


if __name__ == "__main__":
    main()
