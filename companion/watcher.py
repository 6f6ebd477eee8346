"""Watches the tray off the UI thread: frames in, dice readings out, so vision never stalls the screen.

The at-rest trigger decides when the dice lie still; a reading is handed to the app when a player asked for one
(ROLL) or, in modes that want it (free play), whenever the dice come to rest after moving.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np

from companion.errors import SourceError
from vision.light import light_of, unlit
from vision.types import TrayReading

if TYPE_CHECKING:
    from hardware.sources import CameraLookout, FrameSource

log = logging.getLogger(__name__)

Reader = Callable[[np.ndarray], TrayReading]

#: seconds after ROLL before the screen says why no reading has come (dice thrown settle within about two)
WAIT_HINT = 5.0
#: seconds without a frame that mean the camera sends nothing
NO_FRAMES = 2.0


@dataclass(frozen=True)
class TrayMotion:
    """What the tray does as the watcher saw it last: a screen that reads every rest (free play) shows a read on its
    way when the dice are thrown without ROLL, not only after it.

    ``state``: "moving" (dice rolling, a hand, a shadow), "hand" (a hand held still in the tray), "settling" (still,
    being read), "still" (read, nothing moved since; also when no frame came for ``NO_FRAMES``). ``moved``: seconds
    of motion or a hand since the tray was last read (a hand passing over it is a fifth of one, a throw a second or
    more). ``since``: when the tray last turned still, or unread (clock seconds)."""

    state: Literal["moving", "hand", "settling", "still"]
    moved: float = 0.0
    since: float = 0.0

    @property
    def unread(self) -> bool:
        """The tray is not read as it lies: a reading comes once it lies still."""
        return self.state != "still"


class DiceWatcher:
    def __init__(self, source, reader: Reader, *, still_seconds: float = 0.6,
                 clock: Callable[[], float] = time.monotonic) -> None:
        from vision.rest import AtRestTrigger

        self.source = source
        self.clock = clock
        self._reader = reader
        self._trigger = AtRestTrigger(still_seconds=still_seconds, reader=self._read)
        self.readings: queue.Queue[TrayReading] = queue.Queue()
        #: deliver every rest (free play reads whenever the dice settle), not only after ROLL
        self.auto = True
        #: with ``auto``: a rest reached through the hand timeout (a hand held still over a die) is no rest, for a
        #: screen where a die missing from the tray is one taken (Echt Spitze's take phase). Off by default: free
        #: play and the camera check read the throw a cup left at the tray's edge, or their trigger never fires again
        self.skip_hand_rests = False
        self._want = False
        self._roll = False
        #: a reading wanted of the dice ROLL throws: wanted (``_want``) only once the throw is carried out
        self._want_thrown = False
        self._rearm = False
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.latest_frame: np.ndarray | None = None
        #: throws carried out (``throw``, ``request``), each counted once ``latest_frame`` is a frame taken after it:
        #: a screen comparing frames (teaching) starts afresh then, not on a frame of the dice before
        self.thrown = 0
        self._thrown_unseen = False
        self.last_rest: TrayReading | None = None
        self.last_rest_frame: np.ndarray | None = None  # the frame of that rest: a corrected die is cut from it
        self.error: str | None = None
        self.failure: Exception | None = None  # the error itself: said in the table's language (``i18n.said``)
        #: when ROLL asked for a reading not yet delivered, and when the last frame came (clock seconds): a table
        #: waiting long wants to know why (``why_waiting``)
        self.wanted_since: float | None = None
        self.last_frame_at: float | None = None
        #: looks for a camera while the dice come from the built-in tray (``auto`` found none at the start); the
        #: watcher moves to the first it finds (``source`` changes: the app tells the table)
        self.lookout: CameraLookout | None = None
        #: the tray as the last frame showed it (replaced whole, so the app reads it in one piece: ``tray``)
        self._tray = TrayMotion("still")
        #: the last rest wanted was too dark to read (``vision.light.unlit``): held back until the light is back
        self.dark = False
        self._lit: float | None = None  # how bright the last rest read in good light was (``vision.light.unlit``)
        self._reconnects = getattr(source, "reconnects", 0)  # the camera's reconnects seen (``Camera.reconnects``)
        #: the sources (and lookouts) the app asked to read from instead (``use``), in the order asked, each taken up
        #: by the watcher's thread and dropped from here once read from: handed over under ``_use_lock``, so a second
        #: ``use`` while the thread takes up the first is not lost (its tray never closed)
        self._uses: list[tuple[FrameSource, CameraLookout | None]] = []
        self._use_lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="dice-watcher", daemon=True)

    def _read(self, frame: np.ndarray) -> TrayReading:
        with self._lock:
            reader = self._reader
        return reader(frame)

    def set_reader(self, reader: Reader) -> None:
        with self._lock:
            self._reader = reader

    def start(self) -> DiceWatcher:
        self._thread.start()
        return self

    def request(self, *, roll: bool = True) -> None:
        """A player pressed ROLL: throw the synthetic dice / advance a replay, then deliver the next still reading.

        With a live camera (its roll does nothing) whose tray already lies still (dice thrown before the press), the
        dice are read once they have lain still ``still_seconds`` from here, without waiting for motion that will
        not come.

        Pressed again while its reading is awaited (a child pressing ROLL every second until the dice are read), the
        wait runs on: each press started the wait for rest afresh (and threw the built-in tray's dice again), so
        presses quicker than the dice settle never got a reading, and "why no reading" came later with each.
        """
        if self.wanted_since is not None and (self._want or self._want_thrown):
            return
        self.wanted_since = self.clock()
        if roll:
            # wanted once thrown: wanted here, a frame of the old dice the watcher was reading meanwhile found the
            # want and handed over the old rest as this throw (seen once in an evening's 25 ROLLs on the built-in
            # tray: the game played the dice before). Set before the throw is, so it is never missed.
            self._want_thrown = True
            self._roll = True
        else:
            self._want = True

    def why_waiting(self, now: float) -> str | None:
        """Why a reading asked for ``WAIT_HINT`` s ago has not come: ``"no_frames"`` (the camera sends nothing: a Pi
        camera hangs rather than fail), ``"dark"`` (the tray at rest too dark to read: a lamp off), ``"hand"`` (one
        still in the tray), ``"moving"`` (a die still rolling, a hand, a moving shadow or screen in view); None while
        it is not late, or when the tray is still (the reading is on its way)."""
        since = self.wanted_since
        if since is None or now - since < WAIT_HINT:
            return None
        if self.last_frame_at is None or now - self.last_frame_at > NO_FRAMES:
            return "no_frames"
        if self.dark:  # before moving: a dark picture's noise may look like motion
            return "dark"
        if self._trigger.moving:  # first: the trigger judges a hand on still frames only
            return "moving"
        return "hand" if self._trigger.hand_seen else None

    def tray(self, now: float) -> TrayMotion:
        """The tray as last seen (``TrayMotion``); still when the camera sends nothing (a hung camera's last
        frames said nothing of what the tray does now)."""
        if self.last_frame_at is None:
            return TrayMotion("still", since=now)
        if now - self.last_frame_at > NO_FRAMES:
            return TrayMotion("still", since=self.last_frame_at + NO_FRAMES)
        return self._tray

    def _saw(self, now: float, *, read: bool, dt: float) -> None:
        """The tray's state after a frame fed to the trigger at ``now`` (``dt`` after the one before); ``read``:
        that frame gave a reading. Before the reading is handed over: once handed over, the tray is still."""
        trigger, before = self._trigger, self._tray
        if read or not trigger.armed:
            state = "still"
        else:
            state = "moving" if trigger.moving else "hand" if trigger.hand_seen else "settling"
        moved = 0.0 if state == "still" else before.moved + (dt if state in ("moving", "hand") else 0.0)
        since = before.since if (state == "still") == (before.state == "still") else now
        self._tray = TrayMotion(state, moved, since)

    def cancel(self) -> None:
        """Forget a reading asked for and not delivered (the game it was for was left): it must not arrive in the
        next game as a throw nobody made there."""
        self._want = self._want_thrown = False
        self.wanted_since = None

    @property
    def rolls(self) -> bool:
        """Whether ROLL changes the dice seen (the built-in tray throws, a folder shows its next photo); a camera's
        dice are thrown by hand."""
        from hardware.sources import FrameSource

        return type(self.source).roll is not FrameSource.roll

    def rearm(self) -> None:
        """Read the tray again at its next rest even if it has not moved (a screen that just opened wants a reading
        of what lies there now, with its own reader)."""
        self._rearm = True

    def throw(self) -> None:
        """ROLL on a teaching screen: throw the synthetic dice / advance a replay (a camera's dice are turned by
        hand), wanting no reading: teaching takes its dice from the frames."""
        self._roll = True

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2.0)

    def _switch(self, source: FrameSource) -> None:
        """Read from ``source`` from now on (a camera found by the lookout); the tray it replaces is closed."""
        old, self.source, self.lookout = self.source, source, None
        self._trigger.reset()  # the camera's first rest decides, not one of the virtual dice
        self.last_rest = self.last_rest_frame = None
        self.latest_frame = None
        self._lit = None  # another camera's light: its dice read in a dark picture are no lamp switched off
        self._reconnects = getattr(source, "reconnects", 0)  # (the old source's count is no reconnect of this one)
        self._thrown_unseen = True  # a new tray for a screen comparing frames (teaching): not a hand over the old
        while not self.readings.empty():  # the virtual dice's readings not yet handed over are of no table
            self.readings.get_nowait()
        try:
            old.close()
        except Exception:  # the built-in tray has nothing to fail; whatever it was, the camera is read all the same
            log.exception("closing %s", getattr(old, "description", old))
        log.info("camera found: reading the dice from %s", getattr(source, "description", source))

    def use(self, source: FrameSource, lookout: CameraLookout | None = None) -> None:
        """Read from ``source`` from now on, looking out with ``lookout`` (the table went on without a camera that
        stopped): switched by the watcher's own thread at its next turn, never under a read or a rest being judged."""
        with self._use_lock:
            self._uses.append((source, lookout))

    @property
    def switching(self) -> bool:
        """A source asked for (``use``) is not read from yet: the watcher's thread may be held up by a dead camera's
        retries meanwhile, and the table must not be offered to go on without it a second time."""
        with self._use_lock:
            return bool(self._uses)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with self._use_lock:
                    use = self._uses[0] if self._uses else None
                if use is not None:
                    self._switch(use[0])
                    self.lookout = use[1]
                    with self._use_lock:  # switching until read from: the offer stays withdrawn meanwhile
                        self._uses.pop(0)
                if self.lookout is not None and (found := self.lookout.poll()) is not None:
                    self._switch(found)
                if self._roll:
                    self._roll = False
                    self.source.roll()
                    self._thrown_unseen = True
                    if self.rolls:
                        self._trigger.reset()  # the next frames show new dice: wait for them to settle
                    else:
                        # a camera's dice lie as the hand threw them: wait for a still spell from here, but keep the
                        # quiet tray a hand still in it is told by (``restart``), or that hand is read as the dice
                        self._trigger.restart()
                    if self._want_thrown:  # wanted first, so that a press meanwhile sees a reading awaited
                        self._want, self._want_thrown = True, False
                if self._rearm:
                    self._rearm = False
                    self._trigger.reset()
                frame = self.source.read()
                if frame is None:
                    time.sleep(0.01)
                    continue
                now, before = self.clock(), self.last_frame_at
                self.latest_frame, self.last_frame_at = frame, now
                if self._thrown_unseen:
                    self._thrown_unseen = False
                    self.thrown += 1
                if (back := getattr(self.source, "reconnects", 0)) != self._reconnects:
                    # the camera is back after a reconnect: readings from before it went must not be combined with
                    # its first frames (exposure still ramping), nor the rest fire at once; the quiet tray is kept
                    self._reconnects = back
                    self._trigger.restart()
                reading = self._trigger.feed(frame, now)
                self._saw(now, read=reading is not None, dt=0.0 if before is None else now - before)
                if reading is not None and (self._want or self.auto) and (light := unlit(frame, reading, self._lit)):
                    # the lamp switched off: no dice seen is no throw. Kept asked for, read again once light
                    reading, self.dark = None, light == "dark"
                    self._trigger.restart()
                elif reading is not None:
                    self.dark = False
                    if unlit(frame, reading, self._lit) != "dark":  # a rest nobody asked for in the dark (dice
                        self._lit = light_of(frame)  # moved between turns) is no measure of good light: the next
                        # ROLL's dark rest then passed as the throw
                if reading is not None:
                    self.last_rest, self.last_rest_frame = reading, frame
                    # a rest reached through the hand timeout (a hand held still over a die) is no rest to a screen
                    # where a missing die is a die taken (``skip_hand_rests``: a take phase took the die under it);
                    # a ROLL's is read as it always was, and so is every rest on a screen that only reads: a cup put
                    # down at the edge must not keep the throw unread, and the game checks the dice
                    if self._want or (self.auto and not (self.skip_hand_rests and self._trigger.hand_rest)):
                        self._want, self.wanted_since = False, None
                        self.readings.put(reading)
                elif self._want and not self._trigger.armed and self.last_rest is not None:
                    self._want, self.wanted_since = False, None
                    self.readings.put(self.last_rest)
                self.error = self.failure = None
            except Exception as exc:  # a camera hiccup must not kill the watcher; the screen says what happened
                self.error, self.failure = str(exc), exc
                if isinstance(exc, SourceError):  # an unplugged camera: looked for again by the source
                    log.warning("dice watcher: %s", exc)
                else:
                    log.exception("dice watcher")
                time.sleep(0.2)
