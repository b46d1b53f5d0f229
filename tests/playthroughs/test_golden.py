"""Golden playthroughs: catch unintended rule changes (regenerate with generate.py)."""
import json
import pathlib

import numpy as np
import pytest

import cardsim
from cardsim.core._engine import kernel_actions

from .generate import agents_for

HERE = pathlib.Path(__file__).resolve().parent


@pytest.mark.parametrize("name", cardsim.GAMES)
def test_golden(name):
    path = HERE / f"{name}.json"
    if not path.exists():
        pytest.fail(f"no golden playthroughs for {name}: run tests/playthroughs/generate.py {name}")
    for rec in json.loads(path.read_text()):
        g = cardsim.make(name, **rec["options"])
        st = g.new_state(seed=rec["seed"], deal=rec["deal"])
        for text in rec["actions"]:
            st.apply(st.string_to_action(text))
        assert st.is_terminal()
        assert np.allclose(st.returns(), rec["returns"])
        acts = kernel_actions(g.spec, rec["seed"], rec["deal"], agents_for(g.num_players))
        replay = g.new_state(seed=rec["seed"], deal=rec["deal"])
        log = []
        for a in acts:
            log.append(replay.action_to_string(a))
            replay.apply(a)
        assert log == rec["actions"], f"{name} {rec['options']} seed {rec['seed']}: the kernel now plays differently"
