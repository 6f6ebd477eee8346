"""User errors: each kind has its own class and a message a player understands (what was wrong, what to do).

The app shows ``str(error)`` on the screen or the terminal; it never shows a traceback for these.
"""


class CompanionError(Exception):
    """Base of every error whose message is meant for the player."""


class ConfigError(CompanionError):
    """A config value is wrong: the message names the key, the value and what is allowed. ``key`` (the bad key) or
    ``line`` (of a file that is not TOML) alone, for a screen that has room for little more; ``error``: why a file
    that is there could not be read (a folder in its place, the card), said in the table's words."""

    def __init__(self, message: str, key: str = "", line: int = 0, error: OSError | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.line = line
        self.error = error


class JournalError(CompanionError):
    """A saved game cannot be read; the bad file has been kept aside as ``aside`` (a file name; "" when it was
    not: a game that could not be replayed is set aside by whoever tried)."""

    def __init__(self, message: str, aside: str = "") -> None:
        super().__init__(message)
        self.aside = aside


class SourceError(CompanionError):
    """A camera or photo source cannot be opened or read. The message is English, for the terminal and the log;
    ``words`` (a catalog key) and ``params`` say it on a screen in the table's language (``i18n.said``): a German
    table read "Kamera-Problem: The camera cam:0 stopped sending pictures"."""

    def __init__(self, message: str, words: str = "", **params: object) -> None:
        super().__init__(message)
        self.words = words
        self.params = params


class ProfileError(CompanionError):
    """A taught dice profile or dice set is missing or corrupt."""


class DiceSetError(ProfileError):
    """A dice set file is missing or wrong: the message names the file, the entry and what is allowed. It is English,
    for the terminal and the log; ``words`` (a catalog key) and ``params`` say it on a screen in the table's
    language (``i18n.said``): a German table read "Die Würfelsatz-Datei lässt sich nicht verwenden. Dice set …"."""

    def __init__(self, message: str, words: str = "", **params: object) -> None:
        super().__init__(message)
        self.words = words
        self.params = params


class ProfileDamaged(ProfileError):
    """A stored profile could not be used and was kept aside as ``aside`` (a file name): the table must be told,
    or a damaged teaching would look like dice never taught."""

    def __init__(self, message: str, set_name: str, aside: str) -> None:
        super().__init__(message)
        self.set_name = set_name
        self.aside = aside


class ProfileUnreadable(ProfileError):
    """A stored profile is there but cannot be read (the card failing, a folder in its place, no permission): not
    "never taught", which sent the table to teach dice whose teaching could not be kept either. ``error``: why."""

    def __init__(self, message: str, set_name: str, error: OSError) -> None:
        super().__init__(message)
        self.set_name = set_name
        self.error = error


class ImageError(CompanionError):
    """A file given to the reader is not an image that can be read."""
