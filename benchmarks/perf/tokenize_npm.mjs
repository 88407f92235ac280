#!/usr/bin/env node
// benchmarks/perf/tokenize_npm.mjs ENCODING DIR ROUNDS — the npm side of benchmarks/perf/tokenize.c:
// encodes every DIR/*.txt (valid UTF-8) ROUNDS times with the npm tokenizer (gpt-tokenizer through
// benchmarks/compare/npm_tokenizer.mjs) after one warm-up pass, and prints one JSON line:
// bytes and tokens per round, wall and CPU seconds for all rounds, RSS before and after loading.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [encoding, dir, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg);
if (!dir || !(rounds > 0)) {
  console.error('tokenize_npm: expected ENCODING DIR ROUNDS (ROUNDS a positive number)');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const files = readdirSync(dir).filter((n) => n.endsWith('.txt')).sort();
const texts = files.map((n) => decoder.decode(readFileSync(join(dir, n))));
const bytes = files.reduce((s, n) => s + readFileSync(join(dir, n)).length, 0);

global.gc?.();
const rssBefore = process.memoryUsage().rss;
const { npmEncoder } = await import(pathToFileURL(join(root, 'benchmarks', 'compare', 'npm_tokenizer.mjs')).href);
const enc = await npmEncoder(encoding);
enc.encode('warm up the ranks');
global.gc?.();
const rssLoaded = process.memoryUsage().rss;

let tokens = 0;
for (const t of texts) tokens += enc.encode(t).length; // warm-up pass (also fills its merge cache)
const cpu0 = process.cpuUsage(), t0 = process.hrtime.bigint();
for (let r = 0; r < rounds; r++) for (const t of texts) enc.encode(t);
const wall = Number(process.hrtime.bigint() - t0) / 1e9, cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({
  encoding, texts: texts.length, bytes, tokens, rounds, wall_s: wall, cpu_s: (cpu.user + cpu.system) / 1e6,
  rss_before: rssBefore, rss_loaded: rssLoaded, node: process.version,
}));
