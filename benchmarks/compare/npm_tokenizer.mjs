// benchmarks/compare/npm_tokenizer.mjs — the npm tokenizer (gpt-tokenizer) as eous's tests and
// benchmarks use it: encode(text) with special-token text treated as ordinary text (tiktoken's
// encode_ordinary), for o200k_base and cl100k_base.
//
// One fix is applied.  gpt-tokenizer 4.0.0 stores the 9 o200k ranks whose bytes start with
// EF BB BF (U+FEFF, e.g. rank 5574 = EF BB BF, 9251 = EF BB BF "using") as byte arrays, but looks
// a byte string up in that table only when it is not valid UTF-8; those 9 are valid UTF-8, so
// they are never found; and its decoder drops a leading U+FEFF, so a merge candidate EF BB BF "b"
// is looked up as "b".  "\ufeffb" gives [65] (just "b") where tiktoken (and the package's own
// data/o200k_base.tiktoken) gives [5574, 65].  Keys starting with EF BB BF are looked up in the
// byte table, then as text with the U+FEFF kept; every other lookup is the package's own.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const esm = join(dirname(fileURLToPath(import.meta.url)), 'node_modules', 'gpt-tokenizer', 'esm');
const { BytePairEncodingCore } = await import(pathToFileURL(join(esm, 'BytePairEncodingCore.js')).href);

const keepBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const upstreamLookup = BytePairEncodingCore.prototype.getBpeRankFromBytes;
BytePairEncodingCore.prototype.getBpeRankFromBytes = function (key) {
  if (key.length >= 3 && key[0] === 0xef && key[1] === 0xbb && key[2] === 0xbf) {
    const at = this.binarySearch(key);
    if (at !== -1) return this.bytePairNonUtfSortedEncoder[at][1];
    let text;
    try {
      text = keepBom.decode(key);
    } catch {
      return undefined; // not UTF-8 and not in the byte table
    }
    return this.getBpeRankFromString(text);
  }
  return upstreamLookup.call(this, key);
};

const ORDINARY = { disallowedSpecial: new Set() };

/** encoder(name) -> { encode(text): number[], count(text): number } */
export async function npmEncoder(name) {
  if (!['o200k_base', 'cl100k_base'].includes(name)) throw new Error(`encoding '${name}': expected o200k_base or cl100k_base`);
  const mod = await import(pathToFileURL(join(esm, 'encoding', `${name}.js`)).href);
  return {
    encode: (text) => mod.encode(text, ORDINARY),
    count: (text) => mod.countTokens(text, ORDINARY),
  };
}
