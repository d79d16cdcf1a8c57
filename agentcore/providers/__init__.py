"""Provider adapters (chapter section 10) and the loopback servers that speak their wire formats.

An adapter translates between a provider's wire format and the runtime's internal language
(:class:`agentcore.ModelTurn`); the runtime never sees the wire format.

* :mod:`~agentcore.providers.connection`: ``Connection``, what every adapter owns: its checked
  settings, its HTTP client, one send, a redacted repr.
* :mod:`~agentcore.providers.tool_calls`: ``checked_tool_call`` and ``parse_arguments``, the
  checks of one tool call in a reply, for both wire formats.
* :mod:`~agentcore.providers.provider_items`: ``chat_extras`` and ``responses_items``, what one
  wire format's ``provider_items`` mean to the other, so one transcript moves between adapters.
* :mod:`~agentcore.providers.deepseek_settings`: the ``DEEPSEEK_*`` settings both DeepSeek
  adapters read.
* :mod:`~agentcore.providers.deepseek`: ``DeepSeekResponsesModel`` and its three translations.
* :mod:`~agentcore.providers.chat_profiles`: ``ChatProfile`` and one per server (DeepSeek,
  Ollama, llama-server, llama-cpp-python, vLLM, LM Studio, generic): what each does differently.
* :mod:`~agentcore.providers.openai_compatible`: ``OpenAICompatibleChatModel`` for any Chat
  Completions server, its three translations, and the server quirks it absorbs or refuses.
* :mod:`~agentcore.providers.deepseek_chat`: ``DeepSeekChatModel``, the generic Chat
  Completions adapter with DeepSeek's profile and settings.
* :mod:`~agentcore.providers.http`: the trust boundary every adapter shares: the HTTP client it
  owns, the one redaction function, reply caps, the deadline, SDK errors typed.
* :mod:`~agentcore.providers.errors`: the ``ProviderError`` family and the status hint table.
* :mod:`~agentcore.providers.local_server`: ``LocalResponsesServer``, DeepSeek's behaviour on
  127.0.0.1 with scripted replies, and ``LoopbackServer``, what every loopback server shares.
* :mod:`~agentcore.providers.local_chat_server`: ``LocalChatServer``, the same for Chat
  Completions, with a quirk mode for each quirk of a local server (``QUIRKS``).

Nothing here imports :mod:`agentcore.course`: the loopback servers play the script they are
given (the course builds its weather script in :mod:`agentcore.course.offline_replies`).

Importing this package imports nothing heavy; the adapters, ``connection`` and ``http`` load the
``openai`` SDK.
"""
