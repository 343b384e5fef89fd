"""What `rules.py` renders: one base class per model that carries field rules."""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.model import Contract, FieldRule
from generator.render.models_code import rule_base_name


@dataclass(frozen=True, slots=True)
class RuleCheck:
    kind: str
    field: str
    method: str
    argument: str
    message: str


@dataclass(frozen=True, slots=True)
class RuleBase:
    name: str
    model: str
    rules: tuple[RuleCheck, ...]


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _check(rule: FieldRule) -> RuleCheck:
    if rule.kind == "exclude":
        method = f"_{rule.field}_is_not_{_snake(rule.argument)}"
        return RuleCheck(rule.kind, rule.field, method, rule.argument, f"must not match {rule.argument}")
    if rule.kind == "not_bool":
        return RuleCheck(
            rule.kind, rule.field, f"_{rule.field}_is_not_a_boolean", rule.argument, "Input should be a number"
        )
    method = f"_{rule.field}_is_a_boolean"
    return RuleCheck(rule.kind, rule.field, method, rule.argument, f"Input should be {rule.argument}")


def rule_bases(contract: Contract) -> tuple[RuleBase, ...]:
    models = list(dict.fromkeys(rule.model for rule in contract.field_rules))
    return tuple(
        RuleBase(
            name=rule_base_name(model),
            model=model,
            rules=tuple(_check(rule) for rule in contract.field_rules if rule.model == model),
        )
        for model in models
    )
