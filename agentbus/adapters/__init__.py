"""Bindings to agent loops, one module each; frameworks are imported lazily."""
