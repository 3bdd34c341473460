"""``python -m calibsim.cli``: the ``calibsim`` command."""

import sys

from ._main import main

sys.exit(main())
