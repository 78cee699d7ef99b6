// 300: Earth & Water — the board for the browser client.
//
// render(container, message, ctx) draws message.view (see games/earth_and_water/view.py):
// an SVG map of the 11 cities with roads, ports, control, armies and fleets, the campaign
// and score tracks, the reserves, deck and discard; then the move or battle under way and
// the hands. Cities and cards that match a legal action can be clicked (or focused and
// activated with Enter): one matching action is sent at once, several open a small menu.

import { html, makeT, svg } from "./kit.js";

const GAME = "earth-and-water";
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
const PHASE_EN = {
  "prep-buy": "Preparation: buying cards", draw: "Drawing cards",
  "prep-build": "Preparation: raising forces", operations: "Operations",
  "move-origin": "Move: choosing the origin", "move-count": "Move: how many",
  "move-carry": "Move: armies carried", "move-destination": "Move: choosing the destination",
  reaction: "Reaction", roll: "Rolling dice", battle: "Battle: continue or retreat",
  bridge: "The pontoon bridge", choose: "Event choice", "supply-keep": "Supply: cards kept",
  "supply-remove": "Supply: attrition", lot: "A card drawn at random", over: "Game over",
};

export const texts = {
  pt: {
    "earth-and-water.campaign": "Campanha", "earth-and-water.score": "Placar",
    "earth-and-water.persia": "Pérsia", "earth-and-water.greece": "Grécia",
    "earth-and-water.reserve": "Reserva", "earth-and-water.armies": "exércitos",
    "earth-and-water.fleets": "frotas", "earth-and-water.army": "exército",
    "earth-and-water.fleet": "frota", "earth-and-water.port": "porto",
    "earth-and-water.major": "cidade principal", "earth-and-water.amphorae": "ânforas",
    "earth-and-water.bridge": "ponte de barcas", "earth-and-water.no_bridge": "sem ponte",
    "earth-and-water.draw_pile": "Baralho", "earth-and-water.discard": "Descarte",
    "earth-and-water.your_hand": "Sua mão", "earth-and-water.hand_of": "Mão: {side}",
    "earth-and-water.cards": "cartas", "earth-and-water.empty": "(vazia)",
    "earth-and-water.revealed": "revelada por Hípias",
    "earth-and-water.land_battle": "Batalha terrestre em {city}",
    "earth-and-water.naval_battle": "Batalha naval em {city}",
    "earth-and-water.attacks": "{side} ataca", "earth-and-water.move": "Movimento",
    "earth-and-water.by_land": "por terra", "earth-and-water.by_sea": "por mar",
    "earth-and-water.from": "de", "earth-and-water.to": "para",
    "earth-and-water.units": "{n} unidade(s)", "earth-and-water.carrying": "levando {n} exército(s)",
    "earth-and-water.talents": "Talentos", "earth-and-water.in_force": "Em vigor",
    "earth-and-water.kings_dead": "Reis mortos", "earth-and-water.used": "Já usados",
    "earth-and-water.portraits": "Retratos", "earth-and-water.cancel": "Cancelar",
    "earth-and-water.choose": "Escolha", "earth-and-water.battle": "batalha",
    "earth-and-water.control": "controle", "earth-and-water.phase": "Fase",
    "earth-and-water.greek_event": "Grego", "earth-and-water.persian_event": "Persa",
    "earth-and-water.top": "topo", "earth-and-water.winner": "Vencedor: {side}",
    "earth-and-water.draw_result": "Empate",
    "earth-and-water.phase.prep-buy": "Preparação: compra de cartas",
    "earth-and-water.phase.draw": "Compra de cartas",
    "earth-and-water.phase.prep-build": "Preparação: recrutamento",
    "earth-and-water.phase.operations": "Operações",
    "earth-and-water.phase.move-origin": "Movimento: origem",
    "earth-and-water.phase.move-count": "Movimento: quantos",
    "earth-and-water.phase.move-carry": "Movimento: exércitos levados",
    "earth-and-water.phase.move-destination": "Movimento: destino",
    "earth-and-water.phase.reaction": "Reação", "earth-and-water.phase.roll": "Lançando dados",
    "earth-and-water.phase.battle": "Batalha: continuar ou recuar",
    "earth-and-water.phase.bridge": "A ponte de barcas",
    "earth-and-water.phase.choose": "Escolha do evento",
    "earth-and-water.phase.supply-keep": "Abastecimento: cartas mantidas",
    "earth-and-water.phase.supply-remove": "Abastecimento: atrito",
    "earth-and-water.phase.lot": "Carta tirada ao acaso",
    "earth-and-water.phase.over": "Fim de jogo",
    "earth-and-water.bridge_word": "Ponte",
    "earth-and-water.bridge_up": "de pé",
    "earth-and-water.bridge_down": "não construída",
    "earth-and-water.clickable": "você pode escolher",
    "earth-and-water.sea": "Mar Egeu",
    "earth-and-water.asia": "Ásia",
    "earth-and-water.no_retreat": "sem recuo",
    "earth-and-water.flag_carneia": "Festival Carneia",
    "earth-and-water.flag_acropolis": "Acrópole em chamas",
    "earth-and-water.flag_acropolis_penalty": "Grécia: um talento a menos",
    "earth-and-water.no_view": "Ainda não há tabuleiro.",
  },
  fr: {
    "earth-and-water.campaign": "Campagne", "earth-and-water.score": "Score",
    "earth-and-water.persia": "Perse", "earth-and-water.greece": "Grèce",
    "earth-and-water.reserve": "Réserve", "earth-and-water.armies": "armées",
    "earth-and-water.fleets": "flottes", "earth-and-water.army": "armée",
    "earth-and-water.fleet": "flotte", "earth-and-water.port": "port",
    "earth-and-water.major": "cité majeure", "earth-and-water.amphorae": "amphores",
    "earth-and-water.bridge": "pont de bateaux", "earth-and-water.no_bridge": "pas de pont",
    "earth-and-water.draw_pile": "Pioche", "earth-and-water.discard": "Défausse",
    "earth-and-water.your_hand": "Votre main", "earth-and-water.hand_of": "Main : {side}",
    "earth-and-water.cards": "cartes", "earth-and-water.empty": "(vide)",
    "earth-and-water.revealed": "révélée par Hippias",
    "earth-and-water.land_battle": "Bataille terrestre à {city}",
    "earth-and-water.naval_battle": "Bataille navale à {city}",
    "earth-and-water.attacks": "{side} attaque", "earth-and-water.move": "Mouvement",
    "earth-and-water.by_land": "par terre", "earth-and-water.by_sea": "par mer",
    "earth-and-water.from": "de", "earth-and-water.to": "vers",
    "earth-and-water.units": "{n} unité(s)", "earth-and-water.carrying": "transportant {n} armée(s)",
    "earth-and-water.talents": "Talents", "earth-and-water.in_force": "En vigueur",
    "earth-and-water.kings_dead": "Rois morts", "earth-and-water.used": "Déjà utilisés",
    "earth-and-water.portraits": "Portraits", "earth-and-water.cancel": "Annuler",
    "earth-and-water.choose": "Choisissez", "earth-and-water.battle": "bataille",
    "earth-and-water.control": "contrôle", "earth-and-water.phase": "Phase",
    "earth-and-water.greek_event": "Grec", "earth-and-water.persian_event": "Perse",
    "earth-and-water.top": "dessus", "earth-and-water.winner": "Vainqueur : {side}",
    "earth-and-water.draw_result": "Match nul",
    "earth-and-water.phase.prep-buy": "Préparation : achat de cartes",
    "earth-and-water.phase.draw": "Pioche des cartes",
    "earth-and-water.phase.prep-build": "Préparation : levée des forces",
    "earth-and-water.phase.operations": "Opérations",
    "earth-and-water.phase.move-origin": "Mouvement : origine",
    "earth-and-water.phase.move-count": "Mouvement : combien",
    "earth-and-water.phase.move-carry": "Mouvement : armées transportées",
    "earth-and-water.phase.move-destination": "Mouvement : destination",
    "earth-and-water.phase.reaction": "Réaction", "earth-and-water.phase.roll": "Jet de dés",
    "earth-and-water.phase.battle": "Bataille : continuer ou se replier",
    "earth-and-water.phase.bridge": "Le pont de bateaux",
    "earth-and-water.phase.choose": "Choix de l'événement",
    "earth-and-water.phase.supply-keep": "Ravitaillement : cartes gardées",
    "earth-and-water.phase.supply-remove": "Ravitaillement : attrition",
    "earth-and-water.phase.lot": "Carte tirée au hasard",
    "earth-and-water.phase.over": "Partie terminée",
    "earth-and-water.bridge_word": "Pont",
    "earth-and-water.bridge_up": "debout",
    "earth-and-water.bridge_down": "non construit",
    "earth-and-water.clickable": "vous pouvez le choisir",
    "earth-and-water.sea": "Mer Égée",
    "earth-and-water.asia": "Asie",
    "earth-and-water.no_retreat": "pas de repli",
    "earth-and-water.flag_carneia": "Fête des Karneia",
    "earth-and-water.flag_acropolis": "Acropole en flammes",
    "earth-and-water.flag_acropolis_penalty": "Grèce : un talent de moins",
    "earth-and-water.no_view": "Pas encore de plateau.",
  },
  it: {
    "earth-and-water.campaign": "Campagna", "earth-and-water.score": "Punteggio",
    "earth-and-water.persia": "Persia", "earth-and-water.greece": "Grecia",
    "earth-and-water.reserve": "Riserva", "earth-and-water.armies": "eserciti",
    "earth-and-water.fleets": "flotte", "earth-and-water.army": "esercito",
    "earth-and-water.fleet": "flotta", "earth-and-water.port": "porto",
    "earth-and-water.major": "città principale", "earth-and-water.amphorae": "anfore",
    "earth-and-water.bridge": "ponte di barche", "earth-and-water.no_bridge": "nessun ponte",
    "earth-and-water.draw_pile": "Mazzo", "earth-and-water.discard": "Scarti",
    "earth-and-water.your_hand": "La tua mano", "earth-and-water.hand_of": "Mano: {side}",
    "earth-and-water.cards": "carte", "earth-and-water.empty": "(vuota)",
    "earth-and-water.revealed": "rivelata da Ippia",
    "earth-and-water.land_battle": "Battaglia terrestre a {city}",
    "earth-and-water.naval_battle": "Battaglia navale a {city}",
    "earth-and-water.attacks": "{side} attacca", "earth-and-water.move": "Movimento",
    "earth-and-water.by_land": "via terra", "earth-and-water.by_sea": "via mare",
    "earth-and-water.from": "da", "earth-and-water.to": "verso",
    "earth-and-water.units": "{n} unità", "earth-and-water.carrying": "con {n} esercito/i a bordo",
    "earth-and-water.talents": "Talenti", "earth-and-water.in_force": "In vigore",
    "earth-and-water.kings_dead": "Re morti", "earth-and-water.used": "Già usati",
    "earth-and-water.portraits": "Ritratti", "earth-and-water.cancel": "Annulla",
    "earth-and-water.choose": "Scegli", "earth-and-water.battle": "battaglia",
    "earth-and-water.control": "controllo", "earth-and-water.phase": "Fase",
    "earth-and-water.greek_event": "Greco", "earth-and-water.persian_event": "Persiano",
    "earth-and-water.top": "in cima", "earth-and-water.winner": "Vincitore: {side}",
    "earth-and-water.draw_result": "Pareggio",
    "earth-and-water.phase.prep-buy": "Preparazione: acquisto carte",
    "earth-and-water.phase.draw": "Pesca delle carte",
    "earth-and-water.phase.prep-build": "Preparazione: reclutamento",
    "earth-and-water.phase.operations": "Operazioni",
    "earth-and-water.phase.move-origin": "Movimento: origine",
    "earth-and-water.phase.move-count": "Movimento: quanti",
    "earth-and-water.phase.move-carry": "Movimento: eserciti trasportati",
    "earth-and-water.phase.move-destination": "Movimento: destinazione",
    "earth-and-water.phase.reaction": "Reazione", "earth-and-water.phase.roll": "Lancio dei dadi",
    "earth-and-water.phase.battle": "Battaglia: continuare o ritirarsi",
    "earth-and-water.phase.bridge": "Il ponte di barche",
    "earth-and-water.phase.choose": "Scelta dell'evento",
    "earth-and-water.phase.supply-keep": "Rifornimento: carte tenute",
    "earth-and-water.phase.supply-remove": "Rifornimento: logoramento",
    "earth-and-water.phase.lot": "Carta estratta a caso",
    "earth-and-water.phase.over": "Partita finita",
    "earth-and-water.bridge_word": "Ponte",
    "earth-and-water.bridge_up": "in piedi",
    "earth-and-water.bridge_down": "non costruito",
    "earth-and-water.clickable": "puoi sceglierlo",
    "earth-and-water.sea": "Mar Egeo",
    "earth-and-water.asia": "Asia",
    "earth-and-water.no_retreat": "nessuna ritirata",
    "earth-and-water.flag_carneia": "Festa Carnea",
    "earth-and-water.flag_acropolis": "Acropoli in fiamme",
    "earth-and-water.flag_acropolis_penalty": "Grecia: un talento in meno",
    "earth-and-water.no_view": "Nessun tabellone per ora.",
  },
};

const STYLE = `
.ew-board{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
  color:${COLOR.text};max-width:720px;margin:0 auto;position:relative}
.ew-board > svg{display:block;width:100%;height:auto;border-radius:8px;overflow:hidden}
.ew-board text{font-family:inherit}
.ew-board .ew-click{cursor:pointer}
.ew-board .ew-click:focus{outline:none}
.ew-board .ew-click:focus .ew-ring,.ew-board .ew-click:hover .ew-ring{stroke-width:4}
.ew-panel{display:flex;flex-wrap:wrap;gap:6px 14px;margin:8px 2px;font-size:14px;line-height:1.35}
.ew-panel b{font-weight:600}
.ew-box{border:1px solid #c9bda0;background:#fbf8f0;border-radius:6px;padding:6px 8px;margin:6px 0;
  font-size:14px}
.ew-box h3{font-size:14px;margin:0 0 4px 0}
.ew-battle{border-color:${COLOR.battle};background:#fff2e8}
.ew-hand{display:flex;flex-wrap:wrap;gap:6px}
.ew-card{box-sizing:border-box;flex:1 1 130px;max-width:240px;min-width:120px;border:2px solid #8a7a55;border-radius:8px;
  background:#fffdf6;padding:0;font:inherit;text-align:left;color:inherit;overflow:hidden}
.ew-card .ew-num{display:block;background:#8a7a55;color:#fff;font-weight:700;padding:1px 6px;font-size:13px}
.ew-card .ew-ev{display:block;padding:3px 6px;font-size:13px}
.ew-card .ew-ev small{display:block;font-size:11px;opacity:.8}
.ew-card .ew-ev.greece{border-bottom:1px dashed #bbb}
.ew-card .ew-ev.mine{font-weight:700}
.ew-card .ew-ev.greece.mine{background:#e3ebf8}
.ew-card .ew-ev.persia.mine{background:#f8e4e2}
.ew-board button.ew-card{display:block;min-height:0;min-width:120px;padding:0;line-height:1.3;cursor:pointer;
  border-color:${COLOR.gold};box-shadow:0 0 0 2px ${COLOR.gold}55;color:${COLOR.text};background:#fffdf6}
.ew-board button.ew-card:hover:not(:disabled),.ew-board button.ew-card:focus-visible{box-shadow:0 0 0 3px ${COLOR.gold};
  background:#fffdf6;color:${COLOR.text}}
.ew-menu{position:absolute;z-index:5;background:#fff;border:2px solid ${COLOR.gold};border-radius:8px;
  padding:6px;box-shadow:0 4px 14px #0004;display:flex;flex-direction:column;gap:4px;min-width:140px;
  font-size:14px}
.ew-menu b{padding:0 2px}
.ew-board .ew-menu button{display:block;width:100%;min-height:2.75rem;font:inherit;padding:6px 8px;border-radius:5px;
  border:1px solid #999;background:#f4f4f4;cursor:pointer;text-align:left;color:#111}
.ew-board .ew-menu button.ew-primary{background:#fff5d6;border-color:${COLOR.gold}}
.ew-legend{display:flex;flex-wrap:wrap;gap:2px 12px;margin:4px 2px;font-size:13px;color:#333}
.ew-leg{white-space:nowrap}
.ew-swatch{display:inline-block;width:11px;height:11px;border-radius:2px;vertical-align:-1px;margin-right:3px}
`;

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
  const T = makeT(ctx, GAME, texts);
  const v = message && message.view;
  container.replaceChildren();
  if (!v || !Array.isArray(v.cities)) {
    container.append(html("p", { text: T("no_view", "No board to show yet.") }));
    return;
  }
  const act = typeof ctx.act === "function" ? ctx.act : () => {};
  const sideName = (s) => (s === "persia" ? T("persia", "Persia") : s === "greece" ? T("greece", "Greece") : s);
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
      html("b", { text: `${title} — ${T("choose", "Choose")}` }));
    for (const it of items) {
      const b = html("button", { type: "button", class: "ew-primary", role: "menuitem",
        "data-action": it.action, text: it.label || it.action });
      b.addEventListener("click", (ev) => { ev.stopPropagation(); closeMenu(); act(it.action); });
      menu.append(b);
    }
    const cancel = html("button", { type: "button", text: T("cancel", "Cancel") });
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
    root.replaceChildren(html("style", { text: STYLE }));
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
    "aria-label": `300: Earth & Water — ${T("campaign", "Campaign")} ${v.campaign}/5`,
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
    "text-anchor": "middle" }, T("sea", "Aegean Sea")));
  s.append(svg("text", { x: MW - 6, y: 322, "font-size": 11, "font-style": "italic", fill: "#5c4b26",
    "text-anchor": "end" }, T("asia", "Asia")));

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
      v.bridge ? T("bridge", "pontoon bridge") : T("no_bridge", "no bridge"),
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
    c.major ? `${T("major", "major city")} (${sideName(c.major)})` : null,
    c.port ? T("port", "port") : null,
    `${c.amphorae} ${T("amphorae", "amphorae")}`,
    `${T("control", "control")}: ${c.control ? sideName(c.control) : "—"}`,
    `${sideName("persia")}: ${c.armies.persia} ${T("armies", "armies")}, ${c.fleets.persia} ${T("fleets", "fleets")}`,
    `${sideName("greece")}: ${c.armies.greece} ${T("armies", "armies")}, ${c.fleets.greece} ${T("fleets", "fleets")}`,
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
    clickable(g, `${c.name}: ${items.map((i) => i.action).join(", ")}`,
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
  g.append(head(8, y + 15, T("campaign", "Campaign")));
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
  g.append(head(8, y + 11, T("score", "Score")));
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
  g.append(head(8, y + 13, T("reserve", "Reserve")));
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
      style: "display:inline-block;vertical-align:middle;background:none" }, ...children);
    return e;
  };
  const item = (ic, text) => html("span", { class: "ew-leg" }, ic, " ", text);
  return html("div", { class: "ew-legend", "data-testid": "ew-legend" },
    item(icon(armyChip(2, 1, "", "persia")), T("armies", "armies")),
    item(icon(fleetChip(0, 1, "", "greece")), T("fleets", "fleets")),
    item(icon(anchor(13, 9)), T("port", "port")),
    item(icon(svg("circle", { cx: 13, cy: 9, r: 3, fill: "#9c5a1c" })), T("amphorae", "amphorae")),
    item(icon(svg("circle", { cx: 13, cy: 9, r: 8, fill: "#fff", stroke: "#333" }),
      svg("text", { x: 13, y: 13, "text-anchor": "middle", "font-size": 11 }, "★")), T("major", "major city")),
    item(icon(svg("circle", { cx: 13, cy: 9, r: 7, fill: "none", stroke: COLOR.gold, "stroke-width": 3 })),
      T("clickable", "you can choose it")),
  );
}

// ---------------------------------------------------------------------------------------

function statusPanel(v, T, sideName, message) {
  const p = html("div", { class: "ew-panel", "data-testid": "ew-status" });
  const phase = T(`phase.${v.phase}`, PHASE_EN[v.phase] || v.phase);
  p.append(html("span", {}, html("b", { text: `${T("phase", "Phase")}: ` }), phase));
  const top1 = v.discard && v.discard.length ? v.discard[v.discard.length - 1] : null;
  p.append(html("span", {}, html("b", { text: `${T("draw_pile", "Draw pile")}: ` }), String(v.draw_pile)));
  p.append(html("span", {}, html("b", { text: `${T("discard", "Discard")}: ` }),
    String((v.discard || []).length) + (top1 ? ` (${T("top", "top")} #${top1})` : "")));
  p.append(html("span", {}, html("b", { text: `${T("bridge_word", "Bridge")}: ` }),
    v.bridge ? T("bridge_up", "standing") : T("bridge_down", "not built")));
  if (v.talents !== null && v.talents !== undefined) {
    p.append(html("span", {}, html("b", { text: `${T("talents", "Talents")}: ` }), String(v.talents)));
  }
  const flags = [];
  if (v.carneia) flags.push(T("flag_carneia", "Carneia Festival"));
  if (v.acropolis) flags.push(T("flag_acropolis", "Acropolis on Fire"));
  if (v.acropolis_penalty) flags.push(T("flag_acropolis_penalty", "Greece: one talent less"));
  if (flags.length) {
    p.append(html("span", {}, html("b", { text: `${T("in_force", "In force")}: ` }), flags.join(", ")));
  }
  if (v.kings_dead) {
    p.append(html("span", {}, html("b", { text: `${T("kings_dead", "Kings dead")}: ` }), String(v.kings_dead)));
  }
  const pr = v.portraits || {};
  if (pr.persia || pr.greece || pr.artemisia) {
    const parts = [];
    if (pr.persia) parts.push(`${sideName("persia")} ${pr.persia} ${T("armies", "armies")}`);
    if (pr.greece) parts.push(`${sideName("greece")} ${pr.greece} ${T("armies", "armies")}`);
    if (pr.artemisia) parts.push(`Artemisia ${pr.artemisia} ${T("fleets", "fleets")}`);
    p.append(html("span", {}, html("b", { text: `${T("portraits", "Portraits")}: ` }), parts.join(", ")));
  }
  if (v.once_used && v.once_used.length) {
    p.append(html("span", {}, html("b", { text: `${T("used", "Used")}: ` }), v.once_used.join(", ")));
  }
  if (v.result) {
    p.append(html("span", {}, html("b", {
      text: v.result.winner ? T("winner", "Winner: {side}", { side: sideName(v.result.winner) })
        : T("draw_result", "Draw"),
    }), ` — ${v.result.reason}`));
  }
  return p;
}

function actionPanel(v, T, sideName) {
  const bt = v.battle;
  const mv = v.move;
  if (bt) {
    const box = html("div", { class: "ew-box ew-battle", "data-testid": "ew-battle" });
    const head = bt.kind === "naval" ? T("naval_battle", "Naval battle in {city}", { city: bt.city })
      : T("land_battle", "Land battle in {city}", { city: bt.city });
    box.append(html("h3", { text: `⚔ ${head}` }));
    const lines = [T("attacks", "{side} attacks", { side: sideName(bt.attacker) })];
    if (bt.from) lines.push(`${T("from", "from")} ${bt.from}${bt.by_sea ? ` (${T("by_sea", "by sea")})` : ""}`);
    if (bt.carried) lines.push(T("carrying", "carrying {n} army(ies)", { n: bt.carried }));
    const extras = [];
    if (bt.cavalry) extras.push("Cavalry of Mardonius");
    if (bt.immortals_used) extras.push("The Immortals");
    if (bt.greek_dice === 2) extras.push("Leonidas");
    if (bt.greek_dice === 3) extras.push("Miltiades / 300 Spartans");
    if (bt.scoring_event === 7) extras.push("The Great King");
    if (bt.scoring_event === 10) extras.push("Evangelion");
    if (bt.no_retreat) extras.push(T("no_retreat", "no retreat"));
    if (extras.length) lines.push(extras.join(", "));
    box.append(html("div", { text: lines.join(" · ") }));
    return box;
  }
  if (mv) {
    const box = html("div", { class: "ew-box", "data-testid": "ew-move" });
    box.append(html("h3", { text: `${T("move", "Move")}: ${sideName(mv.side)}` }));
    const parts = [];
    if (mv.by) parts.push(mv.by === "sea" ? T("by_sea", "by sea") : T("by_land", "by land"));
    if (mv.origin) parts.push(`${T("from", "from")} ${mv.origin}`);
    if (mv.count) parts.push(T("units", "{n} unit(s)", { n: mv.count }));
    if (mv.carry) parts.push(T("carrying", "carrying {n} army(ies)", { n: mv.carry }));
    if (mv.destination) parts.push(`${T("to", "to")} ${mv.destination}`);
    if (mv.not_from) parts.push(`(≠ ${mv.not_from})`);
    box.append(html("div", { text: parts.join(" · ") || "…" }));
    return box;
  }
  return null;
}

function handsPanel(v, T, sideName, me, byCard, choose) {
  const wrap = html("div", { "data-testid": "ew-hands" });
  const names = v.card_names || { greece: [], persia: [] };
  const order = me ? [me, me === "persia" ? "greece" : "persia"] : ["persia", "greece"];
  for (const side of order) {
    const h = v.hands[side];
    if (!h) continue;
    const box = html("div", { class: "ew-box", "data-testid": side === me ? "ew-hand" : "ew-hand-other",
      "data-side": side });
    let title = side === me ? T("your_hand", "Your hand") : T("hand_of", "Hand of {side}", { side: sideName(side) });
    title += ` — ${h.count} ${T("cards", "cards")}`;
    if (side !== me && h.cards) title += ` (${T("revealed", "revealed by Hippias")})`;
    box.append(html("h3", {}, html("span", { class: "ew-swatch", style: `background:${COLOR[side]}` }), title));
    if (h.cards) {
      const row = html("div", { class: "ew-hand" });
      if (!h.cards.length) row.append(html("span", { text: T("empty", "(empty)") }));
      for (const n of h.cards) {
        const items = byCard.get(n);
        const card = html(items ? "button" : "div", {
          class: "ew-card", "data-testid": "ew-card", "data-card": n,
          type: items ? "button" : null,
          title: items ? items.map((i) => i.action).join(", ") : null,
          "data-action": items && items.length === 1 ? items[0].action : null,
        });
        card.append(html("span", { class: "ew-num", text: `#${n}` }));
        for (const half of ["greece", "persia"]) {
          const ev = html("span", { class: `ew-ev ${half}${half === side ? " mine" : ""}` });
          ev.append(html("small", { text: half === "greece" ? T("greek_event", "Greek") : T("persian_event", "Persian") }));
          ev.append(names[half][n] || "");
          card.append(ev);
        }
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
