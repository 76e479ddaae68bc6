"""Browser tests: shared servers and contexts. The ranking editor's test page is a Streamlit script, not a test
module."""
from pathlib import Path

import pytest

from tests.conftest import start_streamlit

# --doctest-modules would import the page script (and so run it) while collecting: skip it.
collect_ignore = ["editor_page.py"]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """A browser test module's tests run on one worker (``--dist loadgroup``), so its module-scoped servers and
    pages start once; other tests are shared out one by one. A module whose few tests are each long and share
    nothing but the browser context (``GROUP_PER_TEST = True``) has each test go to whichever worker is free: two
    long tests on one worker would end the run late on it while the other waits."""
    for item in items:
        if "e2e" in item.keywords:
            each = getattr(item.module, "GROUP_PER_TEST", False)
            item.add_marker(pytest.mark.xdist_group(item.nodeid if each else item.module.__name__))


@pytest.fixture(scope="session")
def editor_url():
    """The ranking editor's test page (tests/e2e/editor_page.py), served once per worker."""
    proc, url = start_streamlit(Path(__file__).with_name("editor_page.py"))
    yield url
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def shared_context(browser, browser_context_args):
    """One browser context for a module's tests (the app's assets load once); each test still opens its own
    ``page``, so its own Streamlit session. A module takes it as its ``context``."""
    ctx = browser.new_context(**browser_context_args)
    yield ctx
    ctx.close()
