"""The systemd units in systemd/, checked with the real `systemd-analyze`.

verify needs every Exec*= binary to exist, so the units are copied into a
temporary folder with the bnomic path rewritten to an installed executable.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

UNITS = Path(__file__).resolve().parent.parent / "systemd"
SERVICE, SOCKET = UNITS / "bnomic.service", UNITS / "bnomic.socket"
EXAMPLE = UNITS / "bnomic.toml.example"
SHIPPED_BINARY = "/usr/local/bin/bnomic"
# `systemd-analyze security --offline=yes` gave 0.9 (systemd 252) once hardened;
# the bare Type=notify + DynamicUser + StateDirectory + ProtectSystem unit gave 8.4.
EXPOSURE_REACHED = 0.9

analyze = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(analyze is None, reason="systemd-analyze is not installed")


def directives(path: Path) -> dict[str, dict[str, list[str]]]:
    """{section: {key: [values in order]}}; keys may repeat in unit files."""
    out: dict[str, dict[str, list[str]]] = {}
    section = None
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = out.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        section.setdefault(key.strip(), []).append(value.strip())
    return out


def last(units, section, key):
    values = units.get(section, {}).get(key)
    return values[-1] if values else None


@pytest.fixture
def copies(tmp_path):
    """The two units in a temporary folder, their bnomic binary an existing one."""
    binary = shutil.which("bnomic") or shutil.which("true")
    assert binary and Path(binary).is_absolute()
    for unit in (SERVICE, SOCKET):
        text = unit.read_text().replace(SHIPPED_BINARY, binary)
        (tmp_path / unit.name).write_text(text)
    return tmp_path / SERVICE.name, tmp_path / SOCKET.name


def run(*args, cwd):
    return subprocess.run([analyze, *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


@needs_analyze
def test_verify_is_clean(copies):
    service, socket = copies
    result = run("verify", service, socket, cwd=service.parent)
    ours = [line for line in result.stderr.splitlines()
            if "bnomic" in line or str(service.parent) in line]
    assert result.returncode == 0, result.stderr
    assert ours == [], "\n".join(ours)


@needs_analyze
def test_security_exposure(copies):
    service, _ = copies
    result = run("security", "--offline=yes", service, cwd=service.parent)
    assert result.returncode == 0, result.stderr
    found = re.search(r"Overall exposure level for bnomic\.service: (\d+(?:\.\d+)?)", result.stdout)
    assert found, result.stdout
    assert float(found.group(1)) <= EXPOSURE_REACHED, result.stdout


def test_service_contract():
    units = directives(SERVICE)
    service = units["Service"]
    assert last(units, "Service", "Type") == "notify"
    assert last(units, "Service", "NotifyAccess") == "main"
    assert last(units, "Service", "WatchdogSec") == "60"
    assert last(units, "Service", "DynamicUser") == "yes"
    assert last(units, "Service", "StateDirectory") == "bnomic"
    assert last(units, "Service", "RuntimeDirectory") == "bnomic"
    assert last(units, "Service", "ConfigurationDirectory") == "bnomic"
    assert last(units, "Service", "Restart") == "on-failure"
    assert last(units, "Service", "KillSignal") == "SIGTERM"
    start = last(units, "Service", "ExecStart").split()
    assert start[0] == SHIPPED_BINARY and start[1:] == ["run", "--config", "/etc/bnomic/bnomic.toml"]
    pre = last(units, "Service", "ExecStartPre").split()
    assert pre[0] == SHIPPED_BINARY and pre[1] == "init" and "--if-missing" in pre
    assert pre[pre.index("--config") + 1] == "/etc/bnomic/bnomic.toml"
    assert "--db" not in pre            # both commands take [database] path from the file
    assert "BNOMIC_DB=/var/lib/bnomic/game.sqlite" in service["Environment"]
    assert set(" ".join(service["RestrictAddressFamilies"]).split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}
    assert last(units, "Service", "IPAddressDeny") == "any"
    assert last(units, "Service", "IPAddressAllow") == "localhost"
    assert last(units, "Service", "CapabilityBoundingSet") == ""
    assert last(units, "Service", "MemoryDenyWriteExecute") == "yes"


def test_socket_contract():
    units = directives(SOCKET)
    assert last(units, "Socket", "ListenStream") == "127.0.0.1:8024"
    assert last(units, "Socket", "Accept") == "no"
    assert last(units, "Socket", "Service") == "bnomic.service"
    assert last(units, "Install", "WantedBy") == "sockets.target"


def test_example_configuration_has_every_table():
    config = tomllib.loads(EXAMPLE.read_text())
    assert set(config) >= {"database", "lmtp", "smtp", "smtp_out", "imap",
                           "addresses", "auth", "receipts"}
    assert config["database"]["path"] == "/var/lib/bnomic/game.sqlite"
    assert "listen" not in config["lmtp"]          # bnomic.socket hands the listener over
    assert config["lmtp"]["max_message_size"] == 1048576
    assert config["smtp_out"] == {"host": "127.0.0.1", "port": 25}
    assert set(config["addresses"]) == {"processor", "public_fora", "discussion_fora", "forum_by_envelope"}
    assert config["auth"]["policy"] in ("trust", "dkim")
    assert config["receipts"] == {"to": "sender", "daily_cap": 20, "hourly_cap": 10}
    text = EXAMPLE.read_text()
    for key in ("starttls", "username", "password_file", "ssl", "mailbox", "a_jiffy", "weekly_income",
                "archive_url"):
        assert re.search(rf"^#\s*{key}\b", text, re.M), key
