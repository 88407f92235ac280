// The file input an upload step (actions/files.c) fills: the element itself,
// the control its label names, or the one file input inside it.
// arguments: [element, count]; answers {el, multiple} or {refused: why}.
// (never "error": WebDriver takes a script answer with that key for its own error)
const [el, count] = arguments;
if (!el || !el.isConnected) return {refused: 'gone'};
if (el.closest('[data-agent-hidden]')) return {refused: 'hidden'};
const isFile = (e) => e && e.tagName === 'INPUT' && e.type === 'file';
let f = isFile(el) ? el : el.tagName === 'LABEL' && isFile(el.control) ? el.control : null;
if (!f) {
  const inside = el.querySelectorAll('input[type=file]');
  if (inside.length === 1) f = inside[0];
}
if (!f) return {refused: 'not a file input'};
if (f.disabled) return {refused: 'disabled'};
if (count > 1 && !f.multiple) return {refused: 'single'};
return {el: f, multiple: f.multiple};
