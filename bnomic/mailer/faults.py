"""Failures on purpose, for the tests that a dying worker stops the daemon
(issue 11). When BNOMIC_FAULTS names a file and that file names a worker
(engine, outbox, imap, receiver), that worker's loop raises WorkerFault where
no guard of its own catches it, as an unexpected error would. Unset, as in
production, `inject` does nothing but read one environment variable."""
from __future__ import annotations

import os

FAULTS_ENV = "BNOMIC_FAULTS"


class WorkerFault(BaseException):
    """An injected failure; a BaseException, so that no `except Exception` stops it."""


def inject(worker: str) -> None:
    path = os.environ.get(FAULTS_ENV)
    if not path:
        return
    try:
        with open(path) as f:
            named = f.read().split()
    except OSError:
        return
    if worker in named:
        raise WorkerFault(f"a failure injected into the {worker} loop ({FAULTS_ENV})")
