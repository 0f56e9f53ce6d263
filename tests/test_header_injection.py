"""Issue 12, item 2: nobody writes bnomic's outbound mail.

Each vector is a mail ingested through `bnomic ingest`; its receipt is queued
and sent by the real `outbound.Sender` to a real SMTP sink on loopback, and the
bytes that arrive are checked: exactly the headers bnomic sets, no Bcc or
X-Injected, the loop guards as headers, the body as queued. Python 3.11 before
3.11.10 writes a decoded CR/LF into a header (CVE-2024-6923); these tests hold
whatever the patch level."""
import email
import email.policy
import re
import time
from datetime import datetime, timezone

import pytest

from bnomic.handlers.context import game_config
from bnomic.mailer import headers
from bnomic.mailer.outbound import Sender, build
from bnomic.store import Outbox
from bnomic.store.db import open_database
from conftest import Game, recent
from daemon import DaemonProcess, Sink, write_config
from servers import free_port

EXPECTED = ["from", "to", "subject", "date", "message-id", "in-reply-to", "references",
            "auto-submitted", "x-loop", "precedence", "content-type",
            "content-transfer-encoding", "mime-version"]


class RawSink(Sink):
    """The sink of tests/daemon.py, keeping the bytes exactly as they arrived."""

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.messages.append((envelope.mail_from, list(envelope.rcpt_tos),
                                  envelope.original_content))
        return "250 OK"


INJECT = "=0D=0ABcc:_victim@example.net=0D=0AX-Injected:_1=0D=0A=0D=0Aattacker_body"

# (name, the vector's header lines)
VECTORS = [
    ("encoded CR/LF in Subject", [f"Subject: =?utf-8?q?actions{INJECT}?="]),
    ("encoded CR/LF in Subject, encoded twice", [
        "Subject: =?utf-8?q?=3D=3Futf-8=3Fq=3Factions=3D0D=3D0ABcc=3A=5Fvictim=40example.net"
        "=3D0D=3D0AX-Injected=3A=5F1=3F=3D?="]),
    ("encoded CR/LF in Message-ID", [
        f"Message-ID: <inj1@attacker.example>=?utf-8?q?{INJECT}?="]),
    ("folded Message-ID with a Bcc line", [
        "Message-ID: <inj2@attacker.example>\r\n Bcc: victim@example.net"]),
    ("encoded CR/LF in References", [
        f"References: <r1@example.org> =?utf-8?q?{INJECT}?= <r2@example.org>"]),
    ("folded References with a Bcc line", [
        "References: <r1@example.org>\r\n\tBcc: victim@example.net\r\n <r2@example.org>"]),
    ("an encoded CR/LF inside the angle brackets", [
        f"References: <r1=?utf-8?q?{INJECT}?=@example.org>"]),
]


def vector_mail(lines: list[str], n: int) -> bytes:
    head = [f"From: Wooble <v{n}@example.org>", "To: business@example.org"]
    if not any(line.startswith("Subject:") for line in lines):
        head.append("Subject: actions")
    if not any(line.startswith("Message-ID:") for line in lines):
        head.append(f"Message-ID: <vector{n}@example.org>")
    head += lines + ["Content-Type: text/plain; charset=utf-8"]
    return ("\r\n".join(head) + f"\r\n\r\nI join as Wooble{n}\r\n").encode()


def header_names(raw: bytes) -> list[str]:
    head = raw.partition(b"\r\n\r\n")[0]
    return [line.split(b":", 1)[0].decode().lower()
            for line in head.split(b"\r\n") if line[:1] not in (b" ", b"\t")]


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    """One game, its daemon (`bnomic run`) sending to a raw SMTP sink: the real path."""
    folder = tmp_path_factory.mktemp("inject")
    game = Game(folder, start=recent())
    sink = RawSink().start()
    lmtp = free_port()
    daemon = DaemonProcess(write_config(folder, sink.port, lmtp), game.db).start(wait_port=lmtp)
    yield game, sink, folder
    try:
        assert daemon.terminate() == 0
    finally:
        sink.stop()


@pytest.mark.parametrize("n, name, lines", [(n, *v) for n, v in enumerate(VECTORS)],
                         ids=[v[0] for v in VECTORS])
def test_a_receipt_carries_no_injected_header(running, n, name, lines):
    game, sink, folder = running
    path = folder / f"vector{n}.eml"
    path.write_bytes(vector_mail(lines, n))
    game.cli("ingest", str(path))          # the daemon's engine applies it and queues the receipt
    deadline = time.time() + 30
    while time.time() < deadline:
        arrived = [m for m in sink.wait_for(n + 1, timeout=1) if m[1] == [f"v{n}@example.org"]]
        if arrived:
            break
    [(mail_from, rcpt_tos, raw)] = arrived
    assert mail_from == "bnomic@example.org"
    open_database(game.db)
    [row] = [r for r in Outbox.select() if r.to == [f"v{n}@example.org"]]
    names = header_names(raw)
    assert [h for h in EXPECTED if h in names] == names, names      # nothing but ours, in order
    assert {"from", "to", "subject", "message-id", "auto-submitted", "x-loop"} <= set(names)
    assert b"\r\nBcc:" not in raw and b"\r\nX-Injected:" not in raw
    head, _, body = raw.partition(b"\r\n\r\n")
    assert b"\r\nAuto-Submitted: auto-replied\r\n" in head + b"\r\n"
    assert b"\r\nX-Loop: bnomic@example.org\r\n" in head + b"\r\n"
    sent = email.message_from_bytes(raw, policy=email.policy.default)
    assert sent.get_content().replace("\r\n", "\n") == row.body      # the body as queued
    assert sent.get_content().startswith("Your message ") and not sent.is_multipart()
    for value in (row.subject, row.in_reply_to or "", row.references or ""):
        assert not re.search(r"[\x00-\x1f\x7f]", value)


def test_every_header_of_a_vector_is_decoded_once_and_plain():
    raw = vector_mail(VECTORS[0][1], 2)
    from bnomic.mailer.parse import parse, to_post
    post = to_post(raw, datetime(2008, 9, 1, tzinfo=timezone.utc))
    assert "\n" not in post.subject and "\r" not in post.subject
    assert headers.text("=?utf-8?q?a=0D=0Ab?=") == "a b"
    assert headers.text("x\u202ey") == "xy"
    assert headers.msg_ids("<a@b>=?utf-8?q?=0D=0ABcc:_x@y?= <c@d> <e f@g> <h=?i@j>") == ["<a@b>", "<c@d>"]
    assert headers.msg_id("<ok.1@[127.0.0.1]>") == "<ok.1@[127.0.0.1]>"
    assert headers.msg_id("<a@b>\r\nBcc: x") is None
    assert parse(raw)                    # the mail itself still reads


def test_build_refuses_a_row_it_cannot_make_safe(game):
    """Rows queued by older code or from a player's words (an Emergency Forum)."""
    open_database(game.db)
    now = datetime(2008, 9, 1, tzinfo=timezone.utc)
    row = Outbox.create(message_id="<x@localhost>", kind="notice", to=["a@example.org\r\nBcc: v@x"],
                        subject="s", body="b", queued_at=now, next_attempt_at=now)
    with pytest.raises(ValueError):
        build(row, game_config())
    row = Outbox.create(message_id="<y@localhost>", kind="notice", to=["a@example.org"],
                        subject="=?utf-8?q?s=0D=0ABcc:_v@x?=", body="b",
                        in_reply_to="<a@b>\r\nBcc: v@x", references="<a@b> =?utf-8?q?=0D=0AX:_1?=",
                        queued_at=now, next_attempt_at=now)
    msg = build(row, game_config())
    assert msg["Subject"] == "s Bcc: v@x" and msg["In-Reply-To"] == "<a@b>" and msg["References"] == "<a@b>"


def test_the_serialized_check_catches_a_header_the_library_let_through():
    with pytest.raises(headers.UnsafeHeaders):
        headers.check_serialized(b"Subject: a\r\nBcc: v@x\r\n\r\nbody", ["Subject"])
    with pytest.raises(headers.UnsafeHeaders):
        headers.check_serialized(b"Subject: a\rBcc: v@x\r\n\r\nbody", ["Subject"])
    headers.check_serialized(b"Subject: a\r\n b\r\nTo: x@y\r\n\r\nbody", ["Subject", "To"])
