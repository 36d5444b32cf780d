"""The matchers: each a pure function of the message's context (its analysis, the state, the spec)
that proposes readings. None imports, calls or vetoes another (a contract of pyproject.toml's import
linter says so); they share only the layers below them: the analysis, the slot mappings, the task
requests. The resolver chooses among what they propose."""
