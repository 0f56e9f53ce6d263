"""The README's first command: the demo game runs, and its rebuild agrees."""
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).parent.parent


def test_the_demo_game_runs(tmp_path):
    run = subprocess.run(["bash", str(ROOT / "examples" / "demo.sh"), str(tmp_path / "demo.sqlite")],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Refused: Chuck has m60, less than m200 (Rule 4E33)" in out
    assert "nweek 2, nday 1 (Breakday), Clock Off" in out
    digest = re.search(r"^([0-9a-f]{64})$", out, re.M).group(1)
    assert f"rebuilt from 12 log entries; digest {digest}" in out
    assert "(was" not in out
