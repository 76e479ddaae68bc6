"""Workshop infrastructure: settings from the environment, the shared cache of parsed uploads,
uploads, the guard on Streamlit's upload store, rate limits, and every use of Streamlit's internals
(streamlit_compat, which checks Streamlit's version when imported).

May import: components.engine, components.formats, and Streamlit (its internals in streamlit_compat only).
Never: components.ui, components.live_class, lessons.
"""
