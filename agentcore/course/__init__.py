"""Course material around the runtime: what the lessons use, and nothing the runtime needs.

The weather task and its scripted stand-in (:mod:`~agentcore.course.weather`), teaching tools
and data (:mod:`~agentcore.course.teaching_tools`), the section-12 experiments
(:mod:`~agentcore.course.experiments`), run snapshots (:mod:`~agentcore.course.snapshot`),
JupyterLab widgets (:mod:`~agentcore.course.widgets`, needs ipywidgets) and the command line
(:mod:`~agentcore.course.cli`).
"""
