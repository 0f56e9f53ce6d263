"""One presentation layer (issue 14, item 6): every kind `bnomic show` knows is
a view kind — a builder with one signature and a template — and the displays
bnomic publishes and sends on request are rendered by the same kind."""
from __future__ import annotations

import ast
import inspect
from datetime import datetime, timezone
from pathlib import Path

from bnomic.handlers.context import Context, game_config
from bnomic.handlers.views import VIEWS
from bnomic.mailer import cli, publish, views
from bnomic.store import Game as GameRow, Outbox, close_database, open_database, write_transaction

TEMPLATES = Path(cli.__file__).parent.parent / "templates"
HANDLERS = Path(cli.__file__).parent.parent / "handlers"


def test_every_show_kind_is_a_view_kind_with_one_signature_and_a_template():
    assert set(cli.SHOW_KINDS) == set(VIEWS)
    for name, kind in VIEWS.items():
        assert list(inspect.signature(kind.build).parameters) == ["ctx", "request"], name
        if isinstance(kind.template, str):
            assert (TEMPLATES / kind.template).is_file(), (name, kind.template)


def test_no_area_keeps_a_view_function_of_its_own():
    """The five `view()` functions (with four signatures) are view kinds now; a
    new one would be a second presentation layer."""
    for path in sorted(HANDLERS.glob("*.py")):
        tree = ast.parse(path.read_text())
        names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
        assert "view" not in names or path.name == "views.py", path.name
        assert "view_all" not in names, path.name


def test_show_has_no_chain_of_kinds():
    """cmd_show asks the registry; it does not compare the kind itself."""
    tree = ast.parse(inspect.getsource(cli.cmd_show))
    compared = [n for n in ast.walk(tree) if isinstance(n, ast.Compare)
                and any(isinstance(x, ast.Attribute) and x.attr == "kind" for x in ast.walk(n))]
    assert compared == []


def test_the_published_display_is_the_shown_one(game):
    """publish_changed (the daemon) renders a display through the same view kind
    as `bnomic show display`: the mail's body is the command's text."""
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.post("wooble@example.org", "I become the Registrar.", "2008-09-01T10:00:00Z")
    shown = game.cli("show", "display", "Registrar")
    open_database(game.db)
    try:
        with write_transaction():
            assert publish.publish_changed(game_config(), datetime(2008, 9, 1, 12, tzinfo=timezone.utc)) \
                == ["Society"]
        (row,) = Outbox.select().where(Outbox.kind == "display")
        assert row.body == shown
        ctx = Context(GameRow.get().now, "command")
        assert publish.display_text(ctx, "Society") == shown
        data, text = views.show("display", ctx, views.Request("the Registrar's display"))
        assert text == shown and data == {"name": "Society", "text": shown}
    finally:
        close_database()
