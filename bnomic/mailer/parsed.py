"""A mail's parsed fields, kept with the log (schema 13, issue 16 part H).

Parsing a mail (mail-parser, the body's quotes and signature) is most of what
a replay spends on it, and its result never changes: the same bytes give the
same fields. So when a mail's entry is first applied, what the engine reads of
the mail that does not depend on the configuration is stored in `parsedmail`
(one row per mail, keyed by the entry whose mail it is): the Post's fields
(sender, display name, subject, Message-ID, In-Reply-To, References, the
sender's own words, the quoted words, the To and Cc addresses, why the From
line cannot be told) and the few headers the checks read (X-Loop, Return-Path,
Auto-Submitted, List-Id, Delivered-To, X-Original-To, Authentication-Results,
the content type). A replay (`rebuild`, `--as-of`, an approval's) builds the
Post from them and never parses the raw mail; what depends on the
configuration in force (the forum, Rule 4E6; whether the From line is vouched
for; the reply gate) is still worked out from them at apply time.

A `Parsed` stands in for the parsed mail wherever the engine passes one: it
answers what it keeps, and for anything else (a header not kept, a delivery
report's parts) parses the raw mail then, once. Rows made by another
`VERSION` of this module are not trusted: the mail is parsed again and its row
replaced. `bnomic rebuild --reparse` drops every row first, so the log's raw
mail alone makes the state again.
"""
from __future__ import annotations

import json

from ..store import ParsedMail, hot
from . import parse

# what a row holds; a row of another version is parsed again (and replaced)
VERSION = 1

# the headers the engine reads of a mail while applying it, beyond the Post
KEPT_HEADERS = ("return-path", "auto-submitted", "x-loop", "list-id", "x-original-to",
                "delivered-to", "authentication-results", "in-reply-to", "references", "subject")

_MISSING = object()


class _Head:
    """The parsed mail's `message` (an email.message.Message) as far as kept:
    `get`, `get_all` of the kept headers, the content type and its report-type;
    anything else is asked of the mail, parsed then."""

    def __init__(self, owner: "Parsed", kept: dict, content_type: str, report_type):
        self._owner = owner
        self._kept = kept
        self._content_type = content_type
        self._report_type = report_type

    def get(self, name, failobj=None):
        values = self._kept.get(name.lower(), _MISSING)
        if values is _MISSING:
            return self._owner.mail().message.get(name, failobj)
        return values[0] if values else failobj

    def get_all(self, name, failobj=None):
        values = self._kept.get(name.lower(), _MISSING)
        if values is _MISSING:
            return self._owner.mail().message.get_all(name, failobj)
        return list(values) if values else failobj

    def get_content_type(self) -> str:
        return self._content_type

    def get_param(self, param, failobj=None, header="content-type", unquote=True):
        if (param.lower(), header.lower(), unquote) == ("report-type", "content-type", True) \
                and self._report_type is not _MISSING:
            return failobj if self._report_type is None else self._report_type
        return self._owner.mail().message.get_param(param, failobj, header, unquote)

    def __getattr__(self, name):        # walk(), is_multipart(), ...: the mail itself
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._owner.mail().message, name)


class Parsed:
    """A mail as `parse.parse` gives it, from its stored fields (see the module's note)."""

    def __init__(self, fields: dict, raw_of=None):
        self.fields = fields
        self._bnomic_post_fields = fields["post"]       # parse.to_post reads these
        self._raw_of = raw_of           # () -> the raw bytes, if a field not kept is asked for
        self._mail = None
        self.subject = fields["subject"]
        self.message_id = fields["message_id"]
        self.to = [tuple(a) for a in fields["to"]]
        self.cc = [tuple(a) for a in fields["cc"]]
        self._bnomic_from_line = tuple(fields["from_line"])
        report = fields.get("report_type", _MISSING)
        self.message = _Head(self, fields["headers"], fields["content_type"], report)

    @classmethod
    def of(cls, raw: bytes, mail) -> "Parsed":
        """The fields of `mail` (parse.parse(raw)), read as the engine reads them.
        The Post's fields come first, as parse.to_post reads them (a mail it fails
        on fails here the same way); a header that cannot be read is not kept
        (it is read from the mail, when asked for, as before)."""
        post = parse.post_fields(raw, mail)
        message = mail.message
        kept = {}
        for name in KEPT_HEADERS:
            try:
                kept[name] = [str(v) for v in (message.get_all(name) or [])]
            except Exception:
                pass
        fields = {"post": post, "subject": parse.one(mail.subject),
                  "message_id": parse.one(mail.message_id),
                  "to": [list(a) for a in (getattr(mail, "to", None) or [])],
                  "cc": [list(a) for a in (getattr(mail, "cc", None) or [])],
                  "from_line": list(parse.from_line(mail)), "headers": kept,
                  "content_type": message.get_content_type()}
        if fields["content_type"] == "multipart/report":
            try:
                report = message.get_param("report-type")
                if report is None or isinstance(report, str):
                    fields["report_type"] = report
            except Exception:
                pass
        made = cls(fields, lambda: raw)
        made._mail = mail
        return made

    def mail(self):
        """The mail parsed from its raw bytes (what is not kept is read here)."""
        if self._mail is None:
            self._mail = parse.parse(self._raw_of())
        return self._mail

    def __getattr__(self, name):        # received, date, ...: the mail itself
        if name.startswith("_") or name == "fields":   # what parse caches on a mail: not kept
            raise AttributeError(name)
        return getattr(self.mail(), name)


def encode(parsed: Parsed) -> str:
    # ASCII only: a header's undecodable bytes (surrogates) survive the round trip
    return json.dumps(parsed.fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def load(seq: int, raw_of) -> Parsed | None:
    """The stored fields of entry `seq`'s mail, or None (none stored, or made by
    another version). `raw_of()` gives its raw bytes, if ever needed."""
    if hot.fast():
        row = hot.execute("parsed mail", lambda: 'SELECT "version", "fields" FROM "parsedmail" '
                          'WHERE ("entry" = ?)', (seq,)).fetchone()
    else:
        found = ParsedMail.get_or_none(ParsedMail.entry == seq)
        row = (found.version, found.fields) if found is not None else None
    if row is None or row[0] != VERSION:
        return None
    return Parsed(json.loads(row[1]), raw_of)


def keep(seq: int, parsed: Parsed) -> None:
    """Store (or replace) entry `seq`'s fields."""
    text = encode(parsed)
    if hot.fast():
        hot.execute("keep parsed mail", lambda: 'INSERT OR REPLACE INTO "parsedmail" '
                    '("entry", "version", "fields") VALUES (?, ?, ?)', (seq, VERSION, text))
    else:
        ParsedMail.insert(entry=seq, version=VERSION, fields=text).on_conflict(
            conflict_target=[ParsedMail.entry],
            update={ParsedMail.version: VERSION, ParsedMail.fields: text}).execute()


def of_entry(seq: int, raw: bytes) -> Parsed:
    """Entry `seq`'s mail (its bytes `raw`) as parsed: from its stored fields,
    or parsed now and its fields stored (its first apply, a game from before
    schema 13, or after `drop_from`)."""
    found = load(seq, lambda: raw)
    if found is None:
        found = Parsed.of(raw, parse.parse(raw))
        keep(seq, found)
    return found


def drop_from(first: int = 1) -> int:
    """Drop the stored fields of entries `first` and later (their mail is parsed
    again at its next apply); how many were dropped."""
    return ParsedMail.delete().where(ParsedMail.entry >= first).execute()
