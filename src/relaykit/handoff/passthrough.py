"""``passthrough``: the control condition; the next agent receives the whole trace."""

from __future__ import annotations

from relaykit.handoff.base import Compressed, FunctionCompressor, Job, register_compressor


def passthrough(job: Job) -> Compressed:
    return Compressed(job.trace)


register_compressor("passthrough", FunctionCompressor(passthrough, {}))
