"""An independent, slow, literal Python reading of docs/rules/six_tigers.md §2-§5 (patterns, old
cards, single-lead restriction, beating) on card strings. The tests compare the engine's
kernels and factored actions against it; it shares no code with the engine."""
from itertools import combinations

SUITS = ("SHI", "GUAN", "SUO", "XIAN")          # strongest first
DECK = [s + str(n) for s in SUITS for n in range(1, 10)] + ["CLOUD"]
FIXED_OLD = {"SHI1", "XIAN1", "CLOUD"}


def suit(c):
    return None if c == "CLOUD" else c.rstrip("0123456789")


def number(c):
    return 1 if c == "CLOUD" else int(c[-1])


def old_cards(played):
    """§2.5: fixed old cards not yet played + the highest unplayed card of each suit."""
    played = set(played)
    old = {c for c in FIXED_OLD if c not in played}
    for s in SUITS:
        rest = [n for n in range(1, 10) if f"{s}{n}" not in played]
        if rest:
            old.add(f"{s}{max(rest)}")
    return old


def set_rank(n, natural=False):
    if natural:
        return n
    return {9: 10, 1: 9}.get(n, n)


def pattern(cards, natural=False, cloud_in_sets=False):
    """(type, size, strength) or None. Strength compares within (type, size)."""
    cards = list(cards)
    k = len(cards)
    if k == 1:
        return ("single", 1, cards[0])
    if k < 3:
        return None
    nums = {number(c) for c in cards}
    if k <= 4 and len(nums) == 1 and ("CLOUD" not in cards or cloud_in_sets):
        return ("set", k, set_rank(nums.pop(), natural))
    if "CLOUD" in cards:
        return None
    suits = {suit(c) for c in cards}
    ns = sorted(number(c) for c in cards)
    if len(suits) == 1 and ns == list(range(ns[0], ns[0] + k)):
        return ("run", k, (3 - SUITS.index(suits.pop()), ns[-1]))
    return None


def beats(cand, high_cards, natural=False, cloud_in_sets=False):
    """§5.3: does the play `cand` beat the current high play `high_cards`?"""
    p = pattern(cand, natural, cloud_in_sets)
    h = pattern(high_cards, natural, cloud_in_sets)
    if p is None or h is None or p[0] != h[0] or p[1] != h[1]:
        return False
    if p[0] == "single":
        c, hc = cand[0], high_cards[0]
        if hc in FIXED_OLD or c == "CLOUD":
            return False
        return suit(c) == suit(hc) and number(c) > number(hc)
    return p[2] > h[2]


def legal_leads(hand, played, special=False, natural=False, cloud_in_sets=False):
    """§5.1-§5.2 by brute force over every subset of the hand: sets of frozensets."""
    old = old_cards(played) & set(hand)
    nonold = [c for c in hand if c not in old]
    out = set()
    for k in range(1, len(hand) + 1):
        for combo in combinations(hand, k):
            p = pattern(combo, natural, cloud_in_sets)
            if p is None:
                continue
            if p[0] == "single":
                c = combo[0]
                if nonold:
                    top = min(SUITS.index(suit(x)) for x in nonold)
                    ok = c in nonold and SUITS.index(suit(c)) == top
                    if special and c in old:
                        ok = True
                else:
                    ok = True
                if not ok:
                    continue
            out.add(frozenset(combo))
    return out


def legal_follows(hand, high_cards, k, must_beat=True, natural=False, cloud_in_sets=False):
    """§5.1: (beats, discards) as sets of frozensets for a follower holding `hand`."""
    bts = {frozenset(c) for c in combinations(hand, k) if beats(list(c), list(high_cards), natural, cloud_in_sets)}
    if bts and must_beat:
        return bts, set()
    return bts, {frozenset(c) for c in combinations(hand, k)}


def trick_winner(plays, natural=False, cloud_in_sets=False):
    w = 0
    for i in range(1, len(plays)):
        if beats(plays[i], plays[w], natural, cloud_in_sets):
            w = i
    return w
