"""House rules that a test can check: pure modules stay pure, prose files stay in sync, README = CI."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

from components.course import prose
from components.ui import registry

ROOT = Path(__file__).resolve().parents[2]
COMPONENTS = ROOT / "components"
# what the modules of each folder of components/ must never import (the folder's __init__ docstring says why)
FORBIDDEN = {
    "engine": ("streamlit", "components.ui", "components.serving", "lessons"),
    "formats": ("streamlit", "components.ui", "components.serving", "lessons"),
    "course": ("streamlit", "components.ui", "components.serving", "lessons"),
    "serving": ("components.ui", "components.live_class", "lessons"),
    "ui": ("lessons",),
    # the live class draws with ui's building blocks, never with the ui modules that ask it about its questions
    "live_class": ("lessons", "components.ui.widgets", "components.ui.quiz_ui", "components.ui.layout"),
    "ranking_editor": ("lessons",),
    "rank_figure": ("lessons", "components.ui", "components.serving"),
    "cli": ("streamlit", "components.ui", "lessons"),  # the rankwise command: engine, formats and course
}


def imported_names(path: Path) -> set[str]:
    """Every dotted name a module imports: ``import a.b`` gives a.b; ``from a import b`` gives a and a.b."""
    tree = ast.parse(path.read_text())
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def breaks(name: str, rule: str) -> bool:
    return name == rule or name.startswith(rule + ".")


def role_modules():
    for folder in FORBIDDEN:
        for path in sorted((COMPONENTS / folder).rglob("*.py")):
            yield pytest.param(folder, path, id=f"{folder}/{path.name}")


@pytest.mark.parametrize("folder, path", list(role_modules()))
def test_each_folder_imports_only_what_its_role_allows(folder, path):
    wrong = sorted(n for n in imported_names(path) for rule in FORBIDDEN[folder] if breaks(n, rule))
    assert not wrong, f"{path.relative_to(ROOT)} ({folder}/) must not import {wrong}"


# the data model and what it stands on: every reader imports them, and they import no reader
DATA_MODEL = ("model", "keys", "ordering", "join", "metrics", "checks")


@pytest.mark.parametrize("name", DATA_MODEL)
def test_the_data_model_imports_no_reader(name):
    wrong = sorted(n for n in imported_names(COMPONENTS / "engine" / f"{name}.py") if breaks(n, "components.formats"))
    assert not wrong, f"components/engine/{name}.py is below the readers: it must not import {wrong}"


@pytest.mark.parametrize("folder, path", [p for p in role_modules() if p.values[0] in ("engine", "formats")])
def test_the_engine_and_the_readers_import_no_private_name_of_each_other(folder, path):
    other = "components.formats" if folder == "engine" else "components.engine"
    private = sorted(n for n in imported_names(path) if breaks(n, other) and n.rsplit(".", 1)[-1].startswith("_"))
    assert not private, f"{path.relative_to(ROOT)} imports private names of {other}: {private}"


# who may call the TREC reader with its path chosen: the benchmarks that measure the fast and the precise reader
CHOOSE_THE_TREC_READER = ("benchmarks/evaluate_scale.py", "benchmarks/reader_memory.py")


@pytest.mark.parametrize("path", sorted([ROOT / "app.py", *COMPONENTS.rglob("*.py"), *(ROOT / "lessons").glob("*.py"),
                                         *(ROOT / "benchmarks").glob("*.py")]), ids=lambda p: str(p.relative_to(ROOT)))
def test_product_code_reads_files_through_the_one_front_door(path):
    """components/formats/readers.py (read, read_pair, understood, detect) is the one public way to read a file;
    the formats' own readers are called from components/formats alone."""
    if path.parent == COMPONENTS / "formats" or str(path.relative_to(ROOT)) in CHOOSE_THE_TREC_READER:
        return
    text = path.read_text()
    used = [name for name in ("json_formats._read", "tabular._read", "trec.read_with") if name in text]
    assert not used, f"{path.relative_to(ROOT)} calls {used}: read files with components.formats.readers.read"


@pytest.mark.parametrize("name", ["protocol", "store"])
def test_the_live_class_protocol_and_store_import_no_streamlit(name):
    """They run without a session: in the benchmarks, the unit tests and on a replica's Redis."""
    wrong = sorted(n for n in imported_names(COMPONENTS / "live_class" / f"{name}.py") if breaks(n, "streamlit")
                   or breaks(n, "components.ui"))
    assert not wrong, f"components/live_class/{name}.py must not import {wrong}"




@pytest.mark.parametrize("path", sorted([ROOT / "app.py", *COMPONENTS.rglob("*.py"), *(ROOT / "lessons").glob("*.py")]),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_only_streamlit_compat_reaches_into_streamlit(path):
    """Every use of Streamlit's internals is in components/serving/streamlit_compat.py, which checks the version."""
    if path == COMPONENTS / "serving" / "streamlit_compat.py":
        return
    public = ("streamlit",)  # and the type of its containers, streamlit.delta_generator.DeltaGenerator
    inside = sorted(n for n in imported_names(path) if breaks(n, "streamlit") and n not in public
                    and not breaks(n, "streamlit.delta_generator"))
    assert not inside, f"{path.relative_to(ROOT)} imports {inside}: put it in components/serving/streamlit_compat.py"


def test_every_module_of_components_lives_in_a_role_folder():
    loose = sorted(p.name for p in COMPONENTS.glob("*.py") if p.name != "__init__.py")
    assert not loose, f"put {loose} into one of {sorted(FORBIDDEN)}"
    assert {p.name for p in COMPONENTS.iterdir() if p.is_dir() and p.name != "__pycache__"} == set(FORBIDDEN)


@pytest.mark.parametrize("path", sorted((ROOT / "lessons").glob("*.py")), ids=lambda p: p.name)
def test_lessons_holds_only_pages(path):
    if path.name == "__init__.py":
        return
    tree = ast.parse(path.read_text())
    assert any(isinstance(n, ast.FunctionDef) and n.name == "render" for n in tree.body), \
        f"lessons/{path.name} is a page: it exposes render(); a helper belongs in components/ui/"


PAGES = sorted(p for p in (ROOT / "lessons").glob("*.py") if p.name != "__init__.py")


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_a_page_never_imports_another_page(path):
    wrong = sorted(n for n in imported_names(path) if breaks(n, "lessons"))
    assert not wrong, f"lessons/{path.name} imports {wrong}: what two pages share belongs in components/"


def page_helpers_used(path: Path) -> list[str]:
    """What a test takes from a page other than its ``render``: a name imported out of a page
    (``from lessons.x import y``, ``import lessons.x``), or any use of a page module ``from lessons import x``
    but ``x.render``."""
    tree = ast.parse(path.read_text())
    used, pages = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            used += [alias.name for alias in node.names if breaks(alias.name, "lessons")]
        elif isinstance(node, ast.ImportFrom) and node.module and breaks(node.module, "lessons"):
            if node.module != "lessons":
                used += [f"{node.module}.{alias.name}" for alias in node.names]
            pages |= {alias.asname or alias.name for alias in node.names}
    renders = {id(node.value) for node in ast.walk(tree)
               if isinstance(node, ast.Attribute) and node.attr == "render" and isinstance(node.value, ast.Name)}
    used += [node.id for node in ast.walk(tree)
             if isinstance(node, ast.Name) and node.id in pages and id(node) not in renders]
    return used


@pytest.mark.parametrize("path", sorted((ROOT / "tests").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_tests_drive_pages_and_import_none_of_their_helpers(path):
    """A test drives a page through AppTest (its path, or its ``render()``); what it checks against (constants,
    helpers) comes from where the page gets it, components/."""
    used = page_helpers_used(path)
    assert not used, f"{path.relative_to(ROOT)} uses {used} of a page: import them from components/"


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


def test_ruff_finds_nothing():
    """pyflakes (unused or undefined names) and import order, as configured in pyproject.toml."""
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing_in_components():
    """The type checker over components/, as configured in pyproject.toml ([tool.mypy])."""
    done = subprocess.run([sys.executable, "-m", "mypy"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_package_is_installed():
    """pyproject lists the packages by hand (a flat layout): a new package folder must be listed, or an installed
    copy lacks it."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for top in ("components", "lessons")
             for p in (ROOT / top).rglob("__init__.py")}
    assert found - listed == set(), "add these packages to [tool.setuptools] packages in pyproject.toml"
