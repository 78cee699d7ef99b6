// The lobby's quick match: a logged-in player names a game, a clock (live, correspondence
// or none), a side (any, or one seat) and whether the game is rated, and the server pairs
// them with the next player asking the same (POST /api/match). Until then the box polls
// GET /api/match every 2 s and offers Cancel (DELETE /api/match); once matched, the page
// goes to the new table, where the player acts through the login.
//
// The server keeps the wait, not the page: coming back to the lobby finds it again.

import { account } from "./account.js";
import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { seatName, t, tOr } from "./i18n.js";

const POLL_MS = 2000;
const CLOCKS = ["live", "correspondence", "none"];

/** The box; `games` is a function answering /api/games (null while loading). */
export function quickMatch(games) {
  const section = h("section", { class: "panel quick-match", "aria-labelledby": "match-heading", "data-testid": "quick-match" });
  const state = { game: null, clock: "live", side: "any", rated: true, waiting: false, error: null, busy: false };
  let timer = null;

  function game() {
    const list = games() || [];
    return list.find((g) => g.id === state.game) || list[0] || null;
  }

  /** The seats of a two-sided game's smallest table (the sides one may ask for). */
  function sides(g) {
    return g ? g.seats[String(g.min_players)] || [] : [];
  }

  function draw() {
    clear(section);
    section.append(h("h2", { id: "match-heading" }, t("match.heading")));
    if (!account.me) {
      section.append(h("p", { class: "note", "data-testid": "match-login" }, t("match.login")));
      return;
    }
    const g = game();
    if (!g) {
      section.append(h("p", { class: "muted", role: "status" }, t("lobby.loading")));
      return;
    }
    state.game = g.id;
    if (state.side !== "any" && !sides(g).includes(state.side)) state.side = "any";
    const playable = (games() || []).filter((x) => !x.cooperative);
    const disabled = state.waiting || state.busy;
    const select = (id, value, options, onchange) =>
      h(
        "select",
        { id, "data-testid": id, value, disabled, onchange: (e) => (onchange(e.target.value), draw(), document.getElementById(id)?.focus()) },
        options.map(([v, text]) => h("option", { value: v }, text)),
      );
    section.append(
      h(
        "form",
        { class: "match-form", novalidate: true, onsubmit: (e) => (e.preventDefault(), ask()) },
        h(
          "div",
          { class: "field" },
          h("label", { for: "match-game" }, t("lobby.game")),
          select("match-game", g.id, playable.map((x) => [x.id, tOr(`game.${x.id}`, x.title)]), (v) => (state.game = v)),
        ),
        h(
          "div",
          { class: "field" },
          h("label", { for: "match-clock" }, t("clockForm.kind")),
          select("match-clock", state.clock, CLOCKS.map((c) => [c, t(`clockForm.${c}`)]), (v) => (state.clock = v)),
        ),
        h(
          "div",
          { class: "field" },
          h("label", { for: "match-side" }, t("match.side")),
          select("match-side", state.side, [["any", t("match.anySide")], ...sides(g).map((s) => [s, seatName(s)])], (v) => (state.side = v)),
        ),
        h(
          "label",
          { class: "check", for: "match-rated" },
          h("input", {
            type: "checkbox",
            id: "match-rated",
            "data-testid": "match-rated",
            checked: state.rated,
            disabled,
            onchange: (e) => (state.rated = e.target.checked),
          }),
          " ",
          t("terms.rated"),
        ),
        state.error ? h("p", { class: "error", role: "alert", "data-testid": "match-error" }, state.error) : null,
        state.waiting
          ? h(
              "div",
              { class: "match-waiting" },
              h("p", { role: "status", "data-testid": "match-waiting" }, t("match.waiting")),
              h("button", { type: "button", "data-testid": "match-cancel", onclick: cancel }, t("match.cancel")),
            )
          : h("button", { type: "submit", class: "primary", "data-testid": "match-start", disabled }, t("match.start")),
      ),
    );
  }

  function matched(answer) {
    if (answer?.status === "matched" && answer.table) {
      stop();
      location.assign(`/table/${encodeURIComponent(answer.table)}`);
      return true;
    }
    return false;
  }

  async function ask() {
    if (state.busy) return;
    state.busy = true;
    state.error = null;
    draw();
    try {
      const answer = await api.match({ game: state.game, clock: state.clock, side: state.side, rated: state.rated });
      state.busy = false;
      if (matched(answer)) return;
      state.waiting = true;
      poll();
    } catch (err) {
      state.busy = false;
      state.error = t("match.error", { detail: err.detail || err.message });
    }
    draw();
  }

  function poll() {
    stop();
    timer = setInterval(async () => {
      try {
        const answer = await api.matchStatus();
        if (matched(answer)) return;
        if (answer?.status !== "waiting") {
          stop();
          state.waiting = false;
          draw();
        }
      } catch (err) {
        if (err.status === 404) {
          stop();
          state.waiting = false;
          draw();
        }
      }
    }, POLL_MS);
  }

  function stop() {
    clearInterval(timer);
    timer = null;
  }

  async function cancel() {
    stop();
    try {
      await api.cancelMatch();
      state.error = null;
    } catch (err) {
      if (err.status !== 404) state.error = t("match.error", { detail: err.detail || err.message });
    }
    state.waiting = false;
    draw();
  }

  /** A wait this account left running (another tab, an earlier visit) shows again. */
  async function resume() {
    if (!account.me || state.waiting) return;
    try {
      // Only a wait still running: a match made earlier was already followed.
      const answer = await api.matchStatus();
      if (answer?.status === "waiting") {
        state.waiting = true;
        if (answer.game) state.game = answer.game;
        poll();
        draw();
      }
    } catch {
      /* no wait */
    }
  }

  draw();
  window.addEventListener("langchange", draw);
  window.addEventListener("accountchange", () => {
    if (!account.me) stop();
    draw();
    resume();
  });
  section.redraw = draw;
  return section;
}
