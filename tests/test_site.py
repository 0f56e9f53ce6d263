"""Issue 17: the game on the web. A scenario game (joins, a proposal that
amends a Rule and one titled with markup, votes, the tally) is written as a
static site by the real `bnomic site`, read in a real browser (Debian's
chromium and chromium-driver, through Selenium, headless) and checked by an
HTML validator (tidy)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bnomic.store import close_database, open_database, state_digest

from conftest import Game, make_mail

ROOT = Path(__file__).parent.parent
ARTIFACTS = Path(os.environ.get("BNOMIC_ARTIFACTS", ROOT / "test-artifacts"))
XSS = "<script>alert(1)</script>"
MARKUP_NAME = "Bo<b>ld</b>x"
NEW_TEXT = "B is always just now getting moving again, and its web site says so."


def mail(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower()) + "@example.org"


def play(game: Game) -> None:
    for i, name in enumerate(["Wooble", "Ais523", "Chuck", MARKUP_NAME]):
        game.post(mail(name), f"I join as {name}.", f"2008-09-01T0{i + 1}:00:00Z")
    game.post(mail("Chuck"), "I assign the Ministry of Change to myself.", "2008-09-01T06:00:00Z")
    for n in ["Wooble", "Ais523", "Chuck", MARKUP_NAME]:
        game.admin("set", n, "vested", "true")
    game.post(mail("Wooble"), "I submit the following proposal, titled \"Web\":\n"
              f"Amend Rule 4E76 to read: {{{{ {NEW_TEXT} }}}}\nEND PROPOSAL\n",
              "2008-09-01T07:00:00Z", subject="a proposal")
    game.post(mail("Ais523"), f"I submit the following proposal:\nTitle: {XSS}\n"
              "Set the mackerel of Ais523 to m60\nEND PROPOSAL\n", "2008-09-01T07:30:00Z",
              subject=f"Proposal: {XSS}")
    # private to bnomic: a preview and a display request (never published)
    game.post(mail("Wooble"), "I vote FOR on 1.", "2008-09-01T08:00:00Z", to="bnomic@localhost",
              subject="preview: secret plans")
    game.post(mail("Chuck"), "Please send the Registrar's display.", "2008-09-01T08:10:00Z",
              to="bnomic@localhost", subject="display please, privately")
    game.admin("clock", "on")
    game.tick("2008-09-09T12:00:00Z")
    for n in ["Wooble", "Ais523", "Chuck", MARKUP_NAME]:
        game.post(mail(n), "I vote FOR on 1, 2.", "2008-09-10T10:00:00Z", subject="my votes")
    game.post(mail("Chuck"), "> I vote FOR on 1, 2.\nAgreed, and I vote AGAINST on 2.",
              "2008-09-10T11:00:00Z", subject="Re: my votes")
    game.next_nweek()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("site")
    game = Game(tmp)
    play(game)
    before = game.digest()
    game.cli("site", str(tmp / "www"))
    assert game.digest() == before          # the site only reads the game
    return game, tmp / "www"


def pages(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def text_of(root: Path) -> str:
    return "\n".join(p.read_text("utf-8") for p in pages(root) if p.suffix in (".html", ".atom"))


def test_the_pages_are_there(site):
    game, www = site
    assert www.is_symlink()
    for name in ["index.html", "rules/index.html", "rules/4E76.html", "rules/repealed.html",
                 "proposals/index.html", "proposals/1.html", "proposals/2.html", "players/index.html",
                 "ministries.html", "clock.html", "archive/index.html", "archive/threads.html",
                 "events.atom", "results.atom", "style.css"]:
        assert (www / name).is_file(), name
    rule = (www / "rules/4E76.html").read_text()
    assert NEW_TEXT in rule and "amended" in rule and 'href="../proposals/1.html"' in rule
    assert "in nweek 1" in rule
    proposal = (www / "proposals/1.html").read_text()
    assert 'href="../rules/4E76.html"' in proposal and "Passed" in proposal
    assert "Rule 4E76 amended by Proposal 1" in proposal
    clock = (www / "clock.html").read_text()
    assert "nweek 2" in clock and "No State of Emergency" in clock
    players = (www / "players/index.html").read_text()
    assert "PUBLIC DISPLAY OF THE MINISTRY OF SOCIETY" in players
    svg = next(www.glob("players/*.svg")).read_text()
    assert svg.startswith("<?xml") and "<svg" in svg and "<script" not in svg


def test_markup_from_mail_renders_as_text(site):
    """A proposal titled <script>alert(1)</script> and a player named <b>Bold</b>:
    escaped everywhere, so no page carries a script or a <b> from mail."""
    game, www = site
    assert game.show("proposals")[1]["title"] == XSS
    assert MARKUP_NAME in game.players()
    every = text_of(www)
    assert "<script" not in every.lower()
    assert MARKUP_NAME not in every and "<b>" not in every
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in (www / "proposals/2.html").read_text()
    assert "Bo&lt;b&gt;ld&lt;/b&gt;x" in (www / "players/index.html").read_text()
    for svg in www.glob("players/*.svg"):
        assert "<b>" not in svg.read_text() and "<script" not in svg.read_text()


def test_nothing_private_is_published(site):
    """No address (by default), no preview, no display request sent to bnomic."""
    game, www = site
    every = text_of(www)
    assert "@example.org" not in every and "bnomic@localhost" not in every
    assert "secret plans" not in every and "display please, privately" not in every
    subjects = {m["seq"] for m in game.mails()}
    shown = {int(p.stem) for p in (www / "archive").glob("*.html") if p.stem.isdigit()}
    assert len(shown) == len(subjects) - 2      # the preview and the display request


def test_addresses_shown_when_the_operator_says_so(site, tmp_path):
    game, _ = site
    game.cli("site", str(tmp_path / "open"), "--show-addresses", "--no-fill")
    assert "wooble@example.org" in text_of(tmp_path / "open")


def test_a_message_page_shows_what_came_of_each_action_and_the_state_as_of_it(site):
    game, www = site
    reply = next(p for p in (www / "archive").glob("*.html")
                 if p.stem.isdigit() and "Re: my votes" in p.read_text())
    html = reply.read_text()
    assert "<details" in html and "Agreed" in html       # the quote folded
    assert "Read as: vote AGAINST on 2" in html or "vote AGAINST" in html
    assert "(Rule 4E15)" in html
    state = re.search(r'href="\.\./state/([0-9a-f]+)\.html"', html).group(1)
    listing = (www / f"state/{state}.html").read_text()
    first = re.search(r'href="(Society-[0-9a-f]+\.html)"', listing).group(1)
    assert "PUBLIC DISPLAY OF THE MINISTRY OF SOCIETY" in (www / "state" / first).read_text()


def test_one_message_rewrites_only_the_pages_it_changed(site, tmp_path):
    game, www = site
    copy = tmp_path / "g"
    copy.mkdir()
    import sqlite3
    with sqlite3.connect(game.db) as src, sqlite3.connect(copy / "game.sqlite") as dst:
        src.backup(dst)
    g2 = Game.__new__(Game)
    g2.tmp, g2.db = copy, str(copy / "game.sqlite")
    out = copy / "www"
    g2.post(mail("Chuck"), "Good morning, all.", "2008-09-20T09:00:00Z", subject="morning")
    g2.cli("site", str(out))
    old_target = os.path.realpath(out)
    rule_inode = (out / "rules/4E9.html").stat().st_ino
    g2.post(mail("Wooble"), "Nice weather. I transfer m5 to Chuck.", "2008-09-20T10:00:00Z",
            subject="a gift")
    report = g2.cli("site", str(out), "--json")
    import json
    done = json.loads(report)
    assert os.path.realpath(out) != old_target            # a new tree, swapped in
    assert (out / "rules/4E9.html").stat().st_ino == rule_inode     # the same file, linked
    assert done["unchanged"] > done["written"] > 0
    assert done["written"] < 20, done
    assert not [p for p in done["written_pages"] if p.startswith(("rules/", "proposals/"))]
    seq = max(m["seq"] for m in g2.mails())
    assert (out / f"archive/{seq}.html").is_file()
    # a build with nothing new writes nothing
    again = json.loads(g2.cli("site", str(out), "--json"))
    assert again["written"] == 0


def test_outdir_that_is_not_a_site_is_refused(game, tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "keep.txt").write_text("mine")
    code, _, err = game.run("site", str(tmp_path / "docs"))
    assert code == 1 and "not a site bnomic wrote" in err
    assert (tmp_path / "docs" / "keep.txt").read_text() == "mine"


def test_the_html_validator_finds_no_errors(site):
    tidy = shutil.which("tidy")
    if tidy is None:
        pytest.skip("tidy is not installed (apt-get install tidy)")
    game, www = site
    problems = []
    for page in pages(www):
        if page.suffix != ".html":
            continue
        run = subprocess.run([tidy, "-errors", "-q", "--show-warnings", "no", str(page)],
                             capture_output=True, text=True)
        if run.returncode >= 2 or run.stderr.strip():
            problems.append(f"{page.relative_to(www)}: {run.stderr.strip()}")
    assert not problems, "\n".join(problems[:20])


def test_the_feeds_are_atom(site):
    import xml.etree.ElementTree as ET
    game, www = site
    ns = {"a": "http://www.w3.org/2005/Atom"}
    events = ET.parse(www / "events.atom").getroot()
    assert events.find("a:title", ns).text.endswith("events")
    assert len(events.findall("a:entry", ns)) > 5
    results = ET.parse(www / "results.atom").getroot()
    titles = [e.find("a:title", ns).text for e in results.findall("a:entry", ns)]
    assert any("Results of the voting of nweek 1" in t for t in titles)


# ------------------------------------------------------------------ the browser

def browser():
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not (os.path.exists(driver_path) and os.path.exists(chromium)):
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    selenium = pytest.importorskip("selenium")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    del selenium
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1200,1000"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(driver_path), options=options)


def test_a_reader_follows_the_site_in_a_real_browser(site):
    from selenium.webdriver.common.by import By
    game, www = site
    driver = browser()
    try:
        driver.get((www / "index.html").resolve().as_uri())
        driver.find_element(By.LINK_TEXT, "Ruleset").click()
        assert driver.find_element(By.TAG_NAME, "h1").text == "The Ruleset"
        assert NEW_TEXT in driver.find_element(By.ID, "r4E76").text
        # the rule's history, to the proposal that amended it
        driver.find_element(By.CSS_SELECTOR, "#r4E76 h3 a").click()
        assert driver.find_element(By.TAG_NAME, "h1").text.startswith("Rule 4E76")
        change = driver.find_element(By.CSS_SELECTOR, "li.change")
        assert "amended" in change.text and "nweek 1" in change.text
        change.find_element(By.CSS_SELECTOR, "a.source").click()
        assert driver.find_element(By.TAG_NAME, "h1").text == "Proposal 1: Web"
        assert "Rule 4E76 amended by Proposal 1" in driver.find_element(By.CSS_SELECTOR, "ul.changes").text
        # the proposal titled with markup reads as its text
        driver.get((www / "proposals/2.html").resolve().as_uri())
        assert driver.find_element(By.TAG_NAME, "h1").text == f"Proposal 2: {XSS}"
        assert driver.find_elements(By.TAG_NAME, "script") == []
        # a message in the archive, and what came of its actions
        driver.get((www / "archive/index.html").resolve().as_uri())
        driver.find_element(By.PARTIAL_LINK_TEXT, "Re: my votes").click()
        outcomes = driver.find_element(By.CSS_SELECTOR, "aside.outcomes").text
        assert "vote AGAINST on 2" in outcomes and "Rule 4E15" in outcomes
        assert "Agreed" in driver.find_element(By.CSS_SELECTOR, "div.mail").text
        driver.find_element(By.CSS_SELECTOR, "a.asof").click()
        driver.find_element(By.PARTIAL_LINK_TEXT, "Society").click()
        assert "PUBLIC DISPLAY OF THE MINISTRY OF SOCIETY" in driver.find_element(By.TAG_NAME, "pre").text
        # a player's chart, kept as a test artifact
        driver.get((www / "players/index.html").resolve().as_uri())
        driver.find_element(By.LINK_TEXT, "Wooble").click()
        chart = driver.find_element(By.ID, "chart")
        assert chart.size["width"] > 200 and driver.execute_script(
            "return arguments[0].complete && arguments[0].naturalWidth > 0", chart)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shot = ARTIFACTS / "site-player-chart.png"
        chart.screenshot(str(shot))
        assert shot.stat().st_size > 2000
    finally:
        driver.quit()


def test_the_daemon_writes_the_site_after_a_change(tmp_path):
    """The daemon's hooks (mailer/daemon.py) with [site] path: the state as of
    each mail is captured live, and the site is written when the game changed."""
    from bnomic.mailer import runner
    from bnomic.mailer.daemon import Daemon
    from bnomic.mailer import inbound
    game = Game(tmp_path)
    game.post("wooble@example.org", "I join as Wooble.", "2008-09-01T01:00:00Z")
    www = tmp_path / "www"
    daemon = Daemon({"site": {"path": str(www)}, "lmtp": {"listen": "127.0.0.1:0"}}, game.db)
    open_database(game.db)
    try:
        inbound.store_raw(make_mail("chuck@example.org", "I join as Chuck.",
                                    date="2008-09-01T02:00:00Z"), source="test",
                          use_headers_for_time=True)
        runner.process_pending(each=daemon.after_entry)
        before = state_digest()
        from bnomic.site import build
        with build.locked(build.base_of(www)):      # `bnomic site` writing it: the daemon goes on
            daemon.update_site()
        assert not www.exists()
        daemon.update_site()
        assert state_digest() == before
        pages_ = list((www / "archive").glob("*.html"))
        assert len(pages_) == 4        # index, threads, and the two joins
        chuck = max((p for p in pages_ if p.stem.isdigit()), key=lambda p: int(p.stem)).read_text()
        assert "../state/" in chuck    # captured live, not replayed
        assert "Chuck" in (www / "players/index.html").read_text()
    finally:
        close_database()


def test_addresses_are_hidden_in_any_text():
    from bnomic.site.asof import scrub
    text = "Wooble <wooble@example.org> wrote: write to a.b+c@x.example, or (z@q.org)."
    assert scrub(text, False) == ("Wooble <(address hidden)> wrote: write to (address hidden), "
                                  "or ((address hidden)).")
    assert scrub(text, True) == text


def test_the_site_table_of_the_operators_file(site, tmp_path):
    """`bnomic site --config FILE` takes OUTDIR and the options from [site]."""
    game, _ = site
    where = tmp_path / "configured"
    (tmp_path / "bnomic.toml").write_text(f'[site]\npath = "{where}"\nshow_addresses = true\n'
                                          'title = "Nomic <Web>"\n')
    out = game.cli("site", "--config", str(tmp_path / "bnomic.toml"), "--no-fill")
    assert f"open {where}/index.html" in out
    index = (where / "index.html").read_text()
    assert "<title>Home · Nomic &lt;Web&gt;</title>" in index
    assert "chuck@example.org" in text_of(where)
