"""The companion's voice: every game's announcements become a banner, a chime and a spoken sentence, one at a
time.

Rules the table relies on:

- **Never two at once.** Announcements wait in a queue; the next starts only when the current one's sentence
  has been spoken (plus ``gap`` of quiet), so no sentence is cut off by the next, and a banner nobody hears
  (no sentence, sound off) stands for at least ``min_seconds`` so nobody has to read two at once. A sentence
  heard gives way at once to one waiting: the least banner time kept every short "Anna's turn" three seconds.
- **One chime a burst.** The chime says "listen now" to a quiet table: it rings before a sentence that comes
  after ``CHIME_AFTER_QUIET`` seconds of silence, not before each of the sentences following each other (a step
  said in three sentences cost three chimes, 2.7 s, and the turn's sentence came last). Other sounds (time's up,
  the countdown's tick) always play.
- **Urgent first.** An urgent announcement (time's up) goes before everything queued. If a normal one is
  showing, it is cut short and put back at the head of the queue (unless it was already fully heard), because
  time's up must be heard when the sand runs out, not five seconds later. It goes on after time's up from the
  sentence it was cut in, as one cut by a start does (it was said again whole: a table that had just heard most of
  it heard it all twice). A countdown's "ten seconds left" cut or still waiting is dropped then (heard after
  "time's up" it would be wrong).
- **A start is heard now.** A ``first`` announcement (the clock runs) goes ahead of what waits from earlier
  steps and cuts a sentence from an earlier step that is still playing: Fritzo's "the time runs" waited 8 s for a
  seven-second sentence while the clock ran. One about to end (``FIRST_WAITS_FOR``) is let end. The one cut is
  said after it from the sentence it was cut in (the last full stop's pause of its voice before the cut,
  ``PHRASE_PAUSE``), not again from its start: a table whose clock runs heard a whole sentence it had mostly heard
  a second before.
- **Never far behind the table.** A sentence takes four or five seconds with its chime; a table entering scores
  faster heard round 3's "Time's up" over round 5. One that has waited ``STALE_AFTER`` seconds is dropped when a
  later step's words wait behind it (the screen shows what it said), unless it is ``essential``: who won, who was
  first. Those are kept when a finished game is left too.
- **The app loop owns the clock.** ``update(now)`` is given the loop's monotonic time; nothing here reads a
  clock, so tests drive the queue with a fake one.
- **Silence is fine.** Without a sound device or espeak-ng (or when muted) announcements still show; their
  banner then stays up long enough to be read.

The sequence of one announcement on the voice channel: its sound (chime / time's-up) at ``started``, then the
sentence right after the sound ends. Speech is rendered on a worker thread as soon as the announcement is
queued, so it is normally ready by the time it is due; if it is not ready ``speech_wait`` seconds later the
sentence is skipped rather than letting the banner hang. """

from __future__ import annotations

import io
import logging
import wave
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pygame

from companion import sounds
from companion.announce import Announcement, Sound
from companion.audio import AudioOut, Channel, open_audio
from companion.errors import ConfigError
from companion.i18n import DEFAULT_LANGUAGE, LANGUAGES, t
from companion.speech import Speech
from companion.views import banner

log = logging.getLogger(__name__)

READING_WORDS_PER_SECOND = 2.5  # how long a silent banner stays: about the time it would take to say it


@dataclass
class Showing:
    """The announcement on screen now, and where it is in its chime-then-speech sequence."""

    announcement: Announcement
    text: str
    lang: str
    started: float
    queued: float = 0.0  # when it was announced (a ``first`` one cuts only what an earlier step queued)
    sound_seconds: float = 0.0
    speech_due: float | None = None  # when the sentence should start; None: this one is not spoken
    speech_started: float | None = None
    speech_seconds: float = 0.0
    ends: float | None = None  # None while the sentence is still being rendered
    hidden: bool = False  # tapped away: the sentence plays on, the screen under the banner is free
    rest_from: float = 0.0  # where its sentence goes on, seconds into it (cut by a start: the rest is said)
    speech_tail: float = 0.0  # the quiet after its last word (espeak-ng's 0.4 s): nothing is said in it
    taken_back: bool = False  # withdrawn while said: its voice ends at ``audio_end`` (the words begun), then it goes

    @property
    def urgent(self) -> bool:
        return self.announcement.urgent

    def heard(self, now: float, min_seconds: float) -> bool:
        """Whether everything of it has reached the table (then an interruption need not repeat it)."""
        if self.speech_due is not None:
            return self.speech_started is not None and now >= self.words_end()
        return now >= self.started + min_seconds

    def words_end(self) -> float:
        """When its last word has been said (the quiet after it, a part of its sound, not counted): a letter whose
        last word was said was cut by the sand's start in the quiet after it and said once more, ten seconds into
        the sand."""
        return self.audio_end() - (self.speech_tail if self.speech_started is not None else 0.0)

    def audio_end(self) -> float:
        """When its sound and sentence (as far as they play) end: the voice channel is quiet from then."""
        if self.speech_started is not None:
            return self.speech_started + self.speech_seconds
        return self.started + self.sound_seconds


def reading_seconds(text: str) -> float:
    return len(text.split()) / READING_WORDS_PER_SECOND


def check_volume(volume: object) -> int:
    if isinstance(volume, bool) or not isinstance(volume, int) or not 0 <= volume <= 100:
        raise ConfigError(t("core.error_volume", DEFAULT_LANGUAGE, value=repr(volume)))
    return volume


def check_language(lang: object) -> str:
    if lang not in LANGUAGES:
        raise ConfigError(t("core.error_language", DEFAULT_LANGUAGE, value=repr(lang),
                            allowed=", ".join(LANGUAGES)))
    return str(lang)


#: seconds a screen-only note (``speak=False``: "Anna takes the 5", an extra-cross reminder the screen also shows)
#: stands before an announcement waiting behind it takes its place. Each note took a whole banner's time in the
#: queue the spoken moments wait in: in Echt Spitze the table heard who was first with the lemons a minute late.
NOTE_OVERTAKEN_AFTER = 1.5
#: seconds a sentence may wait before the table has moved past it (two sentences' time): dropped when a newer one
#: waits behind it, unless essential
STALE_AFTER = 10.0
#: seconds of silence after which a sentence is rung in by its chime; sentences following each other closer than
#: this (a step's sentences, a queue worked through) are said without one. More than ``gap`` plus a frame.
CHIME_AFTER_QUIET = 1.5
#: seconds left of the sentence playing under which a ``first`` one waits for it rather than cutting it
FIRST_WAITS_FOR = 1.0
#: seconds of quiet in a rendered sentence that end one of its sentences (espeak-ng pauses 0.40-0.42 s at a full
#: stop, 0.21-0.31 s at a comma or colon, 0.14 s at most inside words). A rest taken up after a comma was heard alone:
#: "Startkombi von Anna-Sophie: Grün …", "Ben beginnt.", then "Grün 3.", which the table took for Ben's combo
PHRASE_PAUSE = 0.35
#: seconds of quiet that end a group of words (espeak-ng: 0.21 s and more at a comma, colon or full stop, 0.14 s at
#: most inside a word): a sentence taken back while it plays ends at the next one, not mid-word. Not at the next full
#: stop: a rolled list of six symbols is one six-second sentence, and the pick it was taken back for waited behind it
WORDS_PAUSE = 0.18
#: seconds before a pause's end from which the word after it counts as begun (a frame and a half at 30 fps)
WORD_BEGUN = 0.1
#: samples under this are quiet (espeak-ng's voice peaks near 10000, its pauses are digital silence)
QUIET_LEVEL = 200
#: the countdown's warning ("10 seconds left", sound TICK): stale once time's up is said
COUNTDOWN_KEY = "core.seconds_left"
#: a clock's warnings: their banner goes at their sentence's end, not after the least ``min_seconds``. "Noch 10
#: Sekunden!" stood 3 s, while the clock read 7, over Haste Worte's word limits; the clock shows the seconds itself
CLOCK_KEYS = (COUNTDOWN_KEY, "core.minute_left")
#: how many sentences ``said`` gives back at most (the few a table asks for again; the history keeps 20)
SAID_SHOWN = 5
#: how long before the first update what was announced before it counts as queued
BEFORE_FIRST_UPDATE = 0.001


def _samples(wav: bytes) -> tuple[np.ndarray, int]:
    """A rendered sentence's 16-bit samples and their rate: what the measures of its words below read."""
    with wave.open(io.BytesIO(wav), "rb") as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2"), w.getframerate()


def _loud(samples: np.ndarray) -> np.ndarray:
    """Where the samples are louder than the quiet between words (``QUIET_LEVEL``)."""
    return np.flatnonzero(np.abs(samples.astype(np.int32)) >= QUIET_LEVEL)


def phrase_start(wav: bytes, heard: float) -> float:
    """Where the phrase that was playing ``heard`` seconds into ``wav`` begins: the end of the last pause of at least
    ``PHRASE_PAUSE`` that began before then (0: cut in its first phrase, said whole). The quiet after the last word
    is no phrase's start."""
    samples, rate = _samples(wav)
    loud = _loud(samples)
    if len(loud) < 2:
        return 0.0
    gaps = np.flatnonzero(np.diff(loud) >= PHRASE_PAUSE * rate)  # a pause between loud[i] and loud[i + 1]
    begun = [loud[i + 1] / rate for i in gaps if loud[i] / rate < heard]
    return max(0.0, float(begun[-1]) - 0.05) if begun else 0.0  # (a word's soft onset is under QUIET_LEVEL)


def words_end(wav: bytes, heard: float) -> float:
    """Where the group of words playing ``heard`` seconds into ``wav`` ends: the start of the next pause of at least
    ``WORDS_PAUSE`` (``heard`` itself in one; the end of ``wav`` when none follows). "Carla: Obst & Ge–" stopped
    mid-word when Carla's pick was taken back by the next step, and the table never heard what she picked."""
    samples, rate = _samples(wav)
    end = len(samples) / rate
    loud = _loud(samples)
    if len(loud) < 2:
        return min(heard, end)
    gaps = np.flatnonzero(np.diff(loud) >= WORDS_PAUSE * rate)
    # pauses not yet over; one ending within a frame or two is over (stopped then, the next word's start was heard)
    after = [i for i in gaps if loud[i + 1] / rate > heard + WORD_BEGUN]
    if not after:
        return max(heard, min(end, loud[-1] / rate + 0.05))
    return max(heard, min(end, loud[after[0]] / rate + 0.05))  # (a word's soft end is under QUIET_LEVEL)


def quiet_tail(wav: bytes) -> float:
    """Seconds of quiet after the last word of ``wav`` (none known when it is quiet throughout)."""
    samples, rate = _samples(wav)
    loud = _loud(samples)
    end = len(samples) / rate
    return 0.0 if len(loud) == 0 else max(0.0, end - (loud[-1] / rate + 0.05))


def rest_of(wav: bytes, start: float) -> tuple[bytes, float]:
    """``wav`` from ``start`` seconds on, and its length."""
    samples, rate = _samples(wav)
    rest = samples[int(start * rate):]
    return sounds.wav_bytes(rest, rate), len(rest) / rate


def _drop(queue: deque[Announcement], gone: Callable[[Announcement], bool]) -> None:
    """Remove the waiting announcements ``gone`` picks from ``queue``, the rest kept in their order."""
    kept = [a for a in queue if not gone(a)]
    queue.clear()
    queue.extend(kept)


class Announcer:
    """Shows, chimes and speaks :class:`Announcement` s in turn.

    ``lang`` is the language of banners and speech, ``volume`` 0-100 and ``muted`` come from the config.
    ``audio`` defaults to the mixer (or silence when there is no sound device), ``speech`` to espeak-ng (or
    none). """

    def __init__(self, lang: str = DEFAULT_LANGUAGE, volume: int = 80, muted: bool = False, *,
                 audio: AudioOut | None = None, speech: Speech | None = None, min_seconds: float = 3.0,
                 gap: float = 0.2, speech_wait: float = 2.0, interrupt: bool = True, talk: str = "all") -> None:
        self._lang = check_language(lang)
        self._volume = check_volume(volume)
        self.muted = bool(muted)
        self.audio = audio if audio is not None else open_audio()
        self.speech = speech if speech is not None else Speech()
        self.min_seconds = min_seconds
        self.gap = gap
        self.speech_wait = speech_wait
        self.interrupt = interrupt
        #: "all", or "calls": ``detail`` announcements are left unsaid (shown as screen notes where they are shown;
        #: a refusal's low notes still play)
        self.talk = talk
        self._urgent: deque[Announcement] = deque()
        self._normal: deque[Announcement] = deque()
        self._current: Showing | None = None
        self._now = 0.0
        self._clock_known = False  # no update yet: what is announced now is stamped by the first update
        #: when the voice channel last went quiet (None: nothing played yet): a sentence after a pause is chimed in
        self._quiet_since: float | None = None
        #: when each waiting announcement was queued (by id, with the object itself: an id may be reused)
        self._queued_at: dict[int, tuple[float, Announcement]] = {}
        #: where the sentence of an announcement cut by a start goes on (seconds into it), by id with the object
        self._rest_from: dict[int, tuple[float, Announcement]] = {}
        #: a detail left to the screen with talk "calls" is a note, a copy: the game's own object, by the note's id,
        #: so that taking it back (``withdraw``) finds the note. Missed, Haste Worte's symbols stood on after the first
        #: pick, and the pick's sentence waited behind them till the next pick took it back unsaid
        self._notes: dict[int, tuple[Announcement, Announcement]] = {}
        #: where the "sound off" sign was drawn last (None: sound on): a finger switches the sound on there
        self.mute_rect: pygame.Rect | None = None
        self.history: list[tuple[float, Showing]] = []  # (ended, showing): the last few, for tests and logs

    # --- config ---------------------------------------------------------------------------------------------

    @property
    def lang(self) -> str:
        return self._lang

    @lang.setter
    def lang(self, lang: str) -> None:
        self._lang = check_language(lang)

    @property
    def volume(self) -> int:
        return self._volume

    @volume.setter
    def volume(self, volume: int) -> None:
        self._volume = check_volume(volume)

    @property
    def audible(self) -> bool:
        """Whether a sound played now would be heard (not muted, volume up, a sound device present)."""
        return not self.muted and self._volume > 0 and self.audio.available

    def toggle_mute(self) -> bool:
        """Mute or unmute (the app maps a long press of SELECT here); returns the new ``muted``.

        Muting stops what is playing at once: whoever presses it wants quiet now, the banner still shows.
        """
        self.muted = not self.muted
        if self.muted:
            self.audio.stop(Channel.VOICE)
            self.audio.stop(Channel.EFFECT)
        return self.muted

    # --- the queue ------------------------------------------------------------------------------------------

    def announce(self, announcement: Announcement) -> None:
        """Queue ``announcement``; it is shown by a later :meth:`update`. Starts rendering its sentence
        now."""
        if not isinstance(announcement, Announcement):
            raise TypeError(f"announce() takes an Announcement, not {type(announcement).__name__}")
        # the table asked for less talk: a detail is left to the screen, its banner shown as a note is (the take in
        # Echt Spitze stood on the screen before it was said, and must stay there); one the screen shows otherwise
        # (an undo's or a refusal's strip) goes. A refusal is still heard as refused: its low notes play
        if announcement.detail and self.talk == "calls":
            if announcement.sound not in (Sound.CHIME, Sound.NONE):
                self.play_sound(announcement.sound)
            if not announcement.shown:
                return
            note = replace(announcement, speak=False, sound=Sound.NONE)
            self._notes[id(note)] = (announcement, note)
            announcement = note
        # an earlier call still waiting is stale: the game has moved past it. The newer call takes its place in the
        # queue, not the back: put behind an essential sentence queued after the old call ("Zuerst: ..."), it was
        # dropped in turn by the next call before it was said, and a brisk Noch X-Mal! table heard nothing of roll 5
        replaces = next((i for i, a in enumerate(self._normal) if a.prompt), None) if announcement.prompt else None
        if announcement.prompt:
            _drop(self._normal, lambda a: a.prompt)
        if announcement.urgent:
            self._urgent.append(announcement)
            _drop(self._normal, lambda a: a.key == COUNTDOWN_KEY)  # "10 seconds left" after "time's up" is wrong
        elif announcement.first:
            self._cut_for_first()
            # ahead of what waits from earlier steps, with the sentences of its own step still before it: one TIMER
            # at Haste Worte's letter draws the letter and turns the sand, and the letter was heard after the sand
            now = [a for a in self._normal if self._queued_at.get(id(a), (None,))[0] == self._now]
            _drop(self._normal, lambda a: any(a is b for b in now))
            self._normal.extendleft(reversed([*now, announcement]))
        elif replaces is not None:
            self._normal.insert(replaces, announcement)
        else:
            self._normal.append(announcement)
        self._queued_at[id(announcement)] = (self._now, announcement)
        if announcement.speak and self.audible and self.speech.available:
            self.speech.request(self.text_of(announcement), self._lang)

    def _cut_for_first(self) -> None:
        """Stop a sentence from an earlier step for a ``first`` one (the clock's start), putting it back to be said
        after it from the sentence it was cut in, unless it was already heard. A sentence of the same step (the letter
        drawn by the same TIMER), an urgent or another start, or one about to end plays on."""
        cur, now = self._current, self._now
        if (cur is None or not self.interrupt or cur.urgent or cur.announcement.first or cur.queued >= now
                or (cur.speech_started is not None and cur.words_end() - now <= FIRST_WAITS_FOR)
                or (cur.speech_started is None and cur.ends is not None and cur.ends - now <= FIRST_WAITS_FOR)):
            return
        self.audio.stop(Channel.VOICE)
        if not (cur.heard(now, self.min_seconds) or cur.taken_back):
            self._put_back(cur, now)  # the start is put before it by announce()
        self._finish(now)

    def _put_back(self, cur: Showing, now: float) -> None:
        """Queue ``cur``, cut at ``now`` before it was heard, at the head, to go on from the sentence it was cut in
        (``phrase_start``) rather than from its start: what the table heard before the cut is not said twice."""
        self._normal.appendleft(cur.announcement)
        rendered = self.speech.result(cur.text, cur.lang) if cur.speech_started is not None else None
        if rendered is not None and rendered.wav is not None:
            heard = cur.rest_from + now - cur.speech_started
            self._rest_from[id(cur.announcement)] = (phrase_start(rendered.wav, heard) if heard > 0 else 0.0,
                                                     cur.announcement)

    def announce_all(self, announcements: Sequence[Announcement]) -> None:
        for a in announcements:
            self.announce(a)

    @property
    def current(self) -> Showing | None:
        """What the banner shows now (its ``text`` is in the chosen language), or None."""
        return self._current

    @property
    def queued(self) -> list[Announcement]:
        """Waiting announcements in the order they will be shown."""
        return [*self._urgent, *self._normal]

    @property
    def idle(self) -> bool:
        return self._current is None and not self._urgent and not self._normal

    def clear(self, keep_essential: bool = True, *, keep_current: bool = False) -> None:
        """Drop everything but the essential (a game left, a new one started): stale announcements about the last
        game would only confuse, but who won is heard (a table pressing on to the menu cut the winner off). A game
        left unfinished keeps nothing (``keep_essential`` False): its "first!" covered the next game's setup.
        ``keep_current``: the sentence playing ends as it is (not cut off mid-word), the others go."""
        for queue in (self._urgent, self._normal):
            _drop(queue, lambda a: not (keep_essential and a.essential))
        if keep_current:
            return
        if self._current is not None and not (keep_essential and self._current.announcement.essential):
            self._current = None
            self.audio.stop(Channel.VOICE)

    def withdraw(self, announcements: Sequence[Announcement]) -> None:
        """Take back these announcements (the very objects: an equal one from an earlier step stays) where they
        wait, and end the one showing if it is among them: their step was undone (a banner still saying "Ben gets
        3 crystals" over a screen that took them back had the table write down what was undone), or the table
        answered their call (``Announcement.until``). Its banner goes at once; a sentence being said ends at the end of
        the words it is in (``words_end``), the rest is dropped: stopped at once it broke off mid-word ("Ben: nimm
        einen Wü–"), and a pick said in the sentence a later pick took back was lost. One not yet begun goes
        unsaid."""
        ids = {id(a) for a in announcements}
        ids |= {note for note, (game_said, _) in self._notes.items() if id(game_said) in ids}
        for queue in (self._urgent, self._normal):
            _drop(queue, lambda a: id(a) in ids)
        cur = self._current
        if cur is None or id(cur.announcement) not in ids or cur.taken_back:
            return
        end = self._words_end(cur, self._now)
        if end is None:
            self.audio.stop(Channel.VOICE)
            self._finish(self._now)
            return
        cur.speech_seconds, cur.speech_tail, cur.taken_back, cur.hidden = end, 0.0, True, True
        cur.ends = cur.audio_end()

    def _words_end(self, cur: Showing, now: float) -> float | None:
        """Seconds into the sentence ``cur`` plays where the words being said end; None when none are being said
        (not begun, or over but for the quiet after them)."""
        if cur.speech_started is None or now >= cur.audio_end():
            return None
        rendered = self.speech.result(cur.text, cur.lang)
        if rendered is None or rendered.wav is None:
            return None
        heard = cur.rest_from + now - cur.speech_started
        return words_end(rendered.wav, heard) - cur.rest_from

    def hide_banner(self) -> None:
        """A finger tapped the banner: it covered what the player wanted to touch. The sentence plays on for the
        table (everybody must hear it); a silent note has nothing left and gives way to the next."""
        cur = self._current
        if cur is None:
            return
        if not cur.announcement.speak:
            self._finish(self._now)
        else:  # a sentence unheard (sound off, no speaker) still keeps its time: the next waits, as it would
            cur.hidden = True

    def update(self, now: float) -> None:
        """Advance the queue to ``now`` (the app loop's monotonic clock, in seconds). Call it every frame."""
        if not self._clock_known:  # announced before the first frame: just before it, not a whole clock's age ago
            self._clock_known = True  # (still a step before what is announced at the first frame's time)
            self._queued_at = {k: (now - BEFORE_FIRST_UPDATE, a) for k, (_, a) in self._queued_at.items()}
        self._now = now
        cur = self._current
        if cur is not None and cur.taken_back and now >= cur.audio_end():
            self.audio.stop(Channel.VOICE)  # its words said, the rest of the sentence is not
            self._finish(now)
            cur = None
        if cur is not None and self._urgent and not cur.urgent and self.interrupt:
            self.audio.stop(Channel.VOICE)
            if not (cur.heard(now, self.min_seconds) or cur.taken_back or cur.announcement.key == COUNTDOWN_KEY):
                self._put_back(cur, now)  # from the sentence it was cut in, as a start's cut (it was said whole)
            self._finish(now)
            cur = None
        if (cur is not None and not cur.announcement.speak and (self._urgent or self._normal)
                and now - cur.started >= NOTE_OVERTAKEN_AFTER):
            self._finish(now)  # a screen note gives way to what came after it
            cur = None
        if cur is not None:
            self._advance(cur, now)
            if (cur.ends is not None and now >= cur.ends) or self._heard_and_awaited(cur, now):
                self._finish(now)
                cur = None
        while len(self._normal) > 1 and not self._normal[0].speak:
            self._normal.popleft()  # a screen note overtaken before it showed: the game has moved past it
        if cur is None and len(self._normal) > 1:  # what the table did last always stays
            last_step = max(self._queued_time(a) for a in self._normal)
            _drop(self._normal, lambda a: self._stale(a, now, last_step))
        if cur is None and (self._urgent or self._normal):
            nxt = self._urgent.popleft() if self._urgent else self._normal.popleft()
            self._current = self._start(nxt, now)
            self._advance(self._current, now)

    def _heard_and_awaited(self, s: Showing, now: float) -> bool:
        """Its sentence was heard (and the gap after it passed) while another waits: the banner's least time is
        for reading one nobody hears, a heard one need not hold the next back."""
        return (bool(self._urgent or self._normal) and s.speech_started is not None
                and now >= s.audio_end() + self.gap)

    def _queued_time(self, a: Announcement) -> float:
        queued = self._queued_at.get(id(a))
        return queued[0] if queued is not None and queued[1] is a else self._now

    def _stale(self, a: Announcement, now: float, last_step: float) -> bool:
        """Waited too long, and the table has done something since (a later step's words wait behind it): the
        sentences of one step are all said, however many."""
        queued = self._queued_time(a)
        return not a.essential and now - queued > STALE_AFTER and queued < last_step

    def said(self, since: float = float("-inf"), most: int = SAID_SHOWN) -> list[Announcement]:
        """What the game said aloud since ``since`` (the loop's clock), newest first (the one showing now too), each
        sentence once, at most ``most``: a banner stood five seconds and a sentence was heard once, and a player who
        did not hear it had nothing to bring it back (``history`` kept it). Screen notes, the clock's warnings and
        the app's own calls (``shown`` False) are not among them."""
        showings = [s for _, s in reversed(self.history)]
        if self._current is not None:
            showings.insert(0, self._current)
        out: list[Announcement] = []
        seen: set[str] = set()
        for s in showings:
            a = s.announcement
            if s.started < since or not a.speak or not a.shown or a.key in CLOCK_KEYS:
                continue
            text = self.text_of(a)
            if text not in seen:
                seen.add(text)
                out.append(a)
            if len(out) >= most:
                break
        return out

    def play_sound(self, sound: Sound) -> None:
        """Play a sound outside the queue (the hourglass tick): it may sound under a banner, never under
        mute."""
        wav = sounds.sound_wav(Sound(sound))
        if wav is not None and self.audible:
            self.audio.play(wav, Channel.EFFECT, self._volume / 100)

    def text_of(self, announcement: Announcement) -> str:
        """The sentence in the chosen language. A catalog bug shows the key instead of crashing game night
        (the catalog tests are where such bugs are meant to be caught)."""
        try:
            return announcement.text(self._lang)
        except (KeyError, IndexError, ValueError):
            log.exception("announcement %s cannot be translated", announcement.key)
            return announcement.key

    def _start(self, a: Announcement, now: float) -> Showing:
        text = self.text_of(a)
        show = Showing(a, text, self._lang, now, queued=self._queued_time(a), hidden=not a.shown)
        rest = self._rest_from.pop(id(a), None)
        if rest is not None and rest[1] is a and rest[0] > 0:
            show.rest_from = rest[0]
        sound = a.sound
        if sound is Sound.CHIME and self._quiet_since is not None and now - self._quiet_since < CHIME_AFTER_QUIET:
            sound = Sound.NONE  # it follows a sentence without a pause: the table is listening already
        wav = sounds.sound_wav(sound) if self.audible else None
        if wav is not None:
            self.audio.play(wav, Channel.VOICE, self._volume / 100)
            show.sound_seconds = sounds.wav_duration(wav)
        if a.speak and self.audible and self.speech.available:
            self.speech.request(text, self._lang)  # a no-op when announce() already did (the usual case)
            show.speech_due = now + show.sound_seconds
        return show

    def _advance(self, s: Showing, now: float) -> None:
        if s.ends is not None:
            return
        if s.speech_due is not None and s.speech_started is None:
            rendered = self.speech.result(s.text, s.lang)
            if rendered is None and now < s.speech_due + self.speech_wait:
                return  # still rendering: keep the banner, decide later
            if rendered is not None and rendered.wav is not None and now < s.speech_due:
                return  # the chime is still ringing
            if rendered is not None and rendered.wav is not None and self.audible:
                wav, seconds = rendered.wav, rendered.seconds
                if s.rest_from > 0:  # cut by a start: its rest
                    wav, seconds = rest_of(wav, s.rest_from)
                self.audio.play(wav, Channel.VOICE, self._volume / 100)
                s.speech_started, s.speech_seconds = now, seconds
                s.speech_tail = quiet_tail(wav)
            else:
                s.speech_due = None  # failed, too late, or muted meanwhile: the banner carries it alone
        base = s.started + (0.0 if s.announcement.key in CLOCK_KEYS else self.min_seconds)
        if s.speech_started is not None:
            s.ends = max(base, s.audio_end() + self.gap)
        else:
            s.ends = max(base, s.started + max(s.sound_seconds, reading_seconds(s.text)) + self.gap)

    def _finish(self, now: float) -> None:
        if self._current is not None:
            self._quiet_since = min(now, self._current.audio_end())
            self.history.append((now, self._current))
            del self.history[:-20]
        self._current = None
        waiting = {id(a) for a in (*self._urgent, *self._normal)}
        self._queued_at = {k: v for k, v in self._queued_at.items() if k in waiting}  # only what still waits
        self._rest_from = {k: v for k, v in self._rest_from.items() if k in waiting}
        self._notes = {k: v for k, v in self._notes.items() if k in waiting}

    # --- drawing --------------------------------------------------------------------------------------------

    def remaining(self) -> float:
        """Share of the current banner's time still to run, 1..0 (1 while its length is not yet known)."""
        s = self._current
        if s is None or s.ends is None or s.ends <= s.started:
            return 1.0
        return max(0.0, min(1.0, (s.ends - self._now) / (s.ends - s.started)))

    def draw_banner(self, surface: pygame.Surface, avoid: pygame.Rect | None = None,
                    corners: Sequence[pygame.Rect] = (), spare: Sequence[pygame.Rect] = (),
                    room: pygame.Rect | Sequence[pygame.Rect] | None = None) -> pygame.Rect | None:
        """Draw the current banner clear of ``avoid`` (the hourglass) and of ``corners`` at the top, and of
        ``spare`` where it fits elsewhere, in ``room`` where it fits there (``banner.place``); returns its rect, None
        when nothing shows."""
        s = self._current
        if s is None or s.hidden:
            return None
        return banner.draw_banner(surface, s.text, urgent=s.urgent, remaining=self.remaining(),
                                  waiting=len(self._urgent) + len(self._normal), avoid=avoid, corners=corners,
                                  spare=spare, room=room)

    def draw_mute_indicator(self, surface: pygame.Surface,
                            avoid: Sequence[pygame.Rect] = ()) -> pygame.Rect | None:
        """The 'sound off' sign in a free corner while muted; None when sound is on."""
        if not self.muted:
            return None
        return banner.draw_mute_indicator(surface, t("core.sound_off", self._lang), avoid)

    def draw(self, surface: pygame.Surface, avoid: pygame.Rect | None = None,
             keep_clear: Sequence[pygame.Rect] = (), spare: Sequence[pygame.Rect] = (),
             room: pygame.Rect | Sequence[pygame.Rect] | None = None) -> pygame.Rect | None:
        """Everything the announcer puts on screen: call it last in the frame, after the mode has drawn.
        ``keep_clear``: what the banner at the top and the 'sound off' sign must not cover (the game's menu
        corner); ``spare``: what the banner covers only where it fits nowhere else (the dice just thrown);
        ``room``: where the screen would have it stand, where it fits. Returns the banner's rect (None when none
        shows), for a notice to stand clear of it."""
        drawn = self.draw_banner(surface, avoid, keep_clear, spare, room)
        # the sign is small and fits a corner clear of what the table looks at too (the teaching's count of faces)
        self.mute_rect = self.draw_mute_indicator(surface, [r for r in (avoid, drawn, *keep_clear, *spare)
                                                            if r is not None])
        return drawn

    def close(self) -> None:
        self.speech.close()
        self.audio.close()
