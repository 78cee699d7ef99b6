// The lobby: start a table (game, options, who sits where) and resume my tables.

import { api, store } from "./api.js";
import { clear, h } from "./dom.js";
import { formatDate, seatName, t, tOr } from "./i18n.js";

const ROLES = ["me", "invite", "ai-easy", "ai-normal", "ai-hard"];

export function mountLobby(root) {
  const state = {
    games: null,
    error: null,
    busy: false,
    game: null, // game id
    players: null,
    roles: [], // one per seat
    status: {}, // table id -> lobby.status.* key
  };

  const form = h("section", { class: "panel lobby-new", "aria-labelledby": "new-heading" });
  const mine = h("section", { class: "panel my-tables", "aria-labelledby": "mine-heading" });
  clear(root).append(h("div", { class: "lobby" }, form, mine));

  function game() {
    return state.games?.find((g) => g.id === state.game) || null;
  }

  function seatNames() {
    const g = game();
    if (!g) return [];
    return g.seats[String(state.players)] || g.seats[String(g.min_players)] || [];
  }

  function fitRoles() {
    const n = seatNames().length;
    const roles = state.roles.slice(0, n);
    while (roles.length < n) roles.push(roles.length === 0 ? "me" : "ai-normal");
    state.roles = roles;
  }

  function drawForm() {
    clear(form);
    form.append(h("h2", { id: "new-heading" }, t("lobby.new")));
    if (state.games === null) {
      form.append(h("p", { role: "status" }, state.error ? t("lobby.loadError", { detail: state.error }) : t("lobby.loading")));
      return;
    }
    const g = game();
    const gameSelect = h(
      "select",
      {
        id: "game-select",
        "data-testid": "game-select",
        value: state.game,
        onchange: (e) => {
          state.game = e.target.value;
          const ng = game();
          state.players = ng.min_players;
          state.roles = [];
          fitRoles();
          drawForm();
          form.querySelector("#game-select")?.focus();
        },
      },
      state.games.map((x) => h("option", { value: x.id }, tOr(`game.${x.id}`, x.title))),
    );
    const counts = [];
    for (let n = g.min_players; n <= g.max_players; n++) counts.push(n);
    const playersSelect = h(
      "select",
      {
        id: "players-select",
        "data-testid": "players-select",
        value: String(state.players),
        disabled: counts.length === 1,
        onchange: (e) => {
          state.players = Number(e.target.value);
          fitRoles();
          drawForm();
          form.querySelector("#players-select")?.focus();
        },
      },
      counts.map((n) => h("option", { value: String(n) }, String(n))),
    );
    const seats = seatNames().map((name, i) =>
      h(
        "div",
        { class: "field seat-field" },
        h("label", { for: `seat-${i}` }, t("lobby.seat", { seat: seatName(name) })),
        h(
          "select",
          {
            id: `seat-${i}`,
            "data-testid": `seat-${i}`,
            value: state.roles[i],
            onchange: (e) => {
              state.roles[i] = e.target.value;
              drawNotes();
            },
          },
          ROLES.map((r) => h("option", { value: r }, t(`role.${r}`))),
        ),
      ),
    );
    const notes = h("div", { class: "notes", "aria-live": "polite" });
    function drawNotes() {
      clear(notes);
      if (g.provisional) notes.append(h("p", { class: "note provisional-note" }, t("lobby.provisional")));
      if (g.cooperative) notes.append(h("p", { class: "note" }, t("lobby.cooperative")));
      if (!state.roles.includes("me")) notes.append(h("p", { class: "note" }, t("lobby.noMe")));
    }
    drawNotes();
    form.append(
      h(
        "form",
        { onsubmit: (e) => (e.preventDefault(), start()) },
        h("div", { class: "field" }, h("label", { for: "game-select" }, t("lobby.game")), gameSelect),
        h("div", { class: "field" }, h("label", { for: "players-select" }, t("lobby.players")), playersSelect),
        h("fieldset", { class: "seats" }, h("legend", {}, t("lobby.seats")), seats),
        notes,
        h("p", { class: "error", role: "alert", "data-testid": "error", hidden: !state.error }, state.error || ""),
        h(
          "button",
          { type: "submit", class: "primary", "data-testid": "start", disabled: state.busy },
          state.busy ? t("lobby.starting") : t("lobby.start"),
        ),
      ),
    );
  }

  async function start() {
    const g = game();
    if (!g || state.busy) return;
    state.busy = true;
    state.error = null;
    drawForm();
    const seats = state.roles.map((r) =>
      r.startsWith("ai-") ? { kind: "ai", level: r.slice(3) } : { kind: "human" },
    );
    const options = g.min_players === g.max_players ? {} : { players: state.players };
    let table;
    try {
      table = await api.create(g.id, options, seats);
    } catch (err) {
      state.busy = false;
      state.error = err.detail || err.message;
      drawForm();
      return;
    }
    const created = new Date().toISOString();
    const invites = [];
    let first = null;
    // Held seats are stored last seat first, so that the list reads in seat order.
    table.seats.forEach((seat, i) => {
      if (state.roles[i] === "invite") invites.push({ seat: seat.seat, url: seat.invite_url });
    });
    for (let i = table.seats.length - 1; i >= 0; i--) {
      const seat = table.seats[i];
      if (state.roles[i] === "me") {
        store.hold({ id: table.id, game: g.id, seat: seat.seat, token: seat.token, created });
        first = seat.token;
      }
    }
    if (invites.length) store.setInvites(table.id, invites);
    location.assign(`/table/${encodeURIComponent(table.id)}` + (first ? `#token=${encodeURIComponent(first)}` : ""));
  }

  function tables() {
    // Group held seats by table, newest first.
    const byId = new Map();
    for (const e of store.all()) {
      if (!byId.has(e.id)) byId.set(e.id, { id: e.id, game: e.game, created: e.created, seats: [] });
      const row = byId.get(e.id);
      row.seats.push(e);
      if (e.created < row.created) row.created = e.created;
    }
    return [...byId.values()].sort((a, b) => String(b.created).localeCompare(String(a.created)));
  }

  function drawMine() {
    clear(mine);
    mine.append(h("h2", { id: "mine-heading" }, t("lobby.myTables")));
    const rows = tables();
    const list = h("ul", { class: "table-list", "data-testid": "my-tables" });
    if (!rows.length) list.append(h("li", { class: "empty" }, t("lobby.noTables")));
    for (const row of rows) {
      const title = tOr(`game.${row.game}`, state.games?.find((g) => g.id === row.game)?.title || row.game);
      const seats = row.seats.map((s) => s.seat).sort().map(seatName);
      const first = row.seats.slice().sort((a, b) => String(a.seat).localeCompare(String(b.seat)))[0];
      const status = state.status[row.id];
      list.append(
        h(
          "li",
          { class: "table-row", "data-table": row.id },
          h(
            "div",
            { class: "table-info" },
            h("strong", {}, title),
            " ",
            h("span", { class: "muted" }, row.id),
            h(
              "div",
              { class: "muted small" },
              t("lobby.yourSeats", { seats: seats.join(", ") }),
              " · ",
              t("lobby.started", { date: formatDate(row.created) }),
              status ? [" · ", h("span", { class: `status status-${status}` }, t(`lobby.status.${status}`))] : null,
            ),
          ),
          h(
            "div",
            { class: "table-buttons" },
            h(
              "a",
              {
                class: "button primary",
                href: `/table/${encodeURIComponent(row.id)}#token=${encodeURIComponent(first.token)}`,
                "data-testid": "resume",
              },
              t("lobby.resume"),
            ),
            h(
              "button",
              {
                type: "button",
                "aria-label": t("lobby.forgetLabel", { id: row.id }),
                onclick: () => {
                  store.forget(row.id);
                  drawMine();
                },
              },
              t("lobby.forget"),
            ),
          ),
        ),
      );
    }
    mine.append(list);
  }

  async function loadStatus() {
    // Whose turn it is at each of my (20 newest) tables.
    for (const row of tables().slice(0, 20)) {
      const tokens = row.seats.map((s) => s.token);
      try {
        const msgs = await Promise.all(tokens.map((tok) => api.table(row.id, tok)));
        state.status[row.id] = msgs.some((m) => m.outcome)
          ? "over"
          : msgs.some((m) => m.your_turn)
            ? "yourTurn"
            : "waiting";
      } catch (err) {
        if (err.status === 404) state.status[row.id] = "missing";
      }
    }
    drawMine();
  }

  async function load() {
    try {
      state.games = await api.games();
      state.error = null;
      const pick = state.games.find((g) => g.id === "thermopyles") || state.games[0];
      state.game = pick.id;
      state.players = pick.min_players;
      fitRoles();
    } catch (err) {
      state.error = err.detail || err.message;
    }
    drawForm();
    drawMine();
  }

  function redraw() {
    document.title = `${t("app.title")} — ${t("lobby.new")}`;
    drawForm();
    drawMine();
  }

  redraw();
  load().then(loadStatus);
  window.addEventListener("langchange", redraw);
}
