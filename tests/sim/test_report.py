"""The HTML report: a page and the PNGs it links to."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from thermopylae.sim import report
from thermopylae.sim.tournament import tournament


@pytest.mark.parametrize(
    "game_id, agents, options",
    [
        ("thermopyles", ["random", "heuristic", "ismcts:iterations=20"], {}),
        ("earth-and-water", ["random", "heuristic"], {}),
        ("hot-gates", ["random", "heuristic"], {"players": 3}),
    ],
)
def test_report_writes_a_page_and_its_plots(
    tmp_path: Path, game_id: str, agents: list[str], options: dict[str, int]
) -> None:
    t = tournament(game_id, agents, 3, options, seed=1, workers=1)
    when = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
    page = report.write(t, tmp_path / "out", "thermopylae tournament <x>", when)
    assert page == tmp_path / "out" / "index.html"
    text = page.read_text()
    images = re.findall(r'<img src="([^"]+)"', text)
    assert sorted(images) == sorted(report.PLOTS)
    for name in images:
        png = page.parent / name
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert png.stat().st_size > 5000
    assert "thermopylae tournament &lt;x&gt;" in text  # the command, escaped
    assert "2026-11-30 12:00 UTC" in text
    assert t.title.replace("&", "&amp;") in text
    for agent in agents:
        assert f"<td>{agent}</td>" in text
    for r in t.ratings:
        assert f"{r.rating:+.0f}" in text
    assert "http" not in text.replace('lang="en"', "")  # self-contained: no outside links


def test_progress_curves_end_at_the_overall_win_rates() -> None:
    t = tournament("earth-and-water", ["random", "heuristic"], 4, {}, seed=2, workers=1)
    curves = report.progress_curves(t)
    for a in t.agent_results():
        xs, rates, lows, highs = curves[a.agent]
        assert xs == [1, 2, 3, 4]
        assert rates[-1] == pytest.approx(100 * a.overall.win_rate)
        assert all(lo <= r <= hi for lo, r, hi in zip(lows, rates, highs, strict=True))
