"""The game server's own CPU per action, without HTTP or WebSocket (issue 21, item 7).

    .venv/bin/python bench/server_app.py --actions 1500
    PYTHONPATH=<other tree>/src .venv/bin/python bench/server_app.py --actions 1500

Plays random two-seat Thermopyles tables through `Tables.submit` on a SQLite file (the
server's writer thread, commits with `synchronous=FULL`), and builds both seats' update
messages as JSON text after each action, as the WebSocket pushes do (with the server's own
encoder). Prints the CPU microseconds per action of each part (process CPU: the writer
thread included). Beside the load bench's CPU per accepted action (`bench/load.py`), the
difference is what the web stack costs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from thermopylae.server.store import Store
from thermopylae.server.tables import Tables

try:  # the encoder of the server's pushes (orjson); an older tree's is Starlette's send_json
    from thermopylae.server.app import json_text as encode
except ImportError:

    def encode(message: dict[str, Any]) -> str:
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


async def measure(actions: int, seed: int) -> dict[str, float]:
    folder = Path(tempfile.mkdtemp(prefix="server_app_"))
    store = Store(f"sqlite:///{folder / 'tables.db'}")
    tables = Tables(store)
    rng = random.Random(seed)
    spent = {"submit": 0.0, "messages": 0.0}
    done = 0
    try:
        while done < actions:
            live, tokens = await tables.create(
                "thermopyles", {"players": 2}, [{"kind": "human"}, {"kind": "human"}]
            )
            while (seat := live.to_act()) is not None and done < actions:
                if seat < 0:  # chance, drawn by the table's runner
                    await asyncio.sleep(0)
                    continue
                action = live.game.format(rng.choice(list(live.game.legal(live.state))))
                t0 = time.process_time()
                await tables.submit(live.row.id, tokens[seat], live.move, action)
                t1 = time.process_time()
                for who in (0, 1):
                    message = tables.message(live, who, since=live.move - 2)
                    encode(message)
                t2 = time.process_time()
                spent["submit"] += t1 - t0
                spent["messages"] += t2 - t1
                done += 1
        await tables.close()
    finally:
        store.dispose()
        shutil.rmtree(folder, ignore_errors=True)
    return {part: round(seconds / done * 1e6, 1) for part, seconds in spent.items()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--actions", type=int, default=1500, help="actions to time (default 1500)")
    p.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    args = p.parse_args()
    if not 1 <= args.actions <= 1_000_000:
        p.error("--actions must be between 1 and 1,000,000")
    parts = asyncio.run(measure(args.actions, args.seed))
    total = sum(parts.values())
    print(
        f"CPU per action: submit {parts['submit']} us, both messages {parts['messages']} us, "
        f"together {total:.1f} us ({args.actions} actions)"
    )


if __name__ == "__main__":
    main()
