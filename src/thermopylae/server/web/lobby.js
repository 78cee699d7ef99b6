// The lobby: start a table (game, options, who sits where, its clock), the account bar,
// the account's games ("My games", from the server) and the tables this browser holds.
//
// A seat is "me" (a guest seat whose token this browser keeps), "invite" (a link to send),
// "account" (an invitation to a player's account, by name: that player acts through their
// login, no link), "open" (anyone logged in may join it: from the lobby's open games when
// the table is public, else from the table's page) or an AI. Logged in, the first seat
// defaults to the player's own account. The table's terms (public, rated, takebacks,
// spectators' chat) come from termsform.js; the open games and the quick match sit beside.

import { account, accountBar, refresh } from "./account.js";
import { api, store } from "./api.js";
import { clockFieldset, clockJson, clockState } from "./clockform.js";
import { clear, h } from "./dom.js";
import { formatDate, seatName, t, tOr } from "./i18n.js";
import { drawMyGames } from "./mygames.js";
import { openGames } from "./opengames.js";
import { quickMatch } from "./quickmatch.js";
import { termsFieldset, termsJson, termsState } from "./termsform.js";

const ROLES = ["me", "invite", "account", "open", "ai-easy", "ai-normal", "ai-hard"];

export function mountLobby(root) {
  const state = {
    games: null,
    error: null,
    busy: false,
    game: null, // game id
    players: null,
    roles: [], // one per seat
    names: [], // one per seat: the account invited (role "account")
    touched: false, // whether the player chose a seat's role by hand
    clock: clockState(),
    terms: termsState(),
    status: {}, // table id -> lobby.status.* key
  };

  const form = h("section", { class: "panel lobby-new", "aria-labelledby": "new-heading" });
  const games = h("section", { class: "panel my-games", "aria-labelledby": "games-heading", hidden: true });
  const mine = h("section", { class: "panel my-tables", "aria-labelledby": "mine-heading" });
  const bar = accountBar();
  const open = openGames();
  const match = quickMatch(() => state.games);
  clear(root).append(
    h("div", { class: "lobby" }, h("div", { class: "lobby-main" }, open, form), h("div", { class: "lobby-side" }, bar, match, games, mine)),
  );

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
    state.names = state.names.slice(0, n);
    while (state.names.length < n) state.names.push("");
    ownSeat();
  }

  /** Logged in, the first seat is the player's own account (until chosen by hand). */
  function ownSeat() {
    if (state.touched || !state.roles.length) return;
    const me = account.me;
    if (me && state.roles[0] === "me") {
      state.roles[0] = "account";
      state.names[0] = me.name;
    } else if (!me && state.roles[0] === "account") {
      state.roles[0] = "me";
      state.names[0] = "";
    }
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
          state.touched = false;
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
          "div",
          { class: "seat-choice" },
          h(
            "select",
            {
              id: `seat-${i}`,
              "data-testid": `seat-${i}`,
              value: state.roles[i],
              onchange: (e) => {
                state.roles[i] = e.target.value;
                state.touched = true;
                if (e.target.value === "account" && !state.names[i] && i === 0 && account.me) {
                  state.names[i] = account.me.name;
                }
                drawForm();
                form.querySelector(`#seat-${i}`)?.focus();
              },
            },
            ROLES.map((r) => h("option", { value: r }, t(`role.${r}`))),
          ),
          state.roles[i] === "account"
            ? h("input", {
                type: "text",
                id: `seat-name-${i}`,
                "data-testid": `seat-name-${i}`,
                "aria-label": t("lobby.accountName", { seat: seatName(name) }),
                placeholder: t("lobby.accountPlaceholder"),
                autocapitalize: "none",
                spellcheck: "false",
                maxlength: "20",
                value: state.names[i],
                oninput: (e) => {
                  state.names[i] = e.target.value;
                  drawNotes();
                },
              })
            : null,
        ),
      ),
    );
    const notes = h("div", { class: "notes", "aria-live": "polite" });
    function drawNotes() {
      clear(notes);
      if (g.provisional) notes.append(h("p", { class: "note provisional-note" }, t("lobby.provisional")));
      if (g.cooperative) notes.append(h("p", { class: "note" }, t("lobby.cooperative")));
      if (state.roles.includes("open") && !state.terms.public) notes.append(h("p", { class: "note" }, t("lobby.openPrivate")));
      const mine = state.roles.some(
        (r, i) => r === "me" || (r === "account" && account.me && sameName(state.names[i], account.me.name)),
      );
      if (!mine) notes.append(h("p", { class: "note" }, t("lobby.noMe")));
      if (state.roles.includes("account") && !account.me) notes.append(h("p", { class: "note" }, t("lobby.accountNote")));
    }
    drawNotes();
    form.append(
      h(
        "form",
        // The clock's numbers are checked here and by the server, in words (not by the
        // browser's own bubbles).
        { novalidate: true, onsubmit: (e) => (e.preventDefault(), start()) },
        h("div", { class: "field" }, h("label", { for: "game-select" }, t("lobby.game")), gameSelect),
        h("div", { class: "field" }, h("label", { for: "players-select" }, t("lobby.players")), playersSelect),
        h("fieldset", { class: "seats" }, h("legend", {}, t("lobby.seats")), seats),
        clockFieldset(state.clock, drawForm),
        termsFieldset(state.terms, Boolean(account.me), drawForm),
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
    const seats = state.roles.map((r, i) =>
      r.startsWith("ai-")
        ? { kind: "ai", level: r.slice(3) }
        : r === "account"
          ? { kind: "account", name: state.names[i].trim() }
          : r === "open"
            ? { kind: "open" }
            : { kind: "human" },
    );
    const options = g.min_players === g.max_players ? {} : { players: state.players };
    let table;
    try {
      const empty = state.roles.findIndex((r, i) => r === "account" && !state.names[i].trim());
      if (empty >= 0) throw new Error(t("lobby.accountMissing", { seat: seatName(seatNames()[empty]) }));
      const body = { game: g.id, options, seats, clock: clockJson(state.clock), ...termsJson(state.terms, Boolean(account.me)) };
      table = await api.createWith(body);
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

  function drawGames() {
    const me = account.me;
    games.hidden = !me;
    if (me) drawMyGames(games, me.tables);
  }

  function drawMine() {
    clear(mine);
    const me = account.me;
    mine.append(h("h2", { id: "mine-heading" }, me ? t("lobby.thisBrowser") : t("lobby.myTables")));
    // Tables the account lists already are in "My games".
    const listed = new Set(me ? [...(me.tables?.active || []), ...(me.tables?.finished || [])].map((e) => e.id) : []);
    const rows = tables().filter((row) => !listed.has(row.id));
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
    drawGames();
    drawMine();
  }

  window.addEventListener("accountchange", () => {
    if (state.games) fitRoles();
    drawForm();
    drawGames();
    drawMine();
  });
  redraw();
  load().then(() => {
    match.redraw();
    return loadStatus();
  });
  // Back on the page: the account's games may have moved on meanwhile.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && account.me) refresh().catch(() => {});
  });
  window.addEventListener("langchange", redraw);
}

function sameName(a, b) {
  return String(a || "").trim().toLowerCase() === String(b || "").trim().toLowerCase();
}
