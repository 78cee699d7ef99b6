// The server's API for studying games (issue 20): a finished game's replay frames, record
// files, "play from here", hints and analyses, through api.js's `request` (JSON both ways,
// errors as ApiError(status, detail), the CSRF token with the login cookie) with the
// page's language in `lang`.

import { query, request as send } from "./api.js";

const base = (id) => `/api/tables/${encodeURIComponent(id)}`;

/** A body with the seat's token when there is one (else the login speaks for the seat). */
function withToken(token, fields) {
  return token ? { ...fields, token } : { ...fields };
}

export const study = {
  /** The replay frame after step n, as `as` ("all", "spectator" or a seat) saw it. */
  step: (id, n, as) => send("GET", `${base(id)}/steps/${n}${query({ as })}`),
  /** A record file's text (a `thermopylae play --record` JSON): its table, to replay. */
  upload: (text) => send("POST", `/api/replays${query()}`, text, true),
  /** A new table at the position after `step`, `seat` played by this browser. */
  branch: (id, token, step, seat, trueCards) =>
    send("POST", `${base(id)}/branch${query()}`, withToken(token, { step, seat, true_cards: Boolean(trueCards) })),
  /** Up to three suggested moves for the seat whose turn it is. */
  hint: (id, token) => send("POST", `${base(id)}/hint${query()}`, withToken(token, {})),
  analyse: (id, seat) => send("POST", `${base(id)}/analysis${query()}`, { seat }),
  analysis: (id, seat) => send("GET", `${base(id)}/analysis${query({ seat })}`),
  analyses: (id) => send("GET", `${base(id)}/analysis${query()}`),
};

/** A win chance as a whole percentage ("55%"). */
export function percent(p) {
  return `${Math.round(Number(p) * 100)}%`;
}

/** A win chance with its standard error, in points ("55% ± 9"). */
export function percentPm(p, stderr) {
  const pm = Number.isFinite(Number(stderr)) ? ` ± ${Math.round(Number(stderr) * 100)}` : "";
  return `${percent(p)}${pm}`;
}
