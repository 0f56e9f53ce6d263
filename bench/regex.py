"""Which regular expressions in bnomic backtrack super-linearly, found by
measurement: every compiled pattern bnomic holds (module-level patterns, the
lists and tables of them, every action's and assertion's phrasing in the
registry, the change language's phrasings, and the literal patterns written
inline as re.search(r"...", ...)) is run against adversarial strings of
growing length, and the growth of its time is reported.

    python bench/regex.py [--max-len N] [--only SUBSTRING] [--all]

A pattern is reported when doubling the input more than triples its time
(linear work doubles it) or when one run takes over --limit seconds. Each
measurement runs in a child process that is killed after --timeout seconds:
Python's `re` cannot be interrupted while it backtracks.
"""
from __future__ import annotations

import argparse
import ast
import importlib
import math
import multiprocessing as mp
import pathlib
import pkgutil
import re
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _registrar_line(n: int) -> str:
    # the Registrar's display (templates/players.txt): names padded to 20 columns
    row = "%-20s %7d %9s  %-6s %-6s  %s" % ("Wooble", 12, "m50", "yes", "no", "wooble@example.org")
    return "\n".join([row] * max(1, n // len(row)))


# name -> f(n): a string of about n characters built to make a backtracking
# pattern try every way of cutting it; most end in something no phrasing
# accepts ("!?" after the run, a stray "x"), so a match must fail late.
FAMILIES = {
    "spaces": lambda n: "I give m5 to " + " " * n + "x!?",
    "spaces-bare": lambda n: " " * n + "x",
    "tabs": lambda n: "I give\t" + "\t" * n + "!?",
    "commas": lambda n: "I give " + "," * n + "x",
    "comma-space": lambda n: "I give m5 to A" + ", " * (n // 2) + "!?",
    "and": lambda n: "I give m5 to A" + " and" * (n // 4) + " x!?",
    "quotes": lambda n: 'I submit "' + '"' * n + "x",
    "quote-words": lambda n: 'I name "' + 'a "' * (n // 3) + "x",
    "i-give": lambda n: "I give " * (n // 7) + "!?",
    "words": lambda n: "I give " + "wooble " * (n // 7) + "to!?",
    "dots": lambda n: "I give" + ". " * (n // 2) + "x",
    "comment": lambda n: "/*" * (n // 2) + "x",
    "wiki": lambda n: "[[" * (n // 2) + "x",
    "digits": lambda n: "I give " + "1" * n + " times!?",
    "letters": lambda n: "i" * n + "!?",
    "registrar": _registrar_line,
    "with-objections": lambda n: "having received no objections " * (n // 31) + "x",
    "on-nday": lambda n: "On nday 8 " * (n // 10) + "I give!?",
}


def _inline_patterns() -> list[tuple[str, str, int]]:
    """(where, pattern text, flags) for every re.<fn>(r"literal", ...) in bnomic."""
    out = []
    for path in sorted((ROOT / "bnomic").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                    and node.func.attr in ("search", "match", "fullmatch", "sub", "subn", "split",
                                           "findall", "finditer")
                    and node.args and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                flags = re.I if any(isinstance(a, ast.Attribute) and a.attr in ("I", "IGNORECASE")
                                    for a in ast.walk(node)) else 0
                out.append((f"{path.relative_to(ROOT)}:{node.lineno} re.{node.func.attr}",
                            node.args[0].value, flags, _MODE[node.func.attr]))
    return out


# how a pattern is used decides what to time: a scan (search, sub, split, findall)
# tries every start position; match and fullmatch try one
_MODE = {"search": "scan", "sub": "scan", "subn": "scan", "split": "scan", "findall": "scan",
         "finditer": "scan", "match": "match", "fullmatch": "fullmatch"}


# patterns reached through another name: grammar's _WHEN is used as `before.match`, `after.fullmatch`
_USED_AS = {"_WHEN": "match"}


def _uses(name: str) -> str:
    """How bnomic's source uses the pattern held in `name` (the widest use)."""
    if name in _USED_AS:
        return _USED_AS[name]
    found = set()
    for path in (ROOT / "bnomic").rglob("*.py"):
        found |= set(re.findall(r"\b" + re.escape(name) + r"\.(\w+)\(", path.read_text(encoding="utf-8")))
    modes = {_MODE[f] for f in found if f in _MODE}
    return "scan" if "scan" in modes or not modes else ("match" if "match" in modes else "fullmatch")


def _walk(value, where: str, seen: set, out: list, mode: str):
    if isinstance(value, re.Pattern):
        if id(value) not in seen:
            seen.add(id(value))
            out.append((where, value.pattern, value.flags, mode))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _walk(v, f"{where}[{i}]", seen, out, mode)
    elif isinstance(value, dict):
        for k, v in value.items():
            _walk(v, f"{where}[{k!r}]", seen, out, mode)


def all_patterns() -> list[tuple[str, str, int]]:
    """Every pattern in bnomic: (where, pattern text, flags)."""
    import bnomic
    for mod in pkgutil.walk_packages(bnomic.__path__, "bnomic."):
        importlib.import_module(mod.name)
    from bnomic.handlers.registry import ACTIONS, ASSERTIONS
    seen: set = set()
    out: list = []
    for name, mod in sorted(sys.modules.items()):
        if name.startswith("bnomic"):
            for attr, value in vars(mod).items():
                if isinstance(value, (re.Pattern, list, tuple, dict)):
                    _walk(value, f"{name}.{attr}", seen, out, _uses(attr))
    assert ACTIONS      # actions are read by frames (handlers/frames.py), not patterns
    for spec in ASSERTIONS:
        _walk(spec.patterns, f"assertion {spec.name}", seen, out, "fullmatch")
    texts = {(p, f) for _, p, f, _ in out}
    out += [x for x in _inline_patterns() if (x[1], x[2]) not in texts]
    return out


def _time(pattern: re.Pattern, mode: str, text: str) -> float:
    start = time.perf_counter()
    if mode == "scan":
        list(pattern.finditer(text))    # search, sub, split and findall scan like this
    else:
        getattr(pattern, mode)(text)
    return time.perf_counter() - start


def _worker(tasks, conn, lengths, limit):
    for index, (pattern_text, flags, mode, family) in tasks:
        pattern = re.compile(pattern_text, flags)
        make = FAMILIES[family]
        times = []
        for n in lengths:
            t = min(_time(pattern, mode, make(n)) for _ in range(3))
            times.append((n, t))
            conn.send(("partial", index, times))
            if t > limit:
                break
        conn.send(("done", index, times))
    conn.send(("end", None, None))


def measure(patterns, families, lengths, limit, timeout):
    tasks = [(i, (p, f, m, fam)) for i, (_, p, f, m) in enumerate(patterns) for fam in families]
    results: dict[tuple[int, str], list] = {}
    pos = 0
    while pos < len(tasks):
        parent, child = mp.Pipe()
        proc = mp.Process(target=_worker, args=(tasks[pos:], child, lengths, limit), daemon=True)
        proc.start()
        while True:
            if not parent.poll(timeout):
                index, (_, _, _, fam) = tasks[pos]
                results[(index, fam)] = results.get((index, fam), []) + [("timeout", timeout)]
                proc.kill()
                proc.join()
                pos += 1
                break
            kind, index, times = parent.recv()
            if kind == "end":
                proc.join()
                pos = len(tasks)
                break
            fam = tasks[pos][1][3]
            results[(index, fam)] = times
            if kind == "done":
                pos += 1
    return results


def growth(times) -> float:
    """Time ratio of the two longest measured inputs, per doubling."""
    good = [(n, t) for n, t in times if n != "timeout"]
    if any(n == "timeout" for n, _ in times):
        return float("inf")
    if len(good) < 2:
        return 1.0
    (n1, t1), (n2, t2) = good[-2], good[-1]
    if t2 < 2e-3:            # too fast to tell on a busy machine
        return 1.0
    return (t2 / max(t1, 1e-9)) ** (1 / max(1.0, math.log2(n2 / n1)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-len", type=int, default=8000)
    ap.add_argument("--limit", type=float, default=0.05, help="seconds: stop growing after this")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds: kill a measurement")
    ap.add_argument("--only", default="", help="only patterns whose place contains this")
    ap.add_argument("--all", action="store_true", help="print every pattern, not only slow ones")
    args = ap.parse_args()
    patterns = [p for p in all_patterns() if args.only in p[0]]
    lengths, n = [], 125
    while n <= args.max_len:
        lengths.append(n)
        n *= 2
    results = measure(patterns, list(FAMILIES), lengths, args.limit, args.timeout)
    slow = 0
    print(f"{len(patterns)} patterns x {len(FAMILIES)} families, lengths {lengths[0]}..{lengths[-1]}")
    for i, (where, text, _, mode) in enumerate(patterns):
        worst = max(((growth(results[(i, fam)]), fam) for fam in FAMILIES), key=lambda x: x[0])
        longest = max((results[(i, fam)][-1] for fam in FAMILIES), key=lambda x: x[1])
        bad = worst[0] > 3.0 or longest[1] > args.limit
        slow += bad
        if bad or args.all:
            print(f"{'SLOW' if bad else 'ok  '} x{worst[0]:.1f}/doubling on {worst[1]:<16} "
                  f"worst {longest[1]:.4f}s at {longest[0]} chars  {where} ({mode})")
            if bad:
                print(f"      {text[:160]}")
    print(f"{slow} slow pattern(s)")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
