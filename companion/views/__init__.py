"""pygame-ce views: events in, ``update(dt)``, ``draw(surface)``. Designed at 800x480 and scaled."""
