"""A journal's lines are read with one JSON decoder: ``json.loads`` with ``parse_constant`` built a new decoder for
every line, two thirds of a resume's load once the replay was gone. What each line reads as must not change."""

from __future__ import annotations

import json
import os

import pytest

from companion import journal as journal_module
from companion.games.base import strict_json
from companion.games.free_play import FreePlay
from companion.journal import Journal
from companion.session import GameSession


def test_a_load_builds_no_decoder_per_line(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    session = GameSession.new(FreePlay, {"action": "setup"}, Journal(tmp_path))
    for n in range(60):
        assert session.apply({"action": "roll", "dice": [n % 6 + 1, 2]})
    built: list[object] = []

    class Counted(json.JSONDecoder):
        def __init__(self, *args, **kw):
            built.append(self)
            super().__init__(*args, **kw)

    monkeypatch.setattr(json, "JSONDecoder", Counted)
    saved = Journal(tmp_path).load()
    assert len(saved.actions) == 61
    assert len(built) <= 1  # (none: the module's; the old code built 62)


@pytest.mark.parametrize("line", [
    b'{"action":{"action":"roll","dice":[1,2]}}', '{"a": "Zoé 😀"}'.encode(), b'\xef\xbb\xbf{"a": 1}',
    '{"a": 1}'.encode("utf-16"), '{"a": 1}'.encode("utf-16-le"), '{"a": 1}'.encode("utf-32"), b'{"a": NaN}',
    b'{"a": Infinity}', b'{"a": 1.5e3, "b": null}', b'\0\0\0\0\0\0', b'{"a": "\xff"}', b'{"a": "\\ud800"}', b"",
    b"[1, 2", b'  {"a": 1}  ', b'{"a": 1} x',
])
def test_a_line_reads_as_json_loads_read_it(line):
    try:
        expected: object = json.loads(line, parse_constant=strict_json)
    except ValueError as exc:
        expected = type(exc)
    try:
        got: object = journal_module._parsed(line)
    except ValueError as exc:
        got = type(exc)
    assert got == expected
