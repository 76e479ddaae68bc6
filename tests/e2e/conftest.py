"""Browser tests: the ranking editor's test page is a Streamlit script, not a test module."""

# --doctest-modules would import the page script (and so run it) while collecting: skip it.
collect_ignore = ["editor_page.py"]
