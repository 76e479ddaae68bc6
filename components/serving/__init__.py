"""Workshop infrastructure: settings from the environment, the shared cache of parsed uploads,
uploads, and the guard on Streamlit's upload store.

May import: components.engine, components.formats (and Streamlit's upload
store, in upload_store). Never: components.ui, lessons.
"""
