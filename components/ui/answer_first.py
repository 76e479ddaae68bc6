"""A lesson's ranking editor that answers a move before the rest of its section is drawn again.

A lesson's "Try it" section is one fragment: the presets and k, the ranking editor, then the worked arithmetic, the
chart and the folds. A move in the editor reruns that fragment, and the browser took the board's answer together
with everything drawn after it: on the nDCG page 120 to 130 ms from the drop, most of it the arithmetic and the chart.

:func:`answered_first` draws the editor in a fragment of its own, inside the section's. A move reruns only that small
fragment, whose answer is on the board in about 75 ms (the address, which would cost the browser a render of the
whole page, is left to the section's run). The browser then asks for the section's run, which redraws the
arithmetic and the chart for the new order (and the editor, unchanged). Two hidden helpers carry the request:

- "said", in the editor's fragment, after the editor: the signature of the state just drawn (the order, the tray,
  the grades and k) is the latest of its channel; when that fragment ran alone, the page hears of it;
- "heard", in the section's fragment, just after the editor's: when the editor's fragment ran alone and drew a state
  the section has not drawn, it sets the trigger ``due`` (once for that state), and the section reruns. It looks
  when it hears of such a run, and each time it is drawn (a move made as the page loads, before its script ran).

A run of the whole section (a new k, a preset, a page load, a live class's change) draws the editor with it and asks
for nothing more. The request has to come from the browser after it has drawn the answer: a rerun of the section
queued on the server at the end of the editor's run (:func:`components.serving.streamlit_compat.rerun_fragments`)
starts at once, and the browser took both runs' elements together (138 ms, slower than one run).

A live class follows the section, not the editor's fragment: the instructor's change is sent at the end of the
section's run, and a follower's poll reruns the section (:func:`components.live_class.follow.followed_fragment`).

Dragging the editor's cutoff line sets k for the editor's run alone (its callback writes the k slider's value): the
editor's fragment reads k from the session, not from the section's last run (which would draw the line back), and
the section's rerun gives the slider that k again before the slider is drawn (the browser sends the slider's old
value with the request, which would win).
"""
from __future__ import annotations

import hashlib
from typing import Callable

import streamlit as st

from components.ranking_editor import EditorState
from components.serving import streamlit_compat

# window.rankwiseAnswered: what each channel's editor drew last ("latest": its signature, and whether its fragment ran
# alone), the section helpers on the page ("heard"), and whether one of them has not drawn its editor's last state yet
# ("pending()": the browser tests and the latency benchmark wait for it before calling the page idle).
_JS = """
export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  const answered = (window.rankwiseAnswered = window.rankwiseAnswered || {
    latest: new Map(), heard: new Set(),
    pending() { return [...this.heard].some((h) => this.latest.has(h.data.channel)
                                                   && this.latest.get(h.data.channel).signature !== h.data.signature); },
  });
  if (data.role === "said") {
    answered.latest.set(data.channel, { signature: data.signature, alone: data.alone });
    if (data.alone) window.dispatchEvent(new CustomEvent("rankwise-answered", { detail: data.channel }));
    return;
  }
  let heard = parentElement.rankwiseHeard;
  if (!heard) {
    heard = parentElement.rankwiseHeard = { asked: null };
    heard.ask = () => {  /* once for each state the editor drew alone that the section has not drawn */
      const drew = answered.latest.get(heard.data.channel);
      if (!drew || !drew.alone || drew.signature === heard.data.signature || drew.signature === heard.asked) return;
      heard.asked = drew.signature;
      heard.send("due", drew.signature);
    };
    heard.listen = (event) => { if (event.detail === heard.data.channel) heard.ask(); };
    window.addEventListener("rankwise-answered", heard.listen);
    answered.heard.add(heard);
  }
  heard.data = data;
  heard.send = setTriggerValue;
  heard.ask();  /* a move made before this helper's script first ran was not heard */
  return () => {
    window.removeEventListener("rankwise-answered", heard.listen);
    answered.heard.delete(heard);
    delete parentElement.rankwiseHeard;
  };
}
"""

_helper = st.components.v2.component("rankwise.answer_first", html="", css=":host { display: none; }", js=_JS)


def signature(current: EditorState, k: int | None) -> str:
    """A short fingerprint of what the section draws from the editor: its order, tray and grades, and k."""
    text = repr((current.order, current.tray, sorted(current.grades.items()), k))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def answered_first(key: str, draw: Callable[[int | None, bool], EditorState], *,
                   k_key: str | None = None) -> EditorState:
    """Call inside a lesson section's fragment, after its k slider (``k_key``, if the editor draws k):
    ``draw(k, address)``, which shows the ranking editor ``key`` (writing its state into the address if ``address``:
    :func:`components.ui.widgets.show_ranking_editor`) and returns its state, runs in a fragment of its own, with k
    read from the session (None without a slider); once the browser has drawn a move's answer, the section's
    fragment reruns. ``draw`` reads whatever else it shows from the session too (another editor's state, for one):
    run alone, it is the closure the section's last run made. Run alone, it leaves the address to the section's
    run. The editor's state, as drawn."""
    drawn_k = f"answered-k-{key}"

    @st.fragment
    def editor() -> EditorState:
        k = st.session_state[drawn_k] = st.session_state[k_key] if k_key is not None else None
        alone = streamlit_compat.fragment_runs_alone()
        current = draw(k, not alone)
        _helper(key=f"answered-said-{key}", data={"role": "said", "channel": key, "signature": signature(current, k),
                                                  "alone": alone})
        return current

    current = editor()
    _helper(key=f"answered-heard-{key}", data={"role": "heard", "channel": key,
                                               "signature": signature(current, st.session_state[drawn_k])},
            on_due_change=lambda: _keep_k(k_key, drawn_k))
    return current


def _keep_k(k_key: str | None, drawn_k: str) -> None:
    """Before the section's rerun: the k slider takes the k the editor last drew. (The cutoff line dragged in the
    editor set it for the editor's run; the section's rerun brings the browser's slider value, which would win.)"""
    if k_key is not None:
        st.session_state[k_key] = st.session_state[drawn_k]
