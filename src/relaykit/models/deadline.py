"""Total deadlines for model calls: connect, headers and body together, however slowly a server trickles.

HTTP clients only bound each socket operation (httpx2 has no total timeout), so a server that sends one
byte every few seconds keeps a call alive for ever. Three pieces close that gap:

- :func:`deadline_scope` sets, for the calls made inside it, the monotonic time by which they must end;
  nested scopes keep the sooner end (a ``FallbackChain``'s overall deadline bounds each member's call).
- :class:`DeadlineTransport` is an httpx2 transport whose every connect, read and write waits at most
  until that end; past it the operation raises a timeout and the connection is closed.
- :func:`run_with_deadline` runs a call in a worker thread and stops waiting for it at the deadline,
  for what no socket timeout covers (a DNS lookup that hangs, a caller-supplied HTTP client, a backend
  without a deadline of its own): the caller gets ``ModelTimeout`` on time either way.

The same transport bounds an answer's size: it reads at most ``MAX_ANSWER_BYTES`` of a body, counted after
decompression (it decodes gzip and deflate itself, so that a small compressed body cannot expand without
bound), and refuses a body in an encoding it did not ask for (:class:`BadAnswerBody`).
"""

from __future__ import annotations

import contextvars
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import httpcore2
import httpx2 as httpx

from relaykit.errors import ModelTimeout

T = TypeVar("T")

GRACE_S = 0.25
"""How long after the deadline the worker-thread guard gives a call whose own socket timeouts should
have fired, before it stops waiting."""

_END: contextvars.ContextVar[float | None] = contextvars.ContextVar("relaykit_call_deadline", default=None)


def remaining() -> float | None:
    """Seconds left before the innermost deadline (negative once passed); ``None`` outside any scope."""
    end = _END.get()
    return None if end is None else end - time.monotonic()


@contextmanager
def deadline_scope(seconds: float | None) -> Iterator[float | None]:
    """Within the block, model calls must end ``seconds`` from now, or sooner if an outer scope ends sooner.

    Yields the seconds actually left (``None`` when neither this nor an outer scope sets a deadline).
    """
    outer = _END.get()
    end = outer if seconds is None else time.monotonic() + seconds
    if outer is not None and end is not None:
        end = min(outer, end)
    token = _END.set(end)
    try:
        yield None if end is None else end - time.monotonic()
    finally:
        _END.reset(token)


def run_with_deadline(call: Callable[[], T], seconds: float | None, describe: Callable[[], str]) -> T:
    """The result of ``call()``, run in a daemon thread that is awaited ``seconds`` at most.

    Past that the thread is abandoned (it ends when its own socket operations time out) and
    ``ModelTimeout(describe())`` is raised; errors of ``call`` are re-raised as they are.
    """
    if seconds is None:
        return call()
    box: dict[str, Any] = {}
    done = threading.Event()
    context = contextvars.copy_context()

    def work() -> None:
        try:
            box["value"] = context.run(call)
        except BaseException as exc:  # handed over to the waiting thread
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=work, name="relaykit-model-call", daemon=True).start()
    if not done.wait(max(seconds, 0.0)):
        raise ModelTimeout(describe())
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


def _bounded(timeout: float | None, error: type[Exception]) -> float | None:
    """``timeout`` cut to the time left before the deadline; raises ``error`` once it has passed."""
    left = remaining()
    if left is None:
        return timeout
    if left <= 0:
        raise error("the call's total deadline passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore2.NetworkStream):
    def __init__(self, stream: httpcore2.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _bounded(timeout, httpcore2.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _bounded(timeout, httpcore2.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore2.NetworkStream:
        inner = self._stream.start_tls(ssl_context, server_hostname, _bounded(timeout, httpcore2.ConnectTimeout))
        return _DeadlineStream(inner)

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class _DeadlineBackend(httpcore2.NetworkBackend):
    def __init__(self, backend: httpcore2.NetworkBackend) -> None:
        self._backend = backend

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> httpcore2.NetworkStream:
        stream = self._backend.connect_tcp(host, port, _bounded(timeout, httpcore2.ConnectTimeout),
                                           local_address, socket_options)
        return _DeadlineStream(stream)

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Iterable[Any] | None = None) -> httpcore2.NetworkStream:
        stream = self._backend.connect_unix_socket(path, _bounded(timeout, httpcore2.ConnectTimeout), socket_options)
        return _DeadlineStream(stream)

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


DEFAULT_LIMITS = httpx.Limits(max_connections=1000, max_keepalive_connections=100)

MAX_ANSWER_BYTES = 64 * 2**20
"""The most bytes of an answer's body a model call reads, after decompression (answers are kilobytes; a server
that sends more is refused rather than allowed to fill the process's memory)."""
ACCEPTED_ENCODINGS = "gzip, deflate"
"""What the client asks for; a body in another encoding is refused (see ``_CappedStream``)."""


class BadAnswerBody(httpx.TransportError):
    """An answer's body that relaykit will not read: larger than ``MAX_ANSWER_BYTES`` once decompressed, or in an
    encoding it did not ask for, or not decodable as the encoding it declares."""


class _CappedStream(httpx.SyncByteStream):
    """A response body read through at most ``limit`` decoded bytes; gzip and deflate are decoded here, chunk by
    chunk, each asked for no more than what is left of the limit."""

    def __init__(self, inner: httpx.SyncByteStream, limit: int, encoding: str) -> None:
        self._inner, self._limit, self._encoding = inner, limit, encoding

    def __iter__(self) -> Iterator[bytes]:
        wbits = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}.get(
            self._encoding)
        decoder = None if wbits is None else zlib.decompressobj(wbits)
        first, total = True, 0
        for chunk in self._inner:
            if decoder is not None:
                try:
                    chunk = decoder.decompress(chunk, self._limit - total + 1)
                except zlib.error as exc:
                    if not (first and self._encoding == "deflate"):
                        raise BadAnswerBody(f"its {self._encoding} body does not decode ({exc})") from None
                    decoder = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate, without the zlib header
                    chunk = decoder.decompress(chunk, self._limit - total + 1)
                first = False
            total += len(chunk)
            if total > self._limit:
                raise self._too_large()
            if chunk:
                yield chunk
        if decoder is not None:
            rest = decoder.flush()
            if total + len(rest) > self._limit:
                raise self._too_large()
            if rest:
                yield rest

    def _too_large(self) -> BadAnswerBody:
        return BadAnswerBody(f"its answer is larger than {self._limit // 2**20} MB (read no further)")

    def close(self) -> None:
        self._inner.close()


class DeadlineTransport(httpx.HTTPTransport):
    """httpx2's HTTP transport, with every socket operation cut to the current :func:`deadline_scope`.

    ``deadline_aware`` is False only if httpx2's internals changed so that the network backend could not
    be wrapped; the worker-thread guard then still ends calls on time.
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("limits", DEFAULT_LIMITS)
        super().__init__(**kwargs)
        pool = getattr(self, "_pool", None)
        backend = getattr(pool, "_network_backend", None)
        self.deadline_aware = isinstance(backend, httpcore2.NetworkBackend)
        if self.deadline_aware:
            pool._network_backend = _DeadlineBackend(backend)  # type: ignore[union-attr, arg-type]
        self.max_answer_bytes = MAX_ANSWER_BYTES

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        if encoding not in ("identity", "", "gzip", "x-gzip", "deflate"):
            response.close()
            raise BadAnswerBody(f"it sent its answer encoded as {encoding!r}, which was not asked for "
                                f"(Accept-Encoding: {ACCEPTED_ENCODINGS})")
        headers = [(k, v) for k, v in response.headers.multi_items()
                   if k.lower() not in ("content-encoding", "content-length")] if encoding not in ("identity", "") \
            else response.headers
        assert isinstance(response.stream, httpx.SyncByteStream)
        return httpx.Response(status_code=response.status_code, headers=headers,
                              stream=_CappedStream(response.stream, self.max_answer_bytes, encoding),
                              extensions=response.extensions)


def deadline_client(timeout: float) -> httpx.Client:
    """An HTTP client for OpenAI-compatible calls whose total time is bounded by :func:`deadline_scope`."""
    return httpx.Client(transport=DeadlineTransport(), timeout=httpx.Timeout(timeout), follow_redirects=True,
                        headers={"Accept-Encoding": ACCEPTED_ENCODINGS})


__all__ = ["MAX_ANSWER_BYTES", "BadAnswerBody", "DeadlineTransport", "deadline_client", "deadline_scope", "remaining",
           "run_with_deadline"]
