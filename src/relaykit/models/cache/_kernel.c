/* The semantic index's search as one C call (relaykit.models.cache.kernel; the numpy form in index.View is the
 * reference and the fallback).
 *
 * A search in numpy is some forty small calls, each with its own Python overhead, and with four writer threads
 * on two cores that overhead was most of what a semantic miss costs over an exact one. Here the same steps run
 * in one call, and its arithmetic (the query's projection and the centroids' scores; then the probed cells'
 * filter and the exact scores) runs with the GIL given up, in two stretches of some ten microseconds each, so
 * that another thread runs Python meanwhile. (The numpy form keeps the GIL: its products last a few
 * microseconds, less than what getting the GIL back among busy threads costs; see products.py.) Four writers,
 * interleaved rounds, five paired runs: 1.72x exact with the GIL given up, 1.90x with it kept. Where the process
 * may run on one CPU only, there is nothing to run meanwhile but another thread's turn, and giving the GIL up
 * only adds thread switches (one core, 4 writers, interleaved rounds: 601 us of CPU per semantic call against
 * 561 with it kept): set_release(False), which relaykit.models.cache.kernel calls there, keeps it.
 *
 * Without the GIL, writers go on: what the search reads is what index.View says a search may read without the
 * index lock. Each array is held through its buffer (a writer that grows one makes a new one; the old stays
 * alive until released here); each cell's size is read before its rows, with the GIL; a row replaced or moved
 * meanwhile may be scored in a torn state, which costs a miss or names a row whose own score is then computed
 * exactly: every hit is checked again against the stored vector and the guards, never served from here. Every
 * row number read from a cell is checked against the bounds before its row is read.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#define KERNEL_VERSION 3 /* relaykit.models.cache.kernel refuses a build of another version */
#define MAX_PROBES 64
#define RELEASE_WORK 32768 /* multiply-adds: below this a small group's scan keeps the GIL (a few microseconds) */

static int release_gil = 1; /* give the GIL up around the arithmetic (set_release) */

/* Py_BEGIN_ALLOW_THREADS / Py_END_ALLOW_THREADS, where release_gil asks for it */
#define BEGIN_RELEASE {                                                                                             \
    PyThreadState *_save = release_gil ? PyEval_SaveThread() : NULL;
#define END_RELEASE                                                                                                 \
    if (_save != NULL) PyEval_RestoreThread(_save);                                                                 \
    }

/* The loops below are compiled twice where GCC can pick a clone at load time (x86-64 Linux): for CPUs with AVX2
 * and FMA (x86-64-v3), and for any x86-64; elsewhere once, for the target's baseline. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && __GNUC__ >= 11
#define WIDE __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define WIDE
#endif

#if defined(__GNUC__)
typedef float v8f __attribute__((vector_size(32)));

/* a . b over n floats: four running sums of eight lanes (unaligned loads through memcpy) */
static inline float dot(const float *a, const float *b, Py_ssize_t n) {
    v8f s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0}, x, y;
    Py_ssize_t i = 0;
    for (; i + 32 <= n; i += 32) {
        memcpy(&x, a + i, 32); memcpy(&y, b + i, 32); s0 += x * y;
        memcpy(&x, a + i + 8, 32); memcpy(&y, b + i + 8, 32); s1 += x * y;
        memcpy(&x, a + i + 16, 32); memcpy(&y, b + i + 16, 32); s2 += x * y;
        memcpy(&x, a + i + 24, 32); memcpy(&y, b + i + 24, 32); s3 += x * y;
    }
    for (; i + 8 <= n; i += 8) {
        memcpy(&x, a + i, 32); memcpy(&y, b + i, 32); s0 += x * y;
    }
    v8f s = (s0 + s1) + (s2 + s3);
    float t = ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]));
    for (; i < n; i++) {
        t += a[i] * b[i];
    }
    return t;
}
#else
static inline float dot(const float *a, const float *b, Py_ssize_t n) {
    float s0 = 0.f, s1 = 0.f, s2 = 0.f, s3 = 0.f;
    Py_ssize_t i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    float t = (s0 + s2) + (s1 + s3);
    for (; i < n; i++) {
        t += a[i] * b[i];
    }
    return t;
}
#endif

/* out[j] = rows[j] . v for j < count (rows of ``width`` floats) */
WIDE static void matvec(const float *rows, Py_ssize_t count, Py_ssize_t width, const float *v, float *out) {
    for (Py_ssize_t j = 0; j < count; j++) {
        out[j] = dot(rows + j * width, v, width);
    }
}

typedef struct {
    Py_ssize_t row;
    float score;
} Hit;

static int by_score_desc(const void *x, const void *y) {
    float a = ((const Hit *)x)->score, b = ((const Hit *)y)->score;
    if (a > b) return -1;
    if (a < b) return 1;
    Py_ssize_t ra = ((const Hit *)x)->row, rb = ((const Hit *)y)->row;
    return (ra > rb) - (ra < rb);
}

/* the rows of one cell within the bound: row[:filter_dim] . pq - row[filter_dim] >= floor_score (the last column
 * holds half the row's squared norm), appended to ``cands`` with their ids */
WIDE static void filter_cell(const float *rows, const long long *ids, Py_ssize_t size, Py_ssize_t filter_dim,
                             const float *pq, float floor_score, Hit *cands, Py_ssize_t *ncand) {
    Py_ssize_t width = filter_dim + 1;
    for (Py_ssize_t i = 0; i < size; i++) {
        const float *row = rows + i * width;
        float s = dot(row, pq, filter_dim) - row[filter_dim];
        if (s >= floor_score) {
            cands[*ncand].row = (Py_ssize_t)ids[i];
            cands[*ncand].score = s;
            (*ncand)++;
        }
    }
}

/* the candidates' exact scores (rows outside [0, n) skipped: filed after the view was taken, or damaged) */
WIDE static void rescore(const float *full, Py_ssize_t dim, const float *q, const Hit *cands, Py_ssize_t ncand,
                         Py_ssize_t n, float threshold, Hit *hits, Py_ssize_t *count) {
    for (Py_ssize_t i = 0; i < ncand; i++) {
        Py_ssize_t row = cands[i].row;
        if (row < 0 || row >= n) continue;
        float sim = dot(full + row * dim, q, dim);
        if (sim >= threshold) {
            hits[*count].row = row;
            hits[*count].score = sim;
            (*count)++;
        }
    }
}

/* move the k highest-scoring of hits[0, count) to the front (Hoare's selection; k < count) */
static void select_top(Hit *hits, Py_ssize_t count, Py_ssize_t k) {
    Py_ssize_t lo = 0, hi = count - 1;
    while (lo < hi) {
        float pivot = hits[lo + (hi - lo) / 2].score;
        Py_ssize_t i = lo, j = hi;
        while (i <= j) {
            while (hits[i].score > pivot) i++;
            while (hits[j].score < pivot) j--;
            if (i <= j) {
                Hit t = hits[i];
                hits[i] = hits[j];
                hits[j] = t;
                i++;
                j--;
            }
        }
        if (k - 1 <= j) {
            hi = j;
        } else if (k - 1 >= i) {
            lo = i;
        } else {
            break;
        }
    }
}

/* A C-contiguous buffer of ``ndim`` dimensions whose items are ``itemsize`` bytes of kind ``kind`` ('f': float,
 * 'i': signed integer), writable when ``flags`` asks (PyBUF_WRITABLE); on failure a Python error is set and -1
 * returned. */
static int take_as(PyObject *obj, Py_buffer *view, int ndim, Py_ssize_t itemsize, char kind, int flags,
                   const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | flags) < 0) {
        return -1;
    }
    const char *format = view->format == NULL ? "B" : view->format;
    char last = format[strlen(format) - 1];
    int kind_ok = kind == 'f' ? last == 'f' : (last == 'q' || last == 'l' || last == 'h');
    if (view->ndim != ndim || view->itemsize != itemsize || !kind_ok) {
        PyErr_Format(PyExc_TypeError, "%s: expected a C-contiguous %d-dimensional array of %s%d", what, ndim,
                     kind == 'f' ? "float" : "int", (int)(8 * itemsize));
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int take(PyObject *obj, Py_buffer *view, int ndim, Py_ssize_t itemsize, char kind, const char *what) {
    return take_as(obj, view, ndim, itemsize, kind, 0, what);
}

/* (row, similarity) pairs, most similar first */
static PyObject *pairs(Hit *hits, Py_ssize_t count) {
    qsort(hits, (size_t)count, sizeof(Hit), by_score_desc);
    PyObject *out = PyList_New(count);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *pair = Py_BuildValue("(nd)", hits[i].row, (double)hits[i].score);
        if (pair == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, pair);
    }
    return out;
}

/* rows [start, stop) of ``full`` at cosine >= threshold with ``q``, appended to ``hits`` */
WIDE static void scan(const float *full, Py_ssize_t dim, const float *q, Py_ssize_t start, Py_ssize_t stop,
                 float threshold, Hit *hits, Py_ssize_t *count) {
    for (Py_ssize_t r = start; r < stop; r++) {
        float sim = dot(full + r * dim, q, dim);
        if (sim >= threshold) {
            hits[*count].row = r;
            hits[*count].score = sim;
            (*count)++;
        }
    }
}

PyDoc_STRVAR(above_doc,
"above(full, q, n, threshold) -> list of (row, similarity)\n\n"
"The rows of full[:n] whose dot product with q reaches threshold, most similar first.");

static PyObject *above(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *full_obj, *q_obj;
    Py_ssize_t n;
    float threshold;
    if (!PyArg_ParseTuple(args, "OOnf", &full_obj, &q_obj, &n, &threshold)) return NULL;
    Py_buffer full, q;
    if (take(full_obj, &full, 2, 4, 'f', "full") < 0) return NULL;
    if (take(q_obj, &q, 1, 4, 'f', "q") < 0) {
        PyBuffer_Release(&full);
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t dim = full.shape[1];
    if (q.shape[0] != dim || n < 0 || n > full.shape[0]) {
        PyErr_SetString(PyExc_ValueError, "above: q's length or n does not fit the matrix");
        goto done;
    }
    Hit *hits = PyMem_RawMalloc(sizeof(Hit) * (size_t)(n > 0 ? n : 1));
    if (hits == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t count = 0;
    if (n * dim >= RELEASE_WORK) {
        BEGIN_RELEASE
        scan((const float *)full.buf, dim, (const float *)q.buf, 0, n, threshold, hits, &count);
        END_RELEASE
    } else {
        scan((const float *)full.buf, dim, (const float *)q.buf, 0, n, threshold, hits, &count);
    }
    result = pairs(hits, count);
    PyMem_RawFree(hits);
done:
    PyBuffer_Release(&full);
    PyBuffer_Release(&q);
    return result;
}

PyDoc_STRVAR(search_doc,
"search(q, projection_t, centroids, cells, full, n, tail, threshold, probes, filter_dim, bound, rerank)\n"
"-> list of (row, similarity)\n\n"
"A large group's search (index.View._candidates, then the exact scores of the candidates and of the rows from\n"
"tail to n): q projected by projection_t, the probes cells whose centroids are nearest, the rows of those cells\n"
"within bound of q in their first filter_dim projected dimensions (at most rerank, nearest first, below n),\n"
"and of those and the rows [tail, n) the ones whose dot product with q reaches threshold, most similar first.\n"
"cells is the list of the group's cells (objects with size, rows and ids).");

static PyObject *search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *q_obj, *proj_obj, *cent_obj, *cells, *full_obj;
    Py_ssize_t n, tail, probes, filter_dim, rerank;
    float threshold;
    double bound;
    if (!PyArg_ParseTuple(args, "OOOO!Onnfnndn", &q_obj, &proj_obj, &cent_obj, &PyList_Type, &cells, &full_obj, &n,
                          &tail, &threshold, &probes, &filter_dim, &bound, &rerank)) {
        return NULL;
    }
    Py_buffer q, proj, cent, full;
    int held = 0; /* buffers taken so far, in the order above */
    PyObject *result = NULL;
    float *pq = NULL, *near = NULL;
    Hit *cands = NULL, *hits = NULL;
    Py_buffer cell_rows[MAX_PROBES], cell_ids[MAX_PROBES];
    Py_ssize_t cell_size[MAX_PROBES];
    int cells_held = 0;

    if (take(q_obj, &q, 1, 4, 'f', "q") < 0) goto done;
    held = 1;
    if (take(proj_obj, &proj, 2, 4, 'f', "projection_t") < 0) goto done;
    held = 2;
    if (take(cent_obj, &cent, 2, 4, 'f', "centroids") < 0) goto done;
    held = 3;
    if (take(full_obj, &full, 2, 4, 'f', "full") < 0) goto done;
    held = 4;
    Py_ssize_t dim = full.shape[1], pdim = proj.shape[0], count_cells = cent.shape[0];
    if (q.shape[0] != dim || proj.shape[1] != dim || cent.shape[1] != pdim || n < 0 || n > full.shape[0] ||
        tail < 0 || tail > n || filter_dim < 1 || filter_dim > pdim || probes < 1 || probes > MAX_PROBES ||
        rerank < 1 || PyList_GET_SIZE(cells) != count_cells) {
        PyErr_SetString(PyExc_ValueError, "search: the arrays' shapes or the parameters do not fit together");
        goto done;
    }
    const float *qv = (const float *)q.buf;

    /* the query's projection, and the probes cells whose centroids score highest */
    pq = PyMem_RawMalloc(sizeof(float) * (size_t)pdim);
    if (pq == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    near = PyMem_RawMalloc(sizeof(float) * (size_t)(count_cells > 0 ? count_cells : 1));
    if (near == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t best[MAX_PROBES];
    float best_score[MAX_PROBES];
    Py_ssize_t found = 0;
    BEGIN_RELEASE /* the arithmetic without the GIL (see the top of this file) */
    matvec((const float *)proj.buf, pdim, dim, qv, pq);
    matvec((const float *)cent.buf, count_cells, pdim, pq, near);
    for (Py_ssize_t c = 0; c < count_cells; c++) {
        float s = near[c];
        if (found < probes) {
            best[found] = c;
            best_score[found] = s;
            found++;
        } else {
            Py_ssize_t low = 0; /* replace the lowest kept score when this one is higher */
            for (Py_ssize_t k = 1; k < found; k++) {
                if (best_score[k] < best_score[low]) low = k;
            }
            if (s > best_score[low]) {
                best[low] = c;
                best_score[low] = s;
            }
        }
    }

    END_RELEASE
    /* each probed cell's size first (a writer sets it last), then its arrays */
    Py_ssize_t total = 0;
    for (Py_ssize_t k = 0; k < found; k++) {
        PyObject *cell = PyList_GET_ITEM(cells, best[k]);
        PyObject *size_obj = PyObject_GetAttrString(cell, "size");
        if (size_obj == NULL) goto done;
        Py_ssize_t size = PyLong_AsSsize_t(size_obj);
        Py_DECREF(size_obj);
        if (size == -1 && PyErr_Occurred()) goto done;
        PyObject *rows_obj = PyObject_GetAttrString(cell, "rows");
        if (rows_obj == NULL) goto done;
        int bad = take(rows_obj, &cell_rows[cells_held], 2, 4, 'f', "cell rows");
        Py_DECREF(rows_obj);
        if (bad < 0) goto done;
        PyObject *ids_obj = PyObject_GetAttrString(cell, "ids");
        if (ids_obj == NULL) {
            PyBuffer_Release(&cell_rows[cells_held]);
            goto done;
        }
        bad = take(ids_obj, &cell_ids[cells_held], 1, 8, 'i', "cell ids");
        Py_DECREF(ids_obj);
        if (bad < 0) {
            PyBuffer_Release(&cell_rows[cells_held]);
            goto done;
        }
        cells_held++;
        if (cell_rows[k].shape[1] != filter_dim + 1) {
            PyErr_SetString(PyExc_ValueError, "search: a cell's rows are not filter_dim + 1 wide");
            goto done;
        }
        /* a size past the arrays reads what they hold (as numpy's slices do); below zero, nothing */
        size = size < 0 ? 0 : size;
        size = size > cell_rows[k].shape[0] ? cell_rows[k].shape[0] : size;
        size = size > cell_ids[k].shape[0] ? cell_ids[k].shape[0] : size;
        cell_size[k] = size;
        total += size;
    }

    int no_memory = 0;
    Py_ssize_t count = 0;
    BEGIN_RELEASE
    /* rows within the bound in the first filter_dim dimensions: row . q - |row|^2 / 2 >= (|q|^2 - bound) / 2 */
    float kept2 = dot(pq, pq, filter_dim);
    float floor_score = (float)(((double)kept2 - bound) / 2.0);
    cands = PyMem_RawMalloc(sizeof(Hit) * (size_t)(total > 0 ? total : 1));
    if (cands == NULL) {
        no_memory = 1;
    } else {
        Py_ssize_t ncand = 0;
        for (Py_ssize_t k = 0; k < found; k++) {
            filter_cell((const float *)cell_rows[k].buf, (const long long *)cell_ids[k].buf, cell_size[k], filter_dim,
                        pq, floor_score, cands, &ncand);
        }
        if (ncand > rerank) { /* the nearest rerank, in no particular order */
            select_top(cands, ncand, rerank);
            ncand = rerank;
        }
        /* exact scores: the candidates filed before the view (below n), then the pending tail */
        Py_ssize_t room = ncand + (n - tail);
        hits = PyMem_RawMalloc(sizeof(Hit) * (size_t)(room > 0 ? room : 1));
        if (hits == NULL) {
            no_memory = 1;
        } else {
            const float *fv = (const float *)full.buf;
            rescore(fv, dim, qv, cands, ncand, n, threshold, hits, &count);
            scan(fv, dim, qv, tail, n, threshold, hits, &count);
        }
    }
    END_RELEASE
    if (no_memory) {
        PyErr_NoMemory();
        goto done;
    }
    result = pairs(hits, count);

done:
    for (int k = 0; k < cells_held; k++) {
        PyBuffer_Release(&cell_rows[k]);
        PyBuffer_Release(&cell_ids[k]);
    }
    if (held >= 4) PyBuffer_Release(&full);
    if (held >= 3) PyBuffer_Release(&cent);
    if (held >= 2) PyBuffer_Release(&proj);
    if (held >= 1) PyBuffer_Release(&q);
    PyMem_RawFree(pq);
    PyMem_RawFree(near);
    PyMem_RawFree(cands);
    PyMem_RawFree(hits);
    return result;
}

/* see file_doc */
WIDE static void file_rows(const float *full, Py_ssize_t dim, Py_ssize_t start, Py_ssize_t stop,
                           const float *projection_t, Py_ssize_t pdim, const float *centroids, Py_ssize_t count_cells,
                           float *proj, float *norm2, short *cell_of, Py_ssize_t filter_dim) {
    for (Py_ssize_t r = start; r < stop; r++) {
        float *p = proj + r * pdim;
        matvec(projection_t, pdim, dim, full + r * dim, p);
        norm2[r] = dot(p, p, filter_dim);
        Py_ssize_t best = 0;
        float best_score = 0.f;
        for (Py_ssize_t c = 0; c < count_cells; c++) {
            float score = dot(centroids + c * pdim, p, pdim);
            if (c == 0 || score > best_score) {
                best = c;
                best_score = score;
            }
        }
        cell_of[r] = (short)best;
    }
}

PyDoc_STRVAR(file_doc,
"file(full, start, stop, projection_t, centroids, proj, norm2, cell_of, filter_dim)\n\n"
"A batch of new rows (index.GroupIndex._file_pending): for each row r in [start, stop), proj[r] = projection_t @\n"
"full[r], norm2[r] = the squared norm of proj[r]'s first filter_dim dimensions, and cell_of[r] = the centroid\n"
"nearest proj[r] (the first of equals), written in place.");

static PyObject *file(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *full_obj, *proj_t_obj, *cent_obj, *proj_obj, *norm2_obj, *cell_obj;
    Py_ssize_t start, stop, filter_dim;
    if (!PyArg_ParseTuple(args, "OnnOOOOOn", &full_obj, &start, &stop, &proj_t_obj, &cent_obj, &proj_obj, &norm2_obj,
                          &cell_obj, &filter_dim)) {
        return NULL;
    }
    Py_buffer b[6];
    int held = 0;
    PyObject *result = NULL;
    if (take(full_obj, &b[0], 2, 4, 'f', "full") < 0) goto done;
    held = 1;
    if (take(proj_t_obj, &b[1], 2, 4, 'f', "projection_t") < 0) goto done;
    held = 2;
    if (take(cent_obj, &b[2], 2, 4, 'f', "centroids") < 0) goto done;
    held = 3;
    if (take_as(proj_obj, &b[3], 2, 4, 'f', PyBUF_WRITABLE, "proj") < 0) goto done;
    held = 4;
    if (take_as(norm2_obj, &b[4], 1, 4, 'f', PyBUF_WRITABLE, "norm2") < 0) goto done;
    held = 5;
    if (take_as(cell_obj, &b[5], 1, 2, 'i', PyBUF_WRITABLE, "cell_of") < 0) goto done;
    held = 6;
    Py_ssize_t dim = b[0].shape[1], pdim = b[1].shape[0], count_cells = b[2].shape[0];
    if (start < 0 || stop < start || stop > b[0].shape[0] || stop > b[3].shape[0] || stop > b[4].shape[0] ||
        stop > b[5].shape[0] || b[1].shape[1] != dim || b[2].shape[1] != pdim || b[3].shape[1] != pdim ||
        count_cells < 1 || count_cells > 32767 || filter_dim < 1 || filter_dim > pdim) {
        PyErr_SetString(PyExc_ValueError, "file: the arrays' shapes or the rows do not fit together");
        goto done;
    }
    BEGIN_RELEASE /* only the writer holding the index lock touches these rows */
    file_rows((const float *)b[0].buf, dim, start, stop, (const float *)b[1].buf, pdim, (const float *)b[2].buf,
              count_cells, (float *)b[3].buf, (float *)b[4].buf, (short *)b[5].buf, filter_dim);
    END_RELEASE
    result = Py_NewRef(Py_None);
done:
    for (int k = held - 1; k >= 0; k--) {
        PyBuffer_Release(&b[k]);
    }
    return result;
}

PyDoc_STRVAR(set_release_doc,
"set_release(flag)\n\n"
"Whether the calls give the GIL up around their arithmetic (True when the module loads). Keeping it is faster\n"
"where the process may run on one CPU only: there is no other core to run another thread meanwhile.");

static PyObject *set_release(PyObject *self, PyObject *flag) {
    (void)self;
    int value = PyObject_IsTrue(flag);
    if (value < 0) return NULL;
    release_gil = value;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(releases_doc, "releases() -> bool\n\nWhether the calls give the GIL up (see set_release).");

static PyObject *releases(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return PyBool_FromLong(release_gil);
}

static PyMethodDef methods[] = {
    {"set_release", set_release, METH_O, set_release_doc},
    {"releases", releases, METH_NOARGS, releases_doc},
    {"above", above, METH_VARARGS, above_doc},
    {"search", search, METH_VARARGS, search_doc},
    {"file", file, METH_VARARGS, file_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernel", "The semantic index's search in one call (see relaykit.models.cache.kernel).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "VERSION", KERNEL_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
