// benchmarks/standin/standin.mjs — the view-bound stand-in model: a local
// server speaking the OpenAI Chat Completions and Anthropic Messages APIs that
// plays a benchmark task's plan using only what each request shows (README.md).
//
//   node standin.mjs --tasks DIR [--tasks DIR ...] [--port N] [--log FILE]
//
// Listens on 127.0.0.1 (a free port unless --port), prints "PORT <n>" on
// stdout, exits 0 on SIGTERM.  POST /chat/completions and /v1/chat/completions
// (OpenAI), POST /v1/messages (Anthropic).  --log gets one JSON line per
// request: path, body size, tokens, the decision and its reason; never headers.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { readRequest, BadRequest } from './lib/request.mjs';
import { decide, indexTasks, planProblem } from './lib/plan.mjs';
import { Caches, completionTokens } from './lib/usage.mjs';

const MAX_BODY = 64 * 1024 * 1024;

function fail(msg) {
  process.stderr.write(`standin: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const a = { tasks: [], port: 0, log: null };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i], v = argv[i + 1];
    if (k === '--tasks' || k === '--port' || k === '--log') {
      if (v === undefined) fail(`${k}: expected a value`);
      i++;
      if (k === '--tasks') a.tasks.push(v);
      else if (k === '--log') a.log = v;
      else if (!/^\d+$/.test(v) || Number(v) > 65535) fail(`--port ${v}: expected a port number 0..65535`);
      else a.port = Number(v);
    } else {
      fail(`${k}: unknown argument (usage: standin.mjs --tasks DIR [--tasks DIR ...] [--port N] [--log FILE])`);
    }
  }
  if (!a.tasks.length) fail('--tasks DIR: expected at least one directory of task files');
  return a;
}

function loadTasks(dirs) {
  const list = [];
  for (const dir of dirs) {
    let names;
    try {
      names = fs.readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
    } catch (e) {
      fail(`--tasks ${dir}: expected a readable directory (${e.code ?? e.message})`);
    }
    for (const n of names) {
      const file = path.join(dir, n);
      let task;
      try {
        task = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (e) {
        fail(`${file}: expected a JSON task file (${e.message})`);
      }
      const problem = planProblem(task);
      if (problem) fail(`${file}: ${problem}`);
      list.push(task);
    }
  }
  return indexTasks(list);
}

// ---- the providers' answers and errors -------------------------------------------------

function errorBody(provider, status, message, param = null) {
  if (provider === 'anthropic') {
    const type = { 400: 'invalid_request_error', 401: 'authentication_error', 404: 'not_found_error',
      413: 'request_too_large' }[status] ?? 'api_error';
    return { type: 'error', error: { type, message } };
  }
  const code = status === 401 ? 'invalid_api_key' : status === 404 ? 'unknown_url' : null;
  return { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param, code } };
}

let served = 0;

function openaiReply(model, d, u) {
  const n = ++served;
  const tool_calls = d.calls.map((c, i) => ({
    id: `call_standin_${n}_${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }));
  const completion = completionTokens(d.calls, d.text);
  return {
    id: `chatcmpl-standin-${n}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model,
    choices: [{ index: 0, message: { role: 'assistant', content: d.text, refusal: null, tool_calls },
      logprobs: null, finish_reason: 'tool_calls' }],
    usage: { prompt_tokens: u.prompt_tokens, completion_tokens: completion, total_tokens: u.prompt_tokens + completion,
      prompt_tokens_details: { cached_tokens: u.cached_tokens, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0 } },
    service_tier: 'default', system_fingerprint: null,
  };
}

// With tool_choice any/tool Anthropic's models write no text before the tool use
// (the API prefills the turn), so the step's text goes only with auto/none given.
function anthropicReply(model, d, u, body) {
  const n = ++served;
  const forced = ['any', 'tool'].includes(body.tool_choice?.type);
  const text = forced ? '' : d.text;
  const content = [...(text ? [{ type: 'text', text }] : []),
    ...d.calls.map((c, i) => ({ type: 'tool_use', id: `toolu_standin_${n}_${i}`, name: c.name, input: c.args }))];
  return {
    id: `msg_standin_${n}`, type: 'message', role: 'assistant', model, content,
    stop_reason: 'tool_use', stop_sequence: null,
    usage: { ...u, output_tokens: completionTokens(d.calls, text) },
  };
}

// ---- the server ------------------------------------------------------------------------------

export function createServer({ tasks, logFile = null }) {
  const caches = new Caches();
  const log = (entry) => {
    if (logFile) fs.appendFileSync(logFile, JSON.stringify({ t: new Date().toISOString(), ...entry }) + '\n');
  };
  return http.createServer((req, res) => {
    const url = req.url.split('?')[0];
    const provider = url.startsWith('/v1/messages') ? 'anthropic' : 'openai';
    const known = req.method === 'POST' && ['/chat/completions', '/v1/chat/completions', '/v1/messages'].includes(url);
    const chunks = [];
    let size = 0, tooBig = false;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) tooBig = true;
      else chunks.push(c);
    });
    req.on('end', () => {
      const send = (status, obj, entry) => {
        log({ path: url, status, bytes: size, ...entry });
        res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_standin_${served}` });
        res.end(JSON.stringify(obj));
      };
      const refuse = (status, message, param) =>
        send(status, errorBody(provider, status, message, param), { error: message });
      if (!known) return refuse(404, `Invalid URL (${req.method} ${url})`);
      const auth = req.headers.authorization, key = req.headers['x-api-key'];
      if (!(typeof auth === 'string' && /^Bearer \S/.test(auth)) && !(typeof key === 'string' && key))
        return refuse(401, provider === 'anthropic' ? 'x-api-key header is required'
          : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).");
      if (tooBig) return refuse(413, `the request body is larger than ${MAX_BODY} bytes`);
      let body;
      try {
        body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)));
      } catch (e) {
        return refuse(400, `We could not parse the JSON body of your request. (${e.message})`);
      }
      let r;
      try {
        r = readRequest(provider, body);
      } catch (e) {
        if (e instanceof BadRequest) return refuse(400, e.message, e.param);
        throw e;
      }
      if (!r.toolNames.size)
        return refuse(400, 'the stand-in model needs tool calling: send the action tools (it cannot answer a text prompt)', 'tools');
      let usage;
      try {
        usage = provider === 'openai' ? caches.openaiUsage(body) : caches.anthropicUsage(body);
      } catch (e) {
        if (e.badRequest) return refuse(400, e.message);
        throw e;
      }
      const d = decide(r, tasks);
      const out = provider === 'openai' ? openaiReply(body.model, d, usage) : anthropicReply(body.model, d, usage, body);
      send(200, out, { provider, model: body.model, task_id: d.task_id ?? null, plan: d.plan ?? null,
        position: d.position ?? null, usage: out.usage, decision: d.calls, reason: d.reason });
    });
  });
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const args = parseArgs(process.argv.slice(2));
  const tasks = loadTasks(args.tasks);
  const server = createServer({ tasks, logFile: args.log });
  server.on('error', (e) => fail(`--port ${args.port}: ${e.message}`));
  server.listen(args.port, '127.0.0.1', () => process.stdout.write(`PORT ${server.address().port}\n`));
  process.on('SIGTERM', () => process.exit(0)); // the log is written synchronously: nothing is lost
}
