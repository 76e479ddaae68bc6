// Rankwise: the scoreboard's look-up in the engine's move table (components/ranking_editor/moves.py), shared by the
// ranking editor and its strip view. The browser never computes a value: it finds the table's row for a state
// that is at most one move away from the one Python sent (data.order, data.tray, data.grades at data.k).

export function sameList(a, b) { return a.length === b.length && a.every((x, i) => x === b[i]); }

function placeRow(t, id, index) {
  const entry = t.place[id];
  const row = entry ? entry.rows[index - entry.from] : undefined;
  return row === undefined ? null : row;
}

function gradeRow(data, grades, id) {
  const [lo, hi] = data.gradeRange;
  const before = data.grades[id];
  const after = grades[id];
  let step = null;
  if (before === undefined) step = after === lo ? "-1" : after === Math.min(hi, Math.max(lo, 1)) ? "+1" : null;
  else if (after === before + 1) step = "+1";
  else if (after === before - 1) step = "-1";
  const steps = data.score.table.grade[id];
  return step && steps && step in steps ? steps[step] : null;
}

// The row of data.score.shown for the list `order`, the tray `tray`, `grades` and the cutoff `k`, or null when
// that state is not one move away from the one Python sent (or the move has no entry in the table).
export function tableRow(data, { order, tray, grades, k }) {
  const t = data.score.table;
  const changed = Object.keys({ ...data.grades, ...grades }).filter((id) => data.grades[id] !== grades[id]);
  const sameOrder = sameList(order, data.order);
  if (k !== data.k) { // the cutoff line moved: its row, if nothing else did
    const c = t.cutoff;
    const row = sameOrder && !changed.length ? c.rows[k - c.from] : undefined;
    return row === undefined ? null : row;
  }
  if (changed.length) return sameOrder && changed.length === 1 ? gradeRow(data, grades, changed[0]) : null;
  if (sameOrder) return t.current;
  if (order.length === data.order.length - 1) { // one document went to the tray
    const id = data.order.find((x) => !order.includes(x));
    return sameList(data.order.filter((x) => x !== id), order) && id in t.tray ? t.tray[id] : null;
  }
  if (order.length === data.order.length + 1) { // one came back from the tray
    const id = order.find((x) => !data.order.includes(x));
    return sameList(order.filter((x) => x !== id), data.order) ? placeRow(t, id, order.indexOf(id)) : null;
  }
  if (order.length !== data.order.length) return null;
  let a = 0;
  let b = order.length - 1;
  while (order[a] === data.order[a]) a += 1;
  while (order[b] === data.order[b]) b -= 1;
  for (const id of [data.order[a], data.order[b]]) { // moved down from a, or up from b
    if (sameList(order.filter((x) => x !== id), data.order.filter((x) => x !== id))) {
      return placeRow(t, id, order.indexOf(id));
    }
  }
  return null;
}

// The board in words, for an announcement after a move ("Recall@5 0.300 (−0.100)"); "" without a row.
export function scoreWords(data, row, k, say) {
  const score = data.score;
  if (!score || score.hidden || row === null) return "";
  return score.labels.map((label, i) => {
    const delta = score.deltas[row][i];
    const values = { label: label.replace("{k}", String(k)), value: score.shown[row][i], delta };
    return say(data, delta ? "Score words change" : "Score words", values);
  }).join(", ");
}
