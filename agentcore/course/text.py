"""Every string the package shows, in English and Simplified Chinese, keyed by glossary terms.

The course speaks two languages. Everything the package shows a learner (the weather task's
requests and answers, snapshot and widget labels, the command line's help and messages, the
experiments' titles, the explanation of an error) is looked up here, so that one file holds
both languages and the terms of ``docs/GLOSSARY.md`` are used the same way everywhere.

* :data:`Language` and :func:`check_language`: the one language type and its check.
* :func:`set_language` / :func:`current_language`: the language used where a function's
  ``language`` argument is left out (a zh-CN lesson calls ``set_language("zh-CN")`` once, in
  its setup cell). The default is English.
* :func:`phrase`: the string for a key, in a language, with its fields filled in.
* :func:`explain`: a localized explanation of an error for display. The typed errors keep
  their English messages (what a learner searches for); this says the same for a reader.

Keys start with the glossary term they are about (``"final answer"``, ``"model turn"``,
``"transcript"``...), then what the string is for.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal

Language = Literal["en", "zh-CN"]
"""The languages of the course: English and Simplified Chinese."""

LANGUAGES: tuple[Language, ...] = ("en", "zh-CN")

_current: list[Language] = ["en"]


def check_language(language: object) -> Language:
    """Return ``language`` if it is ``"en"`` or ``"zh-CN"``; raise ``ValueError`` otherwise."""
    if language == "en":
        return "en"
    if language == "zh-CN":
        return "zh-CN"
    raise ValueError(f"language must be one of {list(LANGUAGES)}, got {language!r}")


def set_language(language: Language) -> None:
    """Make ``language`` the default wherever a ``language`` argument is left out.

    Input: ``"en"`` or ``"zh-CN"``; ``ValueError`` otherwise. A zh-CN lesson calls
    ``set_language("zh-CN")`` once in its setup cell; requests, answers, snapshots, widgets
    and experiments built afterwards speak Chinese.
    """
    _current[0] = check_language(language)


def current_language() -> Language:
    """The language set by :func:`set_language` (``"en"`` until it is called)."""
    return _current[0]


def resolve_language(language: object = None) -> Language:
    """``language`` checked, or :func:`current_language` when it is ``None``."""
    return current_language() if language is None else check_language(language)


_TEXT: Mapping[str, tuple[str, str]] = {
    # --- the teaching weather: its cities, conditions and temperature words -----------------
    "teaching weather.Tokyo": ("Tokyo", "东京"),
    "teaching weather.Paris": ("Paris", "巴黎"),
    "teaching weather.cloudy": ("cloudy", "多云"),
    "teaching weather.light rain": ("light rain", "小雨"),
    "teaching weather.cold": ("cold", "冷"),
    "teaching weather.mild": ("mild", "温和"),
    "teaching weather.hot": ("hot", "热"),
    # --- the weather task (section 8): requests and the scripted model's answers -------------
    "user request.convert": (
        "Read {city}'s teaching weather and convert the temperature to Fahrenheit.",
        "读取{city}的教学天气，并把摄氏度换算成华氏度。",
    ),
    "user request.weather": ("What is {city}'s teaching weather?", "{city}的教学天气怎么样？"),
    "user request.greet": ("Hello! What can you do?", "你好！你能做什么？"),
    "user request.describe": (
        "Read {city}'s teaching weather, convert it to Fahrenheit, and say whether it is "
        "cold, mild or hot.",
        "读取{city}的教学天气，换算成华氏度，再说说是冷、温和还是热。",
    ),
    "user request.two cities": (
        "What is the teaching weather in Tokyo and in Paris?",
        "东京和巴黎的教学天气分别是什么？",
    ),
    "final answer.greet": (
        "Hello! I can read the teaching weather of Tokyo or Paris and convert it to °F.",
        "你好！我可以读取东京或巴黎的教学天气，并把温度换算成华氏度。",
    ),
    "final answer.record": (
        "{city}'s deterministic teaching record is {temperature}, {condition}",
        "{city}的确定性教学记录是 {temperature}，{condition}",
    ),
    "final answer.fahrenheit": (" ({fahrenheit}°F)", "（{fahrenheit}°F）"),
    "final answer.describe.cold": ("; that is cold", "，气温偏冷"),
    "final answer.describe.mild": ("; that is mild", "，气温温和"),
    "final answer.describe.hot": ("; that is hot", "，气温偏热"),
    "final answer.end": (".", "。"),
    "final answer.city": (
        "{city} {temperature}°C, {condition}",
        "{city} {temperature}°C，{condition}",
    ),
    "final answer.join": ("; ", "；"),
    "final answer.tool failed": (
        "I could not finish: the tool {tool} failed ({message}).",
        "无法完成任务：工具 {tool} 执行失败（{message}）。",
    ),
    # --- run status (contract decision 3) and snapshots (section 13) --------------------------
    "run status.not started": ("not started", "尚未开始"),
    "run status.running": ("running", "运行中"),
    "run status.answered": ("answered", "已回答"),
    "run status.failed": ("failed", "失败"),
    "run status.interrupted": ("interrupted", "已中断"),
    "run status.refused": ("refused before the run started", "运行开始前即被拒绝"),
    "run status.line": ("status: {status}", "状态：{status}"),
    "budget.line": (
        "model turns: {turns} of max_steps={max_steps}; "
        "tool executions: {tools} of max_tool_calls={max_tools}",
        "模型轮次：{turns}（max_steps={max_steps}）；工具执行：{tools}（max_tool_calls={max_tools}）",
    ),
    "budget.none": (
        "no run started: no model turn, no tool execution",
        "运行没有开始：没有模型轮次，也没有工具执行",
    ),
    "final answer.line": ("answer: {text}", "最终答案：{text}"),
    "typed error.line": ("error: {type}: {message}", "错误：{type}：{message}"),
    "typed error.explanation": ("why: {text}", "说明：{text}"),
    "handler.runs": ("the failing handler ran {runs} time(s)", "出错的 handler 共执行了 {runs} 次"),
    "model turn.decide final": ("final text", "最终答案"),
    "model turn.decide calls": ("{count} tool call(s): {ids}", "{count} 个工具调用：{ids}"),
    "model turn.handed": (
        "the model was handed {count} messages",
        "交给模型的消息：{count} 条",
    ),
    # --- who holds control (section 13): every event row names who acts ---------------------
    "control.model": ("the model decides", "模型决策"),
    "control.runtime": ("the runtime checks and records", "Runtime 校验并记录"),
    "control.tool": ("the tool executes", "工具执行"),
    "punctuation.colon": (": ", "："),
    "control.note": (
        "Control never leaves the runtime: it asks the model, checks each request, "
        "calls each tool and records each result.",
        "控制权始终在 Runtime 手里：它询问模型、校验每个请求、调用每个工具、记录每个结果。",
    ),
    "control.new rows": (
        "rows marked ▶ were added by the last step",
        "标有 ▶ 的行是上一步新增的",
    ),
    # --- widgets (lessons 01 and 06) --------------------------------------------------------
    "widget.step": ("Step", "单步"),
    "widget.step tip": (
        "Advance one model turn: AgentRun.step()",
        "前进一个模型轮次：AgentRun.step()",
    ),
    "widget.run": ("Run to end", "运行到底"),
    "widget.run tip": (
        "Step until the model answers or the run fails",
        "一直单步执行，直到模型给出最终答案或运行失败",
    ),
    "widget.reset": ("Reset", "重置"),
    "widget.reset tip": (
        "Start the same run again from the user's request",
        "从用户请求开始，重新运行一次",
    ),
    "transcript.heading": ("Transcript", "运行记录"),
    "transcript.columns": (
        "#|role|call_id|tool|arguments|observation / text",
        "#|角色|call_id|工具|参数|观察结果 / 文本",
    ),
    "trajectory.heading": ("Events (who acts)", "事件（谁在行动）"),
    "trajectory.columns": ("turn|who acts|event", "轮次|谁在行动|事件"),
    "trajectory.no events": ("(no step yet)", "（还没有单步执行）"),
    "final answer.heading": ("Final answer", "最终答案"),
    "widget.stepper hint": (
        "RunStepper: run the cells above in JupyterLab to step this run interactively.",
        "RunStepper：在 JupyterLab 中运行上面的单元格，就可以交互式地逐步执行这次运行。",
    ),
    "widget.panel hint": (
        "ExperimentPanel: run the cells above in JupyterLab to choose an experiment of "
        "chapter section 12 and step it.",
        "ExperimentPanel：在 JupyterLab 中运行上面的单元格，就可以选择第 12 节的实验并逐步执行。",
    ),
    "experiment.label": ("Experiment", "实验"),
    "experiment.with options": ("{title} ({options})", "{title}（{options}）"),
    "experiment.current": ("experiment: {label}", "实验：{label}"),
    "experiment.register": ("register describe_temperature", "注册 describe_temperature"),
    "experiment.compare": ("Finished runs, to compare", "已结束的运行（用于比较）"),
    "experiment.compare columns": (
        "experiment|outcome|model turns|tool executions|handler runs",
        "实验|结果|模型轮次|工具执行|handler 执行次数",
    ),
    # --- experiments of section 12: titles and what to watch ---------------------------------
    "experiment.two_calls_in_one_turn": ("Two tool calls in one turn", "一轮里的两个 Tool Call"),
    "experiment.same_call_id_in_one_turn": (
        "The same call_id twice in one turn",
        "同一轮里重复的 call_id",
    ),
    "experiment.same_call_id_across_turns": (
        "The same call_id again in a later turn",
        "下一轮又用了同一个 call_id",
    ),
    "experiment.third_tool": (
        "A third tool: describe_temperature",
        "第三个工具：describe_temperature",
    ),
    "experiment.failing_handler": ("A handler that raises", "会抛异常的 handler"),
    "experiment.max_steps_limit": ("A small max_steps", "很小的 max_steps"),
    "experiment watch.two_calls_in_one_turn": (
        "One model turn asks for Tokyo and Paris. The runtime runs the calls one after the "
        "other, in the order the model listed them, and records both observations before the "
        "model's next turn.",
        "模型在一轮里同时请求东京和巴黎。Runtime 按模型给出的顺序逐个执行，"
        "两个观察结果都记录下来之后，才进入模型的下一轮。",
    ),
    "experiment watch.same_call_id_in_one_turn": (
        "ModelTurn refuses the turn while it is being built: the runtime never sees it, no "
        "model turn is counted and no handler runs.",
        "ModelTurn 在构造时就拒绝了这一轮：Runtime 根本看不到它，不计模型轮次，"
        "也没有任何 handler 执行。",
    ),
    "experiment watch.same_call_id_across_turns": (
        "Each turn is valid on its own. The runtime refuses the second one because "
        "call-weather was already used in this run, before any handler of that turn runs; the "
        "transcript keeps the refused request.",
        "每一轮单独看都合法。因为 call-weather 在本次运行里已经用过，"
        "Runtime 在第二轮的任何 handler 执行之前拒绝它；被拒绝的请求仍留在运行记录里。",
    ),
    "experiment watch.third_tool": (
        "Only the tool list and the scripted model differ; AgentRuntime.run is unchanged. "
        "Without registering the tool, the registry refuses it.",
        "只改了工具列表和模型替身，AgentRuntime.run 没有改动。"
        "如果不注册这个工具，Registry（注册表）会拒绝它。",
    ),
    "experiment watch.failing_handler": (
        "stop: the first failure ends the run with ToolExecutionError. observe: the failure "
        "becomes an observation and the model decides. Each retry runs the handler again, so "
        "a side effect would happen again.",
        "stop：第一次失败就以 ToolExecutionError 结束运行。"
        "observe：失败变成观察结果，交给模型决策。每次重试都会再执行一次 handler，"
        "有副作用的话，副作用也会再发生一次。",
    ),
    "experiment watch.max_steps_limit": (
        "max_steps counts model turns. With 1, the weather tool runs, and the run ends before "
        "the model can read the observation.",
        "max_steps 数的是模型轮次。设为 1 时，天气工具执行了，"
        "但模型还没来得及读到观察结果，运行就结束了。",
    ),
    # --- the command line (python -m agentcore) ----------------------------------------------
    "cli.description": (
        "Run the teaching weather task through the agent runtime and print the trace. "
        "Offline by default: the scripted model needs no network and no API key.",
        "通过 Agent Runtime 运行教学天气任务，并打印轨迹。默认离线运行："
        "脚本模型不需要网络，也不需要 API key。",
    ),
    "cli.usage": ("usage: ", "用法："),
    "cli.options": ("options", "选项"),
    "cli.help": ("show this help message and exit", "显示这条帮助信息并退出"),
    "cli.city": (
        "which fixed teaching record to read (default Tokyo)",
        "读取哪条固定的教学记录（默认 Tokyo）",
    ),
    "cli.task": (
        "convert: weather then °F (default); weather: weather only; greet: no tool; "
        "describe: °F then cold/mild/hot with the third tool",
        "convert：先查天气再换算成 °F（默认）；weather：只查天气；greet：不用工具；"
        "describe：换算成 °F 后再用第三个工具判断冷、温和还是热",
    ),
    "cli.language": (
        "language of the request, the answer and the labels (default en); --help and flag "
        "errors follow it too, else LANG",
        "请求、答案和标签的语言（默认 en）；--help 和参数错误也跟随它，未指定时看 LANG",
    ),
    "cli.max steps": ("most model turns (default 6)", "最多几个模型轮次（默认 6）"),
    "cli.max tool calls": (
        "most tool executions (default 6; 0 allows only answers without tools)",
        "最多执行几次工具（默认 6；0 表示只允许不用工具的回答）",
    ),
    "cli.show transcript": ("print the transcript after the run", "运行结束后打印运行记录"),
    "cli.provider": (
        "who plays the model: the offline scripted model (default), or DeepSeek through the API "
        "--api names (needs DEEPSEEK_API_KEY and DEEPSEEK_MODEL, unless --offline)",
        "由谁扮演模型：离线的脚本模型（默认），或通过 --api 指定的 API 调用 DeepSeek"
        "（需要 DEEPSEEK_API_KEY 和 DEEPSEEK_MODEL，除非加上 --offline）",
    ),
    "cli.offline": (
        "with --provider deepseek: send the requests to a local server on 127.0.0.1 that "
        "plays scripted replies (no key, no network)",
        "与 --provider deepseek 一起用：把请求发给 127.0.0.1 上的本地服务器，"
        "它按脚本回复（不需要 key，也不联网）",
    ),
    "cli.reasoning effort": (
        "with --provider deepseek: DeepSeek's thinking effort, sent as reasoning.effort "
        "(--api chat: reasoning_effort) (none turns thinking off; default: not sent, DeepSeek "
        "thinks at high)",
        "与 --provider deepseek 一起用：DeepSeek 的思考强度，作为 reasoning.effort 发送"
        "（--api chat 时为 reasoning_effort）"
        "（none 关闭思考；默认不发送，DeepSeek 按 high 思考）",
    ),
    "cli.api": (
        "with --provider deepseek: which wire format the adapter speaks, the Responses API "
        "(default) or Chat Completions",
        "与 --provider deepseek 一起用：Adapter（适配器）使用哪种线上格式，Responses API（默认）"
        "或 Chat Completions",
    ),
    "cli.api needs deepseek": (
        "--api goes with --provider deepseek; the scripted model has no wire format",
        "--api 要和 --provider deepseek 一起用；脚本模型没有线上格式",
    ),
    "cli.reasoning effort needs deepseek": (
        "--reasoning-effort goes with --provider deepseek",
        "--reasoning-effort 要和 --provider deepseek 一起用",
    ),
    "cli.error": ("{prog}: error: {message}", "{prog}：错误：{message}"),
    "cli.argument": ("argument {flag}: {message}", "参数 {flag}：{message}"),
    "cli.invalid choice": (
        "invalid choice: {value} (choose from {choices})",
        "无效的取值 {value}（可选：{choices}）",
    ),
    "cli.expected one": ("expected one argument", "需要一个取值"),
    "cli.unrecognized": ("unrecognized arguments: {arguments}", "无法识别的参数：{arguments}"),
    "cli.whole number": ("expected a whole number, got {text}", "需要一个整数，收到的是 {text}"),
    "cli.at least": (
        "must be at least {minimum}, got {value}",
        "至少要是 {minimum}，收到的是 {value}",
    ),
    "cli.other flag error": (
        "the flags are not valid (argparse says: {message})",
        "命令行参数无效；用 --help 查看每个参数的用法",
    ),
    "cli.offline needs deepseek": (
        "--offline goes with --provider deepseek; the scripted model is always offline",
        "--offline 要和 --provider deepseek 一起用；脚本模型本来就是离线的",
    ),
    "user request.line": ("request: {request}", "请求：{request}"),
    "transcript.title": ("transcript:", "运行记录："),
    "cli.failed": ("the run failed with {error}", "运行失败，错误类型：{error}"),
    "cli.offline banner": (
        "offline: {adapter} sends real HTTP requests to a local server on "
        "127.0.0.1; its replies are scripted, not a model's.",
        "离线：{adapter} 向 127.0.0.1 上的本地服务器发送真实的 HTTP 请求；"
        "回复是预先写好的脚本，不是模型生成的。",
    ),
    "cli.online banner": (
        "provider: DeepSeek {api} at {base_url}, model {model}",
        "Provider（模型服务商）：DeepSeek {api}（{base_url}），模型 {model}",
    ),
    "cli.missing settings": (
        "error: {explanation} Or add --offline to run against the local scripted server.",
        "错误：{explanation}也可以加上 --offline，改用本地脚本服务器运行。",
    ),
    "cli.client could not start": (
        "error: the HTTP client could not start ({error}); check the proxy, certificate and "
        "DEEPSEEK_BASE_URL settings of this shell.",
        "错误：HTTP 客户端无法启动（{error}）；请检查当前终端里的代理、证书和 "
        "DEEPSEEK_BASE_URL 设置。",
    ),
    "cli.write failed": (
        "error: the output could not be written ({error}); is the disk full, or the output closed?",
        "错误：无法写出输出（{error}）；磁盘是否已满，或者输出已被关闭？",
    ),
    # --- explanations of the typed errors (section 7), for display ---------------------------
    "typed error.InvalidModelTurnError": (
        "The model's turn breaks the runtime's protocol (section 4), so the runtime refused "
        "it before any handler ran; look first at the model or its adapter.",
        "模型轮次不符合 Runtime 的内部协议（第 4 节），Runtime 在任何 handler 执行之前就拒绝了它；"
        "先检查模型或它的 Adapter（适配器）。",
    ),
    "typed error.UnknownToolError": (
        "The model asked for the tool {name}, which the registry does not hold (it holds: "
        "{registered}); no handler ran.",
        "模型请求了工具 {name}，但 Registry（注册表）里没有它（已注册：{registered}）；"
        "没有任何 handler 执行。请检查工具列表或模型的请求。",
    ),
    "typed error.ToolArgumentsError": (
        "The arguments for the tool {tool} failed validation against its pydantic model, so "
        "its handler did not run.",
        "工具 {tool} 的参数没有通过它的 pydantic 模型校验，所以它的 handler 没有执行。"
        "请对照参数模型检查模型给出的参数。",
    ),
    "typed error.ToolExecutionError": (
        "The handler of the tool {tool} failed; look at the handler or the service behind it.",
        "工具 {tool} 的 handler 执行失败；先检查这个 handler 或它背后的服务。",
    ),
    "typed error.MaxStepsExceeded": (
        "The model gave no final answer within max_steps: {turns} model turns were used.",
        "模型在 max_steps 之内没有给出最终答案：已经用了 {turns} 个模型轮次。"
        "请检查任务、模型或预算。",
    ),
    "typed error.ToolBudgetExceeded": (
        "The turn asked for more tool executions than max_tool_calls still allows; no handler "
        "of that turn ran.",
        "这一轮请求的工具执行次数超出了 max_tool_calls 剩余的预算；"
        "这一轮的 handler 一个都没有执行。",
    ),
    "typed error.ScriptExhaustedError": (
        "The scripted model's script ran out: it was asked for one more turn than it holds. "
        "Add turns, or end the script with a final answer.",
        "脚本模型的脚本已经用完：它被要求给出的轮次比脚本里写的多。"
        "请补充轮次，或者让脚本以最终答案结束。",
    ),
    "typed error.ProviderConfigurationError": (
        "{message}",
        "没有设置 {names}：在 bash 中用 {bash}，在 PowerShell 中用 {powershell}，"
        "在 cmd 中用 {cmd} 设置，然后从同一个终端启动 Python（或 JupyterLab）。",
    ),
    "typed error.ProviderConfigurationError.other": (
        "{message}",
        "DeepSeek 的设置有误：请重新检查 DEEPSEEK_API_KEY 和 DEEPSEEK_MODEL"
        "（不要带空格、引号或不可见字符）。",
    ),
    "typed error.ProviderRequestError": (
        "{message}",
        "Adapter（适配器）无法构造合法的请求，什么都没有发送；请检查工具的参数模型或运行记录。",
    ),
    "typed error.ProviderTimeoutError": (
        "{message}",
        "Provider（模型服务商）在超时时间内没有回复；请检查网络，或者把超时时间调大。",
    ),
    "typed error.ProviderConnectionError": (
        "{message}",
        "在 Provider（模型服务商）的地址上没有任何服务应答（连接被拒绝、DNS 或代理问题）；"
        "请检查 DEEPSEEK_BASE_URL 和网络。",
    ),
    "typed error.ProviderStatusError": (
        "{message}",
        "Provider（模型服务商）返回了 HTTP 错误状态 {status}：{hint}",
    ),
    "typed error.ProviderResponseError": (
        "{message}",
        "Provider（模型服务商）的回复不符合 Adapter 依赖的线上格式（wire format），"
        "这一轮被拒绝，没有任何 handler 执行。",
    ),
    "typed error.ProviderError": (
        "{message}",
        "Provider（模型服务商）的 Adapter（适配器）出错了。",
    ),
    "typed error.ModelError": (
        "The model itself failed while producing a turn; the original exception is the cause.",
        "模型在生成这一轮时自己出错了；原始异常保存在 __cause__ 里。",
    ),
    "typed error.AgentRuntimeError": (
        "The runtime stopped the run with a typed error; the transcript so far is kept.",
        "Runtime 以一个有明确类型的错误结束了运行；到目前为止的运行记录都保留着。",
    ),
    "typed error.interrupted": (
        "The run was interrupted by {type} (for example Ctrl-C) and cannot go on; its "
        "transcript so far is kept in run.messages.",
        "运行被 {type} 中断了（例如按了 Ctrl-C），不能再继续；到目前为止的运行记录保留在 "
        "run.messages 里。",
    ),
    "typed error.other": (
        "An unexpected {type} was raised.",
        "发生了意料之外的 {type}。",
    ),
    # HTTP status hints, by status (the provider errors' hint stays English on the error).
    "provider status.400": ("", "请求格式有误"),
    "provider status.401": ("", "Provider 拒绝了 API key；请检查 DEEPSEEK_API_KEY。"),
    "provider status.402": ("", "账户余额不足；请充值后再试。"),
    "provider status.403": ("", "这个 key 无权使用该模型或接口。"),
    "provider status.404": ("", "模型名或接口不存在；请检查 DEEPSEEK_MODEL 和 DEEPSEEK_BASE_URL。"),
    "provider status.422": ("", "请求参数无效。"),
    "provider status.429": ("", "请求太频繁；请稍等片刻再试。"),
    "provider status.5xx": ("", "Provider 的服务出错或过载；请稍等片刻再试。"),
    "provider status.other": ("", "请查看错误信息里 Provider 自己给出的说明。"),
    # --- lesson 06 (issue 13): the failing-handler task's model stand-in ----------------------
    "lesson 06.reminder": ("Take an umbrella: Tokyo is cloudy.", "带伞：东京多云。"),
    "lesson 06.reminder sent": ("The reminder is sent.", "提醒已发出。"),
    "lesson 06.reminder failed": ("The reminder failed.", "提醒发送失败。"),
}


def phrase(key: str, language: Language | None = None, **fields: object) -> str:
    """The string for ``key`` in ``language`` (default: :func:`current_language`), filled in.

    Inputs: a key of the table (see the module's source), an optional language, and the
    named fields its text holds (``{city}``, ``{count}``...). Raises ``KeyError`` for an
    unknown key (naming it) and ``ValueError`` for an unknown language.
    """
    language = resolve_language(language)
    try:
        english, chinese = _TEXT[key]
    except KeyError:
        raise KeyError(f"no text for {key!r} in agentcore.course.text") from None
    template = chinese if language == "zh-CN" else english
    return template.format(**fields) if fields else template


def all_keys() -> tuple[str, ...]:
    """Every key of the table, for tests and for translators."""
    return tuple(_TEXT)


def explain(error: BaseException, language: Language | None = None) -> str:
    """A localized explanation of ``error`` for display, in ``language``.

    Input: any exception (the runtime's typed errors, the provider errors, anything else) and
    ``"en"``/``"zh-CN"`` (default :func:`current_language`). Output: one or two sentences
    saying what went wrong and where to look. The error's own message stays English and is
    not changed. The explanation is chosen by the nearest class in the error's MRO that has
    one, by class name, so it also works for errors defined in other modules. Raises
    ``ValueError`` for an unknown language.
    """
    language = resolve_language(language)
    message = str(error)
    for cls in type(error).__mro__:
        name = cls.__name__
        if f"typed error.{name}" not in _TEXT:
            continue
        if name == "ProviderConfigurationError":
            return _explain_configuration(message, language)
        if name == "ProviderStatusError":
            return _explain_status(error, message, language)
        return phrase(
            f"typed error.{name}",
            language,
            message=message,
            name=getattr(error, "name", ""),
            registered=", ".join(getattr(error, "registered", ())) or "-",
            tool=getattr(error, "tool", ""),
            turns=getattr(error, "model_turns", 0),
        )
    if not isinstance(error, Exception):  # KeyboardInterrupt, SystemExit: a run interrupted
        return phrase("typed error.interrupted", language, type=type(error).__name__)
    return phrase("typed error.other", language, type=type(error).__name__)


def _explain_configuration(message: str, language: Language) -> str:
    commands = re.findall(r"`([^`]*)`", message)
    names = [name for name in ("DEEPSEEK_API_KEY", "DEEPSEEK_MODEL") if name in message]
    if language == "en":
        return message
    if len(commands) != 3 or not names or "not set" not in message:
        return phrase("typed error.ProviderConfigurationError.other", language, message=message)
    bash, powershell, cmd = (f"`{command}`" for command in commands)
    return phrase(
        "typed error.ProviderConfigurationError",
        language,
        names=" 和 ".join(names),
        bash=bash,
        powershell=powershell,
        cmd=cmd,
    )


def _explain_status(error: BaseException, message: str, language: Language) -> str:
    if language == "en":
        return message
    status = getattr(error, "status_code", None)
    if isinstance(status, int) and 500 <= status <= 599:
        hint_key = "provider status.5xx"
    elif f"provider status.{status}" in _TEXT:
        hint_key = f"provider status.{status}"
    else:
        hint_key = "provider status.other"
    return phrase(
        "typed error.ProviderStatusError", language, status=status, hint=phrase(hint_key, language)
    )
