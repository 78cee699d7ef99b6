// The lobby's time control: none, a live game, a correspondence game over days, or the
// player's own minutes and increment; and what happens when a bank runs out (the side
// loses, or a bot plays for the absent player). clockJson() is the request's "clock".

import { h } from "./dom.js";
import { t } from "./i18n.js";

export const PRESETS = {
  none: null,
  live: { initial_s: 600, increment_s: 10 },
  correspondence: { initial_s: 3 * 86400, increment_s: 12 * 3600, cap_s: 5 * 86400 },
};

export function clockState() {
  return { kind: "none", minutes: "15", increment: "10", onTimeout: "forfeit" };
}

/** The request's clock object (null: no clock); a bad custom value is an Error to show. */
export function clockJson(state) {
  if (state.kind === "none") return null;
  let control;
  if (state.kind === "custom") {
    const minutes = Number(state.minutes);
    const increment = Number(state.increment || 0);
    if (!Number.isFinite(minutes) || minutes <= 0) throw new Error(t("clockForm.badMinutes"));
    if (!Number.isFinite(increment) || increment < 0) throw new Error(t("clockForm.badIncrement"));
    control = { initial_s: Math.round(minutes * 60), increment_s: Math.round(increment) };
  } else {
    control = { ...PRESETS[state.kind] };
  }
  return { ...control, on_timeout: state.onTimeout };
}

/** The fieldset; `redraw` is called when a choice shows or hides fields. */
export function clockFieldset(state, redraw) {
  const kind = h(
    "select",
    {
      id: "clock-select",
      "data-testid": "clock-select",
      value: state.kind,
      onchange: (e) => {
        state.kind = e.target.value;
        redraw();
        document.getElementById("clock-select")?.focus();
      },
    },
    ["none", "live", "correspondence", "custom"].map((k) => h("option", { value: k }, t(`clockForm.${k}`))),
  );
  const custom =
    state.kind === "custom"
      ? h(
          "div",
          { class: "clock-custom" },
          h(
            "div",
            { class: "field" },
            h("label", { for: "clock-minutes" }, t("clockForm.minutes")),
            h("input", {
              type: "number",
              id: "clock-minutes",
              "data-testid": "clock-minutes",
              min: "1",
              step: "any",
              inputmode: "decimal",
              value: state.minutes,
              oninput: (e) => (state.minutes = e.target.value),
            }),
          ),
          h(
            "div",
            { class: "field" },
            h("label", { for: "clock-increment" }, t("clockForm.increment")),
            h("input", {
              type: "number",
              id: "clock-increment",
              "data-testid": "clock-increment",
              min: "0",
              step: "1",
              inputmode: "numeric",
              value: state.increment,
              oninput: (e) => (state.increment = e.target.value),
            }),
          ),
        )
      : null;
  const timeout =
    state.kind === "none"
      ? null
      : h(
          "div",
          { class: "field" },
          h("label", { for: "clock-timeout" }, t("clockForm.onTimeout")),
          h(
            "select",
            {
              id: "clock-timeout",
              "data-testid": "clock-timeout",
              value: state.onTimeout,
              onchange: (e) => (state.onTimeout = e.target.value),
            },
            h("option", { value: "forfeit" }, t("clockForm.forfeit")),
            h("option", { value: "ai" }, t("clockForm.ai")),
          ),
        );
  return h(
    "fieldset",
    { class: "seats clock-fieldset" },
    h("legend", {}, t("clockForm.legend")),
    h("div", { class: "field" }, h("label", { for: "clock-select" }, t("clockForm.kind")), kind),
    custom,
    timeout,
  );
}
