/* A video (--caps devtools) masks what a screenshot masks (perception/mask.js)
 * on every page it records: run now and on each new document.  The style
 * element is renamed so a screenshot taking its own mask away leaves this one. */
(function () {
  const mask = function () {
// @include perception/mask.js
  };
  const on = () => {
    if (document.getElementById('__eous_video_mask__')) return;
    mask(true);
    const s = document.getElementById('__eous_mask__');
    if (s) s.id = '__eous_video_mask__';
  };
  if (document.documentElement) on();
  else document.addEventListener('readystatechange', on, { once: true });
})();
