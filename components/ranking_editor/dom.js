// Rankwise: the DOM helpers the ranking editor and the hit-rank figure share (components v2, no build step).
// An ES module: editor.js imports it as ./dom.js, figure.js from the editor's folder (served.py serves both).

const SVG_NS = "http://www.w3.org/2000/svg";

// Stylesheets by URL: each fetched and parsed once per page, then shared by every element that adopts it.
// url -> {sheet, failedOn}: failedOn is the page (location.pathname) where its fetch failed, else null.
const SHEETS = new Map();
// A stylesheet that could not be fetched: the component shown anyway, unstyled but usable (its HTML hides it
// until its stylesheet applies; an adopted sheet comes after the HTML's <style>, and this rule is as specific),
// its icons at text size (an SVG with no size fills the width) and its screen-reader-only lines out of sight.
const UNSTYLED = `:host * { visibility: visible; }
:host svg { width: 1.2em; height: 1.2em; }
:host [class$="-sr"], :host [class$="-live"] {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }`;

// Give the shadow root `root` the stylesheet at `url` (a file beside the component's script). A <link> in each
// element would ask the server again for every element of every page (Streamlit serves these files without a
// max-age); one constructed sheet, adopted by each root, is fetched once. If the fetch fails, the sheet shows
// the component unstyled, one console warning says so, and the first element drawn on a later page fetches
// it again (into the same sheet: every element that adopted it is styled once it arrives).
function adoptStyles(root, url) {
  let held = SHEETS.get(url.href);
  if (!held) {
    held = { sheet: new CSSStyleSheet(), failedOn: null };
    SHEETS.set(url.href, held);
    loadSheet(held, url);
  } else if (held.failedOn !== null && held.failedOn !== location.pathname) {
    loadSheet(held, url);
  }
  const { sheet } = held;
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

function loadSheet(held, url) {
  held.failedOn = null;
  fetch(url)
    .then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.text();
    })
    .then((css) => held.sheet.replace(css))
    .catch((error) => {
      held.failedOn = location.pathname;
      held.sheet.replaceSync(UNSTYLED);
      console.warn(`Rankwise: the stylesheet ${url.href} could not be loaded (${error.message}); ` +
                   "showing the component unstyled.");
    });
}

// Each component's default export: on mount and on every new `data`, draw into the element's shadow root (the
// element `selector` of the component's HTML, styled by the sheet at `css`). What a component keeps between runs
// lives on the root under `key`, so drawing again is idempotent and the DOM (and the keyboard focus) survives
// reruns. Returns the clean-up Streamlit calls when the element unmounts: `teardown(ctx)` (a drag in progress, its
// timers and observers), then the kept state goes.
export function mountComponent(component, { selector, css, key, setup, update, teardown }) {
  const { data, parentElement: root, setTriggerValue } = component;
  if (!root.querySelector(selector)) return undefined; // the HTML is not mounted yet: the next run draws
  adoptStyles(root, css);
  let ctx = root[key];
  if (!ctx || !ctx.el.wrap.isConnected) {
    ctx = setup(root);
    root[key] = ctx;
  }
  ctx.send = setTriggerValue;
  if (data) update(ctx, data);
  return () => {
    const held = root[key];
    if (!held) return;
    teardown(held);
    delete root[key];
  };
}

// An inline SVG icon from one path (24 x 24 box, drawn with the text colour), hidden from screen readers.
export function svgIcon(d, strokeWidth = 2.2) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "none");
  path.setAttribute("stroke", "currentColor");
  path.setAttribute("stroke-width", String(strokeWidth));
  path.setAttribute("stroke-linecap", "round");
  path.setAttribute("stroke-linejoin", "round");
  svg.appendChild(path);
  return svg;
}

// A sentence of lessons/text/ (Python sends a file's sections as data.text), its {placeholders} filled.
export function say(data, key, values = {}) {
  return data.text[key].replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
}

// The same as DOM nodes, for a help line: a placeholder stands for nodes (the <kbd> keys drawn there).
export function sayNodes(data, key, values) {
  return data.text[key].split(/\{(\w+)\}/).flatMap((part, i) => {
    if (i % 2) return Array.isArray(values[part]) ? values[part] : [document.createTextNode(String(values[part]))];
    return part ? [document.createTextNode(part)] : [];
  });
}

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text; // text only, never HTML
  return node;
}

// DOM writes only when the value differs (a drag redraws on every step).
export function setText(node, text) { if (node.textContent !== text) node.textContent = text; }
export function setAttr(node, name, value) { if (node.getAttribute(name) !== value) node.setAttribute(name, value); }

export function setButton(b, label, disabled) {
  if (b.getAttribute("aria-label") !== label) { b.setAttribute("aria-label", label); b.title = label; }
  setAttr(b, "aria-disabled", disabled ? "true" : "false");
}

// A scoreboard's cells (label, value, change) under `cells`, one per label; `prefix` names the classes
// ("rw" gives rw-score-cell, rw-score-label, ...). Every value and change comes formatted from Python.
export function drawScoreCells(cells, prefix, labels, values, deltas) {
  while (cells.children.length > labels.length) cells.lastElementChild.remove();
  labels.forEach((label, i) => {
    let cell = cells.children[i];
    if (!cell) {
      cell = el("span", `${prefix}-score-cell`);
      cell.dataset.testid = `${prefix}-score-cell`;
      cell.append(el("span", `${prefix}-score-label`), el("span", `${prefix}-score-value`),
                  el("span", `${prefix}-score-delta`));
      cells.append(cell);
    }
    const [l, v, d] = cell.children;
    setText(l, label);
    setText(v, values[i]);
    setText(d, deltas[i]);
    setAttr(d, "data-dir", deltas[i].startsWith("+") ? "up" : deltas[i] ? "down" : "same");
  });
}
