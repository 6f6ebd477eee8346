"""The screens connected to the board, as the kernel's display driver lists them (``/sys/class/drm``).

Read without opening the screen: ``companion doctor`` runs beside a companion that holds it. What for: a portrait
panel (the Raspberry Pi Touch Display 2 is 720x1280) shows the landscape picture small in its middle until the
config turns it (``display.rotate``), and nothing else on the machine says which way the panel stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Panel:
    connector: str  # "DSI-1", "HDMI-A-1"
    width: int
    height: int

    @property
    def portrait(self) -> bool:
        return self.height > self.width


def connected_panels(drm: Path = Path("/sys/class/drm")) -> list[Panel]:
    """Each connected screen with its preferred (first) mode; [] where there is no such folder (not Linux, or no
    display driver)."""
    panels = []
    try:
        connectors = sorted(drm.iterdir())
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
