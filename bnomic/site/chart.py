"""A player's points and mackerel over time: an SVG drawn by matplotlib (its
SVG backend, no display needed). The same series give the same bytes: the
SVG's ids come from a fixed salt and it carries no date.

Drawing is most of a site's build time, so the chart is kept plain: fixed
margins (no tight bounding box, which draws twice), days since the first point
on the x axis with a few ticks labelled by date."""
from __future__ import annotations

import io
from datetime import datetime, timedelta

import matplotlib

matplotlib.use("svg")
from matplotlib.figure import Figure  # noqa: E402  (after choosing the backend)
from matplotlib.ticker import FuncFormatter, MaxNLocator  # noqa: E402

STYLE = {"svg.hashsalt": "bnomic", "svg.fonttype": "none", "font.family": "sans-serif",
         "font.size": 9, "path.simplify": True}
DAY = 86400.0


_figure = None


def _canvas():
    """One figure, drawn again for each player: making the axes is half the cost."""
    global _figure
    if _figure is None:
        with matplotlib.rc_context(STYLE):
            figure = Figure(figsize=(7, 3.6), dpi=72)
            figure.subplots_adjust(left=0.1, right=0.97, top=0.9, bottom=0.14, hspace=0.12)
            top, bottom = figure.subplots(2, 1, sharex=True)
            for axes, label in ((top, "points"), (bottom, "mackerel")):
                axes.set_ylabel(label)
                axes.grid(True, color="#dddddd", linewidth=0.6)
                axes.yaxis.set_major_locator(MaxNLocator(4, integer=True))
            bottom.xaxis.set_major_locator(MaxNLocator(6, integer=True))
        _figure = figure
    return _figure


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
    start = times[0]
    days = [(t - start).total_seconds() / DAY for t in times]
    with matplotlib.rc_context(STYLE):
        figure = _canvas()
        top, bottom = figure.axes
        for axes, values, colour in ((top, points, "#1f5fa8"), (bottom, mackerel, "#b5651d")):
            for line in list(axes.lines):
                line.remove()
            axes.step(days, values, where="post", color=colour, linewidth=1.6)
            axes.set_ylim(0, max(values + [1]) * 1.15)
        bottom.set_xlim(0, max(days[-1] * 1.04, 1))       # the last change stays in view
        bottom.xaxis.set_major_formatter(FuncFormatter(
            lambda x, _: (start + timedelta(days=x)).strftime("%Y-%m-%d")))
        top.set_title(f"{name}: points and mackerel", parse_math=False)
        out = io.BytesIO()
        figure.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


def svgs(jobs: list[tuple], workers: int = 1) -> list[bytes]:
    """`svg(*job)` for each job, in order; with `workers` > 1 and enough of
    them, drawn by that many processes (forked: only `bnomic site` asks, a
    process with no other thread; the daemon draws the few it needs here)."""
    if workers <= 1 or len(jobs) < 2 * workers:
        return [svg(*job) for job in jobs]
    import multiprocessing
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.starmap(svg, jobs, chunksize=max(1, len(jobs) // (workers * 4)))
