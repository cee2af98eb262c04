"""The in-process semantic index of ``Cached``: one growable matrix per semantic group, updated incrementally
from the store's change cursor, bounded in rows and groups (least recently used groups are evicted).

Small groups are scored exactly in one pass over a view of the matrix (no copy). Large groups are searched
in three steps. Rows are projected to ``PROJECTED_DIM`` dimensions (a random projection) and filed under the
nearest of up to ``CELLS`` cells (centroids drawn from the rows, then moved to their rows' means by a few
rounds of k-means; an inverted file whose cells each keep the first ``FILTER_DIM`` dimensions of their rows'
projections contiguous): a query looks only at the rows of its ``PROBES`` nearest cells, so its cost does not
grow with the group; of those it keeps the rows whose distance in those dimensions is within ``FILTER_SLACK``
times what the threshold allows there (by the Johnson-Lindenstrauss bound a true match fails this with
probability about one in a billion; the cells are chosen in all ``PROJECTED_DIM``, which finds more), at most
``RERANK`` of them, nearest first; those are scored exactly. Rows added since the last batch wait "pending"
(neither projected nor filed), scored exactly by every query, and are projected and filed ``LOOSE`` at a
time (one batch costs about what one row did). A missed candidate costs a miss, never a wrong answer: every
hit is re-checked against the stored vector and the guards. The cells are drawn again whenever the group
has doubled since they were drawn. A search reads a ``View`` of the index taken under its lock and runs
without the lock (see ``View``). Where ``make install`` compiled it, the search and the filing of a batch run as
single C calls (``relaykit.models.cache.kernel``), the steps above unchanged; the numpy code here is their
reference and their fallback.
"""

from __future__ import annotations

import itertools
import os
import secrets
import threading
import weakref
from collections import OrderedDict
from collections.abc import Hashable, Iterable
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from relaykit.embeddings.base import Vectors
from relaykit.models.cache import kernel, products

PROJECTED_DIM = 64
FILTER_DIM = 32  # a cell keeps the first this many projected dimensions of its rows: what a query scores there
FILTER_SLACK = 3.3  # chi-square(32)/32 exceeds 3.3 with probability ~1e-9 (a true match dropped: a miss)
EXACT_BELOW = 2048  # rows; smaller groups are scored exactly in one pass
RERANK = 256  # projected candidates scored exactly, at most
CELLS = 512  # inverted-file cells of a large group, at most
ROWS_PER_CELL = 64  # at least, on average (a group of 2,048 rows has 32 cells)
PROBES = 5  # cells a query looks in
LLOYD_ROUNDS = 5  # rounds of k-means that move the drawn centroids to their rows' means
# (5 rounds and 5 probes found 99.7% of 1,500 paraphrases at 100k rows, 2 rounds and 6 probes 99.9%, on 3/4 of
# the rows a query scores)
HEADROOM = 8  # a bulk load allocates 1/HEADROOM spare rows, so the next writes do not copy the matrix
LOOSE = 32  # rows added to a large group wait pending (scored exactly) until this many are filed at once

Ids = npt.NDArray[np.int64]
_NO_ROWS: Ids = np.zeros(0, dtype=np.int64)
_MINUS_ONE: Vectors = np.full(1, -1.0, dtype=np.float32)


def _projection(dim: int) -> Vectors:
    rng = np.random.default_rng(dim)  # deterministic: the same projection for the same dimension
    matrix: Vectors = (rng.standard_normal((dim, PROJECTED_DIM)) / np.sqrt(PROJECTED_DIM)).astype(np.float32)
    return matrix


_MAX = np.maximum.reduce  # what ``ndarray.max`` runs, without its Python wrapper (~1.2k instructions a call)


def _bound(threshold: float) -> float:
    """The squared distance a match at ``threshold`` may lie at in a cell's ``FILTER_DIM`` projected dimensions
    (their expected share of the full squared distance ``2 - 2 cos``, times ``FILTER_SLACK``)."""
    return FILTER_SLACK * FILTER_DIM / PROJECTED_DIM * max(2.0 - 2.0 * threshold, 1e-3)


def _unit(rows: Vectors) -> Vectors:
    out: Vectors = (rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-6)).astype(np.float32)
    return out


class _Cell:
    """One inverted-file cell: its rows' ids and, contiguous and growable, their projections extended by a
    last column of half their squared norms, so that one product scores a query against the whole cell."""

    def __init__(self, ids: Ids, proj: Vectors, norm2: Vectors) -> None:
        self.size = 0
        self.ids = np.zeros(0, dtype=np.int64)
        self.rows = np.zeros((0, FILTER_DIM + 1), dtype=np.float32)
        self.extend(ids, proj, norm2)

    def extend(self, ids: Ids, proj: Vectors, norm2: Vectors) -> None:
        need = self.size + len(ids)
        self._reserve(need)
        self.ids[self.size: need] = ids
        self.rows[self.size: need, :FILTER_DIM] = proj[:, :FILTER_DIM]
        self.rows[self.size: need, FILTER_DIM] = norm2 / 2.0
        self.size = need

    def append(self, row: int, extended: Vectors) -> None:
        """File one row: ``extended`` holds its first ``FILTER_DIM`` projected dimensions and half their squared
        norm (a batch files each of its rows this way: two item writes, where a slice per cell took six calls)."""
        size = self.size
        self._reserve(size + 1)
        self.ids[size] = row
        self.rows[size] = extended
        self.size = size + 1  # last: a search reads the size first, then the rows below it

    def _reserve(self, need: int) -> None:
        if need > len(self.ids):  # room for 1/HEADROOM more (a cell filled at a build takes rows next), or double
            capacity = max(16, need + need // HEADROOM, self.size * 2)
            grown_ids = np.empty(capacity, dtype=np.int64)  # not zeroed: nothing past ``size`` is read
            grown_ids[: self.size] = self.ids[: self.size]
            grown = np.empty((capacity, FILTER_DIM + 1), dtype=np.float32)
            grown[: self.size] = self.rows[: self.size]
            self.ids, self.rows = grown_ids, grown

    def remove(self, row: int) -> None:
        found = np.flatnonzero(self.ids[: self.size] == row)
        if found.size:
            at, last = int(found[0]), self.size - 1
            self.ids[at], self.rows[at] = self.ids[last], self.rows[last]
            self.size = last

    @property
    def nbytes(self) -> int:
        return int(self.ids.nbytes + self.rows.nbytes)


class GroupIndex:
    """Keys and vectors of one semantic group (float32 rows plus their projection).

    Rows added since the last batch (from ``tail`` on, plus replaced rows in ``moved``) are "pending": neither
    projected nor filed in a cell, scored exactly by every query; they are projected and filed ``LOOSE`` at a
    time, so that a write costs a row copy and a batch is one product per step.
    """

    def __init__(self) -> None:
        self.keys: list[str] = []
        self.rows: dict[str, int] = {}
        self.cursor = 0  # the store's change cursor this index has read up to
        self.version = -1  # the namespace version it was last brought up to
        self._full = np.zeros((0, 0), dtype=np.float32)
        self._proj = np.zeros((0, PROJECTED_DIM), dtype=np.float32)
        self._norm2 = np.zeros(0, dtype=np.float32)
        self._cell = np.zeros(0, dtype=np.int16)  # each filed row's inverted-file cell (-1: not filed)
        self._centroids: Vectors | None = None
        self._cells: list[_Cell] = []
        self._drawn_at = 0  # rows when the cells were drawn
        self._tail = 0  # rows from here on are pending (new since the last batch)
        self._moved: dict[int, None] = {}  # rows before the tail replaced since the last batch: pending too
        self._projection_t: Vectors | None = None  # the random projection, one row per projected dimension

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def nbytes(self) -> int:
        """Bytes held by the matrices (allocated capacity), keys not counted."""
        own = self._full.nbytes + self._proj.nbytes + self._norm2.nbytes + self._cell.nbytes
        return int(own + sum(cell.nbytes for cell in self._cells))

    @property
    def pending(self) -> int:
        """Rows not projected and filed yet (scored exactly by every query)."""
        return len(self.keys) - self._tail + len(self._moved)

    def _grow(self, need: int, dim: int) -> None:
        capacity = self._full.shape[0]
        if self._full.shape[1] != dim:
            size = max(need + need // HEADROOM, 64)
            self._full = np.zeros((size, dim), dtype=np.float32)
            self._proj = np.zeros((size, PROJECTED_DIM), dtype=np.float32)
            self._norm2 = np.zeros(size, dtype=np.float32)
            self._cell = np.full(size, -1, dtype=np.int16)
            self._projection_t = np.ascontiguousarray(_projection(dim).T)
            return
        if need <= capacity:
            return
        size = max(need, capacity * 3 // 2)
        for name in ("_full", "_proj", "_norm2", "_cell"):
            old = getattr(self, name)
            new = np.empty((size, *old.shape[1:]), dtype=old.dtype)
            new[: len(self.keys)] = old[: len(self.keys)]
            setattr(self, name, new)

    def add(self, keys: list[str], vectors: Vectors) -> None:
        """Add rows (a key already present has its row replaced, unless its vector is the same). Rows of
        another dimension than the group's first are ignored."""
        if not keys:
            return
        dim = vectors.shape[1]
        if self.keys and self._full.shape[1] != dim:
            return
        if any(key in self.rows for key in keys):  # a row already here with the same vector is not touched
            # (a row another thread took in first, the usual case): its bytes compared (np.array_equal cost ~5 us)
            known, full = self.rows, self._full
            fresh = [i for i, key in enumerate(keys)
                     if key not in known or full[known[key]].tobytes() != vectors[i].tobytes()]
            if not fresh:
                return
            if len(fresh) < len(keys):
                keys, vectors = [keys[i] for i in fresh], vectors[fresh]
        self._grow(len(self.keys) + len(keys), dim)
        start = len(self.keys)
        rows = [self._row(key) for key in keys]
        if len(self.keys) - start == len(rows):  # every key new (rows start, start + 1, ...): one slice
            self._full[start: start + len(rows)] = vectors
        else:
            self._full[np.asarray(rows)] = vectors
        if self._centroids is None:
            return
        if len(self.keys) >= 2 * self._drawn_at:  # the group has doubled: draw the cells again at the next search
            self._centroids, self._cells = None, []
        elif self.pending >= LOOSE:
            self._file_pending()

    def _row(self, key: str) -> int:
        """The row of ``key`` (a new one for a new key); a replaced row leaves its cell and becomes pending."""
        row = self.rows.get(key)
        if row is None:
            row = self.rows[key] = len(self.keys)
            self.keys.append(key)
        elif row < self._tail and row not in self._moved:
            cell = int(self._cell[row])
            if self._centroids is not None and cell >= 0:
                self._cells[cell].remove(row)
            self._cell[row] = -1
            self._moved[row] = None
        return row

    def _pending_rows(self) -> Ids:
        if not self._moved:
            return np.arange(self._tail, len(self.keys), dtype=np.int64)
        moved = np.fromiter(self._moved, dtype=np.int64, count=len(self._moved))
        return np.concatenate([moved, np.arange(self._tail, len(self.keys), dtype=np.int64)])

    def _project_pending(self) -> Ids:
        """Project the pending rows (which stop being pending); returns them."""
        assert self._projection_t is not None
        rows = self._pending_rows()
        if rows.size:
            # the usual batch is the tail alone: read and written through slices (no gathered copies)
            at: slice | Ids = slice(self._tail, len(self.keys)) if not self._moved else rows
            projected = products.matmul(self._full[at], self._projection_t)
            self._proj[at] = projected
            kept = projected[:, :FILTER_DIM]  # the squared norm of what a cell keeps
            self._norm2[at] = np.einsum("ij,ij->i", kept, kept)
        self._tail, self._moved = len(self.keys), {}
        return rows

    def _file_pending(self) -> None:
        """Project the pending rows and file each under its nearest cell."""
        assert self._centroids is not None
        fast = kernel.KERNEL
        if fast is not None and not self._moved:  # the usual batch, the tail: projected and placed in one call
            start, stop = self._tail, len(self.keys)
            fast.file(self._full, start, stop, self._projection_t, self._centroids, self._proj, self._norm2,
                      self._cell, FILTER_DIM)
            self._tail = stop
            rows = np.arange(start, stop, dtype=np.int64)
            proj, cells = self._proj[start: stop], self._cell[start: stop]
        else:
            rows = self._project_pending()
            if not rows.size:
                return
            proj = self._proj[rows]
            cells = np.argmax(products.matmul(proj, self._centroids), axis=1)
            self._cell[rows] = cells
        extended = np.empty((len(rows), FILTER_DIM + 1), dtype=np.float32)
        extended[:, :FILTER_DIM] = proj[:, :FILTER_DIM]
        extended[:, FILTER_DIM] = self._norm2[rows] / 2.0
        for row, cell, line in zip(rows.tolist(), cells.tolist(), extended):
            self._cells[cell].append(row, line)

    def keep_last(self, limit: int) -> None:
        """Drop all but the ``limit`` most recently added rows."""
        if len(self.keys) <= limit:
            return
        self._project_pending()
        start = len(self.keys) - limit
        self.keys = self.keys[start:]
        self.rows = {key: i for i, key in enumerate(self.keys)}
        self._full = self._full[start: start + limit].copy()
        self._proj = self._proj[start: start + limit].copy()
        self._norm2 = self._norm2[start: start + limit].copy()
        self._cell = self._cell[start: start + limit].copy()
        self._tail = limit
        self._centroids, self._cells = None, []  # row numbers changed: filed again at the next search

    def search(self, query: Vectors, threshold: float, limit: int = 8) -> list[tuple[str, float]]:
        """Up to ``limit`` (key, similarity) pairs with cosine >= ``threshold``, most similar first."""
        return self.view().search(query, threshold, limit)

    def view(self) -> View:
        """What a search reads, as it is now (a large group's cells are drawn first when due). Take it under
        the lock that guards this index; its search may then run without the lock (see ``View``)."""
        n = len(self.keys)
        if n >= EXACT_BELOW and self._centroids is None:
            self._build_cells()
        pending = self._pending_rows() if self._moved else None
        return View(self.keys, n, self._full, self._tail, pending, self._cells, self._centroids, self._projection_t)

    def _assign(self, centroids: Vectors) -> None:
        """File every row under its nearest centroid (``_cell``), in blocks."""
        n = len(self.keys)
        for start in range(0, n, 8192):
            block = self._proj[start: min(n, start + 8192)]
            self._cell[start: start + len(block)] = np.argmax(block @ centroids.T, axis=1)

    def _build_cells(self) -> Vectors:
        """Centroids drawn from the rows (seeded) and moved to their rows' means (``LLOYD_ROUNDS`` of k-means:
        cells of even size, so that a query's nearest cells hold few rows and its match is likelier among
        them), every row filed under its nearest."""
        self._project_pending()
        n = len(self.keys)
        rng = np.random.default_rng(n)
        count = min(CELLS, max(1, n // ROWS_PER_CELL))
        centroids = _unit(self._proj[rng.choice(n, size=count, replace=False)])
        for _ in range(LLOYD_ROUNDS):  # each row to its nearest centroid, each centroid to its rows' mean
            self._assign(centroids)
            sums = np.zeros_like(centroids)
            np.add.at(sums, self._cell[:n], self._proj[:n])
            moved = np.flatnonzero(np.any(sums != 0.0, axis=1))  # a centroid that lost every row stays
            centroids[moved] = _unit(sums[moved])
        self._assign(centroids)
        order = np.argsort(self._cell[:n], kind="stable")
        bounds = np.searchsorted(self._cell[:n][order], np.arange(len(centroids) + 1))
        self._cells = [_Cell(ids, self._proj[ids], self._norm2[ids])
                       for ids in (order[a:b].astype(np.int64) for a, b in itertools.pairwise(bounds))]
        self._centroids, self._drawn_at = centroids, n
        return centroids


class View(NamedTuple):
    """A group index as it was when taken (``GroupIndex.view``), searchable without its lock while writers go on
    (a named tuple: immutable like a frozen dataclass, built in a quarter of the time, once per semantic lookup).

    What a writer changes later is either outside the view (rows from ``n`` on, arrays and lists replaced by
    new ones) or a cell's rows (filed, or moved out) and a replaced row's vector, changed in place: a search
    racing with those may score a row twice, skip it or name the wrong key for it, and so miss; it never
    serves a wrong answer, since every hit is re-checked against the stored vector and the guards.
    """

    keys: list[str]
    n: int
    full: Vectors
    tail: int
    pending: Ids | None  # when rows were replaced since the last batch: those and the rows from ``tail`` on
    cells: list[_Cell]
    centroids: Vectors | None
    projection_t: Vectors | None

    def search(self, query: Vectors, threshold: float, limit: int = 8) -> list[tuple[str, float]]:
        """Up to ``limit`` (key, similarity) pairs with cosine >= ``threshold``, most similar first."""
        n = self.n
        if n == 0 or query.size != self.full.shape[1]:
            return []
        small = n < EXACT_BELOW or self.centroids is None  # scored exactly, every row
        fast = kernel.KERNEL  # the compiled search: the same steps in one call (see relaykit.models.cache.kernel)
        if fast is not None and (small or self.pending is None):
            q = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
            if small:
                return self._pairs(fast.above(self.full, q, n, threshold), limit)
            return self._pairs(fast.search(q, self.projection_t, self.centroids, self.cells, self.full, n, self.tail,
                                           threshold, PROBES, FILTER_DIM, _bound(threshold), RERANK), limit)
        q = np.asarray(query, dtype=np.float32)
        if small:  # a view of the live rows: scoring them copies nothing
            sims = products.rowdot(self.full[:n], q)
            above = np.flatnonzero(sims >= threshold)
            return self._best(above, sims[above], limit)
        filed = self._candidates(q, threshold)
        if self.pending is not None:
            candidates = np.concatenate([filed, self.pending])
            sims = products.rowdot(self.full[candidates], q)
            passed = sims >= threshold
            return self._best(candidates[passed], sims[passed], limit)
        # the usual case: the pending rows are the tail, scored through a view (no copy); the filed candidates
        # and the tail are each cut at the threshold, and only what passes is merged (on a miss: nothing)
        found: list[tuple[Ids, Vectors]] = []
        if filed.size:
            sims = products.rowdot(self.full[filed], q)
            passed = sims >= threshold
            if passed.any():
                found.append((filed[passed], sims[passed]))
        newest = self.full[self.tail: n]  # at most LOOSE rows but while the cells are drawn again: one product
        tail: Vectors = products.MATVEC(newest, q) if len(newest) <= products.HELD else products.rowdot(newest, q)
        if tail.size and _MAX(tail) >= threshold:
            above = (tail >= threshold).nonzero()[0]
            found.append((above + self.tail, tail[above]))
        if not found:
            return []
        rows, sims = (np.concatenate(parts) for parts in zip(*found))
        return self._best(rows, sims, limit)

    def _pairs(self, found: Iterable[tuple[int, float]], limit: int) -> list[tuple[str, float]]:
        """(row, similarity) pairs, most similar first, as up to ``limit`` (key, similarity) pairs, each key once (a
        row filed while the search ran may come twice)."""
        out: dict[str, float] = {}
        keys = self.keys
        for row, similarity in found:
            out.setdefault(keys[row], similarity)
            if len(out) >= limit:
                break
        return list(out.items())

    def _best(self, rows: Ids, sims: Vectors, limit: int) -> list[tuple[str, float]]:
        """``_pairs`` of numpy's rows and similarities, ordered here (read lazily: ``limit`` is usually reached
        first)."""
        return self._pairs(((int(rows[i]), float(sims[i])) for i in np.argsort(-sims)), limit)

    def _candidates(self, q: Vectors, threshold: float) -> Ids:
        """Rows filed in the cells nearest ``q`` whose projection lies within the bound (at most ``RERANK``,
        nearest first), below ``n``; pending rows are not among them."""
        assert self.projection_t is not None and self.centroids is not None
        # PROJECTED_DIM rows: one product; the centroids (CELLS, a few more than HELD): ``products.rowdot``'s blocks
        pq: Vectors = products.MATVEC(self.projection_t, q)
        near = products.rowdot(self.centroids, pq)
        probes = np.argpartition(near, max(len(near) - PROBES, 0))[-PROBES:]
        # in the cells' first FILTER_DIM projected dimensions (a projection of their own, of expected squared
        # length FILTER_DIM / PROJECTED_DIM of the original): |row - q|^2 <= bound  <=>
        # row . q - |row|^2 / 2 >= (|q|^2 - bound) / 2
        kept = pq[:FILTER_DIM]
        floor = (float(kept @ kept) - _bound(threshold)) / 2.0
        extended = np.concatenate((kept, _MINUS_ONE))
        # each cell's size read once (a writer sets it last), then its arrays: ids and scores stay aligned
        cells = [(cell.size, cell) for cell in map(self.cells.__getitem__, probes.tolist())]
        scores = np.empty(sum(size for size, _ in cells), dtype=np.float32)  # each cell scored into its slice
        at = 0
        for size, cell in cells:  # a cell of at most HELD rows (the usual one) is one product, scored in place
            if size <= products.HELD:
                products.MATVEC(cell.rows[:size], extended, out=scores[at: at + size])
            else:
                products.rowdot(cell.rows[:size], extended, scores[at: at + size])
            at += size
        if not scores.size or _MAX(scores) < floor:  # the usual miss: one reduction, no mask, no ids
            return _NO_ROWS
        keep = (scores >= floor).nonzero()[0]
        rows = np.concatenate([cell.ids[:size] for size, cell in cells])[keep]
        if rows.size > RERANK:
            rows = rows[np.argpartition(-scores[keep], RERANK)[:RERANK]]
        return rows[rows < self.n]  # rows filed after the view was taken are not in it


class SemanticIndex:
    """Group indexes under a bound on rows (all groups together) and on groups (least recently used out)."""

    def __init__(self, max_entries: int = 250_000, max_groups: int = 64) -> None:
        if max_entries < 1 or max_groups < 1:
            raise ValueError("max_entries and max_groups must be at least 1")
        self.max_entries = max_entries
        self.max_groups = max_groups
        self._groups: OrderedDict[str, GroupIndex] = OrderedDict()
        self.lock = threading.Lock()  # held by whoever reads or updates the index (it is not thread-safe alone)
        self.pin: object = None  # see shared_index
        self._writer = ("", -1)  # (token, the process it was drawn in): see ``writer``

    @property
    def writer(self) -> str:
        """This index's writer tag in a store that keeps one per entry (``SQLiteStore.skips_writers``): the
        entries its caches write are filed here as they are written, and its reads of a group's changes skip
        them. Drawn again in a forked child, whose writes the parent's copy never filed."""
        token, pid = self._writer
        if pid != os.getpid():
            token = f"{os.getpid()}-{secrets.token_hex(8)}"
            self._writer = (token, os.getpid())
        return token

    def group(self, name: str) -> GroupIndex:
        """The index of group ``name`` (created empty), marked most recently used."""
        found = self._groups.get(name)
        if found is None:
            found = self._groups[name] = GroupIndex()
        self._groups.move_to_end(name)
        return found

    def peek(self, name: str) -> GroupIndex | None:
        """The index of group ``name`` if there is one, not marked used: one dictionary read, safe without the
        lock (a reader that then finds another index under the lock reads again, see ``Cached._take_in``)."""
        return self._groups.get(name)

    def reset(self, name: str) -> GroupIndex:
        self._groups[name] = GroupIndex()
        return self._groups[name]

    def enforce(self) -> None:
        """Evict least recently used groups until both bounds hold (the newest group keeps its newest rows)."""
        if len(self._groups) <= self.max_groups and self.entries <= self.max_entries:
            return  # the usual call, after a write: nothing to evict, and no group over the bound
        while len(self._groups) > self.max_groups:
            self._groups.popitem(last=False)
        while len(self._groups) > 1 and self.entries > self.max_entries:
            self._groups.popitem(last=False)
        for index in self._groups.values():
            index.keep_last(self.max_entries)

    @property
    def entries(self) -> int:
        return sum(len(g) for g in self._groups.values())

    @property
    def groups(self) -> int:
        return len(self._groups)

    @property
    def nbytes(self) -> int:
        return sum(g.nbytes for g in self._groups.values())


_SHARED: weakref.WeakValueDictionary[Hashable, SemanticIndex] = weakref.WeakValueDictionary()
_SHARED_LOCK = threading.Lock()


def shared_index(scope: Hashable, max_entries: int, max_groups: int, pin: object = None) -> SemanticIndex:
    """The process's index for ``scope`` (one store's file or object, and a namespace) under these bounds,
    created on first use and kept while a cache holds it: caches of one process on one store share one index,
    so a row written by any of them is read from the store and filed once, not once per cache. ``pin`` (the
    store, when ``scope`` holds its ``id``) lives as long as the index, so that its id is never reused."""
    with _SHARED_LOCK:
        found = _SHARED.get((scope, max_entries, max_groups))
        if found is None:
            found = SemanticIndex(max_entries, max_groups)
            found.pin = pin
            _SHARED[(scope, max_entries, max_groups)] = found
        return found
