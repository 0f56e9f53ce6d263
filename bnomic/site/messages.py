"""The annotated archive's data: the list's messages, what bnomic read in
each and what came of each action (issue 17).

Only mail to the list is published: a mail whose forum is private (Rule 4E6),
and anything sent privately to bnomic (a preview, a display or digest
request), a delivery report or bnomic's own mail echoed by the list never
appears. Senders are named by their player's name; an address is shown only
when the operator's `[site] show_addresses` says so.

Parsing mail is the slow part of a build, and a stored message never changes,
so what is read of each is kept in the site's cache (`messages.json`).
"""
from __future__ import annotations

import bisect
import json
from pathlib import Path

from ..handlers.context import game_config
from ..store import Address, Entry, Event, Message, Outcome, Player, Setup
from .asof import scrub
from .tree import digest

# what a private request to bnomic, or mail not from a player to the list, comes to
PRIVATE_ACTIONS = {"preview", "display_request", "digest", "bounce", "own_mail"}


def _read(raw: bytes, at, rcpt_tos, config) -> dict:
    """What the archive shows of a mail, read as `parse.to_post` reads it (its
    pieces, without vouching for the sender, which the site does not need)."""
    import re
    from ..mailer import headers, parse
    mail = parse.parse(raw)
    name, address = parse.sender(mail)
    return {"subject": headers.plain(parse.one(mail.subject)), "sender": address, "name": name,
            "forum": parse.forum_of(mail, config, rcpt_tos),
            "message_id": parse.message_id(raw, mail),
            "in_reply_to": parse.header(mail, "In-Reply-To").strip(),
            "references": re.findall(r"<[^<>\s]++>", parse.header(mail, "References")),
            "body": parse.body_text(mail)}


def _fora(config) -> str:
    """The configuration that decides a mail's forum: what is read is kept under it."""
    return digest({k: config.get(f"addresses.{k}") for k in
                   ("public_fora", "discussion_fora", "processor", "forum_by_envelope")})


def read_all(cache: Path) -> dict[int, dict]:
    """seq -> what is read of each processed mail (cached by seq and the
    configuration that decides forums; the daemon adds each mail as it comes,
    `read_one`, to a journal beside the cache that this folds in)."""
    config = game_config()
    fora = _fora(config)
    path, journal = cache / "messages.json", cache / "messages.jsonl"
    saved = {}
    if path.exists():
        stored = json.loads(path.read_text("utf-8"))
        if stored.get("fora") == fora:
            saved = stored["messages"]
    added = journal.exists()
    if added:
        for line in journal.read_text("utf-8").split("\n")[:-1]:    # not splitlines: U+2028 is in text
            try:
                item = json.loads(line)
            except ValueError:
                break                           # a torn last line (a crash): read that mail again
            if item["fora"] == fora:
                saved[str(item["seq"])] = item["m"]
    out = {}
    query = (Message.select(Message.entry, Message.raw, Message.rcpt_tos, Entry.at)
             .join(Entry).where(Entry.processed == True).order_by(Entry.seq))  # noqa: E712
    for row in query.objects():
        key = str(row.entry_id)
        if key not in saved:
            saved[key] = _read(bytes(row.raw), row.at, row.rcpt_tos, config)
            added = True
        out[row.entry_id] = saved[key] | {"at": row.at}
    if added:
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"fora": fora, "messages": saved}, ensure_ascii=False), "utf-8")
        tmp.replace(path)
        journal.unlink(missing_ok=True)
    return out


def read_one(cache: Path, seq: int) -> None:
    """The daemon, right after applying mail `seq`: what the archive shows of
    it, added to the journal (a line, not the whole cache again)."""
    config = game_config()
    row = Message.get_or_none(Message.entry == seq)
    if row is None:
        return
    item = {"fora": _fora(config), "seq": seq,
            "m": _read(bytes(row.raw), None, row.rcpt_tos, config)}
    with open(cache / "messages.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n")


def nweek_timeline() -> tuple[list, list, list]:
    """(instants, event seqs, nweeks): the nweek from each Clock event on (Rule 4E14)."""
    setup = Setup.get()
    times, seqs, weeks = [setup.start_at], [0], [setup.nweek]
    for seq, at, data in (Event.select(Event.seq, Event.at, Event.data).where(Event.kind == "clock")
                          .order_by(Event.seq).tuples()):
        if "nweek" in data:
            times.append(at)
            seqs.append(seq)
            weeks.append(data["nweek"])
    return times, seqs, weeks


def nweek_at(timeline, at) -> int:
    """The nweek at an instant (a midnight's changes count as the new nweek's)."""
    times, _, weeks = timeline
    return weeks[max(0, bisect.bisect_right(times, at) - 1)]


def nweek_of_event(timeline, seq: int) -> int:
    """The nweek an event happened in: what happens at the end of an nweek
    (the tally) is recorded before the Clock changes."""
    _, seqs, weeks = timeline
    return weeks[max(0, bisect.bisect_right(seqs, seq) - 1)]


def split_quotes(text: str) -> list[dict]:
    """The text in runs: the writer's own lines, and quoted lines ("> ...") to fold."""
    runs: list[dict] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        quoted = line.lstrip().startswith(">")
        if runs and runs[-1]["quoted"] == quoted:
            runs[-1]["lines"].append(line)
        else:
            runs.append({"quoted": quoted, "lines": [line]})
    return [{"quoted": r["quoted"], "text": "\n".join(r["lines"])} for r in runs
            if r["quoted"] or "\n".join(r["lines"]).strip()]


def archive(cache: Path, show_addresses: bool) -> list[dict]:
    """Every published message, oldest first, with its outcomes and thread."""
    from ..handlers.pinned import pins_from
    from ..mailer.receipts import read_as
    read = read_all(cache)
    pins = pins_from(0)             # every mail's pinned readings in one query, not one a mail
    names = {a: n for a, n in Address.select(Address.address, Player.name).join(Player).tuples()}
    outcomes: dict[int, list] = {}
    for o in Outcome.select().where(Outcome.entry.in_(list(read))).order_by(Outcome.entry, Outcome.position):
        outcomes.setdefault(o.entry, []).append(o)
    timeline = nweek_timeline()
    published, thread_of, seq_of = [], {}, {}
    for seq, m in read.items():
        done = outcomes.get(seq, [])
        if m["forum"] == "private" or any(o.action in PRIVATE_ACTIONS for o in done):
            continue
        parents = [r for r in m["references"] + [m["in_reply_to"]] if r in thread_of]
        thread = thread_of[parents[0]] if parents else seq
        thread_of.setdefault(m["message_id"], thread)
        seq_of.setdefault(m["message_id"], seq)
        player = names.get(m["sender"])
        shown_name = player or scrub(m["name"], show_addresses) or "(not a player)"
        readings = read_as(seq, done, pins) if done else []     # no outcomes: nothing read as anything
        published.append({
            "seq": seq, "at": m["at"], "nweek": nweek_at(timeline, m["at"]),
            "subject": scrub(m["subject"], show_addresses) or "(no subject)",
            "from": shown_name, "player": player,
            "address": m["sender"] if show_addresses else None,
            "forum": m["forum"], "thread": thread,
            "reply_to": seq_of.get(m["in_reply_to"]) if m["in_reply_to"] != m["message_id"] else None,
            "message_id": m["message_id"] if show_addresses else None,
            "runs": split_quotes(scrub(m["body"], show_addresses)),
            "outcomes": [{"text": scrub(o.text, show_addresses), "action": o.action,
                          "accepted": o.accepted, "reason": scrub(o.reason or "", show_addresses),
                          "rule": o.rule if o.rule and o.rule != "operator" else None,
                          "read_as": scrub(readings[i] or "", show_addresses)}
                         for i, o in enumerate(done)]})
    return published
