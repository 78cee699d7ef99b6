// A table's chat panel. The table message carries "chat_last", the number of the table's
// last chat message: when it grows, the panel asks the server for the messages after the
// last one it shows (GET .../chat?after=). Seats write (POST .../chat); spectators read
// only when the table's terms let them. A message's text is put in with textContent:
// whatever a player types stays text, never markup.
//
// A logged-in viewer may mute another player (PUT /api/me/mutes/{name}): the server leaves
// that player's messages out, so the panel asks for the whole chat again. The server's
// refusals (too many messages: 429; an empty, too long or control-character text: 422)
// are shown in its words.

import { account } from "./account.js";
import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { seatName, t } from "./i18n.js";

const MAX = 500;

/** The panel; `seat()` answers {token, message, seated} of the connection shown. */
export function chatPanel(tableId, seat) {
  const list = h("ol", { class: "chat-list", "data-testid": "chat-list", "aria-live": "polite", "aria-labelledby": "chat-heading" });
  const heading = h("h3", { id: "chat-heading" });
  const mutesBox = h("div", { class: "chat-mutes" });
  const note = h("p", { class: "muted small", "data-testid": "chat-note", hidden: true });
  const error = h("p", { class: "error", role: "alert", "data-testid": "chat-error", hidden: true });
  const input = h("input", {
    type: "text",
    id: "chat-input",
    "data-testid": "chat-input",
    maxlength: String(MAX),
    autocomplete: "off",
  });
  const label = h("label", { for: "chat-input", class: "sr-only" });
  const sendButton = h("button", { type: "submit", class: "small-button", "data-testid": "chat-send" });
  const form = h("form", { class: "chat-form", novalidate: true, onsubmit: (e) => (e.preventDefault(), say()) }, label, input, sendButton);
  const panel = h(
    "section",
    { class: "panel chat", "data-testid": "chat", "aria-labelledby": "chat-heading" },
    heading,
    mutesBox,
    note,
    list,
    error,
    form,
  );

  const state = {
    key: undefined, // whose view the list shows (a token, "@account" or null for a spectator)
    shown: 0, // the id of the last message shown
    wanted: 0, // the table's chat_last
    loading: false,
    muted: new Set(), // lowercased names this account muted
    mutesLoaded: false,
    closed: false, // spectators may not read this table's chat
  };

  function words() {
    heading.textContent = t("chat.heading");
    label.textContent = t("chat.label");
    input.placeholder = t("chat.placeholder");
    sendButton.textContent = t("chat.send");
  }

  function showError(err) {
    if (!err) {
      error.hidden = true;
      error.textContent = "";
      return;
    }
    const detail = err.detail || err.message;
    error.textContent =
      err.status === 429 ? t("chat.tooFast", { detail }) : err.status === 422 ? t("chat.refused", { detail }) : t("chat.failed", { detail });
    error.hidden = false;
  }

  function line(msg) {
    const who = msg.player || seatName(msg.seat);
    const text = h("span", { class: "chat-text" });
    text.textContent = String(msg.text ?? ""); // typed text stays text
    return h(
      "li",
      { class: "chat-line", "data-testid": "chat-line", "data-id": String(msg.id) },
      h("strong", { class: "chat-who" }, who),
      msg.player && msg.seat ? h("span", { class: "muted small" }, ` (${seatName(msg.seat)})`) : null,
      ": ",
      text,
    );
  }

  async function fetchMore() {
    const { token, seated, message } = seat();
    if (state.loading || state.closed || state.shown >= state.wanted) return;
    if (!seated && !message?.terms?.spectator_chat) return;
    state.loading = true;
    const key = state.key;
    try {
      const answer = await api.chat(tableId, token, state.shown);
      if (key !== state.key) return; // the shown seat changed meanwhile
      const found = answer?.messages || [];
      for (const msg of found) {
        if (Number(msg.id) <= state.shown) continue;
        list.append(line(msg));
        state.shown = Number(msg.id);
      }
      // Nothing more: the rest are muted players' messages, which the server leaves out.
      if (!found.length) state.shown = Math.max(state.shown, state.wanted);
      list.scrollTop = list.scrollHeight;
    } catch (err) {
      if (err.status === 403) {
        state.closed = true;
        draw();
      } else {
        showError(err);
      }
    } finally {
      state.loading = false;
    }
    if (state.shown < state.wanted) fetchMore();
  }

  /** Ask for the whole chat again (a mute changed what the server sends). */
  function restart() {
    clear(list);
    state.shown = 0;
    state.closed = false;
    fetchMore();
  }

  async function say() {
    const text = input.value.trim();
    if (!text) return;
    const { token } = seat();
    sendButton.disabled = true;
    try {
      await api.say(tableId, token, text);
      input.value = "";
      showError(null);
    } catch (err) {
      showError(err);
    } finally {
      sendButton.disabled = false;
      input.focus();
    }
  }

  async function loadMutes() {
    if (state.mutesLoaded || !account.me) return;
    state.mutesLoaded = true;
    try {
      const answer = await api.mutes();
      const names = Array.isArray(answer) ? answer : answer?.mutes || [];
      for (const n of names) state.muted.add(String(n.name ?? n).toLowerCase());
      draw();
    } catch {
      state.mutesLoaded = false;
    }
  }

  function drawMutes(m) {
    clear(mutesBox);
    if (!account.me || !m) return;
    const me = account.me.name.toLowerCase();
    const others = [...new Set(m.seats.map((s) => s.player).filter((p) => p && p.toLowerCase() !== me))];
    for (const name of others) {
      const muted = state.muted.has(name.toLowerCase());
      mutesBox.append(
        h(
          "button",
          {
            type: "button",
            class: "small-button",
            "data-testid": muted ? "unmute" : "mute",
            "data-player": name,
            "aria-pressed": muted ? "true" : "false",
            onclick: async () => {
              try {
                if (muted) await api.unmute(name);
                else await api.mute(name);
                if (muted) state.muted.delete(name.toLowerCase());
                else state.muted.add(name.toLowerCase());
                showError(null);
                draw();
                restart();
              } catch (err) {
                showError(err);
              }
            },
          },
          muted ? t("chat.unmute", { name }) : t("chat.mute", { name }),
        ),
      );
    }
  }

  function draw() {
    const { seated, message } = seat();
    words();
    drawMutes(message);
    const readable = seated || Boolean(message?.terms?.spectator_chat);
    form.hidden = !seated;
    list.hidden = !readable || state.closed;
    note.hidden = seated;
    note.textContent = readable && !state.closed ? t("chat.spectatorReads") : t("chat.playersOnly");
  }

  /** Every update of the shown connection: `key` names whose view it is. */
  function update(key) {
    const { message } = seat();
    if (!message) return;
    if (key !== state.key) {
      state.key = key;
      clear(list);
      state.shown = 0;
      state.closed = false;
      showError(null);
    }
    state.wanted = Number(message.chat_last || 0);
    draw();
    loadMutes();
    fetchMore();
  }

  words();
  return { panel, update, draw };
}
