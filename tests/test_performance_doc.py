"""docs/performance.md: one section per game (`## <game>`, a game of cardsim.GAMES), each with the
one table shape (measure, cardsim, the C reference loop, the ratio to it, the peer, the ratio to
the peer, the issue's target) and a "random deals/s, one thread" row whose ratios are the
quotients of its own figures (so a figure edited by hand without its ratio fails)."""
import pathlib
import re

import pytest

import cardsim

DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "performance.md"
HEADER = "| measure | cardsim | C reference loop | ratio to the C loop | peer | ratio to the peer | issue target |"
DEALS_ROW = "random deals/s, one thread"


def _sections():
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## (\S+)\s*$", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def _num(cell):
    m = re.search(r"[-+]?\d[\d,]*(?:\.\d+)?", cell)
    return float(m.group(0).replace(",", "")) if m else None


def test_sections_are_games_with_the_one_table():
    secs = _sections()
    assert "hearts" in secs
    for game, body in secs.items():
        assert game in cardsim.GAMES, f"docs/performance.md: section {game!r} is not a game"
        assert HEADER in body, f"{game}: the table header must be {HEADER}"


@pytest.mark.parametrize("game", sorted(_sections()))
def test_the_deals_row_ratios_follow_from_its_figures(game):
    body = _sections()[game]
    rows = [ln for ln in body.splitlines() if ln.startswith(f"| {DEALS_ROW} |")]
    assert len(rows) == 1, f"{game}: one '{DEALS_ROW}' row"
    cells = [c.strip() for c in rows[0].strip("|").split("|")]
    assert len(cells) == 7
    ours, ref, ratio_ref, peer, ratio_peer = (_num(c) for c in cells[1:6])
    assert ours and ref and ratio_ref == pytest.approx(ours / ref, rel=0.01, abs=0.006)
    if peer is not None:
        assert ratio_peer == pytest.approx(ours / peer, rel=0.01, abs=0.06)
