// The server's API, the tables this browser holds (localStorage), and a seat's live
// connection (a WebSocket that reconnects by itself). Every request about a table carries
// the page's language (`lang`), in which the server writes its log lines and action labels.
// A logged-in browser sends its session cookie with every request; each state-changing one
// repeats the session's CSRF token (a cookie the script may read) in X-CSRF-Token, which a
// form on another site cannot do.

import { lang, t } from "./i18n.js";
import { applyPatch } from "./patch.js";

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
    this.detail = detail;
  }
}

export const CSRF_COOKIE = "thermopylae_csrf";

/** The session's CSRF token (null when this browser is not logged in). */
export function csrfToken() {
  for (const part of document.cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === CSRF_COOKIE) return decodeURIComponent(rest.join("=")) || null;
  }
  return null;
}

/** One API request: JSON both ways (`raw`: the body is text already, e.g. a record
 * file), errors as ApiError(status, the server's detail). */
export async function request(method, url, body, raw = false) {
  const headers = body === undefined ? {} : { "content-type": "application/json" };
  const csrf = method === "GET" ? null : csrfToken();
  if (csrf) headers["X-CSRF-Token"] = csrf;
  let response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, t("error.network"));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    /* not JSON */
  }
  if (!response.ok) {
    const detail = data && typeof data.detail === "string" ? data.detail : `HTTP ${response.status}`;
    throw new ApiError(response.status, detail);
  }
  return data;
}

/** A query string: the given parameters (empty ones left out) and the page's language. */
export function query(params = {}) {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) q.set(key, value);
  q.set("lang", lang());
  return `?${q}`;
}

export const api = {
  games: () => request("GET", "/api/games"),
  create: (game, options, seats, clock = null) =>
    request("POST", "/api/tables", { game, options, seats, clock }),
  table: (id, token) => request("GET", `/api/tables/${encodeURIComponent(id)}${query({ token })}`),
  act: (id, token, move, action) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/actions${query()}`, { token, move, action }),
  signUp: (name, password) => request("POST", "/api/accounts", { name, password }),
  login: (name, password) => request("POST", "/api/login", { name, password }),
  logout: () => request("POST", "/api/logout"),
  me: () => request("GET", "/api/me"),
  changePassword: (old, new_) => request("PUT", "/api/me/password", { old, new: new_ }),
  deleteAccount: (password) => request("DELETE", "/api/me", { password }),
  saveNotifications: (settings) => request("PUT", "/api/me/notifications", settings),
  testNotification: () => request("POST", "/api/me/notifications/test"),
  // -- the community (issue 19): open tables, quick match, takebacks, rematches, chat,
  // players' pages and leaderboards. A seat's request carries its token when the page
  // holds the seat by a token (else the login's session speaks for it).
  createWith: (body) => request("POST", "/api/tables", body),
  openTables: () => request("GET", `/api/tables${query({ open: "1" })}`),
  join: (id, seat) => request("POST", `/api/tables/${encodeURIComponent(id)}/join${query()}`, { seat }),
  match: (body) => request("POST", "/api/match", body),
  matchStatus: () => request("GET", "/api/match"),
  cancelMatch: () => request("DELETE", "/api/match"),
  takeback: (id, token, action, to) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/takeback${query()}`, seatBody(token, { action, to })),
  resign: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/resign${query()}`, seatBody(token, {})),
  rematch: (id, token, action, swap) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/rematch${query()}`, seatBody(token, { action, swap })),
  chat: (id, token, after) =>
    request("GET", `/api/tables/${encodeURIComponent(id)}/chat${query({ token, after: after ? String(after) : "" })}`),
  say: (id, token, text) => request("POST", `/api/tables/${encodeURIComponent(id)}/chat${query()}`, seatBody(token, { text })),
  mute: (name) => request("PUT", `/api/me/mutes/${encodeURIComponent(name)}`),
  unmute: (name) => request("DELETE", `/api/me/mutes/${encodeURIComponent(name)}`),
  mutes: () => request("GET", "/api/me/mutes"),
  player: (name) => request("GET", `/api/players/${encodeURIComponent(name)}${query()}`),
  playerGames: (name, filters) => request("GET", `/api/players/${encodeURIComponent(name)}/games${query(filters)}`),
  ratings: (game) => request("GET", `/api/ratings/${encodeURIComponent(game)}${query()}`),
};

/** A seat's request body: the fields given (undefined ones left out) and its token. */
function seatBody(token, fields) {
  const body = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) body[key] = value;
  if (token) body.token = token;
  return body;
}

// -- what this browser keeps --------------------------------------------------------------

const TABLES = "thermopylae.tables"; // [{id, game, seat, token, created}], one per held seat
const INVITES = "thermopylae.invites"; // {tableId: [{seat, url}]}

function load(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key));
    return v ?? fallback;
  } catch {
    return fallback;
  }
}

function save(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage full or disabled: the page still works, it is just not remembered */
  }
}

export const store = {
  /** Every held seat, newest table first. */
  all() {
    const list = load(TABLES, []);
    return Array.isArray(list) ? list.filter((e) => e && e.id && e.token) : [];
  },
  /** The held seats of one table. */
  held(id) {
    return store.all().filter((e) => e.id === id);
  },
  /** Remember a held seat (replaces an older token of the same seat or the same token). */
  hold(entry) {
    const list = store.all();
    const same = (e) => e.id === entry.id && (e.token === entry.token || (entry.seat && e.seat === entry.seat));
    const i = list.findIndex(same);
    if (i >= 0) {
      const old = list[i];
      if (old.token === entry.token && old.seat === entry.seat && old.game === entry.game) return;
      list[i] = { ...old, ...entry, created: old.created || entry.created || new Date().toISOString() };
    } else {
      list.unshift({ created: new Date().toISOString(), ...entry });
    }
    save(TABLES, list.filter((e, j) => j === (i >= 0 ? i : 0) || !same(e)));
  },
  /** Forget one token (it holds no seat). */
  release(id, token) {
    save(TABLES, store.all().filter((e) => !(e.id === id && e.token === token)));
  },
  forget(id) {
    save(TABLES, store.all().filter((e) => e.id !== id));
    const inv = load(INVITES, {});
    delete inv[id];
    save(INVITES, inv);
  },
  invites(id) {
    const inv = load(INVITES, {});
    return Array.isArray(inv[id]) ? inv[id] : [];
  },
  setInvites(id, list) {
    const inv = load(INVITES, {});
    inv[id] = list;
    save(INVITES, inv);
  },
};

// -- a live connection ---------------------------------------------------------------------

const FATAL = new Set([1008, 4400, 4403, 4404, 4422]);

/**
 * One WebSocket to a table as one seat (token) or as a spectator (token null).
 * onUpdate(conn, message, replaced): each "update"; `conn.log` holds the log lines so far
 * (the first update after each (re)connection carries the whole recent log, later ones only
 * the new lines). The socket sends patches after its first update (patch.js): they are
 * rebuilt into whole updates here, on the last update this socket brought (`base`, one a
 * socket, kept apart from `message`, which an action's HTTP answer may also set), before
 * anyone sees them. onError(conn, {status, detail}); onStatus(conn, "connecting" | "open" |
 * "reconnecting" | "closed").
 */
export class Connection {
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.message = null;
    this.log = [];
    this.status = "connecting";
    this.ws = null;
    this.fresh = true;
    this.retry = 0;
    this.stopped = false;
    this.timer = null;
    this.ping = null;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = query({ token: this.token, patches: "1" });
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${q}`;
  }

  open() {
    if (this.stopped) return;
    this.setStatus(this.retry ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.fresh = true;
    let base = null; // this socket's last whole update: what its next patch changes
    ws.onopen = () => {
      this.setStatus("open");
      clearInterval(this.ping);
      this.ping = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (event) => {
      if (this.ws !== ws) return; // a socket being closed for a new one
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (data.type === "patch") {
        if (!base) {
          this.reopen(); // nothing to apply it to: start again from a whole update
          return;
        }
        data = applyPatch(base, data);
      }
      if (data.type === "update") {
        base = data;
        this.retry = 0;
        // The socket's updates come in order: one at an earlier move is a takeback. Its
        // log still holds the undone steps' lines, so a new socket brings the whole log.
        if (!this.fresh && this.message && data.move < this.message.move) {
          this.message = null;
          this.reopen();
          return;
        }
        this.accept(data, this.fresh);
        this.fresh = false;
      } else if (data.type === "error") {
        this.handlers.onError?.(this, data);
      }
    };
    ws.onclose = (event) => {
      clearInterval(this.ping);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped || FATAL.has(event.code)) {
        this.stopped = true;
        this.setStatus("closed");
        return;
      }
      this.retry += 1;
      const delay = Math.min(5000, 300 * 2 ** Math.min(this.retry, 5));
      this.setStatus("reconnecting");
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  /** Take an update: a whole-log one replaces the log, others add their lines. */
  accept(data, whole) {
    if (this.message && data.move < this.message.move) return;
    this.log = whole ? [...(data.log || [])] : this.log.concat(data.log || []);
    if (this.log.length > 400) this.log = this.log.slice(-400);
    this.message = data;
    this.handlers.onUpdate?.(this, data, whole);
  }

  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  /** Play `action` at move `move`: through the socket, or by HTTP while it is down. */
  async act(move, action) {
    if (this.send({ type: "action", move, action })) return;
    try {
      const data = await api.act(this.tableId, this.token, move, action);
      this.accept(data, false);
    } catch (err) {
      this.handlers.onError?.(this, { status: err.status, detail: err.detail || err.message });
    }
  }

  setStatus(status) {
    this.status = status;
    this.handlers.onStatus?.(this, status);
  }

  /** Open a new socket now (the language changed: the whole log comes again in it). */
  reopen() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    clearInterval(this.ping);
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
    this.retry = 0;
    this.open();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.ping);
    if (this.ws) this.ws.close();
  }
}
