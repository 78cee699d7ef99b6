// What the Earth & Water and 300: The Board Game boards share: element builders that
// accept a `text` attribute (the element's text), and their translation function.

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

// Texts of a board: its own `texts[lang]` first, then ctx.t(key, fallback) when the shell
// knows the key (a shell whose t takes (key, params) and answers the key itself for an
// unknown one works too), else the English fallback. `{name}` is replaced from vars.
export function makeT(ctx, game, texts) {
  const lang = (ctx && ctx.lang) || document.documentElement.lang || "en";
  const own = texts[lang] || {};
  const ask = (full, fallback) => {
    if (!ctx || typeof ctx.t !== "function") return null;
    for (const second of [fallback, {}]) {
      try {
        const got = ctx.t(full, second);
        return typeof got === "string" && got && got !== full ? got : null;
      } catch {
        // a t(key, params) shell: ask again with params
      }
    }
    return null;
  };
  return (key, fallback, vars) => {
    const full = `${game}.${key}`;
    let s = own[full] || ask(full, fallback) || fallback;
    if (vars) for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
    return s;
  };
}
