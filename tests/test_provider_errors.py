"""The provider error family (agentcore/providers/errors.py): one status error, one hint table."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

import agentcore
from agentcore.errors import ModelError
from agentcore.providers.errors import (
    RESPONSE_KINDS,
    STATUS_HINTS,
    ProviderConfigurationError,
    ProviderConnectionError,
    ProviderError,
    ProviderRequestError,
    ProviderResponseError,
    ProviderStatusError,
    ProviderTimeoutError,
    status_key,
)


@pytest.mark.parametrize(
    "kind",
    [
        ProviderConfigurationError,
        ProviderRequestError,
        ProviderConnectionError,
        ProviderTimeoutError,
        ProviderResponseError,
    ],
)
def test_every_provider_error_is_a_model_error_and_exported_lazily(
    kind: type[ProviderError],
) -> None:
    assert issubclass(kind, ProviderError) and issubclass(ProviderError, ModelError)
    assert getattr(agentcore, kind.__name__) is kind
    error = kind("Something failed.", hint="Do this.")
    assert str(error) == "Something failed. Do this."
    assert error.rejected == ()


def test_the_runtime_errors_module_holds_no_provider_error() -> None:
    import agentcore.errors

    assert not [name for name in vars(agentcore.errors) if name.startswith("Provider")]


@pytest.mark.parametrize(
    ("status", "message", "key"),
    [
        (400, "Invalid Format", 400),
        (400, "Model Not Exist", "model not exist"),
        (400, "the model does not exist", "model not exist"),
        (
            400,
            "The reasoning_text in the thinking mode must be passed back to the API.",
            "reasoning dropped",
        ),
        (401, "", 401),
        (402, "Insufficient Balance", 402),
        (403, "", 403),
        (404, "Model Not Exist", 404),
        (422, "", 422),
        (429, "", 429),
        (500, "", "5xx"),
        (503, "", "5xx"),
        (301, "", "3xx"),
        (418, "", "other"),
    ],
)
def test_one_status_error_takes_its_cause_and_hint_from_one_table(
    status: int, message: str, key: int | str
) -> None:
    assert status_key(status, message) == key
    error = ProviderStatusError(status, message)
    what, hint = STATUS_HINTS[key]
    assert error.kind == key and error.status_code == status and error.hint == hint
    assert str(error) == f"{what} (HTTP {status}{': ' + message if message else ''}). {hint}"


def test_the_hints_say_what_to_do() -> None:
    assert "DEEPSEEK_API_KEY" in STATUS_HINTS[401][1]
    assert "Top up" in STATUS_HINTS[402][1]
    model_hint = STATUS_HINTS["model not exist"][1]
    assert "DEEPSEEK_MODEL" in model_hint and "deepseek-flash" in model_hint
    assert "Wait" in STATUS_HINTS[429][1] and "Wait" in STATUS_HINTS["5xx"][1]


def test_a_status_error_survives_pickling() -> None:
    error = pickle.loads(pickle.dumps(ProviderStatusError(402, "Insufficient Balance")))
    assert error.status_code == 402 and error.provider_message == "Insufficient Balance"


def test_every_refused_reply_in_the_adapters_names_its_cause() -> None:
    # explain() picks the learner's explanation by kind; a raise site without one would fall
    # back to the sentence every refused reply shares.
    package = Path(agentcore.__file__).parent
    missing, unknown = [], []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "ProviderResponseError"
            ):
                continue
            kind = next((k.value for k in node.keywords if k.arg == "kind"), None)
            where = f"{path.name}:{node.lineno}"
            if kind is None:
                missing.append(where)
            elif isinstance(kind, ast.Constant) and kind.value not in RESPONSE_KINDS:
                unknown.append(f"{where} {kind.value!r}")
    assert (missing, unknown) == ([], [])
