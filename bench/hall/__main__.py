"""``python -m bench.hall``: the command line of :mod:`bench.hall.cli`."""

from bench.hall.cli import main

raise SystemExit(main())
