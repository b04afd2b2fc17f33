"""The variants that pin a class fix: one module per source of material that got past the guards.

Each module says in its docstring what the material was and which classes of technique it showed,
then lists ``HELD`` (family -> commands held back in spellings nobody tuned on) and ``ALLOWED`` (the
ordinary neighbours that must stay allowed). ``test_class_fixes.py`` judges them all.
"""
