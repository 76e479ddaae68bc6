"""Shared test set-up: the hypothesis profile, the app server and Debian's Chromium."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

# Two slow cores in CI: no deadline, a bounded number of examples.
settings.register_profile("ci", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, max_examples=200)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

try:  # two slow cores in CI, browser and server together: give assertions time to come true
    from playwright.sync_api import expect

    expect.set_options(timeout=20_000)
except ImportError:  # the browser tests skip without playwright
    pass


@pytest.fixture(autouse=True, scope="session")
def scan_installed_components_once():
    """AppTest makes a Streamlit runtime for every test, and each runtime scans every installed distribution's
    metadata for component manifests: 130 of the 155 ms of a light page's run on 2 cores. What is installed does
    not change while the suite runs, so each worker scans once (Streamlit 1.67's manifest_scanner)."""
    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests
    scanned = scan()
    manifest_scanner.scan_component_manifests = lambda: scanned
    yield
    manifest_scanner.scan_component_manifests = scan


@pytest.fixture(autouse=True, scope="session")
def show_error_details():
    """AppTest shows an exception's type and message: the shipped config hides them from learners ("none")."""
    from streamlit import config as streamlit_config

    shipped = streamlit_config.get_option("client.showErrorDetails")
    streamlit_config.set_option("client.showErrorDetails", "full")
    yield
    streamlit_config.set_option("client.showErrorDetails", shipped)


def pytest_collection_modifyitems(config, items):
    """Browser tests skip, with the reason, where Chromium is not installed."""
    if Path(CHROMIUM).exists():
        return
    skip = pytest.mark.skip(reason=f"Chromium not found at {CHROMIUM} (apt-get install -y chromium, or set CHROMIUM)")
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright: Debian's Chromium, headless, no background networking."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "headless": True,
            "args": ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync"]}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# A live class's timers on the test server (components/serving/settings.py): the roll call and a learner's "here"
# come quickly, so the tests wait for them in about a second, not ten. A follower polls every second, as in a
# classroom: quicker polls' own load slowed the class tests, and a reload under that load once lost its page.
QUICK_CLASS = {"RANKWISE_CLASS_HERE_MS": "1000", "RANKWISE_ROLL_CALL_MS": "500"}


def start_streamlit(script: Path, cwd: Path = ROOT) -> tuple[subprocess.Popen, str]:
    """Start ``streamlit run script`` on a free port on 127.0.0.1, with the class's quick timers; wait for its
    health check."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script), "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true",
         "--browser.gatherUsageStats", "false"],
        cwd=cwd, env={**os.environ, **QUICK_CLASS}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if urllib.request.urlopen(url + "/_stcore/health", timeout=1).read() == b"ok":
                return proc, url
        except OSError:
            time.sleep(0.1)
    proc.terminate()
    raise RuntimeError(f"streamlit did not start for {script}")


@pytest.fixture(scope="session")
def app_url():
    """The whole app, served for the browser tests."""
    proc, url = start_streamlit(ROOT / "app.py")
    yield url
    proc.terminate()
    proc.wait(10)
