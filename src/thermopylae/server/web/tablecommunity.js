// What the community adds to a table's page, drawn from the table message's "terms",
// "open_seats", "takeback" and "rematch" (messages.community on the server):
//
// - the terms agreed at creation (rated, takebacks, public, spectators' chat, hints);
// - "Waiting for players" while seats are open, with a Join button for a logged-in
//   visitor who holds no seat here;
// - a seat's Take back button; a pending request shown to the seats that must consent,
//   with Accept / Decline (to the asking seat: Cancel); the server's refusal in its words;
// - Resign (asked twice: a slip of the finger must not end the game);
// - after the game, a rematch offer (sides swapped or the same), the other seat's Accept /
//   Decline, and once the new table exists a link to it (the seat that accepted goes there
//   by itself: it just said yes).
//
// Every request is the shown seat's: its token, or the login when the account holds it.

import { api } from "./api.js";
import { account } from "./account.js";
import { clear, h } from "./dom.js";
import { seatName, t } from "./i18n.js";

/** The parts; `seat()` answers {token, message, seated} of the connection shown. */
export function communityParts(tableId, seat) {
  const terms = h("p", { class: "terms muted small", "data-testid": "terms" });
  const waiting = h("div", { class: "notice waiting-players", "data-testid": "waiting-players", hidden: true });
  const takeback = h("div", { class: "takeback", "data-testid": "takeback" });
  const rematch = h("div", { class: "rematch", "data-testid": "rematch", hidden: true });
  const state = { error: null, rematchError: null, busy: false, accepted: false, going: false, resigning: false };

  function termsText(m) {
    const x = m.terms;
    if (!x) return "";
    return [
      x.rated ? t("terms.isRated") : t("terms.isUnrated"),
      x.takebacks ? t("terms.hasTakebacks") : t("terms.noTakebacks"),
      x.public ? t("terms.isPublic") : t("terms.isPrivate"),
      x.spectator_chat ? t("terms.chatOpen") : t("terms.chatPlayers"),
      x.hints ? t("terms.hasHints") : null,
    ].filter(Boolean).join(" · ");
  }

  async function send(fn, errorKey) {
    if (state.busy) return null;
    state.busy = true;
    state[errorKey] = null;
    redraw();
    try {
      return await fn();
    } catch (err) {
      state[errorKey] = err.detail || err.message;
      return null;
    } finally {
      state.busy = false;
      redraw();
    }
  }

  let last = null; // the message drawn last
  function redraw() {
    if (last) draw(last);
  }

  function drawWaiting(m) {
    const open = m.open_seats || [];
    waiting.hidden = !open.length || Boolean(m.outcome);
    clear(waiting);
    if (waiting.hidden) return;
    waiting.append(h("span", {}, t("table.waitingPlayers", { seats: open.map(seatName).join(", ") })));
    const { seated } = seat();
    if (seated) return;
    if (!account.me) {
      waiting.append(" ", h("span", { class: "muted" }, t("open.login")));
      return;
    }
    for (const name of open) {
      waiting.append(
        " ",
        h(
          "button",
          {
            type: "button",
            class: "small-button primary",
            "data-testid": "join-here",
            "data-seat": name,
            disabled: state.busy,
            onclick: async () => {
              const done = await send(() => api.join(tableId, name), "error");
              if (done !== null) location.reload(); // the socket now speaks for the seat
            },
          },
          t("open.join", { seat: seatName(name) }),
        ),
      );
    }
  }

  function drawTakeback(m) {
    clear(takeback);
    const { token, seated } = seat();
    const tb = m.takeback;
    const parts = [];
    if (tb) {
      const waitingFor = tb.waiting_for || [];
      const text = t("takeback.pending", { seat: seatName(tb.seat), move: tb.to, others: waitingFor.map(seatName).join(", ") });
      parts.push(h("span", { "data-testid": "takeback-pending" }, text));
      if (seated && waitingFor.includes(m.seat)) {
        parts.push(
          h(
            "button",
            {
              type: "button",
              class: "small-button primary",
              "data-testid": "takeback-accept",
              disabled: state.busy,
              onclick: () => send(() => api.takeback(tableId, token, "accept"), "error"),
            },
            t("takeback.accept"),
          ),
          h(
            "button",
            {
              type: "button",
              class: "small-button",
              "data-testid": "takeback-decline",
              disabled: state.busy,
              onclick: () => send(() => api.takeback(tableId, token, "decline"), "error"),
            },
            t("takeback.decline"),
          ),
        );
      } else if (seated && tb.seat === m.seat) {
        parts.push(
          h(
            "button",
            {
              type: "button",
              class: "small-button",
              "data-testid": "takeback-cancel",
              disabled: state.busy,
              onclick: () => send(() => api.takeback(tableId, token, "cancel"), "error"),
            },
            t("takeback.cancel"),
          ),
        );
      }
    } else if (seated && !m.outcome && m.terms?.takebacks !== false && m.move > 0) {
      parts.push(
        h(
          "button",
          {
            type: "button",
            class: "small-button",
            "data-testid": "takeback-request",
            disabled: state.busy,
            title: t("takeback.help"),
            onclick: () => send(() => api.takeback(tableId, token, "request"), "error"),
          },
          t("takeback.request"),
        ),
      );
    }
    if (seated && !m.outcome && !(m.open_seats || []).length) {
      parts.push(
        state.resigning
          ? [
              h(
                "button",
                {
                  type: "button",
                  class: "small-button danger",
                  "data-testid": "resign-confirm",
                  disabled: state.busy,
                  onclick: async () => {
                    state.resigning = false;
                    await send(() => api.resign(tableId, token), "resignError");
                  },
                },
                t("resign.confirm"),
              ),
              h("button", { type: "button", class: "small-button", onclick: () => ((state.resigning = false), redraw()) }, t("resign.keep")),
            ]
          : h(
              "button",
              { type: "button", class: "small-button", "data-testid": "resign", onclick: () => ((state.resigning = true), redraw()) },
              t("resign.ask"),
            ),
      );
    }
    if (state.error) {
      parts.push(h("p", { class: "error", role: "alert", "data-testid": "takeback-error" }, t("takeback.refused", { detail: state.error })));
    }
    if (state.resignError) parts.push(h("p", { class: "error", role: "alert", "data-testid": "resign-error" }, state.resignError));
    takeback.hidden = !parts.length;
    takeback.append(...parts.flat());
  }

  function go(id, token) {
    if (state.going) return;
    state.going = true;
    location.assign(`/table/${encodeURIComponent(id)}${token ? `#token=${encodeURIComponent(token)}` : ""}`);
  }

  function drawRematch(m) {
    clear(rematch);
    const { token, seated } = seat();
    const rm = m.rematch;
    rematch.hidden = !m.outcome || (!seated && !rm?.table);
    if (rematch.hidden) return;
    rematch.append(h("h3", {}, t("rematch.heading")));
    const offer = (swap) =>
      h(
        "button",
        {
          type: "button",
          class: swap ? "primary" : "",
          "data-testid": swap ? "rematch-swap" : "rematch-same",
          disabled: state.busy,
          onclick: () => send(() => api.rematch(tableId, token, "offer", swap), "rematchError"),
        },
        swap ? t("rematch.swap") : t("rematch.same"),
      );
    if (rm?.table) {
      rematch.append(
        h(
          "p",
          {},
          h("a", { class: "button primary", href: `/table/${encodeURIComponent(rm.table)}`, "data-testid": "rematch-link" }, t("rematch.go")),
        ),
      );
      if (state.accepted) go(rm.table);
    } else if (!seated) {
      return;
    } else if (!rm || rm.declined) {
      if (rm?.declined) rematch.append(h("p", { class: "muted", "data-testid": "rematch-declined" }, t("rematch.declined")));
      rematch.append(h("div", { class: "rematch-buttons" }, offer(true), offer(false)));
    } else if (rm.by === m.seat) {
      rematch.append(h("p", { role: "status", "data-testid": "rematch-offered" }, rm.swap ? t("rematch.offeredSwap") : t("rematch.offeredSame")));
    } else {
      rematch.append(
        h("p", { "data-testid": "rematch-offer" }, t(rm.swap ? "rematch.offerSwap" : "rematch.offerSame", { seat: seatName(rm.by) })),
        h(
          "div",
          { class: "rematch-buttons" },
          h(
            "button",
            {
              type: "button",
              class: "primary",
              "data-testid": "rematch-accept",
              disabled: state.busy,
              onclick: async () => {
                state.accepted = true;
                const answer = await send(() => api.rematch(tableId, token, "accept"), "rematchError");
                if (answer === null) state.accepted = false;
                const id = answer?.rematch?.table || answer?.table;
                if (typeof id === "string") go(id, answer?.token);
              },
            },
            t("rematch.accept"),
          ),
          h(
            "button",
            {
              type: "button",
              "data-testid": "rematch-decline",
              disabled: state.busy,
              onclick: () => send(() => api.rematch(tableId, token, "decline"), "rematchError"),
            },
            t("rematch.decline"),
          ),
        ),
      );
    }
    if (state.rematchError) {
      rematch.append(h("p", { class: "error", role: "alert", "data-testid": "rematch-error" }, state.rematchError));
    }
  }

  function draw(m) {
    last = m;
    if (!m) return;
    terms.textContent = termsText(m);
    terms.hidden = !m.terms;
    drawWaiting(m);
    drawTakeback(m);
    drawRematch(m);
  }

  /** A new move (or a takeback done) makes an old refusal moot. */
  function clearError() {
    state.error = null;
    state.resignError = null;
  }

  return { terms, waiting, takeback, rematch, draw, clearError };
}
