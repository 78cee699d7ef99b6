// Studying a finished game (issue 20), /table/{id}/replay:
//
// - the game step by step, each frame from GET /api/tables/{id}/steps/{n}?as=... drawn
//   by the game's own board module (boards.js) exactly as in play (no action can be
//   clicked). First / back / forward / last, the keys ArrowLeft, ArrowRight, Home and
//   End, a "jump to step" field, who played the step and what, the log up to it, and
//   "view as": every hand (the default), a spectator, or one seat as it saw the game
//   then. Frames already fetched are kept. The step shown is in the address (#step=N),
//   so a link opens there.
// - the analysis under the board (replayanalysis.js): told the step shown, it moves the
//   win-chance graph's cursor and shows the decision note; a click on the graph shows
//   that step through go(step).
// - "Play from here" (replaybranch.js): told the step shown and whether the game is over
//   there.
// The page that opens a record file (/replay) is droppage.js.

import { ApiError, store } from "./api.js";
import { loadBoard } from "./boards.js";
import { append, clear, h } from "./dom.js";
import { faultPage } from "./fault.js";
import * as generic from "./generic.js";
import { lang, seatName, t, tOr } from "./i18n.js";
import { analysisParts } from "./replayanalysis.js";
import { branchParts } from "./replaybranch.js";
import { study } from "./studyapi.js";

function hashParams() {
  const p = new URLSearchParams(location.hash.slice(1));
  const step = Number.parseInt(p.get("step") || "", 10);
  return { step: Number.isInteger(step) && step >= 0 ? step : null, as: p.get("as") || null };
}

/** The replay page of table `tableId`. */
export function mountReplay(root, tableId) {
  let leave = null;
  const attempt = () => {
    leave?.();
    leave = null;
    clear(root).append(h("p", { class: "muted", role: "status" }, t("replay.loading")));
    const { step, as } = hashParams();
    const first = (a) => study.step(tableId, step ?? 0, a);
    first(as || "all")
      .catch((err) => (as && err instanceof ApiError && err.status === 422 ? first("all") : Promise.reject(err)))
      .then(
        (frame) => mountFrames(root, tableId, frame),
        (err) => {
          const status = err instanceof ApiError ? err.status : 0;
          if (status === 404) leave = faultPage(root, "notFound", tableId);
          else if (status === 0 || status >= 500) leave = faultPage(root, "unreachable", tableId, attempt);
          else leave = notOver(root, tableId, status === 409 ? t("replay.notOver") : err.detail || err.message);
        },
      );
  };
  attempt();
}

/** The page instead of the replay: the game is not over (or another refusal). */
function notOver(root, tableId, text) {
  const draw = () =>
    clear(root).append(
      h(
        "section",
        { class: "panel fault", "data-testid": "fault", "data-kind": "notOver", role: "alert" },
        h("h2", {}, t("replay.title")),
        h("p", {}, text),
        h(
          "p",
          { class: "fault-links" },
          h("a", { class: "button primary", href: `/table/${encodeURIComponent(tableId)}`, "data-testid": "to-table" }, t("replay.toTable")),
          h("a", { class: "button", href: "/", "data-testid": "to-lobby" }, t("table.toLobby")),
        ),
      ),
    );
  draw();
  return () => {};
}

function mountFrames(root, tableId, firstFrame) {
  const total = firstFrame.steps;
  const game = firstFrame.game;
  const seats = (firstFrame.seats || []).map((x) => x.seat);
  const held = store.held(tableId).map((e) => e.seat).filter((x) => seats.includes(x));
  const cache = new Map(); // `${lang}|${as}|${n}` -> Promise of the frame
  let as = firstFrame.as || "all";
  let n = firstFrame.step;
  let frame = null; // the frame shown
  let board = null; // the board module, once loaded
  let error = null;
  cache.set(`${lang()}|${as}|${n}`, Promise.resolve(firstFrame));

  // -- the parts ---------------------------------------------------------------------------
  const heading = h("h2", { class: "table-title", id: "replay-title" });
  const origin = h("p", { class: "muted small", "data-testid": "replay-origin" });
  const links = h("p", { class: "replay-links" });
  const stepText = h("span", { class: "replay-step", "data-testid": "replay-step", "aria-live": "polite" });
  const button = (testid, onclick) => h("button", { type: "button", class: "small-button", "data-testid": testid, onclick });
  const firstB = button("replay-first", () => go(0));
  const backB = button("replay-back", () => go(n - 1));
  const forwardB = button("replay-forward", () => go(n + 1));
  const lastB = button("replay-last", () => go(total));
  const jumpInput = h("input", {
    type: "number",
    id: "replay-jump",
    min: 0,
    max: total,
    step: 1,
    inputmode: "numeric",
    "data-testid": "replay-jump",
  });
  const jumpLabel = h("label", { for: "replay-jump" });
  const jumpButton = h("button", { type: "submit", class: "small-button", "data-testid": "replay-go" });
  const jumpForm = h(
    "form",
    {
      class: "replay-jump",
      onsubmit: (e) => {
        e.preventDefault();
        const v = Number.parseInt(jumpInput.value, 10);
        if (Number.isInteger(v)) go(v);
      },
    },
    jumpLabel,
    jumpInput,
    jumpButton,
  );
  const asLabel = h("label", { for: "replay-as" });
  const asSelect = h("select", {
    id: "replay-as",
    "data-testid": "replay-as",
    onchange: (e) => {
      as = e.target.value;
      go(n, true);
    },
  });
  const controls = h(
    "nav",
    { class: "panel replay-controls", "data-testid": "replay-controls" },
    h("div", { class: "replay-buttons" }, firstB, backB, stepText, forwardB, lastB),
    jumpForm,
    h("div", { class: "replay-as" }, asLabel, " ", asSelect),
  );
  const keysHelp = h("p", { class: "muted small replay-keys" });
  const moveLine = h("p", { class: "replay-move", "data-testid": "replay-move" });
  const errorBox = h("p", { class: "error", role: "alert", "data-testid": "replay-error", hidden: true });
  const result = h("section", { class: "result", "data-testid": "result", hidden: true });
  const boardRoot = h("div", { class: "board-root" });
  const boardHeading = h("h3", { class: "sr-only", id: "board-heading" });
  const boardWrap = h(
    "section",
    { class: "board-wrap panel", "data-testid": "board", "aria-labelledby": "board-heading" },
    boardHeading,
    boardRoot,
  );
  const logHeading = h("h3", { id: "log-heading" });
  const log = h("ol", { class: "log", "data-testid": "log", "aria-labelledby": "log-heading" });
  // A step picked on the win-chance graph: shown, with the board in view.
  const pick = (step) => {
    go(step);
    boardWrap.scrollIntoView?.({ block: "nearest" });
  };
  const analysis = analysisParts({ tableId, seats, held, step: n, go: pick });
  const branch = branchParts({ tableId, game, seats, held, step: n });

  clear(root).append(
    h(
      "div",
      { class: "replay-page" },
      h("div", { class: "table-head" }, heading, origin, links),
      controls,
      keysHelp,
      moveLine,
      analysis.note,
      errorBox,
      result,
      h(
        "div",
        { class: "replay-grid" },
        h("div", { class: "replay-main" }, boardWrap, analysis.panel),
        h(
          "div",
          { class: "replay-side" },
          h("section", { class: "panel log-wrap", "aria-labelledby": "log-heading" }, logHeading, log),
          branch.panel,
        ),
      ),
    ),
  );

  // -- frames ------------------------------------------------------------------------------
  function fetchFrame(step, a) {
    const key = `${lang()}|${a}|${step}`;
    if (!cache.has(key)) {
      const p = study.step(tableId, step, a);
      cache.set(key, p);
      p.catch(() => cache.delete(key)); // a failure is asked again next time
    }
    return cache.get(key);
  }

  let wanted = 0; // the latest go()'s number: an older answer arriving late is not drawn
  function go(step, force = false) {
    const target = Math.min(total, Math.max(0, Number(step) || 0));
    if (target === n && !force && frame && frame.as === as) return;
    n = target;
    const ticket = ++wanted;
    drawControls();
    history.replaceState(null, "", `#step=${n}${as !== "all" ? `&as=${encodeURIComponent(as)}` : ""}`);
    fetchFrame(n, as).then(
      (f) => {
        if (ticket !== wanted) return;
        error = null;
        show(f);
        // The next frame is likely wanted next: fetch it now.
        if (n < total) fetchFrame(n + 1, as).catch(() => {});
      },
      (err) => {
        if (ticket !== wanted) return;
        error = err.detail || err.message;
        drawError();
      },
    );
  }

  async function show(f) {
    frame = f;
    drawFrame();
    board = board || (await loadBoard(game));
    if (frame !== f) return;
    clear(boardRoot);
    boardRoot.dataset.game = game;
    boardWrap.dataset.step = String(f.step);
    boardWrap.dataset.as = f.as || as;
    const ctx = { t, act: () => {}, seat: seats.includes(f.as) ? f.as : null, legal: [], pending: false, lang: lang() };
    const message = { ...f, legal: [], your_turn: false, seat: ctx.seat };
    try {
      board.render(boardRoot, message, ctx);
    } catch (err) {
      console.error("board drawing failed; using the generic view", err);
      clear(boardRoot);
      generic.render(boardRoot, message, ctx);
    }
    drawResult();
  }

  // -- drawing -----------------------------------------------------------------------------
  function drawControls() {
    stepText.textContent = t("replay.stepOf", { n, total });
    stepText.dataset.step = String(n);
    firstB.textContent = t("replay.first");
    backB.textContent = t("replay.back");
    forwardB.textContent = t("replay.forward");
    lastB.textContent = t("replay.last");
    firstB.setAttribute("aria-label", t("replay.firstLabel"));
    backB.setAttribute("aria-label", t("replay.backLabel"));
    forwardB.setAttribute("aria-label", t("replay.forwardLabel"));
    lastB.setAttribute("aria-label", t("replay.lastLabel"));
    firstB.disabled = backB.disabled = n <= 0;
    forwardB.disabled = lastB.disabled = n >= total;
    jumpLabel.textContent = t("replay.jump");
    jumpButton.textContent = t("replay.go");
    if (document.activeElement !== jumpInput) jumpInput.value = String(n);
    asLabel.textContent = t("replay.viewAs");
    append(clear(asSelect), [
      h("option", { value: "all" }, t("replay.asAll")),
      h("option", { value: "spectator" }, t("replay.asSpectator")),
      seats.map((x) => h("option", { value: x }, seatName(x))),
    ]);
    asSelect.value = as;
    keysHelp.textContent = t("replay.keys");
    analysis.setStep(n);
  }

  function drawHead() {
    const title = tOr(`game.${game}`, firstFrame.title || game);
    heading.textContent = t("replay.heading", { title, id: tableId });
    document.title = `${t("replay.title")} — ${title} — ${t("app.title")}`;
    const start = firstFrame.start_step;
    clear(origin);
    if (firstFrame.kind === "record") origin.append(t("replay.fromRecord"));
    else if (start && start.from) {
      origin.append(
        h("a", { href: `/table/${encodeURIComponent(start.from)}/replay#step=${start.step}`, "data-testid": "start-step-link" }, t("table.startStep", { step: start.step, table: start.from })),
      );
    }
    origin.hidden = !origin.firstChild;
    clear(links);
    if (firstFrame.kind !== "record") {
      links.append(h("a", { class: "button small-button", href: `/table/${encodeURIComponent(tableId)}`, "data-testid": "to-table" }, t("replay.toTable")), " ");
    }
    links.append(
      h("a", { class: "button small-button", href: `/api/tables/${encodeURIComponent(tableId)}/record`, download: `${tableId}.json`, "data-testid": "record-link" }, t("replay.record")),
      " ",
      h("a", { class: "button small-button", href: "/replay", "data-testid": "to-drop" }, t("replay.other")),
    );
  }

  function drawMove() {
    const f = frame;
    if (!f) return;
    moveLine.dataset.step = String(f.step);
    if (!f.step) {
      moveLine.textContent = t("replay.start");
      return;
    }
    const whoText = f.who === "chance" ? t("replay.chance") : seatName(f.who);
    moveLine.textContent = t("replay.move", { n: f.step, who: whoText || "?", action: f.action_label || f.action || "" });
  }

  function drawLog() {
    logHeading.textContent = t("table.log");
    clear(log);
    for (const line of frame?.log || []) log.append(h("li", {}, line));
    log.scrollTop = log.scrollHeight;
  }

  function drawError() {
    errorBox.textContent = error || "";
    errorBox.hidden = !error;
  }

  function drawResult() {
    clear(result);
    const out = frame?.outcome;
    result.hidden = !out;
    if (!out) return;
    const word = (r) => (r === "win" ? t("table.win") : r === "loss" ? t("table.loss") : r === "draw" ? t("table.draw") : r);
    let detail = null;
    if (board && typeof board.resultDetail === "function") {
      try {
        detail = board.resultDetail(frame, t) || null;
      } catch {
        detail = null;
      }
    }
    const results = out.results || [];
    result.className = "result result-replay";
    append(result, [
      h("h3", {}, t("table.result")),
      h(
        "ul",
        {},
        results.map((r, i) => h("li", {}, t("table.seatResult", { seat: seats[i] ? seatName(seats[i]) : `#${i + 1}`, result: word(r) }))),
      ),
      out.reason ? h("p", {}, t("table.reason", { reason: out.reason_text || out.reason })) : null,
      detail ? h("p", {}, detail) : null,
    ]);
  }

  /** What changes with the step shown. */
  function drawFrame() {
    drawControls();
    drawMove();
    analysis.setFrameStep(frame ? frame.step : null);
    drawLog();
    drawError();
    drawResult();
    branch.setStep(n, Boolean(frame?.outcome) || n >= total);
  }

  function drawAll() {
    boardHeading.textContent = t("table.board");
    drawHead();
    drawFrame();
    analysis.draw();
    branch.draw();
  }

  // -- keys, language ----------------------------------------------------------------------
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const el = e.target;
    if (el instanceof HTMLElement && (el.closest("input, select, textarea") || el.isContentEditable)) return;
    const to = { ArrowLeft: n - 1, ArrowRight: n + 1, Home: 0, End: total }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });
  // A link to another step of this page (#step=N) goes there.
  window.addEventListener("hashchange", () => {
    const want = hashParams();
    if (want.as && (want.as === "all" || want.as === "spectator" || seats.includes(want.as))) as = want.as;
    go(want.step ?? n, true);
  });
  window.addEventListener("langchange", () => {
    // The server writes the log and labels in the page's language: ask for the frame again.
    drawAll();
    go(n, true);
  });

  drawAll();
  show(firstFrame);
  analysis.load();
}
