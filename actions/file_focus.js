// Whether a type step's keys would reach a file input (actions/atomic.c): the
// element itself or the focused one, through open shadow roots.  A field can
// turn itself into <input type=file> on focus, and WebDriver's send keys sets
// a file input's files from the text, so this runs after the focus, right
// before the keys.  arguments: [element]; answers true or false.
const isFile = (e) => !!e && e.tagName === 'INPUT' && String(e.type).toLowerCase() === 'file';
let a = document.activeElement;
while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
return isFile(arguments[0]) || isFile(a);
