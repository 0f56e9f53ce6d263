"""A player's points and mackerel over time: an SVG drawn by matplotlib (its
SVG backend, no display needed). The same series give the same bytes: the
SVG's ids come from a fixed salt and it carries no date."""
from __future__ import annotations

import io
from datetime import datetime

import matplotlib

matplotlib.use("svg")
matplotlib.rcParams.update({"svg.hashsalt": "bnomic", "svg.fonttype": "none",
                            "font.family": "sans-serif", "font.size": 9})
from matplotlib.figure import Figure  # noqa: E402  (after choosing the backend)
import matplotlib.dates as mdates  # noqa: E402


def svg(name: str, series: list, until: datetime, now: tuple[int, int]) -> bytes:
    """`series`: [[seq, iso time, points, mackerel, is_player], ...] where they
    changed; `now`: (points, mackerel) at `until`, the game's present."""
    times = [datetime.fromisoformat(r[1]) for r in series]
    points = [r[2] for r in series]
    mackerel = [r[3] for r in series]
    if not times or until > times[-1]:
        times.append(until)
        points.append(now[0])
        mackerel.append(now[1])
    figure = Figure(figsize=(7, 3.6), dpi=72)
    top, bottom = figure.subplots(2, 1, sharex=True)
    for axes, values, label, colour in ((top, points, "points", "#1f5fa8"),
                                        (bottom, mackerel, "mackerel", "#b5651d")):
        if times:
            axes.step(times, values, where="post", color=colour, linewidth=1.6)
        axes.set_ylabel(label)
        axes.grid(True, color="#dddddd", linewidth=0.6)
        axes.set_ylim(bottom=0, top=max(values + [1]) * 1.15 if values else 1)
    bottom.xaxis.set_major_formatter(mdates.DateFormatter("%Y-%m-%d"))
    figure.autofmt_xdate()
    top.set_title(f"{name}: points and mackerel", parse_math=False)
    out = io.BytesIO()
    figure.savefig(out, format="svg", metadata={"Date": None}, bbox_inches="tight")
    return out.getvalue()
