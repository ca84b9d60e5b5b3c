/*
 * solver._kernel: the move generator in C, over the same flat arrays as the pure-Python
 * walker solver.walker (which stays the reference: both are run on the whole reference
 * corpus by the tests).
 *
 * Graph(mask, accepts, base, kids, check=None)
 *     The GADDAG's four uint32 buffers (solver.gaddag), checked once, here: every child
 *     index in range, every node's children inside the arcs, no label past Z, and the
 *     checksum `check` when given (checksum(mask, accepts, base, kids) computes it). The
 *     walks below then read them without further checks, so a damaged cache file is
 *     refused when it is loaded, never read past its end.
 *
 * cross_update(graph, squares, n, face, snap, cross_a, xs_a, cross_d, xs_d, full) -> int
 *     The cross-sets of a board (face: the 128 board codes' values, int32), kept in the
 *     caller's buffers and recomputed only for the lines whose squares changed since the
 *     snapshot `snap` (bytes of the squares, updated here); `full` recomputes every line.
 *     cross_a/xs_a serve the across pass (letters allowed by the word down through a
 *     square, and that word's tiles' face values, -1 for no such word), cross_d/xs_d the
 *     down pass. Returns the number of lines redone.
 *
 * generate(graph, squares, n, lm, wm, face, snap, cross_a, xs_a, cross_d, xs_d, full, rack,
 *          values, rack_size, bingo_bonus, down_on_empty, mode, keep) -> (count, stride, records)
 *     Every legal placement of the rack, both directions, in one call, the cross-sets
 *     first brought up to date as cross_update does (the squares read once). Each move
 *     is counted; what is kept depends on `mode`: 0 nothing, 1 every move, 2 every move
 *     of the best score, 3 the `keep` best (ties at the cut in board order); 4 every move
 *     of the best score by a bounded best-first search, which does not count (count -1):
 *     the anchors are walked highest bound first, until the best score found beats every
 *     bound left. Kept moves come back as int32 records of `stride` = 6 + n ints: score,
 *     across, line, start, length, tiles placed, then the word's codes (a blank is
 *     letter | 64). A rack's blank is spent on the walk only for a letter the rack lacks;
 *     the moves that play a blank for a letter it holds are made when a word is complete
 *     (emit), so each word in each place is walked once. The moves come in the walk's
 *     order, which is the reference walker's only for a rack without a blank.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#define MAXN 32
#define NLETTERS 26
#define LETTER_MASK 0x3F
#define BLANK_BIT 0x40
#define ALL_LETTERS 0x7FFFFFEu
#define ALL_LABELS 0x7FFFFFFu
#define NO_CROSS (-1)

enum { MODE_COUNT = 0, MODE_ALL = 1, MODE_TOP = 2, MODE_TOPN = 3, MODE_BEST = 4 };

/* The set bits of x. Without the popcnt instruction (not in the x86-64 baseline) GCC's
 * builtin is a call into libgcc, a tenth of the walk's instructions; this is inline. */
static inline uint32_t pop(uint32_t x) {
#if defined(__POPCNT__) || !defined(__x86_64__)
    return (uint32_t)__builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
#endif
}

/* Resize *ptr to `bytes` (PyMem_Realloc): 0, or -1 with *ptr untouched (still freed by
 * its owner) when memory runs out. */
static int resize(void *ptr, size_t bytes) {
    void **slot = (void **)ptr;
    void *more = PyMem_Realloc(*slot, bytes);
    if (more == NULL) return -1;
    *slot = more;
    return 0;
}

/* ------------------------------------------------------------------------------------ */
/* The automaton, checked once.                                                          */

/* The cache file's checksum (solver.gaddag.fast64, which is the reference): four lanes of
 * xor-then-multiply over each array's uint32 words, lane j % 4, then the arrays folded in
 * order. Fast enough to run on every load (docs/decisions.md). */
#define FAST_PRIME 0x100000001B3ull
static uint64_t fast_array(const uint32_t *w, Py_ssize_t len, uint64_t seed) {
    uint64_t h[4] = {seed ^ 0x9E3779B97F4A7C15ull, seed ^ 0xC2B2AE3D27D4EB4Full, seed ^ 0x165667B19E3779F9ull,
                     seed ^ 0x27D4EB2F165667C5ull};
    Py_ssize_t j = 0;
    for (; j + 4 <= len; j += 4) {
        h[0] = (h[0] ^ w[j]) * FAST_PRIME;
        h[1] = (h[1] ^ w[j + 1]) * FAST_PRIME;
        h[2] = (h[2] ^ w[j + 2]) * FAST_PRIME;
        h[3] = (h[3] ^ w[j + 3]) * FAST_PRIME;
    }
    for (; j < len; j++) h[j & 3] = (h[j & 3] ^ w[j]) * FAST_PRIME;
    uint64_t out = (uint64_t)len;
    for (int k = 0; k < 4; k++) out = (out ^ h[k]) * FAST_PRIME;
    return out;
}

/* A node as the walks read it: one 16-byte record, so that a step reads one cache line,
 * with the letters of its separator child (`sep`, 0 for none) beside its own: whether a
 * left part may turn right there is then known without reading that child. */
typedef struct {
    uint32_t mask, accepts, base, sep;
} Node;

typedef struct {
    PyObject_HEAD
    Py_buffer views[4];
    int held;
    const uint32_t *mask, *accepts, *base, *kids;
    Py_ssize_t nodes, arcs;
    Node *node; /* made from the four arrays by the first walk (as_graph) */
} Graph;

static void Graph_dealloc(Graph *self) {
    PyMem_Free(self->node);
    for (int i = 0; i < self->held; i++) PyBuffer_Release(&self->views[i]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static uint64_t fast_arrays(Py_buffer *views) {
    uint64_t out = 0;
    for (int i = 0; i < 4; i++) out = fast_array(views[i].buf, views[i].len / 4, out);
    return out;
}

static int Graph_init(Graph *self, PyObject *args, PyObject *kwds) {
    PyObject *objs[4], *o_check = Py_None;
    static char *kwlist[] = {"mask", "accepts", "base", "kids", "check", NULL};
    if (self->held) {
        PyErr_SetString(PyExc_TypeError, "Graph is already initialised");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO|O", kwlist, &objs[0], &objs[1], &objs[2], &objs[3],
                                     &o_check))
        return -1;
    const char *names[4] = {"mask", "accepts", "base", "kids"};
    for (int i = 0; i < 4; i++) {
        if (PyObject_GetBuffer(objs[i], &self->views[i], PyBUF_SIMPLE) < 0) return -1;
        self->held = i + 1;
        if (self->views[i].len % 4) {
            PyErr_Format(PyExc_ValueError, "damaged lexicon: %s is not an array of uint32", names[i]);
            return -1;
        }
    }
    self->mask = self->views[0].buf;
    self->accepts = self->views[1].buf;
    self->base = self->views[2].buf;
    self->kids = self->views[3].buf;
    self->nodes = self->views[0].len / 4;
    self->arcs = self->views[3].len / 4;
    if (self->nodes == 0 || self->views[1].len / 4 != self->nodes || self->views[2].len / 4 != self->nodes) {
        PyErr_SetString(PyExc_ValueError, "damaged lexicon: the GADDAG arrays differ in length");
        return -1;
    }
    if (self->nodes > 0x7FFFFFFF || self->arcs > 0x7FFFFFFF) {
        PyErr_SetString(PyExc_ValueError, "damaged lexicon: too many nodes");
        return -1;
    }
    if (o_check != Py_None) { /* the checksum stored with the arrays, when they come from a file */
        uint64_t want = PyLong_AsUnsignedLongLong(o_check);
        if (want == (uint64_t)-1 && PyErr_Occurred()) return -1;
        if (fast_arrays(self->views) != want) {
            PyErr_SetString(PyExc_ValueError, "damaged lexicon: checksum mismatch");
            return -1;
        }
    }
    for (Py_ssize_t node = 0; node < self->nodes; node++) {
        uint32_t m = self->mask[node];
        if ((m & ~ALL_LABELS) || (self->accepts[node] & ~m) ||
            (uint64_t)self->base[node] + (uint64_t)pop(m) > (uint64_t)self->arcs) {
            PyErr_Format(PyExc_ValueError, "damaged lexicon: node %zd is out of range", node);
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < self->arcs; i++) {
        if (self->kids[i] >= (uint32_t)self->nodes) {
            PyErr_Format(PyExc_ValueError, "damaged lexicon: arc %zd leads out of the automaton", i);
            return -1;
        }
    }
    return 0;
}

static PyObject *Graph_nodes(Graph *self, void *closure) { return PyLong_FromSsize_t(self->nodes); }

static PyGetSetDef Graph_getset[] = {
    {"nodes", (getter)Graph_nodes, NULL, "number of nodes", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject GraphType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "solver._kernel.Graph",
    .tp_basicsize = sizeof(Graph),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A GADDAG's arrays, checked once (see the module doc).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Graph_init,
    .tp_dealloc = (destructor)Graph_dealloc,
    .tp_getset = Graph_getset,
};

/* The graph, its nodes packed for the walks: made on the first walk, not when the graph
 * is loaded (a word list's load would take a millisecond longer). */
static Graph *as_graph(PyObject *obj) {
    if (!PyObject_TypeCheck(obj, &GraphType) || !((Graph *)obj)->held) {
        PyErr_SetString(PyExc_TypeError, "expected a solver._kernel.Graph");
        return NULL;
    }
    Graph *g = (Graph *)obj;
    if (g->node == NULL) {
        Node *node = PyMem_Malloc((size_t)g->nodes * sizeof(Node));
        if (node == NULL) return (Graph *)PyErr_NoMemory();
        for (Py_ssize_t i = 0; i < g->nodes; i++) {
            uint32_t m = g->mask[i];
            node[i] = (Node){m, g->accepts[i], g->base[i], (m & 1) ? g->mask[g->kids[g->base[i]]] : 0};
        }
        g->node = node;
    }
    return g;
}

/* Child of node along the label `bit` (present in m = mask[node]): in range, by Graph_init. */
static inline uint32_t child(const Graph *g, uint32_t node, uint32_t m, uint32_t bit) {
    return g->kids[g->node[node].base + pop(m & (bit - 1))];
}

/* ------------------------------------------------------------------------------------ */
/* Reading the caller's arrays.                                                           */

/* The board's squares (a sequence of n*n small ints), each checked to be a tile code. */
static int read_squares(PyObject *seq, int n, int *out) {
    PyObject *fast = PySequence_Fast(seq, "squares");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != (Py_ssize_t)n * n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "a %dx%d board has %d squares", n, n, n * n);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (int i = 0; i < n * n; i++) {
        long t = PyLong_AsLong(items[i]);
        if (t == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (t < 0 || (t & ~(long)(BLANK_BIT | LETTER_MASK)) || (t & LETTER_MASK) > NLETTERS ||
            (t && !(t & LETTER_MASK))) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "square %d holds the bad tile code %ld", i, t);
            return -1;
        }
        out[i] = (int)t;
    }
    Py_DECREF(fast);
    return 0;
}

static int read_small(PyObject *seq, int *out, Py_ssize_t len, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != len) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd items expected", what, len);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < len; i++) {
        long v = PyLong_AsLong(items[i]);
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (v < -1000000 || v > 1000000) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, v);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* A writable (or readable) buffer of exactly `len` bytes. */
static int get_exact(PyObject *obj, Py_buffer *view, Py_ssize_t len, int writable, const char *what) {
    if (PyObject_GetBuffer(obj, view, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) < 0) return -1;
    if (view->len != len) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, %zd expected", what, view->len, len);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------ */
/* Cross-sets.                                                                            */

/* Walk the tiles perp[from], perp[from + step], ... up to `to` (excluded) from `node`;
 * UINT32_MAX when the automaton has no such path. */
static inline uint32_t walk_tiles(const Graph *g, uint32_t node, const int *perp, int from, int to, int step) {
    for (int q = from; q != to; q += step) {
        uint32_t bit = 1u << (perp[q] & LETTER_MASK), m = g->node[node].mask;
        if (!(m & bit)) return UINT32_MAX;
        node = child(g, node, m, bit);
    }
    return node;
}

/* The letters L that make a word of up + L + down (up = perp[a..j-1], down =
 * perp[j+1..b-1], one of them maybe empty), read in the GADDAG from whichever side walks
 * least: a word below only is rev(down) L, a word above only rev(up) ^ L, each one walk
 * and the accept bits of its last node; with words both sides, one walk of the longer
 * side and, for each letter, one of the shorter. */
static uint32_t cross_letters(const Graph *g, const int *perp, int a, int j, int b) {
    uint32_t allowed = 0;
    if (a == j || (b > j + 1 && b - 1 - j >= j - a)) { /* rev(down) L rev(up): the per-letter walk is up */
        uint32_t node = walk_tiles(g, 0, perp, b - 1, j, -1);
        if (node == UINT32_MAX) return 0;
        uint32_t m0 = g->node[node].mask, letters = m0 & ALL_LETTERS;
        if (a == j) return g->node[node].accepts & letters; /* nothing above: the word ends with L */
        while (letters) {
            uint32_t bit = letters & (~letters + 1);
            letters ^= bit;
            uint32_t cur = walk_tiles(g, child(g, node, m0, bit), perp, j - 1, a, -1);
            if (cur != UINT32_MAX && (g->node[cur].accepts >> (perp[a] & LETTER_MASK) & 1)) allowed |= bit;
        }
        return allowed;
    }
    /* rev(up) ^ L down: the per-letter walk is down */
    uint32_t node = walk_tiles(g, 0, perp, j - 1, a - 1, -1);
    if (node == UINT32_MAX || !(g->node[node].mask & 1)) return 0;
    uint32_t sep = child(g, node, g->node[node].mask, 1), m0 = g->node[sep].mask, letters = m0 & ALL_LETTERS;
    if (b == j + 1) return g->node[sep].accepts & letters; /* nothing below: the word ends with L */
    while (letters) {
        uint32_t bit = letters & (~letters + 1);
        letters ^= bit;
        uint32_t cur = walk_tiles(g, child(g, sep, m0, bit), perp, j + 1, b - 1, 1);
        if (cur != UINT32_MAX && (g->node[cur].accepts >> (perp[b - 1] & LETTER_MASK) & 1)) allowed |= bit;
    }
    return allowed;
}

/* One perpendicular line: for each empty square j of perp (n tiles), the letters the word
 * through j allows and the face value of that word's tiles; written at out[j * step]. */
static void cross_line(const Graph *g, const int *perp, int n, const int *face, uint32_t *cross,
                       int32_t *xs, int step) {
    for (int j = 0; j < n; j++) {
        cross[j * step] = ALL_LETTERS;
        xs[j * step] = NO_CROSS;
    }
    for (int j = 0; j < n; j++) {
        if (perp[j]) continue;
        int has_up = j > 0 && perp[j - 1], has_down = j + 1 < n && perp[j + 1];
        if (!has_up && !has_down) continue;
        int a = j, b = j + 1; /* up = perp[a..j-1], down = perp[j+1..b-1] */
        while (a > 0 && perp[a - 1]) a--;
        while (b < n && perp[b]) b++;
        int sum = 0;
        for (int q = a; q < j; q++) sum += face[perp[q]];
        for (int q = j + 1; q < b; q++) sum += face[perp[q]];
        xs[j * step] = sum;
        cross[j * step] = cross_letters(g, perp, a, j, b);
    }
}

/* Bring the cross-sets up to date with `squares`: the lines holding a square that
 * differs from the snapshot `snap` (updated here), or every line when `full`. Returns
 * the number of lines redone. */
static int update_cross(const Graph *g, const int *squares, int n, const int *face, uint8_t *snap, uint32_t *ca,
                        int32_t *xa, uint32_t *cd, int32_t *xd, int full) {
    uint8_t dirty_row[MAXN] = {0}, dirty_col[MAXN] = {0};
    for (int i = 0; i < n * n; i++) {
        if (full || snap[i] != (uint8_t)squares[i]) {
            dirty_row[i / n] = dirty_col[i % n] = 1;
            snap[i] = (uint8_t)squares[i];
        }
    }
    int redone = 0, perp[MAXN];
    for (int c = 0; c < n; c++) { /* a changed column: the words down it, for the across pass */
        if (!dirty_col[c]) continue;
        for (int r = 0; r < n; r++) perp[r] = squares[r * n + c];
        cross_line(g, perp, n, face, ca + c, xa + c, n);
        redone++;
    }
    for (int r = 0; r < n; r++) { /* a changed row: the words across it, for the down pass */
        if (!dirty_row[r]) continue;
        cross_line(g, squares + r * n, n, face, cd + r * n, xd + r * n, 1);
        redone++;
    }
    return redone;
}

/* The face values of the 128 board codes, from a buffer of int32 (checked in range). */
static int read_face(PyObject *obj, int *face) {
    Py_buffer view;
    if (get_exact(obj, &view, 128 * 4, 0, "face") < 0) return -1;
    const int32_t *src = view.buf;
    for (int i = 0; i < 128; i++) {
        if (src[i] < 0 || src[i] > 1000000) {
            PyBuffer_Release(&view);
            PyErr_Format(PyExc_ValueError, "face: %d is out of range", (int)src[i]);
            return -1;
        }
        face[i] = src[i];
    }
    PyBuffer_Release(&view);
    return 0;
}

/* The buffers of a board's cross-sets: snap, cross_a, xs_a, cross_d, xs_d (writable). */
static int get_cross(PyObject **objs, Py_buffer *v, int n, int *got) {
    Py_ssize_t lens[5] = {n * n, 4 * n * n, 4 * n * n, 4 * n * n, 4 * n * n};
    const char *names[5] = {"snap", "cross_a", "xs_a", "cross_d", "xs_d"};
    for (; *got < 5; (*got)++)
        if (get_exact(objs[*got], &v[*got], lens[*got], 1, names[*got]) < 0) return -1;
    return 0;
}

static PyObject *cross_update(PyObject *self, PyObject *args) {
    PyObject *o_graph, *o_squares, *o_face, *objs[5];
    int n, full;
    if (!PyArg_ParseTuple(args, "OOiOOOOOOp", &o_graph, &o_squares, &n, &o_face, &objs[0], &objs[1], &objs[2],
                          &objs[3], &objs[4], &full))
        return NULL;
    Graph *g = as_graph(o_graph);
    if (g == NULL) return NULL;
    if (n < 2 || n > MAXN) return PyErr_Format(PyExc_ValueError, "board size %d out of range", n);
    int squares[MAXN * MAXN], face[128];
    if (read_squares(o_squares, n, squares) < 0 || read_face(o_face, face) < 0) return NULL;
    Py_buffer v[5];
    int got = 0;
    PyObject *result = NULL;
    if (get_cross(objs, v, n, &got) == 0)
        result = PyLong_FromLong(update_cross(g, squares, n, face, v[0].buf, v[1].buf, v[2].buf, v[3].buf,
                                              v[4].buf, full));
    for (int i = 0; i < got; i++) PyBuffer_Release(&v[i]);
    return result;
}

/* ------------------------------------------------------------------------------------ */
/* The walk.                                                                              */

typedef struct {
    const Graph *g;
    int n;
    /* the strip being walked */
    int tiles[MAXN], xscore[MAXN], lm[MAXN], wm[MAXN], lrun[MAXN], rrun[MAXN], buf[MAXN];
    uint32_t cross[MAXN];
    int rack[NLETTERS + 1], values[NLETTERS + 1], face[128];
    int blanks;                  /* blanks not yet spent on the path */
    int reals[NLETTERS + 1];     /* the rack's own letters (rack[] counts down on the path) */
    int rack_blanks;             /* the rack's blanks */
    int rack_size, bingo_bonus, across, line;
    int anchor, right_free, left_limit, down_single_skip;
    uint32_t sep_gate, sep_tile;
    long long found;
    /* what is kept */
    int mode, keep, stride;
    int32_t *rec;
    Py_ssize_t rec_n, rec_cap; /* records kept (mode 1, 2; mode 3: slots used) */
    long best;
    int has_best;
    int *heap;              /* mode 3: slot numbers, the worst move on top (worse, below) */
    int oom;
} Ctx;

static int32_t *slot(Ctx *c, Py_ssize_t i) { return c->rec + i * c->stride; }

static int grow(Ctx *c) {
    if (c->rec_n < c->rec_cap) return 0;
    Py_ssize_t cap = c->rec_cap ? c->rec_cap * 2 : 256;
    if (resize(&c->rec, (size_t)cap * c->stride * sizeof(int32_t)) < 0) { c->oom = 1; return -1; }
    c->rec_cap = cap;
    return 0;
}

/* Mode 3: room for one more move in the heap, grown as it fills (a caller may ask for
 * the best million moves of a position that has two hundred). */
static int grow_heap(Ctx *c) {
    if (c->rec_n < c->rec_cap) return 0;
    Py_ssize_t cap = c->rec_cap ? c->rec_cap * 2 : 64;
    if (cap > c->keep) cap = c->keep;
    if (resize(&c->rec, (size_t)cap * c->stride * sizeof(int32_t)) < 0 ||
        resize(&c->heap, (size_t)cap * sizeof(int)) < 0) {
        c->oom = 1;
        return -1;
    }
    c->rec_cap = cap;
    return 0;
}

static void fill(Ctx *c, int32_t *r, int start, int end, int nplaced, long score) {
    r[0] = (int32_t)score;
    r[1] = c->across;
    r[2] = c->line;
    r[3] = start;
    r[4] = end - start + 1;
    r[5] = nplaced;
    for (int i = start; i <= end; i++) r[6 + i - start] = c->buf[i];
}

/* Two records in board order, as solver.move.Move orders moves: row, column, down before
 * across, then the word's codes (a letter's tile before any blank, as uppercase before
 * lowercase), a word before the longer words it begins. */
static int board_order(const int32_t *x, const int32_t *y) {
    int32_t xr = x[1] ? x[2] : x[3], xc = x[1] ? x[3] : x[2];
    int32_t yr = y[1] ? y[2] : y[3], yc = y[1] ? y[3] : y[2];
    if (xr != yr) return xr < yr ? -1 : 1;
    if (xc != yc) return xc < yc ? -1 : 1;
    if (x[1] != y[1]) return x[1] < y[1] ? -1 : 1;
    int32_t len = x[4] < y[4] ? x[4] : y[4];
    for (int32_t i = 0; i < len; i++)
        if (x[6 + i] != y[6 + i]) return x[6 + i] < y[6 + i] ? -1 : 1;
    return x[4] == y[4] ? 0 : (x[4] < y[4] ? -1 : 1);
}

/* Worse move first: lower score, or the same score later in board order (so the moves
 * kept at a tie do not depend on the order the walk finds them in). */
static inline int worse_record(const int32_t *x, const int32_t *y) {
    return x[0] < y[0] || (x[0] == y[0] && board_order(x, y) > 0);
}

static inline int worse(Ctx *c, int a, int b) { return worse_record(slot(c, a), slot(c, b)); }

static void sift_down(Ctx *c, int i) {
    int n = (int)c->rec_n;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && worse(c, c->heap[l], c->heap[m])) m = l;
        if (r < n && worse(c, c->heap[r], c->heap[m])) m = r;
        if (m == i) return;
        int t = c->heap[i]; c->heap[i] = c->heap[m]; c->heap[m] = t;
        i = m;
    }
}

static void sift_up(Ctx *c, int i) {
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!worse(c, c->heap[i], c->heap[p])) return;
        int t = c->heap[i]; c->heap[i] = c->heap[p]; c->heap[p] = t;
        i = p;
    }
}

/* binom[u][b]: the ways to choose b of u squares (filled when the module loads). */
static long long binom[MAXN + 1][MAXN + 1];

/* Keep one move (its blanks marked in buf) as the mode asks; counted by the caller. */
static void keep_move(Ctx *c, int start, int end, int nplaced, long score) {
    switch (c->mode) {
    case MODE_ALL:
        if (grow(c) < 0) return;
        fill(c, slot(c, c->rec_n++), start, end, nplaced, score);
        return;
    case MODE_TOP:
    case MODE_BEST:
        if (c->has_best && score < c->best) return;
        if (!c->has_best || score > c->best) { c->best = score; c->has_best = 1; c->rec_n = 0; }
        if (grow(c) < 0) return;
        fill(c, slot(c, c->rec_n++), start, end, nplaced, score);
        return;
    case MODE_TOPN: {
        if (c->rec_n < c->keep) {
            if (grow_heap(c) < 0) return;
            int i = (int)c->rec_n++;
            fill(c, slot(c, i), start, end, nplaced, score);
            c->heap[i] = i;
            sift_up(c, i);
        } else if (score >= slot(c, c->heap[0])[0]) {
            int32_t move[6 + MAXN];
            fill(c, move, start, end, nplaced, score);
            int32_t *top = slot(c, c->heap[0]);
            if (worse_record(top, move)) {
                memcpy(top, move, (size_t)c->stride * sizeof(int32_t));
                sift_down(c, 0);
            }
        }
        return;
    }
    default:
        return;
    }
}

/* The walk places a letter from the rack while it has one and a blank only for a letter
 * it lacks, so it walks each word in each place once; the moves that play a blank for a
 * letter the rack also holds are made here, at the leaf: every way of choosing which of
 * the word's new tiles are blanks (as many as the letters lacking, at least, and no more
 * than the rack's blanks). A blank on square i costs its letter's value there, in the
 * main word (times `wmul`, the word's multiplier) and in the cross word, if any. */
typedef struct {
    int at[MAXN], letter[MAXN], cost[MAXN], k;
    int reals[NLETTERS + 1], blanks;
    int start, end, nplaced;
} Leaf;

static void assign(Ctx *c, Leaf *f, int j, long score) {
    if (c->oom) return;
    if ((c->mode == MODE_TOP || c->mode == MODE_BEST) && c->has_best && score < c->best) return; /* blanks only lower it */
    if (j == f->k) {
        keep_move(c, f->start, f->end, f->nplaced, score);
        return;
    }
    int i = f->at[j], letter = f->letter[j];
    if (f->reals[letter]) { /* the rack's own tile */
        f->reals[letter]--;
        assign(c, f, j + 1, score);
        f->reals[letter]++;
    }
    if (f->blanks) { /* a blank */
        f->blanks--;
        c->buf[i] = letter | BLANK_BIT;
        assign(c, f, j + 1, score - f->cost[j]);
        c->buf[i] = letter;
        f->blanks++;
    }
}

static void emit(Ctx *c, int start, int end, int nplaced, long score, int wmul) {
    if (nplaced == 1 && c->down_single_skip) return; /* the across pass has this one */
    if (nplaced == c->rack_size) score += c->bingo_bonus;
    if (!c->rack_blanks) {
        c->found++;
        keep_move(c, start, end, nplaced, score);
        return;
    }
    Leaf f;
    f.k = 0;
    for (int i = start; i <= end; i++) {
        if (c->tiles[i]) continue;
        f.at[f.k] = i;
        f.letter[f.k++] = c->buf[i];
    }
    /* The count, without making the moves: for each letter, from the blanks it needs (its
     * tiles past the rack's own) to all of its tiles, the blanks no more than the rack's. */
    long long ways[MAXN + 1];
    int blanks = c->rack_blanks;
    ways[0] = 1;
    for (int t = 1; t <= blanks; t++) ways[t] = 0;
    uint32_t seen = 0;
    for (int j = 0; j < f.k; j++) {
        int letter = f.letter[j], u = 0;
        if (seen >> letter & 1) continue;
        seen |= 1u << letter;
        for (int q = j; q < f.k; q++) u += f.letter[q] == letter;
        int need = u > c->reals[letter] ? u - c->reals[letter] : 0;
        for (int t = blanks; t >= 0; t--) { /* t blanks in all; lower t are still the old ones */
            long long w = 0;
            for (int b = need; b <= u && b <= t; b++) w += ways[t - b] * binom[u][b];
            ways[t] = w;
        }
    }
    for (int t = 0; t <= blanks; t++) c->found += ways[t];
    if (c->mode == MODE_COUNT) return;
    for (int j = 0; j < f.k; j++) {
        int i = f.at[j];
        f.cost[j] = c->values[f.letter[j]] * c->lm[i] * (wmul + (c->xscore[i] == NO_CROSS ? 0 : c->wm[i]));
    }
    memcpy(f.reals, c->reals, sizeof f.reals);
    f.blanks = blanks;
    f.start = start;
    f.end = end;
    f.nplaced = nplaced;
    assign(c, &f, 0, score);
}

/* Follow the board tiles at q = from, from + step, ... up to `to` (excluded) from *node:
 * 0 when the GADDAG has no such path; else *node, *a (the last arc's accept bit) and
 * *sum (their face values) are updated and buf holds the tiles. */
static inline int walk_run(Ctx *c, uint32_t *node, uint32_t *a, int *sum, int from, int to, int step) {
    const Graph *g = c->g;
    for (int q = from; q != to; q += step) {
        int sq = c->tiles[q];
        const Node *nd = &g->node[*node];
        uint32_t mm = nd->mask, bb = 1u << (sq & LETTER_MASK);
        if (!(mm & bb)) return 0;
        *a = nd->accepts & bb;
        *node = g->kids[nd->base + pop(mm & (bb - 1))];
        *sum += c->face[sq];
        c->buf[q] = sq;
    }
    return 1;
}

static void go_right(Ctx *c, int pos, uint32_t node, int start, int nplaced, int msum, int wmul,
                     int xsum, uint32_t rbits);

/* Cross the separator: walk the board tiles right of the anchor, if any. */
static void go_right_entry(Ctx *c, uint32_t node, int start, int nplaced, int msum, int wmul,
                           int xsum, uint32_t rbits) {
    int pos = c->anchor + 1;
    if (c->tiles[pos]) {
        int end = c->rrun[c->anchor];
        uint32_t a = 0;
        if (!walk_run(c, &node, &a, &msum, pos, end, 1)) return;
        if (a) emit(c, start, end - 1, nplaced, (long)msum * wmul + xsum, wmul);
        if (end < c->n && c->g->node[node].mask && (rbits || c->blanks))
            go_right(c, end, node, start, nplaced, msum, wmul, xsum, rbits);
    } else if (rbits || c->blanks) {
        go_right(c, pos, node, start, nplaced, msum, wmul, xsum, rbits);
    }
}

/* Take letter `bit` from the rack for the path: its own tile while it has one, else a
 * blank (the walk's caller checked that one is left). Returns the rack's letters left
 * and sets *any to the letters a blank may still be. */
static inline uint32_t take_tile(Ctx *c, int letter, uint32_t bit, uint32_t rbits, uint32_t *any) {
    int cnt = c->rack[letter];
    c->rack[letter] = cnt - 1; /* below 0: letters played as blanks */
    if (cnt > 0) {
        *any = c->blanks ? ALL_LETTERS : 0;
        return cnt == 1 ? rbits ^ bit : rbits;
    }
    c->blanks--;
    *any = c->blanks ? ALL_LETTERS : 0;
    return rbits;
}

static inline void give_back(Ctx *c, int letter) {
    if (++c->rack[letter] <= 0) c->blanks++;
}

static void go_left(Ctx *c, int pos, uint32_t node, int nplaced, int msum, int wmul, int xsum,
                    uint32_t rbits) {
    if (c->oom) return;
    const Graph *g = c->g;
    const Node *nd = &g->node[node];
    uint32_t m = nd->mask;
    uint32_t allowed = m & c->cross[pos] & (c->blanks ? ALL_LETTERS : rbits);
    if (!allowed) return;
    uint32_t acc = nd->accepts;
    const uint32_t *kids = g->kids + nd->base;
    int lmv = c->lm[pos], wmv = c->wm[pos], xs = c->xscore[pos];
    int nwmul = wmul * wmv;
    int start = c->lrun[pos];
    int placed = nplaced + 1;
    uint32_t left_gate = (start - 1 >= c->left_limit) ? c->cross[start - 1] : 0;
    while (allowed) {
        uint32_t bit = allowed & (~allowed + 1);
        allowed ^= bit;
        int letter = __builtin_ctz(bit);
        uint32_t node2 = kids[pop(m & (bit - 1))];
        uint32_t a = acc & bit;
        int run_sum = 0; /* board tiles left of pos, read right to left */
        if (!walk_run(c, &node2, &a, &run_sum, pos - 1, start - 1, -1)) continue;
        const Node *n2 = &g->node[node2];
        uint32_t lg = n2->mask & left_gate;
        uint32_t sep_m = n2->sep & c->sep_gate;
        int tv = c->values[letter] * lmv;
        c->buf[pos] = letter;
        int ms = msum + tv + run_sum;
        int xsum2 = xs < 0 ? xsum : xsum + (xs + tv) * wmv;
        if (a && c->right_free) emit(c, start, c->anchor, placed, (long)ms * nwmul + xsum2, nwmul);
        if (lg || sep_m) {
            uint32_t any;
            uint32_t rb = take_tile(c, letter, bit, rbits, &any);
            if (lg & (rb | any)) go_left(c, start - 1, node2, placed, ms, nwmul, xsum2, rb);
            if (sep_m & (c->sep_tile | rb | any))
                go_right_entry(c, g->kids[n2->base], start, placed, ms, nwmul, xsum2, rb);
            give_back(c, letter);
        }
        if (c->oom) return;
    }
}

static void go_right(Ctx *c, int pos, uint32_t node, int start, int nplaced, int msum, int wmul,
                     int xsum, uint32_t rbits) {
    if (c->oom) return;
    const Graph *g = c->g;
    const Node *nd = &g->node[node];
    uint32_t m = nd->mask;
    uint32_t allowed = m & c->cross[pos] & (c->blanks ? ALL_LETTERS : rbits);
    if (!allowed) return;
    uint32_t acc = nd->accepts;
    const uint32_t *kids = g->kids + nd->base;
    int lmv = c->lm[pos], wmv = c->wm[pos], xs = c->xscore[pos];
    int nwmul = wmul * wmv;
    int end = c->rrun[pos];
    int placed = nplaced + 1;
    uint32_t right_gate = end < c->n ? c->cross[end] : 0;
    while (allowed) {
        uint32_t bit = allowed & (~allowed + 1);
        allowed ^= bit;
        int letter = __builtin_ctz(bit);
        uint32_t node2 = kids[pop(m & (bit - 1))];
        uint32_t a = acc & bit;
        int run_sum = 0; /* board tiles right of pos */
        if (!walk_run(c, &node2, &a, &run_sum, pos + 1, end, 1)) continue;
        uint32_t more = g->node[node2].mask & right_gate;
        int tv = c->values[letter] * lmv;
        c->buf[pos] = letter;
        int ms = msum + tv + run_sum;
        int xsum2 = xs < 0 ? xsum : xsum + (xs + tv) * wmv;
        if (a) emit(c, start, end - 1, placed, (long)ms * nwmul + xsum2, nwmul);
        if (more) {
            uint32_t any;
            uint32_t rb = take_tile(c, letter, bit, rbits, &any);
            if (more & (rb | any)) go_right(c, end, node2, start, placed, ms, nwmul, xsum2, rb);
            give_back(c, letter);
        }
        if (c->oom) return;
    }
}

/* The runs of board tiles around each square of the strip (c->tiles, cross, ... filled):
 * lrun[i] is where the run of tiles ending at i - 1 starts (i if none), rrun[i] where
 * the run starting at i + 1 ends (exclusive). */
static void strip_runs(Ctx *c) {
    int n = c->n;
    for (int i = 0; i < n; i++) c->lrun[i] = i > 0 && c->tiles[i - 1] ? c->lrun[i - 1] : i;
    for (int i = n - 1; i >= 0; i--) c->rrun[i] = i + 1 < n && c->tiles[i + 1] ? c->rrun[i + 1] : i + 1;
}

/* The strip's anchors, left to right, and for each the leftmost square its moves may use
 * (past the previous anchor: a move covering two anchors comes from the leftmost one). */
static int strip_anchors(Ctx *c, int empty_board, int *anchors, int *left_limits) {
    int n = c->n, count = 0, is_anchor[MAXN] = {0};
    if (empty_board) {
        if (c->line == n / 2) anchors[count++] = n / 2;
    } else {
        for (int i = 0; i < n; i++) {
            if (c->tiles[i]) continue;
            if (c->xscore[i] != NO_CROSS || (i > 0 && c->tiles[i - 1]) || (i + 1 < n && c->tiles[i + 1]))
                anchors[count++] = i;
        }
    }
    for (int k = 0; k < count; k++) is_anchor[anchors[k]] = 1;
    for (int k = 0; k < count; k++) {
        int p = c->lrun[anchors[k]] - 1;
        while (p >= 0 && !is_anchor[p] && !c->tiles[p]) p--;
        left_limits[k] = p + 1;
    }
    return count;
}

static uint32_t rack_bits_of(Ctx *c) {
    uint32_t bits = 0;
    for (int code = 1; code <= NLETTERS; code++)
        if (c->rack[code]) bits |= 1u << code;
    return bits;
}

/* Every move whose leftmost anchor is a. */
static void walk_anchor(Ctx *c, int a, int left_limit, uint32_t rack_bits) {
    int n = c->n;
    c->anchor = a;
    c->right_free = a + 1 >= n || !c->tiles[a + 1];
    c->down_single_skip = !c->across && c->xscore[a] != NO_CROSS;
    if (a + 1 >= n) {
        c->sep_gate = c->sep_tile = 0;
    } else if (c->tiles[a + 1]) {
        c->sep_gate = c->sep_tile = 1u << (c->tiles[a + 1] & LETTER_MASK);
    } else {
        c->sep_gate = c->cross[a + 1];
        c->sep_tile = 0;
    }
    c->left_limit = left_limit;
    go_left(c, a, 0, 0, 0, 1, 0, rack_bits);
}

static void walk_strip(Ctx *c, int empty_board) {
    int anchors[MAXN], limits[MAXN];
    strip_runs(c);
    int count = strip_anchors(c, empty_board, anchors, limits);
    uint32_t bits = rack_bits_of(c);
    for (int k = 0; k < count && !c->oom; k++) walk_anchor(c, anchors[k], limits[k], bits);
}

/* A score no move from anchor `a` can beat. A move places its tiles on a row of empty
 * squares from some leftmost one (not left of `limit`, the previous anchor's territory)
 * to some rightmost one, the anchor among them, none whose cross-set bars every letter
 * the rack can play (`playable`), at most the rack's tiles. For each such row of squares
 * the best the rack can do there: the word's board tiles times the word multiplier, the
 * rack's values paired highest with the squares where a point counts most (its letter
 * premium times the word multiplier, plus the cross word's multiplier), the cross words'
 * board tiles, the bingo bonus when the whole rack goes down. Which letter may go where
 * is not looked at: sound, and tight enough to leave most anchors unwalked. -1: the
 * anchor takes no tile of this rack. */
static long anchor_bound(Ctx *c, int a, int limit, int tiles, const int *values_desc, uint32_t playable) {
    int n = c->n, left[MAXN], right[MAXN], nl = 0, nr = 0;
    for (int i = a; i >= limit && nl < tiles; i--) { /* left[0] is the anchor */
        if (c->tiles[i]) continue;
        if (!(c->cross[i] & playable)) break;
        left[nl++] = i;
    }
    for (int i = a + 1; i < n && nr + 1 < tiles; i++) {
        if (c->tiles[i]) continue;
        if (!(c->cross[i] & playable)) break;
        right[nr++] = i;
    }
    long best = -1;
    for (int x = 0; x < nl; x++) {
        for (int y = 0; y <= nr && x + 1 + y <= tiles; y++) {
            int placed[MAXN], k = 0;
            for (int q = x; q >= 0; q--) placed[k++] = left[q];
            for (int q = 0; q < y; q++) placed[k++] = right[q];
            int first = c->lrun[placed[0]], last = c->rrun[placed[k - 1]]; /* the word: [first, last) */
            long board = 0, cross = 0, wmul = 1, eff[MAXN];
            for (int i = first; i < last; i++)
                if (c->tiles[i]) board += c->face[c->tiles[i]];
            for (int q = 0; q < k; q++) wmul *= c->wm[placed[q]];
            for (int q = 0; q < k; q++) {
                int i = placed[q], crossed = c->xscore[i] != NO_CROSS;
                if (crossed) cross += (long)c->xscore[i] * c->wm[i];
                long e = (long)c->lm[i] * (wmul + (crossed ? c->wm[i] : 0));
                int j = q; /* insertion, highest first */
                while (j > 0 && eff[j - 1] < e) { eff[j] = eff[j - 1]; j--; }
                eff[j] = e;
            }
            long bound = board * wmul + cross;
            for (int q = 0; q < k; q++) bound += eff[q] * values_desc[q];
            if (k == c->rack_size) bound += c->bingo_bonus;
            if (bound > best) best = bound;
        }
    }
    return best;
}

typedef struct {
    long bound;
    int across, line, anchor, limit;
} Job;

static int job_order(const void *pa, const void *pb) {
    const Job *a = pa, *b = pb;
    if (a->bound != b->bound) return a->bound < b->bound ? 1 : -1;
    if (a->across != b->across) return b->across - a->across;
    if (a->line != b->line) return a->line - b->line;
    return a->anchor - b->anchor;
}

/* Load strip (across, line) of the board into the context. */
static void load_strip(Ctx *c, int across, int line, const int *squares, const uint8_t *lm, const uint8_t *wm,
                       const uint32_t *ca, const int32_t *xa, const uint32_t *cd, const int32_t *xd) {
    int n = c->n;
    c->across = across;
    c->line = line;
    for (int i = 0; i < n; i++) {
        int sq = across ? line * n + i : i * n + line;
        c->tiles[i] = squares[sq];
        c->lm[i] = lm[sq];
        c->wm[i] = wm[sq];
        c->cross[i] = across ? ca[sq] : cd[sq];
        c->xscore[i] = across ? xa[sq] : xd[sq];
    }
}

/* Kept moves as bytes, best first for mode 3 (score, then board order). */
static PyObject *records(Ctx *c) {
    Py_ssize_t count = c->rec_n, size = (Py_ssize_t)c->stride * sizeof(int32_t);
    PyObject *out = PyBytes_FromStringAndSize(NULL, count * size);
    if (out == NULL) return NULL;
    char *dst = PyBytes_AS_STRING(out);
    if (c->mode != MODE_TOPN) {
        if (count) memcpy(dst, c->rec, (size_t)(count * size));
        return out;
    }
    /* Pop the heap worst first and fill from the end. */
    for (Py_ssize_t k = count - 1; k >= 0; k--) {
        int i = c->heap[0];
        memcpy(dst + k * size, slot(c, i), (size_t)size);
        c->heap[0] = c->heap[c->rec_n - 1];
        c->rec_n--;
        sift_down(c, 0);
    }
    c->rec_n = count;
    return out;
}

/* An int argument (a Python int in C int's range); -1 with an exception if not. */
static int arg_int(PyObject *o, int *out, const char *what) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < INT_MIN || v > INT_MAX) {
        PyErr_Format(PyExc_OverflowError, "%s out of range", what);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* Called on every position: the arguments are read by position (METH_FASTCALL), not
 * parsed from a format, which cost as much as the rest of the call's set-up. */
static PyObject *generate(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 19) return PyErr_Format(PyExc_TypeError, "generate() takes 19 arguments (%zd given)", nargs);
    PyObject *o_graph = args[0], *o_squares = args[1], *o_lm = args[3], *o_wm = args[4], *o_face = args[5];
    PyObject *crossobjs[5] = {args[6], args[7], args[8], args[9], args[10]}, *o_rack = args[12], *o_values = args[13];
    int n, full, rack_size, bingo_bonus, down_on_empty, mode, keep;
    if (arg_int(args[2], &n, "n") < 0 || (full = PyObject_IsTrue(args[11])) < 0 ||
        arg_int(args[14], &rack_size, "rack_size") < 0 || arg_int(args[15], &bingo_bonus, "bingo_bonus") < 0 ||
        (down_on_empty = PyObject_IsTrue(args[16])) < 0 || arg_int(args[17], &mode, "mode") < 0 ||
        arg_int(args[18], &keep, "keep") < 0)
        return NULL;
    Graph *g = as_graph(o_graph);
    if (g == NULL) return NULL;
    if (n < 2 || n > MAXN) return PyErr_Format(PyExc_ValueError, "board size %d out of range", n);
    if (mode < MODE_COUNT || mode > MODE_BEST) return PyErr_Format(PyExc_ValueError, "unknown mode %d", mode);
    if (mode == MODE_TOPN && keep < 1) return PyErr_Format(PyExc_ValueError, "keep %d out of range", keep);
    if (rack_size < 1 || rack_size > MAXN) return PyErr_Format(PyExc_ValueError, "rack size %d", rack_size);
    Ctx *c = PyMem_Calloc(1, sizeof(Ctx));
    if (c == NULL) return PyErr_NoMemory();
    int squares[MAXN * MAXN];
    Py_buffer v[2], cv[5];
    int got = 0, cgot = 0;
    PyObject *result = NULL, *recs = NULL;
    if (read_squares(o_squares, n, squares) < 0 || read_small(o_rack, c->rack, NLETTERS + 1, "rack") < 0 ||
        read_small(o_values, c->values, NLETTERS + 1, "values") < 0 || read_face(o_face, c->face) < 0 ||
        get_cross(crossobjs, cv, n, &cgot) < 0)
        goto done;
    for (int i = 0; i <= NLETTERS; i++) {
        if (c->rack[i] < 0 || c->rack[i] > MAXN) {
            PyErr_SetString(PyExc_ValueError, "rack counts out of range");
            goto done;
        }
    }
    {
        PyObject *objs[2] = {o_lm, o_wm};
        const char *names[2] = {"lm", "wm"};
        for (; got < 2; got++)
            if (get_exact(objs[got], &v[got], n * n, 0, names[got]) < 0) goto done;
    }
    /* The cross-sets first, kept in the caller's buffers: the walk reads them. */
    update_cross(g, squares, n, c->face, cv[0].buf, cv[1].buf, cv[2].buf, cv[3].buf, cv[4].buf, full);
    c->g = g;
    c->n = n;
    memcpy(c->reals, c->rack, sizeof c->reals);
    c->blanks = c->rack_blanks = c->rack[0];
    c->rack_size = rack_size;
    c->bingo_bonus = bingo_bonus;
    c->mode = mode;
    c->keep = keep;
    c->stride = 6 + n;
    {
        const uint8_t *lm = v[0].buf, *wm = v[1].buf;
        const uint32_t *ca = cv[1].buf, *cd = cv[3].buf;
        const int32_t *xa = cv[2].buf, *xd = cv[4].buf;
        int empty_board = 1;
        for (int i = 0; i < n * n; i++)
            if (squares[i]) { empty_board = 0; break; }
        if (mode == MODE_BEST) {
            /* Best first: every anchor of both directions with its bound, the highest
             * walked first; once the best score found beats a bound, no later anchor can
             * reach it. No count: the anchors not walked are not counted. */
            Job *jobs = PyMem_Malloc(sizeof(Job) * 2 * MAXN * MAXN);
            if (jobs == NULL) { PyErr_NoMemory(); goto done; }
            int njobs = 0, values_desc[MAXN] = {0}, tiles_in_rack = 0;
            for (int code = 0; code <= NLETTERS; code++)
                for (int k = 0; k < c->rack[code] && tiles_in_rack < MAXN; k++)
                    values_desc[tiles_in_rack++] = code ? c->values[code] : 0;
            for (int i = 0; i < tiles_in_rack; i++)
                for (int j = i + 1; j < tiles_in_rack; j++)
                    if (values_desc[j] > values_desc[i]) { int t = values_desc[i]; values_desc[i] = values_desc[j]; values_desc[j] = t; }
            uint32_t playable = c->rack[0] ? ALL_LETTERS : rack_bits_of(c);
            for (int across = 1; across >= 0; across--) {
                if (empty_board && !across && !down_on_empty) continue;
                for (int line = 0; line < n; line++) {
                    int anchors[MAXN], limits[MAXN];
                    load_strip(c, across, line, squares, lm, wm, ca, xa, cd, xd);
                    strip_runs(c);
                    int count = strip_anchors(c, empty_board, anchors, limits);
                    for (int k = 0; k < count; k++) {
                        Job *j = &jobs[njobs++];
                        j->bound = anchor_bound(c, anchors[k], limits[k], tiles_in_rack, values_desc, playable);
                        j->across = across;
                        j->line = line;
                        j->anchor = anchors[k];
                        j->limit = limits[k];
                    }
                }
            }
            qsort(jobs, (size_t)njobs, sizeof(Job), job_order);
            uint32_t bits = rack_bits_of(c);
            int loaded_across = -1, loaded_line = -1;
            for (int k = 0; k < njobs && !c->oom; k++) {
                if (c->has_best && jobs[k].bound < c->best) break;
                if (jobs[k].across != loaded_across || jobs[k].line != loaded_line) {
                    load_strip(c, jobs[k].across, jobs[k].line, squares, lm, wm, ca, xa, cd, xd);
                    strip_runs(c);
                    loaded_across = jobs[k].across;
                    loaded_line = jobs[k].line;
                }
                walk_anchor(c, jobs[k].anchor, jobs[k].limit, bits);
            }
            PyMem_Free(jobs);
            c->found = -1;
        } else {
            for (int across = 1; across >= 0 && !c->oom; across--) {
                if (empty_board && !across && !down_on_empty) continue;
                for (int line = 0; line < n && !c->oom; line++) {
                    load_strip(c, across, line, squares, lm, wm, ca, xa, cd, xd);
                    walk_strip(c, empty_board);
                }
                if (PyErr_CheckSignals() < 0) goto done; /* Ctrl-C on a long count */
            }
        }
    }
    if (c->oom) { PyErr_NoMemory(); goto done; }
    recs = records(c);
    if (recs == NULL) goto done;
    result = Py_BuildValue("(LiN)", c->found, c->stride, recs);
done:
    for (int i = 0; i < got; i++) PyBuffer_Release(&v[i]);
    for (int i = 0; i < cgot; i++) PyBuffer_Release(&cv[i]);
    PyMem_Free(c->rec);
    PyMem_Free(c->heap);
    PyMem_Free(c);
    return result;
}

static PyObject *checksum(PyObject *self, PyObject *args) {
    PyObject *objs[4];
    if (!PyArg_ParseTuple(args, "OOOO", &objs[0], &objs[1], &objs[2], &objs[3])) return NULL;
    Py_buffer views[4];
    int got = 0;
    PyObject *result = NULL;
    for (; got < 4; got++) {
        if (PyObject_GetBuffer(objs[got], &views[got], PyBUF_SIMPLE) < 0) goto done;
        if (views[got].len % 4) {
            got++;
            PyErr_SetString(PyExc_ValueError, "not an array of uint32");
            goto done;
        }
    }
    result = PyLong_FromUnsignedLongLong(fast_arrays(views));
done:
    for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    return result;
}

/* ------------------------------------------------------------------------------------ */
/* Building the automaton (solver.gaddag.build is the reference, and gives the same arrays). */

#define MAXWORD 255

typedef struct {
    /* the strings, sorted through idx */
    uint8_t *pool;
    size_t *off;
    uint8_t *len;
    uint32_t *idx;
    size_t count;
    /* registered (finished, unique) nodes and their edges */
    uint8_t *final;
    uint32_t *estart, *ecount;
    size_t nodes, node_cap;
    uint8_t *elabel;
    uint32_t *echild;
    size_t edges, edge_cap;
    /* the register: node ids by signature, open addressing */
    uint32_t *table;
    size_t table_cap;
    /* the path of open nodes */
    uint8_t ofinal[MAXWORD + 2];
    uint8_t olabel[MAXWORD + 2][27];
    uint32_t ochild[MAXWORD + 2][27];
    int on[MAXWORD + 2];
} Builder;

static Builder *sort_ctx;
static int cmp_strings(const void *pa, const void *pb) {
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    int la = sort_ctx->len[a], lb = sort_ctx->len[b];
    int r = memcmp(sort_ctx->pool + sort_ctx->off[a], sort_ctx->pool + sort_ctx->off[b], (size_t)(la < lb ? la : lb));
    return r ? r : la - lb;
}

static uint64_t sig_hash(int final, const uint8_t *labels, const uint32_t *children, int n) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)final;
    for (int i = 0; i < n; i++) {
        h = (h ^ labels[i]) * FAST_PRIME;
        h = (h ^ children[i]) * FAST_PRIME;
    }
    return h ^ (h >> 29);
}

static int table_grow(Builder *b);

/* The id of the registered node equal to open node d, registering it if new; -1: no memory. */
static int64_t register_node(Builder *b, int d) {
    int n = b->on[d];
    uint64_t h = sig_hash(b->ofinal[d], b->olabel[d], b->ochild[d], n);
    size_t mask = b->table_cap - 1, i = (size_t)h & mask;
    while (b->table[i] != UINT32_MAX) {
        uint32_t id = b->table[i];
        if (b->final[id] == b->ofinal[d] && b->ecount[id] == (uint32_t)n &&
            !memcmp(b->elabel + b->estart[id], b->olabel[d], (size_t)n) &&
            !memcmp(b->echild + b->estart[id], b->ochild[d], (size_t)n * sizeof(uint32_t)))
            return id;
        i = (i + 1) & mask;
    }
    if (b->nodes == b->node_cap) {
        size_t cap = b->node_cap * 2;
        if (resize(&b->final, cap) < 0 || resize(&b->estart, cap * sizeof(uint32_t)) < 0 ||
            resize(&b->ecount, cap * sizeof(uint32_t)) < 0)
            return -1;
        b->node_cap = cap;
    }
    if (b->edges + (size_t)n > b->edge_cap) {
        size_t cap = b->edge_cap * 2 + (size_t)n;
        if (resize(&b->elabel, cap) < 0 || resize(&b->echild, cap * sizeof(uint32_t)) < 0) return -1;
        b->edge_cap = cap;
    }
    uint32_t id = (uint32_t)b->nodes++;
    b->final[id] = b->ofinal[d];
    b->estart[id] = (uint32_t)b->edges;
    b->ecount[id] = (uint32_t)n;
    memcpy(b->elabel + b->edges, b->olabel[d], (size_t)n);
    memcpy(b->echild + b->edges, b->ochild[d], (size_t)n * sizeof(uint32_t));
    b->edges += (size_t)n;
    b->table[i] = id;
    if (b->nodes * 2 > b->table_cap && table_grow(b) < 0) return -1;
    return id;
}

static int table_grow(Builder *b) {
    size_t cap = b->table_cap * 2;
    uint32_t *t = PyMem_Malloc(cap * sizeof(uint32_t));
    if (!t) return -1;
    memset(t, 0xFF, cap * sizeof(uint32_t));
    for (size_t id = 0; id < b->nodes; id++) {
        uint64_t h = sig_hash(b->final[id], b->elabel + b->estart[id], b->echild + b->estart[id], (int)b->ecount[id]);
        size_t i = (size_t)h & (cap - 1);
        while (t[i] != UINT32_MAX) i = (i + 1) & (cap - 1);
        t[i] = (uint32_t)id;
    }
    PyMem_Free(b->table);
    b->table = t;
    b->table_cap = cap;
    return 0;
}

/* Close the open nodes deeper than `down_to`: each becomes a registered node. */
static int minimize(Builder *b, int *depth, int down_to) {
    for (int d = *depth; d > down_to; d--) {
        int64_t id = register_node(b, d);
        if (id < 0) return -1;
        b->ochild[d - 1][b->on[d - 1] - 1] = (uint32_t)id;
    }
    *depth = down_to;
    return 0;
}

static void builder_free(Builder *b) {
    PyMem_Free(b->pool); PyMem_Free(b->off); PyMem_Free(b->len); PyMem_Free(b->idx);
    PyMem_Free(b->final); PyMem_Free(b->estart); PyMem_Free(b->ecount);
    PyMem_Free(b->elabel); PyMem_Free(b->echild); PyMem_Free(b->table);
    PyMem_Free(b);
}

static PyObject *build(PyObject *self, PyObject *args) {
    Py_buffer words;
    if (!PyArg_ParseTuple(args, "y*", &words)) return NULL;
    const uint8_t *text = words.buf;
    Py_ssize_t size = words.len;
    PyObject *result = NULL;
    Builder *b = PyMem_Calloc(1, sizeof(Builder));
    if (!b) { PyBuffer_Release(&words); return PyErr_NoMemory(); }
    /* Count the strings and their bytes; every word 2+ letters A-Z. */
    size_t count = 0, bytes = 0;
    for (Py_ssize_t i = 0; i < size;) {
        Py_ssize_t j = i;
        while (j < size && text[j] != '\n') {
            if (text[j] < 'A' || text[j] > 'Z') {
                PyErr_Format(PyExc_ValueError, "byte %zd is not a letter A-Z", j);
                goto done;
            }
            j++;
        }
        Py_ssize_t L = j - i;
        if (L < 2 || L > MAXWORD - 1) {
            PyErr_Format(PyExc_ValueError, "a word of %zd letters at byte %zd", L, i);
            goto done;
        }
        count += (size_t)L;
        bytes += (size_t)(L - 1) * (size_t)(L + 1) + (size_t)L;
        i = j + 1;
    }
    if (count == 0 || count >= UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, count ? "too many words" : "no word");
        goto done;
    }
    b->pool = PyMem_Malloc(bytes);
    b->off = PyMem_Malloc(count * sizeof(size_t));
    b->len = PyMem_Malloc(count);
    b->idx = PyMem_Malloc(count * sizeof(uint32_t));
    if (!b->pool || !b->off || !b->len || !b->idx) { PyErr_NoMemory(); goto done; }
    /* The GADDAG strings of each word w: rev(w[:i]) SEP w[i:] for 0 < i < len, and rev(w). */
    size_t k = 0, at = 0;
    for (Py_ssize_t i = 0; i < size;) {
        Py_ssize_t j = i;
        while (j < size && text[j] != '\n') j++;
        int L = (int)(j - i);
        const uint8_t *w = text + i;
        for (int cut = 1; cut <= L; cut++) {
            b->off[k] = at;
            for (int q = cut - 1; q >= 0; q--) b->pool[at++] = (uint8_t)(w[q] - 'A' + 1);
            if (cut < L) {
                b->pool[at++] = 0;
                for (int q = cut; q < L; q++) b->pool[at++] = (uint8_t)(w[q] - 'A' + 1);
            }
            b->len[k] = (uint8_t)(at - b->off[k]);
            b->idx[k] = (uint32_t)k;
            k++;
        }
        i = j + 1;
    }
    b->count = count;
    sort_ctx = b; /* the GIL is held: no other build runs meanwhile */
    qsort(b->idx, count, sizeof(uint32_t), cmp_strings);
    sort_ctx = NULL;
    b->node_cap = 1024;
    b->edge_cap = 4096;
    b->table_cap = 2048;
    b->final = PyMem_Malloc(b->node_cap);
    b->estart = PyMem_Malloc(b->node_cap * sizeof(uint32_t));
    b->ecount = PyMem_Malloc(b->node_cap * sizeof(uint32_t));
    b->elabel = PyMem_Malloc(b->edge_cap);
    b->echild = PyMem_Malloc(b->edge_cap * sizeof(uint32_t));
    b->table = PyMem_Malloc(b->table_cap * sizeof(uint32_t));
    if (!b->final || !b->estart || !b->ecount || !b->elabel || !b->echild || !b->table) {
        PyErr_NoMemory();
        goto done;
    }
    memset(b->table, 0xFF, b->table_cap * sizeof(uint32_t));
    /* Daciuk et al.'s incremental construction over the sorted strings. */
    int depth = 0;
    const uint8_t *prev = NULL;
    int prev_len = 0;
    b->on[0] = 0;
    b->ofinal[0] = 0;
    for (size_t s = 0; s < count; s++) {
        const uint8_t *cur = b->pool + b->off[b->idx[s]];
        int L = b->len[b->idx[s]], p = 0, limit = L < prev_len ? L : prev_len;
        while (p < limit && prev[p] == cur[p]) p++;
        if (p == L && L == prev_len) continue; /* the same string again */
        if (minimize(b, &depth, p) < 0) { PyErr_NoMemory(); goto done; }
        for (int q = p; q < L; q++) {
            b->olabel[depth][b->on[depth]] = cur[q];
            b->ochild[depth][b->on[depth]] = UINT32_MAX; /* set when the child is registered */
            b->on[depth]++;
            depth++;
            b->on[depth] = 0;
            b->ofinal[depth] = 0;
        }
        b->ofinal[depth] = 1;
        prev = cur;
        prev_len = L;
    }
    if (minimize(b, &depth, 0) < 0) { PyErr_NoMemory(); goto done; }
    int64_t root = register_node(b, 0);
    if (root < 0) { PyErr_NoMemory(); goto done; }
    /* Number the nodes breadth-first from the root, children in label order. */
    {
        size_t nodes = b->nodes;
        uint32_t *order = PyMem_Malloc(nodes * sizeof(uint32_t)), *queue = PyMem_Malloc(nodes * sizeof(uint32_t));
        PyObject *o[4] = {PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(nodes * 4)),
                          PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(nodes * 4)),
                          PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(nodes * 4)), NULL};
        if (!order || !queue || !o[0] || !o[1] || !o[2]) {
            PyMem_Free(order); PyMem_Free(queue);
            Py_XDECREF(o[0]); Py_XDECREF(o[1]); Py_XDECREF(o[2]);
            if (!PyErr_Occurred()) PyErr_NoMemory();
            goto done;
        }
        memset(order, 0xFF, nodes * sizeof(uint32_t));
        size_t head = 0, tail = 0, arcs = 0;
        order[root] = 0;
        queue[tail++] = (uint32_t)root;
        uint32_t *mask = (uint32_t *)PyBytes_AS_STRING(o[0]), *acc = (uint32_t *)PyBytes_AS_STRING(o[1]),
                 *base = (uint32_t *)PyBytes_AS_STRING(o[2]);
        for (; head < tail; head++) {
            uint32_t id = queue[head];
            base[head] = (uint32_t)arcs;
            uint32_t m = 0, a = 0, first = b->estart[id], end = first + b->ecount[id];
            for (uint32_t e = first; e < end; e++) {
                uint32_t c = b->echild[e], bit = 1u << b->elabel[e];
                m |= bit;
                if (b->final[c]) a |= bit;
                arcs++;
            }
            /* Numbered as the reference does: the letters' children first, the separator's
             * last (it writes the separator '^', after 'Z'). */
            for (uint32_t pass = 0; pass < 2; pass++) {
                for (uint32_t e = first; e < end; e++) {
                    if ((b->elabel[e] == 0) != (pass == 1)) continue;
                    uint32_t c = b->echild[e];
                    if (order[c] == UINT32_MAX) {
                        order[c] = (uint32_t)tail;
                        queue[tail++] = c;
                    }
                }
            }
            mask[head] = m;
            acc[head] = a;
        }
        o[3] = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(arcs * 4));
        for (int i = 0; i < 3 && o[3] && tail < nodes; i++) /* a node no path reaches is left out */
            if (_PyBytes_Resize(&o[i], (Py_ssize_t)(tail * 4)) < 0) { Py_CLEAR(o[3]); }
        if (o[3]) {
            uint32_t *kids = (uint32_t *)PyBytes_AS_STRING(o[3]);
            size_t x = 0;
            for (size_t h = 0; h < tail; h++) {
                uint32_t id = queue[h];
                for (uint32_t e = b->estart[id]; e < b->estart[id] + b->ecount[id]; e++) kids[x++] = order[b->echild[e]];
            }
            result = Py_BuildValue("(NNNN)", o[0], o[1], o[2], o[3]);
        } else {
            Py_DECREF(o[0]); Py_DECREF(o[1]); Py_DECREF(o[2]);
        }
        PyMem_Free(order);
        PyMem_Free(queue);
    }
done:
    builder_free(b);
    PyBuffer_Release(&words);
    return result;
}

static PyMethodDef methods[] = {
    {"build", build, METH_VARARGS, "The GADDAG arrays of sorted words (solver.gaddag.build)."},
    {"checksum", checksum, METH_VARARGS, "The checksum of four uint32 arrays (solver.gaddag.fast64)."},
    {"cross_update", cross_update, METH_VARARGS, "Recompute the cross-sets of the changed lines (module doc)."},
    {"generate", (PyCFunction)(void (*)(void))generate, METH_FASTCALL,
     "Every legal placement of a rack, in one call (module doc)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "solver._kernel",
                                    "Compiled move generator (see solver/_kernel.c).", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) {
    for (int u = 0; u <= MAXN; u++) {
        binom[u][0] = 1;
        for (int b = 1; b <= u; b++) binom[u][b] = binom[u - 1][b - 1] + (b < u ? binom[u - 1][b] : 0);
    }
    if (PyType_Ready(&GraphType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&GraphType);
    if (PyModule_AddObject(m, "Graph", (PyObject *)&GraphType) < 0) {
        Py_DECREF(&GraphType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
