"""Every learner-facing word lives in lessons/text/: pages and UI building blocks hold no sentence of their own.

Two checks, by what a literal in each folder can be:

- a page (lessons/*.py) may name prose sections and scenario presets, so the
  check is on what reaches the screen: no argument of a Streamlit call (label,
  help, body, caption, options...) may carry words outside a prose lookup;
- a UI building block (components/ui/) takes its strings as arguments or reads
  them through the prose loader, so no string of it may hold two words at all,
  bar docstrings, developer errors and the hidden helper's JavaScript.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORDS = re.compile(r"[A-Za-z]{2,}")
TWO_WORDS = re.compile(r"[A-Za-z]{2,}[^\S\n]+[A-Za-z(“\"']")
PROSE_CALLS = {"section", "text", "text_choosing", "fill", "sections", "label", "cli_text"}
SCREEN_CALLS = {
    "header", "subheader", "title", "markdown", "caption", "write", "text", "latex", "info", "warning", "error",
    "success", "toast", "button", "download_button", "link_button", "page_link", "slider", "select_slider",
    "selectbox", "radio", "checkbox", "toggle", "multiselect", "pills", "segmented_control", "text_input",
    "text_area", "number_input", "file_uploader", "metric", "expander", "popover", "tabs", "spinner", "status",
    "form_submit_button", "container", "dialog",
}
CODE_ONLY = {"browser_store.py", "answer_first.py"}  # each one long string: its hidden helpers' JavaScript
# the course's notation, the same in every sentence: measure names are symbols, not words to translate
NOTATION = re.compile(r"^[\s(),:]*(?:n?DCG|IDCG|MRR|RR|MAP|AP|P|Recall|recall|hit rate|Hit rate)(?:@k?)?[\s(),:=]*$")
MARKUP = re.compile(r"^\s*:[a-z-]+\[\s*$")  # a Markdown directive's opening, e.g. ":small["
NOT_WORDS = {"key", "type", "width", "mime", "on_select", "on_change", "on_click", "selection_mode", "label_visibility", "gap",
             "vertical_alignment", "format", "file_name", "icon"}  # widget arguments that are settings


def is_words(literal: str) -> bool:
    """Whether a literal holds a word, notation and markup aside."""
    return bool(WORDS.search(literal)) and not NOTATION.match(literal) and not MARKUP.match(literal)


def is_prose_lookup(node: ast.AST) -> bool:
    """A call of the prose loader (``prose.text(...)``, ``text(...)``): its arguments are keys, not words."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name in PROSE_CALLS


def literal_words(node: ast.AST) -> list[str]:
    """The string literals in ``node`` with a word in them, skipping prose lookups (their keys)."""
    if is_prose_lookup(node):
        return []
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if is_words(node.value) else []
    if isinstance(node, ast.JoinedStr):
        found = []
        for part in node.values:
            if isinstance(part, ast.Constant) and is_words(part.value):
                found.append(part.value)
            elif isinstance(part, ast.FormattedValue):
                found += literal_words(part.value)
        return found
    found = []
    for child in ast.iter_child_nodes(node):
        if isinstance(node, ast.Subscript) and child is node.slice:
            continue  # a lookup key: mapping["System A"]
        found += literal_words(child)
    return found


_LOG_LEVELS = {"debug", "info", "warning", "error", "exception", "critical"}


def _is_log_call(node: ast.AST) -> bool:
    """``_LOG.warning(...)`` and the like: a message for whoever runs the server, in its log."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _LOG_LEVELS
            and isinstance(node.func.value, ast.Name) and node.func.value.id in {"_LOG", "logger", "LOGGER"})


def screen_literals(path: Path) -> list[str]:
    """Words a page hands straight to a Streamlit call."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SCREEN_CALLS:
            if is_prose_lookup(node) or _is_log_call(node):  # _LOG.warning is not st.warning
                continue
            for arg in [*node.args, *(kw.value for kw in node.keywords if kw.arg not in NOT_WORDS)]:
                found += [f"line {arg.lineno}: {word!r}" for word in literal_words(arg)]
    return found


def docstrings(tree: ast.AST) -> set[int]:
    nodes = (n for n in ast.walk(tree) if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)))
    return {id(n.body[0].value) for n in nodes if n.body and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)}


def developer_errors(tree: ast.AST) -> set[int]:
    """String nodes inside ``raise`` and ``assert`` statements and log calls: messages for developers and for
    whoever runs the server, not learners."""
    return {id(n) for stmt in ast.walk(tree) if isinstance(stmt, (ast.Raise, ast.Assert)) or _is_log_call(stmt)
            for n in ast.walk(stmt)}


def sentence_literals(path: Path) -> list[str]:
    """Strings of two or more words anywhere in a building block (docstrings and developer errors aside)."""
    tree = ast.parse(path.read_text())
    skip = docstrings(tree) | developer_errors(tree)
    for node in ast.walk(tree):
        if is_prose_lookup(node):
            skip |= {id(n) for n in ast.walk(node)}
    return [f"line {n.lineno}: {n.value!r}" for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip
            and TWO_WORDS.search(n.value)]


@pytest.mark.parametrize("path", sorted((ROOT / "lessons").glob("*.py")), ids=lambda p: p.name)
def test_pages_put_no_words_of_their_own_on_screen(path):
    found = screen_literals(path)
    assert not found, f"lessons/{path.name} shows words that belong in lessons/text/:\n" + "\n".join(found)


@pytest.mark.parametrize("path", sorted((ROOT / "components" / "ui").glob("*.py")), ids=lambda p: p.name)
def test_ui_building_blocks_hold_no_sentences(path):
    if path.name in CODE_ONLY:
        return
    found = screen_literals(path) + sentence_literals(path)
    assert not found, f"components/ui/{path.name} holds words that belong in lessons/text/:\n" + "\n".join(found)


@pytest.mark.parametrize("path", sorted((ROOT / "lessons").glob("*.py")), ids=lambda p: p.name)
def test_pages_hold_no_sentences(path):
    found = sentence_literals(path)
    assert not found, f"lessons/{path.name} holds words that belong in lessons/text/:\n" + "\n".join(found)
