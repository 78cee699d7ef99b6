// A rating's history as a small inline SVG (no library, no style attribute: the strict CSP
// allows neither inline styles nor foreign scripts; the colours come from style.css): the
// rating (mu) after each rated game as a line, its deviation (mu ± sigma) as a band
// around it, the lowest and highest values on the left, one step per game from left to
// right (games, not dates: a month without games takes no room).

import { s } from "./dom.js";
import { t } from "./i18n.js";

const W = 320;
const H = 120;
const PAD_L = 34;
const PAD_R = 6;
const PAD_Y = 10;

/** The plot of `history` ([{mu, sigma, at}], oldest first), titled `title`. */
export function ratingPlot(history, title) {
  const points = (history || []).filter((p) => Number.isFinite(p.mu) && Number.isFinite(p.sigma));
  const svg = s("svg", {
    class: "rating-plot",
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "aria-label": title,
    "data-testid": "rating-plot",
    "data-points": String(points.length),
  });
  svg.append(s("title", {}, title));
  if (!points.length) {
    svg.append(s("text", { x: W / 2, y: H / 2, "text-anchor": "middle", class: "plot-empty" }, t("player.noHistory")));
    return svg;
  }
  const lo = Math.min(...points.map((p) => p.mu - p.sigma));
  const hi = Math.max(...points.map((p) => p.mu + p.sigma));
  const span = hi - lo || 1;
  const x = (i) => PAD_L + (points.length === 1 ? (W - PAD_L - PAD_R) / 2 : (i * (W - PAD_L - PAD_R)) / (points.length - 1));
  const y = (v) => PAD_Y + ((hi - v) * (H - 2 * PAD_Y)) / span;
  const fmt = (v) => v.toFixed(1);
  const upper = points.map((p, i) => `${fmt(x(i))},${fmt(y(p.mu + p.sigma))}`);
  const lower = points.map((p, i) => `${fmt(x(i))},${fmt(y(p.mu - p.sigma))}`).reverse();
  svg.append(
    s("line", { x1: PAD_L, y1: PAD_Y, x2: PAD_L, y2: H - PAD_Y, class: "plot-axis" }),
    s("line", { x1: PAD_L, y1: H - PAD_Y, x2: W - PAD_R, y2: H - PAD_Y, class: "plot-axis" }),
    s("text", { x: PAD_L - 4, y: PAD_Y + 4, "text-anchor": "end", class: "plot-label" }, hi.toFixed(0)),
    s("text", { x: PAD_L - 4, y: H - PAD_Y, "text-anchor": "end", class: "plot-label" }, lo.toFixed(0)),
    s("polygon", { points: [...upper, ...lower].join(" "), class: "plot-band" }),
    s("polyline", { points: points.map((p, i) => `${fmt(x(i))},${fmt(y(p.mu))}`).join(" "), class: "plot-line" }),
  );
  for (const [i, p] of points.entries()) {
    svg.append(
      s("line", { x1: fmt(x(i)), x2: fmt(x(i)), y1: fmt(y(p.mu + p.sigma)), y2: fmt(y(p.mu - p.sigma)), class: "plot-err" }),
      s("circle", { cx: fmt(x(i)), cy: fmt(y(p.mu)), r: 2.5, class: "plot-dot" }, s("title", {}, `${p.mu.toFixed(1)} ± ${p.sigma.toFixed(1)}`)),
    );
  }
  return svg;
}

/** A rating in the pages' one format: "25.3 ± 4.1". */
export function ratingText(mu, sigma) {
  return `${Number(mu).toFixed(1)} ± ${Number(sigma).toFixed(1)}`;
}
