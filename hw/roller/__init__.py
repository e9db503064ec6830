"""The USB dice roller: wire protocol (:mod:`.protocol`), host reader (:mod:`.reader`), port discovery
(:mod:`.ports`) and a virtual roller on a pty (:mod:`.virtual`). Import the submodules you need."""
