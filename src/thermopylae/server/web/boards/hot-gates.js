// 300: The Board Game (hot-gates) — the board for the browser client.
//
// render(container, message, ctx) draws message.view (see games/hot_gates/view.py): the
// Goat Path, Glory (and kills in the 4-player game), the Persian Camp and Reinforcement
// Boxes, rows A and B of six spaces (Coastal Plain 1-3, Hot Gates 4-6) with their units,
// the Spartan Camp; then the battle under way, the cards played in the open window and
// the hands. Units and cards that match a legal action can be clicked: a unit with one
// action sends it, a unit that can go to several spaces is selected and the spaces it can
// reach are outlined; clicking one of them sends the move (Escape or a click elsewhere
// drops the selection).
// Every word comes from the catalogs (i18n/<lang>.json, keys `hot-gates.*`): units by id,
// cards' titles by code (`hot-gates.card.s1`) and their effects by effect and amount.
//
// progress(message, t) and resultDetail(message, t) give the table page the round and
// Glory, the numbers the rules use.

/** The round and phase, for the turn line. */
export function progress(message, t) {
  const v = message && message.view;
  if (!v || !v.round) return "";
  const T = makeT({ t }, GAME);
  return T("progress", { n: v.round, phase: v.window ? windowTitle(T, v.window.name) : T.or(`phase.${v.phase}`, v.phase) });
}

/** Glory against its goal and Ephialtes on the Goat Path, which decide the game. */
export function resultDetail(message, t) {
  const v = message && message.view;
  if (!v || !v.goat_path) return "";
  const T = makeT({ t }, GAME);
  const glory = Object.entries(v.glory || {}).map(([seat, n]) => `${seatName(seat)} ${n}`).join(", ");
  return T("resultDetail", { glory, win: v.win_glory, eph: v.goat_path.space, len: v.goat_path.length });
}

function windowTitle(T, name) {
  const w = T.or(`window.${name}`, name);
  return T("cards_window", { window: w[0].toUpperCase() + w.slice(1) });
}

/** A unit's name in words, and the short label on its chip. */
function unitName(u) {
  return Tm.or(`unit.${u.unit}`, u.name);
}

/** A card's title and effect: the catalog's, else the view's (another card set). */
function cardTitle(T, c) {
  return T.or(`card.${c.code}`, c.title);
}

function cardText(T, c) {
  const many = c.amount > 1 ? T.or(`effect.${c.effect}.many`, null, { n: c.amount }) : null;
  return many || T.or(`effect.${c.effect}`, c.text, { n: c.amount });
}

import { seatName } from "../i18n.js";
import { html, makeT, svg, useStylesheet } from "./kit.js";

const GAME = "hot-gates";
useStylesheet(new URL("./hot-gates.css", import.meta.url));

// The texts of the board being drawn (set by render; the drawing helpers read it).
let Tm = makeT(null, GAME);
let boardTitle = GAME;

const COLOR = {
  persian: "#5a2a85", spartan: "#b01e1a", coastal: "#ecdfb6", gates: "#cdc6ba",
  coastalEdge: "#a8945c", gatesEdge: "#6f675c", text: "#1d1d1d", gold: "#d99a00",
  battle: "#e2570b", bg: "#f6f1e4", path: "#7b6a48",
};
const SHORT = {
  spartan: "Spa", leonidas: "Leo", stelios: "Stel", astinos: "Ast", dilios: "Dil",
  captain: "Capt", immortal: "Imm", cavalry: "Cav", infantry: "Inf", beast: "Bst",
  xerxes: "Xer", uber: "Über", general: "Gen",
};
const SIDE_OF = {
  spartan: "spartan", leonidas: "spartan", stelios: "spartan", astinos: "spartan",
  dilios: "spartan", captain: "spartan", immortal: "persian", cavalry: "persian",
  infantry: "persian", beast: "persian", xerxes: "persian", uber: "persian", general: "persian",
};
const SPECIAL = new Set(["leonidas", "stelios", "astinos", "dilios", "captain", "beast",
  "xerxes", "uber", "general"]);
// Which seat commands each row's Persians and Spartans (board.py PERSIAN_OF/SPARTAN_OF).
const PERSIAN_OF = { 2: [0, 0], 3: [0, 0], 4: [0, 1] };
const SPARTAN_OF = { 2: [1, 1], 3: [1, 2], 4: [2, 3] };



// ---------------------------------------------------------------------------------------

function clickable(node, name, onActivate) {
  node.setAttribute("class", `${node.getAttribute("class") || ""} hg-click`.trim());
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", name);
  node.addEventListener("click", (ev) => { ev.stopPropagation(); onActivate(); });
  node.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ev.stopPropagation(); onActivate(); }
  });
}

// Units of a list grouped by their code ("spartan", "spartan*"), in first-seen order.
function grouped(units) {
  const out = new Map();
  for (const u of units || []) {
    if (!out.has(u.code)) out.set(u.code, { ...u, n: 0 });
    out.get(u.code).n += 1;
  }
  return [...out.values()];
}

// The legal actions in the forms the board can offer.
function parseLegal(legal) {
  const moves = [];
  const enters = [];
  const casualties = new Map();
  const plays = new Map();
  for (const item of legal || []) {
    const a = item.action;
    let m;
    if ((m = /^move ([AB][1-6])-([AB][1-6]) (\S+)$/.exec(a))) {
      moves.push({ src: m[1], dst: m[2], code: m[3], action: a });
    } else if ((m = /^enter ([AB][1-6]) (\S+)$/.exec(a))) {
      enters.push({ dst: m[1], code: m[2], action: a });
    } else if ((m = /^casualty (\S+)$/.exec(a))) {
      casualties.set(m[1], a);
    } else if ((m = /^play (\S+)$/.exec(a))) {
      plays.set(m[1], a);
    }
  }
  return { moves, enters, casualties, plays };
}

// ---------------------------------------------------------------------------------------

export function render(container, message, ctx = {}) {
  const T = makeT(ctx, GAME);
  Tm = T;
  boardTitle = typeof ctx.t === "function" ? ctx.t(`game.${GAME}`) : GAME;
  const v = message && message.view;
  container.replaceChildren();
  if (!v || !Array.isArray(v.board)) {
    container.append(html("p", { text: T("no_view") }));
    return;
  }
  const act = typeof ctx.act === "function" ? ctx.act : () => {};
  const legal = parseLegal(message.your_turn && !ctx.pending ? message.legal || [] : []);
  const root = html("div", { class: "hg-board", "data-game": GAME });
  container.append(root);

  let selection = null; // {src: "A3" or null (a reserve), code, targets: [{dst, action}]}
  // Narrow screens get the rows upright, side by side, so that the units stay large.
  const narrowNow = () => (root.clientWidth || window.innerWidth || 800) < 520;
  let narrow = narrowNow();
  const paint = () => {
    root.replaceChildren();
    root.classList.toggle("hg-narrow", narrow);
    root.append(drawBoard(v, T, legal, selection, pick, narrow ? NARROW : WIDE));
    if (selection) {
      root.append(html("div", { class: "hg-hint", "data-testid": "hg-hint",
        text: T("choose_space", { unit: selection.code })
          + (selection.src ? ` (${selection.src})` : "") }));
    }
    root.append(...panels(v, T, legal, act, narrow, message));
  };
  // A unit (or nothing: null) was clicked.
  const pick = (choice) => {
    if (!choice) {
      if (selection) { selection = null; paint(); }
      return;
    }
    if (choice.action) { selection = null; act(choice.action); return; }
    if (choice.targets && choice.targets.length === 1) {
      selection = null;
      act(choice.targets[0].action);
      return;
    }
    const same = selection && selection.src === choice.src && selection.code === choice.code;
    selection = same ? null : choice;
    paint();
  };
  root.addEventListener("keydown", (ev) => { if (ev.key === "Escape") pick(null); });
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

// Two layouts. WIDE: rows A and B one above the other, spaces 1-6 from left (the Persian
// Camp's side) to right (the Spartan Camp's). NARROW (phones): rows A and B side by side,
// spaces 1-6 from the top (Persian Camp) down to the bottom (Spartan Camp).
const WIDE = {
  name: "wide", W: 400, spW: 58, spH: 78, chipW: 26, cols: 2,
  space(r, i, top) { return { x: 22 + i * 60 + (i >= 3 ? 10 : 0), y: top + 18 + r * 86 }; },
  boardH: 18 + 2 * 86,
};
const NARROW = {
  name: "narrow", W: 300, spW: 138, spH: 58, chipW: 42, cols: 3,
  space(r, i, top) { return { x: 12 + r * 146, y: top + 38 + i * 62 + (i >= 3 ? 24 : 0) }; },
  boardH: 38 + 6 * 62 + 24,
};
const CHIP_H = 16;

function chip(x, y, u, n, opts = {}) {
  const side = SIDE_OF[u.unit] || "persian";
  const w = opts.w || 26;
  const g = svg("g", { "data-testid": "hg-unit", "data-unit": u.code, "data-side": side });
  const fill = u.wounded ? "#fff" : COLOR[side];
  g.append(svg("rect", { x, y, width: w, height: CHIP_H, rx: 3, fill, stroke: COLOR[side], "stroke-width": 1.5 }));
  if (SPECIAL.has(u.unit)) {
    // heroes, leaders and beasts: a bar under the name
    g.append(svg("rect", { x: x + 4, y: y + CHIP_H - 3, width: w - 8, height: 1.6,
      fill: u.wounded ? COLOR[side] : "#fff" }));
  }
  if (u.wounded) {
    g.append(svg("path", { d: `M${x + w - 8},${y} H${x + w - 3} Q${x + w},${y} ${x + w},${y + 3} V${y + 8} Z`,
      fill: "#d01010" }));
  }
  if (opts.selected) {
    g.append(svg("rect", { x: x - 2, y: y - 2, width: w + 4, height: CHIP_H + 4, rx: 4, fill: "none",
      stroke: "#111", "stroke-width": 2.5, "stroke-dasharray": "3 2" }));
  }
  if (opts.clickable) {
    g.append(svg("rect", { class: "hg-hi", x: x - 1.5, y: y - 1.5, width: w + 3, height: CHIP_H + 3, rx: 4,
      fill: "none", stroke: COLOR.gold, "stroke-width": 2.5 }));
  }
  const short = Tm.or(`short.${u.unit}`, SHORT[u.unit] || u.unit.slice(0, 3));
  const label = short + (u.wounded ? "*" : "") + (n > 1 ? `×${n}` : "");
  const fs = Math.max(6.5, Math.min(11, (w - 3) / (label.length * 0.62)));
  g.append(svg("text", { x: x + w / 2, y: y + 8 + fs * 0.36, "text-anchor": "middle",
    "font-size": fs.toFixed(1), "font-weight": 700, fill: u.wounded ? COLOR[side] : "#fff" }, label));
  g.append(svg("title", {}, `${unitName(u)}${u.wounded ? ` (${Tm("wounded")})` : ""}${n > 1 ? ` ×${n}` : ""}`));
  return g;
}

function drawBoard(v, T, legal, selection, pick, L) {
  const W = L.W;
  const narrow = L.name === "narrow";
  const players = v.players;
  const seats = (v.seats || []).map(seatName);
  const mySide = v.side;
  const myRows = new Set(v.rows || []);
  const bt = v.battle && !v.battle.pull_back ? v.battle : null;
  const glory = Object.entries(v.glory || {});

  // --- header: round, Glory (and kills), the Goat Path --------------------------------
  const head = svg("g", { "data-testid": "hg-header" });
  head.append(svg("text", { x: 8, y: 16, "font-size": 13, "font-weight": 700, fill: COLOR.text },
    `${T("round")} ${v.round}`));
  let gy; // where the Goat Path's label goes
  const gloryRow = (seat, n, x, y, barX, barW, anchor) => {
    const me = seat === v.seat;
    head.append(svg("text", { x, y: y + 9, "font-size": 10.5, fill: COLOR.spartan, "font-weight": me ? 700 : 600,
      "text-anchor": anchor }, `${T("glory")} ${seatName(seat)}${me ? ` (${T("you")})` : ""}: ${n}/${v.win_glory}`));
    const by = anchor === "end" ? y + 12 : y + 2;
    head.append(svg("rect", { x: barX, y: by, width: barW, height: 7, rx: 3, fill: "#fff", stroke: "#999" }));
    head.append(svg("rect", { x: barX, y: by, width: Math.max(0, Math.min(1, n / v.win_glory)) * barW,
      height: 7, rx: 3, fill: COLOR.spartan, "data-testid": "hg-glory", "data-seat": seat, "data-glory": n }));
  };
  const kills = players === 4 ? Object.entries(v.kills || {}).map(([k, n]) => `${seatName(k)} ${n}`).join(" · ") : "";
  if (narrow) {
    if (kills) {
      head.append(svg("text", { x: W - 6, y: 16, "font-size": 10, fill: COLOR.persian, "font-weight": 600,
        "text-anchor": "end", "data-testid": "hg-kills" }, `${T("kills")}: ${kills}`));
    }
    glory.forEach(([seat, n], i) => gloryRow(seat, n, 8, 22 + i * 16, W - 8 - 96, 96, "start"));
    gy = 22 + glory.length * 16 + 12;
  } else {
    glory.forEach(([seat, n], i) => gloryRow(seat, n, W - 8, 6 + i * 24, W - 8 - 146, 146, "end"));
    if (kills) {
      head.append(svg("text", { x: W - 6, y: 60, "font-size": 9.5, fill: COLOR.persian, "font-weight": 600,
        "text-anchor": "end", "data-testid": "hg-kills" }, `${T("kills")}: ${kills}`));
    }
    gy = 34;
  }
  const gp = v.goat_path;
  head.append(svg("text", { x: 8, y: gy, "font-size": 10.5, "font-weight": 600, fill: COLOR.path },
    `${T("goat_path")} · ${T("ephialtes")} (E) ${gp.space}/${gp.length}`));
  const gpg = svg("g", { "data-testid": "hg-goat-path", "data-space": gp.space });
  const cy = gy + 16;
  for (let i = 0; i <= gp.length; i += 1) {
    const x = 17 + i * 21;
    if (i < gp.length) {
      gpg.append(svg("line", { x1: x, y1: cy, x2: x + 21, y2: cy, stroke: COLOR.path, "stroke-width": 2,
        "stroke-dasharray": "3 2" }));
    }
    const last = i === gp.length;
    gpg.append(svg("circle", { cx: x, cy, r: 8, fill: last ? "#3b2b1a" : "#fff",
      stroke: COLOR.path, "stroke-width": 1.5 }));
    if (i === gp.space) {
      gpg.append(svg("circle", { cx: x, cy, r: 8.5, fill: COLOR.persian, stroke: "#000", "stroke-width": 1 }));
      gpg.append(svg("text", { x, y: cy + 4, "text-anchor": "middle", "font-size": 10, "font-weight": 700,
        fill: "#fff" }, "E"));
    } else {
      gpg.append(svg("text", { x, y: cy + 3.5, "text-anchor": "middle", "font-size": 9,
        fill: last ? "#fff" : "#555" }, i));
    }
  }
  gpg.append(svg("title", {}, `${T("ephialtes")}: ${gp.space}/${gp.length}`
    + (gp.moves_this_round ? ` — ${T("moves_round", { n: gp.moves_this_round })}` : "")));
  head.append(gpg);
  const campY = cy + 14; // the Persian Camp's top

  // --- Persian Camp and the Reinforcement Boxes -----------------------------------------
  const reserveChoice = (u) => {
    const targets = legal.enters.filter((e) => e.code === u.code);
    return targets.length ? { src: null, code: u.code, targets } : null;
  };
  const reserveChip = (x, y, u, n, w) => {
    const choice = reserveChoice(u);
    const selected = selection && !selection.src && selection.code === u.code;
    const c = chip(x, y, u, n, { clickable: !!choice, selected, w });
    if (choice) clickable(c, `${unitName(u)}: ${choice.targets.map((t) => t.label || t.action).join(", ")}`, () => pick(choice));
    return c;
  };
  const camp = svg("g", { "data-testid": "hg-persian-side" });
  camp.append(svg("rect", { x: 4, y: campY, width: W - 8, height: 78, rx: 5, fill: "#ebe3f3", stroke: COLOR.persian,
    "stroke-width": 1 }));
  camp.append(svg("text", { x: 10, y: campY + 15, "font-size": 10.5, "font-weight": 700, fill: COLOR.persian },
    `${T("persian_camp")} (${T("leaders")}):`));
  {
    // right-aligned, clear of the label
    let x = W - 10;
    const campG = svg("g", { "data-testid": "hg-persian-camp", "data-count": v.persian_camp.length });
    for (const u of grouped(v.persian_camp).reverse()) {
      const w = u.n > 1 ? 40 : 32;
      x -= w;
      campG.append(reserveChip(x, campY + 4, u, u.n, w));
      x -= 3;
    }
    if (!v.persian_camp.length) {
      campG.append(svg("text", { x: x - 4, y: campY + 15, "font-size": 10.5, fill: "#666", "text-anchor": "end" }, "—"));
    }
    camp.append(campG);
  }
  camp.append(svg("text", { x: 10, y: campY + 34, "font-size": 10.5, "font-weight": 700, fill: COLOR.persian },
    T("boxes")));
  const nb = Math.max(v.boxes.length, 1);
  const bw = (W - 16 - (nb - 1) * 4) / nb;
  v.boxes.forEach((box, i) => {
    const x = 8 + i * (bw + 4);
    const y = campY + 38;
    const g = svg("g", { "data-testid": "hg-box", "data-box": i + 1, "data-count": box.length });
    g.append(svg("rect", { x, y, width: bw, height: 37, rx: 3, fill: "#fff", stroke: COLOR.persian,
      "stroke-dasharray": "3 2" }));
    g.append(svg("text", { x: x + 2.5, y: y + 10, "font-size": 8.5, "font-weight": 700, fill: COLOR.persian }, i + 1));
    const units = grouped(box).slice(0, 4);
    const cols = units.length > 1 ? 2 : 1;
    const cw = Math.min(46, (bw - 12 - (cols - 1) * 2) / cols);
    units.forEach((u, k) => {
      g.append(reserveChip(x + 9 + (k % cols) * (cw + 2), y + 2 + Math.floor(k / cols) * 17, u, u.n, cw));
    });
    camp.append(g);
  });

  // --- the two rows -----------------------------------------------------------------------
  const top = campY + 84;
  const rowsG = svg("g", { "data-testid": "hg-rows" });
  const spaceAt = (name) => L.space(name[0] === "A" ? 0 : 1, Number(name[1]) - 1, top);
  const zoneLabel = (x, y, text, fill, anchor = "middle") => rowsG.append(svg("text", { x, y,
    "text-anchor": anchor, "font-size": 10.5, "font-weight": 700, fill }, text));
  const coastal = `${T("coastal_plain")} (1-3)`;
  const gates = `${T("hot_gates")} (4-6)`;
  if (narrow) {
    zoneLabel(W / 2, top + 30, coastal, "#7a6630");
    const s4 = spaceAt("A4");
    zoneLabel(W / 2, s4.y - 5, gates, "#4d463d");
    // the narrow entrance: rocks between spaces 3 and 4, across both rows
    let d = `M6,${s4.y - 19}`;
    for (let x = 6, k = 0; x < W - 6; x += 8, k += 1) d += ` L${x + 8},${s4.y - 19 + (k % 2 ? 3 : -3)}`;
    rowsG.append(svg("path", { d, fill: "none", stroke: "#5b4f3d", "stroke-width": 3, "stroke-linejoin": "round" }));
  } else {
    const a1 = spaceAt("A1");
    const a4 = spaceAt("A4");
    zoneLabel(a1.x + (3 * 60 - 2) / 2, top + 11, coastal, "#7a6630");
    zoneLabel(a4.x + (3 * 60 - 2) / 2, top + 11, gates, "#4d463d");
    const x = a4.x - 6;
    let d = `M${x},${a1.y - 6}`;
    for (let y = a1.y - 6, k = 0; y < a1.y + 2 * 86; y += 8, k += 1) d += ` L${x + (k % 2 ? 3 : -3)},${y + 8}`;
    rowsG.append(svg("path", { d, fill: "none", stroke: "#5b4f3d", "stroke-width": 3, "stroke-linejoin": "round" }));
  }

  const dests = new Set(selection ? selection.targets.map((t) => t.dst) : []);
  ["A", "B"].forEach((row, r) => {
    const mine = myRows.has(row);
    const first = L.space(r, 0, top);
    const tag = svg("g", { "data-testid": "hg-row", "data-row": row, "data-mine": mine ? "yes" : "no" });
    const box = narrow ? { x: first.x, y: top + 2, width: L.spW, height: 16 }
      : { x: 2, y: first.y + 20, width: 16, height: 30 };
    tag.append(svg("rect", { ...box, rx: 4, fill: mine ? (COLOR[mySide] || "#333") : "#ddd" }));
    let text = row;
    if (narrow && players > 2) text = `${row}: ${seats[PERSIAN_OF[players][r]]} / ${seats[SPARTAN_OF[players][r]]}`;
    else if (narrow) text = `${T("row")} ${row}`;
    tag.append(svg("text", { x: box.x + box.width / 2, y: box.y + box.height / 2 + 4.5, "text-anchor": "middle",
      "font-size": narrow ? 11 : 13, "font-weight": 700, fill: mine ? "#fff" : "#333" }, text));
    if (players > 2) {
      tag.append(svg("title", {}, `${T("row")} ${row}: ${seats[PERSIAN_OF[players][r]]} / ${seats[SPARTAN_OF[players][r]]}`));
    }
    rowsG.append(tag);
    v.board.filter((sp) => sp.space[0] === row).forEach((sp, i) => {
      const at = L.space(r, i, top);
      rowsG.append(drawSpace(sp, at.x, at.y, { T, legal, selection, pick, bt, dests, mySide, L }));
    });
  });
  if (bt) {
    // crossed swords on the border between the two battle spaces
    const a = spaceAt(bt.persian_space);
    const b = spaceAt(bt.spartan_space);
    let cx;
    let cy2;
    if (narrow) {
      cx = (a.x + b.x) / 2 + L.spW / 2;
      cy2 = (a.y + b.y) / 2 + L.spH / 2 + 2;
    } else {
      cx = (a.x + b.x) / 2 + L.spW / 2;
      cy2 = (a.y + b.y) / 2 + L.spH + 2;
    }
    const sw = svg("g", { "data-testid": "hg-battle-mark" });
    sw.append(svg("circle", { cx, cy: cy2, r: 8.5, fill: COLOR.battle, stroke: "#fff", "stroke-width": 1.5 }));
    sw.append(svg("text", { x: cx, y: cy2 + 4, "text-anchor": "middle", "font-size": 11, fill: "#fff" }, "⚔"));
    rowsG.append(sw);
  }

  // --- Spartan Camp, pulled back, eliminated ------------------------------------------
  const by = top + L.boardH + 4;
  const sg = svg("g", { "data-testid": "hg-spartan-side" });
  sg.append(svg("rect", { x: 4, y: by, width: W - 8, height: 58, rx: 5, fill: "#f6e2df", stroke: COLOR.spartan,
    "stroke-width": 1 }));
  sg.append(svg("text", { x: 10, y: by + 13, "font-size": 10.5, "font-weight": 700, fill: COLOR.spartan },
    `${T("spartan_camp")}: ${v.spartan_camp.length}`));
  {
    const g = svg("g", { "data-testid": "hg-spartan-camp", "data-count": v.spartan_camp.length });
    let x = 10;
    for (const u of grouped(v.spartan_camp)) {
      const w = u.n > 1 ? 44 : 34;
      g.append(reserveChip(x, by + 18, u, u.n, w));
      x += w + 3;
    }
    sg.append(g);
  }
  if (v.pulled_back && v.pulled_back.length) {
    const px = W / 2;
    sg.append(svg("text", { x: px, y: by + 13, "font-size": 10.5, "font-weight": 700, fill: COLOR.text },
      T("pulled_back")));
    let x = px;
    for (const u of grouped(v.pulled_back)) {
      const w = u.n > 1 ? 44 : 34;
      sg.append(reserveChip(x, by + 18, u, u.n, w));
      x += w + 3;
    }
  }
  const deadP = (v.eliminated || []).filter((u) => SIDE_OF[u.unit] === "persian").length; // Leaders
  const deadS = (v.eliminated || []).length - deadP;
  // `eliminated` holds what leaves the game for good: Spartan units and Persian Leaders.
  // Other Persians go to a Reinforcement Box and come back (RB "Casualties").
  sg.append(svg("text", { x: 10, y: by + 50, "font-size": 10, fill: "#333", "data-testid": "hg-out",
    "data-spartans": deadS, "data-leaders": deadP }, T("out", { s: deadS, p: deadP }),
  svg("title", {}, T("outNote"))));
  if (v.extra_marches && Object.keys(v.extra_marches).length) {
    sg.append(svg("text", { x: W - 10, y: by + 50, "font-size": 10, fill: "#333", "text-anchor": "end" },
      `${T("extra")}: ${Object.entries(v.extra_marches).map(([k, n]) => `${seatName(k)} ${n}`).join(", ")}`));
  }

  const H = by + 62;
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "data-testid": "hg-board",
    "data-layout": L.name, "aria-label": boardTitle });
  s.addEventListener("click", () => pick(null));
  s.append(svg("rect", { x: 0, y: 0, width: W, height: H, fill: COLOR.bg }));
  s.append(head, camp, rowsG, sg);
  return s;
}

function drawSpace(sp, x, y, o) {
  const { T, legal, selection, pick, bt, dests, mySide, L } = o;
  const W = L.spW;
  const H = L.spH;
  const narrow = L.name === "narrow";
  const gates = sp.zone === "hot gates";
  const g = svg("g", { "data-testid": "hg-space", "data-space": sp.space, "data-load": sp.load,
    "data-side": sp.side || "none" });
  const inBattle = bt && (bt.persian_space === sp.space || bt.spartan_space === sp.space);
  g.append(svg("rect", { x, y, width: W, height: H, rx: 4,
    fill: gates ? COLOR.gates : COLOR.coastal,
    stroke: inBattle ? COLOR.battle : gates ? COLOR.gatesEdge : COLOR.coastalEdge,
    "stroke-width": inBattle ? 3 : 1.2 }));
  g.append(svg("text", { x: x + 4, y: y + 12, "font-size": 11, "font-weight": 700, fill: COLOR.text }, sp.space));
  const full = sp.load >= sp.capacity;
  g.append(svg("text", { x: x + W - 4, y: y + 12, "text-anchor": "end", "font-size": 10.5,
    fill: full ? "#8a1010" : "#333", "font-weight": full ? 700 : 400 }, `${sp.load}/${sp.capacity}`));
  if (sp.bonus) {
    const bx = narrow ? x + 40 : x + W / 2;
    const byy = narrow ? y + 7 : y;
    g.append(svg("rect", { x: bx - 12, y: byy - 6, width: 24, height: 12, rx: 6, fill: COLOR.gold,
      stroke: "#fff", "stroke-width": 1, "data-testid": "hg-bonus" }));
    g.append(svg("text", { x: bx, y: byy + 3.5, "text-anchor": "middle", "font-size": 9,
      "font-weight": 700, fill: "#201800" }, `+${sp.bonus}`));
  }
  if (gates && sp.persians_entered) {
    const fx = narrow ? x + 30 : x + 22;
    g.append(svg("path", { d: `M${fx},${y + 3} v10 M${fx},${y + 3} l8,3 l-8,3`, stroke: COLOR.persian,
      "stroke-width": 1.5, fill: COLOR.persian }));
  }
  const isDest = dests.has(sp.space);
  if (isDest) {
    g.append(svg("rect", { class: "hg-hi", x: x - 1, y: y - 1, width: W + 2, height: H + 2, rx: 5,
      fill: "#ffffff55", stroke: COLOR.gold, "stroke-width": 3, "stroke-dasharray": "6 3" }));
  }
  // the units, in a grid
  const myBattleSpace = bt && (mySide === "persian" ? bt.persian_space : bt.spartan_space);
  sp.units.forEach((u, k) => {
    const cx = x + 2 + (k % L.cols) * (L.chipW + 2);
    const cy = y + 17 + Math.floor(k / L.cols) * (CHIP_H + 3);
    const targets = legal.moves.filter((m) => m.src === sp.space && m.code === u.code)
      .map((m) => ({ dst: m.dst, action: m.action }));
    const casualty = myBattleSpace === sp.space ? legal.casualties.get(u.code) : null;
    const selected = selection && selection.src === sp.space && selection.code === u.code;
    const c = chip(cx, cy, u, 1, { clickable: !!(targets.length || casualty), selected, w: L.chipW });
    if (casualty) {
      c.setAttribute("data-action", casualty);
      clickable(c, casualty, () => pick({ action: casualty }));
    } else if (targets.length && !isDest) {
      clickable(c, `${unitName(u)}: ${targets.map((t) => t.label || t.action).join(", ")}`,
        () => pick({ src: sp.space, code: u.code, targets }));
    }
    g.append(c);
  });
  if (sp.moved) {
    g.append(svg("text", { x: x + W - 3, y: y + H - 3, "text-anchor": "end", "font-size": 8.5,
      fill: "#444" }, `✓${sp.moved}`));
  }
  const title = [`${sp.space} — ${gates ? T("hot_gates") : T("coastal_plain")}`,
    `${sp.load}/${sp.capacity}`, sp.bonus ? `+${sp.bonus} ${T("glory")}` : null].filter(Boolean).join(" · ");
  g.append(svg("title", {}, title));
  if (isDest) {
    const target = selection.targets.find((t) => t.dst === sp.space);
    clickable(g, target.action, () => pick({ action: target.action }));
  }
  return g;
}

// ---------------------------------------------------------------------------------------

function sideOfSeat(seat) { return seat && seat.startsWith("persia") ? "persian" : "spartan"; }

function panels(v, T, legal, act, narrow, message) {
  const out = [];
  const bt = v.battle;
  if (v.players > 2 && !narrow) {
    const seats = (v.seats || []).map(seatName);
    out.push(html("div", { class: "hg-muted hg-commanders", "data-testid": "hg-commanders" },
      ["A", "B"].map((row, r) => `${T("row")} ${row}: ${seats[PERSIAN_OF[v.players][r]]} / `
        + `${seats[SPARTAN_OF[v.players][r]]}`).join(" · ")));
  }
  if (v.breach) {
    out.push(html("div", { class: "hg-box hg-warn", "data-testid": "hg-breach",
      text: T("breach") }));
  }
  if (bt && bt.pull_back) {
    out.push(html("div", { class: "hg-box", text: T("pull_back", { row: bt.row }) }));
  } else if (bt) {
    const box = html("div", { class: "hg-box hg-battle", "data-testid": "hg-battle" });
    box.append(html("h3", { text: `⚔ ${T("battle_in", { row: bt.row })}` }));
    for (const [side, key, space] of [["persian", 0, bt.persian_space], ["spartan", 1, bt.spartan_space]]) {
      const line = html("div", { class: "hg-side" });
      line.append(html("span", { class: `hg-tag ${side}`,
        text: side === "persian" ? T("persians") : T("spartans") }));
      let info = ` ${space} · ${T("attack")} ${bt.attack[side]}`;
      if (side === "persian" && bt.narrow_entrance) info += ` (${T("narrow")})`;
      const bonus = [];
      if (bt.bonus.attack[key]) bonus.push(`+${bt.bonus.attack[key]} ${T("attack")}`);
      if (bt.bonus.dice[key]) bonus.push(`+${bt.bonus.dice[key]} ${T("dice")}`);
      if (bt.bonus.damage[key]) bonus.push(`+${bt.bonus.damage[key]} ${T("damage")}`);
      if (bt.bonus.shield[key]) bonus.push(`${T("shield")} ${bt.bonus.shield[key]}`);
      if (bonus.length) info += ` · ${T("bonus")}: ${bonus.join(", ")}`;
      line.append(info);
      const dice = bt.dice[side] || [];
      if (dice.length) {
        line.append(html("span", { text: ` · ${T("dice")}:` }));
        for (const d of dice) line.append(html("span", { class: `hg-die ${side}`, "data-testid": "hg-die", text: d }));
      }
      if (bt.damage_left) {
        line.append(html("b", { text: ` · ${T("damage_left")}: ${bt.damage_left[side]}` }));
      }
      box.append(line);
    }
    if (bt.conquer) {
      box.append(html("div", { text: T("conquer", {
        side: bt.conquer.side === "persian" ? T("persians") : T("spartans"),
        stage: T.or(`stage.${bt.conquer.stage}`, bt.conquer.stage) }) }));
    }
    out.push(box);
  }
  if (v.window) {
    const box = html("div", { class: "hg-box", "data-testid": "hg-window" });
    box.append(html("h3", { text: windowTitle(T, v.window.name) }));
    if (!v.window.played.length) box.append(html("div", { class: "hg-muted", text: T("none_played") }));
    for (const p of v.window.played) {
      const line = html("div", { class: `hg-played${p.cancelled ? " cancelled" : ""}` });
      line.append(html("span", { class: `hg-tag ${sideOfSeat(p.seat)}`, text: seatName(p.seat) }), " ");
      line.append(html("b", { text: `${p.card.code} ${cardTitle(T, p.card)}` }), `: ${cardText(T, p.card)}`);
      if (p.cancelled) line.append(` (${T("cancelled")})`);
      box.append(line);
    }
    out.push(box);
  }
  // hands: mine first, with the cards; the others as counts
  const handBox = html("div", { class: "hg-box", "data-testid": "hg-hands" });
  const mine = (v.hands || []).find((h) => h.cards);
  if (mine && v.seat) {
    handBox.append(html("h3", { text: `${T("your_hand")} (${seatName(mine.seat)}) — ${mine.count}` }));
    const row = html("div", { class: "hg-hand", "data-testid": "hg-hand" });
    if (!mine.cards.length) row.append(html("span", { class: "hg-muted", text: T("empty") }));
    for (const c of mine.cards) {
      const action = legal.plays.get(c.code);
      const side = c.code.startsWith("p") ? "persian" : "spartan";
      const card = html(action ? "button" : "div", { class: `hg-card ${side}`, "data-testid": "hg-card",
        "data-card": c.code, type: action ? "button" : null, title: action || null,
        "data-action": action || null });
      card.append(html("span", { class: "hg-head" },
        html("span", { text: c.code }), html("span", { text: T.or(`window.${c.window}`, c.window) })));
      card.append(html("span", { class: "hg-title", text: cardTitle(T, c) }));
      card.append(html("span", { class: "hg-text", text: cardText(T, c) }));
      if (action) card.addEventListener("click", (e) => { e.stopPropagation(); act(action); });
      row.append(card);
    }
    handBox.append(row);
  }
  const others = html("div", { class: "hg-muted hg-others" });
  const parts = [];
  for (const h of v.hands || []) {
    const deck = (v.decks || {})[h.seat];
    const disc = ((v.discards || {})[h.seat] || []).length;
    parts.push(`${T("hand_of", { seat: seatName(h.seat), n: h.count })}, `
      + `${T("deck", { n: deck })}, ${T("discard", { n: disc })}`);
  }
  others.append(parts.join(" · "));
  handBox.append(others);
  out.push(handBox);
  if (v.result) {
    out.push(html("div", { class: "hg-box", "data-testid": "hg-result",
      text: `${T("winners", { who: v.result.winners.map(seatName).join(", ") })} — ${(message && message.outcome && message.outcome.reason_text) || v.result.reason}` }));
  }
  return out;
}
