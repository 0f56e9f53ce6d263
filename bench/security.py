"""What the issue-12 checks cost: deciding who sent a mail (the From line and
Authentication-Results, parsed by authres), making a receipt's headers safe,
and comparing a new name with every Player's (UTS #39 skeletons).

    python bench/security.py [--rounds N] [--players P]

authres parses in time that grows with the square of the header's length, so
the worst case is measured too: a header of parse.MAX_AUTH_RESULTS characters,
the longest bnomic reads.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bnomic.config import Config, defaults, with_settings  # noqa: E402
from bnomic.handlers import names  # noqa: E402
from bnomic.mailer import headers, parse  # noqa: E402

GENUINE = ("mx.example.org; dkim=pass (2048-bit key; unprotected) header.d=example.org "
           "header.i=@example.org header.b=\"AbCdEf\"; spf=pass (mx.example.org: domain of "
           "alice@example.org designates 192.0.2.1 as permitted sender) "
           "smtp.mailfrom=alice@example.org; dmarc=pass (p=reject dis=none) header.from=example.org")


def mail(results: str) -> bytes:
    return (f"Authentication-Results: {results}\r\nFrom: Alice <alice@example.org>\r\n"
            "To: business@example.org\r\nSubject: =?utf-8?q?actions=0D=0ABcc:_x@y?=\r\n"
            "Message-ID: <a@example.org>\r\nReferences: <r1@x> <r2@x> =?utf-8?q?=0D=0A?=\r\n"
            "\r\nI vote FOR on proposal 12\r\n").encode()


def rate(fn, rounds: int) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        fn()
    return rounds / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--players", type=int, default=200)
    args = ap.parse_args()
    config = Config(with_settings(defaults(), {"auth.policy": "dkim",
                                               "auth.authserv_id": "mx.example.org"}))
    typical = parse.parse(mail(GENUINE))
    longest = GENUINE + " (" + "x" * (parse.MAX_AUTH_RESULTS - len(GENUINE) - 3) + ")"
    worst = parse.parse(mail("mx.example.org; " + "; ".join(
        ["dkim=pass header.d=example.org"] * (parse.MAX_AUTH_RESULTS // 32))[:parse.MAX_AUTH_RESULTS - 20]))
    assert parse.vouch(typical, config) == ""
    print(f"vouch, a typical header ({len(GENUINE)} chars): {rate(lambda: parse.vouch(typical, config), args.rounds):,.0f}/s")
    long_mail = parse.parse(mail(longest))
    print(f"vouch, a {len(longest)}-char header with a long comment: "
          f"{rate(lambda: parse.vouch(long_mail, config), max(10, args.rounds // 20)):,.0f}/s")
    print(f"vouch, a ~{parse.MAX_AUTH_RESULTS}-char header of many results (authres's worst): "
          f"{rate(lambda: parse.vouch(worst, config), 20):,.1f}/s")
    subject = typical.message.get("Subject")
    print(f"headers.text on an encoded Subject: {rate(lambda: headers.text(subject), args.rounds):,.0f}/s")
    refs = str(typical.message.get("References"))
    print(f"headers.msg_ids on References: {rate(lambda: headers.msg_ids(refs), args.rounds):,.0f}/s")
    players = [f"Player{i:04d}" for i in range(args.players)]
    names.keys("warm the table up")
    print(f"a new name against {args.players} Players' names: "
          f"{rate(lambda: any(names.confusable('Аlice', p) for p in players), max(10, args.rounds // 50)):,.1f}/s")


if __name__ == "__main__":
    main()
