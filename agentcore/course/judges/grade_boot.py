"""A grading interpreter's first code: ``python -I -S grade_boot.py SETTINGS [player R W DIR]``.

``-S`` keeps Python's ``site`` from running, so no ``.pth`` file or ``sitecustomize`` in
site-packages runs before the runner (see :func:`agentcore.course.judges.grade.runner_command`).
``site`` also does two things the runner needs, done here from ``SETTINGS`` (JSON written by
the parent): ``sys.prefix`` and ``sys.exec_prefix`` set to the virtual environment's (what
tells library code from learner code, and where ``sysconfig`` finds site-packages), and the
folders of the installed libraries and of ``agentcore`` added to ``sys.path``. Then the
referee runs (:func:`agentcore.course.judges.referee.main`), or, given ``player``, the two
pipes' numbers and its scratch folder, the player it starts
(:func:`agentcore.course.judges.player.main`).
"""

import json
import sys

if __name__ == "__main__":
    settings = json.loads(sys.argv[1])
    sys.prefix, sys.exec_prefix = settings["prefix"], settings["exec_prefix"]
    sys.path.extend(settings["path"])

    if sys.argv[2:3] == ["player"]:
        from agentcore.course.judges.player import main as play

        play(int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    else:
        from agentcore.course.judges.referee import main

        main()
