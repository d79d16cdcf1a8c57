r"""The strict JSON Schema of a tool's arguments: exact, or refused when the tool is built.

Chapter section 5.1: the model is shown a JSON Schema of the arguments, and the runtime
validates what comes back with the same pydantic model. Under strict function calling the
provider constrains generation to the schema, and it accepts only a subset of JSON Schema.
So :func:`strict_json_schema` walks every node of pydantic's schema and either translates it
into that subset *exactly* (the same values are allowed before and after) or refuses the
arguments model with a :class:`StrictSchemaError` that names the tool, the field, the
construct and what to use instead. Nothing is dropped silently: a schema that said less than
the validator checks would let the model send arguments that then fail, and one that said more
would forbid arguments the validator accepts.

The subset is what DeepSeek's strict-mode documentation (Tool Calls guide, "strict mode
(Beta)") lists as supported; OpenAI's Structured Outputs list of supported schemas allows all
of it too. Where the two differ, the narrower rule wins (DeepSeek lists ``minItems`` and
``maxItems`` as unsupported).

======================= ===================================================================
node                    kept as it is
======================= ===================================================================
every node              ``title``, ``description`` (annotations); ``default`` is dropped:
                        every key is required
object                  ``properties``, ``required`` (all of them),
                        ``additionalProperties: false``
array                   ``items`` (one schema for every item)
string                  ``enum``, ``pattern`` (in the subset below, checked by the validator)
number, integer         ``enum``, ``minimum``, ``maximum``, ``exclusiveMinimum``,
                        ``exclusiveMaximum``; ``multipleOf`` (an int, on integers only)
boolean, null           ``enum``
unions                  ``anyOf``
reuse                   ``$ref`` into ``$defs`` (a recursive model too)
======================= ===================================================================

Translated, because the subset has an exact equivalent:

* ``const: v`` becomes ``enum: [v]`` (a one-value ``Literal``);
* a discriminated union (``oneOf`` with a ``discriminator`` and its ``mapping``) becomes
  ``anyOf`` of its closed objects: each one's tag is a ``enum`` of its own values, so at most
  one branch can match and ``anyOf`` allows exactly what ``oneOf`` did;
* a ``$ref`` beside other keywords (a field's description) is written out in place, since
  strict mode allows nothing beside a ``$ref``; a one-member ``allOf`` is merged.

Refused: objects with keys they do not name (``dict``, a model without ``extra="forbid"``),
nodes that allow any value (``Any``, ``object``, a bare ``list`` or ``tuple``), fixed-position
tuples (``prefixItems``), sets (``uniqueItems``), length and size bounds (``minLength``,
``maxLength``, ``minItems``, ``maxItems``, which DeepSeek lists as unsupported), a ``oneOf``
whose branches may overlap, a ``multipleOf`` on a float (JSON Schema divides exactly,
pydantic within a tolerance of 1e-9, so ``0.3`` is a multiple of ``0.1`` to one of them
only), and any keyword not in the table.

Refused too, because pydantic's parser reads other strings than the schema shows:

* ``Decimal``: shown as a number or *any* string, while the validator refuses ``"abc"`` and
  ``"NaN"`` and reads ``" 1"``, ``"1_000"`` and ``"١٢٣"``;
* ``datetime``, ``date``, ``time``, ``timedelta`` and ``UUID``: JSON Schema's formats
  (``date-time``, ``date``, ``time``, ``duration``, ``uuid``) allow one spelling, while
  pydantic also reads a datetime without a time zone or with a space for ``T``, a Unix time
  written as digits (``"1767225600"`` is a date), ``"10:00"`` as a time, ``"1 day"`` as a
  duration and a UUID without dashes, in braces or as ``urn:uuid:...``;
* every other ``format`` (``email``, ``ipv4``, ``uri``, ...): a string's form is shown only
  as a pattern, which both sides read the same way;
* ``complex``, shown as any string, and a field read by a function before or instead of its
  type (``BeforeValidator``, ``PlainValidator``, ``WrapValidator``, ``ImportString``, which
  imports whatever module the model names): the schema cannot show what such a function
  accepts. An ``AfterValidator`` runs after the type and only narrows it: it is kept.

Each refusal says what to write instead: a ``str`` with a ``pattern`` for the exact form
(``^[0-9]{4}-[0-9]{2}-[0-9]{2}$`` for a date), converted in the handler
(``datetime.date.fromisoformat(day)``), or a ``float``/``int`` for a number.

Patterns
--------

The model reads a ``pattern`` as ECMAScript (JSON Schema's dialect; providers differ on the
``u`` flag), the validator as Rust's regex (pydantic's default) or Python's ``re``
(``regex_engine="python-re"``, or a pattern given compiled). They differ on much: ``\d``
and ``\w`` are Unicode-wide to the validator (``^\d{3}$`` accepts ``"١٢٣"`` and fullwidth
digits, ``^\w+$`` accepts ``"Tökyö"``), ``.`` excludes ``\r`` in ECMAScript only
(``^.{1,3}$`` accepts ``"a\rb"`` to the validator alone), and Python's ``$`` also matches
before a final newline (``^[a-z]+$`` accepts ``"tokyo\n"``). So a pattern is accepted only
when it is made of constructs that mean the same in all of them (:func:`pattern_problem`), a
subset of the one JSON Schema recommends (JSON Schema Core 2020-12, section 6.4, "Regular
Expressions"):

* literal characters up to U+FFFF; ``\`` before one of ``^$\.*+?()[]{}|/``; ``\n``,
  ``\r``, ``\t``, ``\f``, ``\v``, ``\xHH``, ``\uHHHH``;
* classes of the characters they allow, with ranges: ``[a-z0-9_]``, ``[A-Fa-f\-]``;
* the quantifiers ``*``, ``+``, ``?``, ``{n}``, ``{n,}``, ``{n,m}`` (lazy ones too);
* the anchors ``^`` and ``$`` (``$`` not under Python's ``re``), alternation ``|``, and the
  groups ``(...)`` and ``(?:...)``.

Refused, each with the exact replacement: ``\d`` (write ``[0-9]``), ``\w`` (write
``[A-Za-z0-9_]``), ``\s``, ``\b``, ``.``, classes of excluded characters (``[^,]``: without
the ``u`` flag ECMAScript counts a character beyond U+FFFF as two), lookaround, backreferences,
named groups, inline flags, ``{,n}``, and a pattern the schema shows but the validator does not
check (``json_schema_extra``, ``WithJsonSchema``) or checks after stripping spaces
(``strip_whitespace``).

The other way, validating in the schema's dialect with the ``regress`` package (ECMAScript
regular expressions from Rust; maintained, and it installs from a wheel), was not taken: it
would add a compiled dependency to every course environment, the browser's Pyodide included,
replace pydantic's own ``pattern`` check on every field, and still leave the ``u`` flag open.
A subset a learner reads in one list needs none of that. The tests use ``regress`` to read
patterns as the model does.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

_ANNOTATIONS = frozenset({"title", "description"})
_DROPPED = frozenset({"default", "examples", "deprecated", "readOnly", "writeOnly", "$comment"})
"""Keywords that only annotate (no value is allowed or refused by them): dropped, exactly."""
_KEPT_BY_TYPE: dict[str, frozenset[str]] = {
    "object": frozenset({"properties", "required", "additionalProperties"}),
    "array": frozenset({"items"}),
    "string": frozenset({"enum", "pattern"}),
    "number": frozenset(
        {"enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
    ),
    "boolean": frozenset({"enum"}),
    "null": frozenset({"enum"}),
}
_KEPT_BY_TYPE["integer"] = _KEPT_BY_TYPE["number"]

_INSTEAD: dict[str, tuple[str, str]] = {
    # keyword: (what it is, what to use instead)
    "prefixItems": (
        "a tuple of fixed positions (tuple[int, str])",
        "use a model with one named field per position, or list[X] for items of one type",
    ),
    "uniqueItems": (
        "a set (items that must differ)",
        "use list[X] and check duplicates in the handler",
    ),
    "minLength": (
        "a minimum string length (min_length)",
        "drop the bound, or state the characters and the count in a pattern, such as "
        "^[A-Za-z0-9 ]{2,}$ (a class you list: '.' is refused)",
    ),
    "maxLength": (
        "a maximum string length (max_length)",
        "drop the bound, or state the characters and the count in a pattern, such as "
        "^[A-Za-z0-9 ]{0,40}$ (a class you list: '.' is refused)",
    ),
    "minItems": (
        "a minimum number of items (min_length)",
        "drop the bound and check the count in the handler",
    ),
    "maxItems": (
        "a maximum number of items (max_length)",
        "drop the bound and check the count in the handler",
    ),
    "patternProperties": ("keys chosen by a pattern", "use a model with named fields"),
    "allOf": ("an allOf of several schemas", "use one model that has all the fields"),
    "not": ("a 'not' schema", "state what is allowed instead (an enum, a Literal)"),
}


CLOSE_THE_OBJECT = "use a model with model_config = ConfigDict(extra='forbid')"
"""What a :class:`StrictSchemaError` says to do about an open object (a dict, or a model
without ``extra='forbid'``): its ``instead``, which the course explains in the learner's
language."""


class StrictSchemaError(TypeError):
    """An arguments model has a part the strict schema cannot show exactly (section 5.1).

    Raised by :func:`strict_json_schema`, and so by ``Tool(...)`` when the tool is built,
    before any run. Attributes: ``owner`` (``"Tool 'name'"``, or the model's class name when
    no tool is given), ``field`` (the field path, such as ``"location"`` or
    ``"stops[].city"``; ``""`` for the arguments object itself), ``construct`` (what the
    schema holds there) and ``instead`` (what to use). The message says all four.
    """

    def __init__(self, owner: str, field: str, construct: str, instead: str) -> None:
        place = f"field {field!r} is" if field else "the arguments are"
        super().__init__(
            f"{owner}: {place} {construct}, which a strict schema cannot show exactly; {instead}."
        )
        self.owner = owner
        self.field = field
        self.construct = construct
        self.instead = instead

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.owner, self.field, self.construct, self.instead))


def strict_json_schema(model: type[BaseModel], tool: str | None = None) -> dict[str, Any]:
    """Return the strict JSON Schema of an arguments model: what a strict provider is shown.

    Inputs: a pydantic ``BaseModel`` subclass, and the tool's name for messages (optional).
    Output: pydantic's JSON Schema for it (validation mode), translated node by node into the
    strict subset (see the module's table): every property of every object ``required`` (a
    field with a default too: the model must send it; the validator still accepts it
    missing), no ``default`` keys, ``const`` as a one-value ``enum``, a discriminated union
    as ``anyOf``, a ``$ref`` with sibling keywords written out. A recursive model keeps
    ``$ref`` into ``$defs``. The model is not changed; each call returns a new dict.

    Raises :class:`StrictSchemaError` (a ``TypeError``) naming the tool (or the model), the
    field path, the construct and what to use instead, for anything the subset cannot show
    exactly: see the module docstring; also for an alias the validator reads differently
    from the schema (``AliasChoices``, ``AliasPath``, ``populate_by_name``/
    ``validate_by_name`` or ``validate_by_alias=False`` beside an alias). Raises
    ``TypeError`` when pydantic cannot generate a schema for the model.
    """
    owner = f"Tool {tool!r}" if tool is not None else model.__name__
    try:
        schema = model.model_json_schema(schema_generator=_marked_schema_generator())
    except Exception as error:
        raise TypeError(f"{owner}: {model.__name__} has no JSON Schema: {error}") from None
    _check_aliases(model, (), set(), owner)
    walk = _Walk(owner, schema.get("$defs", {}))
    root = {key: value for key, value in schema.items() if key != "$defs"}
    strict: dict[str, Any] = walk.node(root, (), inline=True)
    if strict.get("type") != "object":
        raise StrictSchemaError(
            owner, "", "not a JSON object", "the arguments of a tool are always an object"
        )
    if walk.referenced:  # a recursive model: its definitions stay, in strict form
        strict["$defs"] = {name: walk.strict[name] for name in sorted(walk.referenced)}
    return strict


_CHECKED = "x-agentcore-checked"
_REFUSED = "x-agentcore-refused"
"""Marks the generator puts in pydantic's schema for the walk; never in a strict schema."""

_READ_BY_A_PARSER: dict[str, tuple[str, str]] = {
    # pydantic core schema type: (what it is, what to use instead)
    "decimal": (
        "a Decimal (shown as a number or any string, while the validator refuses 'abc' and "
        "'NaN' and also reads ' 1', '1_000' and '١٢٣')",
        "use float, or str with a pattern such as ^-?[0-9]+(\\.[0-9]+)?$ and Decimal(text) "
        "in the handler",
    ),
    "datetime": (
        "a datetime (pydantic also reads one without a time zone, with a space for 'T' or "
        "as a Unix time '1767225600', which JSON Schema's format 'date-time' does not allow)",
        "use str with a pattern such as "
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{2}:[0-9]{2}$ and "
        "datetime.fromisoformat(text) in the handler",
    ),
    "date": (
        "a date (pydantic also reads a Unix time written as digits, '1767225600', which "
        "JSON Schema's format 'date' does not allow)",
        "use str with the pattern ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ and "
        "datetime.date.fromisoformat(text) in the handler",
    ),
    "time": (
        "a time (pydantic also reads '10:00' and times without a time zone, which JSON "
        "Schema's format 'time' does not allow)",
        "use str with a pattern such as ^([01][0-9]|2[0-3]):[0-5][0-9]$ and "
        "datetime.time.fromisoformat(text) in the handler",
    ),
    "timedelta": (
        "a timedelta (pydantic also reads '1 day' and '10:00', which JSON Schema's format "
        "'duration' does not allow)",
        "use a number of seconds or minutes (float or int) and timedelta(...) in the handler",
    ),
    "uuid": (
        "a UUID (pydantic also reads one without dashes, in braces or as 'urn:uuid:...', "
        "which JSON Schema's format 'uuid' does not allow)",
        "use str with the pattern "
        "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$ and uuid.UUID(text) "
        "in the handler",
    ),
    "complex": (
        "a complex number (shown as any string, while the validator reads only Python's "
        "spellings of a complex number)",
        "use two floats, the real and the imaginary part",
    ),
    "function-plain": (
        "a field read by a function instead of its type (PlainValidator, ImportString, which "
        "imports whatever module the model names): the schema cannot show what it accepts",
        "use a plain type the schema shows (str with a pattern, an enum or a Literal) and do "
        "the conversion in the handler",
    ),
    "function-before": (
        "a field with a BeforeValidator (or a field_validator in mode 'before'): it reads the "
        "model's value before the type does, so it accepts what the schema does not show",
        "validate after the type (AfterValidator) or convert in the handler",
    ),
    "function-wrap": (
        "a field with a WrapValidator (or a field_validator in mode 'wrap'): it may accept "
        "what the schema does not show",
        "validate after the type (AfterValidator) or convert in the handler",
    ),
}
"""Types whose parser reads spellings their JSON Schema does not show: refused, with why."""


@functools.cache
def _marked_schema_generator() -> type[Any]:
    """pydantic's JSON Schema generator, marking what the schema alone cannot tell the walk.

    Built on first use, so ``import agentcore`` does not load pydantic. The marks: on a
    string with a pattern, what the validator checks (``_CHECKED``: the pattern, whether
    Python's ``re`` reads it, its flags, whether spaces are stripped first); in place of a
    type in :data:`_READ_BY_A_PARSER`, why it is refused (``_REFUSED``). A Decimal's schema
    looks like ``float | str``'s, and a pattern from ``json_schema_extra`` like a checked one:
    only the core schema tells them apart.
    """
    from pydantic.json_schema import GenerateJsonSchema

    class MarkedSchema(GenerateJsonSchema):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.configs: list[Mapping[str, Any]] = [{}]

        @contextmanager
        def config_of(self, schema: Mapping[str, Any]) -> Iterator[None]:
            """A model's own config governs its fields (pydantic's regex_engine, stripping)."""
            self.configs.append(schema.get("config") or {})
            try:
                yield
            finally:
                self.configs.pop()

        def model_schema(self, schema: Any) -> Any:
            with self.config_of(schema):
                return super().model_schema(schema)

        def dataclass_schema(self, schema: Any) -> Any:
            with self.config_of(schema):
                return super().dataclass_schema(schema)

        def typed_dict_schema(self, schema: Any) -> Any:
            with self.config_of(schema):
                return super().typed_dict_schema(schema)

        def str_schema(self, schema: Any) -> Any:
            json_schema = super().str_schema(schema)
            pattern = schema.get("pattern")
            if pattern is not None:
                config = self.configs[-1]
                compiled = not isinstance(pattern, str)
                strip = schema.get("strip_whitespace", config.get("str_strip_whitespace"))
                json_schema[_CHECKED] = {
                    "pattern": pattern.pattern if compiled else pattern,
                    "python_re": compiled or config.get("regex_engine") == "python-re",
                    "flags": pattern.flags & ~re.UNICODE if compiled else 0,
                    "strip": bool(strip),
                }
            return json_schema

        def refused(self, schema: Mapping[str, Any]) -> Any:
            return {_REFUSED: list(_READ_BY_A_PARSER[schema["type"]])}

        decimal_schema = datetime_schema = date_schema = time_schema = refused
        timedelta_schema = uuid_schema = complex_schema = refused

        def generate_inner(self, schema: Any) -> Any:
            # A function that reads the value may bring its own JSON Schema (ImportString
            # shows "string"), which would hide it from function_*_schema: refuse it first.
            if schema.get("type") in ("function-plain", "function-before", "function-wrap"):
                return self.refused(schema)
            return super().generate_inner(schema)

    return MarkedSchema


def _path(where: tuple[str, ...]) -> str:
    """``("stops", "[]", "city")`` as ``"stops[].city"``."""
    text = ""
    for part in where:
        text += part if part == "[]" or not text else f".{part}"
    return text


class _Walk:
    """One walk over one model's schema; definitions are made strict where they are used.

    A definition is checked at its first use, so a refusal names the field that holds the
    model (``location``), not the model's class. ``strict`` holds the finished definitions,
    ``pending`` those being walked (a recursive model refers to itself: that reference stays
    a plain ``$ref``) and ``referenced`` the names a plain ``$ref`` still points at.
    """

    def __init__(self, owner: str, definitions: Mapping[str, Any]) -> None:
        self.owner = owner
        self.definitions = definitions
        self.strict: dict[str, dict[str, Any]] = {}
        self.pending: set[str] = set()
        self.referenced: set[str] = set()

    def refuse(self, where: tuple[str, ...], construct: str, instead: str) -> StrictSchemaError:
        return StrictSchemaError(self.owner, _path(where), construct, instead)

    def node(self, node: Mapping[str, Any], where: tuple[str, ...], inline: bool = False) -> Any:
        """The strict copy of one schema node (``where`` is its field path)."""
        node = {key: value for key, value in node.items() if key not in _DROPPED}
        if _REFUSED in node:
            raise self.refuse(where, *node[_REFUSED])
        checked = node.pop(_CHECKED, None)
        if "pattern" in node:
            self.check_pattern(node["pattern"], checked, where)
        if "format" in node:
            raise self.refuse(
                where,
                f"a string of the format {node['format']!r} (a name for a form, which a "
                "provider and pydantic's parser each read their own way)",
                "use str with a pattern that spells the form out, and convert it in the handler",
            )
        if "$ref" in node:
            return self.reference(node, where, inline)
        if "allOf" in node and len(node["allOf"]) == 1:
            (only,) = node.pop("allOf")
            return self.node({**only, **node}, where, inline=True)
        if "const" in node:
            if "enum" in node:
                raise self.refuse(where, "both const and enum", "use a Literal")
            node["enum"] = [node.pop("const")]
        if "oneOf" in node:
            node = self.one_of_as_any_of(node, where)
        if "anyOf" in node:
            return self.any_of(node, where)
        kind = node.get("type")
        if kind is None and "enum" not in node:
            raise self.refuse(
                where,
                "a value of any type (Any, object, or a list or tuple without an item type)",
                "give it a type: str, int, float, bool, a Literal, a model, list[X]",
            )
        if kind is not None and not (isinstance(kind, str) and kind in _KEPT_BY_TYPE):
            raise self.refuse(
                where, f"of the type {kind!r}", "use one type per field, or a Union (anyOf)"
            )
        kept = _ANNOTATIONS | {"type"} | (_KEPT_BY_TYPE[kind] if kind else {"enum"})
        # In the order of _INSTEAD first: a tuple's prefixItems says more than its minItems.
        order = list(_INSTEAD)
        for keyword in sorted(node, key=lambda k: order.index(k) if k in order else len(order)):
            if keyword not in kept:
                construct, instead = _INSTEAD.get(
                    keyword,
                    (f"a schema with {keyword!r}", "remove it: strict mode does not support it"),
                )
                raise self.refuse(where, construct, instead)
        strict = dict(node)
        if kind == "object":
            self.closed_object(strict, where)
        elif kind == "array":
            if not node.get("items"):
                raise self.refuse(
                    where,
                    "a list or tuple without an item type",
                    "give the item type: list[str], tuple[int, ...]",
                )
            strict["items"] = self.node(node["items"], (*where, "[]"))
        elif "multipleOf" in node and (kind != "integer" or type(node["multipleOf"]) is not int):
            # JSON Schema divides exactly, pydantic within 1e-9: on floats they disagree.
            raise self.refuse(
                where,
                "a multiple_of on a number that is not an int (JSON Schema divides exactly, "
                "pydantic allows a rounding tolerance: 0.3 is a multiple of 0.1 to one only)",
                "use an int field with an int multiple_of (count tenths as an int), or check "
                "it in the handler",
            )
        return strict

    def check_pattern(self, pattern: Any, checked: Any, where: tuple[str, ...]) -> None:
        """Refuse a pattern unless the validator checks that very pattern, read alike."""
        if not isinstance(checked, dict) or checked.get("pattern") != pattern:
            raise self.refuse(
                where,
                f"a string whose pattern {pattern!r} the validator does not check (set by "
                "json_schema_extra or WithJsonSchema)",
                "give it as Field(pattern=...) or StringConstraints(pattern=...)",
            )
        if checked["flags"]:
            raise self.refuse(
                where,
                f"a string whose pattern is compiled with flags "
                f"({re.RegexFlag(checked['flags'])!r})",
                "give the pattern as a str without flags: [A-Za-z] instead of re.IGNORECASE",
            )
        if checked["strip"]:
            raise self.refuse(
                where,
                "a string whose pattern is checked after surrounding spaces are stripped "
                "(strip_whitespace, str_strip_whitespace: the validator accepts ' abc ' for "
                "^[a-z]+$, the schema does not)",
                "turn the stripping off, and strip in the handler",
            )
        problem = pattern_problem(pattern, python_re=checked["python_re"])
        if problem is not None:
            construct, instead = problem
            raise self.refuse(
                where, f"a string whose pattern {pattern!r} holds {construct}", instead
            )

    def reference(self, node: dict[str, Any], where: tuple[str, ...], inline: bool) -> Any:
        """A ``$ref``: alone it stays; beside annotations (or at the root) it is written out."""
        name = node["$ref"].rsplit("/", 1)[-1]
        siblings = {key: value for key, value in node.items() if key != "$ref"}
        if siblings.keys() - _ANNOTATIONS:
            raise self.refuse(
                where,
                "a $ref with other keywords beside it",
                "describe the field with description= only",
            )
        if name in self.pending:  # a model that contains itself
            self.referenced.add(name)
            return {"$ref": node["$ref"]}
        if name not in self.strict:
            self.pending.add(name)
            self.strict[name] = self.node(self.definitions[name], where)
            self.pending.discard(name)
        if siblings or inline:
            return {**self.strict[name], **siblings}
        self.referenced.add(name)
        return {"$ref": node["$ref"]}

    def any_of(self, node: dict[str, Any], where: tuple[str, ...]) -> dict[str, Any]:
        extra = node.keys() - _ANNOTATIONS - {"anyOf"}
        if extra:
            raise self.refuse(
                where,
                f"a union with {sorted(extra)} beside it",
                "use a plain Union of typed members",
            )
        branches = [self.node(branch, where) for branch in node["anyOf"]]
        return {**node, "anyOf": branches}

    def one_of_as_any_of(self, node: dict[str, Any], where: tuple[str, ...]) -> dict[str, Any]:
        """A discriminated union as ``anyOf``: exact because the tags keep the branches apart."""
        discriminator = node.pop("discriminator", None)
        tag = discriminator.get("propertyName") if isinstance(discriminator, dict) else None
        seen: set[Any] = set()
        for branch in node["oneOf"]:
            values = self.tag_values(branch, tag, where)
            if values is None or seen & values:
                raise self.refuse(
                    where,
                    "a oneOf whose branches may overlap",
                    "use a discriminated union of models, each with its own "
                    "Literal tag (Field(discriminator='kind')), or a plain Union (anyOf)",
                )
            seen |= values
        return {
            **{key: value for key, value in node.items() if key != "oneOf"},
            "anyOf": node["oneOf"],
        }

    def tag_values(self, branch: Any, tag: str | None, where: tuple[str, ...]) -> set[Any] | None:
        """The values a branch's tag allows (a closed model's one-value enum), else ``None``."""
        if tag is None or not isinstance(branch, dict) or set(branch) != {"$ref"}:
            return None
        name = branch["$ref"].rsplit("/", 1)[-1]
        if name in self.pending:
            return None
        strict = self.node(branch, where, inline=True)
        values = strict.get("properties", {}).get(tag, {}).get("enum")
        if not isinstance(values, list) or not values:
            return None
        return {repr(value) for value in values}  # repr: 1 and True and "1" stay apart

    def closed_object(self, strict: dict[str, Any], where: tuple[str, ...]) -> None:
        if strict.get("additionalProperties") is not False:
            raise self.refuse(
                where,
                "an object that allows keys it does not name (a dict, or a model without "
                "extra='forbid')",
                CLOSE_THE_OBJECT,
            )
        properties = strict.get("properties", {})
        strict["properties"] = {
            field: self.node(sub, (*where, field)) for field, sub in properties.items()
        }
        strict["required"] = list(properties)


def _check_aliases(
    model: type[BaseModel], where: tuple[str, ...], seen: set[type], owner: str
) -> None:
    """Refuse aliases the validator reads differently from the schema, in nested models too.

    The schema names a field by its alias only; ``AliasChoices`` and ``AliasPath`` validate
    other keys (or nested ones), and ``populate_by_name``/``validate_by_name`` also accepts
    the field's own name: keys the strict schema forbids, or a shape it does not show.
    """
    from pydantic import AliasChoices, AliasPath, BaseModel

    if model in seen:
        return
    seen.add(model)
    config = model.model_config
    by_name = config.get("validate_by_name") or config.get("populate_by_name")
    for name, info in model.model_fields.items():
        path = (*where, name)
        alias = info.validation_alias if info.validation_alias is not None else info.alias
        if isinstance(alias, AliasChoices | AliasPath):
            raise StrictSchemaError(
                owner,
                _path(path),
                f"validated by several keys or a path ({type(alias).__name__})",
                "give it one alias",
            )
        if config.get("validate_by_alias") is False and alias not in (None, name):
            raise StrictSchemaError(
                owner,
                _path(path),
                f"validated only by its name {name!r} (validate_by_alias=False) while the "
                f"schema names it {alias!r}",
                "let it validate by its alias",
            )
        if by_name and alias is not None and alias != name:
            raise StrictSchemaError(
                owner,
                _path(path),
                f"also validated by its name {name!r} (validate_by_name), which the schema, "
                f"naming only {alias!r}, forbids",
                "turn validate_by_name and populate_by_name off",
            )
        pending: list[Any] = [info.annotation]
        while pending:
            kind = pending.pop()
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                _check_aliases(kind, path, seen, owner)
            pending += list(getattr(kind, "__args__", ()) or ())


# --- patterns: the subset that ECMAScript, Rust's regex and Python's re read alike ----------

_SYNTAX = frozenset("^$\\.*+?()[]{}|/")
"""Characters a backslash makes literal in every dialect (ECMAScript's syntax characters)."""
_CONTROL = {"n": "\n", "r": "\r", "t": "\t", "f": "\f", "v": "\v"}
_SHORTHAND = {
    # escape: (what it is, what to write instead)
    "d": (
        "\\d (any Unicode digit to the validator, such as '١' and fullwidth ones)",
        "write [0-9] instead of \\d",
    ),
    "D": ("\\D (a class of what it excludes)", "list the characters you allow, such as [a-z]"),
    "w": (
        "\\w (any Unicode letter to the validator, such as 'ö')",
        "write [A-Za-z0-9_] instead of \\w",
    ),
    "W": ("\\W (a class of what it excludes)", "list the characters you allow, such as [ ,.]"),
    "s": (
        "\\s (a different set of spaces in each dialect)",
        "list the spaces you mean, such as [ \\t]",
    ),
    "S": ("\\S (a class of what it excludes)", "list the characters you allow, such as [a-z]"),
    "b": ("\\b (a word boundary, by Unicode words to the validator)", "anchor with ^ and $"),
    "B": ("\\B (a non-boundary, by Unicode words to the validator)", "anchor with ^ and $"),
    "A": ("\\A (not ECMAScript)", "write ^ instead of \\A"),
    "z": ("\\z (not ECMAScript)", "write $ instead of \\z"),
    "Z": ("\\Z (not ECMAScript; Python's end of text)", "write $ instead of \\Z"),
    "p": (
        "\\p{...} (a Unicode property, read only with ECMAScript's u flag)",
        "list the characters or ranges you allow, such as [a-z\\u00e0-\\u00ff]",
    ),
    "P": (
        "\\P{...} (a Unicode property, read only with ECMAScript's u flag)",
        "list the characters or ranges you allow, such as [a-z]",
    ),
    "0": ("\\0 (not Rust's regex)", "write \\x00 instead of \\0"),
}
_IN_A_CLASS = {
    "d": "write 0-9 instead of \\d inside the class",
    "w": "write A-Za-z0-9_ instead of \\w inside the class",
}
_CLASS_SETS = ("&&", "~~", "--", "||")
_HEX = frozenset("0123456789abcdefABCDEF")


class _PatternProblem(Exception):
    """Internal: why a pattern is outside the subset (construct, instead)."""

    def __init__(self, construct: str, instead: str) -> None:
        super().__init__(construct, instead)
        self.construct = construct
        self.instead = instead


def pattern_problem(pattern: str, *, python_re: bool = False) -> tuple[str, str] | None:
    """Why ``pattern`` may mean one thing to the model and another to the validator, if it may.

    Inputs: the pattern and whether the validator uses Python's ``re`` (pydantic's
    ``regex_engine="python-re"``, or a pattern given compiled) rather than Rust's regex.
    Output: ``None`` when the pattern is in the subset of the module docstring, which
    ECMAScript (with or without the ``u`` flag), Rust's regex and Python's ``re`` all read
    alike; else ``(construct, instead)``: the first construct outside it and what to write.
    """
    try:
        _Pattern(pattern, python_re).check()
    except _PatternProblem as problem:
        return problem.construct, problem.instead
    return None


class _Pattern:
    """A recursive-descent reader of one pattern that accepts only the common subset.

    Grammar: alternatives = sequence ("|" sequence)*; sequence = (atom quantifier?)*;
    atom = character | escape | class | "(" ["?:"] alternatives ")" | "^" | "$".
    """

    def __init__(self, text: str, python_re: bool) -> None:
        self.text = text
        self.at = 0
        self.python_re = python_re

    def peek(self, size: int = 1) -> str:
        return self.text[self.at : self.at + size]

    def take(self) -> str:
        char = self.peek()
        self.at += 1
        return char

    def check(self) -> None:
        self.alternatives()
        if self.at < len(self.text):  # only a ")" stops the alternatives early
            raise _PatternProblem("an unmatched ')'", "write \\) for a literal parenthesis")

    def alternatives(self) -> None:
        self.sequence()
        while self.peek() == "|":
            self.at += 1
            self.sequence()

    def sequence(self) -> None:
        while self.peek() not in ("", "|", ")"):
            repeatable = self.atom()
            if not self.quantifier():
                continue
            if not repeatable:
                raise _PatternProblem(
                    "a quantifier on an anchor", "put the anchor outside the repetition"
                )
            if self.peek() == "?":
                self.at += 1  # lazy: it matches the same strings
            if self.peek() in ("*", "+", "?", "{"):
                raise _PatternProblem(
                    "a quantifier after a quantifier (possessive in Python's re, an error "
                    "in ECMAScript)",
                    "use one quantifier, or a group: (a*)+",
                )

    def quantifier(self) -> bool:
        """Read a quantifier if one is next: ``*``, ``+``, ``?``, ``{n}``, ``{n,}``, ``{n,m}``."""
        if self.peek() in ("*", "+", "?"):
            self.at += 1
            return True
        if self.peek() != "{":
            return False
        braces = _BRACES.match(self.text, self.at)
        if braces is None:
            raise _PatternProblem(
                "a '{' that is not a whole quantifier {n}, {n,} or {n,m} (a literal brace "
                "in ECMAScript without the u flag, an error with it)",
                "write \\{ for a literal brace, or {0,n} for at most n",
            )
        low, high = braces.group(1), braces.group(3)
        if high and int(high) < int(low):
            raise _PatternProblem(
                f"the quantifier {braces.group(0)} (its least above its most)",
                "write {n,m} with n <= m",
            )
        self.at = braces.end()
        return True

    def atom(self) -> bool:
        """Read one atom; return whether a quantifier may follow it."""
        if self.peek() in ("*", "+", "?", "{"):
            raise _PatternProblem(
                f"a quantifier {self.peek()!r} with nothing to repeat",
                f"write \\{self.peek()} for the character itself",
            )
        char = self.take()
        if char == "(":
            self.group()
        elif char == "[":
            self.character_class()
        elif char == "\\":
            self.escape(in_class=False)
        elif char == "^":
            return False
        elif char == "$":
            if self.python_re:
                raise _PatternProblem(
                    "a '$' read by Python's re (regex_engine='python-re', or a pattern given "
                    "compiled), where it also matches before a final newline: ^[a-z]+$ "
                    "accepts 'tokyo\\n'",
                    "leave regex_engine at its default 'rust-regex' and give the pattern as a "
                    "str: there $ is the end of the text, as in ECMAScript",
                )
            return False
        elif char == ".":
            raise _PatternProblem(
                "'.' (any character but a line break: ECMAScript also stops at '\\r', the "
                "validator does not, so ^.{1,3}$ accepts 'a\\rb' to one of them only)",
                "list the characters you allow instead of '.', such as [A-Za-z0-9 ]",
            )
        elif char in ("]", "}"):
            raise _PatternProblem(
                f"a {char!r} without a backslash (an error in ECMAScript with the u flag)",
                f"write \\{char}",
            )
        else:
            _check_character(char)
        return True

    def group(self) -> None:
        """``(...)`` or ``(?:...)``; the ``(`` is read."""
        if self.peek() == "?":
            if self.peek(2) != "?:":
                kinds = (
                    ("?<=", "a lookbehind (?<=...)"),
                    ("?<!", "a negative lookbehind (?<!...)"),
                    ("?=", "a lookahead (?=...)"),
                    ("?!", "a negative lookahead (?!...)"),
                    ("?P", "a named group (?P<name>...)"),
                    ("?<", "a named group (?<name>...)"),
                )
                kind = next(
                    (name for start, name in kinds if self.text.startswith(start, self.at)),
                    "an inline flag (?i) or group option (?...)",
                )
                raise _PatternProblem(
                    f"{kind} (not read alike by ECMAScript, Rust's regex and Python's re)",
                    "use plain groups (...) or (?:...), alternation and classes",
                )
            self.at += 2
        self.alternatives()
        if self.take() != ")":
            raise _PatternProblem("a '(' without its ')'", "close the group")

    def character_class(self) -> None:
        """``[...]`` of characters and ranges; not negated, not nested; the ``[`` is read."""
        if self.peek() == "^":
            raise _PatternProblem(
                "a class of the characters it excludes ([^...]: ECMAScript without the u "
                "flag counts a character beyond U+FFFF, an emoji, as two, the validator as "
                "one)",
                "list the characters you allow instead of those you exclude, such as "
                "[A-Za-z0-9 ,.]",
            )
        if self.peek() == "]":
            raise _PatternProblem(
                "a class that starts with ']' (empty in ECMAScript, a ']' elsewhere)",
                "write \\] for a literal bracket",
            )
        first = True
        while self.peek() != "]":
            if not self.peek():
                raise _PatternProblem("a '[' without its ']'", "close the class")
            if self.peek(2) in _CLASS_SETS:
                raise _PatternProblem(
                    f"{self.peek(2)!r} inside a class (a set operation in Rust's regex, two "
                    "characters in ECMAScript)",
                    "write the character once, or escape it: \\-",
                )
            if self.peek() == "[":
                raise _PatternProblem(
                    "a '[' inside a class (a nested class in Rust's regex, a character in "
                    "ECMAScript)",
                    "write \\[",
                )
            if self.peek() == "-" and not first and self.peek(2) != "-]":
                raise _PatternProblem(
                    "a '-' inside a class that is neither first, last, nor between the two "
                    "ends of a range (an error in ECMAScript with the u flag)",
                    "write \\- for a hyphen",
                )
            low = self.class_character()
            if self.peek() == "-" and self.peek(2) != "-]":
                self.at += 1
                high = self.class_character()
                if ord(high) < ord(low):
                    raise _PatternProblem(
                        f"the range {low}-{high} (its end before its start)",
                        f"write {high}-{low}",
                    )
                if ord(low) <= 0xDFFF and ord(high) >= 0xD800:
                    raise _PatternProblem(
                        "a range over U+D800-U+DFFF (halves of a character beyond U+FFFF to "
                        "ECMAScript without the u flag)",
                        "end the range at \\ud7ff, or start it at \\ue000",
                    )
            first = False
        self.at += 1

    def class_character(self) -> str:
        """One character of a class, an escape read."""
        char = self.take()
        if char != "\\":
            _check_character(char)
            return char
        if self.peek() == "-":
            self.at += 1
            return "-"
        if self.peek() == "b":
            raise _PatternProblem(
                "\\b inside a class (a backspace in ECMAScript and Python's re, an error in "
                "Rust's regex)",
                "write \\x08",
            )
        if self.peek() in _IN_A_CLASS:
            raise _PatternProblem(_SHORTHAND[self.peek()][0], _IN_A_CLASS[self.peek()])
        return self.escape(in_class=True)

    def escape(self, in_class: bool) -> str:
        """The character a backslash (read) stands for; refuse what the dialects differ on."""
        char = self.take()
        if not char:
            raise _PatternProblem("a '\\' at the end", "write \\\\ for a backslash")
        if char in _SYNTAX:
            return char
        if char in _CONTROL:
            return _CONTROL[char]
        if char in ("x", "u"):
            size = 2 if char == "x" else 4
            digits = self.text[self.at : self.at + size]
            if len(digits) != size or not all(digit in _HEX for digit in digits):
                raise _PatternProblem(
                    f"\\{char} without {size} hex digits",
                    "write \\xHH or \\uHHHH, such as \\x41 or \\u00e9",
                )
            self.at += size
            value = chr(int(digits, 16))
            _check_character(value)
            return value
        if char in _SHORTHAND:
            raise _PatternProblem(*_SHORTHAND[char])
        if char.isdigit():
            raise _PatternProblem(
                f"a backreference \\{char} (not in Rust's regex)", "repeat the group's pattern"
            )
        if char.isalnum():
            instead = "write the character itself, or \\uHHHH"
        else:
            instead = f"write {char} without a backslash"
        raise _PatternProblem(
            f"the escape \\{char} (read differently by ECMAScript, Rust's regex and Python's re)",
            instead,
        )


_BRACES = re.compile(r"\{([0-9]+)(,([0-9]*))?\}")


def _check_character(char: str) -> None:
    """A literal character: one UTF-16 code unit, so ECMAScript with or without u agrees."""
    if not char:  # the pattern ended where a character was due ("[a-")
        raise _PatternProblem(
            "an unfinished pattern (it ends inside a character class or an escape)",
            "finish it: close the class with ] or complete the escape",
        )
    if ord(char) > 0xFFFF or 0xD800 <= ord(char) <= 0xDFFF:
        raise _PatternProblem(
            f"the character {char!r} (U+{ord(char):04X}, beyond U+FFFF or a surrogate: two "
            "units to ECMAScript without the u flag, one to the validator)",
            "leave it out of the pattern, and check it in the handler",
        )
