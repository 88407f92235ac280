// benchmarks/perf/real_apps.mjs — real_apps.md from the runs of real_apps.sh: per mode, tasks
// passed, plan steps, round trips (model requests) and billed input tokens, as medians over the
// tasks every mode passed (with the spread, min..max), and the ratios the issue's goals name.
//   node benchmarks/perf/real_apps.mjs OUT_DIR RESULTS_DIR
import fs from 'node:fs';
import path from 'node:path';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';

// --ci4a-off SRC DST [VIEWS]: the Playground's tasks as copies that start with ?ci4a=off (the site
// keeps it for the tab); the CI4A calls of `script` name components the page no longer has, so their
// hybrid plan is the atomic one re-grounded mechanically (nativePlan, said in real_apps.md) against
// VIEWS/<screen>.txt, the hybrid view of the task's start page with CI4A off (real_apps.sh observes
// it with `eous observe` before any run).
//
// nativePlan: every rule applies to every plan; a step no rule matches stays as the atomic plan has
// it, and a rule only names what the start view prints:
//  1. a native field's label has no required mark ("combobox '* Room type'" is "combobox 'Room type'");
//  2. a select on a combobox is its select(option), or deselect(option) where the first view printing
//     the combobox lists the option `selected:` (several choices; the second pass's views included) and
//     no earlier pick of the plan toggled it; a click on a combobox, then a click on an option or
//     tree item, is one select(option) of it, after its expand() when neither the objective nor the
//     start view names the option (the popup lists it once open); a click on a combobox, then clicks through a cascade's
//     levels (menu items named with the 'right' arrow that opens the next level, then one without), is
//     one select(option: 'A / B') (since it took paths);
//  3. text typed (Enter or not) into a textbox or spinbutton (its digits as a number) the start view
//     does not print on a line of its own (a field folded into its form's line, or in a form that opens later) is a fill() of
//     form 'form' (every Playground form is labelled so); typed with Enter into a field the start view
//     prints as a native component, its setValue() (on these screens Enter only commits what was
//     typed, and the native tools commit by leaving the field);
//  4. a click on a checkbox the start view folds into the form is fill({label: true}), false when the
//     start view's values: say it is checked or an earlier click of the plan checked it (a checkbox
//     not in the start view is taken as unchecked, HTML's default; a field the plan types into a second
//     time starts a new form, whose checkboxes the plan has not clicked yet); on a checkbox printed as a
//     component of its own (a table row's), check(), or uncheck() when the start view prints it
//     checked; a click on a radio is fill({group: option}) where the start view's fill() lists the
//     option under that group, or (the second pass, --reground) where the fill() of form 'form' in a
//     view the task's first hybrid run printed lists it (a step of a form that opens later: the
//     application's second step);
//  5. a click on a tab the start view's tabs component lists is that component's select(tab);
//  6. clicks on listitem 'Next Page' are the pagination component's next(); a run of k of them that
//     starts the plan is goToPage(k + 1) when the start view lists that page;
//  7. consecutive fill() calls of the one form are one fill() (filler text, typed `from: placeholder`, in
//     a fill() of its own that says so);
//  8. a click on a number's text inside the start view's slider range (a slider's mark) is that
//     slider's setValue(number); a click on the slider then End or Home, setValue(its max or min); a
//     click on the slider's handle alone (it sets nothing) is left out;
//  9. a click on the k-th "button 'filter'" of the start view's table, clicks on items of its menu, then
//     "button 'OK'", is the table component's filter(column: the k-th column its filter() lists, values:
//     the items ticked after those clicks, each click toggling one, from the ones an earlier filter of
//     that column ticked) (since it took column filters);
// 10. a click on a textbox the start view does not print on a line of its own (a field folded into its
//     form's line, or in a form that opens later: a date field whose calendar the next steps use) is
//     form 'form''s click(field);
// 11. a click on cell 'D' (a day number) is the select(date) of a calendar the start view or (the second
//     pass) a view of the first run prints, its month from the calendar's label ('July 2025'), the one
//     whose select() range holds that day where several do.
const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october',
  'november', 'december'];
const squashName = s => String(s).replace(/[\s\u00a0]+/g, ' ').trim();
function viewFacts(view) {
  const lines = String(view || '').split('\n');
  const comps = [];
  for (const l of lines) {
    const m = /\[c\d+\] (\w+) '([^']*)'(.*)$/.exec(l);
    if (m) comps.push({kind: m[1], label: m[2], rest: m[3], line: l});
  }
  const form = comps.find(c => c.kind === 'form' && c.label === 'form');
  const params = new Map(), values = new Map();
  if (form) {
    const f = /fill\((.*?)\) submit\(/.exec(form.rest);
    for (const p of f ? f[1].split('; ') : []) {
      const m = /^(.*?)\?(?::\s*(.*))?(?:,.*)?$/.exec(p);
      if (m) params.set(m[1], (m[2] || '').split('|').map(x => x.trim()));
    }
    const v = /values: (.*?) →/.exec(form.rest);
    if (v) for (const kv of v[1].split(/, (?=[^=,]+=)/)) { const e = kv.indexOf('='); values.set(kv.slice(0, e), kv.slice(e + 1)); }
  }
  return {comps, form, params, values};
}
function nativePlan(plan, view, later = [], intent = '') {
  const V = viewFacts(view);
  /* an option the task's first request shows (its objective or start view) */
  const low = s => squashName(s).toLowerCase();
  const shownFirst = o => low(intent).includes(low(o)) || low(view).includes(low(o));
  const L = later.map(viewFacts);
  const own = (kind, label) => V.comps.find(c => c.kind === kind && c.label === label);
  const unmark = s => s.replace(/^(textbox|combobox|spinbutton) '\* /, "$1 '");
  const flipped = new Map(); // checkbox label -> the state the plan left it in
  const typedInto = new Set(); // the labels of the fields the plan typed into
  const filtersTicked = new Map(); // a table column -> the values its filter has ticked
  const toggled = new Map(); // "combobox label\noption" -> chosen after the plan's picks so far
  /* the first view printing the combobox with a `selected:` list (several choices) says whether the
   * option is chosen before the plan picks it */
  const chosenIn = (label, option) => {
    for (const F of [V, ...L]) {
      const c = F.comps.find(x => x.kind === 'combobox' && x.label === label && /^ selected: /.test(x.rest));
      if (c) return / selected: (.*?) →/.exec(c.rest)[1].split(' | ').includes(squashName(option));
    }
    return false;
  };
  const out = [];
  /* from: the typed step's own (filler text, `placeholder`), kept on a fill() of only such fields */
  const fill = (name, value, from) => {
    const last = out[out.length - 1];
    if (last && last.call === "form 'form'" && last.tool === 'fill' && !(name in last.params) && last.from === from) last.params[name] = value;
    else out.push({call: "form 'form'", tool: 'fill', params: {[name]: value}, ...(from ? {from} : {})});
  };
  for (let i = 0; i < plan.length; i++) {
    const step = {...plan[i]};
    for (const v of ['click', 'type', 'select', 'hover']) if (typeof step[v] === 'string') step[v] = unmark(step[v]);
    const cb = typeof step.select === 'string' && /^combobox '(.*)'$/.exec(step.select);
    if (cb) {
      /* several choices: picking a chosen option takes it off, as deselect() does */
      const key = `${cb[1]}\n${step.option}`;
      const was = toggled.has(key) ? toggled.get(key) : chosenIn(cb[1], step.option);
      toggled.set(key, !was);
      out.push({call: step.select, tool: was ? 'deselect' : 'select', params: {option: step.option}});
      continue;
    }
    const click = typeof step.click === 'string' && /^(\w+) '(.*)'( #\d+)?$/.exec(step.click);
    const next = plan[i + 1] && typeof plan[i + 1].click === 'string' && /^(option|treeitem) '(.*)'$/.exec(plan[i + 1].click);
    if (click && click[1] === 'combobox' && next) {
      /* an option nothing shown names is seen once the popup lists it: expand() first */
      if (!shownFirst(next[2])) out.push({call: step.click, tool: 'expand', params: {}});
      out.push({call: step.click, tool: 'select', params: {option: squashName(next[2])}});
      i++; continue;
    }
    /* a cascade (antd's Cascader): a level's item named with its 'right' arrow opens the next level */
    const item = k => plan[k] && typeof plan[k].click === 'string' && /^menuitem(?:checkbox|radio)? '(.*)'$/.exec(plan[k].click);
    if (click && click[1] === 'combobox' && item(i + 1) && / right$/.test(squashName(item(i + 1)[1]))) {
      const path = [];
      let k = i + 1;
      for (; item(k); k++) {
        const n = squashName(item(k)[1]);
        path.push(n.replace(/ right$/, ''));
        if (!/ right$/.test(n)) break;
      }
      if (path.length > 1 && item(k) && !/ right$/.test(squashName(item(k)[1]))) {
        out.push({call: step.click, tool: 'select', params: {option: path.join(' / ')}});
        i = k; continue;
      }
    }
    const field = typeof step.type === 'string' && /^(textbox|spinbutton) '(.*)'$/.exec(step.type);
    if (field && field[2] && step.clear !== false) {
      /* a field typed into again is a new form (a second application): its checkboxes start as shown */
      if (typedInto.has(field[2])) flipped.clear();
      typedInto.add(field[2]);
      /* a spinbutton takes a number: the typed digits as one */
      const v = field[1] === 'spinbutton' && /^-?\d+(\.\d+)?$/.test(String(step.text)) ? Number(step.text) : step.text;
      if (!own('textbox', field[2]) && !own('number', field[2])) { fill(field[2], v, /^placeholder\b/.test(step.from || '') ? step.from : undefined); continue; }
      if (step.enter) { out.push({call: `textbox '${field[2]}'`, tool: 'setValue', params: {value: step.text}}); continue; }
    }
    if (click && click[1] === 'checkbox' && !click[3]) {
      const name = squashName(click[2]);
      /* a checkbox of its own (a table's row) may be another one after the page changed: as printed */
      if (own('checkbox', name)) { out.push({call: `checkbox '${name}'`, tool: / checked: true/.test(own('checkbox', name).rest) ? 'uncheck' : 'check', params: {}}); continue; }
      const was = flipped.has(name) ? flipped.get(name) : V.values.get(name) === 'true';
      flipped.set(name, !was);
      fill(name, !was);
      continue;
    }
    if (click && click[1] === 'radio') {
      const opt = squashName(click[2]);
      const group = [V, ...L].map(F => [...F.params].find(([, en]) => en.includes(opt))).find(Boolean);
      if (group) { fill(group[0], opt); continue; }
    }
    if (click && click[1] === 'tab') {
      const listed = c => { const m = /select\(tab: ([^)]*)\)/.exec(c.rest); return m ? m[1].split('|') : []; };
      const tabs = V.comps.find(c => c.kind === 'tabs' && listed(c).includes(click[2]));
      if (tabs) { out.push({call: `tabs '${tabs.label}'`, tool: 'select', params: {tab: click[2]}}); continue; }
    }
    const slider = V.comps.find(c => c.kind === 'slider');
    const range = slider && /setValue\(value: number, (-?[\d.]+)\.\.(-?[\d.]+)\)/.exec(slider.rest);
    if (range && click && click[1] === 'StaticText' && /^\d+$/.test(click[2]) &&
        Number(click[2]) >= Number(range[1]) && Number(click[2]) <= Number(range[2])) {
      out.push({call: `slider '${slider.label}'`, tool: 'setValue', params: {value: Number(click[2])}});
      continue;
    }
    if (range && click && click[1] === 'slider' && plan[i + 1] && /^(End|Home)$/.test(plan[i + 1].press || '')) {
      out.push({call: `slider '${slider.label}'`, tool: 'setValue', params: {value: Number(plan[i + 1].press === 'End' ? range[2] : range[1])}});
      i++; continue;
    }
    if (range && click && click[1] === 'slider') continue; /* a click on the handle sets nothing */
    const table = V.comps.find(c => c.kind === 'table' && /→ filter\(column: /.test(c.rest));
    const fb = click && click[1] === 'button' && click[2] === 'filter' && table;
    if (fb) {
      const cols = /filter\(column: ([^;]*);/.exec(table.rest)[1].split('|');
      const col = cols[(click[3] ? Number(click[3].slice(2)) : 1) - 1];
      let k = i + 1;
      const ticked = new Set(filtersTicked.get(col) || []);
      for (; plan[k] && typeof plan[k].click === 'string' && /^menuitem '/.test(plan[k].click); k++) {
        const n = squashName(/^menuitem '(.*)'$/.exec(plan[k].click)[1]);
        if (ticked.has(n)) ticked.delete(n); else ticked.add(n);
      }
      if (col && k > i + 1 && plan[k] && plan[k].click === "button 'OK'") {
        filtersTicked.set(col, [...ticked]);
        out.push({call: `table '${table.label}'`, tool: 'filter', params: {column: col, values: [...ticked]}});
        i = k; continue;
      }
    }
    if (click && click[1] === 'textbox' && click[2] && !click[3] && !own('textbox', squashName(click[2]))) {
      /* a field folded into its form's line (or in a form that opens later) has no id: the form clicks it */
      out.push({call: "form 'form'", tool: 'click', params: {field: squashName(click[2])}});
      continue;
    }
    const day = click && click[1] === 'cell' && !click[3] && /^\d{1,2}$/.exec(click[2]);
    if (day) {
      /* a day of a calendar a later view prints (a picker opens on a click): the month is its label's */
      const dated = c => { const m = /^(\w+) (\d{4})$/.exec(c.label);
        const k = m ? MONTH_NAMES.indexOf(m[1].toLowerCase()) : -1;
        return k < 0 ? null : `${m[2]}-${String(k + 1).padStart(2, '0')}-${day[0].padStart(2, '0')}`; };
      const cals = [V, ...L].flatMap(F => F.comps).filter(c => c.kind === 'calendar' && dated(c));
      const inRange = c => { const r = /select\(date: [^,]*, (\S+)\.\.([^,)\s]+)/.exec(c.rest);
        return r && dated(c) >= r[1] && dated(c) <= r[2]; };
      const cal = cals.find(inRange) || cals[0];
      if (cal) { out.push({call: `calendar '${cal.label}'`, tool: 'select', params: {date: dated(cal)}}); continue; }
    }
    if (step.click === "listitem 'Next Page'") {
      const pager = V.comps.find(c => c.kind === 'pagination');
      if (pager) {
        let k = 0;
        while (plan[i + k] && plan[i + k].click === "listitem 'Next Page'") k++;
        const pages = /goToPage\(page: ([^)]*)\)/.exec(pager.rest);
        if (!out.length && pages && pages[1].split('|').includes(String(k + 1))) {
          out.push({call: `pagination '${pager.label}'`, tool: 'goToPage', params: {page: k + 1}});
        } else {
          for (let j = 0; j < k; j++) out.push({call: `pagination '${pager.label}'`, tool: 'next', params: {}});
        }
        i += k - 1; continue;
      }
    }
    out.push(step);
  }
  return out;
}
// --reground TASKS RUN VIEWS DST: the second pass.  The hybrid tasks of RUN (a first run of the
// TASKS copies) that did not pass are re-grounded once
// more, against their start view and the hybrid views that first run printed at each of its steps
// (RUN/trace/<id>-hybrid/step-NN.txt: what the stand-in saw); a task whose plan changes goes to DST
// to be run again.  Nothing else is read: a rule still only names what a view printed.
if (process.argv[2] === '--reground') {
  const [tasks, run, views, dst] = process.argv.slice(3);
  if (!tasks || !run || !views || !dst) { console.error('usage: real_apps.mjs --reground TASKS_DIR RUN_DIR VIEWS_DIR DST_DIR'); process.exit(2); }
  const res = path.join(run, 'results.jsonl');
  if (!fs.existsSync(res)) { console.error(`real_apps: ${res}: expected the first hybrid run's results`); process.exit(2); }
  fs.mkdirSync(dst, {recursive: true});
  let n = 0;
  for (const r of fs.readFileSync(res, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l))) {
    if (r.status === 'passed') continue;
    const f = path.join(tasks, `${String(r.task_id).padStart(3, '0')}.json`);
    if (!fs.existsSync(f)) continue;
    const t = JSON.parse(fs.readFileSync(f, 'utf8'));
    const start = String(t.start_url).replace(/[?&]ci4a=off$/, '');
    const vf = path.join(views, (start.replace(/^__\w+__\/?/, '').replace(/[/?].*$/, '') || 'home') + '.txt');
    const dir = path.join(run, 'trace', `${r.task_id}-hybrid`);
    const later = fs.existsSync(dir) ? fs.readdirSync(dir).filter(x => /^step-\d+\.txt$/.test(x)).sort()
      .map(x => fs.readFileSync(path.join(dir, x), 'utf8')) : [];
    const plan = nativePlan(t.atomic_script, fs.existsSync(vf) ? fs.readFileSync(vf, 'utf8') : '', later, t.intent);
    if (JSON.stringify(plan) === JSON.stringify(t.script)) continue;
    t.script = plan;
    fs.writeFileSync(path.join(dst, path.basename(f)), JSON.stringify(t, null, 2) + '\n');
    n++;
  }
  console.log(`real_apps: ${n} Playground tasks re-grounded against their first run's views in ${dst}`);
  process.exit(0);
}
if (process.argv[2] === '--ci4a-off') {
  const [src, dst, views] = process.argv.slice(3);
  if (!src || !dst) { console.error('usage: real_apps.mjs --ci4a-off SRC_DIR DST_DIR [VIEWS_DIR]'); process.exit(2); }
  const viewOf = url => { if (!views) return '';
    const f = path.join(views, (url.replace(/^__\w+__\/?/, '').replace(/[/?].*$/, '') || 'home') + '.txt');
    if (!fs.existsSync(f)) { console.error(`real_apps: ${f}: expected the start view of ${url}`); process.exit(2); }
    return fs.readFileSync(f, 'utf8'); };
  fs.mkdirSync(dst, {recursive: true});
  let n = 0;
  for (const f of fs.readdirSync(src).filter(f => /^\d+\.json$/.test(f)).sort()) {
    const t = JSON.parse(fs.readFileSync(path.join(src, f), 'utf8'));
    const u = String(t.start_url);
    t.start_url = u + (u.includes('?') ? '&' : '?') + 'ci4a=off';
    t.script = nativePlan(t.atomic_script, viewOf(u), [], t.intent);
    fs.writeFileSync(path.join(dst, f), JSON.stringify(t, null, 2) + '\n');
    n++;
  }
  console.log(`real_apps: ${n} Playground tasks with CI4A off in ${dst}`);
  process.exit(0);
}
const [out, results] = process.argv.slice(2);
if (!out || !results) { console.error('usage: real_apps.mjs OUT_DIR RESULTS_DIR | --ci4a-off SRC_DIR DST_DIR'); process.exit(2); }
const MODES = ['hybrid', 'pruned', 'atomic'];
const rows = {};
for (const m of MODES) {
  const f = path.join(out, m, 'results.jsonl');
  rows[m] = fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l)) : [];
}
const by = m => new Map(rows[m].map(r => [r.task_id, r]));
const maps = Object.fromEntries(MODES.map(m => [m, by(m)]));
const all = [...new Set(MODES.flatMap(m => rows[m].map(r => r.task_id)))].sort((a, b) => Number(a) - Number(b));
const common = all.filter(t => MODES.every(m => maps[m].get(t)?.status === 'passed'));
const median = xs => { const s = [...xs].sort((a, b) => a - b); const n = s.length;
  return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN; };
const sum = xs => xs.reduce((a, b) => a + b, 0);
const stat = (m, f, tasks) => { const xs = tasks.map(t => f(maps[m].get(t))); return {med: median(xs), min: Math.min(...xs), max: Math.max(...xs), sum: sum(xs)}; };
const F = {steps: r => r.steps, trips: r => r.plan_calls, input: r => r.prompt_tokens};
const fmt = s => `${Number.isInteger(s.med) ? s.med : s.med.toFixed(1)} (${s.min}..${s.max})`;
const commit = fs.readFileSync(path.join(out, 'commit'), 'utf8').trim();
// form tasks: the ones that go through a form (search, login, and the edits after a login)
const form = common.filter(t => /search the wiki|log in/i.test(maps.hybrid.get(t).intent));
const lines = [];
lines.push('# Real applications with the native provider: DokuWiki, MediaWiki', '');
if (!all.length) {
  lines.push(`Commit ${commit}. Not measured here: DokuWiki (\`DOKUWIKI=0\`); the Playground with CI4A off follows.`, '');
} else {
  lines.push(`Commit ${commit}. Produced by \`benchmarks/perf/real_apps.sh\` (this file by \`real_apps.mjs\`): DokuWiki`);
  lines.push('(Debian\'s package, `scripts/wiki`, no registry: every triplet in its hybrid view is the native');
  lines.push('provider\'s) through the view-bound stand-in model (`benchmarks/standin`, the model path), each mode');
  lines.push('from the seeded wiki, at the defaults (`--history full`, deltas on, `--max-batch 8`). Round trips are');
  lines.push('model requests; billed input tokens are the requests\' prompt tokens as the stand-in counts them (o200k).', '');
  lines.push('| mode | passed | plan steps, median (min..max) | round trips | billed input tokens | input tokens, sum |');
  lines.push('|---|---|---|---|---|---|');
  for (const m of MODES) {
    const passed = rows[m].filter(r => r.status === 'passed').length;
    lines.push(`| ${m} | ${passed}/${rows[m].length} | ${fmt(stat(m, F.steps, common))} | ${fmt(stat(m, F.trips, common))} | ${fmt(stat(m, F.input, common))} | ${stat(m, F.input, common).sum} |`);
  }
  lines.push('', `Medians over the ${common.length} tasks every mode passed.`, '');
  const ratio = (a, b, f, tasks) => tasks.length ? (sum(tasks.map(t => f(maps[a].get(t)))) / sum(tasks.map(t => f(maps[b].get(t))))).toFixed(2) : 'n/a';
  lines.push('| goal | measured |', '|---|---|');
  lines.push(`| form tasks (${form.length}): hybrid ≤ 0.7× pruned's plan steps | ${ratio('hybrid', 'pruned', F.steps, form)}× |`);
  lines.push(`| all tasks together: hybrid ≤ 0.9× pruned's tokens (the sums' ratio) | ${ratio('hybrid', 'pruned', F.input, common)}× |`);
  // the goal reads "every task": each task's own ratio too, since a sum lets the long tasks carry the short
  const each = common.map(t => F.input(maps.hybrid.get(t)) / F.input(maps.pruned.get(t))).sort((a, b) => a - b);
  if (each.length)
    lines.push(`| every task: hybrid ≤ 0.9× pruned's tokens, each task's ratio | ${each.filter(r => r <= 0.9).length} of `
      + `${each.length} tasks; ${each[0].toFixed(2)}..${each[each.length - 1].toFixed(2)}× |`);
  lines.push(`| hybrid vs atomic round trips (all common tasks) | ${ratio('hybrid', 'atomic', F.trips, common)}× |`);
  lines.push('');
  lines.push('Plan steps per form task, hybrid/pruned (a step is every action run, the stop included): ' +
    form.map(t => `${t}: ${maps.hybrid.get(t).steps}/${maps.pruned.get(t).steps}`).join(', ') + '.', '');
  // where the tokens go: what every request repeats (system prompt, tool schemas: "fixed") and the
  // observations sent (full views and deltas), from the traces of the common tasks
  const traceOf = (m, t) => { const f = path.join(out, m, 'trace', `${t}-${m}.jsonl`);
    return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l)) : []; };
  lines.push('Where the tokens go (the common tasks, from the traces): every request repeats the fixed part (system prompt');
  lines.push('and tool schemas; hybrid\'s adds the `call` tool and the triplet rules), and `--history full` re-sends every');
  lines.push('earlier observation in the conversation, so a task\'s billed tokens grow with both.', '');
  lines.push(`| mode | requests | fixed tokens per request | observation tokens sent, sum | of them on the ${form.length} form tasks |`);
  lines.push('|---|---|---|---|---|');
  const where = {};
  for (const m of MODES) {
    let reqs = 0, fixed = 0, obs = 0, obsForm = 0;
    for (const t of common) for (const st of traceOf(m, t)) {
      if (!(st.prompt_tokens > 0)) continue;
      reqs++; fixed = st.request_tokens?.fixed ?? fixed;
      obs += st.obs_tokens_sent ?? 0;
      if (form.includes(t)) obsForm += st.obs_tokens_sent ?? 0;
    }
    where[m] = {reqs, fixed};
    lines.push(`| ${m} | ${reqs} | ${fixed} | ${obs} | ${obsForm} |`);
  }
  if (where.hybrid?.reqs && where.pruned?.reqs) {
    const extra = where.hybrid.fixed * where.hybrid.reqs - where.pruned.fixed * where.pruned.reqs;
    const hsum = stat('hybrid', F.input, common).sum, psum = stat('pruned', F.input, common).sum, diff = hsum - psum;
    lines.push('', `Hybrid's fixed part costs ${extra} tokens more than pruned's over these requests (the \`call\` tool and the`,
      `component rule); hybrid's billed input is ${Math.abs(diff)} ${diff >= 0 ? 'more' : 'less'} in all, so the observations `
      + `re-sent by the conversation and`,
      `the actions' text differ by ${diff - extra}. Without any fixed part of its own hybrid would bill ${((hsum - extra) / psum).toFixed(2)}× pruned's;`,
      `0.9× is ${Math.round(0.9 * psum)} tokens, ${Math.abs(hsum - Math.round(0.9 * psum))} `
      + `${hsum >= Math.round(0.9 * psum) ? 'fewer than' : 'more than'} hybrid bills now.`, '');
    // what the observations carry, each weighted by the requests that send it (--history full
    // re-sends it in every later request of the task): link lines, and an image line that only
    // repeats the name of the link it is in (the pruned tree keeps both; o200k, the stand-in's tokenizer)
    const require = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), '../standin/package.json'));
    const {encode} = require('gpt-tokenizer/cjs/encoding/o200k_base');
    lines.push('What the observations carry, each counted once per request that sends it:', '');
    lines.push('| mode | observation tokens billed | in link lines | in link group lines | in image lines that repeat their link\'s name |');
    lines.push('|---|---|---|---|---|');
    const carried = {};
    for (const m of ['hybrid', 'pruned']) {
      let all = 0, links = 0, groups = 0, images = 0;
      for (const t of common) {
        const reqs = traceOf(m, t).filter(st => st.prompt_tokens > 0 && st.observation);
        reqs.forEach((st, i) => {
          const f = path.join(out, m, st.observation);
          if (!fs.existsSync(f)) return;
          const times = reqs.length - i, L = fs.readFileSync(f, 'utf8').split('\n');
          all += encode(L.join('\n')).length * times;
          links += encode(L.filter(l => /^\t*link \[\d+\] /.test(l)).join('\n')).length * times;
          groups += encode(L.filter(l => /^\t*\[c\d+\] links '/.test(l)).join('\n')).length * times;
          const rep = L.filter((l, j) => { const im = /^(\t*)image '(.*)'$/.exec(l), ln = j && /^(\t*)link \[\d+\] '(.*)'$/.exec(L[j - 1]);
            return im && ln && im[2] === ln[2] && im[1].length === ln[1].length + 1; });
          images += encode(rep.join('\n')).length * times;
        });
      }
      lines.push(`| ${m} | ${all} | ${links} | ${groups} | ${images} |`);
      carried[m] = {all, links, groups};
    }
    const h = carried.hybrid, p = carried.pruned;
    if (h.all && p.all) lines.push('', `Links cost hybrid's requests ${h.links + h.groups} observation tokens (${Math.round(100 * (h.links + h.groups) / h.all)}%: ${h.links} in`,
      `link lines, ${h.groups} in the lines of link groups, \`[cN] links 'label' → open(link: A|B|C)\`), pruned's ${p.links} (${Math.round(100 * p.links / p.all)}%):`,
      'a navigation, a list of links or a row of badges is one line in hybrid; links in page text keep their lines.');
  }
  lines.push('');
  const failed = MODES.flatMap(m => rows[m].filter(r => r.status !== 'passed').map(r => `- ${m} task ${r.task_id}: ${r.status}${r.error ? ' — ' + r.error : ''}${r.answer ? ' (answered "' + String(r.answer).slice(0, 120) + '")' : ''}`));
  if (failed.length) lines.push('Tasks that did not pass:', ...failed, '');
}
// ---- MediaWiki, then every app task by task ----
// rows of DIR/<mode>/results.jsonl per mode present: {mode: Map(task_id → row)}
const appRuns = dir => Object.fromEntries(MODES.filter(m => fs.existsSync(path.join(dir, m, 'results.jsonl')))
  .map(m => [m, new Map(fs.readFileSync(path.join(dir, m, 'results.jsonl'), 'utf8').split('\n').filter(Boolean)
    .map(l => JSON.parse(l)).map(r => [String(r.task_id), r]))]));
const mw = appRuns(path.join(out, 'mediawiki'));
if (Object.keys(mw).length) {
  const ms = Object.keys(mw), ids = [...new Set(ms.flatMap(m => [...mw[m].keys()]))];
  const both = ids.filter(t => ms.every(m => mw[m].get(t)?.status === 'passed'));
  const st = (m, f) => { const xs = both.map(t => f(mw[m].get(t)));
    return {med: median(xs), min: Math.min(...xs), max: Math.max(...xs), sum: sum(xs)}; };
  lines.push('## MediaWiki', '');
  lines.push('Debian 12\'s `mediawiki` (1.39, skin Vector, SQLite), installed per run by `scripts/mediawiki` with');
  lines.push('`maintenance/install.php` and served by PHP\'s built-in server on loopback: its forms are OOUI widgets');
  lines.push('(MediaWiki\'s own ARIA library: the preferences\' tabs, dropdown and checkboxes, the login and account');
  lines.push('forms) and its search box loads a suggestion script when focused. No registry: every triplet in its');
  lines.push('hybrid view is the native provider\'s. The same stand-in model as DokuWiki (its answers are each task\'s');
  lines.push('plans, `script` in hybrid and `atomic_script` in pruned and atomic, which cover these tasks; the script');
  lines.push('planner runs the same plans in `tests/harness/test_mediawiki_site.c`), each mode from the installed wiki.');
  lines.push('Neither app is run in the html mode: the stand-in resolves a step by the role and name an accessibility');
  lines.push('view prints, which the pruned-HTML view does not print.', '');
  lines.push('| mode | passed | plan steps, median (min..max) | round trips | billed input tokens | input tokens, sum |');
  lines.push('|---|---|---|---|---|---|');
  for (const m of ms) {
    const passed = [...mw[m].values()].filter(r => r.status === 'passed').length;
    lines.push(`| ${m} | ${passed}/${mw[m].size} | ${fmt(st(m, F.steps))} | ${fmt(st(m, F.trips))} | ${fmt(st(m, F.input))} | ${st(m, F.input).sum} |`);
  }
  lines.push('', `Medians over the ${both.length} tasks every mode passed.`, '');
  const leftFile = path.join(out, 'mediawiki-left-out.txt');
  const left = fs.existsSync(leftFile) ? fs.readFileSync(leftFile, 'utf8').split('\n').filter(Boolean) : [];
  if (left.length)
    lines.push(`Left out of the model path: task${left.length > 1 ? 's' : ''} ${left.join(', ')}, whose plans wait for the search `
      + 'box\'s suggestions with a script-only `wait` step the stand-in cannot send; `tests/harness/test_mediawiki_site.c` runs '
      + (left.length > 1 ? 'them' : 'it') + ' with the script planner in hybrid and atomic.', '');
} else {
  lines.push('## MediaWiki', '', 'Not measured here (`MEDIAWIKI=0`).', '');
}
// per task: passed in each mode, hybrid's plan steps and observation tokens sent against pruned's
const byTask = (name, runs) => {
  const ms = Object.keys(runs);
  if (!ms.length) return;
  const ids = [...new Set(ms.flatMap(m => [...runs[m].keys()]))].sort((a, b) => Number(a) - Number(b));
  const ok = (m, t) => runs[m]?.get(t)?.status === 'passed';
  const pair = (t, f) => runs.hybrid?.get(t) && runs.pruned?.get(t) ? `${f(runs.hybrid.get(t))} / ${f(runs.pruned.get(t))}` : '–';
  lines.push(`### ${name}, task by task`, '');
  lines.push(`| task | intent | ${ms.join(' | ')} | plan steps, hybrid / pruned | observation tokens sent, hybrid / pruned |`);
  lines.push(`|---|---|${ms.map(() => '---|').join('')}---|---|`);
  for (const t of ids) {
    const intent = String((runs.hybrid ?? runs[ms[0]]).get(t)?.intent ?? '').replace(/\|/g, '\\|');
    lines.push(`| ${t} | ${intent.length > 70 ? intent.slice(0, 69) + '…' : intent} | ${ms.map(m => ok(m, t) ? 'pass' : (runs[m].get(t)?.status ?? '–')).join(' | ')} | `
      + `${pair(t, r => r.steps)} | ${pair(t, r => r.obs_tokens_sent)} |`);
  }
  const lost = ids.filter(t => ok('atomic', t) && !ok('hybrid', t));
  const hp = ids.filter(t => ok('hybrid', t) && ok('pruned', t));
  const ratio = f => hp.length ? (sum(hp.map(t => f(runs.hybrid.get(t)))) / sum(hp.map(t => f(runs.pruned.get(t))))).toFixed(2) : 'n/a';
  lines.push('', `Passed: ${ms.map(m => `${m} ${ids.filter(t => ok(m, t)).length}/${ids.length}`).join(', ')}. `
    + (runs.atomic && runs.hybrid ? (lost.length ? `**Hybrid fails where atomic passes: task${lost.length > 1 ? 's' : ''} ${lost.join(', ')}.** `
      : 'Hybrid ≥ atomic on every task. ') : '')
    + (runs.pruned && runs.hybrid ? `Over the ${hp.length} tasks both passed, hybrid takes ${ratio(r => r.steps)}× pruned's plan steps and sends `
      + `${ratio(r => r.obs_tokens_sent)}× its observation tokens.` : ''), '');
};
byTask('DokuWiki', appRuns(out));
byTask('MediaWiki', mw);
// ---- the Playground with CI4A off ----
const pgModes = ['hybrid', 'pruned', 'atomic'].filter(m => fs.existsSync(path.join(out, 'playground', m, 'results.jsonl')));
if (pgModes.length) {
  const readRows = f => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l));
  const pg = Object.fromEntries(pgModes.map(m => [m, readRows(path.join(out, 'playground', m, 'results.jsonl'))]));
  // the second pass (--reground): its rows stand for those tasks' first-run rows
  const rgFile = path.join(out, 'playground', 'hybrid-reground', 'results.jsonl');
  const reground = pg.hybrid && fs.existsSync(rgFile) ? readRows(rgFile) : [];
  const firstPassed = pg.hybrid ? pg.hybrid.filter(r => r.status === 'passed').length : 0;
  if (reground.length) {
    const again = new Map(reground.map(r => [String(r.task_id), r]));
    pg.hybrid = pg.hybrid.map(r => again.get(String(r.task_id)) ?? r);
  }
  const pgMap = Object.fromEntries(pgModes.map(m => [m, new Map(pg[m].map(r => [r.task_id, r]))]));
  const pgAll = [...new Set(pgModes.flatMap(m => pg[m].map(r => r.task_id)))];
  const pgCommon = pgAll.filter(t => pgModes.every(m => pgMap[m].get(t)?.status === 'passed'));
  const pstat = (m, f) => { const xs = pgCommon.map(t => f(pgMap[m].get(t)));
    return {med: median(xs), min: Math.min(...xs), max: Math.max(...xs), sum: sum(xs)}; };
  lines.push('## The Playground with CI4A off', '');
  lines.push('The Playground\'s 102 tasks started with `?ci4a=off` (no `window.__ci4a__`, no `data-cid`: the hybrid view');
  lines.push('holds only the native provider\'s components and the page tools), copied by `real_apps.mjs --ci4a-off`.');
  lines.push('**Their hybrid plans are the atomic plans re-grounded mechanically** (`nativePlan` in `real_apps.mjs`, its');
  lines.push('rules at its head) against the hybrid view of each start page (`eous observe …?ci4a=off`, taken before the');
  lines.push('runs): a label without its required mark; text typed into a field folded into the form\'s line (or in a form');
  lines.push('that opens later) one `fill()` of `form \'form\'`, Enter dropped (native tools commit by leaving the field);');
  lines.push('a checkbox click `fill({label: true})` (false when the start view prints it checked), on a table row\'s');
  lines.push('checkbox `check()`; a radio click `fill({group: option})` when the start view lists the option; a');
  lines.push('combobox `select` or a combobox click then an option click one `select(option)` (after `expand()`, which');
  lines.push('opens its popup and so lists its options, when neither the objective nor the start view names the option; a `select` of an option the');
  lines.push('first view printing a several-choice combobox lists `selected:` its `deselect(option)`), and then clicks through a');
  lines.push('cascade\'s levels (antd\'s Cascader) one `select(option: \'Country / City\')`; a tab click the tabs\'');
  lines.push('`select(tab)`; `listitem \'Next Page\'` the pagination\'s `next()`, a leading run of k of them');
  lines.push('`goToPage(k + 1)`; a click on a slider\'s mark the slider\'s `setValue(number)` (since 385d4c5); a');
  lines.push('column\'s filter button, clicks on its menu\'s items and `OK` one `filter(column, values)` of the table;');
  lines.push('a click into a date field folded into its form `click(field)` of the form (its calendar opens), and a click');
  lines.push('on a day of a calendar a view printed that calendar\'s `select(date)`.');
  lines.push('No plan is edited by hand; a step no rule matches stays atomic, and the stand-in still');
  lines.push('stops where the view does not print what a step names or a value it sends.');
  lines.push('A hybrid task that did not pass is re-grounded once more');
  lines.push('(`real_apps.mjs --reground`) against its start view and the hybrid views its first run printed at each');
  lines.push('step (what the stand-in saw: a radio group in the fill() of a form step that opens later, the members a');
  lines.push('tab lists), and run again');
  lines.push('when its plan changed; its row is the second run\'s.');
  if (reground.length)
    lines.push(`${reground.length} tasks were run again so (${reground.map(r => r.task_id).join(', ')}); ` +
      `${reground.filter(r => r.status === 'passed').length} of them passed; the first run passed ${firstPassed}/${pg.hybrid.length}.`);
  for (const m of pgModes) {
    const cf = path.join(out, 'playground', m, 'commit');
    if (fs.existsSync(cf)) lines.push(`The ${m} run is at commit ${fs.readFileSync(cf, 'utf8').trim()}.`);
  }
  lines.push('');
  lines.push('| mode | passed | plan steps, median (min..max) | round trips | billed input tokens | input tokens, sum |');
  lines.push('|---|---|---|---|---|---|');
  for (const m of pgModes) {
    const passed = pg[m].filter(r => r.status === 'passed').length;
    lines.push(`| ${m} | ${passed}/${pg[m].length} | ${pgCommon.length ? fmt(pstat(m, F.steps)) : 'n/a'} | ${pgCommon.length ? fmt(pstat(m, F.trips)) : 'n/a'} | ${pgCommon.length ? fmt(pstat(m, F.input)) : 'n/a'} | ${pgCommon.length ? pstat(m, F.input).sum : 'n/a'} |`);
  }
  lines.push('', `Medians over the ${pgCommon.length} tasks every mode passed.`, '');
  const pratio = (a, b, f) => pgCommon.length && pgMap[a] && pgMap[b] ?
    (sum(pgCommon.map(t => f(pgMap[a].get(t)))) / sum(pgCommon.map(t => f(pgMap[b].get(t))))).toFixed(2) + '×' : 'n/a';
  lines.push('| goal | measured |', '|---|---|');
  lines.push(`| Playground with CI4A off: hybrid ≤ 0.8× atomic's round trips (the ${pgCommon.length} tasks both passed) | ${pratio('hybrid', 'atomic', F.trips)} |`);
  lines.push(`| the same tasks' plan steps, hybrid vs atomic | ${pratio('hybrid', 'atomic', F.steps)} |`);
  lines.push(`| the same tasks' billed input tokens, hybrid vs atomic | ${pratio('hybrid', 'atomic', F.input)} |`);
  lines.push('');
  lines.push('A request may carry up to 8 actions (`--max-batch 8`) when the view shows all their targets, so the atomic');
  lines.push('plans\' typed fields already went in one request each; one fill() saves steps and tokens more than requests.');
  lines.push('A request is saved where a native tool replaces a step whose target only appears after the step before');
  lines.push('(a popup\'s option, a tab\'s panel), which the re-grounded plans do only where the rules above apply.');
  lines.push('');
  // why hybrid runs stopped: the stand-in's first words ("cannot see textbox '* Guest name'")
  const why = new Map();
  for (const r of pg.hybrid ?? []) {
    if (r.status === 'passed') continue;
    // no words from the stand-in: the plan ran to its end and the evaluator judged the page
    const ran = /__ci4a__/.test(r.eval_detail || '') ? 'ran to its end; the evaluator reads window.__ci4a__' :
      'ran to its end; the page\'s state is not the one wanted';
    const w = String(r.error || r.answer || ran).replace(/'[^']*'/g, "'…'").replace(/"[^"]*"/g, '"…"')
      .replace(/native-\d+/g, 'native-N').slice(0, 90);
    why.set(w, [...(why.get(w) || []), r.task_id]);
  }
  // why a reason is left, where it is known (whose part it is): matched on the stand-in's words
  const WHY = [
    [/cannot see button '…'/, "a button the view does not print (the users table's header `button 'filter'`, antd's filter trigger inside its columnheader, has its own id in the hybrid view since 2f40884)"],
    [/cannot see StaticText/, "a slider's mark: antd's Slider is an ARIA slider (role=slider), which the native provider infers (with setValue, and a mark's click re-grounded to it) only since 385d4c5"],
    [/cannot see radio/, "a radio the views of the first run did not list in a form's fill() either (the second pass re-grounds with them)"],
    [/cannot see \d+ \/ page|cannot see how \d+ was found|cannot see \d+$/, "an option list: antd's Select and Cascader keep only the active option and its neighbour in the accessibility tree (a virtual listbox), so the hybrid view prints no list to count or to read the value from"],
    [/evaluator reads window.__ci4a__/, "the task's evaluator reads the CI4A registry, which `?ci4a=off` removes: the atomic runs fail these too"],
    [/state is not the one wanted/, "the plan ran and the page's state is wrong: a value a native tool read back that the page did not keep, or a re-grounded step that does something else than its atomic one"],
    [/cannot see textbox '…'$/, "a click into a field no view prints on a line of its own, in a form whose line is not 'form'"],
  ];
  if (why.size) {
    lines.push('Hybrid runs that did not pass, by the reason the stand-in gave (names elided), and why where known:');
    for (const [w, ids] of [...why].sort((a, b) => b[1].length - a[1].length)) {
      const e = WHY.find(([re]) => re.test(w));
      lines.push(`- ${ids.length} × ${w} (task${ids.length > 1 ? 's' : ''} ${ids.sort((a, b) => a - b).join(', ')})${e ? ' — ' + e[1] : ''}`);
    }
    lines.push('');
  }
} else {
  // PLAYGROUND=0: the section the results file holds stays, with the commit that measured it
  const prev = path.join(results, 'real_apps.md');
  const old = fs.existsSync(prev) ? fs.readFileSync(prev, 'utf8') : '';
  const at = old.indexOf('## The Playground with CI4A off');
  const was = /Kept from commit ([0-9a-f]{7,40})/.exec(old)?.[1] ?? /(?:^|\n)Commit ([0-9a-f]{7,40})/.exec(old)?.[1];
  if (at >= 0 && was) {
    const kept = old.slice(at).replace(/^## The Playground with CI4A off\n\n(Kept from commit [0-9a-f]+[^\n]*\n\n)?/, '');
    lines.push('## The Playground with CI4A off', '', `Kept from commit ${was} (this run had \`PLAYGROUND=0\`): the figures below were measured there.`, '',
      kept.trimEnd(), '');
  } else {
    lines.push('Not measured here: the Playground with CI4A off (`PLAYGROUND=0`).', '');
  }
}
fs.mkdirSync(results, {recursive: true});
fs.writeFileSync(path.join(results, 'real_apps.md'), lines.join('\n'));
console.log(lines.join('\n'));
