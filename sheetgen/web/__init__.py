"""`sheetgen serve`: web pages over the same `api`, `kit` and `variant` functions as the CLI.

`work` does the rendering (blocking; run in a bounded pool), `app` is the Starlette application,
`command` is the `serve` command. Needs the `web` extra: `pip install 'sheetgen[web]'`.
"""
