"""What keeps a semantic writer's index work small: matrix-vector products in calls that keep the GIL, cells with room
for the rows filed after a build (no copy of the cell per batch), the same results as before."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from relaykit.models.cache import index as index_module
from relaykit.models.cache import kernel, products
from relaykit.models.cache.index import CELLS, EXACT_BELOW, LOOSE, GroupIndex
from relaykit.models.cache.products import HELD


def unit_rows(rng: np.random.Generator, n: int, dim: int = 64) -> np.ndarray:
    rows = rng.standard_normal((n, dim)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def counted_dots(monkeypatch: Any) -> list[int]:
    """The index's matrix-vector products from now on record the rows of each call (their results unchanged)."""
    shapes: list[int] = []
    matvec = np.matmul

    def counted(a: np.ndarray, b: np.ndarray, **kwargs: Any) -> Any:
        assert b.ndim == 1, "a matrix-matrix product through MATVEC"
        shapes.append(a.shape[0])
        return matvec(a, b, **kwargs)

    monkeypatch.setattr(products, "MATVEC", counted)
    return shapes


@pytest.mark.parametrize("rows", [1, HELD, HELD + 1, 512, 2047, 3 * HELD + 7])
def test_rowdot_scores_at_most_held_rows_per_call(rows: int, monkeypatch: Any) -> None:
    rng = np.random.default_rng(rows)
    matrix, vector = unit_rows(rng, rows, 65), unit_rows(rng, 1, 65)[0]
    expected = matrix.astype(np.float64) @ vector.astype(np.float64)
    calls = counted_dots(monkeypatch)
    got = products.rowdot(matrix, vector)
    assert got.dtype == np.float32 and np.allclose(got, expected, atol=1e-6)
    assert max(calls) <= HELD and sum(calls) == rows, "a call over HELD rows gives the GIL up"


@pytest.mark.parametrize(("rows", "dim", "columns"), [(1, 384, 64), (32, 384, 64), (32, 64, 512), (77, 64, 33)])
def test_matmul_blocks_stay_under_the_single_thread_bound(rows: int, dim: int, columns: int, monkeypatch: Any) -> None:
    rng = np.random.default_rng(rows)
    a, b_t = unit_rows(rng, rows, dim), unit_rows(rng, columns, dim)
    work: list[int] = []
    dot = np.dot

    def counted(x: np.ndarray, y: np.ndarray, **kwargs: Any) -> Any:
        work.append(x.shape[0] * x.shape[1] * y.shape[1])
        return dot(x, y, **kwargs)

    monkeypatch.setattr(products, "DOT", counted)
    got = products.matmul(a, b_t)
    assert got.shape == (rows, columns) and np.allclose(got, a.astype(np.float64) @ b_t.T.astype(np.float64), atol=1e-5)
    assert max(work) <= max(products.GEMM_WORK, dim * columns) and sum(work) == rows * dim * columns


def test_a_large_group_misses_without_building_a_mask(monkeypatch: Any) -> None:
    """A query far from every row ends its search of the cells at one reduction (the usual miss)."""
    rng = np.random.default_rng(3)
    index = GroupIndex()
    rows = unit_rows(rng, EXACT_BELOW + 500, 64)
    index.add([f"k{i}" for i in range(len(rows))], rows)
    view = index.view()
    assert view.search(rows[17], 0.95)[0][0] == "k17"
    assert view._candidates(-rows[17], 0.95).size == 0
    found = view._candidates(rows[17], 0.95)
    assert 17 in found.tolist()


def test_cells_drawn_at_a_build_take_the_next_batch_without_growing() -> None:
    rng = np.random.default_rng(7)
    index = GroupIndex()
    index.add([f"k{i}" for i in range(EXACT_BELOW * 2)], unit_rows(rng, EXACT_BELOW * 2))
    index.view()  # draws the cells
    arrays = [(cell.ids, cell.rows) for cell in index._cells]
    assert all(len(cell.ids) > cell.size for cell in index._cells), "a cell left full at its build"
    for i in range(LOOSE):  # one batch of pending rows, filed into the cells
        index.add([f"n{i}"], unit_rows(rng, 1))
    assert index.pending == 0
    assert all(cell.ids is ids and cell.rows is rows for cell, (ids, rows) in zip(index._cells, arrays))
    found = [index.search(vector, threshold=0.99) for vector in index._full[: len(index)][-LOOSE:]]
    assert [hits[0][0] for hits in found] == [f"n{i}" for i in range(LOOSE)]


def test_a_full_cell_doubles_and_keeps_its_rows() -> None:
    cell = index_module._Cell(np.arange(20), np.ones((20, 64), np.float32), np.full(20, 2.0, np.float32))
    assert len(cell.ids) == 22 and cell.size == 20  # 1/HEADROOM more
    for start in range(20, 100, 5):
        cell.extend(np.arange(start, start + 5), np.full((5, 64), start, np.float32), np.zeros(5, np.float32))
    assert cell.size == 100 and cell.ids[:100].tolist() == list(range(100))
    assert cell.rows[:20, index_module.FILTER_DIM].tolist() == [1.0] * 20 and cell.rows[95, 0] == 95.0


def test_cells_keep_the_filter_dimensions_and_still_find_every_match() -> None:
    """A cell keeps only the first FILTER_DIM projected dimensions of its rows (half the bytes a query reads);
    the bound is widened for them, so a query still finds its own row and near copies of it."""
    rng = np.random.default_rng(11)
    index = GroupIndex()
    rows = unit_rows(rng, EXACT_BELOW * 2, 384)
    index.add([f"k{i}" for i in range(len(rows))], rows)
    view = index.view()
    assert index_module.FILTER_DIM < index_module.PROJECTED_DIM
    assert {cell.rows.shape[1] for cell in view.cells} == {index_module.FILTER_DIM + 1}
    for i in range(0, len(rows), 97):
        noisy = rows[i] + 0.08 * unit_rows(rng, 1, 384)[0]
        noisy /= np.linalg.norm(noisy)
        assert float(noisy @ rows[i]) >= 0.95
        assert index.search(noisy, 0.95)[0][0] == f"k{i}"


def test_the_centroids_are_scored_in_blocks_that_keep_the_gil(monkeypatch: Any) -> None:
    """A group of CELLS cells scores its centroids in products of at most HELD rows (CELLS is a few more)."""
    rng = np.random.default_rng(5)
    index = GroupIndex()
    rows = unit_rows(rng, index_module.CELLS * index_module.ROWS_PER_CELL)
    index.add([f"k{i}" for i in range(len(rows))], rows)
    view = index.view()
    assert view.centroids is not None and len(view.centroids) == index_module.CELLS
    shapes = counted_dots(monkeypatch)
    assert 3 in view._candidates(rows[3], 0.95).tolist()
    assert HELD in shapes and index_module.CELLS - HELD in shapes, f"the centroids: {shapes}"
    assert max(shapes) <= HELD


def test_a_cell_takes_rows_one_by_one_and_grows_when_full() -> None:
    cell = index_module._Cell(np.arange(3), np.ones((3, 64), np.float32), np.full(3, 2.0, np.float32))
    capacity = len(cell.ids)
    line = np.arange(index_module.FILTER_DIM + 1, dtype=np.float32)
    for row in range(3, capacity + 5):
        cell.append(row, line + row)
    assert len(cell.ids) > capacity and cell.size == capacity + 5
    assert cell.ids[: cell.size].tolist() == list(range(capacity + 5))
    assert cell.rows[0, index_module.FILTER_DIM] == 1.0 and cell.rows[7].tolist() == (line + 7).tolist()


def test_a_batch_files_each_row_under_its_nearest_cell() -> None:
    rng = np.random.default_rng(13)
    index = GroupIndex()
    index.add([f"k{i}" for i in range(EXACT_BELOW * 2)], unit_rows(rng, EXACT_BELOW * 2, 384))
    index.view()  # draws the cells
    start = len(index)
    for i in range(LOOSE):
        index.add([f"n{i}"], unit_rows(rng, 1, 384))
    assert index.pending == 0 and index._centroids is not None
    for row in range(start, start + LOOSE):
        nearest = int(np.argmax(index._centroids @ index._proj[row]))
        assert index._cell[row] == nearest
        cell = index._cells[nearest]
        at = cell.ids[: cell.size].tolist().index(row)
        kept = index._proj[row, : index_module.FILTER_DIM]
        assert np.allclose(cell.rows[at, : index_module.FILTER_DIM], kept)
        assert np.isclose(cell.rows[at, index_module.FILTER_DIM], float(kept @ kept) / 2.0, rtol=1e-5)


def test_a_search_calls_no_dot_and_no_product_over_held_rows(monkeypatch: Any) -> None:
    """``np.dot`` gives the GIL up around every BLAS call; a search (cells, pending tail, replaced rows, small
    groups) scores through ``products.MATVEC`` (``np.matmul``, which keeps it up to ``HELD`` rows) only (the numpy
    form: where the C search is compiled, it makes no numpy call at all)."""
    monkeypatch.setattr(kernel, "KERNEL", None)
    rng = np.random.default_rng(17)
    index = GroupIndex()
    rows = unit_rows(rng, CELLS * index_module.ROWS_PER_CELL + 40, 384)
    index.add([f"k{i}" for i in range(len(rows) - 40)], rows[:-40])
    index.view()  # draws the cells (a bulk product: not a search)
    for i in range(len(rows) - 40, len(rows)):  # a filed batch and a pending tail
        index.add([f"k{i}"], rows[i: i + 1])
    small = GroupIndex()
    small.add([f"s{i}" for i in range(EXACT_BELOW - 1)], rows[: EXACT_BELOW - 1])

    def no_dot(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("np.dot in a search")

    monkeypatch.setattr(products, "DOT", no_dot)
    shapes = counted_dots(monkeypatch)
    for i in (3, len(rows) - 45, len(rows) - 1):
        assert index.search(rows[i], 0.95)[0][0] == f"k{i}"
    assert small.search(rows[7], 0.95)[0][0] == "s7"
    monkeypatch.undo()
    index.add(["k3"], rows[4:5])  # a replaced row: scored among the gathered candidates
    monkeypatch.setattr(kernel, "KERNEL", None)
    monkeypatch.setattr(products, "DOT", no_dot)
    shapes += counted_dots(monkeypatch)
    assert index.search(rows[4], 0.95)[0][0] in ("k3", "k4")
    assert shapes and max(shapes) <= HELD, shapes


@pytest.mark.parametrize(("rows", "dim"), [(1, 384), (32, 384), (64, 384), (HELD, 33), (195, 33), (HELD, 64)])
def test_matvec_gives_the_bits_of_dot(rows: int, dim: int) -> None:
    """Scores decide which candidates a search keeps: ``np.matmul`` must give ``np.dot``'s very bits (the same
    BLAS sgemv), into a fresh array or a slice of one."""
    rng = np.random.default_rng(rows + dim)
    matrix, vector = unit_rows(rng, rows, dim), unit_rows(rng, 1, dim)[0]
    into = np.zeros(rows + 3, dtype=np.float32)
    products.MATVEC(matrix, vector, out=into[2: rows + 2])
    expected = np.dot(matrix, vector).tobytes()
    assert products.MATVEC(matrix, vector).tobytes() == expected and into[2: rows + 2].tobytes() == expected
