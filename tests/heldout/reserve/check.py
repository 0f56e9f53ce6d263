"""Check and count the reserve with tests/heldout/tally.py's own logic.

    python3 tests/heldout/reserve/check.py [--markdown]

tally.py's default glob (tests/heldout/*.txt) does not reach this folder,
so the reserve is never part of the scored held-out set while it sits here.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import tally  # noqa: E402

_load = tally.load
tally.load = lambda pattern=os.path.join(HERE, "*.txt"): _load(pattern)

if __name__ == "__main__":
    sys.exit(tally.main())
