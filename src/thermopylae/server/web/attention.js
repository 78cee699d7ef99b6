// Telling a player it is their turn while the table's page is open: the tab's title gets a
// "your turn" prefix and the favicon changes; and, when the player opts in, a browser
// notification (Notification API) when the turn comes while the page is hidden.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "thermopylae.notify"; // "on" once the player opted in
// The usual icon with a green disc: "your turn".
const TURN_ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Ccircle cx='16' cy='16' r='15' fill='%238b1a1a'/%3E%3Ctext x='16' y='23' font-size='20' text-anchor='middle' fill='%23fff' font-family='serif'%3E%CE%9B%3C/text%3E%3Ccircle cx='25' cy='7' r='7' fill='%2316a34a' stroke='%23fff' stroke-width='2'/%3E%3C/svg%3E";

let plainIcon = null;

function icon() {
  return document.querySelector("link[rel=icon]");
}

/** The tab's title and icon for a page whose player must (or need not) act. */
export function setAttention(title, yourTurn) {
  document.title = yourTurn ? t("attention.title", { title }) : title;
  const link = icon();
  if (!link) return;
  if (plainIcon === null) plainIcon = link.getAttribute("href");
  const want = yourTurn ? TURN_ICON : plainIcon;
  if (link.getAttribute("href") !== want) link.setAttribute("href", want);
  document.documentElement.dataset.yourTurn = yourTurn ? "true" : "false";
}

/** Put the usual icon back (leaving the table). */
export function clearAttention() {
  const link = icon();
  if (link && plainIcon !== null) link.setAttribute("href", plainIcon);
  delete document.documentElement.dataset.yourTurn;
}

function supported() {
  return typeof window.Notification === "function";
}

function optedIn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

function remember(on) {
  try {
    if (on) localStorage.setItem(KEY, "on");
    else localStorage.removeItem(KEY);
  } catch {
    /* private mode: for this page only */
  }
}

/** Whether a turn that just came should pop up a notification. */
export function notifying() {
  return supported() && optedIn() && Notification.permission === "granted";
}

/** Tell the player, unless they are looking at the page already. */
export function notifyTurn(title, tag) {
  if (!notifying() || (document.visibilityState === "visible" && document.hasFocus())) return;
  try {
    const n = new Notification(t("attention.notifyTitle"), { body: title, tag, renotify: true });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch (err) {
    console.warn("the browser refused the notification", err);
  }
}

/** The opt-in button (and its state), redrawn by `draw()` after a change. */
export function notifyButton(draw) {
  if (!supported()) return null;
  if (Notification.permission === "denied") {
    return h("p", { class: "muted small notify-state", "data-testid": "notify-denied" }, t("attention.denied"));
  }
  if (notifying()) {
    return h(
      "button",
      {
        type: "button",
        class: "small-button",
        "data-testid": "notify-off",
        "aria-pressed": "true",
        onclick: () => {
          remember(false);
          draw();
        },
      },
      t("attention.on"),
    );
  }
  return h(
    "button",
    {
      type: "button",
      class: "small-button",
      "data-testid": "notify-on",
      "aria-pressed": "false",
      onclick: async () => {
        let permission = Notification.permission;
        if (permission !== "granted") {
          try {
            permission = await Notification.requestPermission();
          } catch {
            permission = "denied";
          }
        }
        remember(permission === "granted");
        draw();
      },
    },
    t("attention.off"),
  );
}
