// "My games": the logged-in account's tables from /api/me, on any device — the active ones
// with "your turn" first, each with its clock (your bank, counting down while it runs) and
// whose turn it is (or the seats still open, while the game waits for players), rated or
// not; then the finished ones.

import { clockTime, offsetOf } from "./clock.js";
import { clear, h } from "./dom.js";
import { formatDate, seatName, t, tOr } from "./i18n.js";

const FINISHED_SHOWN = 10;

function entryRow(e) {
  const title = tOr(`game.${e.game}`, e.title || e.game);
  let status;
  if (e.over) status = h("span", { class: "status status-over" }, t("lobby.status.over"));
  else if (e.open_seats?.length) {
    status = h("span", { class: "status" }, t("table.waitingPlayers", { seats: e.open_seats.map(seatName).join(", ") }));
  }
  else if (e.your_turn) status = h("span", { class: "status status-yourTurn" }, t("lobby.status.yourTurn"));
  else if (e.clock?.running) status = h("span", { class: "status" }, t("mygames.waitingFor", { seat: seatName(e.clock.running) }));
  else status = h("span", { class: "status" }, t("lobby.status.waiting"));
  let clock = null;
  if (e.clock && !e.over) {
    const i = e.seats.indexOf(e.seat);
    if (i >= 0) {
      clock = h(
        "span",
        { class: "my-clock", "data-testid": "my-clock" },
        t("mygames.yourTime"),
        " ",
        clockTime(e.clock, i, e.seats, offsetOf(e.clock)),
      );
    }
  }
  return h(
    "li",
    { class: `table-row${e.your_turn ? " my-turn" : ""}`, "data-table": e.id, "data-testid": "my-game" },
    h(
      "div",
      { class: "table-info" },
      h("strong", {}, title),
      e.rated ? [" ", h("span", { class: "badge" }, t("open.rated"))] : null,
      " ",
      h("span", { class: "muted" }, e.id),
      h(
        "div",
        { class: "muted small" },
        t("mygames.seat", { seat: seatName(e.seat) }),
        " · ",
        status,
        clock ? [" · ", clock] : null,
        e.created ? [" · ", t("lobby.started", { date: formatDate(e.created * 1000) })] : null,
      ),
    ),
    h(
      "div",
      { class: "table-buttons" },
      h("a", { class: "button primary", href: e.link, "data-testid": "open-game" }, e.your_turn ? t("mygames.play") : t("mygames.open")),
    ),
  );
}

/** Draw the account's games into `section` (tables = /api/me's "tables"). */
export function drawMyGames(section, tables) {
  clear(section);
  section.append(h("h2", { id: "games-heading" }, t("mygames.heading")));
  const active = tables?.active || [];
  const finished = (tables?.finished || []).slice(0, FINISHED_SHOWN);
  const list = h("ul", { class: "table-list", "data-testid": "my-games" });
  if (!active.length) list.append(h("li", { class: "empty" }, t("mygames.none")));
  for (const e of active) list.append(entryRow(e));
  section.append(list);
  if (finished.length) {
    section.append(
      h("h3", { class: "finished-heading" }, t("mygames.finished")),
      h("ul", { class: "table-list", "data-testid": "my-finished" }, finished.map(entryRow)),
    );
  }
}
