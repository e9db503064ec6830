"""The process and its one event loop: start-up, backends chosen once, the queue, journal-then-update-then-draw.

``runtime`` picks the hardware (Pi or simulator) and wires its threads to the queue; ``app`` is the loop that owns
the current session or the home menus; ``sdnotify`` and ``logsetup`` talk to systemd. The loop is the top of the
house: it may import every other companion package; nothing below imports it (the menus reach it through the small
``MenuHost`` protocol they are handed).
"""
