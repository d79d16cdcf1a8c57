"""The schema a model is shown and the validator that runs agree (issue 9, section 1).

A property, checked with hypothesis-jsonschema for every arguments model in the package, in
the tests and in the lessons:

* arguments generated from the strict schema sent to the provider validate;
* arguments that validate fit that schema. A field with a default is required in the strict
  schema (the model must send it) but optional for the validator, so this direction accepts
  such a field missing.

One disagreement is on purpose: JSON Schema's ``integer`` includes ``1e23``, but a float past
±(2**53 - 1) no longer stands for the integer the model wrote (it was rounded when the JSON
was parsed), so the validator refuses it for an ``int`` field (test_tools.py). The integer in
plain digits is kept exactly and validates.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pkgutil
import sys
import types
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from pydantic import BaseModel, ValidationError

import agentcore
from agentcore import Tool
from agentcore.strict_schema import strict_json_schema

ROOT = Path(__file__).resolve().parents[1]
TEST_MODULES = (
    "test_runtime_contract",
    "test_runtime",
    "test_tools",
    "test_deepseek",
    "test_strict_schema",  # unions, tagged unions, sequences, one-value Literals
    "test_strict_schema_patterns",  # patterns, and what replaces Decimal, dates, times, UUIDs
)


def package_models() -> dict[str, type[BaseModel]]:
    """Arguments models of every Tool defined at module level in agentcore."""
    found: dict[str, type[BaseModel]] = {}
    for info in pkgutil.walk_packages(agentcore.__path__, "agentcore."):
        if info.name.endswith("__main__"):
            continue  # running it would run the CLI
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, Tool):
                model = value.arguments_model
                found[f"{model.__module__}.{model.__qualname__}"] = model
    return found


def models_of_the_tests() -> dict[str, type[BaseModel]]:
    """Module-level models of the tests that can be a tool's arguments."""
    found: dict[str, type[BaseModel]] = {}
    for name in TEST_MODULES:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseModel)
                and value.__module__ == name
                and _strict_or_none(value) is not None
            ):
                found[f"{name}.{value.__qualname__}"] = value
    return found


def lesson_models() -> dict[str, type[BaseModel]]:
    """Models the lessons pass to ``Tool``, rebuilt from the lessons' own source."""
    found: dict[str, type[BaseModel]] = {}
    for path in sorted((ROOT / "notebooks").glob("*/*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        sources = ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]
        trees = [ast.parse(source) for source in sources]
        used = {
            argument.id
            for tree in trees
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Tool"
            for argument in [*node.args, *(keyword.value for keyword in node.keywords)]
            if isinstance(argument, ast.Name)
        }
        # A module of its own, so pydantic resolves the lesson's annotations in it.
        module = types.ModuleType(f"lesson_{path.parent.name}_{path.stem}".replace("-", "_"))
        sys.modules[module.__name__] = module
        exec("from typing import Any, Literal\nfrom pydantic import *", module.__dict__)
        for source, tree in zip(sources, trees, strict=True):
            for node in tree.body:
                if isinstance(node, ast.ClassDef) and node.name in used:
                    exec(ast.get_source_segment(source, node) or "", module.__dict__)
                    model = module.__dict__[node.name]
                    key = f"{path.stem}.{node.name}"  # zh-CN lessons hold the same code
                    found.setdefault(key, model)
    return found


def _strict_or_none(model: type[BaseModel]) -> dict[str, Any] | None:
    try:
        return strict_json_schema(model)
    except TypeError:
        return None


MODELS = {**package_models(), **models_of_the_tests(), **lesson_models()}


def test_the_property_covers_the_package_the_tests_and_the_lessons() -> None:
    names = set(MODELS)
    assert "agentcore.course.teaching_tools.WeatherArguments" in names
    assert "test_runtime_contract.ForecastArguments" in names
    assert "test_runtime_contract.RoundArguments" in names
    assert "02-tools-and-registry.ConvertArguments" in names
    assert "03-errors.ReminderArguments" in names
    assert "test_strict_schema.PetArguments" in names  # a tagged union, alone and in a list
    assert "test_strict_schema.RouteArguments" in names  # sequences, unions, Literal, pattern
    assert "test_strict_schema_patterns.BookingArguments" in names  # the replacements


def fits(arguments: Any, strict: dict[str, Any], optional: set[str]) -> list[str]:
    """What about ``arguments`` breaks ``strict``, allowing the ``optional`` fields missing.

    The fields are let off in every object of the schema, inside unions too (a branch of an
    ``anyOf`` with a defaulted field must still match when that field is left out).
    """
    validator = jsonschema.Draft202012Validator(without_required(strict, optional))
    return [error.message for error in validator.iter_errors(arguments)]


def without_required(schema: Any, optional: set[str]) -> Any:
    """``schema`` with the ``optional`` names taken out of every ``required`` list."""
    if isinstance(schema, dict):
        return {
            key: [name for name in value if name not in optional]
            if key == "required" and isinstance(value, list)
            else without_required(value, optional)
            for key, value in schema.items()
        }
    if isinstance(schema, list):
        return [without_required(value, optional) for value in schema]
    return schema


def optional_fields(schema: Any) -> set[str]:
    """Names of properties pydantic's own schema does not require (they have defaults)."""
    names: set[str] = set()
    if isinstance(schema, dict):
        properties = schema.get("properties")
        if isinstance(properties, dict):
            names |= set(properties) - set(schema.get("required", []))
        for value in schema.values():
            names |= optional_fields(value)
    elif isinstance(schema, list):
        for value in schema:
            names |= optional_fields(value)
    return names


AGREEMENT = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", sorted(MODELS))
@AGREEMENT
@given(data=st.data())
def test_arguments_the_strict_schema_allows_validate(name: str, data: st.DataObject) -> None:
    model = MODELS[name]
    strict = strict_json_schema(model)
    arguments = data.draw(from_schema(strict))
    model.model_validate_json(json.dumps(arguments), strict=True)


@pytest.mark.parametrize("name", sorted(MODELS))
@AGREEMENT
@given(data=st.data())
def test_arguments_that_validate_fit_the_strict_schema(name: str, data: st.DataObject) -> None:
    model = MODELS[name]
    loose = model.model_json_schema()  # pydantic's own: defaults optional
    arguments = data.draw(from_schema(loose))
    try:
        model.model_validate_json(json.dumps(arguments), strict=True)
    except ValidationError:
        return  # the second direction is about what validates
    assert fits(arguments, strict_json_schema(model), optional_fields(loose)) == []
