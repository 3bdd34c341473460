"""``python -m calibsim``: the ``calibsim`` command."""

import sys

from .cli import main

sys.exit(main())
