"""Backend for OpenAI and any OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio, LiteLLM).

Servers differ in how they take an output schema, so the backend tries, in order, the
``json_schema`` response format, llama.cpp's ``{"type": "json_object", "schema": ...}`` form, and
plain instructions plus validation; it remembers the first form a server accepted.

Every call has a total deadline, ``timeout`` seconds for connect, headers and body together (see
:mod:`relaykit.models.deadline`): a server that trickles its answer or hangs costs ``timeout`` at most.
Answers that carry no usable text (an ``error`` object in a 200, ``null`` or empty content) are errors,
so a ``FallbackChain`` moves on instead of passing an empty answer along.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx2 as httpx

from relaykit import tokens
from relaykit.errors import InvalidOutput, ModelError, ModelTimeout, RateLimited, ServerError, UsageError
from relaykit.models.base import ChatRequest, ChatResponse, Model, TokenLogprob, schema_name
from relaykit.models.deadline import GRACE_S, BadAnswerBody, deadline_client, deadline_scope, run_with_deadline
from relaykit.models.structured import schema_instruction
from relaykit.redact import scrub, strip_url_credentials
from relaykit.settings import load_settings

DEFAULT_TIMEOUT_S = 60.0

SCHEMA_MODES = ("json_schema", "json_object", "prompt")

KNOWN_WINDOWS = {
    "gpt-4.1": 1_047_576,
    "gpt-4o": 128_000,
    "gpt-4-turbo": 128_000,
    "gpt-5": 400_000,
    "o3": 200_000,
    "o4-mini": 200_000,
    "gpt-3.5-turbo": 16_385,
}


class _OutOfTime(ModelTimeout):
    """A socket operation hit the call's deadline; ``_complete`` words the message."""


def _checked_timeout(timeout: float | None) -> float:
    value = load_settings().timeout if timeout is None else timeout
    value = DEFAULT_TIMEOUT_S if value is None else float(value)
    if not 0 < value < float("inf"):
        raise UsageError(f"timeout must be a positive number of seconds, not {timeout!r}")
    return value


def _raise_error_object(raw: Any, name: str) -> None:
    """Raise the server's own message when a 200 answer carries an ``error`` object instead of choices."""
    extra = getattr(raw, "model_extra", None) or {}
    error = extra.get("error") if isinstance(extra, dict) else None
    if error is None or getattr(raw, "choices", None):
        return
    message = error.get("message") if isinstance(error, dict) else error
    code = error.get("code") if isinstance(error, dict) else None
    text = scrub(str(message or error))[:500]
    if str(code) == "429":
        raise RateLimited(f"{name} answered 200 with a rate-limit error: {text}; slow down or wait")
    raise ServerError(f"{name} answered 200 with an error instead of a completion: {text}")


def known_window(model: str, default: int) -> int:
    matches = [p for p in KNOWN_WINDOWS if model.startswith(p)]
    return KNOWN_WINDOWS[max(matches, key=len)] if matches else default


class OpenAICompatModel(Model):
    """A chat model behind an OpenAI-compatible HTTP API.

    ``timeout`` is the total deadline of one call in seconds (default ``RELAYKIT_TIMEOUT``, else 60). With
    an ``http_client`` of your own, the deadline is kept by a worker-thread guard only: the abandoned
    request then runs on until that client's own timeouts end it. ``name`` and ``repr`` never show the
    credentials of a ``user:password@`` base URL.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        context_window: int | None = None,
        timeout: float | None = None,
        schema_mode: str | None = None,
        http_client: httpx.Client | None = None,
    ) -> None:
        import openai

        if schema_mode is not None and schema_mode not in SCHEMA_MODES:
            raise UsageError(f"schema_mode must be one of {', '.join(SCHEMA_MODES)}, not {schema_mode!r}")
        self.timeout = _checked_timeout(timeout)
        self.model = model
        self.name = model if base_url is None else f"{model}@{strip_url_credentials(base_url)}"
        self.encoding = tokens.encoding_for_model(model)
        self.context_window = context_window or known_window(model, 128_000 if base_url is None else 8192)
        self._schema_modes = [schema_mode] if schema_mode else list(SCHEMA_MODES)
        self._lock = threading.Lock()
        self._client = openai.OpenAI(
            base_url=base_url,
            api_key=api_key or "not-needed",
            timeout=self.timeout,
            max_retries=0,
            http_client=http_client or deadline_client(self.timeout),
        )

    @property
    def schema_mode(self) -> str:
        return self._schema_modes[0]

    def _complete(self, request: ChatRequest) -> ChatResponse:
        with deadline_scope(self.timeout) as left:
            budget = self.timeout if left is None else left
            try:
                return run_with_deadline(lambda: self._complete_in_time(request), budget + GRACE_S,
                                         lambda: self._late(budget))
            except _OutOfTime as exc:
                raise ModelTimeout(self._late(budget)) from exc.__cause__

    def _late(self, budget: float) -> str:
        """The message of a call that ran out of time."""
        if budget < self.timeout - 1e-3:
            return (f"{self.name} did not answer within the {budget:.3g} s left of the caller's deadline "
                    "(a fallback chain's overall deadline); raise that deadline or try again later")
        return (f"{self.name} did not answer within its {self.timeout:g} s deadline (connect, headers and body "
                "together); raise the timeout (--timeout, timeout=, RELAYKIT_TIMEOUT) or try again later")

    def _complete_in_time(self, request: ChatRequest) -> ChatResponse:
        if request.schema is None:
            return self._call(request, {})
        failures: list[str] = []
        for mode in list(self._schema_modes):
            try:
                response = self._call(request, self._schema_params(request, mode))
            except ServerError as exc:
                if exc.status not in (400, 422, 500, 501) or mode == "prompt":
                    raise
                failures.append(f"{mode}: {exc}")
                with self._lock:  # this server rejects the form: never try it again
                    if mode in self._schema_modes and len(self._schema_modes) > 1:
                        self._schema_modes.remove(mode)
                continue
            return response
        raise ServerError(f"{self.name} accepted no form of structured output: {'; '.join(failures)}")

    def _schema_params(self, request: ChatRequest, mode: str) -> dict[str, Any]:
        schema = request.json_schema()
        assert schema is not None and request.schema is not None
        if mode == "json_schema":
            fmt = {"type": "json_schema", "json_schema": {"name": schema_name(request.schema)[:64],
                                                          "schema": schema, "strict": False}}
            return {"response_format": fmt}
        if mode == "json_object":
            return {"response_format": {"type": "json_object", "schema": schema}}
        messages = [*request.messages, {"role": "user", "content": schema_instruction(request.schema)}]
        return {"messages": messages}

    def _call(self, request: ChatRequest, extra: dict[str, Any]) -> ChatResponse:
        import openai

        params: dict[str, Any] = {
            "model": self.model,
            "messages": list(request.messages),
            "temperature": request.temperature,
            "max_tokens": request.max_tokens,
        }
        if request.seed is not None:
            params["seed"] = request.seed
        if request.stop:
            params["stop"] = list(request.stop)
        if request.logprobs:
            params["logprobs"] = True
        params.update(extra)
        started = time.perf_counter()
        try:
            raw = self._client.chat.completions.create(**params)
        except openai.APITimeoutError as exc:
            raise _OutOfTime(str(exc)) from exc
        except openai.APIError as exc:
            raise translate_openai_error(exc, self.name) from exc
        except (ValueError, json.JSONDecodeError) as exc:
            raise ServerError(f"{self.name} sent a malformed response body: {exc}") from exc
        return self._response(raw, request, time.perf_counter() - started)

    def _response(self, raw: Any, request: ChatRequest, latency: float) -> ChatResponse:
        _raise_error_object(raw, self.name)
        try:
            choice = raw.choices[0]
            content = choice.message.content
        except (AttributeError, IndexError, TypeError):
            raise ServerError(f"{self.name} sent a response without choices (nor an error object); "
                              "check that the base URL points at an OpenAI-compatible /v1 endpoint") from None
        content = _content_text(content, self.name)
        if content is None or not content.strip():
            raise InvalidOutput(f"{self.name} answered with {'no' if content is None else 'empty'} content "
                                f"(finish_reason {choice.finish_reason!r}); nothing usable to return",
                                raw_text=content or "")
        text = content
        usage = getattr(raw, "usage", None)
        prompt = getattr(usage, "prompt_tokens", None) or self.count_messages(request.messages)
        completion = getattr(usage, "completion_tokens", None) or self.count_tokens(text)
        logprobs = None
        content = getattr(getattr(choice, "logprobs", None), "content", None)
        if content:
            logprobs = tuple(TokenLogprob(t.token, float(t.logprob)) for t in content)
        return ChatResponse(
            text=text,
            model=self.name,
            prompt_tokens=int(prompt),
            completion_tokens=int(completion),
            latency_s=latency,
            finish_reason=str(choice.finish_reason or "stop"),
            logprobs=logprobs,
        )


def _content_text(content: Any, name: str) -> str | None:
    """A message's content as text: a string as it is; a list of content parts (what some servers send) as the
    text of its text parts, joined; ``None`` as ``None``. Anything else (a number, an object) is a malformed
    answer, not text to pass on."""
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for part in content:
            kind = part.get("type") if isinstance(part, dict) else getattr(part, "type", None)
            value = part.get("text") if isinstance(part, dict) else getattr(part, "text", None)
            if kind in ("text", "output_text") and isinstance(value, str):
                texts.append(value)
        return "".join(texts)
    raise ServerError(f"{name} sent a malformed answer: its content is {type(content).__name__}, not text")


def translate_openai_error(exc: Exception, name: str) -> ModelError:
    """Turn an ``openai`` SDK error into relaykit's tree, with a message that says what to do."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return ModelTimeout(f"{name} did not answer in time; raise the timeout or try again later")
    if isinstance(exc, openai.APIConnectionError):
        refused = _in_chain(exc, BadAnswerBody)  # the transport refused the body: too large, an encoding not asked for
        if refused is not None:
            return ServerError(f"{name} answered, but {refused}; check the server (or a proxy in front of it)")
        looped = _in_chain(exc, httpx.TooManyRedirects)
        if looped is not None:
            return ServerError(f"{name} redirected the call too many times ({scrub(str(looped))}); check the base "
                               "URL")
        cut = _cut_short(exc)
        if cut is not None:
            return ServerError(f"{name} closed the connection before its answer was complete (truncated "
                               f"response: {scrub(str(cut))}); the server may have crashed or a proxy cut it; "
                               "try again")
        return ServerError(f"cannot reach {name}: {scrub(str(exc))}; check the base URL and that the server runs")
    if isinstance(exc, openai.RateLimitError):
        return RateLimited(f"{name} is rate-limiting requests (429); slow down or wait",
                           retry_after=retry_after_seconds(exc.response.headers))
    if isinstance(exc, openai.AuthenticationError):
        return ModelError(f"{name} rejected the API key (401); check OPENAI_API_KEY")
    if isinstance(exc, openai.APIStatusError):
        return ServerError(f"{name} answered {exc.status_code}: {scrub(exc.message)}", status=exc.status_code)
    return ServerError(f"{name} sent a malformed response: {scrub(str(exc))}")


def _in_chain(exc: BaseException, kind: type[BaseException]) -> BaseException | None:
    """The first exception of type ``kind`` among ``exc`` and its causes."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, kind):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def _cut_short(exc: BaseException) -> BaseException | None:
    """The cause of a connection error when the server closed mid-answer, rather than never answering."""
    seen: BaseException | None = exc.__cause__ or exc.__context__
    while seen is not None:
        if isinstance(seen, (httpx.RemoteProtocolError, httpx.ReadError)):
            return seen
        if isinstance(seen, (httpx.ConnectError, httpx.ConnectTimeout)):
            return None
        seen = seen.__cause__ or seen.__context__
    return None


def retry_after_seconds(headers: httpx.Headers) -> float | None:
    for key in ("retry-after-ms", "retry-after"):
        value = headers.get(key)
        if value is None:
            continue
        try:
            seconds = float(value)
        except ValueError:
            return None
        return seconds / 1000 if key.endswith("-ms") else seconds
    return None
