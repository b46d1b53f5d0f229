"""An independent, plain-Python reading of the Samba rules (docs/rules/samba.md §4, §8, §9) for
the brute-force cross-check in samba/test_moves.py. It calls nothing of the engine: cards are the
public strings ('KS', '10H', '2D', 'JK'), a position is a hashable tuple, and `whole_moves` lists
every position one whole move (in the spec's sense) leads to.

A whole move is one of the spec's actions with all its arguments chosen:
  T1 (draw decision): DRAW_STOCK; TAKE_PILE_PAIR(pair, extras, batch) with, for an unopened side,
     the initial batch; TAKE_PILE_LAYOFF(target); the Dutch top-card take; DECLINE_PILE.
  T2: INITIAL_MELD(batch) (and the failed attempt under `penalize`), MELD, MELD_BLACK3, LAY_OFF,
     MERGE, PLACE_RED3 (manual red threes), DISCARD (going out when it empties the hand).
The start of the next turn is applied after a discard: with an empty stock and no take possible,
the deal ends there (§4.5, E2).

One canonical choice, equivalent under the rules: an initial batch is listed only in its
minimal form, i.e. with no meld the batch would still reach the requirement without (the meld
is then a plain MELD once the side has opened, which reaches the same position; S-D2, and the
engine's batches open as soon as they reach the requirement). Batches that empty the hand need
two canastas among them (14+ cards) and do not occur in the small positions used here.

Readings where the spec leaves room (each stated where it is used):
- Under insufficient_initial_meld = penalize a failed attempt keeps INITIAL_MELD's other
  preconditions, the hand guard included (only the total is relaxed, §4.4).
- wild_onto_canasta is judged on the meld before the action (a wild may join a 6-card group in the
  lay-off that makes it a canasta), and a merge may not bring a wild into a protected canasta
  (S-D6, EX-S10).
- The go-out query (samba/test_moves.py) is offered only with 2+ cards in hand, so that after a
  'no' the player can still discard and keep a card (no dead end, S-D10).
"""
from __future__ import annotations

import itertools
from collections import Counter
from typing import NamedTuple

RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
VALUE = {"4": 5, "5": 5, "6": 5, "7": 5, "8": 10, "9": 10, "10": 10, "J": 10, "Q": 10, "K": 10, "A": 20,
         "2": 20}


def rank(c):
    return None if c == "JK" else c[:-1]


def suit(c):
    return None if c == "JK" else c[-1]


def is_wild(c):
    return c == "JK" or rank(c) == "2"


def is_red3(c):
    return c in ("3H", "3D")


def is_black3(c):
    return c in ("3S", "3C")


def is_natural(c):
    return rank(c) in RANKS


def value(c):
    """Card value (§2)."""
    if c == "JK":
        return 50
    if is_black3(c):
        return 5
    if is_red3(c):
        return 0
    return VALUE[rank(c)]


def total(cards):
    return sum(value(c) for c in cards)


class Rules(NamedTuple):
    """The options that matter for legality (§8), from cardsim.make(...).options."""
    players: int
    sides: int
    dutch_groups: bool
    woc: str
    always_frozen: bool
    seq_take: bool
    manual: bool
    penalize: bool
    min_can: int

    @classmethod
    def of(cls, opts):
        n = opts["players"]
        return cls(n, {2: 2, 3: 3, 4: 2, 5: 5, 6: 3}[n], opts["group_wild_rule"] == "dutch",
                   opts["wild_onto_canasta"], opts["pile_model"] == "always_frozen",
                   opts["sequence_top_card_take"], opts["red_three_mode"] == "manual",
                   opts["insufficient_initial_meld"] == "penalize", opts["going_out_min_canastas"])


BANDS = {"seed": ((0, 50), (1500, 90), (3000, 120), (5000, 150)),
         "hoyle": ((0, 50), (1500, 90), (3000, 120), (7000, 160))}


def requirement(cum, table):
    """§4.0 initial-meld table (EX-S1): 15 below 0, then the band whose lower bound cum reached;
    `table` "seed" or "hoyle" (S-D15)."""
    req = 15
    for lo, v in BANDS[table]:
        if cum >= lo:
            req = v
    return req


# ---- melds (§4.0) ------------------------------------------------------------------------------
def group_ok(nat, wild, rules):
    """GROUP: >= 3 cards, >= 2 naturals, <= 2 wilds; Dutch: naturals >= 2 x wilds too (S-D7)."""
    if nat < 2 or wild > 2 or nat + wild < 3:
        return False
    return not (rules.dutch_groups and nat < 2 * wild)


def meld_kind(cards, rules):
    """('group', rank) | ('seq', suit) | ('black3', None) | None for cards laid as one meld."""
    cards = list(cards)
    if len(cards) < 3:
        return None
    if all(is_black3(c) for c in cards):
        return ("black3", None) if len(cards) <= 6 else None
    if any(not (is_natural(c) or is_wild(c)) for c in cards):
        return None
    nats = [c for c in cards if is_natural(c)]
    w = len(cards) - len(nats)
    ranks = {rank(c) for c in nats}
    if len(ranks) == 1:
        return ("group", nats[0][:-1]) if group_ok(len(nats), w, rules) else None
    if w or not nats or len({suit(c) for c in nats}) != 1:
        return None
    idx = sorted(RANKS.index(rank(c)) for c in nats)
    if len(set(idx)) != len(idx) or idx[-1] - idx[0] + 1 != len(idx) or len(idx) > 7:
        return None
    return ("seq", suit(nats[0]))


def is_canasta(meld, rules):
    k = meld_kind(meld, rules)
    return k is not None and ((k[0] == "group" and len(meld) >= 7) or (k[0] == "seq" and len(meld) == 7))


def canastas(melds, rules):
    return sum(is_canasta(m, rules) for m in melds)


def wild_protected(meld, rules):
    """wild_onto_canasta (S-D6): no wild may join this meld (judged before the action)."""
    if not is_canasta(meld, rules) or meld_kind(meld, rules)[0] != "group":
        return False
    if rules.woc == "never":
        return True
    if rules.woc == "not_onto_natural":
        return not any(is_wild(c) for c in meld)
    return False


def layoff_ok(meld, add, rules):
    """LAY_OFF validity (§4.4): `add` joins `meld` and the result is the same kind of meld."""
    k = meld_kind(meld, rules)
    if k[0] == "group":
        if any(not (is_wild(c) or rank(c) == k[1]) for c in add):
            return False
        if any(is_wild(c) for c in add) and wild_protected(meld, rules):
            return False
        new = list(meld) + list(add)
        w = sum(is_wild(c) for c in new)
        return group_ok(len(new) - w, w, rules)
    if k[0] == "seq":
        if len(meld) == 7:
            return False
        return meld_kind(list(meld) + list(add), rules) == k
    return all(is_black3(c) for c in add) and len(meld) + len(add) <= 6


def merge_ok(a, b, rules):
    """MERGE (§4.4, S-D8, EX-S10): two groups of one rank, the union within the wild limits, no
    wild joining a canasta that wild_onto_canasta protects."""
    ka, kb = meld_kind(a, rules), meld_kind(b, rules)
    if ka[0] != "group" or ka != kb:
        return False
    wa, wb = sum(map(is_wild, a)), sum(map(is_wild, b))
    if not group_ok(len(a) + len(b) - wa - wb, wa + wb, rules):
        return False
    return not ((wb and wild_protected(a, rules)) or (wa and wild_protected(b, rules)))


# ---- multisets ---------------------------------------------------------------------------------
def srt(cards):
    return tuple(sorted(cards))


def minus(hand, sub):
    c = Counter(hand)
    c.subtract(sub)
    assert min(c.values(), default=0) >= 0
    return srt(c.elements())


def submultisets(cards, nonempty=True):
    """Every distinct sub-multiset of `cards`, as sorted tuples."""
    items = sorted(Counter(cards).items())
    for counts in itertools.product(*[range(n + 1) for _, n in items]):
        sub = tuple(c for (c, _), k in zip(items, counts) for _ in range(k))
        if sub or not nonempty:
            yield srt(sub)


def new_melds(cards, rules):
    """Every sub-multiset of `cards` that is a valid GROUP or SEQUENCE (no black threes)."""
    return [m for m in submultisets(cards) if (meld_kind(m, rules) or ("black3",))[0] in ("group", "seq")]


def batches(cards, rules, first=None):
    """Every multiset of disjoint valid GROUP/SEQUENCE melds from `cards` (at least one meld, or
    `first` alone), each as (melds sorted tuple, cards left)."""
    out = set()

    def rec(rest, chosen, floor):
        if chosen:
            out.add((srt(chosen), rest))
        for m in new_melds(rest, rules):
            if floor is not None and m < floor:
                continue
            rec(minus(rest, m), chosen + [m], m)

    rec(srt(cards), [] if first is None else [first], None)
    return out


# ---- positions ---------------------------------------------------------------------------------
class Pos(NamedTuple):
    """Everything that decides the rest of the deal (between whole moves). Melds per side are a
    sorted tuple of sorted card tuples; the pile bottom first; the stock top last."""
    phase: str                  # "draw" | "meld" | "end"
    turn: int                   # seat to act (-1 at the end)
    hands: tuple
    melds: tuple
    pile: tuple
    stock: tuple
    red3: tuple
    opened: tuple
    req: tuple                  # effective requirement per side (req + req_penalty)
    partner_no: bool
    end: tuple                  # (end type, seat out) at the end, else ()


def canon(pos: Pos) -> Pos:
    return pos._replace(hands=tuple(srt(h) for h in pos.hands),
                        melds=tuple(srt(srt(m) for m in ms) for ms in pos.melds),
                        red3=tuple(srt(r) for r in pos.red3))


def pos_from_view(v) -> Pos:
    """The reference position of an engine state's public+private view (spec.view)."""
    end = v["phase"] == "end"
    return canon(Pos(
        phase=v["phase"], turn=-1 if end else v["turn"], hands=tuple(tuple(h) for h in v["hands"]),
        melds=tuple(tuple(tuple(m["cards"]) for m in side) for side in v["melds"]),
        pile=tuple(v["pile"]), stock=tuple(v["stock"]), red3=tuple(tuple(r) for r in v["red3"]),
        opened=tuple(v["opened"]), req=tuple(v["requirement"]), partner_no=False if end else v["partner_said_no"],
        end=(v["end_type"], v["out_seat"]) if end else ()))


def _set(t, i, x):
    t = list(t)
    t[i] = x
    return tuple(t)


def finish(pos: Pos, end_type, out_seat):
    return canon(pos._replace(phase="end", turn=-1, partner_no=False, end=(end_type, out_seat)))


def start_turn(pos: Pos, p, rules):
    """Seat p's turn begins (T1; dealt red threes are not modelled: first turns are done). With an
    empty stock and no take possible the deal ends (§4.5, E2)."""
    pos = canon(pos._replace(phase="draw", turn=p, partner_no=False))
    if not pos.stock and not takes(pos, rules):
        return finish(pos, "stock_out", None)
    return pos


def draw_cards(pos: Pos, p, n, rules):
    """Draw n cards one by one from the stock's top (§4.3): in auto mode a red three is exposed
    and replaced while the stock lasts. Returns (pos, cards that reached the hand)."""
    hand, stock, red3 = list(pos.hands[p]), list(pos.stock), list(pos.red3[p % rules.sides])
    got = 0
    for _ in range(n):
        while stock:
            c = stock.pop()
            if is_red3(c) and not rules.manual:
                red3.append(c)
                continue
            hand.append(c)
            got += 1
            break
    pos = pos._replace(hands=_set(pos.hands, p, hand), stock=tuple(stock),
                       red3=_set(pos.red3, p % rules.sides, red3))
    return canon(pos), got


def take_rest(pos: Pos, p, rest, rules):
    """The rest of the pile joins the hand; auto mode: red threes exposed, not replaced (§4.3)."""
    s = p % rules.sides
    r3 = [c for c in rest if is_red3(c) and not rules.manual]
    keep = [c for c in rest if not (is_red3(c) and not rules.manual)]
    return canon(pos._replace(hands=_set(pos.hands, p, list(pos.hands[p]) + keep), pile=(),
                              red3=_set(pos.red3, s, list(pos.red3[s]) + r3)))


def hg(h, c_after, pos, rules):
    """Hand guard (§4.0) after a non-discard action leaving h cards with c_after canastas."""
    return h >= 2 or (c_after >= rules.min_can and not pos.partner_no)


def minimal(batch, need, first=None):
    """The batch reaches `need` and no meld other than `first` could be left out (S-D2 canonical
    form; see the module docstring)."""
    v = sum(total(m) for m in batch)
    if v < need:
        return False
    others = list(batch)
    if first is not None:
        others.remove(first)
    if not others:
        return True
    return v - max(total(m) for m in others) < need


def takes(pos: Pos, rules):
    """Every TAKE move of T1 (§4.3, §8 sequence_top_card_take): a list of (kind, result)."""
    p = pos.turn
    s = p % rules.sides
    hand = pos.hands[p]
    melds = pos.melds[s]
    out = []
    if not pos.pile:
        return out
    top = pos.pile[-1]

    def took(kind, res):             # a take that empties the hand goes out at once (§4.4, E1)
        out.append((kind, finish(res, "went_out", p) if not res.hands[p] else res))

    if not is_natural(top):          # blocked: wild, black or red three on top (§4.2)
        return out
    rest = pos.pile[:-1]
    rest_in = sum(1 for c in rest if rules.manual or not is_red3(c))
    C = canastas(melds, rules)
    # TAKE_PILE_PAIR: a natural pair of the top's rank, plus any naturals of it and wilds
    r = rank(top)
    mine = [c for c in hand if rank(c) == r or is_wild(c)]
    if sum(1 for c in hand if rank(c) == r) >= 2:
        for extra in submultisets(mine):
            nat = sum(1 for c in extra if rank(c) == r)
            if nat < 2:
                continue
            group = srt(extra + (top,))
            if meld_kind(group, rules) != ("group", r):
                continue
            left = minus(hand, extra)
            if pos.opened[s]:
                if hg(len(left) + rest_in, C + is_canasta(group, rules), pos, rules):
                    res = pos._replace(hands=_set(pos.hands, p, left), melds=_set(pos.melds, s, melds + (group,)),
                                       pile=pos.pile[:-1])
                    took("pair", take_rest(res._replace(phase="meld"), p, rest, rules))
                continue
            # unopened: the group on the top card opens the initial batch; only the top card of the
            # pile counts (§4.3 "Initial meld through the pile", EX-S2, EX-S3)
            for batch, left2 in batches(left, rules, first=group) | {((group,), left)}:
                if not minimal(batch, pos.req[s], first=group):
                    continue
                if not hg(len(left2) + rest_in, canastas(batch, rules), pos, rules):
                    continue
                res = pos._replace(hands=_set(pos.hands, p, left2), melds=_set(pos.melds, s, batch),
                                   opened=_set(pos.opened, s, True), phase="meld", pile=pos.pile[:-1])
                took("pair", take_rest(res, p, rest, rules))
    # TAKE_PILE_LAYOFF: unfrozen for the side (opened, no wild or red three in the pile)
    frozen = rules.always_frozen or not pos.opened[s] or any(is_wild(c) or is_red3(c) for c in pos.pile)
    for i, m in enumerate(melds):
        if is_canasta(m, rules) or meld_kind(m, rules)[0] == "black3" or not layoff_ok(m, (top,), rules):
            continue
        new = srt(m + (top,))
        after = melds[:i] + (new,) + melds[i + 1:]
        if not frozen and hg(len(hand) + rest_in, canastas(after, rules), pos, rules):
            res = pos._replace(melds=_set(pos.melds, s, after), pile=pos.pile[:-1], phase="meld")
            took("layoff", take_rest(res, p, rest, rules))
        # Dutch top-card take onto an own sequence: only the top card, then draw 1 (S-D17)
        if rules.seq_take and pos.opened[s] and meld_kind(m, rules)[0] == "seq" and hg(
                len(hand) + (1 if pos.stock else 0), canastas(after, rules), pos, rules):
            res = pos._replace(melds=_set(pos.melds, s, after), pile=pos.pile[:-1], phase="meld")
            if pos.stock:
                res, _ = draw_cards(res, p, 1, rules)
            took("seq", canon(res))
    return out


def whole_moves(pos: Pos, rules):
    """The set of positions every whole move of the seat to act leads to (§4.3-§4.5)."""
    if pos.phase == "draw":
        return t1_moves(pos, rules)
    if pos.phase == "meld":
        return t2_moves(pos, rules)
    return set()


def t1_moves(pos: Pos, rules):
    p = pos.turn
    out = set()
    tk = takes(pos, rules)
    out |= {res for _, res in tk}
    if pos.stock:
        n = 2 if len(pos.stock) >= 2 else 1
        res, got = draw_cards(pos, p, n, rules)
        if not res.stock and got == 0:
            out.add(finish(res, "red_threes_last", None))            # E3 (S-D13)
        else:
            out.add(canon(res._replace(phase="meld")))
    elif any(k == "pair" for k, _ in tk) and not any(k in ("layoff", "seq") for k, _ in tk):
        out.add(finish(pos, "stock_out", None))                       # DECLINE_PILE (§4.5, S-D12)
    return out


def t2_moves(pos: Pos, rules):
    p = pos.turn
    s = p % rules.sides
    hand = pos.hands[p]
    melds = pos.melds[s]
    C = canastas(melds, rules)
    may_out = C >= rules.min_can and not pos.partner_no
    out = set()

    def placed(new_hand, new_melds, **kw):
        res = canon(pos._replace(hands=_set(pos.hands, p, new_hand), melds=_set(pos.melds, s, new_melds), **kw))
        return finish(res, "went_out", p) if not new_hand else res

    if not pos.opened[s]:
        need = pos.req[s]
        failed = False
        for batch, left in batches(hand, rules):
            v = sum(total(m) for m in batch)
            if v < need:
                # the attempt keeps INITIAL_MELD's other preconditions, the hand guard included
                failed = failed or hg(len(left), canastas(batch, rules), pos, rules)
                continue
            if minimal(batch, need) and hg(len(left), canastas(batch, rules), pos, rules):
                out.add(placed(left, batch, opened=_set(pos.opened, s, True)))
        if failed and rules.penalize:
            # a failed attempt (§4.4 INITIAL_MELD under penalize): the cards stay, +100
            out.add(canon(pos._replace(req=_set(pos.req, s, pos.req[s] + 100))))
    else:
        for sub in submultisets(hand):
            h = len(hand) - len(sub)
            left = minus(hand, sub)
            k = meld_kind(sub, rules)
            if k is not None:
                if k[0] == "black3":
                    ok = h <= 1 and may_out                            # MELD_BLACK3 (S-D9)
                else:
                    ok = hg(h, C + is_canasta(sub, rules), pos, rules)
                if ok:
                    out.add(placed(left, melds + (sub,)))
            for i, m in enumerate(melds):
                if not layoff_ok(m, sub, rules):
                    continue
                new = srt(m + sub)
                after = melds[:i] + (new,) + melds[i + 1:]
                if meld_kind(m, rules)[0] == "black3":
                    ok = h <= 1 and may_out
                else:
                    ok = hg(h, canastas(after, rules), pos, rules)
                if ok:
                    out.add(placed(left, after))
        for i, j in itertools.combinations(range(len(melds)), 2):
            if merge_ok(melds[i], melds[j], rules):
                after = [m for k_, m in enumerate(melds) if k_ not in (i, j)] + [srt(melds[i] + melds[j])]
                # HG on MERGE (S-D10): the hand keeps its cards, but the side may keep fewer canastas
                if hg(len(hand), canastas(tuple(after), rules), pos, rules):
                    out.add(placed(hand, tuple(after)))
    # PLACE_RED3 (manual red threes, S-D16; HG) and DISCARD (never an American red three)
    for c in set(hand):
        left = minus(hand, (c,))
        if is_red3(c) and rules.manual and hg(len(left), C, pos, rules):
            res = canon(pos._replace(hands=_set(pos.hands, p, left), red3=_set(pos.red3, s, pos.red3[s] + (c,))))
            out.add(finish(res, "went_out", p) if not left else res)
        if is_red3(c) and not rules.manual:
            continue
        if not left and not may_out:
            continue
        res = canon(pos._replace(hands=_set(pos.hands, p, left), pile=pos.pile + (c,)))
        out.add(finish(res, "went_out", p) if not left else start_turn(res, (p + 1) % rules.players, rules))
    return out
