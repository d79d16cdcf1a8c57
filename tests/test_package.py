"""The package surface: public names, light imports, no network in any default path."""

from __future__ import annotations

import subprocess
import sys

import agentcore


def test_every_public_name_is_importable_from_the_package() -> None:
    for name in agentcore.__all__:
        assert getattr(agentcore, name) is not None, name


def test_every_public_name_has_a_docstring() -> None:
    for name in agentcore.__all__:
        value = getattr(agentcore, name)
        if (
            callable(value)
            and hasattr(value, "__module__")
            and value.__module__.startswith("agentcore")
        ):
            assert (value.__doc__ or "").strip(), f"{name} has no docstring"


HEAVY = "('openai', 'httpx', 'httpx2', 'ipywidgets')"
"""The SDK, both HTTP clients it may use (recent openai releases use httpx2), the widgets."""


def test_import_loads_neither_the_sdk_nor_http_nor_widgets() -> None:
    code = (
        "import sys, agentcore\n"
        f"heavy = sorted(m for m in {HEAVY} if m in sys.modules)\n"
        "print(','.join(heavy))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""


def test_the_local_server_module_does_not_load_the_sdk_either() -> None:
    code = (
        "import sys, agentcore.providers.local_server\n"
        f"print(','.join(sorted(m for m in {HEAVY} if m in sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""


def test_the_adapter_is_public_but_loaded_only_when_asked_for() -> None:
    code = (
        "import sys, agentcore\n"
        "assert 'DeepSeekResponsesModel' in agentcore.__all__\n"
        "assert 'openai' not in sys.modules\n"
        "agentcore.DeepSeekResponsesModel\n"
        "print('openai' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"
