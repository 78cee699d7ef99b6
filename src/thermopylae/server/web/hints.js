// The table page's "Suggest a move" (issue 20): on a table whose terms allow hints, when it
// is the shown seat's turn, POST /api/tables/{id}/hint as that seat (its token, or the
// login with its CSRF header) and show the top three moves with their win chance
// (percentage ± standard error, in points) and a button to play each one. A hint is for
// one move: it goes away when the table moves on.

import { clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { percentPm, study } from "./studyapi.js";

/**
 * The panel; `seat()` answers {token, message, seated} of the connection shown, `act(action)`
 * plays an action as that seat, `blocked(message)` says when the seat may not act (a bot
 * plays it).
 */
export function hintPanel(tableId, seat, act, blocked) {
  const el = h("div", { class: "hint-panel", "data-testid": "hint-panel", hidden: true });
  const state = { move: null, busy: false, hints: null, error: null };
  let last = null;

  async function ask() {
    const { token, message } = seat();
    if (state.busy || !message) return;
    const move = message.move;
    state.move = move;
    state.busy = true;
    state.error = null;
    state.hints = null;
    draw(last);
    try {
      const answer = await study.hint(tableId, token);
      if (state.move !== move) return;
      state.hints = (answer?.hints || []).slice(0, 3);
      if (Number.isInteger(answer?.move)) state.move = answer.move;
    } catch (err) {
      if (state.move === move) state.error = err.detail || err.message;
    } finally {
      state.busy = false;
      draw(last);
    }
  }

  function draw(m) {
    last = m;
    const { seated } = seat();
    const open = Boolean(m && m.terms?.hints && seated && m.your_turn && !m.outcome && !blocked(m));
    if (!m || m.move !== state.move) {
      state.move = m ? m.move : null;
      state.hints = null;
      state.error = null;
      state.busy = false;
    }
    el.hidden = !open;
    clear(el);
    if (!open) return;
    el.append(
      h(
        "button",
        { type: "button", class: "small-button", "data-testid": "hint", disabled: state.busy, onclick: ask },
        t("hint.ask"),
      ),
    );
    if (state.busy) el.append(h("p", { class: "muted small", role: "status", "data-testid": "hint-thinking" }, t("hint.thinking")));
    if (state.error) el.append(h("p", { class: "error", role: "alert", "data-testid": "hint-error" }, t("hint.refused", { detail: state.error })));
    if (state.hints) {
      const legal = new Set((m.legal || []).map((x) => x.action));
      if (!state.hints.length) {
        el.append(h("p", { class: "muted small", "data-testid": "hints" }, t("hint.none")));
        return;
      }
      el.append(
        h(
          "ol",
          { class: "hints", "data-testid": "hints", "aria-label": t("hint.heading") },
          state.hints.map((x) =>
            h(
              "li",
              { class: "hint", "data-testid": "hint-row", "data-hint": x.action },
              h("span", { class: "hint-label" }, x.label || x.action),
              " ",
              h("span", { class: "hint-win", "data-testid": "hint-win" }, t("hint.win", { win: percentPm(x.win, x.stderr) })),
              " ",
              h(
                "button",
                {
                  type: "button",
                  class: "small-button primary",
                  "data-testid": "hint-play",
                  "data-hint": x.action,
                  disabled: !legal.has(x.action),
                  "aria-label": t("hint.playLabel", { move: x.label || x.action }),
                  onclick: () => act(x.action),
                },
                t("hint.play"),
              ),
            ),
          ),
        ),
      );
    }
  }

  return { el, draw };
}
