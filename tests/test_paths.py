"""``paths.short_path``: the one way a file or folder is named on a screen (the dice sets' and a refused folder's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import paths


@pytest.fixture
def home(monkeypatch) -> Path:
    there = Path("/home/anna")
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: there))
    return there


@pytest.mark.parametrize("given", [str, Path])
def test_what_lies_in_the_home_folder_is_named_from_tilde(home, given):
    assert paths.short_path(given(home / ".local/share/table-companion/dice/x.toml")) == (
        "~/.local/share/table-companion/dice/x.toml")


@pytest.mark.parametrize("path", ["/home/anna", "/home/annabel/x.toml", "/etc/x.toml", "dice/x.toml"])
def test_the_home_folder_itself_and_what_lies_outside_it_stay_as_they_are(home, path):
    assert paths.short_path(Path(path)) == path


def test_a_home_of_root_or_none_found_leaves_the_path_whole(monkeypatch):
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: Path("/")))
    assert paths.short_path("/srv/x.toml") == "/srv/x.toml"

    def nowhere(cls):
        raise RuntimeError("no home")

    monkeypatch.setattr(Path, "home", classmethod(nowhere))
    assert paths.short_path(Path("/home/anna/x.toml")) == "/home/anna/x.toml"


def test_a_refused_file_in_the_home_folder_names_the_home_folder_whole(home):
    """The refusal's folder named as the dice sets name theirs: the home folder itself read "~/." on the screen."""
    import errno

    from companion.i18n import refused_words

    words = refused_words(PermissionError(errno.EACCES, "Permission denied", str(home / "notes.toml")), "en")
    assert words is not None and words.count("/home/anna") == 2 and "~/." not in words  # the folder, the fix
