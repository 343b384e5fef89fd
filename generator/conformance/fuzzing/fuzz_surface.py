"""`conform --fuzz N` beside tools: each resource template read with N sets of values drawn for
its variables, each prompt got with N argument sets and, where it requires some, N that leave
a required one out; at the revision and on the sessions the tools are fuzzed on (a `link.Link`).

Reading and getting change nothing, so every template and prompt of the contract is fuzzed.
What a server answers a read of a drawn URI may be an error (no resource has that value), and
a prompt may refuse what its arguments mean (no schema says what they may be): a domain
answer, no finding, counted (`domain_answers`). A prompt got without a required argument is a
request the contract refuses: any error answers it (the Python SDK refuses it itself with
code 0, -32603 at 2026-07-28; the TypeScript SDK with -32602). The connection lost is a crash
whatever was asked (`fuzz-crash`), and on a request the contract accepts so is an error that
stands for an exception the server did not handle (JSON-RPC's internal error -32603, the
Python SDK's code 0); no answer is `fuzz-hang`, an answer that is no result
`invalid-response`, JSON contents of a template with a `schema:` that it refuses
`resource-contents-invalid`, a prompt answered although a required argument was left out
`fuzz-invalid-accepted`, and an answer past a bound of the client `bound-exceeded` (not a
crash: the client ended the connection). Each is shrunk by hypothesis and reported once per
template or prompt and rule, at its entry of resources.yaml or prompts.yaml.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio
import hypothesis.strategies as st
import mcp.types as types
from hypothesis import given, seed

from ... import debug
from ...client.report import Report, shown
from ...load.resource_prompt_files import PROMPTS_FILE, RESOURCES_FILE
from ...model.surface import Prompt, Resource, Surface
from ...rules import Rule
from ...rules import conform as rules
from ...runtime import NotJson, parse_json
from ...runtime.uri_template import UriTemplate
from ..link import Answer, Link
from .fuzz_draw import leaves, run_settings

SHRINK_CALLS = 50  # requests one template or prompt may make past its N, to shrink what it found
_VALUE = st.text(max_size=24)  # a variable's or an argument's value: any text, the empty one too


@dataclass(frozen=True)
class Found:
    """What one request found: its rule and what to say (the drawn values are added)."""

    rule: Rule
    text: str


class _Stop(Exception):
    def __init__(self, found: Found) -> None:
        self.found = found


@dataclass
class SurfaceFuzz:
    """The fuzzing of a contract's templates and prompts against `server`."""

    server: Link
    report: Report
    examples: int
    seed: int
    again: str  # how to reproduce the run, for every message

    def run(self, surface: Surface) -> dict[str, Any]:
        """Fuzz every template and prompt; the valid and invalid requests each made, and the
        domain answers the valid ones got, by `template X` / `prompt X` (a report's `fuzz.surface`)."""
        facts: dict[str, Any] = {}
        for index, template in enumerate(surface.templates):
            answers = _Count()
            valid = self._template(index, template, answers)
            facts[f"template {template.name}"] = {"valid": valid, "invalid": 0, "domain_answers": answers.n}
        for index, prompt in enumerate(surface.prompts):
            answers = _Count()
            valid, invalid = self._prompt(index, prompt, answers)
            facts[f"prompt {prompt.name}"] = {"valid": valid, "invalid": invalid, "domain_answers": answers.n}
        return facts

    def _template(self, index: int, template: Resource, answers: _Count) -> int:
        parsed = UriTemplate.parse(template.uri)
        strategy = st.fixed_dictionaries({name: _VALUE for name in parsed.variables})
        where = ["templates", index]
        judge = template.judge

        def read(values: dict[str, str]) -> Found | None:
            uri = parsed.expand(values)
            answer = self._ask(
                types.ReadResourceRequest(params=types.ReadResourceRequestParams(uri=uri)), types.ReadResourceResult
            )
            trouble = _trouble(answer, f"reading {uri}", accepted=True)
            answers.n += trouble is None and answer.kind == "rpc-error"
            if trouble is not None or answer.result is None or judge is None:
                return trouble
            for contents in answer.result.contents:
                text = getattr(contents, "text", None)
                try:
                    document = parse_json(text) if isinstance(text, str) else None
                except NotJson as exc:
                    return Found(rules.RESOURCE_CONTENTS_INVALID, f"the contents of {uri} are not JSON: {exc}")
                for violation in judge.violations(document)[:1]:
                    said = (
                        f"its schema refuses the contents of {uri} at {violation.pointer or '/'}: {violation.message}"
                    )
                    return Found(rules.RESOURCE_CONTENTS_INVALID, said)
            return None

        return self._property(
            strategy,
            read,
            lambda found, drawn: self._say(found, drawn, "resources/read", template.name, where, RESOURCES_FILE),
        )

    def _prompt(self, index: int, prompt: Prompt, answers: _Count) -> tuple[int, int]:
        where = ["prompts", index]
        required = {a.name: _VALUE for a in prompt.arguments if a.required}
        optional = {a.name: _VALUE for a in prompt.arguments if not a.required}
        valid = st.fixed_dictionaries(required, optional=optional)

        def get(arguments: dict[str, str]) -> Found | None:
            answer = self._get(prompt, arguments)
            trouble = _trouble(answer, "on arguments the prompt takes", accepted=True)
            answers.n += trouble is None and answer.kind == "rpc-error"
            return trouble

        def report(found: Found, drawn: Any) -> None:
            self._say(found, drawn, "prompts/get", prompt.name, where, PROMPTS_FILE)

        made, left = self._property(valid, get, report), 0
        if required:
            left_out = valid.flatmap(
                lambda drawn: st.sampled_from(sorted(required)).map(
                    lambda name: {k: v for k, v in drawn.items() if k != name}
                )
            )

            def get_without(arguments: dict[str, str]) -> Found | None:
                answer = self._get(prompt, arguments)
                trouble = _trouble(answer, "on arguments that leave a required one out", accepted=False)
                if trouble is None and answer.kind == "result":
                    return Found(
                        rules.FUZZ_INVALID_ACCEPTED, "a prompt answered although a required argument was left out"
                    )
                return trouble

            left = self._property(left_out, get_without, report)
        return made, left

    def _get(self, prompt: Prompt, arguments: dict[str, str]) -> Answer:
        params = types.GetPromptRequestParams(name=prompt.name, arguments=arguments)
        return self._ask(types.GetPromptRequest(params=params), types.GetPromptResult)

    def _ask(self, request: Any, result_type: Any) -> Answer:
        return anyio.from_thread.run(self.server.ask, request, result_type)

    def _property(
        self,
        strategy: st.SearchStrategy[Any],
        expect: Callable[[Any], Found | None],
        report: Callable[[Found, Any], None],
    ) -> int:
        """Run hypothesis over `strategy`, each drawn value asked once; report the first thing
        found, shrunk. The requests made."""
        answers: dict[str, Found | None] = {}
        limit = self.examples + SHRINK_CALLS

        def probe(drawn: Any) -> None:
            key = json.dumps(drawn, sort_keys=True)
            if key not in answers:
                if len(answers) >= limit or self.server.failed is not None:
                    return
                answers[key] = expect(drawn)
            found = answers[key]
            if found is not None:
                raise _Stop(found)

        test = seed(self.seed)(run_settings(self.examples)(given(strategy)(probe)))
        try:
            test()
        except Exception as exc:  # the shrunk example's `_Stop`, alone or in a group
            debug.handled(exc)
            stops = [leaf for leaf in leaves(exc) if isinstance(leaf, _Stop)]
            if not stops:  # hypothesis's own error (a flaky strategy...): a verdict still
                report(Found(rules.FUZZ_DEGRADED, f"the fuzzing stopped: {type(exc).__name__}"), None)
            for stop in stops:
                drawn = next((json.loads(k) for k, v in answers.items() if v is stop.found), None)
                report(stop.found, drawn)
        return len(answers)

    def _say(self, found: Found, drawn: Any, method: str, name: str, where: list[object], source: str) -> None:
        text = f"{found.text}: drawn {shown(drawn, 400)} ({self.again})"
        self.report.add(found.rule, f"{method} {name}", text, at=where, source=source)


@dataclass
class _Count:
    """The domain answers one template or prompt got."""

    n: int = 0


def _trouble(answer: Answer, after: str, accepted: bool) -> Found | None:
    """A crash, a hang or an answer that is no result. An error that stands for an exception
    not handled is a crash only on a request the contract `accepted`: one it refuses, any
    error answers; the connection lost is one whatever was asked."""
    crash = answer.crash() if accepted else (answer.text if answer.kind == "lost" else None)
    if crash is not None:
        return Found(rules.FUZZ_CRASH, f"{crash} {after}")
    if answer.kind == "timeout":
        return Found(rules.FUZZ_HANG, f"no answer {after}")
    if answer.kind == "over-bound":
        return Found(rules.BOUND_EXCEEDED, f"{answer.text} {after}")
    if answer.kind == "not-a-result":
        return Found(rules.INVALID_RESPONSE, f"{answer.text} {after}")
    return None
