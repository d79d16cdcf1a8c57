# ruff: noqa: E501  (long Markdown lines, as the notebooks hold them)
"""Insert issue 11's chat section into lesson 05's core path, once branch `chat` is merged.

Run from the repository root: python docs/drafts/lesson-05-chat-insert.py, then execute, stamp
(zh-CN) and release lesson 05. It replaces the cell marked CHAT SECTION (issue 11) with seven
cells (from docs/drafts/lesson-05-chat-section.md of branch `chat`), merges three pairs of
Markdown cells to stay within 45 cells, and lets the optional real-DeepSeek cell run
DeepSeekChatModel too. Run it once: it fails if the marked cell is gone.
"""

import nbformat
from nbformat.v4 import new_code_cell as C
from nbformat.v4 import new_markdown_cell as M

LS = "language-specific"
P = "notebooks/{}/solutions/05-deepseek-adapter.ipynb"  # run from the repository root
T = {}
T["intro"] = (
    """## The same runtime, a second wire format: Chat Completions (§10)

Besides the Responses API, DeepSeek serves a second API: Chat Completions,
`POST /chat/completions`. It is DeepSeek's primary interface, and the one most
OpenAI-compatible hosts speak. Its wire format is different: the conversation travels as a list
of `messages`, not of `input` items. If the chapter is right that an adapter only translates, a
second adapter for this format should need no change in the runtime at all. Let's test that.

`DeepSeekChatModel` is that second adapter, and `LocalChatServer` its local server: the same
scripted replies (`weather_script()`), the same request recording and the same Bearer check as
`LocalResponsesServer`; only the JSON differs. Both servers play DeepSeek's **thinking mode**
here: each reply carries scripted reasoning (not a model's), which an adapter must send back
with the tool calls, or DeepSeek answers 400.""",
    """## 同一个 Runtime，第二种线上格式：Chat Completions（第 10 节）

除了 Responses API，DeepSeek 还提供第二种 API：Chat Completions，即 `POST /chat/completions`。它是 DeepSeek 的主要接口，也是大多数兼容 OpenAI 的服务都支持的接口。它的线上格式不一样：对话以 `messages` 列表的形式发送，而不是 `input` 条目。如果本章说得对，适配器只负责翻译，那么为这种格式再写一个适配器，Runtime 应该一行都不用改。我们来检验一下。

`DeepSeekChatModel` 就是第二个适配器，`LocalChatServer` 是它的本地服务器：和 `LocalResponsesServer` 用同样的脚本回复（`weather_script()`）、同样的请求记录、同样的 Bearer 检查，只有 JSON 不同。这里两个服务器都模拟 DeepSeek 的**思考模式**：每个回复都带着预先写好的推理内容（不是模型生成的），适配器必须把它和工具调用一起发回去，否则 DeepSeek 会返回 400。""",
)
RUN = '''from agentcore import DeepSeekChatModel
from agentcore.providers.local_chat_server import LocalChatServer

WIRE_FORMATS = {  # adapter -> the local server that speaks its wire format
    DeepSeekResponsesModel: LocalResponsesServer,
    DeepSeekChatModel: LocalChatServer,
}
runs = {}
for adapter, server_type in WIRE_FORMATS.items():
    # thinking=True: each server plays DeepSeek's thinking mode, with scripted reasoning.
    with server_type(weather_script(language=LANGUAGE), thinking=True) as server:
        model = adapter(MODEL_NAME, api_key=OFFLINE_KEY, base_url=server.base_url, max_retries=0)
        run = AgentRuntime(model, build_tools()).run(REQUEST)
    runs[adapter.__name__] = (run, server)
    print(f"{adapter.__name__:23} POST {server.requests[0].path:18} {run.answer}")


def runtime_view(messages):
    """The transcript without provider_items, the one field the runtime stores but never reads."""
    return [{k: v for k, v in message.items() if k != "provider_items"} for message in messages]


(responses_run, responses_server), (chat_run, chat_server) = runs.values()
same = runtime_view(responses_run.messages) == runtime_view(chat_run.messages)
print("runtime_view(responses_run) == runtime_view(chat_run):", same)
for name, (run, _) in runs.items():
    print(f"{name}.provider_items:", [list(item) for item in run.messages[1]["provider_items"]])
'''
RUN_ZH = (
    RUN.replace(
        "# adapter -> the local server that speaks its wire format",
        "# 适配器 -> 说它那种线上格式的本地服务器",
    )
    .replace(
        "# thinking=True: each server plays DeepSeek's thinking mode, with scripted reasoning.",
        "# thinking=True：每个服务器都模拟 DeepSeek 的思考模式，推理内容是写好的脚本。",
    )
    .replace(
        '"""The transcript without provider_items, the one field the runtime stores but never reads."""',
        '"""去掉 provider_items 的运行记录：这是 Runtime 保存却从不读取的唯一字段。"""',
    )
)
T["after_run"] = (
    """Two adapters, two endpoints, one answer, and the same transcript message for message once
`provider_items` is set aside: what each adapter keeps of its provider's reply that the runtime
does not model. The Responses adapter keeps the reply's output items (a `reasoning` item beside
the `function_call`); the Chat adapter keeps a single field, `reasoning_content`. The runtime
stores `provider_items` beside the turn and never reads it; only the adapter that wrote it sends
it back.

### Turn 2 on the wire, side by side

The second request of each run is the first one that carries history: the user's message, the
first tool request, and its observation. Here are both bodies, the Responses one on the left.""",
    """两个适配器，两个端点，同一个答案；把 `provider_items` 放到一边，两份运行记录逐条消息都相同。`provider_items` 是每个适配器从 Provider 的回复里保留下来、而 Runtime 并不建模的那部分：Responses 适配器保留回复的输出条目（`function_call` 旁边的一个 `reasoning` 条目）；Chat 适配器只保留一个字段：`reasoning_content`。Runtime 把 `provider_items` 存在这一轮旁边，但从不读取它；只有写下它的那个适配器才会把它发回去。

### 第 2 轮的线上内容，左右对照

每次运行的第二个请求是第一个带着历史的请求：用户的消息、第一次工具请求和它的观察结果。下面是两个请求体，左边是 Responses 的。""",
)
SIDE = '''def side_by_side(left, right, width=58):
    """Print two JSON values next to each other, each pretty-printed and wrapped at `width`."""

    def lines(value):
        text = json.dumps(value, indent=1, ensure_ascii=False).splitlines()
        wrapped = [textwrap.wrap(line, width, subsequent_indent="    ") for line in text]
        return [part for parts in wrapped for part in parts or [""]]

    for a, b in itertools.zip_longest(lines(left), lines(right), fillvalue=""):
        print(f"{a:<{width}} | {b}".rstrip())


def turn_2_body(server):
    """The second request's body, without the tool schemas (the same in every request)."""
    return {k: v for k, v in server.requests[1].body.items() if k != "tools"}


print(f"{'Responses API: POST /responses':<58} | Chat Completions: POST /chat/completions")
print("-" * 58 + "-+-" + "-" * 58)
side_by_side(turn_2_body(responses_server), turn_2_body(chat_server))
'''
SIDE = "import textwrap\n\n\n" + SIDE
SIDE_ZH = SIDE.replace(
    '"""Print two JSON values next to each other, each pretty-printed and wrapped at `width`."""',
    '"""把两个 JSON 值左右并排打印，各自缩进排版，并在 `width` 处折行。"""',
).replace(
    '"""The second request\'s body, without the tool schemas (the same in every request)."""',
    '"""第二个请求的请求体，不含工具 Schema（每个请求里都一样）。"""',
)
T["read"] = (
    """Read the two bodies line by line. Same model, same conversation, two shapes:

- **`input` items vs `messages`.** The Responses API sends `input`, a list of typed items
  (`"type": "message"`, `"function_call"`, ...). Chat Completions sends `messages`, each with a
  `role`: `user`, `assistant`, `tool`.
- **The tool request.** On the left, a `function_call` item. On the right, an assistant message
  whose `tool_calls` list holds the call (`content` is `null`: the model said nothing beside it).
  On both sides `arguments` travels as a JSON string.
- **`call_id` vs `tool_call_id`.** On the left, the call and its `function_call_output` share a
  `call_id`. On the right, the call has an `id`, and the `tool` message answers it with
  `tool_call_id`. The same pairing, under other names.
- **A reasoning item vs `reasoning_content`.** On the left, the reasoning is an item of its own,
  in its place before the call. On the right, it is a field of the assistant message that
  carries the calls. Drop it on either side and DeepSeek, in thinking mode, answers 400.

### What changed in the runtime?

**Question.** Between the two runs, what had to change in `AgentRuntime`, in the tools, or in the
transcript? Write your answer down, then run the next cell.""",
    """逐行对照这两个请求体。同一个模型，同一段对话，两种形状：

- **`input` 条目与 `messages`。** Responses API 发送 `input`，它是一串带类型的条目（`"type": "message"`、`"function_call"` ……）。Chat Completions 发送 `messages`，每条消息都有一个 `role`：`user`、`assistant`、`tool`。
- **工具请求。** 左边是一个 `function_call` 条目；右边是一条 assistant 消息，调用放在它的 `tool_calls` 列表里（`content` 是 `null`：模型在调用之外什么也没说）。两边的 `arguments` 都是 JSON 字符串。
- **`call_id` 与 `tool_call_id`。** 左边，调用和它的 `function_call_output` 共用一个 `call_id`；右边，调用有一个 `id`，`tool` 消息用 `tool_call_id` 回应它。配对方式相同，只是字段名不同。
- **`reasoning` 条目与 `reasoning_content`。** 左边，推理内容是一个独立的条目，放在调用之前的原位；右边，它是携带调用的那条 assistant 消息上的一个字段。无论哪一边丢掉它，思考模式下的 DeepSeek 都会返回 400。

### Runtime 改了什么？

**问题。** 在这两次运行之间，`AgentRuntime`、Tool 或运行记录有哪些地方必须改？先写下你的答案，再运行下一个单元格。""",
)
SRC = """import agentcore.runtime

source = inspect.getsource(agentcore.runtime)
for word in ("openai", "deepseek", "responses", "chat/completions", "call_id"):
    print(f"{word!r:20} in agentcore/runtime.py: {word in source.lower()}")
"""
T["answer"] = (
    """<details>
<summary>Answer</summary>

Nothing. `agentcore/runtime.py` does not mention the `openai` SDK, DeepSeek, or either endpoint.
The one wire word it does contain, `call_id`, is its own: `ToolCall.call_id`, which each adapter
maps onto its format (`call_id` in the Responses API; `id` and `tool_call_id` in Chat
Completions). Everything that differs lives in the two adapters' three translations. That is the
chapter's claim, tested: the adapter only translates.

</details>

In a terminal, the same comparison is one flag: `python -m agentcore --provider deepseek --offline`
runs the Responses adapter, and adding `--api chat` runs the Chat Completions one.""",
    """<details>
<summary>答案</summary>

什么都没改。`agentcore/runtime.py` 里没有出现 `openai` SDK、DeepSeek，也没有出现任何一个端点。它唯一包含的线上字眼 `call_id` 其实是它自己的词：`ToolCall.call_id`，由每个适配器映射到各自的格式上（Responses API 里是 `call_id`；Chat Completions 里是 `id` 和 `tool_call_id`）。所有不同之处都在两个适配器各自的三个翻译函数里。这正是本章的论断，经过了检验：适配器只负责翻译。

</details>

在终端里，同样的比较只差一个参数：`python -m agentcore --provider deepseek --offline` 运行 Responses 适配器，再加上 `--api chat` 就运行 Chat Completions 适配器。""",
)


def insert():
    for lang in ("en", "zh-CN"):
        p = P.format(lang)
        nb = nbformat.read(p, as_version=4)
        i = next(i for i, c in enumerate(nb.cells) if "CHAT SECTION (issue 11)" in c.source)
        k = 0 if lang == "en" else 1
        cells = [
            M(T["intro"][k]),
            C(RUN if k == 0 else RUN_ZH),
            M(T["after_run"][k]),
            C(SIDE if k == 0 else SIDE_ZH),
            M(T["read"][k]),
            C(SRC),
            M(T["answer"][k]),
        ]
        nb.cells[i : i + 1] = cells
        # budget: the offline note joins the title cell; the recap joins the review questions
        nb.cells[0].source += "\n\n" + nb.cells[1].source
        del nb.cells[1]
        r = next(i for i, c in enumerate(nb.cells) if c.source.startswith(("## Recap", "## 小结")))
        nb.cells[r + 1].source = nb.cells[r].source + "\n\n" + nb.cells[r + 1].source
        del nb.cells[r]
        o = next(
            i
            for i, c in enumerate(nb.cells)
            if c.source.startswith(
                ("## The same runtime, through the adapter", "## 同一个 Runtime，换上适配器")
            )
        )
        nb.cells[o - 1].source += "\n\n" + nb.cells[o].source
        del nb.cells[o]
        for n, c in enumerate(nb.cells):
            c["id"] = f"l05-{n:03d}"
        nbformat.write(nb, p)
        print(lang, len(nb.cells))


def live_both():
    """The optional real-DeepSeek cell also runs the Chat Completions adapter."""
    add = {
        "en": "        live_chat = DeepSeekChatModel(instructions=INSTRUCTIONS)  # the other wire format\n"
        '        print(f"Now through {type(live_chat).__name__}.")\n'
        "        print(AgentRuntime(live_chat, build_tools(), verbose=True).run(REQUEST))\n",
        "zh-CN": "        live_chat = DeepSeekChatModel(instructions=INSTRUCTIONS)  # 另一种线上格式\n"
        '        print(f"再通过 {type(live_chat).__name__} 运行一次。")\n'
        "        print(AgentRuntime(live_chat, build_tools(), verbose=True).run(REQUEST))\n",
    }
    for lang in ("en", "zh-CN"):
        p = P.format(lang)
        nb = nbformat.read(p, as_version=4)
        c = next(c for c in nb.cells if c.source.startswith("# NBVAL_SKIP"))
        assert "        print(live_result)\n" in c.source
        c.source = c.source.replace(
            "        print(live_result)\n", "        print(live_result)\n" + add[lang]
        )
        nbformat.write(nb, p)


if __name__ == "__main__":
    insert()
    live_both()
