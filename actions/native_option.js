/* Native <select>: the option by label, value, then label regardless of
 * case and accents.  args: select element, wanted text. */
return (function(s, want) {
// @include page_helpers.js
  const opts = Array.from(s.options || []);
  const o = opts.find(o => norm(o.label || o.text) === norm(want)) || opts.find(o => o.value === want) ||
    opts.find(o => fold(o.label || o.text) === fold(want));
  const names = opts.map(o => norm(o.label || o.text)).slice(0, 40);
  if (!o) return {found: false, options: names, total: opts.length};
  if (o.disabled) return {found: false, disabled: true, options: names, total: opts.length};
  return {found: true, option: o, value: o.value, label: norm(o.label || o.text),
    already: o.selected && !s.multiple};
}).apply(null, arguments);
