"""A ruleset in the seed file's format: "## Section", "### Rule 4E14: NTime",
text. Plain data handling, shared by the game (handlers/rules.py) and the
schema migrations."""
from __future__ import annotations

import re
from importlib import resources

SEED = "b-nomic-2008-08-27.txt"
_HEADING = re.compile(r"^(?:###\s+)?Rule\s+4E(?P<n>\d+)\s*:\s*(?P<title>.+?)\s*$")


def seed_ruleset() -> str:
    return resources.files("bnomic").joinpath("rulesets", SEED).read_text("utf-8")


def parse(text: str) -> list[dict]:
    """[{number, title, section, text}] in the order of the file. A "Rule 4E28: ..."
    line without ### starts a rule too (the seed's markdown glitch inside 4E19)."""
    rules, section, current = [], "", None
    for line in text.splitlines():
        if line.startswith("## ") and not line.startswith("###"):
            section = line[3:].strip()
            continue
        m = _HEADING.match(line)
        if m:
            current = {"number": int(m.group("n")), "title": m.group("title"), "section": section,
                       "lines": []}
            rules.append(current)
        elif current is not None:
            current["lines"].append(line)
    for r in rules:
        r["text"] = "\n".join(r.pop("lines")).strip()
    return rules


def rows(text: str, at) -> list[dict]:
    """The Rule rows a game starts with: each rule with the default Power 1/2 (4E75)."""
    return [{**r, "history": [{"at": at.isoformat(), "what": "in the initial ruleset"}]}
            for r in parse(text)]
