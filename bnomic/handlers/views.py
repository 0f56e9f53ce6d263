"""The one presentation layer's registry (issue 14, item 6): every kind of
view bnomic shows — `bnomic show KIND`, each Ministry's Public Display (Rule
4E50), the Ballot and the results it published — is declared once, beside the
data it shows, as a builder and a template:

    @view("emergency", template="show_emergency.txt")
    def emergency_view(ctx: Context, request: Request) -> dict:
        ...                 # the data; with --json it is printed as it is (a contract)

Every builder has that one signature. The template (templates/NAME, Jinja2,
given the data as `d`) makes the text; `template` may instead be a function of
the data that names the template (a display: display_Society.txt). `json`, when
given, makes what --json prints from the data and the text. mailer/views.py
builds and renders (`show`); `bnomic show`, the daemon's publishing and the
answers to display requests all go through it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..store import Game
from .context import Context


@dataclass(frozen=True)
class Request:
    """What was asked besides the kind: `bnomic show display Registrar` (what),
    `bnomic show ballot 3` (what), `--last N` (last)."""
    what: str | None = None
    last: int | None = None


@dataclass(frozen=True)
class ViewKind:
    name: str
    build: Callable[[Context, Request], object]
    template: str | Callable[[object], str]
    json: Callable[[object, str], object] | None = None


VIEWS: dict[str, ViewKind] = {}


def view(name: str, *, template: str | Callable[[object], str],
         json: Callable[[object, str], object] | None = None):
    """Declare a view kind: the decorated function builds its data."""
    def register(fn):
        VIEWS[name] = ViewKind(name, fn, template, json)
        return fn
    return register


def context() -> Context:
    """The Context a view is built in: the game as it is now (nothing is changed)."""
    return Context(Game.get().now, "command")


def build(name: str, ctx: Context | None = None, request: Request = Request()):
    """The data of one view kind (what --json prints, unless the kind says otherwise)."""
    return VIEWS[name].build(ctx or context(), request)
