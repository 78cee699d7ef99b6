// A table socket's patches (asked for with `patches=1`; server/patches.py builds them): a
// patch holds the update's keys that changed since the socket's previous update, the new
// log lines, and of the game's view only the keys that changed ("view") and those that
// went ("view_gone"). Null is a value like any other, never a deletion.

/** The whole update `message` stands for, given the socket's previous update `base`. */
export function applyPatch(base, message) {
  if (message.type !== "patch") return message;
  const out = { ...base };
  for (const [key, value] of Object.entries(message)) {
    if (key !== "type" && key !== "view" && key !== "view_gone") out[key] = value;
  }
  if ("view" in message || "view_gone" in message) {
    const view = { ...base.view, ...(message.view || {}) };
    for (const key of message.view_gone || []) delete view[key];
    out.view = view;
  }
  return out;
}
