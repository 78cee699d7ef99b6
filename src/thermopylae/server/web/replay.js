// Studying a finished game (issue 20):
//
// - /table/{id}/replay: the game step by step, each frame from
//   GET /api/tables/{id}/steps/{n}?as=... drawn by the game's own board module exactly as in
//   play (no action can be clicked). First / back / forward / last, the keys ArrowLeft,
//   ArrowRight, Home and End, a "jump to step" field, who played the step and what, the log
//   up to it, and "view as": every hand (the default), a spectator, or one seat as it saw
//   the game then. Frames already fetched are kept. The step shown is in the address
//   (#step=N), so a link opens there.
// - the analysis under the board: "Analyse" for a chosen seat (POST .../analysis), a
//   progress bar while it runs (GET about once a second), then the win-chance graph
//   (wingraph.js); clicking it shows that step. At a marked decision of the analysed seat,
//   the move played and the better one with both win chances. An analysis that exists
//   already shows when the page opens.
// - "Play from here": a new table at the position shown, the chosen seat played by this
//   browser (every other seat by a bot), with the hidden cards re-dealt from what that seat
//   saw, or kept as they truly were.
// - /replay: drop or choose a record file (POST /api/replays), then its replay.

import { ApiError, store } from "./api.js";
import { append, clear, h } from "./dom.js";
import { faultPage } from "./fault.js";
import * as generic from "./generic.js";
import { lang, seatName, t, tOr } from "./i18n.js";
import { study } from "./studyapi.js";
import { betterParams, markedAt, winGraph } from "./wingraph.js";

const MAX_RECORD = 2 * 1024 * 1024;

const boards = new Map();
function loadBoard(gameId) {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(gameId)) return Promise.resolve(generic);
  if (!boards.has(gameId)) {
    boards.set(
      gameId,
      import(`./boards/${gameId}.js`)
        .then((mod) => (typeof mod.render === "function" ? mod : generic))
        .catch(() => generic),
    );
  }
  return boards.get(gameId);
}

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

  // Analyses: seat -> status object; `shown` the seat whose analysis is drawn.
  const analyses = new Map();
  let shown = null;
  let graph = null; // {el, setStep} of the analysis drawn
  let graphFor = null; // the result it was drawn from
  let polling = null;
  let analysisError = null;

  // Play from here.
  const branch = { seat: held[0] || seats[0], trueCards: false, busy: false, error: null };

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
  const decisionNote = h("div", { class: "notice decision-note", "data-testid": "decision-note", hidden: true });
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
  const analysisPanel = h("section", { class: "panel analysis-panel", "data-testid": "analysis" });
  const branchPanel = h("section", { class: "panel branch-panel", "data-testid": "branch" });

  clear(root).append(
    h(
      "div",
      { class: "replay-page" },
      h("div", { class: "table-head" }, heading, origin, links),
      controls,
      keysHelp,
      moveLine,
      decisionNote,
      errorBox,
      result,
      h(
        "div",
        { class: "replay-grid" },
        h("div", { class: "replay-main" }, boardWrap, analysisPanel),
        h(
          "div",
          { class: "replay-side" },
          h("section", { class: "panel log-wrap", "aria-labelledby": "log-heading" }, logHeading, log),
          branchPanel,
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
    graph?.setStep(n);
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

  function drawDecision() {
    const a = shown ? analyses.get(shown) : null;
    const d = a?.status === "done" && frame ? markedAt(a.result, frame.step) : null;
    clear(decisionNote);
    decisionNote.hidden = !d;
    if (!d) return;
    decisionNote.dataset.mark = d.mark;
    decisionNote.append(
      h("strong", {}, t("analysis.markedStep", { n: d.step, mark: t(`analysis.mark.${d.mark}`) })),
      " — ",
      seatName(a.result.seat || shown),
      ": ",
      t("analysis.playedBetter", betterParams(d)),
    );
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

  // -- analysis ----------------------------------------------------------------------------
  function take(status) {
    if (!status || !status.seat) return;
    analyses.set(status.seat, status);
    if (status.status === "queued" || status.status === "running") poll();
  }

  function poll() {
    if (polling) return;
    polling = setTimeout(async () => {
      polling = null;
      const busy = [...analyses.values()].filter((a) => a.status === "queued" || a.status === "running");
      for (const a of busy) {
        try {
          take(await study.analysis(tableId, a.seat));
          analysisError = null;
        } catch (err) {
          if (err.status === 404) analyses.delete(a.seat);
          else analysisError = err.detail || err.message;
        }
      }
      drawAnalysis();
      if ([...analyses.values()].some((a) => a.status === "queued" || a.status === "running")) poll();
    }, 1000);
  }

  let analysing = false;
  async function analyse(seat) {
    if (analysing) return;
    analysing = true;
    analysisError = null;
    shown = seat;
    drawAnalysis();
    try {
      take(await study.analyse(tableId, seat));
    } catch (err) {
      analysisError = err.detail || err.message;
    } finally {
      analysing = false;
      drawAnalysis();
    }
  }

  const pick = (step) => {
    go(step);
    boardWrap.scrollIntoView?.({ block: "nearest" });
  };

  let analysisSeat = held[0] || seats[0];
  function drawAnalysis() {
    const a = shown ? analyses.get(shown) : null;
    const result_ = a?.status === "done" ? a.result : null;
    // The graph is built once per result; a redraw keeps it (and its cursor).
    if (result_ !== graphFor) {
      graphFor = result_;
      graph = result_ ? winGraph(result_, pick) : null;
      graph?.setStep(n);
    }
    clear(analysisPanel);
    const select = h(
      "select",
      {
        id: "analysis-seat",
        "data-testid": "analysis-seat",
        onchange: (e) => {
          analysisSeat = e.target.value;
          if (analyses.has(analysisSeat)) shown = analysisSeat;
          drawAnalysis();
          drawDecision();
        },
      },
      seats.map((x) => h("option", { value: x }, seatName(x))),
    );
    select.value = analysisSeat;
    const busy = a && (a.status === "queued" || a.status === "running");
    analysisPanel.append(
      h("h3", {}, t("analysis.heading")),
      h("p", { class: "muted small" }, t("analysis.help")),
      h(
        "div",
        { class: "analysis-form" },
        h("label", { for: "analysis-seat" }, t("analysis.seat")),
        " ",
        select,
        " ",
        h(
          "button",
          {
            type: "button",
            class: "primary",
            "data-testid": "analyse",
            disabled: analysing || Boolean(busy && shown === analysisSeat),
            onclick: () => analyse(analysisSeat),
          },
          t("analysis.start"),
        ),
      ),
    );
    if (a) {
      const status = h("p", { class: "analysis-status", "data-testid": "analysis-status", "data-status": a.status, role: "status" });
      if (a.status === "queued") status.textContent = t("analysis.queued", { seat: seatName(a.seat) });
      else if (a.status === "running") status.textContent = t("analysis.running", { seat: seatName(a.seat), done: a.done ?? 0, total: a.total ?? "?" });
      else if (a.status === "failed") status.textContent = t("analysis.failed", { detail: a.error || "?" });
      else status.textContent = t("analysis.done", { seat: seatName(a.seat) });
      analysisPanel.append(status);
      if (busy) {
        analysisPanel.append(
          h("progress", {
            class: "analysis-progress",
            "data-testid": "analysis-progress",
            max: Math.max(1, a.total || 1),
            value: a.status === "running" ? a.done || 0 : 0,
            "aria-label": t("analysis.progress"),
          }),
        );
      }
    }
    if (analysisError) analysisPanel.append(h("p", { class: "error", role: "alert", "data-testid": "analysis-error" }, analysisError));
    if (graph) analysisPanel.append(graph.el);
  }

  async function loadAnalyses() {
    try {
      const answer = await study.analyses(tableId);
      for (const a of answer?.analyses || []) take(a);
    } catch {
      return; // none yet, or no analyses on this server: the button still asks
    }
    const list = [...analyses.values()];
    const pickOne = list.find((a) => a.status === "done" && held.includes(a.seat)) || list.find((a) => a.status === "done") || list[0];
    if (pickOne && !shown) {
      shown = pickOne.seat;
      analysisSeat = pickOne.seat;
    }
    drawAnalysis();
    drawDecision();
  }

  // -- play from here ----------------------------------------------------------------------
  async function branchHere() {
    if (branch.busy) return;
    branch.busy = true;
    branch.error = null;
    drawBranch();
    const token = store.held(tableId).find((e) => e.seat === branch.seat)?.token || null;
    try {
      const table = await study.branch(tableId, token, n, branch.seat, branch.trueCards);
      const mine = (table.seats || []).find((x) => x.seat === branch.seat) || null;
      if (mine?.token) store.hold({ id: table.id, game, seat: mine.seat, token: mine.token });
      location.assign(`/table/${encodeURIComponent(table.id)}${mine?.token ? `#token=${encodeURIComponent(mine.token)}` : ""}`);
    } catch (err) {
      branch.error = err.detail || err.message;
      branch.busy = false;
      drawBranch();
    }
  }

  const branchButton = h("button", { type: "button", class: "primary", "data-testid": "branch-start", onclick: branchHere });
  const branchOver = h("p", { class: "muted small", "data-testid": "branch-over" });
  /** The button's text and state follow the step shown (no rebuild: the focus stays). */
  function drawBranchButton() {
    const over = Boolean(frame?.outcome) || n >= total;
    branchButton.textContent = branch.busy ? t("branch.starting") : t("branch.start", { n });
    branchButton.disabled = branch.busy || over;
    branchOver.textContent = t("branch.over");
    branchOver.hidden = !over;
  }

  function drawBranch() {
    drawBranchButton();
    clear(branchPanel);
    const select = h(
      "select",
      { id: "branch-seat", "data-testid": "branch-seat", onchange: (e) => (branch.seat = e.target.value) },
      seats.map((x) => h("option", { value: x }, seatName(x))),
    );
    select.value = branch.seat;
    append(branchPanel, [
      h("h3", {}, t("branch.heading")),
      h("p", { class: "muted small" }, t("branch.help")),
      h("div", { class: "field" }, h("label", { for: "branch-seat" }, t("branch.seat")), select),
      h(
        "label",
        { class: "check", for: "branch-true-cards" },
        h("input", {
          type: "checkbox",
          id: "branch-true-cards",
          "data-testid": "branch-true-cards",
          checked: branch.trueCards,
          onchange: (e) => (branch.trueCards = e.target.checked),
        }),
        " ",
        h("span", {}, t("branch.trueCards")),
      ),
      h("p", {}, branchButton),
      branchOver,
      branch.error ? h("p", { class: "error", role: "alert", "data-testid": "branch-error" }, branch.error) : null,
    ]);
  }

  /** What changes with the step shown. */
  function drawFrame() {
    drawControls();
    drawMove();
    drawDecision();
    drawLog();
    drawError();
    drawResult();
    drawBranchButton();
  }

  function drawAll() {
    boardHeading.textContent = t("table.board");
    drawHead();
    drawFrame();
    drawAnalysis();
    drawBranch();
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
    graphFor = null;
    drawAll();
    go(n, true);
  });

  drawAll();
  show(firstFrame);
  loadAnalyses();
}

// -- /replay: a record file ----------------------------------------------------------------

/** The page where a record file is dropped or chosen. */
export function mountDrop(root) {
  const state = { busy: false, error: null, name: null };
  const input = h("input", {
    type: "file",
    id: "record-file",
    accept: ".json,application/json",
    "data-testid": "record-file",
    onchange: (e) => {
      const file = e.target.files?.[0];
      if (file) send(file);
    },
  });
  const zone = h("div", {
    class: "drop-zone",
    "data-testid": "drop-zone",
    tabindex: "0",
    role: "button",
    onclick: () => input.click(),
    onkeydown: (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        input.click();
      }
    },
    ondragover: (e) => {
      e.preventDefault();
      zone.classList.add("drop-over");
    },
    ondragleave: () => zone.classList.remove("drop-over"),
    ondrop: (e) => {
      e.preventDefault();
      zone.classList.remove("drop-over");
      const file = e.dataTransfer?.files?.[0];
      if (file) send(file);
    },
  });
  const status = h("p", { class: "form-status", "data-testid": "drop-status", role: "status" });

  async function send(file) {
    if (state.busy) return;
    state.error = null;
    state.name = file.name;
    if (file.size > MAX_RECORD) {
      state.error = t("drop.tooBig", { name: file.name });
      draw();
      return;
    }
    state.busy = true;
    draw();
    try {
      const answer = await study.upload(await file.text());
      location.assign(answer.url || `/table/${encodeURIComponent(answer.id)}/replay`);
    } catch (err) {
      state.busy = false;
      state.error = t("drop.refused", { detail: err.detail || err.message });
      input.value = "";
      draw();
    }
  }

  function draw() {
    document.title = `${t("drop.title")} — ${t("app.title")}`;
    clear(zone).append(h("span", { class: "drop-text" }, state.busy ? t("drop.sending", { name: state.name }) : t("drop.zone")));
    zone.setAttribute("aria-label", t("drop.zone"));
    status.textContent = state.error || "";
    status.className = state.error ? "form-status error" : "form-status";
    status.hidden = !state.error;
    clear(root).append(
      h(
        "section",
        { class: "panel drop-page", "data-testid": "drop-page" },
        h("h2", {}, t("drop.title")),
        h("p", {}, t("drop.help")),
        zone,
        h("p", { class: "drop-choose" }, h("label", { for: "record-file" }, t("drop.choose")), " ", input),
        status,
      ),
    );
  }
  draw();
  window.addEventListener("langchange", draw);
}

