"""The sources `breaking` compares with: a folder of other sources, or a commit of the repository.

`--against REF`, else `[tool.mcp-contracts.breaking] against`, is resolved here:
`merge-base` (the default: the merge-base of HEAD with `branch`, or with the first of
origin/HEAD, origin/main, origin/master, main, master that exists; on that branch itself,
HEAD, so that the edits not yet committed are judged), `last-tag` (`git describe --tags
--abbrev=0`), a folder, or any revision. A revision is verified as a commit before anything
else reads it (`rev-parse --verify --end-of-options REF^{commit}`), so that no ref ever reaches
git as an option, and its sources are read from git's objects (`git_tree`), never extracted.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..config import Limits
from ..diagnostics import Diagnostic, Refused
from ..findings.outcome_facts import BreakingFacts
from ..load.project import LoadResult, load_project
from ..load.reading import Reading
from ..naming import longest_file_name
from .git_tree import GitFailed, GitTree, git

MERGE_BASE, LAST_TAG = "merge-base", "last-tag"
BRANCHES = ("origin/HEAD", "origin/main", "origin/master", "main", "master")
MOUNT = Path("/mcp-contracts-revision")  # where a revision's files are, for the loader only: never on disk


@dataclass(frozen=True)
class Revision:
    """A commit of the repository at `root`; `label` names it in messages (`label:path`)."""

    label: str
    commit: str
    root: Path
    prefix: str  # the sources folder, relative to the repository's top folder

    def facts(self) -> BreakingFacts:
        return BreakingFacts(self.label, self.commit)


@dataclass(frozen=True)
class Folder:
    """A folder of other sources (its `schemas/`, when it holds one)."""

    given: str
    schemas: Path

    def facts(self) -> BreakingFacts:
        return BreakingFacts(self.given, None)


@dataclass(frozen=True)
class Nothing:
    """Nothing to compare with (no commit yet, no tag): `breaking` says so and passes."""

    asked: str
    reason: str

    @property
    def message(self) -> str:
        return f"nothing to compare with ({self.asked}): {self.reason}"

    def facts(self) -> BreakingFacts:
        return BreakingFacts(self.asked, None)


Against = Revision | Folder


def resolve(
    given: str | None, configured: str, branch: str | None, schemas_dir: Path
) -> Against | Nothing | Diagnostic:
    """What `breaking` compares with: `given` (`--against`), else `configured` (the setting)."""
    wanted = given if given is not None else configured
    if not wanted.strip():  # Path("") is the working folder: never what was meant
        return Diagnostic("--against", None, None, "empty: name a git revision or a folder of other sources")
    folder = Path(wanted)
    impossible = _impossible(wanted)
    if impossible is not None:
        return Diagnostic(_shown(wanted), None, None, impossible)
    if wanted not in (MERGE_BASE, LAST_TAG) and folder.is_dir():
        return Folder(wanted, folder / "schemas" if (folder / "schemas" / "contracts").is_dir() else folder)
    if wanted.startswith("-"):  # git would read it as an option (`--output=...`, `--remote=...`)
        return Diagnostic(wanted, None, None, "neither a folder nor a revision: a revision never starts with '-'")
    place = _repository(schemas_dir)
    if isinstance(place, Refused):
        if wanted in (MERGE_BASE, LAST_TAG):
            return Nothing(wanted, place.message)
        return Diagnostic(wanted, None, None, f"neither a folder nor a revision: {place}")
    root, prefix = place
    if wanted in (MERGE_BASE, LAST_TAG) and _commit(root, "HEAD") is None:
        return Nothing(wanted, "no commit yet")
    if wanted == MERGE_BASE:
        return _merge_base(root, prefix, branch)
    if wanted == LAST_TAG:
        return _last_tag(root, prefix)
    commit = _commit(root, wanted)
    if commit is None:
        return Diagnostic(wanted, None, None, _not_a_commit(root, wanted))
    return Revision(wanted, commit, root, prefix)


def _impossible(wanted: str) -> str | None:
    """Why `wanted` can name neither a folder nor a revision, or None: a NUL, a part longer
    than a file name (git's refs are file names too) or, whole, longer than a path."""
    if "\0" in wanted:
        return "neither a folder nor a revision: a name holds no NUL"
    longest = longest_file_name(Path.cwd())
    parts = [len(part.encode("utf-8", "surrogateescape")) for part in wanted.split("/")]
    if max(parts) > longest:
        return f"neither a folder nor a revision: a name of {max(parts)} bytes, longer than a file name ({longest})"
    if len(wanted.encode("utf-8", "surrogateescape")) > _LONGEST_PATH:
        return f"neither a folder nor a revision: longer than a path ({_LONGEST_PATH} bytes)"
    return None


_LONGEST_PATH = 4096  # PATH_MAX of Linux
_SHOWN = 60


def _shown(wanted: str) -> str:
    """`wanted` as a message names it: its start, when it is long."""
    return wanted if len(wanted) <= _SHOWN else wanted[:_SHOWN] + "..."


def _repository(schemas_dir: Path) -> tuple[Path, str] | Refused:
    """The top folder of the repository that holds the sources folder, and where the folder
    is in it; or why not."""
    try:
        top = Path(git(schemas_dir, "rev-parse", "--show-toplevel").decode().strip()).resolve()
        prefix = schemas_dir.resolve().relative_to(top).as_posix()
    except (GitFailed, OSError, UnicodeDecodeError):
        return Refused("not in a git repository")
    except ValueError:
        return Refused("the sources folder is not inside the git repository")
    return top, "" if prefix == "." else prefix


def _commit(root: Path, ref: str) -> str | None:
    """The commit `ref` names, verified; None when it names none (or starts with '-')."""
    if ref.startswith("-"):
        return None
    try:
        # The object `ref` names as it is written (`:/message` takes anything after it as its
        # pattern, so nothing is appended), then peeled when it is an annotated tag.
        found = git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", ref).decode("ascii").strip()
        kind = git(root, "cat-file", "-t", found).strip()
        if kind == b"tag":
            found = git(root, "rev-parse", "--verify", "--quiet", f"{found}^{{commit}}").decode("ascii").strip()
            kind = git(root, "cat-file", "-t", found).strip()
    except (GitFailed, UnicodeDecodeError):
        return None
    return found if kind == b"commit" else None


def _not_a_commit(root: Path, ref: str) -> str:
    """Why `ref` is not compared with: what it names instead, or that it names nothing."""
    try:
        named = git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", ref)
        kind = git(root, "cat-file", "-t", named.decode("ascii").strip()).decode("ascii").strip()
    except GitFailed:
        return "neither a folder nor a revision: git cannot read it as a commit"
    return f"a {kind}, not a commit: only the sources of a commit are compared"


def _merge_base(root: Path, prefix: str, branch: str | None) -> Revision | Nothing | Diagnostic:
    """The merge-base of HEAD with `branch` (or the first of BRANCHES that exists)."""
    if branch is not None and _commit(root, branch) is None:
        message = "names no commit: [tool.mcp-contracts.breaking] branch should name the branch to compare with"
        return Diagnostic(branch, None, None, message)
    chosen = branch if branch is not None else next((b for b in BRANCHES if _commit(root, b) is not None), None)
    if chosen is None:
        return Nothing(MERGE_BASE, f"no branch {', '.join(BRANCHES)} ([tool.mcp-contracts.breaking] branch names one)")
    try:
        base = git(root, "merge-base", "HEAD", _commit(root, chosen) or "").decode("ascii").strip()
    except GitFailed:
        return Diagnostic(chosen, None, None, "shares no commit with HEAD: there is no merge-base to compare with")
    if base == _commit(root, "HEAD"):
        return Revision("HEAD", base, root, prefix)  # on the branch itself: the edits not yet committed
    if base == _commit(root, chosen):
        return Revision(chosen, base, root, prefix)
    return Revision(git(root, "rev-parse", "--short", base).decode("ascii").strip(), base, root, prefix)


def _last_tag(root: Path, prefix: str) -> Revision | Nothing:
    """The newest tag reachable from HEAD."""
    try:
        # a tag's name as its bytes (surrogateescape gives them back to git), shown printable
        tag = git(root, "describe", "--tags", "--abbrev=0", "HEAD").decode("utf-8", "surrogateescape").strip()
    except GitFailed:
        return Nothing(LAST_TAG, "no tag yet")
    commit = _commit(root, tag)
    return Revision(tag, commit, root, prefix) if commit is not None else Nothing(LAST_TAG, "no tag yet")


def load_old(against: Against, limits: Limits) -> LoadResult:
    """The old sources, loaded leniently (they may be of an earlier format) within `limits`,
    with the symlink guard rooted at their own folder."""
    if isinstance(against, Folder):
        return load_project(against.schemas, Reading.within(against.schemas, limits), lenient=True)
    mount = MOUNT / against.commit
    try:
        with GitTree.open(against.root, against.commit, against.label, against.prefix, mount) as tree:
            return load_project(mount, tree.reading(limits), lenient=True)
    except GitFailed as exc:
        return LoadResult(None, [Diagnostic(against.label, None, None, f"git cannot read it: {exc}")])
