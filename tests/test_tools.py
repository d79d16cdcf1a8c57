"""Tool and ToolRegistry (chapter section 5)."""

from __future__ import annotations

import json
import math
from typing import Any, Literal

import jsonschema
import pytest
from pydantic import AliasChoices, AliasPath, BaseModel, ConfigDict, Field

from agentcore import (
    Tool,
    ToolArgumentsError,
    ToolCall,
    ToolExecutionError,
    ToolRegistry,
    UnknownToolError,
    build_tools,
)


class EchoArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    text: str


def echo(text: str) -> dict[str, str]:
    return {"echo": text}


def make_tool(name: str = "echo", handler: Any = echo) -> Tool:
    return Tool(name, "Echo the text back.", EchoArguments, handler)


def run_tool(tool: Tool, arguments: dict[str, Any]) -> str:
    """The runtime's two phases, outside a run: validate, then execute."""
    return tool.execute(tool.validate(arguments))


@pytest.mark.parametrize("name", ["", "has space", "dots.not.allowed", "x" * 65, "é", 3])
def test_tool_names_follow_the_providers_rule(name: Any) -> None:
    with pytest.raises(ValueError, match="not allowed"):
        make_tool(name=name)


def test_tool_rejects_a_blank_description_a_non_model_and_a_non_callable() -> None:
    with pytest.raises(ValueError, match="description"):
        Tool("echo", "  ", EchoArguments, echo)
    with pytest.raises(TypeError, match="BaseModel subclass"):
        Tool("echo", "Echo.", dict, echo)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="callable"):
        Tool("echo", "Echo.", EchoArguments, "echo")


def test_a_handler_that_cannot_take_the_fields_fails_at_construction() -> None:
    def wrong(city: str) -> str:
        return city

    with pytest.raises(TypeError, match=r"accept the keyword arguments \['text'\]"):
        make_tool(handler=wrong)


def test_schema_shows_the_model_its_json_schema() -> None:
    schema = make_tool().schema()
    assert schema["name"] == "echo"
    assert schema["description"] == "Echo the text back."
    assert schema["parameters"]["properties"]["text"] == {"title": "Text", "type": "string"}
    assert schema["parameters"]["required"] == ["text"]
    assert schema["parameters"]["additionalProperties"] is False


@pytest.mark.parametrize(
    ("arguments", "location"),
    [({}, "text"), ({"text": 5}, "text"), ({"text": "hi", "extra": 1}, "extra")],
    ids=["missing", "wrong-type", "extra-field"],
)
def test_bad_arguments_are_rejected_before_the_handler_runs(
    arguments: dict[str, Any], location: str
) -> None:
    calls: list[str] = []

    def spy(text: str) -> str:
        calls.append(text)
        return text

    with pytest.raises(ToolArgumentsError) as caught:
        run_tool(make_tool(handler=spy), arguments)
    assert calls == []
    assert caught.value.tool == "echo"
    assert [error["loc"] for error in caught.value.errors] == [(location,)]
    assert location in str(caught.value)


def test_results_are_json_text_with_non_ascii_kept() -> None:
    assert run_tool(make_tool(), {"text": "东京"}) == '{"echo": "东京"}'


def test_a_pydantic_result_is_dumped() -> None:
    class Reply(BaseModel):
        kind: Literal["echo"] = "echo"
        text: str

    tool = make_tool(handler=lambda text: Reply(text=text))
    assert json.loads(run_tool(tool, {"text": "x"})) == {"kind": "echo", "text": "x"}


def test_a_raising_handler_becomes_tool_execution_error_with_the_cause() -> None:
    def broken(text: str) -> str:
        raise ConnectionError("weather service down")

    with pytest.raises(ToolExecutionError, match="ConnectionError: weather service down") as caught:
        run_tool(make_tool(handler=broken), {"text": "x"})
    assert isinstance(caught.value.__cause__, ConnectionError)
    assert caught.value.tool == "echo"


@pytest.mark.parametrize(
    "result", [{"x": math.nan}, {"x": math.inf}, {1, 2}, object()], ids=["nan", "inf", "set", "obj"]
)
def test_a_result_json_cannot_carry_is_an_execution_error(result: Any) -> None:
    with pytest.raises(ToolExecutionError, match="not JSON"):
        run_tool(make_tool(handler=lambda text: result), {"text": "x"})


def test_registry_rejects_duplicates_and_non_tools() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        ToolRegistry([make_tool(), make_tool()])
    with pytest.raises(TypeError, match="Tool objects"):
        ToolRegistry([echo])  # type: ignore[list-item]


def test_registry_schemas_keep_registration_order_and_are_read_only() -> None:
    registry = ToolRegistry([make_tool("b"), make_tool("a")])
    assert [schema["name"] for schema in registry.schemas()] == ["b", "a"]
    with pytest.raises(TypeError):
        registry.schemas()[0]["name"] = "delete_everything"  # type: ignore[index]


def test_registry_refuses_a_tool_it_does_not_hold() -> None:
    registry = ToolRegistry(build_tools())
    with pytest.raises(UnknownToolError) as caught:
        registry.prepare(ToolCall("call-1", "delete_everything", {}))
    assert caught.value.name == "delete_everything"
    assert caught.value.registered == ("get_teaching_weather", "celsius_to_fahrenheit")
    assert "get_teaching_weather, celsius_to_fahrenheit" in str(caught.value)


@pytest.mark.parametrize(
    ("requested", "differs"),
    [
        ("get_t\u0435aching_weather", "U+0435 CYRILLIC SMALL LETTER IE where it has U+0065"),
        ("get_teaching_\uff57eather", "U+FF57 FULLWIDTH LATIN SMALL LETTER W where it has U+0077"),
    ],
    ids=["cyrillic-e", "fullwidth-w"],
)
def test_a_look_alike_tool_name_shows_the_code_points_that_differ(
    requested: str, differs: str
) -> None:
    registry = ToolRegistry(build_tools())
    with pytest.raises(UnknownToolError) as caught:
        registry.prepare(ToolCall("call-1", requested, {"city": "Tokyo"}))
    message = str(caught.value)
    assert "The closest registered name is 'get_teaching_weather'" in message
    assert differs in message


def test_a_misspelt_ascii_tool_name_names_the_closest_one() -> None:
    with pytest.raises(
        UnknownToolError, match=r"closest registered name is .get_teaching_weather.\. Check"
    ):
        ToolRegistry(build_tools()).prepare(ToolCall("call-1", "get_teching_weather", {}))


def test_registry_never_looks_in_globals() -> None:
    # A function with the requested name exists in this module; the registry ignores it.
    registry = ToolRegistry([])
    with pytest.raises(UnknownToolError):
        registry.prepare(ToolCall("call-1", "echo", {"text": "x"}))


def test_registry_executes_a_registered_tool() -> None:
    registry = ToolRegistry(build_tools())
    tool, arguments = registry.prepare(
        ToolCall("call-1", "get_teaching_weather", {"city": "Paris"})
    )
    observation = tool.execute(arguments)
    assert json.loads(observation) == {
        "city": "Paris",
        "temperature_c": 12.0,
        "condition": "light rain",
    }


def test_a_tool_prints_without_a_memory_address() -> None:
    assert repr(make_tool()) == "Tool(name='echo', arguments_model=EchoArguments, handler=echo)"
    assert "0x" not in repr(make_tool(handler=lambda text: text))


def test_a_buggy_custom_validator_is_an_arguments_error_not_a_crash() -> None:
    from pydantic import field_validator

    class Lookup(BaseModel):
        model_config = ConfigDict(extra="forbid")
        city: str

        @field_validator("city")
        @classmethod
        def known(cls, value: str) -> str:
            return {"Tokyo": value}[value]  # KeyError for any other city: a bug in the model

    tool = Tool("lookup", "Look up.", Lookup, lambda city: city)
    with pytest.raises(ToolArgumentsError, match="KeyError") as caught:
        run_tool(tool, {"city": "Berlin"})
    assert isinstance(caught.value.__cause__, KeyError)


def test_a_result_nested_too_deeply_is_an_execution_error() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(ToolExecutionError, match="not JSON"):
        run_tool(make_tool(handler=lambda text: deep), {"text": "x"})


def recursive_models() -> dict[str, type[BaseModel]]:
    """Recursive arguments models, local so the schema-agreement property (whose schema
    generator cannot follow recursive refs) does not collect them."""

    class TreeArguments(BaseModel):  # pydantic's schema is a top-level $ref
        model_config = ConfigDict(extra="forbid")
        value: int
        child: TreeArguments | None = None

    class SelfArguments(BaseModel):  # a $ref to itself beside a description
        model_config = ConfigDict(extra="forbid")
        child: SelfArguments | None = Field(None, description="the child")
        kids: list[SelfArguments] = Field(default_factory=list, description="the kids")

    class ChainLink(BaseModel):
        model_config = ConfigDict(extra="forbid")
        name: str
        next: ChainLink = Field(None, description="the next link")  # type: ignore[assignment]

    class ChainArguments(BaseModel):
        model_config = ConfigDict(extra="forbid")
        link: ChainLink = Field(description="the first link")

    return {"tree": TreeArguments, "self": SelfArguments, "chain": ChainArguments}


@pytest.mark.parametrize("kind", ["tree", "self", "chain"])
def test_a_recursive_arguments_model_builds_a_tool_whose_schema_fits_its_validator(
    kind: str,
) -> None:
    # Was: TypeError "the arguments must be a JSON object" (top-level $ref) or RecursionError.
    tool = Tool("walk", "Walk the tree.", recursive_models()[kind], lambda **fields: "ok")
    parameters = json.loads(json.dumps(tool.schema()["parameters"]))
    assert parameters["type"] == "object"
    assert parameters["additionalProperties"] is False
    jsonschema.Draft202012Validator.check_schema(parameters)
    if kind == "tree":
        good = {"value": 1, "child": {"value": 2, "child": None}}
        jsonschema.validate(good, parameters)
        assert tool.validate(good).child.value == 2  # type: ignore[attr-defined]
        bad = {"value": 1, "child": {"value": "2", "child": None}}
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, parameters)
        with pytest.raises(ToolArgumentsError):
            tool.validate(bad)


def alias_models() -> dict[str, type[BaseModel]]:
    """Arguments models whose validator reads keys the strict schema does not show."""

    class Choices(BaseModel):
        model_config = ConfigDict(extra="forbid")
        city: str = Field(validation_alias=AliasChoices("city", "town"))

    class Path(BaseModel):
        model_config = ConfigDict(extra="forbid")
        city: str = Field(validation_alias=AliasPath("place", 0))

    class ByName(BaseModel):
        model_config = ConfigDict(extra="forbid", populate_by_name=True)
        city_name: str = Field(alias="city")

    class OnlyName(BaseModel):
        model_config = ConfigDict(extra="forbid", validate_by_name=True, validate_by_alias=False)
        city_name: str = Field(alias="city")

    class Outer(BaseModel):
        model_config = ConfigDict(extra="forbid")
        inner: list[Choices | None]

    return {
        "choices": Choices,
        "path": Path,
        "by_name": ByName,
        "only_name": OnlyName,
        "outer": Outer,
    }


@pytest.mark.parametrize(
    ("kind", "field"),
    [
        ("choices", "city"),
        ("path", "city"),
        ("by_name", "city_name"),
        ("only_name", "city_name"),
        ("outer", "inner.city"),
    ],
)
def test_an_alias_the_schema_cannot_show_is_refused_naming_the_field(kind: str, field: str) -> None:
    # Was: built; the schema showed one key while the validator took another ("town", the
    # field's own name) or a nested path, so schema and validator disagreed.
    with pytest.raises(TypeError, match=f"field '{field}'"):
        Tool("weather", "Read the weather.", alias_models()[kind], lambda **fields: "ok")


def test_a_plain_alias_still_builds_and_validates_by_the_alias() -> None:
    class Plain(BaseModel):
        model_config = ConfigDict(extra="forbid")
        city_name: str = Field(alias="city")

    tool = Tool("weather", "Read the weather.", Plain, lambda city_name: city_name)
    assert list(tool.schema()["parameters"]["properties"]) == ["city"]
    assert tool.execute(tool.validate({"city": "Paris"})) == '"Paris"'
    with pytest.raises(ToolArgumentsError):
        tool.validate({"city_name": "Paris"})


def test_an_integral_number_the_schema_allows_for_an_int_field_validates() -> None:
    class Count(BaseModel):
        model_config = ConfigDict(extra="forbid")
        days: int

    tool = Tool("count", "Count the days.", Count, lambda days: days)
    parameters = json.loads(json.dumps(tool.schema()["parameters"]))
    jsonschema.validate({"days": 3.0}, parameters)  # the schema allows it
    assert tool.validate({"days": 3.0}).days == 3  # type: ignore[attr-defined]
    with pytest.raises(ToolArgumentsError):
        tool.validate({"days": 3.5})  # the schema refuses it, and so does the validator


def test_a_float_field_still_receives_a_float() -> None:
    class Reading(BaseModel):
        model_config = ConfigDict(extra="forbid")
        temperature_c: float

    tool = Tool("read", "Read a temperature.", Reading, lambda temperature_c: temperature_c)
    validated = tool.validate({"temperature_c": 18.0})
    assert validated.temperature_c == 18.0  # type: ignore[attr-defined]
    assert type(validated.temperature_c) is float  # type: ignore[attr-defined]


class Amounts(BaseModel):
    model_config = ConfigDict(extra="forbid")
    count: int
    either: int | float = 0


def amounts_tool() -> Tool:
    return Tool("amounts", "Count.", Amounts, lambda count, either: [count, either])


@pytest.mark.parametrize("sent", [2.0**53 - 1, -(2.0**53 - 1), 0.0, -0.0, 1e15, 9007199254740991.0])
def test_an_integral_float_that_stands_for_one_integer_is_that_integer(sent: float) -> None:
    validated = amounts_tool().validate({"count": sent})
    assert validated.count == int(sent) and type(validated.count) is int  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("written", "became"),
    [
        ("1e23", 99999999999999991611392),
        ("9007199254740993.0", 2**53),  # JSON parsing already made it 2**53
        ("9007199254740992.0", 2**53),
        ("-9007199254740992.0", -(2**53)),
        ("1e300", None),
    ],
)
def test_an_integral_float_too_large_to_be_exact_is_refused_naming_the_field(
    written: str, became: int | None
) -> None:
    # Was: the handler received 99999999999999991611392 for 1e23, 2**53 for 2**53 + 1.0, and a
    # 301-digit integer for 1e300: numbers the model never sent.
    arguments = json.loads(f'{{"count": {written}}}')
    if became is not None:
        assert int(arguments["count"]) == became
    with pytest.raises(ToolArgumentsError, match=r"count: .* beyond ±\(2\*\*53 - 1\)") as raised:
        amounts_tool().validate(arguments)
    (problem,) = raised.value.errors
    assert problem["loc"] == ("count",) and problem["type"] == "int_not_exact"
    assert "plain digits" in problem["msg"]


def test_the_integer_in_plain_digits_is_kept_exactly() -> None:
    for exact in (2**53 + 1, 10**23, -(10**30)):
        validated = amounts_tool().validate(json.loads(f'{{"count": {exact}}}'))
        assert validated.count == exact  # type: ignore[attr-defined]


def test_an_int_or_float_field_gets_the_number_that_was_sent() -> None:
    # The rule for Union[int, float]: a float fits it, so it gets the float (3.0 stays 3.0,
    # 1e23 stays 1e23); an integer stays an integer. Only an int-only field turns 3.0 into 3.
    tool = amounts_tool()
    for sent in (3.0, 1e23, 2.5, 3, 10**23):
        got = tool.validate({"count": 1, "either": sent}).either  # type: ignore[attr-defined]
        assert (got, type(got)) == (sent, type(sent))


def test_an_int_or_float_field_keeps_its_float_when_an_int_field_needs_the_retry() -> None:
    # Was: count's 5.0 made the validator retry with every integral float as an int, so
    # either's 3.0 reached the handler as the int 3.
    got = amounts_tool().validate({"count": 5.0, "either": 3.0})
    assert (got.count, type(got.count)) == (5, int)  # type: ignore[attr-defined]
    assert (got.either, type(got.either)) == (3.0, float)  # type: ignore[attr-defined]
    handled = amounts_tool().execute(got)
    assert handled == "[5, 3.0]"


def test_an_integral_float_fits_integer_fields_everywhere_the_schema_allows_it() -> None:
    class Nested(BaseModel):
        model_config = ConfigDict(extra="forbid")
        counts: list[int]
        level: Literal[1, 2]
        either: int | str

    tool = Tool("nested", "Nested.", Nested, lambda **fields: fields)
    validated = tool.validate({"counts": [1.0, 2], "level": 2.0, "either": 3.0})
    assert validated.counts == [1, 2] and validated.level == 2  # type: ignore[attr-defined]
    assert type(validated.either) is int  # type: ignore[attr-defined]
    with pytest.raises(ToolArgumentsError, match=r"counts\.0: .* beyond"):
        tool.validate({"counts": [1e23], "level": 1, "either": "x"})


class _Unprintable(Exception):
    """An exception whose message cannot be read: str() raises."""

    def __str__(self) -> str:
        raise RuntimeError("no message")


class _Shifty:
    """A result that raises on every attribute it does not have (not AttributeError)."""

    def __getattr__(self, name: str) -> Any:
        raise ValueError(f"no {name}")


def test_a_handler_error_whose_message_raises_is_still_an_execution_error() -> None:
    def broken(text: str) -> str:
        raise _Unprintable

    with pytest.raises(ToolExecutionError, match="failed: _Unprintable: <") as caught:
        run_tool(make_tool(handler=broken), {"text": "x"})
    assert isinstance(caught.value.__cause__, _Unprintable)


def test_a_result_that_raises_on_attribute_lookup_is_an_execution_error() -> None:
    with pytest.raises(ToolExecutionError, match="not JSON"):
        run_tool(make_tool(handler=lambda text: _Shifty()), {"text": "x"})


def test_an_unknown_tool_with_a_huge_name_gets_a_short_message() -> None:
    registry = ToolRegistry([make_tool()])
    with pytest.raises(UnknownToolError) as caught:
        registry.prepare(ToolCall("c" * 1_000_000, "n" * 1_000_000, {}))
    assert len(str(caught.value)) < 1_000 and caught.value.name == "n" * 1_000_000


@pytest.mark.parametrize("raised", [SystemExit(3), GeneratorExit()], ids=["exit", "generator"])
def test_a_validator_that_raises_any_exception_is_an_arguments_error(raised: BaseException) -> None:
    from pydantic import field_validator

    class Checked(BaseModel):
        model_config = ConfigDict(extra="forbid")
        text: str

        @field_validator("text")
        @classmethod
        def refuse(cls, value: str) -> str:
            raise raised

    tool = Tool("checked", "Check it.", Checked, echo)
    with pytest.raises(ToolArgumentsError, match=type(raised).__name__) as caught:
        tool.validate({"text": "x"}, "c1")
    assert caught.value.__cause__ is raised and caught.value.call_id == "c1"


@pytest.mark.parametrize("raw", [{"text": "x"}, None], ids=["dict", "none"])
def test_execute_given_raw_arguments_says_to_validate_first_and_runs_no_handler(raw: Any) -> None:
    ran: list[str] = []
    tool = make_tool(handler=lambda text: ran.append(text))
    with pytest.raises(TypeError, match=r"tool\.execute\(tool\.validate\(arguments\)\)"):
        tool.execute(raw)
    assert ran == []
