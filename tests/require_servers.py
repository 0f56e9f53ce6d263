"""In CI (BNOMIC_REQUIRE_SERVERS=1, set by .ci/run) a test that would skip for
want of a real server (PostgreSQL, Dovecot, systemd-analyze) or of the library
that talks to it fails instead: a skip while running a test, and a skip while
collecting a module (`pytest.importorskip` at its top, `pytest.skip(...,
allow_module_level=True)`), which no test report sees. An expected failure (a
strict xfail) is no skip. tests/conftest.py uses these hooks."""
from __future__ import annotations

import os

import pytest


def _required() -> bool:
    return bool(os.environ.get("BNOMIC_REQUIRE_SERVERS"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and not hasattr(report, "wasxfail") and _required():
        report.outcome = "failed"
        report.longrepr = f"skipped, but CI must run every real server: {report.longrepr}"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and _required():
        report.outcome = "failed"
        report.longrepr = (f"{collector.nodeid} skipped while collected, but CI must run every "
                           f"real server: {report.longrepr}")
