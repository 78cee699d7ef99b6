"""The `serve` command: the game server, its database, its AI bounds and its proxies."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer

from thermopylae.cli_common import err, fail


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8300,
    db: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy database URL, e.g. postgresql+psycopg://user@127.0.0.1/test "
            "(default: a SQLite file in your data folder)."
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            help="Redis URL, e.g. redis://127.0.0.1:6379/0: several server processes on one "
            "database share table updates through it."
        ),
    ] = None,
    data_dir: Annotated[
        Path | None, typer.Option("--data-dir", help="Folder of the default SQLite file.")
    ] = None,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(help="Another origin whose pages may open WebSockets (repeatable)."),
    ] = None,
    http_rate: Annotated[
        float | None,
        typer.Option(
            min=0.0,
            help="New tables and actions a second allowed per client address over "
            "HTTP (bursts of three times that, at least one), 429 past it; 0: no limit "
            "(default: the THERMOPYLAE_HTTP_RATE environment variable, else "
            "no limit).",
        ),
    ] = None,
    ai_seconds: Annotated[
        float,
        typer.Option(
            min=0.01,
            max=600.0,
            help="CPU seconds one AI decision may take; a seat asking for "
            "more (seconds=...) is refused with 422.",
        ),
    ] = 5.0,
    ai_limit: Annotated[
        list[str] | None,
        typer.Option(
            help="The largest value of an agent parameter, NAME=VALUE (repeatable); defaults: "
            "iterations=20000, samples=2000, depth=1000, c=100, prior=100."
        ),
    ] = None,
    ai_workers: Annotated[
        int,
        typer.Option(
            min=0,
            max=256,
            help="Processes (or threads) the AI seats think in; 0: the number of CPUs, at most 4.",
        ),
    ] = 0,
    ai_threads: Annotated[
        bool, typer.Option(help="Think in threads of this process instead of worker processes.")
    ] = False,
    ai_per_client: Annotated[
        int,
        typer.Option(min=1, max=1000, help="AI decisions of one client address thinking at once."),
    ] = 2,
    ai_tables_per_client: Annotated[
        int,
        typer.Option(
            min=1,
            max=10000,
            help="Tables of one client address waiting for their AI at once; 429 past it.",
        ),
    ] = 8,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="The address of a reverse proxy whose X-Forwarded-For names the client "
            "(repeatable); from any other peer the header is ignored."
        ),
    ] = None,
    smtp: Annotated[
        str | None,
        typer.Option(
            help="HOST:PORT of the mail server that sends players' email notifications "
            "(without it, email is off and the settings page says so)."
        ),
    ] = None,
    mail_from: Annotated[
        str, typer.Option(help="The sender address of notification emails.")
    ] = "thermopylae@localhost.localdomain",
    allow_private_webhooks: Annotated[
        bool,
        typer.Option(
            help="Let players' webhooks reach loopback, private and link-local addresses "
            "(refused by default: a webhook must not reach inside your network). For tests "
            "and home set-ups."
        ),
    ] = False,
    analysis_budget: Annotated[
        int,
        typer.Option(
            min=1,
            max=1000,
            help="Playouts per estimate in the analyses of finished games ('Analyse'); "
            "the cost of an analysis grows with it.",
        ),
    ] = 24,
    analysis_jobs: Annotated[
        int,
        typer.Option(
            min=0,
            max=16,
            help="Analyses this process runs at once; 0: none (other server processes "
            "sharing the database run them).",
        ),
    ] = 1,
    ws_compression: Annotated[
        bool,
        typer.Option(
            help="Compress WebSocket messages of 1 KiB or more (per-message deflate, when "
            "the browser offers it): a whole update shrinks about 13 times (1.7 KB to about "
            "130 bytes in Thermopyles); the browser's patches after a move (about 430 bytes) "
            "go as they are. --no-ws-compression saves the deflater's ~32 KB a socket on a "
            "fast network.",
        ),
    ] = True,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The site's address as players reach it (https://...), for the links in "
            "notifications; default: the address each table was created at."
        ),
    ] = None,
) -> None:
    """Run the game server: the lobby at http://HOST:PORT/, the API under /api (docs at
    /docs). Every accepted action is stored before anyone is told of it. AI seats think
    in a bounded pool of their own, within the --ai-* limits."""
    import uvicorn

    from thermopylae.server.ai_pool import DEFAULT_PARAMETERS, AiLimits
    from thermopylae.server.analysis_jobs import AnalysisLimits
    from thermopylae.server.app import create_app
    from thermopylae.server.store import StoreError
    from thermopylae.server.ws_protocol import TableSocketProtocol

    if public_url is not None and (
        not public_url.startswith(("http://", "https://")) or len(public_url) > 200
    ):
        raise fail(f"--public-url {public_url!r}: give the site's http:// or https:// address")
    parameters = dict(DEFAULT_PARAMETERS)
    for item in ai_limit or ():
        key, eq, value = item.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = float("nan")
        if not eq or key.strip() not in parameters or not math.isfinite(number) or number < 0:
            raise fail(
                f"--ai-limit {item!r}: write NAME=VALUE with NAME one of "
                f"{', '.join(parameters)} and VALUE a number, 0 or more"
            )
        parameters[key.strip()] = number
    limits = AiLimits(
        seconds=ai_seconds,
        parameters=parameters,
        per_client=ai_per_client,
        tables_per_client=ai_tables_per_client,
        processes=not ai_threads,
        **({"workers": ai_workers} if ai_workers else {}),
    )
    try:
        web = create_app(
            db=db,
            redis=redis,
            data_dir=data_dir,
            origins=tuple(allow_origin or ()),
            http_rate=http_rate,
            ai=limits,
            trusted_proxies=tuple(trusted_proxy or ()),
            smtp=smtp,
            mail_from=mail_from,
            allow_private_webhooks=allow_private_webhooks,
            public_url=public_url,
            analysis=AnalysisLimits(budget=analysis_budget, jobs=analysis_jobs),
        )
    except StoreError as exc:
        raise fail(str(exc)) from exc
    except ValueError as exc:  # a malformed --smtp or --mail-from
        raise fail(str(exc)) from exc
    where = db or f"the SQLite file in {data_dir or 'your data folder'}"
    err.print(
        f"thermopylae server on http://{host}:{port}/ (tables in {where}"
        f"{', updates shared through ' + redis if redis else ''})",
        markup=False,
    )
    # Forwarded headers are read by the app, and only from --trusted-proxy peers (uvicorn
    # alone would trust any loopback peer); a stop waits at most 3 s for open requests.
    # The sockets run uvicorn's WebSocket protocol with the server's deflate settings.
    uvicorn.run(
        web,
        host=host,
        port=port,
        ws=TableSocketProtocol,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=ws_compression,
        log_level="warning",
        proxy_headers=False,
        timeout_graceful_shutdown=3,
    )
