"""Dice sets: the built-in ones carry the face names the games expect; bad files give clear errors."""

from __future__ import annotations

import pytest

from companion import dicesets
from companion.dicesets import DiceSetError


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    return tmp_path


def test_builtin_sets_have_the_projects_face_names():
    assert dicesets.builtin_names() == ["d6", "echt-spitze", "fritzo", "haste-worte", "noch-x-mal"]
    echt = dicesets.load("echt-spitze")
    assert echt.face_names() == ["1", "2", "3", "4", "5", "?"] and echt.n_dice == 6
    assert echt.accepts("3+X") and echt.accepts("?+X") and not echt.accepts("6")
    nxm = dicesets.load("noch-x-mal")
    assert nxm.n_dice == 6
    assert nxm.face_names() == ["red", "orange", "yellow", "green", "blue", "color-joker",
                                "1", "2", "3", "4", "5", "number-joker"]
    assert nxm.kind_of("red") == "colour" and nxm.kind_of("number-joker") == "numeral"
    haste = dicesets.load("haste-worte")
    assert len(haste.face_names()) == 11 and haste.accepts("moon") and not haste.accepts("Moon")
    assert dicesets.load("fritzo").face_names() == ["red", "orange", "yellow", "green", "blue", "white"]
    d6 = dicesets.load("d6")
    assert d6.reader == "pips" and d6.value("6") == 6 and nxm.value("3") == "3"


def test_user_copy_replaces_the_builtin_set(data_home):
    path = dicesets.make_user_copy("fritzo")
    assert path == data_home / "table-companion" / "dicesets" / "fritzo.toml"
    path.write_text(path.read_text().replace('"white"', '"purple"') + '[colours.purple]\nrgb = "#8040a0"\n'
                    'pattern = "grid"\n')
    ds = dicesets.load("fritzo")
    assert ds.face_names()[-1] == "purple" and ds.colours["purple"] == ("#8040a0", "grid")


@pytest.mark.parametrize("text, words", [
    ('name = "x"\n[[dice]]\nkind = "emoji"\ncount = 1\nfaces = ["a"]\n', ["kind", "emoji", "numeral"]),
    ('name = "x"\n[[dice]]\nkind = "colour"\ncount = 0\nfaces = ["a"]\n', ["count", "1 to 30"]),
    ('name = "x"\n[[dice]]\nkind = "colour"\nfaces = ["red", "red"]\n', ["red", "twice"]),
    ('name = "x"\n[[dice]]\nkind = "colour"\nfaces = ["Red"]\n', ["Red", "lowercase"]),
    ('name = "x"\n', ["[[dice]]"]),
    ('name = "x\n', ["TOML"]),
    ('name = "x"\nmarks = ["X"]\n[[dice]]\nkind = "numeral"\nfaces = ["1"]\n', ["marks", "+"]),
    ('name = "x"\n[[dice]]\nkind = "colour"\nfaces = ["red"]\n[colours.red]\nrgb = "red"\n', ["rgb", "#d62828"]),
    ('name = "x"\ncolours = 5\n[[dice]]\nkind = "colour"\nfaces = ["red"]\n', ["colours", "[colours.red]"]),
    ('name = "x"\nreeder = "pips"\n[[dice]]\nkind = "pips"\nfaces = ["1"]\n', ["reeder", "reader"]),
    ('name = "x"\n[[dice]]\nkind = "pips"\ncuont = 20\nfaces = ["1"]\n', ["cuont", "count"]),
])
def test_bad_set_files_name_the_problem(text, words):
    with pytest.raises(DiceSetError) as e:
        dicesets.parse(text, "my.toml")
    msg = str(e.value)
    assert "my.toml" in msg
    for w in words:
        assert w in msg


def test_unknown_set_lists_the_known_ones():
    with pytest.raises(DiceSetError, match="no dice set called 'yahtzee'.*noch-x-mal"):
        dicesets.load("yahtzee")


def test_user_copy_with_wrong_name_is_rejected(data_home):
    path = dicesets.make_user_copy("fritzo")
    path.write_text(path.read_text().replace('name = "fritzo"', 'name = "other"'))
    with pytest.raises(DiceSetError, match="name = 'other'"):
        dicesets.load("fritzo")
