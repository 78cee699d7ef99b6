// The win-chance graph of an analysed game (the `result` of GET /api/tables/{id}/analysis):
// one line per seat over the steps (0 .. N, chance steps included), the analysed seat's
// marked decisions as a dot on its line and a line across the graph, coloured by mark
// (inaccuracy, mistake, blunder), and a cursor at the step shown. Clicking the graph picks
// the step under the pointer. An inline SVG built with dom.js (the CSP allows no style
// attribute: the colours come from style.css, by seat index and by mark).

import { h, s } from "./dom.js";
import { seatName, t } from "./i18n.js";
import { percent } from "./studyapi.js";

const W = 640;
const H = 220;
const PAD_L = 50;
const PAD_R = 10;
const PAD_T = 10;
const PAD_B = 26;

/** The graph of `result`; onPick(step) when a step is clicked. Returns {el, setStep(n)}. */
export function winGraph(result, onPick) {
  const timeline = (result?.timeline || []).filter((e) => Number.isInteger(e.step));
  const seats = result?.seats || Object.keys(timeline[0]?.win || {});
  const last = Math.max(1, ...timeline.map((e) => e.step));
  const x = (step) => PAD_L + (step * (W - PAD_L - PAD_R)) / last;
  const y = (p) => PAD_T + (1 - Math.min(1, Math.max(0, p))) * (H - PAD_T - PAD_B);
  const fmt = (v) => v.toFixed(1);
  const title = t("analysis.graphTitle", { seat: seatName(result?.seat) });
  const svg = s("svg", {
    class: "win-graph",
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "aria-label": title,
    "data-testid": "win-graph",
    "data-last": String(last),
  });
  svg.append(s("title", {}, title));
  // The plot area (it takes the clicks between the lines too).
  svg.append(s("rect", { x: PAD_L, y: PAD_T, width: W - PAD_L - PAD_R, height: H - PAD_T - PAD_B, class: "wg-area" }));
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(
      s("line", { x1: PAD_L, x2: W - PAD_R, y1: fmt(y(p)), y2: fmt(y(p)), class: p === 0.5 ? "wg-grid wg-half" : "wg-grid" }),
      s("text", { x: PAD_L - 4, y: fmt(y(p) + 3.5), "text-anchor": "end", class: "wg-label" }, percent(p)),
    );
  }
  svg.append(
    s("text", { x: PAD_L, y: H - 6, class: "wg-label" }, "0"),
    s("text", { x: W - PAD_R, y: H - 6, "text-anchor": "end", class: "wg-label" }, String(last)),
  );
  seats.forEach((seat, i) => {
    const points = timeline.filter((e) => Number.isFinite(e.win?.[seat])).map((e) => `${fmt(x(e.step))},${fmt(y(e.win[seat]))}`);
    if (points.length) {
      svg.append(s("polyline", { points: points.join(" "), class: `wg-line wg-seat-${i % 4}`, "data-seat": seat }));
    }
  });
  const marked = (result?.decisions || []).filter((d) => d.mark);
  for (const d of marked) {
    const cx = fmt(x(d.step));
    svg.append(
      s("line", { x1: cx, x2: cx, y1: PAD_T, y2: H - PAD_B, class: `wg-mark wg-mark-${d.mark}` }),
      s(
        "circle",
        { cx, cy: fmt(y(d.win_played)), r: 4.5, class: `wg-dot wg-mark-${d.mark}`, "data-step": String(d.step) },
        s("title", {}, markText(d)),
      ),
    );
  }
  const cursor = s("line", { x1: PAD_L, x2: PAD_L, y1: PAD_T, y2: H - PAD_B, class: "wg-cursor", "data-testid": "graph-cursor" });
  svg.append(cursor);
  svg.addEventListener("click", (event) => {
    const ctm = svg.getScreenCTM();
    if (!ctm) return;
    const pt = new DOMPoint(event.clientX, event.clientY).matrixTransform(ctm.inverse());
    const step = Math.round(((pt.x - PAD_L) * last) / (W - PAD_L - PAD_R));
    onPick(Math.min(last, Math.max(0, step)));
  });

  const legend = h(
    "ul",
    { class: "wg-legend" },
    seats.map((seat, i) => h("li", {}, h("span", { class: `wg-swatch wg-seat-${i % 4}`, "aria-hidden": "true" }), seatName(seat))),
    marked.length ? h("li", {}, h("span", { class: "wg-swatch wg-mark-blunder", "aria-hidden": "true" }), t("analysis.mark.blunder")) : null,
    marked.length ? h("li", {}, h("span", { class: "wg-swatch wg-mark-mistake", "aria-hidden": "true" }), t("analysis.mark.mistake")) : null,
    marked.length ? h("li", {}, h("span", { class: "wg-swatch wg-mark-inaccuracy", "aria-hidden": "true" }), t("analysis.mark.inaccuracy")) : null,
  );
  const now = h("p", { class: "small wg-now", "data-testid": "graph-now", "aria-live": "polite" });
  // The marked decisions as buttons too: a way to them by keyboard and a list to read.
  const list = marked.length
    ? h(
        "ol",
        { class: "wg-marks", "data-testid": "marked-decisions" },
        marked.map((d) =>
          h(
            "li",
            {},
            h(
              "button",
              { type: "button", class: `small-button wg-jump wg-mark-${d.mark}`, "data-step": String(d.step), onclick: () => onPick(d.step) },
              t("analysis.markedStep", { n: d.step, mark: t(`analysis.mark.${d.mark}`) }),
            ),
            " ",
            h("span", { class: "small" }, t("analysis.playedBetter", betterParams(d))),
          ),
        ),
      )
    : h("p", { class: "muted small", "data-testid": "marked-decisions" }, t("analysis.noMarks", { seat: seatName(result?.seat) }));

  const el = h("div", { class: "win-graph-wrap" }, svg, legend, now, list);
  function setStep(n) {
    const cx = fmt(x(Math.min(last, Math.max(0, n))));
    cursor.setAttribute("x1", cx);
    cursor.setAttribute("x2", cx);
    svg.dataset.step = String(n);
    const entry = timeline.find((e) => e.step === n);
    now.textContent = entry
      ? t("analysis.now", {
          n,
          chances: seats
            .filter((seat) => Number.isFinite(entry.win?.[seat]))
            .map((seat) => `${seatName(seat)} ${percent(entry.win[seat])}`)
            .join(", "),
        })
      : "";
  }
  return { el, setStep };
}

function betterParams(d) {
  return { played: d.played, winPlayed: percent(d.win_played), best: d.best, winBest: percent(d.win_best) };
}

function markText(d) {
  return `${t("analysis.markedStep", { n: d.step, mark: t(`analysis.mark.${d.mark}`) })}: ${t("analysis.playedBetter", betterParams(d))}`;
}

/** The analysed seat's marked decision at step n (null when there is none). */
export function markedAt(result, n) {
  return (result?.decisions || []).find((d) => d.step === n && d.mark) || null;
}

export { betterParams };
