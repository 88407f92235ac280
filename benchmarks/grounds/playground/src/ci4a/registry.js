// CI4A registry: window.__ci4a__ = { version, getStatus(key?), callTool(key, tool, params) }.
// Components register a builder (latest props/state captured each render);
// getStatus builds entries on demand, callTool validates params against the
// tool's metadata, then dispatches through the component's own handlers.
import { useEffect, useRef } from 'react';

const FLAG = 'ci4a';
function computeEnabled() {
  try {
    const q = new URLSearchParams(window.location.search).get(FLAG);
    if (q === 'off') sessionStorage.setItem(FLAG, 'off');
    else if (q === 'on') sessionStorage.removeItem(FLAG);
    return sessionStorage.getItem(FLAG) !== 'off';
  } catch (e) {
    return true;
  }
}
export const enabled = typeof window !== 'undefined' ? computeEnabled() : false;

const comps = new Map(); // key -> { kind, ref }

export class Ci4aError {
  constructor(code, message, constraints) {
    this.code = code; this.message = message;
    if (constraints !== undefined) this.constraints = constraints;
  }
}
export function fail(code, message, constraints) {
  // a plain object, as the protocol requires
  const e = { code, message };
  if (constraints !== undefined) e.constraints = constraints;
  throw e;
}

// ---- class-name markers: the same in both modes; attributes only when enabled ----
export const rootClass = (key) => `ci4a-k-${key}`;
export const ownerClass = (key) => `ci4a-o-${key}`;
function stamp() {
  for (const el of document.querySelectorAll('[class*="ci4a-k-"],[class*="ci4a-o-"]')) {
    for (const c of el.classList) {
      if (c.startsWith('ci4a-k-')) {
        const k = c.slice(7);
        if (el.getAttribute('data-cid') !== k) el.setAttribute('data-cid', k);
      } else if (c.startsWith('ci4a-o-')) {
        const k = c.slice(7);
        if (el.getAttribute('data-cid-owner') !== k) el.setAttribute('data-cid-owner', k);
      }
    }
  }
}

// ---- parameter validation against metadata ----
const DATE_RE = { 'YYYY-MM-DD': /^\d{4}-\d{2}-\d{2}$/, 'HH:mm': /^\d{2}:\d{2}$/, 'HH:mm:ss': /^\d{2}:\d{2}:\d{2}$/ };
function validDateString(s, format) {
  if (!DATE_RE[format] || !DATE_RE[format].test(s)) return false;
  if (format === 'YYYY-MM-DD') {
    const d = new Date(s + 'T00:00:00Z');
    return !isNaN(d) && d.toISOString().slice(0, 10) === s;
  }
  const [h, m, sec] = s.split(':').map(Number);
  return h < 24 && m < 60 && (sec === undefined || sec < 60);
}
function typeOf(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
export function checkValue(name, v, spec, errs) {
  const t = typeOf(v);
  const want = spec.type;
  const ok = want === 'integer' ? (t === 'number' && Number.isInteger(v))
    : want === 'number' ? (t === 'number' && Number.isFinite(v)) : t === want;
  if (!ok) { errs.push(`${name}: expected ${want}, got ${t}`); return; }
  if (spec.enum && !spec.enum.some((e) => same(e, v))) {
    errs.push(`${name}: ${JSON.stringify(v)} is not one of the allowed values`); return;
  }
  if (t === 'string' && spec.format) {
    if (!validDateString(v, spec.format)) { errs.push(`${name}: expected format ${spec.format}`); return; }
  }
  if (spec.min !== undefined && v < spec.min) errs.push(`${name}: ${JSON.stringify(v)} is below the minimum ${spec.min}`);
  if (spec.max !== undefined && v > spec.max) errs.push(`${name}: ${JSON.stringify(v)} is above the maximum ${spec.max}`);
  if (t === 'number' && spec.step && spec.min !== undefined) {
    const k = (v - spec.min) / spec.step;
    if (Math.abs(k - Math.round(k)) > 1e-9) errs.push(`${name}: must be ${spec.min} plus a multiple of ${spec.step}`);
  }
  if (t === 'string' && spec.minLength !== undefined && v.length < spec.minLength) errs.push(`${name}: shorter than ${spec.minLength}`);
  if (t === 'string' && spec.maxLength !== undefined && v.length > spec.maxLength) errs.push(`${name}: longer than ${spec.maxLength}`);
  if (spec.disabled && spec.disabled.some((d) => same(d, v))) errs.push(`${name}: ${JSON.stringify(v)} is disabled`);
  if (t === 'array') {
    if (spec.minItems !== undefined && v.length < spec.minItems) errs.push(`${name}: needs at least ${spec.minItems} items`);
    if (spec.maxItems !== undefined && v.length > spec.maxItems) errs.push(`${name}: allows at most ${spec.maxItems} items`);
    if (spec.items) v.forEach((x, i) => checkValue(`${name}[${i}]`, x, spec.items, errs));
  }
  if (t === 'object' && spec.properties) checkParams(v, spec.properties, errs, name + '.');
}
export function checkParams(params, specs, errs, prefix = '') {
  for (const k of Object.keys(params)) {
    if (!specs[k]) errs.push(`${prefix}${k}: unknown parameter`);
  }
  for (const [k, s] of Object.entries(specs)) {
    if (params[k] === undefined) {
      if (s.required) errs.push(`${prefix}${k}: required`);
    } else {
      checkValue(prefix + k, params[k], s, errs);
    }
  }
}

// ---- building entries ----
function buildEntry(key, rec) {
  const spec = rec.ref.current();
  const tools = Object.keys(spec.tools || {});
  const metadata = {};
  for (const [name, t] of Object.entries(spec.tools || {})) {
    const m = { description: t.description, params: t.params || {} };
    if (t.constraints) m.constraints = t.constraints;
    metadata[name] = m;
  }
  return {
    key, kind: rec.kind, label: spec.label ?? '', state: spec.state,
    tools, metadata, disabled: !!spec.disabled, visible: spec.visible !== false,
  };
}
const clone = (x) => JSON.parse(JSON.stringify(x ?? null));

function getStatus(key) {
  if (key === undefined || key === null) {
    const out = {};
    for (const [k, rec] of comps) out[k] = clone(buildEntry(k, rec));
    return out;
  }
  const rec = comps.get(key);
  if (!rec) fail('unknown_component', `no component registered under '${key}'`, { known: [...comps.keys()] });
  return { [key]: clone(buildEntry(key, rec)) };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// A tool answers once the page shows what it did: React's render of the update (a task it schedules)
// and its effects, then one frame (layout, resize observers) and a task after it.  It slept a fixed
// 30 ms before: longer than a render on a quiet machine, and no promise on a loaded one.
const frame = () => new Promise((r) => {
  let done = false;
  const go = () => { if (!done) { done = true; setTimeout(r, 0); } };
  requestAnimationFrame(go);
  setTimeout(go, 50); // a hidden tab gets no frames
});
async function settle() { await sleep(0); await frame(); }

function callTool(key, tool, params) {
  const rec = comps.get(key);
  if (!rec) fail('unknown_component', `no component registered under '${key}'`, { known: [...comps.keys()] });
  const spec = rec.ref.current();
  const t = spec.tools && spec.tools[tool];
  if (!t) fail('unknown_tool', `component '${key}' has no tool '${tool}'`, { tools: Object.keys(spec.tools || {}) });
  if (spec.disabled && !t.allowDisabled) fail('disabled', `component '${key}' is disabled`);
  if (params === undefined || params === null) params = {};
  if (typeOf(params) !== 'object') fail('invalid_params', 'params must be an object', { params: t.params || {} });
  const errs = [];
  checkParams(params, t.params || {}, errs);
  if (!errs.length && t.validate) {
    const extra = t.validate(params);
    if (extra) errs.push(...[].concat(extra));
  }
  if (errs.length) {
    fail('invalid_params', errs.join('; '), { params: t.params || {}, ...(t.constraints || {}) });
  }
  return (async () => {
    const result = await t.run(params);
    await settle();
    const cur = comps.get(key);
    const state = cur ? clone(buildEntry(key, cur).state) : null;
    const out = { ok: true, state };
    if (result !== undefined) out.result = clone(result);
    return out;
  })();
}

let installed = false;
export function install() {
  if (!enabled || installed) return;
  installed = true;
  Object.defineProperty(window, '__ci4a__', {
    value: Object.freeze({ version: 1, getStatus, callTool }), configurable: true, enumerable: false, writable: false,
  });
  const mo = new MutationObserver(stamp);
  const start = () => { mo.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] }); stamp(); };
  if (document.body) start(); else document.addEventListener('DOMContentLoaded', start);
}

// Hook: register on mount, deregister on unmount. `build` is called lazily
// (at getStatus/callTool time) and sees the latest props of the last render.
export function useCi4a(key, kind, build) {
  const ref = useRef(build);
  ref.current = build;
  useEffect(() => {
    if (!enabled) return undefined;
    const rec = { kind, ref };
    comps.set(key, rec);
    return () => { if (comps.get(key) === rec) comps.delete(key); };
  }, [key, kind]);
}

export function registeredKeys() { return [...comps.keys()]; }
