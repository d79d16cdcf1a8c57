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
    "typed error.StrictSchemaError": (
        "The tool was not built: in its arguments model, {field} cannot be shown exactly as a "
        "strict JSON Schema, so the model would be shown something other than what the "
        "validator checks. Change that field as the message says.",
        "Tool（工具）没有建成：参数模型中的 {field} 无法精确地写成"
        "严格模式（strict）的 JSON Schema，模型看到的 Schema 就会和校验规则不一致。"
        "请按错误信息的提示修改这个字段。",
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
    # --- exercise checks (agentcore.course.checks): verdict prefixes and messages ---------
    # Placeholders never carry the expected answer.
    "check.prefix.right": (
        "✔ Right: ",
        "✔ 正确：",
    ),
    "check.prefix.not yet": (
        "✘ Not yet: ",
        "✘ 还不对：",
    ),
    "check.prefix.not attempted": (
        "✘ Not attempted yet: ",
        "✘ 还不对：",
    ),
    "check.not_attempted": (
        "write {names} in the answer cell above, run it, then run this check.",
        "还没有作答。在上面的答题单元格里写出 {names}，运行它，再运行本检查。",
    ),
    "check.answer_cell_raised": (
        "your answer cell raised {error}. Fix it and run it again, then this check.",
        "你的答题单元格抛出了 {error}。改正后重新运行它，再运行本检查。",
    ),
    "check.answer_raised": (
        "your {name} raised {error} when the check used it.",
        "检查调用你的 {name} 时，它抛出了 {error}。",
    ),
    "check.returns_nothing": (
        "your {name} returns None; it should return a value.",
        "你的 {name} 返回了 None，它应该返回一个值。",
    ),
    "check.jobs_not_a_dict": (
        'my_answers should be a dict from job letter to "workflow" or "agent", '
        'like {{"A": ...}}; it is a {kind}.',
        'my_answers 应该是一个 dict，把任务字母映射到 "workflow" 或 "agent"，例如 '
        '{{"A": ...}}；现在它是 '
        "{kind}。",
    ),
    "check.jobs_missing": (
        'give each of the jobs {jobs} the answer "workflow" or "agent".',
        '请给任务 {jobs} 各写上 "workflow" 或 "agent"。',
    ),
    "check.jobs_wrong": (
        "{count} of 4 jobs are not classified right. Look again at job {job}: {question}",
        "4 项任务中有 {count} 项判断不对。再看看任务 {job}：{question}",
    ),
    "check.jobs_right": (
        "all four jobs are classified correctly.",
        "四项任务全部判断正确。",
    ),
    "check.job_A": (
        "are the steps and their order known before it runs?",
        "它的步骤和顺序在运行前是否已经确定？",
    ),
    "check.job_B": (
        "can you know how many lookups a question needs before you read it?",
        "读到问题之前，你能知道它需要查几次吗？",
    ),
    "check.job_C": (
        "could one if/else decide the next step?",
        "一个 if/else 能否决定下一步？",
    ),
    "check.job_D": (
        "does the next lookup depend on what the last one returned?",
        "下一次查询是否取决于上一次查询的结果？",
    ),
    "check.turn_not_a_model_turn": (
        "both_cities should be a ModelTurn; it is a {kind}.",
        "both_cities 应该是一个 ModelTurn；现在它是 {kind}。",
    ),
    "check.turn_call_count": (
        "the turn holds {count} tool call(s); it needs one per city.",
        "这个轮次里有 {count} 个 Tool Call；每个城市需要一个。",
    ),
    "check.turn_tool_names": (
        "every call should name the weather lookup tool of this lesson.",
        "每个调用都应该指名本课的天气查询 Tool。",
    ),
    "check.turn_cities": (
        "ask for each of the two cities with a record exactly once.",
        "两座有记录的城市，各查询一次。",
    ),
    "check.turn_right": (
        "one turn, two lookups, two different call_ids.",
        "一个轮次，两次查询，两个不同的 call_id。",
    ),
    "check.lengths_count": (
        "write {count} numbers (before any step, then after each step); you wrote {written}.",
        "请写 {count} 个数（开始前，然后每一步之后各一个）；你写了 {written} 个。",
    ),
    "check.lengths_wrong": (
        "your prediction {when} is off. Hint: a tool turn adds the model's request "
        "plus one observation per call; a final turn adds one message.",
        "你对{when}的预测不对。提示：调用工具的轮次会加入模型的请求，再为每个调用加入一条 "
        "Observation；给出最终答案的轮次只加入一条消息。",
    ),
    "check.lengths_right": (
        "the transcript grows by the request and one observation per call each "
        "tool turn, and by one message for the answer.",
        "每个调用工具的轮次，运行记录增加一条请求和每个调用一条 Observation；最终答案再增加一"
        "条消息。",
    ),
    "check.before_any_step": (
        "before any step",
        "开始之前",
    ),
    "check.after_step": (
        "after step {step}",
        "第 {step} 步之后",
    ),
    "check.never_stops_answered": (
        "your model gave a final answer; it should ask for tools every turn.",
        "你的模型给出了最终答案；它应该每一轮都请求工具。",
    ),
    "check.never_stops_refused": (
        "the runtime refused a turn of your model with {error}. Are your call_ids "
        "new on every turn?",
        "Runtime 以 {error} 拒绝了你的模型的一个轮次。你的 call_id 每一轮都是新的吗？",
    ),
    "check.never_stops_failed": (
        "the run failed with {error}, not because it ran out of model turns.",
        "运行因 {error} 失败，而不是因为模型轮次用完了。",
    ),
    "check.never_stops_size": (
        "every turn should ask for 3 tool calls; yours asked for {sizes}.",
        "每一轮都应该请求 3 个 Tool Call；你的模型请求的是 {sizes}。",
    ),
    "check.never_stops_counts": (
        "your model is right, but my_counts is not. max_steps counts model turns; "
        "each turn runs every handler it asks for.",
        "你的模型是对的，但 my_counts 不对。max_steps 计的是模型轮次；每一轮请求的 "
        "handler 都会运行。",
    ),
    "check.never_stops_right": (
        "MaxStepsExceeded after the predicted model turns and tool executions, "
        "with a fresh call_id every turn.",
        "按你的预测，在那么多模型轮次和工具执行之后抛出 MaxStepsExceeded，每一轮的 "
        "call_id 都是新的。",
    ),
    "check.tool_not_a_tool": (
        "to_celsius_tool should be a Tool; it is a {kind}.",
        "to_celsius_tool 应该是一个 Tool；现在它是 {kind}。",
    ),
    "check.tool_name": (
        "the tool's name should be 'fahrenheit_to_celsius'.",
        "这个 Tool 的名字应该是 'fahrenheit_to_celsius'。",
    ),
    "check.tool_fields": (
        "the arguments model should have exactly one required field, temperature_f.",
        "参数模型应该只有一个必填字段 temperature_f。",
    ),
    "check.tool_good_call": (
        "a good call failed with {error}.",
        "一个正确的调用失败了：{error}。",
    ),
    "check.tool_result": (
        "64.4 °F did not convert to the right record; check the formula and the key temperature_c.",
        "64.4 °F 没有换算成正确的结果；检查公式和键名 temperature_c。",
    ),
    "check.tool_accepted_text": (
        "the text '64.4' was accepted as a number: make the model strict.",
        "文本 '64.4' 被当作数字接受了：让参数模型变得严格（strict）。",
    ),
    "check.tool_accepted_cold": (
        "-500 °F was accepted: it is below absolute zero.",
        "-500 °F 被接受了：它低于绝对零度。",
    ),
    "check.tool_accepted_extra": (
        "an extra argument 'unit' was accepted: forbid extra arguments.",
        "多余的参数 'unit' 被接受了：禁止多余参数。",
    ),
    "check.tool_right": (
        "strict, bounded, refuses extra arguments, and converts correctly.",
        "严格、有下限、拒绝多余参数，并且换算正确。",
    ),
    "check.predictions_not_a_dict": (
        "my_predictions should be a dict from call_id to an outcome; it is a {kind}.",
        "my_predictions 应该是一个 dict，把 call_id 映射到结果；现在它是 {kind}。",
    ),
    "check.predictions_wrong": (
        "{right} of {total} predictions are right. Look again at {call_id}: {hint}",
        "{total} 个预测中对了 {right} 个。再看看 {call_id}：{hint}",
    ),
    "check.predictions_right": (
        "all {total} predictions match what the registry does.",
        "{total} 个预测全部与 Registry 的实际行为一致。",
    ),
    "check.hint_name": (
        "is that name registered?",
        "这个名字注册过吗？",
    ),
    "check.hint_arguments": (
        "do the arguments fit the tool's strict model exactly?",
        "参数是否完全符合 Tool 的严格参数模型？",
    ),
    "check.script_answered": (
        "the run answered instead of failing.",
        "运行给出了答案，而没有失败。",
    ),
    "check.script_other_error": (
        "the run failed, but with {error}, not ToolArgumentsError.",
        "运行失败了，但错误是 {error}，不是 ToolArgumentsError。",
    ),
    "check.script_counts": (
        "ToolArgumentsError, but after {turns} model turn(s) and {executions} tool "
        "execution(s): the lookup should run once, then turn 2 be refused.",
        "是 ToolArgumentsError，但发生在 {turns} 个模型轮次、{executions} "
        "次工具执行之后：查询应该先成功运行一次，然后第 2 轮被拒绝。",
    ),
    "check.script_right": (
        "the lookup ran once, then turn 2 was refused before its handler ran.",
        "查询运行了一次，然后第 2 轮在 handler 运行之前就被拒绝了。",
    ),
    "check.script_not_a_list": (
        "my_script should be a list of ModelTurn; it is a {kind}.",
        "my_script 应该是一个由 ModelTurn 组成的 list；现在它是 {kind}。",
    ),
    "check.transcripts_wrong": (
        "{wrong} of {total} transcripts read wrong, for example the one where {case}.",
        "{total} 份运行记录中有 {wrong} 份读错了，例如{case}的那一份。",
    ),
    "check.unanswered_right": (
        "every transcript read correctly, including a half-answered turn and a run "
        "where every call was observed.",
        "所有运行记录都读对了，包括只完成一半的轮次，以及每个调用都有 Observation 的运行。",
    ),
    "check.case_stopped": (
        "a handler failed on the first of two calls",
        "两个调用中第一个的 handler 失败",
    ),
    "check.case_half": (
        "a turn of two calls got only its first observation",
        "两个调用的轮次只收到了第一个 Observation",
    ),
    "check.case_unknown_tool": (
        "the second turn asked for an unknown tool",
        "第二轮请求了一个未知的 Tool",
    ),
    "check.case_all_observed": (
        "every call was observed and only the final answer is missing",
        "每个调用都有 Observation，只缺最终答案",
    ),
    "check.case_two_turns_open": (
        "an earlier turn also left a call open",
        "更早的轮次也留下了没有 Observation 的调用",
    ),
    "check.case_no_calls": (
        "the model answered without any tool",
        "模型没有调用任何 Tool 就回答了",
    ),
    "check.not_a_list": (
        "your {name} should return a list of call_ids; it returned a {kind}.",
        "你的 {name} 应该返回由 call_id 组成的 list；它返回的是 {kind}。",
    ),
    "check.not_a_bool": (
        "your {name} should return True or False; it returned a {kind}.",
        "你的 {name} 应该返回 True 或 False；它返回的是 {kind}。",
    ),
    "check.paris_honest_failed": (
        "with the honest model your check should pass; it raised {error}.",
        "对诚实的模型，你的检查应该通过；它却抛出了 {error}。",
    ),
    "check.paris_returns_value": (
        "your check returns a value instead of failing. A test fails by raising "
        "(assert); a returned False is ignored.",
        "你的检查返回了一个值，而不是失败。测试要靠抛出异常（assert）来失败；返回 False 会被忽略。",
    ),
    "check.paris_passed_guesser": (
        "your check passed for {model}, which did not {what}. Assert the "
        "trajectory, not only the answer.",
        "你的检查让{model}通过了，而它并没有{what}。要断言轨迹，不要只断言答案。",
    ),
    "check.paris_guesser_error": (
        "for {model} your check raised {error}; a failing check should raise AssertionError.",
        "对{model}，你的检查抛出了 {error}；失败的检查应该抛出 AssertionError。",
    ),
    "check.paris_right": (
        "your check passes for the honest model and fails for every guesser.",
        "你的检查让诚实的模型通过，并让每个猜答案的模型失败。",
    ),
    "check.model_guesser": (
        "a guesser",
        "一个猜答案的模型",
    ),
    "check.model_twice": (
        "a model that looks up twice",
        "一个查询两次的模型",
    ),
    "check.what_read": (
        "look up the Paris record exactly once",
        "恰好查询一次巴黎的记录",
    ),
    "check.compare_failed": (
        "the run failed with {error}.",
        "运行失败了：{error}。",
    ),
    "check.compare_ids": (
        "the observations did not come back as one lookup per city, in the order asked for.",
        "Observation 没有按要求的顺序、每个城市一次地返回。",
    ),
    "check.compare_turns": (
        "the run took {turns} model turns; both lookups belong in one turn, then the answer.",
        "运行用了 {turns} 个模型轮次；两次查询应该在同一轮，然后给出答案。",
    ),
    "check.compare_hard_coded": (
        "with other weather records your answer named the wrong city: read the "
        "observations, do not hard-code the answer.",
        "换了一组天气记录后，你的答案说错了城市：要读 Observation，不要把答案写死。",
    ),
    "check.compare_right": (
        "one turn with both lookups, in order, and an answer read from the observations.",
        "一轮里按顺序做两次查询，答案来自 Observation。",
    ),
    "check.succeeded_right": (
        "your function tells every run apart, including runs that answered without "
        "converting anything.",
        "你的函数分清了每一次运行，包括那些没有做任何换算就回答了的运行。",
    ),
    "check.case_observe": (
        "the conversion failed and the failure was recorded as an observation",
        "换算失败、失败被记录为 Observation",
    ),
    "check.case_guess": (
        "the model wrote the °F figure without calling any tool",
        "模型没有调用任何 Tool 就写出了华氏度数值",
    ),
    "check.case_paris": (
        "Paris was converted",
        "换算了巴黎的温度",
    ),
    "check.case_stop": (
        "the conversion handler raised and the run stopped",
        "换算的 handler 抛出异常、运行停止",
    ),
    "check.case_max_steps": (
        "the run ran out of model turns before converting",
        "换算之前模型轮次就用完了",
    ),
    "check.case_converted": (
        "the conversion ran",
        "换算成功运行",
    ),
    "check.budget_wrong": (
        "for {case} your function returned a wrong budget.",
        "对于{case}，你的函数返回的预算不对。",
    ),
    "check.budget_swallowed": (
        "a run whose handler raised was treated as 'not enough steps'. Catch only "
        "the error that means out of model turns.",
        "handler 抛出异常的运行被当成了“步数不够”。只捕获表示模型轮次用完的那个错误。",
    ),
    "check.budget_right": (
        "the smallest budget for every task, None when no budget is enough, and "
        "other errors left alone.",
        "每个任务都找到了最小预算，没有预算够用时返回 None，其他错误不做拦截。",
    ),
    "check.items_wrong": (
        "{wrong} of {total} request inputs read wrong, for example {case}.",
        "{total} 份请求输入中有 {wrong} 份读错了，例如{case}。",
    ),
    "check.items_right": (
        "every request input read correctly: lone outputs, outputs before their "
        "call, and well-paired requests.",
        "所有请求输入都读对了：孤立的输出、出现在调用之前的输出，以及正确配对的请求。",
    ),
    "check.case_paired": (
        "a well-paired request",
        "一份正确配对的请求",
    ),
    "check.case_latest_only": (
        "a request holding only the latest output",
        "只含最新一条输出的请求",
    ),
    "check.case_output_first": (
        "an output sent before its call",
        "输出出现在它的调用之前",
    ),
    "check.case_never_called": (
        "an output for a call never made",
        "为从未发出的调用给出的输出",
    ),
    "check.case_two_calls": (
        "two calls answered in the other order",
        "两个调用以相反的顺序得到回答",
    ),
    "check.reply_answered": (
        "the run answered instead of failing.",
        "运行给出了答案，而没有失败。",
    ),
    "check.reply_other_error": (
        "the run failed with {error}, not ProviderResponseError: the wire format "
        "was fine and something else refused it.",
        "运行以 {error} 失败，而不是 ProviderResponseError：线上格式没有问题，是别的环节拒绝了它。",
    ),
    "check.reply_reused": (
        "that is the lesson's own broken reply. Break the reply another way.",
        "这是本课自己的那个坏回复。换一种方式破坏它。",
    ),
    "check.reply_counts": (
        "the adapter refused the reply, but after {turns} model turn(s) and "
        "{executions} tool execution(s); break the second turn's reply.",
        "适配器拒绝了回复，但发生在 {turns} 个模型轮次、{executions} 次工具执行之后；"
        "要破坏的是第二轮的回复。",
    ),
    "check.reply_right": (
        "the adapter rejected turn 2 before any of its handlers ran.",
        "适配器在第 2 轮的任何 handler 运行之前就拒绝了它。",
    ),
    "check.case_greet": (
        "the greeting",
        "问候任务",
    ),
    "check.case_weather": (
        "the weather task",
        "天气任务",
    ),
    "check.case_convert": (
        "the conversion task",
        "换算任务",
    ),
    "check.case_describe": (
        "the describe task",
        "描述温度任务",
    ),
    "check.case_never": (
        "a model that never answers",
        "一个永远不回答的模型",
    ),
    "check.prediction_not_a_dict": (
        "{name} should be a dict, like the one in the cell; it is a {kind}.",
        "{name} 应该是一个 dict，照单元格里给出的样子写；现在它是 {kind}。",
    ),
    "check.turns_not_list": (
        "my_turns should be a list of ModelTurn; it is a {kind}.",
        "my_turns 应该是由 ModelTurn 组成的 list；现在它是 {kind}。",
    ),
    "check.turns_too_few": (
        "my_turns holds {count} turn(s); the experiment needs two model turns.",
        "my_turns 里只有 {count} 个轮次；这个实验需要两个模型轮次。",
    ),
    "check.turns_first": (
        "the first turn holds {count} tool call(s); it should ask for two at once.",
        "第一轮里有 {count} 个工具调用；它应该一次请求两个。",
    ),
    "check.turns_second_fresh": (
        "the second turn uses only new call_ids; reuse one from the first turn.",
        "第二轮只用了新的 call_id；请复用第一轮里的某一个。",
    ),
    "check.turns_not_refused": (
        "the runtime did not refuse turn 2 (error: {error}, model turns: {turns}); "
        "does turn 2 reuse an id and ask for a registered tool?",
        "Runtime 没有在第 2 轮拒绝（错误：{error}，模型轮次：{turns}）。第 2 轮是否复用了 "
        "id，并且请求的是已注册的工具？",
    ),
    "check.turns_prediction_executions": (
        "your turns are right, but your predicted number of tool executions is "
        "not: which handlers ran before turn 2 was refused?",
        "你写的轮次没问题，但预测的工具执行次数不对：第 2 轮被拒绝之前，哪些 handler 已经运行过？",
    ),
    "check.turns_prediction_error": (
        "your turns are right, but not the error you predicted: which check "
        "refuses a reused call_id?",
        "你写的轮次没问题，但预测的错误不对：重复的 call_id 是被哪一项检查拒绝的？",
    ),
    "check.turns_right": (
        "two calls ran one after the other in turn 1, and the reused call_id was "
        "refused in turn 2, as you predicted.",
        "第 1 轮的两个调用依次执行，第 2 轮复用的 call_id 被拒绝，和你的预测一致。",
    ),
    "check.describe_not_a_tool": (
        "my_describe_tool should be a Tool; it is a {kind}.",
        "my_describe_tool 应该是一个 Tool；现在它是 {kind}。",
    ),
    "check.describe_name": (
        "your tool is named {name}; the model stand-in asks for describe_temperature.",
        "你的工具叫 {name}；模型替身请求的是 describe_temperature。",
    ),
    "check.describe_not_a_function": (
        "describe_script should be a function (messages, tools) -> ModelTurn; it is a {kind}.",
        "describe_script 应该是一个函数 (messages, tools) -> ModelTurn；现在它是 {kind}。",
    ),
    "check.describe_failed": (
        "the run with your tool and your script failed with {error}.",
        "用你的工具和脚本运行时，运行以 {error} 失败。",
    ),
    "check.describe_trace": (
        "the run executed these tools: {tools}; it should be weather, conversion, "
        "description, in that order.",
        "这次运行执行的工具是：{tools}；应该依次是天气、换算、描述。",
    ),
    "check.describe_hard_coded": (
        "with other weather records your run still described the old temperature: "
        "does your script read the conversion's observation?",
        "换一组天气记录后，你的运行描述的还是原来的温度：你的脚本读取换算的观察结果了吗？",
    ),
    "check.describe_runtime_changed": (
        "the run worked, but agentcore.runtime is not as it was: the task is to "
        "change only the tool and the model stand-in.",
        "运行成功了，但 agentcore.runtime 已经不是原来的样子：这个任务只允许改工具和模型替身。",
    ),
    "check.describe_right": (
        "three tools in the right order, the description follows the real "
        "temperature, and the runtime's source is unchanged.",
        "三个工具顺序正确，描述跟着真实温度走，Runtime 的源码没有改动。",
    ),
    "check.reminder_no_outbox": (
        "outbox is gone; run the cell that defines outbox = [] again.",
        "找不到 outbox；请重新运行定义 outbox = [] 的单元格。",
    ),
    "check.reminder_no_raise": (
        "under stop the run did not fail with ToolExecutionError: does your handler raise?",
        "在 stop 策略下，运行没有以 ToolExecutionError 失败：你的 handler 抛出异常了吗？",
    ),
    "check.reminder_no_side_effect": (
        "your handler raised, but nothing reached outbox: send first (the side "
        "effect), then raise.",
        "你的 handler 抛出了异常，但 outbox 里什么也没有：先发送（副作用），再抛出异常。",
    ),
    "check.reminder_counts": (
        "outbox got {stop} reminder(s) under stop and {observe} under observe; "
        "each run of the handler should send exactly one.",
        "stop 下 outbox 收到 {stop} 条提醒，observe 下收到 {observe} 条；handler "
        "每运行一次应该恰好发送一条。",
    ),
    "check.reminder_right": (
        "your handler sends, then raises: the run fails under stop, and under "
        "observe the model gets a turn to try again.",
        "你的 handler 先发送再抛出异常：stop 下运行失败，observe 下模型还有一轮可以再试。",
    ),
    "check.twice_stop": (
        "look again at stop: how many times did the handler run before the run failed?",
        "再看看 stop：运行失败之前，handler 运行了几次？",
    ),
    "check.twice_observe": (
        "look again at observe: the model asked once more; how many times did the handler run?",
        "再看看 observe：模型又请求了一次；handler 一共运行了几次？",
    ),
    "check.twice_answer": (
        "your counts are right; now read them again: would a retry send the reminder twice?",
        "次数数对了；再读一遍：重试会不会把提醒发两次？",
    ),
    "check.twice_right": (
        "a retry runs the handler, and its side effect, again: ask whether an "
        "action can safely happen twice before retrying it.",
        "重试会再次运行 handler，连同它的副作用：重试之前先问，这个动作能不能安全地执行两次。",
    ),
    "check.max_steps_wrong": (
        "{count} of 4 predictions differ from the run; look again at {field}.",
        "4 项预测中有 {count} 项和运行结果不同；再看看 {field}。",
    ),
    "check.max_steps_right": (
        "the model's one turn asked for a tool, the tool ran, and the budget "
        "stopped the run before the model could read it.",
        "模型唯一的一轮请求了工具，工具也执行了，但模型还没来得及读结果，预算就让运行停了下来。",
    ),
    "check.trajectory_format": (
        'my_trajectory should be a list of (step, holder) pairs, like ("F", '
        '"model"); it is a {kind}.',
        'my_trajectory 应该是由 (步骤, 执行方) 组成的 list，例如 ("F", "model")；现在它是 {kind}。',
    ),
    "check.trajectory_length": (
        "my_trajectory has {count} steps; the run has {total} events.",
        "my_trajectory 里有 {count} 步；这次运行有 {total} 个事件。",
    ),
    "check.trajectory_order": (
        "the order differs from the run's events at position {position}.",
        "从第 {position} 个位置起，顺序和运行的事件不一致。",
    ),
    "check.trajectory_holder": (
        "the order is right up to step {step}, but not who acts there: the model "
        "decides, the runtime holds control, the tool executes.",
        "到步骤 {step} 为止顺序都对，但那一步的执行方不对：模型做决策，Runtime "
        "掌握控制权，工具负责执行。",
    ),
    "check.trajectory_right": (
        "every step in the run's order, each with who acts.",
        "每一步都和运行的顺序一致，执行方也都对。",
    ),
    "check.where_missing": (
        "answer every question; missing: {questions}.",
        "每个问题都要回答；缺少：{questions}。",
    ),
    "check.where_format": (
        'the answer to {question} should be a pair ("file.py", "function").',
        '{question} 的答案应该是一对 ("file.py", "function")。',
    ),
    "check.where_no_such": (
        "for {question}: {file} has no function or class named {function}.",
        "{question}：{file} 里没有叫 {function} 的函数或类。",
    ),
    "check.where_wrong": (
        "look again at {question}: {what}",
        "再看看 {question}：{what}",
    ),
    "check.where_decides": (
        "which function returns the model's ModelTurn?",
        "哪个函数返回模型的 ModelTurn？",
    ),
    "check.where_executes": (
        "which function calls the handler?",
        "哪个函数调用 handler？",
    ),
    "check.where_state": (
        "which object keeps the transcript and the counts of one run?",
        "哪个对象保存一次运行的运行记录和计数？",
    ),
    "check.where_errors": (
        "which function refuses a bad call before any handler runs, or catches a "
        "handler's failure?",
        "哪个函数在任何 handler 运行之前拒绝错误的调用，或者接住 handler 的失败？",
    ),
    "check.where_stops": (
        "which function returns on a final text and raises MaxStepsExceeded?",
        "哪个函数在遇到 final_text 时返回，并抛出 MaxStepsExceeded？",
    ),
    "check.where_right": (
        "you can open the code and point at all five places.",
        "打开代码，五个位置你都能指出来。",
    ),
    # --- review quizzes (agentcore.course.quiz) ---------------------------------------------
    "quiz.model answer": ("Model answer", "参考答案"),
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
            field=_field_phrase(getattr(error, "field", ""), language),
        )
    if not isinstance(error, Exception):  # KeyboardInterrupt, SystemExit: a run interrupted
        return phrase("typed error.interrupted", language, type=type(error).__name__)
    return phrase("typed error.other", language, type=type(error).__name__)


def _field_phrase(field: str, language: Language) -> str:
    """A field path for an explanation; ``""`` is the arguments object itself."""
    if field:
        return f"the field '{field}'" if language == "en" else f"字段 '{field}'"
    return "the arguments object" if language == "en" else "参数对象本身"


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
