/* CDP Runtime.callFunctionOn body: parks the node (its element for text
 * nodes) under a random window property for the next script to pick up,
 * without touching the DOM (no attribute, so no mutation and no React noise). */
function(t) {
  let n = this;
  if (n && n.nodeType !== 1) n = n.parentElement;
  window[t] = n;
  return !!(n && n.isConnected);
}
