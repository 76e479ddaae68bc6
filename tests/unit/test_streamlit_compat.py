"""Streamlit's internals as components/serving/streamlit_compat.py uses them: the version it checks, and the guard
on Streamlit's queue of messages to the browser that the "Your data" upload flow applies.

The queue is Streamlit's own ``ForwardMsgQueue`` (1.67, pinned), cleared as a session clears it when a script run
starts (``clear(retain_lifecycle_msgs=True)``). The run context's reads are tested through the live class (its page
tests), the upload store's through tests/unit/test_upload_store.py.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import streamlit
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime.forward_msg_queue import ForwardMsgQueue

from components.serving import streamlit_compat
from components.ui import upload_flow  # noqa: F401 (importing it applies the guard)


def upload_url_answer(request_id: str) -> ForwardMsg:
    """What the server sends back when a browser asks where to upload a dropped file."""
    msg = ForwardMsg()
    msg.file_urls_response.response_id = request_id
    return msg


def delta(path: list[int], text: str) -> ForwardMsg:
    msg = ForwardMsg()
    msg.metadata.delta_path[:] = path
    msg.delta.new_element.markdown.body = text
    return msg


def test_a_run_starting_keeps_the_answers_telling_a_browser_where_to_upload():
    """A file dropped as a run starts: its answer was queued, not yet sent. Without it the browser waits for ever
    and the file is lost without a word; the run's stale deltas still go."""
    queue = ForwardMsgQueue()
    for msg in (delta([0, 0], "old"), upload_url_answer("drop-1"), delta([0, 1], "old too"), upload_url_answer("drop-2")):
        queue.enqueue(msg)
    queue.clear(retain_lifecycle_msgs=True)  # what AppSession does when a script run starts
    assert [m.file_urls_response.response_id for m in queue.flush()] == ["drop-1", "drop-2"]
    queue.enqueue(delta([0, 0], "new"))  # the index of deltas starts afresh: a new delta is queued as usual
    queue.enqueue(delta([0, 0], "newer"))  # and replaces the one before it at the same place
    assert [m.delta.new_element.markdown.body for m in queue.flush()] == ["newer"]


def test_a_full_clear_still_drops_everything_and_the_guard_is_applied_once():
    queue = ForwardMsgQueue()
    queue.enqueue(upload_url_answer("drop-1"))
    queue.clear()  # a session that ends, or a flush: nothing is kept
    assert queue.flush() == []
    guarded = ForwardMsgQueue.clear
    streamlit_compat.keep_upload_urls()
    assert ForwardMsgQueue.clear is guarded


def test_it_loads_only_under_the_streamlit_it_was_tested_with():
    """The pin in pyproject.toml and the version streamlit_compat checks are the same."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    pinned = [d for d in tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]
              ["dependencies"] if d.startswith("streamlit")]
    assert pinned == [f"streamlit=={streamlit_compat.TESTED}"] and streamlit.__version__ == streamlit_compat.TESTED
