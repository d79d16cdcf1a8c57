"""The strict schema is exact or refused when the tool is built (issue 21, section 5.1).

Each refusal names the tool, the field path (the field, not the model's class), the construct
and what to use instead; each translation keeps exactly the values the validator accepts (the
agreement property in test_schema_agreement.py runs over the models of this file too).
"""

from __future__ import annotations

import copy
import json
import pickle
from typing import Annotated, Any, Literal

import jsonschema
import pytest
from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

from agentcore import StrictSchemaError, Tool, ToolArgumentsError, explain

CLOSED = ConfigDict(extra="forbid")


class Cat(BaseModel):
    model_config = CLOSED
    kind: Literal["cat"]
    lives: int = 9


class Dog(BaseModel):
    model_config = CLOSED
    kind: Literal["dog"]
    name: str


class PetArguments(BaseModel):
    """A discriminated union: oneOf + discriminator + mapping + const in pydantic's schema."""

    model_config = CLOSED
    pet: Cat | Dog = Field(discriminator="kind", description="the pet")
    others: list[Annotated[Cat | Dog, Field(discriminator="kind")]]


class Stop(BaseModel):
    model_config = CLOSED
    city: str
    nights: int = Field(ge=1)


DAY = Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
"""A day as the strict schema can show it (a ``datetime.date`` field is refused)."""


class RouteArguments(BaseModel):
    """Sequences, a plain union, an optional nested model, a one-value Literal, a pattern."""

    model_config = CLOSED
    stops: list[Stop]
    tags: tuple[str, ...]
    budget: int | float
    mode: Literal["train"]
    start: DAY | None = None
    via: Stop | None = Field(None, description="an optional stop on the way")


class OpenPlace(BaseModel):
    city: str


def refused_models() -> dict[str, tuple[type[BaseModel], str, str]]:
    """Models the strict subset cannot show: (model, field path, words of the construct)."""

    class Bare(BaseModel):
        model_config = CLOSED
        items: list  # type: ignore[type-arg]

    class BareTuple(BaseModel):
        model_config = CLOSED
        pair: tuple  # type: ignore[type-arg]

    class Anything(BaseModel):
        model_config = CLOSED
        value: Any

    class AnObject(BaseModel):
        model_config = CLOSED
        value: object

    class AnyItems(BaseModel):
        model_config = CLOSED
        values: list[Any]

    class Fixed(BaseModel):
        model_config = CLOSED
        pair: tuple[int, str]

    class Unique(BaseModel):
        model_config = CLOSED
        ids: set[int]

    class Short(BaseModel):
        model_config = CLOSED
        code: str = Field(min_length=2)

    class Few(BaseModel):
        model_config = CLOSED
        ids: list[int] = Field(max_length=3)

    class Mapping(BaseModel):
        model_config = CLOSED
        scores: dict[str, int]

    class Holder(BaseModel):
        model_config = CLOSED
        location: OpenPlace

    class Deep(BaseModel):
        model_config = CLOSED
        stops: list[Holder]

    def by_shape(value: Any) -> str:
        return "cat" if isinstance(value, dict) and "lives" in value else "dog"

    class Callable(BaseModel):
        model_config = CLOSED
        pet: Annotated[
            Annotated[Cat, Tag("cat")] | Annotated[Dog, Tag("dog")], Discriminator(by_shape)
        ]

    class Binary(BaseModel):
        model_config = CLOSED
        blob: bytes

    return {
        "bare list": (Bare, "items", "without an item type"),
        "bare tuple": (BareTuple, "pair", "without an item type"),
        "Any": (Anything, "value", "any type"),
        "object": (AnObject, "value", "any type"),
        "list[Any]": (AnyItems, "values", "without an item type"),
        "tuple[int, str]": (Fixed, "pair", "tuple of fixed positions"),
        "set": (Unique, "ids", "a set"),
        "min_length": (Short, "code", "minimum string length"),
        "max_length of a list": (Few, "ids", "maximum number of items"),
        "dict": (Mapping, "scores", "allows keys it does not name"),
        "open nested model": (Holder, "location", "allows keys it does not name"),
        "open model in a list": (Deep, "stops[].location", "allows keys it does not name"),
        "callable discriminator": (Callable, "pet", "oneOf whose branches may overlap"),
        "bytes": (Binary, "blob", "format 'binary'"),
    }


def keywords(schema: Any) -> set[str]:
    """Every key used anywhere in a schema (property names included)."""
    if isinstance(schema, dict):
        return set(schema).union(*(keywords(value) for value in schema.values()))
    if isinstance(schema, list):
        return set().union(*(keywords(value) for value in schema))
    return set()


@pytest.mark.parametrize("kind", sorted(refused_models()))
def test_what_the_strict_subset_cannot_show_is_refused_naming_tool_field_and_construct(
    kind: str,
) -> None:
    model, field, construct = refused_models()[kind]
    with pytest.raises(StrictSchemaError) as raised:
        Tool("plan", "Plan a trip.", model, lambda **fields: "ok")
    error = raised.value
    assert isinstance(error, TypeError)  # what Tool() documents
    assert (error.owner, error.field) == ("Tool 'plan'", field)
    assert str(error).startswith(f"Tool 'plan': field {field!r} is ")
    assert construct in error.construct
    assert error.instead and error.instead in str(error)
    assert "OpenPlace" not in str(error)  # the field, not the model's class


def test_a_discriminated_union_becomes_any_of_closed_objects_with_one_value_tags() -> None:
    parameters = Tool("adopt", "Adopt a pet.", PetArguments, lambda **fields: "ok").schema()
    schema = json.loads(json.dumps(parameters["parameters"]))
    assert {"oneOf", "discriminator", "mapping", "const"}.isdisjoint(keywords(schema))
    pet = schema["properties"]["pet"]
    assert pet["description"] == "the pet"
    branches = [schema["$defs"][ref["$ref"].rsplit("/", 1)[-1]] for ref in pet["anyOf"]]
    assert [branch["properties"]["kind"]["enum"] for branch in branches] == [["cat"], ["dog"]]
    assert all(branch["additionalProperties"] is False for branch in branches)
    assert branches[0]["required"] == ["kind", "lives"]  # every key required, default or not
    assert schema["properties"]["others"]["items"]["anyOf"] == pet["anyOf"]
    jsonschema.validate({"pet": {"kind": "dog", "name": "Rex"}, "others": []}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"pet": {"kind": "cat", "name": "Rex"}, "others": []}, schema)


def test_the_translated_union_validates_what_it_shows() -> None:
    tool = Tool("adopt", "Adopt a pet.", PetArguments, lambda pet, others: pet.kind)
    cat = {"kind": "cat", "lives": 3}
    assert tool.execute(tool.validate({"pet": cat, "others": [cat]})) == '"cat"'
    with pytest.raises(ToolArgumentsError):
        tool.validate({"pet": {"kind": "cat", "name": "Rex"}, "others": []})


def test_sequences_unions_and_literals_translate_exactly() -> None:
    schema = Tool("route", "Plan.", RouteArguments, lambda **fields: "ok").schema()["parameters"]
    properties = schema["properties"]
    assert properties["mode"]["enum"] == ["train"] and "const" not in properties["mode"]
    assert properties["tags"]["items"] == {"type": "string"}
    assert properties["stops"]["items"] == {"$ref": "#/$defs/Stop"}
    assert schema["$defs"]["Stop"]["properties"]["nights"]["minimum"] == 1
    assert [branch.get("type") for branch in properties["budget"]["anyOf"]] == [
        "integer",
        "number",
    ]
    via = properties["via"]
    assert via["description"] == "an optional stop on the way" and "default" not in via
    assert schema["required"] == ["stops", "tags", "budget", "mode", "start", "via"]
    day = {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
    assert properties["start"]["anyOf"] == [day, {"type": "null"}]


def test_the_refusal_pickles_copies_and_is_explained_in_both_languages() -> None:
    with pytest.raises(StrictSchemaError) as raised:
        Tool("plan", "Plan.", refused_models()["Any"][0], lambda value: "ok")
    error = raised.value
    for copied in (pickle.loads(pickle.dumps(error)), copy.copy(error), copy.deepcopy(error)):
        assert type(copied) is StrictSchemaError and str(copied) == str(error)
        assert (copied.owner, copied.field, copied.construct, copied.instead) == (
            error.owner,
            error.field,
            error.construct,
            error.instead,
        )
    english, chinese = explain(error, "en"), explain(error, "zh-CN")
    assert "value" in english and "value" in chinese and english != chinese


def test_a_multiple_of_on_a_float_field_is_refused_since_validators_read_it_differently() -> None:
    # JSON Schema divides exactly (jsonschema: 0.3 is not a multiple of 0.1); pydantic allows a
    # tolerance of 1e-9 (it is). Shown as it is, the schema and the validator would disagree.
    class Tenths(BaseModel):
        model_config = CLOSED
        price: float = Field(multiple_of=0.1)

    class Thirds(BaseModel):
        model_config = CLOSED
        share: float = Field(multiple_of=3)

    assert (
        jsonschema.Draft202012Validator({"type": "number", "multipleOf": 0.1}).is_valid(0.3)
        is False
    )
    assert Tenths.model_validate_json('{"price": 0.3}').price == 0.3
    for model, field in ((Tenths, "price"), (Thirds, "share")):
        with pytest.raises(StrictSchemaError, match="multiple_of on a number") as raised:
            Tool("price", "Price it.", model, lambda **fields: "ok")
        assert raised.value.field == field and "int" in raised.value.instead

    class Dozens(BaseModel):
        model_config = CLOSED
        eggs: int = Field(multiple_of=12)

    tool = Tool("order", "Order eggs.", Dozens, lambda eggs: eggs)
    assert tool.schema()["parameters"]["properties"]["eggs"]["multipleOf"] == 12
