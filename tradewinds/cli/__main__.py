"""``python -m tradewinds.cli`` is the `tradewinds` command."""

from tradewinds.cli.main import main

raise SystemExit(main())
