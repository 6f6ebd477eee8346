"""The screens connected to the board, as the kernel's display driver lists them (``/sys/class/drm``).

Read without opening the screen: ``companion doctor`` runs beside a companion that holds it. What for: a portrait
panel (the Raspberry Pi Touch Display 2 is 720x1280) shows the landscape picture small in its middle until the
config turns it (``display.rotate``), and nothing else on the machine says which way the panel stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: where the kernel lists its display devices and their connectors ("card1-DSI-1/status"); a constant for tests
DRM_ROOT = Path("/sys/class/drm")


@dataclass(frozen=True)
class Panel:
    connector: str  # "DSI-1", "HDMI-A-1"
    width: int
    height: int

    @property
    def portrait(self) -> bool:
        return self.height > self.width


def connected_panels(drm: Path | None = None) -> list[Panel]:
    """Each connected screen with its preferred (first) mode; [] where there is no such folder (not Linux, or no
    display driver)."""
    panels = []
    try:
        connectors = sorted((drm or DRM_ROOT).iterdir())
    except OSError:
        return []
    for c in connectors:
        try:
            if (c / "status").read_text().strip() != "connected":
                continue
            first = (c / "modes").read_text().split()
        except OSError:
            continue
        width, _, height = first[0].partition("x") if first else ("", "", "")
        if width.isdigit() and height.rstrip("i").isdigit():
            panels.append(Panel(c.name.split("-", 1)[-1], int(width), int(height.rstrip("i"))))
    return panels


def screen_card(drm: Path | None = None) -> tuple[int, str] | None:
    """The DRM card (``/dev/dri/cardN``) the kiosk should draw on, and its connected connector; None where that is
    not clear (no screen connected, or several cards with screens and none of them a DSI panel).

    On a Pi 5 the 7" panel is a display device of its own (drm-rp1-dsi) beside the HDMI one (vc4) and the GPU (v3d),
    and their numbers change from boot to boot: SDL's KMSDRM, left to guess, may fail to open any and the kiosk
    shows nothing (libsdl-org/SDL#13705). One card with a screen is that card; of several, the DSI panel's.
    """
    cards: dict[int, list[str]] = {}
    try:
        connectors = sorted((drm or DRM_ROOT).glob("card*-*"))
    except OSError:
        return None
    for c in connectors:
        card, _, connector = c.name.partition("-")
        if not card[4:].isdigit():
            continue
        try:
            if (c / "status").read_text().strip() != "connected":
                continue
        except OSError:
            continue
        cards.setdefault(int(card[4:]), []).append(connector)
    if len(cards) == 1:
        ((n, found),) = cards.items()
        return n, found[0]
    dsi = [(n, c) for n, found in cards.items() for c in found if c.startswith("DSI")]
    return dsi[0] if len({n for n, _ in dsi}) == 1 else None
