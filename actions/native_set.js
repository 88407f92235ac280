/* Fallback for a native option W3C could not click: the value setter React
 * watches, then input + change.  args: select, option. */
const s = arguments[0], o = arguments[1];
const set = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set;
set.call(s, o.value);
s.dispatchEvent(new Event('input', {bubbles: true}));
s.dispatchEvent(new Event('change', {bubbles: true}));
return s.value;
