"""Matrix products of the semantic index (``relaykit.models.cache.index``) that run on the calling thread and, for
matrix-vector products, without giving the GIL up.

With several threads calling a cache, a thread that gives the GIL up for a few microseconds waits for another's
whole turn to get it back, and an OpenBLAS product large enough to wake its thread pool makes those threads spin
on every core. The products here are cut into blocks that stay under both bounds (see ``HELD`` and ``GEMM_WORK``);
results are bit for bit those of one product. The index calls them through this module (``products.rowdot``), so
that tests can count the products by replacing ``MATVEC`` and ``DOT`` here.
"""

from __future__ import annotations

import numpy as np

from relaykit.embeddings.base import Vectors

DOT = np.dot  # matrix-matrix products (``matmul``): a BLAS call that gives the GIL up, whatever its size
MATVEC = np.matmul  # matrix-vector products: the same BLAS sgemv as ``np.dot`` (bit for bit), keeping the GIL
HELD = 500
"""Rows per matrix-vector product (``MATVEC``), at most: numpy (2.4) runs ``matmul`` of a matrix of at most 500
rows and a vector without giving the GIL up, and gives it up above that (501 rows, whatever the columns;
measured with callgrind, counting ``PyEval_SaveThread``); ``np.dot`` gives it up around every BLAS call
(``cblas_matrixproduct``), whatever its size. A thread that gives the GIL up for a few microseconds among busy
threads waits for another's whole turn to get it back: a semantic miss + store gave it up 8.8 times in its
products alone. Blocks this small also stay under OpenBLAS's bound for threading a matrix-vector product, so
its thread pool is never woken (its spinning threads cost every thread of the process on a busy machine)."""
GEMM_WORK = 1 << 18
"""Multiply-adds per matrix-matrix block at most (``matmul``): OpenBLAS runs a product this small on the calling
thread (above it, it wakes its thread pool, and numpy gives the GIL up)."""


def rowdot(matrix: Vectors, vector: Vectors, out: Vectors | None = None) -> Vectors:
    """``matrix @ vector`` (float32) as BLAS matrix-vector products of at most ``HELD`` rows each, which keep the
    GIL (into ``out``, a float32 vector of ``len(matrix)``, when given)."""
    n = matrix.shape[0]
    if n <= HELD:
        found: Vectors = MATVEC(matrix, vector) if out is None else MATVEC(matrix, vector, out=out)
        return found
    if out is None:
        out = np.empty(n, dtype=np.float32)
    for start in range(0, n, HELD):
        MATVEC(matrix[start: start + HELD], vector, out=out[start: start + HELD])
    return out


def matmul(a: Vectors, b_t: Vectors) -> Vectors:
    """``a @ b_t.T`` (``b_t`` holds the columns of the right factor as rows) in blocks of ``a``'s rows small enough
    for OpenBLAS to keep on this thread (``GEMM_WORK``); one product when ``a`` is large (a bulk build)."""
    b = b_t.T
    if a.shape[0] >= 1024:
        return a @ b
    step = max(1, GEMM_WORK // max(1, b_t.shape[0] * b_t.shape[1]))
    if a.shape[0] <= step:
        out: Vectors = DOT(a, b)
        return out
    out = np.empty((a.shape[0], b_t.shape[0]), dtype=np.float32)
    for start in range(0, a.shape[0], step):
        DOT(a[start: start + step], b, out=out[start: start + step])
    return out
