"""The compiled kernel (``solver/_kernel.c``, built by ``pip install``) when this
installation has it: ``BUILT`` says whether it does. Without it (no C compiler at install)
the pure-Python code gives the same results: :mod:`solver.walker` the moves and the
cross-sets, :func:`solver.gaddag.build_py` the automaton and :func:`solver.gaddag.fast64`
its checksum."""

from __future__ import annotations

# The kernel's names, not the module: ``from solver import _kernel`` reads, to an import
# graph that sees only .py files, as an import of the package ``solver`` itself, which
# imports most of its modules.
try:
    from solver._kernel import Graph, build, checksum, cross_update, generate
except ImportError:  # built without a C compiler
    BUILT = False
else:
    BUILT = True

__all__ = ["BUILT", "Graph", "build", "checksum", "cross_update", "generate"]
