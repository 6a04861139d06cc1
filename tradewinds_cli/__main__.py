"""``python -m tradewinds_cli`` is the `tradewinds` command."""

from tradewinds_cli.main import main

raise SystemExit(main())
