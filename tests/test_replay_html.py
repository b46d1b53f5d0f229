"""`cardsim replay GAME --html`: the deal as a web page, for every game.

The data (cardsim.replay.replay_data) is checked against the engine: one snapshot per turn, the
kernel's deal, the hands the seat may see, the final scores and returns; then the page is loaded in
headless Chromium (as tests/test_report.py does; skipped where Chromium is not installed): no
script error, stepping forward changes the table, the last step shows the final score."""
import html
import json
import os
import re
import shutil
import subprocess

import pytest

import cardsim
from cardsim.cli import main
from cardsim.core._engine import AGENT_CODES, kernel_actions
from cardsim.replay import replay_data, seat_names, table_of
from cardsim.replay_html import page, render


def _final_state(game, seed, deal):
    g = cardsim.make(game)
    st = g.new_state(seed=seed, deal=deal)
    for a in kernel_actions(g.spec, seed, deal, [AGENT_CODES["greedy"]] * g.num_players):
        st.apply(a)
    return g, st


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_replay_data_follows_the_kernels_deal(game):
    g, end = _final_state(game, 2, 1)
    d = replay_data(game, seed=2, deal=1)
    n = g.num_players
    assert d["seats"] == list(seat_names(game, n)) and d["viewer"] is None
    first, last = d["steps"][0], d["steps"][-1]
    start = g.new_state(seed=2, deal=1)
    assert first["hands"] == [list(start.hand(p)) for p in range(n)]        # every hand face up
    assert last["hands"] == [list(end.hand(p)) for p in range(n)]
    assert d["result"]["returns"] == [float(x) + 0.0 for x in end.returns()]
    assert last["scores"] == table_of(end)["scores"] and last["scores"], "the last step shows the final scores"
    assert last["to_act"] is None and d["steps"][-2]["to_act"] is None and all(s["to_act"] is not None for s in d["steps"][:-2])
    # every turn is a step, named by its seat, with what the seat did; the cards on the table
    # change in a good share of the steps
    for b in d["steps"][1:-1]:
        assert b["label"].startswith(d["seats"][b["actor"]] + ": " + b["said"]) and b["said"]
    assert sum(a["zones"] != b["zones"] for a, b in zip(d["steps"], d["steps"][1:])) >= len(d["steps"]) // 3
    json.dumps(d)                                       # JSON-ready
    for c, gl in d["glyphs"].items():
        assert set(gl) & {"rank", "joker", "tile", "top"}, f"{game}: {c} drawn as bare text {gl}"


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_a_seat_sees_only_its_own_hand(game):
    g = cardsim.make(game)
    n = g.num_players
    seat = n - 1
    d = replay_data(game, seed=1, deal=0, seat=seat)
    full = replay_data(game, seed=1, deal=0)
    assert len(d["steps"]) == len(full["steps"])
    for s, f in zip(d["steps"], full["steps"]):
        assert s["hands"][seat] == f["hands"][seat]
        for q in range(n):
            if q != seat:
                assert s["hands"][q] == {"hidden": len(f["hands"][q])}
    # a card nobody but its holder has seen is nowhere on the page of another seat: the cards of
    # other seats' starting hands that never reach the table stay out of the data
    public = set()
    for s in full["steps"]:
        for z in s["zones"]:
            for grp in z["groups"]:
                public |= set(grp["cards"])
    st = g.new_state(seed=1, deal=0)
    private = {c for q in range(n) if q != seat for c in st.hand(q)} - public - set(st.hand(seat))
    text = json.dumps(d["steps"])
    for c in private:
        assert f'"{c}"' not in text, f"{game}: {c} of another seat's hand shown to seat {seat}"


def test_a_completed_trick_stays_on_the_table_with_its_winner():
    d = replay_data("joffre_whist", seed=1, deal=0)
    done = [s for s in d["steps"] if "wins the trick" in s["label"]]
    assert len(done) == 13
    for s in done:
        (trick,) = [z for z in s["zones"] if z["trick"]]
        assert sum(len(grp["cards"]) for grp in trick["groups"]) == 4
        assert d["seats"][trick["won_by"]] + " wins the trick" in s["label"]


def test_tiles_are_drawn_as_dominoes_and_long_cards():
    d = replay_data("tien_gow", seed=0, deal=0)
    assert all("tile" in gl for gl in d["glyphs"].values()) and len(d["glyphs"]) >= 16
    for tile, gl in d["glyphs"].items():                 # '6-4': six pips on top, four below
        assert gl["tile"] == [int(x) for x in tile.split("-")]
        assert gl["suit"] == ("civil" if tile in ("6-6", "1-1", "4-4", "3-1", "5-5", "3-3", "2-2", "6-5", "6-4",
                                                  "6-1", "5-1") else "military")
    d = replay_data("six_tigers", seed=0, deal=0)
    assert all("top" in gl for gl in d["glyphs"].values()) and len(d["glyphs"]) >= 8


def test_the_page_is_self_contained_and_safe():
    text = render("basra", seed=1, deal=0)
    assert text.startswith("<!doctype html>") and text.rstrip().endswith("</html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text), "nothing loaded from the network"
    assert "@@DATA@@" not in text and "@@TITLE@@" not in text
    # a label cannot end the data element or the page's script
    d = replay_data("basra", seed=1, deal=0)
    d["steps"][0]["label"] = "</script><script>alert(1)</script><!--"
    p = page(d)
    blob = p.split('<script type="application/json" id="replay-data">', 1)[1].split("</script>", 1)[0]
    assert json.loads(blob)["steps"][0]["label"] == "</script><script>alert(1)</script><!--"


def test_cli_writes_the_page(tmp_path, capsys):
    out = tmp_path / "deal.html"
    assert main(["replay", "tien_gow", "--seed", "3", "--seat", "2", "--html", str(out), "--ascii"]) == 0
    text = out.read_text(encoding="utf-8")
    assert text == render("tien_gow", seed=3, deal=0, seat=2)
    assert f"written: {out}" in capsys.readouterr().out


# ---- in a browser ------------------------------------------------------------------------------

def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


ERRORS = ("<script>window.__errors=[];window.addEventListener('error',function(e){window.__errors.push("
          "String(e.message))});</script>")
CHECK = """<script>window.addEventListener('load', function () {
  var felt = document.getElementById('felt'), r = {};
  try {
    r.step0 = document.body.dataset.step; var s0 = felt.innerHTML;
    r.svg0 = felt.querySelectorAll('svg').length;
    document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}));
    r.step1 = document.body.dataset.step; r.changed = felt.innerHTML !== s0;
    document.getElementById('prev').click(); r.back = document.body.dataset.step;
    document.dispatchEvent(new KeyboardEvent('keydown', {key: 'End'}));
    r.last = document.body.dataset.step;
    var res = document.getElementById('result'); r.result = res ? res.textContent : '';
    r.scores = document.getElementById('scores').textContent;
    r.seats = Array.prototype.map.call(felt.querySelectorAll('.seat .sname'), function (x) { return x.textContent; });
  } catch (e) { window.__errors.push('check: ' + e.message); }
  r.errors = window.__errors;
  document.title = 'CHECK ' + JSON.stringify(r);
});</script>"""


HARNESS = """<!doctype html><html><head><meta charset="utf-8"><title>RUNNING</title></head><body><script>
var pages = %s, out = {}, i = 0;
function next() {
  if (i >= pages.length) { document.title = 'ALL ' + JSON.stringify(out); return; }
  var f = document.createElement('iframe');
  f.style.width = '1280px'; f.style.height = '900px';
  f.onload = function () { setTimeout(function () {
    try { out[pages[i]] = f.contentDocument.title; } catch (e) { out[pages[i]] = 'ERR ' + e.message; }
    f.remove(); i++; next(); }, 50); };
  f.src = pages[i] + '.html'; document.body.appendChild(f);
}
window.onload = next;
</script></body></html>"""


def _chromium_args(exe, tmp_path):
    return [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--allow-file-access-from-files",
            f"--user-data-dir={tmp_path}/profile"]


@pytest.fixture(scope="module")
def browser_results(tmp_path_factory):
    """Every game's page (one seen by a seat, the others face up) loaded in one headless Chromium
    (a harness page loads each in an iframe): {game: (data, checks, page path)}."""
    tmp = tmp_path_factory.mktemp("replay_pages")
    data = {}
    for game in cardsim.GAMES:
        seat = 0 if game in ("gleek", "tien_gow") else None
        d = replay_data(game, seed=1, deal=0, seat=seat)
        (tmp / f"{game}.html").write_text(page(d).replace("<head>", "<head>" + ERRORS, 1)
                                          .replace("</body>", CHECK + "</body>"), encoding="utf-8")
        data[game] = d
    (tmp / "all.html").write_text(HARNESS % json.dumps(list(cardsim.GAMES)), encoding="utf-8")
    base = _chromium_args(_chromium(), tmp)
    dom = subprocess.run(base + ["--dump-dom", "--virtual-time-budget=30000", (tmp / "all.html").as_uri()],
                         capture_output=True, text=True, timeout=300)
    m = re.search(r"<title>ALL (.*?)</title>", dom.stdout, re.S)
    assert m, dom.stdout[-1000:] + dom.stderr[-2000:]
    titles = json.loads(html.unescape(m.group(1)))
    out = {}
    for game in cardsim.GAMES:
        t = titles.get(game, "")
        assert t.startswith("CHECK "), f"{game}: {t[:300]}"
        out[game] = (data[game], json.loads(t[len("CHECK "):]), tmp / f"{game}.html")
    return out, base


@pytest.mark.skipif(_chromium() is None, reason="headless Chromium not installed (apt-get install chromium)")
@pytest.mark.parametrize("game", cardsim.GAMES)
def test_the_page_steps_through_the_deal_in_chromium(game, browser_results):
    results, base = browser_results
    d, r, path = results[game]
    assert r["errors"] == [], r["errors"]
    assert r["step0"] == "0" and r["step1"] == "1" and r["back"] == "0" and r["changed"], r
    assert r["last"] == str(len(d["steps"]) - 1)
    assert r["svg0"] > 0, "no card drawn"
    assert sorted(r["seats"]) == sorted(d["seats"]), r["seats"]
    # the last step shows the final score: the outcome, every seat's return, the scores table
    assert d["result"]["outcome"] in r["result"]
    for p, v in enumerate(d["result"]["returns"]):
        assert f"{d['seats'][p]} {'+' if v > 0 else ''}{round(v, 3):g}" in r["result"], (p, v, r["result"])
    assert "returns" in r["scores"]
    for s in d["steps"][-1]["scores"]:
        assert s["label"] in r["scores"]
    shot = os.environ.get("CARDSIM_SCREENSHOT_DIR")
    if shot:                                             # pictures to look at: the middle and the end
        mid = len(d["steps"]) // 2
        for tag, k in (("mid", str(mid)), ("end", "end")):
            subprocess.run(base + [f"--screenshot={shot}/replay_{game}_{tag}.png", "--window-size=1280,900",
                                   path.as_uri() + f"#step={k}"], capture_output=True, timeout=120)


# ---- bad input -----------------------------------------------------------------------------------

JUNK = [None, -1, 2**70, 1.5, "nope", "x" * 10_000, [], {}, ["AS"] * 500, object(), True]


@pytest.mark.parametrize("module", ["cardsim.replay", "cardsim.replay_html", "cardsim.docpages"])
def test_every_public_function_refuses_junk_with_a_typed_error(module):
    """Each positional argument of every public function replaced by junk (the others valid or
    junk too): only cardsim's typed errors, with short messages."""
    import importlib
    import inspect

    mod = importlib.import_module(module)
    g = cardsim.make("karnoffel")
    st = g.new_state(seed=1, deal=0)
    good = {"game": "karnoffel", "game_name": "karnoffel", "state": st, "seat": None, "seed": 1, "deal": 0,
            "players": 4, "agents": "greedy", "card": "AS", "text": "AS", "lines": ["a"], "title": "t",
            "data": replay_data("karnoffel", seed=1, deal=0), "table": table_of(st), "actions": [],
            "start": st, "end": st, "viewer": None, "stream": None, "sub": None, "args": None}
    calls = 0
    for name, fn in vars(mod).items():
        if name.startswith("_") or not inspect.isfunction(fn) or fn.__module__ != mod.__name__ \
                or name.endswith("_parser") or name.startswith("cmd_"):
            continue
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        for i in range(len(params)):
            for junk in JUNK:
                args = [good.get(p.name, junk) for p in params]
                args[i] = junk
                try:
                    fn(*args)
                except cardsim.CardsimError as e:
                    assert len(str(e)) < 600, (name, str(e)[:200])
                calls += 1
    assert calls > 20
