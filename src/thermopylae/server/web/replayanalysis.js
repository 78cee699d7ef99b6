// The replay page's analysis (issue 20): "Analyse" for a chosen seat
// (POST /api/tables/{id}/analysis), a progress bar while it runs (GET about once a second),
// then the win-chance graph (wingraph.js), whose cursor follows the step shown; clicking it
// shows that step. At a marked decision of the analysed seat, a note above the board tells
// the move played and the better one with both win chances. An analysis that exists
// already shows when the page opens (load()).

import { clear, h } from "./dom.js";
import { seatName, t } from "./i18n.js";
import { study } from "./studyapi.js";
import { betterParams, markedAt, winGraph } from "./wingraph.js";

/**
 * The analysis of table `tableId`: `seats` its seats, `held` those this browser holds (the
 * first is offered first), `step` the step shown at first, `go(step)` shows a step (a click
 * on the graph). Returns
 * - `panel`, the panel under the board, and `note`, the decision note above it;
 * - `setStep(n)`: the step being shown (the graph's cursor);
 * - `setFrameStep(n)`: the step whose frame is drawn (its decision note; null: none);
 * - `draw()`: everything again (a new language: the graph is built anew);
 * - `load()`: ask for the analyses already made.
 */
export function analysisParts({ tableId, seats, held, step, go }) {
  const panel = h("section", { class: "panel analysis-panel", "data-testid": "analysis" });
  const note = h("div", { class: "notice decision-note", "data-testid": "decision-note", hidden: true });
  const analyses = new Map(); // seat -> status object
  let shown = null; // the seat whose analysis is drawn
  let graph = null; // {el, setStep} of the analysis drawn
  let graphFor = null; // the result it was drawn from
  let polling = null;
  let error = null;
  let analysing = false;
  let chosen = held[0] || seats[0]; // the seat in the select
  let cursor = step; // the step being shown
  let frameStep = null; // the step whose frame is drawn

  function take(status) {
    if (!status || !status.seat) return;
    analyses.set(status.seat, status);
    if (status.status === "queued" || status.status === "running") poll();
  }

  function poll() {
    if (polling) return;
    polling = setTimeout(async () => {
      polling = null;
      const busy = [...analyses.values()].filter((a) => a.status === "queued" || a.status === "running");
      for (const a of busy) {
        try {
          take(await study.analysis(tableId, a.seat));
          error = null;
        } catch (err) {
          if (err.status === 404) analyses.delete(a.seat);
          else error = err.detail || err.message;
        }
      }
      drawPanel();
      drawNote(); // an analysis that just ended marks the step on screen at once
      if ([...analyses.values()].some((a) => a.status === "queued" || a.status === "running")) poll();
    }, 1000);
  }

  async function analyse(seat) {
    if (analysing) return;
    analysing = true;
    error = null;
    shown = seat;
    drawPanel();
    try {
      take(await study.analyse(tableId, seat));
    } catch (err) {
      error = err.detail || err.message;
    } finally {
      analysing = false;
      drawPanel();
    }
  }

  function drawPanel() {
    const a = shown ? analyses.get(shown) : null;
    const result = a?.status === "done" ? a.result : null;
    // The graph is built once per result; a redraw keeps it (and its cursor).
    if (result !== graphFor) {
      graphFor = result;
      graph = result ? winGraph(result, go) : null;
      graph?.setStep(cursor);
    }
    clear(panel);
    const select = h(
      "select",
      {
        id: "analysis-seat",
        "data-testid": "analysis-seat",
        onchange: (e) => {
          chosen = e.target.value;
          if (analyses.has(chosen)) shown = chosen;
          drawPanel();
          drawNote();
        },
      },
      seats.map((x) => h("option", { value: x }, seatName(x))),
    );
    select.value = chosen;
    const busy = a && (a.status === "queued" || a.status === "running");
    panel.append(
      h("h3", {}, t("analysis.heading")),
      h("p", { class: "muted small" }, t("analysis.help")),
      h(
        "div",
        { class: "analysis-form" },
        h("label", { for: "analysis-seat" }, t("analysis.seat")),
        " ",
        select,
        " ",
        h(
          "button",
          {
            type: "button",
            class: "primary",
            "data-testid": "analyse",
            disabled: analysing || Boolean(busy && shown === chosen),
            onclick: () => analyse(chosen),
          },
          t("analysis.start"),
        ),
      ),
    );
    if (a) {
      const status = h("p", { class: "analysis-status", "data-testid": "analysis-status", "data-status": a.status, role: "status" });
      if (a.status === "queued") status.textContent = t("analysis.queued", { seat: seatName(a.seat) });
      else if (a.status === "running") status.textContent = t("analysis.running", { seat: seatName(a.seat), done: a.done ?? 0, total: a.total ?? "?" });
      else if (a.status === "failed") status.textContent = t("analysis.failed", { detail: a.error || "?" });
      else status.textContent = t("analysis.done", { seat: seatName(a.seat) });
      panel.append(status);
      if (busy) {
        panel.append(
          h("progress", {
            class: "analysis-progress",
            "data-testid": "analysis-progress",
            max: Math.max(1, a.total || 1),
            value: a.status === "running" ? a.done || 0 : 0,
            "aria-label": t("analysis.progress"),
          }),
        );
      }
    }
    if (error) panel.append(h("p", { class: "error", role: "alert", "data-testid": "analysis-error" }, error));
    if (graph) panel.append(graph.el);
  }

  /** The note at a marked decision of the analysed seat, for the frame drawn. */
  function drawNote() {
    const a = shown ? analyses.get(shown) : null;
    const d = a?.status === "done" && frameStep !== null ? markedAt(a.result, frameStep) : null;
    clear(note);
    note.hidden = !d;
    if (!d) return;
    note.dataset.mark = d.mark;
    note.append(
      h("strong", {}, t("analysis.markedStep", { n: d.step, mark: t(`analysis.mark.${d.mark}`) })),
      " — ",
      seatName(a.result.seat || shown),
      ": ",
      t("analysis.playedBetter", betterParams(d)),
    );
  }

  async function load() {
    try {
      const answer = await study.analyses(tableId);
      for (const a of answer?.analyses || []) take(a);
    } catch {
      return; // none yet, or no analyses on this server: the button still asks
    }
    const list = [...analyses.values()];
    const pickOne = list.find((a) => a.status === "done" && held.includes(a.seat)) || list.find((a) => a.status === "done") || list[0];
    if (pickOne && !shown) {
      shown = pickOne.seat;
      chosen = pickOne.seat;
    }
    drawPanel();
    drawNote();
  }

  return {
    panel,
    note,
    setStep(n) {
      cursor = n;
      graph?.setStep(n);
    },
    setFrameStep(n) {
      frameStep = n;
      drawNote();
    },
    draw() {
      graphFor = null;
      drawPanel();
      drawNote();
    },
    load,
  };
}
