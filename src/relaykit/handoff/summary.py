"""``summary``: a narrative summary written by a model, with a hard word cap (250 words by default).

An answer over the cap is cut at the last sentence boundary inside it, and the cut is recorded in the
hand-off's warnings. A trace too long for the model's window is summarised piece by piece.
"""

from __future__ import annotations

from dataclasses import dataclass

from relaykit.handoff.base import Compressed, FunctionCompressor, Job, register_compressor
from relaykit.handoff.chunking import fit_chunks, room_for_trace
from relaykit.handoff.text import split_sentences
from relaykit.models.base import ChatRequest

SYSTEM = ("You condense an agent's working notes for the agent that acts next. Write plain prose. Keep "
          "every fact the goal depends on: option identifiers, exact numbers with their units, and which "
          "options were ruled out and why. Do not add facts. Stay under {words} words.")


def _messages(goal: str, trace: str, words: int) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": SYSTEM.format(words=words)},
        {"role": "user", "content": f"Goal:\n{goal}\n\nNotes:\n{trace}\n\nSummary:"},
    ]


def cap_words(text: str, cap: int) -> tuple[str, str | None]:
    """``text`` cut to at most ``cap`` words at a sentence boundary; the second item describes any cut."""
    words = text.split()
    if len(words) <= cap:
        return text.strip(), None
    kept: list[str] = []
    for sentence in split_sentences(text):
        if len(" ".join([*kept, sentence]).split()) > cap:
            break
        kept.append(sentence)
    result = " ".join(kept) if kept else " ".join(words[:cap])
    return result, f"summary cut from {len(words)} to {len(result.split())} words (cap {cap})"


def summary(job: Job) -> Compressed:
    cap, max_tokens = int(job.settings["max_words"]), int(job.settings["max_tokens"])
    model = job.model
    room = room_for_trace(model, _messages(job.goal, "", cap), max_tokens)
    chunks = fit_chunks(model, job.trace, room)
    share = max(20, cap // len(chunks))
    parts = []
    for chunk in chunks:
        request = ChatRequest.of(_messages(job.goal, chunk, share), max_tokens=max_tokens, temperature=0.0,
                                 seed=int(job.settings["seed"]))
        response = model.complete(request)
        job.meter.add_response(response)
        parts.append(response.text.strip())
    text, cut = cap_words(" ".join(p for p in parts if p), cap)
    warnings = [f"the trace did not fit {model.name}'s window; it was summarised in {len(chunks)} pieces"] \
        if len(chunks) > 1 else []
    if cut:
        warnings.append(cut)
    if not text:
        warnings.append(f"{model.name} returned an empty summary")
    return Compressed(text, warnings=tuple(warnings))


@dataclass(frozen=True)
class SummarySettings:
    """The settings of ``summary`` (defaults as shown)."""

    max_words: int = 250
    max_tokens: int = 512
    seed: int = 0


register_compressor("summary", FunctionCompressor.of(summary, SummarySettings, needs_model=True))
