// The table page's status lines: the turn line (whose turn, or the game is over; where
// the game is in the rules' words when its board says so, through progress()), the notice
// when the page switched to another held seat, the notice when a bot stands in for the
// seat shown (its player's time ran out) with the button that takes the seat back, and
// the connection's state.

import { clear, h } from "./dom.js";
import { seatName, t } from "./i18n.js";

/**
 * The turn line `turn` and the notice `noticeEl` for the table `message` (null: still
 * connecting); `board` is the game's board module once it is in (else null), `notice` the
 * notice to show ({key, seat}, or null), `standin` whether a bot plays the message's seat.
 */
export function drawTurn(turn, noticeEl, message, { board, notice, standin }) {
  if (!message) {
    turn.textContent = t("table.connecting");
    turn.className = "turn";
    delete turn.dataset.move;
    return;
  }
  let text;
  let cls = "turn";
  if (message.outcome) {
    text = t("table.over");
    cls += " turn-over";
  } else if (message.your_turn && standin) {
    text = t("table.waitingAi", { seat: seatName(message.seat) });
  } else if (message.your_turn) {
    text = t("table.yourTurn", { seat: seatName(message.seat) });
    cls += " turn-yours";
  } else if (message.to_act === "chance") {
    text = t("table.chance");
  } else {
    const row = message.seats.find((s) => s.seat === message.to_act);
    const who = seatName(message.to_act);
    text = row?.kind === "ai" || row?.standin ? t("table.waitingAi", { seat: who }) : t("table.waiting", { seat: who });
  }
  // Where the game is, in the rules' words (the move number counts chance and AI steps
  // too, so it is kept for scripts in data-move only).
  let where = "";
  if (board && typeof board.progress === "function") {
    try {
      where = board.progress(message, t) || "";
    } catch (err) {
      console.error("the board could not say where the game is", err);
    }
  }
  turn.className = cls;
  turn.textContent = where ? `${text} · ${where}` : text;
  turn.dataset.move = String(message.move);
  turn.dataset.yourTurn = message.your_turn && !standin ? "true" : "false";
  if (notice) {
    noticeEl.textContent = t(notice.key, { seat: notice.seat });
    noticeEl.hidden = false;
  } else {
    noticeEl.hidden = true;
  }
}

/** The stand-in notice `box`, shown when `show`; its button calls `takeBack()`. */
export function drawStandin(box, show, takeBack) {
  box.hidden = !show;
  clear(box);
  if (!show) return;
  box.append(
    h("span", {}, t("table.standinMine")),
    h("button", { type: "button", class: "small-button", "data-testid": "take-back", onclick: takeBack }, t("table.takeBack")),
  );
}

/** The connection line `conn` for a connection's `status` (open, reconnecting, closed...). */
export function drawConnection(conn, status) {
  conn.textContent =
    status === "open"
      ? t("table.connected")
      : status === "reconnecting"
        ? t("table.reconnecting")
        : status === "closed"
          ? t("table.offline")
          : t("table.connecting");
  conn.dataset.status = status || "";
}
