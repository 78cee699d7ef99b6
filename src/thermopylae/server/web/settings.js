// The account's settings at /account: notifications (a webhook, an email address when the
// server sends mail, which events, how low a bank is "time low", a test), the password,
// and deleting the account. Every refusal shows the server's own words.

import { account, accountBar, refresh } from "./account.js";
import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { formatDate, lang, t } from "./i18n.js";

const EVENTS = ["your_turn", "invitation", "game_over", "time_low"];

/** A status line under a form: text and kind ("ok" or "error"). */
function statusLine(testid) {
  const el = h("p", { class: "form-status", "data-testid": testid, role: "status", "aria-live": "polite", hidden: true });
  return {
    el,
    set(text, kind = "ok") {
      el.textContent = text || "";
      el.hidden = !text;
      el.className = `form-status ${kind === "error" ? "error" : "ok"}`;
      el.setAttribute("role", kind === "error" ? "alert" : "status");
    },
  };
}

function field(id, label, input, help) {
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    input,
    help ? h("p", { class: "note", id: `${id}-help` }, help) : null,
  );
}

function notificationsPanel(me) {
  const n = me.notifications || {};
  const section = h("section", { class: "panel settings-notify", "aria-labelledby": "notify-heading" });
  const status = statusLine("notify-status");
  const testStatus = statusLine("test-status");
  const webhook = h("input", {
    type: "url",
    id: "webhook",
    "data-testid": "webhook",
    inputmode: "url",
    autocapitalize: "none",
    spellcheck: "false",
    maxlength: "500",
    placeholder: "https://…",
    value: n.webhook || "",
    "aria-describedby": "webhook-help",
  });
  const mailOff = !me.email_available;
  const email = h("input", {
    type: "email",
    id: "email",
    "data-testid": "email",
    autocomplete: "email",
    maxlength: "254",
    value: n.email || "",
    disabled: mailOff,
    "aria-describedby": "email-help",
  });
  const boxes = EVENTS.map((ev) =>
    h(
      "label",
      { class: "check" },
      h("input", { type: "checkbox", value: ev, "data-testid": `event-${ev}`, checked: (n.events || EVENTS).includes(ev) }),
      " ",
      t(`settings.event.${ev}`),
    ),
  );
  const share = h("input", {
    type: "number",
    id: "low-share",
    "data-testid": "low-share",
    min: "1",
    max: "90",
    step: "1",
    inputmode: "numeric",
    value: String(Math.round((n.low_share ?? 0.1) * 100)),
  });
  const disabled = [];
  if (n.webhook_disabled) {
    disabled.push(h("p", { class: "warn", "data-testid": "webhook-disabled" }, t("settings.webhookDisabled", { why: n.webhook_disabled })));
  }
  if (n.email_disabled) {
    disabled.push(h("p", { class: "warn", "data-testid": "email-disabled" }, t("settings.emailDisabled", { why: n.email_disabled })));
  }
  let busy = false;
  const save = async () => {
    if (busy) return;
    busy = true;
    status.set(t("settings.saving"));
    const percent = Number(share.value);
    const body = {
      webhook: webhook.value.trim() || null,
      email: mailOff ? null : email.value.trim() || null,
      events: boxes.map((b) => b.querySelector("input")).filter((i) => i.checked).map((i) => i.value),
      low_share: Number.isFinite(percent) ? percent / 100 : 0.1,
      lang: lang(),
    };
    try {
      const out = await api.saveNotifications(body);
      account.me = { ...account.me, ...out };
      busy = false;
      redrawAll(t("settings.saved"));
    } catch (err) {
      busy = false;
      status.set(err.detail || err.message, "error");
    }
  };
  const test = async (button) => {
    button.disabled = true;
    testStatus.set(t("settings.testing"));
    try {
      const out = await api.testNotification();
      const lines = (out.sent || []).map((r) =>
        r.status === "sent"
          ? t("settings.testSent", { channel: t(`settings.channel.${r.channel}`) })
          : t("settings.testFailed", { channel: t(`settings.channel.${r.channel || "webhook"}`), error: r.error || r.status }),
      );
      const failed = (out.sent || []).some((r) => r.status !== "sent");
      testStatus.set(lines.join(" ") || t("settings.testNothing"), failed ? "error" : "ok");
    } catch (err) {
      testStatus.set(err.detail || err.message, "error");
    }
    button.disabled = false;
  };
  section.append(
    h("h2", { id: "notify-heading" }, t("settings.notifications")),
    h("p", { class: "muted small" }, t("settings.notifyHelp")),
    ...disabled,
    h(
      "form",
      { novalidate: true, onsubmit: (e) => (e.preventDefault(), save()) },
      field("webhook", t("settings.webhook"), webhook, t("settings.webhookHelp")),
      field("email", t("settings.email"), email, mailOff ? null : t("settings.emailHelp")),
      mailOff ? h("p", { class: "note warn", "data-testid": "email-off", id: "email-help" }, t("settings.emailOff")) : null,
      h("fieldset", { class: "seats events" }, h("legend", {}, t("settings.events")), boxes),
      field("low-share", t("settings.lowShare"), share, t("settings.lowShareHelp")),
      status.el,
      h(
        "div",
        { class: "account-buttons" },
        h("button", { type: "submit", class: "primary", "data-testid": "save-notifications" }, t("settings.save")),
        h(
          "button",
          { type: "button", "data-testid": "send-test", onclick: (e) => test(e.currentTarget) },
          t("settings.test"),
        ),
      ),
      testStatus.el,
    ),
  );
  return { section, status };
}

function passwordPanel() {
  const status = statusLine("password-status");
  const old = h("input", { type: "password", id: "old-password", "data-testid": "old-password", autocomplete: "current-password" });
  const next = h("input", { type: "password", id: "new-password", "data-testid": "new-password", autocomplete: "new-password" });
  const change = async () => {
    status.set(t("settings.saving"));
    try {
      await api.changePassword(old.value, next.value);
      old.value = "";
      next.value = "";
      status.set(t("settings.passwordChanged"));
    } catch (err) {
      status.set(err.detail || err.message, "error");
    }
  };
  return h(
    "section",
    { class: "panel settings-password", "aria-labelledby": "password-heading" },
    h("h2", { id: "password-heading" }, t("settings.password")),
    h(
      "form",
      { novalidate: true, onsubmit: (e) => (e.preventDefault(), change()) },
      field("old-password", t("settings.oldPassword"), old),
      field("new-password", t("settings.newPassword"), next, t("settings.passwordRules")),
      status.el,
      h("button", { type: "submit", "data-testid": "change-password" }, t("settings.changePassword")),
    ),
  );
}

function deletePanel() {
  const status = statusLine("delete-status");
  const pw = h("input", { type: "password", id: "delete-password", "data-testid": "delete-password", autocomplete: "current-password" });
  const remove = async () => {
    status.set(t("settings.deleting"));
    try {
      await api.deleteAccount(pw.value);
      account.me = null;
      location.assign("/");
    } catch (err) {
      status.set(err.detail || err.message, "error");
    }
  };
  return h(
    "section",
    { class: "panel settings-delete", "aria-labelledby": "delete-heading" },
    h("h2", { id: "delete-heading" }, t("settings.delete")),
    h("p", {}, t("settings.deleteHelp")),
    h(
      "form",
      { novalidate: true, onsubmit: (e) => (e.preventDefault(), remove()) },
      field("delete-password", t("settings.deletePassword"), pw),
      status.el,
      h("button", { type: "submit", class: "danger", "data-testid": "delete-account" }, t("settings.deleteButton")),
    ),
  );
}

let redrawAll = () => {};

export function mountSettings(root) {
  let saved = null; // the last save's message, shown again after the redraw
  const draw = () => {
    document.title = `${t("settings.title")} — ${t("app.title")}`;
    const me = account.me;
    const page = h("div", { class: "settings" });
    page.append(h("h1", { class: "settings-title" }, t("settings.title")));
    if (!account.known) {
      page.append(h("p", { class: "muted", role: "status" }, t("settings.loading")));
    } else if (!me) {
      page.append(h("p", { "data-testid": "login-first" }, t("settings.loginFirst")), accountBar());
    } else {
      page.append(
        h(
          "p",
          { class: "muted", "data-testid": "settings-who" },
          t("settings.who", { name: me.name, date: formatDate(me.created * 1000) }),
        ),
      );
      const notify = notificationsPanel(me);
      if (saved) notify.status.set(saved);
      saved = null;
      page.append(h("div", { class: "settings-grid" }, notify.section, passwordPanel(), deletePanel()));
    }
    clear(root).append(page);
  };
  redrawAll = (message) => {
    saved = message || null;
    draw();
  };
  window.addEventListener("accountchange", draw);
  window.addEventListener("langchange", draw);
  draw();
  if (account.known && account.me) refresh().catch(() => {});
}
