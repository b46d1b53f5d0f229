/* Hearts by hand, on the engine's own random streams: the speed-of-light for cardsim's Hearts
 * kernel with random agents.
 *
 * trick_limit.c is the simplest trick game on one stream. This loop plays cardsim's Hearts with
 * its default options (docs/rules/hearts.md: 4 players, the first deal passes left, three cards
 * each; the holder of the two of clubs leads it; follow suit; no heart or queen of spades on the
 * first trick unless nothing else; hearts are not led until broken, the queen of spades breaks
 * them; shooting the moon adds 26 to the others) and draws every random number exactly as the
 * engine does (cardsim/core/_rng.pxd, FROZEN): one key per deal, the deal's stream for the first
 * dealer and the Fisher-Yates deal, and one stream per seat for its choices; a seat with one
 * legal card does not draw. So deal i of seed s here is deal i of seed s in
 * `cardsim.make("hearts").spec.run_batch(s, i, 1, [0, 0, 0, 0])`: the same cards, the same
 * plays, the same returns (tests/test_reference.py checks it on thousands of deals).
 *
 * What it leaves out of the engine's work: the state a Python State exposes (the public voids,
 * the cards each seat played and received, the staged pass), the metrics row, the vtable and the
 * per-seat agent test. What it keeps: the returns, and the decision counters run_batch reports
 * (decisions and the sum of legal counts over them). It is the floor the kernel is compared
 * with, not a second implementation of the game: it knows one configuration only.
 *
 * Build: gcc -O2 -mpopcnt [-mbmi2] -o hearts_limit hearts_limit.c
 * Run:   ./hearts_limit SEED START COUNT [dump]
 *   prints the checksum of the returns and counters; `dump` prints, per deal, the four returns
 *   (x3, as integers), the decisions and the legal sum.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { uint64_t s[4]; } Rng;

static inline uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
static inline uint64_t deal_key(uint64_t seed, uint64_t deal) {
  uint64_t x = seed, k = splitmix64(&x);
  x = k ^ deal;
  return splitmix64(&x);
}
static inline void seed_keyed(Rng *r, uint64_t key, uint64_t stream) {
  uint64_t x = key ^ stream, k = splitmix64(&x);
  x = k;
  r->s[0] = splitmix64(&x);
  r->s[1] = splitmix64(&x);
  r->s[2] = splitmix64(&x);
  r->s[3] = splitmix64(&x);
}
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t next64(Rng *r) { /* xoshiro256** */
  uint64_t result = rotl(r->s[1] * 5, 7) * 9, t = r->s[1] << 17;
  r->s[2] ^= r->s[0]; r->s[3] ^= r->s[1]; r->s[1] ^= r->s[2]; r->s[0] ^= r->s[3];
  r->s[2] ^= t; r->s[3] = rotl(r->s[3], 45);
  return result;
}
static inline uint32_t below(Rng *r, uint32_t n) { /* Lemire on the top 32 bits */
  uint64_t m = (next64(r) >> 32) * (uint64_t)n;
  uint32_t low = (uint32_t)m;
  if (low < n) {
    uint32_t t = (0u - n) % n;
    while (low < t) { m = (next64(r) >> 32) * (uint64_t)n; low = (uint32_t)m; }
  }
  return (uint32_t)(m >> 32);
}
#ifdef __BMI2__
#include <immintrin.h>
static inline int nth_bit(uint64_t m, uint32_t k) { return __builtin_ctzll(_pdep_u64(1ULL << k, m)); }
#else
static inline int nth_bit(uint64_t m, uint32_t k) { while (k--) m &= m - 1; return __builtin_ctzll(m); }
#endif

/* card id = suit * 13 + rank, suits spades, hearts, diamonds, clubs; rank 0 = '2' .. 12 = 'A' */
#define HEARTS (0x1FFFULL << 13)
#define QS (1ULL << 10)
#define TWO_C (1ULL << 39)
static const uint64_t SUIT[4] = {0x1FFFULL, 0x1FFFULL << 13, 0x1FFFULL << 26, 0x1FFFULL << 39};

typedef struct { int32_t ret3[4]; long decisions, legal_sum; } Result;

static void play_deal(uint64_t seed, uint64_t deal, Result *out) {
  Rng r, ar[4];
  uint64_t key = deal_key(seed, deal), hand[4] = {0, 0, 0, 0}, taken[4] = {0, 0, 0, 0};
  uint8_t pack[52];
  long dec = 0, ls = 0;
  seed_keyed(&r, key, 0);
  for (int p = 0; p < 4; p++) seed_keyed(&ar[p], key, 1 + p);
  int dealer = (int)below(&r, 4), first = (dealer + 1) & 3;
  /* Fisher-Yates from the top; pack position i goes to seat (first + i) % 4 */
  for (int i = 0; i < 52; i++) pack[i] = (uint8_t)i;
  for (int i = 51; i > 0; i--) {
    int j = (int)below(&r, (uint32_t)i + 1), c = pack[j];
    pack[j] = pack[i];
    hand[(first + i) & 3] |= 1ULL << c;
  }
  hand[first] |= 1ULL << pack[0];
  /* the pass: from next(dealer) round the table, three cards each (one at a time), to the left */
  uint64_t passed[4];
  for (int k = 0; k < 4; k++) {
    int p = (first + k) & 3;
    uint64_t h = hand[p], g = 0;
    for (int n = 13; n > 10; n--) {
      uint64_t b = 1ULL << nth_bit(h, below(&ar[p], (uint32_t)n));
      h ^= b; g |= b;
      dec++; ls += n;
    }
    hand[p] = h; passed[p] = g;
  }
  for (int p = 0; p < 4; p++) hand[(p + 1) & 3] |= passed[p];
  /* the play */
  int leader = 0;
  while (!(hand[leader] & TWO_C)) leader++;
  uint64_t brk = HEARTS | QS;                 /* cards whose taking breaks hearts; 0 once broken */
  for (int t = 0; t < 13; t++) {
    int p = leader, win = leader, card;
    uint64_t h = hand[p], legal, trick;
    if (t == 0) legal = TWO_C;
    else { legal = h & ~(brk & HEARTS); if (!legal) legal = h; }
    int n = __builtin_popcountll(legal);
    if (n > 1) { card = nth_bit(legal, below(&ar[p], (uint32_t)n)); dec++; ls += n; }
    else card = __builtin_ctzll(legal);
    uint64_t led = SUIT[card / 13];
    int best = card;
    trick = 1ULL << card;
    hand[p] = h ^ trick;
    for (int k = 1; k < 4; k++) {
      p = (p + 1) & 3;
      h = hand[p];
      legal = h & led;
      if (!legal) {
        legal = h;
        if (t == 0) { legal = h & ~(HEARTS | QS); if (!legal) legal = h; }
      }
      n = __builtin_popcountll(legal);
      if (n > 1) { card = nth_bit(legal, below(&ar[p], (uint32_t)n)); dec++; ls += n; }
      else card = __builtin_ctzll(legal);
      uint64_t b = 1ULL << card;
      if ((b & led) && card > best) { best = card; win = p; }
      trick |= b;
      hand[p] = h ^ b;
    }
    taken[win] |= trick;
    if (trick & brk) brk = 0;
    leader = win;
  }
  /* the score: a point a heart, 13 for the queen of spades; the moon adds 26 to the others */
  int32_t pts[4], tot = 0;
  for (int p = 0; p < 4; p++) {
    pts[p] = __builtin_popcountll(taken[p] & HEARTS) + ((taken[p] & QS) ? 13 : 0);
    if ((taken[p] & (HEARTS | QS)) == (HEARTS | QS)) {
      for (int q = 0; q < 4; q++) pts[q] = q == p ? 0 : 26;
      break;
    }
  }
  for (int p = 0; p < 4; p++) tot += pts[p];
  for (int p = 0; p < 4; p++) out->ret3[p] = (tot - pts[p]) - 3 * pts[p];   /* 3 x the return */
  out->decisions = dec;
  out->legal_sum = ls;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s SEED START COUNT [dump]\n", argv[0]);
    return 2;
  }
  uint64_t seed = strtoull(argv[1], NULL, 10), start = strtoull(argv[2], NULL, 10);
  long count = strtol(argv[3], NULL, 10);
  int dump = argc > 4 && strcmp(argv[4], "dump") == 0;
  uint64_t check = 0;
  Result res;
  for (long d = 0; d < count; d++) {
    play_deal(seed, start + (uint64_t)d, &res);
    check = check * 1000003u + (uint64_t)(res.ret3[0] + 4 * res.ret3[1] + 16 * res.ret3[2])
            + (uint64_t)res.decisions * 131 + (uint64_t)res.legal_sum;
    if (dump)
      printf("%d %d %d %d %ld %ld\n", res.ret3[0], res.ret3[1], res.ret3[2], res.ret3[3],
             res.decisions, res.legal_sum);
  }
  if (!dump) printf("checksum %016llx\n", (unsigned long long)check);
  return 0;
}
