// The games' board modules, loaded on demand and kept: boards/<game-id>.js exports
// render(container, message, ctx) (and may export progress and resultDetail; see table.js).
// A game without one, or whose module fails to load, gets generic.js. Used by the table
// page (table.js) and the replay page (replay.js).

import * as generic from "./generic.js";

const loaded = new Map(); // game id -> Promise of its module

/** A promise of the board module of `gameId` (generic.js when it has none). */
export function loadBoard(gameId) {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(gameId)) return Promise.resolve(generic);
  if (!loaded.has(gameId)) {
    loaded.set(
      gameId,
      import(`./boards/${gameId}.js`)
        .then((mod) => (typeof mod.render === "function" ? mod : generic))
        .catch((err) => {
          console.warn(`no board for ${gameId}; using the generic view`, err);
          return generic;
        }),
    );
  }
  return loaded.get(gameId);
}
