"""Issue 11: operators are not left guessing. The command line (--config on
every command, --version, admin's verbs, init's word on the Clock), the
wording of what bnomic publishes, and the log a real run writes."""
from __future__ import annotations

import pytest


def test_a_ballot_of_one_proposal_is_worded_for_one(game):
    game.join("Carol", "2008-09-01T01:00:00Z")
    game.join("Wooble", "2008-09-01T02:00:00Z")
    game.post("carol@example.org", "I assign the Ministry of Change to myself.", "2008-09-01T03:00:00Z")
    game.post("wooble@example.org", 'I submit the following proposal, titled "One":\n'
              "Repeal Rule 4E60\nEND PROPOSAL\n", "2008-09-01T04:00:00Z")
    game.admin("clock", "on")
    game.tick("2008-09-09T00:00:00Z")
    text = game.cli("show", "ballot")
    assert "(1 Open proposal)" in text and "1 Open proposals" not in text
    assert "This proposal is Open." in text and "These 1" not in text


# ------------------------------------------------------------- the command line

import json
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from conftest import make_mail


def bnomic(*args, cwd, env=None, check=True) -> subprocess.CompletedProcess:
    """The installed console script, as an operator runs it, without BNOMIC_DB."""
    exe = shutil.which("bnomic", path=os.path.dirname(sys.executable)) or shutil.which("bnomic")
    environ = {k: v for k, v in os.environ.items() if k != "BNOMIC_DB"}
    run = subprocess.run([exe, *args], cwd=cwd, env={**environ, **(env or {})},
                         capture_output=True, text=True, timeout=120)
    if check:
        assert run.returncode == 0, f"bnomic {' '.join(args)}: {run.stderr}"
    return run


def test_every_command_takes_config_and_reads_the_database_from_it(tmp_path):
    db = tmp_path / "state" / "game.sqlite"
    db.parent.mkdir()
    cfg = tmp_path / "bnomic.toml"
    cfg.write_text(f'[database]\npath = "{db}"\n')
    work = tmp_path / "elsewhere"
    work.mkdir()
    c = ["--config", str(cfg)]
    bnomic("init", *c, "--start", "2008-09-01T00:00:00Z", "--seed", "s", cwd=work)
    assert db.exists() and not (work / "bnomic.sqlite").exists()
    mail = tmp_path / "join.eml"
    mail.write_bytes(make_mail("wooble@example.org", "I join as Wooble."))
    assert "Done (Rule 4E4)" in bnomic("preview", *c, str(mail), cwd=work).stdout
    assert "Done (Rule 4E4)" in bnomic("ingest", *c, "--at", "2008-09-01T01:00:00Z", str(mail),
                                       cwd=work).stdout
    bnomic("admin", *c, "clock", "on", cwd=work)
    assert "nday 2" in bnomic("tick", *c, "--until", "2008-09-02T00:00:00Z", cwd=work).stdout
    assert "Wooble" in [p["name"] for p in json.loads(bnomic("show", *c, "players", "--json", cwd=work).stdout)]
    assert json.loads(bnomic("status", *c, "--json", cwd=work).stdout)["clock"]["nday"] == 2
    assert bnomic("outbox", *c, cwd=work).stdout
    assert "digest" in bnomic("rebuild", *c, cwd=work).stdout
    # run takes it too (here it stops at once: no way to receive mail is configured)
    run = bnomic("run", *c, cwd=work, check=False)
    assert run.returncode == 1 and "no way to receive mail" in run.stderr
    assert not (work / "bnomic.sqlite").exists()


def test_version_and_admin_verbs(tmp_path):
    assert bnomic("--version", cwd=tmp_path).stdout.strip() == f"bnomic {metadata.version('bnomic')}"
    helptext = bnomic("admin", "--help", cwd=tmp_path).stdout
    from bnomic.handlers import registry
    for verb in registry.COMMANDS:
        assert f"\n  {verb} " in helptext, verb
    assert "clock on|off" in helptext and "fulfil N" in helptext


def test_init_says_how_the_game_advances(tmp_path):
    off = bnomic("init", "--db", str(tmp_path / "a.sqlite"), cwd=tmp_path).stdout
    assert "Clock Off" in off and "bnomic admin clock on" in off and "--clock on" in off
    on = bnomic("init", "--db", str(tmp_path / "b.sqlite"), "--clock", "on", cwd=tmp_path).stdout
    assert "The Clock is On" in on and "Each new nweek" in on
