"""The semantic index's compiled search (``_kernel.c``) against its numpy form: the same candidates and scores on
small and large groups, pending tails and replaced rows; bounds kept on damaged cells; bad arguments refused;
the numpy form where the build is missing, out of date or not wanted."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cache_index_cost import unit_rows

from relaykit.models.cache import index as index_module
from relaykit.models.cache import kernel
from relaykit.models.cache.index import EXACT_BELOW, LOOSE, GroupIndex, View

needs_kernel = pytest.mark.skipif(kernel.KERNEL is None, reason="the C search is not compiled here (make compile)")


@pytest.fixture(params=[True, False], ids=["gil-given-up", "gil-kept"])
def release(request: Any) -> Iterator[bool]:
    """The kernel giving the GIL up around its arithmetic (as on several CPUs) or keeping it (on one)."""
    if kernel.KERNEL is None:
        yield request.param
        return
    before = kernel.KERNEL.releases()
    kernel.KERNEL.set_release(request.param)
    try:
        yield request.param
    finally:
        kernel.KERNEL.set_release(before)


def numpy_search(view: View, query: np.ndarray, threshold: float, monkeypatch: Any) -> dict[str, float]:
    with monkeypatch.context() as patch:
        patch.setattr(kernel, "KERNEL", None)
        return dict(view.search(query, threshold, limit=100_000))


def agree(numpy_found: dict[str, float], kernel_found: dict[str, float], threshold: float) -> None:
    """The same keys with the same scores, but for a key whose score lies within rounding of a cut (the threshold
    or the cells' bound, where sums taken in another order may fall either side)."""
    for key in numpy_found.keys() & kernel_found.keys():
        assert abs(numpy_found[key] - kernel_found[key]) <= 1e-5, key
    for key in numpy_found.keys() ^ kernel_found.keys():
        score = numpy_found.get(key, kernel_found.get(key))
        assert score is not None and abs(score - threshold) <= 1e-4, (key, score)


def large_group(rng: np.random.Generator, dim: int, extra: int = 0) -> tuple[GroupIndex, np.ndarray]:
    """A group over EXACT_BELOW rows with its cells drawn, then ``extra`` rows added one by one (filed in batches
    of LOOSE, the rest pending)."""
    rows = unit_rows(rng, EXACT_BELOW * 2 + extra, dim)
    index = GroupIndex()
    index.add([f"k{i}" for i in range(EXACT_BELOW * 2)], rows[: EXACT_BELOW * 2])
    index.view()  # draws the cells
    for i in range(EXACT_BELOW * 2, len(rows)):
        index.add([f"k{i}"], rows[i: i + 1])
    return index, rows


def queries(rng: np.random.Generator, rows: np.ndarray, count: int) -> list[np.ndarray]:
    """Rows themselves, rows with noise at several strengths (near matches, near misses), and random vectors."""
    out = []
    for i in rng.integers(0, len(rows), count):
        noise = unit_rows(rng, 1, rows.shape[1])[0] * float(rng.choice([0.0, 0.05, 0.2, 0.45, 2.0]))
        vector = rows[i] + noise
        out.append((vector / np.linalg.norm(vector)).astype(np.float32))
    return out


@needs_kernel
@pytest.mark.parametrize("extra", [0, LOOSE + 7])
@pytest.mark.parametrize("dim", [64, 384])
def test_a_large_group_finds_what_the_numpy_search_finds(dim: int, extra: int, monkeypatch: Any, release: bool) -> None:
    rng = np.random.default_rng(dim + extra)
    index, rows = large_group(rng, dim, extra)
    view = index.view()
    assert view.centroids is not None and view.pending is None and (view.n - view.tail == 7) == bool(extra)
    hits = 0
    for threshold in (0.5, 0.9, 0.97):
        for query in queries(rng, rows, 60):
            found = dict(view.search(query, threshold, limit=100_000))
            agree(numpy_search(view, query, threshold, monkeypatch), found, threshold)
            hits += bool(found)
    assert hits > 60


@needs_kernel
def test_a_small_group_scores_every_row_as_numpy_does(monkeypatch: Any, release: bool) -> None:
    rng = np.random.default_rng(5)
    rows = unit_rows(rng, EXACT_BELOW - 1, 96)
    index = GroupIndex()
    index.add([f"k{i}" for i in range(len(rows))], rows)
    index.add(["k3"], rows[4:5])  # a replaced row: the small form scores the matrix as it is
    view = index.view()
    for threshold in (0.2, 0.9):
        for query in queries(rng, rows, 40):
            found = view.search(query, threshold, limit=100_000)
            assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)
            expected = rows.astype(np.float64) @ query.astype(np.float64)
            expected[3] = float(rows[4].astype(np.float64) @ query)
            assert {k for k, s in found} >= {f"k{i}" for i in np.flatnonzero(expected >= threshold + 1e-5)}
            agree(numpy_search(view, query, threshold, monkeypatch), dict(found), threshold)


@needs_kernel
def test_replaced_rows_in_a_large_group_take_the_numpy_form(monkeypatch: Any) -> None:
    """Rows replaced since the last batch are gathered with the tail (``View.pending``): numpy scores those."""
    rng = np.random.default_rng(9)
    index, rows = large_group(rng, 64, 3)
    index.add(["k5"], rows[6:7])
    view = index.view()
    assert view.pending is not None
    calls: list[str] = []
    monkeypatch.setattr(kernel, "KERNEL", _Spy(kernel.KERNEL, calls))
    assert view.search(rows[6], 0.99)[0][0] in ("k5", "k6")
    assert calls == []


class _Spy:
    def __init__(self, inner: Any, calls: list[str]) -> None:
        self.inner, self.calls = inner, calls

    def __getattr__(self, name: str) -> Any:
        self.calls.append(name)
        return getattr(self.inner, name)


@pytest.mark.parametrize("form", ["kernel", "numpy"])
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, EXACT_BELOW * 3), dim=st.sampled_from([8, 31, 64, 200]),
       threshold=st.floats(0.3, 0.999))
def test_every_hit_is_a_row_at_the_threshold_and_a_row_finds_itself(form: str, seed: int, size: int, dim: int,
                                                                     threshold: float) -> None:
    if form == "kernel" and kernel.KERNEL is None:
        pytest.skip("the C search is not compiled here (make compile)")
    rng = np.random.default_rng(seed)
    rows = unit_rows(rng, size, dim)
    index = GroupIndex()
    index.add([f"k{i}" for i in range(size)], rows)
    view = index.view()
    own = int(rng.integers(0, size))
    compiled = kernel.KERNEL
    kernel.KERNEL = compiled if form == "kernel" else None
    try:
        for query in (rows[own], unit_rows(rng, 1, dim)[0]):
            found = view.search(query, threshold, limit=100_000)
            for key, score in found:
                exact = float(rows[int(key[1:])].astype(np.float64) @ query.astype(np.float64))
                assert score >= threshold and abs(score - exact) <= 1e-5
            assert len({k for k, _ in found}) == len(found)
            assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)
        assert f"k{own}" in dict(view.search(rows[own], threshold, limit=100_000))
    finally:
        kernel.KERNEL = compiled


@needs_kernel
def test_damaged_cells_cost_a_miss_not_a_read_outside_the_matrix() -> None:
    """Row numbers outside the view (negative, past ``n``, huge) are skipped; a size past a cell's arrays reads
    what they hold, as numpy's slices do."""
    rng = np.random.default_rng(21)
    index, rows = large_group(rng, 64)
    view = index.view()
    for cell in index._cells:
        cell.ids[: cell.size] = np.where(np.arange(cell.size) % 2, -5, 10**15)
    for query in rows[:50]:
        assert view.search(query, 0.5) == []
    index._cells[0].ids[:] = 0
    index._cells[0].size = len(index._cells[0].ids) + 1000
    assert all(view.search(query, 0.5) in ([], [("k0", pytest.approx(float(rows[0] @ query), abs=1e-5))])
               for query in rows)


@needs_kernel
def test_the_kernel_refuses_arrays_of_the_wrong_kind() -> None:
    fast = kernel.KERNEL
    assert fast is not None
    full, q = np.zeros((4, 8), np.float32), np.zeros(8, np.float32)
    with pytest.raises(TypeError, match="float32"):
        fast.above(full.astype(np.float64), q, 4, 0.5)
    with pytest.raises(ValueError, match="contiguous"):
        fast.above(full.T, q, 4, 0.5)
    with pytest.raises(ValueError, match="fit"):
        fast.above(full, q, 5, 0.5)
    with pytest.raises(ValueError, match="fit"):
        fast.above(full, np.zeros(7, np.float32), 4, 0.5)
    proj, cents = np.zeros((4, 8), np.float32), np.zeros((2, 4), np.float32)
    with pytest.raises(TypeError):
        fast.search(q, proj, cents, (), full, 4, 4, 0.5, 1, 2, 0.1, 8)  # cells: a list
    with pytest.raises(ValueError, match="fit"):
        fast.search(q, proj, cents, [None, None], full, 4, 4, 0.5, 65, 2, 0.1, 8)  # probes over the limit
    with pytest.raises(AttributeError):
        fast.search(q, proj, cents, [None, None], full, 4, 4, 0.5, 1, 2, 0.1, 8)  # not cells


def test_the_numpy_form_runs_where_python_is_asked_for(monkeypatch: Any) -> None:
    monkeypatch.setenv("RELAYKIT_PURE_PYTHON", "1")
    assert kernel.load() is None


def test_a_build_older_than_its_source_is_not_used(tmp_path: Path, monkeypatch: Any) -> None:
    built = tmp_path / "_kernel.cpython-311-x86_64-linux-gnu.so"
    built.write_bytes(b"not a library")
    source = tmp_path / "_kernel.c"
    source.write_text("/* edited */")
    later = time.time() + 60
    os.utime(source, (later, later))
    monkeypatch.delenv("RELAYKIT_PURE_PYTHON", raising=False)
    monkeypatch.setattr(kernel, "SOURCE", source)
    monkeypatch.setattr(kernel, "built", lambda: built)
    with pytest.warns(RuntimeWarning, match="make compile"):
        assert kernel.load() is None


@needs_kernel
@pytest.mark.parametrize(("cpus", "gives_up"), [({0}, False), ({0, 1}, True), ({3, 5, 7}, True)])
def test_on_one_cpu_the_kernel_keeps_the_gil(cpus: set[int], gives_up: bool, monkeypatch: Any) -> None:
    """Where the process may run on one CPU only, giving the GIL up buys no parallel work, only thread switches:
    the loader tells the kernel to keep it there, and to give it up on more."""
    assert kernel.KERNEL is not None
    before = kernel.KERNEL.releases()
    monkeypatch.delenv("RELAYKIT_PURE_PYTHON", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: cpus)
    try:
        loaded = kernel.load()
        assert loaded is kernel.KERNEL and kernel.cpus() == len(cpus) and loaded.releases() is gives_up
    finally:
        kernel.KERNEL.set_release(before)
    with pytest.raises(ValueError):
        kernel.KERNEL.set_release(np.array([1, 2]))  # no truth value: refused, the setting unchanged
    assert kernel.KERNEL.releases() is before


def test_no_build_runs_numpy_quietly(monkeypatch: Any, recwarn: Any) -> None:
    monkeypatch.delenv("RELAYKIT_PURE_PYTHON", raising=False)
    monkeypatch.setattr(kernel, "built", lambda: None)
    assert kernel.load() is None and not recwarn.list


def test_ci_searches_with_the_compiled_kernel() -> None:
    """CI installs with ``make install``, which compiles the C search too."""
    if os.environ.get("CI") != "true":
        pytest.skip("outside CI the install may be pure Python (no compiler, or `pip install -e .`)")
    assert kernel.compiled() and kernel.KERNEL is index_module.kernel.KERNEL


@needs_kernel
def test_searches_without_the_gil_while_writers_add_rows() -> None:
    """The compiled search gives the GIL up while it scores; writers meanwhile file rows into its cells, grow
    them, grow the matrix and draw the cells again (the group doubles). Searches take their view under the lock
    and search without it, as ``Cached`` does: none fails, and every hit names a row with its own score."""
    import threading

    rng = np.random.default_rng(33)
    dim = 48
    rows = unit_rows(rng, EXACT_BELOW * 5, dim)
    index = GroupIndex()
    index.add([f"k{i}" for i in range(EXACT_BELOW)], rows[:EXACT_BELOW])
    lock, errors, searched = threading.Lock(), [], [0]
    added = [EXACT_BELOW]

    def writer() -> None:
        try:
            while True:
                with lock:
                    start = added[0]
                    if start >= len(rows):
                        return
                    stop = min(len(rows), start + int(rng.integers(1, 40)))
                    index.add([f"k{i}" for i in range(start, stop)], rows[start:stop])
                    added[0] = stop
                time.sleep(0.0002)  # the searchers run between batches (not only when the GIL switches)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    def searcher(seed: int) -> None:
        local = np.random.default_rng(seed)
        try:
            while added[0] < len(rows) or searched[0] < 60:  # at least 60 searches, most of them during the writes
                with lock:
                    view = index.view()
                    known = added[0]
                i = int(local.integers(0, known))
                for key, score in view.search(rows[i], 0.9, limit=50):
                    exact = float(rows[int(key[1:])] @ rows[i])
                    assert abs(score - exact) <= 1e-4, (key, score, exact)
                searched[0] += 1
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer), *(threading.Thread(target=searcher, args=(s,)) for s in range(3))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors[:3]
    assert searched[0] >= 60 and len(index) == len(rows)


@needs_kernel
@pytest.mark.parametrize("dim", [40, 384])
def test_a_batch_is_filed_as_the_numpy_form_files_it(dim: int, monkeypatch: Any, release: bool) -> None:
    """The compiled filing of a batch (projection, its norm, the nearest cell) against numpy's, row for row."""
    rng = np.random.default_rng(dim)
    rows = unit_rows(rng, EXACT_BELOW * 2 + 3 * LOOSE, dim)
    built = []
    for form in ("kernel", "numpy"):
        with monkeypatch.context() as patch:
            if form == "numpy":
                patch.setattr(kernel, "KERNEL", None)
            index = GroupIndex()
            index.add([f"k{i}" for i in range(EXACT_BELOW * 2)], rows[: EXACT_BELOW * 2])
            index.view()
            for i in range(EXACT_BELOW * 2, len(rows)):
                index.add([f"k{i}"], rows[i: i + 1])
            assert index.pending == 0
            built.append(index)
    fast, plain = built
    new = slice(EXACT_BELOW * 2, len(rows))
    assert np.allclose(fast._proj[new], plain._proj[new], atol=1e-5)
    assert np.allclose(fast._norm2[new], plain._norm2[new], rtol=1e-5)
    assert (fast._cell[new] == plain._cell[new]).mean() >= 0.99  # a near tie may fall either way
    for cell in range(len(fast._cells)):
        kept, expected = fast._cells[cell], plain._cells[cell]
        assert set(kept.ids[: kept.size].tolist()) - set(expected.ids[: expected.size].tolist()) <= set(
            np.flatnonzero(fast._cell[: len(rows)] != plain._cell[: len(rows)]).tolist())
    for i in range(EXACT_BELOW * 2, len(rows), 7):
        assert fast.search(rows[i], 0.99)[0][0] == f"k{i}"


@needs_kernel
def test_the_filing_call_refuses_arrays_that_do_not_fit() -> None:
    fast = kernel.KERNEL
    assert fast is not None
    full, proj_t, cents = np.zeros((8, 16), np.float32), np.zeros((4, 16), np.float32), np.zeros((3, 4), np.float32)
    proj, norm2, cell = np.zeros((8, 4), np.float32), np.zeros(8, np.float32), np.zeros(8, np.int16)
    fast.file(full, 2, 8, proj_t, cents, proj, norm2, cell, 2)
    with pytest.raises(ValueError, match="fit"):
        fast.file(full, 2, 9, proj_t, cents, proj, norm2, cell, 2)
    with pytest.raises(ValueError, match="fit"):
        fast.file(full, 3, 2, proj_t, cents, proj, norm2, cell, 2)
    with pytest.raises(TypeError, match="int16"):
        fast.file(full, 0, 8, proj_t, cents, proj, norm2, cell.astype(np.int32), 2)
    readonly = proj.copy()
    readonly.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        fast.file(full, 0, 8, proj_t, cents, readonly, norm2, cell, 2)


@needs_kernel
@pytest.mark.parametrize("rerank", [1, 5, 40])
def test_the_rerank_cut_keeps_the_same_nearest_candidates(rerank: int, monkeypatch: Any) -> None:
    """Past ``RERANK`` candidates both forms keep the ones nearest in the filter dimensions (the kernel by a
    selection, numpy by ``argpartition``); at threshold -1 every kept candidate is a hit, so the hits are the cut."""
    rng = np.random.default_rng(rerank)
    index, rows = large_group(rng, 64)
    view = index.view()
    monkeypatch.setattr(index_module, "RERANK", rerank)
    for query in queries(rng, rows, 40):
        found = dict(view.search(query, -1.0, limit=100_000))
        assert len(found) == rerank
        agree(numpy_search(view, query, -1.0, monkeypatch), found, -1.0)
