"""The `seqcam` command: one subcommand per job (../shared/DESIGN.md, command line contract)."""

from __future__ import annotations

import argparse
import os
import sys

from referee.cells import Cell, parse_cell

EXIT_USAGE = 2


def _port_argument(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, got {text!r}")
    return int(text)


def _cell_argument(text: str) -> Cell:
    try:
        return parse_cell(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _training_arguments(parser: argparse.ArgumentParser, photos: str, model: str, n: int = 400,
                        several_seeds: bool = False) -> None:
    """The options every model-fitting command shares."""
    parser.add_argument("--photos", metavar="DIR", help="rendered labelled photos to use (rendered if missing)")
    parser.add_argument("--n", type=int, default=n, help=f"{photos} (default {n})")
    parser.add_argument("--seed", type=int, nargs="+" if several_seeds else None, default=None,
                        help=("seeds of the rendered photos, an equal share each (default: the training seeds)"
                              if several_seeds else "seed of the rendered photos (default: the training seed)"))
    parser.add_argument("--out", default=None, help=f"where to write the model (default {model})")
    parser.add_argument("--workers", type=int, default=2, help="processes rendering the photos (default 2)")


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

    analyze = commands.add_parser(
        "analyze",
        help="read photos of the board and judge them",
        description="Find the board in each photo, read every cell and give the referee's verdict. "
        "Without IMAGE, reads the bundled sample photo. Exit 0 when every photo was read, 1 when "
        "any failed (its line says why), 2 on bad usage.",
    )
    analyze.add_argument("images", nargs="*", metavar="IMAGE", help="photo files (JPEG, PNG or HEIC)")
    analyze.add_argument("--teams", type=int, choices=(2, 3), default=2,
                         help="teams (or lone players) in the game: 2 play to two sequences, 3 to one (default 2)")
    analyze.add_argument("--json", action="store_true", help="one JSON object per photo per line")
    analyze.add_argument("--annotate", metavar="DIR",
                         help="write each photo with the grid, the chips read, the sequences and the ? cells drawn on it")
    analyze.add_argument("--calibration", metavar="PROFILE",
                         help="a calibration profile made by seqcam calibrate for this board (a bad profile: exit 2)")

    calibrate = commands.add_parser(
        "calibrate",
        help="learn this board, its chips, the light and the camera from a few photos",
        description="Photograph the empty board once (whole, from above, in good light). Optionally add "
        "photos with a row of chips of each colour on the board, and a folder of photos of a printed "
        "checkerboard for the lens. Prints what was learned and what looked doubtful. Exit 0 when a "
        "profile was written, 1 when the photos could not be used, 2 on bad usage.",
    )
    calibrate.add_argument("empty_image", metavar="EMPTY_IMAGE", help="a photo of the empty board")
    calibrate.add_argument("chip_images", nargs="*", metavar="CHIPS_IMAGE",
                           help="photos of the board with chips of each team's colour on it")
    calibrate.add_argument("--checkerboard", metavar="DIR", help="a folder of photos of a printed checkerboard")
    calibrate.add_argument("-o", "--output", metavar="PROFILE", required=True, help="where to write the profile (JSON)")

    watch = commands.add_parser(
        "watch",
        help="follow a game from a camera, a video file or a stream and referee every move",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Follow a game: find the board, then report each chip placed or removed, each\n"
        "sequence, the winner and every broken rule as it happens. Hands over the board are\n"
        "waited out. Without SOURCE, follows the bundled demo video. Exit 0 when a video file\n"
        "ends (or on Ctrl+C), 1 when the source cannot be opened or keeps failing, 2 on bad usage.",
        epilog="corrections, typed one a line on standard input while it runs:\n"
        "  undo                       take back the last change (a move, or a correction)\n"
        "  set ROW,COL COLOUR [...]   what is really on these cells: blue, green, red or empty\n"
        "                             (rows and columns 0 to 9, row 0 the printed top row);\n"
        "                             e.g. set 3,4 blue 3,5 empty\n"
        "  choose N                   option N of the latest sequence where several windows fit\n"
        "                             (its line lists them: 1) 2,0-2,4; 2) 2,1-2,5)\n"
        "                             or of a sequence_possible line (a run seen when the game\n"
        "                             was joined, lengthened: did it make another sequence?)\n"
        "  help                       these commands\n"
        "Each correction is shown and recorded as event lines with \"correction\": true (types undo,\n"
        "confirm, choose, and the placed, removed, sequence, sequence_undone, winner, winner_undone\n"
        "that follow from it). A command that cannot be applied gets one sentence on stderr.",
    )
    watch.add_argument("source", nargs="?", metavar="SOURCE",
                       help="a camera number (0 for the first), a video file or a stream URL")
    watch.add_argument("--teams", type=int, choices=(2, 3), default=2,
                       help="teams (or lone players) in the game: 2 play to two sequences, 3 to one (default 2)")
    watch.add_argument("--json", action="store_true",
                       help="one JSON object per event per line: t, frame, type, team, cell, cells, detail, "
                       "correction, options")
    watch.add_argument("--record", metavar="FILE", help="append every event to FILE as a JSON line, as it happens")
    watch.add_argument("--calibration", metavar="PROFILE",
                       help="a calibration profile made by seqcam calibrate for this board (a bad profile: exit 2)")

    render_video = commands.add_parser(
        "render-video",
        help="render labelled synthetic videos of whole games (GAME.mp4 + GAME.json)",
        description="Render N videos of bot games played move by move from a fixed camera, with hands, "
        "nudged chips, drifting light and one camera bump, and the true events as a label. "
        "The same seed gives the same files.",
    )
    render_video.add_argument("outdir", metavar="OUTDIR", help="folder to write the videos into")
    render_video.add_argument("--games", type=int, default=1, help="videos (default 1)")
    render_video.add_argument("--seed", type=int, default=0, help="seed of the set (default 0)")
    render_video.add_argument("--moves", type=int, default=12,
                              help="the last MOVES moves of each game, which end with the winner; 0: the whole game (default 12)")

    bench_watch = commands.add_parser(
        "bench-watch",
        help="measure following games on freshly rendered videos",
        description="Render GAMES videos with a seed the tracker was not tuned on, follow each on one core "
        "and print moves detected and missed, phantom events, wrong violations, the delay after the hand "
        "leaves and frames per second.",
    )
    bench_watch.add_argument("--games", type=int, default=20, help="videos (default 20)")
    bench_watch.add_argument("--seed", type=int, default=None, help="seed of the videos (default: the bench's own)")
    bench_watch.add_argument("--moves", type=int, default=10, help="moves per video (default 10)")
    bench_watch.add_argument("--keep", metavar="DIR", help="keep the rendered videos in DIR")
    bench_watch.add_argument("--videos", metavar="DIR",
                             help="follow the videos already in DIR (from render-video or --keep) instead of "
                             "rendering; the per-game CSV goes to DIR")
    bench_watch.add_argument("--explain", action="store_true",
                             help="after the table, say what went wrong in each game: missed moves, phantom "
                             "events, violations, a board read turned")

    render = commands.add_parser(
        "render",
        help="render labelled synthetic photos of a board (IMAGE.jpg + IMAGE.json)",
        description="Render N labelled photos of a Sequence board on a table, varying artwork, chips, "
        "camera, light, hands and clutter, plus photos without a board. The same seed gives the same files.",
    )
    render.add_argument("outdir", metavar="OUTDIR", help="folder to write the photos into")
    render.add_argument("--n", type=int, default=20, help="photos with a board (default 20)")
    render.add_argument("--no-board", type=int, default=0, help="photos without a board (default 0)")
    render.add_argument("--seed", type=int, default=0, help="seed of the set (default 0)")

    bench_vision = commands.add_parser(
        "bench",
        help="measure the vision pipeline on freshly rendered photos",
        description="Render a fresh labelled set with a seed the pipeline was not tuned on, read every "
        "photo on one core, print accuracy and speed tables and write one CSV row per photo.",
    )
    bench_vision.add_argument("--n", type=int, default=300, help="photos with a board (default 300)")
    bench_vision.add_argument("--no-board", type=int, default=30, help="photos without a board (default 30)")
    bench_vision.add_argument("--seed", type=int, default=None, help="seed of the rendered set (default: the bench's own)")
    bench_vision.add_argument("--workers", type=int, default=2, help="processes rendering the photos (default 2)")
    bench_vision.add_argument("--keep", metavar="DIR", help="keep the rendered photos in DIR")
    bench_vision.add_argument("--csv", default="benchmarks/vision_results.csv", help="where to write the per-photo results")
    bench_vision.add_argument("--calibrated", action="store_true",
                              help="also calibrate on an empty-board photo of each game and read the set again")
    bench_vision.add_argument("--true-grid", action="store_true",
                              help="skip locating: give the later stages the true grid, to measure them alone")

    bench_locate = commands.add_parser(
        "bench-locate",
        help="measure locating alone on folders of rendered photos (dev sets)",
        description="Locate every photo of each folder made by seqcam render and print, per folder and in all, "
        "the boards located (within half a cell), the wrong grids accepted and the photos without a board "
        "'found'. Judge a locating change on three or more folders: one set's few boards either way are noise.",
    )
    bench_locate.add_argument("folders", nargs="+", metavar="DIR", help="folders made by seqcam render")
    bench_locate.add_argument("--explain", action="store_true",
                              help="say why each board was not located: no proposal came near it, fitting lost "
                              "a close one, the verdict turned a right fit down, or a right fit lost to another")
    bench_compare = commands.add_parser(
        "bench-compare",
        help="compare two readings of the same rendered sets (seqcam bench CSVs), photo by photo",
        description="For each pair BEFORE.csv AFTER.csv (seqcam bench --csv, the same set read before and after a "
        "change), print every photo whose outcome changed, then boards located, wrong grids, boards exact, "
        "wrong and '?' cells before and after, over all pairs.",
    )
    bench_compare.add_argument("files", nargs="+", metavar="CSV", help="BEFORE.csv AFTER.csv, one pair per set")
    train_cells = commands.add_parser("train-cells", help="fit the cell model on rendered photos")
    _training_arguments(train_cells, "photos to learn from", "vision/models/cells.json", n=10200, several_seeds=True)
    train_net = commands.add_parser("train-cell-net", help="fit the cell network on rendered photos")
    _training_arguments(train_net, "photos to learn from", "vision/models/cells.onnx", n=8000, several_seeds=True)
    train_net.add_argument("--epochs", type=int, default=15, help="passes over the cells (default 15)")
    train_locator = commands.add_parser("train-locator", help="fit the board verdict of locating on rendered photos")
    _training_arguments(train_locator, "photos with a board", "vision/models/board_verdict.json")
    train_locator.add_argument("--no-board", type=int, default=60, help="photos without a board (default 60)")
    serve = commands.add_parser(
        "serve",
        help="start the web page the phones at the table open",
        description="Serve the phone page and its API (schema at /openapi.json, browsable at /docs, offline "
        "too). Binds to 127.0.0.1 unless --host says otherwise; use --host 0.0.0.0 for the "
        "phones on the same Wi-Fi.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this computer only)")
    serve.add_argument("--port", type=_port_argument, default=8000, help="port (default 8000)")
    serve.add_argument("--db", metavar="PATH", help="SQLite file of the tables (default: seqcam.sqlite3 in your data folder)")
    serve.add_argument("--https", action="store_true",
                       help="serve over HTTPS with a self-signed certificate made for this computer")
    serve.add_argument("--camera", metavar="SOURCE",
                       help="follow a camera of this computer (a number), a video file or a stream URL: its readings "
                       "feed a table of their own, whose join link is printed")

    bench = commands.add_parser("bench-judge", help="measure positions judged per second on one core")
    bench.add_argument("--positions", type=int, default=20_000, help="random positions per team count (default 20000)")
    bench.add_argument("--seed", type=int, default=2026, help="seed of the random positions")
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        return run_command(build_parser().parse_args(argv))
    except BrokenPipeError:
        # whoever read the output stopped (`seqcam analyze | head`): stop quietly; a record
        # file was written line by line, and Python must not fail again flushing stdout on exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def run_command(args: argparse.Namespace) -> int:
    if args.command == "judge":
        from seqcam.judge_command import run_judge

        return run_judge(args.grid, args.teams, args.json, args.remove)
    if args.command == "analyze":
        from seqcam.analyze_command import run_analyze

        return run_analyze(args.images, args.teams, args.json, args.annotate, calibration=args.calibration)
    if args.command == "watch":
        from seqcam.watch_command import run_watch

        return run_watch(args.source, args.teams, args.record, args.json, calibration=args.calibration,
                         stdin=sys.stdin)
    if args.command == "render-video":
        from seqcam.render_command import run_render_video

        return run_render_video(args.outdir, args.games, args.seed, args.moves)
    if args.command == "bench-watch":
        from seqcam.bench_watch import BENCH_SEED, run_bench_watch

        return run_bench_watch(args.games, BENCH_SEED if args.seed is None else args.seed, args.moves, args.keep,
                               videos=args.videos, explained=args.explain)
    if args.command == "render":
        from seqcam.render_command import run_render

        return run_render(args.outdir, args.n, args.no_board, args.seed)
    if args.command == "bench":
        from seqcam.bench_vision import BENCH_SEED, run_bench

        seed = BENCH_SEED if args.seed is None else args.seed
        return run_bench(args.n, args.no_board, seed, args.workers, args.keep, args.csv, args.true_grid,
                         args.calibrated)
    if args.command == "bench-locate":
        from seqcam.bench_locate import run_bench_locate

        return run_bench_locate(args.folders, args.explain)
    if args.command == "bench-compare":
        from seqcam.bench_compare import run_bench_compare

        return run_bench_compare(args.files)
    if args.command == "train-cells":
        from seqcam.train_cells import TRAIN_SEEDS, default_out, run_train

        seeds = TRAIN_SEEDS if args.seed is None else tuple(args.seed)
        return run_train(args.photos, args.n, seeds, args.out or default_out(), args.workers)
    if args.command == "train-cell-net":
        from seqcam.train_cell_net import NET_TRAIN_SEEDS, default_out, run_train_net

        seeds = NET_TRAIN_SEEDS if args.seed is None else tuple(args.seed)
        return run_train_net(args.photos, args.n, seeds, args.out or default_out(), args.workers, args.epochs)
    if args.command == "calibrate":
        from seqcam.calibrate_command import run_calibrate

        return run_calibrate(args.empty_image, args.chip_images, args.checkerboard, args.output)
    if args.command == "train-locator":
        from seqcam.train_locator import TRAIN_SEED, default_out, run_train_locator

        seed = TRAIN_SEED if args.seed is None else args.seed
        return run_train_locator(args.photos, args.n, args.no_board, seed, args.out or default_out(), args.workers)
    if args.command == "serve":
        from server.serve import run_serve

        return run_serve(args.host, args.port, args.db, args.https, args.camera)
    if args.command == "bench-judge":
        from seqcam.bench_judge import run_bench_judge

        return run_bench_judge(args.positions, args.seed)
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
