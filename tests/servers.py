"""Real servers for integration tests, started by the test and stopped after it."""
from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PostgresServer:
    """A throwaway PostgreSQL cluster in a folder, on a free loopback port.
    As root, it runs as the 'postgres' user (PostgreSQL refuses to run as root)."""

    def __init__(self, folder: Path):
        self.bin = pg_bin()
        self.folder = folder
        self.data = folder / "data"
        self.port = free_port()
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _run(self, *cmd, check=True):
        return subprocess.run([*self.as_user, *cmd], check=check, capture_output=True, text=True)

    def start(self) -> str:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.as_user:
            shutil.chown(self.folder, "postgres")
            os.chmod(self.folder, 0o755)
            for parent in list(self.folder.parents)[:-1]:
                os.chmod(parent, os.stat(parent).st_mode | 0o011)
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "bnomic", "-A", "trust",
                  "--no-sync")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "-l",
                  str(self.folder / "log"), "-o",
                  f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off",
                  "start")
        for _ in range(50):
            if self._run(str(self.bin / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port),
                         check=False).returncode == 0:
                break
            time.sleep(0.1)
        return f"postgresql://bnomic@127.0.0.1:{self.port}/postgres"

    def create_database(self, name: str) -> str:
        self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                  "-U", "bnomic", name)
        return f"postgresql://bnomic@127.0.0.1:{self.port}/{name}"

    def stop(self):
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop",
                  check=False)
