import json

from PIL import Image

from seqcam.analyze_command import run_analyze
from seqcam.cli import main
from seqcam.samples import default_sample

DESIGN_FIELDS = {"image", "ok", "grid", "orientation_deg", "corners_px", "sequences", "winner", "warnings", "error", "elapsed_ms"}


def json_lines(capsys) -> list[dict]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_default_sample_in_json(capsys):
    assert main(["analyze", "--json"]) == 0
    (line,) = json_lines(capsys)
    assert set(line) == DESIGN_FIELDS
    assert line["ok"] is True and line["error"] is None
    assert line["image"] == str(default_sample())
    assert len(line["grid"]) == 10 and len(line["corners_px"]) == 4
    assert 0 <= line["orientation_deg"] < 360


def test_a_bad_file_fails_alone_and_the_batch_goes_on(tmp_path, capsys):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    code = run_analyze([str(broken), str(default_sample()), str(empty)], 2, True, None)
    assert code == 1
    lines = json_lines(capsys)
    assert [line["ok"] for line in lines] == [False, True, False]
    assert "damaged" in lines[0]["error"] and "empty" in lines[2]["error"]
    assert all("Traceback" not in (line["error"] or "") for line in lines)


def test_a_black_and_white_photo_is_refused_with_what_to_do_not_read_as_an_empty_board(tmp_path, capsys):
    grey = tmp_path / "grey.jpg"
    Image.open(default_sample()).convert("L").save(grey, quality=90)  # chips there, but no colour to tell them
    assert run_analyze([str(grey), str(default_sample())], 2, True, None) == 1
    lines = json_lines(capsys)
    assert [line["ok"] for line in lines] == [False, True]
    assert lines[0]["grid"] is None and "black and white" in lines[0]["error"] and "in colour" in lines[0]["error"]


def test_an_annotate_folder_that_is_a_file_is_bad_usage_before_any_photo_is_read(tmp_path, capsys):
    taken = tmp_path / "notes.txt"
    taken.write_text("mine")
    assert main(["analyze", str(default_sample()), "--annotate", str(taken)]) == 2
    captured = capsys.readouterr()
    assert "it is a file, not a folder" in captured.err and captured.out == ""
    assert taken.read_text() == "mine"


def test_annotated_photo_is_written(tmp_path, capsys):
    assert main(["analyze", str(default_sample()), "--annotate", str(tmp_path)]) == 0
    written = list(tmp_path.glob("*_annotated.jpg"))
    assert len(written) == 1 and written[0].stat().st_size > 10_000
    out = capsys.readouterr().out
    assert "sequence(s)" in out


def test_text_output_names_the_photo_and_gives_the_grid(capsys):
    assert main(["analyze"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == str(default_sample())
    assert all(len(row) == 10 for row in lines[1:11])
