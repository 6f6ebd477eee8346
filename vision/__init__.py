"""Pure image code on numpy arrays: find dice, read their faces, decide when the tray is at rest.

Knows OpenCV and numpy only: no pygame, no gpiozero, no clock of its own (callers pass timestamps).
"""
