// A game's leaderboard at /ratings/{game} (GET /api/ratings/{game}): one table per side,
// the players in the server's order (the conservative mu - 3 sigma), and the server's bot
// levels placed among them on the same scale, so that a player sees which bot they
// match. Links to the other games' leaderboards and to each player's page.

import { api } from "./api.js";
import { clear, h, headRow } from "./dom.js";
import { seatName, t, tOr } from "./i18n.js";
import { playerLink } from "./opengames.js";
import { ratingText } from "./plot.js";

const ordinal = (r) => Number(r.mu) - 3 * Number(r.sigma);

export function mountLeaderboard(root, game) {
  const state = { data: null, error: null, games: null };
  const page = h("div", { class: "leaderboard-page", "data-testid": "leaderboard" });
  clear(root).append(page);

  function sideTable(side, players, bots) {
    const rows = [
      ...players.map((p, i) => ({ ...p, rank: p.rank ?? i + 1 })),
      ...bots.map((b) => ({ ...b, bot: true })),
    ].sort((a, b) => ordinal(b) - ordinal(a));
    return h(
      "section",
      { class: "panel leaderboard-side", "data-testid": "leaderboard-side", "data-side": side },
      h("h3", {}, seatName(side)),
      h(
        "div",
        { class: "table-scroll" },
        h(
          "table",
          { class: "data-table" },
          headRow([t("ratings.rank"), t("ratings.player"), t("ratings.rating"), t("ratings.games"), t("ratings.wins")]),
          h(
            "tbody",
            {},
            rows.length
              ? rows.map((r) =>
                  h(
                    "tr",
                    { class: r.bot ? "bot-row" : "", "data-testid": r.bot ? "leaderboard-bot" : "leaderboard-player" },
                    h("td", {}, r.bot ? "" : String(r.rank)),
                    h("td", {}, r.bot ? t("ratings.bot", { level: tOr(`level.${r.level}`, r.level) }) : playerLink(r.player)),
                    h("td", { class: "rating-value" }, ratingText(r.mu, r.sigma)),
                    h("td", {}, String(r.games ?? 0)),
                    h("td", {}, r.bot ? "" : String(r.wins ?? 0)),
                  ),
                )
              : h("tr", {}, h("td", { colspan: "5", class: "muted" }, t("ratings.none"))),
          ),
        ),
      ),
    );
  }

  function draw() {
    const title = tOr(`game.${game}`, game);
    document.title = `${t("ratings.heading", { game: title })} — ${t("app.title")}`;
    clear(page).append(h("h2", {}, t("ratings.heading", { game: title })));
    if (state.games) {
      page.append(
        h(
          "nav",
          { class: "game-tabs", "aria-label": t("ratings.others") },
          state.games
            .filter((g) => !g.cooperative)
            .map((g) =>
              h(
                "a",
                {
                  href: `/ratings/${encodeURIComponent(g.id)}`,
                  class: g.id === game ? "button primary" : "button",
                  "aria-current": g.id === game ? "page" : false,
                },
                tOr(`game.${g.id}`, g.title),
              ),
            ),
        ),
      );
    }
    page.append(h("p", { class: "note" }, t("ratings.explain")));
    if (state.error) {
      page.append(h("p", { class: "error", role: "alert", "data-testid": "leaderboard-error" }, state.error));
      return;
    }
    if (!state.data) {
      page.append(h("p", { class: "muted", role: "status" }, t("lobby.loading")));
      return;
    }
    const sides = state.data.sides || {};
    const bots = state.data.bots || {};
    const names = [...new Set([...Object.keys(sides), ...Object.keys(bots)])];
    if (!names.length) page.append(h("p", { class: "muted" }, t("ratings.none")));
    page.append(h("div", { class: "leaderboard-grid" }, names.map((side) => sideTable(side, sides[side] || [], bots[side] || []))));
  }

  async function load() {
    const [data, games] = await Promise.allSettled([api.ratings(game), api.games()]);
    if (data.status === "fulfilled") state.data = data.value;
    else state.error = data.reason?.status === 404 ? t("ratings.unknown", { game }) : data.reason?.detail || String(data.reason);
    if (games.status === "fulfilled") state.games = games.value;
    draw();
  }

  draw();
  load();
  window.addEventListener("langchange", draw);
}
