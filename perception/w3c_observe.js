/* Without CDP: providers, tree, frames and marks in ONE Execute Script call
 * (each round trip is tens of ms through a grid).  The two scripts keep their
 * own bodies; each runs as a function of its slice of the arguments:
 * providers.js gets arguments 0..3, axtree.js the rest and the visually
 * hidden elements providers.js found (out.vh). */
const eousArgs = Array.from(arguments);
return (async function () {
const out = await (function () {
// @include providers.js
}).apply(null, eousArgs.slice(0, 4));
out.tree = (function () {
// @include axtree.js
}).apply(null, eousArgs.slice(4).concat([out.vh]));
return out;
})();
