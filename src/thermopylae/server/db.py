"""The server's database tables, as SQLAlchemy Core definitions.

These definitions are what the code reads and writes; the schema itself is made and
changed only by the Alembic migrations in `server/migrations/` (`migrate.py` runs them at
start-up), so a database made by an earlier release upgrades in place. A change here
needs a new migration beside it.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
)

metadata = MetaData()

tables = Table(
    "thermopylae_tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("components", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    # [{"seat", "kind", "agent", "level", "token_hash", "account"}]
    Column("seats", JSON, nullable=False),
    Column("created", Float, nullable=False),
    Column("over", Boolean, nullable=False, default=False),
    # Added by migration 0002 (accounts, clocks):
    Column("clock", JSON, nullable=True),  # the time control (clock.TimeControl.to_json)
    Column("clock_state", JSON, nullable=True),  # clock.ClockState.to_json
    Column("deadline", Float, nullable=True),  # epoch s the deciding seat's bank runs out
    Column("low_at", Float, nullable=True),  # epoch s it falls under the "time low" share
    Column("result", JSON, nullable=True),  # a forfeit: {"reason", "seat"}
    Column("standin", JSON, nullable=True),  # seats a bot plays after a timeout ("ai")
    Column("turn", Integer, nullable=True),  # the deciding seat (-1 chance, null: over)
    Column("updated", Float, nullable=True),  # epoch s of the last stored step
    Column("public_link", String(300), nullable=True),  # the table's page, for notices
    # Added by migration 0003 (the community):
    Column("public", Boolean, nullable=False, default=False),  # listed in the lobby
    Column("open_seats", Integer, nullable=False, default=0),  # seats any account may take
    Column("rated", Boolean, nullable=False, default=False),  # moves ratings when it ends
    Column("takebacks", Boolean, nullable=False, default=True),  # agreed at creation
    Column("spectator_chat", Boolean, nullable=False, default=False),  # spectators read
    Column("epoch", Integer, nullable=False, default=0),  # grows with each takeback
    Column("takeback", JSON, nullable=True),  # a pending request {"seat", "to", "at"}
    Column("rematch", JSON, nullable=True),  # {"by", "swap", "table", "declined"}
    Column("rated_at", Float, nullable=True),  # when the ratings were settled (once)
    Column("ended", Float, nullable=True),  # epoch s the game ended
    Column("scores", JSON, nullable=True),  # {"results": [...], "scores": [...], "reason"}
    Column("hints", Boolean, nullable=False, default=False),  # "Suggest" allowed (never rated)
    # A starting position, "play from here": {"position": state JSON, "from": id, "step": n}
    Column("start", JSON, nullable=True),
    Column("kind", String(10), nullable=False, default="game"),  # "game", or "record" (a file)
    Index("ix_thermopylae_tables_deadline", "deadline"),
    Index("ix_thermopylae_tables_low_at", "low_at"),
    Index("ix_thermopylae_tables_open", "public", "over", "open_seats"),
)

steps = Table(
    "thermopylae_steps",
    metadata,
    Column("table_id", String(40), ForeignKey("thermopylae_tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),  # the move number: 0, 1, 2, ...
    Column("who", String(40), nullable=False),
    Column("action", String(200), nullable=False),
)

accounts = Table(
    "thermopylae_accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(32), nullable=False),  # as typed
    Column("key", String(64), nullable=True, unique=True),  # look-alike skeleton
    Column("password_hash", String(200), nullable=True),
    Column("created", Float, nullable=False),
    Column("deleted", Boolean, nullable=False, default=False),
    Column("lang", String(8), nullable=False, default="en"),
    Column("email", String(254), nullable=True),
    Column("webhook", String(500), nullable=True),
    Column("events", JSON, nullable=False),
    Column("low_share", Float, nullable=False, default=0.1),
    Column("webhook_failures", Integer, nullable=False, default=0),
    Column("email_failures", Integer, nullable=False, default=0),
    Column("webhook_disabled", String(200), nullable=True),
    Column("email_disabled", String(200), nullable=True),
)

sessions = Table(
    "thermopylae_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("thermopylae_accounts.id"), nullable=False),
    Column("csrf", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Index("ix_thermopylae_sessions_account", "account_id"),
)

table_seats = Table(
    "thermopylae_table_seats",
    metadata,
    Column("table_id", String(40), ForeignKey("thermopylae_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("thermopylae_accounts.id"), nullable=False),
    Index("ix_thermopylae_table_seats_account", "account_id"),
)

notices = Table(
    "thermopylae_notices",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(200), nullable=False, unique=True),
    Column("account_id", Integer, ForeignKey("thermopylae_accounts.id"), nullable=False),
    Column("channel", String(10), nullable=False),
    Column("target", String(500), nullable=False),
    Column("event", String(20), nullable=False),
    Column("table_id", String(40), nullable=True),
    Column("body", JSON, nullable=False),
    Column("created", Float, nullable=False),
    Column("status", String(10), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("next_try", Float, nullable=False),
    Column("claimed_until", Float, nullable=True),
    Column("last_error", String(300), nullable=True),
    Column("sent_at", Float, nullable=True),
    Index("ix_thermopylae_notices_due", "status", "next_try"),
)

# -- the community (migration 0003) ---------------------------------------------------

ratings = Table(
    "thermopylae_ratings",
    metadata,
    # "account:<id>" for a player, "bot:<level>" for one of the server's bot levels
    Column("subject", String(40), primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("side", String(40), primary_key=True),  # a rating per side of each game
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_thermopylae_ratings_board", "game", "side"),
)

rating_events = Table(
    "thermopylae_rating_events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("subject", String(40), nullable=False),
    Column("game", String(40), nullable=False),
    Column("side", String(40), nullable=False),
    Column("table_id", String(40), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("result", String(10), nullable=False),  # win, loss, draw
    Column("at", Float, nullable=False),
    UniqueConstraint("subject", "game", "side", "table_id"),  # once per game
    Index("ix_thermopylae_rating_events_subject", "subject", "game"),
)

chat = Table(
    "thermopylae_chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(40), ForeignKey("thermopylae_tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("account_id", Integer, nullable=True),  # None: a guest seat's link
    Column("text", String(500), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_thermopylae_chat_table", "table_id", "id"),
)

mutes = Table(
    "thermopylae_mutes",
    metadata,
    Column("account_id", Integer, ForeignKey("thermopylae_accounts.id"), primary_key=True),
    Column("muted_id", Integer, ForeignKey("thermopylae_accounts.id"), primary_key=True),
)

match_queue = Table(
    "thermopylae_match_queue",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("thermopylae_accounts.id"), unique=True),
    Column("game", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    Column("clock", String(20), nullable=False),  # a preset name: live, correspondence, ...
    Column("side", String(40), nullable=False),  # a seat name, or "any"
    Column("rated", Boolean, nullable=False),
    Column("mu", Float, nullable=False),  # the player's rating when they asked
    Column("created", Float, nullable=False),
    Column("table_id", String(40), nullable=True),  # the table made when paired
)

analyses = Table(
    "thermopylae_analyses",
    metadata,
    # one analysis per finished table and seat, shared by everyone who opens the game
    Column("table_id", String(40), ForeignKey("thermopylae_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("status", String(10), nullable=False),  # queued, running, done, failed
    Column("budget", Integer, nullable=False),  # playouts an estimate
    Column("done", Integer, nullable=False, default=0),  # estimates made so far
    Column("total", Integer, nullable=False, default=0),  # estimates in all (0: not planned)
    Column("client", String(64), nullable=False),  # the address that asked (per-client limits)
    Column("created", Float, nullable=False),
    Column("claimed_by", String(64), nullable=True),  # the process running it
    Column("claimed_until", Float, nullable=True),  # its lease: another process takes over after
    Column("attempts", Integer, nullable=False, default=0),
    Column("result", JSON, nullable=True),  # the analysis JSON (ai.analysis.assemble)
    Column("error", String(300), nullable=True),
    Index("ix_thermopylae_analyses_status", "status", "created"),
)
