// The lobby's terms of a new table, agreed at its creation and shown at the table: whether
// it is listed in the lobby's open games (public), whether it moves the players' ratings
// (rated: only for a logged-in player, whose ratings they are), whether a seat may take
// back its moves, whether spectators may read the players' chat, and whether a seat may
// ask the AI to suggest a move (hints: never in a rated game, so the box is off and
// unticked while "rated" is ticked).
//
// A rated game defaults to no takebacks (a takeback makes a game unrated), until the
// player ticks the box by hand. termsJson() names only the terms that differ from the
// server's defaults, so that a request says what the player chose.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export function termsState() {
  return { public: false, rated: false, takebacks: true, takebacksTouched: false, spectatorChat: false, hints: false };
}

/** The request's terms fields (rated only when logged in). */
export function termsJson(state, loggedIn) {
  const rated = Boolean(loggedIn && state.rated);
  const out = {};
  if (state.public) out.public = true;
  if (rated) out.rated = true;
  // The server's default: takebacks unless rated; say it whenever it differs.
  if (state.takebacks !== !rated) out.takebacks = state.takebacks;
  if (state.spectatorChat) out.spectator_chat = true;
  if (state.hints && !rated) out.hints = true;
  return out;
}

function check(id, label, checked, onchange, note = null, disabled = false) {
  return h(
    "label",
    { class: "check", for: id },
    h("input", {
      type: "checkbox",
      id,
      "data-testid": id,
      checked: Boolean(checked) && !disabled,
      disabled,
      onchange: (e) => onchange(e.target.checked),
    }),
    " ",
    h("span", {}, label),
    note ? h("span", { class: "note check-note" }, note) : null,
  );
}

/** The fieldset; `redraw` is called when a choice changes another (rated → takebacks). */
export function termsFieldset(state, loggedIn, redraw) {
  const rated = loggedIn && state.rated;
  return h(
    "fieldset",
    { class: "seats terms-fieldset" },
    h("legend", {}, t("terms.legend")),
    check("terms-public", t("terms.public"), state.public, (v) => (state.public = v)),
    loggedIn
      ? check(
          "terms-rated",
          t("terms.rated"),
          rated,
          (v) => {
            state.rated = v;
            if (!state.takebacksTouched) state.takebacks = !v;
            if (v) state.hints = false;
            redraw();
            document.getElementById("terms-rated")?.focus();
          },
          rated ? t("terms.ratedNote") : null,
        )
      : h("p", { class: "note", "data-testid": "terms-rated-login" }, t("terms.ratedLogin")),
    check("terms-takebacks", t("terms.takebacks"), state.takebacks, (v) => {
      state.takebacks = v;
      state.takebacksTouched = true;
    }),
    check("terms-spectator-chat", t("terms.spectatorChat"), state.spectatorChat, (v) => (state.spectatorChat = v)),
    check("terms-hints", t("terms.hints"), state.hints, (v) => (state.hints = v), rated ? t("terms.hintsRated") : null, rated),
  );
}
