"""The edge to physical things: frame sources (cameras, replays, the synthetic tray) and the GPIO buttons."""
