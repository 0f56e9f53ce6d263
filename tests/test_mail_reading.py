"""Issue 3: from raw mail to a Post. Actions are read only from what the sender
wrote; Rule 4E6 decides which fora count; the From line may need vouching for."""
from datetime import datetime, timezone
from email.message import EmailMessage

import pytest

from bnomic.config import Config, defaults, with_settings
from bnomic.mailer import parse

AT = datetime(2008, 9, 1, tzinfo=timezone.utc)


def post_of(raw: bytes, **settings):
    return parse.to_post(raw, AT, Config(with_settings(defaults(), settings)))


def text_mail(body: str, charset="utf-8", headers=None, subtype="plain", **params) -> bytes:
    msg = EmailMessage()
    msg["From"] = "Wooble <wooble@example.org>"
    msg["To"] = "business@example.org"
    msg["Subject"] = "actions"
    msg["Message-ID"] = "<m@example.org>"
    for k, v in (headers or {}).items():
        msg[k] = v
    msg.set_content(body, subtype=subtype, charset=charset)
    for k, v in params.items():
        msg.set_param(k, v)
    return bytes(msg)


def actions(raw: bytes) -> str:
    return parse.own_words(parse.body_text(parse.parse(raw)))


def test_a_quoted_reply_does_not_vote_again():
    body = ("I agree.\n\nOn Mon, Sep 1, 2008 at 10:00 AM, Ais523 <ais@example.org> wrote:\n"
            "> I vote FOR on proposal 12\n> I give m10 to Wooble\n")
    text = actions(text_mail(body))
    assert "vote" not in text and "give" not in text and "I agree." in text


def test_a_two_line_attribution_and_interleaved_reply():
    body = ("On Mon, 1 Sep 2008 10:00:00 +0000\nAis523 <ais@example.org> wrote:\n"
            "> I give m10 to Wooble\nI give m1 to Ais523\n> I forfeit\nCheers\n")
    text = actions(text_mail(body))
    assert text.split("\n") == ["I give m1 to Ais523", "Cheers", ""]


@pytest.mark.parametrize("marker", [
    "-----Original Message-----", "---------- Forwarded message ---------",
    "Begin forwarded message:", "________________________________",
])
def test_forwarded_and_original_message_blocks_are_not_acted_on(marker):
    body = f"I give m1 to Ais523\n\n{marker}\nFrom: Ais523\nI give m10 to Wooble\n"
    assert actions(text_mail(body)).strip() == "I give m1 to Ais523"


def test_an_outlook_header_block_ends_the_senders_words():
    body = ("I give m1 to Ais523\n\nFrom: Ais523 <ais@example.org>\nSent: Monday\n"
            "To: business\nSubject: x\n\nI give m10 to Wooble\n")
    assert actions(text_mail(body)).strip() == "I give m1 to Ais523"


def test_signature_and_comment_text():
    body = "I give m1 to A /* I give m2 to B */\n[[I give m3 to C]]\n-- \nI give m4 to D\n"
    text = actions(text_mail(body))
    assert "m1" in text and not any(f"m{n}" in text for n in (2, 3, 4))


def test_html_only_mail_is_read_as_text_and_html_quotes_are_dropped():
    html = ("<html><head><style>p{}</style></head><body><p>Hi!</p><p>I join as Wooble.</p>"
            "<blockquote>I give m10 to Ais523</blockquote></body></html>")
    text = actions(text_mail(html, subtype="html"))
    assert "I join as Wooble." in text and "m10" not in text and "p{}" not in text


def test_format_flowed_is_unwrapped():
    raw = (b"From: wooble@example.org\nTo: business@example.org\nSubject: x\n"
           b"Message-ID: <f@x>\nContent-Type: text/plain; charset=utf-8; format=flowed\n\n"
           b"I wish to become a Player under the \nname Wooble.\n")
    assert actions(raw).strip() == "I wish to become a Player under the name Wooble."
    raw = raw.replace(b"format=flowed", b"format=flowed; delsp=yes").replace(b"the \nname", b"the  \nname")
    assert actions(raw).strip() == "I wish to become a Player under the name Wooble."


@pytest.mark.parametrize("charset", ["iso-8859-1", "koi8-r", "utf-16", "shift_jis"])
def test_non_utf8_charsets_are_decoded(charset):
    import base64
    name = {"koi8-r": "Юрий", "shift_jis": "太郎"}.get(charset, "Jürgen")
    # built by hand: the stdlib's set_content splits utf-16 on b"\n" and breaks it
    body = base64.encodebytes(f"I join as {name}\n".encode(charset))
    raw = (b"From: w@example.org\nTo: business@example.org\nMessage-ID: <c@x>\n"
           b"MIME-Version: 1.0\nContent-Transfer-Encoding: base64\n"
           + f"Content-Type: text/plain; charset={charset}\n\n".encode() + body)
    assert actions(raw).strip() == f"I join as {name}"


def test_an_unknown_charset_does_not_crash():
    raw = (b"From: w@example.org\nTo: business@example.org\nMessage-ID: <c@x>\n"
           b"Content-Type: text/plain; charset=x-no-such\n\nI join as J\xfcrgen\n")
    assert actions(raw).strip() == "I join as Jürgen"


def test_a_message_with_no_text_part_has_no_actions():
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Message-ID"] = "w@example.org", "business@example.org", "<n@x>"
    msg.add_attachment(b"\x89PNG...", maintype="image", subtype="png", filename="a.png")
    assert actions(bytes(msg)) == ""


def test_an_attached_message_is_not_the_senders_words():
    inner = EmailMessage()
    inner["From"] = "ais@example.org"
    inner.set_content("I give m10 to Wooble")
    outer = EmailMessage()
    outer["From"], outer["To"], outer["Message-ID"] = "w@example.org", "business@example.org", "<o@x>"
    outer.set_content("See the attached.")
    outer.add_attachment(inner)
    assert actions(bytes(outer)).strip() == "See the attached."


# ---------------------------------------------------------------- Rule 4E6

FORA = {"addresses.public_fora": ["business@example.org"],
        "addresses.discussion_fora": ["discuss@example.org"]}


def test_no_fora_configured_means_every_mail_is_public():
    assert post_of(text_mail("x", headers={"Cc": "x@y"})).forum == "public"


@pytest.mark.parametrize("headers, forum", [
    ({}, "public"),                                                   # To: business@
    ({"Cc": "discuss@example.org"}, "public"),
    ({"List-Id": "B Nomic business <business.example.org>"}, "public"),
])
def test_public(headers, forum):
    assert post_of(text_mail("x", headers=headers), **FORA).forum == forum


def test_discussion_and_private():
    raw = text_mail("x").replace(b"To: business@example.org", b"To: discuss@example.org")
    assert post_of(raw, **FORA).forum == "discussion"
    raw = text_mail("x").replace(b"To: business@example.org", b"To: bnomic@example.org")
    assert post_of(raw, **FORA).forum == "private"


def test_actions_in_a_discussion_forum_are_stored_not_acted_on(game):
    game.admin("setting", "addresses.public_fora", '["business@example.org"]')
    game.admin("setting", "addresses.discussion_fora", '["discuss@example.org"]')
    r = game.post("w@example.org", "I join as Wooble", "2008-09-01T10:00:00Z",
                  to="discuss@example.org")
    assert "not acted on: this message reached only a Discussion Forum" in r and "(Rule 4E6)" in r
    assert "Wooble" not in game.players()
    assert len(game.mails()) == 1
    assert "Done" in game.post("w@example.org", "I join as Wooble", "2008-09-01T11:00:00Z")


# ------------------------------------------------------- who sent it

DKIM = {"auth.policy": "dkim", "auth.authserv_id": "mx.example.org"}


@pytest.mark.parametrize("results, ok", [
    ([], False),
    (["mx.example.org; dkim=pass header.d=example.org"], True),
    (["mx.example.org; dkim=pass header.d=evil.example"], False),
    (["mx.example.org; dkim=fail; dmarc=pass header.from=example.org"], True),
    (["evil.example; dkim=pass header.d=example.org"], False),      # another authserv-id
    (["mx.example.org 1; spf=pass; dkim=neutral", "mx.example.org; dmarc=fail"], False),
])
def test_dkim_policy(results, ok):
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Message-ID"] = "w@example.org", "business@example.org", "<a@x>"
    for r in results:
        msg["Authentication-Results"] = r
    msg.set_content("I join as Wooble")
    assert post_of(bytes(msg), **DKIM).verified is ok
    assert post_of(bytes(msg)).verified is True          # policy "trust"


def test_an_unverified_sender_is_answered_not_acted_on(game):
    game.admin("setting", "auth.policy", "dkim")
    game.admin("setting", "auth.authserv_id", "mx.example.org")
    r = game.post("w@example.org", "I join as Wooble", "2008-09-01T10:00:00Z")
    assert "not acted on" in r and "Authentication-Results" in r
    assert "Wooble" not in game.players()


def test_settings_are_in_the_log_and_replay(game):
    game.admin("setting", "players.weekly_income", "30")
    game.join("Wooble", "2008-09-01T10:00:00Z")
    game.next_nweek()
    assert game.players()["Wooble"]["mackerel"] == 80
    before = game.digest()
    game.cli("rebuild")
    assert game.digest() == before
    code, _, err = game.run("admin", "setting", "no.such.key", "1")
    assert code == 1 and "no key" in err


def test_flowed_lines_never_join_across_quote_depth():
    raw = (b"From: w@example.org\nTo: business@example.org\nMessage-ID: <q@x>\n"
           b"Content-Type: text/plain; charset=utf-8; format=flowed\n\n"
           b"Sure. \r\n> I give m50 to Mallory.\r\n> Will you give me money? \r\nI forfeit.\r\n")
    text = actions(raw)
    assert "Mallory" not in text and "I forfeit." in text


def test_only_the_topmost_received_header_gives_the_time():
    raw = (b"Received: from mx by list; Tue, 2 Sep 2008 10:30:00 +0000\n"
           b"Received: from forged by forged; Tue, 2 Sep 2031 10:30:00 +0000\n"
           + text_mail("I join as Wooble"))
    assert parse.arrival_time(parse.parse(raw)).isoformat() == "2008-09-02T10:30:00+00:00"


def test_a_forged_authentication_results_below_ours_is_not_believed():
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Message-ID"] = "w@example.org", "business@example.org", "<f@x>"
    msg["Authentication-Results"] = "mx.example.org; dkim=fail; dmarc=fail"
    msg["Authentication-Results"] = "mx.example.org; dkim=pass header.d=example.org"
    msg.set_content("I join as Wooble")
    assert post_of(bytes(msg), **DKIM).verified is False


def test_only_discussion_fora_configured():
    settings = {"addresses.discussion_fora": ["discuss@example.org"]}
    raw = text_mail("x").replace(b"To: business@example.org", b"To: discuss@example.org")
    assert post_of(raw, **settings).forum == "discussion"
    assert post_of(text_mail("x"), **settings).forum == "public"


def test_a_blank_text_part_falls_back_to_html():
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Message-ID"] = "w@example.org", "business@example.org", "<h@x>"
    msg.set_content("\n")
    msg.add_alternative("<p>I join as Wooble</p>", subtype="html")
    assert actions(bytes(msg)).strip() == "I join as Wooble"


def test_the_derived_id_ignores_delivery_headers():
    raw = text_mail("I join as Wooble").replace(b"Message-ID: <m@example.org>\n", b"")
    again = b"Received: from mx by list; Tue, 2 Sep 2008 10:30:00 +0000\nReturn-Path: <w@x>\n" + raw
    assert parse.message_id(raw) == parse.message_id(again)
