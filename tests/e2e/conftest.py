"""Browser tests: the ranking editor's test page is a Streamlit script, not a test module."""
import pytest

# --doctest-modules would import the page script (and so run it) while collecting: skip it.
collect_ignore = ["editor_page.py"]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """A browser test module's tests run on one worker (``--dist loadgroup``), so its module-scoped servers and
    pages start once; other tests are shared out one by one."""
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
