"""Provider adapters (chapter section 10) and the loopback servers that speak their wire formats.

An adapter translates between a provider's wire format and the runtime's internal language
(:class:`agentcore.ModelTurn`); the runtime never sees the wire format.

* :mod:`~agentcore.providers.deepseek`: ``DeepSeekResponsesModel`` and its three translations.
* :mod:`~agentcore.providers.deepseek_chat`: ``DeepSeekChatModel``, the same runtime through
  Chat Completions, and its three translations.
* :mod:`~agentcore.providers.http`: the trust boundary every adapter shares: the HTTP client it
  owns, the one redaction function, reply caps, the deadline, SDK errors typed.
* :mod:`~agentcore.providers.errors`: the ``ProviderError`` family and the status hint table.
* :mod:`~agentcore.providers.local_server`: ``LocalResponsesServer``, DeepSeek's behaviour on
  127.0.0.1 with scripted replies, and ``LoopbackServer``, what every loopback server shares.
* :mod:`~agentcore.providers.local_chat_server`: ``LocalChatServer``, the same for Chat
  Completions.

Importing this package imports nothing heavy; ``deepseek``, ``deepseek_chat`` and ``http`` load
the ``openai`` SDK.
"""
