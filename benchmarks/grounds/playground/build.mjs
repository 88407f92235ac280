// Bundle the Playground with esbuild: dist/index.html + dist/app.js (minified).
import { build } from 'esbuild';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, 'dist');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const res = await build({
  entryPoints: [join(here, 'src/main.jsx')],
  bundle: true, minify: true, format: 'iife', target: ['chrome120'],
  jsx: 'automatic', outfile: join(out, 'app.js'), legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'warning', metafile: true,
});
writeFileSync(join(out, 'index.html'), `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Playground</title>
<style>html,body{margin:0}</style>
</head>
<body>
<div id="root"></div>
<script src="/app.js"></script>
</body>
</html>
`);
const bytes = Object.values(res.metafile.outputs).reduce((a, o) => a + o.bytes, 0);
console.log(`built dist/app.js (${bytes} bytes)`);
