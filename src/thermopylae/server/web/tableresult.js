// The table page's result, once the game is over: the headline for the seat shown (a win,
// a loss, a draw; the team's for a co-operative game), each seat's result, why the game
// ended, the game's own numbers when its board says them (resultDetail), the number of
// turns, and the link to the game's replay (replay.js).

import { append, clear, h } from "./dom.js";
import { seatName, t } from "./i18n.js";

/**
 * Fill `result` (hidden while the game goes on) from the table `message` of table
 * `tableId`; `board` is the game's board module once it is in (else null).
 */
export function drawResult(result, message, { tableId, board }) {
  clear(result);
  const out = message?.outcome;
  result.hidden = !out;
  if (!out) return;
  const names = message.seats.map((s) => s.seat);
  const results = out.results || [];
  const word = (r) => (r === "win" ? t("table.win") : r === "loss" ? t("table.loss") : r === "draw" ? t("table.draw") : r);
  let headline;
  const mine = message.seat ? results[names.indexOf(message.seat)] : null;
  const same = results.length > 0 && results.every((r) => r === results[0]);
  if (same && results.length > 1 && results[0] !== "draw") {
    headline = results[0] === "win" ? t("table.teamWin") : t("table.teamLoss");
  } else if (same) {
    headline = word(results[0]);
  } else if (mine) {
    headline = word(mine);
  } else {
    headline = t("table.over");
  }
  const good = mine ? mine === "win" : results.every((r) => r === "win");
  // The game's own numbers (a track, Glory), when its board says them: they mean more
  // than the scores, which are only 1 for a win and 0 for a loss.
  let detail = null;
  if (board && typeof board.resultDetail === "function") {
    try {
      detail = board.resultDetail(message, t) || null;
    } catch (err) {
      console.error("the board could not describe the result", err);
    }
  }
  result.className = `result ${good ? "result-win" : "result-other"}`;
  append(result, [
    h("h3", {}, t("table.result")),
    h("p", { class: "headline" }, headline),
    results.length > 1
      ? h(
          "ul",
          {},
          results.map((r, i) =>
            h(
              "li",
              {},
              t("table.seatResult", { seat: names[i] ? seatName(names[i]) : `#${i + 1}`, result: word(r) }),
              !detail && out.scores && out.scores[i] !== undefined ? ` (${t("table.score", { score: out.scores[i] })})` : "",
            ),
          ),
        )
      : null,
    out.reason ? h("p", { "data-testid": "result-reason" }, t("table.reason", { reason: out.reason_text || out.reason })) : null,
    detail ? h("p", { "data-testid": "result-detail" }, detail) : null,
    out.turns !== undefined ? h("p", { class: "muted" }, t("table.turns", { n: out.turns })) : null,
    h(
      "p",
      {},
      h("a", { class: "button", href: `/table/${encodeURIComponent(tableId)}/replay`, "data-testid": "replay-link" }, t("replay.open")),
    ),
  ]);
}
