// The logged-in account, as the pages share it: `account.me` is the answer of /api/me
// (null when logged out), refreshed by `refresh()`; every change fires "accountchange" on
// window so the header, the lobby and the settings page redraw. The session lives in an
// HttpOnly cookie the script cannot see; the CSRF cookie beside it tells the page a
// session may exist, so a guest's page never asks /api/me for nothing.
//
// accountBar() is the lobby's sign-up / log-in form, or the name, a settings link and
// "log out" once logged in. Refusals show the server's own words (`detail`).

import { api, csrfToken } from "./api.js";
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

export const account = {
  me: null, // the /api/me answer
  known: false, // whether /api/me was asked (or there was nothing to ask)
};

function changed() {
  window.dispatchEvent(new CustomEvent("accountchange", { detail: account.me }));
}

/** Ask the server who is logged in (and their tables); answers account.me. */
export async function refresh() {
  if (!csrfToken()) {
    account.me = null;
  } else {
    try {
      account.me = await api.me();
    } catch (err) {
      if (err.status !== 401) {
        account.known = true;
        throw err;
      }
      account.me = null;
    }
  }
  account.known = true;
  changed();
  return account.me;
}

export async function logout() {
  try {
    await api.logout();
  } finally {
    account.me = null;
    changed();
  }
}

/** The lobby's account bar: log in or sign up, or who is logged in. */
export function accountBar() {
  const root = h("section", { class: "panel account-bar", "data-testid": "account-bar", "aria-labelledby": "account-heading" });
  const state = { busy: false, error: null, name: "" };

  function draw() {
    clear(root);
    const me = account.me;
    if (me) {
      root.append(
        h("h2", { id: "account-heading", class: "sr-only" }, t("account.heading")),
        h(
          "div",
          { class: "account-in" },
          h("p", { class: "account-who", "data-testid": "logged-in" }, t("account.loggedIn", { name: me.name })),
          h(
            "div",
            { class: "account-buttons" },
            h("a", { class: "button", href: "/account", "data-testid": "settings-link" }, t("account.settings")),
            h("a", { class: "button", href: `/player/${encodeURIComponent(me.name)}`, "data-testid": "my-page-link" }, t("account.myPage")),
            h(
              "button",
              {
                type: "button",
                "data-testid": "logout",
                disabled: state.busy,
                onclick: async () => {
                  state.busy = true;
                  draw();
                  try {
                    await logout();
                  } catch (err) {
                    state.error = err.detail || err.message;
                  }
                  state.busy = false;
                  draw();
                },
              },
              t("account.logout"),
            ),
          ),
        ),
      );
      return;
    }
    const name = h("input", {
      type: "text",
      id: "account-name",
      "data-testid": "account-name",
      autocomplete: "username",
      autocapitalize: "none",
      spellcheck: "false",
      required: true,
      maxlength: "20",
      value: state.name,
      oninput: (e) => (state.name = e.target.value),
    });
    const password = h("input", {
      type: "password",
      id: "account-password",
      "data-testid": "account-password",
      autocomplete: "current-password",
      required: true,
      maxlength: "200",
    });
    const submit = async (kind) => {
      if (state.busy) return;
      state.busy = true;
      state.error = null;
      const pw = password.value;
      draw();
      try {
        if (kind === "signup") await api.signUp(state.name.trim(), pw);
        else await api.login(state.name.trim(), pw);
        state.busy = false;
        await refresh();
      } catch (err) {
        state.busy = false;
        state.error = err.detail || err.message;
        draw();
        root.querySelector("#account-password")?.focus();
      }
    };
    root.append(
      h("h2", { id: "account-heading" }, t("account.heading")),
      h("p", { class: "muted small" }, t("account.why")),
      h(
        "form",
        { class: "account-form", novalidate: true, onsubmit: (e) => (e.preventDefault(), submit("login")) },
        h("div", { class: "field" }, h("label", { for: "account-name" }, t("account.name")), name),
        h("div", { class: "field" }, h("label", { for: "account-password" }, t("account.password")), password),
        h("p", { class: "note" }, t("account.rules")),
        h("p", { class: "error", role: "alert", "data-testid": "account-error", hidden: !state.error }, state.error || ""),
        h(
          "div",
          { class: "account-buttons" },
          h("button", { type: "submit", class: "primary", "data-testid": "login", disabled: state.busy }, t("account.login")),
          h(
            "button",
            { type: "button", "data-testid": "signup", disabled: state.busy, onclick: () => submit("signup") },
            t("account.signup"),
          ),
        ),
      ),
    );
  }

  draw();
  window.addEventListener("accountchange", draw);
  window.addEventListener("langchange", draw);
  return root;
}

/** The header's link to the account page (the account's name), or nothing for a guest. */
export function accountLink() {
  const me = account.me;
  if (!me) return h("span", { hidden: true });
  return h("a", { href: "/account", id: "nav-account", "data-testid": "nav-account" }, t("nav.account", { name: me.name }));
}
