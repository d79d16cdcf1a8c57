"""The local Responses API server: what it answers, what it records, which faults it injects.

Spoken to with the standard library's ``urllib`` so these tests check the server on its own;
tests/test_deepseek.py drives it through the real openai SDK.
"""

from __future__ import annotations

import json
import pickle
import socket
import urllib.error
import urllib.request
from dataclasses import asdict
from typing import Any

import pytest

from agentcore.course.offline_replies import weather_script
from agentcore.providers.local_server import (
    CREATED_AT,
    THINKING_400,
    LocalResponsesServer,
    Reply,
    function_call,
    http_error,
    message,
)

KEY = "sk-server-test-0123456789"
BODY = {"model": "deepseek-flash", "input": [{"type": "message", "role": "user", "content": "hi"}]}


def post(
    server: LocalResponsesServer,
    body: Any = BODY,
    *,
    path: str = "/responses",
    key: str | None = KEY,
    timeout: float = 5.0,
) -> tuple[int, str]:
    """POST ``body`` as JSON; return the status and the body text (also for error statuses)."""
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(server.base_url + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_answers_with_a_responses_api_object_shaped_by_the_script() -> None:
    script = [
        Reply(output=(function_call("get_teaching_weather", {"city": "Tokyo"}, "call-1"),)),
        Reply(output=(message("done"),)),
    ]
    with LocalResponsesServer(script) as server:
        assert server.base_url.startswith("http://127.0.0.1:")
        first = json.loads(post(server)[1])
        status, text = post(server)
    second = json.loads(text)
    assert status == 200
    assert first["id"] == "resp_001" and second["id"] == "resp_002"
    assert first["object"] == "response"
    assert first["created_at"] == CREATED_AT
    assert first["status"] == "completed"
    assert first["model"] == "deepseek-flash"
    assert first["store"] is False
    assert first["incomplete_details"] is None
    assert first["output"] == [
        {
            "id": "fc_001_1",
            "status": "completed",
            "type": "function_call",
            "call_id": "call-1",
            "name": "get_teaching_weather",
            "arguments": '{"city": "Tokyo"}',
        }
    ]
    assert second["output"] == [
        {
            "id": "msg_002_1",
            "status": "completed",
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "done", "annotations": []}],
        }
    ]
    usage = first["usage"]
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"] > 0
    assert usage["input_tokens_details"]["cached_tokens"] == 0
    # The second request repeated the whole input: all of it counts as cached.
    assert second["usage"]["input_tokens_details"]["cached_tokens"] == usage["input_tokens"]


def test_function_call_keeps_non_ascii_and_passes_strings_through() -> None:
    assert function_call("f", {"city": "东京"}, "c")["arguments"] == '{"city": "东京"}'
    assert function_call("f", '{"city": ', "c")["arguments"] == '{"city": '


def test_records_every_request_without_ever_showing_the_key() -> None:
    with LocalResponsesServer([Reply(output=(message("a"),))]) as server:
        post(server, {"model": "m", "input": []})
    (recorded,) = server.requests
    assert (recorded.method, recorded.path) == ("POST", "/responses")
    assert recorded.body == {"model": "m", "input": []}
    assert recorded.headers["content-type"] == "application/json"
    assert recorded.headers["authorization"] == "Bearer <redacted>"
    assert recorded.sent_bearer(KEY)
    assert not recorded.sent_bearer(KEY + "x")
    assert KEY not in repr(recorded)
    assert KEY not in repr(server.requests)
    assert KEY not in str(recorded.headers)
    kept = pickle.dumps(recorded) + repr(vars(recorded)).encode() + repr(asdict(recorded)).encode()
    assert KEY.encode() not in kept  # no copy of the key can be read back from the record


def test_without_a_bearer_key_the_answer_is_401_and_no_reply_is_used() -> None:
    with LocalResponsesServer([Reply(output=(message("a"),))]) as server:
        status, text = post(server, key=None)
        assert status == 401
        assert json.loads(text)["error"]["type"] == "authentication_error"
        assert server.replies_played == 0
        assert post(server)[0] == 200


def test_a_server_with_a_key_refuses_any_other_key() -> None:
    with LocalResponsesServer([Reply(output=(message("a"),))], api_key=KEY) as server:
        status, text = post(server, key="wrong")
        assert status == 401
        assert KEY not in text
        assert post(server)[0] == 200


def test_previous_response_id_is_ignored_silently_as_deepseek_does() -> None:
    script = [Reply(output=(message("a"),)), Reply(output=(message("b"),))]
    with LocalResponsesServer(script) as server:
        first = json.loads(post(server)[1])
        status, text = post(server, {**BODY, "previous_response_id": first["id"]})
    assert status == 200
    assert json.loads(text)["store"] is False  # nothing was stored to continue from
    assert server.replies_played == 2


def test_an_output_without_its_function_call_is_refused() -> None:
    body = {
        "model": "deepseek-flash",
        "input": [
            {"type": "message", "role": "user", "content": "hi"},
            {"type": "function_call_output", "call_id": "call-9", "output": "{}"},
        ],
    }
    with LocalResponsesServer([Reply(output=(message("a"),))]) as server:
        status, text = post(server, body)
    assert status == 400
    assert "'call-9'" in json.loads(text)["error"]["message"]


def test_a_body_that_is_not_a_json_object_is_refused() -> None:
    with LocalResponsesServer([Reply(output=(message("a"),))]) as server:
        assert post(server, b"not json")[0] == 400
        assert post(server, [1, 2])[0] == 400
        assert server.replies_played == 0


def test_other_paths_get_404() -> None:
    with LocalResponsesServer([]) as server:
        status, text = post(server, path="/chat/completions")
    assert status == 404
    assert "POST /responses" in json.loads(text)["error"]["message"]


def test_a_request_past_the_end_of_the_script_gets_500_saying_so() -> None:
    with LocalResponsesServer([Reply(output=(message("a"),))]) as server:
        post(server)
        status, text = post(server)
    assert status == 500
    assert "no scripted reply left for request 2" in json.loads(text)["error"]["message"]


@pytest.mark.parametrize("status", [401, 402, 403, 404, 422, 429, 500, 503])
def test_injected_http_errors_have_a_provider_style_body(status: int) -> None:
    with LocalResponsesServer([http_error(status, "it went wrong")]) as server:
        got, text = post(server)
    assert got == status
    error = json.loads(text)["error"]
    assert error["message"] == "it went wrong"
    assert set(error) == {"message", "type", "param", "code"}


def test_injected_incomplete_status_and_raw_body() -> None:
    script = [
        Reply(status="incomplete", incomplete_reason="max_output_tokens"),
        Reply(raw_body="<html>not json</html>"),
    ]
    with LocalResponsesServer(script) as server:
        incomplete = json.loads(post(server)[1])
        assert post(server) == (200, "<html>not json</html>")
    assert incomplete["status"] == "incomplete"
    assert incomplete["incomplete_details"] == {"reason": "max_output_tokens"}
    assert incomplete["output"] == []


def test_a_slow_reply_makes_a_short_client_timeout_fire_and_stopping_still_works() -> None:
    with (
        LocalResponsesServer([Reply(output=(message("late"),), delay_seconds=30)]) as server,
        pytest.raises((TimeoutError, urllib.error.URLError)),
    ):
        post(server, timeout=0.2)
    assert server.replies_played == 1


def test_the_server_stops_when_the_block_ends() -> None:
    with LocalResponsesServer([]) as server:
        port = int(server.base_url.rsplit(":", 1)[1])
        assert "running" in repr(server)
    assert "stopped" in repr(server)
    with pytest.raises(ConnectionRefusedError), socket.create_connection(("127.0.0.1", port)):
        pass


def test_repr_has_no_port_so_lesson_outputs_repeat() -> None:
    with LocalResponsesServer([Reply(output=(message("a"),))]) as server:
        post(server)
        port = server.base_url.rsplit(":", 1)[1]
        assert repr(server) == "LocalResponsesServer(running, replies played 1 of 1, requests=1)"
        assert port not in repr(server)


def test_bad_script_and_double_start_are_refused() -> None:
    with pytest.raises(TypeError, match=r"script\[0\] must be a Reply"):
        LocalResponsesServer([{"output": []}])  # type: ignore[list-item]
    server = LocalResponsesServer([])
    with server, pytest.raises(RuntimeError, match="already started"):
        server.__enter__()


def test_weather_script_plays_the_scripted_models_turns() -> None:
    first, second, third = weather_script()
    assert first == Reply(
        output=(function_call("get_teaching_weather", {"city": "Tokyo"}, "call-weather"),)
    )
    assert second == Reply(
        output=(function_call("celsius_to_fahrenheit", {"temperature_c": 18.0}, "call-convert"),)
    )
    assert third == Reply(
        output=(message("Tokyo's deterministic teaching record is 18.0°C (64.4°F), cloudy."),)
    )


def test_weather_script_follows_city_task_and_language() -> None:
    replies = weather_script("Paris", "describe", "zh-CN")
    assert [reply.output[0].get("call_id") for reply in replies] == [
        "call-weather",
        "call-convert",
        "call-describe",
        None,
    ]
    assert replies[-1].output[0]["content"][0]["text"].startswith("按教学数据，巴黎")
    assert len(weather_script(task="greet")) == 1
    with pytest.raises(ValueError, match="city must be one of"):
        weather_script("Berlin")


def test_a_model_it_does_not_serve_gets_400_model_not_exist() -> None:
    with LocalResponsesServer([Reply(output=(message("a"),))]) as server:
        status, text = post(server, {**BODY, "model": "deepseek-chat-v9"})
        assert server.replies_played == 0
        assert post(server, {**BODY, "model": "deepseek-v4-flash"})[0] == 200  # the alias
    assert status == 400
    assert json.loads(text)["error"]["message"] == "Model Not Exist"


def test_a_call_without_its_output_is_refused() -> None:
    call = {
        "type": "function_call",
        "call_id": "call-7",
        "name": "get_teaching_weather",
        "arguments": "{}",
    }
    with LocalResponsesServer([Reply(output=(message("a"),))]) as server:
        status, text = post(server, {**BODY, "input": [*BODY["input"], call]})
    assert status == 400
    assert "'call-7'" in json.loads(text)["error"]["message"]


CALL = function_call("get_teaching_weather", {"city": "Tokyo"}, "call-1")


def test_thinking_mode_puts_a_reasoning_item_first_and_refuses_a_replay_without_it() -> None:
    script = [Reply(output=(CALL,)), Reply(output=(message("a"),)), Reply(output=(message("b"),))]
    with LocalResponsesServer(script, thinking=True) as server:
        first = json.loads(post(server)[1])
        reasoning, call = first["output"]
        output = {"type": "function_call_output", "call_id": "call-1", "output": "{}"}
        dropped = {**BODY, "input": [*BODY["input"], call, output]}
        status, text = post(server, dropped)
        assert server.replies_played == 1
        kept = {**BODY, "input": [*BODY["input"], reasoning, call, output]}
        assert post(server, kept)[0] == 200
    assert reasoning["type"] == "reasoning"
    assert reasoning["content"][0]["type"] == "reasoning_text"
    assert "scripted reasoning, not a model's" in reasoning["content"][0]["text"]
    assert "encrypted_content" not in reasoning
    assert first["usage"]["output_tokens_details"]["reasoning_tokens"] > 0
    assert status == 400
    assert json.loads(text)["error"]["message"] == THINKING_400


def test_thinking_mode_is_off_for_effort_none() -> None:
    with LocalResponsesServer([Reply(output=(CALL,))], thinking=True) as server:
        reply = json.loads(post(server, {**BODY, "reasoning": {"effort": "none"}})[1])
    assert [item["type"] for item in reply["output"]] == ["function_call"]


def test_a_raw_reply_carries_its_own_headers_and_can_drip() -> None:
    reply = Reply(raw_body=b"{}", headers=(("X-Test", "yes"),), drip_seconds=0.01)
    with LocalResponsesServer([reply]) as server:
        request = urllib.request.Request(
            server.base_url + "/responses",
            data=json.dumps(BODY).encode(),
            headers={"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.headers["X-Test"] == "yes"
            assert response.read() == b"{}"


def test_stopping_the_server_ends_the_thread_of_every_connection_still_open() -> None:
    # The grader refuses every verdict while a thread started during it is alive, so each
    # thread serving a connection (one the client has not finished or not closed yet) must
    # have ended when the ``with`` block is left, not whenever the client is collected.
    import threading

    before = set(threading.enumerate())
    with LocalResponsesServer([Reply(output=(message("done"),))], api_key=KEY) as server:
        host, port = server.base_url.removeprefix("http://").split(":")
        idle = socket.create_connection((host, int(port)), timeout=5.0)
        half = socket.create_connection((host, int(port)), timeout=5.0)
        half.sendall(b"POST /responses HTTP/1.1\r\nHost: x\r\n")  # headers never finished
        assert post(server)[0] == 200  # a whole request on a third connection meanwhile
        started = set(threading.enumerate()) - before
        assert len(started) >= 3  # the server's loop and the two waiting connections
    try:
        assert [t.name for t in started if t.is_alive()] == []
    finally:
        idle.close()
        half.close()
