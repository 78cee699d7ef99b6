// The client's texts in English, Portuguese, French and Italian, read from the JSON
// catalogs i18n/<lang>.json (one per language, the boards' texts included under their
// game's prefix), so that translators edit data and a test can check every catalog has
// every key.
//
// loadTexts() fetches English and the chosen language; app.js awaits it before the first
// draw. t(key, params) answers the text in the chosen language, falling back to English
// and then to the key itself; `{name}` in a text is replaced by params.name.
// The language: localStorage, else navigator.language, else English. Changing it loads its
// catalog, then fires a "langchange" event on window; pages redraw their texts and ask the
// server again (its log lines and action labels follow the `lang` query parameter).

import { h } from "./dom.js";

export const LANGUAGES = { en: "English", pt: "Português", fr: "Français", it: "Italiano" };
const KEY = "thermopylae.lang";
const CATALOGS = new URL("./i18n/", import.meta.url);

const TEXTS = {}; // lang -> {key: text}, filled by load()

function stored() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function fromBrowser() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (code in LANGUAGES) return code;
  }
  return "en";
}

let current = (() => {
  const s = stored();
  return s && s in LANGUAGES ? s : fromBrowser();
})();
document.documentElement.lang = current;

/** Fetch one language's catalog (once); a catalog that cannot be read leaves the English. */
async function load(code) {
  if (TEXTS[code]) return;
  try {
    const response = await fetch(new URL(`${code}.json`, CATALOGS));
    TEXTS[code] = response.ok ? await response.json() : {};
  } catch {
    TEXTS[code] = {};
  }
}

/** The catalogs the page needs before it draws anything: English and the chosen language. */
export async function loadTexts() {
  await Promise.all([load("en"), load(current)]);
}

export function lang() {
  return current;
}

export async function setLang(code) {
  if (!(code in LANGUAGES) || code === current) return;
  try {
    localStorage.setItem(KEY, code); // at once: a page opened meanwhile takes it too
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  await load(code);
  current = code;
  document.documentElement.lang = code;
  window.dispatchEvent(new CustomEvent("langchange", { detail: code }));
}

export function t(key, params = {}) {
  const text = TEXTS[current]?.[key] ?? TEXTS.en?.[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Whether a text exists for `key` (in English or the chosen language). */
export function has(key) {
  return key in (TEXTS.en || {}) || key in (TEXTS[current] || {});
}

/** The text of `key` when a catalog has it, else `fallback` (a name the server sent). */
export function tOr(key, fallback, params = {}) {
  return has(key) ? t(key, params) : fallback;
}

/** A seat's name in words (`persia` → "Pérsia"); seats without a text (`p1`) stay as they are. */
export function seatName(seat) {
  return seat ? tOr(`seat.${seat}`, String(seat)) : "";
}

/** The language switcher (a labelled <select data-testid="lang">). */
export function langSelect() {
  const select = h(
    "select",
    { id: "lang", "data-testid": "lang", value: current, onchange: (e) => setLang(e.target.value) },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code }, name)),
  );
  return h("label", { class: "lang" }, h("span", { class: "lang-label" }, t("lang.label")), " ", select);
}

/** A date in the chosen language. */
export function formatDate(iso) {
  try {
    return new Date(iso).toLocaleString(current, { dateStyle: "medium", timeStyle: "short" });
  } catch {
    return iso;
  }
}
