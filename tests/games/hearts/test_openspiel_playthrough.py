"""OpenSpiel's playthrough of Hearts (open_spiel/integration_tests/playthroughs/hearts.txt),
replayed in cardsim's `openspiel` preset as a golden test: its chance actions (pass direction,
then the deal: the i-th card to seat i % 4) build the scenario, every later action is applied
in cardsim, the legal sets the playthrough prints must equal cardsim's and the final returns
its Returns(). The file's actions, printed legal sets and returns are stored in
tests/playthroughs/hearts_openspiel.json (with the source commit); no pyspiel needed."""
import json
import pathlib

import cardsim
from cardsim.games import hearts as ht

GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "playthroughs" / "hearts_openspiel.json"
DIRS = ("hold", "left", "across", "right")


def ours(c: int) -> int:
    """OpenSpiel card id (rank * 4 + suit, suits C D H S) -> cardsim's."""
    return (3 - c % 4) * 13 + c // 4


def test_openspiel_playthrough_replays_exactly():
    rec = json.loads(GOLDEN.read_text())
    assert "pass_cards=True" in rec["parameters"] and "jd_bonus=False" in rec["parameters"]
    steps = rec["steps"]
    pd = steps[0]["action"]
    hands = [[] for _ in range(4)]
    for i, s in enumerate(steps[1:53]):
        hands[i % 4].append(ht.card_str(ours(s["action"])))
    game = cardsim.make("hearts", variant="openspiel")
    st = game.spec.scenario(hands, dealer=3, pass_dir=DIRS[pd])
    checked = 0
    for s in steps[53:]:
        if s["legal"] is not None:
            assert sorted(ours(a) for a in s["legal"]) == sorted(int(a) for a in st.legal_actions())
            checked += 1
        assert st.returns().tolist() == [0.0] * 4
        st.apply(ours(s["action"]))
    assert checked >= 10 and st.is_terminal()
    assert st.returns().tolist() == rec["returns"]
