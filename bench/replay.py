"""Benchmark: replaying a long game log.

    python bench/replay.py [--messages N] [--players P] [--days D] [--seed S] [--db PATH]

Generates N realistic raw mail messages in memory (about 200 players joining in
the first day and a half, then gives, exchanges, refused actions, attempts to
remove the Active property, chatter with quoted actions that must be ignored),
spread over several weeks so that many midnights fire, with the operator
turning the Clock On (`admin clock on`, through the log) whenever the rules
have turned it Off. Then, in a fresh SQLite game:

1. appends every message (and command) to the log,
2. times `runner.process_pending()`: the first processing of the whole log,
3. times `runner.rebuild()`: a replay of the same log into empty state tables,

and prints throughput, peak memory and the state digest before and after the
rebuild (they must match: invariant 2). A separate, shorter pass measures the
Python heap peak with tracemalloc, which would slow the timed passes down.

This is a script, not a test: pytest never collects it (testpaths = ["tests"],
and the file is not named test_*.py).
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from bnomic import config as configuration
from bnomic.mailer import runner
from bnomic.store import (
    Event, Game, Outcome, Player, close_database, open_database, state_digest, upgrade,
)
from bnomic.store import log

START = datetime(2008, 9, 1, tzinfo=timezone.utc)
NDAYS_PER_NWEEK = 12
VOTING_STARTS = 9

# ------------------------------------------------------------------ the mail

SYLLABLES = ["woo", "ble", "ais", "chu", "ck", "pav", "it", "ra", "gur", "g", "zar", "pint",
             "teu", "cer", "mul", "ber", "ry", "jo", "el", "ton", "kel", "lor", "quaz", "mo",
             "nix", "vel", "dra", "sko", "tum", "fin", "gle", "bor", "ash", "ly", "om", "ek"]
DOMAINS = ["example.org", "example.net", "example.com", "mail.example.org", "uni.example.edu"]
GREETINGS = ["", "Hi all,", "Hello everyone,", "Morning,", "Hey,", "Greetings, fellow nomic players.",
             "OK, business time:", "Right then."]
CHATTER = [
    "Does anyone know when the next proposal deadline is?",
    "Sorry for the late reply, work has been mad this week.",
    "That ruling seems wrong to me, but let's see what the others think.",
    "Can somebody remind me what Thirnight is for?",
    "Happy Breakday, everyone!",
    "Is the Registrar's report out yet?",
    "Nice try, but the Beast sees all.",
    "Somebody should propose fixing the Calendar; Corvette isn't an nday.",
    "Ha! Well played.",
    "My mail client ate the last two messages, so apologies if this is a repeat.",
    "We should really get a wiki going for this era.",
    "Has anyone actually read Rule 4E75 all the way through?",
]
CLOSINGS = ["", "Cheers,", "Thanks,", "See you on the list,"]


@dataclass
class Item:
    """One log entry to append: a mail (raw bytes) or an operator command."""
    at: datetime
    kind: str                 # "mail" | "command"
    raw: bytes = b""
    message_id: str = ""
    sender: str = ""
    verb: str = ""
    args: tuple = ()


@dataclass
class Who:
    name: str
    address: str
    display: str
    silent: bool = False      # stops posting after joining (a target for remove-Active)
    gone: bool = False        # forfeited


def make_names(rng: random.Random, n: int) -> list[str]:
    names, seen = ["Wooble", "Ais523", "Chuck", "Pavitra", "Gurg"][:n], set()
    seen.update(x.lower() for x in names)
    while len(names) < n:
        name = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
        if rng.random() < 0.2:
            name += str(rng.randint(2, 999))
        if name.lower() not in seen and name.lower() not in ("the beast", "beast"):
            seen.add(name.lower())
            names.append(name)
    return names


def body_lines(rng: random.Random, name: str, lines: list[str],
               quoted: list[str] | None = None) -> list[str]:
    """A player's mail body: a greeting, a quoted line or two, the actions,
    a closing and a signature (shared with bench/lmtp.py)."""
    body = []
    greeting = rng.choice(GREETINGS)
    if greeting:
        body += [greeting, ""]
    if quoted:
        body += [f"{rng.choice(['Someone', 'Wooble', 'ais523'])} wrote:"]
        body += [f"> {q}" for q in quoted] + [""]
    body += lines
    closing = rng.choice(CLOSINGS)
    if closing:
        body += ["", closing]
    return body + ["", "-- ", name]


def mail(rng: random.Random, seq: int, who: Who, at: datetime, lines: list[str],
         subject: str, quoted: list[str] | None = None) -> Item:
    body = body_lines(rng, who.name, lines, quoted)
    if rng.random() < 0.1:      # a sig that reads like an action: must be ignored
        body += ["\"I give m1000 to anyone who reads this signature.\""]

    msg = EmailMessage()
    msg["From"] = f"{who.display} <{who.address}>"
    msg["To"] = "business@example.org"
    msg["Subject"] = subject
    msg["Date"] = format_datetime(at)
    mid = f"<{at:%Y%m%d%H%M%S}.{seq}.{rng.getrandbits(32):08x}@{who.address.split('@')[1]}>"
    msg["Message-ID"] = mid
    msg.set_content("\n".join(body) + "\n")
    return Item(at=at, kind="mail", raw=bytes(msg), message_id=mid, sender=who.address)


def clock_commands(days: int) -> list[Item]:
    """When the operator turns the Clock On: the day after the rules turned it Off
    (at the start of the Voting Period, or of a new nweek), at 12:00 UTC."""
    out, on, nday, off_since = [], False, 1, 0
    for d in range(days + 1):
        if d > 0:                                   # the midnight starting day d
            if on:
                nday += 1
                if nday > NDAYS_PER_NWEEK:
                    nday, on, off_since = 1, False, d
                elif nday == VOTING_STARTS:
                    on, off_since = False, d
        if not on and d >= off_since + 1:
            out.append(Item(at=START + timedelta(days=d, hours=12), kind="command",
                            verb="clock", args=("on",)))
            on = True
    return out


def generate(n: int, players: int = 200, days: int = 56, seed: str = "bench") -> list[Item]:
    """n mails (plus the operator's clock commands), in the order they arrive."""
    rng = random.Random(seed)
    players = min(players, n)
    people = []
    for i, name in enumerate(make_names(rng, players)):
        address = f"{name.lower()}{i}@{rng.choice(DOMAINS)}"
        people.append(Who(name, address, name if rng.random() < 0.5 else f"{name} Player",
                          silent=rng.random() < 0.25))
    people[0].silent = False

    # joins: the first day and a half
    join_span = timedelta(hours=36).total_seconds()
    join_times = sorted(START + timedelta(seconds=rng.uniform(60, join_span)) for _ in people)
    items: list[Item] = []
    for i, (who, at) in enumerate(zip(people, join_times)):
        lines = ["I'm new here; a friend pointed me at the list."] if rng.random() < 0.3 else []
        earlier = people[:i]
        if earlier and rng.random() < 0.3:
            recruiters = rng.sample(earlier, k=min(len(earlier), rng.randint(1, 3)))
            names = [r.name for r in recruiters]
            who_text = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            lines.append(f"I join as {who.name}, recruited by {who_text}.")
        else:
            lines.append(rng.choice([f"I join as {who.name}.", f"I wish to join as {who.name}.",
                                     f"I register as {who.name}."]))
        items.append(mail(rng, len(items), who, at, lines, "BN: joining"))

    # everything else: spread uniformly over the remaining days
    rest_start = START + timedelta(hours=36)
    span = (START + timedelta(days=days) - rest_start).total_seconds()
    times = sorted(rest_start + timedelta(seconds=rng.uniform(0, span)) for _ in range(n - players))
    talkers = [p for p in people if not p.silent]
    silent = [p for p in people if p.silent]
    unknown_counter = 0

    def someone_else(who: Who) -> Who:
        while True:
            other = rng.choice(people)
            if other is not who and not other.gone:
                return other

    for at in times:
        who = rng.choice([p for p in talkers if not p.gone] or talkers)
        roll = rng.random()
        quoted = None
        if rng.random() < 0.25:   # a quoted action from someone else: never acted on
            quoted = [rng.choice(CHATTER), f"I give m{rng.randint(1, 50)} to {someone_else(who).name}."]
        lines = []
        if rng.random() < 0.3:
            lines += [rng.choice(CHATTER), ""]
        if roll < 0.45:                                           # gives that mostly succeed
            to = someone_else(who).name
            k = rng.randint(1, 3)
            lines.append(rng.choice([f"I give m{k} to {to}.", f"I pay {to} m{k}.",
                                     f"I transfer {k} mackerel to {to}.", f"I send {k} macks to {to}.",
                                     f"I give m1 to {to} twice."]))
            subject = "BN: payment"
        elif roll < 0.53:                                         # two actions in one mail
            a, b = someone_else(who).name, someone_else(who).name
            lines += [f"I give m1 to {a}.", f"Then I give m2 to {b}."]
            subject = "BN: actions"
        elif roll < 0.60:                                         # exchanges: nobody has points
            k = rng.randint(1, 4)
            lines.append(rng.choice([f"I exchange {k} points for mackerel.",
                                     f"I convert {k} points into m{5 * k}.",
                                     f"I exchange 1 point for m7."]))
            subject = "BN: exchange"
        elif roll < 0.70:                                         # refused actions
            unknown_counter += 1
            to = someone_else(who).name
            lines.append(rng.choice([f"I give m5000 to {to}.", f"I give m-3 to {to}.",
                                     f"I give 5 bananas to {to}.",
                                     f"I give m1 to Nobody{unknown_counter}.",
                                     f"I give m1 to {who.name}.",
                                     f"I join as {to}.",
                                     f"I join as Newcomer{unknown_counter}."]))
            subject = "BN: hmm"
        elif roll < 0.78:                                         # remove-Active attempts
            target = rng.choice(silent if silent and rng.random() < 0.7 else people)
            lines.append(rng.choice([f"I remove the Active property from {target.name}.",
                                     f"I remove {target.name}'s Active property.",
                                     f"I deactivate {target.name}."]))
            subject = "BN: activity check"
        elif roll < 0.80:                                         # near misses: not understood
            lines.append(f"I'd like to give {someone_else(who).name} a fish.")
            subject = "BN: fish"
        elif roll < 0.802 and len([p for p in talkers if not p.gone]) > 20:   # a rare forfeit
            lines.append("I forfeit the game. It's been fun.")
            who.gone = True
            subject = "BN: goodbye"
        else:                                                     # chatter only
            lines.append(rng.choice(CHATTER))
            subject = rng.choice(["Re: BN: payment", "BN: question", "Re: BN: activity check", "OT"])
        items.append(mail(rng, len(items), who, at, lines, subject, quoted))

    items += clock_commands(days)
    items.sort(key=lambda it: it.at)      # stable: a command at the same instant stays after
    return items


# ------------------------------------------------------------------ the game

def new_game(path: str) -> None:
    close_database()
    open_database(path)
    upgrade()
    runner.create_game(START, config=configuration.defaults(), seed="bench")


def append_all(items: list[Item]) -> None:
    stored_at = datetime(2008, 12, 1, tzinfo=timezone.utc)
    for it in items:
        if it.kind == "mail":
            if log.append_message(it.raw, it.message_id, it.sender, it.at, stored_at,
                                  source="bench") is None:
                raise SystemExit(f"duplicate Message-ID {it.message_id}")
        else:
            log.append_command(it.verb, list(it.args), it.at, stored_at)


def maxrss_mib() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024   # bytes on macOS


def timed(fn):
    gc.collect()
    t0 = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - t0


def summary() -> dict:
    outcomes = Outcome.select()
    game = Game.get()
    return {
        "done": outcomes.where(Outcome.accepted == True).count(),                       # noqa: E712
        "refused": outcomes.where(Outcome.accepted == False, Outcome.action.is_null(False)).count(),  # noqa: E712
        "not understood": outcomes.where(Outcome.action.is_null()).count(),
        "events": Event.select().count(),
        "players": Player.select().where(Player.is_player == True).count(),             # noqa: E712
        "active": Player.select().where(Player.active == True).count(),                 # noqa: E712
        "clock": f"nweek {game.nweek}, nday {game.nday}, "
                 f"{'On' if game.clock_on else f'Off (ndelay {game.ndelay})'}, now {game.now:%Y-%m-%d %H:%M}",
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=10_000, help="mails to generate (default 10000)")
    ap.add_argument("--players", type=int, default=200, help="players joining early (default 200)")
    ap.add_argument("--days", type=int, default=56, help="real days the mail is spread over (default 56)")
    ap.add_argument("--seed", default="bench", help="seed for the generated mail")
    ap.add_argument("--db", help="keep the game in this SQLite file (must not exist)")
    ap.add_argument("--tracemalloc-messages", type=int, default=1000, metavar="M",
                    help="size of the separate tracemalloc pass (0: skip; default 1000)")
    args = ap.parse_args(argv)
    if args.messages < 1 or args.days < 3:
        ap.error("--messages must be at least 1 and --days at least 3")

    tmp = tempfile.TemporaryDirectory(prefix="bnomic-bench-")
    path = args.db or os.path.join(tmp.name, "bench.sqlite")
    if Path(path).exists():
        ap.error(f"{path} already exists")

    print(f"bnomic replay benchmark: {args.messages} messages, {args.players} players, "
          f"{args.days} days, Python {sys.version.split()[0]}")

    items, t_gen = timed(lambda: generate(args.messages, args.players, args.days, args.seed))
    n_mail = sum(1 for it in items if it.kind == "mail")
    n_cmd = len(items) - n_mail
    size = sum(len(it.raw) for it in items)
    print(f"  generated       {n_mail} mails ({size / 2**20:.1f} MiB) + {n_cmd} clock commands, "
          f"{items[0].at:%Y-%m-%d} .. {items[-1].at:%Y-%m-%d}, in {t_gen:.2f} s")

    new_game(path)
    _, t_append = timed(lambda: append_all(items))
    print(f"  appended to log {len(items)} entries in {t_append:.2f} s "
          f"({len(items) / t_append:,.0f} entries/s)   maxrss {maxrss_mib():.0f} MiB")

    results, t_first = timed(runner.process_pending)
    assert len(results) == len(items), (len(results), len(items))
    del results
    rss_first = maxrss_mib()
    before = state_digest()
    s = summary()
    print(f"  first processing {n_mail} mails in {t_first:.2f} s = {n_mail / t_first:,.0f} mails/s "
          f"({len(items) / t_first:,.0f} entries/s)   maxrss {rss_first:.0f} MiB")
    print(f"      outcomes: {s['done']} done, {s['refused']} refused, {s['not understood']} not understood; "
          f"{s['events']} events; {s['players']} players ({s['active']} Active)")
    print(f"      clock: {s['clock']}")

    _, t_rebuild = timed(runner.rebuild)
    rss_rebuild = maxrss_mib()
    after = state_digest()
    print(f"  rebuild         {n_mail} mails in {t_rebuild:.2f} s = {n_mail / t_rebuild:,.0f} mails/s "
          f"({len(items) / t_rebuild:,.0f} entries/s)   maxrss {rss_rebuild:.0f} MiB")
    print(f"  digest before rebuild {before}")
    print(f"  digest after rebuild  {after}")
    print(f"  digests match: {'yes' if before == after else 'NO'}")
    wal = Path(path + "-wal")
    wal_size = wal.stat().st_size if wal.exists() else 0
    close_database()                       # checkpoints the WAL into the file
    print(f"  database        {Path(path).stat().st_size / 2**20:.1f} MiB after closing "
          f"(WAL had grown to {wal_size / 2**20:.1f} MiB){'' if not args.db else ': ' + path}")

    if args.tracemalloc_messages > 0:
        m = min(args.tracemalloc_messages, args.messages)
        small = generate(m, min(args.players, m), args.days, args.seed)
        n_small = sum(1 for it in small if it.kind == "mail")
        new_game(os.path.join(tmp.name, "tracemalloc.sqlite"))
        append_all(small)
        gc.collect()
        tracemalloc.start()
        _, t_traced = timed(runner.process_pending)
        _, peak_first = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        runner.rebuild()
        _, peak_rebuild = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        close_database()
        print(f"  tracemalloc pass ({n_small} mails, separate game): Python heap peak "
              f"{peak_first / 2**20:.1f} MiB processing, {peak_rebuild / 2**20:.1f} MiB rebuild "
              f"(traced run took {t_traced:.2f} s)")

    print(f"  peak RSS of the whole run (ru_maxrss): {maxrss_mib():.0f} MiB")
    tmp.cleanup()
    return 0 if before == after else 1


if __name__ == "__main__":
    sys.exit(main())
