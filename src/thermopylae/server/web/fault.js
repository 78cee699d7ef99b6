// The table page's fault pages: a missing table, a link whose token holds no seat, a
// server that cannot be reached — each with a way on instead of empty panels.

import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

/** A page instead of the table: "notFound", "badToken" or "unreachable" (with `retry`). */
export function faultPage(root, kind, tableId, retry) {
  const draw = () => {
    document.title = `${t(`table.${kind}.title`)} — ${t("app.title")}`;
    const links = [h("a", { class: "button primary", href: "/", "data-testid": "to-lobby" }, t("table.toLobby"))];
    if (kind === "badToken") {
      links.push(h("a", { class: "button", href: `/table/${encodeURIComponent(tableId)}`, "data-testid": "watch" }, t("table.watch")));
    }
    if (kind === "unreachable" && retry) {
      links.push(h("button", { type: "button", "data-testid": "retry", onclick: retry }, t("table.retry")));
    }
    clear(root).append(
      h(
        "section",
        { class: "panel fault", "data-testid": "fault", "data-kind": kind, role: "alert" },
        h("h2", {}, t(`table.${kind}.title`)),
        h("p", {}, t(`table.${kind}.text`, { id: tableId })),
        h("p", { class: "fault-links" }, links),
      ),
    );
  };
  draw();
  window.addEventListener("langchange", draw);
  return () => window.removeEventListener("langchange", draw);
}
