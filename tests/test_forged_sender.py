"""Issue 12, item 1: nobody acts as another player under `[auth] policy = "dkim"`.

Authentication-Results is parsed (RFC 8601), only the topmost one from our
authserv-id counts, its dkim=pass must carry a header.d aligned with the one
From address (or dmarc=pass a header.from equal to its domain), and mail with
more than one From address or From line is refused."""
import pytest

from bnomic.mailer import parse
from test_mail_reading import AT, post_of

DKIM = {"auth.policy": "dkim", "auth.authserv_id": "mx.example.org"}
ALICE = "Alice <alice@example.org>"


def mail(results: list[str], froms: list[str] = (ALICE,), body: str = "I forfeit") -> bytes:
    """A raw mail: Authentication-Results top first, then the From lines as given."""
    head = [f"Authentication-Results: {r}" for r in results]
    head += [f"From: {f}" for f in froms]
    head += ["To: business@example.org", "Subject: actions", "Message-ID: <forged@attacker.example>",
             "Content-Type: text/plain; charset=utf-8"]
    return ("\r\n".join(head) + "\r\n\r\n" + body + "\r\n").encode()


GENUINE = ("mx.example.org; dkim=pass (2048-bit key; unprotected) header.d=example.org "
           "header.i=@example.org header.b=\"AbCdEf\"")

# (why, Authentication-Results top first, From lines, vouched for?)
CASES = [
    ("genuine OpenDKIM pass", [GENUINE], [ALICE], True),
    ("genuine DMARC pass", ["mx.example.org; dkim=fail header.d=example.org; "
                            "dmarc=pass (p=reject dis=none) header.from=example.org"], [ALICE], True),
    ("rspamd style, one header", ["mx.example.org; dkim=pass header.d=example.org header.s=s1 "
                                  "header.b=XyZ; spf=pass smtp.mailfrom=alice@example.org"], [ALICE], True),
    ("a subdomain's From, signed by its parent", [GENUINE], ["alice@lists.example.org"], True),
    ("the authserv-id in other case, with a version", ["MX.Example.ORG 1; DKIM=pass "
                                                       "header.d=Example.ORG"], [ALICE], True),
    # the forgeries of issue 12
    ("OpenDKIM's comment hides header.d: the ';' in it", [
        "mx.example.org; dkim=pass (2048-bit key; unprotected) header.d=attacker.example "
        "header.i=@attacker.example header.b=\"AbCdEf\""], [ALICE], False),
    ("spf=pass whose mailfrom spells dkim=pass", [
        "mx.example.org; spf=pass smtp.mailfrom=dkim=pass@attacker.example"], [ALICE], False),
    ("dkim=pass inside the reason of a failing result", [
        "mx.example.org; dkim=fail reason=\"dkim=pass\""], [ALICE], False),
    ("dkim=pass and header.d inside a reason", [
        "mx.example.org; dkim=fail reason=\"dkim=pass header.d=example.org\" "
        "header.d=attacker.example"], [ALICE], False),
    ("dmarc=pass for another domain", [
        "mx.example.org; dmarc=pass header.from=attacker.example"], [ALICE], False),
    ("two addresses on the From line", [
        "mx.example.org; dkim=pass header.d=attacker.example; dmarc=pass header.from=attacker.example"],
     ["alice@example.org, mallory@attacker.example"], False),
    ("two From lines, Alice's first", [
        "mx.example.org; dkim=pass header.d=attacker.example; dmarc=pass header.from=attacker.example"],
     [ALICE, "mallory@attacker.example"], False),
    ("two From lines, Alice's second", [GENUINE], ["mallory@attacker.example", ALICE], False),
    # more of the same kind
    ("dkim=pass with no header.d at all", ["mx.example.org; dkim=pass"], [ALICE], False),
    ("header.d only in a comment", ["mx.example.org; dkim=pass (header.d=example.org) "
                                    "header.d=attacker.example"], [ALICE], False),
    ("a sibling signer", ["mx.example.org; dkim=pass header.d=attacker.example.org"], [ALICE], False),
    ("a signer whose name ends like the domain", ["mx.example.org; dkim=pass header.d=ample.org"],
     [ALICE], False),
    ("a forged pass below our failing header", ["mx.example.org; dkim=fail header.d=example.org",
                                                GENUINE], [ALICE], False),
    ("a pass from another authserv-id", [GENUINE.replace("mx.example.org", "mx.attacker.example")],
     [ALICE], False),
    ("our header unreadable, a forged one below", ["mx.example.org; dkim=pass header.d=example.org ,, ;",
                                                   GENUINE], [ALICE], False),
    ("an address in the display name", ["mx.example.org; dkim=pass header.d=attacker.example"],
     ["alice@example.org <mallory@attacker.example>"], False),
    ("an address in an encoded display name", ["mx.example.org; dkim=pass header.d=attacker.example"],
     ["=?utf-8?q?alice=40example=2Eorg_=3Cmallory=40attacker=2Eexample=3E=2C?= alice@example.org"],
     False),
    ("no From line", [GENUINE], [], False),
]


@pytest.mark.parametrize("why, results, froms, ok", CASES, ids=[c[0] for c in CASES])
def test_forged_sender_table(why, results, froms, ok):
    post = post_of(mail(results, froms), **DKIM)
    assert post.verified is ok, why
    if ok:
        assert post.sender.endswith("example.org")


@pytest.mark.parametrize("why, results, froms, ok", CASES, ids=[c[0] for c in CASES])
def test_a_refusal_says_why(why, results, froms, ok):
    post = post_of(mail(results, froms), **DKIM)
    assert bool(post.unverified_why) is not ok


@pytest.mark.parametrize("froms", [["alice@example.org, mallory@attacker.example"],
                                   [ALICE, "mallory@attacker.example"]])
def test_two_senders_are_refused_whatever_the_policy(froms):
    post = post_of(mail([], froms))              # policy "trust"
    assert not post.verified and "From" in post.unverified_why
    assert parse.sender(parse.parse(mail([], froms))) == ("", "")


def test_the_trust_policy_believes_one_from_line():
    assert post_of(mail([], [ALICE])).verified
    assert post_of(mail([], [ALICE])).sender == "alice@example.org"


def test_an_overlong_header_is_not_believed():
    long = GENUINE + " (" + "x" * parse.MAX_AUTH_RESULTS + ")"
    assert not post_of(mail([long]), **DKIM).verified


def test_a_forged_alice_does_not_act_as_alice(game, tmp_path):
    """The whole path: Alice joined with a genuine pass; the forgeries do nothing."""
    game.admin("setting", "auth.policy", "dkim")
    game.admin("setting", "auth.authserv_id", "mx.example.org")

    def ingest(raw: bytes, at: str) -> str:
        path = tmp_path / f"m{abs(hash(raw))}.eml"
        path.write_bytes(raw)
        return game.cli("ingest", "--at", at, str(path))

    genuine = mail([GENUINE], body="I join as Alice").replace(b"<forged@", b"<join@")
    assert "Done" in ingest(genuine, "2008-09-01T10:00:00Z")
    for i, (why, results, froms, ok) in enumerate(c for c in CASES if not c[3] and c[2]):
        raw = mail(results, froms).replace(b"<forged@", f"<forged{i}@".encode())
        receipt = ingest(raw, f"2008-09-01T11:{i:02d}:00Z")
        assert "not acted on" in receipt and "(Rule 4E7)" in receipt, why
    assert "Alice" in game.players()             # she never forfeited
    assert not [e for e in game.show("events") if e["kind"] == "forfeit"]
