// Tiny DOM helpers: h() for HTML elements, s() for SVG elements.
//
//   h("button", {class: "x", "data-testid": "start", onclick: fn}, "Start")
//
// Attributes: `class`, any attribute name (false/null/undefined = left out, true = present),
// `on<event>` functions become listeners. Children: nodes, strings, numbers, arrays, null.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  let value;
  for (const [key, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (key.startsWith("on") && typeof v === "function") {
      el.addEventListener(key.slice(2), v);
    } else if (key === "value" && "value" in el && !(el instanceof SVGElement)) {
      value = v; // set once the children (a select's options) are in
    } else {
      el.setAttribute(key, v === true ? "" : String(v));
    }
  }
  append(el, children);
  if (value !== undefined) el.value = value;
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** A data table's head: one column header per name. */
export function headRow(names) {
  return h("thead", {}, h("tr", {}, names.map((x) => h("th", { scope: "col" }, x))));
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Copy text to the clipboard; falls back to selecting an input for older browsers. */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.focus();
      input.select();
      try {
        return document.execCommand("copy");
      } catch {
        return false;
      }
    }
    return false;
  }
}
