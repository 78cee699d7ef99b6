// The board of a game that has no board module yet: the view as a readable summary.
// Same interface as boards/<game>.js: render(container, message, ctx).

import { h } from "./dom.js";

function scalar(v) {
  if (v === null || v === undefined) return "—";
  if (typeof v === "boolean") return v ? "✓" : "✗";
  return String(v);
}

function isScalar(v) {
  return v === null || typeof v !== "object";
}

function node(value, depth) {
  if (isScalar(value)) return h("span", { class: "gv-scalar" }, scalar(value));
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "gv-scalar muted" }, "[]");
    if (value.every(isScalar)) return h("span", { class: "gv-scalar" }, value.map(scalar).join(", "));
    if (depth > 3) return h("code", {}, JSON.stringify(value));
    return h("ol", { class: "gv-list" }, value.map((item) => h("li", {}, node(item, depth + 1))));
  }
  const entries = Object.entries(value);
  if (!entries.length) return h("span", { class: "gv-scalar muted" }, "{}");
  if (depth > 3) return h("code", {}, JSON.stringify(value));
  // Small flat objects on one line.
  if (entries.length <= 6 && entries.every(([, v]) => isScalar(v))) {
    return h(
      "span",
      { class: "gv-inline" },
      entries.map(([k, v], i) => [i ? " · " : "", h("span", { class: "gv-key" }, k), " ", scalar(v)]),
    );
  }
  return h(
    "dl",
    { class: "gv-dl" },
    entries.map(([k, v]) => [h("dt", {}, k), h("dd", {}, node(v, depth + 1))]),
  );
}

export function render(container, message, ctx) {
  container.append(
    h("p", { class: "muted" }, ctx.t("table.generic")),
    h("div", { class: "generic-view", "data-testid": "generic-view" }, node(message.view ?? {}, 0)),
  );
}
