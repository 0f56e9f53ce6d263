"""Parse and check the held-out mail set, and count it.

    python3 tests/heldout/tally.py            # counts per action and per kind
    python3 tests/heldout/tally.py --markdown # the same as Markdown tables

This script only reads tests/heldout/*.txt; it knows nothing of bnomic.
A scoring test can import `load()` to get the messages and `parse_line()`
to turn an expectation line into (action, roles).
"""
import glob
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))

# action -> (required roles, optional roles).  `times` is optional on every action.
ACTIONS = {
    # 4E4 / 4E28 players
    "join": (["name"], ["recruiters"]),
    "forfeit": ([], []),
    "add-address": (["address"], []),
    "remove-address": (["address"], []),
    "deactivate": (["player"], []),
    # 4E33 / 4E34 / 4E68 / 4E70 money, socks, contracts
    "give": (["amount", "to"], []),
    "exchange": (["points"], []),
    "transfer-sock": (["color", "to"], []),
    "create-contract": (["body"], []),
    "bind-contract": (["contract"], []),
    # 4E21 / 4E22 dependent actions
    "intend": (["action"], ["objections", "supporters"]),
    "object": (["intent"], []),
    "support": (["intent"], []),
    "withdraw-objection": (["intent"], []),
    "withdraw-support": (["intent"], []),
    "withdraw-intent": (["intent"], []),
    "act-on-intent": (["intent", "action"], []),
    # 4E71 the Beast
    "beast": (["action"], []),
    "reinforce-trick": ([], []),
    "punish-trick": ([], []),
    "teach-trick": (["trick"], ["timing"]),
    "select-trick": (["trick"], []),
    # 4E45-4E53 ministries, 4E14 clock, 4E39 motnw, 4E40 flag, 4E82 subgames
    "assign-ministry": (["ministry", "reward"], []),
    "resign": (["ministry"], []),
    "revise-reward": (["ministry", "reward"], []),
    "usurp": (["ministry", "reward"], []),
    "delegate": (["ministry", "to", "powers", "contract"], []),
    "remove-minister": (["ministry"], []),
    "clock": (["state"], []),
    "challenge": (["display", "errors"], []),
    "answer-challenge": (["challenge"], []),
    "approve-display": (["display"], []),
    "set-motnw": (["message"], []),
    "threat-flag": (["value"], []),
    "open-subgame": (["subgame"], []),
    # 4E15 / 4E69 proposals
    "submit-proposal": (["body"], ["title", "conflicts", "dependencies"]),
    "revise-proposal": (["proposal", "body"], ["title"]),
    "withdraw-proposal": (["proposal"], []),
    "number-proposal": (["proposal", "number"], []),
    "vote": (["choice", "proposal"], []),
    "publish-ballot": (["ballot"], []),
    "publish-results": (["results"], []),
    "proposal-color": (["proposal", "color"], []),
    # 4E7 scheduling, 4E12 transactions
    "schedule": (["at", "action"], []),
    "cancel-scheduled": (["ref"], []),
    "begin-transaction": ([], ["end"]),
    "assert": (["text"], []),
    "end-transaction": ([], []),
    # 4E77 tweaks, 4E32 tidiness, 4E36 titles
    "submit-tweak": (["body"], []),
    "activate-tweak": (["tweak"], []),
    "submit-tidiness-list": (["body"], []),
    "retitle": (["rule", "title"], []),
    # 4E18 consultations
    "submit-consultation": (["question"], ["reasoning", "unbeliever"]),
    "ordain": ([], []),
    "unordain": ([], []),
    "assign-priest": (["consultation", "priest"], ["number"]),
    "zot": (["consultation"], []),
    "request-zot": (["consultation"], []),
    "answer-consultation": (["consultation", "answer"], ["reasoning", "oracularity"]),
    "claim": (["consultation", "verdict"], []),
    "tally-claims": (["consultation"], []),
    # 4E72 / 4E73 indictments
    "submit-indictment": (["accusation", "example", "offender", "tidbit"], ["reasoning"]),
    "select-jury": (["indictment", "jury"], []),
    "verdict": (["indictment", "answer"], []),
    "assign-punishment": (["indictment"], ["fine", "punishment"]),
    "pay-fine": (["amount"], []),
    # 4E0 emergencies
    "mental-state": (["state"], []),
    "designate-forum": (["forum"], []),
    "initialize-pause": ([], []),
    "increment-pause": ([], []),
    "submit-refresh": (["body"], []),
    "revise-refresh": (["refresh", "body"], []),
    "withdraw-refresh": (["refresh"], []),
    "publish-refresh-ballot": (["ballot"], []),
    "rank-refresh": (["ranking"], []),
    "tally-refresh": (["result"], []),
    "start-procedure": ([], []),
}
STRUCTURAL = {"begin-transaction", "end-transaction", "assert"}
CONTEXTS = {"emergency", "emergency-start", "emergency-ballot", "emergency-tally",
            "voting-start", "results", "judge-bob", "fined"}
PLAYERS = {"Alice", "Bob", "Chuck", "Wooble", "Ais523", "Dana"}


class Message:
    def __init__(self, mid, headers, body, expect, path):
        self.id, self.headers, self.body, self.expect, self.path = mid, headers, body, expect, path

    @property
    def kinds(self):
        k = set()
        if self.expect == ["nothing"]:
            k.add("chatter")
        if any(e.startswith("ambiguous:") for e in self.expect):
            k.add("ambiguous")
        if any(e.startswith("incomplete:") for e in self.expect):
            k.add("incomplete")
        acts = [e for e in self.expect if not e.startswith(("ambiguous:", "incomplete:", "nothing"))
                and parse_line(e)[0] not in STRUCTURAL]
        if acts:
            k.add("action")
        if len(acts) + sum(e.startswith(("ambiguous:", "incomplete:")) for e in self.expect) >= 2:
            k.add("several")
        if any(e.startswith("begin-transaction") for e in self.expect):
            k.add("transaction")
        return k


def load(pattern=os.path.join(HERE, "*.txt")):
    msgs = []
    for path in sorted(glob.glob(pattern)):
        msgs.extend(parse(open(path, encoding="utf-8").read(), os.path.basename(path)))
    return msgs


def parse(text, name=""):
    """The messages of one file's text."""
    msgs = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("=== "):
            i += 1
            continue
        mid = line[4:].strip()
        i += 1
        headers = {}
        while lines[i] != "---":
            k, _, v = lines[i].partition(":")
            headers[k.strip()] = v.strip()
            i += 1
        i += 1
        body = []
        while lines[i] != "--- expect":
            body.append(lines[i])
            i += 1
        i += 1
        expect = []
        while lines[i] != "--- end":
            if lines[i].strip():
                expect.append(lines[i].strip())
            i += 1
        i += 1
        msgs.append(Message(mid, headers, "\n".join(body), expect, name))
    return msgs


def _split_top(s, sep):
    """Split s on sep where not inside quotes, braces or angle brackets."""
    out, depth, q, cur, i = [], 0, False, "", 0
    while i < len(s):
        c = s[i]
        if c == '"':
            q = not q
        elif not q and c in "{<(":
            depth += 1
        elif not q and c in "}>)":
            depth -= 1
        if not q and depth == 0 and s.startswith(sep, i):
            out.append(cur)
            cur, i = "", i + len(sep)
            continue
        cur += c
        i += 1
    out.append(cur)
    return out


def parse_line(line):
    """'give amount=m10 to=Wooble' -> ('give', {'amount': 'm10', 'to': 'Wooble'})."""
    line = line.strip()
    name, _, rest = line.partition(" ")
    roles = {}
    for tok in _split_top(rest.strip(), " ") if rest.strip() else []:
        if not tok:
            continue
        k, eq, v = tok.partition("=")
        if not eq:
            raise ValueError("role without '=': %r in %r" % (tok, line))
        if v.startswith('"') and v.endswith('"'):
            v = v[1:-1]
        roles[k] = v
    return name, roles


def readings(line):
    """'ambiguous: A; B | C' -> [['A', 'B'], ['C']] (comments in parentheses kept)."""
    assert line.startswith("ambiguous:")
    return [[a.strip() for a in _split_top(r.strip(), "; ")]
            for r in _split_top(line[len("ambiguous:"):].strip(), " | ")]


def check_action(line, where):
    errors = []
    if line.startswith("nothing"):
        return errors
    if line.startswith("incomplete:"):
        name, roles = parse_line(line[len("incomplete:"):])
        if name not in ACTIONS:
            errors.append("%s: unknown action %r" % (where, name))
        if "missing" not in roles:
            errors.append("%s: incomplete without missing=" % where)
        else:
            req, opt = ACTIONS.get(name, ([], []))
            for r in roles["missing"].split(","):
                if "." in r:  # a role of the nested action, e.g. action.title
                    continue
                if r not in req + opt:
                    errors.append("%s: %s has no role %r" % (where, name, r))
        return errors
    name, roles = parse_line(line)
    if name not in ACTIONS:
        return ["%s: unknown action %r" % (where, name)]
    req, opt = ACTIONS[name]
    for r in req:
        if r not in roles:
            errors.append("%s: %s lacks role %r" % (where, name, r))
    for r in roles:
        if r not in req + opt + ["times"]:
            errors.append("%s: %s has unknown role %r" % (where, name, r))
    if name == "intend" and not ({"objections", "supporters"} & set(roles)):
        errors.append("%s: intend names no method" % where)
    for k in ("action",):
        if k in roles:
            inner = roles[k]
            if not (inner.startswith("{") and inner.endswith("}")):
                errors.append("%s: %s= must be {...}" % (where, k))
            else:
                errors += check_action(inner[1:-1], where)
    return errors


def check(msgs):
    errors, ids = [], {}
    for m in msgs:
        w = "%s %s" % (m.path, m.id)
        if m.id in ids:
            errors.append("%s: duplicate id" % w)
        ids[m.id] = m
        if not re.fullmatch(r"(?:[hkmnpqrstuvwxyz]|b[a-z])\d{4}", m.id):     # h: the first ten reserves; k: the eleventh; m: the twelfth; n: the thirteenth; p: the fourteenth; q: the fifteenth; r: the sixteenth; s: the seventeenth; t: the eighteenth; u: the nineteenth; v: the twentieth; w: the twenty-first; x: the twenty-second; y: the twenty-third; z: the twenty-fourth; ba, bb, ...: the twenty-fifth on
            errors.append("%s: bad id" % w)
        if "from" not in m.headers:
            errors.append("%s: no from" % w)
        elif m.headers["from"] not in PLAYERS and not m.headers["from"].startswith("outsider "):
            errors.append("%s: unknown sender %r" % (w, m.headers["from"]))
        if m.headers.get("context") and m.headers["context"] not in CONTEXTS:
            errors.append("%s: unknown context" % w)
        if not m.expect:
            errors.append("%s: no expectation" % w)
        if "nothing" in m.expect and len(m.expect) > 1:
            errors.append("%s: 'nothing' mixed with actions" % w)
        for e in m.expect:
            if e.startswith("ambiguous:"):
                rs = readings(e)
                if len(rs) < 2:
                    errors.append("%s: ambiguous with one reading" % w)
                for r in rs:
                    for a in r:
                        errors += check_action(re.sub(r"\s*\(.*\)$", "", a), w)
            else:
                errors += check_action(e, w)
        for bad in ("---", "--- expect", "--- end"):
            if bad in m.body.split("\n"):
                errors.append("%s: body contains a delimiter line" % w)
    for m in msgs:
        r = m.headers.get("reply-to")
        if r and r not in ids:
            errors.append("%s %s: reply-to %s unknown" % (m.path, m.id, r))
    return errors


def counts(msgs):
    per_action = Counter()
    for m in msgs:
        for e in m.expect:
            if e.startswith("nothing"):
                continue
            if e.startswith("ambiguous:"):
                for n in {parse_line(re.sub(r"\s*\(.*\)$", "", a).replace("incomplete:", "").strip())[0]
                          for r in readings(e) for a in r if not a.startswith("nothing")}:
                    per_action[(n, "ambiguous")] += 1
            elif e.startswith("incomplete:"):
                per_action[(parse_line(e[len("incomplete:"):])[0], "incomplete")] += 1
            else:
                name, roles = parse_line(e)
                per_action[(name, "read")] += 1
                inner = roles.get("action")
                while inner:
                    n2, r2 = parse_line(inner[1:-1])
                    per_action[(n2, "nested")] += 1
                    inner = r2.get("action")
    kinds = Counter(k for m in msgs for k in m.kinds)
    return per_action, kinds


def main():
    msgs = load()
    errs = check(msgs)
    for e in errs:
        print("ERROR", e)
    per_action, kinds = counts(msgs)
    md = "--markdown" in sys.argv
    print(("| kind | messages |\n| --- | --- |" if md else "messages: %d" % len(msgs)))
    if md:
        print("| all | %d |" % len(msgs))
    for k in ("chatter", "action", "several", "ambiguous", "incomplete", "transaction"):
        print(("| %s | %d |" if md else "  %-12s %d") % (k, kinds[k]))
    print()
    print("| action | read | nested | in ambiguous | incomplete |\n| --- | --- | --- | --- | --- |"
          if md else "%-24s %5s %6s %5s %5s" % ("action", "read", "nested", "ambig", "incompl"))
    for a in ACTIONS:
        row = [per_action[(a, x)] for x in ("read", "nested", "ambiguous", "incomplete")]
        print(("| %s | %d | %d | %d | %d |" if md else "%-24s %5d %6d %5d %5d") % tuple([a] + row))
    missing = [a for a in ACTIONS if not any(per_action[(a, x)] for x in ("read", "nested", "ambiguous", "incomplete"))]
    if missing:
        print("\nnot covered:", ", ".join(missing))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
