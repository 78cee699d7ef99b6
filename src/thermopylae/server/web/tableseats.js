// The table page's seat list and its links: who sits at each seat (a player, linking to
// their page; a bot and its level; an open seat; a stand-in bot; "you" on the seats this
// browser holds), and the links that bring people to the table (this browser's invite
// link per seat, kept from the table's creation, and the spectators' link), each with a
// Copy button.

import { store } from "./api.js";
import { clear, copyText, h } from "./dom.js";
import { seatName, t, tOr } from "./i18n.js";
import { playerLink } from "./opengames.js";

/** An AI seat's level in words (an explicit agent spec stays as it is). */
function aiLevel(row) {
  return row.level ? tOr(`level.${row.level}`, row.level) : row.agent || "?";
}

/** Fill `seatList` from the table `message`; `held`: the set of seats this browser holds. */
export function drawSeats(seatList, message, held) {
  clear(seatList);
  if (!message) return;
  seatList.append(
    h("h3", {}, t("table.seats")),
    h(
      "ul",
      { class: "seats" },
      message.seats.map((s) =>
        h(
          "li",
          { class: s.seat === message.to_act ? "to-act" : "" },
          h("strong", {}, seatName(s.seat)),
          " — ",
          s.kind === "ai"
            ? t("table.ai", { level: aiLevel(s) })
            : s.player
              ? h("span", { class: "player", "data-testid": "player" }, playerLink(s.player))
              : s.kind === "open"
                ? h("span", { class: "muted", "data-testid": "open-seat" }, t("table.openSeat"))
                : t("table.human"),
          s.standin ? h("span", { class: "standin", "data-testid": "standin" }, ` ${t("table.standin")}`) : null,
          held.has(s.seat) ? h("span", { class: "badge" }, t("table.you")) : null,
        ),
      ),
    ),
  );
}

/** Fill `links` with the invite links kept for table `tableId` and its spectators' link. */
export function drawLinks(links, tableId) {
  clear(links);
  const invites = store.invites(tableId);
  const rows = [];
  const row = (label, url, testid) => {
    const input = h("input", { type: "text", readonly: true, value: url, "data-testid": testid, "aria-label": label });
    const button = h("button", { type: "button", class: "small-button" }, t("table.copy"));
    button.addEventListener("click", async () => {
      await copyText(url, input);
      button.textContent = t("table.copied");
      setTimeout(() => (button.textContent = t("table.copy")), 1500);
    });
    return h("div", { class: "link-row" }, h("label", {}, label), h("div", { class: "link-field" }, input, button));
  };
  if (invites.length) {
    rows.push(h("h3", {}, t("table.invites")), h("p", { class: "muted small" }, t("table.inviteHelp")));
    for (const inv of invites) rows.push(row(t("table.inviteFor", { seat: seatName(inv.seat) }), inv.url, "invite-link"));
  }
  rows.push(row(t("table.spectatorLink"), `${location.origin}/table/${encodeURIComponent(tableId)}`, "spectator-link"));
  links.append(...rows);
}
