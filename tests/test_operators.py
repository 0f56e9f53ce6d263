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


# -------------------------------------------------------------- configuration

def test_every_problem_of_the_configuration_is_reported_at_once(tmp_path):
    cfg = tmp_path / "bnomic.toml"
    cfg.write_text('[database]\npaht = "x.sqlite"\n'
                   '[lmtp]\nlisten = "127.0.0.1:8024"\nmax_mesage_size = 5\n'
                   '[smtp]\nlissten = "127.0.0.1:8025"\n'
                   '[smtp_out]\nport = "25"\nverfy = false\n'
                   '[imap]\nusername = "bot"\nmove_too = "Done"\nnot_before = "yesterday"\n'
                   '[players]\nweekly_incom = 30\n'
                   '[receipts]\ndaily_cap = "lots"\n')
    run = bnomic("status", "--config", str(cfg), cwd=tmp_path, check=False)
    assert run.returncode == 1 and run.stderr.count("\n") == 1 and run.stderr.startswith("bnomic: ")
    for problem in ["unknown key 'paht' in [database]", "unknown key 'max_mesage_size' in [lmtp]",
                    "unknown key 'lissten' in [smtp]", "smtp_out.port must be a whole number",
                    "unknown key 'verfy' in [smtp_out]", "unknown key 'move_too' in [imap]",
                    "imap.not_before must be a date and time", "'players.weekly_incom'",
                    "receipts.daily_cap must be a whole number"]:
        assert problem in run.stderr, (problem, run.stderr)
    run = bnomic("init", "--db", str(tmp_path / "g.sqlite"), "--config", str(cfg), cwd=tmp_path,
                 check=False)
    assert run.returncode == 1 and "unknown key 'paht' in [database]" in run.stderr
    assert "'players.weekly_incom'" in run.stderr and not (tmp_path / "g.sqlite").exists()


def test_the_example_configuration_is_clean():
    from bnomic import config
    example = Path(__file__).parent.parent / "systemd" / "bnomic.toml.example"
    data = config.load_operator(example)
    assert set(data) >= set(config.OPERATOR_KEYS)


# ------------------------------------------------------------------------ TLS

@pytest.fixture
def certificate(tmp_path):
    """A self-signed certificate for 127.0.0.1 and localhost, made by openssl."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True)
    return cert, key


def test_smtp_out_starttls_with_a_cafile_or_without_verifying(certificate, game):
    import smtplib
    import ssl

    from aiosmtpd.controller import Controller

    from bnomic.mailer.outbound import Sender
    from servers import free_port

    cert, key = certificate
    server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_ctx.load_cert_chain(cert, key)

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            return "250 OK"
    controller = Controller(Handler(), hostname="127.0.0.1", port=free_port(),
                            tls_context=server_ctx, require_starttls=True)
    controller.start()
    try:
        base = {"host": "127.0.0.1", "port": controller.port, "starttls": True}
        with pytest.raises(ssl.SSLCertVerificationError):       # the system's CAs do not know it
            Sender(base, None).connect()
        for settings in ({**base, "cafile": str(cert)}, {**base, "verify": False}):
            smtp = Sender(settings, None).connect()
            try:
                assert smtp.noop()[0] == 250 and smtp.sock.version().startswith("TLS")
            finally:
                smtp.quit()
    finally:
        controller.stop()


# ------------------------------------------------------------------------ logs

def test_the_log_of_a_real_run_says_what_the_docs_promise(live_game, tmp_path):
    import re
    import time

    from daemon import DaemonProcess, Sink, lmtp_send, write_config
    from servers import free_port

    sink = Sink().start()
    port = free_port()
    cfg = write_config(tmp_path, sink.port, port)
    daemon = DaemonProcess(cfg, live_game.db).start(wait_port=port)
    try:
        lmtp_send(port, make_mail("wooble@example.org", "I join as Wooble. I give m500 to The Beast.",
                                  msgid="<log1@example.org>"))
        sink.wait_for(1)
        live_game.admin("clock", "on")
        deadline = time.time() + 20
        while "Clock turned On" not in daemon.output() and time.time() < deadline:
            time.sleep(0.1)
    finally:
        assert daemon.terminate() == 0
        sink.stop()
    lines = daemon.output().splitlines()
    stamp = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (INFO|WARNING|ERROR|DEBUG) bnomic"
    assert lines and all(re.match(stamp, line) for line in lines), lines
    text = "\n".join(lines)
    assert re.search(r"bnomic.lmtp: stored arrival #\d+ \(\d+ bytes\) from \S+", text)   # read when drained (issue 16)
    applied = next(line for line in lines if "applied mail" in line)
    assert ("<log1@example.org> from wooble@example.org: join 'I join as Wooble': done (Rule 4E4)"
            in applied and "give 'I give m500 to The Beast': refused: " in applied
            and "(Rule 4E33)" in applied), applied
    assert re.search(r"applied command #\d+ clock on: done: the Clock is On", text), text
    assert re.search(r"clock: Clock turned On by .*\(Rule 4E14\)", text), text
    assert re.search(r"bnomic.outbound: sent receipt <[^>]+> to wooble@example.org", text)


def test_no_timestamps_under_journald(tmp_path):
    import io
    import logging

    from bnomic.mailer import logs

    out = tmp_path / "stderr"
    with open(out, "w") as stream:
        st = os.fstat(stream.fileno())
        os.environ["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
        logger = logging.getLogger("bnomic.test-journald")
        logger.propagate = False
        try:
            assert logs.under_journald(stream)
            logger.addHandler(logs.handler(stream))
            logger.warning("one\ntwo")
        finally:
            del os.environ["JOURNAL_STREAM"]
            logger.handlers.clear()
        assert not logs.under_journald(io.StringIO())      # not a real stream: stamped
    assert out.read_text() == "WARNING bnomic.test-journald: one | two\n"


def test_every_key_the_example_shows_commented_out_is_known(tmp_path):
    """Uncommenting any `# key = value` line of the example keeps it valid."""
    import re

    from bnomic import config
    example = Path(__file__).parent.parent / "systemd" / "bnomic.toml.example"
    text = re.sub(r"^# (\w+ = )", r"\1", example.read_text(), flags=re.M)
    (tmp_path / "all.toml").write_text(text)
    data = config.load_operator(tmp_path / "all.toml")
    assert {"cafile", "verify", "move_to", "flag", "not_before"} <= set(data["imap"])
    assert {"cafile", "verify", "starttls", "password_file"} <= set(data["smtp_out"])


# ----------------------------------------------------- packaging and the units

def test_the_units_documentation_is_installed_by_the_documented_steps():
    root = Path(__file__).parent.parent
    operators = (root / "docs" / "operators.md").read_text()
    for unit in ("bnomic.service", "bnomic.socket"):
        docs = [line.split("=", 1)[1] for line in (root / "systemd" / unit).read_text().splitlines()
                if line.startswith("Documentation=")]
        assert docs == ["file:///usr/share/doc/bnomic/operators.md"], (unit, docs)
    assert "install -D -m 0644 docs/operators.md /usr/share/doc/bnomic/operators.md" in operators
    assert "COPY docs/operators.md /usr/share/doc/bnomic/operators.md" in \
        (root / "Containerfile").read_text()


def test_the_postgres_extra_brings_the_driver_the_readme_names():
    requires = metadata.requires("bnomic")
    assert any(r.startswith("psycopg2") and 'extra == "postgres"' in r for r in requires), requires
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    assert "pip install 'bnomic[postgres]'" in readme and "postgresql://" in readme
