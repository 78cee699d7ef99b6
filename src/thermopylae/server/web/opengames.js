// The lobby's "Open games": public tables with a seat still open (GET /api/tables?open=1),
// each with its game, options, clock, whether it is rated and who waits there, and a Join
// button per open seat. Joining takes the seat for the logged-in account (POST .../join),
// then opens the table, where the player acts through the login. The list is asked again
// every 10 s and whenever the page comes back into view, since tables fill up meanwhile.

import { account } from "./account.js";
import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { formatDate, seatName, t, tOr } from "./i18n.js";

const EVERY_MS = 10_000;

/** A time control in words: none, minutes and increment, or days for correspondence. */
export function clockWords(clock) {
  if (!clock || !clock.initial_s) return t("open.noClock");
  const inc = Number(clock.increment_s || 0);
  if (clock.initial_s >= 86400) {
    return t("open.clockDays", { days: Math.round(clock.initial_s / 86400), hours: Math.round(inc / 3600) });
  }
  return t("open.clockMinutes", { minutes: Math.round(clock.initial_s / 60), seconds: Math.round(inc) });
}

/** The options worth a word: the player count (a game's own options are on its table). */
function optionWords(options) {
  return options && options.players ? t("open.players", { n: options.players }) : "";
}

/** Who waits at a table: a player's name, whichever shape the list gives it in. */
function nameOf(p) {
  return typeof p === "string" ? p : p?.player || "";
}

/** The section (built once; it keeps itself up to date while the page lives). */
export function openGames() {
  const section = h("section", { class: "panel open-games", "aria-labelledby": "open-heading", "data-testid": "open-games" });
  const state = { list: null, error: null, busy: null, joinError: null };

  function draw() {
    clear(section);
    section.append(h("h2", { id: "open-heading" }, t("open.heading")));
    if (state.list === null) {
      section.append(h("p", { class: "muted", role: "status" }, state.error ? t("open.loadError", { detail: state.error }) : t("lobby.loading")));
      return;
    }
    if (!account.me) section.append(h("p", { class: "note", "data-testid": "open-login" }, t("open.login")));
    if (state.joinError) section.append(h("p", { class: "error", role: "alert", "data-testid": "join-error" }, state.joinError));
    const list = h("ul", { class: "table-list", "data-testid": "open-list" });
    if (!state.list.length) list.append(h("li", { class: "empty" }, t("open.none")));
    const me = account.me?.name?.toLowerCase();
    for (const e of state.list) {
      const players = (e.players || []).map(nameOf).filter(Boolean);
      const mine = me && players.some((p) => p.toLowerCase() === me);
      const facts = [
        optionWords(e.options),
        clockWords(e.clock),
        e.rated ? t("open.rated") : t("open.unrated"),
        e.takebacks === false ? t("terms.noTakebacks") : e.takebacks ? t("terms.hasTakebacks") : "",
        ...(e.bots || []).map((b) => t("open.bot", { seat: seatName(b.seat), level: tOr(`level.${b.level}`, b.level || "") })),
      ].filter(Boolean);
      list.append(
        h(
          "li",
          { class: "table-row", "data-table": e.id, "data-testid": "open-game" },
          h(
            "div",
            { class: "table-info" },
            h("strong", {}, tOr(`game.${e.game}`, e.title || e.game)),
            e.rated ? [" ", h("span", { class: "badge" }, t("open.rated"))] : null,
            h("div", { class: "muted small" }, facts.join(" · ")),
            h(
              "div",
              { class: "muted small" },
              players.length
                ? [t("open.waits"), " ", players.map((p, i) => [i ? ", " : "", playerLink(p)])]
                : t("open.nobody"),
              e.created ? [" · ", t("lobby.started", { date: formatDate(typeof e.created === "number" ? e.created * 1000 : e.created) })] : null,
            ),
          ),
          h(
            "div",
            { class: "table-buttons" },
            mine
              ? h("a", { class: "button", href: `/table/${encodeURIComponent(e.id)}`, "data-testid": "open-mine" }, t("mygames.open"))
              : (e.open_seats || []).map((seat) =>
                  h(
                    "button",
                    {
                      type: "button",
                      class: "primary",
                      "data-testid": "join",
                      "data-seat": seat,
                      disabled: !account.me || state.busy !== null,
                      onclick: () => join(e, seat),
                    },
                    t("open.join", { seat: seatName(seat) }),
                  ),
                ),
          ),
        ),
      );
    }
    section.append(list);
  }

  async function join(e, seat) {
    state.busy = e.id;
    state.joinError = null;
    draw();
    try {
      await api.join(e.id, seat);
    } catch (err) {
      state.busy = null;
      state.joinError = t("open.joinError", { detail: err.detail || err.message });
      draw();
      load();
      return;
    }
    location.assign(`/table/${encodeURIComponent(e.id)}`);
  }

  async function load() {
    try {
      const answer = await api.openTables();
      state.list = Array.isArray(answer) ? answer : answer?.tables || [];
      state.error = null;
    } catch (err) {
      state.error = err.detail || err.message;
    }
    if (state.busy === null) draw();
  }

  draw();
  load();
  const timer = setInterval(() => {
    if (document.visibilityState === "visible") load();
  }, EVERY_MS);
  const again = () => document.visibilityState === "visible" && load();
  document.addEventListener("visibilitychange", again);
  window.addEventListener("focus", again);
  window.addEventListener("langchange", draw);
  window.addEventListener("accountchange", draw);
  section.stop = () => clearInterval(timer);
  return section;
}

/** A player's name as a link to their page. */
export function playerLink(name) {
  return h("a", { href: `/player/${encodeURIComponent(name)}`, class: "player-link", "data-testid": "player-link" }, String(name));
}
