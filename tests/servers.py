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
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "-t", "600", "-l",
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

    def restart(self):
        """Start the stopped cluster again (after stop(), which is a crash). Recovery on a
        loaded machine can take longer than pg_ctl's default minute: it waits up to ten."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "-t", "600", "-l",
                  str(self.folder / "log"), "-o",
                  f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off",
                  "start")


# ------------------------------------------------------------------ Dovecot

DOVECOT = "/usr/sbin/dovecot"


def dovecot_bin() -> str | None:
    return DOVECOT if os.path.exists(DOVECOT) else shutil.which("dovecot")


class DovecotServer:
    """A throwaway Dovecot IMAP server: its own configuration, sockets, state and
    log in a folder, one passwd-file user with a maildir there, plain IMAP on a
    free loopback port (Debian's dovecot-imapd; see shared/docs/test-servers.md).

    As root, the mail user gets nobody's uid (imap processes refuse root); the
    package's dovenull/dovecot users run the login and internal processes. As
    another user Dovecot runs rootless, everything under that user's own uid.

    Its folder is its own (mkdtemp), not under pytest's tmp_path: the mail and
    passwd-file must be reachable by Dovecot's unprivileged users, and pytest
    resets /tmp/pytest-of-USER to mode 0700 whenever another session starts.
    close() removes it, keeping a copy of the log where asked.

    stop() ends the whole process group. `doveadm stop` alone leaves connected
    imap sessions running (seen with 2.3.19), so clients would never see a drop;
    a test of reconnection needs them gone, as after a real restart.
    start() after stop() brings the same server back on the same port."""

    def __init__(self, folder: Path | None = None, user: str = "bot", password: str = "secret"):
        import pwd
        import tempfile

        self.bin = dovecot_bin()
        self.own_folder = folder is None
        self.folder = Path(tempfile.mkdtemp(prefix="bnomic-dovecot-") if folder is None else folder)
        self.port = free_port()
        self.user, self.password = user, password
        self.conf = self.folder / "dovecot.conf"
        self.log = self.folder / "dovecot.log"
        self.home = self.folder / "mail" / user
        self.proc: subprocess.Popen | None = None
        self.root = os.geteuid() == 0
        me = pwd.getpwuid(os.geteuid())
        if self.root:
            nobody = pwd.getpwnam("nobody")
            self.uid, self.gid = nobody.pw_uid, nobody.pw_gid
        else:
            self.uid, self.gid = me.pw_uid, me.pw_gid
        self.me = me.pw_name

    def version(self) -> tuple[int, ...]:
        out = subprocess.run([self.bin, "--version"], capture_output=True, text=True).stdout
        return tuple(int(x) for x in out.split()[0].split(".")[:2])

    def _write_config(self) -> None:
        import grp

        f = self.folder
        for sub in ("run", "state", "mail"):
            (f / sub).mkdir(parents=True, exist_ok=True)
        os.chmod(f, 0o755)
        os.chmod(f / "mail", 0o755)
        if self.root:
            shutil.chown(f / "mail", self.uid, self.gid)
            if not self.own_folder:         # let nobody and dovecot reach the folder
                for parent in list(f.parents)[:-1]:
                    os.chmod(parent, os.stat(parent).st_mode | 0o011)
        users = f / "users"
        users.write_text(f"{self.user}:{{PLAIN}}{self.password}:{self.uid}:{self.gid}::{self.home}\n")
        os.chmod(users, 0o644)
        listener = f"""service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
"""
        rootless = "" if self.root else f"""default_internal_user = {self.me}
default_internal_group = {grp.getgrgid(self.gid).gr_name}
default_login_user = {self.me}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
"""
        common = f"""base_dir = {f / 'run'}
state_dir = {f / 'state'}
log_path = {self.log}
protocols = imap
listen = 127.0.0.1
ssl = no
auth_mechanisms = plain login
first_valid_uid = 0
"""
        if self.version() >= (2, 4):   # the 2.4 syntax (Debian 13); written from its docs
            text = f"""dovecot_config_version = 2.4.0
dovecot_storage_version = 2.4.0
{common}auth_allow_cleartext = yes
mail_driver = maildir
mail_path = ~/Maildir
passdb passwd-file {{
  passwd_file_path = {users}
}}
userdb passwd-file {{
  passwd_file_path = {users}
}}
{listener}{rootless}"""
        else:
            text = f"""{common}disable_plaintext_auth = no
mail_location = maildir:~/Maildir
# no stats process to talk to: a login process would wait 5 s for it at stop
stats_writer_socket_path =
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {users}
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {users}
}}
{listener}{rootless}"""
        self.conf.write_text(text)

    def start(self) -> "DovecotServer":
        if not self.conf.exists():
            self._write_config()
        out = open(self.folder / "dovecot.out", "ab")
        self.proc = subprocess.Popen([self.bin, "-F", "-c", str(self.conf)], stdout=out,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        out.close()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"dovecot exited ({self.proc.returncode}): "
                                   + (self.folder / "dovecot.out").read_text()
                                   + (self.log.read_text() if self.log.exists() else ""))
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    if s.recv(100).startswith(b"* OK"):
                        return self
            except OSError:
                pass
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"dovecot did not answer on port {self.port}")

    def stop(self) -> None:
        import signal

        proc, self.proc = self.proc, None
        if proc is None:
            return
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                proc.wait(timeout=5)
                break
            except subprocess.TimeoutExpired:
                continue
        try:                                   # the group's other processes, if any linger
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def close(self, keep_log: Path | None = None) -> None:
        """Stop, copy the log to keep_log (if given), remove the folder if it is ours."""
        self.stop()
        if keep_log is not None and self.log.exists():
            shutil.copyfile(self.log, keep_log)
        if self.own_folder:
            shutil.rmtree(self.folder, ignore_errors=True)

    def client(self):
        """A logged-in IMAPClient (the test's side: APPEND, CREATE, DELETE, flags)."""
        from imapclient import IMAPClient

        c = IMAPClient("127.0.0.1", self.port, ssl=False, timeout=10)
        c.login(self.user, self.password)
        return c

    def settings(self, **extra) -> dict:
        """The `[imap]` table an operator would write for this server."""
        return {"host": "127.0.0.1", "port": self.port, "username": self.user,
                "password": self.password, **extra}
