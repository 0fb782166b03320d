"""The `seqcam` command: one subcommand per job (../shared/DESIGN.md, command line contract)."""

from __future__ import annotations

import argparse
import sys

from referee.cells import Cell, parse_cell

EXIT_USAGE = 2


def _cell_argument(text: str) -> Cell:
    try:
        return parse_cell(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="seqcam",
        description="A table companion for Sequence: reads the board and referees it.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    judge = commands.add_parser(
        "judge",
        help="judge a board written in the grid text form",
        description="Judge a board in the grid text form: ten lines of ten symbols, "
        "# corner, . empty, B blue, G green, R red, ? unknown. Prints sequences per team, "
        "the winner, protected chips and warnings. Exit 0 when judged, 1 when the grid "
        "cannot be read (the message says which line and column), 2 on bad usage.",
    )
    judge.add_argument("grid", nargs="?", metavar="GRIDFILE",
                       help="file holding the grid, or - for standard input; "
                       "without it, a bundled example is judged")
    judge.add_argument("--teams", type=int, choices=(2, 3), default=2,
                       help="teams (or lone players) in the game: 2 play to two sequences, 3 to one (default 2)")
    judge.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    judge.add_argument("--remove", type=_cell_argument, metavar="ROW,COL",
                       help="also ask whether a one-eyed jack may remove the chip on ROW,COL (0-9 each)")

    bench = commands.add_parser("bench-judge", help="measure positions judged per second on one core")
    bench.add_argument("--positions", type=int, default=20_000, help="random positions per team count (default 20000)")
    bench.add_argument("--seed", type=int, default=2026, help="seed of the random positions")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "judge":
        from seqcam.judge_command import run_judge

        return run_judge(args.grid, args.teams, args.json, args.remove)
    if args.command == "bench-judge":
        from seqcam.bench_judge import run_bench_judge

        return run_bench_judge(args.positions, args.seed)
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
