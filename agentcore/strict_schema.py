"""The strict JSON Schema of a tool's arguments: exact, or refused when the tool is built.

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
``maxItems`` as unsupported), except for string formats: OpenAI's date and time formats are
kept as well (see :data:`STRING_FORMATS`).

======================= ===================================================================
node                    kept as it is
======================= ===================================================================
every node              ``title``, ``description`` (annotations); ``default`` is dropped:
                        every key is required
object                  ``properties``, ``required`` (all of them),
                        ``additionalProperties: false``
array                   ``items`` (one schema for every item)
string                  ``enum``, ``pattern``, ``format`` (one of :data:`STRING_FORMATS`)
number, integer         ``enum``, ``minimum``, ``maximum``, ``exclusiveMinimum``,
                        ``exclusiveMaximum``, ``multipleOf``
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
whose branches may overlap, other ``format`` values, and any keyword not in the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

STRING_FORMATS = frozenset(
    {"email", "hostname", "ipv4", "ipv6", "uuid", "date-time", "date", "time", "duration"}
)
"""String formats kept: DeepSeek documents the first five, OpenAI all nine (``date`` is what
pydantic shows for a ``datetime.date`` field)."""

_ANNOTATIONS = frozenset({"title", "description"})
_DROPPED = frozenset({"default", "examples", "deprecated", "readOnly", "writeOnly", "$comment"})
"""Keywords that only annotate (no value is allowed or refused by them): dropped, exactly."""
_KEPT_BY_TYPE: dict[str, frozenset[str]] = {
    "object": frozenset({"properties", "required", "additionalProperties"}),
    "array": frozenset({"items"}),
    "string": frozenset({"enum", "pattern", "format"}),
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
    "minLength": ("a minimum string length (min_length)", "drop the bound, or use a pattern"),
    "maxLength": ("a maximum string length (max_length)", "drop the bound, or use a pattern"),
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
        schema = model.model_json_schema()
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
        elif kind == "string" and "format" in node and node["format"] not in STRING_FORMATS:
            raise self.refuse(
                where,
                f"a string of the format {node['format']!r}",
                f"use str, or one of the formats {', '.join(sorted(STRING_FORMATS))}",
            )
        return strict

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
                "use a model with model_config = ConfigDict(extra='forbid')",
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
