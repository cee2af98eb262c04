"""Dialogue lines of the hand-off reader (``relaykit.handoff.evidence``; the reader's mixin ``Speakers``): a
speaker label at a line start ("Agent:", "[09:12] Priya:", "Sam (09:12):") is who speaks, not evidence."""

from __future__ import annotations

import re

from mypy_extensions import trait

from relaykit.handoff.lexicon import verdict_of
from relaykit.handoff.reading import DECISION_HEADERS, SPEAKERS
from relaykit.handoff.remarks import is_remark
from relaykit.handoff.table import typed

_SPEAKER = re.compile(r"^(?P<stamp>\[[^\]]{1,25}\]\s*|\([^)]{1,25}\)\s*|"
                      r"\d{1,2}:\d{2}(?::\d{2})?\s?(?:[AaPp][Mm])?\s*(?:[-–—|]\s*)?(?=[A-Za-z]))?"
                      r"(?P<who>[A-Za-z][A-Za-z]{0,15})(?P<after>\s*\([^)]{1,25}\))?\s*:\s+(?=\S)")
"""A speaker label at a line start, with a time stamp ("[10:02] sam: ...", "10:02 - sam: ...", "Sam (10:02): ...")
or none."""
_CLOCK = re.compile(r"\d:\d\d")


@trait
class Speakers:
    """The reader's part that strips speaker labels (a mixin of ``evidence._Reader``)."""

    speakers: set[str]
    spoken: bool  # the line before began with a speaker label
    block: str | None

    def ids(self, text: str) -> list[str]:
        raise NotImplementedError

    def _unspoken(self, line: str) -> str:
        """The line without a dialogue speaker label ("Agent: AP7 is ..." -> "AP7 is ..."): a known speaker
        word, a label seen before a question ("Me: And AP9?"), one that answers a speaker's line, or one whose
        line only judges ("ops: nah, that's out."; the verdict then goes to the option spoken of before)."""
        found = _SPEAKER.match(line)
        answered, self.spoken = self.spoken, False
        if found is None or self.ids(found.group("who")):
            return line
        said = found.group("who")
        who = said.lower()
        rest = line[found.end():]
        stamped = _CLOCK.search(f"{found.group('stamp') or ''}{found.group('after') or ''}") is not None
        known = who in SPEAKERS or who in self.speakers or stamped  # a time stamp: a chat line
        # "owner: fine, out.": a remark that only judges is spoken (a "decision: out" label is no speaker)
        remark = self.block is None and who not in DECISION_HEADERS and is_remark(rest) and not typed(rest)
        asked = said[0].isupper() and rest.endswith("?") and not typed(rest)
        # an answer to a speaker's line: a capitalised label, or any label before an option id ("sam: VN6 fits 40")
        answers = answered and self.block is None and (said[0].isupper() or bool(self.ids(rest)))
        if known or remark or asked or answers or self._tells(who, rest):
            if len(self.speakers) < 64:
                self.speakers.add(who)
            self.spoken = True
            return rest
        return line

    def _tells(self, who: str, rest: str) -> bool:
        """A one-word label before a sentence that opens with an option id ("alex: GV-51 is an 80 GB card"): who
        speaks, not what the option's value is (never a decision or verdict label: "winner: GV-51 ...")."""
        words = rest.split(None, 3)
        return len(words) >= 3 and self.block is None and who not in DECISION_HEADERS \
            and words[1][:1].islower() and bool(self.ids(words[0])) and verdict_of(who) is None


__all__ = ["Speakers"]
