import io
import json
import subprocess
import sys

import pytest

from seqcam.cli import main
from seqcam.judge_command import run_judge

GRID = "\n".join(["#BBBB....#", "GGGG......"] + ["." * 10] * 7 + ["#........#"])


def judge_json(text: str, *args: str) -> tuple[int, dict]:
    out = io.StringIO()
    remove = None
    if args:
        from referee.cells import parse_cell

        remove = parse_cell(args[0])
    code = run_judge("-", 2, True, remove, stdin=io.StringIO(text), stdout=out)
    return code, json.loads(out.getvalue())


def test_json_follows_the_design_contract():
    code, result = judge_json(GRID)
    assert code == 0
    assert set(result) == {"ok", "sequences", "winner", "protected", "warnings", "error"}
    assert result["ok"] is True and result["error"] is None
    assert result["sequences"] == {"B": 1, "G": 0}
    assert result["winner"] == []
    assert result["protected"] == {"definite": [[0, 1], [0, 2], [0, 3], [0, 4]], "possible": []}


def test_json_removal_answer():
    _, result = judge_json(GRID, "0,2")
    assert result["removal"]["legal"] is False
    _, result = judge_json(GRID, "1,2")
    assert result["removal"]["legal"] is True
    assert result["removal"]["reason"]


def test_malformed_grid_is_an_error_with_line_and_column():
    code, result = judge_json(GRID.replace("GGGG", "GGXG"))
    assert code == 1
    assert result["ok"] is False
    assert "line 2, column 3" in result["error"]


def test_missing_file_is_a_clear_error(tmp_path, capsys):
    assert main(["judge", str(tmp_path / "nothing.grid")]) == 1
    err = capsys.readouterr().err
    assert "Cannot read the grid" in err and "Traceback" not in err


def test_a_photo_given_as_the_grid_points_to_analyze(tmp_path, capsys):
    photo = tmp_path / "board.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)))
    assert main(["judge", str(photo)]) == 1
    err = capsys.readouterr().err
    assert "is not a grid in text form" in err and f"seqcam analyze {photo}" in err and "codec" not in err


def test_text_output_of_the_bundled_example(capsys):
    assert main(["judge"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "#BBBB....#"
    assert "Winner: blue" in out


def test_bad_usage_exits_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["judge", "--remove", "12,3"])
    assert exit_info.value.code == 2
    assert "0 to 9" in capsys.readouterr().err


def test_console_script_reads_standard_input():
    result = subprocess.run(
        [sys.executable, "-m", "seqcam", "judge", "-", "--json", "--teams", "3"],
        input=GRID.replace("GGGG", "RRRR"), capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["sequences"] == {"B": 1, "G": 0, "R": 0}
    assert verdict["winner"] == ["B"]


def test_a_reader_that_stops_early_gets_no_traceback():
    # `seqcam judge | head -c 1`: the pipe is closed before seqcam writes to it
    process = subprocess.Popen([sys.executable, "-m", "seqcam", "judge"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    process.stdout.close()
    _, errors = process.communicate(timeout=60)
    assert process.returncode == 1
    assert b"Traceback" not in errors and b"Exception ignored" not in errors
