"""The game server: tables kept in a database, a JSON API, WebSockets, the browser client."""
