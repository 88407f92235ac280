// lib/view.mjs — the page as the request shows it: observations, deltas
// applied in order (perception/delta.c's format), and what a person reads off
// the result: elements by role and name, components by label, table rows,
// listed options.
import { norm, hasWords, cellNumber } from './text.mjs';

export const DELTA_HEADER = '(changes since the last observation)';
const TRUNCATED = /^\[observation truncated: .*\]$/;

// Every <observation> block of the texts, in order: {text, delta}.
export function observationsOf(texts) {
  const out = [];
  const re = /^<observation>\n([\s\S]*?)\n?^<\/observation>$/gm;
  for (const t of texts) {
    for (const m of t.matchAll(re)) {
      const lines = m[1].split('\n');
      if (lines.length && TRUNCATED.test(lines[lines.length - 1])) lines.pop();
      const text = lines.join('\n');
      out.push({ text, delta: lines[0] === DELTA_HEADER });
    }
  }
  return out;
}

// ---- blocks, as perception/delta.c reads a view -------------------------------

const lineId = (content) => {
  const m = /^\[([^\]\n]+)\]/.exec(content);
  return m ? m[1] : null;
};
const isComponentId = (id) => /^c[0-9]/.test(id ?? '');
const tabsOf = (s) => /^\t*/.exec(s)[0].length;

// A view text → blocks {key, depth, lines (first line's tabs removed from each), component}.
function parseBlocks(text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const depth = tabsOf(lines[i]);
    const content = lines[i].slice(depth);
    const id = lineId(content);
    if (!content && !id) continue;
    const b = { id, depth, lines: [content], component: isComponentId(id) };
    if (b.component) {
      // its table rows: deeper lines without an id of their own
      while (i + 1 < lines.length) {
        const q = lines[i + 1], d = tabsOf(q);
        if (!q || d <= depth || q[d] === '[') break;
        b.lines.push(q.slice(depth));
        i++;
      }
    }
    blocks.push(b);
  }
  return blocks;
}

// A block's key: [id], else its text and how many blocks with that text came before.
function rekey(blocks) {
  const seen = new Map(), ids = new Set();
  for (const b of blocks) {
    if (b.id && !ids.has(b.id)) {
      ids.add(b.id);
      b.key = `[${b.id}]`;
    } else if (b.id) {
      b.key = `\u0002dup:${b.id}`; // an id given twice: the first block stands for it
    } else {
      const k = seen.get(b.lines[0]) ?? 0;
      seen.set(b.lines[0], k + 1);
      b.key = `${b.lines[0]}\u0001${k}`;
    }
  }
}

export class View {
  constructor(text) {
    this.blocks = parseBlocks(text);
    rekey(this.blocks);
  }

  // The delta's changes, in order: changed components replace theirs, added
  // lines replace a line with their id or go in after the last line placed or
  // the unmarked context line ("  <line>") before them, removed ids and lines
  // go; a pruned/hybrid line with the element id of one shown replaces it.  Depth is not in a
  // delta: a new line takes its neighbour's (placed).
  apply(deltaText) {
    const lines = deltaText.split('\n');
    let section = null, cursor = -1;
    const index = (key) => this.blocks.findIndex((b) => b.key === key);
    /* a pruned or hybrid line names its element after its role ("option [19] 'X'"): perception/delta.c
     * keys such a line by its text, so one re-indented (a list that gained its line) comes again as
     * added with nothing removed; it is that element, moved, not a second one */
    const elementOf = (content) => /^[A-Za-z]+ \[(\d+)\]/.exec(content)?.[1] ?? null;
    const sameElement = (b) => { const e = elementOf(b.lines[0]);
      return e ? this.blocks.findIndex((x) => !x.id && elementOf(x.lines[0]) === e) : -1; };
    const place = (b) => {
      const at = b.id ? index(`[${b.id}]`) : sameElement(b);
      if (at >= 0) {
        b.depth = this.blocks[at].depth;
        this.blocks[at] = b;
        cursor = at;
      } else {
        const pos = cursor >= 0 ? cursor + 1 : this.blocks.length;
        b.depth = pos > 0 ? this.blocks[pos - 1].depth : 0;
        b.placed = true;
        this.blocks.splice(pos, 0, b);
        cursor = pos;
      }
      rekey(this.blocks);
    };
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i];
      if (line === 'changed components:' || line === 'added:' || line === 'removed:') {
        section = line.slice(0, -1);
        continue;
      }
      if (!line || line === 'no changes') continue;
      if (section === 'changed components' && !line.startsWith('\t')) {
        const b = { id: lineId(line), depth: 0, lines: [line], component: true };
        while (i + 1 < lines.length && lines[i + 1].startsWith('\t')) b.lines.push(lines[++i]);
        place(b);
      } else if (section === 'added' && line.startsWith('  ')) {
        const content = line.slice(2);
        const id = lineId(content);
        let at = id ? index(`[${id}]`) : -1;
        if (!id) for (let j = this.blocks.length - 1; j >= 0 && at < 0; j--)
          if (!this.blocks[j].id && this.blocks[j].lines[0] === content) at = j;
        if (at >= 0) cursor = at;
      } else if (section === 'added' && line.startsWith('+ ')) {
        const content = line.slice(2);
        const id = lineId(content);
        const b = { id, depth: 0, lines: [content], component: isComponentId(id) };
        while (i + 1 < lines.length && lines[i + 1].startsWith('+ \t')) b.lines.push(lines[++i].slice(2));
        place(b);
      } else if (section === 'removed' && line.startsWith('- ')) {
        const content = line.slice(2);
        const id = /^\[([^\]\n]+)\]$/.exec(content)?.[1];
        let at = id ? index(`[${id}]`) : -1;
        if (!id) for (let j = this.blocks.length - 1; j >= 0 && at < 0; j--)
          if (!this.blocks[j].id && this.blocks[j].lines[0] === content) at = j;
        if (at >= 0) {
          this.blocks.splice(at, 1);
          if (cursor >= at) cursor--;
          rekey(this.blocks);
        }
      }
    }
    return this;
  }

  // Every line: {depth, content, block}; content with atomic views' "\xa0" as the character.
  lines() {
    const out = [];
    for (const b of this.blocks)
      b.lines.forEach((l, i) => {
        const d = tabsOf(l);
        out.push({ depth: b.depth + d, content: l.slice(d).replace(/\\xa0/g, '\u00a0'), block: b, first: i === 0 });
      });
    return out;
  }

  text() {
    return this.blocks.map((b) => b.lines.map((l) => '\t'.repeat(b.depth) + l).join('\n')).join('\n');
  }
}

// The view a model reading the request has in mind: the last full observation
// with every later delta applied.  {view} or {error}.
export function currentView(observations) {
  if (!observations.length) return { view: new View('') };
  let base = -1;
  for (let i = observations.length - 1; i >= 0; i--) if (!observations[i].delta) { base = i; break; }
  if (base < 0) return { error: 'cannot see the view this delta refers to' };
  const v = new View(observations[base].text);
  for (const o of observations.slice(base + 1)) v.apply(o.text);
  return { view: v };
}

// ---- elements -------------------------------------------------------------------

// Places in a line where an element with an id is printed: "[id] role 'name'"
// (atomic view, components) at the start, "role [id] 'name'" (pruned) at the
// start, after a tab, or in a table row's cell after "| " or after the cell's
// text or control before it ("columnheader [13] 'Role filter' button [14] 'filter'").
function occurrences(content) {
  const out = [];
  const first = /^\[([^\]\s]+)\] /.exec(content);
  if (first) out.push({ id: first[1], pos: 0, form: 'id-first' });
  const at = content.startsWith('| ') ? /(^|\| | )([A-Za-z][\w-]*) \[([^\]\s]+)\]/g : /(^|\| )([A-Za-z][\w-]*) \[([^\]\s]+)\]/g;
  for (const m of content.matchAll(at))
    out.push({ id: m[3], pos: m.index + m[1].length, form: 'role-first' });
  return out;
}

const endsAt = (s, i) => i === s.length || s[i] === ' ';

function printedAs(content, occ, role, name) {
  const forms = occ.form === 'id-first'
    ? [`[${occ.id}] ${role} '${name}'`, ...(name ? [] : [`[${occ.id}] ${role}`])]
    : [`${role} [${occ.id}] '${name}'`, ...(name ? [] : [`${role} [${occ.id}]`])];
  // the unnamed form ("textbox [32] value: …") must not be a named line's start ("textbox [5] '[F]'")
  return forms.some((f, i) => content.startsWith(f, occ.pos) && endsAt(content, occ.pos + f.length)
    && !(i === 1 && content.startsWith(" '", occ.pos + f.length)));
}

// "role 'name'" or "role 'name' #N" → {role, name, nth}, or null.
export function parseRoleName(target) {
  const m = /^\s*([^\s'"]+)\s*(['"])(.*)\2\s*(?:#(\d+))?\s*$/s.exec(target);
  if (!m) return null;
  return { role: m[1], name: m[3], nth: m[4] ? Number(m[4]) : 1 };
}

// The element the view prints as role 'name' (the nth such, in view order): {id, line} or null.
export function findElement(view, role, name, nth = 1) {
  let seen = 0;
  for (const l of view.lines())
    for (const occ of occurrences(l.content))
      if (printedAs(l.content, occ, role, name) && ++seen === nth) return { id: occ.id, line: l };
  return null;
}

// ---- components ---------------------------------------------------------------------

// [cN] lines: {id, kind, label, tools, pageTool, offscreen, line}.
export function components(view) {
  const out = [];
  let section = null;
  for (const l of view.lines()) {
    if (l.depth === 0 && /^(not on screen|page tools):$/.test(l.content)) {
      section = l.content.slice(0, -1);
      continue;
    }
    if (l.depth === 0 && !l.content.startsWith('[')) section = null;
    const m = /^\[(c\d+)\] (.*)$/.exec(l.content);
    if (!m) continue;
    const rest = m[2];
    const arrow = rest.indexOf(' → ');
    const tools = arrow >= 0 ? rest.slice(arrow + 3) : '';
    const tool = /^([A-Za-z_$][\w$.-]*)\(/.exec(rest);
    if (tool && !rest.startsWith(`${tool[1]} `)) {
      out.push({ id: m[1], kind: 'page tool', label: tool[1], pageTool: tool[1], tools: rest, line: l });
      continue;
    }
    const kind = /^\S+/.exec(rest)?.[0] ?? '';
    let label = '';
    const after = rest.slice(kind.length + 1);
    if (after.startsWith("'")) {
      for (let i = 1; i < after.length; i++)
        if (after[i] === "'" && (i + 1 === after.length || after[i + 1] === ' ')) {
          label = after.slice(1, i);
          break;
        }
    }
    out.push({ id: m[1], kind, label, tools, offscreen: section === 'not on screen', line: l });
  }
  return out;
}

export const offersTool = (comp, tool) => comp.pageTool ? comp.pageTool === tool
  : new RegExp(`(^|\\s)${tool.replace(/[$.]/g, '\\$&')}\\(`).test(comp.tools);

// A link a group of links lists (eous's native "links" component: "[cN] links 'label' → open(link:
// A|B|C)"): {comp, name} of the first group that lists it (any case and spacing aside), or null.
export function findLinkInGroups(view, name) {
  const want = norm(name);
  for (const c of components(view)) {
    if (c.pageTool || c.kind !== 'links') continue;
    const m = /^open\(link: (.*)\)$/.exec(c.tools);
    const hit = m && m[1].split('|').find((n) => norm(n) === want);
    if (hit) return { comp: c, name: hit };
  }
  return null;
}

// A call target as a person reads it: a page tool's name, "kind 'label'", or a
// label (whole words, case and accents aside; an equal label before one that
// only contains the words).  {comp} or {error}.
export function findComponent(view, target, tool) {
  const comps = components(view);
  const pick = (list) => {
    if (list.length === 1) return { comp: list[0] };
    const offering = list.filter((c) => offersTool(c, tool));
    if (offering.length === 1) return { comp: offering[0] };
    return { error: `cannot tell which ${target} is meant: ${list.map((c) => `[${c.id}] ${c.kind} '${c.label}'`).join(', ')}` };
  };
  const byTool = comps.filter((c) => c.pageTool && c.pageTool === target);
  if (byTool.length) return pick(byTool);
  const rn = parseRoleName(target);
  if (rn) {
    const list = comps.filter((c) => !c.pageTool && c.kind === rn.role && norm(c.label) === norm(rn.name));
    if (list.length) return rn.nth > 1 ? (list[rn.nth - 1] ? { comp: list[rn.nth - 1] } : { error: `cannot see ${target}` }) : pick(list);
    return { error: `cannot see ${target}` };
  }
  const t = norm(target);
  if (!t) return { error: `cannot see ${target}` };
  const equal = comps.filter((c) => !c.pageTool && norm(c.label) === t);
  if (equal.length) return pick(equal);
  const words = comps.filter((c) => !c.pageTool && hasWords(norm(c.label), t));
  if (words.length) return pick(words);
  return { error: `cannot see ${target}` };
}

// ---- tables -----------------------------------------------------------------------------

const splitRow = (s) => s.replace(/^\|\s?/, '').replace(/\s?\|$/, '').split(' | ').map((c) => c.trim());
const cellText = (c) => /^[A-Za-z][\w-]* \[[^\]\s]+\] '(.*)'/.exec(c)?.[1] ?? c;

// antd's empty table: one cell "No data" (Chromium names it "No data No data": the image's alt and the text)
const isNoData = (text) => /^(no data ?)+$/.test(norm(text));

// The tables the view shows, each {header: [names], rows: [[cells]]}:
//   hybrid: a table component's "| key | … |" line and the rows under it (a native table component's
//           table beneath it as the pruned view prints one);
//   pruned: consecutive "| … |" lines, the one of columnheaders is the header;
//   atomic: "row" lines and the cell/gridcell/columnheader/rowheader lines under them.
// "(no rows)" and a "| No data |" row are no rows.
export function tables(view) {
  const out = [];
  const lines = view.lines();
  let pruned = null, atomicTable = null, row = null;
  const endRow = () => {
    if (!row) return;
    if (row.cells.length && row.cells.every((c) => c.header)) atomicTable.header = row.cells.map((c) => c.text);
    else if (row.cells.length && !(row.cells.length === 1 && isNoData(row.cells[0].text)))
      atomicTable.rows.push(row.cells.map((c) => c.text));
    row = null;
  };
  for (const l of lines) {
    const c = l.content;
    if (l.block.component && !l.first) continue; // read with its component below
    if (l.block.component && l.first && /^\[c\d+\] table\b/.test(c)) {
      const t = { header: [], rows: [] };
      for (const r of l.block.lines.slice(1).map((x) => x.trim()).filter((x) => x.startsWith('|'))) {
        const cells = splitRow(r);
        if (!t.header.length && cells[0] === 'key') t.header = cells;
        // a native table component (eous's filterable or sortable table) prints the table as pruned does
        else if (cells.some((x) => /^columnheader\b/.test(x))) t.header = cells.map(cellText);
        else if (!(cells.length === 1 && isNoData(cells[0]))) t.rows.push(cells.map(cellText));
      }
      out.push(t);
      continue;
    }
    if (c.startsWith('|') && c.endsWith('|')) {
      if (!pruned) out.push((pruned = { header: [], rows: [] }));
      const cells = splitRow(c);
      if (cells.some((x) => /^columnheader\b/.test(x))) pruned.header = cells.map(cellText);
      else if (!(cells.length === 1 && isNoData(cells[0]))) pruned.rows.push(cells.map(cellText));
      continue;
    }
    pruned = null;
    const a = /^\[[^\]\s]+\] (\S+) '(.*)'/.exec(c);
    const role = a?.[1];
    if (role === 'table' || role === 'grid') {
      endRow();
      out.push((atomicTable = { header: [], rows: [], depth: l.depth }));
    } else if (atomicTable && role === 'row') {
      endRow();
      row = { depth: l.depth, cells: [], placed: !!l.block.placed };
    } else if (row && (l.depth > row.depth || (row.placed && l.block.placed)) &&
               ['cell', 'gridcell', 'columnheader', 'rowheader'].includes(role)) {
      // a delta's new row and its cells come at one depth (the context line's): its cells all the same
      row.cells.push({ text: a[2], header: role === 'columnheader' });
    } else if (atomicTable && l.depth <= atomicTable.depth) {
      endRow();
      atomicTable = null;
    }
  }
  if (atomicTable) endRow();
  return out.map(({ header, rows }) => ({ header, rows }));
}

export const rowsShown = (view) => tables(view).reduce((n, t) => n + t.rows.length, 0);

// The numbers of column `name` over the shown rows (the first table with such a
// column: equal name first, else one whose name holds the words), or null.
export function columnValues(view, name) {
  const n = norm(name);
  for (const match of [(h) => norm(h) === n, (h) => hasWords(norm(h), n)]) {
    for (const t of tables(view)) {
      const i = t.header.findIndex(match);
      if (i >= 0) return t.rows.map((r) => cellNumber(r[i] ?? '')).filter((x) => !Number.isNaN(x));
    }
  }
  return null;
}

// ---- listed options ---------------------------------------------------------------------

// The options the view lists whole for the component or combobox labelled `label`:
// a number, or {error}.  Hybrid: the component's "options: a | b" state, else the
// first "a|b|c" list of its tools; a list cut short ("… +N more") or referring
// elsewhere ("as in") is not whole.  Atomic/pruned: the option lines shown, when a
// combobox or listbox with that name (required mark "* " aside) is shown.
export function optionsListed(view, label) {
  const n = norm(label);
  const comp = components(view).find((c) => !c.pageTool && norm(c.label) === n);
  if (comp) {
    const rest = comp.line.content;
    const state = /\boptions: (.*?)(?: → |$)/.exec(rest.slice(0, rest.indexOf(' → ') >= 0 ? rest.indexOf(' → ') + 3 : undefined));
    let list = state ? state[1].split(' | ') : null;
    if (!list) {
      const m = /\w+\??: \[?([^;()\[\],]*\|[^;()\[\],]*)\]?/.exec(comp.tools);
      if (m) list = m[1].split('|');
    }
    if (!list) return { error: `[${comp.id}] lists no options` };
    if (list.some((x) => /…|\+\d+ more|^as in\b/.test(x))) return { error: `[${comp.id}] lists only part of its options` };
    return list.length;
  }
  // atomic/pruned (as agent/grounding.c): the item lines of the first list (listbox, menu, tree) after the
  // element named 'label' — a combobox's popup, a cascader's next column
  const ITEMS = new Set(['option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);
  const roleOf = (content) => /^(?:\[[^\]\s]+\] )?([A-Za-z]+)/.exec(content)?.[1] ?? '';
  const names = (content) => norm(content).includes(`'${n}'`);
  let after = false, listDepth = -1, count = 0;
  for (const l of view.lines()) {
    const role = roleOf(l.content);
    if (!after) after = !!role && names(l.content);
    else if (listDepth < 0) { if (['listbox', 'menu', 'tree'].includes(role)) listDepth = l.depth; }
    else if (ITEMS.has(role)) count++;
    // a delta's added lines come without their indentation: items right after the list are its own too
    else if (l.depth <= listDepth) break;
  }
  if (!after) return { error: `cannot see ${label}` };
  if (listDepth < 0) return { error: `no list follows '${label}'` };
  return count;
}
