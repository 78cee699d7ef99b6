// Clocks as the server tells them: each seat's bank in seconds as of the server's `now`,
// and the running seat. The browser's clock may be off, so a running bank counts down
// from the moment the message came (its end = now + remaining, in the server's time, and
// the server's time here = the browser's + the offset measured then).
//
// A running clock's element carries data-end (server epoch s) and data-offset (server
// minus browser, s); one timer redraws every such element twice a second.

import { h } from "./dom.js";
import { seatName, t } from "./i18n.js";

/** A bank in words: 9:58, 1:02:03, or 2 d 5 h for correspondence banks. */
export function formatDuration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const secs = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (days > 0) return t("clock.days", { d: days, h: hours });
  if (hours > 0) return `${hours}:${two(minutes)}:${two(secs)}`;
  return `${minutes}:${two(secs)}`;
}

/** The server's time minus the browser's, from a clock message just received. */
export function offsetOf(clock) {
  return clock && typeof clock.now === "number" ? clock.now - Date.now() / 1000 : 0;
}

/** Seconds left of seat `i` now (counting down when it runs). */
export function remainingNow(clock, i, offset, names) {
  const bank = Number(clock.remaining?.[i] ?? 0);
  if (!clock.running || names[i] !== clock.running) return bank;
  const serverNow = Date.now() / 1000 + offset;
  return bank - (serverNow - clock.now);
}

/** What the control is, in words: "10 min + 10 s", "3 d + 12 h (at most 5 d)". */
export function describeControl(control) {
  if (!control) return t("clock.none");
  const span = (s) => {
    if (s >= 86400 && s % 3600 === 0) {
      const d = Math.floor(s / 86400);
      const hr = (s % 86400) / 3600;
      return hr ? t("clock.spanDaysHours", { d, h: hr }) : t("clock.spanDays", { d });
    }
    if (s >= 3600 && s % 60 === 0) {
      const hr = Math.floor(s / 3600);
      const m = (s % 3600) / 60;
      return m ? t("clock.spanHoursMinutes", { h: hr, m }) : t("clock.spanHours", { h: hr });
    }
    if (s >= 60 && s % 60 === 0) return t("clock.spanMinutes", { m: s / 60 });
    return t("clock.spanSeconds", { s: Math.round(s) });
  };
  let text = control.increment_s ? t("clock.plus", { a: span(control.initial_s), b: span(control.increment_s) }) : span(control.initial_s);
  if (control.cap_s) text = t("clock.capped", { text, cap: span(control.cap_s) });
  if (control.on_timeout === "ai") text = t("clock.withAi", { text });
  return text;
}

/** One bank's element: ticking (data-end, data-offset) while it runs. */
export function clockTime(clock, i, names, offset, attrs = {}) {
  const running = Boolean(clock.running) && names[i] === clock.running;
  const left = remainingNow(clock, i, offset, names);
  const low = clock.control && left < Math.max(10, 0.1 * clock.control.initial_s);
  const el = h(
    "span",
    {
      class: `clock-time${running ? " clock-running" : ""}${low ? " clock-low" : ""}`,
      "data-testid": "clock-time",
      "data-running": running ? "true" : "false",
      "data-end": running ? String(clock.now + Number(clock.remaining[i] || 0)) : null,
      "data-offset": running ? String(offset) : null,
      "data-initial": clock.control ? String(clock.control.initial_s) : null,
      ...attrs,
    },
    formatDuration(left),
  );
  if (running) ensureTicking();
  return el;
}

/** The table page's clocks: one per seat, the player's name with it. */
export function drawClocks(container, message, offset) {
  const clock = message?.clock;
  container.hidden = !clock;
  container.replaceChildren();
  if (!clock) return;
  const names = message.seats.map((s) => s.seat);
  container.append(
    h("h3", { class: "sr-only" }, t("clock.heading")),
    h("p", { class: "clock-control muted small" }, describeControl(clock.control)),
    h(
      "ul",
      { class: "clock-list" },
      message.seats.map((s, i) =>
        h(
          "li",
          {
            class: `clock${names[i] === clock.running ? " clock-on" : ""}${names[i] === message.seat ? " clock-mine" : ""}`,
            "data-testid": "clock",
            "data-seat": s.seat,
          },
          h("span", { class: "clock-seat" }, seatName(s.seat)),
          s.player ? h("span", { class: "clock-player" }, s.player) : null,
          clockTime(clock, i, names, offset),
        ),
      ),
    ),
  );
}

let timer = null;

function tick() {
  const els = document.querySelectorAll("[data-end][data-offset]");
  if (!els.length) {
    clearInterval(timer);
    timer = null;
    return;
  }
  const browserNow = Date.now() / 1000;
  for (const el of els) {
    const left = Number(el.dataset.end) - (browserNow + Number(el.dataset.offset));
    const text = formatDuration(left);
    if (el.textContent !== text) el.textContent = text;
    const initial = Number(el.dataset.initial || 0);
    el.classList.toggle("clock-low", left < Math.max(10, 0.1 * initial));
    el.classList.toggle("clock-out", left <= 0);
  }
}

function ensureTicking() {
  if (timer === null) timer = setInterval(tick, 500);
}
