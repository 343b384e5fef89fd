"""A contract's schema and every resource it refers to, read as the sources are, never from the network.

The envelope schema lives at a virtual URI, `file:///envelope.schema.json`: the contract
folder is the root of a small file system. A `$ref` finds another file of the folder by
its path, or by the `$id` the file declares; `references:` in contract.yaml maps URI
prefixes to other folders (a vendored copy of a published schema set). Anything else is
refused with the reference that asked for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..schema.uri import defrag, join
from ..schema.vocabulary import EITHER, REFERENCES
from ..schema.walk import walk
from .documents import Document, read_json
from .reading import Reading

VIRTUAL_ROOT = "file:///"
ENVELOPE = "envelope.schema.json"
ROOT_URI = VIRTUAL_ROOT + ENVELOPE


class Unreachable(LookupError):
    """A URI that names no file of the contract folder nor of a mapped folder."""


@dataclass
class Resources:
    """Resolves URIs to the JSON files of one contract folder and records what it read."""

    folder: Path
    references: Mapping[str, Path]
    reading: Reading  # every file a `$ref` reaches is read as the sources are
    root: Any = None
    root_uri: str = (
        ROOT_URI  # where `root` is: the envelope's, or a resource schema's (`load/resource_prompt_files.py`)
    )
    read: dict[str, Any] = field(default_factory=dict)
    documents: dict[str, Document] = field(default_factory=dict)  # what `read` holds, with its places
    unreachable: str | None = None  # why the first URI that was not retrieved was not
    _ids: dict[str, Path] | None = None

    def _declared_ids(self) -> dict[str, Path]:
        """Each JSON file of the folder (examples aside, and the root when it is the envelope)
        under the `$id` it declares."""
        if self._ids is None:
            self._ids = {}
            for path in self.reading.files.glob(self.folder, "*.json", recursive=True):
                relative = path.relative_to(self.folder).as_posix()
                if relative.startswith("examples/") or (relative == ENVELOPE and self.root_uri == ROOT_URI):
                    continue
                document = read_json(path, self.reading)
                if isinstance(document, Document) and isinstance(document.data, dict):
                    declared = document.data.get("$id")
                    if isinstance(declared, str):
                        self._ids.setdefault(defrag(join(VIRTUAL_ROOT + relative, declared))[0], path)
        return self._ids

    def locate(self, uri: str) -> Path:
        """The file behind `uri`; Unreachable when there is none."""
        uri = defrag(uri)[0]
        found: Path | None = None
        if uri.startswith(VIRTUAL_ROOT):
            found = self.reading.files.inside(self.folder, uri[len(VIRTUAL_ROOT) :])
        for prefix in sorted(self.references, key=len, reverse=True):
            if found is None and uri.startswith(prefix):
                found = self.reading.files.inside(self.references[prefix], uri[len(prefix) :])
        if found is None:
            found = self._declared_ids().get(uri)
        if found is None:
            raise Unreachable(
                f"{uri} is no file of the contract folder nor of a folder that `references:` in contract.yaml"
                " maps (a file behind a symlink is none: symlinks are not followed)"
            )
        return found

    def root_uris(self) -> set[str]:
        """The root schema's URIs: its virtual path, and its `$id` when it declares one."""
        declared = self.root.get("$id") if isinstance(self.root, dict) else None
        uris = {self.root_uri}
        if isinstance(declared, str):
            uris.add(defrag(join(self.root_uri, declared))[0])
        return uris

    def retrieve(self, uri: str) -> Any:
        """The parsed JSON behind `uri`, recorded for the bundle."""
        uri = defrag(uri)[0]
        if uri in self.root_uris():
            return self.root
        if uri not in self.read:
            try:
                document = read_json(self.locate(uri), self.reading)
                if not isinstance(document, Document):
                    raise Unreachable(str(document))
            except Unreachable as exc:  # the engine wraps it in words of its own: kept for the message
                self.unreachable = self.unreachable or str(exc)
                raise
            self.read[uri] = document.data
            self.documents[uri] = document
        return self.read[uri]

    def bundle(self, root: Any) -> dict[str, Any]:
        """The root schema and every resource read so far, by URI, sorted."""
        return {self.root_uri: root, **{uri: self.read[uri] for uri in sorted(self.read) if uri != self.root_uri}}


def refs_in(schema: Any) -> Iterator[tuple[tuple[object, ...], str]]:
    """Every reference and `$schema` string in a schema, with its path: in every subschema
    that either dialect read has (a draft-07 schema may keep schemas under `$defs` too)."""
    for visit in walk(schema, dialect=EITHER):
        if isinstance(visit.node, dict):
            for key in (*REFERENCES, "$schema"):
                value = visit.node.get(key)
                if isinstance(value, str):
                    yield (*visit.path, key), value


def blame(schema: Any, message: str) -> tuple[object, ...]:
    """The path of the reference an engine's message is most likely about."""
    for path, value in refs_in(schema):
        target, fragment = defrag(value)
        if (target and target in message) or (fragment and f"'{fragment}'" in message):
            return path
    return ()


Retriever = Callable[[str], Any]
