// test/fixtures.mjs — requests as eous sends them, built in the tests: the
// step's user text (OBJECTIVE, URL, PREVIOUS ACTIONS, <observation>), and the
// conversation around it for both APIs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRequest } from '../lib/request.mjs';
import { decide, indexTasks } from '../lib/plan.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '../../..');
export const VIEWS = path.join(ROOT, 'benchmarks/results/views');
export const view = (name) => fs.readFileSync(path.join(VIEWS, `${name}.txt`), 'utf8').trimEnd();
export const ATOMIC_TOOLS = ['click', 'type', 'hover', 'press', 'scroll', 'select', 'goto', 'go_back', 'go_forward',
  'tab_focus', 'close_tab', 'stop'];
export const HYBRID_TOOLS = ['call', ...ATOMIC_TOOLS];
// the properties eous's type tool takes (actions/vocab.c); other tools need none here.  A name ending in
// '-' is that tool without its optional parameters (an older schema).
const PROPS = { type: ['id', 'text', 'enter', 'clear'], 'type-': ['id', 'text', 'enter'] };
const props = (name) => Object.fromEntries((PROPS[name] ?? []).map((k) => [k, { type: 'string' }]));
const bare = (name) => name.replace(/-$/, '');

// The step's user message (llm/prompt.c's build_user).
export function userText({ objective, url = 'http://127.0.0.1:8080/page', previous = [], observation, secrets }) {
  const prev = previous.length ? previous.map((p, i) => `\n${i + 1}. ${p}`).join('') : ' none';
  // eous names the secrets a model may type on this page (llm/prompt.c)
  const sec = secrets ? `\nSECRETS you may type as {{secret:NAME}} (filled in for you): ${secrets}` : '';
  return `OBJECTIVE: ${objective}\nURL: ${url}\nPREVIOUS ACTIONS:${prev}${sec}\n<observation>\n${observation}\n</observation>`;
}

// turns: [{calls: [{name, args}], results: ['ok: …'], errors?: [bool], user: text}]
export function openaiBody({ model = 'standin', system = 'You are an agent.', first, turns = [], tools = ATOMIC_TOOLS,
  parallel = true }) {
  const messages = [{ role: 'system', content: system }, { role: 'user', content: first }];
  let n = 0;
  for (const t of turns) {
    const ids = t.calls.map(() => `call_${n++}`);
    messages.push({ role: 'assistant', content: null, tool_calls: t.calls.map((c, i) => ({
      id: ids[i], type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) } })) });
    t.results.forEach((r, i) => messages.push({ role: 'tool', tool_call_id: ids[i], content: r }));
    if (t.user !== undefined) messages.push({ role: 'user', content: t.user });
  }
  return { model, messages, max_tokens: 1000, tools: tools.map((name) => ({ type: 'function',
    function: { name: bare(name), description: `the ${bare(name)} action`,
      parameters: { type: 'object', properties: props(name) } } })),
  tool_choice: 'required', parallel_tool_calls: parallel, stream: false };
}

export function anthropicBody({ model = 'standin', system = 'You are an agent.', first, turns = [], tools = ATOMIC_TOOLS,
  parallel = true }) {
  const messages = [{ role: 'user', content: first }];
  let n = 0;
  for (const t of turns) {
    const ids = t.calls.map(() => `toolu_${n++}`);
    messages.push({ role: 'assistant', content: t.calls.map((c, i) => ({ type: 'tool_use', id: ids[i], name: c.name,
      input: c.args ?? {} })) });
    const content = t.results.map((r, i) => ({ type: 'tool_result', tool_use_id: ids[i], content: r,
      ...(t.errors?.[i] ? { is_error: true } : {}) }));
    if (t.user !== undefined) content.push({ type: 'text', text: t.user });
    messages.push({ role: 'user', content });
  }
  return { model, max_tokens: 1000, system, messages, tools: tools.map((name) => ({ name: bare(name),
    description: `the ${bare(name)} action`, input_schema: { type: 'object', properties: props(name) } })),
  tool_choice: { type: 'any', ...(parallel ? {} : { disable_parallel_tool_use: true }) } };
}

// decide() on a body for the given tasks.
export function decideOn(provider, body, tasks) {
  return decide(readRequest(provider, body), indexTasks(tasks));
}
