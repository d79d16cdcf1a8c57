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


def test_import_loads_neither_the_sdk_nor_http_nor_widgets() -> None:
    code = (
        "import sys, agentcore\n"
        "heavy = sorted(m for m in ('openai', 'httpx', 'ipywidgets') if m in sys.modules)\n"
        "print(','.join(heavy))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
