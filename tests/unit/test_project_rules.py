"""House rules that a test can check: pure modules stay pure, prose files stay in sync, README = CI."""
import ast
from pathlib import Path

import pytest

from components import prose
from lessons import registry

ROOT = Path(__file__).resolve().parents[2]
PURE = ["metrics", "scenarios", "state", "formatting", "quiz", "trec", "measures", "evaluate", "conventions",
        "diagnosis", "breakdown", "prose", "settings", "shared_cache", "uploads", "tabular", "compare", "export"]


def top_level_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    return imported | {node.module.split(".")[0] for node in ast.walk(tree)
                       if isinstance(node, ast.ImportFrom) and node.module}


@pytest.mark.parametrize("name", PURE)
def test_pure_modules_do_not_import_streamlit(name):
    assert "streamlit" not in top_level_imports(ROOT / "components" / f"{name}.py")


@pytest.mark.parametrize("path", sorted((ROOT / "components").rglob("*.py")), ids=lambda p: p.name)
def test_data_flows_down_components_never_import_lessons(path):
    assert "lessons" not in top_level_imports(path)


def test_every_page_has_its_prose_and_summary():
    for spec in registry.PAGES:
        assert spec.summary, f"lessons/text/{spec.module}.md needs a '## Summary'"


def test_page_titles_and_paths_are_unique():
    assert len({p.title for p in registry.PAGES}) == len(registry.PAGES)
    assert len({p.url_path for p in registry.PAGES}) == len(registry.PAGES)


def test_prose_fill_checks_placeholders():
    assert prose.fill("k = {k}", k=5) == "k = 5"
    with pytest.raises(KeyError):
        prose.fill("k = {k}")
    with pytest.raises(KeyError):
        prose.fill("k = {k}", k=1, extra=2)
    with pytest.raises(KeyError, match="has no section"):
        prose.section("home", "No such heading")


def readme_commands():
    text = (ROOT / "README.md").read_text()
    blocks = text.split("```bash\n")[1:]
    return [block.split("```")[0].strip() for block in blocks]


def test_readme_gives_exactly_two_commands_and_ci_runs_the_test_one():
    commands = readme_commands()
    assert len(commands) == 2
    assert "streamlit run app.py" in commands[0]
    assert commands[1].endswith("pytest")
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert commands[1] in ci, ".ci/run must run the README's test command verbatim"


def test_no_pages_folder_and_usage_stats_off():
    assert not (ROOT / "pages").exists(), "a pages/ folder switches Streamlit to legacy multipage mode"
    config = (ROOT / ".streamlit" / "config.toml").read_text()
    assert "gatherUsageStats = false" in config
    assert 'showErrorDetails = "none"' in config, "a learner never sees a traceback or a server path"
