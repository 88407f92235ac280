// lib/request.mjs — one request of either API read into the same shape:
//   {provider, model, system, events, toolNames, maxBatch}
// events, in order: {kind:'user', text} · {kind:'assistant', text, calls:[{id,name,args}]}
//                   {kind:'result', id, text, isError}
// Throws {status, message, param} for a request the provider would refuse.

export class BadRequest extends Error {
  constructor(message, param = null) {
    super(message);
    this.param = param;
  }
}

const textOfParts = (content, what) => {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new BadRequest(`${what}: content must be a string or an array of content parts`);
  return content.filter((p) => p && p.type === 'text').map((p) => String(p.text ?? '')).join('\n');
};

function openai(body) {
  const events = [];
  const system = [];
  body.messages.forEach((m, i) => {
    if (!m || typeof m !== 'object') throw new BadRequest(`messages[${i}]: expected an object`, `messages.[${i}]`);
    const what = `messages[${i}]`;
    switch (m.role) {
      case 'system':
      case 'developer':
        system.push(textOfParts(m.content, what));
        break;
      case 'user':
        events.push({ kind: 'user', text: textOfParts(m.content, what) });
        break;
      case 'assistant':
        events.push({
          kind: 'assistant',
          text: textOfParts(m.content, what),
          calls: (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function?.name, args: c.function?.arguments ?? '' })),
        });
        break;
      case 'tool':
        events.push({ kind: 'result', id: m.tool_call_id, text: textOfParts(m.content, what), isError: false });
        break;
      default:
        throw new BadRequest(`${what}: unknown role '${m.role}'`, `messages.[${i}].role`);
    }
  });
  const toolNames = new Set((body.tools ?? []).map((t) => t?.function?.name).filter(Boolean));
  const toolParams = new Map((body.tools ?? []).filter((t) => t?.function?.name)
    .map((t) => [t.function.name, new Set(Object.keys(t.function.parameters?.properties ?? {}))]));
  return { system: system.join('\n'), events, toolNames, toolParams, parallelOff: body.parallel_tool_calls === false };
}

function anthropic(body) {
  const events = [];
  const system = typeof body.system === 'string' ? body.system : textOfParts(body.system ?? '', 'system');
  body.messages.forEach((m, i) => {
    if (!m || typeof m !== 'object') throw new BadRequest(`messages.${i}: expected an object`);
    if (m.role !== 'user' && m.role !== 'assistant')
      throw new BadRequest(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    if (!Array.isArray(blocks)) throw new BadRequest(`messages.${i}.content: expected a string or a list of blocks`);
    if (m.role === 'assistant') {
      events.push({
        kind: 'assistant',
        text: blocks.filter((b) => b?.type === 'text').map((b) => b.text).join('\n'),
        calls: blocks.filter((b) => b?.type === 'tool_use').map((b) => ({ id: b.id, name: b.name, args: JSON.stringify(b.input ?? {}) })),
      });
      return;
    }
    for (const b of blocks.filter((x) => x?.type === 'tool_result'))
      events.push({ kind: 'result', id: b.tool_use_id, text: textOfParts(b.content ?? '', `messages.${i}`), isError: b.is_error === true });
    const texts = blocks.filter((b) => b?.type === 'text').map((b) => String(b.text ?? ''));
    if (texts.length) events.push({ kind: 'user', text: texts.join('\n') });
  });
  const toolNames = new Set((body.tools ?? []).map((t) => t?.name).filter(Boolean));
  const toolParams = new Map((body.tools ?? []).filter((t) => t?.name)
    .map((t) => [t.name, new Set(Object.keys(t.input_schema?.properties ?? {}))]));
  return { system, events, toolNames, toolParams, parallelOff: body.tool_choice?.disable_parallel_tool_use === true };
}

// body: the parsed JSON.  Checks what both APIs require before anything else.
export function readRequest(provider, body) {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadRequest('the request body must be a JSON object');
  if (typeof body.model !== 'string' || !body.model)
    throw new BadRequest(provider === 'openai' ? 'you must provide a model parameter' : 'model: Field required', 'model');
  if (!Array.isArray(body.messages) || !body.messages.length)
    throw new BadRequest(provider === 'openai' ? "Missing required parameter: 'messages'." : 'messages: Field required', 'messages');
  if (provider === 'anthropic' && !Number.isInteger(body.max_tokens))
    throw new BadRequest('max_tokens: Field required', 'max_tokens');
  const r = provider === 'openai' ? openai(body) : anthropic(body);
  // the batch size a model may use: 1 when parallel tool calls are off, else the system prompt's "at most N"
  let maxBatch = 1;
  if (!r.parallelOff) {
    const m = /\bat most (\d+)\b/.exec(r.system);
    if (m) maxBatch = Math.max(1, Number(m[1]));
  }
  return { provider, model: body.model, system: r.system, events: r.events, toolNames: r.toolNames,
    toolParams: r.toolParams, maxBatch };
}
