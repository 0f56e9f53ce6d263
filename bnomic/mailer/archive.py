"""Mail from files: single .eml files, mbox files and maildir folders (stdlib mailbox)."""
from __future__ import annotations

import mailbox
from pathlib import Path
from typing import Iterator


class ArchiveError(ValueError):
    pass


def is_maildir(path: Path) -> bool:
    return path.is_dir() and (path / "cur").is_dir() and (path / "new").is_dir()


def is_mbox(path: Path) -> bool:
    with open(path, "rb") as f:
        return f.read(5) == b"From "


def read(path: str | Path) -> Iterator[tuple[str, bytes]]:
    """Yield (where, raw bytes) for every message at path, in the archive's order."""
    path = Path(path)
    if not path.exists():
        raise ArchiveError(f"no such file or folder: {path}")
    if path.is_dir():
        if not is_maildir(path):
            raise ArchiveError(f"{path} is a folder but not a maildir (no cur/ and new/)")
        box = mailbox.Maildir(path, factory=None, create=False)
        for key in sorted(box.keys()):
            yield f"{path}:{key}", box.get_bytes(key)
    elif is_mbox(path):
        box = mailbox.mbox(path, factory=None, create=False)
        for i, key in enumerate(box.keys(), 1):
            yield f"{path}#{i}", box.get_bytes(key)
    else:
        yield str(path), path.read_bytes()
