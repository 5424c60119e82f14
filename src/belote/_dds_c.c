/* The double-dummy search of belote.solver in C: the search of belote/_dds.py
 * (class Engine: a table of 2, 3 or 4 seats, belote découverte's face-down cards
 * included), line for line, over native 32-bit card masks.
 *
 * It is the fast build of the search ("compiled"): `bash scripts/build_solver.sh`
 * compiles it with the system's C compiler into belote/_dds_c.<EXT_SUFFIX>, and
 * belote.solver runs it where it is built and its VERSION is the reference's.
 * belote/_dds.py stays the reference: this file visits the same positions in the
 * same order (same sorts, all stable; the same transposition table contents, never
 * evicted), so it gives the same values, per-card values and node counts
 * (tests/test_solver_engines.py and tests/test_small_solver.py check it against
 * the reference and against plain minimax).
 *
 * What differs is only how it is held:
 * - the transposition table is keyed on the live cards, the leader and the
 *   flags (36 bits: within one solve every card belongs to one seat, so the
 *   live cards give the hands), and each entry is one 64-bit word
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

#define VERSION 2 /* _dds.VERSION: belote.solver runs this build only when they agree */
#define INF (1 << 20)
#define GREEDY_FROM 5 /* tricks left from which leads are ordered by a quick guess */
#define VALUE_BITS 10 /* lo and hi in the table: values are 0 .. rem + bonus < 1024 */
#define KEY_MASK ((UINT64_C(1) << 36) - 1)
#define VALUE_MASK ((1u << VALUE_BITS) - 1)

typedef struct {
    PyObject_HEAD
    PyObject *hlist;       /* the Python list of the four hands (read at each call) */
    PyObject *limit_error; /* called with the node count past the limit */
    uint32_t h[4];         /* the seats past n hold nothing */
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
    int under_code;
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
    int n;             /* the seats: 2, 3 or 4 (0: not initialised) */
    int next_seat[4];
    int sides[4];
    int partners[4];    /* -1: none */
    uint32_t own[4];    /* every card a seat holds or will hold (face down included) */
    uint32_t under[32]; /* the card under each face-up card, as a mask (0: none) */
    uint32_t covers;    /* the cards covering one */
    uint32_t hidden;    /* the cards still face down (while searching) */
    uint32_t root_hidden;
    int every; /* the node limit checked at every position, not only where a trick starts */
    int four;  /* four seats, N S against E W, nothing face down, not every: the four-player
                  copy of the search runs */
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

/* --- the table's seats ---------------------------------------------------------- */

/* The search's functions are written once, each with `four`: a constant 1 where
 * the engine is a table of four with nothing face down and the node limit checked
 * where a trick starts (Engine.four, the four-player search), 0 for any table.
 * Each is compiled twice, once per value (ALWAYS: inlined into the two copies
 * below), so that at four the seats' sides, partners and order are the constants
 * they are there (N S against E W) and the face-down cards drop out: the same
 * positions in the same order, only faster. */
#define ALWAYS static inline __attribute__((always_inline))

ALWAYS int seats(const Engine *e, int four) { return four ? 4 : e->n; }
ALWAYS int side(const Engine *e, int four, int p) { return four ? p & 1 : e->sides[p]; }
ALWAYS int partner(const Engine *e, int four, int p) { return four ? p ^ 2 : e->partners[p]; }
ALWAYS int next_seat(const Engine *e, int four, int p) {
    return four ? (p + 1) & 3 : e->next_seat[p];
}
ALWAYS uint32_t covers(const Engine *e, int four) { return four ? 0 : e->covers; }
ALWAYS uint32_t hidden(const Engine *e, int four) { return four ? 0 : e->hidden; }
ALWAYS int every(const Engine *e, int four) { return four ? 0 : e->every; }

/* --- helpers ------------------------------------------------------------------- */

/* `moves` less the cards equivalent to a lower one of `moves` (Engine.merge), a
 * card that covers a face-down one never merged. */
ALWAYS uint32_t merge_in(const Engine *e, int four, uint32_t moves, uint32_t others) {
    uint32_t out = moves;
    uint32_t free_ = moves & ~covers(e, four);
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

/* The cards `seat` may play (Engine.legal, docs/rules.md §6), the partner from the table. */
ALWAYS uint32_t legal(const Engine *e, int four, uint32_t hand, int seat, int led, int mcard,
                      int mseat) {
    uint32_t moves = hand & e->suit_masks[led];
    if (moves) {
        if (e->trump_like[led] && (e->rise_on_partner || mseat != partner(e, four, seat))) {
            uint32_t rising = moves & e->above[mcard];
            if (rising) moves = rising;
        }
        return moves;
    }
    uint32_t trumps = hand & e->trump_mask;
    if (!trumps) return hand;
    int trump = e->trump;
    if (e->exempt && mseat == partner(e, four, seat)) {
        if (e->under_code == 0 || (mcard >> 3) != trump) return hand;
        uint32_t higher = trumps & e->above[mcard];
        if (hand == trumps) {
            if (e->under_code == 2) return higher ? higher : trumps;
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
ALWAYS int greedy(const Engine *e, int four, int leader, int c0) {
    const uint32_t *h = e->h;
    int n = seats(e, four);
    int mcard = c0;
    int mseat = leader;
    int total = e->pts[c0];
    int led = c0 >> 3;
    uint32_t led_mask = e->suit_masks[led];
    int rise = e->trump_like[led];
    int seat = leader;
    for (int k = 1; k < n; k++) {
        seat = next_seat(e, four, seat);
        uint32_t hand = h[seat];
        uint32_t moves = hand & led_mask;
        if (!moves) {
            moves = legal(e, four, hand, seat, led, mcard, mseat);
        } else if (rise && (e->rise_on_partner || mseat != partner(e, four, seat))) {
            uint32_t rising = moves & e->above[mcard];
            if (rising) moves = rising;
        }
        uint32_t bm = e->beat[mcard];
        int dear = 0;
        if (side(e, four, mseat) == side(e, four, seat) &&
            (k == n - 1 || !(h[next_seat(e, four, seat)] & bm))) {
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
    return side(e, four, mseat) == side(e, four, leader) ? total : -total;
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

/* The search's entry points, one compiled copy per value of `four` (below), and the
 * calls that pick the copy of theirs. */
static int boundary_four(Engine *e, int leader, int flags, int rem, int alpha, int beta);
static int boundary_any(Engine *e, int leader, int flags, int rem, int alpha, int beta);
static int follow_four(Engine *e, int seat, int k, int led, int mcard, int mseat, int tpts,
                       uint32_t tmask, int flags, int rem, int alpha, int beta);
static int follow_any(Engine *e, int seat, int k, int led, int mcard, int mseat, int tpts,
                      uint32_t tmask, int flags, int rem, int alpha, int beta);

ALWAYS int boundary(Engine *e, int four, int leader, int flags, int rem, int alpha, int beta) {
    return four ? boundary_four(e, leader, flags, rem, alpha, beta)
                : boundary_any(e, leader, flags, rem, alpha, beta);
}

ALWAYS int follow(Engine *e, int four, int seat, int k, int led, int mcard, int mseat, int tpts,
                  uint32_t tmask, int flags, int rem, int alpha, int beta) {
    return four ? follow_four(e, seat, k, led, mcard, mseat, tpts, tmask, flags, rem, alpha, beta)
                : follow_any(e, seat, k, led, mcard, mseat, tpts, tmask, flags, rem, alpha, beta);
}

/* The value once `winner` takes the trick of `tmask` (Engine.end): the cards under
 * those played turned up and the remaining tricks searched, or, the hands spent, the
 * last trick's bonus. */
ALWAYS int end(Engine *e, int four, int winner, int total, uint32_t tmask, int flags, int rem,
               int alpha, int beta) {
    uint32_t *h = e->h;
    uint32_t reveal = 0;
    for (uint32_t m = tmask & covers(e, four); m; m &= m - 1) reveal |= e->under[low_bit(m)];
    if (reveal) {
        for (int p = 0; p < e->n; p++) h[p] |= reveal & e->own[p];
        e->hidden ^= reveal;
    } else if (!h[winner]) { /* the last trick */
        if (side(e, four, winner)) return 0;
        return rem + ((flags & 2) ? e->last_bonus : e->capot_bonus);
    }
    int v;
    if (side(e, four, winner))
        v = boundary(e, four, winner, flags | 2, rem - total, alpha, beta);
    else
        v = total + boundary(e, four, winner, flags | 1, rem - total, alpha - total,
                             beta - total);
    if (reveal) {
        for (int p = 0; p < e->n; p++) h[p] &= ~reveal;
        e->hidden ^= reveal;
    }
    return v;
}

/* The value of the remaining tricks, `leader` to lead (Engine.boundary). */
ALWAYS int boundary_in(Engine *e, int four, int leader, int flags, int rem, int alpha,
                       int beta) {
    e->nodes++;
    if (e->nodes > e->limit) longjmp(e->abort, 1);
    uint32_t *h = e->h;
    const uint32_t *beat = e->beat;
    const uint32_t *above = e->above;
    uint32_t hl = h[leader];
    int bonus = (flags & 2) ? e->last_bonus : e->capot_bonus;
    if (!(hl & (hl - 1)) && !hidden(e, four)) {
        /* The last trick: every card is forced. */
        int mcard = top_bit(hl);
        int mseat = leader;
        int seat = leader;
        for (int k = 1; k < seats(e, four); k++) {
            seat = next_seat(e, four, seat);
            int c = top_bit(h[seat]);
            if ((beat[mcard] >> c) & 1) {
                mcard = c;
                mseat = seat;
            }
        }
        if (side(e, four, mseat)) return 0;
        return rem + bonus;
    }
    int hi = rem + bonus;
    if (hi <= alpha) return hi;
    if (beta <= 0) return 0;
    uint32_t alive = h[0] | h[1] | h[2] | h[3];
    /* Within one solve every card belongs to one seat: the live cards give the
     * hands (and the cards still face down), and the key is 36 bits. */
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
    uint32_t others = (alive ^ hl) | hidden(e, four);
    if (!(others & e->trump_mask) && !hidden(e, four)) {
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
            int value = side(e, four, leader) ? 0 : rem + bonus;
            table_put(e, key, value, value, -1);
            return value;
        }
    }
    int a = alpha > lo ? alpha : lo;
    int b = beta < hi ? beta : hi;
    uint32_t moves = hl;
    uint32_t lows = hl & e->low_cards;
    if (lows & (lows - 1)) moves = merge_in(e, four, hl, others);
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
        for (int i = first; i < no; i++) keys[i] = greedy(e, four, leader, order[i]);
        sort_by(tail, keys + first, no - first, 1);
    } else {
        sort_points(e, masters, nm, 1);
        sort_points(e, rest, nr, 1);
        for (int i = 0; i < nm; i++) order[no++] = masters[i];
        for (int i = 0; i < nr; i++) order[no++] = rest[i];
    }
    int nxt = next_seat(e, four, leader);
    int maximize = side(e, four, leader) == 0;
    int g = maximize ? -INF : INF;
    int best_card = best;
    for (int i = 0; i < no; i++) {
        int c = order[i];
        h[leader] = hl ^ ((uint32_t)1 << c);
        int v = follow(e, four, nxt, 1, c >> 3, c, leader, e->pts[c], (uint32_t)1 << c, flags,
                       rem, a, b);
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

/* The value with k cards (1 .. n - 1) on the trick, `seat` to play (Engine.follow). */
ALWAYS int follow_in(Engine *e, int four, int seat, int k, int led, int mcard, int mseat,
                     int tpts, uint32_t tmask, int flags, int rem, int alpha, int beta) {
    e->nodes++;
    if (every(e, four) && e->nodes > e->limit) longjmp(e->abort, 1);
    uint32_t *h = e->h;
    const int *pts = e->pts;
    const uint32_t *beat = e->beat;
    uint32_t hand = h[seat];
    /* The legal cards (docs/rules.md §6). */
    uint32_t moves = hand & e->suit_masks[led];
    if (moves) {
        if (e->trump_like[led] && (e->rise_on_partner || mseat != partner(e, four, seat))) {
            uint32_t rising = moves & e->above[mcard];
            if (rising) moves = rising; /* §6.1 TA, §6.2 */
        }
    } else {
        moves = legal(e, four, hand, seat, led, mcard, mseat); /* void: §6.3, §6.4 */
    }
    int last = k == seats(e, four) - 1;
    if (!(moves & (moves - 1))) {
        /* A forced card. */
        int c = top_bit(moves);
        h[seat] = hand ^ moves;
        if ((beat[mcard] >> c) & 1) {
            mcard = c;
            mseat = seat;
        }
        tpts += pts[c];
        /* The end of the trick: the lines of end, inline, but for the cards it turns up. */
        int v;
        if (!last) {
            v = follow(e, four, next_seat(e, four, seat), k + 1, led, mcard, mseat, tpts,
                       tmask | moves, flags, rem, alpha, beta);
        } else if ((tmask | moves) & covers(e, four)) {
            v = end(e, four, mseat, tpts, tmask | moves, flags, rem, alpha, beta);
        } else if (hand == moves) { /* the last trick */
            int bonus = (flags & 2) ? e->last_bonus : e->capot_bonus;
            v = side(e, four, mseat) ? 0 : rem + bonus;
        } else if (side(e, four, mseat)) {
            v = boundary(e, four, mseat, flags | 2, rem - tpts, alpha, beta);
        } else {
            v = tpts + boundary(e, four, mseat, flags | 1, rem - tpts, alpha - tpts,
                                beta - tpts);
        }
        h[seat] = hand;
        return v;
    }
    uint32_t lows = moves & e->low_cards;
    if (lows & (lows - 1)) {
        uint32_t alive = h[0] | h[1] | h[2] | h[3] | tmask | hidden(e, four);
        moves = merge_in(e, four, moves, alive ^ hand);
    }
    int cards[32];
    int nc = 0;
    for (uint32_t m = moves; m; m &= m - 1) cards[nc++] = low_bit(m);
    uint32_t bm = beat[mcard];
    int nxt = next_seat(e, four, seat);
    if (side(e, four, mseat) == side(e, four, seat) && (last || !(h[nxt] & bm))) {
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
    int maximize = side(e, four, seat) == 0;
    int g = maximize ? -INF : INF;
    int a = alpha;
    int b = beta;
    for (int i = 0; i < nc; i++) {
        int c = cards[i];
        uint32_t bit = (uint32_t)1 << c;
        h[seat] = hand ^ bit;
        int v;
        if (last) { /* the last card of the trick (not of the deal: the hand holds more) */
            int winner = ((bm >> c) & 1) ? seat : mseat;
            int total = tpts + pts[c];
            if ((tmask | bit) & covers(e, four))
                v = end(e, four, winner, total, tmask | bit, flags, rem, a, b);
            else if (side(e, four, winner))
                v = boundary(e, four, winner, flags | 2, rem - total, a, b);
            else
                v = total + boundary(e, four, winner, flags | 1, rem - total, a - total,
                                     b - total);
        } else if ((bm >> c) & 1) {
            v = follow(e, four, nxt, k + 1, led, c, seat, tpts + pts[c], tmask | bit, flags,
                       rem, a, b);
        } else {
            v = follow(e, four, nxt, k + 1, led, mcard, mseat, tpts + pts[c], tmask | bit,
                       flags, rem, a, b);
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

/* The value after `seat` plays c with k cards (0 .. n - 1) on the trick (Engine.play). */
ALWAYS int play_in(Engine *e, int four, int seat, int k, int led, int mcard, int mseat,
                   int tpts, uint32_t tmask, int flags, int rem, int c, int alpha, int beta) {
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
    if (k == seats(e, four) - 1)
        v = end(e, four, mseat, total, tmask | bit, flags, rem, alpha, beta);
    else
        v = follow(e, four, next_seat(e, four, seat), k + 1, led, mcard, mseat, total,
                   tmask | bit, flags, rem, alpha, beta);
    h[seat] = hand;
    return v;
}

/* The two copies of the search. */
static int boundary_four(Engine *e, int leader, int flags, int rem, int alpha, int beta) {
    return boundary_in(e, 1, leader, flags, rem, alpha, beta);
}

static int boundary_any(Engine *e, int leader, int flags, int rem, int alpha, int beta) {
    return boundary_in(e, 0, leader, flags, rem, alpha, beta);
}

static int follow_four(Engine *e, int seat, int k, int led, int mcard, int mseat, int tpts,
                       uint32_t tmask, int flags, int rem, int alpha, int beta) {
    return follow_in(e, 1, seat, k, led, mcard, mseat, tpts, tmask, flags, rem, alpha, beta);
}

static int follow_any(Engine *e, int seat, int k, int led, int mcard, int mseat, int tpts,
                      uint32_t tmask, int flags, int rem, int alpha, int beta) {
    return follow_in(e, 0, seat, k, led, mcard, mseat, tpts, tmask, flags, rem, alpha, beta);
}

static int play(Engine *e, int seat, int k, int led, int mcard, int mseat, int tpts,
                uint32_t tmask, int flags, int rem, int c, int alpha, int beta) {
    if (e->four)
        return play_in(e, 1, seat, k, led, mcard, mseat, tpts, tmask, flags, rem, c, alpha, beta);
    return play_in(e, 0, seat, k, led, mcard, mseat, tpts, tmask, flags, rem, c, alpha, beta);
}

static uint32_t merge(const Engine *e, uint32_t moves, uint32_t others) {
    return merge_in(e, 0, moves, others);
}

/* --- the Python face --------------------------------------------------------------- */

/* Before a search: the four hands read from the list (the seats past n holding
 * nothing, the others only their own cards, none face down), the face-down cards
 * as at the root (a search stopped past its limit leaves them anywhere), and the
 * engine marked busy (the search runs without the GIL: another thread must not
 * enter this engine). */
static int start(Engine *e) {
    if (e->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver engine is already searching");
        return -1;
    }
    if (e->table == NULL || e->n == 0) {
        PyErr_SetString(PyExc_RuntimeError, "the solver engine was not initialised");
        return -1;
    }
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
    e->hidden = e->root_hidden;
    for (int p = 0; p < 4; p++) {
        uint32_t own = p < e->n ? e->own[p] : 0;
        if ((e->h[p] & ~own) || (e->h[p] & e->hidden)) {
            PyErr_SetString(PyExc_ValueError, "h: a hand holds a card that is not its own");
            return -1;
        }
    }
    e->busy = 1;
    return 0;
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

enum { BOUNDARY, FOLLOW, PLAY };

/* One search, boundary(), follow() or play() on the checked arguments `a`, with the
 * GIL released; the node limit's longjmp lands here. */
static PyObject *run(Engine *e, int what, const long *a) {
    if (start(e) < 0) return NULL;
    uint32_t *h = e->h;
    /* Every seat to play from here holds a card (the search reads their top cards). */
    int from = what == BOUNDARY ? 0 : (int)a[1];
    int seat = (int)a[0];
    for (int k = from; k < e->n; k++) {
        int holds = what == PLAY && k == from ? (int)((h[seat] >> a[9]) & 1) : h[seat] != 0;
        if (!holds) {
            e->busy = 0;
            PyErr_SetString(PyExc_ValueError, "h: a seat to play holds no card (or not c)");
            return NULL;
        }
        seat = e->next_seat[seat];
    }
    volatile int v = 0;
    volatile int aborted = 0;
    Py_BEGIN_ALLOW_THREADS
    if (setjmp(e->abort))
        aborted = 1;
    else if (what == FOLLOW)
        v = (e->four ? follow_four : follow_any)(e, (int)a[0], (int)a[1], (int)a[2], (int)a[3],
                                                 (int)a[4], (int)a[5], (uint32_t)a[6], (int)a[7],
                                                 (int)a[8], (int)a[9], (int)a[10]);
    else if (what == PLAY)
        v = play(e, (int)a[0], (int)a[1], (int)a[2], (int)a[3], (int)a[4], (int)a[5],
                 (uint32_t)a[6], (int)a[7], (int)a[8], (int)a[9], (int)a[10], (int)a[11]);
    else
        v = (e->four ? boundary_four : boundary_any)(e, (int)a[0], (int)a[1], (int)a[2],
                                                     (int)a[3], (int)a[4]);
    Py_END_ALLOW_THREADS
    e->busy = 0;
    if (aborted) return raise_limit(e);
    return PyLong_FromLong(v);
}

static PyObject *Engine_boundary(Engine *e, PyObject *const *args, Py_ssize_t nargs) {
    long a[5];
    if (int_args(args, nargs, 5, a, -1, "boundary") < 0) return NULL;
    if (a[0] < 0 || a[0] >= e->n || a[1] < 0 || a[1] > 3 || a[2] < 0 || a[2] > e->total_pts) {
        PyErr_SetString(PyExc_ValueError, "boundary(): leader 0..n-1, flags 0..3, rem 0..points");
        return NULL;
    }
    return run(e, BOUNDARY, a);
}

static PyObject *Engine_follow(Engine *e, PyObject *const *args, Py_ssize_t nargs) {
    long a[11];
    if (int_args(args, nargs, 11, a, 6, "follow") < 0) return NULL;
    if (a[0] < 0 || a[0] >= e->n || a[1] < 1 || a[1] >= e->n || a[2] < 0 || a[2] > 3 ||
        a[3] < 0 || a[3] > 31 || a[4] < 0 || a[4] >= e->n || a[7] < 0 || a[7] > 3 || a[8] < 0 ||
        a[8] > e->total_pts) {
        PyErr_SetString(PyExc_ValueError, "follow(): an argument is out of range");
        return NULL;
    }
    return run(e, FOLLOW, a);
}

static PyObject *Engine_play(Engine *e, PyObject *const *args, Py_ssize_t nargs) {
    long a[12];
    if (int_args(args, nargs, 12, a, 6, "play") < 0) return NULL;
    int lead = a[1] == 0;
    if (a[0] < 0 || a[0] >= e->n || a[1] < 0 || a[1] >= e->n || a[2] < 0 || a[2] > 3 ||
        (!lead && (a[3] < 0 || a[3] > 31 || a[4] < 0 || a[4] >= e->n)) || a[7] < 0 ||
        a[7] > 3 || a[8] < 0 || a[8] > e->total_pts || a[9] < 0 || a[9] > 31) {
        PyErr_SetString(PyExc_ValueError, "play(): an argument is out of range");
        return NULL;
    }
    return run(e, PLAY, a);
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

/* The table's seats: sides, partners, each seat's cards and the face-down ones. */
static int read_seats(Engine *e, PyObject *sides, PyObject *partners, PyObject *own,
                      PyObject *under, PyObject *hidden_obj) {
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
        e->sides[i] = (int)buf[i];
    }
    if (read_ints(partners, buf, n, "partners") < 0) return -1;
    for (int i = 0; i < n; i++) {
        if (buf[i] < -1 || buf[i] >= n || buf[i] == i) {
            PyErr_SetString(PyExc_ValueError, "partners: another seat, or -1");
            return -1;
        }
        e->partners[i] = (int)buf[i];
    }
    for (int i = 0; i < n; i++) {
        if (e->partners[i] >= 0 && e->partners[e->partners[i]] != i) {
            PyErr_SetString(PyExc_ValueError, "partners: each the other's partner");
            return -1;
        }
    }
    if (read_masks(own, e->own, n, "own") < 0) return -1;
    if (read_masks(under, e->under, 32, "under") < 0) return -1;
    uint32_t all = 0;
    for (int i = 0; i < n; i++) {
        if (all & e->own[i]) {
            PyErr_SetString(PyExc_ValueError, "own: a card belongs to two seats");
            return -1;
        }
        all |= e->own[i];
    }
    e->covers = 0;
    uint32_t under_all = 0;
    for (int c = 0; c < 32; c++) {
        uint32_t u = e->under[c];
        if (!u) continue;
        if ((u & (u - 1)) || (u & under_all) || !((all >> c) & 1) || !(u & all)) {
            PyErr_SetString(PyExc_ValueError,
                            "under: one card under a card in play, each under one card");
            return -1;
        }
        for (int i = 0; i < n; i++) {
            if (((e->own[i] >> c) & 1) && !(e->own[i] & u)) {
                PyErr_SetString(PyExc_ValueError, "under: a card turns up into another hand");
                return -1;
            }
        }
        under_all |= u;
        e->covers |= (uint32_t)1 << c;
    }
    unsigned long long hidden = PyLong_AsUnsignedLongLong(hidden_obj);
    if (hidden == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (hidden != under_all) {
        PyErr_SetString(PyExc_ValueError, "hidden: the cards under the face-up ones");
        return -1;
    }
    e->root_hidden = e->hidden = (uint32_t)hidden;
    for (int i = 0; i < n; i++) e->next_seat[i] = i + 1 < n ? i + 1 : 0;
    e->n = (int)n;
    /* The four-player copy of the search where its constants hold. */
    e->four = n == 4 && !e->covers && !e->every;
    for (int i = 0; i < n; i++)
        if (e->sides[i] != (i & 1) || e->partners[i] != (i ^ 2)) e->four = 0;
    return 0;
}

/* Engine(h, tt, pts, above, beat, suit_masks, trump_like, low_cards, trump, trump_mask,
 * rise_on_partner, exempt, under_code, undertrump_any, last_bonus, capot_bonus, cheap,
 * dear, low_merge, limit, limit_error, sides, partners, own, under, hidden, every). */
static int Engine_init(Engine *e, PyObject *args, PyObject *kwds) {
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Engine() takes positional arguments only");
        return -1;
    }
    PyObject *h, *tt, *pts, *above, *beat, *suit_masks, *trump_like, *cheap, *dear, *low_merge,
        *limit_error, *sides, *partners, *own, *under, *hidden;
    unsigned long long low_cards, trump_mask;
    int trump, rise, exempt, under_code, undertrump_any, last_bonus, capot_bonus, every;
    long long limit;
    if (!PyArg_ParseTuple(args, "OOOOOOOKiKppipiiOOOLOOOOOOp:Engine", &h, &tt, &pts, &above,
                          &beat, &suit_masks, &trump_like, &low_cards, &trump, &trump_mask,
                          &rise, &exempt, &under_code, &undertrump_any, &last_bonus,
                          &capot_bonus, &cheap, &dear, &low_merge, &limit, &limit_error, &sides,
                          &partners, &own, &under, &hidden, &every))
        return -1;
    (void)tt; /* the reference's dict: this build keeps its own table */
    if (e->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver engine is already searching");
        return -1;
    }
    e->n = 0;
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
    e->under_code = under_code;
    e->undertrump_any = undertrump_any;
    e->last_bonus = last_bonus;
    e->capot_bonus = capot_bonus;
    e->limit = limit;
    e->nodes = 0;
    e->every = every;
    e->four = 0;
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
    return read_seats(e, sides, partners, own, under, hidden);
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
    {"play", (PyCFunction)(void (*)(void))Engine_play, METH_FASTCALL,
     "play(seat, k, led, mcard, mseat, tpts, tmask, flags, rem, c, alpha, beta): the value "
     "after seat plays c."},
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
    .tp_doc = "One solve's search at a table of 2, 3 or 4 seats (belote._dds.Engine in C).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dds_c",
    "The double-dummy search of belote.solver in C (belote/_dds.py's Engine).",
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
    if (PyModule_AddIntConstant(m, "COMPACT_TABLES", 1) < 0 ||
        PyModule_AddIntConstant(m, "NATIVE", 1) < 0 ||
        PyModule_AddIntConstant(m, "VERSION", VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
