"""``python -m bench.multiplex``: the command line of :mod:`bench.multiplex.cli`."""

from bench.multiplex.cli import main

raise SystemExit(main())
