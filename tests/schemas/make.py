"""Make the fixture games tests/schemas/v1.db ... v7.db, each with the code of
the last commit at that schema version (see README.md here).

    python tests/schemas/make.py            # every version
    python tests/schemas/make.py 6 7        # only these

Each version's code is taken from git (`git archive COMMIT bnomic`) into a
scratch folder and run as `python -m bnomic.mailer.cli` with that folder first
on PYTHONPATH (the packages are this venv's). The same short game is played
with each, as far as that version understands it: the example mails of
examples/mail (players join, give and pay money, chat; from version 6 two
proposals), an intent and an objection (version 3 on), a Ministry taken and
usurped (4 on), the Clock turned On, time moved to the Voting Period, the
example votes (6 on), a Priest Ordained (7), and time moved into nweek 2.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from email.message import EmailMessage
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
EXAMPLES = REPO / "examples"

# the last commit of the main repository at each schema version
COMMITS = {1: "1502e9f", 2: "331a8cb", 3: "f83d796", 4: "b1e1acd", 5: "0c226b9",
           6: "803ec6a", 7: "8cca9b4", 8: "5e8a668", 9: "e2fe73d", 10: "5bc036f",
           11: "db5b465", 12: "7e4f211", 13: "7cb10c5", 14: "25e672a"}

ADDRESSES = {"Wooble": "wooble@thewoobles.example", "ais523": "ais523@bham.example",
             "Chuck": "chuck@ccarroll.example", "Pavitra": "pavitra@example.com",
             "Gurg": "gurg@example.org"}


def mail(folder: Path, n: int, who: str, body: str, date: str) -> Path:
    msg = EmailMessage()
    msg["From"] = f"{who} <{ADDRESSES[who]}>"
    msg["To"] = "business@example.org"
    msg["Subject"] = "actions"
    msg["Date"] = date
    msg["Message-ID"] = f"<fixture-{n}@example.org>"
    msg.set_content(body)
    path = folder / f"extra-{n:02}.eml"
    path.write_bytes(bytes(msg))
    return path


def extract(version: int, into: Path) -> Path:
    """That version's `bnomic` package, from git, in a folder of its own."""
    code = into / f"code-v{version}"
    code.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", COMMITS[version], "bnomic"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(code)], input=archive, check=True)
    return code


def play(version: int, db: str, code: Path, scratch: Path) -> None:
    """The fixture game, played by that version's code in `db` (a path or a URL)."""
    env = {**os.environ, "PYTHONPATH": str(code)}

    def bnomic(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "bnomic.mailer.cli", args[0],
                               "--db", db, *args[1:]], cwd=code, env=env,
                              capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"v{version}: bnomic {' '.join(args)}: {done.stderr}")
        return done.stdout

    where = subprocess.run([sys.executable, "-c", "import bnomic; print(bnomic.__file__)"],
                           cwd=code, env=env, capture_output=True, text=True).stdout
    assert where.startswith(str(code)), f"v{version} would run {where}, not its own code"

    bnomic("init", "--start", "2008-09-01T00:00:00Z", "--seed", f"fixture-v{version}")
    mails = sorted((EXAMPLES / "mail").glob("*.eml"))
    if version < 6:      # the proposals (11, 12) mean nothing before version 6
        mails = [m for m in mails if m.name < "11"]
    bnomic("ingest", *map(str, mails))
    extra = scratch / f"extra-v{version}"
    extra.mkdir()
    if version >= 4:
        bnomic("ingest", str(mail(extra, 1, "Chuck", "I take the Ministry of Change with a "
                                  "Reward of m80.", "Thu, 04 Sep 2008 10:00:00 +0000")))
        bnomic("ingest", str(mail(extra, 2, "Gurg", "I usurp the Ministry of Change, "
                                  "proposing a Reward of m60", "Thu, 04 Sep 2008 19:00:00 +0000")))
    if version >= 3:
        bnomic("ingest", str(mail(extra, 3, "Wooble", "I intend to cause the Beast to forfeit "
                                  "without objection in 2 rdays",
                                  "Fri, 05 Sep 2008 10:00:00 +0000")))
        bnomic("ingest", str(mail(extra, 4, "Pavitra", "I object to Wooble's intent to cause "
                                  "the Beast to forfeit", "Fri, 05 Sep 2008 12:00:00 +0000")))
    if version >= 7:
        bnomic("ingest", str(mail(extra, 5, "ais523", "I become Ordained.",
                                  "Fri, 05 Sep 2008 13:00:00 +0000")))
    bnomic("admin", "clock", "on")
    bnomic("tick", "--until", "2008-09-12T12:00:00Z")
    if version >= 6:
        bnomic("ingest", *map(str, sorted((EXAMPLES / "votes").glob("*.eml"))))
    bnomic("tick", "--until", "2008-09-16T12:00:00Z")


def make(version: int) -> Path:
    """tests/schemas/v{version}.db, made anew."""
    out = HERE / f"v{version}.db"
    with tempfile.TemporaryDirectory(prefix=f"bnomic-v{version}-") as tmp:
        tmp = Path(tmp)
        db = tmp / "game.sqlite"
        play(version, str(db), extract(version, tmp), tmp)
        con = sqlite3.connect(db)
        con.execute("VACUUM")
        con.close()
        shutil.copyfile(db, out)
    return out


def main(argv: list[str]) -> None:
    for version in [int(v) for v in argv] or sorted(COMMITS):
        path = make(version)
        con = sqlite3.connect(path)
        found = con.execute("SELECT version FROM schemaversion").fetchone()[0]
        players = con.execute("SELECT count(*) FROM player").fetchone()[0]
        con.close()
        assert found == version, f"{path} has schema version {found}, not {version}"
        print(f"{path.name}: schema version {found}, {players} players, "
              f"{path.stat().st_size} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
