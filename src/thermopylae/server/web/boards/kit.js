// What the Earth & Water and 300: The Board Game boards share: element builders that
// accept a `text` attribute (the element's text), their translation function and their
// stylesheet.

import { has } from "../i18n.js";

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) e.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    e.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}

export function html(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    e.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}

// Texts of a board: ctx.t with the board's prefix (`earth-and-water.campaign`), read from
// the JSON catalogs like every other text of the client. T.or(key, fallback, vars) is for
// names the view sends that a catalog may not know (a card of another component set).
export function makeT(ctx, game) {
  const t = ctx && typeof ctx.t === "function" ? ctx.t : (key) => key;
  const T = (key, vars = {}) => t(`${game}.${key}`, vars);
  T.or = (key, fallback, vars = {}) => (has(`${game}.${key}`) ? T(key, vars) : fallback);
  return T;
}

// A board's stylesheet, linked once (a file, never a <style> element: the page's
// Content-Security-Policy allows only the server's own styles).
export function useStylesheet(url) {
  const href = new URL(url).href;
  if (!document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    document.head.append(link);
  }
}
