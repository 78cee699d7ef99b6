// A player's page at /player/{name} (GET /api/players/{name} and .../games): the ratings
// per game and side ("25.3 ± 4.1", the games count, a plot of the history, and the bot
// level of about the same strength), the record against each opponent, the co-operative
// team record, and the finished games, filtered by game, side and result, each with its
// record to download and its replay; and every finished game at once as JSON lines.

import { api } from "./api.js";
import { clear, h, headRow } from "./dom.js";
import { formatDate, seatName, t, tOr } from "./i18n.js";
import { playerLink } from "./opengames.js";
import { ratingPlot, ratingText } from "./plot.js";

const PAGE = 20;
const RESULTS = ["win", "loss", "draw"];

function gameName(id, title) {
  return tOr(`game.${id}`, title || id);
}

/** A finished game's date (epoch seconds from the server). */
function when(at) {
  return at ? formatDate(typeof at === "number" ? at * 1000 : at) : "";
}

function resultWord(r) {
  return r === "win" ? t("table.win") : r === "loss" ? t("table.loss") : r === "draw" ? t("table.draw") : String(r ?? "");
}

export function mountPlayer(root, name) {
  const state = {
    data: null, // /api/players/{name}
    error: null,
    games: null, // the last page of games asked for
    total: 0,
    filters: { game: "", side: "", result: "" },
    offset: 0,
    gamesError: null,
    list: [], // the games shown so far
  };
  const head = h("div", { class: "player-head" });
  const ratings = h("section", { class: "panel player-ratings", "aria-labelledby": "ratings-heading", "data-testid": "player-ratings" });
  const opponents = h("section", { class: "panel player-opponents", "aria-labelledby": "opponents-heading", "data-testid": "player-opponents" });
  const team = h("section", { class: "panel player-team", "aria-labelledby": "team-heading", "data-testid": "player-team" });
  const games = h("section", { class: "panel player-games", "aria-labelledby": "pgames-heading", "data-testid": "player-games" });
  clear(root).append(h("div", { class: "player-page" }, head, h("div", { class: "player-grid" }, ratings, opponents, team), games));

  function drawHead() {
    document.title = `${name} — ${t("app.title")}`;
    clear(head).append(h("h2", { "data-testid": "player-name" }, t("player.heading", { name: state.data?.player || name })));
    if (state.error) head.append(h("p", { class: "error", role: "alert", "data-testid": "player-error" }, state.error));
  }

  function drawRatings() {
    clear(ratings).append(h("h3", { id: "ratings-heading" }, t("player.ratings")));
    const all = state.data?.ratings || {};
    const ids = Object.keys(all);
    if (!ids.length) {
      ratings.append(h("p", { class: "muted" }, state.data ? t("player.noRatings") : t("lobby.loading")));
      return;
    }
    for (const game of ids) {
      ratings.append(
        h(
          "h4",
          {},
          gameName(game),
          " ",
          h(
            "a",
            { class: "small", href: `/ratings/${encodeURIComponent(game)}`, "data-testid": "leaderboard-link" },
            t("player.leaderboard"),
          ),
        ),
      );
      for (const [side, r] of Object.entries(all[game] || {})) {
        const title = t("player.plotTitle", { game: gameName(game), side: seatName(side) });
        ratings.append(
          h(
            "div",
            { class: "rating-card", "data-testid": "rating", "data-game": game, "data-side": side },
            h(
              "p",
              {},
              h("strong", {}, seatName(side)),
              " ",
              h("span", { class: "rating-value", "data-testid": "rating-value" }, ratingText(r.mu, r.sigma)),
              " ",
              h("span", { class: "muted small" }, t("player.games", { n: r.games, wins: r.wins ?? 0 })),
            ),
            r.like_bot
              ? h(
                  "p",
                  { class: "note", "data-testid": "like-bot" },
                  t("player.likeBot", { level: tOr(`level.${r.like_bot}`, r.like_bot), side: seatName(side) }),
                )
              : null,
            ratingPlot(r.history, title),
          ),
        );
      }
    }
  }

  function drawOpponents() {
    clear(opponents).append(h("h3", { id: "opponents-heading" }, t("player.opponents")));
    const rows = state.data?.opponents || [];
    if (!rows.length) {
      opponents.append(h("p", { class: "muted" }, t("player.noOpponents")));
      return;
    }
    opponents.append(
      h(
        "div",
        { class: "table-scroll" },
        h(
          "table",
          { class: "data-table", "data-testid": "opponents-table" },
          headRow([t("player.opponent"), t("lobby.game"), t("player.wins"), t("player.losses"), t("player.draws")]),
          h(
            "tbody",
            {},
            rows.map((o) =>
              h("tr", {}, [playerLink(o.player), gameName(o.game), o.wins, o.losses, o.draws].map((x) => h("td", {}, x))),
            ),
          ),
        ),
      ),
    );
  }

  function drawTeam() {
    clear(team).append(h("h3", { id: "team-heading" }, t("player.team")));
    const entries = Object.entries(state.data?.team || {});
    if (!entries.length) {
      team.append(h("p", { class: "muted" }, t("player.noTeam")));
      return;
    }
    for (const [game, rec] of entries) {
      const wins = Object.entries(rec.wins || {}).map(([players, n]) => t("player.teamWins", { players, n }));
      team.append(
        h(
          "p",
          { "data-testid": "team-record" },
          h("strong", {}, gameName(game)),
          ": ",
          t("player.teamGames", { n: rec.games }),
          wins.length ? [" · ", wins.join(", ")] : null,
          rec.best !== null && rec.best !== undefined ? [" · ", t("player.best", { score: rec.best })] : null,
        ),
      );
    }
  }

  function filterSelect(id, key, options) {
    return h(
      "div",
      { class: "field" },
      h("label", { for: id }, t(`player.filter.${key}`)),
      h(
        "select",
        {
          id,
          "data-testid": id,
          value: state.filters[key],
          onchange: (e) => {
            state.filters[key] = e.target.value;
            state.offset = 0;
            state.list = [];
            loadGames().then(() => document.getElementById(id)?.focus());
          },
        },
        h("option", { value: "" }, t("player.filter.all")),
        options.map(([v, text]) => h("option", { value: v }, text)),
      ),
    );
  }

  function drawGames() {
    clear(games).append(h("h3", { id: "pgames-heading" }, t("player.finished")));
    const known = Object.keys(state.data?.ratings || {});
    for (const e of state.list) if (!known.includes(e.game)) known.push(e.game);
    const sides = new Set();
    for (const g of Object.values(state.data?.ratings || {})) for (const side of Object.keys(g)) sides.add(side);
    for (const e of state.list) if (e.side) sides.add(e.side);
    if (state.filters.game && !known.includes(state.filters.game)) known.push(state.filters.game);
    if (state.filters.side) sides.add(state.filters.side);
    games.append(
      h(
        "div",
        { class: "filters" },
        filterSelect("filter-game", "game", known.map((g) => [g, gameName(g)])),
        filterSelect("filter-side", "side", [...sides].map((x) => [x, seatName(x)])),
        filterSelect("filter-result", "result", RESULTS.map((r) => [r, resultWord(r)])),
      ),
      h(
        "p",
        {},
        h(
          "a",
          { href: `/api/players/${encodeURIComponent(name)}/games.jsonl`, download: `${name}.jsonl`, "data-testid": "download-all" },
          t("player.downloadAll"),
        ),
      ),
    );
    if (state.gamesError) games.append(h("p", { class: "error", role: "alert", "data-testid": "games-error" }, state.gamesError));
    const list = h("ul", { class: "table-list", "data-testid": "finished-games" });
    if (state.games !== null && !state.list.length) list.append(h("li", { class: "empty" }, t("player.noGames")));
    for (const e of state.list) {
      list.append(
        h(
          "li",
          { class: "table-row", "data-testid": "finished-game", "data-table": e.id },
          h(
            "div",
            { class: "table-info" },
            h("strong", {}, gameName(e.game, e.title)),
            " ",
            h("span", { class: `status status-${e.result}`, "data-testid": "game-result", "data-result": e.result }, resultWord(e.result)),
            e.rated ? [" ", h("span", { class: "badge" }, t("open.rated"))] : null,
            h(
              "div",
              { class: "muted small" },
              t("mygames.seat", { seat: seatName(e.seat || e.side) }),
              (e.opponents || []).length ? [" · ", t("player.against"), " ", e.opponents.map((p, i) => [i ? ", " : "", playerLink(p)])] : null,
              (e.partners || []).length ? [" · ", t("player.with"), " ", e.partners.map((p, i) => [i ? ", " : "", playerLink(p)])] : null,
              e.ended ? [" · ", when(e.ended)] : null,
            ),
          ),
          h(
            "div",
            { class: "table-buttons" },
            e.replay_url ? h("a", { class: "button", href: e.replay_url, "data-testid": "replay-link" }, t("player.replay")) : null,
            e.record_url
              ? h("a", { class: "button", href: e.record_url, download: `${e.id}.json`, "data-testid": "record-link" }, t("player.record"))
              : null,
          ),
        ),
      );
    }
    games.append(list);
    if (state.list.length < state.total) {
      games.append(
        h(
          "button",
          {
            type: "button",
            "data-testid": "more-games",
            onclick: () => {
              state.offset = state.list.length;
              loadGames();
            },
          },
          t("player.more", { shown: state.list.length, total: state.total }),
        ),
      );
    }
  }

  async function loadGames() {
    try {
      const answer = await api.playerGames(name, { ...state.filters, limit: String(PAGE), offset: state.offset ? String(state.offset) : "" });
      state.games = answer;
      state.total = Number(answer?.total || 0);
      state.list = state.offset ? state.list.concat(answer?.games || []) : answer?.games || [];
      state.gamesError = null;
    } catch (err) {
      state.gamesError = err.detail || err.message;
    }
    drawGames();
  }

  function draw() {
    drawHead();
    drawRatings();
    drawOpponents();
    drawTeam();
    drawGames();
  }

  async function load() {
    try {
      state.data = await api.player(name);
      state.error = null;
    } catch (err) {
      state.error = err.status === 404 ? t("player.notFound", { name }) : err.detail || err.message;
    }
    draw();
    if (state.data) loadGames();
  }

  draw();
  load();
  window.addEventListener("langchange", draw);
}
