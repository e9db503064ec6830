"""Screens and widgets drawn on the OLED's 128×64 1-bit frame."""
from companion.ui.draw import HEIGHT, WIDTH, new_frame

__all__ = ["WIDTH", "HEIGHT", "new_frame"]
