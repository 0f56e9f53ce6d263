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
    # the heart of the game: a Ballot published for the Chairman, votes, the tally
    assert "PROPOSAL 2: Fewer Fish\nAuthor: Gurg\nConflicts: 1\n\nSet A Few to 3\n" in out
    assert "    Applied: A Few (quantities.a_few) set from 4 to 5 by Proposal 1\n" in out
    assert ("    Gurg: 0 -> 0 (-1; a score cannot be less than zero, Rule 4E17)\n"
            "        +2: a Final Vote other than ABSTAIN on proposals 1, 2\n"
            "        -3: proposal 2 Failed and was never Won\n") in out
    assert f"rebuilt from 17 log entries; digest {digest}" in out
    assert "(was" not in out
    # the site, and where to open it (issue 17)
    assert f"Open file://{tmp_path}/bnomic-demo-site/index.html in a browser" in out
    assert "Rule 4E30" in (tmp_path / "bnomic-demo-site" / "rules" / "index.html").read_text()
