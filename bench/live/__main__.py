"""``python -m bench.live``: the command line of :mod:`bench.live.cli`."""

from bench.live.cli import main

raise SystemExit(main())
