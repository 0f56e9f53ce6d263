"""The `bnomic` command line: a contract operators' scripts rely on.

Names of commands, options and JSON keys stay as they are; new ones are added
beside them. Errors are one line on stderr and a non-zero exit.
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from datetime import datetime, timezone
from pathlib import Path

from .. import config as configuration
from ..handlers import clock
from ..handlers.context import game_config
from ..render import render
from ..store import (
    Address, Command, Entry, Event, Game, Message, Outcome, Player, Setup,
    StoreError, open_database, state_digest, upgrade,
)
from ..store import log
from . import archive, inbound, runner

DEFAULT_DB = "bnomic.sqlite"


class CLIError(Exception):
    """A problem the operator can fix, said in one line."""


# ------------------------------------------------------------------ helpers

def utc(text: str) -> datetime:
    """An ISO 8601 instant; one without a zone is taken as UTC."""
    try:
        t = datetime.fromisoformat(text.strip().replace(" ", "T") if "T" not in text else text.strip())
    except ValueError:
        raise CLIError(f"not an ISO 8601 time: {text!r} (e.g. 2008-09-01T00:00:00Z)") from None
    return t.replace(tzinfo=timezone.utc) if t.tzinfo is None else t.astimezone(timezone.utc)


def iso(t: datetime | None) -> str | None:
    return None if t is None else t.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def wall_clock() -> datetime:
    return inbound.wall_clock().replace(microsecond=0)


def db_target(args) -> str:
    return args.db or os.environ.get("BNOMIC_DB") or DEFAULT_DB


def open_game(args, create: bool = False):
    target = db_target(args)
    if "://" not in target and not create and not Path(target).exists():
        raise CLIError(f"no game database at {target}; create one with: bnomic init --db {target}")
    open_database(target)
    upgrade()
    if not create and not Setup.select().exists():
        raise CLIError(f"{target} holds no game; create one with: bnomic init --db {target}")


def emit(args, data, text: str) -> None:
    if getattr(args, "json", False):
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")


# ----------------------------------------------------------------- commands

def cmd_init(args) -> None:
    target = db_target(args)
    if "://" not in target and Path(target).exists() and Path(target).stat().st_size > 0:
        open_database(target)
        if Setup.table_exists() and Setup.select().exists():
            raise CLIError(f"{target} already holds a game; use another --db or remove it")
    open_game(args, create=True)
    cfg = configuration.load(args.config)
    start = utc(args.start) if args.start else wall_clock()
    if args.nweek < 1 or not 1 <= args.nday <= cfg["clock"]["ndays_per_nweek"]:
        raise CLIError("--nweek must be at least 1 and --nday between 1 and "
                       f"{cfg['clock']['ndays_per_nweek']}")
    seed = args.seed if args.seed is not None else secrets.token_hex(16)
    runner.create_game(start, args.nweek, args.nday, args.clock == "on", cfg, seed)
    game = Game.get()
    print(f"created a game in {target} at {iso(start)}: "
          f"{clock.describe(game, configuration.Config(cfg))}")


def cmd_ingest(args) -> None:
    open_game(args)
    forced = utc(args.at) if args.at else None
    stored = []
    for path in args.files:
        for where, raw in archive.read(path):
            mid, entry = inbound.store_raw(raw, source=f"ingest {where}", at=forced,
                                           use_headers_for_time=True)
            if entry is None:
                print(f"{where}: {mid} is already in the log; skipped")
            else:
                stored.append((where, entry.seq))
    results = dict((e.seq, outcomes) for e, outcomes in runner.process_pending())
    for where, seq in stored:
        entry = Entry.get_by_id(seq)
        message = entry.message.get()
        print(f"== {where}: {message.message_id} from {message.sender or '(no sender)'} "
              f"at {iso(entry.at)}")
        sys.stdout.write(render("receipt.txt", outcomes=results.get(seq, []), public=True))


def cmd_tick(args) -> None:
    open_game(args)
    until = utc(args.until)
    runner.advance_to(until)
    game = Game.get()
    print(f"advanced to {iso(game.now)}: {clock.describe(game, game_config())}")


def cmd_rebuild(args) -> None:
    open_game(args)
    before = state_digest()
    runner.rebuild()
    after = state_digest()
    print(f"rebuilt from {Entry.select().count()} log entries; digest {after}"
          + ("" if before == after else f" (was {before})"))


def player_view(p: Player) -> dict:
    """One player as `bnomic show players --json` gives it (a contract)."""
    return {
        "name": p.name,
        "addresses": [a.address for a in p.addresses.order_by(Address.address)],
        "points": p.points,
        "mackerel": p.mackerel,
        "active": p.active,
        "vested": p.vested,
    }


def event_view(e: Event) -> dict:
    return {"seq": e.seq, "at": iso(e.at), "cause": e.cause, "entry": e.entry, "rule": e.rule,
            "kind": e.kind, "summary": e.summary, "data": e.data}


def entry_view(e: Entry) -> dict:
    view = {"seq": e.seq, "kind": e.kind, "at": iso(e.at), "processed": e.processed}
    if e.kind == "mail":
        m = Message.get_by_id(e.seq)
        view.update(message_id=m.message_id, sender=m.sender, size=len(m.raw))
    else:
        c = Command.get_by_id(e.seq)
        view.update(command=[c.verb, *c.args])
    view["outcomes"] = [{"action": o.action, "text": o.text, "accepted": o.accepted,
                         "reason": o.reason, "rule": o.rule}
                        for o in Outcome.select().where(Outcome.entry == e.seq)
                        .order_by(Outcome.position)]
    return view


def cmd_show(args) -> None:
    open_game(args)
    cfg = game_config()
    kind = args.kind
    if kind == "clock":
        game = Game.get()
        emit(args, clock.view(game, cfg), clock.describe(game, cfg) + f"; now {iso(game.now)}")
    elif kind == "players":
        players = [player_view(p) for p in Player.select().where(Player.is_player == True)  # noqa: E712
                   .order_by(Player.id)]
        emit(args, players, render("players.txt", players=players))
    elif kind == "events":
        events = [event_view(e) for e in _last(Event.select().order_by(Event.seq.desc()), args)]
        emit(args, events, "\n".join(
            f"{e['seq']:>5} {e['at']} {e['cause']:<8} {('Rule ' + e['rule']) if e['rule'] else '':<10} "
            f"{e['summary']}" for e in events))
    elif kind == "digest":
        digest = state_digest()
        emit(args, {"digest": digest}, digest)
    elif kind == "log":
        entries = [entry_view(e) for e in _last(Entry.select().order_by(Entry.seq.desc()), args)]
        emit(args, entries, "\n".join(
            f"{e['seq']:>5} {e['at']} {'done' if e['processed'] else 'pending':<7} "
            + (f"{e['message_id']} from {e['sender']}" if e["kind"] == "mail"
               else "command: " + " ".join(e["command"])) for e in entries))


def _last(newest_first, args) -> list:
    """The rows of a newest-first query, oldest first, cut to --last N if given."""
    if args.last is not None:
        newest_first = newest_first.limit(max(args.last, 0))
    return list(reversed(list(newest_first)))


def cmd_admin(args) -> None:
    open_game(args)
    entry = log.append_command(args.verb, args.args, at=log.game_time(), issued_at=wall_clock())
    results = runner.process_pending()
    outcome = next(o for e, outcomes in results if e.seq == entry.seq for o in outcomes)
    if not outcome.accepted:
        rule = f" (Rule {outcome.rule})" if outcome.rule and outcome.rule != "operator" else ""
        raise CLIError(f"refused: {outcome.reason}{rule}")
    print(outcome.reason)


SHOW_KINDS = ["clock", "players", "events", "digest", "log"]


# -------------------------------------------------------------------- parser

class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, f"bnomic: {message} (see bnomic {self.prog.split()[-1]} --help)\n"
                  if " " in self.prog else f"bnomic: {message} (see bnomic --help)\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="bnomic", description="Run a B Nomic game by email.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def with_db(sp):
        sp.add_argument("--db", help=f"game database: a path or a URL (env BNOMIC_DB; default {DEFAULT_DB})")
        return sp

    sp = with_db(sub.add_parser("init", help="create a game"))
    sp.add_argument("--config", help="TOML configuration file")
    sp.add_argument("--start", help="the game's first instant, ISO 8601 (default: now)")
    sp.add_argument("--nweek", type=int, default=1)
    sp.add_argument("--nday", type=int, default=1)
    sp.add_argument("--clock", choices=["on", "off"], default="off")
    sp.add_argument("--seed", help="seed for every random draw (default: a random one)")
    sp.set_defaults(fn=cmd_init)

    sp = with_db(sub.add_parser("ingest", help="add mail files (.eml, mbox, maildir) to the log and process them"))
    sp.add_argument("--at", help="arrival time for these messages, ISO 8601")
    sp.add_argument("files", nargs="+")
    sp.set_defaults(fn=cmd_ingest)

    sp = with_db(sub.add_parser("tick", help="advance the game to an instant"))
    sp.add_argument("--until", required=True, help="ISO 8601 instant")
    sp.set_defaults(fn=cmd_tick)

    sp = with_db(sub.add_parser("show", help="show part of the gamestate"))
    sp.add_argument("kind", choices=SHOW_KINDS)
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--last", type=int, metavar="N", help="events, log: only the last N")
    sp.set_defaults(fn=cmd_show)

    sp = with_db(sub.add_parser("rebuild", help="replay the whole log into empty state tables"))
    sp.set_defaults(fn=cmd_rebuild)

    sp = with_db(sub.add_parser("admin", help="operator commands: clock on|off, time stop|resume, "
                                "set PLAYER ATTR VALUE, add-player NAME ADDRESS..., "
                                "remove-player NAME, add-address NAME ADDRESS"))
    sp.add_argument("verb")
    sp.add_argument("args", nargs="*")
    sp.set_defaults(fn=cmd_admin)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.fn(args)
    except (CLIError, StoreError, configuration.ConfigError, archive.ArchiveError) as e:
        print(f"bnomic: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # never a traceback for an operator (BNOMIC_DEBUG=1 shows it)
        if os.environ.get("BNOMIC_DEBUG"):
            raise
        print(f"bnomic: internal error: {type(e).__name__}: {e} (set BNOMIC_DEBUG=1 for details)",
              file=sys.stderr)
        return 70
    return 0


if __name__ == "__main__":
    sys.exit(main())
