"""`cardsim replay GAME --html deal.html`: one deal as a self-contained web page.

The page shows the table — the seats around it named as the rules page names them, every hand
face up or, with `seat=P`, only P's (the others as card backs), the trick, floor, melds or pile in
play, the public facts (trump, contract, ...) and the scores — and steps through the deal with
buttons, a slider, the list of moves and the arrow keys. Cards are drawn as inline SVG (French
cards, jokers, Chinese domino tiles, Six Tigers' long cards); nothing is loaded from the network.

The content is `cardsim.replay.replay_data` (one generic snapshot per turn, filled by each game's
replay face `cardsim.games.<game>.Replay`), embedded as JSON in one shared template
(`_replay_page.html.in`); no game is named here.
"""
from __future__ import annotations

import html
import importlib.resources
import json

from cardsim.replay import replay_data

TEMPLATE = "_replay_page.html.in"        # not *.html: .gitignore (and so the sdist) skips those


def template() -> str:
    """The page template (HTML, CSS and JS) shipped with the package."""
    return importlib.resources.files("cardsim").joinpath(TEMPLATE).read_text(encoding="utf-8")


def page(data: dict) -> str:
    """The web page of replay data (`replay_data(...)`): self-contained HTML."""
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # inside <script>: no '<' at all (a '</script>' or '<!--' in a label would end or hide the
    # element); JSON reads the \\u escapes back as the same characters
    blob = blob.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    title = f"{data['title']}: seed {data['seed']}, deal {data['deal']}"
    return template().replace("@@TITLE@@", html.escape(title)).replace("@@DATA@@", blob)


def render(game, seed: int = 0, deal: int = 0, agents="greedy", seat: int | None = None) -> str:
    """The web page of deal `deal` of seed `seed` played by `agents` (as `cardsim replay`), seen
    by `seat` (None: every hand face up). Bad arguments raise ConfigError before anything is built."""
    return page(replay_data(game, seed=seed, deal=deal, agents=agents, seat=seat))


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())
