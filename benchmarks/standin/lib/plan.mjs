// lib/plan.mjs — what the stand-in answers: the task's plan step at the
// position the request shows, its target resolved to the id the current view
// prints, its values checked against what the request shows.  Nothing is
// remembered between requests.
import { norm, hasWords, dateForms, formatNumber } from './text.mjs';
import {
  observationsOf, currentView, parseRoleName, findElement, findComponent, findLinkInGroups, offersTool, rowsShown,
  columnValues, optionsListed,
} from './view.mjs';

const VERBS = ['call', 'click', 'type', 'hover', 'press', 'scroll', 'select', 'goto', 'go_back', 'go_forward',
  'tab_focus', 'close_tab', 'stop'];
// Component kinds whose setValue/clear/check/uncheck only set a value (batching may go on after them).
const FORM_FIELDS = new Set(['input', 'textarea', 'inputnumber', 'select', 'datepicker', 'rangepicker', 'timepicker',
  'checkbox', 'checkboxgroup', 'radiogroup', 'switch', 'slider', 'cascader', 'treeselect', 'rate', 'autocomplete',
  'colorpicker', 'mentions', 'transfer', 'upload']);
const VALUE_TOOLS = new Set(['setValue', 'clear', 'check', 'uncheck', 'replace']);
// eous's native fields (perception/native.js) whose value tools only set a value, as FORM_FIELDS' do
// (a combobox's select opens a popup; a file's upload and a form's submit are no value tools)
const NATIVE_VALUE_KINDS = new Set(['textbox', 'searchbox', 'checkbox', 'radiogroup', 'select', 'date', 'time',
  'datetime', 'month', 'week', 'number', 'slider']);
// kinds of eous's native components (perception/native.js) whose triplet id takes atomic actions
const NATIVE_FIELD_KINDS = new Set(['textbox', 'searchbox', 'checkbox', 'radiogroup', 'select', 'combobox', 'date',
  'time', 'datetime', 'month', 'week', 'number', 'slider', 'file', 'form']);

// ---- tasks ------------------------------------------------------------------------------

const TARGETED = new Set(['call', 'click', 'type', 'hover', 'select']);

// What is wrong with a task's plans, or null: every step (an array entry is a batch of steps) must name a
// verb, and a targeted verb a non-empty target ("call" a tool too).  A step that names nothing could only be
// played by knowing the page, so it is refused before any request.
export function planProblem(task) {
  for (const plan of ['script', 'atomic_script']) {
    if (task[plan] === undefined) continue;
    if (!Array.isArray(task[plan])) return `${plan}: expected a list of steps`;
    const steps = task[plan].flatMap((s, i) => (Array.isArray(s) ? s.map((x, k) => [`${i}.${k}`, x]) : [[`${i}`, s]]));
    for (const [at, step] of steps) {
      const v = step && typeof step === 'object' ? verbOf(step) : undefined;
      if (!v) return `${plan}[${at}]: a step that names nothing; expected one of ${VERBS.join(', ')}`;
      if (TARGETED.has(v) && (typeof step[v] !== 'string' || !step[v].trim()))
        return `${plan}[${at}]: ${v} names no target; expected e.g. {"${v}": "role 'name'"} or a component's label`;
      if (v === 'call' && (typeof step.tool !== 'string' || !step.tool.trim()))
        return `${plan}[${at}]: call ${step.call} names no tool`;
    }
  }
  return null;
}

export function indexTasks(list) {
  const byIntent = new Map();
  for (const t of list) if (typeof t.intent === 'string' && !byIntent.has(t.intent)) byIntent.set(t.intent, t);
  return byIntent;
}

const flatten = (plan) => (plan ?? []).flatMap((s) => (Array.isArray(s) ? s : [s]));
export const verbOf = (step) => VERBS.find((v) => v in step);

export function describe(step) {
  const v = verbOf(step);
  if (v === 'call') return `call ${step.call} ${step.tool}`;
  if (v === 'stop') return 'stop';
  return `${v} ${typeof step[v] === 'string' ? step[v] : ''}`.trim();
}

// ---- position ---------------------------------------------------------------------------

const statusOf = (text, isError) => {
  if (/^ok(:|$|\s)/.test(text)) return 'ok';
  if (/^not run(:|$)/.test(text)) return 'not run';
  if (/^error(:|$)/.test(text) || isError) return 'error';
  return 'ok';
};

// The first user message's "PREVIOUS ACTIONS:" lines: [{status, text}].
export function previousActions(text) {
  const at = /^PREVIOUS ACTIONS:(.*)$/m.exec(text);
  if (!at || at[1].trim() === 'none') return [];
  const out = [];
  for (const line of text.slice(at.index + at[0].length + 1).split('\n')) {
    if (!/^\d+\. /.test(line)) break;
    let result = null;
    for (let i = line.lastIndexOf(' -> '); i >= 0; i = line.lastIndexOf(' -> ', i - 1)) {
      const r = line.slice(i + 4);
      if (/^(ok|error|not run)(:|$)/.test(r)) { result = r; break; }
      if (i === 0) break;
    }
    if (result !== null) out.push({ status: statusOf(result, false), text: result });
  }
  return out;
}

// {position, errors (since the last ok), lastError, results}
export function position(req) {
  const firstUser = req.events.findIndex((e) => e.kind === 'user');
  const results = firstUser >= 0 ? previousActions(req.events[firstUser].text) : [];
  for (const e of req.events.slice(firstUser + 1))
    if (e.kind === 'result') results.push({ status: statusOf(e.text, e.isError), text: e.text });
  let pos = 0, errors = 0, lastError = '';
  for (const r of results) {
    if (r.status === 'ok') {
      pos++;
      errors = 0;
    } else if (r.status === 'error') {
      errors++;
      lastError = r.text.replace(/^error:\s*/, '');
    }
  }
  return { position: pos, errors, lastError, results };
}

// ---- what the request shows -------------------------------------------------------------

// Everything a value may be read from: the intent, the URL lines, the names of
// the secrets eous offers, every observation, every action result (not the
// actions' own text).
function shownText(req, objective, observations) {
  const parts = [objective];
  for (const e of req.events) {
    if (e.kind === 'result') parts.push(e.text);
    if (e.kind === 'user') for (const m of e.text.matchAll(/^URL: (.*)$/gm)) parts.push(m[1]);
    // the names of the secrets eous fills in ("SECRETS you may type as {{secret:NAME}} (…): A, B")
    if (e.kind === 'user') for (const m of e.text.matchAll(/^SECRETS [^\n]*?\): (.*)$/gm)) parts.push(m[1]);
  }
  const first = req.events.find((e) => e.kind === 'user');
  if (first) for (const r of previousActions(first.text)) parts.push(r.text);
  for (const o of observations) parts.push(o.text);
  // element ids are not data: "[8]" must not make 8 seen (as agent/grounding.c)
  return norm(parts.join('\n').replace(/\\xa0/g, ' ').replace(/\[c?\d+\]/g, ' '));
}

// 1 when a person could have read value off the request.  A {{secret:NAME}}
// is seen when NAME is; a date in any of the ways it may be printed; a stop
// answer also as its comma-separated parts.
function seen(value, shown, { answer = false } = {}) {
  if (typeof value === 'boolean' || typeof value === 'number') value = String(value);
  if (typeof value !== 'string') return true;
  const secret = /^\{\{secret:([A-Za-z0-9_]+)\}\}$/.exec(value);
  if (secret) return hasWords(shown, norm(secret[1]));
  if (!value.trim()) return true;
  // a text of several lines (a page's source retyped) is seen line by line, as a view prints a textarea's
  // lines as nodes of their own (agent/grounding.c does the same)
  if (!answer && value.includes('\n'))
    return value.split('\n').filter((l) => l.trim()).every((l) => seen(l, shown));
  if (answer && value.trim() === 'N/A') return true; // the stop tool's own word for "cannot be done"
  if (dateForms(value).some((f) => hasWords(shown, norm(f)))) return true;
  // a path through a cascade ("France / Paris", as such a combobox prints its value) is seen part by part;
  // its parts are names (a number is no level: "50 / page" must be seen whole)
  const path = value.split(' / ');
  if (!answer && path.length > 1 && path.every((p) => /\p{L}/u.test(p) && !/\d/.test(p) && hasWords(shown, norm(p)))) return true;
  if (answer) {
    const parts = value.split(/,\s+|\s+and\s+/).filter((p) => p.trim());
    if (parts.length > 1 && parts.every((p) => hasWords(shown, norm(p)))) return true;
  }
  return false;
}

// Scalars of a params object, arrays walked: [[path, value]].
function scalars(obj, path = '') {
  if (obj === null || obj === undefined) return [];
  if (Array.isArray(obj)) return obj.flatMap((v, i) => scalars(v, `${path}[${i}]`));
  if (typeof obj === 'object') return Object.entries(obj).flatMap(([k, v]) => scalars(v, path ? `${path}.${k}` : k));
  return [[path, obj]];
}

// ---- from rules ---------------------------------------------------------------------------

// A value the plan says was derived by `rule`, evaluated on the current view:
// {value} (computed), {placeholder: true}, or {error}.
// The items of the "matches" list in the last action result the request holds (a search tool's answer):
// a conversation's last tool result, or a stateless request's last PREVIOUS ACTIONS line.
function lastResultMatches(req) {
  const results = req?.events ? position(req).results : [];
  const text = results.length ? results[results.length - 1].text : '';
  const at = text.indexOf('"matches"');
  const open = at >= 0 ? text.indexOf('[', at) : -1;
  if (open < 0) return null;
  let depth = 0, inStr = false;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (inStr) { if (ch === '\\') i++; else if (ch === '"') inStr = false; continue; }
    if (ch === '"') inStr = true;
    else if (ch === '[') depth++;
    else if (ch === ']' && --depth === 0) {
      try { const list = JSON.parse(text.slice(open, i + 1)); return Array.isArray(list) ? list.length : null; }
      catch { return null; }
    }
  }
  return null;
}

export function evalFrom(rule, value, view, shown, req) {
  const r = String(rule).trim();
  let m;
  if (/^count of matches in the last result$/i.test(r)) {
    const n = lastResultMatches(req);
    return n == null ? { error: `cannot see how ${value} was found (${r}): the last result lists no matches` }
      : { value: String(n) };
  }
  if (/^count of rows shown\b/i.test(r)) return { value: String(rowsShown(view)) };
  if ((m = /^count of options listed for '(.+)'$/i.exec(r))) {
    const n = optionsListed(view, m[1]);
    return typeof n === 'number' ? { value: String(n) } : { error: `cannot see how ${value} was found (${r}): ${n.error}` };
  }
  if ((m = /^(sum|min|max) of column '(.+?)'(\s.*)?$/i.exec(r))) {
    const xs = columnValues(view, m[2]);
    if (!xs || !xs.length) return { error: `cannot see how ${value} was found (${r}): no column '${m[2]}' with numbers shown` };
    const op = m[1].toLowerCase();
    const x = op === 'sum' ? xs.reduce((a, b) => a + b, 0) : op === 'min' ? Math.min(...xs) : Math.max(...xs);
    return { value: formatNumber(x) };
  }
  if ((m = /^date '(\d{4}-\d{2}-\d{2})' (plus|minus) (\d+) days?$/i.exec(r))) {
    if (!seen(m[1], shown)) return { error: `cannot see ${m[1]}` };
    if (!hasWords(shown, m[3])) return { error: `cannot see ${m[3]}` };
    const d = new Date(`${m[1]}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + (m[2].toLowerCase() === 'plus' ? 1 : -1) * Number(m[3]));
    return { value: d.toISOString().slice(0, 10) };
  }
  if (/^placeholder\b/i.test(r)) return { placeholder: true };
  return { error: `cannot see how ${value} was found (${r})` };
}

// ---- one step ---------------------------------------------------------------------------

// Fills the site placeholder of a URL (__SITE__) with the origin the request's
// URL lines show for the task's start URL.
function fillSite(url, task, req) {
  const ph = /^(__[A-Z0-9_]+__)/.exec(url)?.[1];
  if (!ph) return url;
  for (const e of req.events) {
    if (e.kind !== 'user') continue;
    const m = /^URL: (https?:\/\/[^/\s]+)/m.exec(e.text);
    if (m && String(task.start_url ?? '').startsWith(ph)) return m[1] + url.slice(ph.length);
  }
  return url;
}

// A resolved step: {call: {name, args}, why, followable} or {stop: answer-text}.
export function resolveStep(step, ctx) {
  const { view, shown, hybrid, task, req } = ctx;
  const verb = verbOf(step);
  const cannot = (what) => ({ stop: what });
  const needSeen = (v, opts) => (seen(v, shown, opts) ? null : cannot(`cannot see ${v}`));
  // the value the step's "from" rule speaks for
  let derived = null;
  if ('from' in step) {
    const mainValue = verb === 'stop' ? step.stop : verb === 'type' ? step.text : verb === 'select' ? step.option
      : verb === 'call' ? scalars(step.params ?? {})[0]?.[1] : undefined;
    derived = evalFrom(step.from, mainValue, view, shown, req);
    if (derived.error) return cannot(derived.error);
    // typed text: a type step, a setValue's text, or a form's fill() whose values are all text
    const ps = Object.values(step.params ?? {});
    const textual = verb === 'type' || (verb === 'call' && step.tool === 'setValue'
      && typeof (step.params ?? {}).text === 'string')
      || (verb === 'call' && step.tool === 'fill' && ps.length > 0 && ps.every((v) => typeof v === 'string'));
    if (derived.placeholder && !textual)
      return cannot(`cannot see how ${mainValue} was found (${step.from}): a placeholder is only for typed text`);
  }
  switch (verb) {
    case 'stop': {
      let answer = String(step.stop ?? '');
      if (derived?.value !== undefined) answer = derived.value;
      else { const miss = needSeen(answer, { answer: true }); if (miss) return miss; }
      return { call: { name: 'stop', args: { answer } }, why: derived ? `answer from ${step.from}` : 'answer shown' };
    }
    case 'call': {
      const target = String(step.call);
      if (target.startsWith('css=')) return cannot(`cannot see ${target}`);
      const found = findComponent(view, target, step.tool);
      if (found.error) return cannot(found.error);
      const c = found.comp;
      let params = structuredClone(step.params ?? {});
      const list = scalars(params);
      for (const [path, v] of list) {
        if (derived?.placeholder && step.tool === 'fill') continue; // every value of such a fill() is filler
        if (derived && path === list[0][0]) {
          if (derived.placeholder && path === 'text') continue;
          if (derived.value !== undefined) {
            params = setPath(params, path, typeof v === 'number' ? Number(derived.value) : derived.value);
            continue;
          }
        }
        const miss = needSeen(v);
        if (miss) return miss;
      }
      return {
        call: { name: 'call', args: { k: c.id, tool: step.tool, params } },
        why: `${c.pageTool ? `page tool ${c.pageTool}` : `${c.kind} '${c.label}'`} is [${c.id}]`,
        // a form's fill() sets its fields and submits nothing, as a field's setValue()
        followable: (VALUE_TOOLS.has(step.tool) && (FORM_FIELDS.has(c.kind) || NATIVE_VALUE_KINDS.has(c.kind))) ||
          (step.tool === 'fill' && c.kind === 'form'),
      };
    }
    case 'click': case 'hover': case 'type': case 'select': {
      const target = String(step[verb]);
      if (target.startsWith('css=')) return cannot(`cannot see ${target}`);
      const rn = parseRoleName(target);
      const el = rn && findElement(view, rn.role, rn.name, rn.nth);
      // a link the view lists in a group of links, not on a line of its own: the group's open()
      const grouped = !el && hybrid && verb === 'click' && rn?.role === 'link' && rn.nth === 1 && findLinkInGroups(view, rn.name);
      if (grouped) return { call: { name: 'call', args: { k: grouped.comp.id, tool: 'open', params: { link: grouped.name } } },
        why: `${target} is listed by [${grouped.comp.id}] links '${grouped.comp.label}', its open()` };
      if (!el) return cannot(`cannot see ${target}`);
      let text = step.text, option = step.option;
      if (verb === 'type') {
        if (derived?.value !== undefined) text = derived.value;
        else if (!derived?.placeholder) { const miss = needSeen(String(text ?? '')); if (miss) return miss; }
      }
      if (verb === 'select') {
        if (derived?.value !== undefined) option = derived.value;
        else { const miss = needSeen(String(option ?? '')); if (miss) return miss; }
      }
      const why = `${target} is [${el.id}]`;
      if (/^c\d+$/.test(el.id)) return componentAtomic(verb, el, step, text, why);
      if (verb === 'click' || verb === 'hover') return { call: { name: verb, args: { id: el.id } }, why };
      if (verb === 'type') {
        const enter = step.enter === true;
        const args = { id: el.id, text: String(text ?? ''), enter };
        // typing after what a field holds needs the tool's clear parameter, as the request offers it
        if (step.clear === false) {
          if (!req.toolParams?.get('type')?.has('clear')) return cannot(`cannot type after what ${target} holds: the type tool has no clear`);
          args.clear = false;
        }
        return { call: { name: 'type', args }, why, followable: !enter };
      }
      // a native <select> (Chromium: combobox with hasPopup: menu) keeps its page; an antd one opens a popup
      return { call: { name: 'select', args: { id: el.id, option: String(option ?? '') } }, why,
        followable: /\bhasPopup: menu\b/.test(el.line.content) };
    }
    case 'press': return { call: { name: 'press', args: { keys: String(step.press) } }, why: 'a key press' };
    case 'scroll': return { call: { name: 'scroll', args: { direction: String(step.scroll) } }, why: 'scrolling' };
    case 'goto': {
      const url = fillSite(String(step.goto), task, req);
      const miss = needSeen(url);
      if (miss) return miss;
      return { call: { name: 'goto', args: { url } }, why: 'a URL shown' };
    }
    case 'go_back': case 'go_forward': case 'close_tab': return { call: { name: verb, args: {} }, why: verb };
    case 'tab_focus': return { call: { name: 'tab_focus', args: { index: Number(step.tab_focus) } }, why: 'a tab' };
    default: return cannot(`cannot do a step the stand-in does not know: ${JSON.stringify(step).slice(0, 200)}`);
  }
  function componentAtomic(v, el, st, text, why) {
    // component ids are not element ids in eous (actions/target.c resolves only [N]): use the component's own tool
    const comps = { id: el.id, tools: el.line.content.split(' → ')[1] ?? '' };
    if (v === 'click' && offersTool(comps, 'click'))
      return { call: { name: 'call', args: { k: el.id, tool: 'click', params: {} } }, why: `${why}, its click()` };
    // setValue replaces what the field holds: typing after it (clear: false) stays a type
    if (v === 'type' && !st.enter && st.clear !== false && hybrid) {
      const m = /(?:^|\s)setValue\((\w+)\??(?::\s*string)?[;)]/.exec(comps.tools);
      if (m) return { call: { name: 'call', args: { k: el.id, tool: 'setValue', params: { [m[1]]: String(text ?? '') } } },
        why: `${why}, its setValue()`, followable: true };
    }
    // a field's triplet (eous's native components, actions/target.c) also takes atomic actions on its id
    if (hybrid && NATIVE_FIELD_KINDS.has((/^\[c\d+\] (\S+)/.exec(el.line.content) ?? [])[1])) {
      if (v === 'click' || v === 'hover') return { call: { name: v, args: { id: el.id } }, why: `${why}, atomic on the triplet` };
      if (v === 'type') {
        const args = { id: el.id, text: String(text ?? ''), enter: st.enter === true };
        if (st.clear === false) {
          if (!req.toolParams?.get('type')?.has('clear')) return cannot(`cannot type after what [${el.id}] holds: the type tool has no clear`);
          args.clear = false;
        }
        return { call: { name: 'type', args }, why: `${why}, atomic on the triplet`, followable: !args.enter };
      }
    }
    return { stop: `cannot do ${describe(st)}: [${el.id}] is a component and offers no tool for it` };
  }
}

function setPath(obj, path, value) {
  const keys = path.match(/[^.[\]]+/g);
  let o = obj;
  for (const k of keys.slice(0, -1)) o = o[k];
  o[keys[keys.length - 1]] = value;
  return obj;
}

// ---- the decision -----------------------------------------------------------------------

const stop = (answer, reason, extra = {}) => ({ calls: [{ name: 'stop', args: { answer } }], text: answer, reason, ...extra });

// req: readRequest's result; tasks: intent → task.  Returns {calls, text, reason, task_id, plan, position}.
export function decide(req, tasks) {
  const firstUser = req.events.find((e) => e.kind === 'user');
  const objective = firstUser ? /^OBJECTIVE: (.*)$/m.exec(firstUser.text)?.[1] : undefined;
  const task = objective !== undefined ? tasks.get(objective) ?? tasks.get(objective.trim()) : undefined;
  if (!task) return stop('cannot see a task for this objective', 'no task has this intent');
  const hybrid = req.toolNames.has('call');
  const planName = hybrid ? 'script' : 'atomic_script';
  const steps = flatten(task[planName]);
  const pos = position(req);
  const info = { task_id: task.task_id, plan: planName, position: pos.position };
  if (pos.position >= steps.length) return stop('', 'the plan has no step left', info);
  const step = steps[pos.position];
  if (pos.errors >= 2) return stop(`cannot do ${describe(step)}: ${pos.lastError}`, 'second error on the same step', info);
  const observations = observationsOf(req.events.filter((e) => e.kind === 'user').map((e) => e.text));
  const cv = currentView(observations);
  if (cv.error) return stop(cv.error, 'a delta without its full view', info);
  const ctx = { view: cv.view, shown: shownText(req, objective, observations), hybrid, task, req };
  const first = resolveStep(step, ctx);
  if (first.stop !== undefined) return stop(first.stop, `step ${pos.position + 1} not seen`, info);
  const chosen = [first];
  // more steps while the last one only set a value and the next resolves on this view (a stop is always alone)
  for (let i = pos.position + 1; i < steps.length && chosen.length < req.maxBatch; i++) {
    if (!chosen[chosen.length - 1].followable || verbOf(steps[i]) === 'stop' || first.call.name === 'stop') break;
    const next = resolveStep(steps[i], ctx);
    if (next.stop !== undefined) break;
    chosen.push(next);
  }
  const text = chosen.map((c, j) => `step ${pos.position + j + 1}: ${c.why}`).join('; ')
    + (pos.errors ? ` (again, after: ${pos.lastError})` : '');
  return { calls: chosen.map((c) => c.call), text, reason: text, ...info };
}
