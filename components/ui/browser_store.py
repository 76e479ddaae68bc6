"""Small values kept in the browser by a hidden Components v2 helper: localStorage or sessionStorage.

Nothing is stored on the server. The first time a page load meets a server
session (a new page, a reload, or a new session after the server lost the
old one), the helper reads the stored value. Only a value that is there is
handed to Python, as the trigger ``loaded`` (the parsed JSON: untrusted, so
the caller validates it), which costs one rerun; with nothing stored there is
nothing to merge, and no rerun: a first visit runs the page once. From then
on the helper writes ``value`` (JSON; ``None`` keeps nothing) whenever it
differs from what is stored, except while a stored value it handed over has
not been merged yet (``synced`` False).

- localStorage lasts across tabs and visits: the practice progress;
- sessionStorage lasts for one tab, through reloads: "your data" uses it to
  tell that this tab had files on show in a session the server no longer
  has (it restarted, or the session expired).
"""
from __future__ import annotations

import secrets
from typing import Callable, Literal

import streamlit as st

from components.ui import state

Storage = Literal["local", "session"]

# window.rankwiseStoreRead: "<session>|<storage key>" -> true once read (false while a handed value awaits merging).
_JS = """
export default function (component) {
  const { data, setTriggerValue } = component;
  const key = data && data.storageKey;
  if (!key) return;
  let storage = null;
  try { storage = data.storage === "session" ? window.sessionStorage : window.localStorage; } catch (e) { return; }
  const read = (window.rankwiseStoreRead = window.rankwiseStoreRead || new Map());
  const id = data.session + "|" + key;
  if (!data.synced) {
    if (!read.has(id)) {
      let stored = null;
      try { stored = JSON.parse(storage.getItem(key) || "null"); } catch (e) { stored = null; }
      read.set(id, stored === null);
      if (stored !== null) { setTriggerValue("loaded", stored); return; }
    }
    if (!read.get(id)) return;  /* handed over, not merged yet: writing now would lose it */
  }
  const text = JSON.stringify(data.value === undefined ? null : data.value);
  try {
    const held = storage.getItem(key);
    if (held !== text && !(held === null && text === "null")) storage.setItem(key, text);
  } catch (e) { /* storage disabled: this session only */ }
}
"""

_store = st.components.v2.component("rankwise.browser_store", html="", css=":host { display: none; }", js=_JS)


def browser_store(*, key: str, storage_key: str, storage: Storage, synced: bool, value,
                  on_loaded: Callable[[], None]) -> None:
    """The hidden helper: read ``storage_key`` once per page load and session (``on_loaded`` gets a stored value in
    ``st.session_state[key]``; ``synced`` says it was merged), then write ``value``.

    ``on_loaded`` reads the stored value as :func:`loaded` ``(key)``.
    """
    _store(key=key, data={"storageKey": storage_key, "storage": storage, "synced": synced, "value": value,
                          "session": _session_tag()},
           on_loaded_change=on_loaded)


def _session_tag() -> str:
    """A random tag for this server session: a page load reads the store again when it meets a new session."""
    return st.session_state.setdefault(state.BROWSER_STORE_SESSION, secrets.token_hex(8))


def loaded(key: str):
    """The value the helper of ``key`` read from the browser (untrusted JSON), or None."""
    result = st.session_state.get(key)
    return result.get("loaded") if result is not None else None
