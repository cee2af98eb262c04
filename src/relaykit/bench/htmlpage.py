"""One page style for every lab's HTML report.

A lab builds a :class:`Page` (a header of facts about the run, notes, then tables and charts, each with a
short "how to read this") and :func:`render_page` turns it into one self-contained HTML file that uses the
shared stylesheet ``report.css``. Charts are PNG bytes embedded as data URLs; a chart with no data is an
explicit note that says why.
"""

from __future__ import annotations

import base64
import html
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from relaykit.bench.store import RunInfo


@dataclass(frozen=True)
class TableBlock:
    """A real HTML table; ``empty`` is said instead when it has no rows; ``row_notes`` mark rows (by index)."""

    title: str
    head: Sequence[str]
    body: Sequence[Sequence[str]]
    how_to_read: str = ""
    empty: str = "No rows."
    marked_rows: frozenset[int] = frozenset()


@dataclass(frozen=True)
class ChartBlock:
    """A chart as PNG bytes; ``png`` None shows ``empty`` (why there is no chart) instead."""

    title: str
    png: bytes | None
    how_to_read: str = ""
    empty: str = "No data to chart."
    alt: str = "chart"


@dataclass(frozen=True)
class TextBlock:
    title: str
    lines: Sequence[str]


Block = TableBlock | ChartBlock | TextBlock


@dataclass(frozen=True)
class Page:
    """What every lab report shows, in this order."""

    lab: str
    run: RunInfo
    subject: str
    models: Sequence[str] = ()
    settings: Mapping[str, Any] = field(default_factory=dict)
    notes: Sequence[str] = ()
    blocks: Sequence[Block] = ()


def relaykit_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("relaykit")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree without an install
        from relaykit import __version__

        return __version__


def stylesheet() -> str:
    """The shared stylesheet (package data)."""
    return resources.files("relaykit.bench").joinpath("report.css").read_text(encoding="utf-8")


def readable(value: Any) -> str:
    """A setting's value as a person writes it: no Python reprs (``None``, ``True``, ``['a']``, ``{...}``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return "n/a" if math.isnan(value) else f"{value:g}"
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={readable(v)}" for k, v in value.items()) or "none"
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(readable(v) for v in value) or "none"
    return str(value)


def when(timestamp: float | None) -> str:
    if timestamp is None:
        return "not finished"
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(timestamp))


def _e(text: Any) -> str:
    return html.escape(str(text))


def _header(page: Page) -> str:
    run = page.run
    facts = [("run", run.run_id), ("status", run.status), ("started", when(run.created_at)),
             ("finished", when(run.finished_at)), ("relaykit", relaykit_version()), ("world / corpus", page.subject),
             ("models", readable(list(page.models)) if page.models else "none (no model calls)")]
    rows = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in facts)
    settings = "".join(f"<dt>{_e(str(k).replace('_', ' '))}</dt><dd>{_e(readable(v))}</dd>"
                       for k, v in page.settings.items())
    block = f"<details open><summary>Settings</summary><dl class='settings'>{settings}</dl></details>" \
        if settings else ""
    return f"<header><h1>{_e(page.lab)}</h1><dl class='facts'>{rows}</dl>{block}</header>"


def _notes(notes: Sequence[str]) -> str:
    if not notes:
        return ""
    items = "".join(f"<li>{_e(n)}</li>" for n in notes)
    return f"<section class='notes'><h2>Notes</h2><ul>{items}</ul></section>"


def _how(text: str) -> str:
    return f"<p class='how'><strong>How to read this:</strong> {_e(text)}</p>" if text else ""


def _cell(text: str) -> str:
    """Figures align right and never wrap; words align left and wrap."""
    wordy = len(text) > 24 and sum(ch.isalpha() for ch in text) > len(text) / 2
    return f"<td class='text'>{_e(text)}</td>" if wordy else f"<td>{_e(text)}</td>"


def _table(block: TableBlock) -> str:
    if not block.body:
        return f"<section><h2>{_e(block.title)}</h2><p class='empty'>{_e(block.empty)}</p></section>"
    head = "".join(f"<th scope='col'>{_e(h)}</th>" for h in block.head)
    rows = []
    for i, line in enumerate(block.body):
        cls = " class='marked'" if i in block.marked_rows else ""
        cells = "".join(f"<th scope='row'>{_e(c)}</th>" if j == 0 else _cell(c) for j, c in enumerate(line))
        rows.append(f"<tr{cls}>{cells}</tr>")
    return (f"<section><h2>{_e(block.title)}</h2>{_how(block.how_to_read)}"
            f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></section>")


def _chart(block: ChartBlock) -> str:
    if block.png is None:
        return f"<section><h2>{_e(block.title)}</h2><p class='empty'>No chart: {_e(block.empty)}</p></section>"
    data = base64.b64encode(block.png).decode("ascii")
    return (f"<section><h2>{_e(block.title)}</h2>{_how(block.how_to_read)}"
            f"<figure><img alt='{_e(block.alt)}' src='data:image/png;base64,{data}'></figure></section>")


def _text(block: TextBlock) -> str:
    return f"<section><h2>{_e(block.title)}</h2>" + "".join(f"<p>{_e(line)}</p>" for line in block.lines) + \
        "</section>"


def render_block(block: Block) -> str:
    if isinstance(block, TableBlock):
        return _table(block)
    if isinstance(block, ChartBlock):
        return _chart(block)
    return _text(block)


def render_page(page: Page) -> str:
    """The whole report as one self-contained HTML document."""
    body = _header(page) + _notes(page.notes) + "".join(render_block(b) for b in page.blocks)
    return (f"<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{_e(page.lab)}: {_e(page.run.run_id)}</title><style>{stylesheet()}</style></head>"
            f"<body><main>{body}<footer>relaykit {_e(relaykit_version())} · "
            f"ratio = tokens out / tokens in everywhere (below 1 = smaller)</footer></main></body></html>\n")


__all__ = ["Block", "ChartBlock", "Page", "TableBlock", "TextBlock", "readable", "render_block", "render_page",
           "stylesheet"]
