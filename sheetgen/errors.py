"""Errors a user can fix. The CLI prints them as one line and exits 2."""

from __future__ import annotations


class SheetgenError(Exception):
    """A problem in the user's input: file, place in it, what is wrong, how to fix it."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 key: str | None = None, fix: str | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.key = key
        self.fix = fix

    def __reduce__(self):  # keep file, line, key and fix when sent back from a worker process
        return (_rebuild, (self.message, self.file, self.line, self.key, self.fix))

    def __str__(self) -> str:
        where = self.file or ""
        if self.line is not None:
            where += f":{self.line}"
        parts = [where] if where else []
        if self.key:
            parts.append(f"key '{self.key}'")
        parts.append(self.message)
        text = ": ".join(parts)
        if self.fix:
            text += f" (fix: {self.fix})"
        return " ".join(text.split())  # always one line


def _rebuild(message, file, line, key, fix) -> SheetgenError:
    return SheetgenError(message, file=file, line=line, key=key, fix=fix)


def did_you_mean(word: str, choices, what: str = "") -> str:
    """'did you mean X?' for the closest of `choices`, else '' (use it in an error's fix)."""
    import difflib

    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""
