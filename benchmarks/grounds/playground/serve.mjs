// Static server for dist/ on 127.0.0.1 with SPA fallback.
// usage: node serve.mjs [--port N] [--root DIR]; prints "http://127.0.0.1:PORT" once listening.
import http from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve, extname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
let port = 0;
let root = join(here, 'dist');
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--port') port = Number(argv[++i]);
  else if (a.startsWith('--port=')) port = Number(a.slice(7));
  else if (a === '--root') root = argv[++i];
  else if (a.startsWith('--root=')) root = a.slice(7);
  else if (a === '-h' || a === '--help') { console.error('usage: serve-site [--port N] [--root DIR]'); process.exit(0); }
  else { console.error(`serve-site: unknown argument ${a}`); process.exit(2); }
}
if (!Number.isInteger(port) || port < 0 || port > 65535) { console.error('serve-site: bad --port'); process.exit(2); }
root = resolve(root);

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.map': 'application/json' };

async function fileAt(p) {
  try { const s = await stat(p); return s.isFile() ? p : null; } catch { return null; }
}
const server = http.createServer(async (req, res) => {
  try {
    if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405); res.end(); return; }
    let path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = resolve(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) { res.writeHead(403); res.end(); return; }
    let found = await fileAt(file);
    if (!found && path.endsWith('/')) found = await fileAt(join(file, 'index.html'));
    if (!found && !extname(path)) found = await fileAt(join(root, 'index.html')); // SPA fallback
    if (!found) { res.writeHead(404, { 'content-type': 'text/plain' }); res.end('not found\n'); return; }
    // validators, as a real server sends them: with no-cache the browser still asks every time (a
    // rebuilt dist/ is seen at once), but a 304 keeps its cached app.js and with it V8's compiled code
    // (without them every load compiled the 1.4 MB bundle again: half of a navigation's CPU)
    const st = await stat(found);
    const etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
    const head = { 'content-type': TYPES[extname(found)] || 'application/octet-stream', 'cache-control': 'no-cache',
      etag, 'last-modified': st.mtime.toUTCString() };
    if ((req.headers['if-none-match'] || '').split(/\s*,\s*/).includes(etag)) { res.writeHead(304, head); res.end(); return; }
    const body = await readFile(found);
    res.writeHead(200, { ...head, 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch (e) {
    res.writeHead(500); res.end();
  }
});
server.on('error', (e) => { console.error(`serve-site: ${e.message}`); process.exit(1); });
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
