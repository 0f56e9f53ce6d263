"""Issue 11: the Containerfile is built and run for real (podman): `bnomic
init` and `bnomic run` in the container, one mail delivered by LMTP on
loopback, seen stored and applied; a clean stop on SIGTERM; timestamped logs."""
from __future__ import annotations

import json
import re
import time

import pytest

from bnomic.mailer.cli import main
from conftest import make_mail
from container import Podman, missing
from daemon import lmtp_send
from servers import free_port


@pytest.fixture
def podman(tmp_path):
    why = missing()
    if why:
        pytest.skip(why)
    return Podman(tmp_path)


def show_log(db: str) -> list:
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        if main(["show", "log", "--json", "--db", db]) != 0:
            return []
    return json.loads(out.getvalue())


def test_the_container_image_builds_runs_and_takes_mail(podman, tmp_path):
    tag = f"localhost/bnomic-test:{tmp_path.name.lower()}"
    podman.build(tmp_path / "context", tag)
    state = tmp_path / "state"
    state.mkdir()
    state.chmod(0o777)                      # the image's own user writes the game there
    port = free_port()
    config = tmp_path / "bnomic.toml"
    config.write_text(f'[database]\npath = "/var/lib/bnomic/game.sqlite"\n'
                      f'[lmtp]\nlisten = "127.0.0.1:{port}"\n'
                      f'[smtp_out]\nhost = "127.0.0.1"\nport = {free_port()}\n'
                      '[addresses]\nprocessor = "bnomic@example.org"\n'
                      'public_fora = ["business@example.org"]\n')
    name = f"bnomic-test-{tmp_path.name.lower()}"
    podman("run", "-d", "--name", name, "--network=host",
           "-v", f"{config}:/etc/bnomic/bnomic.toml:ro", "-v", f"{state}:/var/lib/bnomic", tag)
    try:
        deadline = time.monotonic() + 60
        while "bnomic is running" not in podman("logs", name).stderr:
            assert time.monotonic() < deadline, podman("logs", name).stderr
            assert podman("inspect", "-f", "{{.State.Running}}", name).stdout.strip() == "true", \
                podman("logs", name).stderr
            time.sleep(0.2)
        assert lmtp_send(port, make_mail("wooble@example.org", "I join as Wooble.",
                                         msgid="<container@example.org>")) == {}
        db = str(state / "game.sqlite")
        deadline = time.monotonic() + 30
        while not any(e.get("processed") for e in show_log(db) if e["kind"] == "mail"):
            assert time.monotonic() < deadline, podman("logs", name).stderr
            time.sleep(0.2)
        mail = next(e for e in show_log(db) if e["kind"] == "mail")
        assert mail["message_id"] == "<container@example.org>"
        assert mail["outcomes"][0]["accepted"] and mail["outcomes"][0]["rule"] == "4E4"
        status = json.loads(podman("exec", name, "bnomic", "status", "--json",
                                   "--config", "/etc/bnomic/bnomic.toml").stdout)
        assert status["log_backlog"] == 0
        podman("stop", "-t", "30", name)
        assert podman("inspect", "-f", "{{.State.ExitCode}}", name).stdout.strip() == "0"
        shown = podman("logs", name)
        logs = shown.stdout + shown.stderr
    finally:
        podman("rm", "-f", name, check=False)
        podman("rmi", "-f", tag, check=False)
    assert "created a game in /var/lib/bnomic/game.sqlite" in logs
    lines = [line for line in logs.splitlines() if " bnomic." in line]
    assert lines and all(re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ", line) for line in lines), logs
    assert "applied mail" in logs and "from wooble@example.org: join" in logs
    assert "stopped" in lines[-1]
