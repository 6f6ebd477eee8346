"""The command line as a person uses it: subprocesses, real files, clear one-line errors."""

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import __version__, config
from companion.i18n import t

COMMANDS = ["run", "read", "play", "teach", "config", "doctor", "backup", "restore"]


def companion(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, input=stdin,
                          timeout=120, env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"})


def test_version():
    """Run from a git checkout, the commit and its date: every commit said 0.1.0."""
    r = companion("--version")
    commit = subprocess.run(["git", "-C", str(Path(__file__).resolve().parents[1]), "log", "-1", "--format=%h %cs"],
                            capture_output=True, text=True).stdout.split()
    assert r.returncode == 0 and r.stdout.strip() == f"companion {__version__} (git {commit[0]}, {commit[1]})"


@pytest.mark.parametrize("git", ["missing", "failing"])
def test_without_git_the_version_is_the_number_alone(monkeypatch, git):
    """No git on the machine, or git refusing the folder (another user's): the number, and nothing said."""
    import companion

    def run(*args, **kwargs):
        if git == "missing":
            raise FileNotFoundError(2, "No such file or directory", "git")
        raise subprocess.CalledProcessError(128, args[0], stderr="fatal: detected dubious ownership")

    monkeypatch.setattr(subprocess, "run", run)
    companion.version.cache_clear()
    try:
        assert companion.version() == __version__
    finally:
        companion.version.cache_clear()


def test_the_doctor_says_the_version():
    import companion
    from companion import doctor

    assert doctor._python()[0] == f"companion {companion.version()}" and "(git " in companion.version()


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command):
    r = companion(command, "--help")
    assert r.returncode == 0 and f"usage: companion {command}" in r.stdout


def test_teach_help_says_what_a_labels_csv_holds_and_each_sets_face_names():
    """A new user's labels.csv was refused face by face: the face names were found by the errors only."""
    r = companion("teach", "--help")
    assert "image,face,x_min,y_min,x_max,y_max" in r.stdout
    assert "noch-x-mal: red orange yellow green blue color-joker 1 2 3 4 5 number-joker" in r.stdout
    assert "3+X" in r.stdout and "fritzo: red orange" in r.stdout


def test_play_free_play_transcript_prints_the_final_state(tmp_path):
    script = tmp_path / "t.jsonl"
    script.write_text('{"action": "setup"}\n# a comment\n{"action": "roll", "dice": [6, 5]}\n'
                      '{"action": "roll", "dice": [1, null]}\n', encoding="utf-8")
    r = companion("play", "free-play", "--script", str(script), "--json", "--lang", "en")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert lines == [{"final": {"rolls": [[6, 5], [1, None]]}, "finished": False}]


def test_play_names_the_bad_transcript_line(tmp_path):
    script = tmp_path / "t.jsonl"
    script.write_text('{"action": "setup"}\n{"action": "roll", "dice": [7]}\n', encoding="utf-8")
    r = companion("play", "free-play", "--script", str(script))
    assert r.returncode == 2
    assert r.stderr.startswith("companion: line 2: die 1: 7 is not a die face") and "Traceback" not in r.stderr


def test_play_of_a_journal_under_another_game_names_the_journals_game(tmp_path):
    """A free-play journal replayed as Haste Worte said "line 2: Give the players as a list of names"."""
    script = tmp_path / "journal.jsonl"
    script.write_text('{"game":"free-play","at":1796597501.1}\n{"action":{"action":"setup","seed":1}}\n'
                      '{"action":{"action":"roll","dice":[5,5]}}\n', encoding="utf-8")
    r = companion("play", "haste-worte", "--script", str(script))
    assert r.returncode == 2 and "journal of a game of free-play, not of haste-worte" in r.stderr
    assert "companion play free-play --script" in r.stderr and "Traceback" not in r.stderr
    assert companion("play", "free-play", "--script", str(script)).returncode == 0


def test_play_of_a_journal_a_power_cut_left_drops_its_half_line_as_the_app_does(tmp_path):
    """The app keeps a cut journal "for a bug report" and resumes without its half line; the replay of that very
    file stopped at "line 4: not valid JSON"."""
    script = tmp_path / "journal.jsonl.corrupt-20261207-011500"
    script.write_text('{"game":"free-play","at":1796597501.1}\n{"action":{"action":"setup","seed":1}}\n'
                      '{"action":{"action":"roll","dice":[5,5]}}\n{"action":{"action":"roll","di', encoding="utf-8")
    r = companion("play", "free-play", "--script", str(script), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.splitlines()[-1])["final"] == {"rolls": [[5, 5]]}
    assert "line 4 was cut short" in r.stderr
    script.write_text(script.read_text().rsplit("\n", 1)[0] + '\n{"action":{"action":"roll","dice":[6,6]}}')
    r = companion("play", "free-play", "--script", str(script), "--json")  # unended but whole: as the app, left out
    assert json.loads(r.stdout.splitlines()[-1])["final"] == {"rolls": [[5, 5]]} and "line 4 was cut" in r.stderr
    # a transcript written by hand stays strict: an editor leaves the last newline off, a typo is said
    script.write_text('{"action": "setup"}\n{"action": "roll", "dice": [6, 5]', encoding="utf-8")
    r = companion("play", "free-play", "--script", str(script))
    assert r.returncode == 2 and "line 2: not valid JSON" in r.stderr and "cut short" not in r.stderr


def test_play_unknown_game_lists_the_games(tmp_path):
    r = companion("play", "chess", "--script", "-", stdin="")
    assert r.returncode == 2 and "haste-worte" in r.stderr and "echt-spitze" in r.stderr


def test_read_rejects_a_non_image_file_clearly_and_reads_the_others(tmp_path):
    bad = tmp_path / "notes.jpg"
    bad.write_text("this is not a photo")
    good = tmp_path / "black.png"
    cv2.imwrite(str(good), np.zeros((480, 640, 3), np.uint8))
    r = companion("read", str(bad), str(good), "--json")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    first, second = (json.loads(x) for x in r.stdout.splitlines())
    assert "not an image the reader can open" in first["error"]
    assert second["image"] == str(good) and second["dice"] == [] and second["ms"] >= 0
    missing = companion("read", str(tmp_path / "nope.png"))
    assert missing.returncode == 1 and "no such file" in missing.stderr


@pytest.mark.parametrize("command", [["read", "--json"], ["config"]])
def test_output_read_by_a_program_that_stops_early_is_no_traceback(tmp_path, command):
    """``companion read --json photos | head -1`` or ``companion config | head``: the reader closes the pipe, and
    what is still written goes nowhere. That is the reader's choice, not an error to report with a traceback."""
    photo = tmp_path / "black.png"
    cv2.imwrite(str(photo), np.zeros((480, 640, 3), np.uint8))
    args = [*command, str(photo)] if command[0] == "read" else command
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone before the first line
    try:
        r = subprocess.run([sys.executable, "-m", "companion", *args], stdout=write_end, stderr=subprocess.PIPE,
                           text=True, timeout=120)
    finally:
        os.close(write_end)
    assert "Traceback" not in r.stderr and "BrokenPipeError" not in r.stderr, r.stderr
    assert r.stderr == "" and r.returncode == 1


def test_a_broken_pipe_at_the_table_is_not_swallowed(monkeypatch):
    """``companion run`` writes nothing for a program to read: a broken pipe there is a bug (a sound or speech
    process gone, say) and must show, not end the companion quietly as for ``read``'s output."""
    from companion import cli

    def broken(args):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli, "cmd_run", broken)
    monkeypatch.setattr(cli, "cmd_read", broken)
    sent_away = []
    monkeypatch.setattr(os, "dup2", lambda fd, onto: sent_away.append(onto))  # pytest's own stdout stays
    with pytest.raises(BrokenPipeError):
        cli.main(["run"])
    assert sent_away == []
    assert cli.main(["read", "photo.jpg"]) == 1 and sent_away == [sys.stdout.fileno()]  # read's output: quiet


def test_read_says_in_words_what_is_wrong_with_a_folder_a_broken_photo_and_the_annotation_folder(tmp_path):
    """A folder given as a photo, a PNG cut off after its signature (OpenCV's decoder logged a line of its own on
    stderr beside ours), and --annotate naming a file (a FileExistsError traceback before); two photos of one name
    from two folders get two annotated pictures (the second overwrote the first)."""
    broken = tmp_path / "cut.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\n")
    good = tmp_path / "black.png"
    cv2.imwrite(str(good), np.zeros((480, 640, 3), np.uint8))
    r = companion("read", str(tmp_path), str(broken), str(good))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.splitlines() == [f"companion: {tmp_path}: a folder, not a photo (give the photos in it, e.g. "
                                     f"{tmp_path / '*.jpg'})",
                                     f"companion: {broken}: not an image the reader can open (use a JPEG or PNG photo)"]
    assert r.stdout.startswith(f"{good}: (no dice)")
    (tmp_path / "out").write_text("")
    r = companion("read", str(good), "--annotate", str(tmp_path / "out"))
    assert r.returncode == 2 and "Traceback" not in r.stderr and "a file, not a folder" in r.stderr
    other = tmp_path / "other"
    other.mkdir()
    cv2.imwrite(str(other / "black.png"), np.full((480, 640, 3), 90, np.uint8))
    r = companion("read", str(good), str(other / "black.png"), "--annotate", str(tmp_path / "pictures"))
    assert r.returncode == 0
    assert sorted(p.name for p in (tmp_path / "pictures").iterdir()) == ["black-annotated-2.png", "black-annotated.png"]
    assert int(cv2.imread(str(tmp_path / "pictures" / "black-annotated-2.png"))[240, 320, 0]) == 90


def test_annotated_photos_never_write_over_a_file_the_photos_included(tmp_path):
    """``--annotate .`` in the photos' own folder wrote the annotated copy over tray.png itself, and a second run
    wrote over the first run's pictures: each copy takes the next free name, and the line says which."""
    photo = tmp_path / "tray.png"
    cv2.imwrite(str(photo), np.zeros((480, 640, 3), np.uint8), [cv2.IMWRITE_PNG_COMPRESSION, 0])  # not as we write
    original = photo.read_bytes()
    first = companion("read", str(photo), "--annotate", str(tmp_path))
    second = companion("read", str(photo), "--annotate", str(tmp_path), "--json")
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert photo.read_bytes() == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tray-annotated-2.png", "tray-annotated.png", "tray.png"]
    assert first.stdout.rstrip().endswith(f"annotated: {tmp_path / 'tray-annotated.png'}")
    assert json.loads(second.stdout)["annotated"] == str(tmp_path / "tray-annotated-2.png")


def _a_folder_we_may_not_write_in(tmp_path):
    """A folder whose files may not be made: one made read-only, or for root (who may write there all the same)
    the system's own /sys."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    for candidate in (str(folder), "/sys"):
        probe = os.path.join(candidate, "probe.png")
        try:
            with open(probe, "xb"):
                pass
        except PermissionError:
            return candidate
        except OSError:
            continue
        os.remove(probe)
    pytest.skip("no folder here refuses a new file")


def test_an_annotation_folder_that_refuses_the_picture_is_our_one_line(tmp_path):
    """OpenCV's writer printed "[ WARN:0@0.1] ... imwrite_ ... permission denied" beside our own line."""
    photo = tmp_path / "black.png"
    cv2.imwrite(str(photo), np.zeros((480, 640, 3), np.uint8))
    folder = _a_folder_we_may_not_write_in(tmp_path)
    r = companion("read", str(photo), "--annotate", folder)
    assert r.returncode == 1 and r.stdout.startswith(f"{photo}: (no dice)")
    assert r.stderr.splitlines() == [f"companion: {os.path.join(folder, 'black-annotated.png')}: the annotated photo "
                                     "could not be written (no permission for that file)"]


LONG = "a" * 300  # longer than a file name may be: the system refuses even to look for it


@pytest.mark.parametrize("args", [("read", f"{LONG}.jpg"), ("--config", f"{LONG}.toml", "config"),
                                  ("teach", "d6", "--examples", LONG), ("read", "--annotate", LONG, "x.png")],
                         ids=["read", "config", "teach", "annotate"])
def test_a_path_the_system_refuses_to_look_at_is_one_line_not_a_traceback(args):
    r = companion(*args)
    assert r.returncode != 0 and r.stderr.startswith("companion: ") and "Traceback" not in r.stderr, r.stderr
    assert "File name too long" in r.stderr


def test_an_empty_set_name_and_a_transcript_in_another_encoding_are_said(tmp_path):
    r = companion("read", "--set", "", str(tmp_path / "x.png"))  # it read pip dice as though no set were named
    assert r.returncode == 2 and "no dice set called ''" in r.stderr
    script = tmp_path / "t.jsonl"
    script.write_bytes('{"action": "setup", "players": ["Jörg"]}\n'.encode("cp1252"))
    r = companion("play", "free-play", "--script", str(script))
    assert r.returncode == 2 and "not UTF-8 text" in r.stderr and "0xf6" not in r.stderr


def test_doctor_reports_every_part():
    r = companion("doctor")
    assert r.returncode == (1 if "  PROBLEM " in r.stdout else 0), r.stderr
    for section in ("Python and libraries", "Dice sets and taught dice", "Vision models", "Camera", "Buttons",
                    "Display", "Sound", "Speech"):
        assert section in r.stdout
    # the shipped models load (a missing one would silently mean the classical fallbacks)
    assert "ok      pip dice detector" in r.stdout and "ok      taught dice top-face finder" in r.stdout
    assert "ok      taught dice side-view finder: top_face_oblique.onnx" in r.stdout
    assert "ok      taught dice detector: any_dice_net.onnx" in r.stdout
    from vision.inference import engine_name

    assert "engine: " in r.stdout
    if engine_name() == "onnxruntime":  # the faster engine is used where it is installed
        assert "ok      engine: onnxruntime" in r.stdout
    # one language throughout, whatever the table's (the default config is German): the sound and speech lines
    # were German among English ones
    sound_and_speech = r.stdout[r.stdout.index("\nSound\n"):]
    assert not any(word in sound_and_speech for word in ("Ton:", "Sprache:", "gefunden", "Stimme"))


def test_run_headless_shows_free_play_reading_the_synthetic_tray(tmp_path, out_dir):
    shot = out_dir / "companion_run.png"
    r = subprocess.run([sys.executable, "-m", "companion", "run", "--source", "synthetic:5", "--window",
                        "--frames", "90", "--screenshot", str(shot)], capture_output=True, text=True, timeout=120,
                       env={**__import__("os").environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    assert r.returncode == 0, r.stderr
    img = cv2.imread(str(shot))
    assert img.shape == (480, 800, 3)
    # the synthetic tray's dice came to rest and were read: white die bodies in the dice row
    row = img[80:190, 20:780]
    assert (row.min(axis=2) > 220).mean() > 0.05


def test_teach_from_examples_then_read_the_set_on_the_command_line(tmp_path):
    import os

    from synth_dice import painter_for

    from hardware.synthetic import render_tray

    folder = tmp_path / "examples"
    folder.mkdir()
    rng = np.random.default_rng(5)
    faces = ["red", "orange", "yellow", "green", "blue", "white"]
    rows = ["image,face,x_min,y_min,x_max,y_max"]
    for i, face in enumerate(faces * 2):
        frame, truth = render_tray(rng, faces=[face], painter=painter_for("fritzo"))
        cv2.imwrite(str(folder / f"ex{i}.jpg"), frame)
        h, w = frame.shape[:2]
        x0, y0, x1, y1 = truth[0].box
        rows.append(f"ex{i}.jpg,{face},{x0 / w:.4f},{y0 / h:.4f},{x1 / w:.4f},{y1 / h:.4f}")
    (folder / "labels.csv").write_text("\n".join(rows) + "\n")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYGAME_HIDE_SUPPORT_PROMPT": "1"}

    def run(*args, data=None):
        return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True,
                              env={**env, "XDG_DATA_HOME": data} if data else env, timeout=120)

    (tmp_path / "a-file").write_text("")  # a data folder that cannot be: a card gone read-only or full does alike
    refused = run("teach", "fritzo", "--examples", str(folder), data=str(tmp_path / "a-file"))
    assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr
    assert "a-file" in refused.stderr and ("nothing was taught" in refused.stderr or "nichts" in refused.stderr)

    before = run("read", "--set", "fritzo", str(folder / "ex0.jpg"))
    assert before.returncode == 2 and "companion teach fritzo" in before.stderr  # not taught yet: says what to do
    taught = run("teach", "fritzo", "--examples", str(folder))
    assert taught.returncode == 0, taught.stderr
    assert "6/6" in taught.stdout
    photo = tmp_path / "tray.png"
    frame, _ = render_tray(rng, n_dice=2, painter=painter_for("fritzo"), face_choices=faces)
    cv2.imwrite(str(photo), frame)
    read = run("read", "--set", "fritzo", str(photo), "--json")
    assert read.returncode == 0, read.stderr
    line = json.loads(read.stdout)
    assert line["image"] == str(photo) and len(line["dice"]) >= 1
    for die in line["dice"]:
        assert die["face"] is None or die["face"] in faces
        assert 0 <= die["confidence"] <= 1 and len(die["box"]) == 4


def test_a_face_taught_for_pip_dice_is_read_on_the_command_line(tmp_path):
    """d6 needs no teaching, but a taught face (a die whose 6 is an emblem) replaces the pip reader's answer:
    ``companion read --set d6`` reads it as 6, where the pip reader alone sees no 6 (it ignored the taught face)."""
    import os

    from synth_dice import painter_for, write_examples

    from hardware.synthetic import render_tray

    write_examples(tmp_path / "examples", "d6", [6, 6], seed=81)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYGAME_HIDE_SUPPORT_PROMPT": "1"}

    def run(*args):
        return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, env=env,
                              timeout=120)

    photo = tmp_path / "tray.png"
    frame, _ = render_tray(np.random.default_rng(84), faces=[6, 2], painter=painter_for("d6"))
    cv2.imwrite(str(photo), frame)
    untaught = json.loads(run("read", "--set", "d6", str(photo), "--json").stdout)
    assert 6 not in [d["face"] for d in untaught["dice"]]
    taught = run("teach", "d6", "--examples", str(tmp_path / "examples"))
    assert taught.returncode == 0, taught.stderr
    read = run("read", "--set", "d6", str(photo), "--json")
    assert read.returncode == 0, read.stderr
    assert sorted(d["face"] for d in json.loads(read.stdout)["dice"]) == [2, 6]


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_run_stops_cleanly_on_sigterm_and_ctrl_c(tmp_path, sig):
    import os
    import signal
    import time

    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1",
           "XDG_STATE_HOME": str(tmp_path / "state"), "COMPANION_LOG": "INFO"}
    # Ctrl-C as a terminal delivers it: a test run started in the background (``pytest &``, nohup) inherits
    # SIGINT ignored from the shell, and the companion would rightly keep ignoring it
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--source", "synthetic:2", "--window"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    journal = tmp_path / "state" / "table-companion" / "current" / "journal.jsonl"
    deadline = time.monotonic() + 30
    while not journal.exists() and time.monotonic() < deadline:  # up and running: free play has started
        time.sleep(0.1)
    assert journal.exists()
    time.sleep(1.0)
    proc.send_signal(getattr(signal, sig))
    out, err = proc.communicate(timeout=15)
    assert proc.returncode in (0, 130), err
    assert "Traceback" not in err
    assert "camera closed" in err  # the camera was released on the way out


def test_no_screen_is_one_clear_line(tmp_path):
    import os

    env = {**os.environ, "SDL_VIDEODRIVER": "nonexistent", "XDG_STATE_HOME": str(tmp_path)}
    r = subprocess.run([sys.executable, "-m", "companion", "run", "--frames", "3"], capture_output=True, text=True,
                       env=env, timeout=60)
    assert r.returncode == 2 and "no screen to draw on" in r.stderr and "Traceback" not in r.stderr


def test_a_die_read_as_the_face_named_question_mark_is_told_from_one_not_read_for_sure():
    """Echt Spitze's "?" (any number) is a face the reader names for sure; a die it was not sure of was written
    "?" too, and a person checking a photo's line could not tell the two apart."""
    from companion.cli import reading_line
    from vision.types import DieReading, TrayReading

    box = (0, 0, 10, 10)
    dice = (DieReading("?", 1.0, box), DieReading(None, 0.2, box), DieReading("3+X", 0.9, box))
    assert reading_line("tray.jpg", TrayReading(dice), 25.4) == "tray.jpg: ? (?) 3+X   [3 dice, 1 not sure, 25 ms]"
    assert reading_line("a.jpg", TrayReading((DieReading(4, 1.0, box),)), 8) == "a.jpg: 4   [1 die, 8 ms]"
    assert reading_line("b.jpg", TrayReading(), 3) == "b.jpg: (no dice)   [0 dice, 3 ms]"


def test_teaching_the_fritzo_cubes_from_photos_says_how_they_are_taught(tmp_path):
    """The help names fritzo-cubes as a set to teach; with --examples it said there is no such dice set."""
    r = companion("teach", "fritzo-cubes", "--examples", str(tmp_path))
    assert r.returncode == 2 and "on the screen" in r.stderr and "companion teach fritzo --examples" in r.stderr


def test_ctrl_c_says_the_command_stopped(monkeypatch, capsys):
    """A silent stop on Ctrl-C was taken for a hang or a crash."""
    from companion import cli

    def interrupted(command, args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_command", interrupted)
    assert cli.main(["read", "x.jpg"]) == 130
    assert "read stopped (Ctrl-C)" in capsys.readouterr().err


def test_play_takes_a_transcript_saved_with_a_byte_order_mark(tmp_path):
    """Windows Notepad starts a UTF-8 file with a byte-order mark: the transcript was refused with "line 1: not
    valid JSON (Unexpected UTF-8 BOM ...)", where the config and labels.csv readers take it."""
    script = tmp_path / "t.jsonl"
    script.write_bytes(b"\xef\xbb\xbf" + b'{"action": "setup"}\n{"action": "roll", "dice": [6, 5]}\n')
    for r in (companion("play", "free-play", "--script", str(script), "--json"),
              companion("play", "free-play", "--script", "-", "--json", stdin=script.read_bytes().decode())):
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["final"] == {"rolls": [[6, 5]]}


def test_play_given_a_folder_or_no_name_as_the_transcript_says_so(tmp_path):
    """A folder was "a file or folder of that name is in the way"; an empty name was the current folder."""
    r = companion("play", "free-play", "--script", str(tmp_path))
    assert r.returncode == 2 and r.stderr == (f"companion: cannot read the transcript {tmp_path}: a folder, not a "
                                              f"transcript file; give the .jsonl file in it, e.g. "
                                              f"{tmp_path / 'journal.jsonl'}\n")
    r = companion("play", "free-play", "--script", "")
    assert r.returncode == 2 and r.stderr == ("companion: --script: an empty name was given (give the transcript "
                                              "file, or - for standard input)\n")


@pytest.mark.parametrize("args", [["run"], ["read", "x.png"], ["play", "free-play", "--script", "-", "--lang", "en"],
                                  ["teach", "d6", "--examples", "x"], ["config"], ["doctor"]],
                         ids=lambda args: args[0])
def test_config_is_taken_after_the_command_too_and_a_missing_one_is_said(tmp_path, args):
    """``companion run --config my.toml``, the order a volunteer types, was "unrecognized arguments"; ``read`` and
    ``play --lang`` passed over a --config that does not exist. Said in the table's language (``--lang``, else
    the standard one), as teaching says its own: it was English beside German teaching messages."""
    missing = str(tmp_path / "my.toml")
    lang = "en" if "--lang" in args else config.Config().language
    for order in ([*args, "--config", missing], ["--config", missing, *args]):
        r = companion(*order, stdin="")
        assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
        if args[0] == "doctor":  # the doctor's report (English, for whoever sets the table up) names it
            assert f"config file {missing} does not exist" in r.stdout
        else:
            assert f"companion: {t('core.config_cli_missing', lang, file=missing)}\n" == r.stderr


@pytest.mark.parametrize("text, lang, words", [
    ('language = "de"\n[sound]\nvolume = 150\n', "de",
     "Einstellungsdatei: sound.volume = 150 geht so nicht (eine ganze Zahl von 0 bis 100)."),
    ('language = "en"\nplayers = ["Mia", "mia"]\n', "en", 'Settings file: players = ["Mia", "mia"] is not allowed '
     '(“mia” is there twice).'),
    ('language = "de"\n"sound.volume" = 30\n', "de", 'Einstellungsdatei: "sound.volume" gibt es nicht.'),
    ('language = "de"\nplayers = ["Mia"\n[sound]\n', "de", "im Wert, der in Zeile 2 beginnt"),
])
def test_config_errors_on_the_command_line_are_said_in_the_files_language(tmp_path, text, lang, words):
    """``companion teach`` said its own mistakes in German and the config's in English; ``companion config`` (which
    the start's notice names to tell what is wrong) too."""
    path = tmp_path / "my.toml"
    path.write_text(text, encoding="utf-8")
    for args in (["config"], ["teach", "d6", "--examples", str(tmp_path)]):
        r = companion(*args, "--config", str(path))
        assert r.returncode == 2 and r.stderr.startswith("companion: ") and words in r.stderr, r.stderr
        assert "is not allowed;" not in r.stderr and "Traceback" not in r.stderr


def test_play_with_lang_needs_nothing_from_the_tables_config(tmp_path):
    """A mistake in the table's own config does not stop a transcript given its language (only a --config named is
    read then, and a missing one said)."""
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "table-companion" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[sound]\nvolume = 500\n", encoding="utf-8")
    script = tmp_path / "t.jsonl"
    script.write_text('{"action": "setup", "players": ["Anna"]}\n', encoding="utf-8")
    assert companion("play", "free-play", "--script", str(script), "--lang", "en").returncode == 0
    assert companion("play", "free-play", "--script", str(script)).returncode != 0  # its language is needed


def test_config_after_the_command_means_the_same_as_before_it(tmp_path):
    english, german = tmp_path / "en.toml", tmp_path / "de.toml"
    english.write_text('language = "en"\n', encoding="utf-8")
    german.write_text('language = "de"\n', encoding="utf-8")
    assert 'language = "en"' in companion("config", "--config", str(english)).stdout
    assert 'language = "de"' in companion("--config", str(german), "config").stdout
    assert 'language = "en"' in companion("--config", str(german), "config", "--config", str(english)).stdout


def test_read_given_an_empty_name_says_so(tmp_path):
    """``companion read ""`` said ": a folder, not a photo"; ``--annotate ""`` wrote no pictures and said nothing."""
    photo = tmp_path / "black.png"
    cv2.imwrite(str(photo), np.zeros((480, 640, 3), np.uint8))
    r = companion("read", "", str(photo))
    assert r.returncode == 1 and r.stdout.startswith(f"{photo}: (no dice)")
    assert r.stderr == "companion: an empty name was given, not a photo (give the photo's file name, e.g. tray.jpg)\n"
    r = companion("read", str(photo), "--annotate", "")
    assert r.returncode == 2 and r.stderr == ("companion: --annotate: an empty name was given (give the folder for "
                                              "the annotated photos, e.g. --annotate pictures)\n")


def test_doctor_exits_1_when_it_finds_a_problem(tmp_path):
    """It exited 0 beside "PROBLEM" lines: a script or a club's check took the table for ready."""
    path = tmp_path / "config.toml"
    path.write_text('[games."haste-worte"]\nletters = 5\n', encoding="utf-8")
    r = companion("doctor", "--config", str(path))
    assert r.returncode == 1 and "  PROBLEM config: games.haste-worte.letters = 5" in r.stdout, r.stdout + r.stderr
