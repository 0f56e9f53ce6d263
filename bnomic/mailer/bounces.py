"""Bounces: a delivery report to bnomic that names a player's address marks
that address as bouncing, so bnomic stops mailing it (receipts, displays,
digests) instead of mailing it forever. Mail read from that address later
clears the mark. The mark is state (`bounce`), made while the report's log
entry is applied, so a replay marks the same addresses."""
from __future__ import annotations

import email.utils
from datetime import datetime

from ..store import Address, Bounce, Entry, Outcome, database, hot, versions
from . import parse


def _may_be_marked(address: str) -> bool:
    """Whether `address` may have a mark to clear: the marked addresses are read once
    per write transaction while the table is unchanged (store/versions.py), so the
    mail of an address never marked deletes nothing, with no statement (issue 16)."""
    if not versions.active(database):
        return True
    return address in versions.cached(
        database, "bounced addresses", ("bounce",),
        lambda: frozenset(a for (a,) in database.execute_sql('SELECT "address" FROM "bounce"').fetchall()))


def is_report(mail, envelope_from: str | None) -> bool:
    """A delivery status notification (RFC 3464), or mail from the null sender."""
    if envelope_from == "" or (envelope_from is None and
                               parse.header(mail, "Return-Path").strip() == "<>"):
        return True
    return (mail.message.get_content_type() == "multipart/report"
            and (mail.message.get_param("report-type") or "").lower() == "delivery-status")


def failed_recipients(mail) -> list[tuple[str, str]]:
    """(address, why) for each recipient a delivery report says failed."""
    found = []
    for part in mail.message.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        blocks = part.get_payload()
        for block in blocks if isinstance(blocks, list) else []:
            if str(block.get("Action", "")).strip().lower() != "failed":
                continue
            recipient = str(block.get("Final-Recipient") or block.get("Original-Recipient") or "")
            address = email.utils.parseaddr(recipient.split(";", 1)[-1].strip())[1].lower()
            why = " ".join(str(block.get(h)).strip() for h in ("Status", "Diagnostic-Code")
                           if block.get(h))
            if address:
                found.append((address, " ".join(why.split())[:300]))
    return found


def note(entry: Entry, mail, sender: str, envelope_from: str | None, at: datetime) -> Outcome | None:
    """While a mail's entry is applied: a report naming players' addresses marks
    them (and is the entry's one Outcome); any other mail from a marked address
    clears its mark (the address works again) and goes on to be read."""
    if not is_report(mail, envelope_from):
        if sender and _may_be_marked(sender):
            hot.delete(Bounce, {"address": sender})
        return None
    marked = []
    for address, why in failed_recipients(mail):
        if Address.get_or_none(Address.address == address) is None:
            continue                    # only players' addresses; never a list's
        Bounce.insert(address=address, since=at, entry=entry.seq, reason=why) \
            .on_conflict_replace().execute()
        marked.append(address)
    if not marked:
        return None
    return Outcome.create(entry=entry.seq, position=1, action="bounce", text=parse.one(mail.subject),
                          accepted=True, reason=f"delivery to {', '.join(marked)} failed; bnomic "
                          "stops mailing it until mail from it arrives")


def bouncing(addresses: list[str]) -> set[str]:
    wanted = [a.strip().lower() for a in addresses]
    return {b.address for b in Bounce.select(Bounce.address).where(Bounce.address.in_(wanted))}
