"""Sphinx configuration of tfgpuaug's API reference (built from the docstrings):

    .venv/bin/python -m sphinx -W -q -b html docs/api build/docs    # CI builds it, warnings as errors
"""
import os
import sys

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

project = "tfgpuaug"
copyright = "the tfgpuaug authors (Apache-2.0)"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon"]
napoleon_google_docstring = True
napoleon_numpy_docstring = False
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": False}
default_role = "code"  # `x` in docstrings is code, as in the README
html_theme = "alabaster"
exclude_patterns = []
