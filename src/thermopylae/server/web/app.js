// The browser client's entry point: the lobby at /, a table at /table/{id}.

import { clear } from "./dom.js";
import { langSelect, loadTexts, t } from "./i18n.js";
import { mountLobby } from "./lobby.js";
import { mountTable } from "./table.js";

function chrome() {
  document.getElementById("skip").textContent = t("nav.skip");
  document.querySelector("#brand .brand-name").textContent = t("app.title");
  document.getElementById("nav-lobby").textContent = t("nav.lobby");
  const slot = document.getElementById("lang-slot");
  const had = document.activeElement?.id === "lang";
  clear(slot).append(langSelect());
  if (had) document.getElementById("lang").focus();
}

function main() {
  chrome();
  window.addEventListener("langchange", chrome);
  const root = document.getElementById("main");
  const m = location.pathname.match(/^\/table\/([^/]+)\/?$/);
  if (m) {
    document.body.classList.add("page-table");
    mountTable(root, decodeURIComponent(m[1]));
  } else {
    document.body.classList.add("page-lobby");
    mountLobby(root);
  }
}

// The texts come first: nothing is drawn before its language's catalog is in.
loadTexts().then(main);
