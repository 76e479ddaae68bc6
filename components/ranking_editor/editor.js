// Rankwise ranking editor (Streamlit Components v2, no build step).
//
// Python owns the state (st.session_state[key]); this module draws it and reports each
// move with setTriggerValue("edit", {seq, order, tray, grades}). The default export runs on
// mount and whenever `data` changes; everything it keeps between runs lives on the shadow
// root (root.__rankwiseEditor), so it is idempotent and the DOM (and keyboard focus)
// survives reruns. Data titles are inserted with textContent only, never innerHTML.
//
// Sync: `data.ack` is the last sequence number Python received, `data.rev` changes when
// Python set the state itself (a preset). The editor adopts Python's state when nothing
// newer of its own is in flight, or when `rev` changed. While a change is in flight, the editor's
// wrapper carries `data-unanswered` (the browser tests wait for no such editor before calling a page idle).
import { mountComponent, svgIcon, say, sayNodes, el, setText, setAttr, setButton, drawScoreCells } from "./dom.js";
import { sameList, tableRow, scoreWords as boardWords } from "./lookup.js";

const DRAG_THRESHOLD = 5; // px a press must travel before it becomes a drag
const EDGE = 64; // px from a scroll edge where a drag auto-scrolls
const MAX_SPEED = 1400; // px per second at the very edge
const ICONS = {
  up: "M6 15l6-6 6 6",
  down: "M6 9l6 6 6-6",
  right: "M9 6l6 6-6 6",
  toTray: "M7 7l10 10M17 7 7 17",
  fromTray: "M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11",
  minus: "M6 12h12",
  plus: "M12 6v12M6 12h12",
  grip: "M9 5h.01M15 5h.01M9 12h.01M15 12h.01M9 19h.01M15 19h.01",
  upDown: "M8 9l4-4 4 4M8 15l4 4 4-4",
};

export default function rankingEditor(component) {
  return mountComponent(component, { selector: ".rw", css: new URL("./editor.css", import.meta.url),
                                     key: "__rankwiseEditor", setup, update, teardown });
}

// Unmounted: end a drag in progress (its window listener and animation frame), stop observing.
function teardown(ctx) {
  endPress(ctx);
  ctx.resizeObserver.disconnect();
}

// ---------------------------------------------------------------------------------------
// Set-up: elements and event handlers (once per mount)
// ---------------------------------------------------------------------------------------

function setup(root) {
  const q = (sel) => root.querySelector(sel);
  const ctx = {
    root,
    el: {
      wrap: q(".rw"), label: q(".rw-label"), count: q(".rw-count"), hint: q(".rw-hint"), hintFull: q(".rw-sr"),
      list: q(".rw-list"), tray: q(".rw-tray"), trayList: q(".rw-tray-list"),
      trayEmpty: q(".rw-tray-empty"), trayToggle: q(".rw-tray-toggle"), trayBody: q(".rw-tray-body"),
      trayNote: q(".rw-tray-note"),
      indicator: q(".rw-indicator"), live: q(".rw-live"),
      score: q(".rw-score"), scoreCells: q(".rw-score-cells"), scoreNote: q(".rw-score-note"),
    },
    rows: new Map(), // id -> <li>
    titles: new Map(), // id -> title
    cutoff: makeCutoff(),
    data: null,
    local: { order: [], tray: [], grades: {} },
    sent: 0,
    rev: null,
    press: null, // pointer pressed on a row or on the cutoff line (becomes a drag once it travels)
    cutK: null, // the k the cutoff line is drawn at while it is dragged (and until Python's answer); null: data.k
    keyboardFocus: false,
    trayOpen: false, // the tray starts folded (its count shows); it opens on a click, or when a row goes there
  };
  ctx.el.hintFull.hidden = true; // read as the list's description only (spoken())
  const w = ctx.el.wrap;
  w.addEventListener("pointerdown", (e) => onPointerDown(ctx, e));
  w.addEventListener("pointermove", (e) => onPointerMove(ctx, e));
  w.addEventListener("pointerup", (e) => onPointerUp(ctx, e));
  w.addEventListener("pointercancel", (e) => onPointerCancel(ctx, e));
  w.addEventListener("lostpointercapture", (e) => onPointerCancel(ctx, e));
  w.addEventListener("keydown", (e) => onKeyDown(ctx, e));
  w.addEventListener("focusin", (e) => {
    const li = e.target.closest && e.target.closest("li.rw-row");
    if (li && ctx.activeId !== li.dataset.id) { ctx.activeId = li.dataset.id; refresh(ctx); }
  });
  w.addEventListener("click", (e) => onClick(ctx, e));
  w.addEventListener("focusout", (e) => {
    if (e.target.classList && !ctx.press) e.target.classList.remove("rw-mouse", "rw-kbd-focus");
  });
  ctx.resizeObserver = new ResizeObserver(() => fitWidth(ctx));
  ctx.resizeObserver.observe(w);
  return ctx;
}

const NARROW_EM = 36; // below this width (in the editor's em) the grade chip shows its number only
const TIGHT_EM = 24; // below this, the grip icon goes too

function fitWidth(ctx) {
  const w = ctx.el.wrap;
  const em = parseFloat(getComputedStyle(w).fontSize) || 16;
  const width = w.clientWidth / em;
  w.classList.toggle("rw-narrow", width > 0 && width < NARROW_EM);
  w.classList.toggle("rw-tight", width > 0 && width < TIGHT_EM);
}

function icon(name) { return svgIcon(ICONS[name], name === "grip" ? 3.2 : 2.2); }

function button(action, iconName) {
  const b = el("button", "rw-btn");
  b.type = "button";
  b.tabIndex = -1; // the focused row's keys do the same; one Tab stop per list
  b.dataset.action = action;
  b.appendChild(icon(iconName));
  return b;
}

function makeRow(id, data) {
  const li = el("li", "rw-row");
  li.tabIndex = -1; // one Tab stop per list: refresh() gives the active row tabindex 0 (a roving tabindex)
  li.dataset.id = id;
  li.dataset.testid = `rw-row-${id}`;
  li.setAttribute("aria-roledescription", say(data, "Row role"));
  const grip = el("span", "rw-grip");
  grip.setAttribute("aria-hidden", "true");
  grip.appendChild(icon("grip"));
  const pos = el("span", "rw-pos");
  pos.dataset.testid = "rw-pos";
  pos.setAttribute("aria-hidden", "true");
  const title = el("span", "rw-title");
  title.dataset.testid = "rw-title";
  const grade = el("span", "rw-grade");
  const badge = el("span", "rw-badge");
  badge.dataset.testid = "rw-badge";
  badge.append(el("span", "rw-badge-num"), el("span", "rw-badge-word"));
  const badgeBox = el("span", "rw-badge-box"); // a fixed width, so the + buttons line up
  badgeBox.append(badge);
  grade.append(button("grade-down", "minus"), badgeBox, button("grade-up", "plus"));
  const actions = el("span", "rw-actions");
  actions.append(button("up", "up"), button("down", "down"), button("tray", "toTray"));
  li.append(grip, pos, title, grade, actions);
  return li;
}

// The cutoff line is drawn between rows, so it is an <li> of the list; it is hidden from assistive technology, which
// hears the same from every row's label ("below the cutoff") and the live region ("Cutoff moved"): a list item of
// another role breaks the list (WCAG 1.3.1, axe's "list"), and a list item of its own would count as a row.
function makeCutoff() {
  const li = el("li", "rw-cutoff");
  li.setAttribute("aria-hidden", "true");
  li.dataset.testid = "rw-cutoff";
  const grip = el("span", "rw-cut-grip");
  grip.setAttribute("aria-hidden", "true");
  grip.appendChild(icon("upDown"));
  li.append(el("span", "rw-cut-above"), el("span", "rw-cut-rule"), el("span", "rw-cut-below"), grip);
  return li;
}

// ---------------------------------------------------------------------------------------
// Drawing the data Python sent
// ---------------------------------------------------------------------------------------

function update(ctx, data) {
  ctx.data = data;
  applyConfig(ctx);
  syncRows(ctx);
  const adopt = ctx.rev !== data.rev || data.ack >= ctx.sent;
  ctx.el.wrap.toggleAttribute("data-unanswered", data.ack < ctx.sent);
  ctx.rev = data.rev;
  if (adopt && (ctx.press || ctx.lift) && confirms(ctx, data)) {
    // Python's answer only confirms the list this drag (or lifted row) started from: the last drop's answer,
    // come while the next drag is held. Nothing under the pointer changes, so the drag goes on (cancelled, it
    // put its row back: a preview at 7 dropped at 6); its board now finds the new values in the new table.
    if (ctx.press && ctx.press.started) {
      placeCutoff(ctx);
      refresh(ctx);
      drawScore(ctx);
      return;
    }
  } else if (adopt) {
    if (ctx.press) cancelDrag(ctx);
    ctx.lift = null; // Python's state replaces the local one: a lifted row is put down where Python has it
    ctx.cutK = null;
    ctx.local = { order: [...data.order], tray: [...data.tray], grades: { ...data.grades } };
  }
  layout(ctx);
}

// Whether Python's state is the one a drag or a lifted row started from (a drag moves rows in the page only;
// a lifted row keeps where it was lifted from), grades included.
function confirms(ctx, data) {
  const from = ctx.lift || ctx.local;
  const grades = ctx.local.grades;
  return sameList(from.order, data.order) && sameList(from.tray, data.tray)
    && Object.keys(grades).length === Object.keys(data.grades).length
    && Object.keys(grades).every((id) => grades[id] === data.grades[id]);
}

function applyConfig(ctx) {
  const { data, el: e } = ctx;
  const w = e.wrap;
  const scale = String(data.scale || 1);
  const rescaled = w.style.getPropertyValue("--rw-scale") !== scale;
  if (rescaled) w.style.setProperty("--rw-scale", scale);
  w.classList.toggle("rw-has-tray", !!data.trayEnabled);
  w.classList.toggle("rw-large", Number(scale) > 1); // projector type: the board's values read from the back
  w.classList.toggle("rw-editable", !!data.editableGrades);
  w.classList.toggle("rw-no-grades", !data.showGrades);
  e.list.classList.toggle("rw-in-place", !!data.scrollInPlace); // a long list scrolls in its own box
  e.label.textContent = data.label;
  e.tray.hidden = !data.trayEnabled;
  // Streamlit's header bar lies over the top of the page: the board sticks just below it.
  const header = document.querySelector('[data-testid="stHeader"]');
  const top = `${header ? Math.round(header.getBoundingClientRect().height) : 0}px`;
  if (e.score.style.top !== top) e.score.style.top = top;
  setText(e.trayNote, say(data, "Tray note"));
  setText(e.trayEmpty, say(data, "Tray empty"));
  if (rescaled) fitWidth(ctx); // a width change is caught by the ResizeObserver
  const words = [...Object.values(data.gradeLabels), data.unjudgedLabel];
  w.style.setProperty("--rw-badge-chars", String(Math.max(...words.map((t) => t.length))));
  const hintKey = JSON.stringify([data.trayEnabled, data.editableGrades, data.gradeRange]);
  if (e.hint.dataset.key !== hintKey) {
    e.hint.dataset.key = hintKey;
    // One line in sight (drag, lift, move, drop); the other keys folded under "More keys". The list's
    // description (a hidden span) holds every sentence, folded or not.
    const keysPart = el("div", "rw-hint-keys");
    const more = el("details", "rw-hint-more");
    more.append(el("summary", "", say(data, "Hint more")), ...hintRest(data));
    keysPart.append(...hintMain(data), more);
    const touchPart = el("div", "rw-hint-touch", say(data, "Hint touch"));
    touchPart.dataset.testid = "rw-hint-touch";
    e.hint.replaceChildren(keysPart, touchPart);
    e.hintFull.textContent = spoken([...hintMain(data), ".", ...hintRest(data)]);
  }
}

// The help line as the list's description: each key by its name where it has one ("Up arrow"), words kept apart
// (two <kbd>s side by side read "HomeEnd"), the folded part's dots as semicolons. The description's span is hidden
// (setup): a screen reader reads the help line once, as the page shows it, and this as the list's description.
function spoken(nodes) {
  const word = (n) => {
    if (typeof n === "string") return n;
    if (n.nodeType !== Node.ELEMENT_NODE) return n.textContent;
    return n.classList.contains("rw-sep") ? ";" : n.getAttribute("aria-label") || n.textContent;
  };
  return nodes.map(word).join(" ").replace(/\s+/g, " ").replace(/ ([.,;:])/g, "$1").trim();
}

// The help line: the editor.md sentences as text nodes, their keys as <kbd>s (never data from a file).
function kbd(data, t, label) {
  const k = el("kbd", "", t);
  if (label) k.setAttribute("aria-label", say(data, label));
  return k;
}

// The way to move a row: drag, or lift, move and drop with the keys.
function hintMain(data) {
  const arrows = () => [kbd(data, "↑", "Key up"), kbd(data, "↓", "Key down")];
  const space = () => [kbd(data, "Space", "Key space")];
  return sayNodes(data, "Hint move", { keys: arrows(), lift: space(), move: arrows(), drop: space(),
                                      escape: [kbd(data, "Esc", "Key escape")] });
}

// The other keys: the ends, the tray, the grades.
function hintRest(data) {
  const sep = () => el("span", "rw-sep", "·");
  const parts = sayNodes(data, "Hint ends", { keys: [kbd(data, "Home"), kbd(data, "End")] });
  if (data.trayEnabled) {
    parts.push(sep(), ...sayNodes(data, "Hint tray", { tray: [kbd(data, "T")], delete: [kbd(data, "Del")],
                                                      back: [kbd(data, "T")] }));
  }
  if (data.editableGrades) {
    const [lo, hi] = data.gradeRange;
    parts.push(sep(), ...sayNodes(data, "Hint grade", { keys: [kbd(data, "+"), kbd(data, "−", "Key minus")], lo, hi }));
  }
  return parts;
}

function syncRows(ctx) {
  const seen = new Set();
  for (const item of ctx.data.items) {
    seen.add(item.id);
    let li = ctx.rows.get(item.id);
    if (!li) {
      li = makeRow(item.id, ctx.data);
      ctx.rows.set(item.id, li);
    }
    if (ctx.titles.get(item.id) !== item.title) {
      ctx.titles.set(item.id, item.title);
      const t = li.querySelector(".rw-title");
      t.textContent = item.title; // text only, never HTML
      t.title = item.title;
    }
  }
  for (const [id, li] of ctx.rows) {
    if (!seen.has(id)) { li.remove(); ctx.rows.delete(id); ctx.titles.delete(id); }
  }
}

// Put the rows where ctx.local says, keeping focus on the row that had it.
function layout(ctx) {
  const focusedId = focusedRowId(ctx);
  const { order, tray } = ctx.local;
  placeChildren(ctx.el.list, order.map((id) => ctx.rows.get(id)).filter(Boolean));
  placeChildren(ctx.el.trayList, tray.map((id) => ctx.rows.get(id)).filter(Boolean));
  placeCutoff(ctx);
  refresh(ctx);
  drawScore(ctx);
  if (focusedId && focusedRowId(ctx) !== focusedId) focusRow(ctx, focusedId);
}

function placeChildren(parent, nodes) {
  nodes.forEach((node, i) => {
    const at = parent.children[i];
    if (at !== node) put(parent, node, at || null);
  });
  while (parent.children.length > nodes.length) parent.lastElementChild.remove();
}

// Insert `node` before `ref`; a connected node is moved with moveBefore where the browser has
// it, which keeps its focus (no blur, no re-focus, no extra layout).
function put(parent, node, ref) {
  if (parent.moveBefore && node.isConnected && node.getRootNode() === parent.getRootNode()) {
    parent.moveBefore(node, ref);
  } else {
    parent.insertBefore(node, ref);
  }
}

// The cutoff as drawn: where a drag of the line has it, else Python's k.
function shownK(ctx) { return ctx.cutK === null ? ctx.data.k : ctx.cutK; }

function listRows(ctx) { return [...ctx.el.list.querySelectorAll(":scope > li.rw-row")]; }
function trayRows(ctx) { return [...ctx.el.trayList.querySelectorAll(":scope > li.rw-row")]; }

// The cutoff line sits after row k (after the last row when the list is shorter than k).
function placeCutoff(ctx) {
  const { cutoff, el: e } = ctx;
  const k = shownK(ctx);
  const rows = listRows(ctx); // a dragged row counts where it would land
  if (k == null || rows.length === 0) { cutoff.remove(); return; }
  const anchor = rows[Math.min(k, rows.length) - 1];
  if (anchor.nextSibling !== cutoff) put(e.list, cutoff, anchor.nextSibling);
  const more = rows.length > k;
  const [above, , below] = cutoff.children;
  cutoff.classList.toggle("rw-cut-draggable", ctx.data.kDrag != null);
  setText(above, say(ctx.data, "Cutoff above", { k }));
  setText(below, more ? say(ctx.data, "Cutoff below") : say(ctx.data, "Cutoff end"));
  cutoff.dataset.k = String(k);
}

// Positions, labels, badges and button states, from the DOM order.
function refresh(ctx) {
  const { data } = ctx;
  const rows = listRows(ctx);
  const n = rows.length;
  const k = shownK(ctx);
  rows.forEach((li, i) => refreshRow(ctx, li, { pos: i + 1, n, below: k != null && i >= k }));
  trayRows(ctx).forEach((li) => refreshRow(ctx, li, { pos: null, n, below: false }));
  const t = trayRows(ctx).length;
  if (ctx.el.trayEmpty.hidden !== t > 0) ctx.el.trayEmpty.hidden = t > 0;
  setText(ctx.el.count, data.trayEnabled ? say(data, "Count with tray", { n, t }) : say(data, "Count", { n }));
  drawTray(ctx, t);
  const all = [...rows, ...(ctx.trayOpen ? trayRows(ctx) : [])]; // a folded tray's rows take no focus
  if (!all.some((li) => li.dataset.id === ctx.activeId)) ctx.activeId = all.length ? all[0].dataset.id : null;
  for (const li of all) {
    const tab = li.dataset.id === ctx.activeId ? 0 : -1;
    if (li.tabIndex !== tab) li.tabIndex = tab;
    li.classList.toggle("rw-lifted", !!ctx.lift && ctx.lift.id === li.dataset.id);
  }
}

function openTray(ctx, open) {
  ctx.trayOpen = open;
  drawTray(ctx, trayRows(ctx).length);
}

// The tray's fold, and its button: "11 judged, not returned", with a chevron that says whether it is open.
function drawTray(ctx, t) {
  const shown = ctx.trayOpen;
  if (ctx.el.trayBody.hidden !== !shown) ctx.el.trayBody.hidden = !shown;
  const b = ctx.el.trayToggle;
  setAttr(b, "aria-expanded", String(shown));
  const text = say(ctx.data, t === 0 ? "Tray summary none" : t === 1 ? "Tray summary one" : "Tray summary", { t });
  const name = shown ? "down" : "right";
  if (b.dataset.text !== text || b.dataset.icon !== name) {
    b.dataset.text = text;
    b.dataset.icon = name;
    b.replaceChildren(icon(name), el("span", "rw-tray-summary", text));
  }
}

function refreshRow(ctx, li, { pos, n, below }) {
  const id = li.dataset.id;
  const title = ctx.titles.get(id) || id;
  const inList = pos !== null;
  const grade = ctx.local.grades[id];
  const gradeText = gradeWords(ctx, grade);
  setText(li.querySelector(".rw-pos"), inList ? String(pos) : "–");
  li.classList.toggle("rw-below", below);
  setAttr(li, "data-pos", inList ? String(pos) : "");
  const row = say(ctx.data, inList ? (below ? "Row below cutoff" : "Row in list") : "Row in tray", { title, pos, n });
  setAttr(li, "aria-label", ctx.data.showGrades ? say(ctx.data, "Row with grade", { row, grade: gradeText }) : row);
  // the grade badge: number and words, coloured by level
  const badge = li.querySelector(".rw-badge");
  setAttr(badge, "data-level", gradeLevel(grade));
  setText(badge.firstChild, grade === undefined ? "?" : String(grade));
  const words = ctx.data.gradeLabels[String(grade)] || say(ctx.data, "Grade other", { grade });
  setText(badge.lastChild, grade === undefined ? ctx.data.unjudgedLabel : words);
  const [lo, hi] = ctx.data.gradeRange;
  const [down, , up] = li.querySelector(".rw-grade").children;
  setButton(down, say(ctx.data, "Lower grade", { title }), grade !== undefined && grade <= lo);
  setButton(up, say(ctx.data, "Raise grade", { title }), grade !== undefined && grade >= hi);
  // the move buttons
  const [bUp, bDown, bTray] = li.querySelector(".rw-actions").children;
  setButton(bUp, say(ctx.data, "Move up", { title }), !inList || pos === 1);
  setButton(bDown, say(ctx.data, "Move down", { title }), !inList || pos === n);
  setIcon(bTray, inList ? "toTray" : "fromTray");
  setButton(bTray, say(ctx.data, inList ? "Remove" : "Add", { title }), false);
}


function setIcon(b, name) {
  if (b.dataset.icon !== name) { b.dataset.icon = name; b.replaceChildren(icon(name)); }
}

function gradeWords(ctx, grade) {
  if (grade === undefined) return ctx.data.unjudgedLabel;
  const words = ctx.data.gradeLabels[String(grade)];
  return words ? say(ctx.data, "Grade with words", { grade, words }) : say(ctx.data, "Grade other", { grade });
}

// Colour class of a badge, one per grade everywhere (1 blue, 2 green, 3 and above dark green); the words on
// it carry the same information.
function gradeLevel(grade) {
  if (grade === undefined) return "unjudged";
  if (grade < 0) return "neg";
  return grade === 0 ? "zero" : `g${Math.min(grade, 3)}`;
}

// ---------------------------------------------------------------------------------------
// Changing the state: every way to move ends here
// ---------------------------------------------------------------------------------------

function zoneOf(ctx, id) { return ctx.local.order.includes(id) ? "order" : "tray"; }

// Move `id` to `zone` ("order" or "tray") at `index` (clamped); report it and keep focus.
function moveItem(ctx, id, zone, index) {
  const L = ctx.local;
  const from = zoneOf(ctx, id);
  const before = from === "order" ? L.order.indexOf(id) : L.tray.indexOf(id);
  const target = zone === "order" ? L.order : L.tray;
  if (zone === from && before === Math.max(0, Math.min(index, target.length - 1))) {
    announceEdge(ctx, id, zone, before);
    focusRow(ctx, id);
    return;
  }
  L.order = L.order.filter((x) => x !== id);
  L.tray = L.tray.filter((x) => x !== id);
  const arr = zone === "order" ? L.order : L.tray;
  arr.splice(Math.max(0, Math.min(index, arr.length)), 0, id);
  if (zone === "tray") openTray(ctx, true); // the row stays in sight (and in focus) where it went
  commit(ctx);
  afterSend(() => {
    layout(ctx);
    focusRow(ctx, id);
    announceMove(ctx, id);
  });
}

// Run `redraw` in the task after Streamlit's own (setTimeout 0) flush of the trigger value, so
// the message leaves before the DOM work (and the page layout it forces) holds the thread.
function afterSend(redraw) {
  setTimeout(redraw, 0);
}

function setGrade(ctx, id, grade) {
  const [lo, hi] = ctx.data.gradeRange;
  if (!ctx.data.editableGrades || grade < lo || grade > hi || ctx.local.grades[id] === grade) return;
  ctx.local.grades = { ...ctx.local.grades, [id]: grade };
  commit(ctx);
  afterSend(() => {
    refresh(ctx);
    announce(ctx, say(ctx.data, "Grade set", { title: ctx.titles.get(id), grade: gradeWords(ctx, grade) }));
  });
}

function stepGrade(ctx, id, delta) {
  const [lo, hi] = ctx.data.gradeRange;
  const g = ctx.local.grades[id];
  const next = g === undefined ? (delta > 0 ? Math.min(hi, Math.max(lo, 1)) : lo) : g + delta;
  setGrade(ctx, id, Math.max(lo, Math.min(hi, next)));
}

function toggleTray(ctx, id) {
  if (!ctx.data.trayEnabled) return;
  if (zoneOf(ctx, id) === "order") moveItem(ctx, id, "tray", ctx.local.tray.length);
  else moveItem(ctx, id, "order", ctx.local.order.length);
}

// Send the state (and, after a drag of the cutoff line, its new k) as one change.
function commit(ctx, k = null) {
  ctx.sent = Math.max(ctx.sent, ctx.data.ack) + 1;
  const { order, tray, grades } = ctx.local;
  const edit = { seq: ctx.sent, order: [...order], tray: [...tray], grades: { ...grades } };
  ctx.el.wrap.toggleAttribute("data-unanswered", true);
  ctx.send("edit", k === null ? edit : { ...edit, k });
}

function announce(ctx, text) {
  // Re-setting the same text would not be read again: add an invisible change.
  const live = ctx.el.live;
  live.textContent = live.textContent === text ? `${text}\u00a0` : text;
}

// Parts said one after another, each its own sentence ("… moved to position 2 of 20. Recall@5 0.300 (−0.100)"):
// a position and the board's first value run together unless a full stop parts them.
function sentences(...parts) {
  const said = parts.filter(Boolean);
  return said.map((part, i) => (i < said.length - 1 && !/[.:;!?]$/.test(part) ? `${part}.` : part)).join(" ");
}

function announceMove(ctx, id) {
  const title = ctx.titles.get(id);
  const i = ctx.local.order.indexOf(id);
  const moved = i < 0 ? say(ctx.data, "Moved to tray", { title })
                      : say(ctx.data, "Moved to position", { title, pos: i + 1, n: ctx.local.order.length });
  announce(ctx, sentences(moved, scoreWords(ctx)));
}

function announceEdge(ctx, id, zone, index) {
  if (zone !== "order") return;
  const title = ctx.titles.get(id);
  announce(ctx, say(ctx.data, "Already at position", { title, pos: index + 1, n: ctx.local.order.length }));
}

function focusedRowId(ctx) {
  const a = ctx.root.activeElement;
  const li = a && a.closest ? a.closest("li.rw-row") : null;
  return li ? li.dataset.id : null;
}

function focusRow(ctx, id) {
  const li = ctx.rows.get(id);
  if (!li) return;
  li.classList.toggle("rw-kbd-focus", ctx.keyboardFocus);
  li.classList.toggle("rw-mouse", !ctx.keyboardFocus); // no focus ring after a drop; cleared on blur
  if (ctx.root.activeElement !== li) li.focus({ preventScroll: !ctx.keyboardFocus });
  else if (ctx.keyboardFocus) keepInView(ctx, li);
}

// True when the list scrolls in its own box (data.scrollInPlace) and is longer than the box.
function ownScroll(ctx) {
  const list = ctx.el.list;
  return list.classList.contains("rw-in-place") && list.scrollHeight > list.clientHeight + 1;
}

// Scroll a row moved by the keyboard (Home/End on a long list) into view, only if it left it (the window, or
// the list's own box).
function keepInView(ctx, li) {
  const r = li.getBoundingClientRect();
  const box = ownScroll(ctx) ? ctx.el.list.getBoundingClientRect() : { top: 0, bottom: window.innerHeight };
  if (r.top < box.top || r.bottom > box.bottom || r.left < 0 || r.right > window.innerWidth) {
    li.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
}

// ---------------------------------------------------------------------------------------
// Keyboard and buttons
// ---------------------------------------------------------------------------------------

// Keys. Not lifted: the arrows (and Home/End) move the focus; Space or Enter lifts the focused row.
// Lifted: the arrows and Home/End move it in the list as drawn (the scoreboard previews, nothing is sent);
// Space or Enter drops it (one change sent), Escape puts it back. T, Delete and the grade keys act at once.
function onKeyDown(ctx, e) {
  const li = e.target.closest && e.target.closest("li.rw-row");
  if (!li || e.altKey || e.ctrlKey || e.metaKey) return;
  if (ctx.press && ctx.press.started) return; // Escape is handled by the drag's own listener
  const id = li.dataset.id;
  const zone = zoneOf(ctx, id);
  const arr = zone === "order" ? ctx.local.order : ctx.local.tray;
  const i = arr.indexOf(id);
  const lifted = ctx.lift && ctx.lift.id === id;
  const go = lifted ? (index) => liftTo(ctx, id, zone, index) : (index) => focusAt(ctx, arr, index);
  const keyActions = {
    ArrowUp: () => go(i - 1),
    ArrowDown: () => go(i + 1),
    Home: () => go(0),
    End: () => go(arr.length - 1),
    " ": () => (lifted ? drop(ctx, id) : lift(ctx, id)),
    Enter: () => (lifted ? drop(ctx, id) : lift(ctx, id)),
    Escape: lifted ? () => putBack(ctx, id) : null,
  };
  if (!lifted) {
    Object.assign(keyActions, {
      t: () => toggleTray(ctx, id),
      T: () => toggleTray(ctx, id),
      Delete: zone === "order" ? () => toggleTray(ctx, id) : null,
      Backspace: zone === "order" ? () => toggleTray(ctx, id) : null,
      "+": () => stepGrade(ctx, id, +1),
      "=": () => stepGrade(ctx, id, +1),
      "-": () => stepGrade(ctx, id, -1),
      "_": () => stepGrade(ctx, id, -1),
    });
  }
  let action = keyActions[e.key];
  if (!action && !lifted && /^[0-9]$/.test(e.key) && ctx.data.editableGrades) {
    action = () => setGrade(ctx, id, Number(e.key));
  }
  if (!action) return;
  if (["t", "T", "Delete", "Backspace"].includes(e.key) && !ctx.data.trayEnabled) return;
  if (/^[-+=_0-9]$/.test(e.key) && !ctx.data.editableGrades) return;
  e.preventDefault();
  ctx.keyboardFocus = true;
  action();
}

// The focus moves in its zone; past the list's last row it goes on to the open tray's first, and back up from
// there: the tray's rows share the list's one Tab stop, so the arrows are the keyboard's way to them.
function focusAt(ctx, arr, index) {
  const { order, tray } = ctx.local;
  if (arr === order && index === order.length && ctx.trayOpen && tray.length) { focusRow(ctx, tray[0]); return; }
  if (arr === tray && index === -1 && order.length) { focusRow(ctx, order[order.length - 1]); return; }
  if (index < 0 || index >= arr.length) return;
  focusRow(ctx, arr[index]);
}

function lift(ctx, id) {
  ctx.lift = { id, order: [...ctx.local.order], tray: [...ctx.local.tray] };
  layout(ctx);
  focusRow(ctx, id);
  announce(ctx, say(ctx.data, "Lifted", { title: ctx.titles.get(id) }));
}

// A lifted row one step (or to an end) in its zone, drawn only: the scoreboard previews the list.
function liftTo(ctx, id, zone, index) {
  const arr = zone === "order" ? ctx.local.order : ctx.local.tray;
  const to = Math.max(0, Math.min(index, arr.length - 1));
  if (to === arr.indexOf(id)) { announceEdge(ctx, id, zone, to); return; }
  const rest = arr.filter((x) => x !== id);
  rest.splice(to, 0, id);
  if (zone === "order") ctx.local.order = rest; else ctx.local.tray = rest;
  layout(ctx);
  focusRow(ctx, id);
  announceMove(ctx, id);
}

function drop(ctx, id) {
  const before = ctx.lift;
  ctx.lift = null;
  const changed = !sameList(before.order, ctx.local.order) || !sameList(before.tray, ctx.local.tray);
  if (changed) commit(ctx);
  afterSend(() => {
    layout(ctx);
    focusRow(ctx, id);
    const title = ctx.titles.get(id);
    const dropped = say(ctx.data, "Dropped", { title, pos: ctx.local.order.indexOf(id) + 1, n: ctx.local.order.length });
    announce(ctx, changed ? sentences(dropped, scoreWords(ctx))
                          : say(ctx.data, "Dropped unchanged", { title }));
  });
}

function putBack(ctx, id) {
  const { order, tray } = ctx.lift;
  ctx.lift = null;
  ctx.local.order = order;
  ctx.local.tray = tray;
  layout(ctx);
  focusRow(ctx, id);
  announce(ctx, say(ctx.data, "Put back", { title: ctx.titles.get(id) }));
}

function onClick(ctx, e) {
  if (e.target.closest && e.target.closest(".rw-tray-toggle")) {
    openTray(ctx, !ctx.trayOpen);
    refresh(ctx);
    return;
  }
  const b = e.target.closest && e.target.closest("button.rw-btn");
  if (!b) return;
  e.preventDefault();
  const li = b.closest("li.rw-row");
  if (!li || b.getAttribute("aria-disabled") === "true") { if (li) li.focus({ preventScroll: true }); return; }
  ctx.keyboardFocus = e.detail === 0; // a click from the keyboard (screen reader) has no pointer detail
  const id = li.dataset.id;
  const zone = zoneOf(ctx, id);
  const i = (zone === "order" ? ctx.local.order : ctx.local.tray).indexOf(id);
  const actions = {
    up: () => moveItem(ctx, id, zone, i - 1),
    down: () => moveItem(ctx, id, zone, i + 1),
    tray: () => toggleTray(ctx, id),
    "grade-up": () => stepGrade(ctx, id, +1),
    "grade-down": () => stepGrade(ctx, id, -1),
  };
  actions[b.dataset.action]();
  if (b.dataset.action.startsWith("grade")) li.focus({ preventScroll: true });
}

// ---------------------------------------------------------------------------------------
// Pointer dragging (mouse, pen, touch): the row follows the pointer, the list reorders
// live under it (positions and the cutoff line follow), a dashed slot shows where it lands.
// ---------------------------------------------------------------------------------------

function onPointerDown(ctx, e) {
  if (ctx.press || !e.isPrimary || (e.pointerType === "mouse" && e.button !== 0)) return;
  if (ctx.data.kDrag != null && e.target.closest && e.target.closest(".rw-cutoff")) {
    e.preventDefault();
    ctx.el.wrap.setPointerCapture(e.pointerId);
    ctx.press = { cut: true, pointerId: e.pointerId, x0: e.clientX, y0: e.clientY, x: e.clientX, y: e.clientY,
                  started: false };
    return;
  }
  const li = e.target.closest && e.target.closest("li.rw-row");
  if (!li || e.target.closest("button")) return;
  // On touch a drag starts from the handle (the grip, or the position badge): a swipe anywhere else on a
  // row scrolls the page, as a swipe does everywhere else.
  if (e.pointerType === "touch" && !e.target.closest(".rw-grip, .rw-pos")) return;
  e.preventDefault(); // no text selection, no native drag; focus is set by hand
  ctx.keyboardFocus = false;
  li.classList.remove("rw-kbd-focus");
  li.classList.add("rw-mouse");
  li.focus({ preventScroll: true });
  ctx.el.wrap.setPointerCapture(e.pointerId);
  ctx.press = { li, id: li.dataset.id, pointerId: e.pointerId, x0: e.clientX, y0: e.clientY,
                x: e.clientX, y: e.clientY, started: false };
}

function onPointerMove(ctx, e) {
  const p = ctx.press;
  if (!p || e.pointerId !== p.pointerId) return;
  p.x = e.clientX;
  p.y = e.clientY;
  if (!p.started) {
    if (Math.hypot(p.x - p.x0, p.y - p.y0) < DRAG_THRESHOLD) return;
    if (p.cut) startCut(ctx); else startDrag(ctx);
  }
  if (p.cut) {
    if (!p.moveRaf) p.moveRaf = requestAnimationFrame(() => { p.moveRaf = 0; if (ctx.press === p) cutStep(ctx); });
    return;
  }
  // One layout step per frame, however many pointer events the frame brings (the latest wins).
  if (!p.moveRaf) {
    p.moveRaf = requestAnimationFrame(() => {
      p.moveRaf = 0;
      if (ctx.press !== p) return;
      dragStep(ctx);
      autoScroll(ctx);
    });
  }
}

function onPointerUp(ctx, e) {
  const p = ctx.press;
  if (!p || e.pointerId !== p.pointerId) return;
  if (!p.started) { endPress(ctx); return; }
  if (p.cut) { dropCutoff(ctx, e); return; }
  // The row lands where it was last placed, unless the pointer moved since (or that step awaits its frame).
  if (p.moveRaf || e.clientX !== p.x || e.clientY !== p.y) {
    p.x = e.clientX;
    p.y = e.clientY;
    dragStep(ctx);
  }
  const id = p.id;
  const order = listRows(ctx).map((r) => r.dataset.id);
  const tray = trayRows(ctx).map((r) => r.dataset.id);
  const changed = !sameList(order, ctx.local.order) || !sameList(tray, ctx.local.tray);
  ctx.local.order = order;
  ctx.local.tray = tray;
  if (changed) commit(ctx);
  // Nothing drawn before the change is sent: after a pointer release Chrome paints a frame the page made due
  // before it runs a timer, and Streamlit sends the change from one (setTimeout 0), so a row's look changed
  // here would hold the change back by a frame.
  endPress(ctx, { look: false });
  afterSend(() => {
    endLook(ctx, p);
    layout(ctx);
    focusRow(ctx, id);
    if (changed) announceMove(ctx, id);
  });
}

function onPointerCancel(ctx, e) {
  const p = ctx.press;
  if (!p || e.pointerId !== p.pointerId) return;
  if (p.started) cancelDrag(ctx);
  else endPress(ctx);
}

// The cutoff line follows the pointer: k = the number of rows whose middle is above it (1 to the
// line's largest k); the rows below it, the positions' labels and the scoreboard (the engine's
// value at that k) follow at once. Geometry is read first, then written.
function cutStep(ctx) {
  const p = ctx.press;
  const rows = listRows(ctx);
  const above = rows.filter((r) => mid(r) < p.y).length;
  const k = Math.max(1, Math.min(above, ctx.data.kDrag, rows.length));
  if (k === shownK(ctx)) return;
  ctx.cutK = k;
  placeCutoff(ctx);
  refresh(ctx);
  drawScore(ctx);
}

function dropCutoff(ctx, e) {
  const p = ctx.press;
  p.y = e.clientY;
  cutStep(ctx);
  endPress(ctx);
  const k = shownK(ctx);
  if (k !== ctx.data.k) {
    commit(ctx, k); // the line stays at k until Python's answer (with the slider moved) arrives
    announce(ctx, sentences(say(ctx.data, "Cutoff moved", { k }), scoreWords(ctx)));
  } else {
    ctx.cutK = null;
  }
  drawScore(ctx);
}

function startDrag(ctx) {
  const p = ctx.press;
  const r = p.li.getBoundingClientRect();
  p.started = true;
  p.grabY = p.y0 - r.top;
  p.scroller = ownScroll(ctx) ? ctx.el.list : findScroller(ctx.root.host);
  // The list's own box scrolls to its last row, and no further: read before the dragged row's translation
  // (which follows the pointer) adds to the box's scrollable height.
  p.scrollEnd = p.scroller.scrollHeight - p.scroller.clientHeight;
  // The row gives up its focus until the drop (which focuses it again): the browser scrolls a focused row
  // moved in the DOM into view, and near an edge that moved it further under the pointer, on and on.
  p.li.blur();
  p.li.classList.add("rw-dragging");
  ctx.el.wrap.classList.add("rw-is-dragging");
  ctx.el.indicator.hidden = false;
  cancelOnEscape(ctx);
}

function startCut(ctx) {
  ctx.press.started = true;
  ctx.el.wrap.classList.add("rw-is-cutting");
  cancelOnEscape(ctx);
}

// Escape cancels a drag; listen on the window, as the dragged row has no focus.
function cancelOnEscape(ctx) {
  const p = ctx.press;
  p.onKey = (e) => { if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); cancelDrag(ctx); } };
  window.addEventListener("keydown", p.onKey, true);
}

// One step of a drag: move the row to where the pointer is, then redraw around it.
function dragStep(ctx) {
  const p = ctx.press;
  const zoneList = pointerZone(ctx, p.x, p.y);
  if (zoneList === ctx.el.trayList && !ctx.trayOpen) openTray(ctx, true); // a folded tray opens under the row
  const changed = placeDragged(ctx, zoneList);
  if (changed || !p.drawn) {
    placeCutoff(ctx);
    refresh(ctx);
    drawScore(ctx);
    ctx.el.tray.classList.toggle("rw-drop-target", zoneList === ctx.el.trayList);
    p.drawn = true;
  }
  followPointer(ctx);
}

// Put the dragged row where the pointer says in `zoneList`: before the row under the pointer
// when over its first half, after it when over its second half, first or last when beyond the
// rows. True if the row moved in the DOM. (Over its own slot nothing moves, so it cannot
// oscillate: after a move the pointer is over the dragged row's new slot.)
function placeDragged(ctx, zoneList) {
  const p = ctx.press;
  const y = p.y;
  const others = [...zoneList.querySelectorAll(":scope > li.rw-row")].filter((r) => r !== p.li);
  let before; // the row to insert before; null = at the end
  if (p.li.parentNode !== zoneList) {
    before = others.find((r) => y < mid(r)) || null;
  } else {
    if (!others.length) return false;
    const over = others.find((r) => within(r, y));
    if (over) before = y < mid(over) ? over : nextRow(over);
    else if (y < top(others[0])) before = others[0];
    else if (y > bottom(others[others.length - 1])) before = null;
    else return false; // in a gap between rows, or over its own slot
    if (nextRow(p.li) === before || p.li === before) return false;
  }
  put(zoneList, p.li, before);
  return true;
}

function nextRow(li) {
  let n = li.nextElementSibling;
  while (n && !n.classList.contains("rw-row")) n = n.nextElementSibling;
  return n;
}

// Which list the pointer is over: the tray when inside its box, else the ranked list.
function pointerZone(ctx, x, y) {
  if (!ctx.data.trayEnabled) return ctx.el.list;
  const r = ctx.el.tray.getBoundingClientRect();
  const m = 8;
  const inTray = x >= r.left - m && x <= r.right + m && y >= r.top - m && y <= r.bottom + m;
  return inTray ? ctx.el.trayList : ctx.el.list;
}

function mid(r) { const b = r.getBoundingClientRect(); return b.top + b.height / 2; }
function top(r) { return r.getBoundingClientRect().top; }
function bottom(r) { return r.getBoundingClientRect().bottom; }
function within(r, y) { const b = r.getBoundingClientRect(); return y >= b.top && y <= b.bottom; }

// Translate the lifted row so it stays under the pointer; draw the landing slot.
function followPointer(ctx) {
  const p = ctx.press;
  const box = p.li.getBoundingClientRect(); // includes the current translation
  const slot = { left: box.left, top: box.top - (p.ty || 0), width: box.width, height: box.height };
  p.ty = p.y - p.grabY - slot.top;
  p.li.style.transform = `translateY(${p.ty}px)`;
  const w = ctx.el.wrap.getBoundingClientRect();
  const ind = ctx.el.indicator.style;
  ind.left = `${slot.left - w.left}px`;
  ind.top = `${slot.top - w.top}px`;
  ind.width = `${slot.width}px`;
  ind.height = `${slot.height}px`;
}

// The press is over: no more steps, keys or capture; and, unless `look` is false (then call endLook later), the
// dragged row's and the list's drag look go.
function endPress(ctx, { look = true } = {}) {
  const p = ctx.press;
  ctx.press = null;
  if (!p) return;
  if (p.raf) cancelAnimationFrame(p.raf);
  if (p.moveRaf) cancelAnimationFrame(p.moveRaf);
  if (p.onKey) window.removeEventListener("keydown", p.onKey, true);
  if (ctx.el.wrap.hasPointerCapture(p.pointerId)) ctx.el.wrap.releasePointerCapture(p.pointerId);
  if (look) endLook(ctx, p);
}

function endLook(ctx, p) {
  if (p.li) {
    p.li.classList.remove("rw-dragging");
    p.li.style.transform = "";
  }
  ctx.el.wrap.classList.remove("rw-is-cutting");
  ctx.el.wrap.classList.remove("rw-is-dragging");
  ctx.el.tray.classList.remove("rw-drop-target");
  ctx.el.indicator.hidden = true;
}

function cancelDrag(ctx) {
  const id = ctx.press ? ctx.press.id : null;
  if (ctx.press && ctx.press.cut) ctx.cutK = null;
  endPress(ctx);
  layout(ctx); // back to ctx.local, which the drag did not touch
  if (id) focusRow(ctx, id);
}

// ---------------------------------------------------------------------------------------
// Auto-scroll while dragging near an edge of the page (or of the scrolling container)
// ---------------------------------------------------------------------------------------

function findScroller(start) {
  let node = start;
  while (node) {
    if (node instanceof Element) {
      const s = getComputedStyle(node);
      if (/(auto|scroll|overlay)/.test(s.overflowY) && node.scrollHeight > node.clientHeight + 1) return node;
    }
    node = node.parentNode instanceof ShadowRoot ? node.parentNode.host : node.parentNode;
  }
  return document.scrollingElement || document.documentElement;
}

// Scroll speed in px per second: 0 away from the edges, up to MAX_SPEED at the very edge.
function edgeSpeed(pos, lo, hi) {
  if (pos < lo + EDGE) return -MAX_SPEED * Math.min(1, (lo + EDGE - pos) / EDGE);
  if (pos > hi - EDGE) return MAX_SPEED * Math.min(1, (pos - (hi - EDGE)) / EDGE);
  return 0;
}

// Scroll while the pointer is near an edge, at most until the list's first (or last) row is in view: the
// dragged row cannot be carried past its own list. Each step is instant (no smooth scrolling, so no easing,
// and the rows read right after it are where they are drawn): the speed times the frame's time, capped.
function autoScroll(ctx) {
  const p = ctx.press;
  if (!p || !p.started || p.raf) return;
  let last = performance.now();
  const tick = (now) => {
    p.raf = 0;
    if (ctx.press !== p) return;
    const dt = Math.min(0.05, Math.max(0, (now - last) / 1000)); // seconds, capped after a stall
    last = now;
    const s = p.scroller;
    const band = visibleBand(ctx, s);
    const vy = edgeSpeed(p.y, band.top, band.bottom);
    let room; // px of the list still hidden in the direction of vy
    if (s === ctx.el.list) room = vy > 0 ? p.scrollEnd - s.scrollTop : vy < 0 ? -s.scrollTop : 0;
    else {
      const list = ctx.el.list.getBoundingClientRect(); // its rows' slots (a dragged row's translation aside)
      room = vy > 0 ? list.bottom - band.bottom : vy < 0 ? list.top - band.top : 0;
    }
    if (Math.sign(room) !== Math.sign(vy) || Math.abs(room) < 1 || atLimit(s, vy)) return;
    const dy = vy > 0 ? Math.min(vy * dt, room) : Math.max(vy * dt, room);
    s.scrollBy({ top: dy, behavior: "instant" });
    dragStep(ctx);
    p.raf = requestAnimationFrame(tick);
  };
  p.raf = requestAnimationFrame(tick);
}

// The part of the window where the scroller's content is seen: its box, below Streamlit's header bar and the
// editor's sticky scoreboard (both lie over the top of the page).
function visibleBand(ctx, s) {
  const isPage = s === document.scrollingElement || s === document.documentElement;
  const box = isPage ? { top: 0, bottom: window.innerHeight } : s.getBoundingClientRect();
  const covers = [document.querySelector('[data-testid="stHeader"]'), ctx.el.score].filter((n) => n && !n.hidden);
  const top = Math.max(0, box.top, ...covers.map((n) => n.getBoundingClientRect().bottom));
  return { top, bottom: Math.min(window.innerHeight, box.bottom) };
}

// True when the scroller cannot move further in the direction of `vy`.
function atLimit(s, vy) {
  if (vy < 0) return s.scrollTop <= 0;
  if (vy > 0) return s.scrollTop + s.clientHeight >= s.scrollHeight - 1;
  return false;
}

// ---------------------------------------------------------------------------------------
// The live scoreboard: the page's metrics for the list on screen, looked up in the table
// Python sent (data.score: every value computed and formatted by the engine, never here)
// ---------------------------------------------------------------------------------------

// The row of data.score.shown for the list as drawn now (the DOM, so a drag in progress
// counts), or null when it is not one move away from the state Python sent.
function scoreRow(ctx) {
  const order = listRows(ctx).map((r) => r.dataset.id);
  const tray = trayRows(ctx).map((r) => r.dataset.id);
  return tableRow(ctx.data, { order, tray, grades: ctx.local.grades, k: shownK(ctx) });
}

function drawScore(ctx) {
  const { data, el: e } = ctx;
  const score = data.score;
  e.score.hidden = !score;
  if (!score) return;
  const labels = score.labels.map((label) => label.replace("{k}", String(shownK(ctx))));
  let values = labels.map(() => "?");
  let deltas = labels.map(() => "");
  let note = "";
  let preview = false;
  if (score.hidden) {
    note = say(data, "Score hidden");
  } else {
    const row = scoreRow(ctx);
    const current = score.table.current;
    if (row === null) {
      values = score.shown[current];
      note = say(data, "Score none");
    } else {
      values = score.shown[row];
      deltas = score.deltas[row];
      const moving = !!(ctx.press && ctx.press.started) || !!ctx.lift; // a drag (a row or the line), or a lifted row
      preview = row !== current || moving;
      if (preview) note = say(data, moving ? "Score preview drag" : "Score preview move");
    }
  }
  e.score.classList.toggle("rw-preview", preview);
  e.score.classList.toggle("rw-score-many", labels.length >= 4);
  e.score.setAttribute("aria-label", say(data, "Score label"));
  drawScoreCells(e.scoreCells, "rw", labels, values, deltas);
  setText(e.scoreNote, note);
}

// The scoreboard in words, for the announcement after a move ("Recall@5 0.300 (−0.100)").
function scoreWords(ctx) {
  return ctx.data.score ? boardWords(ctx.data, scoreRow(ctx), shownK(ctx), say) : "";
}
