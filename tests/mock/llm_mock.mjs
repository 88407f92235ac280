// tests/mock/llm_mock.mjs — a local HTTPS server speaking the OpenAI Chat
// Completions and Anthropic Messages formats, for the llm tests.
//
//   node llm_mock.mjs --scenario S.json --log L.jsonl [--cert C --key K | --plain] [--port N]
//
// Listens on 127.0.0.1 on a free port (or on --port N, e.g. to come back on the
// same port after being killed) and prints "PORT <n>" on stdout.  Every
// request is appended to the log (one JSON line: method, path, headers, body,
// t_ms) before it is answered, so a test can read it back.  Requests consume
// the scenario's "responses" queue in order; the answer's shape follows the
// request path (/v1/messages = Anthropic, anything else = OpenAI).  Entries:
//   {"kind":"tool", "calls":[{"name":..,"args":<object|string>}], "text":..,
//    "finish":"stop|length", "usage":{"in":N,"out":N,"cached":N}}
//   {"kind":"text", "text":.., "finish":.., "usage":..}
//   {"kind":"refusal", "text":..}
//   {"kind":"error", "status":401, "type":.., "message":..}   provider error body
//   {"kind":"raw", "status":200, "body":"<any text>"}
//   {"kind":"drop"}                                           close without answering
//   {"kind":"truncate"}      a 200 promising 1000 bytes, sending 10, then closing
// A request body that is not valid UTF-8 gets the APIs' 400 invalid_request_error.
// Any entry may add "delay_ms" and "headers" (e.g. {"Retry-After":"1"}; the
// value "HTTP-DATE+N" becomes the HTTP date N seconds after the answer), and a
// raw entry "pad": N (N spaces after its body, for oversized answers).
// When the queue is used up the answer is an HTTP 500 "scenario exhausted",
// unless the scenario says "repeat": true: then the queue starts over, for
// ever (long runs such as scripts/faults --target llm).
// Only node's built-in modules are used.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';

const args = {};
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--plain') args.plain = true;
  else args[a.replace(/^--/, '')] = process.argv[++i];
}
const scenario = JSON.parse(fs.readFileSync(args.scenario, 'utf8'));
const queue = scenario.responses || [];
const repeat = scenario.repeat === true && queue.length > 0;
let served = 0;

function usageOf(r, anthropic) {
  const u = r.usage || { in: 100, out: 20, cached: 0 };
  if (anthropic)
    return { input_tokens: u.in - (u.cached || 0), output_tokens: u.out,
             cache_read_input_tokens: u.cached || 0, cache_creation_input_tokens: 0 };
  return { prompt_tokens: u.in, completion_tokens: u.out, total_tokens: u.in + u.out,
           prompt_tokens_details: { cached_tokens: u.cached || 0 } };
}

function argsText(a) {
  return typeof a === 'string' ? a : JSON.stringify(a ?? {});
}

function openaiBody(r, model) {
  const message = { role: 'assistant', content: null, refusal: null };
  let finish = r.finish || 'stop';
  if (r.kind === 'tool') {
    message.tool_calls = (r.calls || []).map((c, i) => ({
      id: `call_${i}`, type: 'function', function: { name: c.name, arguments: argsText(c.args) } }));
    if (r.text) message.content = r.text;
    if (!r.finish) finish = 'tool_calls';
  } else if (r.kind === 'text') {
    message.content = r.text ?? '';
  } else if (r.kind === 'refusal') {
    message.refusal = r.text || 'I cannot help with that.';
  }
  return { id: 'chatcmpl-mock', object: 'chat.completion', created: 0, model,
           choices: [{ index: 0, message, finish_reason: finish }], usage: usageOf(r, false) };
}

function anthropicBody(r, model) {
  const content = [];
  let stop = r.finish === 'length' ? 'max_tokens' : 'end_turn';
  if (r.text && r.kind !== 'refusal') content.push({ type: 'text', text: r.text });
  if (r.kind === 'tool') {
    (r.calls || []).forEach((c, i) => content.push({
      type: 'tool_use', id: `toolu_${i}`, name: c.name,
      input: typeof c.args === 'string' ? JSON.parse(c.args) : (c.args ?? {}) }));
    if (!r.finish) stop = 'tool_use';
  } else if (r.kind === 'refusal') {
    stop = 'refusal';
  }
  return { id: 'msg_mock', type: 'message', role: 'assistant', model, content,
           stop_reason: stop, stop_sequence: null, usage: usageOf(r, true) };
}

function errorBody(r, anthropic) {
  if (anthropic)
    return { type: 'error', error: { type: r.type || 'api_error', message: r.message || 'mock error' } };
  return { error: { message: r.message || 'mock error', type: r.type || 'api_error', param: null,
                    code: r.code ?? null } };
}

function handler(req, res) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    let body, utf8 = true;
    try { body = new TextDecoder('utf-8', { fatal: true }).decode(raw); }
    catch { utf8 = false; body = raw.toString('utf8'); }
    fs.appendFileSync(args.log, JSON.stringify({
      method: req.method, path: req.url, headers: req.headers, body, t_ms: Date.now() }) + '\n');
    // like the real APIs: a body that is not UTF-8 is not JSON; refused, nothing consumed
    const r = !utf8 ? { kind: 'error', status: 400, type: 'invalid_request_error',
                        message: 'We could not parse the JSON body of your request. (invalid UTF-8)' }
      : (repeat ? queue[served++ % queue.length] : queue[served++]) ||
        { kind: 'error', status: 500, message: 'mock: scenario exhausted' };
    const anthropic = req.url.startsWith('/v1/messages');
    let model = 'mock';
    try { model = JSON.parse(body).model || model; } catch { /* raw bodies are fine */ }
    const answer = () => {
      if (r.kind === 'drop') { req.socket.destroy(); return; }
      if (r.kind === 'truncate') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"choices"');
        setTimeout(() => req.socket.destroy(), 50);
        return;
      }
      let status = r.status || 200, text;
      if (r.kind === 'raw') text = (r.body ?? '') + (r.pad ? ' '.repeat(r.pad) : '');
      else if (r.kind === 'error') text = JSON.stringify(errorBody(r, anthropic));
      else text = JSON.stringify(anthropic ? anthropicBody(r, model) : openaiBody(r, model));
      const headers = { 'content-type': 'application/json', 'x-request-id': `req_${served}`,
                        ...(r.headers || {}) };
      for (const [k, v] of Object.entries(headers)) {
        const m = /^HTTP-DATE\+(\d+)$/.exec(String(v));
        if (m) headers[k] = new Date(Date.now() + Number(m[1]) * 1000).toUTCString();
      }
      res.writeHead(status, headers);
      res.end(text);
    };
    if (r.delay_ms) setTimeout(answer, r.delay_ms); else answer();
  });
}

const server = args.plain
  ? http.createServer(handler)
  : https.createServer({ key: fs.readFileSync(args.key), cert: fs.readFileSync(args.cert) }, handler);
server.on('tlsClientError', () => { /* a client refusing our cert is a test case, not a crash */ });
server.on('error', (e) => {  // e.g. --port N still taken: say so, exit non-zero
  process.stderr.write(`llm_mock: ${e.message}\n`);
  process.exit(1);
});
server.listen(Number(args.port || 0), '127.0.0.1', () => {
  process.stdout.write(`PORT ${server.address().port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
