"""The hand-off reader's part (``relaykit.handoff.evidence``; the mixin ``OutsiderReadings``) that applies the
readings of ``relaykit.handoff.leads``: a comparison's second value for the option compared with, and "only the
first" after a list of options."""

from __future__ import annotations

import re

from mypy_extensions import trait

from relaykit.handoff.leads import only_placed, versus_object
from relaykit.handoff.lexicon import verdict_of
from relaykit.handoff.reading import without_comparisons
from relaykit.handoff.table import typed


@trait
class OutsiderReadings:
    """Comparisons and "only the first" (a mixin of ``evidence._Reader``)."""

    id_re: re.Pattern[str]
    notes: list[str]
    group: list[str] | None
    paragraph: dict[str, None]
    def _is_option(self, word: str) -> bool:
        raise NotImplementedError


    def _apply(self, option_id: str, text: str, shared: str | None = None) -> None:
        raise NotImplementedError

    def _judge(self, ids: list[str], verdict: str) -> None:
        raise NotImplementedError

    def _uncompared(self, clause: str) -> str:
        """The clause without its comparisons with another option (see ``without_comparisons``)."""
        clause, relative = without_comparisons(self._versus(clause), self.id_re, self._is_option)
        if relative is not None:
            self.notes.append(relative)
        return clause

    def _versus(self, clause: str) -> str:
        """A comparison's second value goes to the option compared with ("FL3 is cheaper than FL2: 1,250 EUR
        versus 1,480 EUR"); the clause without it."""
        found = versus_object(clause, self.id_re)
        if found is None or not self._is_option(found[1]):
            return clause
        self._apply(found[1], found[2])
        return found[0]

    def _only_placed(self, clause: str) -> bool:
        """"Of PX1, PX2 and PX3, only the first qualifies": that option passes and the others fail (a place no
        option holds judges nobody)."""
        if clause[:5].lower() not in ("only ", "just ") and clause[:7].lower() != "solely ":
            return False
        order = self.group or list(self.paragraph)
        found = only_placed(clause, order)
        if found is None:
            return False
        target, rest = found
        if target is None:
            if typed(clause):
                self.notes.append(clause)
            return True
        self._apply(target, rest)
        if verdict_of(rest) == "pass":
            self._judge([i for i in order if i != target], "fail")
        return True


__all__ = ["OutsiderReadings"]
