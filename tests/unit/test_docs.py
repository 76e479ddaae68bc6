"""The docs agree with the code: docs/cli.md's measure table is the registry's, and every relative link resolves."""
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]


def measure_table():
    spec = importlib.util.spec_from_file_location("measure_table", ROOT / "docs" / "measure_table.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_measure_table_in_docs_cli_md_is_the_registry_s():
    made = measure_table()
    shown = made.current((ROOT / "docs" / "cli.md").read_text())
    assert shown == made.table(), "docs/cli.md's measure table is stale: run python docs/measure_table.py --write"


def test_the_measure_table_has_every_canonical_measure_and_its_trec_eval_name():
    """The table is made from the registry, not typed: each row's name and trec_eval name read back as they should."""
    from components.engine import measures

    for name, _, trec, _ in measure_table().rows():
        placeholder = name.strip("`").rpartition("@")[2] if "@" in name else None  # k, x (a level) or m (a multiple)
        concrete = name.strip("`").replace("@k", "@10").replace("@x", "@0.5").replace("@m", "@0.5")
        assert measures.parse_measure(concrete).name == concrete
        expected = measures.trec_name(concrete)
        shown = None if expected is None else expected.replace("10", "k").replace("0.50", placeholder or "")
        assert trec == ("(none)" if shown is None else f"`{shown}`")


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_at_a_file_and_heading_that_exist(path):
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", path.read_text()):
        if re.match(r"[a-z]+:", target):
            continue  # http:, https:, mailto:
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        if not linked.exists():
            broken.append(target)
        elif anchor and linked.suffix == ".md" and anchor not in headings(linked):
            broken.append(target)
    assert not broken, f"{path.relative_to(ROOT)} links to what is not there: {broken}"


def headings(path: Path) -> set[str]:
    """GitHub's anchors for a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens."""
    anchors = set()
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors
