// Shared helpers for the tools: launch Debian's Chromium with playwright-core,
// start scripts/serve-site on a free port.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = join(here, '..', '..', '..', '..');

export const CHROMIUM_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launch(extraArgs = []) {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

// Starts scripts/serve-site --port 0 unless PLAYGROUND_URL is set; returns { url, stop }.
export async function startServer() {
  if (process.env.PLAYGROUND_URL) return { url: process.env.PLAYGROUND_URL.replace(/\/$/, ''), stop() {} };
  const child = spawn(join(repoRoot, 'scripts', 'serve-site'), ['--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((res, rej) => {
    let buf = '';
    child.stdout.on('data', (d) => { buf += d; const m = buf.match(/^(http:\/\/127\.0\.0\.1:\d+)\n/); if (m) res(m[1]); });
    child.on('exit', (c) => rej(new Error(`serve-site exited ${c}`)));
    setTimeout(() => rej(new Error('serve-site did not start')), 10000);
  });
  const stop = () => { try { child.kill('SIGTERM'); } catch (e) { /* gone */ } };
  process.on('exit', stop);
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { stop(); process.exit(130); });
  return { url, stop };
}
