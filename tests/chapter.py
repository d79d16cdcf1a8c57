"""The chapter's expected trajectory (COURSE-MAP facts), shared by the tests that check it."""

from __future__ import annotations

from typing import Any

CHAPTER_ANSWER = "Tokyo's deterministic teaching record is 18.0°C (64.4°F), cloudy."

CHAPTER_TRACE = f"""\
[1] ACTION  get_teaching_weather({{'city': 'Tokyo'}})
[1] OBSERVE {{"city": "Tokyo", "temperature_c": 18.0, "condition": "cloudy"}}
[2] ACTION  celsius_to_fahrenheit({{'temperature_c': 18.0}})
[2] OBSERVE {{"temperature_f": 64.4}}
[3] FINAL   {CHAPTER_ANSWER}
"""


def chapter_transcript(request: str) -> list[dict[str, Any]]:
    """The transcript of the chapter's Tokyo run for ``request``, in the chapter's format."""
    return [
        {"role": "user", "content": request},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "call_id": "call-weather",
                    "name": "get_teaching_weather",
                    "arguments": {"city": "Tokyo"},
                }
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "call-weather",
            "name": "get_teaching_weather",
            "content": '{"city": "Tokyo", "temperature_c": 18.0, "condition": "cloudy"}',
        },
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "call_id": "call-convert",
                    "name": "celsius_to_fahrenheit",
                    "arguments": {"temperature_c": 18.0},
                }
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "call-convert",
            "name": "celsius_to_fahrenheit",
            "content": '{"temperature_f": 64.4}',
        },
        {"role": "assistant", "content": CHAPTER_ANSWER},
    ]
