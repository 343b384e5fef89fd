"""`tools.py` of a contract's Python package, and its `tool_arguments/` package: per tool a
model of its arguments, `<Name>Arguments` (`GetBookArguments` for `get_book`), made from its
`inputSchema` as models.py is from the envelope (`view_models_code`), in a module of its own
(`tool_arguments/<name>.py`) beside the bundle its judge reads (`<name>.input.json`) and what
its classes publish (`<name>.published.json`). tools.py binds each module's classes to its
judge, so that `model_validate` and `model_validate_json` accept exactly what the
`inputSchema` accepts (a `minimum`, a `pattern`, an `if`: what a Python type cannot say, the
judge decides), and names every tool (`TOOL_NAMES`) and its model (`ARGUMENTS`).

Every line is made here, each literal through the escaping filter `py`; the template only
places them.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..model import Contract
from ..model.schemas import View
from ..model.surface import ToolArguments
from ..naming import resource_module
from .builder_signatures import HintNeeds
from .escape import py, py_tuple
from .handlers_code import server_blocks
from .json_text import bundle_file
from .models_code import BLACK_MODE, format_python, header, view_models_code
from .published import resource_published_json
from .surface_code import Block

# The subpackage of a contract's package that holds a module of models per tool.
TOOL_ARGUMENTS = "tool_arguments"


def module_alias(module: str) -> str:
    """The name tools.py imports a tool's models module by: `_tool_<module>`, which no other
    name of tools.py takes (a tool named `models` has the module `models`, beside `_models`)."""
    return f"_tool_{module}"


def tools_literals(contract: Contract) -> dict[str, object]:
    """What tools.py.jinja places: the import lines, the exports and the definitions."""
    needs = HintNeeds()
    blocks = [*tool_blocks(contract), *server_blocks(contract, contract.root_model, needs)]
    exports = tool_exports(contract)
    # What the template writes beside the blocks: `__all__`, `CONTRACT: Final`.
    body = "\n".join([exports, "Final", *(block.text for block in blocks)])
    imports = _used(tool_imports(contract, needs), body + "\nTYPE_CHECKING")
    if "if TYPE_CHECKING:" not in imports:
        imports = _used(imports, body)
    # What a handler raises for an error: the builders' `ToolError`, else the document itself.
    error_raised = "`ToolError(code, message)`" if contract.builders is not None else "`ToolFailure(document)`"
    return {"imports": imports, "exports": exports, "blocks": blocks, "error_raised": error_raised}


_IMPORT = re.compile(r"^(?P<head>\s*from \S+ import )(?P<names>.+)$")


def _used(lines: list[str], body: str) -> list[str]:
    """The import lines with only the names `body` uses (an `x as _x` by its alias); a line
    left with none is dropped, and so is an `if TYPE_CHECKING:` left with no line."""
    kept: list[str] = []
    for line in lines:
        found = _IMPORT.match(line)
        if found is None:
            kept.append(line)
            continue
        names = [n for n in found["names"].split(", ") if re.search(rf"\b{re.escape(n.split(' as ')[-1])}\b", body)]
        if names:
            kept.append(found["head"] + ", ".join(names))
    if kept and kept[-1] == "if TYPE_CHECKING:":
        kept = kept[:-2]
    return kept


def tool_imports(contract: Contract, needs: HintNeeds) -> list[str]:
    """The import lines of tools.py: only what its definitions use."""
    typing = sorted({"TYPE_CHECKING", "Any", "Final", *needs.typing}, key=_isort_key)
    lines = [
        "from collections.abc import " + ", ".join(sorted({"Mapping", "Sequence", *needs.abc})),
        "from typing import " + ", ".join(typing),
        "",
        "from pydantic import BaseModel",
        "",
        "from .._runtime import " + ", ".join(["ABSENT"] * needs.absent + ["Judge", "Published", "bind"]),
        "from .._runtime.calling import AnswerRefused, ContractClient, ToolCallFailed",
        "from .._runtime.serving import ContractBinding, ContractHandlers, ContractServer, ToolFailure, Unimplemented",
    ]
    # In ruff's (isort's) order: `from . import` by name, then `.builders`, `.judge`, `.tool_arguments`.
    if contract.builders is not None:
        lines.append("from . import errors as _errors")
    lines.append("from . import models as _models")
    if any(p.arguments for p in contract.surface.prompts):
        lines.append("from . import prompts as _prompts")
    if contract.builders is not None:
        lines.append("from .builders import error_document")
    lines.append("from .judge import JUDGE")
    tail = [
        "",
        "if TYPE_CHECKING:",
        "    from mcp import ClientSession",
        "    from mcp.types import CallToolResult, ContentBlock, GetPromptResult",
    ]
    modules = sorted(resource_module(a.tool) for a in contract.arguments)
    lines += [f"from .{TOOL_ARGUMENTS} import {module} as {module_alias(module)}" for module in modules]
    roots = sorted((resource_module(a.tool), a.view.root) for a in contract.arguments)
    return lines + [f"from .{TOOL_ARGUMENTS}.{module} import {root}" for module, root in roots] + tail


def _isort_key(name: str) -> tuple[int, str]:
    """isort's order of imported names: constants, then classes, then the rest."""
    return (0 if name.isupper() else 1 if name[:1].isupper() else 2, name)


def tool_blocks(contract: Contract) -> list[Block]:
    """The definitions of tools.py after its imports: each tool's classes bound to its judge,
    then the names of the tools and the model of each, in tools.yaml's order."""
    blocks = [_bind(arguments) for arguments in contract.arguments]
    listed = py_tuple([py(a.tool) for a in contract.arguments])
    blocks.append(
        Block(f'TOOL_NAMES: Final[tuple[str, ...]] = {listed}\n"""Every tool of the contract, in its order."""')
    )
    pairs = "".join(f"    {py(a.tool)}: {a.view.root},\n" for a in contract.arguments)
    blocks.append(
        Block(
            f"ARGUMENTS: Final[Mapping[str, type[BaseModel]]] = {{\n{pairs}}}\n"
            '"""The model of the arguments of each tool, by its name."""'
        )
    )
    return blocks


def tool_exports(contract: Contract) -> str:
    """The list of what tools.py exports, as Python: the constants and every arguments model."""
    served = ["Answer", "AnswerRefused", "BINDING", "Client", "Handlers", "ToolCallFailed", "ToolFailure", "server"]
    served += ["ToolError"] * (contract.builders is not None)
    names = sorted(["ARGUMENTS", "CONTRACT", "TOOL_NAMES", *served]) + sorted(a.view.root for a in contract.arguments)
    return "[" + ", ".join(py(name) for name in names) + "]"


def _bind(arguments: ToolArguments) -> Block:
    module = resource_module(arguments.tool)
    bound = "".join(
        f"        {module_alias(module)}.{model.name}: {py(model.location)},\n" for model in arguments.view.classes
    )
    return Block(
        "bind(\n"
        f"    Judge.from_package(_MODELS, {py(module + '.input.json')}),\n"
        f"    {{\n{bound}    }},\n"
        f"    Published(_MODELS, {py(module + '.published.json')}),\n"
        ")"
    )


def tool_argument_files(contract: Contract, package: str, init: str) -> dict[str, str]:
    """Per tool, the module of its models, the bundle its judge reads and what its classes
    publish, under `tool_arguments/` (whose `__init__.py` is `init`), made as a JSON
    resource's are."""
    files = {f"{package}/{TOOL_ARGUMENTS}/__init__.py": init}
    made: dict[View, str] = {}
    for arguments in contract.arguments:
        module = resource_module(arguments.tool)
        base = f"{package}/{TOOL_ARGUMENTS}/{module}"
        files[f"{base}.input.json"] = bundle_file(arguments.bundle)
        files[f"{base}.published.json"] = resource_published_json(arguments.view, arguments.bundle)
        files[f"{base}.py"] = _models_module(contract, arguments, made)
    return files


# The root class's name while datamodel-code-generator writes a module that tools share: an
# identifier shorter than any `<Name>Arguments`, found nowhere else in a module.
_SHARED_ROOT = "Qz7Wv3Xy"


def _models_module(contract: Contract, arguments: ToolArguments, made: dict[View, str]) -> str:
    """A tool's models module. Tools whose views differ only by their root class's name (most
    of a contract's tools take `{"type": "object"}`) share one run of datamodel-code-generator
    (a few hundredths of a second each): written once with `_SHARED_ROOT`, then named. The
    shorter stand-in wraps no line the name would not; a line the name makes too long is
    wrapped by black again, as a run with the name would have."""
    view, module = arguments.view, f"{TOOL_ARGUMENTS}/{resource_module(arguments.tool)}.py"
    shared = _with_root(view, _SHARED_ROOT)
    if shared is None:
        return view_models_code(view, _header(contract, view.root), contract.name, runtime="..._runtime", module=module)
    if shared not in made:
        head = _header(contract, _SHARED_ROOT)
        made[shared] = view_models_code(shared, head, contract.name, runtime="..._runtime", module=module)
    code = made[shared].replace(_SHARED_ROOT, view.root)
    if any(len(line) > BLACK_MODE.line_length for line in code.splitlines()):
        code = format_python(code)
    return code


def _with_root(view: View, name: str) -> View | None:
    """`view` with its root class named `name`; None where anything else names the root (a
    field of its class, a description) or holds the stand-in."""
    text = repr(view)
    if text.count(repr(view.root)) != 2 or _SHARED_ROOT in text:
        return None
    classes = tuple(replace(c, name=name) if c.name == view.root else c for c in view.classes)
    return replace(view, root=name, classes=classes)


def _header(contract: Contract, root: str) -> str:
    """The comment atop a tool's models module, naming it by its class (an identifier:
    nothing of the tool's name can break the comment)."""
    return header(contract, f"tools.yaml (the inputSchema of {root})")
