"""A local server that speaks the Responses API wire format, for offline lessons and tests.

Chapter section 10 connects the runtime to DeepSeek's Responses API. Learners without an API
key, and CI without a network, still run that adapter for real: the real ``openai`` SDK sends
real HTTP with real JSON to :class:`LocalResponsesServer` on 127.0.0.1, which answers
``POST /responses`` from a script of :class:`Reply` objects. Its replies are scripted, not a
model's.

The server behaves like the provider's documented, stateless API where the adapter depends on
it: it requires a ``Bearer`` Authorization header, rejects ``previous_response_id`` (the
conversation must be sent whole every turn), rejects a ``function_call_output`` whose
``call_id`` has no ``function_call`` earlier in ``input``, and shapes errors as
``{"error": {"message", "type", "code"}}``. It records every request (:class:`RecordedRequest`)
and can inject faults: HTTP error statuses, malformed arguments, an ``incomplete`` status, a
body that is not JSON, a slow reply.

Only the standard library is used (``http.server`` in a thread); importing this module does
not import ``openai``.
"""

from __future__ import annotations

import hmac
import json
import math
import sys
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, TypeVar

from agentcore.course.teaching_tools import DESCRIBE_TEMPERATURE_TOOL, build_tools
from agentcore.course.weather import Language, ScriptedWeatherModel, Task, weather_request
from agentcore.runtime import AgentRuntime

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


@dataclass(frozen=True)
class Reply:
    """One scripted answer of a loopback server to one request.

    Written as Responses output items; :class:`LocalResponsesServer` sends them as they are,
    :class:`~agentcore.providers.local_chat_server.LocalChatServer` translates the same reply
    into a chat completion, so one script (such as :func:`weather_script`) plays on both.

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
    * ``raw_body``: if set, sent as the body instead of JSON (a malformed reply).
    """

    output: tuple[dict[str, Any], ...] = ()
    status: str = "completed"
    incomplete_reason: str | None = None
    http_status: int = 200
    error_message: str = ""
    delay_seconds: float = 0.0
    raw_body: str | None = None


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

    :meth:`sent_bearer` checks which key was sent without revealing it.
    """

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    _authorization: str = field(default="", repr=False, compare=False)

    def sent_bearer(self, api_key: str) -> bool:
        """True if the request carried ``Authorization: Bearer <api_key>``."""
        return hmac.compare_digest(self._authorization, f"Bearer {api_key}")


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a slow reply must not hold up stopping the server
    owner: LoopbackServer

    def handle_error(self, request: object, client_address: object) -> None:
        # A client that timed out and hung up is part of the test, not a server failure.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet: lessons and tests read the recorded requests instead."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode("utf-8", errors="replace")
        try:
            body: Any = json.loads(raw)
        except json.JSONDecodeError:
            body = None
        status, payload = self.server.owner._answer(
            self.command, self.path, dict(self.headers.items()), body
        )
        self._send(status, payload)

    def _send(self, status: int, payload: str) -> None:
        data = payload.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _error_body(status: int, text: str) -> str:
    error_type = _ERROR_TYPES.get(status, "server_error")
    error = {"message": text, "type": error_type, "param": None, "code": None}
    return json.dumps({"error": error}, ensure_ascii=False)


def _unpaired_output(body: Mapping[str, Any]) -> str | None:
    """The first ``function_call_output`` call_id with no earlier ``function_call``, if any."""
    seen: set[Any] = set()
    items = body.get("input")
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        if item.get("type") == "function_call":
            seen.add(item.get("call_id"))
        elif item.get("type") == "function_call_output" and item.get("call_id") not in seen:
            return str(item.get("call_id"))
    return None


def _rough_tokens(value: Any) -> int:
    # A stand-in for token counts (about four characters a token), not a tokenizer.
    return math.ceil(len(json.dumps(value, ensure_ascii=False)) / 4)


_Server_T = TypeVar("_Server_T", bound="LoopbackServer")


class LoopbackServer:
    """The part every loopback server shares: a script of :class:`Reply` objects played over
    real HTTP on 127.0.0.1, every request recorded, the provider's error shape.

    A subclass names its endpoint (``path``, for example ``"/responses"``), refuses what its
    provider refuses (:meth:`_refuse`) and shapes a scripted reply as its provider's JSON
    (:meth:`_response`). This base checks the path, the ``Bearer`` Authorization header (and
    the key, when one is given) and that the body is a JSON object, before a subclass sees
    the request; none of these refusals consumes a reply.

    Input: ``script``, the :class:`Reply` objects to give, one per accepted request, in
    order; ``api_key`` (optional): if given, any other Bearer key gets HTTP 401.

    Attributes: ``base_url`` (``"http://127.0.0.1:<port>"``, set once started),
    ``requests`` (``list[RecordedRequest]``), ``replies_played`` (``int``). A request after
    the script is used up gets HTTP 500 saying so. Raises ``TypeError`` if the script holds
    something that is not a :class:`Reply`, and ``RuntimeError`` if entered twice.
    """

    path = "/"
    """The one endpoint the server answers (``POST``); any other path gets 404."""

    def __init__(self, script: Iterable[Reply], *, api_key: str | None = None) -> None:
        self._script = tuple(script)
        for index, reply in enumerate(self._script):
            if not isinstance(reply, Reply):
                raise TypeError(f"script[{index}] must be a Reply, got {type(reply).__name__}")
        self._api_key = api_key
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self.base_url = ""
        self.requests: list[RecordedRequest] = []
        self.replies_played = 0

    def __enter__(self: _Server_T) -> _Server_T:
        if self._server is not None:
            raise RuntimeError(f"this {type(self).__name__} was already started; make a new one")
        self._server = _Server(("127.0.0.1", 0), _Handler)
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

    def _answer(
        self, method: str, path: str, headers: Mapping[str, str], body: Any
    ) -> tuple[int, str]:
        """Record one request and return the status and body to send (runs in a handler)."""
        lowered = {name.lower(): value for name, value in headers.items()}
        authorization = lowered.get("authorization", "")
        if authorization:
            lowered["authorization"] = "Bearer <redacted>"
        with self._lock:
            self.requests.append(RecordedRequest(method, path, lowered, body, authorization))
            refusal = self._refusal(method, path, authorization, body)
            if refusal is not None:
                return refusal
            if self.replies_played >= len(self._script):
                return 500, _error_body(
                    500,
                    f"{type(self).__name__} has no scripted reply left for request "
                    f"{len(self.requests)}: its script holds {len(self._script)}",
                )
            reply = self._script[self.replies_played]
            self.replies_played += 1
            number = self.replies_played
        if reply.delay_seconds:
            self._stopping.wait(reply.delay_seconds)
        if reply.raw_body is not None:
            return reply.http_status, reply.raw_body
        if reply.http_status >= 400:
            return reply.http_status, _error_body(reply.http_status, reply.error_message)
        return 200, json.dumps(self._response(number, reply, body), ensure_ascii=False)

    def _refusal(
        self, method: str, path: str, authorization: str, body: Any
    ) -> tuple[int, str] | None:
        """The rejections every loopback server makes before any scripted reply."""
        if not self._serves(path):
            return 404, _error_body(404, f"No route for {method} {path}; use POST {self.path}")
        if not authorization.startswith("Bearer "):
            return 401, _error_body(401, "Authentication Fails: no Bearer API key was sent")
        if self._api_key is not None and not hmac.compare_digest(
            authorization, f"Bearer {self._api_key}"
        ):
            return 401, _error_body(401, "Authentication Fails: the API key is invalid")
        if not isinstance(body, dict):
            return 400, _error_body(400, "Invalid Format: the request body is not a JSON object")
        return self._refuse(body)

    def _serves(self, path: str) -> bool:
        """True if ``path`` is this server's endpoint (a subclass may accept more than one)."""
        return path.rstrip("/") == self.path

    def _refuse(self, body: dict[str, Any]) -> tuple[int, str] | None:
        """What this endpoint refuses in a well-formed request (a subclass's rules)."""
        return None

    def _response(self, number: int, reply: Reply, request: Mapping[str, Any]) -> dict[str, Any]:
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
    order; ``api_key`` (optional): if given, any other Bearer key gets HTTP 401.

    Use it as a context manager; it listens on a free port from ``__enter__`` and always
    stops in ``__exit__``::

        with LocalResponsesServer(weather_script()) as server:
            model = DeepSeekResponsesModel(
                model="deepseek-v4-flash", api_key="offline", base_url=server.base_url
            )
            ...
        server.requests  # every request, in order

    Attributes: ``base_url`` (``"http://127.0.0.1:<port>"``, set once started),
    ``requests`` (``list[RecordedRequest]``), ``replies_played`` (``int``).

    A request with no Authorization header gets 401; one with ``previous_response_id``,
    or a ``function_call_output`` whose call_id has no earlier ``function_call``, gets 400;
    none of these consumes a reply. A request after the script is used up gets HTTP 500
    saying so. Raises ``TypeError`` if the script holds something that is not a
    :class:`Reply`, and ``RuntimeError`` if entered twice.
    """

    path = "/responses"

    def _refuse(self, body: dict[str, Any]) -> tuple[int, str] | None:
        """The Responses API's documented rejections of a well-formed request."""
        if "previous_response_id" in body:
            return 400, _error_body(
                400,
                "previous_response_id is not supported: this Responses API is stateless, "
                "so send the whole conversation in input",
            )
        unpaired = _unpaired_output(body)
        if unpaired is not None:
            return 400, _error_body(
                400, f"No function_call found in input for function_call_output {unpaired!r}"
            )
        return None

    def _response(self, number: int, reply: Reply, request: Mapping[str, Any]) -> dict[str, Any]:
        """The Responses API object for a scripted reply; ids count up, so they repeat."""
        output = []
        for index, item in enumerate(reply.output, start=1):
            prefix = {"function_call": "fc", "message": "msg"}.get(item.get("type", ""), "item")
            output.append({"id": f"{prefix}_{number:03d}_{index}", "status": "completed", **item})
        input_tokens, output_tokens = _rough_tokens(request.get("input")), _rough_tokens(output)
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
            "output": output,
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": request.get("tools", []),
            "usage": {
                "input_tokens": input_tokens,
                "input_tokens_details": {"cached_tokens": 0},
                "output_tokens": output_tokens,
                "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": input_tokens + output_tokens,
            },
        }


def weather_script(
    city: str = "Tokyo", task: Task = "convert", language: Language = "en"
) -> list[Reply]:
    """Return the replies that play the chapter's weather trajectory over the wire.

    The replies are exactly the turns :class:`agentcore.ScriptedWeatherModel` takes for the
    same ``city``, ``task`` and ``language`` (same call ids ``call-weather``,
    ``call-convert``, same final text): the scripted model is run once through
    :class:`agentcore.AgentRuntime` and each of its turns becomes a :class:`Reply`. Raises
    ``ValueError`` for an unknown city, task or language.
    """
    tools = build_tools()
    if task == "describe":
        tools.append(DESCRIBE_TEMPERATURE_TOOL)
    model = ScriptedWeatherModel(city=city, task=task, language=language)
    result = AgentRuntime(model, tools).run(weather_request(city, task, language))
    return [_reply_for(turn) for turn in result.messages if turn["role"] == "assistant"]


def _reply_for(turn: Mapping[str, Any]) -> Reply:
    calls: Sequence[Mapping[str, Any]] = turn.get("tool_calls", [])
    if calls:
        return Reply(
            output=tuple(
                function_call(call["name"], call["arguments"], call["call_id"]) for call in calls
            )
        )
    return Reply(output=(message(turn["content"]),))
