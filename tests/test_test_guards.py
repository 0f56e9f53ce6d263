"""Tests that can fail (issue 14, item 7): a skip cannot pass for a run in CI.

Each case runs a real pytest in a subprocess on a scratch test file, with the
hooks of tests/require_servers.py (the ones tests/conftest.py uses), with and
without BNOMIC_REQUIRE_SERVERS."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent

CASES = {
    # a module that skips while collected: the way `importorskip` at its top skips
    "collected": "import pytest\npytest.importorskip('no_such_module_for_bnomic')\n\n"
                 "def test_it():\n    pass\n",
    # a test that skips while running: a server that is not there
    "running": "import pytest\n\ndef test_it():\n    pytest.skip('no Dovecot here')\n",
}


def _pytest(tmp_path, source: str, require: bool) -> subprocess.CompletedProcess:
    (tmp_path / "test_scratch.py").write_text(source)
    env = {k: v for k, v in os.environ.items() if k != "BNOMIC_REQUIRE_SERVERS"}
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")])
    if require:
        env["BNOMIC_REQUIRE_SERVERS"] = "1"
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "require_servers", "-q",
                           "-p", "no:cacheprovider", "test_scratch.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("when", sorted(CASES))
def test_a_skip_fails_when_servers_are_required(tmp_path, when):
    done = _pytest(tmp_path, CASES[when], require=True)
    assert done.returncode != 0, done.stdout
    assert "CI must run every real server" in done.stdout, done.stdout


@pytest.mark.parametrize("when", sorted(CASES))
def test_a_skip_is_a_skip_otherwise(tmp_path, when):
    done = _pytest(tmp_path, CASES[when], require=False)
    # 5: "no tests ran" (the module skipped whole), 0: the test skipped
    assert done.returncode in (0, 5) and "1 skipped" in done.stdout, done.stdout


def test_the_postgres_tests_skip_while_running_not_while_collected():
    """test_postgres.py must not skip at import (importorskip) for want of its
    driver: its skips are marks, which the hook sees."""
    source = (TESTS / "test_postgres.py").read_text()
    assert "importorskip" not in source and "allow_module_level" not in source
