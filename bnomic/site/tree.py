"""Writing the site's files: a new tree per build, swapped in by a rename.

OUTDIR is a symbolic link to the current generation, `.OUTDIR.site/gen-N`
beside it. A build writes generation N+1 in full, then points a new link at
it and renames that link over OUTDIR (rename(2) is atomic), so a reader (or a
web server) sees the old site or the new one, never half of either.

Each page has a digest of what it is made from (its data and the templates).
A page whose digest is the one recorded for the previous generation is not
rendered again: its file is hard-linked from that generation, so one message
rewrites only the pages it changed (`Tree.written` counts those).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

MANIFEST = "manifest.json"
KEEP = 2            # generations kept: the current one and the one before it


class Busy(Exception):
    """Another process is writing this site now."""


class TreeError(Exception):
    """OUTDIR is something this writer will not replace."""


def digest(data, salt: str = "") -> str:
    text = json.dumps(data, sort_keys=True, default=str, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256((salt + "\n" + text).encode("utf-8")).hexdigest()


class Tree:
    def __init__(self, outdir: str | os.PathLike, progress=None):
        self.progress = progress            # called every so many pages (the daemon's watchdog)
        self.link = Path(os.path.abspath(outdir))
        self.base = self.link.parent / f".{self.link.name}.site"
        if self.link.is_symlink():
            pass
        elif self.link.exists():
            if not self.link.is_dir() or any(self.link.iterdir()):
                raise TreeError(f"{self.link} exists and is not a site bnomic wrote (it is a "
                                "symbolic link to the current build); name a new or empty directory")
        self.base.mkdir(parents=True, exist_ok=True)
        self.old_dir, self.old_pages, number = None, {}, 0
        if self.link.is_symlink():
            target = Path(os.path.realpath(self.link))
            manifest = target / f".{MANIFEST}"
            if manifest.exists():
                saved = json.loads(manifest.read_text("utf-8"))
                self.old_dir, self.old_pages, number = target, saved["pages"], saved["generation"]
        self.generation = number + 1
        self.new_dir = self.base / f"gen-{self.generation}"
        if self.new_dir.exists():           # a build that died before its swap
            shutil.rmtree(self.new_dir)
        self.new_dir.mkdir()
        self.pages: dict[str, str] = {}
        self.written: list[str] = []
        self.linked = 0
        self._folders: set[Path] = set()       # made already

    @property
    def cache(self) -> Path:
        """A folder kept from build to build (the state-as-of captures); never served."""
        path = self.base / "cache"
        path.mkdir(exist_ok=True)
        return path

    def page(self, path: str, data, render) -> bool:
        """Write `path` (relative): from the previous generation if its digest
        (of `data`) is unchanged, else `render()` (text or bytes). True if rendered."""
        if not self.needs(path, data):
            return False
        self.write(path, render())
        return True

    def needs(self, path: str, data) -> bool:
        """`page` in two steps, for pages rendered elsewhere (the charts, by a
        pool of processes): record `path`'s digest and link it from the previous
        generation if unchanged; True if it must be rendered and `write`n."""
        key = digest(data)
        self.pages[path] = key
        if self.progress is not None and len(self.pages) % 100 == 0:
            self.progress()
        target = self.new_dir / path
        if target.parent not in self._folders:
            target.parent.mkdir(parents=True, exist_ok=True)
            self._folders.add(target.parent)
        if self.old_dir is not None and self.old_pages.get(path) == key:
            try:
                os.link(self.old_dir / path, target)
                self.linked += 1
                return False
            except OSError:
                pass
        return True

    def write(self, path: str, body) -> None:
        (self.new_dir / path).write_bytes(body.encode("utf-8") if isinstance(body, str) else body)
        self.written.append(path)

    def commit(self) -> Path:
        """Swap the new generation in (one rename) and drop the older ones."""
        (self.new_dir / f".{MANIFEST}").write_text(
            json.dumps({"generation": self.generation, "pages": self.pages}, sort_keys=True), "utf-8")
        if self.link.exists() and not self.link.is_symlink():
            self.link.rmdir()               # the empty directory the operator made for us
        temporary = self.link.parent / f".{self.link.name}.new-link"
        if temporary.is_symlink() or temporary.exists():
            temporary.unlink()
        temporary.symlink_to(os.path.relpath(self.new_dir, self.link.parent))
        os.replace(temporary, self.link)
        for old in self.base.glob("gen-*"):
            try:
                n = int(old.name[4:])
            except ValueError:
                continue
            if n <= self.generation - KEEP:
                shutil.rmtree(old, ignore_errors=True)
        return self.new_dir

    def abandon(self) -> None:
        shutil.rmtree(self.new_dir, ignore_errors=True)
