"""Shared test tools: a game in a real SQLite file, driven through the real
`bnomic` command line, with real mail files."""
from __future__ import annotations

import contextlib
import os
import io
import itertools
import json
from email.message import EmailMessage
from email.utils import format_datetime
from datetime import datetime, timedelta, timezone

import pytest

from bnomic.mailer.cli import main

_ids = itertools.count(1)


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def make_mail(sender: str, body: str, *, name: str = "", date: str | None = None,
              msgid: str | None = None, subject: str = "actions",
              to: str = "business@example.org", headers: dict | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{name} <{sender}>" if name else sender
    msg["To"] = to
    msg["Subject"] = subject
    if date:
        msg["Date"] = format_datetime(utc(date))
    msg["Message-ID"] = msgid or f"<test{next(_ids)}@example.org>"
    for k, v in (headers or {}).items():
        msg[k] = v
    msg.set_content(body)
    return bytes(msg)


class Game:
    """One game in a SQLite file under tmp_path, played through `bnomic`."""

    def __init__(self, tmp_path, start="2008-09-01T00:00:00Z", **init):
        self.tmp = tmp_path
        self.db = str(tmp_path / "game.sqlite")
        extra = [x for k, v in init.items() for x in (f"--{k}", str(v))]
        self.cli("init", "--start", start, "--seed", "test-seed", *extra)

    def run(self, *args) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([args[0], "--db", self.db, *args[1:]])
            except SystemExit as e:     # argparse
                code = e.code
        return code, out.getvalue(), err.getvalue()

    def cli(self, *args) -> str:
        code, out, err = self.run(*args)
        assert code == 0, f"bnomic {' '.join(args)} failed ({code}): {err}"
        return out

    def post(self, sender: str, body: str, at: str, **kw) -> str:
        """Send one mail at `at`; returns the receipt text."""
        path = self.tmp / f"mail{next(_ids)}.eml"
        path.write_bytes(make_mail(sender, body, **kw))
        return self.cli("ingest", "--at", at, str(path))

    def join(self, name: str, at: str, address: str | None = None) -> str:
        return self.post(address or f"{name.lower()}@example.org", f"I join as {name}.", at)

    def tick(self, until: str) -> str:
        return self.cli("tick", "--until", until)

    def next_nweek(self) -> dict:
        """Tick midnight by midnight, turning the Clock On whenever it is Off
        (as the MoM and the Chairman would), until a new nweek begins."""
        start = self.clock()["nweek"]
        while (c := self.clock())["nweek"] == start:
            if not c["on"]:
                self.admin("clock", "on")
            nxt = utc(c["now"]).replace(hour=0, minute=0, second=0) + timedelta(days=1)
            self.tick(nxt.isoformat())
        return self.clock()

    def admin(self, *args) -> str:
        return self.cli("admin", *args)

    def show(self, kind: str):
        return json.loads(self.cli("show", kind, "--json"))

    def show_outbox(self) -> list:
        return json.loads(self.cli("outbox", "--json"))

    def mails(self) -> list:
        return [e for e in self.show("log") if e["kind"] == "mail"]

    def clock(self) -> dict:
        return self.show("clock")

    def players(self) -> dict:
        return {p["name"]: p for p in self.show("players")}

    def digest(self) -> str:
        return self.show("digest")["digest"]


@pytest.fixture
def game(tmp_path):
    return Game(tmp_path)


def game_with_limits(tmp_path, **limits) -> Game:
    """A fresh game whose configuration sets these `[limits]` (e.g. actions_per_day=3)."""
    cfg = tmp_path / "limits.toml"
    cfg.write_text("[limits]\n" + "".join(f"{k} = {v}\n" for k, v in limits.items()))
    g = Game.__new__(Game)
    g.tmp, g.db = tmp_path, str(tmp_path / "game.sqlite")
    g.cli("init", "--start", "2008-09-01T00:00:00Z", "--seed", "test-seed", "--config", str(cfg))
    return g


def recent() -> str:
    """A start time an hour ago, for games a live daemon runs (it ticks to the real now)."""
    t = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(hours=1)
    return t.isoformat()


@pytest.fixture
def live_game(tmp_path):
    return Game(tmp_path, start=recent())


# In CI (BNOMIC_REQUIRE_SERVERS=1) a skip, run or collected, is a failure (require_servers.py).
from require_servers import pytest_make_collect_report, pytest_runtest_makereport  # noqa: E402,F401


# The reader's development cases it does not read yet (issue 13): tests/reader/known_failures.txt.
# Each is a strict xfail, so a case that starts to pass must come off the list.
_KNOWN = os.path.join(os.path.dirname(__file__), "reader", "known_failures.txt")


def pytest_collection_modifyitems(config, items):
    with open(_KNOWN, encoding="utf-8") as f:
        known = {line.strip() for line in f if line.strip() and not line.startswith("#")}
    for item in items:
        if item.nodeid.split("::", 1)[-1] in known:
            item.add_marker(pytest.mark.xfail(strict=True, reason="issue 13: not read yet "
                                              "(tests/reader/known_failures.txt)"))
