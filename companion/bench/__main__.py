"""`python -m companion.bench`: run the bench (see :mod:`companion.bench.run`)."""
import sys

from companion.bench.run import main

raise SystemExit(main(sys.argv[1:]))
