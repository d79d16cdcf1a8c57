"""Patterns, Decimals, dates, times and UUIDs: exact or refused when the tool is built (5.1).

The model reads a schema's ``pattern`` as ECMAScript; here ``regress`` (Rust's regress crate,
an ECMAScript regular expression engine) reads it as the model would, with and without the
``u`` flag, beside the two engines pydantic validates with (Rust's regex, its default, and
Python's ``re``). Each example of a disagreement is a test; a property checks that every
pattern the strict schema keeps is read alike by all of them, and that the fields which
replace ``Decimal``, ``datetime``, ``date``, ``time`` and ``UUID`` agree with their schema for
the spellings pydantic's parsers read.
"""

from __future__ import annotations

import datetime
import decimal
import functools
import json
import re
import uuid
from typing import Annotated, Any

import jsonschema
import pytest
import regress
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ImportString,
    IPvAnyAddress,
    PlainValidator,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    WrapValidator,
    create_model,
)

from agentcore import StrictSchemaError, Tool, ToolArgumentsError
from agentcore.strict_schema import pattern_problem

CLOSED = ConfigDict(extra="forbid")
FORMATS = jsonschema.Draft202012Validator.FORMAT_CHECKER


def tool_with(annotation: Any, **config: Any) -> Tool:
    """A tool whose one field ``code`` has ``annotation`` (in a model with ``config``)."""
    model = create_model(
        "CodeArguments", __config__=ConfigDict(extra="forbid", **config), code=(annotation, ...)
    )
    return Tool("lookup", "Look a code up.", model, lambda code: code)


def refusal(annotation: Any, **config: Any) -> StrictSchemaError:
    with pytest.raises(StrictSchemaError) as raised:
        tool_with(annotation, **config)
    error = raised.value
    assert (error.owner, error.field) == ("Tool 'lookup'", "code")
    assert error.instead in str(error)
    return error


@functools.cache
def validator(pattern: str, engine: str) -> TypeAdapter[str]:
    config = ConfigDict(regex_engine=engine)  # type: ignore[typeddict-item]
    return TypeAdapter(Annotated[str, Field(pattern=pattern)], config=config)


def validator_accepts(pattern: str, text: str, engine: str = "rust-regex") -> bool:
    try:
        validator(pattern, engine).validate_json(json.dumps(text), strict=True)
    except ValidationError:
        return False
    return True


@functools.cache
def ecmascript(pattern: str, flags: str) -> regress.Regex:
    return regress.Regex(pattern, flags)


def ecmascript_accepts(pattern: str, text: str, flags: str = "") -> bool:
    """What a schema's ``pattern`` allows, read as ECMAScript (``flags="u"``: with ``u``)."""
    return ecmascript(pattern, flags).find(text) is not None


def pattern_in(instead: str) -> str:
    """The example pattern a refusal's advice gives (``^...$``)."""
    found = re.search(r"\^.*?\$(?= |\.?$)", instead)
    assert found, instead
    return found.group(0)


# --- the examples: each a string one side accepts and the other refuses -----------------------

PATTERN_EXAMPLES = {
    # name: (pattern, regex engine, strings the validator accepts and ECMAScript refuses,
    #        words of the construct, the replacement the message gives, a string it accepts)
    "\\d": (
        r"^\d{3}$",
        "rust-regex",
        ["١٢٣", "１２３"],
        "\\d",
        "write [0-9] instead of \\d",
        "123",
    ),
    "\\w": (r"^\w+$", "rust-regex", ["Tökyö"], "\\w", "[A-Za-z0-9_] instead of \\w", "Tokyo"),
    ".": (r"^.{1,3}$", "rust-regex", ["a\rb"], "'.'", "such as [A-Za-z0-9 ]", "a b"),
    "$ in Python's re": (r"^[a-z]+$", "python-re", ["tokyo\n"], "'$'", "'rust-regex'", "tokyo"),
}


@pytest.mark.parametrize("name", sorted(PATTERN_EXAMPLES))
def test_the_validator_alone_accepts_these_strings(name: str) -> None:
    pattern, engine, strings, _, _, _ = PATTERN_EXAMPLES[name]
    for text in strings:
        assert validator_accepts(pattern, text, engine)
        assert not ecmascript_accepts(pattern, text)
        assert not ecmascript_accepts(pattern, text, "u")


@pytest.mark.parametrize("name", sorted(PATTERN_EXAMPLES))
def test_such_a_pattern_is_refused_naming_the_construct_and_its_replacement(name: str) -> None:
    pattern, engine, strings, construct, instead, good = PATTERN_EXAMPLES[name]
    error = refusal(Annotated[str, Field(pattern=pattern)], regex_engine=engine)
    assert construct in error.construct and repr(pattern) in error.construct
    assert instead in error.instead
    # The replacement builds, and its validator refuses what ECMAScript refuses.
    fixed = re.sub(r"\\d", "[0-9]", re.sub(r"\\w", "[A-Za-z0-9_]", pattern))
    fixed = fixed.replace(".", "[A-Za-z0-9 ]")
    tool = tool_with(Annotated[str, Field(pattern=fixed)])
    assert tool.schema()["parameters"]["properties"]["code"]["pattern"] == fixed
    assert tool.validate({"code": good}).code == good  # type: ignore[attr-defined]
    for text in strings:
        with pytest.raises(ToolArgumentsError):
            tool.validate({"code": text})


def test_the_length_advice_gives_a_pattern_of_listed_characters_that_builds() -> None:
    for bound in ({"min_length": 2}, {"max_length": 40}):
        error = refusal(Annotated[str, Field(**bound)])
        example = pattern_in(error.instead)
        assert "." not in example and pattern_problem(example) is None
        tool_with(Annotated[str, Field(pattern=example)])


@pytest.mark.parametrize(
    ("pattern", "construct", "instead", "engine"),
    [
        (r"^[^,]+$", "excludes", "list the characters you allow", "rust-regex"),
        (r"^\s*$", "\\s", "[ \\t]", "rust-regex"),
        (r"\bcat\b", "\\b", "anchor with ^ and $", "rust-regex"),
        (r"^a{,3}$", "'{'", "{0,n}", "python-re"),
        (r"(?i)^tokyo$", "inline flag", "plain groups", "rust-regex"),
        (r"^(?=a)a$", "lookahead", "plain groups", "python-re"),
        (r"^[a-z&&[^aeiou]]$", "'&&'", "once", "rust-regex"),
        (r"^[a-z-0]$", "'-'", "\\-", "rust-regex"),
        (r"^\-$", "\\-", "without a backslash", "rust-regex"),
        (r"^😀$", "U+1F600", "leave it out", "rust-regex"),
        (r"^[\u0100-\uffff]+$", "U+D800", "\\ud7ff", "rust-regex"),
        (r"^(a)\1$", "backreference", "repeat", "python-re"),
    ],
)
def test_other_constructs_the_dialects_read_differently_are_refused(
    pattern: str, construct: str, instead: str, engine: str
) -> None:
    # Lookaround, backreferences and {,n} exist in Python's re only: Rust's refuses them.
    error = refusal(Annotated[str, Field(pattern=pattern)], regex_engine=engine)
    assert construct in error.construct and instead in error.instead


def test_a_pattern_the_validator_does_not_check_as_shown_is_refused() -> None:
    unchecked = refusal(Annotated[str, Field(json_schema_extra={"pattern": "^[a-z]+$"})])
    assert "does not check" in unchecked.construct
    flags = refusal(Annotated[str, Field(pattern=re.compile("^[a-z]+", re.IGNORECASE))])
    assert "IGNORECASE" in flags.construct
    stripped = refusal(Annotated[str, StringConstraints(strip_whitespace=True, pattern="^[a-z]$")])
    assert "stripped" in stripped.construct
    # Without the twist each builds: a pattern given as a str, or compiled without '$'.
    tool_with(Annotated[str, StringConstraints(pattern="^[a-z]+$")])
    tool_with(Annotated[str, Field(pattern=re.compile("^[a-z]+"))])


# --- types whose parser reads other strings than their schema shows --------------------------

PARSED = {
    # name: (annotation, how the refusal names it,
    #        strings the validator accepts and JSON Schema's format refuses)
    "datetime": (datetime.datetime, "a datetime", ["2026-01-01T10:00:00", "2026-01-01 10:00Z"]),
    "AwareDatetime": (AwareDatetime, "a datetime", ["2026-01-01 10:00:00Z", "1767225600"]),
    "date": (datetime.date, "a date", ["1767225600"]),
    "time": (datetime.time, "a time", ["10:00", "10:00:00"]),
    "timedelta": (datetime.timedelta, "a timedelta", ["1 day", "10:00"]),
    "UUID": (
        uuid.UUID,
        "a UUID",
        ["12345678123456781234567812345678", "{12345678-1234-5678-1234-567812345678}"],
    ),
}


@pytest.mark.parametrize("name", sorted(PARSED))
def test_a_parsed_type_is_refused_since_the_validator_reads_strings_its_format_forbids(
    name: str,
) -> None:
    annotation, named, strings = PARSED[name]
    shown = TypeAdapter(annotation).json_schema()
    for text in strings:
        TypeAdapter(annotation).validate_json(json.dumps(text), strict=True)
        assert not FORMATS.conforms(text, shown["format"])
    error = refusal(annotation)
    assert error.construct.startswith(named)
    assert f"format {shown['format']!r}" in error.construct
    if name != "timedelta":  # a number of seconds instead: no pattern
        example = pattern_in(error.instead)
        tool = tool_with(Annotated[str, Field(pattern=example)])
        for text in strings:  # the replacement's validator reads them as its schema does
            try:
                tool.validate({"code": text})
            except ToolArgumentsError:
                assert not ecmascript_accepts(example, text, "u")
            else:
                assert ecmascript_accepts(example, text, "u")


def test_a_decimal_is_refused_since_its_schema_allows_any_string() -> None:
    shown = TypeAdapter(decimal.Decimal).json_schema()
    for text in ("abc", "NaN"):
        jsonschema.validate(text, shown)  # pydantic's own schema allows them
        with pytest.raises(ValidationError):
            TypeAdapter(decimal.Decimal).validate_json(json.dumps(text), strict=True)
    for text in (" 1", "1_000", "١٢٣"):  # and no pattern could list what it reads
        TypeAdapter(decimal.Decimal).validate_json(json.dumps(text), strict=True)
    for annotation in (decimal.Decimal, decimal.Decimal | None, list[decimal.Decimal]):
        with pytest.raises(StrictSchemaError, match="Decimal"):
            tool_with(annotation)
    error = refusal(decimal.Decimal)
    assert "float" in error.instead
    tool = tool_with(Annotated[str, Field(pattern=pattern_in(error.instead))])
    assert decimal.Decimal(tool.validate({"code": "-12.50"}).code) == decimal.Decimal("-12.5")  # type: ignore[attr-defined]
    for text in ("abc", "NaN", " 1", "1_000", "١٢٣"):
        with pytest.raises(ToolArgumentsError):
            tool.validate({"code": text})


def test_every_format_is_refused_naming_it() -> None:
    error = refusal(IPvAnyAddress)  # read by a function: refused before its format is seen
    assert "read by a function" in error.construct
    hostname = refusal(Annotated[str, Field(json_schema_extra={"format": "hostname"})])
    assert "format 'hostname'" in hostname.construct and "pattern" in hostname.instead


# --- the property: what the strict schema keeps, every engine reads alike --------------------

TRICKY = "aAzZ09_- .$\n\r\t\u2028éöÖ中١３😀"
"""Characters the dialects disagree about: other digits and letters, line breaks, an emoji."""

SUBSET_ATOMS = [
    "a", "b", "z", "0", "é", "中", "-", " ", ",", "\\.", "\\$", "\\n", "\\r", "\\x41",
    "\\u00e9", "[a-z]", "[0-9]", "[A-Za-z0-9_]", "[a-]", "[é-ü]", "[\\-.]", "[\\n\\r]",
]  # fmt: skip
OTHER_ATOMS = [
    "\\d", "\\w", "\\s", "\\b", ".", "[^a]", "[^,]", "[\\d]", "\\D", "\\W", "😀", "[😀]",
    "[\\u0100-\\uffff]", "\\-",
]  # fmt: skip
QUANTIFIERS = ["", "", "*", "+", "?", "{2}", "{1,3}", "{2,}", "*?", "{0,1}?"]


def patterns(atoms: list[str]) -> st.SearchStrategy[str]:
    """Patterns from ``atoms``: quantified, in sequences, groups and alternatives, anchored."""
    piece = st.tuples(st.sampled_from(atoms), st.sampled_from(QUANTIFIERS)).map("".join)
    body = st.recursive(
        st.lists(piece, min_size=1, max_size=3).map("".join),
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(QUANTIFIERS)).map(lambda t: f"({t[0]}){t[1]}"),
            st.tuples(inner, inner).map(lambda t: f"(?:{t[0]}|{t[1]})"),
            st.lists(inner, min_size=2, max_size=3).map("".join),
        ),
        max_leaves=6,
    )
    anchor = st.sampled_from(["", "^"]), st.sampled_from(["", "$"])
    return st.tuples(anchor[0], body, anchor[1]).map("".join)


def readings(pattern: str, text: str) -> dict[str, bool]:
    """Whether each engine finds ``pattern`` in ``text``."""
    read = {
        "ECMAScript": ecmascript_accepts(pattern, text),
        "ECMAScript, u flag": ecmascript_accepts(pattern, text, "u"),
        "rust-regex (pydantic)": validator_accepts(pattern, text),
    }
    if pattern_problem(pattern, python_re=True) is None:  # no '$': Python's re agrees too
        read["python-re (pydantic)"] = validator_accepts(pattern, text, "python-re")
        read["jsonschema (Python's re.search)"] = jsonschema.Draft202012Validator(
            {"type": "string", "pattern": pattern}
        ).is_valid(text)
    return read


PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def texts_for(pattern: str, data: st.DataObject) -> list[str]:
    tricky = data.draw(st.lists(st.text(TRICKY, max_size=6), min_size=3, max_size=6))
    # Cut short: the engines that backtrack (Python's re, regress) may take exponential time
    # on a long text and nested repetitions.
    matching = data.draw(st.lists(st.from_regex(pattern).map(lambda text: text[:10]), max_size=3))
    return [*tricky, *matching]


@PROPERTY
@given(pattern=patterns(SUBSET_ATOMS), data=st.data())
def test_every_pattern_of_the_subset_is_kept_and_read_alike(
    pattern: str, data: st.DataObject
) -> None:
    assert pattern_problem(pattern) is None
    tool = tool_with(Annotated[str, Field(pattern=pattern)])
    assert tool.schema()["parameters"]["properties"]["code"]["pattern"] == pattern
    for text in texts_for(pattern, data):
        assert len(set(readings(pattern, text).values())) == 1, (pattern, text)


@PROPERTY
@given(pattern=patterns(SUBSET_ATOMS + OTHER_ATOMS), data=st.data())
def test_a_pattern_two_engines_read_differently_is_refused(
    pattern: str, data: st.DataObject
) -> None:
    problem = pattern_problem(pattern)
    if problem is not None:
        with pytest.raises(StrictSchemaError):
            tool_with(Annotated[str, Field(pattern=pattern)])
        return
    for text in texts_for(pattern, data):
        assert len(set(readings(pattern, text).values())) == 1, (pattern, text)


# --- the replacements: strings with patterns, converted in the handler -----------------------

DAY = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
INSTANT = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{2}:[0-9]{2}$"
CLOCK = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"
AMOUNT = r"^-?[0-9]+(\.[0-9]+)?$"
BOOKING_ID = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"


class BookingArguments(BaseModel):
    """What a refusal's advice gives for a date, a datetime, a time, a Decimal and a UUID."""

    model_config = CLOSED
    day: Annotated[str, Field(pattern=DAY)]
    starts: Annotated[str, Field(pattern=INSTANT)]
    at: Annotated[str, Field(pattern=CLOCK)]
    amount: Annotated[str, Field(pattern=AMOUNT)]
    booking: Annotated[str, Field(pattern=BOOKING_ID)]


def test_each_refusal_advises_the_pattern_of_its_replacement() -> None:
    advised = {
        datetime.date: DAY,
        datetime.datetime: INSTANT,
        datetime.time: CLOCK,
        decimal.Decimal: AMOUNT,
        uuid.UUID: BOOKING_ID,
    }
    for annotation, pattern in advised.items():
        assert pattern_in(refusal(annotation).instead) == pattern


def spellings() -> st.SearchStrategy[tuple[str, str]]:
    """(field, text): what pydantic's parsers read for these values, in many spellings."""
    when = st.datetimes(
        min_value=datetime.datetime(1970, 1, 2), timezones=st.just(datetime.timezone.utc)
    )
    day = st.dates().flatmap(
        lambda d: st.sampled_from(
            [d.isoformat(), d.strftime("%Y%m%d"), f"{d.year}-{d.month}-{d.day}", f" {d}"]
        )
    )
    starts = when.flatmap(
        lambda t: st.sampled_from(
            [
                t.isoformat(timespec="seconds"),
                t.isoformat(),
                t.replace(tzinfo=None).isoformat(timespec="seconds"),
                t.isoformat(sep=" ", timespec="seconds"),
                t.strftime("%Y-%m-%dT%H:%MZ"),
                str(int(t.timestamp())),
            ]
        )
    )
    at = st.times().flatmap(
        lambda t: st.sampled_from(
            [t.strftime("%H:%M"), t.isoformat(), t.strftime("%H:%M:%S"), f"{t:%H:%M}Z"]
        )
    )
    amount = st.decimals(allow_nan=True, allow_infinity=True, places=2).map(str)
    booking = st.uuids().flatmap(
        lambda u: st.sampled_from([str(u), u.hex, str(u).upper(), f"{{{u}}}", u.urn])
    )
    return st.one_of(
        *(
            value.map(lambda text, name=name: (name, text))
            for name, value in {
                "day": day,
                "starts": starts,
                "at": at,
                "amount": amount,
                "booking": booking,
            }.items()
        )
    )


@PROPERTY
@given(spelling=spellings())
def test_the_replacements_agree_with_their_schema_for_what_the_parsers_read(
    spelling: tuple[str, str],
) -> None:
    field, text = spelling
    tool = Tool("book", "Book.", BookingArguments, lambda **fields: "ok")
    shown = tool.schema()["parameters"]["properties"][field]
    pattern = shown["pattern"]
    allowed = ecmascript_accepts(pattern, text, "u")
    assert allowed == ecmascript_accepts(pattern, text)
    assert allowed == validator_accepts(pattern, text)


@pytest.mark.parametrize(
    ("annotation", "named"),
    [
        (ImportString, "ImportString"),  # imports whatever module the model names
        (complex, "complex"),
        (Annotated[str, BeforeValidator(str.strip)], "BeforeValidator"),
        (Annotated[str, PlainValidator(str)], "PlainValidator"),
        (Annotated[str, WrapValidator(lambda value, handler: handler(value))], "WrapValidator"),
    ],
)
def test_a_field_read_by_a_function_or_as_a_complex_is_refused(annotation: Any, named: str) -> None:
    assert named in refusal(annotation).construct


def test_an_after_validator_narrows_what_the_schema_shows_and_is_kept() -> None:
    tool_with(Annotated[str, AfterValidator(str.strip)])



@pytest.mark.parametrize("pattern", ["[a-", "[a", "[", "ab\\", "[a-\\"])
def test_an_unfinished_pattern_is_a_problem_named_not_a_crash(pattern: str) -> None:
    problem = pattern_problem(pattern)
    assert problem is not None
