"""The judges without a kernel: accidents and tricks that must not change a verdict.

Each test gives ``verdict`` a namespace as an answer cell would leave it and asserts the one
line a learner would read: an always-equal object, an input mutated by the answer, a
``SystemExit`` or an endless loop from learner code, a prerequisite cell not run, an answer
cell that raised after defining its names, and valid answers in styles the lesson shows.
"""

from __future__ import annotations

import ast
import copy
import importlib
import importlib.util
import json
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from rig_answers import DRAINS_THE_MODEL

from agentcore.course import checks
from agentcore.course.judges import code_places, core, lesson00, lesson06_appendix

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


def judged(exercise: str, code: str, **given: Any) -> str:
    namespace: dict[str, Any] = dict(given)
    exec(textwrap.dedent(code), namespace)
    ok, line = checks.verdict(exercise, "en", namespace)
    assert line.startswith("✔" if ok else "✘")
    assert checks.verdict(exercise, "zh-CN", namespace)[1][0] == line[0]
    return line


ALWAYS_EQUAL = """
class Anything(dict):
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    def get(self, key, default=None):
        return Anything()
    def __getitem__(self, key):
        return Anything()
    def __hash__(self):
        return 0
"""


def test_always_equal_objects_fail() -> None:
    line = judged("workflow_or_agent", ALWAYS_EQUAL + "my_answers = Anything()")
    assert line.startswith("✘")
    line = judged(
        "predict_lengths", ALWAYS_EQUAL.replace("(dict)", "(int)") + "my_lengths = [Anything()] * 4"
    )
    assert line.startswith("✘")
    line = judged(
        "unanswered_calls",
        ALWAYS_EQUAL.replace("(dict)", "(list)")
        + "def unanswered_calls(messages):\n    return Anything()",
    )
    assert line.startswith("✘")


@pytest.mark.parametrize("error", ["SystemExit", "KeyboardInterrupt", "GeneratorExit"])
def test_any_base_exception_from_learner_code_is_one_line_naming_it(error: str) -> None:
    line = judged("unanswered_calls", f"def unanswered_calls(messages):\n    raise {error}()")
    assert line.startswith("✘") and error in line


def test_an_endless_loop_gives_a_cross_not_a_hung_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "TIME_LIMIT_SECONDS", 1.0)
    looping = """
    def unanswered_calls(messages):
        while True:
            try:
                pass
            except BaseException:
                pass
    """
    line = judged("unanswered_calls", looping)
    assert line.startswith("✘") and "1 seconds" in line
    # and the kernel is usable afterwards: the solution is accepted
    solution = """
    def unanswered_calls(messages):
        asked = [c["call_id"] for m in messages for c in m.get("tool_calls", [])]
        seen = {m["tool_call_id"] for m in messages if m["role"] == "tool"}
        return [c for c in asked if c not in seen]
    """
    assert judged("unanswered_calls", solution).startswith("✔")


def test_a_one_line_endless_loop_gives_a_cross_without_the_alarm(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Where no SIGALRM can stop it (the browser edition, a thread that is not the main one),
    # the tracer is the only guard; `while True: pass` is one jump to itself and gives it no
    # "line" event, so its frame must be traced per opcode. Run in a thread (no alarm there),
    # so that a guard that misses the loop fails this test instead of hanging the suite.
    monkeypatch.setattr(core, "TIME_LIMIT_SECONDS", 1.0)
    monkeypatch.setattr(core, "alarm_available", lambda: False)
    lines: list[str] = []
    worker = threading.Thread(
        target=lambda: lines.append(
            judged("unanswered_calls", "def unanswered_calls(*args):\n    while True: pass\n")
        ),
        daemon=True,
    )
    started = time.monotonic()
    worker.start()
    worker.join(timeout=20)
    assert not worker.is_alive(), "the one-line loop was never stopped"
    assert time.monotonic() - started < 20
    assert len(lines) == 1 and lines[0].startswith("✘") and "1 seconds" in lines[0], lines


def test_only_code_that_loops_within_one_line_is_traced_per_opcode() -> None:
    def code_of(source: str) -> Any:
        namespace: dict[str, Any] = {}
        exec(source, namespace)
        return namespace["f"].__code__

    assert core.loops_within_one_line(code_of("def f():\n    while True: pass\n"))
    several_lines = "def f(items):\n    total = 0\n    for item in items:\n        total += item\n"
    assert not core.loops_within_one_line(code_of(several_lines + "    return total\n"))


def test_an_answer_that_mutates_the_inputs_changes_nothing_for_the_next() -> None:
    vandal = """
    def unanswered_calls(messages):
        for message in messages:
            message.get("tool_calls", []).clear()
            message.clear()
        messages.clear()
        return []
    """
    assert judged("unanswered_calls", vandal).startswith("✘")
    solution = """
    def unanswered_calls(messages):
        asked = [c["call_id"] for m in messages for c in m.get("tool_calls", [])]
        seen = {m["tool_call_id"] for m in messages if m["role"] == "tool"}
        return [c for c in asked if c not in seen]
    """
    assert judged("unanswered_calls", solution).startswith("✔")


def test_a_missing_prerequisite_names_the_cell_to_run() -> None:
    # lesson 06's failing_reminder needs the lesson's outbox (lesson 02's predictions, the
    # earlier example, now judges with its own copy of the calls and registry)
    line = judged("failing_reminder", "def send_reminder(to, text):\n    return {}\n")
    assert "outbox" in line and "earlier cell" in line and "raised" not in line


def test_an_answer_cell_that_raised_says_so_even_with_the_names_defined() -> None:
    namespace: dict[str, Any] = {"my_lengths": [1, 4, 6, 7]}
    core.note_cell_result(("my_lengths",), ZeroDivisionError())
    try:
        ok, line = checks.verdict("predict_lengths", "en", namespace)
        assert not ok and "ZeroDivisionError" in line
    finally:
        core.note_cell_result(("my_lengths",), None)
    assert checks.verdict("predict_lengths", "en", namespace)[0]


def test_unpaired_outputs_in_the_lessons_own_style_is_accepted() -> None:
    lesson_style = """
    def unpaired_outputs(items):
        called, unpaired = set(), []
        for item in items:
            if item["type"] == "function_call":
                called.add(item["call_id"])
            elif item["type"] == "function_call_output" and item["call_id"] not in called:
                unpaired.append(item["call_id"])
        return unpaired
    """
    assert judged("unpaired_outputs", lesson_style).startswith("✔")


def test_lesson_00_ships_no_answer_table() -> None:
    values = [
        value
        for module in (lesson00, checks)
        for name, value in vars(module).items()
        if not name.startswith("__")
    ]
    assert not any(
        isinstance(value, dict)
        and value
        and {str(v) for v in value.values()} <= {"workflow", "agent"}
        for value in values
    )
    assert "JOBS" not in vars(checks)


WHERE_LESSON = {
    "decides": [
        ("runtime.py", "AgentRuntime._ask_model"),
        ("weather.py", "ScriptedWeatherModel.generate"),
    ],
    "executes": [("runtime.py", "AgentRuntime._execute"), ("tools.py", "Tool.execute")],
    "state": [("runtime.py", "AgentRun"), ("runtime.py", "AgentRun.record")],
    "errors": [
        ("runtime.py", "AgentRuntime._check_turn"),
        ("runtime.py", "_check_call_ids"),
        ("runtime.py", "_check_budget"),
        ("tools.py", "ToolRegistry.prepare"),
        ("tools.py", "Tool.validate"),
        ("runtime.py", "AgentRuntime._execute"),
        ("protocol.py", "ModelTurn.__post_init__"),
    ],
    "stops": [("runtime.py", "AgentRuntime._loop")],
}
"""What the lesson's "why" names for each question: the places read from the runs hold each."""

WHERE_RIGHT = (
    'my_where = {"decides": ("runtime.py", "AgentRuntime._ask_model"),'
    ' "executes": ("runtime.py", "AgentRuntime._execute"), "state": ("runtime.py", "AgentRun"),'
    ' "errors": ("runtime.py", "AgentRuntime._check_turn"),'
    ' "stops": ("runtime.py", "AgentRuntime._loop")}'
)
NEVER_STOPS_RIGHT = """
from agentcore import ModelTurn, ToolCall
def fresh_calls(messages, tools):
    n = len(messages)
    return ModelTurn(tool_calls=[
        ToolCall(f"call-{n}-{i}", "get_teaching_weather", {"city": "Tokyo"}) for i in range(3)
    ])
"""

WHERE_NOT = {
    "decides": [
        ("runtime.py", "AgentRuntime._loop"),
        ("runtime.py", "AgentRun.step"),
        # never on the stack of the lesson's Tokyo run, whose model is ScriptedWeatherModel
        ("scripted.py", "ScriptedModel.generate"),
        ("deepseek.py", "DeepSeekResponsesModel.generate"),
        ("protocol.py", "Model"),
        ("protocol.py", "Model.generate"),
    ],
    "executes": [
        ("teaching_tools.py", "get_teaching_weather"),
        ("weather.py", "ScriptedWeatherModel.generate"),
    ],
    "state": [
        ("runtime.py", "AgentRuntime"),
        ("runtime.py", "RunResult"),
        ("runtime.py", "AgentRun.messages"),  # a property that reads the state it keeps
    ],
    "errors": [("errors.py", "AgentRuntimeError"), ("tools.py", "ToolRegistry.get")],
    "stops": [("protocol.py", "ModelTurn"), ("runtime.py", "AgentRun.finish")],
}
"""Real learners' mistakes: a name the file has, in the wrong place."""


def test_where_places_are_read_from_runs_and_hold_what_the_lesson_says() -> None:
    known = code_places.places()
    for question, answers in WHERE_LESSON.items():
        for file, name in answers:
            found = code_places.find(file, name)
            assert found.targets, (file, name)
            assert any(known.accepts(question, o, v) for o, v in found.targets), (question, name)
    for question, answers in WHERE_NOT.items():
        for file, name in answers:
            found = code_places.find(file, name)
            assert found.exists and found.targets, (file, name)
            assert not any(known.accepts(question, o, v) for o, v in found.targets), name


def test_where_never_says_a_file_lacks_a_name_it_defines() -> None:
    # every def and class of every module of the package, bare and with its class
    for file, modules in code_places.module_files().items():
        for module_name in modules:
            spec = importlib.util.find_spec(module_name)  # read, not imported (__main__ runs)
            assert spec is not None and spec.origin is not None, module_name
            with open(spec.origin, encoding="utf-8") as source:
                tree = ast.parse(source.read())
            for node in tree.body:
                if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                    continue
                names = [node.name]
                if isinstance(node, ast.ClassDef):
                    names += [
                        f"{node.name}.{item.name}"
                        for item in node.body
                        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                    ]
                for name in names:
                    assert code_places.find(file, name).exists, (file, name)


def test_where_knows_every_file_of_the_package() -> None:
    answer = """
    my_where = {
        "decides": ("runtime.py", "AgentRuntime._ask_model"),
        "executes": ("teaching_tools.py", "get_teaching_weather"),
        "state": ("runtime.py", "AgentRun"),
        "errors": ("runtime.py", "_check_turn"),
        "stops": ("runtime.py", "_loop"),
    }
    """
    line = judged("where", answer)
    assert line.startswith("✘") and "has no function" not in line and "executes" in line


def test_two_calls_holds_to_its_own_key_spelling_and_names_the_keys() -> None:
    # one rule for every exercise (core.spelled): case and surrounding blanks aside, no other
    # spelling; lesson 01's "tool_executions" is not lesson 06's "tool executions"
    turns = """
    from agentcore import ModelTurn, ToolCall
    my_turns = [
        ModelTurn(tool_calls=(
            ToolCall("call-tokyo", "get_teaching_weather", {"city": "Tokyo"}),
            ToolCall("call-paris", "get_teaching_weather", {"city": "Paris"}),
        )),
        ModelTurn(tool_calls=(
            ToolCall("call-tokyo", "celsius_to_fahrenheit", {"temperature_c": 18.0}),
        )),
    ]
    """
    right = turns + 'my_prediction = {" Tool Executions": 2, "error": "invalidmodelturnerror"}'
    assert judged("two_calls", right).startswith("✔")
    other = turns + 'my_prediction = {"tool_executions": 2, "error": "InvalidModelTurnError"}'
    line = judged("two_calls", other)
    assert line.startswith("✘") and "'tool executions', 'error'" in line, line
    assert "'tool_executions'" in line, line  # the key as the learner wrote it
    wrong_keys = turns + 'my_prediction = {"executions": 2, "error": "InvalidModelTurnError"}'
    line = judged("two_calls", wrong_keys)
    assert "'tool executions', 'error'" in line and "like the one in the cell" not in line


def test_reminder_twice_states_its_keys() -> None:
    line = judged("reminder_twice", "my_reminders = [1, 2]\nsent_twice = True")
    assert "'stop', 'observe'" in line


@pytest.mark.parametrize(
    ("exercise", "answer", "named"),
    [
        ("reminder_twice", 'my_reminders = {"stop": 1.0, "observe": 2}\nsent_twice = True',
         "my_reminders['stop'] should be of type int"),
        ("reminder_twice", 'my_reminders = {"stop": True, "observe": 2}\nsent_twice = True',
         "its type is bool"),
        ("reminder_twice", 'my_reminders = {"stop": 1, "observe": 2}\nsent_twice = "True"',
         "sent_twice should be of type bool"),
        ("max_steps_one",
         'my_max_steps_prediction = {"status": "failed", "model turns": True,'
         ' "tool executions": 1, "error": "MaxStepsExceeded"}',
         "my_max_steps_prediction['model turns'] should be of type int"),
        # the key named as the learner spelled it (a new learner's 'Model Turns' was shown as
        # the judge's 'model turns')
        ("max_steps_one",
         'my_max_steps_prediction = {"status": "failed", "Model Turns": "1",'
         ' "tool executions": 1, "error": "MaxStepsExceeded"}',
         "my_max_steps_prediction['Model Turns'] should be of type int"),
        ("predict_lengths", 'my_lengths = {"before": 1}',
         "write my_lengths as a list of 4 whole numbers"),
    ],
)  # fmt: skip
def test_a_right_value_of_the_wrong_type_gets_a_hint_naming_the_type(
    exercise: str, answer: str, named: str
) -> None:
    """A fresh learner's 1.0 for 1, True for a count, "True" for a bool: the hint names the
    type, not a wrong value (before, it said "look again at stop")."""
    line = judged(exercise, answer)
    assert line.startswith("✘") and named in line, line
    assert "look again" not in line


def test_a_grade_comes_from_a_fresh_interpreter_that_the_answer_cannot_rig() -> None:
    import json
    from pathlib import Path

    from agentcore.course.judges.grade import judge_notebook

    path = Path(__file__).parent.parent / "notebooks" / "en" / "solutions" / "03-errors.ipynb"
    source = json.loads(path.read_text(encoding="utf-8"))
    assert {name: ok for name, (ok, _) in judge_notebook(source, source).items()} == {
        "break_second_turn": True,
        "unanswered_calls": True,
    }
    rigged = json.loads(json.dumps(source))
    patch = (
        "from agentcore.course.judges import lesson03\n"
        "lesson03.same = lambda left, right: True\n"
        "def unanswered_calls(messages):\n"
        "    return []\n"
    )
    for cell in rigged["cells"]:
        if cell["metadata"].get("agentcore", {}).get("exercise") == "unanswered_calls":
            cell["source"] = patch
    ok, line = judge_notebook(source, rigged, ["unanswered_calls"])["unanswered_calls"]
    # the player holds no judge and refuses to read one: the patch cannot even be made
    assert not ok and "raised PermissionError" in line, line


def test_a_registry_changed_in_place_changes_no_verdict() -> None:
    import json
    from pathlib import Path

    from agentcore.course.judges.grade import judge_notebook

    path = Path(__file__).parent.parent / "notebooks" / "en" / "solutions" / "03-errors.ipynb"
    source = json.loads(path.read_text(encoding="utf-8"))
    rigged = json.loads(json.dumps(source))
    sources = {
        "break_second_turn": (
            "from agentcore.course.judges import core\n"
            "for name, spec in list(core.EXERCISES.items()):\n"
            "    core.EXERCISES[name] = core.Exercise(spec.names, lambda ns: (True, 'x', {}))\n"
            "my_script = None\n"
        ),
        "unanswered_calls": "def unanswered_calls(messages):\n    return []\n",
    }
    for cell in rigged["cells"]:
        exercise = cell["metadata"].get("agentcore", {}).get("exercise")
        if exercise in sources:
            cell["source"] = sources[exercise]
    judged = judge_notebook(source, rigged)
    # the player holds no registry of judges to replace (it refuses to read one); the
    # referee's judged each answer
    assert not judged["break_second_turn"][0], judged
    assert "raised PermissionError" in judged["break_second_turn"][1], judged
    assert not judged["unanswered_calls"][0], judged


def test_task_succeeded_cases_are_what_the_handler_did() -> None:
    # the expected values come from the conversion handler's own returns, not a table
    expected = {key: value for key, _, value in lesson06_appendix._succeeded_cases()}
    assert expected["case_retry_succeeded"] is True  # the first observation does not decide
    assert expected["case_converted_no_answer"] is True  # max_steps=2: converted, no answer
    assert expected["case_max_steps"] is False  # max_steps=1: stopped before converting
    assert expected["case_retries_failed"] is False and expected["case_guess"] is False
    assert expected["case_describe"] is True and expected["case_paris"] is True


def test_a_check_whose_own_runs_fail_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> None:
        raise RuntimeError("the runtime changed")

    monkeypatch.setattr(lesson06_appendix, "_succeeded_cases", broken)
    line = judged("task_succeeded", "def task_succeeded(messages):\n    return True")
    assert "check's own runs failed with RuntimeError" in line and "your task_succeeded" not in line


APPENDIX_RIGS = {
    "where": (
        "my_where",
        "import agentcore.course.judges.code_places as places\n"
        "places.Places.accepts = lambda *args: True\n"
        'my_where = {q: ("runtime.py", "RunResult") for q in places.QUESTIONS}\n',
    ),
    "task_succeeded": (
        "task_succeeded",
        "import agentcore.course.judges.lesson06_appendix as judges\n"
        "judges._succeeded_cases = lambda: []\n"
        "def task_succeeded(messages):\n    return True\n",
    ),
    "trajectory": (
        "my_trajectory",
        "import agentcore.course.judges.lesson06_appendix as judges\n"
        "judges.TRAJECTORY_STEPS.clear()\n"
        'judges.TRAJECTORY_STEPS["A"] = ("ModelDecision", "get_teaching_weather")\n'
        'my_trajectory = [("A", "model")]\n',
    ),
}
"""Answer cells that patch the lesson 06 appendix's judges (the places, the cases, the table)."""


@pytest.mark.slow
def test_a_grade_of_the_appendix_is_not_changed_by_answers_that_patch_its_judges() -> None:
    from agentcore.course.judges.grade import judge_notebook
    from scripts.lessons import NOTEBOOKS

    path = NOTEBOOKS / "en" / "solutions" / "06-appendix-reference-and-trajectory.ipynb"
    source = json.loads(path.read_text(encoding="utf-8"))
    rigged = copy.deepcopy(source)
    for cell in rigged["cells"]:
        exercise = cell["metadata"].get("agentcore", {}).get("exercise")
        if exercise in APPENDIX_RIGS:
            name, code = APPENDIX_RIGS[exercise]
            cell["source"] = f'forget("{name}")\n' + code
    assert all(ok for ok, _ in judge_notebook(source, source, language="en").values())
    # the patches happen in the player; the referee's judges judge each wrong answer as wrong
    for exercise, (ok, line) in judge_notebook(source, rigged, language="en").items():
        assert not ok and line.startswith("✘"), (exercise, line)


def test_an_unknown_exercise_name_lists_the_exercises() -> None:
    with pytest.raises(KeyError, match=r"no exercise is named 'no_such_exercise'.*two_calls"):
        checks.check("no_such_exercise", "en")


def test_an_answer_written_outside_its_answer_cell_is_named_not_accepted() -> None:
    # The grade runs only the answer cell, so a self-check that accepted an answer defined in
    # another cell (or rebound after its cell ran) would promise a point the grade never gives.
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    core.watch_answer_cells()  # what importing the checks in a lesson's first cell does
    lines: list[str] = []

    def run(source: str) -> None:
        result = shell.run_cell(source, store_history=False)
        assert result.error_in_exec is None, result.error_in_exec

    def verdict() -> str:
        lines.append(checks.verdict("predict_lengths", "en")[1])
        return lines[-1]

    run("from agentcore.course.checks import forget")
    run("my_lengths = [1, 4, 6, 7]")  # a scratch cell, before the answer cell ever ran
    assert verdict().startswith("✘") and "another cell" in lines[-1]
    run('forget("my_lengths")\nmy_lengths = [1, 4, 6, 7]')  # the answer cell
    assert verdict().startswith("✔")
    run("my_lengths = [1, 4, 6, 7]")  # rebound by a later cell: equal, but not the answer's
    assert verdict().startswith("✘") and "answer cell" in lines[-1]
    run('forget("my_lengths")\nmy_lengths = [1, 4, 6, 7]')
    assert verdict().startswith("✔")
    assert checks.verdict("predict_lengths", "zh-CN")[0]
    # completed (or changed) in place by a later cell: the same list, no longer the cell's
    run('forget("my_lengths")\nmy_lengths = [1, 4, 6]')
    run("my_lengths.append(7)")
    assert verdict().startswith("✘") and "another cell changed" in lines[-1]
    run(
        'forget("my_reminders", "sent_twice")\n'
        'my_reminders = {"stop": 1, "observe": 2}\nsent_twice = True'
    )
    assert checks.verdict("reminder_twice", "en")[1].startswith("✔")
    run('my_reminders["observe"] = 3')
    line = checks.verdict("reminder_twice", "en")[1]
    assert line.startswith("✘") and "another cell changed" in line, line
    run('forget("my_lengths")\nmy_lengths = [1, 4, 6, 7]')
    assert verdict().startswith("✔")
    # a check called at the end of the answer cell itself reads what that cell just made
    run("my_lengths = [0]")
    run(
        'forget("my_lengths")\nmy_lengths = [1, 4, 6, 7]\n'
        "from agentcore.course.checks import verdict\n"
        'inside = verdict("predict_lengths", "en")[1]'
    )
    assert shell.user_ns["inside"].startswith("✔"), shell.user_ns["inside"]
    shell.user_ns.pop("my_lengths", None)


def test_an_answer_that_takes_the_first_observation_is_told_the_readings() -> None:
    # A new learner's answer took records[0] instead of comparing both; the hint said only
    # "do not hard-code the answer", which this code does not do. It now names the readings.
    first_only = """
    import json
    from agentcore import ModelTurn, ToolCall

    def compare_cities(messages, tools):
        records = [json.loads(m["content"]) for m in messages if m["role"] == "tool"]
        if not records:
            return ModelTurn(tool_calls=[
                ToolCall("call-tokyo", "get_teaching_weather", {"city": "Tokyo"}),
                ToolCall("call-paris", "get_teaching_weather", {"city": "Paris"}),
            ])
        return ModelTurn(final_text=f"{records[0]['city']} is warmer.")
    """
    line = judged("compare_cities", first_only)
    assert line.startswith("✘")
    assert "Tokyo at 9.0 °C and Paris at 21.0 °C" in line and "'Tokyo is warmer.'" in line
    namespace: dict[str, Any] = {}
    exec(textwrap.dedent(first_only), namespace)
    chinese = checks.verdict("compare_cities", "zh-CN", namespace)[1]
    assert "东京 9.0 °C、巴黎 21.0 °C" in chinese and "temperature_c" in chinese


def test_a_paris_test_that_asks_about_tokyo_is_asked_whether_it_asks_about_paris() -> None:
    tokyo_request = """
    from agentcore import AgentRuntime
    from agentcore.course.teaching_tools import build_tools

    def check_paris_weather(make_model):
        result = AgentRuntime(make_model(), build_tools()).run("What is Tokyo's teaching weather?")
        assert "12.0°C" in result.answer
    """
    line = judged("check_paris_weather", tokyo_request)
    assert line.startswith("✘") and "AssertionError" in line and "ask about Paris" in line


def test_a_handler_stuck_in_a_c_call_gives_a_cross_even_when_the_tool_wraps_the_alarm(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Tool.execute turns the alarm's TimeLimitExceeded into a ToolExecutionError and the run goes
    # on to the handler's next call; a one-shot alarm then left that time.sleep running for ever
    # (a new learner's finding). faulthandler ends the suite instead of hanging it if it regresses.
    import faulthandler

    monkeypatch.setattr(core, "TIME_LIMIT_SECONDS", 1.0)
    faulthandler.dump_traceback_later(120, exit=True)
    try:
        started = time.monotonic()
        sleeping = """
        import time
        def send_reminder(text):
            outbox.append(text)
            time.sleep(10**6)
        """
        line = judged("failing_reminder", sleeping, outbox=[])
    finally:
        faulthandler.cancel_dump_traceback_later()
    assert line.startswith("✘") and "1 seconds" in line, line
    assert time.monotonic() - started < 30


def test_a_loop_that_swallows_every_exception_is_stopped_every_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The tracer used to race the alarm: when it raised first (inside the try), Python removed
    # it, the loop swallowed the error, and a one-shot alarm landing in the try again hung the
    # kernel (5 runs in 15 under load). Now only the alarm raises first, and again and again.
    import faulthandler

    monkeypatch.setattr(core, "TIME_LIMIT_SECONDS", 1.0)
    looping = """
    def unanswered_calls(messages):
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass
    """
    faulthandler.dump_traceback_later(120, exit=True)
    try:
        lines = [judged("unanswered_calls", looping) for _ in range(8)]
    finally:
        faulthandler.cancel_dump_traceback_later()
    assert all(line.startswith("✘") and "1 seconds" in line for line in lines), lines


@pytest.mark.parametrize("value", ["workflows", "an agent", False])
def test_a_present_job_with_an_odd_value_is_named_not_called_missing(value: Any) -> None:
    # A new learner's finding: {"A": "Workflow", ...} was told jobs A, B, C and D were missing.
    answers = {"A": value, "B": "agent", "C": "agent", "D": "agent"}
    line = judged("workflow_or_agent", f"my_answers = {answers!r}")
    assert f"job A is {value!r}" in line and "missing" not in line, line


@pytest.mark.parametrize(
    ("exercise", "answer"),
    [
        # one rule (core.spelled): case and surrounding blanks aside, in every exercise
        (
            "workflow_or_agent",
            'my_answers = {"a": " Workflow", "B": "AGENT", "C": "workflow", "D": "agent "}',
        ),
        ("reminder_twice", 'my_reminders = {"Stop ": 1, "OBSERVE": 2}\nsent_twice = True'),
        (
            "where",
            'my_where = {"Decides": ("Runtime.py", "agentruntime._ask_model"),'
            ' "executes": ("runtime.py", " AgentRuntime._execute"),'
            ' "state": ("runtime.py", "AGENTRUN"), "errors": ("runtime.py", "_check_turn"),'
            ' "stops": ("agentcore/RUNTIME.py", "AgentRuntime._loop")}',
        ),
    ],
)
def test_case_and_surrounding_blanks_are_aside_everywhere(exercise: str, answer: str) -> None:
    line = judged(exercise, answer)
    assert line.startswith("✔"), line


@pytest.mark.parametrize(
    ("exercise", "answer", "named"),
    [
        # ... and no other spelling: no alias, no part of a name
        (
            "where",
            WHERE_RIGHT.replace('"runtime.py", "AgentRuntime._loop"', '"runtime", "_loop"'),
            "no file named runtime",
        ),
        (
            "never_stops",
            NEVER_STOPS_RIGHT + 'my_counts = {"model turns": 3, "tool executions": 9}',
            '"model_turns" and "tool_executions"',
        ),
        (
            "max_steps_one",
            'my_max_steps_prediction = {"status": "failed", "model_turns": 1,'
            ' "tool_executions": 1, "error": "MaxStepsExceeded"}',
            "'model turns'",
        ),
    ],
)
def test_no_other_spelling_is_accepted(exercise: str, answer: str, named: str) -> None:
    line = judged(exercise, answer)
    assert line.startswith("✘") and named in line, line


def test_a_turn_with_the_wrong_argument_name_is_told_the_name() -> None:
    # A new learner's finding: {"location": ...} was told to ask for each city exactly once.
    turn = """
    from agentcore import ModelTurn, ToolCall
    both_cities = ModelTurn(tool_calls=[
        ToolCall("call-1", "get_teaching_weather", {"location": "Tokyo"}),
        ToolCall("call-2", "get_teaching_weather", {"location": "Paris"}),
    ])
    """
    line = judged("both_cities", turn)
    assert '{"city": ...}' in line and "'location'" in line, line


def test_never_stops_counts_written_as_text_get_a_hint_naming_the_type() -> None:
    # A new learner's finding: {"model turns": "4", ...} was told the counts were wrong.
    solution = """
    from agentcore import ModelTurn, ToolCall
    def fresh_calls(messages, tools):
        n = len(messages)
        return ModelTurn(tool_calls=[
            ToolCall(f"call-{n}-{i}", "get_teaching_weather", {"city": "Tokyo"}) for i in range(3)
        ])
    """
    counts = "my_counts = {'model_turns': '1', 'tool_executions': '1'}"
    line = judged("never_stops", solution + counts)
    assert "my_counts['model_turns'] should be of type int" in line, line


@pytest.mark.parametrize(
    ("answer", "warmer"),
    [
        ("Paris is warmer, at 21.0°C.", "Paris"),
        ('  "tokyo  IS WARMER than Paris"', "Tokyo"),
        ("巴黎更暖和。", "Paris"),
        ("东京 更暖和，巴黎更冷。", "Tokyo"),
        ("Paris 更暖和，21.0°C。", "Paris"),
        # Not the form the task states: prose that cannot be read without guessing (a new
        # learner's answers, read wrongly either way while the judge parsed free sentences).
        ("Tokyo is not warmer than Paris.", None),
        ("Tokyo is 9.0°C and Paris is 21.0°C, so Paris is warmer.", None),
        ("Tokyo: 18.0°C, Paris: 12.0°C. The warmer city is Tokyo.", None),
        ("Paris 21.0°C, Tokyo 9.0°C", None),
        ("东京不比巴黎暖和。", None),
        ("和东京相比，巴黎更暖和。", None),
        ("东京18.0°C，巴黎12.0°C，更暖和的是东京。", None),
        ("Paris is less warm than Tokyo.", None),
    ],
)
def test_compare_cities_reads_the_answer_in_the_form_the_task_states(
    answer: str, warmer: str | None
) -> None:
    from agentcore.course.judges.lesson04 import called_warmer

    assert called_warmer(answer, ("Paris", "Tokyo")) == warmer


def test_compare_cities_names_the_form_for_an_answer_not_in_it() -> None:
    line = judged(
        "compare_cities",
        """
        import json
        from agentcore import ModelTurn, ToolCall
        def compare_cities(messages, tools):
            seen = {}
            for m in messages:
                if m["role"] == "tool":
                    record = json.loads(m["content"])
                    seen[record["city"]] = record["temperature_c"]
            if len(seen) < 2:
                return ModelTurn(tool_calls=(
                    ToolCall("call-tokyo", "get_teaching_weather", {"city": "Tokyo"}),
                    ToolCall("call-paris", "get_teaching_weather", {"city": "Paris"}),
                ))
            colder, warmer = sorted(seen, key=seen.get)
            return ModelTurn(final_text=f"{colder} is not warmer than {warmer}.")
        """,
    )
    assert line.startswith("✘") and 'then "is warmer"' in line, line


def test_a_check_that_drains_the_model_cannot_tell_the_honest_one() -> None:
    # A new learner's self-check rig: listed guessers ran out when asked again and again about
    # one transcript, the honest function script did not.
    assert judged("check_paris_weather", DRAINS_THE_MODEL).startswith("✘")


def test_a_paris_test_that_every_model_breaks_blames_the_test_not_a_guesser() -> None:
    # A third learner passed the factory itself: every model, the honest one too, raised
    # TypeError, and the hint named one guesser as if the honest model had passed.
    factory_not_called = """
    from agentcore import AgentRuntime
    from agentcore.course.teaching_tools import build_tools

    def check_paris_weather(make_model):
        result = AgentRuntime(make_model, build_tools()).run("What is Paris's teaching weather?")
        assert "12.0°C" in result.answer
    """
    line = judged("check_paris_weather", factory_not_called)
    assert "with the honest model your check should pass" in line and "TypeError" in line, line


# Hints that name what the answer did (a new learner's findings, 2026-12-07): each was told
# something true of another answer.
TOKYO_CALL = 'ToolCall("call-weather", "get_teaching_weather", {"city": "Tokyo"})'
TOKYO_PARIS_TURN = """
from agentcore import ModelTurn, ToolCall
my_turns = [
    ModelTurn(tool_calls=(
        ToolCall("call-tokyo", "get_teaching_weather", {"city": "Tokyo"}),
        ToolCall("call-paris", "get_teaching_weather", {"city": "Paris"}),
    )),
    ModelTurn(tool_calls=(
        ToolCall("call-tokyo", "celsius_to_fahrenheit", {"temperature_c": 18.0}),
    )),
"""


@pytest.mark.parametrize(
    ("exercise", "answer"),
    [
        (
            "break_second_turn",
            f"from agentcore import ToolCall\nmy_script = [{TOKYO_CALL}, {TOKYO_CALL}]",
        ),
        (
            "two_calls",
            f"from agentcore import ToolCall\nmy_turns = [{TOKYO_CALL}, {TOKYO_CALL}]\n"
            'my_prediction = {"tool executions": 2, "error": "InvalidModelTurnError"}',
        ),
    ],
)
def test_a_list_of_tool_calls_is_told_what_its_list_holds(exercise: str, answer: str) -> None:
    line = judged(exercise, answer)
    assert "list of ModelTurn" in line and "list[ToolCall]" in line, line


def test_a_final_text_second_turn_is_told_it_calls_no_tool() -> None:
    line = judged(
        "break_second_turn",
        "from agentcore import ModelTurn, ToolCall\n"
        f"my_script = [ModelTurn(tool_calls=[{TOKYO_CALL}]), ModelTurn(final_text='18 °C')]",
    )
    assert "second turn is a final text" in line and "int" not in line, line


COMPARE = """
import json
from agentcore import ModelTurn, ToolCall
def compare_cities(messages, tools):
    seen = [json.loads(m["content"]) for m in messages if m["role"] == "tool"]
    if not seen:
        return ModelTurn(tool_calls=(
            ToolCall({tokyo!r}, "get_teaching_weather", {{"city": "Tokyo"}}),
            ToolCall("call-paris", "get_teaching_weather", {{"city": "Paris"}}),
        ))
    {more}
    warmer = max(seen, key=lambda record: record{reading})
    return ModelTurn(final_text=warmer["city"] + " is warmer.")
"""


def test_compare_cities_names_which_calls_or_ids_were_wrong() -> None:
    wrong_id = COMPARE.format(tokyo="tokyo", more="", reading='["temperature_c"]')
    ids = judged("compare_cities", wrong_id)
    assert "call_ids tokyo, call-paris" in ids, ids
    extra = COMPARE.format(
        tokyo="call-tokyo",
        reading='["temperature_c"]',
        more=(
            "if len(seen) == 2:\n"
            '        c = ToolCall("call-convert", "celsius_to_fahrenheit", {"temperature_c": 1})\n'
            "        return ModelTurn(tool_calls=(c,))\n"
            "    seen = seen[:2]"
        ),
    )
    line = judged("compare_cities", extra)
    assert "celsius_to_fahrenheit (call-convert)" in line and "call_ids" not in line, line


def test_an_exception_in_the_learners_own_model_function_is_named() -> None:
    line = judged(
        "compare_cities", COMPARE.format(tokyo="call-tokyo", more="", reading='["temperature"]')
    )
    assert "your compare_cities raised KeyError: 'temperature' on model turn 2" in line, line


# Hints of lessons 02-04 that name what the answer did (issue 40 §5).


def test_an_exception_in_the_learners_own_transcript_reader_names_it_and_the_case() -> None:
    reads_every_message = (
        "def unanswered_calls(messages):\n    return [m['tool_call_id'] for m in messages]\n"
    )
    line = judged("unanswered_calls", reads_every_message)
    assert "raised KeyError: 'tool_call_id' on the transcript where" in line, line


def test_a_handler_that_fails_in_the_learners_tool_is_named() -> None:
    line = judged(
        "to_celsius_tool",
        """
        from pydantic import BaseModel, ConfigDict, Field
        from agentcore import Tool

        class Arguments(BaseModel):
            model_config = ConfigDict(extra="forbid", strict=True)
            temperature_f: float = Field(ge=-459.67)

        def convert(temperature_f):
            return {"temperature_c": round((temperature_f - 32) * 5 / 9, 1) + offset}

        to_celsius_tool = Tool("fahrenheit_to_celsius", "F to C.", Arguments, convert)
        """,
    )
    assert "ToolExecutionError (fahrenheit_to_celsius: NameError)" in line, line


def test_a_tool_without_extra_forbid_is_told_why_in_the_learners_language() -> None:
    from pydantic import BaseModel

    from agentcore import Tool
    from agentcore.strict_schema import StrictSchemaError

    class Relaxed(BaseModel):
        temperature_f: float

    with pytest.raises(StrictSchemaError) as raised:
        Tool("fahrenheit_to_celsius", "F to C.", Relaxed, lambda temperature_f: {})
    core.note_cell_result(("to_celsius_tool",), raised.value)
    try:
        chinese = checks.verdict("to_celsius_tool", "zh-CN", {})[1]
        english = checks.verdict("to_celsius_tool", "en", {})[1]
    finally:
        core.note_cell_result(("to_celsius_tool",), None)
    assert "StrictSchemaError" in chinese and "缺少 extra='forbid'" in chinese, chinese
    assert "extra='forbid' is missing" in english, english


def test_a_script_whose_every_turn_was_accepted_is_told_it_ran_out() -> None:
    line = judged(
        "break_second_turn",
        "from agentcore import ModelTurn, ToolCall\n"
        f"my_script = [ModelTurn(tool_calls=[{TOKYO_CALL}]), "
        "ModelTurn(tool_calls=[ToolCall('call-c', 'celsius_to_fahrenheit', {'temperature_c': 18})])"
        "]",
    )
    assert "asked for turn 3 and your script had no turn left" in line, line


def test_a_paris_check_that_ignores_the_call_id_is_told_once_what_the_model_did() -> None:
    any_one_lookup = """
    from agentcore import AgentRuntime
    from agentcore.course.teaching_tools import build_tools

    def check_paris_weather(make_model):
        result = AgentRuntime(make_model(), build_tools()).run("What is Paris's teaching weather?")
        assert "12.0°C" in result.answer
        assert len([m for m in result.messages if m["role"] == "tool"]) == 1
    """
    line = judged("check_paris_weather", any_one_lookup)
    assert line.count("call-weather") == 1 and "another call_id" in line, line
    namespace: dict[str, Any] = {}
    exec(textwrap.dedent(any_one_lookup), namespace)
    chinese = checks.verdict("check_paris_weather", "zh-CN", namespace)[1]
    assert chinese.count("call-weather") == 1, chinese


def test_call_ids_repeated_within_one_turn_are_told_so() -> None:
    line = judged(
        "never_stops",
        """
        from agentcore import ModelTurn, ToolCall
        def fresh_calls(messages, tools):
            n = len(messages)
            return ModelTurn(tool_calls=[
                ToolCall(f"call-{n}", "get_teaching_weather", {"city": "Tokyo"}) for _ in range(3)
            ])
        my_counts = {"model_turns": 3, "tool_executions": 9}
        """,
    )
    assert "within that one turn" in line and "new on every turn" not in line, line
    reused = judged(
        "never_stops",
        """
        from agentcore import ModelTurn, ToolCall
        def fresh_calls(messages, tools):
            return ModelTurn(tool_calls=[
                ToolCall(f"call-{i}", "get_teaching_weather", {"city": "Tokyo"}) for i in range(3)
            ])
        my_counts = {"model_turns": 3, "tool_executions": 9}
        """,
    )
    assert "an earlier turn" in reused, reused


def test_a_handler_that_raises_keyboard_interrupt_is_not_told_to_run_the_check_again() -> None:
    raising = "def send_reminder(text):\n    outbox.append(text)\n    raise KeyboardInterrupt\n"
    line = judged("failing_reminder", raising, outbox=[])
    assert "raised KeyboardInterrupt" in line and "Run the check again" not in line, line
    # a real interrupt (Kernel → Interrupt sends SIGINT) is still told to run the check again
    interrupted = (
        "import signal\n"
        "def send_reminder(text):\n    outbox.append(text)\n"
        "    signal.raise_signal(signal.SIGINT)\n"
    )
    line = judged("failing_reminder", interrupted, outbox=[])
    assert "Run the check again" in line, line


# Wrong answers that passed (kinds): each now refused.
def test_three_turns_where_the_task_asks_for_two_are_refused() -> None:
    third = "    ModelTurn(final_text='done'),\n]\n"
    line = judged(
        "two_calls",
        TOKYO_PARIS_TURN
        + third
        + 'my_prediction = {"tool executions": 2, "error": "InvalidModelTurnError"}',
    )
    assert line.startswith("✘") and "exactly two" in line, line
    right = judged(
        "two_calls",
        TOKYO_PARIS_TURN
        + "]\n"
        + 'my_prediction = {"tool executions": 2, "error": "InvalidModelTurnError"}',
    )
    assert right.startswith("✔"), right


def test_a_temperature_f_key_is_not_the_tasks_definition_of_success() -> None:
    line = judged(
        "task_succeeded",
        """
        import json
        def task_succeeded(messages):
            return any(
                m["role"] == "tool" and m["name"] == "celsius_to_fahrenheit"
                and "temperature_f" in json.loads(m["content"])
                for m in messages
            )
        """,
    )
    assert line.startswith("✘") and "its own failure record" in line, line


def test_the_where_reasons_come_with_the_verdict_not_before_an_attempt() -> None:
    # the fold-out under the check listed every answer; the reasons now come with the ✔
    from scripts.lessons import LANGUAGES

    places = ("_ask_model", "_execute", "_check_turn", "_loop")
    for language in LANGUAGES:
        for folder in ("", "solutions/"):
            path = f"notebooks/{language}/{folder}06-appendix-reference-and-trajectory.ipynb"
            notebook = json.loads((ROOT / path).read_text(encoding="utf-8"))
            why = next(
                "".join(cell["source"])
                for cell in notebook["cells"]
                if cell["cell_type"] == "markdown"
                and "<details>" in "".join(cell["source"])
                and "code_places" in "".join(cell["source"])
            )
            assert not any(place in why for place in places), (path, why)
    line = judged("where", WHERE_RIGHT)
    assert line.startswith("✔") and all(place in line for place in places), line
    wrong = judged("where", WHERE_RIGHT.replace("AgentRuntime._loop", "AgentRun.step"))
    assert not any(place in wrong for place in places), wrong


def test_where_says_never_runs_only_of_code_the_run_never_calls() -> None:
    # the handler runs in the Tokyo run (it is the tool, not the application executing it)
    handler = judged(
        "where",
        WHERE_RIGHT.replace(
            '("runtime.py", "AgentRuntime._execute")',
            '("teaching_tools.py", "get_teaching_weather")',
        ),
    )
    assert handler.startswith("✘") and "never runs" not in handler, handler
    protocol = judged(
        "where",
        WHERE_RIGHT.replace(
            'runtime.py", "AgentRuntime._ask_model', 'protocol.py", "Model.generate'
        ),
    )
    assert "Model.generate never runs" in protocol, protocol


def test_a_key_error_in_fresh_calls_is_named_not_only_model_error() -> None:
    line = judged(
        "never_stops",
        """
        def fresh_calls(messages, tools):
            return messages[-1]["tool_calls"]  # the first transcript has no such key
        my_counts = {"model_turns": 3, "tool_executions": 9}
        """,
    )
    assert "KeyError (fresh_calls)" in line, line


@pytest.mark.parametrize(
    ("profile", "said"),
    [
        ("generic", "absorbed neither quirk"),
        ("deepseek", "absorbed neither quirk"),
        ("vllm", "made the missing call ids, but refused the arguments sent as a JSON object"),
        ("lm-studio", "made the missing call ids, but refused the arguments sent as a JSON object"),
    ],
)
def test_a_refused_profile_is_told_what_it_did_with_each_quirk(profile: str, said: str) -> None:
    line = judged("profile_for_quirks", f"my_profile = {profile!r}")
    assert line.startswith("✘") and f"with {profile} the adapter {said}" in line
    assert "ServerQuirkError" in line


def test_a_reused_model_is_told_to_make_a_new_one_each_try() -> None:
    reused = """
    from agentcore import AgentRuntime, MaxStepsExceeded, weather_request
    def smallest_max_steps(make_model, tools):
        model = make_model()  # one model for every try: a listed script starts in its middle
        for max_steps in range(1, 7):
            try:
                AgentRuntime(model, tools, max_steps=max_steps).run(weather_request())
            except MaxStepsExceeded:
                continue
            return max_steps
        return None
    """
    line = judged("smallest_max_steps", reused)
    assert "exactly 6 model turns" in line and "make_model()" in line
    always_three = "def smallest_max_steps(make_model, tools):\n    return 3\n"
    constant = judged("smallest_max_steps", always_three)
    assert "for the greeting your function returned 3" in constant


def test_a_lax_arguments_model_is_told_to_be_strict_first() -> None:
    # neither strict nor finite: the task names strict first, so the hint does too
    lax = """
    from pydantic import BaseModel, ConfigDict
    from agentcore import ScriptedWeatherModel, Tool, describe_temperature
    class Lax(BaseModel):
        model_config = ConfigDict(extra="forbid")
        temperature_f: float
    my_describe_tool = Tool(
        name="describe_temperature", description="d", arguments_model=Lax,
        handler=describe_temperature,
    )
    def describe_script(messages, tools):
        return ScriptedWeatherModel(task="describe").generate(messages, tools)
    """
    assert "make it strict" in judged("describe_temperature", lax)


# Lesson 07's appendix (build it yourself): every written-down answer judged without a kernel,
# in both languages, from the lesson's own cells (the self-check runs each in a kernel too).
BUILD = "07-appendix-build-it-yourself.ipynb"


def build_lesson(language: str) -> tuple[dict[str, Any], list[Any]]:
    """The namespace the appendix's setup cells leave (every code cell that is neither an
    answer nor a check, run up to the last exercise), and its answer cells."""
    import nbformat

    from agentcore import set_language

    set_language(language)
    notebook = nbformat.read(NOTEBOOKS / language / "solutions" / BUILD, as_version=4)
    namespace: dict[str, Any] = {}
    answers = []
    for cell in notebook.cells:
        if cell.cell_type != "code" or "review_quiz(" in cell.source:
            continue
        if cell.metadata.get("agentcore", {}).get("exercise"):
            answers.append(cell)
        elif "check(" not in cell.source and "accepted(" not in cell.source:
            exec(cell.source, namespace)
    return namespace, answers


def judged_in(namespace: dict[str, Any], exercise: str, code: str, language: str) -> str:
    """The verdict line for ``code`` run as the answer; an answer that raises (the learner's
    own tests failing) reads as the notebook's ✘ for a cell that raised."""
    space = dict(namespace)
    try:
        exec(code, space)
    except Exception as error:
        return f"✘ the answer cell raised {type(error).__name__}"
    return checks.verdict(exercise, language, space)[1]


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_lesson_07_appendix_refuses_every_written_down_wrong_answer(language: str) -> None:
    namespace, answers = build_lesson(language)
    try:
        assert len(answers) == 5
        for cell in answers:
            exercise = cell.metadata["agentcore"]["exercise"]
            solution = cell.source.split("### BEGIN SOLUTION\n")[1].split("### END SOLUTION")[0]
            assert judged_in(namespace, exercise, solution, language).startswith("✔")
            for valid in cell.metadata["agentcore"]["valid_answers"]:
                assert judged_in(namespace, exercise, valid, language).startswith("✔"), valid
            for wrong in cell.metadata["agentcore"]["wrong_answers"]:
                line = judged_in(namespace, exercise, wrong["code"], language)
                assert line.startswith("✘"), (wrong["mistake"], line)
    finally:
        from agentcore import set_language

        set_language("en")


def test_lesson_07_appendix_judges_against_the_package() -> None:
    # the expected values come from the adapter and the runtime, not from a table
    from agentcore.course.judges import lesson07_appendix_build as build

    assert build.dependent_reference() == {
        "tool executions": 2,
        "model turns": 2,
        "fahrenheit": 68.0,
    }
    sent = build.wire_reference("en")
    assert [m["role"] for m in sent] == ["user", "assistant", "tool", "assistant"]
    assert sent[1]["tool_calls"][0]["function"]["arguments"] == '{"city": "Tokyo"}'
    refused = [
        case for case, reply in build.extract_cases() if build.extract_reference(reply) is None
    ]
    assert len(refused) == 10
    for language in ("en", "zh-CN"):
        assert sum(build.fault_names(language).values()) == 4


@pytest.mark.parametrize("order", ["sorted(open_ids)", "sorted(open_ids, reverse=True)"])
def test_unanswered_calls_sorted_instead_of_in_request_order_is_told_about_order(
    order: str,
) -> None:
    answer = f"""
    def unanswered_calls(messages):
        asked = [c["call_id"] for m in messages for c in m.get("tool_calls", [])]
        seen = {{m["tool_call_id"] for m in messages if m["role"] == "tool"}}
        open_ids = [c for c in asked if c not in seen]
        return {order}
    """
    line = judged("unanswered_calls", answer)
    assert line.startswith("✘") and "in the order they were requested in" in line


def test_a_bad_reply_with_empty_arguments_is_told_the_adapter_reads_them_as_no_arguments() -> None:
    answer = """
    from agentcore.providers.local_server import Reply, function_call
    my_bad_reply = Reply(output=(function_call("celsius_to_fahrenheit", "", "call-convert"),))
    """
    line = judged("bad_reply", answer)
    assert line.startswith("✘") and "reads empty arguments as {}" in line


# Wrong answers to the lesson 07 appendices that an earlier judge passed; each verdict names
# the case the answer decided wrong or the error it raised.
MAY_RUN_ALLOWS = """
def may_run(name, arguments, caller, approvals):
    if {listed}:
        return True
    if name == "refund_order":
        return {role} and {approved}
    return False
"""
EXACT = '{"tool": name, "arguments": arguments} in approvals'


@pytest.mark.parametrize(
    ("listed", "role", "approved", "case"),
    [
        (
            'name.startswith("get_")',
            'caller["role"] == "clerk"',
            EXACT,
            "get_customer_data, a tool the policy does not list",
        ),
        (
            'name == "get_teaching_weather_record"',
            'caller.get("role") != "guest"',
            EXACT,
            "an approved refund asked for by a manager",
        ),
        (
            'name == "get_teaching_weather_record"',
            'caller["name"].startswith("clerk")',
            EXACT,
            'a guest whose login name starts with "clerk"',
        ),
        (
            'name == "get_teaching_weather_record"',
            'caller["role"] == "clerk"',
            'any(a["tool"] == name and a["arguments"]["order"] == arguments["order"]'
            " for a in approvals)",
            "approved for the same order but another amount",
        ),
    ],
    ids=["get-prefix", "deny-list-of-roles", "role-from-name", "order-only"],
)
def test_may_run_refuses_policies_that_pass_what_the_policy_does_not_list(
    listed: str, role: str, approved: str, case: str
) -> None:
    code = MAY_RUN_ALLOWS.format(listed=listed, role=role, approved=approved)
    line = judged("may_run", code)
    assert line.startswith("✘ Not yet: 1 of 14 calls decided wrong"), line
    assert case in line, line
    right = MAY_RUN_ALLOWS.format(
        listed='name == "get_teaching_weather_record"',
        role='caller["role"] == "clerk"',
        approved=EXACT,
    )
    assert judged("may_run", right).startswith("✔")


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ("    return 1/0\n", "ZeroDivisionError"),
        (
            "    turn = model.generate([{'role': 'user', 'content': request}], [])\n"
            "    return {}[turn.tool_calls[0].name]\n",
            "KeyError",
        ),
    ],
    ids=["at-once", "after-one-model-call"],
)
def test_own_loop_names_the_learners_own_error_before_the_unread_record(
    body: str, error: str
) -> None:
    namespace, _ = build_lesson("en")
    code = "def run_my_loop(model, tools, request, max_steps):\n" + body
    line = judged_in(namespace, "own_loop", code, "en")
    assert line.startswith("✘") and f"run_my_loop raised {error}" in line, line
    assert "never read the weather record" not in line


def test_own_loop_still_says_the_record_was_never_read_when_it_ran_out_of_steps() -> None:
    namespace, answers = build_lesson("en")
    cell = next(c for c in answers if c.metadata["agentcore"]["exercise"] == "own_loop")
    wrong = next(
        w["code"]
        for w in cell.metadata["agentcore"]["wrong_answers"]
        if w["mistake"] == "the observation never goes back to the model"
    )
    line = judged_in(namespace, "own_loop", wrong, "en")
    assert "never read the weather record" in line, line


@pytest.mark.parametrize(
    ("mistake", "said"),
    [
        (
            'only a list refused as arguments: null, 18 and "x" reach ToolCall',
            "for a call whose arguments are the JSON null, your extract_tool_calls raised"
            " InvalidModelTurnError",
        ),
        (
            "neither the id nor the type checked: ToolCall raises InvalidModelTurnError for a"
            " missing id",
            "for a call without an id, your extract_tool_calls raised InvalidModelTurnError",
        ),
        (
            "a call of another type read as a function",
            'for a call whose type is not "function", your extract_tool_calls returned a value',
        ),
    ],
)
def test_extract_tool_calls_refuses_what_only_toolcall_refused(mistake: str, said: str) -> None:
    namespace, answers = build_lesson("en")
    cell = next(c for c in answers if c.metadata["agentcore"]["exercise"] == "extract_tool_calls")
    wrong = next(
        w["code"] for w in cell.metadata["agentcore"]["wrong_answers"] if w["mistake"] == mistake
    )
    line = judged_in(namespace, "extract_tool_calls", wrong, "en")
    assert line.startswith("✘ Not yet: " + said), line


@pytest.mark.parametrize("arguments", ["null", "18", '"x"'])
def test_extract_tool_calls_wants_the_adapters_error_for_json_that_is_no_object(
    arguments: str,
) -> None:
    from agentcore.course.judges import lesson07_appendix_build as build

    cases = dict(build.extract_cases())
    found = [
        case
        for case, reply in cases.items()
        if reply["choices"]
        and (reply["choices"][0]["message"].get("tool_calls") or [{}])[0]
        .get("function", {})
        .get("arguments")
        == arguments
    ]
    assert len(found) == 1 and build.extract_reference(cases[found[0]]) is None
