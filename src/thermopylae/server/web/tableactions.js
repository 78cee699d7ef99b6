// The table page's action list: the shown seat's legal actions as buttons, grouped by the
// notation's verb (the group named by the first word its labels share); a big group whose
// actions share their second word gets one row per second word. Each button carries its
// action in data-action (the table puts the focus back on it after a move).

import { h } from "./dom.js";
import { t } from "./i18n.js";

function verbOf(action) {
  return action.trim().split(/\s+/)[0];
}

/**
 * Fill the emptied `container` with the buttons of `legal` ({action, label} items);
 * `over`: the game is over (said when there is nothing to do), `pending`: an action is
 * on its way (the buttons are off), `act(action)` plays one.
 */
export function drawActionList(container, legal, { over, pending, act }) {
  if (!legal.length) {
    container.append(h("p", { class: "muted" }, over ? t("table.over") : t("table.noActions")));
    return;
  }
  if (pending) container.append(h("p", { class: "muted", role: "status" }, t("table.sending")));
  const button = (item, text) => {
    const label = item.label || item.action;
    return h(
      "button",
      {
        type: "button",
        class: "action",
        "data-testid": "action",
        "data-action": item.action,
        "aria-label": label,
        title: label,
        disabled: pending,
        onclick: () => act(item.action),
      },
      text || label,
    );
  };
  // The label without a leading `prefix` (when it has it).
  const rest = (label, prefix) =>
    label.toLowerCase().startsWith(prefix.toLowerCase()) ? label.slice(prefix.length).trim() : label;
  const groups = new Map();
  for (const item of legal) {
    const verb = verbOf(item.action);
    if (!groups.has(verb)) groups.set(verb, []);
    groups.get(verb).push(item);
  }
  for (const [verb, items] of groups) {
    if (items.length === 1) {
      container.append(h("div", { class: "action-group single", "data-verb": verb }, button(items[0])));
      continue;
    }
    const id = `group-${verb.replace(/[^a-z0-9-]/gi, "_")}`;
    // The group's name: the first word its labels share (labels are in the page's
    // language), else the notation's verb.
    const firsts = new Set(items.map((item) => (item.label || item.action).trim().split(/\s+/)[0]));
    const name = firsts.size === 1 ? [...firsts][0] : verb;
    // A big group whose actions share their second word (fight 16, fight 16 support 1,
    // ...): one row per second word.
    const rows = new Map();
    for (const item of items) {
      const second = item.action.trim().split(/\s+/)[1] ?? "";
      if (!rows.has(second)) rows.set(second, []);
      rows.get(second).push(item);
    }
    const nested = items.length > 6 && rows.size < items.length && !rows.has("");
    const body = nested
      ? h(
          "div",
          { class: "sub-groups" },
          [...rows].map(([second, list]) => {
            const labels = list.map((item) => rest(item.label || item.action, `${verb} ${second}`));
            // When no button carries the shared word itself (move A4-A3 spartan,
            // move A4-A3 stelios), the row names it.
            const key = labels.every((l) => l !== "") ? h("span", { class: "sub-key" }, second) : null;
            return h(
              "div",
              { class: "group-buttons sub-group", "data-key": second },
              key,
              list.map((item, i) => button(item, labels[i] || second)),
            );
          }),
        )
      : h("div", { class: "group-buttons" }, items.map((item) => button(item, rest(item.label || item.action, `${name} `))));
    container.append(
      h(
        "div",
        { class: `action-group${nested ? " nested" : ""}`, role: "group", "aria-labelledby": id, "data-verb": verb },
        h("span", { class: "group-name", id }, name),
        body,
      ),
    );
  }
}
