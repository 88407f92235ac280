#!/usr/bin/env node
// A reference agent for eous's --planner exec (protocol 1), Node 18+ with no dependencies.
//
//     eous run TASK.json --planner exec --agent 'node examples/agents/agent.mjs'
//
// It reads eous's JSON lines on stdin (task, observation..., done), asks an OpenAI-compatible
// chat completions endpoint for the next actions with the action grammar eous sent as tools, and
// answers each observation with one JSON line: {"actions": [tool call objects]} plus the model's
// usage.  One conversation per task (each reply, its results as tool messages, the next
// observation), so eous's deltas read against the view before them.
//
// Environment: OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_MODEL (default
// gpt-4.1-mini), OPENAI_API_KEY.  Logs go to stderr, which eous keeps beside the task's trace.
// A researcher's starting point: change prompt() and act() and keep the loop.
import { createInterface } from 'node:readline';

const BASE = (process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
const MODEL = process.env.OPENAI_MODEL ?? 'gpt-4.1-mini';
const KEY = process.env.OPENAI_API_KEY ?? '';

const log = (...a) => console.error('agent.mjs:', ...a);

// The system message: what the agent is and how it answers.
function prompt(task) {
  return (
    "You are a web agent in a browser. Reach the user's objective by acting on the page.\n" +
    "Each observation is the page's view (ids in brackets), or, when it starts with " +
    "'(changes since the last observation)', what changed since the view before it.\n" +
    `Answer with tool calls, at most ${task.max_batch} per answer; stop with the answer when done ` +
    '(N/A when it cannot be done).\nActions:\n' +
    task.actions.text.map((t) => `- ${t}`).join('\n')
  );
}

const observationText = (obs) => `URL: ${obs.url}\n<observation>\n${obs.text}\n</observation>`;

function firstMessage(task, obs) {
  let text = `OBJECTIVE: ${task.objective ?? task.intent}\n`;
  if (task.secrets.length) text += `SECRETS you may type as {{secret:NAME}} (filled in for you): ${task.secrets.join(', ')}\n`;
  return text + observationText(obs);
}

async function chat(messages, tools, maxBatch) {
  const body = { model: MODEL, messages, tools, temperature: 0, max_tokens: 1024 };
  if (maxBatch <= 1) body.parallel_tool_calls = false;
  const r = await fetch(`${BASE}/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(300_000),
  });
  if (!r.ok) throw new Error(`${BASE}/chat/completions: HTTP ${r.status}: ${(await r.text()).slice(0, 300)}`);
  return r.json();
}

// The model's message as eous actions: its tool calls as {name, arguments}, else its text.
function act(reply) {
  const msg = reply.choices[0].message;
  const calls = msg.tool_calls ?? [];
  if (calls.length) return [msg, calls.map((c) => ({ name: c.function.name, arguments: c.function.arguments }))];
  return [msg, [(msg.content ?? '').trim() || 'stop [N/A]']];
}

async function main() {
  let task = null, messages = [], tools = [], pending = [];
  for await (const raw of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    const m = JSON.parse(raw);
    if (m.type === 'task') {
      if (m.protocol !== 1) throw new Error(`protocol ${m.protocol}: this agent speaks 1`);
      task = m;
      tools = m.actions.json.map((f) => ({ type: 'function', function: f }));
      messages = [{ role: 'system', content: prompt(m) }];
    } else if (m.type === 'observation') {
      if (messages.length === 1) {
        messages.push({ role: 'user', content: firstMessage(task, m) });
      } else {
        // each tool call of the last reply gets its result, in order ("not run: ..." past the batch)
        pending.forEach((id, i) => messages.push({ role: 'tool', tool_call_id: id, content: m.last[i] ?? 'not run: not reached' }));
        messages.push({ role: 'user', content: observationText(m) });
      }
      const reply = await chat(messages, tools, task.max_batch);
      const [msg, actions] = act(reply);
      const kept = { role: msg.role, content: msg.content ?? '' };
      if (msg.tool_calls?.length) kept.tool_calls = msg.tool_calls;
      messages.push(kept);
      pending = (msg.tool_calls ?? []).map((c) => c.id);
      const u = reply.usage ?? {};
      const out = { actions, usage: { input_tokens: u.prompt_tokens ?? 0, output_tokens: u.completion_tokens ?? 0 } };
      process.stdout.write(JSON.stringify(out) + '\n');
    } else if (m.type === 'done') {
      log(`task ${task.task_id}: ${m.status} (score ${m.score})`);
    }
  }
}

main().catch((e) => {
  log(e.message);
  process.exit(1);
});
