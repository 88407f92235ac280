/* reaches(el, x, y): whether a pointer at viewport point (x, y) lands on el
 * or inside it, through open shadow roots as a pointer goes. */
const reaches = (el, x, y) => {
  if (!(x >= 0 && y >= 0 && x < innerWidth && y < innerHeight)) return false;
  let h = document.elementFromPoint(x, y);
  while (h && h.shadowRoot) {
    const d = h.shadowRoot.elementFromPoint(x, y);
    if (!d || d === h) break;
    h = d;
  }
  for (let n = h; n; n = n.parentNode || n.host) if (n === el) return true;
  return false;
};
