"""``python -m tenxeval_tui.cli``: the same as the ``tenxeval-tui`` command."""

import sys

from tenxeval_tui.cli.main import main

sys.exit(main())
