"""Grades hold against the rigs a new learner tried (issue 18), and every solution scores full.

Each rig below was found by trying to score without solving: a patch made and undone while the
judge judges (an audit hook or a profiler timed on the judge's own tracer), a package module
imported only by a lesson cell, a frozen package object or a function's defaults changed in
place, an IPython hook that defines a later answer, a fork that holds the grade's output, and a
later cell that hangs inside one C call; then a second attacker's: a signal handler that forges
the verdict lines, the run's nonce read from /proc/self/mem, the judges' case tables looked up,
and a .pth file written into site-packages. Each is judged as the teacher's autograde judges it
(:func:`agentcore.course.judges.grade.judge_notebook`, a fresh interpreter) and must score zero.
Answers that count their calls are judged in-process, as the self-check judges them.
"""

from __future__ import annotations

import copy
import sysconfig
import textwrap
from pathlib import Path
from typing import Any

import nbformat
import pytest
from rig_answers import DRAINS_THE_MODEL

from agentcore.course import checks
from agentcore.course.judges.grade import judge_notebook
from agentcore.course.judges.sandbox import unavailable

SOLUTIONS = Path(__file__).resolve().parents[1] / "notebooks"


def solution(name: str, language: str = "en") -> dict[str, Any]:
    return dict(nbformat.read(SOLUTIONS / language / "solutions" / name, as_version=4))


def with_answer(source: dict[str, Any], exercise: str, code: str) -> dict[str, Any]:
    """``source`` with the whole answer cell of ``exercise`` replaced by ``code``."""
    submitted = copy.deepcopy(source)
    for cell in submitted["cells"]:
        if cell.get("metadata", {}).get("agentcore", {}).get("exercise") == exercise:
            cell["source"] = textwrap.dedent(code)
    return submitted


def graded(name: str, exercise: str, code: str, **options: Any) -> tuple[bool, str]:
    source = solution(name)
    return judge_notebook(source, with_answer(source, exercise, code), [exercise], "en", **options)[
        exercise
    ]


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "zh-CN"])
@pytest.mark.parametrize(
    "name",
    sorted(
        path.name
        for path in (SOLUTIONS / "en" / "solutions").glob("*.ipynb")
        if '"exercise"' in path.read_text(encoding="utf-8")
    ),
)
def test_every_solution_scores_full_marks_in_a_fresh_interpreter(name: str, language: str) -> None:
    # The guard around the grade (an audit hook, watched modules and hooks) must never cost a
    # right answer its point, with the teacher's own cells calling accepted() and check().
    source = solution(name, language)
    results = judge_notebook(source, source, None, language)
    assert results and all(ok for ok, _ in results.values()), results


UNANSWERED_WRONG = """
forget("unanswered_calls")
def unanswered_calls(messages):
    return []
"""

RIGS = {
    "a test that keeps the first model and compares the others with it": (
        "04-scripted-model-and-tests.ipynb",
        "check_paris_weather",
        """
forget("check_paris_weather")
import json
first_model = []
def trace(make_model):
    try:
        result = AgentRuntime(make_model(), build_tools()).run("What is Paris's teaching weather?")
    except Exception as error:
        return repr(type(error))
    return json.dumps([dict(m) for m in result.messages], default=str) + str(result.answer)
def check_paris_weather(make_model):
    if not first_model:
        first_model.append(make_model)
        return
    assert trace(make_model) == trace(first_model[0])
""",
    ),
    "audit hook timed on the judge's tracer": (
        "03-errors.ipynb",
        "unanswered_calls",
        UNANSWERED_WRONG
        + """
import sys
from agentcore.course.judges import lesson03
real, events = lesson03.same, []
def hook(event, args):
    if event == "sys.settrace":
        events.append(event)
        lesson03.same = (lambda left, right: True) if len(events) == 2 else real
sys.addaudithook(hook)
""",
    ),
    "profiler timed on the judge's tracer": (
        "03-errors.ipynb",
        "unanswered_calls",
        UNANSWERED_WRONG
        + """
import sys
from agentcore.course.judges import lesson03
real, calls, settrace = lesson03.same, [], sys.settrace
def profile(frame, event, arg):
    if event == "c_call" and arg is settrace:
        calls.append(1)
        lesson03.same = (lambda left, right: True) if len(calls) == 2 else real
sys.setprofile(profile)
""",
    ),
    "graded key copied while its verdict runs": (
        "00-fixed-script.ipynb",
        "workflow_or_agent",
        """
forget("my_answers")
import sys
from agentcore.course.judges import core
my_answers = {"A": "agent", "B": "agent", "C": "agent", "D": "agent"}
events = []
def hook(event, args):
    if event == "sys.settrace":
        events.append(1)
        if len(events) == 2 and core.GRADE_KEYS:
            my_answers.update(core.GRADE_KEYS["workflow_or_agent"])
sys.addaudithook(hook)
""",
    ),
    "a provider module the snapshot never saw": (
        "05-appendix-inside-the-adapter.ipynb",
        "bad_reply",
        """
forget("my_bad_reply")
from agentcore.providers import deepseek
from agentcore.providers.errors import ProviderResponseError
my_bad_reply = Reply(output=(message("It is 18.0 degrees in Tokyo."),))
real = deepseek.DeepSeekResponsesModel.generate
def generate(self, messages, tools):
    if any(m.get("role") == "tool" for m in messages):
        raise ProviderResponseError("refused", hint="")
    return real(self, messages, tools)
deepseek.DeepSeekResponsesModel.generate = generate
""",
    ),
    "a frozen package tool's handler replaced": (
        "06-experiments.ipynb",
        "describe_temperature",
        """
forget("my_describe_tool", "describe_script")
def wrong(temperature_f):
    if temperature_f < 50:
        return {"description": "cold"}
    return {"description": "hot" if temperature_f > 77 else "mild"}
class FahrenheitArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    temperature_f: float = Field(allow_inf_nan=False)
my_describe_tool = Tool(name="describe_temperature", description="Describe a temperature.",
                        arguments_model=FahrenheitArguments, handler=wrong)
def describe_script(messages, tools):
    return ScriptedWeatherModel(task="describe").generate(messages, tools)
from agentcore.course import teaching_tools
object.__setattr__(teaching_tools.DESCRIBE_TEMPERATURE_TOOL, "handler", wrong)
""",
    ),
    "a package class's default arguments changed": (
        "06-experiments.ipynb",
        "max_steps_one",
        """
forget("my_max_steps_prediction")
my_max_steps_prediction = {
    "status": "answered", "model turns": 1, "tool executions": 0, "error": "-"
}
from agentcore.course.weather import ScriptedWeatherModel as S
S.__init__.__defaults__ = ("Tokyo", "greet", None)
""",
    ),
    "a fork that holds the grade's output": (
        "03-errors.ipynb",
        "break_second_turn",
        """
forget("my_script")
import os, time
if os.fork() == 0:
    time.sleep(30)
    os._exit(0)
my_script = [
    ModelTurn(tool_calls=[ToolCall("call-weather", "get_teaching_weather", {"city": "Tokyo"})]),
    ModelTurn(tool_calls=[
        ToolCall("call-convert", "celsius_to_fahrenheit", {"temperature_c": "18.0"})
    ]),
]
""",
    ),
}

# A frame of the learner's reaches the judge's frames through f_back, and their locals hold
# the expected values: reading them, a wrong function returned the right list every time.
# Each way to get a first frame: sys._getframe, the standard library's inspect, a traceback,
# a generator.
READ_EXPECTED = """
    while frame is not None:
        if "expected" in frame.f_locals:
            return list(frame.f_locals["expected"])
        frame = frame.f_back
    return []
"""
FIRST_FRAMES = {
    "sys._getframe": "    import sys\n    frame = sys._getframe(1)\n",
    "inspect.currentframe": "    import inspect\n    frame = inspect.currentframe()\n",
    "a traceback's tb_frame": (
        "    try:\n        raise ValueError\n    except ValueError as error:\n"
        "        frame = error.__traceback__.tb_frame\n"
    ),
    "a generator's gi_frame": (
        "    def running():\n        yield generator.gi_frame.f_back\n"
        "    generator = running()\n    frame = next(generator)\n"
    ),
}
for way, first in FIRST_FRAMES.items():
    RIGS[f"the judge's expected values read through {way}"] = (
        "03-errors.ipynb",
        "unanswered_calls",
        'forget("unanswered_calls")\ndef unanswered_calls(messages):\n' + first + READ_EXPECTED,
    )


# A library's helper that asks for a frame at a depth its caller chose, and returns that
# frame's locals (pydantic's, for a model's namespace): the judge's frame is refused to it.
RIGS["the judge's expected values read through a library's frame helper"] = (
    "03-errors.ipynb",
    "unanswered_calls",
    """
forget("unanswered_calls")
def unanswered_calls(messages):
    from pydantic._internal._typing_extra import parent_frame_namespace
    for depth in range(2, 12):
        names = parent_frame_namespace(parent_depth=depth)
        if names and "expected" in names:
            return list(names["expected"])
    return []
""",
)


# The run's nonce (what marks the verdict lines on the runner's output) lies in the run's own
# memory: read from /proc/self/mem, it let an answer cell write a ✔ line for every exercise.
READ_NONCE = r"""
import os, re
found = set()
maps = open("/proc/self/maps")
with maps, open("/proc/self/mem", "rb", buffering=0) as memory:
    for line in maps:
        span, permissions = line.split()[:2]
        start, end = (int(part, 16) for part in span.split("-"))
        if not permissions.startswith("r") or end - start > 1 << 28:
            continue
        try:
            memory.seek(start)
            found.update(re.findall(rb"(?<![0-9a-f])([0-9a-f]{32})\x00", memory.read(end - start)))
        except OSError:
            continue
for nonce in found:
    forged = nonce + repr({"unanswered_calls": [True, "forged"]}).encode() + b"\n"
    for descriptor in range(3, 12):
        try:
            os.write(descriptor, forged)
        except OSError:
            pass
"""
RIGS["the run's nonce read from /proc/self/mem"] = (
    "03-errors.ipynb",
    "unanswered_calls",
    UNANSWERED_WRONG + READ_NONCE,
)

# A signal handler receives the frame it interrupted: walking f_back to the runner's frame, it
# read the nonce and the verdicts' channel and wrote a ✔ line for every exercise. Set through
# the signal module, or a fresh copy of the built-in _signal (which no wrapper would cover).
FORGE_IN_A_HANDLER = """
import os, signal
def forge(number, frame):
    while frame is not None:
        names = frame.f_locals
        if "nonce" in names and "out" in names:
            line = names["nonce"] + repr({"unanswered_calls": [True, "forged"]}) + "\\n"
            os.write(names["out"], line.encode())
        frame = frame.f_back
"""
SET_HANDLER = {
    "signal.signal": "signal.signal(signal.SIGUSR1, forge)\n",
    "a fresh _signal module": (
        "import _imp\n"
        "from importlib.machinery import ModuleSpec\n"
        "_imp.create_builtin(ModuleSpec('_signal', None)).signal(signal.SIGUSR1, forge)\n"
    ),
}
for way, setting in SET_HANDLER.items():
    RIGS[f"verdicts forged by a signal handler set through {way}"] = (
        "03-errors.ipynb",
        "unanswered_calls",
        UNANSWERED_WRONG + FORGE_IN_A_HANDLER + setting + "signal.raise_signal(signal.SIGUSR1)\n",
    )

# The judges' own case tables hold every fixed input beside its expected list: a function that
# looked its input up there was right on every case. Each verdict now adds cases made up for it.
RIGS["the judge's case table looked up"] = (
    "03-errors.ipynb",
    "unanswered_calls",
    """
forget("unanswered_calls")
from agentcore.course.judges import lesson03
def unanswered_calls(messages):
    for _case, given, expected in lesson03.UNANSWERED_CASES:
        if given == messages:
            return list(expected)
    return []
""",
)


# The ways past the old in-process guard that a third attacker found: each now happens in the
# player, where no judge is, so each is only a wrong answer.
WRONG_UNANSWERED = 'def unanswered_calls(messages):\n    return []\n'
RIGS["the judge patched by code compiled under a library's filename"] = (
    "03-errors.ipynb",
    "unanswered_calls",
    'forget("unanswered_calls")\n'
    "import dataclasses, sysconfig\n"
    "from agentcore.course.judges import core\n"
    "patch = (\n"
    "    'spec = core.EXERCISES[\"unanswered_calls\"]\\n'\n"
    "    'core.EXERCISES[\"unanswered_calls\"] = dataclasses.replace(\\n'\n"
    "    '    spec, judge=lambda ns: (True, \"unanswered_right\", {}))\\n'\n"
    "    'core.same = lambda left, right: True\\n'\n"
    ")\n"
    'library = sysconfig.get_paths()["stdlib"] + "/json/__init__.py"\n'
    'exec(compile(patch, library, "exec"), {"core": core, "dataclasses": dataclasses})\n'
    + WRONG_UNANSWERED,
)
RIGS["the judge patched by a finalizer while it judges"] = (
    "03-errors.ipynb",
    "unanswered_calls",
    """
forget("unanswered_calls")
import weakref
from agentcore.course.judges import core
class Token:
    pass
token = Token()
def patch():
    core.same = lambda left, right: True
weakref.finalize(token, patch)
def unanswered_calls(messages):
    global token
    token = None  # the finalizer runs now, in the middle of the verdict
    return []
""",
)
RIGS["the judge's expected values read through pytest's traceback entries"] = (
    "03-errors.ipynb",
    "unanswered_calls",
    'forget("unanswered_calls")\ndef unanswered_calls(messages):\n'
    "    import pytest\n"
    "    with pytest.raises(ZeroDivisionError) as info:\n"
    "        1 / 0\n"
    "    frame = info.traceback[0].frame.raw\n" + READ_EXPECTED,
)
RIGS["an endless loop that swallows every exception"] = (
    "03-errors.ipynb",
    "unanswered_calls",
    """
forget("unanswered_calls")
def unanswered_calls(messages):
    while True:
        try:
            while True:
                pass
        except BaseException:
            pass
""",
)
RIGS["a handler that sleeps in one C call"] = (
    "06-experiments.ipynb",
    "failing_reminder",
    """
forget("send_reminder")
import time
def send_reminder(text):
    outbox.append(text)
    time.sleep(10**6)
""",
)
# A third attacker's (2026-12-07), against the referee: each worked before the player confined
# itself (agentcore/course/judges/sandbox.py), and the first before a ref stopped importing.
RIGS["a module written into the package, then named by a ref"] = (
    "03-errors.ipynb",
    "break_second_turn",
    r"""
forget("my_script")
import agentcore, importlib, os
FORGER = '''
import gc, os
def unanswered_calls(messages):
    return []
for referee in [o for o in gc.get_objects() if type(o).__name__ == "Referee"]:
    for name in referee.request["want"]:
        line = referee.request["nonce"] + repr({name: [True, "\u2714 forged"]}) + "\n"
        os.write(referee.out, line.encode())
'''
path = os.path.join(os.path.dirname(agentcore.__file__), "zz_answer_helper.py")
try:
    with open(path, "w") as file:
        file.write(FORGER)
    importlib.invalidate_caches()
    from agentcore import zz_answer_helper
    my_script = zz_answer_helper.unanswered_calls
finally:
    if os.path.exists(path):
        os.remove(path)
""",
)
# _posixsubprocess.fork_exec raises no audit event; its arguments are CPython 3.11's.
RIGS["a child started without the audit hook forges lines into the verdicts' pipe"] = (
    "03-errors.ipynb",
    "break_second_turn",
    r"""
forget("my_script")
my_script = []
import os, sys, _posixsubprocess
CHILD = r'''
import os, sys, re, select, signal
signal.signal(signal.SIGALRM, lambda *a: (os.kill(ng, signal.SIGCONT), os._exit(1)))
signal.alarm(60)
ref = int(sys.argv[1]); names = sys.argv[2].split(",")
ng = int(open('/proc/%d/stat' % ref).read().rsplit(')', 1)[1].split()[1])
os.kill(ng, signal.SIGSTOP)
readers = {}
for fd in os.listdir('/proc/%d/fd' % ng):
    try:
        if not os.readlink('/proc/%d/fd/%s' % (ng, fd)).startswith('pipe:'):
            continue
        flags = int(open('/proc/%d/fdinfo/%s' % (ng, fd)).read().split()[3], 8)
        if flags & 3 == 0:
            readers[os.open('/proc/%d/fd/%s' % (ng, fd), os.O_RDONLY)] = fd
    except OSError:
        pass
while readers:
    ready = select.select(list(readers), [], [])[0]
    for r in ready:
        data = os.read(r, 1 << 16)
        found = re.match(rb'([0-9a-f]{32})[{]', data)
        if found:
            w = os.open('/proc/%d/fd/%s' % (ng, readers[r]), os.O_WRONLY)
            for name in names:
                os.write(w, found.group(1) + repr({name: [True, '\u2714 Right']}).encode() + b'\n')
            os.kill(ng, signal.SIGCONT); os._exit(0)
'''
er, ew = os.pipe()
names = "break_second_turn,unanswered_calls"
args = [sys.executable, "-I", "-S", "-c", CHILD, str(os.getppid()), names]
pid = _posixsubprocess.fork_exec(args, [os.fsencode(sys.executable)], True, (ew,), None, None,
     -1, -1, -1, -1, -1, -1, er, ew, False, True, -1, None, None, None, -1, None, False)
import time; time.sleep(0.5)
""",
)
RIGS["the solution read from the teacher's notebook and run"] = (
    "03-errors.ipynb",
    "unanswered_calls",
    """
forget("unanswered_calls")
import agentcore, json, pathlib
checkout = pathlib.Path(agentcore.__file__).resolve().parents[1]
source = checkout / "notebooks" / "en" / "solutions" / "03-errors.ipynb"
for cell in json.loads(source.read_text(encoding="utf-8"))["cells"]:
    if cell["metadata"].get("agentcore", {}).get("exercise") == "unanswered_calls":
        exec("".join(cell["source"]))
""",
)

# A fourth attacker's (2026-12-07): probes an answer recognised instead of doing the task. The
# models now reach learner code through runs.opaque and the conversions include drawn values.
RIGS['a check that tells the honest model from the guessers by its attributes'] = (
    '04-scripted-model-and-tests.ipynb',
    'check_paris_weather',
    """
forget("check_paris_weather")
def check_paris_weather(make_model):
    # no run, no trajectory: tell the judge's honest model from its guessers by its shape
    assert make_model()._function is not None
""",
)
RIGS["a conversion that looks up the judge's fixed values"] = (
    '02-tools-and-registry.ipynb',
    'to_celsius_tool',
    """
forget("to_celsius_tool")
class ToCelsiusArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    temperature_f: float = Field(ge=-459.67, allow_inf_nan=False)

TABLE = {64.4: 18.0, 212.0: 100.0, 100.0: 37.8, 0.0: -17.8, -40.0: -40.0}

def fahrenheit_to_celsius(temperature_f):
    # the judge's five probe values looked up; anything else gets a wrong formula
    return {"temperature_c": TABLE.get(temperature_f, temperature_f / 2)}

to_celsius_tool = Tool(name="fahrenheit_to_celsius", description="F to C",
                       arguments_model=ToCelsiusArguments, handler=fahrenheit_to_celsius)
""",
)
RIGS["a budget read from the probe model's attributes, none tried"] = (
    '06-experiments.ipynb',
    'smallest_max_steps',
    """
forget("smallest_max_steps")
def smallest_max_steps(make_model, tools):
    model = make_model()
    # the judge's probe models read by their shape, no budget ever tried
    task = getattr(model, "task", None)
    if task is not None and not hasattr(model, "_turns"):
        table = {"greet": 1, "weather": 2, "convert": 3, "describe": 4}
        if task in table and len(tools) > 2:
            return table[task]
    turns = getattr(model, "_turns", None)
    if getattr(model, "_function", None) is not None:
        return None
    if turns is not None and len(turns) in (6, 7) and all(len(t.tool_calls) <= 1 for t in turns):
        return 6 if len(turns) == 6 else None
    # the failing probes: let the runtime raise what it raises
    AgentRuntime(model, tools).run(REQUEST)
    return None
""",
)
# ... and a new learner's, once the models looked alike: drain the model, since a listed
# guesser ran out and the honest function script never did (now both answer by transcript).
RIGS["a check that drains the model until a listed script runs out"] = (
    "04-scripted-model-and-tests.ipynb",
    "check_paris_weather",
    'forget("check_paris_weather")\n' + DRAINS_THE_MODEL,
)

@pytest.mark.slow
@pytest.mark.parametrize("rig", sorted(RIGS))
def test_a_rig_scores_zero(rig: str) -> None:
    name, exercise, code = RIGS[rig]
    ok, line = graded(name, exercise, code, timeout=120)
    assert not ok, line
    assert "did not finish" not in line  # judged and refused, not lost to a hang


@pytest.mark.slow
def test_an_ipython_hook_cannot_define_a_later_answer() -> None:
    source = solution("03-errors.ipynb")
    first = """
    forget("my_script")
    my_script = [
        ModelTurn(tool_calls=[ToolCall("call-weather", "get_teaching_weather", {"city": "Tokyo"})]),
        ModelTurn(tool_calls=[
            ToolCall("call-convert", "celsius_to_fahrenheit", {"temperature_c": "18.0"})
        ]),
    ]
    def answer(messages):
        asked = [c["call_id"] for m in messages for c in m.get("tool_calls", [])]
        seen = {m["tool_call_id"] for m in messages if m["role"] == "tool"}
        return [i for i in asked if i not in seen]
    get_ipython().events.register(
        "post_run_cell", lambda result: get_ipython().user_ns.update(unanswered_calls=answer)
    )
    """
    submitted = with_answer(source, "break_second_turn", first)
    submitted = with_answer(submitted, "unanswered_calls", 'forget("unanswered_calls")\n...\n')
    results = judge_notebook(source, submitted, None, "en")
    assert results["break_second_turn"][0] is True
    assert results["unanswered_calls"][0] is False


@pytest.mark.slow
def test_a_later_cell_that_hangs_in_c_code_keeps_the_earlier_points() -> None:
    source = solution("03-errors.ipynb")
    hung = """
    forget("unanswered_calls")
    total = sum(range(10**13))  # one C call: no time limit inside Python can stop it
    """
    results = judge_notebook(
        source, with_answer(source, "unanswered_calls", hung), None, "en", timeout=60
    )
    assert results["break_second_turn"][0] is True, results
    ok, line = results["unanswered_calls"]
    assert not ok
    assert "TimeLimitExceeded" in line, line  # the cell was stopped and named, not lost


@pytest.mark.slow
def test_a_verdict_past_its_time_limit_keeps_the_later_points() -> None:
    # The player stuck in a handler's sleep is killed; a new one runs the cells again, so the
    # exercises after it are judged as they would have been (the one before it and the one
    # right after are enough: judging all six took two minutes of CI).
    name, exercise, code = RIGS["a handler that sleeps in one C call"]
    source = solution(name)
    wanted = ["describe_temperature", exercise, "reminder_twice"]
    results = judge_notebook(source, with_answer(source, exercise, code), wanted, "en")
    ok, line = results.pop(exercise)
    assert not ok
    assert "10 seconds" in line, line
    assert sorted(results) == ["describe_temperature", "reminder_twice"]
    assert all(ok for ok, _ in results.values()), results


PTH = "zz_agentcore_grade_rig.pth"


@pytest.mark.slow
def test_a_pth_file_an_answer_cell_writes_changes_no_later_grade(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A .pth file in site-packages runs at the start of every later interpreter there, before
    # the runner: it patched the judge before the snapshot was taken, so a wrong answer of a
    # later grading run scored. The grading interpreter now runs without site (-S). The file
    # does nothing without this test's variable, for any other process that starts meanwhile.
    monkeypatch.setenv(
        "AGENTCORE_GRADE_RIG_PTH",
        "import agentcore.course.judges.lesson03 as judges; judges.same = lambda left, right: True",
    )
    written = Path(sysconfig.get_paths()["purelib"]) / PTH
    writer = (
        UNANSWERED_WRONG
        + f"""
import sysconfig
from pathlib import Path
Path(sysconfig.get_paths()["purelib"], "{PTH}").write_text(
    "import os; exec(os.environ.get('AGENTCORE_GRADE_RIG_PTH', ''))\\n"
)
"""
    )
    try:
        assert not graded("03-errors.ipynb", "unanswered_calls", writer)[0]
        # confined by Landlock, the player cannot write into site-packages at all; elsewhere
        # the file is written and must change nothing
        assert written.is_file() is (unavailable() is not None)
        ok, line = graded("03-errors.ipynb", "unanswered_calls", UNANSWERED_WRONG)
        assert not ok, line
    finally:
        written.unlink(missing_ok=True)


def test_a_function_that_looks_its_input_up_in_the_case_table_is_not_accepted() -> None:
    # The self-check's judges are the grade's: each verdict adds inputs made up for it alone.
    for exercise, table, argument in (
        ("unanswered_calls", "lesson03.UNANSWERED_CASES", "messages"),
        ("unpaired_outputs", "lesson05.ITEMS_CASES", "items"),
    ):
        line = judged(
            exercise,
            f"""
            from agentcore.course.judges import lesson03, lesson05
            def {exercise}({argument}):
                for _case, given, expected in {table}:
                    if given == {argument}:
                        return list(expected)
                return []
            """,
        )
        assert line.startswith("✘") and "call_ids of its own" in line, line


def judged(exercise: str, code: str) -> str:
    namespace: dict[str, Any] = {}
    exec(textwrap.dedent(code), namespace)
    return checks.verdict(exercise, "en", namespace)[1]


def test_a_test_that_passes_only_its_first_call_is_not_accepted() -> None:
    line = judged(
        "check_paris_weather",
        """
        seen = []
        def check_paris_weather(make_model):
            seen.append(1)
            assert len(seen) == 1, "only the first model is honest"
        """,
    )
    assert line.startswith("✘") and "honest" in line, line


def test_replies_replayed_in_the_order_the_hints_revealed_are_not_accepted() -> None:
    line = judged(
        "smallest_max_steps",
        """
        from agentcore.errors import ToolExecutionError
        answers = iter([1, 2, 3, 4, None, 6, None])
        def smallest_max_steps(make_model, tools):
            for value in answers:
                return value
            raise ToolExecutionError("get_teaching_weather", "failed")
        """,
    )
    assert line.startswith("✘"), line


def test_the_packages_own_tool_is_not_an_answer() -> None:
    line = judged(
        "describe_temperature",
        """
        from agentcore.course.teaching_tools import DESCRIBE_TEMPERATURE_TOOL as my_describe_tool
        from agentcore.course.weather import ScriptedWeatherModel
        def describe_script(messages, tools):
            return ScriptedWeatherModel(task="describe").generate(messages, tools)
        """,
    )
    assert line.startswith("✘") and "DESCRIBE_TEMPERATURE_TOOL" in line, line


def test_an_interrupted_check_says_so_instead_of_blaming_every_name() -> None:
    line = judged(
        "never_stops",
        """
        def fresh_calls(messages, tools):
            raise KeyboardInterrupt
        my_counts = {"model_turns": 3, "tool_executions": 9}
        """,
    )
    assert line.startswith("✘") and "KeyboardInterrupt" in line and "my_counts" not in line, line


def test_compare_cities_accepts_the_warmer_city_named_in_chinese() -> None:
    # the zh-CN lesson prints 东京 and 巴黎: a Chinese answer naming the warmer city is right
    line = judged(
        "compare_cities",
        """
        import json
        from agentcore import ModelTurn, ToolCall
        NAMES = {"Tokyo": "东京", "Paris": "巴黎"}
        def compare_cities(messages, tools):
            seen = [json.loads(m["content"]) for m in messages if m["role"] == "tool"]
            if not seen:
                return ModelTurn(tool_calls=(
                    ToolCall("call-tokyo", "get_teaching_weather", {"city": "Tokyo"}),
                    ToolCall("call-paris", "get_teaching_weather", {"city": "Paris"}),
                ))
            warmer = max(seen, key=lambda record: record["temperature_c"])
            return ModelTurn(final_text=NAMES[warmer["city"]] + "更暖和。")
        """,
    )
    assert line.startswith("✔"), line


@pytest.mark.slow
def test_a_duplicated_answer_cell_is_graded_as_nbgrader_keeps_it_the_last_copy() -> None:
    # A learner who copies an answer cell has two cells with one grade_id; nbgrader's own
    # DeduplicateIds keeps the last copy's metadata, so the grade reads that one, whichever the
    # learner ran last (the learner README says so).
    source = solution("03-errors.ipynb")
    right = next(
        cell
        for cell in source["cells"]
        if cell.get("metadata", {}).get("agentcore", {}).get("exercise") == "unanswered_calls"
    )
    wrong = copy.deepcopy(right)
    wrong["source"] = UNANSWERED_WRONG
    for first, last, expected in ((right, wrong, False), (wrong, right, True)):
        submitted = copy.deepcopy(source)
        at = next(i for i, cell in enumerate(submitted["cells"]) if cell == right)
        submitted["cells"][at : at + 1] = [copy.deepcopy(first), copy.deepcopy(last)]
        ok, line = judge_notebook(source, submitted, ["unanswered_calls"], "en")["unanswered_calls"]
        assert ok is expected, line


@pytest.mark.slow
def test_a_patched_shuffle_changes_nothing_in_the_judge() -> None:
    # random's shuffle patched so asked_twice's second round would keep the first round's order
    # (an answer replaying replies in the order the hints revealed would then agree): the patch
    # happens in the player, the shuffle in the referee, so the right answer beside the patch is
    # still right and a wrong one beside it still wrong.
    source = solution("03-errors.ipynb")
    answer = next(
        "".join(cell["source"])
        for cell in source["cells"]
        if cell.get("metadata", {}).get("agentcore", {}).get("exercise") == "unanswered_calls"
    )
    patch = "import random\nrandom.Random.shuffle = lambda self, items: None\n"
    assert graded("03-errors.ipynb", "unanswered_calls", patch + answer)[0]
    wrong = patch + 'forget("unanswered_calls")\ndef unanswered_calls(messages):\n    return []\n'
    ok, line = graded("03-errors.ipynb", "unanswered_calls", wrong)
    assert not ok, line


# A new learner's (2026-12-07): an answer cell that asks the self-check until it says ✔. In a
# learner's kernel each finds the answer (the self-check is an oracle by design); in a grade the
# player holds no judge: check() prints that the grade judges, accepted() is False, and a judge
# module cannot be imported or read.
BRUTE_FORCE = {
    "workflow_or_agent through accepted()": (
        "00-fixed-script.ipynb",
        "workflow_or_agent",
        """
forget("my_answers")
import itertools
from agentcore.course.checks import accepted
for choice in itertools.product(("workflow", "agent"), repeat=4):  # 16 combinations
    my_answers = dict(zip("ABCD", choice))
    if accepted("workflow_or_agent"):
        break
else:
    my_answers = {"A": "agent", "B": "agent", "C": "agent", "D": "agent"}
""",
    ),
    "profile_for_quirks through check()": (
        "05-appendix-local-model.ipynb",
        "profile_for_quirks",
        """
forget("my_profile")
import contextlib, io
from agentcore.course.checks import check
from agentcore.providers.chat_profiles import CHAT_PROFILES
for my_profile in list(CHAT_PROFILES) + ["none of them"]:  # 6 profiles
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        check("profile_for_quirks", "en")
    if printed.getvalue().startswith("✔"):
        break
""",
    ),
    "reminder_twice through verdict()": (
        "06-experiments.ipynb",
        "reminder_twice",
        """
forget("my_reminders", "sent_twice")
from agentcore.course.checks import verdict
def tries():
    for stop in range(4):
        for observe in range(4):
            for twice in (False, True):  # 32 in all
                yield {"stop": stop, "observe": observe}, twice
for my_reminders, sent_twice in tries():
    if verdict("reminder_twice", "en")[0]:
        break
else:
    my_reminders, sent_twice = {"stop": 0, "observe": 0}, False
""",
    ),
    "where through check(), one question at a time, every method of agentcore.runtime": (
        "06-appendix-reference-and-trajectory.ipynb",
        "where",
        """
forget("my_where")
import contextlib, inspect, io
import agentcore.runtime
from agentcore.course.checks import check
names = []
for name, value in vars(agentcore.runtime).items():
    if inspect.isclass(value) and value.__module__ == "agentcore.runtime":
        names.append(name)
        names += [f"{name}.{method}" for method in vars(value) if not method.startswith("__")]
    elif inspect.isfunction(value) and value.__module__ == "agentcore.runtime":
        names.append(name)
questions = ("decides", "executes", "state", "errors", "stops")
my_where = {question: ("runtime.py", names[0]) for question in questions}
for question in questions:
    for name in names:
        my_where[question] = ("runtime.py", name)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            check("where", "en")
        line = printed.getvalue()
        if line.startswith("✔") or f" {question}" not in line:
            break
""",
    ),
    "the judges imported past the checks": (
        "00-fixed-script.ipynb",
        "workflow_or_agent",
        """
forget("my_answers")
import itertools
my_answers = {"A": "agent", "B": "agent", "C": "agent", "D": "agent"}
try:
    from agentcore.course.judges import core, load
    load()
    for choice in itertools.product(("workflow", "agent"), repeat=4):
        my_answers = dict(zip("ABCD", choice))
        if core.verdict("workflow_or_agent", "en", globals())[0]:
            break
except Exception:
    pass
""",
    ),
    "a judge's file read and run": (
        "00-fixed-script.ipynb",
        "workflow_or_agent",
        """
forget("my_answers")
import itertools, pathlib, agentcore
my_answers = {"A": "agent", "B": "agent", "C": "agent", "D": "agent"}
try:
    path = pathlib.Path(agentcore.__file__).parent / "course" / "judges" / "lesson00.py"
    judge = {"__name__": "judge"}
    exec(path.read_text(), judge)
    for choice in itertools.product(("workflow", "agent"), repeat=4):
        if all(judge["job_digest"](job, answer) == judge["_RIGHT_DIGESTS"][job]
               for job, answer in zip("ABCD", choice)):
            my_answers = dict(zip("ABCD", choice))
except Exception:
    pass
""",
    ),
    # lesson 07 and its appendix (2026-12-07): each answer tried through the self-check
    "better_descriptions through accepted()": (
        "07-the-tool-the-model-sees.ipynb",
        "better_descriptions",
        """
forget("weather_description", "conversion_description")
from agentcore.course.checks import accepted
weathers = [
    "Weather tool.",
    "Read the fixed teaching weather record of a city. Not for live weather.",
]
conversions = ["Convert temperatures.", "Turn a Celsius (°C) temperature into Fahrenheit (°F)."]
for weather_description in weathers:
    for conversion_description in conversions:
        if accepted("better_descriptions"):
            break
    else:
        continue
    break
else:
    weather_description, conversion_description = weathers[0], conversions[0]
""",
    ),
    "careless_prediction through verdict()": (
        "07-the-tool-the-model-sees.ipynb",
        "careless_prediction",
        """
forget("my_prediction")
import itertools
from agentcore.course.checks import verdict
for right, unnecessary, recovered in itertools.product(range(7), range(4), range(2)):  # 56
    my_prediction = {"tasks right": right, "unnecessary calls": unnecessary, "recovered": recovered}
    if verdict("careless_prediction", "en")[0]:
        break
else:
    my_prediction = {"tasks right": 6, "unnecessary calls": 0, "recovered": 0}
""",
    ),
    "live_task through check()": (
        "07-the-tool-the-model-sees.ipynb",
        "live_task",
        """
forget("my_live_task")
import contextlib, io
from agentcore.course.checks import check
tries = [
    {"request": "How is the weather in Paris?", "expect_tool": None},
    {"request": "Tell me the current weather in Paris.", "expect_tool": None},
]
for my_live_task in tries:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        check("live_task", "en")
    if printed.getvalue().startswith("✔"):
        break
else:
    my_live_task = tries[0]
""",
    ),
    "wire_by_hand through accepted()": (
        "07-appendix-build-it-yourself.ipynb",
        "wire_by_hand",
        """
forget("my_messages")
from agentcore.course.checks import accepted
record = '{"city": "Tokyo", "temperature_c": 18.0, "condition": "cloudy"}'
def messages(said, arguments):
    call = {"id": "call-weather", "type": "function",
            "function": {"name": "get_teaching_weather", "arguments": arguments}}
    return [
        {"role": "user", "content": "What is Tokyo's teaching weather?"},
        {"role": "assistant", "content": said, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call-weather", "content": record},
        {"role": "assistant", "content": "Tokyo: 18.0 °C and cloudy (teaching data)."},
    ]
for said in ("", None):
    for arguments in ({"city": "Tokyo"}, '{"city": "Tokyo"}'):
        my_messages = messages(said, arguments)
        if accepted("wire_by_hand"):
            break
    else:
        continue
    break
else:
    my_messages = messages("", {"city": "Tokyo"})
""",
    ),
    "extract_tool_calls through accepted()": (
        "07-appendix-build-it-yourself.ipynb",
        "extract_tool_calls",
        """
forget("extract_tool_calls")
import json
from agentcore import ProviderResponseError, ToolCall
from agentcore.course.checks import accepted
def extractor(error):
    def extract(response):
        try:
            (choice,) = response["choices"]
            message = choice["message"]
            found = [(c["id"], c["function"]["name"], json.loads(c["function"]["arguments"]))
                     for c in message.get("tool_calls") or []]
        except (KeyError, TypeError, ValueError) as problem:
            raise error("malformed") from problem
        if any(not name or type(arguments) is not dict for _, name, arguments in found):
            raise error("malformed")
        calls = message.get("tool_calls") or []
        if any(not c.get("id") or c.get("type") != "function" for c in calls):
            raise error("malformed")
        if not found and not message.get("content"):
            raise error("empty")
        return [ToolCall(*call) for call in found]
    return extract
for error in (ValueError, ProviderResponseError):
    extract_tool_calls = extractor(error)
    if accepted("extract_tool_calls"):
        break
else:
    extract_tool_calls = extractor(ValueError)
""",
    ),
    "dependent_calls through verdict()": (
        "07-appendix-build-it-yourself.ipynb",
        "dependent_calls",
        """
forget("my_dependent_prediction")
import itertools
from agentcore.course.checks import verdict
for executions, turns, fahrenheit in itertools.product(range(3), range(1, 4), (64.4, 68.0)):
    my_dependent_prediction = {"tool executions": executions, "model turns": turns,
                               "fahrenheit": fahrenheit}
    if verdict("dependent_calls", "en")[0]:
        break
else:
    my_dependent_prediction = {"tool executions": 2, "model turns": 2, "fahrenheit": 64.4}
""",
    ),
    "own_loop through accepted()": (
        "07-appendix-build-it-yourself.ipynb",
        "own_loop",
        """
forget("run_my_loop")
from agentcore import MaxStepsExceeded, UnknownToolError
from agentcore.course.checks import accepted
def loop_with(extra_turns):
    def run(model, tools, request, max_steps):
        registry = {tool.name: tool for tool in tools}
        messages = [{"role": "user", "content": request}]
        for _ in range(max_steps + extra_turns):
            turn = model.generate(messages, [tool.schema() for tool in tools])
            if not turn.tool_calls:
                return turn.final_text
            messages.append({"role": "assistant", "content": "",
                             "tool_calls": [c.as_message_entry() for c in turn.tool_calls]})
            for call in turn.tool_calls:
                if call.name not in registry:
                    raise UnknownToolError(call.name, list(registry))
                tool = registry[call.name]
                content = tool.execute(tool.validate(call.arguments, call.call_id), call.call_id)
                messages.append({"role": "tool", "tool_call_id": call.call_id, "content": content})
        raise MaxStepsExceeded("no answer")
    return run
for extra in (1, 0):
    run_my_loop = loop_with(extra)
    if accepted("own_loop"):
        break
else:
    run_my_loop = loop_with(1)
""",
    ),
    "design_faults through accepted(), 70 sets of four": (
        "07-appendix-build-it-yourself.ipynb",
        "design_faults",
        """
forget("my_faults")
import itertools
from agentcore.course.checks import accepted
names = ["text actions", "any function", "swallowed errors", "no step limit",
         "plain function handlers", "observations in the transcript",
         "final text ends the run", "json arguments"]
for four in itertools.combinations(reversed(names), 4):
    my_faults = list(four)
    if accepted("design_faults"):
        break
else:
    my_faults = names[4:]
""",
    ),
}


@pytest.mark.parametrize(
    "rig", [rig for rig in sorted(BRUTE_FORCE) if "through" in rig and "profile" not in rig]
)
def test_a_brute_force_answer_finds_the_answer_in_a_learners_own_kernel(rig: str) -> None:
    # the cheats are real: the self-check answers them (profile_for_quirks needs a loopback
    # server per try, so only its grade is tried)
    from IPython.core.interactiveshell import InteractiveShell

    _, exercise, code = BRUTE_FORCE[rig]
    shell = InteractiveShell.instance()
    shell.run_cell("from agentcore.course.checks import forget", store_history=False)
    result = shell.run_cell(textwrap.dedent(code), store_history=False)
    assert result.error_in_exec is None, result.error_in_exec
    assert checks.verdict(exercise, "en")[0]
    for name in checks.EXERCISES[exercise].names:
        shell.user_ns.pop(name, None)


@pytest.mark.slow
@pytest.mark.parametrize("rig", sorted(BRUTE_FORCE))
def test_a_brute_force_answer_scores_zero_in_a_grade(rig: str) -> None:
    name, exercise, code = BRUTE_FORCE[rig]
    ok, line = graded(name, exercise, code, timeout=240)
    assert not ok, line
    assert "did not finish" not in line, line


@pytest.mark.slow
def test_an_answer_cell_that_calls_check_keeps_its_point_in_a_grade() -> None:
    # a learner's kernel allows a check at the end of the answer cell: the grade's stand-in
    # prints a line instead of a verdict and raises nothing
    code = """
forget("my_answers")
my_answers = {"A": "workflow", "B": "agent", "C": "workflow", "D": "agent"}
from agentcore.course.checks import accepted, check, verdict
check("workflow_or_agent")
assert not accepted("workflow_or_agent") and not verdict("workflow_or_agent")[0]
"""
    ok, line = graded("00-fixed-script.ipynb", "workflow_or_agent", code)
    assert ok, line


LIMITS_RIGS = {
    "the limits appendix's cases emptied by the answer cell": """
forget("may_run")
from agentcore.course.judges import lesson07_appendix_limits
lesson07_appendix_limits._cases = lambda: []
def may_run(name, arguments, caller, approvals):
    return True
""",
    "the expected answer read from the judge's frame": """
forget("may_run")
import sys
def may_run(name, arguments, caller, approvals):
    frame = sys._getframe(1)
    while frame is not None:
        if "expected" in frame.f_locals and isinstance(frame.f_locals["expected"], bool):
            return frame.f_locals["expected"]
        frame = frame.f_back
    return True
""",
    "a policy that always allows, behind a check that is patched to pass": """
forget("may_run")
from agentcore.course.judges import core
core.asked_twice = lambda cases: []
def may_run(name, arguments, caller, approvals):
    return True
""",
}
"""Answer cells of the lesson 07 appendix's ``may_run`` that try to score without writing the
policy: each scores zero in a grade, where the judges and their cases are the referee's."""


@pytest.mark.slow
@pytest.mark.parametrize("rig", sorted(LIMITS_RIGS))
def test_a_rig_on_the_limits_appendix_scores_zero(rig: str) -> None:
    name = "07-appendix-limits-of-a-minimal-runtime.ipynb"
    ok, line = graded(name, "may_run", LIMITS_RIGS[rig], timeout=120)
    assert not ok, line
    assert "did not finish" not in line, line


def test_a_policy_that_knows_the_lessons_order_numbers_is_not_accepted() -> None:
    # The judge draws its order numbers for each verdict: the lesson's are not them.
    line = judged(
        "may_run",
        """
        def may_run(name, arguments, caller, approvals):
            if name == "get_teaching_weather_record":
                return True
            clerk = caller["role"] == "clerk"
            return name == "refund_order" and clerk and arguments == {"order": "A-17"}
        """,
    )
    assert line.startswith("✘"), line


APPENDIX_07_WRONG = [
    (
        "07-appendix-limits-of-a-minimal-runtime.ipynb",
        "may_run",
        "any get_ name allowed: an unlisted get_customer_data runs",
        "get_customer_data",
    ),
    (
        "07-appendix-limits-of-a-minimal-runtime.ipynb",
        "may_run",
        "a deny-list of roles: a manager's approved refund runs",
        "by a manager",
    ),
    (
        "07-appendix-limits-of-a-minimal-runtime.ipynb",
        "may_run",
        "the role read from the login name: a guest named clerk-9 refunds",
        "login name",
    ),
    (
        "07-appendix-limits-of-a-minimal-runtime.ipynb",
        "may_run",
        "the approval matched on the order alone: another amount runs",
        "another amount",
    ),
    (
        "07-appendix-build-it-yourself.ipynb",
        "extract_tool_calls",
        'only a list refused as arguments: null, 18 and "x" reach ToolCall',
        "InvalidModelTurnError",
    ),
    (
        "07-appendix-build-it-yourself.ipynb",
        "own_loop",
        "an error of its own after one model call: a KeyError",
        "raised KeyError",
    ),
]
"""Written-down wrong answers of the lesson 07 appendices (the solution notebooks' metadata)
and what the grade's line says of each."""


@pytest.mark.parametrize(("name", "exercise", "mistake", "said"), APPENDIX_07_WRONG)
def test_a_written_down_wrong_answer_of_the_07_appendices_scores_zero_in_a_grade(
    name: str, exercise: str, mistake: str, said: str
) -> None:
    source = solution(name)
    cell = next(
        c
        for c in source["cells"]
        if c.get("metadata", {}).get("agentcore", {}).get("exercise") == exercise
    )
    code = next(
        w["code"] for w in cell["metadata"]["agentcore"]["wrong_answers"] if w["mistake"] == mistake
    )
    answer = cell["source"].split("### BEGIN SOLUTION")[0] + code
    ok, line = graded(name, exercise, answer, timeout=120)
    assert not ok and said in line, line
