"""The "Your data" upload flow's guard on Streamlit's queue of messages to the browser (components/ui/upload_flow.py).

The queue is Streamlit's own ``ForwardMsgQueue`` (1.67, pinned), cleared as a session clears it when a script run
starts (``clear(retain_lifecycle_msgs=True)``).
"""
from __future__ import annotations

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime.forward_msg_queue import ForwardMsgQueue

from components.ui import upload_flow


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
    upload_flow._keep_upload_urls()
    assert ForwardMsgQueue.clear is guarded
