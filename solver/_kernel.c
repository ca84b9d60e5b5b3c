/*
 * solver._kernel: the move generator's hot loop in C, over the same flat arrays as the
 * pure-Python walker solver.movegen._generate_strip_py (which stays the reference: both
 * are run on the whole reference corpus by the tests).
 *
 * generate_strip(mask, accepts, base, kids, tiles, cross, xscore, lm, wm, anchors, rack,
 *                values, face, rack_size, bingo_bonus, across, line, recorder) -> int
 *
 * The GADDAG arrays are buffers of uint32 (array('I')); the strip arrays are sequences of
 * small ints. Each move is counted; a move scoring at least recorder.threshold is passed
 * to recorder.add(score, across, line, start, word, placed), after which the threshold is
 * read again (a top-moves recorder raises it).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define MAXN 32
#define NLETTERS 26
#define LETTER_MASK 0x3F
#define BLANK_BIT 0x40
#define ALL_LETTERS 0x7FFFFFEu

typedef struct {
    const uint32_t *mask, *accepts, *base, *kids;
    Py_ssize_t nodes, arcs;
    int n;
    int tiles[MAXN], xscore[MAXN], lm[MAXN], wm[MAXN], lrun[MAXN], rrun[MAXN], buf[MAXN];
    uint32_t cross[MAXN];
    int rack[NLETTERS + 1], values[NLETTERS + 1], face[128];
    int rack_size, bingo_bonus, across, line;
    int anchor, right_free, left_limit, down_single_skip;
    uint32_t sep_gate, sep_tile;
    long long found;
    PyObject *recorder, *add;
    double threshold;
    int error;
} Ctx;

static int read_threshold(Ctx *c) {
    PyObject *t = PyObject_GetAttrString(c->recorder, "threshold");
    if (t == NULL) return -1;
    double v = PyFloat_AsDouble(t);
    Py_DECREF(t);
    if (v == -1.0 && PyErr_Occurred()) return -1;
    c->threshold = v;
    return 0;
}

static void emit(Ctx *c, int start, int end, int nplaced, long score) {
    if (nplaced == 1 && c->down_single_skip) return; /* the across pass has this one */
    if (nplaced == c->rack_size) score += c->bingo_bonus;
    c->found++;
    if ((double)score < c->threshold || c->error) return;
    PyObject *word = PyList_New(end - start + 1);
    if (word == NULL) { c->error = 1; return; }
    for (int i = start; i <= end; i++) {
        PyObject *v = PyLong_FromLong(c->buf[i]);
        if (v == NULL) { Py_DECREF(word); c->error = 1; return; }
        PyList_SET_ITEM(word, i - start, v);
    }
    PyObject *res = PyObject_CallFunction(c->add, "lOiiOi", score, c->across ? Py_True : Py_False,
                                          c->line, start, word, nplaced);
    Py_DECREF(word);
    if (res == NULL) { c->error = 1; return; }
    Py_DECREF(res);
    if (read_threshold(c) < 0) c->error = 1;
}

/* Child of node along the label `bit`. Every node index the walk uses comes from here (or
 * is the root), so checking here keeps a damaged automaton from reading out of bounds. */
static inline uint32_t child(Ctx *c, uint32_t node, uint32_t m, uint32_t bit) {
    uint32_t idx = c->base[node] + (uint32_t)__builtin_popcount(m & (bit - 1));
    if (idx >= (uint32_t)c->arcs || c->kids[idx] >= (uint32_t)c->nodes) {
        c->error = 2;
        return 0;
    }
    return c->kids[idx];
}

/* Follow the board tiles at q = from, from + step, ... up to `to` (excluded) from *node:
 * 0 when the GADDAG has no such path; else *node, *a (the last arc's accept bit) and
 * *sum (their face values) are updated and buf holds the tiles. */
static inline int walk_run(Ctx *c, uint32_t *node, uint32_t *a, int *sum, int from, int to, int step) {
    for (int q = from; q != to; q += step) {
        int sq = c->tiles[q];
        uint32_t mm = c->mask[*node], bb = 1u << (sq & LETTER_MASK);
        if (!(mm & bb)) return 0;
        *a = c->accepts[*node] & bb;
        *node = child(c, *node, mm, bb);
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
        if (a) emit(c, start, end - 1, nplaced, (long)msum * wmul + xsum);
        if (end < c->n && c->mask[node] && (rbits || c->rack[0]))
            go_right(c, end, node, start, nplaced, msum, wmul, xsum, rbits);
    } else if (rbits || c->rack[0]) {
        go_right(c, pos, node, start, nplaced, msum, wmul, xsum, rbits);
    }
}

static void go_left(Ctx *c, int pos, uint32_t node, int nplaced, int msum, int wmul, int xsum,
                    uint32_t rbits) {
    if (c->error) return;
    int blanks = c->rack[0];
    uint32_t any_real = blanks ? ALL_LETTERS : 0, any_blank = blanks > 1 ? ALL_LETTERS : 0;
    uint32_t m = c->mask[node];
    uint32_t allowed = (blanks ? (m & c->cross[pos]) : (m & c->cross[pos] & rbits)) & ALL_LETTERS;
    if (!allowed) return;
    uint32_t acc = c->accepts[node];
    int lmv = c->lm[pos], wmv = c->wm[pos], xs = c->xscore[pos];
    int nwmul = wmul * wmv;
    int start = c->lrun[pos];
    int placed = nplaced + 1;
    uint32_t left_gate = (start - 1 >= c->left_limit) ? c->cross[start - 1] : 0;
    while (allowed) {
        uint32_t bit = allowed & (~allowed + 1);
        allowed ^= bit;
        int letter = __builtin_ctz(bit);
        uint32_t node2 = child(c, node, m, bit);
        uint32_t a = acc & bit;
        int run_sum = 0; /* board tiles left of pos, read right to left */
        if (!walk_run(c, &node2, &a, &run_sum, pos - 1, start - 1, -1)) continue;
        uint32_t m2 = c->mask[node2];
        uint32_t lg = m2 & left_gate;
        uint32_t sep = 0, sep_m = 0;
        if ((m2 & 1) && c->sep_gate) {
            sep = child(c, node2, m2, 1);
            sep_m = c->mask[sep] & c->sep_gate;
        }
        int cnt = c->rack[letter];
        if (cnt) {
            int tv = c->values[letter] * lmv;
            c->buf[pos] = letter;
            int ms = msum + tv + run_sum;
            int xsum2 = xs < 0 ? xsum : xsum + (xs + tv) * wmv;
            if (a && c->right_free) emit(c, start, c->anchor, placed, (long)ms * nwmul + xsum2);
            if (lg || sep_m) {
                c->rack[letter] = cnt - 1;
                uint32_t rb = cnt == 1 ? (rbits ^ bit) : rbits;
                if (lg & (rb | any_real)) go_left(c, start - 1, node2, placed, ms, nwmul, xsum2, rb);
                if (sep_m & (c->sep_tile | rb | any_real))
                    go_right_entry(c, sep, start, placed, ms, nwmul, xsum2, rb);
                c->rack[letter] = cnt;
            }
        }
        if (blanks) {
            c->buf[pos] = letter | BLANK_BIT;
            int ms = msum + run_sum;
            int xsum2 = xs < 0 ? xsum : xsum + xs * wmv;
            if (a && c->right_free) emit(c, start, c->anchor, placed, (long)ms * nwmul + xsum2);
            if (lg || sep_m) {
                c->rack[0] = blanks - 1;
                uint32_t other = rbits | any_blank;
                if (lg & other) go_left(c, start - 1, node2, placed, ms, nwmul, xsum2, rbits);
                if (sep_m & (c->sep_tile | other))
                    go_right_entry(c, sep, start, placed, ms, nwmul, xsum2, rbits);
                c->rack[0] = blanks;
            }
        }
        if (c->error) return;
    }
}

static void go_right(Ctx *c, int pos, uint32_t node, int start, int nplaced, int msum, int wmul,
                     int xsum, uint32_t rbits) {
    if (c->error) return;
    int blanks = c->rack[0];
    uint32_t any_real = blanks ? ALL_LETTERS : 0, any_blank = blanks > 1 ? ALL_LETTERS : 0;
    uint32_t m = c->mask[node];
    uint32_t allowed = (blanks ? (m & c->cross[pos]) : (m & c->cross[pos] & rbits)) & ALL_LETTERS;
    if (!allowed) return;
    uint32_t acc = c->accepts[node];
    int lmv = c->lm[pos], wmv = c->wm[pos], xs = c->xscore[pos];
    int nwmul = wmul * wmv;
    int end = c->rrun[pos];
    int placed = nplaced + 1;
    uint32_t right_gate = end < c->n ? c->cross[end] : 0;
    while (allowed) {
        uint32_t bit = allowed & (~allowed + 1);
        allowed ^= bit;
        int letter = __builtin_ctz(bit);
        uint32_t node2 = child(c, node, m, bit);
        uint32_t a = acc & bit;
        int run_sum = 0; /* board tiles right of pos */
        if (!walk_run(c, &node2, &a, &run_sum, pos + 1, end, 1)) continue;
        uint32_t more = c->mask[node2] & right_gate;
        int cnt = c->rack[letter];
        if (cnt) {
            int tv = c->values[letter] * lmv;
            c->buf[pos] = letter;
            int ms = msum + tv + run_sum;
            int xsum2 = xs < 0 ? xsum : xsum + (xs + tv) * wmv;
            if (a) emit(c, start, end - 1, placed, (long)ms * nwmul + xsum2);
            if (more) {
                uint32_t rb = cnt == 1 ? (rbits ^ bit) : rbits;
                if (more & (rb | any_real)) {
                    c->rack[letter] = cnt - 1;
                    go_right(c, end, node2, start, placed, ms, nwmul, xsum2, rb);
                    c->rack[letter] = cnt;
                }
            }
        }
        if (blanks) {
            c->buf[pos] = letter | BLANK_BIT;
            int ms = msum + run_sum;
            int xsum2 = xs < 0 ? xsum : xsum + xs * wmv;
            if (a) emit(c, start, end - 1, placed, (long)ms * nwmul + xsum2);
            if (more & (rbits | any_blank)) {
                c->rack[0] = blanks - 1;
                go_right(c, end, node2, start, placed, ms, nwmul, xsum2, rbits);
                c->rack[0] = blanks;
            }
        }
        if (c->error) return;
    }
}

/* Copy a sequence of small ints into out[0..len-1]; returns its length or -1. */
static Py_ssize_t read_ints(PyObject *seq, int *out, Py_ssize_t max_len, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > max_len) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd items, at most %zd", what, len, max_len);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < len; i++) {
        long v = PyLong_AsLong(items[i]);
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return len;
}

static int get_u32(PyObject *obj, Py_buffer *view, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return -1;
    if (view->len % 4) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s is not an array of uint32", what);
        return -1;
    }
    return 0;
}

static PyObject *generate_strip(PyObject *self, PyObject *args) {
    PyObject *o_mask, *o_acc, *o_base, *o_kids, *o_tiles, *o_cross, *o_xscore, *o_lm, *o_wm;
    PyObject *o_anchors, *o_rack, *o_values, *o_face, *recorder;
    int rack_size, bingo_bonus, across, line;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOiipiO", &o_mask, &o_acc, &o_base, &o_kids, &o_tiles,
                          &o_cross, &o_xscore, &o_lm, &o_wm, &o_anchors, &o_rack, &o_values,
                          &o_face, &rack_size, &bingo_bonus, &across, &line, &recorder))
        return NULL;
    static Ctx zero;
    Ctx *c = PyMem_Malloc(sizeof(Ctx));
    if (c == NULL) return PyErr_NoMemory();
    *c = zero;
    Py_buffer views[4];
    int got = 0;
    PyObject *objs[4] = {o_mask, o_acc, o_base, o_kids};
    const char *names[4] = {"mask", "accepts", "base", "kids"};
    PyObject *result = NULL;
    int anchors[MAXN], cross_tmp[MAXN];
    for (; got < 4; got++)
        if (get_u32(objs[got], &views[got], names[got]) < 0) goto done;
    c->mask = views[0].buf;
    c->accepts = views[1].buf;
    c->base = views[2].buf;
    c->kids = views[3].buf;
    c->nodes = views[0].len / 4;
    c->arcs = views[3].len / 4;
    if (c->nodes == 0 || views[1].len / 4 != c->nodes || views[2].len / 4 != c->nodes) {
        PyErr_SetString(PyExc_ValueError, "damaged lexicon: the GADDAG arrays differ in length");
        goto done;
    }
    Py_ssize_t n = read_ints(o_tiles, c->tiles, MAXN, "tiles");
    if (n < 0) goto done;
    c->n = (int)n;
    if (read_ints(o_cross, cross_tmp, MAXN, "cross") != n || read_ints(o_xscore, c->xscore, MAXN, "xscore") != n ||
        read_ints(o_lm, c->lm, MAXN, "lm") != n || read_ints(o_wm, c->wm, MAXN, "wm") != n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "strip arrays differ in length");
        goto done;
    }
    for (int i = 0; i < c->n; i++) {
        int t = c->tiles[i];
        if (t < 0 || (t & ~BLANK_BIT) > NLETTERS || (t && !(t & LETTER_MASK))) {
            PyErr_Format(PyExc_ValueError, "square %d holds the bad tile code %d", i, t);
            goto done;
        }
        c->cross[i] = (uint32_t)cross_tmp[i];
    }
    Py_ssize_t n_anchors = read_ints(o_anchors, anchors, MAXN, "anchors");
    if (n_anchors < 0) goto done;
    if (read_ints(o_rack, c->rack, NLETTERS + 1, "rack") != NLETTERS + 1 ||
        read_ints(o_values, c->values, NLETTERS + 1, "values") != NLETTERS + 1 ||
        read_ints(o_face, c->face, 128, "face") != 128) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "rack, values or face has the wrong length");
        goto done;
    }
    c->rack_size = rack_size;
    c->bingo_bonus = bingo_bonus;
    c->across = across;
    c->line = line;
    c->recorder = recorder;
    c->add = PyObject_GetAttrString(recorder, "add");
    if (c->add == NULL || read_threshold(c) < 0) goto done;
    for (int i = 0; i < c->n; i++) {
        int j = i - 1;
        while (j >= 0 && c->tiles[j]) j--;
        c->lrun[i] = j + 1;
        j = i + 1;
        while (j < c->n && c->tiles[j]) j++;
        c->rrun[i] = j;
    }
    uint32_t rack_bits = 0;
    for (int code = 1; code <= NLETTERS; code++)
        if (c->rack[code]) rack_bits |= 1u << code;
    int is_anchor[MAXN] = {0};
    for (Py_ssize_t k = 0; k < n_anchors; k++) {
        if (anchors[k] < 0 || anchors[k] >= c->n) {
            PyErr_SetString(PyExc_ValueError, "anchor off the strip");
            goto done;
        }
        is_anchor[anchors[k]] = 1;
    }
    for (Py_ssize_t k = 0; k < n_anchors && !c->error; k++) {
        if (PyErr_CheckSignals() < 0) { c->error = 1; break; } /* Ctrl-C on a long count */
        int a = anchors[k];
        c->anchor = a;
        c->right_free = a + 1 >= c->n || !c->tiles[a + 1];
        c->down_single_skip = !c->across && c->xscore[a] != -1;
        if (a + 1 >= c->n) {
            c->sep_gate = c->sep_tile = 0;
        } else if (c->tiles[a + 1]) {
            c->sep_gate = c->sep_tile = 1u << (c->tiles[a + 1] & LETTER_MASK);
        } else {
            c->sep_gate = c->cross[a + 1];
            c->sep_tile = 0;
        }
        int p = c->lrun[a] - 1;
        while (p >= 0 && !is_anchor[p] && !c->tiles[p]) p--;
        c->left_limit = p + 1;
        go_left(c, a, 0, 0, 0, 1, 0, rack_bits);
    }
    if (c->error == 2 && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "damaged lexicon: a GADDAG index is out of range");
    if (!c->error) result = PyLong_FromLongLong(c->found);
done:
    Py_XDECREF(c->add);
    for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    PyMem_Free(c);
    return result;
}

static PyMethodDef methods[] = {
    {"generate_strip", generate_strip, METH_VARARGS, "Walk every move of one strip (see module doc)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "solver._kernel",
                                    "Compiled hot loop of the move generator.", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
