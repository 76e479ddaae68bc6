"""Markdown, HTML and KaTeX payloads, and every URL parameter the app reads: for the link tests.

tests/pages/test_link_payloads.py (headless) and tests/e2e/payload_links.py
(in the browser, for the accessibility walks) feed them to every page.
"""
from components.ui import state

PAYLOADS = {
    "image": "![i](http://127.0.0.9:9/p.png)",
    "link": "[click](http://evil.example/)",
    "html": "<img src=http://127.0.0.9:9/h.png><b>x</b>",
    "katex": "$x^2$",
    "bold": "**bold** _it_",
}
EDITOR_SUFFIXES = ("", "1", "2", "3", "4")
# every URL parameter the app reads: each state.PARAM_*, the editors' order and grades with each suffix
SINGLE = tuple(v for n, v in vars(state).items() if n.startswith("PARAM_") and v not in (state.PARAM_ORDER, state.PARAM_GRADES))
PARAMS = (*SINGLE, *state.MODE_FLAGS,
          *(name + suffix for suffix in EDITOR_SUFFIXES for name in (state.PARAM_ORDER, state.PARAM_GRADES)))
