#!/usr/bin/env node
// tests/support/tok_expect.mjs ENCODING DIR — for each DIR/*.txt (valid UTF-8) writes FILE.ids:
// the npm tokenizer's token ids (uint32 little-endian) through benchmarks/compare/npm_tokenizer.mjs
// (gpt-tokenizer, special-token text as ordinary text).  Used by tests/core/test_tokenize.c.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [encoding, dir] = process.argv.slice(2);
if (!dir) {
  console.error('tok_expect: expected ENCODING (o200k_base or cl100k_base) and a directory of .txt files');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { npmEncoder } = await import(pathToFileURL(join(root, 'benchmarks', 'compare', 'npm_tokenizer.mjs')).href);
const enc = await npmEncoder(encoding);
// ignoreBOM: a text that starts with U+FEFF keeps it, as eous does
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
for (const name of readdirSync(dir).filter((n) => n.endsWith('.txt'))) {
  const f = join(dir, name);
  const ids = enc.encode(decoder.decode(readFileSync(f)));
  writeFileSync(f + '.ids', Buffer.from(Uint32Array.from(ids).buffer));
}
