"""The gateway's lean upstream client (relaykit.serve.pool) and its raw ASGI plumbing (relaykit.serve.asgi),
against a scripted asyncio server: keep-alive reuse, replies framed every way HTTP/1.1 allows, broken and slow
upstreams (the connection is never reused), and the request body's limit."""

from __future__ import annotations

import asyncio
import gzip
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import pytest

from relaykit.serve.asgi import Answer, ClientGone, GatewayError, read_body
from relaykit.serve.pool import Pool, Target, UpstreamProtocolError

Script = Callable[[bytes], bytes | None]  # the request (head + body) -> the raw reply (None: answer nothing)


class _Server(asyncio.Protocol):
    def __init__(self, script: Script, seen: list[tuple[Any, bytes]]) -> None:
        self.script, self.seen, self.buf = script, seen, b""

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buf += data
        end = self.buf.find(b"\r\n\r\n")
        if end < 0:
            return
        length = int(self.buf[:end].lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        if len(self.buf) < end + 4 + length:
            return
        request, self.buf = self.buf[:end + 4 + length], self.buf[end + 4 + length:]
        self.seen.append((self, request))
        reply = self.script(request)
        if reply is not None:
            self.transport.write(reply)
            if b"connection: close" in reply.lower() or (b"content-length" not in reply.lower() \
                    and b"chunked" not in reply.lower()):
                self.transport.close()


def run(script: Script, body: Callable[[Pool, Target, list[tuple[Any, bytes]]], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        seen: list[tuple[Any, bytes]] = []
        server = await asyncio.get_running_loop().create_server(lambda: _Server(script, seen), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        pool = Pool()
        target = Target(f"http://127.0.0.1:{port}/v1/chat/completions", {"authorization": "Bearer k"})
        try:
            return await body(pool, target, seen)
        finally:
            pool.close()
            server.close()
    return asyncio.run(main())


def reply(body: bytes, status: str = "200 OK", extra: str = "") -> bytes:
    return f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n{extra}content-length: {len(body)}\r\n\r\n" \
        .encode() + body


def test_requests_reuse_one_keep_alive_connection_and_carry_the_head() -> None:
    async def body(pool: Pool, target: Target, seen: list[tuple[Any, bytes]]) -> None:
        for k in range(3):
            got = await pool.post(target, b'{"n": %d}' % k)
            assert (got.status, got.body, got.headers["content-type"]) == (200, b'{"ok": 1}', "application/json")
        assert len({conn for conn, _ in seen}) == 1  # one connection served all three
        head = seen[0][1].decode()
        assert head.startswith("POST /v1/chat/completions HTTP/1.1\r\n")
        assert "host: 127.0.0.1:" in head and "authorization: Bearer k\r\n" in head and head.endswith('{"n": 0}')
    run(lambda _: reply(b'{"ok": 1}'), body)


def test_connection_close_chunked_eof_and_gzip_replies_are_read_whole() -> None:
    replies = [reply(b"closing", extra="connection: close\r\n"),
               b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
               b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nuntil the end",
               reply(gzip.compress(b"zipped"), extra="content-encoding: gzip\r\n"),
               reply(b'{"error": "busy"}', "429 Too Many Requests", "retry-after: 3\r\n")]

    async def body(pool: Pool, target: Target, seen: list[tuple[Any, bytes]]) -> None:
        got = [await pool.post(target, b"{}") for _ in range(5)]
        assert [g.body for g in got] == [b"closing", b"abcde", b"until the end", b"zipped", b'{"error": "busy"}']
        assert (got[4].status, got[4].headers["retry-after"]) == (429, "3")
        assert "content-encoding" not in got[3].headers
        assert len({conn for conn, _ in seen}) == 3  # closed after the first and the third (the end of its body)
    run(lambda _: replies.pop(0), body)


def test_a_broken_or_garbled_reply_fails_and_the_connection_is_not_reused() -> None:
    replies = [b"HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 50\r\n\r\nshort",
               b"NOT HTTP AT ALL\r\n\r\n", reply(b"fine")]

    async def body(pool: Pool, target: Target, seen: list[tuple[Any, bytes]]) -> None:
        for _ in range(2):
            with pytest.raises(UpstreamProtocolError):
                await asyncio.wait_for(pool.post(target, b"{}"), 5)
        assert (await pool.post(target, b"{}")).body == b"fine"
        assert len({conn for conn, _ in seen}) == 3
    run(lambda _: replies.pop(0), body)


def test_a_deadline_closes_the_connection_it_interrupts() -> None:
    answers: list[bytes | None] = [None, reply(b"second")]

    async def body(pool: Pool, target: Target, seen: list[tuple[Any, bytes]]) -> None:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(pool.post(target, b"{}"), 0.2)
        assert (await pool.post(target, b"{}")).body == b"second"
        assert len({conn for conn, _ in seen}) == 2  # the late reply can never be read as the next one's
    run(lambda _: answers.pop(0), body)


def test_an_unreachable_upstream_is_an_os_error() -> None:
    async def main() -> None:
        with pytest.raises(OSError):
            await Pool().post(Target("http://127.0.0.1:9/v1", {}), b"{}")
    asyncio.run(main())
    with pytest.raises(ValueError, match="http:// or https://"):
        Target("ftp://host/v1", {})


def _receiver(messages: list[dict[str, Any]]) -> Callable[[], Awaitable[dict[str, Any]]]:
    async def receive() -> dict[str, Any]:
        return messages.pop(0)
    return receive


def test_read_body_joins_parts_refuses_oversize_and_notices_a_gone_client() -> None:
    scope: dict[str, Any] = {"headers": [(b"content-length", b"6")]}
    parts: list[dict[str, Any]] = [{"type": "http.request", "body": b"abc", "more_body": True},
                                   {"type": "http.request", "body": b"def"}]
    assert asyncio.run(read_body(scope, _receiver(parts), 10)) == b"abcdef"
    with pytest.raises(GatewayError) as declared:
        asyncio.run(read_body({"headers": [(b"content-length", b"99")]}, _receiver([]), 10))
    assert declared.value.status == 413
    big: list[dict[str, Any]] = [{"type": "http.request", "body": b"x" * 8, "more_body": True},
                                 {"type": "http.request", "body": b"x" * 8}]
    with pytest.raises(GatewayError, match="limit of 10 bytes"):
        asyncio.run(read_body({"headers": []}, _receiver(big), 10))
    with pytest.raises(ClientGone):
        asyncio.run(read_body({"headers": []}, _receiver([{"type": "http.disconnect"}]), 10))


def test_an_answer_is_two_asgi_messages_with_its_length() -> None:
    sent: list[MutableMapping[str, Any]] = []

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)
    answer = GatewayError(429, "slow down", "rate_limit_error", {"retry-after": "2"}).answer()
    asyncio.run(answer({}, _receiver([]), send))
    assert isinstance(answer, Answer) and sent[0]["status"] == 429
    headers = dict(sent[0]["headers"])
    assert headers[b"content-length"] == b"%d" % len(sent[1]["body"]) and headers[b"retry-after"] == b"2"
    assert b'"type":"rate_limit_error"' in sent[1]["body"]


def test_an_idle_connection_that_speaks_unasked_is_not_reused() -> None:
    async def body(pool: Pool, target: Target, seen: list[tuple[Any, bytes]]) -> None:
        assert (await pool.post(target, b"{}")).body == b"one"
        seen[0][0].transport.write(reply(b"stray"))  # the server talks out of turn
        await asyncio.sleep(0.1)
        assert (await pool.post(target, b"{}")).body == b"two"
        assert len({conn for conn, _ in seen}) == 2
    answers = [reply(b"one"), reply(b"two")]
    run(lambda _: answers.pop(0), body)


def test_a_connection_idle_past_the_limit_is_closed_not_reused(monkeypatch: pytest.MonkeyPatch) -> None:
    import relaykit.serve.pool as pool_module

    monkeypatch.setattr(pool_module, "IDLE_S", 0.05)

    async def body(pool: Pool, target: Target, seen: list[tuple[Any, bytes]]) -> None:
        assert (await pool.post(target, b"{}")).body == b"one"
        assert (await pool.post(target, b"{}")).body == b"two"  # at once: the same connection
        await asyncio.sleep(0.2)
        assert (await pool.post(target, b"{}")).body == b"three"
        assert [conn for conn, _ in seen].count(seen[0][0]) == 2 and seen[2][0] is not seen[0][0]
    answers = [reply(b"one"), reply(b"two"), reply(b"three")]
    run(lambda _: answers.pop(0), body)


def test_an_https_upstream_is_reached_through_tls_with_the_host_checked(tmp_path: Any) -> None:
    import shutil
    import ssl
    import subprocess

    openssl = shutil.which("openssl")
    assert openssl, "the openssl command makes this test's certificate"
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_tls.load_cert_chain(cert, key)

    async def main() -> tuple[bytes, bytes, str]:
        seen: list[tuple[Any, bytes]] = []
        answers = [reply(b"secure"), reply(b"again")]
        server = await asyncio.get_running_loop().create_server(
            lambda: _Server(lambda _: answers.pop(0), seen), "127.0.0.1", 0, ssl=server_tls)
        port = server.sockets[0].getsockname()[1]
        pool = Pool()
        pool._tls = ssl.create_default_context(cafile=str(cert))  # trust the test's own certificate
        try:
            target = Target(f"https://localhost:{port}/v1/chat/completions", {})
            first = (await pool.post(target, b"{}")).body
            second = (await pool.post(target, b"{}")).body  # the same TLS connection, kept alive
            wrong = Target(f"https://127.0.0.1:{port}/v1/chat/completions", {})  # not the certificate's name
            try:
                await pool.post(wrong, b"{}")
                verdict = "accepted"
            except ssl.SSLCertVerificationError:
                verdict = "refused"
            assert len({conn for conn, _ in seen}) == 1
            return first, second, verdict
        finally:
            pool.close()
            server.close()

    assert asyncio.run(main()) == (b"secure", b"again", "refused")


def test_a_reply_over_the_bound_fails_plain_or_as_a_gzip_bomb(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plain reply past ``MAX_REPLY_BYTES`` fails as it arrives (never held whole), and so does a small gzip body
    that expands past it; the next reply on a fresh connection is read as usual."""
    import relaykit.serve.pool as pool_module

    monkeypatch.setattr(pool_module, "MAX_REPLY_BYTES", 1000)
    replies = [reply(b"x" * 5000), reply(gzip.compress(b" " * 50_000), extra="content-encoding: gzip\r\n"),
               reply(b"x" * 1000), reply(gzip.compress(b"y" * 1000), extra="content-encoding: gzip\r\n")]

    async def body(pool: Pool, target: Target, seen: list[tuple[Any, bytes]]) -> None:
        for _ in range(2):
            with pytest.raises(UpstreamProtocolError, match="larger than"):
                await asyncio.wait_for(pool.post(target, b"{}"), 5)
        assert (await pool.post(target, b"{}")).body == b"x" * 1000  # at the bound: read
        assert (await pool.post(target, b"{}")).body == b"y" * 1000
    run(lambda _: replies.pop(0), body)


def test_the_aiohttp_path_reads_a_plain_reply_within_the_same_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain replies that go through aiohttp (no lean pool, or a stream answered with an error) are bounded too."""
    import aiohttp

    import relaykit.serve.upstream as upstream_module

    monkeypatch.setattr(upstream_module, "MAX_REPLY_BYTES", 1000)
    replies = [reply(b"x" * 5000), reply(gzip.compress(b" " * 50_000), extra="content-encoding: gzip\r\n"),
               reply(b"y" * 1000)]

    async def body(pool: Pool, target: Target, seen: list[tuple[Any, bytes]]) -> None:
        url = f"http://{target.host}:{target.port}/v1/chat/completions"
        async with aiohttp.ClientSession() as session:
            for _ in range(2):
                async with session.post(url, data=b"{}") as response:
                    with pytest.raises(UpstreamProtocolError, match="larger than"):
                        await upstream_module._read_bounded(response)
            async with session.post(url, data=b"{}") as response:
                assert await upstream_module._read_bounded(response) == b"y" * 1000
    run(lambda _: replies.pop(0), body)
