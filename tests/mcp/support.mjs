// tests/mcp/support.mjs — what the tests in tests/mcp share: the official MCP SDK (loaded from
// benchmarks/compare's node_modules, whose package.json pins it), serve(rootDir) (a loopback
// page server, benchmarks/grounds/playground/serve.mjs, on a free port), text(result), session(args) (one
// `eous mcp` over stdio with an SDK client) and startWiki() (a private DokuWiki, scripts/wiki).  Not a test itself: its name matches none of
// node --test's patterns, so `node --test tests/mcp/` only loads it through the tests.
// A test file's after() calls stopServers().
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const EOUS = resolve(process.env.EOUS_CLI || join(root, 'build/eous'));
// the one path by which the JavaScript tests reach each ground and tool under benchmarks/ (as
// tests/support/grounds.h does for the C tests)
export const PLAYGROUND_DIST = join(root, 'benchmarks/grounds/playground/dist');
export const TASKS = join(root, 'benchmarks/grounds/tasks');
export const PAGE_SERVER = join(root, 'benchmarks/grounds/playground/serve.mjs');
const requireSdk = createRequire(join(root, 'benchmarks/compare/package.json')); // the SDK, pinned there
// the file: URL of the SDK module at p (e.g. 'client/index.js'), in benchmarks/compare's node_modules
export const sdkUrl = (p) => pathToFileURL(requireSdk.resolve(`@modelcontextprotocol/sdk/${p}`)).href;
export const sdk = async (p) => import(sdkUrl(p));
const { Client } = await sdk('client/index.js');
const { StdioClientTransport } = await sdk('client/stdio.js');

export const LONG = { timeout: 600000 }; // a loaded shared machine can be slow to start a browser

const servers = []; // every serve() child and every track()ed one, stopped by PID in stopServers()

// rootDir served on a free loopback port: resolves with its base URL (http://127.0.0.1:PORT)
export function serve(rootDir) {
  return new Promise((ok, fail) => {
    const p = spawn(process.execPath, [PAGE_SERVER, '--port', '0', '--root', rootDir],
      { stdio: ['ignore', 'pipe', 'inherit'] });
    servers.push(p);
    p.once('error', fail);
    p.stdout.once('data', (d) => ok(String(d).trim()));
  });
}

// a child of the test's own (an eous server, say) for stopServers() to stop if it still runs
export function track(p) {
  servers.push(p);
  return p;
}

// One Chromium this test file holds (tests/pool/browser_hold.c, at EOUS_TEST_BROWSER_HOLD, which ctest
// sets): a session() that names no browser of its own attaches to it through EOUS_CDP_ENDPOINT (eous mcp's
// --cdp-endpoint) while no other session holds it, instead of launching one (~2 CPU-s each); it starts
// in a fresh tab, the browser's cookies as the last session left them (a test that needs a browser of its
// own passes env { EOUS_CDP_ENDPOINT: '' }).  Stopped by stopServers(), or when the file's process ends.
const HOLD = process.env.EOUS_TEST_BROWSER_HOLD;
let held = null; // { addr, busy } once started; false when it could not start
async function heldBrowser() {
  if (held === null && HOLD) {
    held = await new Promise((ok) => {
      const p = track(spawn(HOLD, [], { stdio: ['pipe', 'pipe', 'inherit'] }));
      p.once('error', () => ok(false));
      p.once('exit', () => ok(false));
      p.stdout.once('data', (d) => {
        // the file's process may end without stopServers(): its end closes stdin, which stops the browser
        p.stdout.destroy();
        p.stdin.unref();
        p.unref();
        ok({ addr: String(d).trim(), busy: false });
      });
    });
  }
  return held || null;
}
const OWN_BROWSER = ['--headed', '--webdriver', '--cdp-endpoint', '--port'];

// stops (SIGTERM) what serve() started and track() was given, where still running (a test file's after())
export function stopServers() {
  for (const p of servers.splice(0)) if (p.exitCode === null) p.kill('SIGTERM');
}

// a tool result's text parts, one after another
export const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

// One eous mcp over stdio with args (EOUS_LOG=warn, env added to the environment), its client
// called name.  call(name, args) answers the tool's result, a failed request's error carrying the
// server's stderr; ok(name, args) asserts the result is no error and answers its text; names()
// answers tools/list's names.  The caller closes it (close()).
export async function session(args = [], { name = 'eous-mcp-test', env = {} } = {}) {
  const hold = args.some((a) => OWN_BROWSER.includes(a)) || 'EOUS_CDP_ENDPOINT' in env ? null : await heldBrowser();
  const shared = hold && !hold.busy ? hold : null;
  if (shared) shared.busy = true;
  const t = new StdioClientTransport({ command: EOUS, args: ['mcp', ...args], stderr: 'pipe',
    env: { ...process.env, EOUS_LOG: 'warn', ...(shared ? { EOUS_CDP_ENDPOINT: shared.addr } : {}), ...env } });
  let stderr = '';
  t.stderr.on('data', (d) => { stderr += d; });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(t);
  const call = async (tool, a = {}) => client.callTool({ name: tool, arguments: a }, undefined, LONG).catch((e) => {
    throw new Error(`${tool}: ${e.message}\nstderr: ${stderr}`);
  });
  const ok = async (tool, a = {}) => {
    const r = await call(tool, a);
    assert.equal(r.isError, false, `${tool}: ${text(r)}`);
    return text(r);
  };
  const names = async () => (await client.listTools(undefined, LONG)).tools.map((x) => x.name);
  // the held browser goes back once this session's server has gone (its driver detached)
  const close = async () => {
    const pid = t.pid;
    await client.close();
    for (let i = 0; pid && i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    if (shared) shared.busy = false;
  };
  return { client, call, ok, names, close };
}

const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };

// A private DokuWiki (scripts/wiki, Debian's dokuwiki package) on a free loopback port, in a fresh
// temp folder with its own secrets file (WIKI_PASSWORD for the user mira): resolves with
// {url, secrets, stop}; stop() stops its server by the PID scripts/wiki keeps and removes the folder.
export function startWiki() {
  const dir = mkdtempSync(join(tmpdir(), 'eous-mcp-wiki-'));
  const secrets = join(dir, 'secrets.env');
  const wiki = join(root, 'scripts/wiki');
  return new Promise((ok, fail) => {
    execFile('bash', [wiki, 'start', '--dir', join(dir, 'wiki'), '--secrets', secrets], (e, out, err) => {
      if (e) { rmSync(dir, { recursive: true, force: true }); fail(new Error(`scripts/wiki start: ${err}`)); return; }
      const stop = () => new Promise((done) => execFile('bash', [wiki, 'stop', join(dir, 'wiki')], () => {
        rmSync(dir, { recursive: true, force: true });
        done();
      }));
      ok({ url: out.trim(), secrets, stop });
    });
  });
}
