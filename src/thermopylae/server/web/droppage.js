// /replay: drop or choose a record file (a finished game's JSON record, at most 2 MiB);
// it is sent to POST /api/replays and the page goes on to its replay (replay.js).

import { clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { study } from "./studyapi.js";

const MAX_RECORD = 2 * 1024 * 1024;

/** The page where a record file is dropped or chosen. */
export function mountDrop(root) {
  const state = { busy: false, error: null, name: null };
  const input = h("input", {
    type: "file",
    id: "record-file",
    accept: ".json,application/json",
    "data-testid": "record-file",
    onchange: (e) => {
      const file = e.target.files?.[0];
      if (file) send(file);
    },
  });
  const zone = h("div", {
    class: "drop-zone",
    "data-testid": "drop-zone",
    tabindex: "0",
    role: "button",
    onclick: () => input.click(),
    onkeydown: (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        input.click();
      }
    },
    ondragover: (e) => {
      e.preventDefault();
      zone.classList.add("drop-over");
    },
    ondragleave: () => zone.classList.remove("drop-over"),
    ondrop: (e) => {
      e.preventDefault();
      zone.classList.remove("drop-over");
      const file = e.dataTransfer?.files?.[0];
      if (file) send(file);
    },
  });
  const status = h("p", { class: "form-status", "data-testid": "drop-status", role: "status" });

  async function send(file) {
    if (state.busy) return;
    state.error = null;
    state.name = file.name;
    if (file.size > MAX_RECORD) {
      state.error = t("drop.tooBig", { name: file.name });
      draw();
      return;
    }
    state.busy = true;
    draw();
    try {
      const answer = await study.upload(await file.text());
      location.assign(answer.url || `/table/${encodeURIComponent(answer.id)}/replay`);
    } catch (err) {
      state.busy = false;
      state.error = t("drop.refused", { detail: err.detail || err.message });
      input.value = "";
      draw();
    }
  }

  function draw() {
    document.title = `${t("drop.title")} — ${t("app.title")}`;
    clear(zone).append(h("span", { class: "drop-text" }, state.busy ? t("drop.sending", { name: state.name }) : t("drop.zone")));
    zone.setAttribute("aria-label", t("drop.zone"));
    status.textContent = state.error || "";
    status.className = state.error ? "form-status error" : "form-status";
    status.hidden = !state.error;
    clear(root).append(
      h(
        "section",
        { class: "panel drop-page", "data-testid": "drop-page" },
        h("h2", {}, t("drop.title")),
        h("p", {}, t("drop.help")),
        zone,
        h("p", { class: "drop-choose" }, h("label", { for: "record-file" }, t("drop.choose")), " ", input),
        status,
      ),
    );
  }
  draw();
  window.addEventListener("langchange", draw);
}
