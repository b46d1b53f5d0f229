"""Every game documents its observation layout in a form tools/gen_observations.py turns into
docs/observations.md (regenerate it after changing a layout)."""
import importlib.util
import pathlib

import cardsim

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("gen_observations", ROOT / "tools" / "gen_observations.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_game_documents_its_layout_and_the_doc_is_current():
    tool = _tool()
    for g in cardsim.GAMES:
        _, para = tool.layout_paragraph(g)
        head, rows = tool.blocks(para)
        assert len(rows) >= 3, f"{g}: the observation layout lists no blocks"
    text = (ROOT / "docs" / "observations.md").read_text()
    assert "| game | observation length | actions |" in text


def test_the_generated_doc_equals_the_file():
    """docs/observations.md is exactly what tools/gen_observations.py writes from the code (a
    layout, a length or a module that moved makes this fail until the file is regenerated)."""
    text = (ROOT / "docs" / "observations.md").read_text()
    assert text == _tool().render(), "docs/observations.md is stale: run python tools/gen_observations.py"
