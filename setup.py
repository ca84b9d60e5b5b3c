"""Build the optional compiled kernel of the move generator (solver/_kernel.c).

Everything else is in pyproject.toml. ``optional=True``: without a C compiler the build
goes on and the solver runs its pure-Python walker, which gives the same moves.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "solver._kernel",
            sources=["solver/_kernel.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
