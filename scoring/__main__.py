"""``python -m scoring rule CASE.json`` (or ``-`` for standard input): one round ruled
without a database, printed as JSON (the contract is in :mod:`scoring.calculator`).
A case that cannot be ruled is one line on standard error and exit status 2."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from scoring.calculator import CaseError, read_case, rule_case, write_result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scoring", description="The duplicate rules, without a database."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rule = commands.add_parser(
        "rule",
        help="rule one round described by a JSON case",
        description="Rule one round described by a JSON case.",
    )
    rule.add_argument("case", metavar="CASE", help="the case's JSON file, or - for standard input")
    rule.add_argument("--indent", type=int, metavar="N", help="indent the JSON output by N spaces")
    args = parser.parse_args(argv)
    try:
        if args.case == "-":
            case = read_case(sys.stdin, "standard input")
        else:
            try:
                with open(args.case, encoding="utf-8") as stream:
                    case = read_case(stream, args.case)
            except OSError as exc:
                raise CaseError(f"cannot read {args.case}: {exc.strerror or exc}") from exc
        result = rule_case(case)
    except CaseError as exc:
        print(f"python -m scoring rule: {exc}", file=sys.stderr)
        return 2
    try:
        write_result(result, sys.stdout, args.indent)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader stopped early (| head): silence the flush at exit, no traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
