// 300: Earth & Water — the board for the browser client.
//
// render(container, message, ctx) draws message.view (see games/earth_and_water/view.py):
// an SVG map of the 11 cities with roads, ports, control, armies and fleets, the campaign
// and score tracks, the reserves, deck and discard; then the move or battle under way and
// the hands. Cities and cards that match a legal action can be clicked (or focused and
// activated with Enter): one matching action is sent at once, several open a small menu.
// Every word comes from the catalogs (i18n/<lang>.json, keys `earth-and-water.*`): the
// cards' names and effects by card number and half, e.g. `earth-and-water.card.7.persia`.
//
// progress(message, t) and resultDetail(message, t) give the table page the campaign and
// the score track, the numbers the rules use.

/** The campaign and phase, for the turn line. */
export function progress(message, t) {
  const v = message && message.view;
  if (!v || !v.campaign) return "";
  const T = makeT({ t }, GAME);
  return T("progress", { n: v.campaign, phase: T.or(`phase.${v.phase}`, v.phase) });
}

/** The score track at the end (negative: Greece's side), which decides the winner. */
export function resultDetail(message, t) {
  const v = message && message.view;
  if (!v || typeof v.score !== "number") return "";
  const T = makeT({ t }, GAME);
  if (!v.score) return T("trackEven");
  return T("track", { side: T(v.score > 0 ? "persia" : "greece"), n: Math.abs(v.score) });
}

/** A card half's name: the catalog's by number, else the view's (another card set). */
function cardName(T, v, n, half) {
  const names = v.card_names || {};
  return T.or(`card.${n}.${half}`, (names[half] || [])[n] || `#${n}`);
}

import { html, makeT, svg, useStylesheet } from "./kit.js";

const GAME = "earth-and-water";
useStylesheet(new URL("./earth-and-water.css", import.meta.url));
const W = 400; // viewBox width of the map
const MAP_H = 330; // map height in the viewBox

const COLOR = {
  persia: "#a3201a", greece: "#1b4d99", neutral: "#f7f3e8",
  sea: "#bcd7ea", land: "#e9dfc4", landEdge: "#b8a77c", road: "#7a5c32",
  text: "#1d1d1d", gold: "#e0a100", battle: "#e2570b",
};

// Roughly geographic: Asia Minor east, Macedonia north, the Peloponnese south.
const CITY_POS = {
  Pella: [150, 38], Larissa: [116, 96], Delphi: [70, 160], Thebai: [150, 160],
  Eretria: [232, 128], Athenai: [214, 204], Korinthos: [118, 220], Sparta: [104, 292],
  Naxos: [290, 270], Abydos: [352, 50], Ephesos: [348, 200],
};
// Which side of the city its unit chips go (-1: to the left, for the cities near the edge).
const CHIP_SIDE = { Abydos: -1, Ephesos: -1, Naxos: 1 };
const LABEL_ABOVE = new Set(["Eretria"]);
const ROADS = [
  ["Abydos", "Ephesos"], ["Athenai", "Korinthos"], ["Athenai", "Thebai"],
  ["Delphi", "Larissa"], ["Delphi", "Thebai"], ["Korinthos", "Sparta"],
  ["Korinthos", "Thebai"], ["Larissa", "Pella"], ["Larissa", "Thebai"],
];
const BRIDGE = ["Abydos", "Pella"];
const CITY_VERBS = ["army", "fleet", "land", "sea", "to", "place", "remove", "retreat by sea",
  "retreat"];
const CARD_VERBS = ["event", "move", "react", "discard", "keep", "pick"];
// The once-a-game events the view names, and the card and half that carry each.
const ONCE_CARD = { Miltiades: [4, "greece"], Themistocles: [5, "greece"], Leonidas: [8, "greece"],
  "Artemisia I": [9, "greece"] };



// ---------------------------------------------------------------------------------------

// Text with a light halo, readable over the map and the roads.
function label(x, y, text, attrs = {}) {
  return svg("text", {
    x, y, "text-anchor": "middle", "font-size": 11, fill: COLOR.text,
    stroke: "#fffdf4", "stroke-width": 3, "paint-order": "stroke", "stroke-linejoin": "round",
    ...attrs,
  }, text);
}

function clickable(node, name, onActivate) {
  node.setAttribute("class", `${node.getAttribute("class") || ""} ew-click`.trim());
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", name);
  node.addEventListener("click", (ev) => { ev.stopPropagation(); onActivate(ev); });
  node.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); onActivate(ev); }
  });
}

// The legal actions, grouped by the city or the card they name.
function actionIndex(legal, cityNames) {
  const byCity = new Map();
  const byCard = new Map();
  for (const item of legal || []) {
    const a = item.action;
    for (const verb of CITY_VERBS) {
      if (a.startsWith(`${verb} `)) {
        const rest = a.slice(verb.length + 1);
        if (cityNames.has(rest)) {
          if (!byCity.has(rest)) byCity.set(rest, []);
          byCity.get(rest).push(item);
        }
        break;
      }
    }
    const m = /^(\w+) (\d+)$/.exec(a);
    if (m && CARD_VERBS.includes(m[1])) {
      const n = Number(m[2]);
      if (!byCard.has(n)) byCard.set(n, []);
      byCard.get(n).push(item);
    }
  }
  return { byCity, byCard };
}

// ---------------------------------------------------------------------------------------

export function render(container, message, ctx = {}) {
  const T = makeT(ctx, GAME);
  const v = message && message.view;
  container.replaceChildren();
  if (!v || !Array.isArray(v.cities)) {
    container.append(html("p", { text: T("no_view") }));
    return;
  }
  const act = typeof ctx.act === "function" ? ctx.act : () => {};
  const sideName = (s) => (s === "persia" ? T("persia") : s === "greece" ? T("greece") : s);
  const cityNames = new Set(v.cities.map((c) => c.name));
  const legal = message.your_turn && !ctx.pending ? message.legal || [] : [];
  const { byCity, byCard } = actionIndex(legal, cityNames);
  const me = v.seat || message.seat || null;

  const root = html("div", { class: "ew-board", "data-game": GAME });
  container.append(root);

  // A small menu for a city or card that matches several actions.
  let menu = null;
  const closeMenu = () => { if (menu) { menu.remove(); menu = null; } };
  const choose = (title, items, anchor) => {
    closeMenu();
    if (items.length === 1) { act(items[0].action); return; }
    menu = html("div", { class: "ew-menu", role: "menu", "data-testid": "board-menu" },
      html("b", { text: `${title} — ${T("choose")}` }));
    for (const it of items) {
      const b = html("button", { type: "button", class: "ew-primary", role: "menuitem",
        "data-action": it.action, text: it.label || it.action });
      b.addEventListener("click", (ev) => { ev.stopPropagation(); closeMenu(); act(it.action); });
      menu.append(b);
    }
    const cancel = html("button", { type: "button", text: T("cancel") });
    cancel.addEventListener("click", (ev) => { ev.stopPropagation(); closeMenu(); });
    menu.append(cancel);
    root.append(menu);
    const box = root.getBoundingClientRect();
    const r = anchor.getBoundingClientRect();
    const left = Math.max(0, Math.min(r.left - box.left, box.width - 200));
    menu.style.left = `${left}px`;
    menu.style.top = `${r.bottom - box.top + 4}px`;
    menu.querySelector("button").focus();
  };
  root.addEventListener("click", closeMenu);
  root.addEventListener("keydown", (ev) => { if (ev.key === "Escape") closeMenu(); });

  // Narrow screens get a map squeezed east-west, so that its texts stay large.
  const narrowNow = () => (root.clientWidth || window.innerWidth || 800) < 520;
  let narrow = narrowNow();
  const paint = () => {
    menu = null;
    root.replaceChildren();
    root.classList.toggle("ew-narrow", narrow);
    root.append(drawMap(v, T, sideName, byCity, choose, narrow ? 0.78 : 1));
    root.append(legend(T));
    root.append(statusPanel(v, T, sideName, message));
    const action = actionPanel(v, T, sideName);
    if (action) root.append(action);
    root.append(handsPanel(v, T, sideName, me, byCard, choose));
  };
  paint();
  if (typeof ResizeObserver === "function") {
    const watch = new ResizeObserver(() => {
      if (!root.isConnected) { watch.disconnect(); return; }
      const now = narrowNow();
      if (now !== narrow) { narrow = now; paint(); }
    });
    watch.observe(root);
  }
}

// ---------------------------------------------------------------------------------------

const TRACKS_H = 116;

function drawMap(v, T, sideName, byCity, choose, sx) {
  const MW = Math.round(W * sx);
  const H = MAP_H + TRACKS_H;
  const s = svg("svg", {
    viewBox: `0 0 ${MW} ${H}`, role: "img", "data-testid": "ew-map",
    "aria-label": `300: Earth & Water — ${T("campaign")} ${v.campaign}/5`,
  });
  s.append(svg("rect", { x: 0, y: 0, width: MW, height: MAP_H, fill: COLOR.sea }));
  // Land: Macedonia and Thessaly, central Greece, Attica, the Peloponnese, Euboea,
  // Naxos and the coast of Asia (drawn at width 400, squeezed by sx).
  const land = svg("g", { transform: `scale(${sx} 1)`, fill: COLOR.land, stroke: COLOR.landEdge,
    "stroke-width": 1.5 });
  land.append(svg("path", {
    d: "M0,0 H300 L302,14 C262,26 226,28 196,56 C182,70 176,86 180,104 L196,120 L214,148 "
      + "L250,196 L252,222 L236,232 L212,214 L184,200 L160,196 L140,206 L132,212 L150,230 "
      + "L166,244 L160,268 L146,276 L140,316 L124,304 L112,326 L96,312 L82,322 L70,292 "
      + "L58,262 L64,236 L92,214 L104,198 L70,196 L36,198 L0,206 Z",
  }));
  land.append(svg("path", {
    d: "M332,0 H400 V330 H378 L366,300 L340,284 L332,250 L324,222 L334,188 L322,160 "
      + "L338,130 L326,104 L330,76 L316,62 Z",
  }));
  land.append(svg("ellipse", { cx: 224, cy: 122, rx: 46, ry: 10, transform: "rotate(38 224 122)" }));
  land.append(svg("ellipse", { cx: 296, cy: 268, rx: 17, ry: 12 }));
  s.append(land);
  s.append(svg("text", { x: 236 * sx, y: 318, "font-size": 11, "font-style": "italic", fill: "#2f5674",
    "text-anchor": "middle" }, T("sea")));
  s.append(svg("text", { x: MW - 6, y: 322, "font-size": 11, "font-style": "italic", fill: "#5c4b26",
    "text-anchor": "end" }, T("asia")));

  const pos = (n) => {
    const p = CITY_POS[n] || [W / 2, MAP_H / 2];
    return [p[0] * sx, p[1]];
  };
  // Roads, and the bridge road over the Hellespont.
  for (const [a, b] of ROADS) {
    const [x1, y1] = pos(a);
    const [x2, y2] = pos(b);
    s.append(svg("line", { x1, y1, x2, y2, stroke: COLOR.road, "stroke-width": 3.5,
      "stroke-linecap": "round", opacity: 0.85 }));
  }
  {
    const [x1, y1] = pos(BRIDGE[0]);
    const [x2, y2] = pos(BRIDGE[1]);
    const g = svg("g", { "data-testid": "ew-bridge", "data-standing": v.bridge ? "yes" : "no" });
    if (v.bridge) {
      g.append(svg("line", { x1, y1, x2, y2, stroke: COLOR.persia, "stroke-width": 4,
        "stroke-linecap": "round" }));
      g.append(svg("line", { x1, y1, x2, y2, stroke: "#fff", "stroke-width": 1.2,
        "stroke-dasharray": "3 4" }));
    } else {
      g.append(svg("line", { x1, y1, x2, y2, stroke: "#555", "stroke-width": 1.5,
        "stroke-dasharray": "2 5" }));
    }
    g.append(label((x1 + x2) / 2, (y1 + y2) / 2 + 17,
      v.bridge ? T("bridge") : T("no_bridge"),
      { "font-size": 11, "font-style": "italic", fill: v.bridge ? COLOR.persia : "#444" }));
    s.append(g);
  }

  // The move under way: an arrow from its origin to its destination.
  const mv = v.move;
  const bt = v.battle;
  if (mv && mv.origin && mv.destination && CITY_POS[mv.origin] && CITY_POS[mv.destination]) {
    const [x1, y1] = pos(mv.origin);
    const [x2, y2] = pos(mv.destination);
    s.append(svg("defs", {}, svg("marker", {
      id: "ew-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6,
      orient: "auto-start-reverse",
    }, svg("path", { d: "M0,0 L10,5 L0,10 Z", fill: COLOR[mv.side] || "#333" }))));
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const k = (len - 17) / len;
    s.append(svg("line", { x1, y1, x2: x1 + (x2 - x1) * k, y2: y1 + (y2 - y1) * k,
      stroke: COLOR[mv.side] || "#333", "stroke-width": 3, "stroke-dasharray": "7 3",
      "marker-end": "url(#ew-arrow)", "data-testid": "ew-move-arrow" }));
  }

  for (const c of v.cities) s.append(drawCity(c, pos, T, sideName, byCity, choose, mv, bt));

  drawTracks(s, v, T, sideName, MAP_H, MW);
  return s;
}

function drawCity(c, pos, T, sideName, byCity, choose, mv, bt) {
  const [x, y] = pos(c.name);
  const g = svg("g", { "data-testid": "ew-city", "data-city": c.name,
    "data-control": c.control || "none" });
  const r = c.major ? 12 : 10;
  const items = byCity.get(c.name);
  const descr = [c.name,
    c.major ? `${T("major")} (${sideName(c.major)})` : null,
    c.port ? T("port") : null,
    `${c.amphorae} ${T("amphorae")}`,
    `${T("control")}: ${c.control ? sideName(c.control) : "—"}`,
    `${sideName("persia")}: ${c.armies.persia} ${T("armies")}, ${c.fleets.persia} ${T("fleets")}`,
    `${sideName("greece")}: ${c.armies.greece} ${T("armies")}, ${c.fleets.greece} ${T("fleets")}`,
  ].filter(Boolean).join(" · ");
  g.append(svg("title", {}, descr));

  if (bt && bt.city === c.name) {
    g.append(svg("circle", { cx: x, cy: y, r: r + 10, fill: COLOR.battle, opacity: 0.35 }));
    g.append(svg("circle", { cx: x, cy: y, r: r + 10, fill: "none", stroke: COLOR.battle,
      "stroke-width": 3, "stroke-dasharray": "5 2", "data-testid": "ew-battle-mark" }));
  }
  if (mv && (mv.origin === c.name || mv.not_from === c.name)) {
    g.append(svg("circle", { cx: x, cy: y, r: r + 6, fill: "none", stroke: COLOR[mv.side] || "#333",
      "stroke-width": 2.5, "stroke-dasharray": mv.origin === c.name ? null : "2 3" }));
  }
  if (items) {
    g.append(svg("circle", { class: "ew-ring", cx: x, cy: y, r: r + 5, fill: "#fff8",
      stroke: COLOR.gold, "stroke-width": 3 }));
  }
  const fill = c.control ? COLOR[c.control] : COLOR.neutral;
  if (c.major) {
    g.append(svg("circle", { cx: x, cy: y, r: r + 2.5, fill: "#fff", stroke: COLOR[c.major],
      "stroke-width": 2.5 }));
  }
  g.append(svg("circle", { cx: x, cy: y, r, fill, stroke: "#333", "stroke-width": 1.2 }));
  if (c.major) {
    // a star marks the major cities (2 points)
    const pts = [];
    for (let i = 0; i < 10; i += 1) {
      const rr = i % 2 ? 2.6 : 6.2;
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      pts.push(`${(x + rr * Math.cos(a)).toFixed(1)},${(y + rr * Math.sin(a)).toFixed(1)}`);
    }
    g.append(svg("polygon", { points: pts.join(" "), fill: c.control ? "#fff" : COLOR[c.major] }));
  }
  // amphorae: small dots above the city
  for (let i = 0; i < c.amphorae; i += 1) {
    g.append(svg("circle", { cx: x - (c.amphorae - 1) * 3.2 + i * 6.4, cy: y - r - 5, r: 2.3,
      fill: "#9c5a1c", stroke: "#fff", "stroke-width": 0.7 }));
  }
  if (c.port) g.append(anchor(x - r - 7, y + r - 1));
  const above = LABEL_ABOVE.has(c.name);
  g.append(label(x, above ? y - r - 10 : y + r + 14, c.name, { "font-weight": 700, "font-size": 13.5 }));

  // Unit chips: a row for Persia, a row for Greece.
  const dir = CHIP_SIDE[c.name] || 1;
  let row = 0;
  let widest = 0;
  for (const side of ["persia", "greece"]) {
    const chips = [];
    if (c.armies[side]) chips.push(["army", c.armies[side]]);
    if (c.fleets[side]) chips.push(["fleet", c.fleets[side]]);
    if (!chips.length) continue;
    const cy = y - 17 + row * 18;
    let cx = dir > 0 ? x + r + 4 : x - r - 4;
    let width = 0;
    for (const [kind, n] of chips) {
      const w = kind === "army" ? ARMY_W : FLEET_W;
      const left = dir > 0 ? cx : cx - w;
      g.append(kind === "army" ? armyChip(left, cy, n, side) : fleetChip(left, cy, n, side));
      cx += dir * (w + 2);
      width += w + 2;
    }
    widest = Math.max(widest, width);
    row += 1;
  }

  if (items) {
    if (items.length === 1) g.setAttribute("data-action", items[0].action);
    // a generous hit area: the city, its name and its units
    g.insertBefore(svg("rect", { x: x - r - 12 - (dir > 0 ? 0 : widest), y: y - r - 12,
      width: 2 * r + 24 + widest, height: 2 * r + 30, fill: "transparent" }), g.firstChild.nextSibling);
    clickable(g, `${c.name}: ${items.map((i) => i.label || i.action).join(", ")}`,
      () => choose(c.name, items, g));
  }
  return g;
}

const ARMY_W = 21;
const FLEET_W = 25;
const CHIP_H = 16;

function armyChip(x, y, n, side) {
  return svg("g", { "data-testid": "ew-army", "data-side": side, "data-count": n },
    svg("rect", { x, y, width: ARMY_W, height: CHIP_H, rx: 2.5, fill: COLOR[side], stroke: "#fff", "stroke-width": 1 }),
    svg("text", { x: x + ARMY_W / 2, y: y + 12.5, "text-anchor": "middle", "font-size": 13,
      "font-weight": 700, fill: "#fff" }, n));
}

function fleetChip(x, y, n, side) {
  const d = `M${x},${y + 1} H${x + FLEET_W} L${x + FLEET_W - 5},${y + CHIP_H} H${x + 5} Z`;
  return svg("g", { "data-testid": "ew-fleet", "data-side": side, "data-count": n },
    svg("path", { d, fill: COLOR[side], stroke: "#fff", "stroke-width": 1 }),
    svg("text", { x: x + FLEET_W / 2, y: y + 12.5, "text-anchor": "middle", "font-size": 12.5,
      "font-weight": 700, fill: "#fff" }, n));
}

function anchor(x, y) {
  return svg("g", { stroke: "#1d4f73", "stroke-width": 1.4, fill: "none", "stroke-linecap": "round" },
    svg("circle", { cx: x, cy: y - 5, r: 1.5 }),
    svg("line", { x1: x, y1: y - 3.5, x2: x, y2: y + 3 }),
    svg("line", { x1: x - 2.8, y1: y - 2, x2: x + 2.8, y2: y - 2 }),
    svg("path", { d: `M${x - 3.8},${y + 0.5} Q${x - 3.2},${y + 3.6} ${x},${y + 3.1} Q${x + 3.2},${y + 3.6} ${x + 3.8},${y + 0.5}` }));
}

function drawTracks(s, v, T, sideName, top, MW) {
  const g = svg("g", { "data-testid": "ew-tracks", "data-score": v.score, "data-campaign": v.campaign });
  g.append(svg("rect", { x: 0, y: top, width: MW, height: TRACKS_H, fill: "#f4efe1" }));
  g.append(svg("line", { x1: 0, y1: top, x2: MW, y2: top, stroke: COLOR.landEdge, "stroke-width": 1.5 }));
  const head = (x, y, text) => svg("text", { x, y, "font-size": 13, "font-weight": 700, fill: COLOR.text }, text);

  // Campaign track: 1 to 5.
  let y = top + 8;
  g.append(head(8, y + 15, T("campaign")));
  const cw0 = 30;
  for (let i = 1; i <= 5; i += 1) {
    const x = MW - 8 - (6 - i) * (cw0 + 2);
    const on = i === v.campaign;
    g.append(svg("rect", { x, y, width: cw0, height: 21, rx: 3,
      fill: on ? "#333" : i < v.campaign ? "#d8cfb8" : "#fff", stroke: "#555" }));
    g.append(svg("text", { x: x + cw0 / 2, y: y + 15.5, "text-anchor": "middle", "font-size": 13,
      "font-weight": on ? 700 : 400, fill: on ? "#fff" : "#333" }, i));
  }

  // Score track: Greece's 6 on the left, Persia's 6 on the right.
  y = top + 38;
  g.append(head(8, y + 11, T("score")));
  g.append(svg("text", { x: MW / 2 - 14, y: y + 11, "font-size": 12, fill: COLOR.greece, "font-weight": 700,
    "text-anchor": "end" }, `◀ ${sideName("greece")}`));
  g.append(svg("text", { x: MW / 2 + 14, y: y + 11, "font-size": 12, fill: COLOR.persia, "font-weight": 700 },
    `${sideName("persia")} ▶`));
  y += 16;
  const cw = (MW - 16) / 13;
  for (let i = -6; i <= 6; i += 1) {
    const x = 8 + (i + 6) * cw;
    const side = i < 0 ? "greece" : i > 0 ? "persia" : null;
    const on = i === v.score;
    g.append(svg("rect", { x: x + 1, y, width: cw - 2, height: 21, rx: 3,
      fill: on ? (side ? COLOR[side] : "#333") : side === "greece" ? "#e0e8f5" : side === "persia" ? "#f6e1df" : "#fff",
      stroke: side ? COLOR[side] : "#555", "stroke-width": on ? 2 : 1 }));
    g.append(svg("text", { x: x + cw / 2, y: y + 15.5, "text-anchor": "middle", "font-size": 12.5,
      "font-weight": on ? 700 : 400, fill: on ? "#fff" : "#333" }, Math.abs(i)));
  }

  // Reserves
  y = top + 88;
  g.append(head(8, y + 13, T("reserve")));
  let x = MW - 8;
  for (const side of ["greece", "persia"]) {
    const r = v.reserve[side];
    x -= FLEET_W;
    g.append(fleetChip(x, y, r.fleets, side));
    x -= ARMY_W + 2;
    g.append(armyChip(x, y + 0.5, r.armies, side));
    g.append(svg("text", { x: x - 4, y: y + 13, "font-size": 12.5, fill: COLOR[side], "font-weight": 700,
      "text-anchor": "end" }, sideName(side)));
    x -= sideName(side).length * 8 + 18;
  }
  s.append(g);
}

function legend(T) {
  const icon = (...children) => {
    const e = svg("svg", { viewBox: "0 0 26 18", width: 26, height: 18, "aria-hidden": "true",
      class: "ew-icon" }, ...children);
    return e;
  };
  const item = (ic, text) => html("span", { class: "ew-leg" }, ic, " ", text);
  return html("div", { class: "ew-legend", "data-testid": "ew-legend" },
    item(icon(armyChip(2, 1, "", "persia")), T("armies")),
    item(icon(fleetChip(0, 1, "", "greece")), T("fleets")),
    item(icon(anchor(13, 9)), T("port")),
    item(icon(svg("circle", { cx: 13, cy: 9, r: 3, fill: "#9c5a1c" })), T("amphorae")),
    item(icon(svg("circle", { cx: 13, cy: 9, r: 8, fill: "#fff", stroke: "#333" }),
      svg("text", { x: 13, y: 13, "text-anchor": "middle", "font-size": 11 }, "★")), T("major")),
    item(icon(svg("circle", { cx: 13, cy: 9, r: 7, fill: "none", stroke: COLOR.gold, "stroke-width": 3 })),
      T("clickable")),
  );
}

// ---------------------------------------------------------------------------------------

function statusPanel(v, T, sideName, message) {
  const p = html("div", { class: "ew-panel", "data-testid": "ew-status" });
  const phase = T.or(`phase.${v.phase}`, v.phase);
  p.append(html("span", {}, html("b", { text: `${T("phase")}: ` }), phase));
  const top1 = v.discard && v.discard.length ? v.discard[v.discard.length - 1] : null;
  p.append(html("span", {}, html("b", { text: `${T("draw_pile")}: ` }), String(v.draw_pile)));
  p.append(html("span", {}, html("b", { text: `${T("discard")}: ` }),
    String((v.discard || []).length) + (top1 ? ` (${T("top")} #${top1})` : "")));
  p.append(html("span", {}, html("b", { text: `${T("bridge_word")}: ` }),
    v.bridge ? T("bridge_up") : T("bridge_down")));
  if (v.talents !== null && v.talents !== undefined) {
    p.append(html("span", {}, html("b", { text: `${T("talents")}: ` }), String(v.talents)));
  }
  const flags = [];
  if (v.carneia) flags.push(T("flag_carneia"));
  if (v.acropolis) flags.push(T("flag_acropolis"));
  if (v.acropolis_penalty) flags.push(T("flag_acropolis_penalty"));
  if (flags.length) {
    p.append(html("span", {}, html("b", { text: `${T("in_force")}: ` }), flags.join(", ")));
  }
  if (v.kings_dead) {
    p.append(html("span", {}, html("b", { text: `${T("kings_dead")}: ` }), String(v.kings_dead)));
  }
  const pr = v.portraits || {};
  if (pr.persia || pr.greece || pr.artemisia) {
    const parts = [];
    if (pr.persia) parts.push(`${sideName("persia")} ${pr.persia} ${T("armies")}`);
    if (pr.greece) parts.push(`${sideName("greece")} ${pr.greece} ${T("armies")}`);
    if (pr.artemisia) parts.push(`${cardName(T, v, 9, "greece")} ${pr.artemisia} ${T("fleets")}`);
    p.append(html("span", {}, html("b", { text: `${T("portraits")}: ` }), parts.join(", ")));
  }
  if (v.once_used && v.once_used.length) {
    p.append(html("span", {}, html("b", { text: `${T("used")}: ` }), v.once_used.map((name) => (ONCE_CARD[name] ? cardName(T, v, ...ONCE_CARD[name]) : name)).join(", ")));
  }
  if (v.result) {
    p.append(html("span", {}, html("b", {
      text: v.result.winner ? T("winner", { side: sideName(v.result.winner) })
        : T("draw_result"),
    }), ` — ${(message && message.outcome && message.outcome.reason_text) || v.result.reason}`));
  }
  return p;
}

function actionPanel(v, T, sideName) {
  const bt = v.battle;
  const mv = v.move;
  if (bt) {
    const box = html("div", { class: "ew-box ew-battle", "data-testid": "ew-battle" });
    const head = bt.kind === "naval" ? T("naval_battle", { city: bt.city })
      : T("land_battle", { city: bt.city });
    box.append(html("h3", { text: `⚔ ${head}` }));
    const lines = [T("attacks", { side: sideName(bt.attacker) })];
    if (bt.from) lines.push(`${T("from")} ${bt.from}${bt.by_sea ? ` (${T("by_sea")})` : ""}`);
    if (bt.carried) lines.push(T("carrying", { n: bt.carried }));
    const extras = [];
    const card = (n, half) => cardName(T, v, n, half);
    if (bt.cavalry) extras.push(card(1, "persia"));
    if (bt.immortals_used) extras.push(card(5, "persia"));
    if (bt.greek_dice === 2) extras.push(card(8, "greece"));
    if (bt.greek_dice === 3) extras.push(`${card(4, "greece")} / ${card(15, "greece")}`);
    if (bt.scoring_event === 7) extras.push(card(7, "persia"));
    if (bt.scoring_event === 10) extras.push(card(10, "greece"));
    if (bt.no_retreat) extras.push(T("no_retreat"));
    if (extras.length) lines.push(extras.join(", "));
    box.append(html("div", { text: lines.join(" · ") }));
    return box;
  }
  if (mv) {
    const box = html("div", { class: "ew-box", "data-testid": "ew-move" });
    box.append(html("h3", { text: `${T("move")}: ${sideName(mv.side)}` }));
    const parts = [];
    if (mv.by) parts.push(mv.by === "sea" ? T("by_sea") : T("by_land"));
    if (mv.origin) parts.push(`${T("from")} ${mv.origin}`);
    if (mv.count) parts.push(T("units", { n: mv.count }));
    if (mv.carry) parts.push(T("carrying", { n: mv.carry }));
    if (mv.destination) parts.push(`${T("to")} ${mv.destination}`);
    if (mv.not_from) parts.push(`(≠ ${mv.not_from})`);
    box.append(html("div", { text: parts.join(" · ") || "…" }));
    return box;
  }
  return null;
}

function handsPanel(v, T, sideName, me, byCard, choose) {
  const wrap = html("div", { "data-testid": "ew-hands" });
  const order = me ? [me, me === "persia" ? "greece" : "persia"] : ["persia", "greece"];
  for (const side of order) {
    const h = v.hands[side];
    if (!h) continue;
    const box = html("div", { class: "ew-box", "data-testid": side === me ? "ew-hand" : "ew-hand-other",
      "data-side": side });
    let title = side === me ? T("your_hand") : T("hand_of", { side: sideName(side) });
    title += ` — ${h.count} ${T("cards")}`;
    if (side !== me && h.cards) title += ` (${T("revealed")})`;
    box.append(html("h3", {}, html("span", { class: `ew-swatch ew-${side}` }), title));
    if (h.cards) {
      const row = html("div", { class: "ew-hand" });
      if (!h.cards.length) row.append(html("span", { text: T("empty") }));
      for (const n of h.cards) {
        const items = byCard.get(n);
        const card = html(items ? "button" : "div", {
          class: "ew-card", "data-testid": "ew-card", "data-card": n,
          type: items ? "button" : null,
          title: items ? items.map((i) => i.label || i.action).join(", ") : null,
          "data-action": items && items.length === 1 ? items[0].action : null,
        });
        card.append(html("span", { class: "ew-num", text: `#${n}` }));
        for (const half of ["greece", "persia"]) {
          const ev = html("span", { class: `ew-ev ${half}${half === side ? " mine" : ""}` });
          ev.append(html("small", { text: half === "greece" ? T("greek_event") : T("persian_event") }));
          ev.append(html("span", { class: "ew-name", text: cardName(T, v, n, half) }));
          const effect = T.or(`card.${n}.${half}.effect`, "");
          if (effect) ev.append(html("span", { class: "ew-effect", text: effect }));
          card.append(ev);
        }
        // Any card may be played for movement instead of its event (RB 6.1).
        card.append(html("span", { class: "ew-mv", "data-testid": "ew-card-movement", text: T("movement") }));
        if (items) {
          card.addEventListener("click", (e) => {
            e.stopPropagation();
            choose(`#${n}`, items, card);
          });
        }
        row.append(card);
      }
      box.append(row);
    }
    wrap.append(box);
  }
  return wrap;
}
