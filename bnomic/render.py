"""Rendering text for people from templates/ (Jinja2)."""
from __future__ import annotations

from jinja2 import Environment, PackageLoader, StrictUndefined

_env = Environment(loader=PackageLoader("bnomic", "templates"), trim_blocks=True,
                   lstrip_blocks=True, keep_trailing_newline=True, undefined=StrictUndefined,
                   autoescape=False, auto_reload=False)


def _each_line(mapping, fmt: str) -> str:
    """`fmt % (key, value)` and a line end for each item of `mapping`, in its
    order: a template's loop over tens of thousands of items (every vote of a
    busy nweek's results) in one call, its line still written in the template."""
    return "".join([fmt % pair + "\n" for pair in mapping.items()])


_env.filters["each_line"] = _each_line


def render(name: str, **values) -> str:
    return _env.get_template(name).render(**values)
