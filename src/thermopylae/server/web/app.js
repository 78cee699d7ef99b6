// The browser client's entry point: the lobby at /, a table at /table/{id}, the account's
// settings at /account, a player's page at /player/{name}, a game's leaderboard at
// /ratings/{game}, a finished game's replay at /table/{id}/replay and the page that opens
// a record file at /replay.

import { account, accountLink, refresh } from "./account.js";
import { clear } from "./dom.js";
import { mountDrop } from "./droppage.js";
import { langSelect, loadTexts, t } from "./i18n.js";
import { mountLeaderboard } from "./leaderboard.js";
import { mountLobby } from "./lobby.js";
import { mountPlayer } from "./player.js";
import { mountReplay } from "./replay.js";
import { mountSettings } from "./settings.js";
import { mountTable } from "./table.js";

function chrome() {
  document.getElementById("skip").textContent = t("nav.skip");
  document.querySelector("#brand .brand-name").textContent = t("app.title");
  document.getElementById("nav-lobby").textContent = t("nav.lobby");
  document.getElementById("nav-ratings").textContent = t("nav.ratings");
  document.getElementById("nav-replay").textContent = t("nav.replay");
  clear(document.getElementById("account-slot")).append(accountLink());
  const slot = document.getElementById("lang-slot");
  const had = document.activeElement?.id === "lang";
  clear(slot).append(langSelect());
  if (had) document.getElementById("lang").focus();
}

function main() {
  chrome();
  window.addEventListener("langchange", chrome);
  window.addEventListener("accountchange", chrome);
  const root = document.getElementById("main");
  const path = location.pathname;
  let m = path.match(/^\/table\/([^/]+)\/?$/);
  const replay = path.match(/^\/table\/([^/]+)\/replay\/?$/);
  if (replay) {
    document.body.classList.add("page-replay");
    mountReplay(root, decodeURIComponent(replay[1]));
  } else if (/^\/replay\/?$/.test(path)) {
    document.body.classList.add("page-drop");
    mountDrop(root);
  } else if (m) {
    document.body.classList.add("page-table");
    mountTable(root, decodeURIComponent(m[1]));
  } else if ((m = path.match(/^\/player\/([^/]+)\/?$/))) {
    document.body.classList.add("page-player");
    mountPlayer(root, decodeURIComponent(m[1]));
  } else if ((m = path.match(/^\/ratings\/([^/]+)\/?$/))) {
    document.body.classList.add("page-ratings");
    mountLeaderboard(root, decodeURIComponent(m[1]));
  } else if (/^\/account\/?$/.test(path)) {
    document.body.classList.add("page-account");
    mountSettings(root);
  } else {
    document.body.classList.add("page-lobby");
    mountLobby(root);
  }
  // Who is logged in (the pages redraw when it is known); a server that cannot answer
  // leaves the page as a guest's.
  if (!account.known) refresh().catch(() => {});
}

// The texts come first: nothing is drawn before its language's catalog is in.
loadTexts().then(main);
