"""``python -m genie_bot.cli``: the same as the ``genie-bot`` command."""

from . import main

raise SystemExit(main())
