"""Small values kept in the browser by a hidden Components v2 helper: localStorage or sessionStorage.

Nothing is stored on the server. On a session's first run (``synced``
False) the helper reads the stored value and hands it to Python as the
trigger ``loaded`` (the parsed JSON, or None): untrusted, so the caller
validates it. On every later run it writes ``value`` (JSON) in its place.

- localStorage lasts across tabs and visits: the practice progress;
- sessionStorage lasts for one tab, through reloads: "your data" uses it to
  tell that this tab had files on show in a session the server no longer
  has (it restarted, or the session expired).
"""
from __future__ import annotations

from typing import Callable, Literal

import streamlit as st

Storage = Literal["local", "session"]

_JS = """
export default function (component) {
  const { data, setTriggerValue } = component;
  const key = data && data.storageKey;
  if (!key) return;
  let storage = null;
  try { storage = data.storage === "session" ? window.sessionStorage : window.localStorage; } catch (e) { return; }
  if (!data.synced) {
    let stored = null;
    try { stored = JSON.parse(storage.getItem(key) || "null"); } catch (e) { stored = null; }
    setTriggerValue("loaded", stored);
    return;
  }
  try { storage.setItem(key, JSON.stringify(data.value)); } catch (e) { /* storage disabled: this session only */ }
}
"""

_store = st.components.v2.component("rankwise.browser_store", html="", css=":host { display: none; }", js=_JS)


def browser_store(*, key: str, storage_key: str, storage: Storage, synced: bool, value,
                  on_loaded: Callable[[], None]) -> None:
    """The hidden helper: read ``storage_key`` once (``on_loaded`` gets it in ``st.session_state[key]``), then write.

    ``on_loaded`` reads the stored value as :func:`loaded` ``(key)``.
    """
    _store(key=key, data={"storageKey": storage_key, "storage": storage, "synced": synced, "value": value},
           on_loaded_change=on_loaded)


def loaded(key: str):
    """The value the helper of ``key`` read from the browser (untrusted JSON), or None."""
    result = st.session_state.get(key)
    return result.get("loaded") if result is not None else None
