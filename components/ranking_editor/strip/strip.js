// Rankwise rank strip (Streamlit Components v2, no build step): the ranking editor's compact view. One row of
// cells on a rank axis, one cell per position, each showing its document's grade (a digit and a colour); the
// judged relevant documents the system did not return sit in a "not returned" box at the row's end; a dashed
// cutoff line after position k. A cell is dragged along the row (or into the box and back), moved with the keys
// (arrows choose, Space lifts and drops), or with the buttons under the row, which act on the chosen cell.
//
// The same state, data and messages as the ranking editor (editor.js; Python: components/ranking_editor/
// editor.py with view="strip"): Python owns the state and sends, with each render, the engine's values for
// every single move (data.score); the row's values at its end look them up (lookup.js), never compute one.
// A move is reported with setTriggerValue("edit", {seq, order, tray, grades[, k]}); `ack` and `rev` as there.
// A fixed strip (data.fixed) shows an order Python makes (a fused list): a click or the arrows choose a cell, whose
// name (its title) shows under the row; nothing moves.
import { mountComponent, svgIcon, say, el, setText, setAttr, setButton, drawScoreCells } from "../rankwise.ranking_editor/dom.js";
import { sameList, tableRow, scoreWords } from "../rankwise.ranking_editor/lookup.js";

const DRAG_THRESHOLD = 4; // px a press must travel before it becomes a drag
const KEY_COMMIT_MS = 700; // a run of arrow presses on the cutoff line is sent as one change once the keys rest
const ICONS = {
  left: "M15 6l-6 6 6 6", right: "M9 6l6 6-6 6", toTray: "M7 7l10 10M17 7 7 17",
  fromTray: "M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11", minus: "M6 12h12", plus: "M12 6v12M6 12h12",
};

export default function rankStrip(component) {
  return mountComponent(component, { selector: ".rs", css: new URL("./strip.css", import.meta.url),
                                     key: "__rankwiseStrip", setup, update, teardown });
}

function teardown(ctx) {
  endPress(ctx);
  clearTimeout(ctx.keyTimer);
}

// ---------------------------------------------------------------------------------------
// Set-up and drawing
// ---------------------------------------------------------------------------------------

function setup(root) {
  const q = (sel) => root.querySelector(sel);
  const ctx = {
    root,
    el: { wrap: q(".rs"), label: q(".rs-label"), score: q(".rs-score"), scoreCells: q(".rs-score-cells"),
          axis: q(".rs-axis"), lane: q(".rs-lane"), track: q(".rs-track"), tray: q(".rs-tray"),
          trayLabel: q(".rs-tray-label"), trayCells: q(".rs-tray-cells"), trayMore: q(".rs-tray-more"),
          name: q(".rs-name"), buttons: q(".rs-buttons"), note: q(".rs-note"), hint: q(".rs-sr"), live: q(".rs-live") },
    cells: new Map(), // id -> cell element
    titles: new Map(),
    data: null,
    local: { order: [], tray: [], grades: {} }, // the committed state as the strip knows it
    k: 1, // the cutoff drawn (data.k, or the line's position while it moves)
    sent: 0,
    rev: null,
    active: null, // the chosen cell's id (the buttons act on it; one Tab stop)
    lift: null, // a cell lifted with the keyboard: {id, order, tray} before the lift
    press: null, // a pointer pressed on a cell or the line
    keyTimer: 0,
    buttons: {},
  };
  ctx.cutoff = makeCutoff();
  for (const [action, iconName] of [["earlier", "left"], ["later", "right"], ["tray", "toTray"],
                                     ["grade-down", "minus"], ["grade-up", "plus"]]) {
    const b = el("button", "rs-btn");
    b.type = "button";
    b.dataset.action = action;
    b.dataset.testid = `rs-btn-${action}`;
    b.append(svgIcon(ICONS[iconName], 2.4));
    ctx.el.buttons.append(b);
    ctx.buttons[action] = b;
  }
  const w = ctx.el.wrap;
  w.addEventListener("pointerdown", (e) => onPointerDown(ctx, e));
  w.addEventListener("pointermove", (e) => onPointerMove(ctx, e));
  w.addEventListener("pointerup", (e) => onPointerUp(ctx, e));
  w.addEventListener("pointercancel", () => cancelPress(ctx));
  w.addEventListener("lostpointercapture", () => cancelPress(ctx));
  w.addEventListener("keydown", (e) => onKeyDown(ctx, e));
  w.addEventListener("click", (e) => onClick(ctx, e));
  w.addEventListener("focusin", (e) => {
    const cell = e.target.closest && e.target.closest(".rs-cell");
    if (cell && ctx.active !== cell.dataset.id) { ctx.active = cell.dataset.id; draw(ctx); }
  });
  w.addEventListener("focusout", (e) => { if (e.target === ctx.cutoff) sendKeyMove(ctx); });
  // A mouse moved over a cell chooses it (its name shows, the buttons act on it). Only a real move: a cell that
  // slides under a resting pointer (a key move, a rerun) must not take the keyboard's choice away.
  w.addEventListener("pointermove", (e) => {
    if (e.pointerType !== "mouse" || ctx.press || ctx.lift) return;
    const cell = e.target.closest && e.target.closest(".rs-cell");
    if (cell && ctx.active !== cell.dataset.id) { ctx.active = cell.dataset.id; draw(ctx); }
  });
  return ctx;
}

function makeCutoff() {
  const line = el("span", "rs-cutoff");
  line.dataset.testid = "rs-cutoff";
  line.append(el("span", "rs-cut-handle"));
  return line;
}

function update(ctx, data) {
  const before = ctx.data;
  ctx.data = data;
  const w = ctx.el.wrap;
  w.style.setProperty("--rs-scale", String(data.scale || 1));
  setText(ctx.el.label, data.label);
  setText(ctx.el.hint, say(data, data.fixed ? "Hint fixed" : "Hint"));
  w.classList.toggle("rs-is-fixed", !!data.fixed);
  setText(ctx.el.trayLabel, say(data, "Tray label"));
  for (const item of data.items) {
    ctx.titles.set(item.id, item.title);
    if (!ctx.cells.has(item.id)) ctx.cells.set(item.id, makeCell(item.id, data));
    ctx.cells.get(item.id).setAttribute("aria-roledescription", say(data, data.fixed ? "Cell role fixed" : "Cell role"));
  }
  const adopt = ctx.rev !== data.rev || data.ack >= ctx.sent;
  ctx.rev = data.rev;
  if (adopt && confirms(ctx, data, before)) {
    // Python's answer only confirms the state a drag, a lifted cell or a run of key presses started from: the
    // last drop's answer, come while the next move is under way. Nothing under the pointer changes, so the move
    // goes on (ended, its cell went back: a preview at 7 dropped at 6); its values come from the new table.
  } else if (adopt) {
    if (ctx.press) endPress(ctx);
    clearTimeout(ctx.keyTimer);
    ctx.keyTimer = 0;
    ctx.lift = null;
    ctx.local = { order: [...data.order], tray: [...data.tray], grades: { ...data.grades } };
    ctx.k = data.k;
  }
  const ids = [...ctx.local.order, ...ctx.local.tray];
  if (!ids.includes(ctx.active)) ctx.active = ctx.local.order[0] ?? ctx.local.tray[0] ?? null;
  draw(ctx);
}

// Whether Python's state is the one the move under way started from (a started drag, a lifted cell, or key
// presses on the line not yet sent, whose k was the last one Python sent), grades and k included.
function confirms(ctx, data, before) {
  let from = null;
  if (ctx.press && ctx.press.started) from = ctx.press.from;
  else if (ctx.lift) from = { ...ctx.lift, grades: ctx.local.grades, k: ctx.k };
  else if (ctx.keyTimer && before) from = { ...ctx.local, k: before.k };
  if (!from) return false;
  const ids = Object.keys(from.grades);
  return sameList(from.order, data.order) && sameList(from.tray, data.tray) && from.k === data.k
    && ids.length === Object.keys(data.grades).length && ids.every((id) => from.grades[id] === data.grades[id]);
}

function makeCell(id, data) {
  const cell = el("span", "rs-cell");
  cell.tabIndex = -1; // one Tab stop per strip: draw() gives the chosen cell tabindex 0 (a roving tabindex)
  cell.dataset.id = id;
  cell.dataset.testid = `rs-cell-${id}`;
  cell.setAttribute("role", "listitem");
  return cell;
}

function gradeWords(data, grade) {
  if (grade === undefined) return data.unjudgedLabel;
  return data.gradeLabels[String(grade)] || say(data, "Grade other", { grade });
}

function gradeLevel(grade) {
  if (grade === undefined) return "unjudged";
  if (grade < 0) return "neg";
  return grade === 0 ? "zero" : `g${Math.min(grade, 3)}`;
}

function relevant(grade) { return grade !== undefined && grade >= 1; }

// The tray's cells drawn: its relevant documents, and the one chosen or moving (the rest are counted).
function trayShown(ctx) {
  const { tray, grades } = ctx.local;
  const moving = ctx.press && ctx.press.started ? ctx.press.id : null;
  return tray.filter((id) => relevant(grades[id]) || id === moving || (ctx.lift && ctx.lift.id === id));
}

function draw(ctx) {
  const { data } = ctx;
  const { order, tray, grades } = ctx.local;
  const n = order.length;
  const k = ctx.k;
  const w = ctx.el.wrap;
  w.style.setProperty("--rs-n", String(Math.max(n, 1)));
  // The axis: a number per position (every one, or every fifth and the ends on a long list).
  const axis = ctx.el.axis;
  while (axis.children.length > n) axis.lastElementChild.remove();
  while (axis.children.length < n) axis.append(el("span", "rs-tick"));
  [...axis.children].forEach((tick, i) => {
    const pos = i + 1;
    setText(tick, n <= 12 || pos === 1 || pos % 5 === 0 || pos === n ? String(pos) : "");
  });
  placeChildren(ctx.el.track, order.map((id) => ctx.cells.get(id)));
  const shownTray = trayShown(ctx);
  placeChildren(ctx.el.trayCells, shownTray.map((id) => ctx.cells.get(id)));
  ctx.el.tray.hidden = !data.trayEnabled;
  const more = tray.length - shownTray.length;
  setText(ctx.el.trayMore, more > 0 ? say(data, "Tray more", { m: more }) : "");
  for (const [id, cell] of ctx.cells) {
    const inList = order.indexOf(id);
    const g = grades[id];
    setText(cell, g === undefined ? "?" : String(g));
    setAttr(cell, "data-grade", gradeLevel(g));
    const title = ctx.titles.get(id);
    const out = inList >= 0 && k !== null && k !== undefined && inList + 1 > k; // below the cutoff: not counted
    const where = inList < 0 ? say(data, "Cell in tray", { title })
      : say(data, out ? "Cell below cutoff" : "Cell in list", { title, pos: inList + 1, n });
    setAttr(cell, "aria-label", say(data, "Cell with grade", { cell: where, grade: gradeWords(data, g) }));
    setAttr(cell, "title", title);
    cell.classList.toggle("rs-out", out);
    cell.classList.toggle("rs-active", id === ctx.active);
    cell.classList.toggle("rs-lifted", !!ctx.lift && ctx.lift.id === id);
    cell.classList.toggle("rs-dragging", !!ctx.press && ctx.press.started && ctx.press.id === id);
    cell.tabIndex = id === ctx.active ? 0 : -1;
  }
  drawCutoff(ctx);
  drawFoot(ctx);
  drawScore(ctx);
}

function placeChildren(parent, nodes) {
  nodes.forEach((node, i) => {
    if (parent.children[i] !== node) {
      const ref = parent.children[i] || null;
      if (parent.moveBefore && node.isConnected && node.getRootNode() === parent.getRootNode()) parent.moveBefore(node, ref);
      else parent.insertBefore(node, ref);
    }
  });
  while (parent.children.length > nodes.length) parent.lastElementChild.remove();
}

// The dashed line after position k (a CSS column: --rs-k), draggable when the page lets it set k.
function drawCutoff(ctx) {
  const { data } = ctx;
  const line = ctx.cutoff;
  const n = ctx.local.order.length;
  if (data.k === null || data.k === undefined || !n) { line.remove(); return; }
  if (line.parentNode !== ctx.el.lane) ctx.el.lane.append(line);
  const k = Math.min(ctx.k, n);
  ctx.el.wrap.style.setProperty("--rs-k", String(k));
  const movable = data.kDrag !== null && data.kDrag !== undefined;
  line.classList.toggle("rs-fixed", !movable);
  setText(line.firstChild, say(data, "Cutoff handle", { k: ctx.k }));
  if (movable) {
    line.tabIndex = 0;
    setAttr(line, "role", "slider");
    setAttr(line, "aria-label", say(data, "Cutoff"));
    setAttr(line, "aria-valuemin", "1");
    setAttr(line, "aria-valuemax", String(data.kDrag));
    setAttr(line, "aria-valuenow", String(ctx.k));
    setAttr(line, "aria-valuetext", say(data, "Cutoff value", { k: ctx.k }));
  } else {
    line.removeAttribute("tabindex");
    line.removeAttribute("role");
    setAttr(line, "aria-hidden", "true");
  }
}

// Under the row: the chosen document's name, and the buttons that move it.
function drawFoot(ctx) {
  const { data } = ctx;
  const id = ctx.active;
  const { order, grades } = ctx.local;
  const b = ctx.buttons;
  if (id === null) {
    setText(ctx.el.name, say(data, "Name none"));
    for (const button of Object.values(b)) button.hidden = true;
    return;
  }
  const title = ctx.titles.get(id);
  const i = order.indexOf(id);
  const grade = gradeWords(data, grades[id]);
  setText(ctx.el.name, i < 0 ? say(data, "Name in tray", { title, grade }) : say(data, "Name in list", { pos: i + 1, title, grade }));
  if (data.fixed) { for (const button of Object.values(b)) button.hidden = true; return; } // nothing to move
  b.earlier.hidden = b.later.hidden = i < 0;
  setButton(b.earlier, say(data, "Earlier", { title }), i <= 0);
  setButton(b.later, say(data, "Later", { title }), i < 0 || i >= order.length - 1);
  b.tray.hidden = !data.trayEnabled;
  b.tray.replaceChildren(svgIcon(i < 0 ? ICONS.fromTray : ICONS.toTray, 2.4));
  setButton(b.tray, say(data, i < 0 ? "From tray" : "To tray", { title }), false);
  const [lo, hi] = data.gradeRange;
  const g = grades[id];
  b["grade-down"].hidden = b["grade-up"].hidden = !data.editableGrades;
  setButton(b["grade-down"], say(data, "Grade down", { title }), g !== undefined && g <= lo);
  setButton(b["grade-up"], say(data, "Grade up", { title }), g !== undefined && g >= hi);
}

// ---------------------------------------------------------------------------------------
// The row's values: the engine's table looked up for the state drawn
// ---------------------------------------------------------------------------------------

function shownState(ctx) {
  return { order: ctx.local.order, tray: ctx.local.tray, grades: ctx.local.grades, k: ctx.k };
}

function drawScore(ctx) {
  const { data, el: e } = ctx;
  const score = data.score;
  e.score.hidden = !score;
  if (!score) return;
  const labels = score.labels.map((label) => label.replace("{k}", String(ctx.k)));
  let values = labels.map(() => "?");
  let deltas = labels.map(() => "");
  let note = "";
  let preview = false;
  if (score.hidden) {
    note = say(data, "Score hidden");
  } else {
    const row = tableRow(data, shownState(ctx));
    const current = score.table.current;
    if (row === null) {
      values = score.shown[current];
      note = say(data, "Score none");
    } else {
      values = score.shown[row];
      deltas = score.deltas[row];
      preview = row !== current || !!(ctx.press && ctx.press.started) || !!ctx.lift || !!ctx.keyTimer;
      if (preview) note = say(data, "Score preview");
    }
  }
  e.score.classList.toggle("rs-preview", preview);
  setAttr(e.score, "aria-label", say(data, "Score label"));
  drawScoreCells(e.scoreCells, "rs", labels, values, deltas);
  setText(e.note, note);
}

function announce(ctx, text) {
  const live = ctx.el.live;
  live.textContent = live.textContent === text ? `${text}\u00a0` : text;
}

function announceWhere(ctx, id, key = "Moved") {
  const { order } = ctx.local;
  const title = ctx.titles.get(id);
  const i = order.indexOf(id);
  const words = i < 0 ? say(ctx.data, "Moved to tray", { title }) : say(ctx.data, key, { title, pos: i + 1, n: order.length });
  const board = ctx.data.score ? scoreWords(ctx.data, tableRow(ctx.data, shownState(ctx)), ctx.k, say) : "";
  announce(ctx, [words, board].filter(Boolean).join(" "));
}

// ---------------------------------------------------------------------------------------
// Moves: each changes ctx.local (drawn at once) and is sent as one change
// ---------------------------------------------------------------------------------------

// The state with `id` at `index` of the list (zone "order") or in the tray.
function placed(local, id, zone, index) {
  const order = local.order.filter((x) => x !== id);
  const tray = local.tray.filter((x) => x !== id);
  if (zone === "order") order.splice(Math.max(0, Math.min(index, order.length)), 0, id);
  else tray.push(id);
  return { ...local, order, tray };
}

function commit(ctx, withK = false) {
  ctx.sent = Math.max(ctx.sent, ctx.data.ack) + 1;
  const { order, tray, grades } = ctx.local;
  const edit = { seq: ctx.sent, order: [...order], tray: [...tray], grades: { ...grades } };
  ctx.send("edit", withK ? { ...edit, k: ctx.k } : edit);
}

function move(ctx, id, zone, index) {
  const next = placed(ctx.local, id, zone, index);
  if (sameList(next.order, ctx.local.order) && sameList(next.tray, ctx.local.tray)) return;
  ctx.local = next;
  commit(ctx);
  draw(ctx);
  focusCell(ctx, id);
  announceWhere(ctx, id);
}

function toggleTray(ctx, id) {
  if (!ctx.data.trayEnabled) return;
  if (ctx.local.order.includes(id)) move(ctx, id, "tray", 0);
  else move(ctx, id, "order", ctx.local.order.length);
}

function stepGrade(ctx, id, delta) {
  const { data } = ctx;
  if (!data.editableGrades) return;
  const [lo, hi] = data.gradeRange;
  const g = ctx.local.grades[id];
  const next = Math.max(lo, Math.min(hi, g === undefined ? (delta > 0 ? Math.min(hi, Math.max(lo, 1)) : lo) : g + delta));
  if (next === g) return;
  ctx.local = { ...ctx.local, grades: { ...ctx.local.grades, [id]: next } };
  commit(ctx);
  draw(ctx);
  announce(ctx, say(data, "Grade set", { title: ctx.titles.get(id), grade: gradeWords(data, next) }));
}

function focusCell(ctx, id) {
  const cell = ctx.cells.get(id);
  if (cell && cell.isConnected) cell.focus({ preventScroll: true });
}

function onClick(ctx, e) {
  const b = e.target.closest && e.target.closest("button.rs-btn");
  if (!b || ctx.active === null) return;
  e.preventDefault();
  if (b.getAttribute("aria-disabled") === "true") return;
  const id = ctx.active;
  const i = ctx.local.order.indexOf(id);
  const actions = {
    earlier: () => move(ctx, id, "order", i - 1),
    later: () => move(ctx, id, "order", i + 1),
    tray: () => toggleTray(ctx, id),
    "grade-up": () => stepGrade(ctx, id, +1),
    "grade-down": () => stepGrade(ctx, id, -1),
  };
  actions[b.dataset.action]();
  b.focus({ preventScroll: true }); // the button keeps the focus: press it again to go on
}

// The cells in reading order: the list, then the tray's drawn cells.
function cellOrder(ctx) { return [...ctx.local.order, ...trayShown(ctx)]; }

function onKeyDown(ctx, e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (ctx.press && ctx.press.started) {
    if (e.key === "Escape") { e.preventDefault(); cancelPress(ctx); }
    return;
  }
  if (e.target === ctx.cutoff) { cutoffKey(ctx, e); return; }
  const cell = e.target.closest && e.target.closest(".rs-cell");
  if (!cell) return;
  const id = cell.dataset.id;
  const lifted = ctx.lift && ctx.lift.id === id;
  const choosing = { ArrowLeft: 1, ArrowUp: 1, ArrowRight: 1, ArrowDown: 1, Home: 1, End: 1 }[e.key];
  if (ctx.data.fixed && !choosing) return; // a fixed strip's keys only choose a cell
  const inList = ctx.local.order.indexOf(id);
  const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[e.key];
  let action = null;
  if (lifted) {
    const last = ctx.local.order.length - 1;
    const to = step ? inList + step : e.key === "Home" ? 0 : e.key === "End" ? last : null;
    if (to !== null && inList >= 0) action = () => liftTo(ctx, id, Math.max(0, Math.min(last, to)));
    else if (e.key === " " || e.key === "Enter") action = () => drop(ctx, id);
    else if (e.key === "Escape") action = () => putBack(ctx, id);
  } else {
    const all = cellOrder(ctx);
    const at = all.indexOf(id);
    const to = step ? at + step : e.key === "Home" ? 0 : e.key === "End" ? all.length - 1 : null;
    if (to !== null) action = () => { if (to >= 0 && to < all.length) { ctx.active = all[to]; draw(ctx); focusCell(ctx, all[to]); } };
    else if (e.key === " " || e.key === "Enter") action = () => lift(ctx, id);
    else if (["t", "T", "Delete", "Backspace"].includes(e.key) && ctx.data.trayEnabled) action = () => toggleTray(ctx, id);
    else if (["+", "="].includes(e.key) && ctx.data.editableGrades) action = () => stepGrade(ctx, id, +1);
    else if (["-", "_"].includes(e.key) && ctx.data.editableGrades) action = () => stepGrade(ctx, id, -1);
  }
  if (!action) return;
  e.preventDefault();
  action();
}

function lift(ctx, id) {
  if (!ctx.local.order.includes(id)) { toggleTray(ctx, id); return; } // a tray cell lifts into the list's end
  ctx.lift = { id, order: [...ctx.local.order], tray: [...ctx.local.tray] };
  draw(ctx);
  focusCell(ctx, id);
  announce(ctx, say(ctx.data, "Lifted", { title: ctx.titles.get(id) }));
}

function liftTo(ctx, id, index) {
  if (ctx.local.order.indexOf(id) === index) return;
  ctx.local = placed(ctx.local, id, "order", index);
  draw(ctx);
  focusCell(ctx, id);
  announceWhere(ctx, id);
}

function drop(ctx, id) {
  const before = ctx.lift;
  ctx.lift = null;
  const changed = !sameList(before.order, ctx.local.order);
  if (changed) commit(ctx);
  draw(ctx);
  focusCell(ctx, id);
  if (changed) announceWhere(ctx, id, "Dropped");
  else announce(ctx, say(ctx.data, "Dropped unchanged", { title: ctx.titles.get(id) }));
}

function putBack(ctx, id) {
  ctx.local = { ...ctx.local, order: ctx.lift.order, tray: ctx.lift.tray };
  ctx.lift = null;
  draw(ctx);
  focusCell(ctx, id);
  announce(ctx, say(ctx.data, "Put back", { title: ctx.titles.get(id) }));
}

// The cutoff line as a slider: the arrows, Home and End move it at once (previewed); the change is sent when
// the keys rest, on Enter, or when the focus leaves. Escape puts it back.
function cutoffKey(ctx, e) {
  const { data } = ctx;
  if (data.kDrag === null || data.kDrag === undefined) return;
  const step = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 }[e.key];
  let to = null;
  if (step) to = ctx.k + step;
  else if (e.key === "Home") to = 1;
  else if (e.key === "End") to = data.kDrag;
  else if (e.key === "Enter") { e.preventDefault(); sendKeyMove(ctx); return; }
  else if (e.key === "Escape" && ctx.keyTimer) {
    e.preventDefault();
    clearTimeout(ctx.keyTimer);
    ctx.keyTimer = 0;
    ctx.k = data.k;
    draw(ctx);
    return;
  }
  if (to === null) return;
  e.preventDefault();
  to = Math.max(1, Math.min(data.kDrag, to));
  if (to === ctx.k) return;
  ctx.k = to;
  clearTimeout(ctx.keyTimer);
  ctx.keyTimer = setTimeout(() => sendKeyMove(ctx), KEY_COMMIT_MS);
  draw(ctx);
  announce(ctx, [say(data, "Cutoff moved", { k: to }), scoreWords(data, tableRow(data, shownState(ctx)), to, say)]
    .filter(Boolean).join(" "));
}

function sendKeyMove(ctx) {
  if (!ctx.keyTimer) return;
  clearTimeout(ctx.keyTimer);
  ctx.keyTimer = 0;
  if (ctx.k !== ctx.data.k) commit(ctx, true);
  draw(ctx);
}

// ---------------------------------------------------------------------------------------
// Dragging a cell along the row, into the "not returned" box and back, or the line across the axis
// ---------------------------------------------------------------------------------------

function onPointerDown(ctx, e) {
  if (ctx.press || !e.isPrimary || (e.pointerType === "mouse" && e.button !== 0)) return;
  const movable = ctx.data.kDrag !== null && ctx.data.kDrag !== undefined;
  const target = e.target.closest && e.target.closest(movable ? ".rs-cell, .rs-cutoff" : ".rs-cell");
  if (!target) return;
  e.preventDefault();
  if (ctx.data.fixed) { // nothing moves: a press chooses the cell (its name and values show under the row)
    if (target !== ctx.cutoff) { ctx.active = target.dataset.id; draw(ctx); target.focus({ preventScroll: true }); }
    return;
  }
  sendKeyMove(ctx);
  if (ctx.lift) drop(ctx, ctx.lift.id);
  ctx.el.wrap.setPointerCapture(e.pointerId);
  const isLine = target === ctx.cutoff;
  const id = isLine ? null : target.dataset.id;
  if (id !== null) { ctx.active = id; target.focus({ preventScroll: true }); }
  ctx.press = { target, id, isLine, pointerId: e.pointerId, x0: e.clientX, y0: e.clientY, x: e.clientX, y: e.clientY,
                started: false, raf: 0, from: { ...ctx.local, k: ctx.k } };
}

function onPointerMove(ctx, e) {
  const p = ctx.press;
  if (!p || e.pointerId !== p.pointerId) return;
  p.x = e.clientX;
  p.y = e.clientY;
  if (!p.started) {
    if (Math.abs(p.x - p.x0) < DRAG_THRESHOLD && Math.abs(e.clientY - p.y0) < DRAG_THRESHOLD) return;
    p.started = true;
    p.geometry = geometry(ctx);
    draw(ctx);
  }
  if (!p.raf) p.raf = requestAnimationFrame(() => { p.raf = 0; if (ctx.press === p) dragStep(ctx); });
}

// Where the positions are, read once when a drag starts: the left edge of position 1 and the pitch from one
// position to the next (the cells have one width, so it holds for a longer list too), and the tray's box.
function geometry(ctx) {
  const track = ctx.el.track.getBoundingClientRect();
  const first = ctx.el.axis.children[0];
  const second = ctx.el.axis.children[1];
  const a = first ? first.getBoundingClientRect() : track;
  const pitch = second ? second.getBoundingClientRect().left - a.left : a.width;
  return { left: a.left, pitch: pitch || 1, width: a.width, tray: ctx.data.trayEnabled ? ctx.el.tray.getBoundingClientRect() : null };
}

function dragStep(ctx) {
  const p = ctx.press;
  const g = p.geometry;
  if (p.isLine) {
    const k = Math.max(1, Math.min(ctx.data.kDrag, Math.round((p.x - g.left) / g.pitch)));
    if (k !== ctx.k) { ctx.k = k; draw(ctx); }
    return;
  }
  const t = g.tray;
  const m = g.pitch / 2; // the box's edge reaches half a position out
  const inTray = t && p.x >= t.left - m && p.x <= t.right + m && p.y >= t.top - m && p.y <= t.bottom + m;
  const n = p.from.order.filter((x) => x !== p.id).length + 1; // the list's length once the cell is in it
  const index = Math.max(0, Math.min(n - 1, Math.floor((p.x - g.left) / g.pitch)));
  const next = inTray ? placed(p.from, p.id, "tray", 0) : placed(p.from, p.id, "order", index);
  if (!sameList(next.order, ctx.local.order) || !sameList(next.tray, ctx.local.tray)) {
    ctx.local = { ...next, grades: ctx.local.grades };
    draw(ctx);
  }
}

function onPointerUp(ctx, e) {
  const p = ctx.press;
  if (!p || e.pointerId !== p.pointerId) return;
  if (p.started) {
    p.x = e.clientX;
    p.y = e.clientY;
    dragStep(ctx);
  }
  endPress(ctx);
  if (!p.started) { draw(ctx); return; } // a click chose the cell (the buttons act on it)
  if (p.isLine) {
    if (ctx.k !== ctx.data.k) commit(ctx, true);
    draw(ctx);
    announce(ctx, say(ctx.data, "Cutoff moved", { k: ctx.k }));
    return;
  }
  const changed = !sameList(p.from.order, ctx.local.order) || !sameList(p.from.tray, ctx.local.tray);
  if (changed) commit(ctx);
  draw(ctx);
  focusCell(ctx, p.id);
  announceWhere(ctx, p.id, changed ? "Dropped" : "Dropped unchanged");
}

function endPress(ctx) {
  const p = ctx.press;
  ctx.press = null;
  if (!p) return;
  if (p.raf) cancelAnimationFrame(p.raf);
  if (ctx.el.wrap.hasPointerCapture(p.pointerId)) ctx.el.wrap.releasePointerCapture(p.pointerId);
}

function cancelPress(ctx) {
  const p = ctx.press;
  if (!p) return;
  endPress(ctx);
  if (p.started) {
    ctx.local = { order: p.from.order, tray: p.from.tray, grades: p.from.grades };
    ctx.k = p.from.k;
    draw(ctx);
  }
}
