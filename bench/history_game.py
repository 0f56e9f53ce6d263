"""A long generated game for the history benchmarks (issue 16): 50,000 messages
over about 200 nweeks, and its first 5,000 and 20,000 as games of their own.

    python bench/history_game.py [--sizes 5000,20000,50000] [--nweeks 200] [--force]

A real game's mix, drawn from random.Random("history"): about 60 players join
in the first day and a half and a few more later; payments, exchanges, refused
and misunderstood actions, chatter with quoted actions; proposals (prose, in
the proposal period of every nweek) and everyone's votes on them in the Voting
Period; Ministries taken, resigned, their Rewards revised; and, every few
nweeks, a display of the Registrar approved (an intent carrying the display,
four supporters, the approval two rdays later: Rule 4E50, which replays the
game from the intent on). The operator turns the Clock On when the rules have
turned it Off, as bench/replay.py does.

Building all three (one game played to 50,000, the smaller ones written on the
way) took 12 minutes on this machine (2026-11-23: 5,000 in 47 s, about 14 ms a
mail, steady to the end), under `nice`, with other work running.

The games are written once, by the library's own functions (`log` appends,
`runner.process_pending`, snapshots kept as the engine keeps them), into
bench/.cache/history/ (gitignored): game-5000.sqlite is the same game as the
first 5,000 messages of game-50000.sqlite. `load(size)` returns the path,
building what is missing. This is a script, not a test.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import sqlite3
import sys
import time
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from replay import CHATTER, CLOSINGS, DOMAINS, GREETINGS, make_names  # noqa: E402

from bnomic import config as configuration  # noqa: E402
from bnomic.mailer import runner  # noqa: E402
from bnomic.store import close_database, database, log, open_database, upgrade, write_transaction  # noqa: E402

CACHE = Path(__file__).resolve().parent / ".cache" / "history"
START = datetime(2008, 9, 1, tzinfo=timezone.utc)
SIZES = (5_000, 20_000, 50_000)
NDAYS_PER_NWEEK = 12
VOTING_STARTS = 9
SEED = "history"
VERSION = 3          # of the generator: a cached game made by another is made again (2: light snapshots;
                     # 3: schema 14, the snapshots carry the state tables' write counts)

PROSE = [
    "The Registrar shall publish a list of every Player's favourite fish within a Jiffy.",
    "The Beast is hereby declared to be a Very Good Beast.",
    "Players are encouraged, but not required, to end their messages with a haiku.",
    "The Ministry of Fauna shall keep a list of every animal mentioned on the Public Forum.",
    "Any Player may, once per nweek, declare a Holiday; during a Holiday nothing happens.",
    "The Chairman shall list the proposals in order of their Proposal Color.",
]
MINISTRIES = ["Change", "Society", "Fauna", "Law", "Time", "Questions", "Judging"]
TITLES = {"Change": "Chairman", "Society": "Registrar"}


def calendar(days: int):
    """Day by day (as replay.clock_commands reckons it): (nweek, nday, clock on at noon),
    and the operator's `clock on` times."""
    out, ons, on, nday, nweek, off_since = [], [], False, 1, 1, 0
    for d in range(days + 1):
        if d > 0 and on:
            nday += 1
            if nday > NDAYS_PER_NWEEK:
                nday, nweek, on, off_since = 1, nweek + 1, False, d
            elif nday == VOTING_STARTS:
                on, off_since = False, d
        if not on and d >= off_since + 1:
            ons.append(START + timedelta(days=d, hours=12))
            on = True
        out.append((nweek, nday))
    return out, ons


class Writer:
    def __init__(self, rng: random.Random):
        self.rng, self.n = rng, 0

    def mail(self, who, at: datetime, lines: list[str], subject: str, quoted=None) -> tuple:
        rng = self.rng
        body = []
        greeting = rng.choice(GREETINGS)
        if greeting:
            body += [greeting, ""]
        if quoted:
            body += ["Someone wrote:"] + [f"> {q}" for q in quoted] + [""]
        body += lines
        closing = rng.choice(CLOSINGS)
        if closing:
            body += ["", closing]
        body += ["", "-- ", who[0]]
        self.n += 1
        mid = f"<{at:%Y%m%d%H%M%S}.{self.n}.{rng.getrandbits(32):08x}@{who[1].split('@')[1]}>"
        raw = (f"From: {who[0]} <{who[1]}>\r\nTo: business@example.org\r\nSubject: {subject}\r\n"
               f"Date: {format_datetime(at)}\r\nMessage-ID: {mid}\r\nMIME-Version: 1.0\r\n"
               f"Content-Type: text/plain; charset=utf-8\r\n\r\n" + "\r\n".join(body) + "\r\n")
        return (at, "mail", raw.encode(), mid, who[1])


def generate(total: int, nweeks: int = 200, seed: str = SEED) -> list[tuple]:
    """`total` mails and the operator's clock commands, in arrival order:
    (at, "mail", raw, message_id, sender) or (at, "command", verb, args)."""
    rng = random.Random(seed)
    days = nweeks * 14
    cal, ons = calendar(days)
    w = Writer(rng)
    names = make_names(rng, 90)
    people = [(n, f"{n.lower()}{i}@{rng.choice(DOMAINS)}") for i, n in enumerate(names)]
    players = people[:60]
    later = people[60:]
    items = []
    for who in players:                      # the first day and a half
        at = START + timedelta(seconds=rng.uniform(600, 36 * 3600))
        items.append(w.mail(who, at, [f"I join as {who[0]}."], "BN: joining"))
    times = sorted(START + timedelta(hours=36, seconds=rng.uniform(0, (days - 2) * 86400))
                   for _ in range(total - len(items)))
    proposals_by_nweek: dict[int, list[int]] = {}
    number = 0
    intents = 0
    approvals = []             # (due time, approver, intent number, supporters left)
    for at in times:
        day = (at - START).days
        nweek, nday = cal[min(day, len(cal) - 1)]
        who = rng.choice(players)
        quoted = None
        if rng.random() < 0.2:
            quoted = [rng.choice(CHATTER), f"I give m{rng.randint(1, 50)} to {rng.choice(players)[0]}."]
        lines = [rng.choice(CHATTER), ""] if rng.random() < 0.25 else []
        roll = rng.random()
        subject = "BN: business"
        if approvals and approvals[0][0] <= at:                 # an approval's next step
            due, approver, n, left = approvals.pop(0)
            if left:
                supporter = left.pop()
                who, lines = supporter, [f"I support intent #{n}"]
                approvals.insert(0, (due, approver, n, left))
            else:
                who, lines = approver, ["Having received enough support, I approve the "
                                        "Registrar's display"]
            subject = "BN: approval"
        elif nday >= VOTING_STARTS and proposals_by_nweek.get(nweek) and roll < 0.35:
            mine = proposals_by_nweek[nweek]
            fors = [p for p in mine if rng.random() < 0.6]
            against = [p for p in mine if p not in fors and rng.random() < 0.7]
            text = []
            if fors:
                text.append("I vote FOR on " + ", ".join(map(str, fors)) + ".")
            if against:
                text.append("AGAINST on " + ", ".join(map(str, against)) + ".")
            lines.append(" ".join(text) or f"I vote ABSTAIN on {mine[0]}.")
            subject = f"Re: [B Nomic] Ballot for nweek {nweek}"
        elif nday < VOTING_STARTS and roll < 0.025:
            number += 1
            proposals_by_nweek.setdefault(nweek, []).append(number)
            lines += [f'I submit the following proposal, titled "Idea {number}":',
                      rng.choice(PROSE), "END PROPOSAL"]
            subject = f"Proposal: Idea {number}"
        elif roll < 0.40:
            to = rng.choice(players)[0]
            k = rng.randint(1, 3)
            lines.append(rng.choice([f"I give m{k} to {to}.", f"I pay {to} m{k}.",
                                     f"I transfer {k} mackerel to {to}."]))
            subject = "BN: payment"
        elif roll < 0.46:
            lines.append(f"I exchange {rng.randint(1, 3)} points for mackerel.")
            subject = "BN: exchange"
        elif roll < 0.54:
            to = rng.choice(players)[0]
            lines.append(rng.choice([f"I give m5000 to {to}.", f"I give 5 bananas to {to}.",
                                     f"I give m1 to Nobody{rng.randint(1, 999)}."]))
            subject = "BN: hmm"
        elif roll < 0.58:
            lines.append(f"I remove the Active property from {rng.choice(players)[0]}.")
            subject = "BN: activity check"
        elif roll < 0.61:
            m = rng.choice(MINISTRIES)
            lines.append(rng.choice([
                f"I become the {TITLES[m]}." if m in TITLES else
                f"I assign the Ministry of {m} to myself with a Reward of m{rng.choice([40, 60, 80])}.",
                f"I resign from the Ministry of {m}.",
                f"I revise the Reward of the Ministry of {m} to m{rng.choice([30, 50, 70])}."]))
            subject = "BN: ministries"
        elif roll < 0.612 and later:
            who = later.pop(0)
            players.append(who)
            lines.append(f"I join as {who[0]}.")
            subject = "BN: joining"
        elif roll < 0.6124 and not approvals and nday < VOTING_STARTS:   # a display approved
            intents += 1
            row = "%-20s %6d %8s  %-6s %-6s %6s  %s" % (who[0], 0, "m500", "yes", "no", "-", "-")
            lines += ["I intend to approve the Registrar's display with 4 supporters and "
                      "without objection.", "", "PLAYERS (1)", row, ""]
            others = [p for p in players if p is not who]
            approvals.append((at + timedelta(hours=1), who, intents, rng.sample(others, 4)))
            approvals.append((at + timedelta(days=2, hours=6), who, intents, []))
            approvals.sort(key=lambda a: a[0])
            # the support comes first; the approval itself after 2 rdays
            approvals = [a for a in approvals if a[3]] + [a for a in approvals if not a[3]]
            subject = "BN: the Registrar's display"
        else:
            lines.append(rng.choice(CHATTER))
            subject = rng.choice(["Re: BN: payment", "BN: question", "OT"])
        items.append(w.mail(who, at, lines, subject, quoted))
    items.sort(key=lambda it: it[0])
    last = items[-1][0]
    items += [(t, "command", "clock", ["on"]) for t in ons if t <= last]
    items.sort(key=lambda it: it[0])
    return items


def _append(items) -> None:
    stored_at = datetime(2020, 1, 1, tzinfo=timezone.utc)
    with write_transaction():
        for it in items:
            if it[1] == "mail":
                log._append_mail(it[2], it[3], it[4], it[0], stored_at, "bench", None, None)
            else:
                log.append_command(it[2], list(it[3]), it[0], stored_at)


def path(size: int) -> Path:
    """The cached game, named by the code that made it too: its snapshots are trusted
    only by that code (runner.code_version), so a game made before a new reader
    would be measured replaying from entry 1; another code builds its own."""
    import hashlib
    code = hashlib.sha256(runner.code_version().encode()).hexdigest()[:8]
    return CACHE / f"game-{size}-v{VERSION}-{code}.sqlite"


def build(sizes=SIZES, nweeks: int = 200, quiet: bool = False) -> None:
    """Make the cached games: one game played up to each size in turn."""
    CACHE.mkdir(parents=True, exist_ok=True)
    sizes = sorted(sizes)
    items = generate(max(*sizes, *SIZES), nweeks)     # a smaller game is the 50k game's beginning
    work = CACHE / "building.sqlite"
    for p in (work, Path(str(work) + "-wal"), Path(str(work) + "-shm")):
        p.unlink(missing_ok=True)
    close_database()
    open_database(str(work))
    upgrade()
    runner.create_game(START, config=configuration.defaults(), seed=SEED)
    done_mail, i, t0 = 0, 0, time.perf_counter()
    for size in sizes:
        chunk = []
        while i < len(items) and done_mail < size:
            chunk.append(items[i])
            done_mail += items[i][1] == "mail"
            i += 1
        for k in range(0, len(chunk), 500):
            _append(chunk[k:k + 500])
            runner.process_pending(batch=True)      # one transaction per 500, as `ingest` does
            if not quiet:
                print(f"  {done_mail - len(chunk) + sum(1 for c in chunk[:k + 500] if c[1] == 'mail')}"
                      f" mails applied, {time.perf_counter() - t0:.0f} s", flush=True)
        target = path(size)
        dst = sqlite3.connect(str(target) + ".part")
        database.connection().backup(dst)
        dst.close()
        os.replace(str(target) + ".part", target)
        if not quiet:
            print(f"wrote {target} ({target.stat().st_size / 2**20:.0f} MiB)", flush=True)
    close_database()
    work.unlink(missing_ok=True)


def derive(size: int) -> Path | None:
    """The game of the first `size` messages, cut from a bigger cached game (its
    log up to that mail, its state there by `runner.replay_into`, its snapshots
    up to there), without playing it again; None if no bigger game is cached."""
    bigger = sorted(s for s in SIZES if s > size and path(s).exists())
    if not bigger:
        return None
    from bnomic.store import Entry, Setup
    close_database()
    open_database(str(path(bigger[0])))
    seq = (Entry.select(Entry.seq).where(Entry.kind == "mail").order_by(Entry.seq)
           .offset(size - 1).limit(1).scalar())
    at = Entry.get_by_id(seq).at
    part = Path(str(path(size)) + ".part")
    part.unlink(missing_ok=True)
    runner.replay_into(str(part), seq, at, complete=True)
    database.execute_sql("ATTACH DATABASE ? AS big", (str(path(bigger[0])),))
    with write_transaction():
        database.execute_sql("INSERT INTO main.snapshot SELECT * FROM big.snapshot WHERE seq <= ?", (seq,))
        # (a snapshot names its parts by hash: without them it is not usable, and every replay
        # of the cut game started from nothing; the parts of later snapshots come too, unused)
        database.execute_sql("INSERT OR IGNORE INTO main.snapshotpart SELECT * FROM big.snapshotpart")
        Setup.update(advanced_to=at).execute()
    database.execute_sql("DETACH DATABASE big")
    close_database()
    os.replace(part, path(size))
    return path(size)


def load(size: int, play: bool = False) -> Path | None:
    """The cached game of `size` messages: cut from a bigger one if need be, or
    (with `play`) built; None if neither."""
    if path(size).exists() or derive(size):
        return path(size)
    if play:
        build(sorted({*SIZES, size}))
        return path(size)
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ap.add_argument("--nweeks", type=int, default=200)
    ap.add_argument("--force", action="store_true", help="build again even if cached")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.force or not all(path(s).exists() for s in sizes):
        build(sizes, args.nweeks)
    for s in sizes:
        print(f"{s}: {path(s)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
