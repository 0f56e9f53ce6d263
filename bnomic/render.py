"""Rendering text for people from templates/ (Jinja2)."""
from __future__ import annotations

from jinja2 import Environment, PackageLoader, StrictUndefined

_env = Environment(loader=PackageLoader("bnomic", "templates"), trim_blocks=True,
                   lstrip_blocks=True, keep_trailing_newline=True, undefined=StrictUndefined,
                   autoescape=False, auto_reload=False)


def render(name: str, **values) -> str:
    return _env.get_template(name).render(**values)
