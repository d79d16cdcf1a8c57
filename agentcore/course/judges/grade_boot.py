"""The first code of a grading interpreter (``python -I -S grade_boot.py SETTINGS``).

``-S`` keeps Python's ``site`` from running, so no ``.pth`` file or ``sitecustomize`` in
site-packages runs before the runner (see :func:`agentcore.course.judges.grade.runner_command`).
``site`` also does two things the runner needs, done here from ``SETTINGS`` (JSON written by
the parent): ``sys.prefix`` and ``sys.exec_prefix`` set to the virtual environment's (what
tells library code from learner code, and where ``sysconfig`` finds site-packages), and the
folders of the installed libraries and of ``agentcore`` added to ``sys.path``. Then
:func:`agentcore.course.judges.grade_runner.main` runs. Run as a file, not ``-c``: the bottom
frame of the run is then this file, library code, not a ``<string>`` taken for learner code.
"""

import json
import sys

if __name__ == "__main__":
    settings = json.loads(sys.argv[1])
    sys.prefix, sys.exec_prefix = settings["prefix"], settings["exec_prefix"]
    sys.path.extend(settings["path"])

    from agentcore.course.judges.grade_runner import main

    main()
