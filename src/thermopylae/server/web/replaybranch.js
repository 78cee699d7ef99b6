// The replay page's "Play from here" (issue 20): a new table at the step shown
// (POST /api/tables/{id}/branch), the chosen seat played by this browser (every other seat
// by a bot), with the hidden cards re-dealt from what that seat saw, or kept as they truly
// were. The new seat's token is kept and the page goes to the new table.

import { append, clear, h } from "./dom.js";
import { seatName, t } from "./i18n.js";
import { store } from "./api.js";
import { study } from "./studyapi.js";

/**
 * The panel for table `tableId` of game `game`: `seats` its seats, `held` those this browser
 * holds (the first is offered first), `step` the step shown at first. Returns
 * - `panel`;
 * - `setStep(n, over)`: the step shown, and whether the game is over there (no branch);
 *   only the button changes, so the focus stays;
 * - `draw()`: the whole panel again (a new language).
 */
export function branchParts({ tableId, game, seats, held, step }) {
  const panel = h("section", { class: "panel branch-panel", "data-testid": "branch" });
  const branch = { seat: held[0] || seats[0], trueCards: false, busy: false, error: null };
  let n = step;
  let over = false;

  async function branchHere() {
    if (branch.busy) return;
    branch.busy = true;
    branch.error = null;
    draw();
    const token = store.held(tableId).find((e) => e.seat === branch.seat)?.token || null;
    try {
      const table = await study.branch(tableId, token, n, branch.seat, branch.trueCards);
      const mine = (table.seats || []).find((x) => x.seat === branch.seat) || null;
      if (mine?.token) store.hold({ id: table.id, game, seat: mine.seat, token: mine.token });
      location.assign(`/table/${encodeURIComponent(table.id)}${mine?.token ? `#token=${encodeURIComponent(mine.token)}` : ""}`);
    } catch (err) {
      branch.error = err.detail || err.message;
      branch.busy = false;
      draw();
    }
  }

  const button = h("button", { type: "button", class: "primary", "data-testid": "branch-start", onclick: branchHere });
  const overNote = h("p", { class: "muted small", "data-testid": "branch-over" });
  /** The button's text and state follow the step shown (no rebuild: the focus stays). */
  function drawButton() {
    button.textContent = branch.busy ? t("branch.starting") : t("branch.start", { n });
    button.disabled = branch.busy || over;
    overNote.textContent = t("branch.over");
    overNote.hidden = !over;
  }

  function draw() {
    drawButton();
    clear(panel);
    const select = h(
      "select",
      { id: "branch-seat", "data-testid": "branch-seat", onchange: (e) => (branch.seat = e.target.value) },
      seats.map((x) => h("option", { value: x }, seatName(x))),
    );
    select.value = branch.seat;
    append(panel, [
      h("h3", {}, t("branch.heading")),
      h("p", { class: "muted small" }, t("branch.help")),
      h("div", { class: "field" }, h("label", { for: "branch-seat" }, t("branch.seat")), select),
      h(
        "label",
        { class: "check", for: "branch-true-cards" },
        h("input", {
          type: "checkbox",
          id: "branch-true-cards",
          "data-testid": "branch-true-cards",
          checked: branch.trueCards,
          onchange: (e) => (branch.trueCards = e.target.checked),
        }),
        " ",
        h("span", {}, t("branch.trueCards")),
      ),
      h("p", {}, button),
      overNote,
      branch.error ? h("p", { class: "error", role: "alert", "data-testid": "branch-error" }, branch.error) : null,
    ]);
  }

  return {
    panel,
    setStep(step_, over_) {
      n = step_;
      over = over_;
      drawButton();
    },
    draw,
  };
}
