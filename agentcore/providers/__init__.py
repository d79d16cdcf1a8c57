"""Provider adapters (chapter section 10) and the loopback servers that speak their wire formats.

An adapter translates between a provider's wire format and the runtime's internal language
(:class:`agentcore.ModelTurn`); the runtime never sees the wire format. Importing this package
imports nothing heavy; :mod:`agentcore.providers.deepseek` (Responses API) and
:mod:`agentcore.providers.deepseek_chat` (Chat Completions) load the ``openai`` SDK.
"""
