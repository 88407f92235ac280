// Application state: one external store, mirrored to localStorage.
import { useSyncExternalStore } from 'react';
import { seedState } from './data.js';

const LS_KEY = 'eous-playground-state-v1';
let state = load();
const subs = new Set();

function load() {
  try {
    const raw = localStorage.getItem(LS_KEY);
    if (raw) return JSON.parse(raw);
  } catch (e) { /* ignore */ }
  return seedState();
}
function persist() {
  try { localStorage.setItem(LS_KEY, JSON.stringify(state)); } catch (e) { /* ignore */ }
}
export function getState() { return state; }
export function setState(fn) {
  state = { ...state, ...fn(state) };
  persist();
  for (const s of subs) s();
}
export function resetState() {
  try { localStorage.removeItem(LS_KEY); } catch (e) { /* ignore */ }
  state = seedState();
  for (const s of subs) s();
}
function subscribe(cb) { subs.add(cb); return () => subs.delete(cb); }
export function useStore(sel) { return useSyncExternalStore(subscribe, () => sel(state)); }

// ---- router (history API) ----
const rsubs = new Set();
function rsubscribe(cb) { rsubs.add(cb); window.addEventListener('popstate', cb); return () => { rsubs.delete(cb); window.removeEventListener('popstate', cb); }; }
export function navigate(path, replace = false) {
  if (path === window.location.pathname) return;
  if (replace) window.history.replaceState(null, '', path); else window.history.pushState(null, '', path);
  for (const s of rsubs) s();
}
export function usePath() { return useSyncExternalStore(rsubscribe, () => window.location.pathname); }

// ---- ids ----
export function nextId(prefix, list) {
  return `${prefix}-${String(list.length + 1).padStart(3, '0')}`;
}

// ---- transient UI facts evaluators may read (not persisted) ----
const ui = {};
export function setUi(patch) { Object.assign(ui, patch); }
export function getUi() { return { ...ui }; }
