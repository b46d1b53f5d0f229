"""Gleek (17th-century England, Parlett's reconstruction): 3 players each for himself, a 44-card
pack, buying the stock, vying the ruff, gleeks and mournivals, 12 tricks with trump honours, all
settled in chips.

Implements docs/rules/gleek.md §1-§8 (every option of §8) and follows its decisions D1-D13 as
written: honours A15 J9 K3 Q3 (D1); action-space caps MAX_STOCK_BID / MAX_REVIES (D2); discard 7,
then take the stock (D3, option); base stake 2 x (1 + dead ruffs) (D4); a pass before any vie is a
check, a folder forfeits what he committed (D5, option); gleek/mournival table A 4/8 K 3/6 Q 2/4
J 1/2 (D6, an option table); reveal tie-break by suit order S H D C (D7); the turn-up never
counts for ruffs or gleeks (D8); declarations automatic (D9, option); avg = T/3 (D10); match
defaults 6 deals and 200 chips (D11); the game-end test after full settlement (D12); the odd chip
to the second passer (D13).

Where the spec is silent: with STOCK_ODD_CHIP="eldest" and eldest as buyer, the odd chip goes to
the last passer; with FOLD_PAYS="stake" a folder owes the stake current when he folds; honour
values must be multiples of 3 so that avg = T/3 stays an integer; a buyer's discards stay hidden
until the end of the deal; with optional declarations each player, in turn from eldest, declares
any of his sets (one action each) then says DONE (players without a set are skipped).

Card identity: suit*11 + rank, suits S H D C (0..3), rank 0 = '4' .. 6 = '10', 7 = J, 8 = Q,
9 = K, 10 = A. Actions: 0..43 that card (discard it in the exchange, play it in trick play);
44 PASS (auction pass, open-round check, respond-round fold); 45 VIE; 46 SEE; 47 REVIE;
48..51 DECLARE A/K/Q/J (optional declarations); 52 DONE; 53 + n = BID n (n <= MAX_STOCK_BID).

Returns: per seat, the chips won (+) or lost (-) in the deal (scope "deal") or over the match
(scope "match": balance minus starting chips). Zero-sum. The deal's chips by step (turn-up,
stock, ruff, gleeks, tricks) are in `view()["parts"]`.

Observation (float32, length obs_size), blocks in order: own hand (44); own discards if buyer (44);
turn-up (44); cards played by seat 0..2 (3x44); current trick by seat (3x44); cards shown by seat
(declared sets, ruff showdown) (3x44); phase (6); seat to act (3); dealer (3); observer (3);
auction: high/100 (1), high bidder (3), pass order per seat one-hot none/first/second (3x3), last
bid per seat /100 (3), buyer (3), discards made /7 (1), stock taken (1); vie: open round (1),
open-round actions /3 (1), vied (1), revies /4 (1), stake /100 (1), base /100 (1), committed per
seat /100 (3), owe per seat /100 (3), folded (3), checked (3), pending list position x seat (3x3),
showdown (1), revealed suit per seat (3x5, fifth = four Aces), revealed ruff /100 (3); dead ruffs
/10 (1); declared sets per seat and rank (3x4), their size /4 (3x4), done declaring (3); tricks per
seat /12 (3), tricks done /12 (1), leader (3); chips of this deal by step and seat /100 (15);
chip balances /starting chips (3); deals done /num_deals (1).

Greedy agent: never bids for the stock (passes; eldest's 12 is forced); as buyer discards the
7 cards it values least (trumps and cards of ranks it holds 3+ of kept first, then high ranks);
vies with a ruff of 45+, sees with 42+, revies with 55+ (four Aces always revie/see); declares
every set; in play leads a master non-trump card if it has one, otherwise the lowest card of its
longest non-trump suit; as follower plays the cheapest card that currently wins the trick, else
its lowest card (non-trumps first).

Layout: `_gleek_rules` (pure rules on cards and config: trick winner, follow rule, ruff value,
gleeks and mournivals, trick settlement, card notation), `_gleek_state` (the state machine,
observation and resampling), this one (the greedy agent and the Python face: GleekSpec,
strings, view, spec.scenario, oracle entry points). Core mechanisms used: the core shuffle
(deal), TrickRecord (the current trick), the resample policy (showdown ruffs and declared sets
as its world check; it reports failure rather than relax a constraint), GameSpec.install and
_scenario_state. Scenario states: spec.scenario(hands, turnup=, dealer=0, dead=0, chips=None),
every argument validated before the state is touched (dead <= 100000: the stake is int32).
"""
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet, as_has, as_first
from cardsim.core._suited cimport lowest_by_rank, master_card, long_suit_lead, plain_beaters
from cardsim.core._engine cimport GameSpec, State, check_int
from cardsim.games._gleek_rules cimport (
    GL_RANK_ACE, bit, full_pack, suit_mask, rank_cards, card_suit, card_rank, winning_card, ruff_value,
    sets_value, honour_sum, trick_settlement)
from cardsim.games._gleek_state cimport *

from cardsim.core.notation import disjoint_hands
from cardsim.errors import ConfigError, ParseError, short
from cardsim.games._gleek_rules import (SUITS, RANKS, HONOUR_NAMES, RUFF_FOUR_ACES, DISPLAY_ORDER, card_str,
                                        parse_suit, parse_card, mask_to_cards, cards_to_mask)
from cardsim.games._gleek_state import OBS_SIZE

PHASES = ("auction", "exchange", "vie", "declare", "play", "end")
METRICS = ("dealer", "buyer", "price", "vied", "stake", "showdown", "trump", "discarded_honours",
           "points_total", "deals")

# ---------------------------------------------------------------------------------------------
# greedy agent
# ---------------------------------------------------------------------------------------------
cdef inline int lowest_card(uint64_t m, int trump) noexcept nogil:
    """Lowest card of m by rank, non-trumps before trumps."""
    return lowest_by_rank(m, 11, trump)

cdef int keep_value(uint64_t hand, int cd, int trump) noexcept nogil:
    cdef int r = card_rank(cd), v = r
    if card_suit(cd) == trump:
        v += 100
    if r >= 7 and cs_popcount(hand & rank_cards(r)) >= 3:
        v += 60
    if r == 10:
        v += 30
    return v

cdef int greedy_play(const GLState* s, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, cd, n = s.cur.n
    cdef uint64_t m = legal.w[0], gone, tm
    gone = s.played[0] | s.played[1] | s.played[2] | bit(s.turnup)
    if s.buyer == p:
        gone |= s.discards
    if n == 0:
        cd = master_card(m, ~gone & ~s.hand[p], 11, s.trump)
        if cd >= 0:
            return cd
        return long_suit_lead(m, 11, s.trump)
    tm = 0
    for cd in range(n):
        tm |= bit(s.cur.card[s.cur.order[cd]])
    cd = lowest_card(plain_beaters(m, winning_card(tm, s.led, s.trump), 11, s.trump), s.trump)
    if cd >= 0:
        return cd
    return lowest_card(m, s.trump)

cdef int gl_greedy(const void* st, const void* cfg, const ActionSet* legal, int n, Rng* rng) noexcept nogil:
    cdef const GLState* s = <const GLState*>st
    cdef int p = s.turn, suit, v, cd, bv, best
    cdef uint64_t tmp
    if s.phase == GL_PH_PLAY:
        return greedy_play(s, legal)
    if s.phase == GL_PH_AUCTION:
        return GL_PASS
    if s.phase == GL_PH_EXCHANGE:
        best = -1
        bv = 1 << 30
        tmp = s.hand[p]
        while tmp:
            cd = bit_low(tmp)
            tmp &= tmp - 1
            v = keep_value(s.hand[p], cd, s.trump)
            if v < bv:
                bv = v
                best = cd
        return best
    if s.phase == GL_PH_VIE:
        v = ruff_value(s.hand[p], &suit)
        if s.vie_open:
            return GL_VIE if v >= 45 else GL_PASS
        if v >= 55 and as_has(legal, GL_REVIE):
            return GL_REVIE
        return GL_SEE if v >= 42 else GL_PASS
    if s.phase == GL_PH_DECLARE:
        for v in range(4):
            if as_has(legal, GL_DECLARE0 + v):
                return GL_DECLARE0 + v
        return GL_DONE
    return as_first(legal, 1)



# ---------------------------------------------------------------------------------------------
# Python face
# ---------------------------------------------------------------------------------------------
cdef class GleekSpec(GameSpec):

    def __init__(self, dict opts):
        self.c.tiddy_pay = opts["tiddy_turnup_pay"]
        self.c.towser_tumbler = opts["towser_tumbler"]
        self.c.opening_bid = opts["stock_opening_bid"]
        self.c.raise_one = opts["stock_raise"] == "plus_one"
        self.c.odd_to_eldest = opts["stock_odd_chip"] == "eldest"
        self.c.pay_full = opts["stock_payment"] == "full_each"
        self.c.take_first = opts["exchange_order"] == "take_first"
        self.c.honours_won = opts["honour_scoring"] == "won"
        self.c.fold_pays_stake = opts["fold_pays"] == "stake"
        self.c.optional_decl = opts["gleek_declaration"] == "optional"
        self.c.max_bid = opts["max_stock_bid"]
        self.c.max_revies = opts["max_revies"]
        for i in range(4):
            self.c.honour[i] = opts["honour_values"][i]
            self.c.gleek[i] = opts["gleek_values"][i]
            self.c.mournival[i] = opts["mournival_values"][i]
        self.c.trick_value = opts["trick_value"]
        self.c.num_deals = opts["num_deals"]
        self.c.starting_chips = opts["starting_chips"]
        self.c.match = opts["scope"] == "match"
        self.vt.init = gl_init
        self.vt.current_player = gl_current_player
        self.vt.legal = gl_legal
        self.vt.apply = gl_apply
        self.vt.is_terminal = gl_is_terminal
        self.vt.returns = gl_returns
        self.vt.observe = gl_observe
        self.vt.resample = gl_resample
        self.vt.greedy = gl_greedy
        self.vt.metrics = gl_metrics
        self.install("gleek", &self.c, 3, GL_BID0 + self.c.max_bid + 1, sizeof(GLState), OBS_SIZE, METRICS, "zero",
                     dict(opts))
        self.c.nw = self.action_words              # the legal kernel clears this many words

    # ---- strings --------------------------------------------------------------------------
    def _action_string(self, State s, int a):
        if a < 44:
            if (<GLState*>self._data(s)).phase == GL_PH_EXCHANGE:
                return "DISCARD " + card_str(a)
            return card_str(a)
        if a == GL_PASS:
            return "PASS"
        if a == GL_VIE:
            return "VIE"
        if a == GL_SEE:
            return "SEE"
        if a == GL_REVIE:
            return "REVIE"
        if a == GL_DONE:
            return "DONE"
        if a < GL_DONE:
            return "DECLARE " + HONOUR_NAMES[a - GL_DECLARE0]
        return f"BID {a - GL_BID0}"

    def _parse_action(self, State s, str text):
        t = " ".join(text.strip().upper().split())
        simple = {"PASS": GL_PASS, "P": GL_PASS, "CHECK": GL_PASS, "FOLD": GL_PASS, "VIE": GL_VIE,
                  "SEE": GL_SEE, "REVIE": GL_REVIE, "DONE": GL_DONE}
        if t in simple:
            return simple[t]
        if t.startswith("DECLARE "):
            r = t[8:].strip()
            if r in HONOUR_NAMES:
                return GL_DECLARE0 + HONOUR_NAMES.index(r)
        elif t.startswith("DISCARD "):
            return parse_card(t[8:])
        else:
            num = t[4:].strip() if t.startswith("BID ") else t
            if num.isdigit() and 0 <= int(num) <= self.c.max_bid:
                return GL_BID0 + int(num)
            try:
                return parse_card(t)
            except ParseError:
                pass
        raise ParseError(f"gleek: cannot parse action {short(text)}; expected a card ('AS', '10H'), "
                         f"'DISCARD AS', 'BID 13', 'PASS', 'VIE', 'SEE', 'REVIE', 'DECLARE A' or 'DONE'")

    def _hand_strings(self, State s, int p):
        return mask_to_cards((<GLState*>self._data(s)).hand[p])

    def _phase_name(self, State s):
        return PHASES[(<GLState*>self._data(s)).phase]

    @property
    def deck_size(self):
        return 44

    def _card_total(self, State s):
        """Cards in hands + played + stock + discards + the turn-up; negative if any card is
        missing or in two zones."""
        cdef GLState* st = <GLState*>self._data(s)
        cdef uint64_t allm = st.stock | st.discards | bit(st.turnup)
        cdef int n = cs_popcount(st.stock) + cs_popcount(st.discards) + 1
        for p in range(3):
            n += cs_popcount(st.hand[p]) + cs_popcount(st.played[p])
            allm |= st.hand[p] | st.played[p]
        return n if allm == full_pack() else -n

    def _view(self, State s):
        """A dict of every fact of the state (public and hidden; for tests and display)."""
        cdef GLState* st = <GLState*>self._data(s)
        cdef int V[3]
        for q in range(3):
            V[q] = sets_value(&self.c, st.kept[q], st.declared[q])
        return {
            "phase": self.phase_name(s), "dealer": st.dealer, "eldest": st.eldest,
            "turn": st.turn if st.phase != GL_PH_END else -1,
            "turnup": card_str(st.turnup), "trump": SUITS[st.trump],
            "high": st.high, "high_bidder": st.high_bidder,
            "passed": [q for q in range(3) if (st.passed >> q) & 1],
            "last_passer": next((q for q in range(3) if st.pass_rank[q] == 2), None),
            "buyer": st.buyer if st.buyer >= 0 else None,
            "price": st.high if st.buyer >= 0 else None,
            "stock": mask_to_cards(st.stock), "discards": mask_to_cards(st.discards),
            "base": st.base, "stake": st.stake, "vied": bool(st.vied), "dead": st.dead,
            "committed": [st.committed[q] for q in range(3)], "owe": [st.owe[q] for q in range(3)],
            "folded": [q for q in range(3) if (st.folded >> q) & 1],
            "pending": [st.pending[i] for i in range(st.npend)],
            "showdown": bool(st.showdown),
            "ruff": [None if st.ruff[q] < 0 else st.ruff[q] for q in range(3)],
            "ruff_suit": [None if st.ruff_suit[q] < 0 else ("SHDC" + "A")[st.ruff_suit[q]] for q in range(3)],
            "shown": [mask_to_cards(st.shown[q]) for q in range(3)],
            "declared": [[HONOUR_NAMES[r] for r in range(4) if (st.declared[q] >> r) & 1] for q in range(3)],
            "gleek_value": [V[q] for q in range(3)],
            "kept": [mask_to_cards(st.kept[q]) for q in range(3)],
            "leader": st.cur.leader, "trick": [None if st.cur.card[q] < 0 else card_str(st.cur.card[q]) for q in range(3)],
            "tricks": [st.tricks[q] for q in range(3)], "tricks_done": st.tricks_done,
            "played": [mask_to_cards(st.played[q]) for q in range(3)],
            "won": [mask_to_cards(st.won[q]) for q in range(3)],
            "score": [st.score[q] for q in range(3)], "points_total": st.total,
            "parts": {name: [st.part[k][q] for q in range(3)]
                      for k, name in enumerate(("turnup", "stock", "ruff", "gleeks", "tricks"))},
            "deal_chips": [sum(st.part[k][q] for k in range(5)) for q in range(3)],
            "chips": [st.chips[q] for q in range(3)], "deal_no": st.deal_no,
        }

    def _render(self, State s):
        v = self.view(s)
        lines = [f"Gleek  phase={v['phase']}  dealer=P{v['dealer']}  turn-up {v['turnup']} (trump {v['trump']})"
                 f"  deal {v['deal_no'] + (v['phase'] != 'end')}  chips {v['chips']}"]
        if v["phase"] == "auction":
            lines.append(f"auction: high {v['high']} by P{v['high_bidder']}  passed {v['passed']}")
        elif v["buyer"] is not None:
            lines.append(f"stock bought by P{v['buyer']} at {v['price']}; ruff base {v['base']} stake {v['stake']}"
                         f" folded {v['folded']}")
        for p in range(3):
            mark = "*" if v["turn"] == p else " "
            lines.append(f"{mark}P{p}: {' '.join(self.hand_strings(s, p))}")
        if v["phase"] == "play":
            lines.append("trick: " + "  ".join(f"P{p}:{c}" for p, c in enumerate(v["trick"]) if c)
                         + f"   tricks {v['tricks']}")
        lines.append(f"this deal: {v['parts']}")
        return "\n".join(lines)

    # ---- scenario set-up --------------------------------------------------------------------
    def scenario(self, hands, **facts):
        """A fresh state at the start of the auction, for scenario tests and analysis: three
        12-card hands (card strings) and the public facts turnup (required), dealer (0..2),
        dead (consecutive dead ruffs before this deal, 0..MAX_DEAD: base stake 2 x (1 + dead))
        and chips (3 balances before this deal, scope "match"); the 7 remaining cards form the
        stock. Turn-up payment and eldest's forced bid are applied as in a real deal. Every
        argument is validated before the state is touched (ConfigError / ParseError)."""
        cdef State s
        cdef GLState* st
        cdef int p
        unknown = sorted(set(facts) - {"turnup", "dealer", "dead", "chips"})
        if unknown:
            raise ConfigError(f"gleek: unknown scenario facts {unknown}; known: turnup, dealer, dead, chips")
        if "turnup" not in facts:
            raise ConfigError("gleek: a scenario needs the turn-up card (turnup='7H')")
        masks, allm = disjoint_hands("gleek", hands, 3, cards_to_mask, 12)
        tu = parse_card(facts["turnup"])
        if (allm >> tu) & 1:
            raise ConfigError("gleek: the turn-up is in a hand")
        dealer = check_int(facts.get("dealer", 0), "gleek: dealer", 0, 2, ConfigError)
        dead = check_int(facts.get("dead", 0), "gleek: dead", 0, MAX_DEAD, ConfigError)
        chips = facts.get("chips")
        if chips is not None:
            if isinstance(chips, (str, bytes)) or not isinstance(chips, (list, tuple)) or len(chips) != 3:
                raise ConfigError(f"gleek: chips must be 3 ints, got {chips!r:.60}")
            chips = [check_int(v, "gleek: chips", -MAX_CHIPS, MAX_CHIPS, ConfigError) for v in chips]
        s = self._scenario_state()
        st = <GLState*>self._data(s)
        st.dealer = dealer
        st.dead = dead
        for p in range(3):
            st.hand[p] = masks[p]
            if chips is not None:
                st.chips[p] = chips[p]
        st.turnup = tu
        st.stock = full_pack() & ~allm & ~bit(tu)
        setup_deal(st, &self.c)
        return s

    def deal_hands(self, hands, turnup, dealer=0, dead=0, chips=None):
        """Same as scenario(hands, turnup=turnup, dealer=dealer, dead=dead, chips=chips)."""
        return self.scenario(hands, turnup=turnup, dealer=dealer, dead=dead, chips=chips)


MAX_DEAD = 100_000            # dead ruffs given to a scenario: the stake (int32) stays exact
MAX_CHIPS = 1_000_000_000     # chip balances given to a scenario


# ---- oracles' kernels --------------------------------------------------------------------------
def oracle_sets_value(GleekSpec spec, uint64_t hand):
    return sets_value(&spec.c, hand, 15)

def oracle_trick_settlement(GleekSpec spec, list tricks, list honours, int turnup, int dealer,
                            uint64_t discards):
    cdef int8_t t[3]
    cdef uint64_t h[3]
    cdef int32_t score[3]
    cdef int32_t delta[3]
    cdef int32_t total
    if len(tricks) != 3 or len(honours) != 3 or not 0 <= dealer < 3 or not 0 <= turnup < 44:
        raise ConfigError("gleek: trick settlement needs 3 trick counts, 3 honour masks, a dealer 0..2 "
                          "and a turn-up card id 0..43")
    for q in range(3):
        if not 0 <= tricks[q] <= 12:
            raise ConfigError(f"gleek: trick counts are 0..12, got {tricks[q]}")
        t[q] = tricks[q]
        h[q] = honours[q]
    trick_settlement(&spec.c, t, h, turnup, dealer, discards, score, &total, delta)
    return [score[q] for q in range(3)], total, [delta[q] for q in range(3)]
