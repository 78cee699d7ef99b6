// A table: the board, whose turn, the legal actions, the log and the result, live.
//
// Seats: the token in the URL (#token=...), every token this browser keeps for the
// table (localStorage), and the seat the logged-in account holds (a connection without a
// token, which the server matches to the account by the session cookie; it acts with the
// session and its CSRF header). Several held seats = hot seat: a switcher, and when another
// held seat must act the page switches to it. No seat: the spectator view.
//
// Clocks: each seat's bank, counting down for the running one (clock.js); when it is the
// player's turn the tab's title and icon say so, and an opted-in browser notification
// pops up while the page is hidden (attention.js).
//
// Boards: boards/<game-id>.js (loaded by boards.js) exports render(container, message,
// ctx) with ctx = {t, act(actionText), seat, legal, pending, lang}; it draws message.view
// into the (emptied) container on every update. A game without one gets generic.js. A
// board may also export progress(message, t) (where the game is, in the rules' words:
// turn, round, campaign) for the turn line, and resultDetail(message, t) (the game's own
// numbers at the end: a track, Glory) for the result, which then replaces the raw scores.
//
// Before it connects, the page asks for the table once: a missing table, a link whose
// token holds no seat and a server that cannot be reached each get a page of their own
// with a way on (the lobby, watching, trying again) instead of empty panels.
//
// The community's parts (terms, open seats, takebacks, rematch: tablecommunity.js; the
// chat: chat.js) draw from the same message and speak as the shown seat.
//
// Studying (issue 20): once the game is over the result links to its replay (replay.js);
// on a table whose terms allow hints, "Suggest a move" during the shown seat's turn
// (hints.js); a table started from another game's step says so and links there.
//
// This module holds the page's state (the seats held, their connections, the message
// shown, the action on its way, the focus) and what needs it: the connections' handlers,
// the seat switcher, acting, the board and putting the focus back after a move. The parts
// that only draw from a message live apart and are handed what they need: the turn line
// and notices (tablestatus.js), the action list (tableactions.js), the result
// (tableresult.js), the seat list and links (tableseats.js), the clocks (clock.js).

import { ApiError, Connection, api, csrfToken, store } from "./api.js";
import { clearAttention, notifyButton, notifyTurn, setAttention } from "./attention.js";
import { loadBoard } from "./boards.js";
import { chatPanel } from "./chat.js";
import { drawClocks, offsetOf } from "./clock.js";
import { append, clear, h } from "./dom.js";
import { faultPage } from "./fault.js";
import * as generic from "./generic.js";
import { hintPanel } from "./hints.js";
import { lang, seatName, t, tOr } from "./i18n.js";
import { drawActionList } from "./tableactions.js";
import { communityParts } from "./tablecommunity.js";
import { drawResult } from "./tableresult.js";
import { drawLinks, drawSeats } from "./tableseats.js";
import { drawConnection, drawStandin, drawTurn } from "./tablestatus.js";

export function mountTable(root, tableId) {
  const hashToken = new URLSearchParams(location.hash.slice(1)).get("token");
  let leave = null;
  const attempt = () => {
    leave?.();
    leave = null;
    clear(root).append(h("p", { class: "muted", role: "status" }, t("table.connecting")));
    api.table(tableId, hashToken || null).then(
      () => mountLive(root, tableId, hashToken),
      (err) => {
        const status = err instanceof ApiError ? err.status : 0;
        if (status === 404) leave = faultPage(root, "notFound", tableId);
        else if (status === 403 && hashToken) leave = faultPage(root, "badToken", tableId);
        else if (status === 0 || status >= 500) leave = faultPage(root, "unreachable", tableId, attempt);
        else mountLive(root, tableId, hashToken);
      },
    );
  };
  attempt();
}

/** Whether a bot plays the message's own seat (its player's time ran out). */
function standinMine(message) {
  const row = message?.seat ? message.seats.find((s) => s.seat === message.seat) : null;
  return Boolean(row?.standin && !message.outcome);
}

/** Whether a connection holds a seat (a token's, or the account's through its login). */
function seated(c) {
  return Boolean(c && (c.token || c.message?.seat));
}

function mountLive(root, tableId, hashToken) {
  const seats = []; // {key, token, conn}, in the order found (token null: the account's)
  let spectator = null; // the tokenless connection when no token is held (maybe the account's seat)
  let current = null; // the connection shown
  let board = null; // a promise of the board module
  let boardModule = null; // ... once it is in
  let renders = 0; // render() calls so far
  let drawn = 0; // the render() whose board is shown
  let refocus = null; // data-action of the control used to act (to put focus back after)
  let parked = null; // ... while the focus waits on the turn line
  let boardFor = null;
  let pending = false;
  let pendingTimer = null;
  let error = null;
  let notice = null;

  // -- the page's parts (built once, filled on every change) -----------------------------
  const heading = h("h2", { class: "table-title", id: "table-title" });
  const who = h("p", { class: "who" });
  const switcher = h("div", { class: "seat-switch-wrap" });
  const conn = h("p", { class: "conn muted small", "data-testid": "connection", "aria-live": "polite" });
  const turn = h("p", { class: "turn", "data-testid": "turn", tabindex: "-1", "aria-live": "polite" });
  const clocks = h("section", { class: "clocks", "data-testid": "clocks", hidden: true });
  const notifySlot = h("span", { class: "notify-slot" });
  // The player's time ran out and a bot plays the seat: opening the seat again ends that.
  const standinBox = h("div", { class: "notice standin-notice", "data-testid": "standin-notice", hidden: true });
  const noticeEl = h("p", { class: "notice", "aria-live": "polite", hidden: true });
  const result = h("section", { class: "result", "data-testid": "result", hidden: true, tabindex: "-1" });
  const errorText = h("span", { class: "error-text" });
  const errorBox = h(
    "div",
    { class: "error", "data-testid": "error", role: "alert", hidden: true },
    errorText,
    " ",
    h("button", { type: "button", class: "small-button dismiss", onclick: () => setError(null) }),
  );
  const provisional = h("p", { class: "provisional", "data-testid": "provisional", hidden: true });
  const boardRoot = h("div", { class: "board-root" });
  const boardWrap = h(
    "section",
    { class: "board-wrap panel", "data-testid": "board", "aria-labelledby": "board-heading" },
    h("h3", { class: "sr-only", id: "board-heading" }),
    provisional,
    boardRoot,
  );
  const actionsHeading = h("h3", { id: "actions-heading" });
  const actions = h("div", { class: "actions", "data-testid": "actions" });
  const logHeading = h("h3", { id: "log-heading" });
  const log = h("ol", { class: "log", "data-testid": "log", role: "log", "aria-labelledby": "log-heading" });
  const links = h("section", { class: "panel links" });
  const seatList = h("section", { class: "panel seat-list" });
  const shown = () => ({ token: current?.token || null, message: current?.message || null, seated: seated(current) });
  const community = communityParts(tableId, shown);
  const hints = hintPanel(tableId, shown, (action) => act(action), standinMine);
  const startStep = h("p", { class: "muted small", "data-testid": "start-step", hidden: true });
  const chat = chatPanel(tableId, shown);
  let communityMove = null; // the move the takeback's refusal was about

  clear(root).append(
    h(
      "div",
      { class: "table-page" },
      h("div", { class: "table-head" }, heading, who, switcher, notifySlot, conn, community.terms, startStep),
      community.waiting,
      turn,
      clocks,
      standinBox,
      noticeEl,
      errorBox,
      result,
      community.rematch,
      community.takeback,
      h(
        "div",
        { class: "table-grid" },
        h("section", { class: "panel actions-wrap", "aria-labelledby": "actions-heading" }, actionsHeading, hints.el, actions),
        boardWrap,
        h("section", { class: "panel log-wrap", "aria-labelledby": "log-heading" }, logHeading, log),
        chat.panel,
        seatList,
        links,
      ),
    ),
  );

  // -- connections ---------------------------------------------------------------------------
  const handlers = {
    onUpdate(c, message) {
      if (message.clock) c.clockOffset = offsetOf(message.clock);
      const mine = seats.some((x) => x.conn === c);
      if (mine && !c.token && !message.seat) {
        // The login holds no seat here: the tokens are all (or, when none of them holds a
        // seat either, this connection watches as a spectator).
        seats.splice(seats.findIndex((x) => x.conn === c), 1);
        if (!seats.length && !spectator) {
          spectator = c;
          current = c;
        } else {
          c.close();
          if (current === c) current = seats[0]?.conn || spectator;
          render();
          return;
        }
      }
      if (c.token) store.hold({ id: tableId, game: message.game, seat: message.seat, token: c.token });
      if (mine && message.seat) {
        // The same seat reached twice (an old and a new token, or a token and the login):
        // keep the first.
        const twin = seats.find((x) => x.conn !== c && x.conn.message?.seat === message.seat);
        if (twin) {
          drop(c);
          return;
        }
      }
      if (seated(c)) {
        if (message.your_turn && !c.wasTurn && !message.outcome && !standinMine(message)) {
          notifyTurn(`${gameTitle(message)} — ${seatName(message.seat)}`, `thermopylae-${tableId}`);
        }
        c.wasTurn = Boolean(message.your_turn);
      }
      if (c === current) {
        pending = false;
        clearTimeout(pendingTimer);
      }
      autoSwitch();
      render();
    },
    onError(c, data) {
      if (!c.message && (data.status === 403 || data.status === 404)) {
        // A token that holds no seat here (or no such table): forget it.
        if (c.token && data.status === 403) store.release(tableId, c.token);
        if (data.status === 404) {
          gone();
          return;
        }
        drop(c);
        if (data.status === 403 && !seats.length && !spectator) {
          spectator = new Connection(tableId, null, handlers);
          current = spectator;
          spectator.open();
        }
      }
      if (c === current || !c.message) {
        pending = false;
        setError(data.detail || `error ${data.status}`);
        render();
      }
    },
    onStatus(c) {
      if (c === current) showConnection();
    },
  };

  /** The table went away: every socket closes and the page says so. */
  function gone() {
    for (const x of seats) x.conn.close();
    spectator?.close();
    window.removeEventListener("langchange", relang);
    clearAttention();
    faultPage(root, "notFound", tableId);
  }

  function drop(c) {
    c.close();
    const i = seats.findIndex((x) => x.conn === c);
    if (i >= 0) seats.splice(i, 1);
    if (current === c) current = seats[0]?.conn || spectator;
  }

  const tokens = [];
  if (hashToken) tokens.push(hashToken);
  for (const e of store.held(tableId).slice().reverse()) if (!tokens.includes(e.token)) tokens.push(e.token);
  for (const token of tokens) {
    const c = new Connection(tableId, token, handlers);
    seats.push({ key: token, token, conn: c });
  }
  // Logged in with tokens too: the account may hold another seat here (its connection
  // leaves again if it does not).
  if (seats.length && csrfToken()) {
    seats.push({ key: "@account", token: null, conn: new Connection(tableId, null, handlers) });
  }
  if (seats.length) {
    current = seats[0].conn;
  } else {
    spectator = new Connection(tableId, null, handlers);
    current = spectator;
  }
  for (const x of seats) x.conn.open();
  spectator?.open();

  /** Another held seat must act while the shown one need not: show that one. */
  function autoSwitch() {
    const cur = current?.message;
    if (!cur || cur.your_turn || !seated(current)) return;
    const next = seats.find(
      (x) => x.conn !== current && x.conn.message?.your_turn && x.conn.message.move >= cur.move,
    );
    if (next) {
      select(next.conn);
      notice = { key: "table.switched", seat: next.conn.message.seat };
    }
  }

  function select(c) {
    if (c === current) return;
    current = c;
    pending = false;
    setError(null, false);
    if (c.token) history.replaceState(null, "", `#token=${encodeURIComponent(c.token)}`);
    else history.replaceState(null, "", location.pathname);
  }

  // -- acting --------------------------------------------------------------------------------
  function act(action) {
    const c = current;
    const message = c?.message;
    if (!message || !message.your_turn || pending || !seated(c) || standinMine(message)) return;
    pending = true;
    const focused = document.activeElement;
    refocus = focused && (actions.contains(focused) || boardRoot.contains(focused))
      ? focused.getAttribute("data-action") || "" : null;
    setError(null, false);
    notice = null;
    for (const b of root.querySelectorAll("button[data-action], [data-action][role=button]")) {
      b.setAttribute("disabled", "");
      b.setAttribute("aria-disabled", "true");
    }
    clearTimeout(pendingTimer);
    pendingTimer = setTimeout(() => {
      if (pending) {
        pending = false;
        render();
      }
    }, 10000);
    c.act(message.move, action);
  }

  function setError(text, draw = true) {
    error = text;
    if (draw) drawError();
  }

  // -- drawing -------------------------------------------------------------------------------
  function drawError() {
    const text = error;
    errorText.textContent = text || "";
    errorBox.hidden = !text;
    errorBox.querySelector(".dismiss").textContent = t("table.dismiss");
    errorBox.querySelector(".dismiss").hidden = !error;
  }

  function gameTitle(message) {
    return tOr(`game.${message.game}`, message.title);
  }

  // The parts drawn by their own modules, handed what they need.
  function showConnection() {
    drawConnection(conn, current?.status);
  }

  function showTurn(message) {
    drawTurn(turn, noticeEl, message, { board: boardModule, notice, standin: standinMine(message) });
  }

  function showResult(message) {
    drawResult(result, message, { tableId, board: boardModule });
  }

  function drawActions(message) {
    actionsHeading.textContent = t("table.actions");
    clear(actions);
    const legal = standinMine(message) ? [] : message?.legal || [];
    drawActionList(actions, legal, { over: Boolean(message?.outcome), pending, act });
  }

  function drawSeatList(message) {
    const held = new Set(seats.filter((x) => x.conn.message?.seat).map((x) => x.conn.message.seat));
    if (spectator?.message?.seat) held.add(spectator.message.seat);
    drawSeats(seatList, message, held);
  }

  function drawHead(message) {
    const yours = Boolean(message?.your_turn) && !standinMine(message);
    setAttention(message ? `${gameTitle(message)} — ${t("app.title")}` : t("app.title"), yours);
    clear(notifySlot);
    if (message && seated(current)) append(notifySlot, [notifyButton(() => drawHead(current?.message || null))]);
    heading.textContent = message
      ? t("table.heading", { title: gameTitle(message), id: tableId })
      : t("table.heading", { title: "…", id: tableId });
    who.textContent = !message ? "" : seated(current) ? t("table.youPlay", { seat: seatName(message.seat) }) : t("table.spectator");
    clear(switcher);
    const held = seats.filter((x) => x.conn.message?.seat);
    if (held.length > 1) {
      const select_ = h(
        "select",
        {
          id: "seat-switch",
          "data-testid": "seat-switch",
          value: seats.find((x) => x.conn === current)?.key || "",
          onchange: (e) => {
            const x = seats.find((y) => y.key === e.target.value);
            if (x) {
              select(x.conn);
              notice = null;
              render();
            }
          },
        },
        held
          .slice()
          .sort((a, b) => String(a.conn.message.seat).localeCompare(String(b.conn.message.seat)))
          .map((x) =>
            h(
              "option",
              { value: x.key },
              x.conn.message.your_turn
                ? t("table.seatOptionTurn", { seat: seatName(x.conn.message.seat) })
                : t("table.seatOption", { seat: seatName(x.conn.message.seat) }),
            ),
          ),
      );
      switcher.append(h("label", { for: "seat-switch" }, t("table.seatSwitch")), " ", select_);
    }
  }

  /** A table started from another game's step ("play from here") links to that step. */
  function drawStartStep(message) {
    const start = message?.start_step;
    clear(startStep);
    startStep.hidden = !start?.from;
    if (!start?.from) return;
    startStep.append(
      h(
        "a",
        { href: `/table/${encodeURIComponent(start.from)}/replay#step=${encodeURIComponent(start.step)}`, "data-testid": "start-step-link" },
        t("table.startStep", { step: start.step, table: start.from }),
      ),
    );
  }

  function drawLog(c) {
    logHeading.textContent = t("table.log");
    clear(log);
    for (const line of c?.log || []) log.append(h("li", {}, line));
    log.scrollTop = log.scrollHeight;
  }

  async function drawBoard(message, stamp) {
    boardWrap.querySelector("#board-heading").textContent = t("table.board");
    provisional.textContent = t("table.provisional");
    provisional.hidden = !message?.provisional;
    if (!message) return;
    if (boardFor !== message.game) {
      boardFor = message.game;
      board = loadBoard(message.game);
    }
    const mod = await board;
    if (boardModule !== mod) {
      boardModule = mod; // its progress and result texts can be drawn now
      showTurn(message);
      showResult(message);
    }
    if (current?.message !== message || drawn > stamp) return; // a newer drawing is due
    const ctx = {
      t,
      act,
      seat: message.seat,
      legal: message.legal || [],
      pending,
      lang: lang(),
    };
    clear(boardRoot);
    boardRoot.dataset.game = message.game;
    drawn = stamp;
    try {
      mod.render(boardRoot, message, ctx);
    } catch (err) {
      console.error("board drawing failed; using the generic view", err);
      clear(boardRoot);
      generic.render(boardRoot, message, ctx);
    }
  }

  function render() {
    const message = current?.message || null;
    const stamp = ++renders;
    const active = document.activeElement;
    let focusAction = null;
    if (active && active !== document.body && (actions.contains(active) || boardRoot.contains(active))) {
      focusAction = active.getAttribute("data-action") || "";
    } else if (refocus !== null && (!active || active === document.body)) {
      focusAction = refocus;
    } else if (parked !== null && active === turn) {
      focusAction = parked; // waiting on the turn line for the next actions
    }
    if (!pending) refocus = null;
    drawHead(message);
    showConnection();
    showTurn(message);
    drawClocks(clocks, message, current?.clockOffset || 0);
    drawStandin(standinBox, standinMine(message) && seated(current), () => current?.reopen());
    drawError();
    showResult(message);
    drawActions(message);
    drawLog(current);
    drawSeatList(message);
    drawLinks(links, tableId);
    if (message && message.move !== communityMove) {
      communityMove = message.move;
      community.clearError();
    }
    community.draw(message);
    hints.draw(message);
    drawStartStep(message);
    // Whose chat the panel shows: the held seat's (its key), or the spectator's (null).
    chat.update(current === spectator ? null : (seats.find((x) => x.conn === current)?.key ?? null));
    const done = drawBoard(message, stamp);
    if (focusAction !== null && message) done.then(() => restoreFocus(focusAction, message));
  }

  function restoreFocus(focusAction, message) {
    const now = document.activeElement;
    if (now && now !== document.body && now !== turn && root.contains(now)) return;
    const enabled = (el) => el && !el.disabled;
    const same = focusAction ? root.querySelector(`[data-action="${CSS.escape(focusAction)}"]`) : null;
    const first = actions.querySelector("button[data-action]");
    parked = null;
    if (enabled(same)) same.focus();
    else if (enabled(first)) first.focus();
    else if (message.outcome) result.focus();
    else {
      parked = focusAction;
      turn.focus();
    }
  }

  // A new language: the page's own texts at once, then the server's (log lines, action
  // labels) through a new socket per seat, which brings the whole log again.
  function relang() {
    render();
    for (const x of seats) x.conn.reopen();
    spectator?.reopen();
  }

  window.addEventListener("langchange", relang);
  window.addEventListener("hashchange", () => {
    const token = new URLSearchParams(location.hash.slice(1)).get("token");
    if (token && !seats.some((x) => x.token === token)) location.reload();
  });
  render();
}
