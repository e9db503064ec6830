"""`make bench`: the companion's speed and footprint, measured in child processes and printed as one JSON object.

Owns the measurements only; it may import anything in the project (it drives the loop, the journal and the web view
the way a user would) and nothing imports it.
"""
