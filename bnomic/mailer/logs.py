"""The daemon's log: one event per line on standard error.

Under systemd the journal stamps each line itself; anywhere else (a terminal,
a container, a file) each line begins with its UTC time. systemd tells a
service its standard error is the journal through JOURNAL_STREAM
("DEVICE:INODE" of that stream), which is compared with standard error's own,
so a shell started from a service does not drop the timestamps by mistake.
"""
from __future__ import annotations

import logging
import os
import sys
import time

PLAIN = "%(levelname)s %(name)s: %(message)s"
STAMPED = "%(asctime)s " + PLAIN
DATEFMT = "%Y-%m-%dT%H:%M:%SZ"


def under_journald(stream=None) -> bool:
    value = os.environ.get("JOURNAL_STREAM", "")
    try:
        dev, ino = (int(x) for x in value.split(":"))
        st = os.fstat((stream or sys.stderr).fileno())
    except (ValueError, OSError, AttributeError):
        return False
    return (st.st_dev, st.st_ino) == (dev, ino)


class OneLineFormatter(logging.Formatter):
    """One event per line, tracebacks included (folded with ' | ')."""

    converter = time.gmtime

    def format(self, record):
        return super().format(record).replace("\n", " | ")


def handler(stream=None) -> logging.Handler:
    """A handler writing one line per event to stream (standard error)."""
    stream = stream or sys.stderr
    h = logging.StreamHandler(stream)
    h.setFormatter(OneLineFormatter(PLAIN if under_journald(stream) else STAMPED, DATEFMT))
    return h


def setup(verbose: bool = False) -> None:
    """The daemon's logging: everything through one such handler."""
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO, handlers=[handler()],
                        force=True)
