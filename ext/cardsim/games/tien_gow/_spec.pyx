"""Tien Gow spec: the thin glue between the kernels and the Python face. `TienGowSpec` fills the
config struct from the resolved options, fills the vtable and installs the game from the GameInfo
it is given (the face's build passes INFO, `cardsim.games.tien_gow.info`); its underscore hooks
read or write the state struct and leave strings to the notation module
(`cardsim.games.tien_gow.notation`). Validation, scenario checks and the oracles' argument checks
live in the face (`cardsim.games.tien_gow`)."""
from cardsim.core._hand cimport Hand, hand_clear, hand_add, hand_count, hand_size
from cardsim.core._trick cimport trick_start
from cardsim.core._engine cimport GameSpec, State, check_int
from cardsim.games.tien_gow._rules cimport TGCombo, TG_IDS, TG_CIVIL, TG_TILES, TG_NP, tg_rules_init
from cardsim.games.tien_gow._state cimport (
    TGState, TGConfig, TG_NUM_ACTIONS, TG_PH_PLAY, TG_PH_END, merged, new_deal, trick_played, tg_init,
    tg_current_player, tg_is_terminal, tg_legal, tg_apply, tg_returns, tg_metrics)
from cardsim.games.tien_gow._agent cimport tg_greedy
from cardsim.games.tien_gow._observe cimport tg_observe, tg_resample
from cardsim.games.tien_gow._layout cimport OBS_SIZE
from cardsim.games.tien_gow._state cimport play_loop as _play_loop

from cardsim.errors import ConfigError
from cardsim.games.tien_gow import notation as N

DEATH_THRESHOLD = {"on": 1, "off": 0, "two_tricks": 2}     # option early_death -> tricks needed to BEAT


cdef list counts(const Hand* h):
    """21 counts (one per identity) of a multiset of tiles."""
    return [hand_count(h, k) for k in range(TG_IDS)]

cdef list tiles(const Hand* h):
    return N.tiles_of(counts(h))


def fits_struct(banker, hands, played, winners, leader):
    """True if the scenario facts fit the struct's arrays (seats 0..3, identities 0..20, at most
    7 earlier tricks, at most 8 tiles per hand); their consistency is the face's to check."""
    def seat(x):
        return type(x) is int and 0 <= x < TG_NP

    def ids(xs, n):
        return type(xs) is list and len(xs) <= n and all(type(k) is int and 0 <= k < TG_IDS for k in xs)

    if not (seat(banker) and seat(leader) and type(hands) is list and len(hands) == TG_NP
            and all(ids(h, 8) for h in hands) and type(played) is list and len(played) < 8
            and all(ids(x, TG_NP) and len(x) == TG_NP for x in played) and type(winners) is list
            and len(winners) == len(played) and all(seat(w) for w in winners)):
        return False
    every = [k for h in hands + played for k in h]
    return all(every.count(k) <= (2 if k < TG_CIVIL else 1) for k in set(every))


# ---- the running standing (vt.standing; core game_standing; info.STANDING) -----------------------
cdef void tg_standing(const void* st, const void* cfg, double* out) noexcept nogil:
    """Who is ahead mid-deal (info.STANDING): the chips won so far (the returns: this deal's Hong
    Kong bonuses, paid at once, or the match balance) plus the tricks credited so far (§6.1: a
    player owes the deal's winner 4 - tricks, so each trick is a chip less to pay)."""
    cdef const TGState* s = <const TGState*>st
    cdef int q
    tg_returns(st, cfg, out)
    for q in range(TG_NP):
        out[q] += s.tricks[q]

cdef class TienGowSpec(GameSpec):
    cdef TGConfig c

    def __init__(self, dict opts, info):
        """`opts`: the resolved options; `info`: the game's GameInfo (install_game checks the
        kernel's OBS_SIZE and the metrics against it)."""
        tg_rules_init(&self.c.rules, opts["military_fives_equal"], opts["mixed_combinations"] == "allowed",
                      opts["two_pair_lead"], opts["supreme_follow"] == "highest_pair")
        self.c.must_beat = opts["must_beat_if_able"]
        self.c.death_threshold = DEATH_THRESHOLD[opts["early_death"]]
        self.c.increasing = opts["banker_multiplier"] == "increasing"
        self.c.shutout = opts["shutout_bonus"]
        self.c.hk = opts["hk_bonuses"]
        self.c.match = opts["scope"] == "match"
        self.c.num_deals = opts["num_deals"]
        self.c.bankroll = opts["bankroll"] or 0
        self.vt.init = tg_init
        self.vt.current_player = tg_current_player
        self.vt.legal = tg_legal
        self.vt.apply = tg_apply
        self.vt.play = _play_loop
        self.vt.is_terminal = tg_is_terminal
        self.vt.returns = tg_returns
        self.vt.observe = tg_observe
        self.vt.resample = tg_resample
        self.vt.greedy = tg_greedy
        self.vt.metrics = tg_metrics
        self.vt.standing = tg_standing
        self.install_game(info, &self.c, TG_NP, TG_NUM_ACTIONS, sizeof(TGState), OBS_SIZE, opts)

    # ---- strings (the notation module) ------------------------------------------------------
    def _action_string(self, State s, int a):
        return N.action_string(a)

    def _parse_action(self, State s, str text):
        return N.parse_action(text)

    def _hand_strings(self, State s, int p):
        cdef TGState* st = <TGState*>self._data(s)
        cdef Hand h = st.hand[p]
        if st.turn == p and st.phase == TG_PH_PLAY:
            h = merged(&h, &st.stage.cards)
        return tiles(&h)

    def _phase_name(self, State s):
        return N.PHASES[(<TGState*>self._data(s)).phase]

    @property
    def deck_size(self):
        return TG_TILES

    def _card_total(self, State s):
        """Tiles in hands + the staged play + every play of this deal (32 at every step; negative if
        some identity is not present in its number of copies)."""
        cdef TGState* st = <TGState*>self._data(s)
        cdef int n = st.stage.n, q, t, k
        cdef int cnt[21]
        for k in range(TG_IDS):
            cnt[k] = hand_count(&st.stage.cards, k)
        for q in range(TG_NP):
            n += hand_size(&st.hand[q])
            for t in range(8):
                n += hand_size(&st.tplay[t][q])
                for k in range(TG_IDS):
                    cnt[k] += hand_count(&st.tplay[t][q], k)
            for k in range(TG_IDS):
                cnt[k] += hand_count(&st.hand[q], k)
        for k in range(TG_IDS):
            if cnt[k] != (2 if k < TG_CIVIL else 1):
                return -n
        return n

    def _view(self, State s):
        """A dict of the public and private facts (for tests and display)."""
        cdef TGState* st = <TGState*>self._data(s)
        cdef int t, q
        trick_log = []
        for t in range(st.ntrick + 1):
            if t >= 8 or st.tsize[t] == 0:
                break
            plays = {}
            for q in range(TG_NP):
                if trick_played(st, t, q):
                    plays[q] = {"tiles": tiles(&st.tplay[t][q]), "face_up": bool((st.tface[t] >> q) & 1)}
            trick_log.append({"leader": st.tleader[t], "size": st.tsize[t], "plays": plays,
                              "winner": None if st.twinner[t] < 0 else st.twinner[t]})
        return {
            # the leader of the trick in play; at the end, of the last trick (the record moved on)
            "phase": N.PHASES[st.phase], "banker": st.banker, "turn": st.turn,
            "leader": st.tleader[st.ntrick - 1] if st.phase == TG_PH_END else st.cur.leader,
            "tricks": [st.tricks[q] for q in range(TG_NP)], "trick_log": trick_log,
            "high_seat": None if st.high_seat < 0 else st.high_seat,
            "high": None if st.high_combo < 0 else self.combo_tiles(st.high_combo),
            "stage": tiles(&st.stage.cards), "stage_mode": N.STAGE_MODES[st.stage.kind],
            "deal_pay": [st.deal_pay[q] for q in range(TG_NP)], "balance": [st.balance[q] for q in range(TG_NP)],
            "deal_no": st.deal_no, "streak": st.streak,
            "deal_winner": None if st.deal_winner < 0 else st.deal_winner,
        }

    def combo_tiles(self, ci):
        """The tiles of combination `ci` of this configuration's table."""
        cdef TGCombo* cb = &self.c.rules.combo[check_int(ci, "tien_gow: a combination index", 0,
                                                         self.c.rules.ncombo - 1, ConfigError)]
        cdef Hand h
        hand_clear(&h)
        h.layer[0] = cb.one
        h.layer[1] = cb.two
        return tiles(&h)

    def _render(self, State s):
        cdef TGState* st = <TGState*>self._data(s)
        return N.render(self.view(s), [tiles(&st.hand[q]) for q in range(TG_NP)], bool(self.c.match))

    # ---- struct glue for the face -------------------------------------------------------------
    def _progress(self, State s):
        """(tricks completed, plays in the current trick, deals settled, phase): changes exactly
        when a whole play is in (the face's legal_plays walk)."""
        cdef TGState* st = <TGState*>self._data(s)
        return (st.ntrick, st.cur.n, st.deal_no, st.phase)

    def _scenario(self, banker, hands, played, winners, leader):
        """A state at the start of trick m = len(played), from facts the face has checked:
        `hands` = 4 lists of identities, `played[t]` = the 4 identities played face up to the
        single-tile trick t, won by `winners[t]`; `leader` leads trick m. Not replayable."""
        cdef State s
        cdef TGState* st
        cdef int q, t, m, prev
        if not fits_struct(banker, hands, played, winners, leader):
            raise ConfigError("tien_gow: _scenario takes checked facts; use cardsim.games.tien_gow.scenario")
        m = len(played)
        prev = banker
        s = self._scenario_state()
        st = <TGState*>self._data(s)
        st.banker = banker
        new_deal(st)
        for q in range(TG_NP):
            hand_clear(&st.hand[q])
            for k in hands[q]:
                hand_add(&st.hand[q], k)
        for t in range(m):
            st.tleader[t] = prev
            st.tsize[t] = 1
            st.tface[t] = 0xF
            st.twinner[t] = winners[t]
            for q in range(TG_NP):
                hand_add(&st.tplay[t][q], played[t][q])
            prev = winners[t]
            st.tricks[prev] += 1
        st.ntrick = m
        trick_start(&st.cur, leader, TG_NP)
        st.turn = leader
        st.tleader[m] = leader
        return s
