"""``python -m agentcore``: run the chapter's offline trajectory from the command line."""

from agentcore.course.cli import main

raise SystemExit(main())
