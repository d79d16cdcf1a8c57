"""A local server that speaks the Responses API wire format, for offline lessons and tests.

Chapter section 10 connects the runtime to DeepSeek's Responses API. Learners without an API
key, and CI without a network, still run that adapter for real: the real ``openai`` SDK sends
real HTTP with real JSON to :class:`LocalResponsesServer` on 127.0.0.1, which answers
``POST /responses`` from a script of :class:`Reply` objects. Its replies are scripted, not a
model's.

The server behaves like DeepSeek's documented, stateless API (its docs and public reports,
2026): it requires a ``Bearer`` Authorization header; it **silently ignores**
``previous_response_id`` (the context is simply not there, so the conversation must be sent
whole every turn) and answers ``store: false``; it answers 400 ``Model Not Exist`` for a model
it does not serve, and 400 for a ``function_call_output`` without its ``function_call`` or a
call without its output; in the opt-in thinking mode it puts a ``reasoning`` item (plain
``reasoning_text``) before each reply's output and answers 400 with DeepSeek's wording when a
later request drops it; ``usage.input_tokens_details.cached_tokens`` counts the prefix shared
with an earlier request. Errors are shaped ``{"error": {"message", "type", "code"}}``. It
records every request (:class:`RecordedRequest`) and can inject faults: HTTP error statuses,
malformed arguments, an ``incomplete`` status, a raw body with its own headers (a redirect, a
gzip body), a slow reply, a body sent one byte at a time.

What does not depend on the wire format (the thread, the script, the recording, the Bearer
check, the model check, the cached prefix, the faults) is :class:`LoopbackServer`, which
:class:`~agentcore.providers.local_chat_server.LocalChatServer` shares for Chat Completions.

The servers know nothing of the course: what they play is the script they are given (the
weather trajectory is built by :func:`agentcore.course.offline_replies.weather_script`). Only
the standard library is used (``http.server`` in a thread); importing this module does not
import ``openai`` or anything from :mod:`agentcore.course`.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import math
import socket
import sys
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, TypeVar

SERVED_MODELS = ("deepseek-flash", "deepseek-v4-flash")
"""The names the server answers for, as DeepSeek does today: ``deepseek-flash``, and the
retired alias ``deepseek-v4-flash`` that DeepSeek still routes to it."""
THINKING_400 = "The reasoning_text in the thinking mode must be passed back to the API."
"""DeepSeek's 400 message when a request drops a reasoning item it sent (thinking mode)."""
CREATED_AT = 1_767_225_600
"""The ``created_at`` of every reply (2026-01-01 UTC): fixed so that lesson outputs repeat."""

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "insufficient_balance",
    403: "permission_error",
    404: "not_found_error",
    422: "invalid_request_error",
    429: "rate_limit_error",
}


def function_call(name: str, arguments: Mapping[str, Any] | str, call_id: str) -> dict[str, Any]:
    """Return a ``function_call`` output item.

    ``arguments`` is a JSON object (serialised with ``ensure_ascii=False``, as the provider
    does) or a string sent exactly as given, which is how a test injects malformed arguments.
    The server adds ``id`` and ``status`` when it sends the item.
    """
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return {"type": "function_call", "call_id": call_id, "name": name, "arguments": text}


def message(text: str) -> dict[str, Any]:
    """Return an assistant ``message`` output item holding one ``output_text`` part."""
    return {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }


def reasoning(text: str) -> dict[str, Any]:
    """Return a ``reasoning`` output item holding ``text`` as plain ``reasoning_text``."""
    return {
        "type": "reasoning",
        "summary": [],
        "content": [{"type": "reasoning_text", "text": text}],
    }


@dataclass(frozen=True)
class Reply:
    """One scripted answer of a loopback server to one request.

    Written as Responses output items; :class:`LocalResponsesServer` sends them as they are,
    :class:`~agentcore.providers.local_chat_server.LocalChatServer` translates the same reply
    into a chat completion, so one script (such as
    :func:`agentcore.course.offline_replies.weather_script`) plays on both.

    Fields:

    * ``output``: the output items (:func:`function_call`, :func:`message`, or any dict such
      as a ``reasoning`` item), sent in this order.
    * ``status``: the response's ``status`` (``"completed"``; ``"incomplete"`` or
      ``"failed"`` to inject that fault).
    * ``incomplete_reason``: sent as ``incomplete_details.reason`` (for example
      ``"max_output_tokens"``).
    * ``http_status``: 200, or an error status (401, 404, 429, 500, ...) answered with a
      provider-style error body holding ``error_message``.
    * ``delay_seconds``: wait this long before answering (a slow reply, to trigger a timeout).
    * ``raw_body``: if set, sent as the body instead of JSON (a malformed reply; bytes are
      sent as they are, for example a gzip body).
    * ``headers``: extra response headers (``Location`` for a redirect, ``Content-Encoding``).
    * ``drip_seconds``: if set, the body is sent one byte at a time with this pause between
      bytes (a slow-drip server that never trips a per-read timeout).
    """

    output: tuple[dict[str, Any], ...] = ()
    status: str = "completed"
    incomplete_reason: str | None = None
    http_status: int = 200
    error_message: str = ""
    delay_seconds: float = 0.0
    raw_body: str | bytes | None = None
    headers: tuple[tuple[str, str], ...] = ()
    drip_seconds: float = 0.0


def http_error(status: int, error_message: str) -> Reply:
    """Return a reply that answers with HTTP ``status`` and a provider-style error body."""
    return Reply(http_status=status, error_message=error_message)


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server received, as the SDK sent it.

    * ``method`` and ``path`` (for example ``"POST"``, ``"/responses"``).
    * ``headers``: lower-case names; the Authorization value is shown as
      ``"Bearer <redacted>"`` so that printing a request never prints a key.
    * ``body``: the parsed JSON body (``None`` if it was not JSON).

    :meth:`sent_bearer` checks which key was sent without revealing it: the request keeps
    only a SHA-256 digest of the Authorization value, so that no copy of a key (``vars``,
    ``dataclasses.asdict``, a pickle) can be read back from it.
    """

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    _authorization_digest: bytes = field(default=b"", repr=False, compare=False)

    def sent_bearer(self, api_key: str) -> bool:
        """True if the request carried ``Authorization: Bearer <api_key>``."""
        return hmac.compare_digest(self._authorization_digest, _digest(f"Bearer {api_key}"))


def _digest(authorization: str) -> bytes:
    return hashlib.sha256(authorization.encode()).digest()


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a slow reply must not hold up stopping the server
    owner: LoopbackServer

    def __init__(self, address: tuple[str, int]) -> None:
        super().__init__(address, _Handler)
        # Each open connection's socket and the thread that serves it: a client's kept-alive
        # connection holds its thread, which must end when the server stops, not whenever the
        # client is collected (the grader refuses a verdict while a thread is still alive).
        self.connections: dict[threading.Thread, socket.socket] = {}
        self.connections_lock = threading.Lock()

    def finish_request(self, request: Any, client_address: Any) -> None:
        """Serve one connection, recorded while it is open (runs in its own thread)."""
        with self.connections_lock:
            self.connections[threading.current_thread()] = request
        try:
            super().finish_request(request, client_address)
        finally:
            with self.connections_lock:
                self.connections.pop(threading.current_thread(), None)

    def close_connections(self, timeout_seconds: float) -> None:
        """Hang up every open connection and wait up to ``timeout_seconds`` for its thread."""
        with self.connections_lock:
            open_now = dict(self.connections)
        for connection in open_now.values():
            # OSError: the client hung up first, and the socket is already closed
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
        for thread in open_now:
            thread.join(timeout_seconds)

    def handle_error(self, request: object, client_address: object) -> None:
        # A client that timed out and hung up is part of the test, not a server failure.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def setup(self) -> None:
        super().setup()
        if self.server.owner.keep_alive:  # HTTP/1.1: the connection stays open between requests
            self.protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet: lessons and tests read the recorded requests instead."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode("utf-8", errors="replace")
        try:
            body: Any = json.loads(raw)
        except json.JSONDecodeError:
            body = None
        status, payload, reply = self.server.owner._answer(
            self.command, self.path, dict(self.headers.items()), body
        )
        self._send(status, payload, reply)

    def _send(self, status: int, payload: str | bytes, reply: Reply | None) -> None:
        data = payload.encode("utf-8") if isinstance(payload, str) else payload
        self.send_response(status)
        extra = dict(reply.headers) if reply else {}
        if not any(name.lower() == "content-type" for name in extra):
            self.send_header("Content-Type", "application/json")
        for name, value in extra.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if reply is None or not reply.drip_seconds:
            self.wfile.write(data)
            return
        stopping = self.server.owner._stopping
        for index in range(len(data)):
            self.wfile.write(data[index : index + 1])
            self.wfile.flush()
            if stopping.wait(reply.drip_seconds):
                return


def _error_body(status: int, text: str) -> str:
    error_type = _ERROR_TYPES.get(status, "server_error")
    error = {"message": text, "type": error_type, "param": None, "code": None}
    return json.dumps({"error": error}, ensure_ascii=False)


def _input_items(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    items = body.get("input")
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def _unpaired(body: Mapping[str, Any]) -> str | None:
    """DeepSeek's 400 message for the first unpaired call or output in ``input``, if any."""
    calls: list[Any] = []
    outputs: set[Any] = set()
    for item in _input_items(body):
        if item.get("type") == "function_call":
            calls.append(item.get("call_id"))
        elif item.get("type") == "function_call_output":
            if item.get("call_id") not in calls:
                return f"No function_call found for function_call_output {item.get('call_id')!r}"
            outputs.add(item.get("call_id"))
    missing = [call_id for call_id in calls if call_id not in outputs]
    if missing:
        return f"No function_call_output found for function_call {missing[0]!r}"
    return None


def _shared_prefix(items: Sequence[Any], earlier: Sequence[Sequence[Any]]) -> list[Any]:
    """The longest run of leading items ``items`` shares with any earlier request's input."""
    best: list[Any] = []
    for before in earlier:
        count = 0
        for mine, theirs in zip(items, before, strict=False):
            if mine != theirs:
                break
            count += 1
        if count > len(best):
            best = list(items[:count])
    return best


def _rough_tokens(value: Any) -> int:
    # A stand-in for token counts (about four characters a token), not a tokenizer.
    return math.ceil(len(json.dumps(value, ensure_ascii=False)) / 4)


_ServerT = TypeVar("_ServerT", bound="LoopbackServer")


class LoopbackServer:
    """The part every loopback server shares: a script of :class:`Reply` objects played over
    real HTTP on 127.0.0.1, every request recorded, the provider's error shape.

    A subclass names its endpoint (``path``, for example ``"/responses"``), refuses what its
    provider refuses (:meth:`_refuse`), says where a request holds its conversation
    (:meth:`_conversation`, for the cached-token count) and shapes a scripted reply as its
    provider's JSON (:meth:`_response`). This base checks the path, the ``Bearer``
    Authorization header (and the key, when one is given), that the body is a JSON object and
    that the model is served (400 ``Model Not Exist`` otherwise, as DeepSeek answers), before
    a subclass sees the request; none of these refusals consumes a reply.

    Inputs: ``script``, the :class:`Reply` objects to give, one per accepted request, in
    order; ``api_key`` (optional): if given, any other Bearer key gets HTTP 401; ``thinking``
    (default ``False``): play DeepSeek's thinking mode (what it means is the subclass's wire
    format); ``models``: the model names served (:data:`SERVED_MODELS`); ``requires_key``
    (default ``True``): when ``False`` no Authorization header is needed (as Ollama, vLLM and
    llama-server answer when started without a key), for an adapter run with
    ``api_key=None``; then ``api_key`` must be ``None`` too (``ValueError`` otherwise);
    ``keep_alive`` (default ``False``): answer in HTTP/1.1 and keep each connection open for
    the client's next request, as a provider does (by default each answer closes its
    connection, HTTP/1.0).

    Attributes: ``base_url`` (``"http://127.0.0.1:<port>"``, set once started),
    ``requests`` (``list[RecordedRequest]``), ``replies_played`` (``int``). A request after
    the script is used up gets HTTP 500 saying so. Raises ``TypeError`` if the script holds
    something that is not a :class:`Reply`, and ``RuntimeError`` if entered twice.
    """

    path = "/"
    """The one endpoint the server answers (``POST``); any other path gets 404."""

    def __init__(
        self,
        script: Iterable[Reply],
        *,
        api_key: str | None = None,
        thinking: bool = False,
        models: Sequence[str] = SERVED_MODELS,
        requires_key: bool = True,
        keep_alive: bool = False,
    ) -> None:
        if api_key is not None and not requires_key:
            raise ValueError("api_key is checked only when requires_key is True; pass one of them")
        self._requires_key = requires_key
        self.keep_alive = keep_alive
        self._script = tuple(script)
        for index, reply in enumerate(self._script):
            if not isinstance(reply, Reply):
                raise TypeError(f"script[{index}] must be a Reply, got {type(reply).__name__}")
        self._api_key = api_key
        self.thinking = thinking
        self._models = tuple(models)
        self._inputs: list[list[Any]] = []  # each accepted request's conversation, for caching
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self.base_url = ""
        self.requests: list[RecordedRequest] = []
        self.replies_played = 0

    def __enter__(self: _ServerT) -> _ServerT:
        if self._server is not None:
            raise RuntimeError(f"this {type(self).__name__} was already started; make a new one")
        self._server = _Server(("127.0.0.1", 0))
        self._server.owner = self
        host, port = self._server.server_address[:2]
        self.base_url = f"http://{host!s}:{port}"
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.02},  # how soon stopping is noticed (default 0.5 s)
            name=type(self).__name__,
            daemon=True,
        )
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        assert self._server is not None and self._thread is not None
        self._stopping.set()  # wakes a slow reply that is still waiting
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
        self._server.close_connections(timeout_seconds=5.0)

    def _answer(
        self, method: str, path: str, headers: Mapping[str, str], body: Any
    ) -> tuple[int, str | bytes, Reply | None]:
        """Record one request; return the status, body and reply to send (runs in a handler)."""
        lowered = {name.lower(): value for name, value in headers.items()}
        authorization = lowered.get("authorization", "")
        if authorization:
            lowered["authorization"] = "Bearer <redacted>"
        with self._lock:
            self.requests.append(
                RecordedRequest(method, path, lowered, body, _digest(authorization))
            )
            refusal = self._refusal(method, path, authorization, body)
            if refusal is not None:
                return (*refusal, None)
            if self.replies_played >= len(self._script):
                return (
                    500,
                    _error_body(
                        500,
                        f"{type(self).__name__} has no scripted reply left for request "
                        f"{len(self.requests)}: its script holds {len(self._script)}",
                    ),
                    None,
                )
            reply = self._script[self.replies_played]
            self.replies_played += 1
            number = self.replies_played
            items = self._conversation(body)
            shared = _shared_prefix(items, self._inputs)
            cached = _rough_tokens(shared) if shared else 0
            self._inputs.append(items)
            answer = (
                self._response(number, reply, body, cached)
                if reply.raw_body is None and reply.http_status < 300
                else None
            )
        if reply.delay_seconds:
            self._stopping.wait(reply.delay_seconds)
        if reply.raw_body is not None:
            return reply.http_status, reply.raw_body, reply
        if reply.http_status >= 300:
            return reply.http_status, _error_body(reply.http_status, reply.error_message), reply
        return 200, json.dumps(answer, ensure_ascii=False), reply

    def _refusal(
        self, method: str, path: str, authorization: str, body: Any
    ) -> tuple[int, str] | None:
        """The rejections every loopback server makes before any scripted reply."""
        if not self._serves(path):
            return 404, _error_body(404, f"No route for {method} {path}; use POST {self.path}")
        if self._requires_key and not authorization.startswith("Bearer "):
            return 401, _error_body(401, "Authentication Fails: no Bearer API key was sent")
        if self._api_key is not None and not hmac.compare_digest(
            authorization, f"Bearer {self._api_key}"
        ):
            return 401, _error_body(401, "Authentication Fails: the API key is invalid")
        if not isinstance(body, dict):
            return 400, _error_body(400, "Invalid Format: the request body is not a JSON object")
        if body.get("model") not in self._models:
            return 400, _error_body(400, "Model Not Exist")
        return self._refuse(body)

    def _serves(self, path: str) -> bool:
        """True if ``path`` is this server's endpoint (a subclass may accept more than one)."""
        return path.rstrip("/") == self.path

    def _refuse(self, body: dict[str, Any]) -> tuple[int, str] | None:
        """What this endpoint refuses in a well-formed request (a subclass's rules)."""
        return None

    def _conversation(self, body: Mapping[str, Any]) -> list[Any]:
        """The conversation a request carries (a subclass's wire format), for cached tokens."""
        return []

    def _response(
        self, number: int, reply: Reply, request: Mapping[str, Any], cached_tokens: int
    ) -> dict[str, Any]:
        """The provider's JSON for scripted reply ``number`` (a subclass's wire format)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        # No port: a lesson that prints the server gets the same output on every run.
        state = "running" if self._server and not self._stopping.is_set() else "stopped"
        return (
            f"{type(self).__name__}({state}, replies played {self.replies_played} of "
            f"{len(self._script)}, requests={len(self.requests)})"
        )


class LocalResponsesServer(LoopbackServer):
    """A ``POST /responses`` server on 127.0.0.1 that plays a script (chapter section 10).

    Input: ``script``, the :class:`Reply` objects to give, one per accepted request, in
    order; ``api_key`` (optional): if given, any other Bearer key gets HTTP 401; ``thinking``
    (default ``False``): DeepSeek's thinking mode, which puts a scripted ``reasoning`` item
    before each reply's output unless the request says ``reasoning: {"effort": "none"}``, and
    answers 400 (:data:`THINKING_400`) when a later request holds a call of that reply without
    its reasoning item; ``models``: the model names served (:data:`SERVED_MODELS`); the other
    options of :class:`LoopbackServer` (``requires_key``, ``keep_alive``).

    Use it as a context manager; it listens on a free port from ``__enter__`` and always
    stops in ``__exit__``::

        with LocalResponsesServer(weather_script()) as server:  # agentcore.course.offline_replies
            model = DeepSeekResponsesModel(
                model="deepseek-flash", api_key="offline", base_url=server.base_url
            )
            ...
        server.requests  # every request, in order

    Attributes: ``base_url`` (``"http://127.0.0.1:<port>"``, set once started),
    ``requests`` (``list[RecordedRequest]``), ``replies_played`` (``int``).

    A request with no Authorization header gets 401; an unknown model gets 400 ``Model Not
    Exist``; an unpaired call or output, or (thinking mode) a dropped reasoning item, gets 400;
    none of these consumes a reply. ``previous_response_id`` is accepted and ignored, as
    DeepSeek does: nothing from the earlier response is added to the context. A request after
    the script is used up gets HTTP 500 saying so. Raises ``TypeError`` if the script holds
    something that is not a :class:`Reply`, and ``RuntimeError`` if entered twice.
    """

    path = "/responses"

    def __init__(self, script: Iterable[Reply], **options: Any) -> None:
        super().__init__(script, **options)
        self._reasoning_for: dict[str, dict[str, Any]] = {}  # call_id -> the reasoning item

    def _refuse(self, body: dict[str, Any]) -> tuple[int, str] | None:
        """The Responses API's rejections: unpaired calls and outputs, dropped reasoning."""
        unpaired = _unpaired(body)
        if unpaired is not None:
            return 400, _error_body(400, unpaired)
        if self.thinking and self._dropped_reasoning(body):
            return 400, _error_body(400, THINKING_400)
        return None

    def _conversation(self, body: Mapping[str, Any]) -> list[Any]:
        return _input_items(body)

    def _dropped_reasoning(self, body: Mapping[str, Any]) -> bool:
        """True if a call answered in thinking mode comes back without its reasoning item."""
        reasoning_seen: list[Any] = []
        for item in _input_items(body):
            if item.get("type") == "reasoning":
                reasoning_seen.append(item.get("id"))
            elif item.get("type") == "function_call":
                sent = self._reasoning_for.get(str(item.get("call_id")))
                if sent is not None and sent["id"] not in reasoning_seen:
                    return True
        return False

    def _thinks(self, request: Mapping[str, Any]) -> bool:
        reasoning = request.get("reasoning")
        effort = reasoning.get("effort") if isinstance(reasoning, Mapping) else None
        return self.thinking and effort != "none"

    def _response(
        self, number: int, reply: Reply, request: Mapping[str, Any], cached_tokens: int
    ) -> dict[str, Any]:
        """The Responses API object for a scripted reply; ids count up, so they repeat."""
        items = list(reply.output)
        if self._thinks(request) and items:
            items.insert(0, _scripted_reasoning(items))
        output = []
        for index, item in enumerate(items, start=1):
            prefix = {"function_call": "fc", "message": "msg", "reasoning": "rs"}.get(
                item.get("type", ""), "item"
            )
            output.append({"id": f"{prefix}_{number:03d}_{index}", "status": "completed", **item})
        if self._thinks(request) and output:
            for item in output:
                if item.get("type") == "function_call":
                    self._reasoning_for[str(item.get("call_id"))] = output[0]
        input_tokens, output_tokens = _rough_tokens(request.get("input")), _rough_tokens(output)
        reasoning_tokens = sum(
            _rough_tokens(item) for item in output if item.get("type") == "reasoning"
        )
        return {
            "id": f"resp_{number:03d}",
            "object": "response",
            "created_at": CREATED_AT,
            "status": reply.status,
            "incomplete_details": (
                {"reason": reply.incomplete_reason} if reply.incomplete_reason else None
            ),
            "error": None,
            "model": request.get("model"),
            "store": False,
            "output": output,
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": request.get("tools", []),
            "usage": {
                "input_tokens": input_tokens,
                "input_tokens_details": {"cached_tokens": min(cached_tokens, input_tokens)},
                "output_tokens": output_tokens,
                "output_tokens_details": {"reasoning_tokens": reasoning_tokens},
                "total_tokens": input_tokens + output_tokens,
            },
        }


def _scripted_reasoning(items: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A ``reasoning`` item saying, in plain ``reasoning_text``, what the reply will do."""
    names = [str(item.get("name")) for item in items if item.get("type") == "function_call"]
    plan = f"call {', '.join(names)}" if names else "answer with what the observations say"
    text = f"(scripted reasoning, not a model's) Next step: {plan}."
    return {
        "type": "reasoning",
        "summary": [],
        "content": [{"type": "reasoning_text", "text": text}],
    }
