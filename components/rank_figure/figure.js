// Rankwise hit-rank figure (Streamlit Components v2, no build step): the queries on one shared rank
// axis 1..L plus "not returned", each query's one relevant document (its hit) a dot you drag along its
// row, and a dashed cutoff line you drag across the axis.
//
// Python owns the state (the ranks in st.session_state, k in the page's slider) and sends, with each
// render, the engine's values for the state and for every single move (data.score; see
// components/rank_figure/table.py): during a drag or a key move the scoreboard looks the values up,
// it never computes one. A move is reported with setTriggerValue("move", {seq, ranks} or {seq, k}).
// Sync as in the ranking editor: `ack` is the last sequence number Python received, `rev` changes when
// Python set the ranks itself (a preset); the figure adopts Python's state when nothing newer of its
// own is in flight, or when `rev` changed.
// The DOM helpers live in the ranking editor's folder, served beside this one (served.py).
import { mountComponent, svgIcon, say, el, setText, setAttr, setButton, drawScoreCells } from "../rankwise.ranking_editor/dom.js";

const DRAG_THRESHOLD = 4; // px a press must travel before it becomes a drag
const KEY_COMMIT_MS = 700; // a run of arrow presses is sent as one change once the keys rest this long
const NARROW_EM = 34; // below this width (in the figure's em) RR and the buttons go under each row
const ICONS = { left: "M15 6l-6 6 6 6", right: "M9 6l6 6-6 6" };

export default function rankFigure(component) {
  return mountComponent(component, { selector: ".rf", css: new URL("./figure.css", import.meta.url),
                                     key: "__rankwiseFigure", setup, update, teardown });
}

function teardown(ctx) {
  endPress(ctx);
  clearTimeout(ctx.keyTimer);
  ctx.resizeObserver.disconnect();
}

// ---------------------------------------------------------------------------------------
// Set-up and drawing
// ---------------------------------------------------------------------------------------

function setup(root) {
  const q = (sel) => root.querySelector(sel);
  const ctx = {
    root,
    el: { wrap: q(".rf"), label: q(".rf-label"), hint: q(".rf-hint"), grid: q(".rf-grid"), live: q(".rf-live"),
          score: q(".rf-score"), scoreCells: q(".rf-score-cells"), scoreNote: q(".rf-score-note") },
    shape: "", // queries × length the grid was built for
    dots: [], slots: [], rrs: [], buttons: [], cutoff: null,
    data: null,
    local: { ranks: [], k: 1 }, // the committed state as the figure knows it
    shown: { ranks: [], k: 1 }, // what is drawn: local, or a move in progress (the preview)
    sent: 0,
    rev: null,
    press: null, // a pointer pressed on a dot or on the line
    keyTimer: 0, // a key move waiting to be sent
  };
  const w = ctx.el.wrap;
  w.addEventListener("pointerdown", (e) => onPointerDown(ctx, e));
  w.addEventListener("pointermove", (e) => onPointerMove(ctx, e));
  w.addEventListener("pointerup", (e) => onPointerUp(ctx, e));
  w.addEventListener("pointercancel", () => cancelPress(ctx));
  w.addEventListener("lostpointercapture", () => cancelPress(ctx));
  w.addEventListener("keydown", (e) => onKeyDown(ctx, e));
  w.addEventListener("focusout", (e) => { if (e.target.getAttribute("role") === "slider") sendKeyMove(ctx); });
  w.addEventListener("click", (e) => onClick(ctx, e));
  ctx.resizeObserver = new ResizeObserver(() => { fitWidth(ctx); placeCutoff(ctx); });
  ctx.resizeObserver.observe(w);
  return ctx;
}

function update(ctx, data) {
  ctx.data = data;
  const w = ctx.el.wrap;
  w.style.setProperty("--rf-scale", String(data.scale || 1));
  w.style.setProperty("--rf-length", String(data.length));
  ctx.el.label.textContent = data.label;
  const shape = `${data.queries.length}x${data.length}`;
  if (ctx.shape !== shape) build(ctx);
  if (!ctx.el.hint.dataset.done) drawHint(ctx);
  const adopt = ctx.rev !== data.rev || data.ack >= ctx.sent;
  ctx.rev = data.rev;
  if (adopt && confirms(ctx, data)) {
    // Python's answer only confirms the state the move under way (a started drag, key presses not yet sent)
    // started from: the last drop's answer, come during the next move. The move goes on (ended, its dot went
    // back); its values come from the new table.
  } else if (adopt) {
    if (ctx.press) endPress(ctx);
    clearTimeout(ctx.keyTimer);
    ctx.keyTimer = 0;
    ctx.local = { ranks: [...data.ranks], k: data.k };
    ctx.shown = { ranks: [...data.ranks], k: data.k };
  }
  fitWidth(ctx);
  draw(ctx);
}

// Whether Python's state is the committed one a move under way started from.
function confirms(ctx, data) {
  const moving = (ctx.press && ctx.press.started) || ctx.keyTimer;
  const L = ctx.local;
  return !!moving && data.k === L.k && data.ranks.length === L.ranks.length && data.ranks.every((r, i) => r === L.ranks[i]);
}

function icon(name) { return svgIcon(ICONS[name], 2.4); }

function drawHint(ctx) {
  const data = ctx.data;
  const keys = el("span", "rf-hint-keys");
  const parts = data.text.Hint.split(/\{(\w+)\}/);
  parts.forEach((part, i) => {
    if (i % 2) keys.append(el("kbd", "", part === "home" ? "Home" : "End"));
    else if (part) keys.append(document.createTextNode(part));
  });
  const touch = el("span", "rf-hint-touch", say(data, "Hint touch"));
  ctx.el.hint.replaceChildren(keys, touch);
  ctx.el.hint.dataset.done = "1";
}

// The grid, once per shape: a header row (the axis), one row per query, the cutoff line.
function build(ctx) {
  const { data, el: e } = ctx;
  ctx.shape = `${data.queries.length}x${data.length}`;
  const grid = e.grid;
  grid.replaceChildren();
  grid.append(el("span"));
  for (let r = 1; r <= data.length; r += 1) grid.append(el("span", "rf-axis", String(r)));
  grid.append(el("span"), el("span", "rf-axis rf-axis-nr", say(data, "Axis not returned")),
              el("span", "rf-axis rf-axis-side", say(data, "Axis rr")));
  ctx.dots = []; ctx.slots = []; ctx.rrs = []; ctx.buttons = [];
  data.queries.forEach((name, q) => {
    const row = [];
    grid.append(el("span", "rf-name", data.short[q]));
    for (let s = 0; s <= data.length; s += 1) {
      if (s === data.length) grid.append(el("span"));
      const slot = el("span", s === data.length ? "rf-slot rf-slot-nr" : "rf-slot");
      slot.dataset.slot = String(s);
      grid.append(slot);
      row.push(slot);
    }
    const dot = el("span", "rf-dot");
    dot.tabIndex = 0;
    dot.dataset.q = String(q);
    dot.dataset.testid = `rf-dot-${q + 1}`;
    dot.setAttribute("role", "slider");
    dot.setAttribute("aria-valuemin", "1");
    dot.setAttribute("aria-valuemax", String(data.length + 1));
    const side = el("span", "rf-side");
    const rr = el("span", "rf-rr");
    rr.dataset.testid = `rf-rr-${q + 1}`;
    rr.append(el("span", "rf-rr-name"), el("span", "rf-rr-value"));
    const earlier = el("button", "rf-btn");
    const later = el("button", "rf-btn");
    for (const [b, dir, action] of [[earlier, "left", "earlier"], [later, "right", "later"]]) {
      b.type = "button";
      b.dataset.q = String(q);
      b.dataset.action = action;
      b.append(icon(dir));
    }
    side.append(rr, earlier, later);
    grid.append(side);
    ctx.dots.push(dot); ctx.slots.push(row); ctx.rrs.push(rr); ctx.buttons.push([earlier, later]);
  });
  const cutoff = el("span", "rf-cutoff");
  cutoff.tabIndex = 0;
  cutoff.dataset.testid = "rf-cutoff";
  cutoff.setAttribute("role", "slider");
  cutoff.setAttribute("aria-valuemin", "1");
  cutoff.setAttribute("aria-valuemax", String(data.length));
  cutoff.append(el("span", "rf-cut-handle"));
  grid.append(cutoff);
  ctx.cutoff = cutoff;
}

function fitWidth(ctx) {
  const w = ctx.el.wrap;
  const em = parseFloat(getComputedStyle(w).fontSize) || 16;
  const width = w.clientWidth / em;
  const narrow = width > 0 && width < NARROW_EM;
  if (w.classList.contains("rf-narrow") !== narrow) w.classList.toggle("rf-narrow", narrow);
}

// A slot index (0..L-1 positions, L not returned) and back.
function slotOf(data, rank) { return rank === null ? data.length : rank - 1; }
function rankOf(data, slot) { return slot >= data.length ? null : slot + 1; }

// Draw ctx.shown: each dot in its slot (filled when counted), its RR, the line, the buttons, the board.
function draw(ctx) {
  const { data } = ctx;
  const { ranks, k } = ctx.shown;
  const score = data.score;
  ranks.forEach((rank, q) => {
    const dot = ctx.dots[q];
    const slot = ctx.slots[q][slotOf(data, rank)];
    if (dot.parentNode !== slot) put(slot, dot);
    const counted = rank !== null && rank <= k;
    dot.classList.toggle("rf-counted", counted);
    setText(dot, rank === null ? "–" : String(rank));
    const query = data.queries[q];
    const rr = score ? score.rr[slotOf(data, rank)] : "?";
    const where = rank === null ? say(data, "Dot not returned", { query })
                                : say(data, "Dot at rank", { query, rank });
    const text = [where, rank === null ? "" : say(data, counted ? "Dot counted" : "Dot not counted", { k }),
                  say(data, "Dot rr", { rr })].filter(Boolean).join(", ");
    setAttr(dot, "aria-valuenow", String(slotOf(data, rank) + 1));
    setAttr(dot, "aria-valuetext", text);
    setAttr(dot, "aria-label", query);
    const [rrName, rrValue] = ctx.rrs[q].children;
    setText(rrName, `${say(data, "Axis rr")} `);
    setText(rrValue, rr);
    const [earlier, later] = ctx.buttons[q];
    setButton(earlier, say(data, "Earlier", { query }), rank === 1);
    setButton(later, say(data, "Later", { query }), rank === null);
  });
  setText(ctx.cutoff.firstChild, say(data, "Cutoff handle", { k }));
  setAttr(ctx.cutoff, "aria-label", say(data, "Cutoff"));
  setAttr(ctx.cutoff, "aria-valuenow", String(k));
  setAttr(ctx.cutoff, "aria-valuetext", say(data, "Cutoff value", { k }));
  placeCutoff(ctx);
  drawScore(ctx);
}

function put(parent, node) {
  if (parent.moveBefore && node.isConnected && node.getRootNode() === parent.getRootNode()) parent.moveBefore(node, null);
  else parent.appendChild(node);
}

// The x (in the grid's box) of the boundary after position j, for j = 1..L.
function boundaries(ctx) {
  const g = ctx.el.grid.getBoundingClientRect();
  const row = ctx.slots[0];
  const xs = [];
  for (let j = 1; j <= ctx.data.length; j += 1) {
    const a = row[j - 1].getBoundingClientRect();
    const b = j < ctx.data.length ? row[j].getBoundingClientRect() : null;
    xs.push((b ? (a.right + b.left) / 2 : a.right + 2) - g.left);
  }
  return xs;
}

// The dashed line after position k, from the first query row down to its handle under the last.
function placeCutoff(ctx) {
  if (!ctx.cutoff || !ctx.slots.length) return;
  const g = ctx.el.grid.getBoundingClientRect();
  const first = ctx.slots[0][0].getBoundingClientRect();
  const x = boundaries(ctx)[ctx.shown.k - 1];
  const s = ctx.cutoff.style;
  const left = `${x}px`;
  const top = `${first.top - g.top - 4}px`;
  if (s.left !== left) s.left = left;
  if (s.top !== top) s.top = top;
  if (s.bottom !== "0px") s.bottom = "0px";
}

// ---------------------------------------------------------------------------------------
// The scoreboard: rows of the engine's table (data.score), looked up for the state drawn
// ---------------------------------------------------------------------------------------

// The table row for ctx.shown, or null when it is not one move away from Python's state.
function scoreRow(ctx) {
  const { data } = ctx;
  const t = data.score;
  const { ranks, k } = ctx.shown;
  const moved = ranks.map((r, q) => (r === data.ranks[q] ? -1 : q)).filter((q) => q >= 0);
  if (k !== data.k) return moved.length ? null : t.cutoff[k - 1];
  if (!moved.length) return t.current;
  if (moved.length > 1) return null;
  const q = moved[0];
  return t.place[q][slotOf(data, ranks[q])];
}

function drawScore(ctx) {
  const { data, el: e } = ctx;
  const score = data.score;
  const labels = data.labels.map((label) => label.replace("{k}", String(ctx.shown.k)));
  let values = labels.map(() => "?");
  let deltas = labels.map(() => "");
  let note = "";
  let preview = false;
  if (!score) {
    note = say(data, "Score hidden");
  } else {
    const row = scoreRow(ctx);
    if (row === null) {
      values = score.shown[score.current];
      note = say(data, "Score none");
    } else {
      values = score.shown[row];
      deltas = score.deltas[row];
      preview = row !== score.current || !!ctx.press || !!ctx.keyTimer;
      if (row !== score.current) note = [say(data, "Score preview"), reason(ctx)].filter(Boolean).join(": ");
      else if (preview) note = say(data, "Score preview");
    }
  }
  e.score.classList.toggle("rf-preview", preview);
  setAttr(e.score, "aria-label", say(data, "Score label"));
  drawScoreCells(e.scoreCells, "rf", labels, values, deltas);
  setText(e.scoreNote, note);
}

// Why the numbers move, in words: which answer crossed the line, or where the line went.
function reason(ctx) {
  const { data } = ctx;
  const { ranks, k } = ctx.shown;
  if (k !== data.k) return say(data, "Reason cutoff", { from: data.k, to: k });
  const q = ranks.findIndex((r, i) => r !== data.ranks[i]);
  if (q < 0) return "";
  const inside = (r) => r !== null && r <= k;
  const was = inside(data.ranks[q]);
  const now = inside(ranks[q]);
  const key = was === now ? (now ? "Reason inside" : "Reason outside") : (now ? "Reason entered" : "Reason left");
  return say(data, key, { query: data.queries[q], k });
}

function scoreWords(ctx) {
  const score = ctx.data.score;
  if (!score) return "";
  const row = scoreRow(ctx);
  if (row === null) return "";
  return ctx.data.labels.map((label, i) => {
    const delta = score.deltas[row][i];
    const values = { label: label.replace("{k}", String(ctx.shown.k)), value: score.shown[row][i], delta };
    return say(ctx.data, delta ? "Score words change" : "Score words", values);
  }).join(", ");
}

function announce(ctx, text) {
  const live = ctx.el.live;
  live.textContent = live.textContent === text ? `${text}\u00a0` : text;
}

function announceShown(ctx, what) {
  const { data } = ctx;
  const { ranks, k } = ctx.shown;
  let words;
  if (what === "k") words = say(data, "Cutoff moved", { k });
  else {
    const rank = ranks[what];
    const where = rank === null ? say(data, "Where not returned") : say(data, "Where rank", { rank });
    words = say(data, "Moved", { query: data.queries[what], where });
  }
  announce(ctx, [words, scoreWords(ctx)].filter(Boolean).join(" "));
}

// ---------------------------------------------------------------------------------------
// Making a move: every way ends in show() (a preview) and commit() (one change sent)
// ---------------------------------------------------------------------------------------

function show(ctx, ranks, k) {
  ctx.shown = { ranks, k };
  draw(ctx);
}

function withRank(ranks, q, rank) { return ranks.map((r, i) => (i === q ? rank : r)); }

function commit(ctx) {
  const { ranks, k } = ctx.shown;
  const L = ctx.local;
  const sameRanks = ranks.every((r, i) => r === L.ranks[i]);
  if (sameRanks && k === L.k) return;
  ctx.sent = Math.max(ctx.sent, ctx.data.ack) + 1;
  ctx.local = { ranks: [...ranks], k };
  ctx.send("move", sameRanks ? { seq: ctx.sent, k } : { seq: ctx.sent, ranks: [...ranks] });
}

function onClick(ctx, e) {
  const b = e.target.closest && e.target.closest("button.rf-btn");
  if (!b || b.getAttribute("aria-disabled") === "true") return;
  e.preventDefault();
  sendKeyMove(ctx);
  const q = Number(b.dataset.q);
  const slot = slotOf(ctx.data, ctx.shown.ranks[q]) + (b.dataset.action === "earlier" ? -1 : 1);
  show(ctx, withRank(ctx.shown.ranks, q, rankOf(ctx.data, slot)), ctx.shown.k);
  announceShown(ctx, q);
  commit(ctx);
}

// Keys on a dot or on the line (each a slider): the arrows, Home and End move it at once, drawn and
// previewed; the change is sent when the keys rest (one change for a run of presses), on Enter, or when
// the focus leaves. Escape puts it back where it was.
function onKeyDown(ctx, e) {
  const target = e.target;
  if (ctx.press) { // a drag in progress: Escape cancels it, other keys wait
    if (e.key === "Escape") { e.preventDefault(); cancelPress(ctx); }
    return;
  }
  if (target.getAttribute("role") !== "slider" || e.altKey || e.ctrlKey || e.metaKey) return;
  const { data } = ctx;
  const isLine = target === ctx.cutoff;
  const q = isLine ? -1 : Number(target.dataset.q);
  const last = isLine ? data.length - 1 : data.length;
  const now = isLine ? ctx.shown.k - 1 : slotOf(data, ctx.shown.ranks[q]);
  const step = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 }[e.key];
  let to = null;
  if (step) to = now + step;
  else if (e.key === "Home") to = 0;
  else if (e.key === "End") to = last;
  else if (e.key === "Enter") { e.preventDefault(); sendKeyMove(ctx); return; }
  else if (e.key === "Escape" && ctx.keyTimer) {
    e.preventDefault();
    clearTimeout(ctx.keyTimer);
    ctx.keyTimer = 0;
    show(ctx, [...ctx.local.ranks], ctx.local.k);
    announceShown(ctx, isLine ? "k" : q);
    return;
  }
  if (to === null) return;
  e.preventDefault();
  to = Math.max(0, Math.min(last, to));
  if (to === now) return;
  if (isLine) show(ctx, ctx.shown.ranks, to + 1);
  else show(ctx, withRank(ctx.shown.ranks, q, rankOf(data, to)), ctx.shown.k);
  clearTimeout(ctx.keyTimer);
  ctx.keyTimer = setTimeout(() => sendKeyMove(ctx), KEY_COMMIT_MS);
  drawScore(ctx);
  announceShown(ctx, isLine ? "k" : q);
}

function sendKeyMove(ctx) {
  if (!ctx.keyTimer) return;
  clearTimeout(ctx.keyTimer);
  ctx.keyTimer = 0;
  commit(ctx);
  drawScore(ctx);
}

// ---------------------------------------------------------------------------------------
// Dragging a dot along its row, or the line across the axis (mouse, pen, touch)
// ---------------------------------------------------------------------------------------

function onPointerDown(ctx, e) {
  if (ctx.press || !e.isPrimary || (e.pointerType === "mouse" && e.button !== 0)) return;
  const target = e.target.closest && e.target.closest(".rf-dot, .rf-cutoff");
  if (!target) return;
  e.preventDefault();
  sendKeyMove(ctx);
  target.focus({ preventScroll: true });
  ctx.el.wrap.setPointerCapture(e.pointerId);
  const isLine = target === ctx.cutoff;
  const q = isLine ? -1 : Number(target.dataset.q);
  // Geometry read once, before anything is written: the slot centres of the row, or the boundaries.
  const g = ctx.el.grid.getBoundingClientRect();
  const marks = isLine ? boundaries(ctx).map((x) => x + g.left)
                       : ctx.slots[q].map((s) => { const r = s.getBoundingClientRect(); return (r.left + r.right) / 2; });
  ctx.press = { target, q, isLine, marks, pointerId: e.pointerId, x0: e.clientX, x: e.clientX, started: false, raf: 0 };
}

function onPointerMove(ctx, e) {
  const p = ctx.press;
  if (!p || e.pointerId !== p.pointerId) return;
  p.x = e.clientX;
  if (!p.started) {
    if (Math.abs(p.x - p.x0) < DRAG_THRESHOLD) return;
    p.started = true;
    p.target.classList.add("rf-dragging");
  }
  if (!p.raf) p.raf = requestAnimationFrame(() => { p.raf = 0; if (ctx.press === p) dragStep(ctx); });
}

// The mark nearest the pointer: a slot for a dot, a boundary (k) for the line.
function dragStep(ctx) {
  const p = ctx.press;
  let best = 0;
  p.marks.forEach((x, i) => { if (Math.abs(x - p.x) < Math.abs(p.marks[best] - p.x)) best = i; });
  const { ranks, k } = ctx.shown;
  if (p.isLine) { if (best + 1 !== k) show(ctx, ranks, best + 1); }
  else if (rankOf(ctx.data, best) !== ranks[p.q]) show(ctx, withRank(ranks, p.q, rankOf(ctx.data, best)), k);
}

function onPointerUp(ctx, e) {
  const p = ctx.press;
  if (!p || e.pointerId !== p.pointerId) return;
  if (p.started) {
    p.x = e.clientX;
    dragStep(ctx);
  }
  endPress(ctx);
  if (!p.started) return;
  announceShown(ctx, p.isLine ? "k" : p.q);
  commit(ctx);
  drawScore(ctx);
}

function endPress(ctx) {
  const p = ctx.press;
  ctx.press = null;
  if (!p) return;
  if (p.raf) cancelAnimationFrame(p.raf);
  p.target.classList.remove("rf-dragging");
  if (ctx.el.wrap.hasPointerCapture(p.pointerId)) ctx.el.wrap.releasePointerCapture(p.pointerId);
}

function cancelPress(ctx) {
  if (!ctx.press) return;
  const started = ctx.press.started;
  endPress(ctx);
  if (started) show(ctx, [...ctx.local.ranks], ctx.local.k);
}
