"""deploy/z2jh/values.yaml is valid for the Zero to JupyterHub chart it names (4.4.0).

Helm validates a release's values against the chart's values schema after merging the given
values over the chart's defaults; this does the same with both files of chart 4.4.0 (in
deploy/z2jh/chart-4.4.0/, see its NOTICE.md), with jsonschema. Kubernetes itself cannot run
here: what the cluster does with the values is not tested.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[1] / "deploy" / "z2jh"
CHART = DEPLOY / "chart-4.4.0"


def merged(defaults: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """Helm's merge: mappings merge key by key, anything else is replaced."""
    result = copy.deepcopy(defaults)
    for key, value in values.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = merged(result[key], value)
        else:
            result[key] = copy.deepcopy(value)
    return result


def load(path: Path) -> dict[str, Any]:
    loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    schema = load(CHART / "values.schema.yaml")
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def test_the_class_values_merged_over_the_chart_defaults_fit_the_schema(
    validator: jsonschema.protocols.Validator,
) -> None:
    values = merged(load(CHART / "values.yaml"), load(DEPLOY / "values.yaml"))
    errors = [f"{list(error.path)}: {error.message}" for error in validator.iter_errors(values)]
    assert errors == []
    assert values["singleuser"]["defaultUrl"].startswith("/git-pull?repo=")
    assert values["cull"]["enabled"] is True


def test_the_schema_refuses_a_misspelt_key(validator: jsonschema.protocols.Validator) -> None:
    wrong = merged(load(CHART / "values.yaml"), load(DEPLOY / "values.yaml"))
    wrong["singleuser"]["memmory"] = {"limit": "1G"}
    assert not validator.is_valid(wrong)


def test_the_hub_serves_https_from_lets_encrypt_for_the_names_the_guide_replaces() -> None:
    https = load(DEPLOY / "values.yaml")["proxy"]["https"]
    assert https["enabled"] is True and https["type"] == "letsencrypt"
    assert https["hosts"] == ["HUB.EXAMPLE.ORG"]
    assert https["letsencrypt"]["contactEmail"] == "TEACHER@EXAMPLE.ORG"
    guides = [DEPLOY.parents[1] / "docs" / "teaching" / name
              for name in ("README.md", "README.zh-CN.md")]  # fmt: skip
    for guide in guides:
        text = guide.read_text(encoding="utf-8")
        for placeholder in ("HUB.EXAMPLE.ORG", "TEACHER@EXAMPLE.ORG", "STORAGE_CLASS"):
            assert f"`{placeholder}`" in text, (guide.name, placeholder)


def test_the_guide_installs_the_chart_version_the_values_are_written_for() -> None:
    """The version in the values' header, the chart files beside them and the guide agree."""
    header = (DEPLOY / "values.yaml").read_text(encoding="utf-8").split("\nhub:")[0]
    assert "for chart version 4.4.0" in header and CHART.name == "chart-4.4.0"
    assert "--version 4.4.0" in header
    for name in ("README.md", "README.zh-CN.md"):
        text = (DEPLOY.parents[1] / "docs" / "teaching" / name).read_text(encoding="utf-8")
        assert "helm repo add jupyterhub https://hub.jupyter.org/helm-chart/" in text
        assert "--namespace agentcore --create-namespace --version 4.4.0" in text
