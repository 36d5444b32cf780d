"""Language: English as data (``english``), the one tokenizer (``tokens``), and words as meanings
(``words``: stems, content words, the agent's vocabulary in effect). It imports nothing of genie-bot,
so every layer may read it."""
