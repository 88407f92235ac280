// lib/usage.mjs — usage as the providers bill it, counted with o200k_base.
//
// The prompt is laid out as the providers read it and turned into one token
// sequence: OpenAI tools, then messages (system included); Anthropic tools,
// then system, then messages.  Each tool and each message (each system block)
// costs its text's o200k tokens plus FRAME tokens of framing (OpenAI's
// published count for chat messages: <|start|>role…<|message|>…<|end|>), and
// the reply is primed with PRIME more.  An OpenAI tool is counted by OpenAI's
// published rule for function definitions (the tiktoken cookbook: 7 per
// function, name:description, 3 + 3 per property with name:type:description,
// enum items 3 each, 12 after the last); an Anthropic tool is its JSON as sent;
// a tool call its name and arguments; a tool result its text; images are not
// counted.  Framing is represented by negative numbers, so two prompts share a
// prefix exactly when their texts and roles do.
//
// Prompt caching, per server process, in memory, no expiry (the providers'
// 5-minute TTL is ignored):
//   OpenAI: automatic; the longest prefix shared with an earlier prompt of the
//     same model is cached when it is ≥ 1024 tokens, counted as 1024 + a
//     multiple of 128 (prompt_tokens_details.cached_tokens).
//   Anthropic: only up to a cache_control breakpoint (at most 4; tools → system
//     → messages); a breakpoint's prefix of ≥ 1024 tokens that an earlier
//     request wrote is read (the last such), the rest up to the last
//     breakpoint is written; input_tokens is what is left.
import crypto from 'node:crypto';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

export const FRAME = 3;
export const PRIME = 3;
export const MIN_CACHE = 1024;
const OPENAI_STEP = 128;
const MAX_KEPT = 256; // prompts remembered per model for OpenAI prefixes

const ROLE = { tool_def: -10, system: -11, developer: -11, user: -12, assistant: -13, tool: -14 };
const frame = (role) => [-1, ROLE[role] ?? -15, -2];
const prime = () => [-1, ROLE.assistant, -2];

export const countText = (s) => (s ? encode(String(s)).length : 0);
const enc = (s) => (s ? encode(String(s)) : []);
// push without spreading (an observation may be tens of thousands of tokens)
const add = (t, ...arrays) => { for (const a of arrays) for (const x of a) t.push(x); };

const partsText = (content) => typeof content === 'string' ? content
  : Array.isArray(content) ? content.filter((p) => p?.type === 'text').map((p) => p.text ?? '').join('\n') : '';

const marks = (n) => Array.from({ length: Math.max(n, 0) }, () => ROLE.tool_def);
const noStop = (d) => (d && d.endsWith('.') ? d.slice(0, -1) : d ?? '');

// OpenAI's count of one function definition, as a token sequence (constants as marks).
export function openaiToolTokens(tool) {
  const fn = tool?.function ?? {};
  const t = [];
  add(t, marks(7), enc(`${fn.name ?? ''}:${noStop(fn.description)}`));
  const props = Object.entries(fn.parameters?.properties ?? {});
  if (props.length) add(t, marks(3));
  for (const [key, p] of props) {
    let n = 3;
    if (Array.isArray(p.enum)) {
      n -= 3;
      for (const item of p.enum) add(t, marks(3), enc(String(item)));
    }
    add(t, marks(n), enc(`${key}:${p.type ?? ''}:${noStop(p.description)}`));
  }
  return t;
}

// OpenAI: the prompt's tokens.
export function openaiTokens(body) {
  const t = [];
  for (const tool of body.tools ?? []) add(t, openaiToolTokens(tool));
  if ((body.tools ?? []).length) add(t, marks(12));
  for (const m of body.messages ?? []) {
    add(t, frame(m.role), enc(partsText(m.content)));
    for (const c of m.tool_calls ?? []) add(t, enc(c.function?.name), enc(c.function?.arguments));
    if (m.tool_call_id) add(t, enc(m.tool_call_id));
  }
  add(t, prime());
  return t;
}

// Anthropic: the prompt's tokens and the prefix lengths at its cache_control breakpoints.
export function anthropicTokens(body) {
  const t = [], breaks = [];
  const mark = (block) => { if (block && block.cache_control) breaks.push(t.length); };
  for (const tool of body.tools ?? []) {
    const { cache_control, ...def } = tool;
    add(t, frame('tool_def'), enc(JSON.stringify(def)));
    mark(tool);
  }
  if (typeof body.system === 'string') add(t, frame('system'), enc(body.system));
  else if (Array.isArray(body.system)) {
    add(t, frame('system'));
    for (const b of body.system) { add(t, enc(b?.text)); mark(b); }
  }
  for (const m of body.messages ?? []) {
    add(t, frame(m.role));
    if (typeof m.content === 'string') { add(t, enc(m.content)); continue; }
    for (const b of m.content ?? []) {
      if (b?.type === 'text') add(t, enc(b.text));
      else if (b?.type === 'tool_use') add(t, enc(b.name), enc(JSON.stringify(b.input ?? {})));
      else if (b?.type === 'tool_result') add(t, enc(partsText(b.content)));
      mark(b);
    }
  }
  add(t, prime());
  return { tokens: t, breaks };
}

const commonPrefix = (a, b) => {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
};
const keyOf = (model, tokens, n) =>
  `${model}\u0000${crypto.createHash('sha256').update(Buffer.from(Int32Array.from(tokens.slice(0, n)).buffer)).digest('hex')}`;

export class Caches {
  constructor() {
    this.openai = new Map();     // model → [token arrays]
    this.anthropic = new Set();  // model + prefix hash
  }

  // {prompt_tokens, cached_tokens}
  openaiUsage(body) {
    const t = openaiTokens(body);
    const kept = this.openai.get(body.model) ?? [];
    let shared = 0;
    for (const p of kept) shared = Math.max(shared, commonPrefix(p, t));
    const cached = shared >= MIN_CACHE ? MIN_CACHE + Math.floor((shared - MIN_CACHE) / OPENAI_STEP) * OPENAI_STEP : 0;
    kept.push(t);
    if (kept.length > MAX_KEPT) kept.shift();
    this.openai.set(body.model, kept);
    return { prompt_tokens: t.length, cached_tokens: cached };
  }

  // {input_tokens, cache_read_input_tokens, cache_creation_input_tokens}; throws on > 4 breakpoints
  anthropicUsage(body) {
    const { tokens, breaks } = anthropicTokens(body);
    if (breaks.length > 4) {
      const e = new Error(`A maximum of 4 blocks with cache_control may be provided. Found ${breaks.length}.`);
      e.badRequest = true;
      throw e;
    }
    let read = 0;
    for (let i = breaks.length - 1; i >= 0; i--)
      if (breaks[i] >= MIN_CACHE && this.anthropic.has(keyOf(body.model, tokens, breaks[i]))) { read = breaks[i]; break; }
    const last = breaks.length ? breaks[breaks.length - 1] : 0;
    const created = last >= MIN_CACHE && last > read ? last - read : 0;
    for (const b of breaks) if (b >= MIN_CACHE) this.anthropic.add(keyOf(body.model, tokens, b));
    return { input_tokens: tokens.length - read - created, cache_read_input_tokens: read, cache_creation_input_tokens: created };
  }
}

// The reply's tokens: each tool call's name and arguments (JSON), and the text.
export function completionTokens(calls, text) {
  return calls.reduce((n, c) => n + countText(c.name) + countText(JSON.stringify(c.args)), 0) + countText(text);
}
