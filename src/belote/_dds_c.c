/* The double-dummy search of belote.solver in C: the search of belote/_dds.py
 * (class Engine, four players, and class TableEngine, any table and belote
 * découverte), line for line, over native 32-bit card masks.
 *
 * It is the fast build of the search ("compiled"): `bash scripts/build_solver.sh`
 * compiles it with the system's C compiler into belote/_dds_c.<EXT_SUFFIX>, and
 * belote.solver runs it where it is built.  belote/_dds.py stays the reference:
 * this file visits the same positions in the same order (same sorts, all stable;
 * the same transposition table contents, never evicted), so it gives the same
 * values, per-card values and node counts (tests/test_solver_engines.py checks it
 * against the reference and against plain minimax).
 *
 * What differs is only how it is held:
 * - the transposition table is keyed on the live cards, the leader and the
 *   flags (36 bits: within one solve every card belongs to one hand, so the
 *   live cards give the four hands), and each entry is one 64-bit word
 *   (key | lo << 36 | hi << 46 | (best + 1) << 56) in an open-addressed table
 *   with linear probing that doubles at half full (the dict of the reference
 *   never forgets an entry either, so the searches see the same entries);
 * - lists of cards are small arrays on the C stack, the sorts insertion sorts;
 * - past the node limit the search unwinds with longjmp and the Python method
 *   raises limit_error(nodes), as the reference raises it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#define INF (1 << 20)
#define GREEDY_FROM 5 /* tricks left from which leads are ordered by a quick guess */
#define VALUE_BITS 10 /* lo and hi in the table: values are 0 .. rem + bonus < 1024 */
#define KEY_MASK ((UINT64_C(1) << 36) - 1)
#define VALUE_MASK ((1u << VALUE_BITS) - 1)

typedef struct {
    PyObject_HEAD
    PyObject *hlist;       /* the Python list of the four hands (read at each call) */
    PyObject *limit_error; /* called with the node count past the limit */
    uint32_t h[4];
    int pts[32];
    uint32_t above[32];
    uint32_t beat[32];
    uint32_t suit_masks[4];
    int trump_like[4];
    uint32_t low_cards;
    int trump;
    uint32_t trump_mask;
    int rise_on_partner;
    int exempt;
    int under;
    int undertrump_any;
    int last_bonus;
    int capot_bonus;
    int8_t cheap[1024]; /* per suit * 256 + byte of the suit: the cheapest card, or -1 */
    int8_t dear[1024];  /* the dearest card */
    uint8_t low_merge[64];
    int total_pts; /* the points of all the cards: rem is at most that */
    long long limit;
    long long nodes;
    uint64_t *table;
    uint64_t table_mask; /* capacity - 1 (a power of two) */
    int table_shift;     /* 64 - log2(capacity) */
    uint64_t table_count;
    int busy; /* a search is running (the GIL is released during it) */
    jmp_buf abort;
} Engine;

static inline int top_bit(uint32_t m) { return 31 - __builtin_clz(m); }
static inline int low_bit(uint32_t m) { return __builtin_ctz(m); }

/* --- the transposition table ---------------------------------------------------- */

static inline uint64_t slot_of(const Engine *e, uint64_t key) {
    return (key * UINT64_C(0x9E3779B97F4A7C15)) >> e->table_shift;
}

static int table_alloc(Engine *e, int bits) {
    uint64_t *t = (uint64_t *)PyMem_RawCalloc((size_t)1 << bits, sizeof(uint64_t));
    if (t == NULL) return -1;
    e->table = t;
    e->table_mask = ((uint64_t)1 << bits) - 1;
    e->table_shift = 64 - bits;
    e->table_count = 0;
    return 0;
}

/* The entry of `key`, or 0. */
static inline uint64_t table_get(const Engine *e, uint64_t key) {
    uint64_t i = slot_of(e, key);
    for (;;) {
        uint64_t x = e->table[i];
        if (x == 0) return 0;
        if ((x & KEY_MASK) == key) return x;
        i = (i + 1) & e->table_mask;
    }
}

static void table_put_raw(Engine *e, uint64_t entry) {
    uint64_t key = entry & KEY_MASK;
    uint64_t i = slot_of(e, key);
    for (;;) {
        uint64_t x = e->table[i];
        if (x == 0) {
            e->table[i] = entry;
            e->table_count++;
            return;
        }
        if ((x & KEY_MASK) == key) {
            e->table[i] = entry;
            return;
        }
        i = (i + 1) & e->table_mask;
    }
}

static void table_put(Engine *e, uint64_t key, int lo, int hi, int best) {
    uint64_t entry = key | (uint64_t)(lo & VALUE_MASK) << 36 |
                     (uint64_t)(hi & VALUE_MASK) << (36 + VALUE_BITS) |
                     (uint64_t)(best + 1) << (36 + 2 * VALUE_BITS);
    if ((e->table_count + 1) * 2 > e->table_mask + 1) {
        /* Double the table (kept at most half full). */
        uint64_t *old = e->table;
        uint64_t n = e->table_mask + 1;
        int bits = 64 - e->table_shift + 1;
        if (table_alloc(e, bits) == 0) {
            for (uint64_t i = 0; i < n; i++)
                if (old[i]) table_put_raw(e, old[i]);
            PyMem_RawFree(old);
        } else {
            e->table = old; /* out of memory: stop the search (raise_limit tells) */
            longjmp(e->abort, 2);
        }
    }
    table_put_raw(e, entry);
}

/* --- helpers ------------------------------------------------------------------- */

/* `moves` less the cards equivalent to a lower one of `moves` (Engine.merge). */
static uint32_t merge(const Engine *e, uint32_t moves, uint32_t others) {
    uint32_t out = moves;
    for (int s = 0; s < 4; s++) {
        int shift = s * 8;
        uint32_t mine = (moves >> shift) & 0xFF;
        if ((mine & (mine - 1)) == 0) continue;
        if (e->trump_like[s]) {
            if ((mine & 3) == 3) out &= ~((uint32_t)2 << shift); /* the 8 goes with the 7 */
        } else {
            uint32_t held = mine & 7;
            if (held & (held - 1)) {
                uint32_t keep = e->low_merge[held | ((others >> shift) & 7) << 3];
                out &= ~((held & ~keep) << shift);
            }
        }
    }
    return out;
}

/* The cards `seat` may play (Engine.legal, docs/rules.md §6). */
static uint32_t legal(const Engine *e, uint32_t hand, int seat, int led, int mcard, int mseat) {
    uint32_t moves = hand & e->suit_masks[led];
    if (moves) {
        if (e->trump_like[led] && (e->rise_on_partner || mseat != (seat ^ 2))) {
            uint32_t rising = moves & e->above[mcard];
            if (rising) moves = rising;
        }
        return moves;
    }
    uint32_t trumps = hand & e->trump_mask;
    if (!trumps) return hand;
    int trump = e->trump;
    if (e->exempt && mseat == (seat ^ 2)) {
        if (e->under == 0 || (mcard >> 3) != trump) return hand;
        uint32_t higher = trumps & e->above[mcard];
        if (hand == trumps) {
            if (e->under == 2) return higher ? higher : trumps;
            return hand;
        }
        return (hand & ~trumps) | higher;
    }
    if ((mcard >> 3) != trump) return trumps;
    uint32_t higher = trumps & e->above[mcard];
    if (higher) return higher;
    return e->undertrump_any ? trumps : hand;
}

/* The card of `moves` with the most (`dear`) or fewest points (Engine.pick). */
static int pick(const Engine *e, uint32_t moves, int dear) {
    const int8_t *table = dear ? e->dear : e->cheap;
    int best = -1;
    for (int x = 0; x < 4; x++) {
        uint32_t byte = (moves >> (8 * x)) & 255;
        if (byte) {
            int c = table[x * 256 + byte];
            if (best < 0 || (dear ? e->pts[c] > e->pts[best] : e->pts[c] < e->pts[best]))
                best = c;
        }
    }
    return best;
}

/* A quick guess at the trick led by c0 (Engine.greedy). */
static int greedy(const Engine *e, int leader, int c0) {
    const uint32_t *h = e->h;
    int mcard = c0;
    int mseat = leader;
    int total = e->pts[c0];
    int led = c0 >> 3;
    uint32_t led_mask = e->suit_masks[led];
    int rise = e->trump_like[led];
    for (int k = 1; k < 4; k++) {
        int seat = (leader + k) & 3;
        uint32_t hand = h[seat];
        uint32_t moves = hand & led_mask;
        if (!moves) {
            moves = legal(e, hand, seat, led, mcard, mseat);
        } else if (rise && (e->rise_on_partner || mseat != (seat ^ 2))) {
            uint32_t rising = moves & e->above[mcard];
            if (rising) moves = rising;
        }
        uint32_t bm = e->beat[mcard];
        int dear = 0;
        if (mseat == (seat ^ 2) && (k == 3 || !(h[(seat + 1) & 3] & bm))) {
            dear = 1;
        } else {
            uint32_t win = moves & bm;
            if (win) {
                moves = win;
                dear = k < 3;
            }
        }
        int top = top_bit(moves);
        int sh = top & 24;
        int c;
        if ((moves >> sh) << sh == moves) {
            const int8_t *table = dear ? e->dear : e->cheap;
            c = table[(top >> 3) * 256 + (moves >> sh)];
        } else {
            c = pick(e, moves, dear);
        }
        total += e->pts[c];
        if ((bm >> c) & 1) {
            mcard = c;
            mseat = seat;
        }
    }
    return ((mseat ^ leader) & 1) == 0 ? total : -total;
}

/* Sort `cards` in place by `keys` (parallel), stably (as sort_by in _dds.py). */
static void sort_by(int *cards, int *keys, int n, int descending) {
    for (int i = 1; i < n; i++) {
        int c = cards[i];
        int key = keys[i];
        int j = i - 1;
        if (descending) {
            while (j >= 0 && keys[j] < key) {
                cards[j + 1] = cards[j];
                keys[j + 1] = keys[j];
                j--;
            }
        } else {
            while (j >= 0 && keys[j] > key) {
                cards[j + 1] = cards[j];
                keys[j + 1] = keys[j];
                j--;
            }
        }
        cards[j + 1] = c;
        keys[j + 1] = key;
    }
}

static void sort_points(const Engine *e, int *cards, int n, int descending) {
    int keys[32];
    for (int i = 0; i < n; i++) keys[i] = e->pts[cards[i]];
    sort_by(cards, keys, n, descending);
}

/* --- the search ------------------------------------------------------------------ */

static int follow(Engine *e, int seat, int k, int led, int mcard, int mseat, int tpts,
                  uint32_t tmask, int flags, int rem, int alpha, int beta);

/* The value of the remaining tricks, `leader` to lead (Engine.boundary). */
static int boundary(Engine *e, int leader, int flags, int rem, int alpha, int beta) {
    e->nodes++;
    if (e->nodes > e->limit) longjmp(e->abort, 1);
    uint32_t *h = e->h;
    const uint32_t *beat = e->beat;
    const uint32_t *above = e->above;
    uint32_t hl = h[leader];
    int bonus = (flags & 2) ? e->last_bonus : e->capot_bonus;
    if (!(hl & (hl - 1))) {
        /* The last trick: every card is forced. */
        int mcard = top_bit(hl);
        int mseat = leader;
        for (int k = 1; k < 4; k++) {
            int seat = (leader + k) & 3;
            int c = top_bit(h[seat]);
            if ((beat[mcard] >> c) & 1) {
                mcard = c;
                mseat = seat;
            }
        }
        return (mseat & 1) ? 0 : rem + bonus;
    }
    int hi = rem + bonus;
    if (hi <= alpha) return hi;
    if (beta <= 0) return 0;
    uint32_t alive = h[0] | h[1] | h[2] | h[3];
    uint64_t key = (uint64_t)alive | (uint64_t)leader << 32 | (uint64_t)flags << 34;
    int lo = 0;
    int best = -1;
    uint64_t entry = table_get(e, key);
    if (entry) {
        lo = (int)((entry >> 36) & VALUE_MASK);
        hi = (int)((entry >> (36 + VALUE_BITS)) & VALUE_MASK);
        best = (int)(entry >> (36 + 2 * VALUE_BITS)) - 1;
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo == hi) return lo;
    }
    uint32_t others = alive ^ hl;
    if (!(others & e->trump_mask)) {
        /* A leader holding the top of every suit he holds, with no trump in the
         * other hands, takes every trick himself. */
        int tops = 1;
        for (uint32_t m = hl; m; m &= m - 1) {
            if (others & above[low_bit(m)]) {
                tops = 0;
                break;
            }
        }
        if (tops) {
            int value = (leader & 1) ? 0 : rem + bonus;
            table_put(e, key, value, value, -1);
            return value;
        }
    }
    int a = alpha > lo ? alpha : lo;
    int b = beta < hi ? beta : hi;
    uint32_t moves = hl;
    uint32_t lows = hl & e->low_cards;
    if (lows & (lows - 1)) moves = merge(e, hl, others);
    int masters[8], rest[8], order[9], keys[9];
    int nm = 0, nr = 0, n = 0;
    for (uint32_t m = moves; m; m &= m - 1) {
        int c = low_bit(m);
        if (c == best) continue;
        if (above[c] & others)
            rest[nr++] = c;
        else
            masters[nm++] = c;
    }
    int first = (best >= 0 && ((moves >> best) & 1)) ? 1 : 0;
    if (first) order[n++] = best;
    int *tail = order + n;
    if (__builtin_popcount(hl) >= GREEDY_FROM) {
        for (int i = 0; i < nm; i++) order[n++] = masters[i];
        for (int i = 0; i < nr; i++) order[n++] = rest[i];
        for (int i = first; i < n; i++) keys[i] = greedy(e, leader, order[i]);
        sort_by(tail, keys + first, n - first, 1);
    } else {
        sort_points(e, masters, nm, 1);
        sort_points(e, rest, nr, 1);
        for (int i = 0; i < nm; i++) order[n++] = masters[i];
        for (int i = 0; i < nr; i++) order[n++] = rest[i];
    }
    int nxt = (leader + 1) & 3;
    int maximize = !(leader & 1);
    int g = maximize ? -INF : INF;
    int best_card = best;
    for (int i = 0; i < n; i++) {
        int c = order[i];
        h[leader] = hl ^ ((uint32_t)1 << c);
        int v = follow(e, nxt, 1, c >> 3, c, leader, e->pts[c], (uint32_t)1 << c, flags, rem,
                       a, b);
        if (maximize) {
            if (v > g) {
                g = v;
                if (g >= b) {
                    best_card = c;
                    break;
                }
                if (g > a) {
                    a = g;
                    best_card = c;
                }
            }
        } else if (v < g) {
            g = v;
            if (g <= a) {
                best_card = c;
                break;
            }
            if (g < b) {
                b = g;
                best_card = c;
            }
        }
    }
    h[leader] = hl;
    /* The window searched was (max(alpha, lo), min(beta, hi)). */
    if (g <= (alpha > lo ? alpha : lo))
        table_put(e, key, lo, g, best_card);
    else if (g >= (beta < hi ? beta : hi))
        table_put(e, key, g, hi, best_card);
    else
        table_put(e, key, g, g, best_card);
    return g;
}

/* The value with k cards on the trick, `seat` to play (Engine.follow). */
static int follow(Engine *e, int seat, int k, int led, int mcard, int mseat, int tpts,
                  uint32_t tmask, int flags, int rem, int alpha, int beta) {
    e->nodes++;
    uint32_t *h = e->h;
    const int *pts = e->pts;
    const uint32_t *beat = e->beat;
    uint32_t hand = h[seat];
    /* The legal cards (docs/rules.md §6). */
    uint32_t moves = hand & e->suit_masks[led];
    if (moves) {
        if (e->trump_like[led] && (e->rise_on_partner || mseat != (seat ^ 2))) {
            uint32_t rising = moves & e->above[mcard];
            if (rising) moves = rising; /* §6.1 TA, §6.2 */
        }
    } else {
        moves = legal(e, hand, seat, led, mcard, mseat); /* void: §6.3, §6.4 */
    }
    if (!(moves & (moves - 1))) {
        /* A forced card. */
        int c = top_bit(moves);
        h[seat] = hand ^ moves;
        if ((beat[mcard] >> c) & 1) {
            mcard = c;
            mseat = seat;
        }
        tpts += pts[c];
        int v = 0;
        if (k < 3) {
            v = follow(e, (seat + 1) & 3, k + 1, led, mcard, mseat, tpts, tmask | moves, flags,
                       rem, alpha, beta);
        } else if (hand == moves) { /* the last trick */
            int bonus = (flags & 2) ? e->last_bonus : e->capot_bonus;
            v = (mseat & 1) ? 0 : rem + bonus;
        } else if (mseat & 1) {
            v = boundary(e, mseat, flags | 2, rem - tpts, alpha, beta);
        } else {
            v = tpts + boundary(e, mseat, flags | 1, rem - tpts, alpha - tpts, beta - tpts);
        }
        h[seat] = hand;
        return v;
    }
    uint32_t lows = moves & e->low_cards;
    if (lows & (lows - 1)) moves = merge(e, moves, (h[0] | h[1] | h[2] | h[3] | tmask) ^ hand);
    int cards[8];
    int n = 0;
    for (uint32_t m = moves; m; m &= m - 1) cards[n++] = low_bit(m);
    uint32_t bm = beat[mcard];
    if (mseat == (seat ^ 2) && (k == 3 || !(h[(seat + 1) & 3] & bm))) {
        sort_points(e, cards, n, 1); /* the partner holds the trick */
    } else {
        uint32_t winners = moves & bm;
        if (winners) {
            int win[8], lose[8];
            int nw = 0, nl = 0;
            for (int i = 0; i < n; i++) {
                int c = cards[i];
                if ((winners >> c) & 1)
                    win[nw++] = c;
                else
                    lose[nl++] = c;
            }
            sort_points(e, win, nw, k < 3); /* the last seat wins cheaply */
            sort_points(e, lose, nl, 0);
            n = 0;
            for (int i = 0; i < nw; i++) cards[n++] = win[i];
            for (int i = 0; i < nl; i++) cards[n++] = lose[i];
        } else {
            sort_points(e, cards, n, 0);
        }
    }
    int maximize = !(seat & 1);
    int g = maximize ? -INF : INF;
    int a = alpha;
    int b = beta;
    int nxt = (seat + 1) & 3;
    for (int i = 0; i < n; i++) {
        int c = cards[i];
        uint32_t bit = (uint32_t)1 << c;
        h[seat] = hand ^ bit;
        int v;
        if (k < 3) {
            if ((bm >> c) & 1)
                v = follow(e, nxt, k + 1, led, c, seat, tpts + pts[c], tmask | bit, flags, rem,
                           a, b);
            else
                v = follow(e, nxt, k + 1, led, mcard, mseat, tpts + pts[c], tmask | bit, flags,
                           rem, a, b);
        } else { /* the last card of the trick */
            int winner = ((bm >> c) & 1) ? seat : mseat;
            int total = tpts + pts[c];
            if (winner & 1)
                v = boundary(e, winner, flags | 2, rem - total, a, b);
            else
                v = total + boundary(e, winner, flags | 1, rem - total, a - total, b - total);
        }
        if (maximize) {
            if (v > g) {
                g = v;
                if (g >= b) break;
                if (g > a) a = g;
            }
        } else if (v < g) {
            g = v;
            if (g <= a) break;
            if (g < b) b = g;
        }
    }
    h[seat] = hand;
    return g;
}

/* --- the search for a table of n seats (TableEngine) -------------------------------- */

/* _dds.py's TableEngine: the search above for 2, 3 or 4 seats, sides and partners
 * from the position, the last trick from the tricks left, and belote découverte's
 * face-down cards turned up when a trick ends.  The four-player Engine stays as it
 * is (its node counts are pinned); this one shares its tables and helpers. */
typedef struct {
    Engine b; /* the tables, the transposition table, the node count and limit */
    int n;
    int sides[4];
    int partners[4]; /* -1: none */
    uint32_t own[4]; /* every card a seat holds or will hold (face down included) */
    uint32_t under[32]; /* the card under each face-up card, as a mask (0: none) */
    uint32_t covers;    /* the cards covering one */
    uint32_t hidden;    /* the cards still face down (while searching) */
    uint32_t root_hidden;
    int left;           /* the tricks left, the one in progress included */
    int root_left;
} TEngine;

static inline int t_next(const TEngine *t, int seat) { return seat + 1 < t->n ? seat + 1 : 0; }

/* TableEngine.merge: `moves` less the cards equivalent to a lower one, a card that
 * covers another never merged. */
static uint32_t t_merge(const TEngine *t, uint32_t moves, uint32_t others) {
    const Engine *e = &t->b;
    uint32_t out = moves;
    uint32_t free_ = moves & ~t->covers;
    for (int s = 0; s < 4; s++) {
        int shift = s * 8;
        uint32_t mine = (free_ >> shift) & 0xFF;
        if ((mine & (mine - 1)) == 0) continue;
        if (e->trump_like[s]) {
            if ((mine & 3) == 3) out &= ~((uint32_t)2 << shift); /* the 8 goes with the 7 */
        } else {
            uint32_t held = mine & 7;
            if (held & (held - 1)) {
                uint32_t keep = e->low_merge[held | ((others >> shift) & 7) << 3];
                out &= ~((held & ~keep) << shift);
            }
        }
    }
    return out;
}

/* TableEngine.legal (docs/rules.md §6), the partner from the table. */
static uint32_t t_legal(const TEngine *t, uint32_t hand, int seat, int led, int mcard,
                        int mseat) {
    const Engine *e = &t->b;
    int partner = t->partners[seat];
    uint32_t moves = hand & e->suit_masks[led];
    if (moves) {
        if (e->trump_like[led] && (e->rise_on_partner || mseat != partner)) {
            uint32_t rising = moves & e->above[mcard];
            if (rising) moves = rising;
        }
        return moves;
    }
    uint32_t trumps = hand & e->trump_mask;
    if (!trumps) return hand;
    int trump = e->trump;
    if (e->exempt && mseat == partner) {
        if (e->under == 0 || (mcard >> 3) != trump) return hand;
        uint32_t higher = trumps & e->above[mcard];
        if (hand == trumps) {
            if (e->under == 2) return higher ? higher : trumps;
            return hand;
        }
        return (hand & ~trumps) | higher;
    }
    if ((mcard >> 3) != trump) return trumps;
    uint32_t higher = trumps & e->above[mcard];
    if (higher) return higher;
    return e->undertrump_any ? trumps : hand;
}

/* TableEngine.greedy: a quick guess at the trick led by c0. */
static int t_greedy(const TEngine *t, int leader, int c0) {
    const Engine *e = &t->b;
    const uint32_t *h = e->h;
    int n = t->n;
    int mcard = c0;
    int mseat = leader;
    int total = e->pts[c0];
    int led = c0 >> 3;
    uint32_t led_mask = e->suit_masks[led];
    int rise = e->trump_like[led];
    int seat = leader;
    for (int k = 1; k < n; k++) {
        seat = t_next(t, seat);
        int nxt = t_next(t, seat);
        uint32_t hand = h[seat];
        uint32_t moves = hand & led_mask;
        if (!moves) {
            moves = t_legal(t, hand, seat, led, mcard, mseat);
        } else if (rise && (e->rise_on_partner || mseat != t->partners[seat])) {
            uint32_t rising = moves & e->above[mcard];
            if (rising) moves = rising;
        }
        uint32_t bm = e->beat[mcard];
        int dear = 0;
        if (t->sides[mseat] == t->sides[seat] && (k == n - 1 || !(h[nxt] & bm))) {
            dear = 1;
        } else {
            uint32_t win = moves & bm;
            if (win) {
                moves = win;
                dear = k < n - 1;
            }
        }
        int top = top_bit(moves);
        int sh = top & 24;
        int c;
        if ((moves >> sh) << sh == moves) {
            const int8_t *table = dear ? e->dear : e->cheap;
            c = table[(top >> 3) * 256 + (moves >> sh)];
        } else {
            c = pick(e, moves, dear);
        }
        total += e->pts[c];
        if ((bm >> c) & 1) {
            mcard = c;
            mseat = seat;
        }
    }
    return t->sides[mseat] == t->sides[leader] ? total : -total;
}

static int t_boundary(TEngine *t, int leader, int flags, int rem, int alpha, int beta);

/* TableEngine.end: the value once `winner` takes the trick of `tmask`. */
static int t_end(TEngine *t, int winner, int total, uint32_t tmask, int flags, int rem,
                 int alpha, int beta) {
    Engine *e = &t->b;
    int side = t->sides[winner];
    if (t->left == 1) { /* the last trick */
        if (side) return 0;
        return rem + ((flags & 2) ? e->last_bonus : e->capot_bonus);
    }
    uint32_t reveal = 0;
    for (uint32_t m = tmask & t->covers; m; m &= m - 1) reveal |= t->under[low_bit(m)];
    uint32_t *h = e->h;
    int n = t->n;
    if (reveal) {
        for (int p = 0; p < n; p++) h[p] |= reveal & t->own[p];
        t->hidden ^= reveal;
    }
    t->left--;
    int v;
    if (side)
        v = t_boundary(t, winner, flags | 2, rem - total, alpha, beta);
    else
        v = total + t_boundary(t, winner, flags | 1, rem - total, alpha - total, beta - total);
    t->left++;
    if (reveal) {
        for (int p = 0; p < n; p++) h[p] &= ~reveal;
        t->hidden ^= reveal;
    }
    return v;
}

static int t_follow(TEngine *t, int seat, int k, int led, int mcard, int mseat, int tpts,
                    uint32_t tmask, int flags, int rem, int alpha, int beta);

/* TableEngine.boundary: the value of the remaining tricks, `leader` to lead. */
static int t_boundary(TEngine *t, int leader, int flags, int rem, int alpha, int beta) {
    Engine *e = &t->b;
    e->nodes++;
    if (e->nodes > e->limit) longjmp(e->abort, 1);
    uint32_t *h = e->h;
    int n = t->n;
    const int *sides = t->sides;
    const uint32_t *beat = e->beat;
    const uint32_t *above = e->above;
    uint32_t hl = h[leader];
    int bonus = (flags & 2) ? e->last_bonus : e->capot_bonus;
    if (t->left == 1) {
        /* The last trick: every card is forced (none is left face down). */
        int mcard = top_bit(hl);
        int mseat = leader;
        int seat = leader;
        for (int k = 1; k < n; k++) {
            seat = t_next(t, seat);
            int c = top_bit(h[seat]);
            if ((beat[mcard] >> c) & 1) {
                mcard = c;
                mseat = seat;
            }
        }
        return sides[mseat] ? 0 : rem + bonus;
    }
    int hi = rem + bonus;
    if (hi <= alpha) return hi;
    if (beta <= 0) return 0;
    uint32_t alive = 0;
    for (int p = 0; p < n; p++) alive |= h[p];
    uint64_t key = (uint64_t)alive | (uint64_t)leader << 32 | (uint64_t)flags << 34;
    int lo = 0;
    int best = -1;
    uint64_t entry = table_get(e, key);
    if (entry) {
        lo = (int)((entry >> 36) & VALUE_MASK);
        hi = (int)((entry >> (36 + VALUE_BITS)) & VALUE_MASK);
        best = (int)(entry >> (36 + 2 * VALUE_BITS)) - 1;
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo == hi) return lo;
    }
    uint32_t others = (alive ^ hl) | t->hidden;
    if (!(others & e->trump_mask) && !t->hidden) {
        /* A leader holding the top of every suit he holds, with no trump in the
         * other hands and none face down, takes every trick himself. */
        int tops = 1;
        for (uint32_t m = hl; m; m &= m - 1) {
            if (others & above[low_bit(m)]) {
                tops = 0;
                break;
            }
        }
        if (tops) {
            int value = sides[leader] ? 0 : rem + bonus;
            table_put(e, key, value, value, -1);
            return value;
        }
    }
    int a = alpha > lo ? alpha : lo;
    int b = beta < hi ? beta : hi;
    uint32_t moves = hl;
    uint32_t lows = hl & e->low_cards;
    if (lows & (lows - 1)) moves = t_merge(t, hl, others);
    int masters[32], rest[32], order[33], keys[33];
    int nm = 0, nr = 0, no = 0;
    for (uint32_t m = moves; m; m &= m - 1) {
        int c = low_bit(m);
        if (c == best) continue;
        if (above[c] & others)
            rest[nr++] = c;
        else
            masters[nm++] = c;
    }
    int first = (best >= 0 && ((moves >> best) & 1)) ? 1 : 0;
    if (first) order[no++] = best;
    int *tail = order + no;
    if (__builtin_popcount(hl) >= GREEDY_FROM) {
        for (int i = 0; i < nm; i++) order[no++] = masters[i];
        for (int i = 0; i < nr; i++) order[no++] = rest[i];
        for (int i = first; i < no; i++) keys[i] = t_greedy(t, leader, order[i]);
        sort_by(tail, keys + first, no - first, 1);
    } else {
        sort_points(e, masters, nm, 1);
        sort_points(e, rest, nr, 1);
        for (int i = 0; i < nm; i++) order[no++] = masters[i];
        for (int i = 0; i < nr; i++) order[no++] = rest[i];
    }
    int nxt = t_next(t, leader);
    int maximize = sides[leader] == 0;
    int g = maximize ? -INF : INF;
    int best_card = best;
    for (int i = 0; i < no; i++) {
        int c = order[i];
        h[leader] = hl ^ ((uint32_t)1 << c);
        int v = t_follow(t, nxt, 1, c >> 3, c, leader, e->pts[c], (uint32_t)1 << c, flags, rem,
                         a, b);
        if (maximize) {
            if (v > g) {
                g = v;
                if (g >= b) {
                    best_card = c;
                    break;
                }
                if (g > a) {
                    a = g;
                    best_card = c;
                }
            }
        } else if (v < g) {
            g = v;
            if (g <= a) {
                best_card = c;
                break;
            }
            if (g < b) {
                b = g;
                best_card = c;
            }
        }
    }
    h[leader] = hl;
    /* The window searched was (max(alpha, lo), min(beta, hi)). */
    if (g <= (alpha > lo ? alpha : lo))
        table_put(e, key, lo, g, best_card);
    else if (g >= (beta < hi ? beta : hi))
        table_put(e, key, g, hi, best_card);
    else
        table_put(e, key, g, g, best_card);
    return g;
}

/* TableEngine.follow: the value with k cards (1 .. n - 1) on the trick. */
static int t_follow(TEngine *t, int seat, int k, int led, int mcard, int mseat, int tpts,
                    uint32_t tmask, int flags, int rem, int alpha, int beta) {
    Engine *e = &t->b;
    e->nodes++;
    if (e->nodes > e->limit) longjmp(e->abort, 1);
    uint32_t *h = e->h;
    int n = t->n;
    const int *sides = t->sides;
    const int *pts = e->pts;
    const uint32_t *beat = e->beat;
    uint32_t hand = h[seat];
    uint32_t moves = t_legal(t, hand, seat, led, mcard, mseat);
    int last = k == n - 1;
    int nxt = t_next(t, seat);
    if (!(moves & (moves - 1))) {
        /* A forced card. */
        int c = top_bit(moves);
        h[seat] = hand ^ moves;
        if ((beat[mcard] >> c) & 1) {
            mcard = c;
            mseat = seat;
        }
        tpts += pts[c];
        int v;
        if (last)
            v = t_end(t, mseat, tpts, tmask | moves, flags, rem, alpha, beta);
        else
            v = t_follow(t, nxt, k + 1, led, mcard, mseat, tpts, tmask | moves, flags, rem,
                         alpha, beta);
        h[seat] = hand;
        return v;
    }
    uint32_t lows = moves & e->low_cards;
    if (lows & (lows - 1)) {
        uint32_t alive = tmask | t->hidden;
        for (int p = 0; p < n; p++) alive |= h[p];
        moves = t_merge(t, moves, alive ^ hand);
    }
    int cards[32];
    int nc = 0;
    for (uint32_t m = moves; m; m &= m - 1) cards[nc++] = low_bit(m);
    uint32_t bm = beat[mcard];
    if (sides[mseat] == sides[seat] && (last || !(h[nxt] & bm))) {
        sort_points(e, cards, nc, 1); /* the own side holds the trick */
    } else {
        uint32_t winners = moves & bm;
        if (winners) {
            int win[32], lose[32];
            int nw = 0, nl = 0;
            for (int i = 0; i < nc; i++) {
                int c = cards[i];
                if ((winners >> c) & 1)
                    win[nw++] = c;
                else
                    lose[nl++] = c;
            }
            sort_points(e, win, nw, !last); /* the last seat wins cheaply */
            sort_points(e, lose, nl, 0);
            nc = 0;
            for (int i = 0; i < nw; i++) cards[nc++] = win[i];
            for (int i = 0; i < nl; i++) cards[nc++] = lose[i];
        } else {
            sort_points(e, cards, nc, 0);
        }
    }
    int maximize = sides[seat] == 0;
    int g = maximize ? -INF : INF;
    int a = alpha;
    int b = beta;
    for (int i = 0; i < nc; i++) {
        int c = cards[i];
        uint32_t bit = (uint32_t)1 << c;
        h[seat] = hand ^ bit;
        int v;
        if (last) {
            int winner = ((bm >> c) & 1) ? seat : mseat;
            v = t_end(t, winner, tpts + pts[c], tmask | bit, flags, rem, a, b);
        } else if ((bm >> c) & 1) {
            v = t_follow(t, nxt, k + 1, led, c, seat, tpts + pts[c], tmask | bit, flags, rem, a,
                         b);
        } else {
            v = t_follow(t, nxt, k + 1, led, mcard, mseat, tpts + pts[c], tmask | bit, flags,
                         rem, a, b);
        }
        if (maximize) {
            if (v > g) {
                g = v;
                if (g >= b) break;
                if (g > a) a = g;
            }
        } else if (v < g) {
            g = v;
            if (g <= a) break;
            if (g < b) b = g;
        }
    }
    h[seat] = hand;
    return g;
}

/* TableEngine.play: the value after `seat` plays c with k cards (0 .. n - 1) on the trick. */
static int t_play(TEngine *t, int seat, int k, int led, int mcard, int mseat, int tpts,
                  uint32_t tmask, int flags, int rem, int c, int alpha, int beta) {
    Engine *e = &t->b;
    uint32_t *h = e->h;
    uint32_t hand = h[seat];
    uint32_t bit = (uint32_t)1 << c;
    if (k == 0) {
        led = c >> 3;
        mcard = c;
        mseat = seat;
    } else if ((e->beat[mcard] >> c) & 1) {
        mcard = c;
        mseat = seat;
    }
    h[seat] = hand ^ bit;
    int total = tpts + e->pts[c];
    int v;
    if (k == t->n - 1)
        v = t_end(t, mseat, total, tmask | bit, flags, rem, alpha, beta);
    else
        v = t_follow(t, t_next(t, seat), k + 1, led, mcard, mseat, total, tmask | bit, flags,
                     rem, alpha, beta);
    h[seat] = hand;
    return v;
}

/* --- the Python face --------------------------------------------------------------- */

static int load_hands(Engine *e) {
    if (!PyList_Check(e->hlist) || PyList_GET_SIZE(e->hlist) != 4) {
        PyErr_SetString(PyExc_TypeError, "h: expected a list of four card masks");
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        unsigned long long m = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(e->hlist, i));
        if (m == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        if (m >> 32) {
            PyErr_SetString(PyExc_ValueError, "h: a card mask has bits past card 31");
            return -1;
        }
        e->h[i] = (uint32_t)m;
    }
    return 0;
}

/* Before a search: the hands read from the list, the engine marked busy (the
 * search runs without the GIL: another thread must not enter this engine). */
static int start(Engine *e) {
    if (e->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver engine is already searching");
        return -1;
    }
    if (e->table == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the solver engine was not initialised");
        return -1;
    }
    if (load_hands(e) < 0) return -1;
    e->busy = 1;
    return 0;
}

static PyObject *raise_limit(Engine *e);

/* After a search: its value, or the error of a search stopped past its limit. */
static PyObject *finish(Engine *e, int aborted, int v) {
    e->busy = 0;
    if (aborted) return raise_limit(e);
    return PyLong_FromLong(v);
}

static PyObject *raise_limit(Engine *e) {
    if (e->nodes <= e->limit) return PyErr_NoMemory(); /* the table could not grow */
    PyObject *exc = PyObject_CallFunction(e->limit_error, "L", e->nodes);
    if (exc == NULL) return NULL;
    if (PyExceptionInstance_Check(exc))
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    else
        PyErr_SetString(PyExc_TypeError, "limit_error did not make an exception");
    Py_DECREF(exc);
    return NULL;
}

/* The arguments as C longs: each within +-2**30, but the card mask at `mask_at`
 * (-1: none) within 0 .. 2**32 - 1. */
static int int_args(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want, long *out,
                    Py_ssize_t mask_at, const char *name) {
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", name, want, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        long v = PyLong_AsLong(args[i]);
        if (v == -1 && PyErr_Occurred()) return -1;
        int ok = i == mask_at ? (v >= 0 && v <= 0xFFFFFFFFL) : (v >= -(1L << 30) && v <= (1L << 30));
        if (!ok) {
            PyErr_Format(PyExc_ValueError, "%s(): argument %zd out of range", name, i);
            return -1;
        }
        out[i] = v;
    }
    return 0;
}

/* One search, boundary() or follow() (``at_follow``) on the checked arguments ``a``,
   with the GIL released; the node limit's longjmp lands here. */
static PyObject *run(Engine *e, int at_follow, const long *a) {
    if (start(e) < 0) return NULL;
    volatile int v = 0;
    volatile int aborted = 0;
    Py_BEGIN_ALLOW_THREADS
    if (setjmp(e->abort))
        aborted = 1;
    else if (at_follow)
        v = follow(e, (int)a[0], (int)a[1], (int)a[2], (int)a[3], (int)a[4], (int)a[5],
                   (uint32_t)a[6], (int)a[7], (int)a[8], (int)a[9], (int)a[10]);
    else
        v = boundary(e, (int)a[0], (int)a[1], (int)a[2], (int)a[3], (int)a[4]);
    Py_END_ALLOW_THREADS
    return finish(e, aborted, v);
}

static PyObject *Engine_boundary(Engine *e, PyObject *const *args, Py_ssize_t nargs) {
    long a[5];
    if (int_args(args, nargs, 5, a, -1, "boundary") < 0) return NULL;
    if (a[0] < 0 || a[0] > 3 || a[1] < 0 || a[1] > 3 || a[2] < 0 || a[2] > e->total_pts) {
        PyErr_SetString(PyExc_ValueError, "boundary(): leader 0..3, flags 0..3, rem 0..points");
        return NULL;
    }
    return run(e, 0, a);
}

static PyObject *Engine_follow(Engine *e, PyObject *const *args, Py_ssize_t nargs) {
    long a[11];
    if (int_args(args, nargs, 11, a, 6, "follow") < 0) return NULL;
    if (a[0] < 0 || a[0] > 3 || a[1] < 1 || a[1] > 3 || a[2] < 0 || a[2] > 3 || a[3] < 0 ||
        a[3] > 31 || a[4] < 0 || a[4] > 3 || a[7] < 0 || a[7] > 3 || a[8] < 0 ||
        a[8] > e->total_pts) {
        PyErr_SetString(PyExc_ValueError, "follow(): an argument is out of range");
        return NULL;
    }
    return run(e, 1, a);
}

static PyObject *Engine_merge(Engine *e, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "merge() takes 2 arguments");
        return NULL;
    }
    unsigned long long moves = PyLong_AsUnsignedLongLong(args[0]);
    if (moves == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    unsigned long long others = PyLong_AsUnsignedLongLong(args[1]);
    if (others == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    return PyLong_FromUnsignedLong(merge(e, (uint32_t)moves, (uint32_t)others));
}

static PyObject *Engine_node_count(Engine *e, PyObject *unused) {
    (void)unused;
    return PyLong_FromLongLong(e->nodes);
}

static PyObject *Engine_table_size(Engine *e, PyObject *unused) {
    (void)unused;
    return PyLong_FromUnsignedLongLong(e->table_count);
}

static int read_ints(PyObject *seq, long *out, Py_ssize_t n, const char *name) {
    PyObject *fast = PySequence_Fast(seq, name);
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items", name, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        long v = PyLong_AsLong(item);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(fast);
    return 0;
}

/* A table of 1024 cards (-1: none): bytes (each card a signed byte, as
 * belote.solver passes it to this build, read at once) or a sequence of ints. */
static int read_cards(PyObject *seq, int8_t *out, const char *name) {
    if (PyBytes_Check(seq)) {
        if (PyBytes_GET_SIZE(seq) != 1024) {
            PyErr_Format(PyExc_ValueError, "%s: expected 1024 bytes", name);
            return -1;
        }
        memcpy(out, PyBytes_AS_STRING(seq), 1024);
    } else {
        long buf[1024];
        if (read_ints(seq, buf, 1024, name) < 0) return -1;
        for (int i = 0; i < 1024; i++) out[i] = (int8_t)buf[i];
    }
    for (int i = 0; i < 1024; i++) {
        if (out[i] < -1 || out[i] > 31) {
            PyErr_Format(PyExc_ValueError, "%s: a card is 0..31, or -1", name);
            return -1;
        }
    }
    return 0;
}

static int Engine_init(Engine *e, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"h", "tt", "pts", "above", "beat", "suit_masks", "trump_like",
                             "low_cards", "trump", "trump_mask", "rise_on_partner", "exempt",
                             "under", "undertrump_any", "last_bonus", "capot_bonus", "cheap",
                             "dear", "low_merge", "limit", "limit_error", NULL};
    PyObject *h, *tt, *pts, *above, *beat, *suit_masks, *trump_like, *cheap, *dear, *low_merge,
        *limit_error;
    unsigned long long low_cards, trump_mask;
    int trump, rise, exempt, under, undertrump_any, last_bonus, capot_bonus;
    long long limit;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOOOKiKppipiiOOOLO", kwlist, &h, &tt, &pts,
                                     &above, &beat, &suit_masks, &trump_like, &low_cards, &trump,
                                     &trump_mask, &rise, &exempt, &under, &undertrump_any,
                                     &last_bonus, &capot_bonus, &cheap, &dear, &low_merge, &limit,
                                     &limit_error))
        return -1;
    (void)tt; /* the reference's dict: this build keeps its own table */
    if (e->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver engine is already searching");
        return -1;
    }
    long buf[1024];
    if (read_ints(pts, buf, 32, "pts") < 0) return -1;
    long total = 0;
    for (int i = 0; i < 32; i++) {
        if (buf[i] < 0 || buf[i] > 255) {
            PyErr_SetString(PyExc_ValueError, "pts: 0..255 a card");
            return -1;
        }
        e->pts[i] = (int)buf[i];
        total += buf[i];
    }
    e->total_pts = (int)total;
    if (last_bonus < 0 || capot_bonus < 0 ||
        total + (last_bonus > capot_bonus ? last_bonus : capot_bonus) > (long)VALUE_MASK) {
        PyErr_SetString(PyExc_ValueError, "the points of a deal do not fit the table (< 1024)");
        return -1;
    }
    if (read_ints(above, buf, 32, "above") < 0) return -1;
    for (int i = 0; i < 32; i++) e->above[i] = (uint32_t)buf[i];
    if (read_ints(beat, buf, 32, "beat") < 0) return -1;
    for (int i = 0; i < 32; i++) e->beat[i] = (uint32_t)buf[i];
    if (read_ints(suit_masks, buf, 4, "suit_masks") < 0) return -1;
    for (int i = 0; i < 4; i++) e->suit_masks[i] = (uint32_t)buf[i];
    if (read_ints(trump_like, buf, 4, "trump_like") < 0) return -1;
    for (int i = 0; i < 4; i++) e->trump_like[i] = buf[i] != 0;
    if (read_cards(cheap, e->cheap, "cheap") < 0) return -1;
    if (read_cards(dear, e->dear, "dear") < 0) return -1;
    if (read_ints(low_merge, buf, 64, "low_merge") < 0) return -1;
    for (int i = 0; i < 64; i++) e->low_merge[i] = (uint8_t)buf[i];
    e->low_cards = (uint32_t)low_cards;
    e->trump = trump;
    e->trump_mask = (uint32_t)trump_mask;
    e->rise_on_partner = rise;
    e->exempt = exempt;
    e->under = under;
    e->undertrump_any = undertrump_any;
    e->last_bonus = last_bonus;
    e->capot_bonus = capot_bonus;
    e->limit = limit;
    e->nodes = 0;
    Py_INCREF(h);
    Py_XSETREF(e->hlist, h);
    Py_INCREF(limit_error);
    Py_XSETREF(e->limit_error, limit_error);
    if (e->table != NULL) PyMem_RawFree(e->table);
    e->table = NULL;
    if (table_alloc(e, 14) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void Engine_dealloc(Engine *e) {
    Py_XDECREF(e->hlist);
    Py_XDECREF(e->limit_error);
    if (e->table != NULL) PyMem_RawFree(e->table);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

static PyMethodDef Engine_methods[] = {
    {"boundary", (PyCFunction)(void (*)(void))Engine_boundary, METH_FASTCALL,
     "boundary(leader, flags, rem, alpha, beta): the value of the remaining tricks."},
    {"follow", (PyCFunction)(void (*)(void))Engine_follow, METH_FASTCALL,
     "follow(seat, k, led, mcard, mseat, tpts, tmask, flags, rem, alpha, beta): the value "
     "with k cards on the trick."},
    {"merge", (PyCFunction)(void (*)(void))Engine_merge, METH_FASTCALL,
     "merge(moves, others): moves less the cards equivalent to a lower one."},
    {"node_count", (PyCFunction)Engine_node_count, METH_NOARGS, "The positions searched."},
    {"table_size", (PyCFunction)Engine_table_size, METH_NOARGS,
     "The entries of the transposition table."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "belote._dds_c.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One solve's search over the hands h (belote._dds.Engine in C).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
};

/* --- TableEngine's Python face ------------------------------------------------------ */

/* Before a search: the n hands read from the list (each holding a card: a seat
 * plays one to every trick left), the face-down cards and the tricks left as at
 * the root (a search stopped past its limit leaves them anywhere). */
static int t_start(TEngine *t) {
    Engine *e = &t->b;
    if (e->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver engine is already searching");
        return -1;
    }
    if (e->table == NULL || t->n == 0) {
        PyErr_SetString(PyExc_RuntimeError, "the solver engine was not initialised");
        return -1;
    }
    if (!PyList_Check(e->hlist) || PyList_GET_SIZE(e->hlist) != t->n) {
        PyErr_Format(PyExc_TypeError, "h: expected a list of %d card masks", t->n);
        return -1;
    }
    for (int i = 0; i < t->n; i++) {
        unsigned long long m = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(e->hlist, i));
        if (m == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        if (m >> 32) {
            PyErr_SetString(PyExc_ValueError, "h: a card mask has bits past card 31");
            return -1;
        }
        e->h[i] = (uint32_t)m;
    }
    t->hidden = t->root_hidden;
    t->left = t->root_left;
    e->busy = 1;
    return 0;
}

/* The checks every search shares: the hands hold a card each (the seat to play's
 * own hand may be spent on the trick), none holds a face-down card. */
static int t_hands_ok(TEngine *t) {
    for (int p = 0; p < t->n; p++) {
        if ((t->b.h[p] & ~t->own[p]) || (t->b.h[p] & t->hidden)) {
            PyErr_SetString(PyExc_ValueError, "h: a hand holds a card that is not its own");
            return -1;
        }
    }
    return 0;
}

enum { T_BOUNDARY, T_FOLLOW, T_PLAY };

static PyObject *t_run(TEngine *t, int what, const long *a) {
    if (t_start(t) < 0) return NULL;
    if (t_hands_ok(t) < 0) {
        t->b.busy = 0;
        return NULL;
    }
    int n = t->n;
    uint32_t *h = t->b.h;
    /* Every seat to play from here holds a card (the search reads their top cards). */
    int from = what == T_BOUNDARY ? 0 : (int)a[1];
    int seat = (int)a[0];
    for (int k = from; k < n; k++) {
        int holds = what == T_PLAY && k == from ? (int)((h[seat] >> a[9]) & 1) : h[seat] != 0;
        if (!holds) {
            t->b.busy = 0;
            PyErr_SetString(PyExc_ValueError, "h: a seat to play holds no card (or not c)");
            return NULL;
        }
        seat = t_next(t, seat);
    }
    Engine *e = &t->b;
    volatile int v = 0;
    volatile int aborted = 0;
    Py_BEGIN_ALLOW_THREADS
    if (setjmp(e->abort))
        aborted = 1;
    else if (what == T_FOLLOW)
        v = t_follow(t, (int)a[0], (int)a[1], (int)a[2], (int)a[3], (int)a[4], (int)a[5],
                     (uint32_t)a[6], (int)a[7], (int)a[8], (int)a[9], (int)a[10]);
    else if (what == T_PLAY)
        v = t_play(t, (int)a[0], (int)a[1], (int)a[2], (int)a[3], (int)a[4], (int)a[5],
                   (uint32_t)a[6], (int)a[7], (int)a[8], (int)a[9], (int)a[10], (int)a[11]);
    else
        v = t_boundary(t, (int)a[0], (int)a[1], (int)a[2], (int)a[3], (int)a[4]);
    Py_END_ALLOW_THREADS
    return finish(e, aborted, v);
}

static PyObject *TEngine_boundary(TEngine *t, PyObject *const *args, Py_ssize_t nargs) {
    long a[5];
    if (int_args(args, nargs, 5, a, -1, "boundary") < 0) return NULL;
    if (a[0] < 0 || a[0] >= t->n || a[1] < 0 || a[1] > 3 || a[2] < 0 || a[2] > t->b.total_pts) {
        PyErr_SetString(PyExc_ValueError, "boundary(): leader 0..n-1, flags 0..3, rem 0..points");
        return NULL;
    }
    return t_run(t, T_BOUNDARY, a);
}

static PyObject *TEngine_follow(TEngine *t, PyObject *const *args, Py_ssize_t nargs) {
    long a[11];
    if (int_args(args, nargs, 11, a, 6, "follow") < 0) return NULL;
    if (a[0] < 0 || a[0] >= t->n || a[1] < 1 || a[1] >= t->n || a[2] < 0 || a[2] > 3 ||
        a[3] < 0 || a[3] > 31 || a[4] < 0 || a[4] >= t->n || a[7] < 0 || a[7] > 3 || a[8] < 0 ||
        a[8] > t->b.total_pts) {
        PyErr_SetString(PyExc_ValueError, "follow(): an argument is out of range");
        return NULL;
    }
    return t_run(t, T_FOLLOW, a);
}

static PyObject *TEngine_play(TEngine *t, PyObject *const *args, Py_ssize_t nargs) {
    long a[12];
    if (int_args(args, nargs, 12, a, 6, "play") < 0) return NULL;
    int lead = a[1] == 0;
    if (a[0] < 0 || a[0] >= t->n || a[1] < 0 || a[1] >= t->n || a[2] < 0 || a[2] > 3 ||
        (!lead && (a[3] < 0 || a[3] > 31 || a[4] < 0 || a[4] >= t->n)) || a[7] < 0 ||
        a[7] > 3 || a[8] < 0 || a[8] > t->b.total_pts || a[9] < 0 || a[9] > 31) {
        PyErr_SetString(PyExc_ValueError, "play(): an argument is out of range");
        return NULL;
    }
    return t_run(t, T_PLAY, a);
}

static PyObject *TEngine_merge(TEngine *t, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "merge() takes 2 arguments");
        return NULL;
    }
    unsigned long long moves = PyLong_AsUnsignedLongLong(args[0]);
    if (moves == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    unsigned long long others = PyLong_AsUnsignedLongLong(args[1]);
    if (others == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    return PyLong_FromUnsignedLong(t_merge(t, (uint32_t)moves, (uint32_t)others));
}

static int read_masks(PyObject *seq, uint32_t *out, Py_ssize_t n, const char *name) {
    long buf[32];
    if (read_ints(seq, buf, n, name) < 0) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (buf[i] < 0 || buf[i] > 0xFFFFFFFFL) {
            PyErr_Format(PyExc_ValueError, "%s: a card mask is 0 .. 2**32 - 1", name);
            return -1;
        }
        out[i] = (uint32_t)buf[i];
    }
    return 0;
}

/* TableEngine(h, tt, <Engine's tables>, limit, limit_error, sides, partners, own, under,
 * hidden, left). */
static int TEngine_init(TEngine *t, PyObject *args, PyObject *kwds) {
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "TableEngine() takes positional arguments only");
        return -1;
    }
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) != 27) {
        PyErr_SetString(PyExc_TypeError, "TableEngine() takes 27 arguments");
        return -1;
    }
    t->n = 0;
    PyObject *base = PyTuple_GetSlice(args, 0, 21);
    if (base == NULL) return -1;
    int rc = Engine_init(&t->b, base, NULL);
    Py_DECREF(base);
    if (rc < 0) return -1;
    PyObject *sides = PyTuple_GET_ITEM(args, 21);
    Py_ssize_t n = PySequence_Size(sides);
    if (n < 0) return -1;
    if (n < 2 || n > 4) {
        PyErr_SetString(PyExc_ValueError, "sides: 2, 3 or 4 seats");
        return -1;
    }
    long buf[32];
    if (read_ints(sides, buf, n, "sides") < 0) return -1;
    for (int i = 0; i < n; i++) {
        if (buf[i] != 0 && buf[i] != 1) {
            PyErr_SetString(PyExc_ValueError, "sides: each seat's side is 0 or 1");
            return -1;
        }
        t->sides[i] = (int)buf[i];
    }
    if (read_ints(PyTuple_GET_ITEM(args, 22), buf, n, "partners") < 0) return -1;
    for (int i = 0; i < n; i++) {
        if (buf[i] < -1 || buf[i] >= n || buf[i] == i) {
            PyErr_SetString(PyExc_ValueError, "partners: another seat, or -1");
            return -1;
        }
        t->partners[i] = (int)buf[i];
    }
    for (int i = 0; i < n; i++) {
        if (t->partners[i] >= 0 && t->partners[t->partners[i]] != i) {
            PyErr_SetString(PyExc_ValueError, "partners: each the other's partner");
            return -1;
        }
    }
    if (read_masks(PyTuple_GET_ITEM(args, 23), t->own, n, "own") < 0) return -1;
    if (read_masks(PyTuple_GET_ITEM(args, 24), t->under, 32, "under") < 0) return -1;
    uint32_t all = 0;
    for (int i = 0; i < n; i++) {
        if (all & t->own[i]) {
            PyErr_SetString(PyExc_ValueError, "own: a card belongs to two seats");
            return -1;
        }
        all |= t->own[i];
    }
    t->covers = 0;
    uint32_t under_all = 0;
    for (int c = 0; c < 32; c++) {
        uint32_t u = t->under[c];
        if (!u) continue;
        if ((u & (u - 1)) || (u & under_all) || !((all >> c) & 1) || !(u & all)) {
            PyErr_SetString(PyExc_ValueError,
                            "under: one card under a card in play, each under one card");
            return -1;
        }
        for (int i = 0; i < n; i++) {
            if (((t->own[i] >> c) & 1) && !(t->own[i] & u)) {
                PyErr_SetString(PyExc_ValueError, "under: a card turns up into another hand");
                return -1;
            }
        }
        under_all |= u;
        t->covers |= (uint32_t)1 << c;
    }
    unsigned long long hidden = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(args, 25));
    if (hidden == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (hidden != under_all) {
        PyErr_SetString(PyExc_ValueError, "hidden: the cards under the face-up ones");
        return -1;
    }
    long left = PyLong_AsLong(PyTuple_GET_ITEM(args, 26));
    if (left == -1 && PyErr_Occurred()) return -1;
    if (left < 1 || left > 32) {
        PyErr_SetString(PyExc_ValueError, "left: 1 .. 32 tricks");
        return -1;
    }
    t->root_hidden = t->hidden = (uint32_t)hidden;
    t->root_left = t->left = (int)left;
    t->n = (int)n;
    return 0;
}

static PyMethodDef TEngine_methods[] = {
    {"boundary", (PyCFunction)(void (*)(void))TEngine_boundary, METH_FASTCALL,
     "boundary(leader, flags, rem, alpha, beta): the value of the remaining tricks."},
    {"follow", (PyCFunction)(void (*)(void))TEngine_follow, METH_FASTCALL,
     "follow(seat, k, led, mcard, mseat, tpts, tmask, flags, rem, alpha, beta): the value "
     "with k cards on the trick."},
    {"play", (PyCFunction)(void (*)(void))TEngine_play, METH_FASTCALL,
     "play(seat, k, led, mcard, mseat, tpts, tmask, flags, rem, c, alpha, beta): the value "
     "after seat plays c."},
    {"merge", (PyCFunction)(void (*)(void))TEngine_merge, METH_FASTCALL,
     "merge(moves, others): moves less the cards equivalent to a lower one."},
    {"node_count", (PyCFunction)Engine_node_count, METH_NOARGS, "The positions searched."},
    {"table_size", (PyCFunction)Engine_table_size, METH_NOARGS,
     "The entries of the transposition table."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TEngineType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "belote._dds_c.TableEngine",
    .tp_basicsize = sizeof(TEngine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The search for a table of 2, 3 or 4 seats (belote._dds.TableEngine in C).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)TEngine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = TEngine_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dds_c",
    "The double-dummy search of belote.solver in C (belote/_dds.py's Engine and TableEngine).",
    -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__dds_c(void) {
    if (PyType_Ready(&EngineType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        Py_DECREF(m);
        return NULL;
    }
    /* belote.solver passes the cheap and dear tables as bytes to a module with this. */
    if (PyType_Ready(&TEngineType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&TEngineType);
    if (PyModule_AddObject(m, "TableEngine", (PyObject *)&TEngineType) < 0) {
        Py_DECREF(&TEngineType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "COMPACT_TABLES", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "NATIVE", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
