"""Tables and CSV blocks of the hand-off reader (``relaykit.handoff.evidence``; the reader's mixin ``TableCells``):
markdown and pipe tables (a header row names the columns), CSV, tab- and semicolon-separated blocks under a header
line, each cell read under its header's label, a decision column's cell as the row's verdict."""

from __future__ import annotations

import csv
import re

from mypy_extensions import trait

from relaykit.handoff.lexicon import verdict_of
from relaykit.handoff.reading import decision, decision_label, prose_or_notes, row_number, with_header_unit
from relaykit.handoff.table import TOKEN_WORDS, typed

CELL_MEMORY = 4096
"""Cells a reader remembers the reading of (``_cell_text``); a bound on memory."""
_TABLE_RULE = re.compile(r"^:?-{2,}:?$")
_CSV_SPLIT = re.compile(r",(?![^()]*\))")  # commas outside parentheses ("reject (lead time, cert)" is one cell)


def _csv_cells(line: str) -> list[str]:
    """A CSV line's cells: by the csv module's quoting rules when it quotes ('"red, large"' is one cell)."""
    if '"' in line:
        return next(csv.reader([line], skipinitialspace=True))
    return _CSV_SPLIT.split(line)


@trait
class TableCells:
    """The reader's part that reads table rows and CSV blocks (a mixin of ``evidence._Reader``)."""

    csv: list[str] | None  # the header of the CSV block being read
    header: list[str] | None  # the header row of the table being read
    block: str | None
    labels: set[str]
    numbered: int  # the rows of the table or CSV block read so far (a row number column counts them)
    index: int
    cell_texts: dict[tuple[str, str], tuple[str, str | None]]  # (label, cell) -> what it says (see _cell_text)

    def ids(self, text: str) -> list[str]:
        raise NotImplementedError

    def _apply(self, option_id: str, text: str, shared: str | None = None) -> None:
        raise NotImplementedError

    def _csv_line(self, line: str) -> bool:
        """Read a CSV row under the CSV header seen before; False when the line is not such a row. A line of
        three or more short comma-separated cells without ids, values or sentence marks may be a header: it is
        remembered (and still read as text), and becomes one when the next line is a row of as many cells."""
        tabbed = "\t" in line  # tab-separated: the cells are whatever the tabs hold
        if self.csv is None and (self.block is not None or (not tabbed and prose_or_notes(line))):
            return False  # prose, a bullet or a label line: no CSV header (the common case, decided cheaply)
        semicolons = not tabbed and "," not in line  # "SP1;19;200;yes": a semicolon-separated row
        cells = [c.strip() for c in (line.split("\t") if tabbed else line.split(";") if semicolons
                                     else _csv_cells(line))]
        if self.csv is not None and len(cells) == len(self.csv) and self.ids(line) \
                and (not semicolons or (len(self.ids(line)) == 1 and " " not in line.split(";", 1)[0])):
            if len(self.labels) < 4096:  # a CSV header's cells are labels
                self.labels.update(w for c in self.csv for w in TOKEN_WORDS.findall(c))
            self._cells(cells, self.csv)
            return True
        self.csv = None
        if len(cells) >= 3 and self.block is None and (tabbed or not prose_or_notes(line)) and not self.ids(line) \
                and all(c and len(c.split()) <= 3 and not typed(c) for c in cells):
            self.csv = [c.lower().replace("_", " ") for c in cells]  # "unit_price" labels like "unit price"
            self.numbered = 0
        return False

    def _table_row(self, line: str) -> None:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if all(_TABLE_RULE.match(c) or not c for c in cells):
            return
        at = next((k for k, c in enumerate(cells) if self.ids(c)), None)
        if at is None:
            self.header = [c.lower().replace("_", " ") for c in cells]
            self.numbered = 0
            if len(self.labels) < 4096:  # a table's header cells are labels
                self.labels.update(w for c in self.header for w in TOKEN_WORDS.findall(c))
            return
        self._cells(cells, self.header, at)

    def _cells(self, cells: list[str], header: list[str] | None, at: int | None = None) -> None:
        """One table or CSV row (``at``: the index of its id cell, when known): each cell under its header
        label; a yes / no cell of a decision column (``decision``, ``verdict``, ``status``...) is the row's
        verdict."""
        if at is None:
            at = next(k for k, c in enumerate(cells) if self.ids(c))
        option_id = self.ids(cells[at])[0]
        self.numbered += 1
        for k, cell in enumerate(cells):
            if k != at and cell:
                label = header[k] if header and k < len(header) else ""
                if row_number(label, cell, k < at, self.numbered):
                    continue
                said = self.cell_texts.get((label, cell)) or self._cell_text(label, cell)
                self._apply(option_id, said[0], said[1])
        self.index += 1

    def _cell_text(self, label: str, cell: str) -> tuple[str, str | None]:
        """What a cell under ``label`` says as a clause of its row, and the verdict of a decision cell (its
        reason alone is then the clause). Remembered per label and cell, as a bounded memory: a table's cells
        recur ("yes", "4 stars", "wifi") and each costs a verdict and a unit test."""
        decided = decision(label, cell)
        said = label
        if decided or (decision_label(label) and verdict_of(cell)):
            said = ""  # "decision: reject (price)" needs no label word: the verdict cell says it
        text = with_header_unit(said, cell) or f"{said} {cell}".strip()
        read = (cell[cell.find("("):] if decided and "(" in cell else "" if decided else text), decided
        if len(self.cell_texts) >= CELL_MEMORY:
            self.cell_texts.clear()
        self.cell_texts[(label, cell)] = read
        return read


__all__ = ["TableCells"]
