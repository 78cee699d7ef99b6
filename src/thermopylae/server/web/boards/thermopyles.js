// The Thermopyles board: the pass (7 locations and the battle marker), the two Persian
// slots, the support cards, the piles, the hands and the fight in progress.
//
// render(container, message, ctx): ctx = {t, act(actionText), seat, legal, pending}.
// Clickable: the hand's cards (fight N [support K] with the chosen support, or discard N),
// the location to retreat to, "give pN" on the players. Everything else is in the action
// buttons of the table page too.
//
// progress(message, t) and resultDetail(message, t) give the table page the turn and the
// graveyard, in the rules' words.

import { h, s } from "../dom.js";

const DIE_FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

// This board's stylesheet, added to the page once.
const CSS = new URL("./thermopyles.css", import.meta.url).href;
if (!document.querySelector(`link[href="${CSS}"]`)) {
  document.head.append(h("link", { rel: "stylesheet", href: CSS }));
}

/** The turn, for the turn line. */
export function progress(message, t) {
  const v = message && message.view;
  return v && typeof v.turn === "number" ? t("th.progress", { n: v.turn + 1 }) : "";
}

/** How far the Spartans got: the graveyard (12 to win) and the battle marker. */
export function resultDetail(message, t) {
  const v = message && message.view;
  if (!v || !Array.isArray(v.graveyard)) return "";
  return t("th.resultDetail", { n: v.graveyard.length, marker: v.marker ?? "?" });
}

/** A location's name: the catalog's by number, else the view's. */
function locationName(t, loc) {
  const key = `th.locName.${loc.number}`;
  const text = t(key);
  return text !== key ? text : loc.name;
}

// The support chosen for the next fight; back to 0 on every new decision.
let chosenSupport = 0;
let chosenAt = null;

export function render(container, message, ctx) {
  const v = message.view || {};
  const t = ctx.t;
  const legal = new Set((ctx.legal || []).map((a) => a.action));
  const key = `${message.table}/${message.move}/${message.seat}`;
  if (chosenAt !== key) {
    chosenAt = key;
    chosenSupport = 0;
  }
  const redraw = () => {
    container.replaceChildren();
    render(container, message, ctx);
  };
  const act = (action) => {
    if (!ctx.pending && legal.has(action)) ctx.act(action);
  };

  container.append(
    h(
      "div",
      { class: "th-board" },
      status(v, t),
      pass(v, t, legal, act),
      h("div", { class: "th-row" }, slots(v, t), h("div", { class: "th-col" }, fight(v, t), supportCards(v, t))),
      hand(v, t, ctx, legal, act, redraw),
      players(v, t, ctx, legal, act),
      piles(v, t),
    ),
  );
}

function status(v, t) {
  const phase = v.phase ? t(`th.phase.${v.phase}`) : "";
  return h(
    "div",
    { class: "th-status", "data-testid": "th-status" },
    h("span", {}, t("th.status", { turn: (v.turn ?? 0) + 1, active: v.active ?? "?" })),
    " · ",
    h("span", {}, t("th.phase", { phase })),
    v.recipient ? [" · ", h("span", {}, t("th.recipient", { seat: v.recipient }))] : null,
    v.draws ? [" · ", h("span", {}, t("th.draws", { n: v.draws }))] : null,
  );
}

// -- the pass ------------------------------------------------------------------------------

function dieIcon(x, y) {
  return s(
    "g",
    { class: "th-die-icon", transform: `translate(${x} ${y})`, "aria-hidden": "true" },
    s("rect", { x: 0, y: 0, width: 22, height: 22, rx: 4 }),
    s("circle", { cx: 6, cy: 6, r: 2.2 }),
    s("circle", { cx: 11, cy: 11, r: 2.2 }),
    s("circle", { cx: 16, cy: 16, r: 2.2 }),
  );
}

function pass(v, t, legal, act) {
  const locations = v.locations?.length ? v.locations : [1, 2, 3, 4, 5, 6, 7].map((n) => ({ number: n, die: n === 3 || n === 6 }));
  const n = locations.length;
  const step = 100;
  const width = step * n;
  const y = 92;
  const xOf = (i) => step / 2 + i * step;
  const marker = v.marker ?? 1;
  const svg = s(
    "svg",
    {
      class: "th-map",
      viewBox: `0 0 ${width} 165`,
      role: "group",
      "aria-label": t("th.mapLabel", { n: marker }),
      "data-testid": "th-map",
    },
    s("title", {}, t("th.mapLabel", { n: marker })),
    s("path", { class: "th-road", d: `M ${xOf(0)} ${y} L ${xOf(n - 1)} ${y}` }),
    s(
      "g",
      { class: "th-direction", "aria-hidden": "true" },
      s("text", { x: xOf(0) - 30, y: y + 62, class: "th-dir-text" }, `${t("th.retreatDir")} →`),
    ),
  );
  locations.forEach((loc, i) => {
    const num = loc.number ?? i + 1;
    const last = i === n - 1;
    const here = num === marker;
    const retreatTo = legal.has("retreat") && num === marker + 1;
    const g = s("g", {
      class: ["th-loc", here ? "th-here" : "", last ? "th-fall" : "", retreatTo ? "th-target" : ""].join(" "),
      "data-location": num,
    });
    g.append(
      s("circle", { class: "th-spot", cx: xOf(i), cy: y, r: 33 }),
      s("text", { x: xOf(i), y: y + 10, class: "th-loc-num", "text-anchor": "middle" }, String(num)),
    );
    if (loc.die) g.append(dieIcon(xOf(i) + 20, y - 52));
    if (last) g.append(s("text", { x: xOf(i), y: y + 58, class: "th-fall-text", "text-anchor": "middle" }, "✕"));
    if (here) {
      g.append(
        s(
          "g",
          { class: "th-marker", "data-testid": "marker", "aria-label": t("th.marker") },
          s("title", {}, `${t("th.marker")}: ${t("th.location", { n: num })}`),
          s("path", {
            d: `M ${xOf(i) - 16} ${y - 62} h 32 v 14 q 0 16 -16 24 q -16 -8 -16 -24 z`,
          }),
          s("text", { x: xOf(i), y: y - 40, "text-anchor": "middle" }, "Λ"),
        ),
      );
    }
    if (retreatTo) {
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "0");
      g.setAttribute("data-action", "retreat");
      g.setAttribute("aria-label", t("th.retreatHere", { n: num }));
      g.append(s("title", {}, t("th.retreatHere", { n: num })));
      g.addEventListener("click", () => act("retreat"));
      g.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          act("retreat");
        }
      });
    }
    svg.append(g);
  });
  const notes = locations
    .filter((loc, i) => loc.die || i === n - 1 || (loc.name && !/^Location \d+$/.test(loc.name)))
    .map((loc) => {
      const num = loc.number;
      const bits = [];
      if (loc.name && !/^Location \d+$/.test(loc.name)) bits.push(locationName(t, loc));
      if (loc.die) bits.push(t("th.dieHere"));
      if (num === locations[n - 1].number) bits.push(t("th.fall"));
      return h("li", {}, h("strong", {}, `${num}`), " ", bits.join(", "));
    });
  return h(
    "section",
    { class: "th-pass", "aria-labelledby": "th-pass-h" },
    h("h4", { id: "th-pass-h" }, t("th.map")),
    svg,
    h("ul", { class: "th-loc-notes" }, notes),
  );
}

// -- the Persian slots, the fight, the support ------------------------------------------------

function persianCard(card, index, t) {
  const name = t("th.slot", { n: index + 1 });
  if (!card) {
    return h(
      "div",
      { class: "th-pcard th-empty", "data-testid": `slot-${index + 1}` },
      h("div", { class: "th-slot-name" }, name),
      h("div", { class: "th-empty-text" }, t("th.empty")),
    );
  }
  const label = `${name}: ${t("th.combat")} ${card.combat}, ${t("th.annihilation")} ${card.annihilation}` +
    (card.bonus ? `, ${t("th.bonus")}` : "");
  return h(
    "div",
    { class: "th-pcard", "data-testid": `slot-${index + 1}`, "data-card": card.text, role: "group", "aria-label": label },
    h("div", { class: "th-slot-name" }, name),
    h(
      "div",
      { class: "th-values" },
      h("span", { class: "th-combat" }, h("span", { class: "th-big" }, String(card.combat)), h("span", { class: "th-small" }, t("th.combat"))),
      h("span", { class: "th-ann" }, h("span", { class: "th-big" }, String(card.annihilation)), h("span", { class: "th-small" }, t("th.annihilation"))),
    ),
    card.bonus ? h("div", { class: "th-bonus" }, t("th.bonus")) : null,
  );
}

function slots(v, t) {
  const list = v.slots || [null, null];
  return h(
    "section",
    { class: "th-slots-wrap", "aria-labelledby": "th-slots-h" },
    h("h4", { id: "th-slots-h" }, t("th.slots")),
    h("div", { class: "th-slots" }, list.map((c, i) => persianCard(c, i, t))),
  );
}

function fight(v, t) {
  const f = v.fight;
  if (!f) return null;
  const dice = (f.dice || []).map((d) => `${DIE_FACES[d] || ""}${d}`).join(" ") || "—";
  return h(
    "section",
    { class: "th-fight", "data-testid": "fight", "aria-labelledby": "th-fight-h", "aria-live": "polite" },
    h("h4", { id: "th-fight-h" }, t("th.fight")),
    h("p", {}, t("th.fightLine", { card: f.card, support: f.support, dice, total: f.total })),
    f.location_die ? h("p", { class: "muted" }, t("th.locationDie")) : null,
  );
}

function supportCards(v, t) {
  const total = v.support_total ?? 4;
  const left = v.support ?? 0;
  const cards = [];
  for (let i = 0; i < total; i++) cards.push(h("span", { class: `th-support-card ${i < left ? "th-up" : "th-used"}`, "aria-hidden": "true" }, "Λ"));
  return h(
    "section",
    { class: "th-support", "data-testid": "support", "aria-labelledby": "th-support-h" },
    h("h4", { id: "th-support-h" }, t("th.support")),
    h("div", { class: "th-support-cards" }, cards),
    h("p", { class: "small" }, t("th.supportLeft", { n: left, total })),
  );
}

// -- hands -----------------------------------------------------------------------------------

function seatIndex(v, seat) {
  return (v.hands || []).findIndex((x) => x.seat === seat);
}

function hand(v, t, ctx, legal, act, redraw) {
  const mine = ctx.seat ? (v.hands || [])[seatIndex(v, ctx.seat)] : null;
  if (!mine) {
    return h(
      "section",
      { class: "th-hand", "data-testid": "hand", "aria-labelledby": "th-hand-h" },
      h("h4", { id: "th-hand-h" }, t("th.handSpectator")),
      h("p", { class: "muted" }, t("th.noHandSpectator")),
    );
  }
  // The fights on offer: card -> supports.
  const fights = new Map();
  let maxSupport = 0;
  for (const a of legal) {
    const m = /^fight (\d+)(?: support (\d+))?$/.exec(a);
    if (!m) continue;
    const card = Number(m[1]);
    const k = Number(m[2] || 0);
    if (!fights.has(card)) fights.set(card, new Set());
    fights.get(card).add(k);
    maxSupport = Math.max(maxSupport, k);
  }
  if (chosenSupport > maxSupport) chosenSupport = 0;
  const discards = new Set([...legal].filter((a) => a.startsWith("discard ")).map((a) => Number(a.slice(8))));
  const cards = (mine.cards || []).map((value) => {
    let action = null;
    let label = String(value);
    if (fights.get(value)?.has(chosenSupport)) {
      action = chosenSupport ? `fight ${value} support ${chosenSupport}` : `fight ${value}`;
      label = chosenSupport ? t("th.fightWithSupport", { card: value, k: chosenSupport }) : t("th.fightWith", { card: value });
    } else if (discards.has(value)) {
      action = `discard ${value}`;
      label = t("th.discardCard", { card: value });
    }
    if (!action) return h("span", { class: "th-scard", "data-testid": "hand-card", "data-value": value }, String(value));
    return h(
      "button",
      {
        type: "button",
        class: "th-scard th-playable",
        "data-testid": "hand-card",
        "data-value": value,
        "data-action": action,
        "aria-label": label,
        title: label,
        disabled: ctx.pending,
        onclick: () => act(action),
      },
      String(value),
    );
  });
  let chooser = null;
  if (fights.size && maxSupport > 0) {
    const options = [];
    for (let k = 0; k <= maxSupport; k++) {
      options.push(
        h(
          "button",
          {
            type: "button",
            class: "th-k",
            "aria-pressed": k === chosenSupport ? "true" : "false",
            "data-support": k,
            onclick: () => {
              chosenSupport = k;
              redraw();
              focusSupport(k);
            },
          },
          String(k),
        ),
      );
    }
    chooser = h(
      "div",
      { class: "th-chooser", role: "group", "aria-labelledby": "th-k-h", "data-testid": "support-chooser" },
      h("span", { id: "th-k-h", class: "th-chooser-label" }, t("th.useSupport")),
      h("div", { class: "th-k-buttons" }, options),
    );
  }
  const hint = fights.size ? t("th.pickCard") : discards.size ? t("th.pickDiscard") : null;
  return h(
    "section",
    { class: "th-hand", "data-testid": "hand", "aria-labelledby": "th-hand-h" },
    h("h4", { id: "th-hand-h" }, t("th.hand", { seat: mine.seat })),
    chooser,
    hint ? h("p", { class: "small" }, hint) : null,
    cards.length ? h("div", { class: "th-cards" }, cards) : h("p", { class: "muted" }, t("th.emptyHand")),
  );
}

// After a redraw the support buttons are new elements: keep the keyboard focus on the one chosen.
function focusSupport(k) {
  const el = document.querySelector(`.th-k[data-support="${k}"]`);
  if (el) el.focus();
}

function players(v, t, ctx, legal, act) {
  const rows = (v.hands || []).map((x) => {
    const give = `give ${x.seat}`;
    const tags = [];
    if (x.seat === v.active) tags.push(h("span", { class: "badge" }, "▶"));
    const backs = [];
    if (Array.isArray(x.cards) && x.seat !== ctx.seat) {
      for (const c of x.cards) backs.push(h("span", { class: "th-mini th-open" }, String(c)));
    } else {
      for (let i = 0; i < x.count; i++) backs.push(h("span", { class: "th-mini", "aria-hidden": "true" }));
    }
    return h(
      "li",
      { class: x.seat === v.active ? "th-active" : "", "data-seat": x.seat },
      h("span", { class: "th-player" }, tags, " ", t("th.handCount", { seat: x.seat, n: x.count })),
      h("span", { class: "th-minis" }, backs),
      legal.has(give)
        ? h(
            "button",
            { type: "button", class: "small-button", "data-action": give, disabled: ctx.pending, onclick: () => act(give) },
            t("th.give", { seat: x.seat }),
          )
        : null,
    );
  });
  return h(
    "section",
    { class: "th-players", "data-testid": "other-hands", "aria-labelledby": "th-players-h" },
    h("h4", { id: "th-players-h" }, t("th.others")),
    h("ul", {}, rows),
  );
}

// -- piles -----------------------------------------------------------------------------------

function chips(list, t, cls) {
  if (!list?.length) return h("span", { class: "muted" }, t("th.none"));
  return h("span", { class: "th-chips" }, list.map((x) => h("span", { class: `th-chip ${cls}` }, String(x))));
}

function piles(v, t) {
  const dead = (v.graveyard || []).length;
  return h(
    "section",
    { class: "th-piles", "aria-labelledby": "th-piles-h", "data-testid": "piles" },
    h("h4", { id: "th-piles-h" }, t("th.piles")),
    h(
      "dl",
      {},
      h("dt", {}, t("th.spartanDeck")),
      h("dd", { "data-testid": "spartan-deck" }, t("th.cardsLeft", { n: v.spartan_deck ?? 0 })),
      h("dt", {}, t("th.persianDeck")),
      h("dd", { "data-testid": "persian-deck" }, t("th.cardsLeft", { n: v.persian_deck ?? 0 })),
      h("dt", {}, t("th.spartanDiscard")),
      h("dd", {}, chips(v.spartan_discard, t, "th-chip-sparta")),
      h("dt", {}, t("th.persianDiscard")),
      h("dd", {}, chips(v.persian_discard, t, "th-chip-persia")),
      h("dt", {}, t("th.graveyard")),
      h(
        "dd",
        { "data-testid": "graveyard" },
        h("progress", { max: 12, value: Math.min(dead, 12), "aria-label": t("th.graveyardCount", { n: dead }) }),
        " ",
        t("th.graveyardCount", { n: dead }),
        h("div", {}, chips(v.graveyard, t, "th-chip-persia")),
      ),
    ),
  );
}
