/* report.html's own script (not run by eous in a browser): the task table's
 * filters (failed only, mode, tier, screen) and the drill-down buttons. */
(function () {
  const $ = s => document.querySelector(s);
  const all = s => Array.from(document.querySelectorAll(s));
  function apply() {
    const failed = $('#f-failed').checked, mode = $('#f-mode').value, tier = $('#f-tier').value,
      screen = $('#f-screen').value;
    let n = 0;
    all('#task-table .m').forEach(el => { el.hidden = !!mode && !el.classList.contains('m-' + mode); });
    all('#task-table tr.task').forEach(tr => {
      let show = (!tier || tr.dataset.tier === tier) && (!screen || tr.dataset.screen === screen);
      const bad = (tr.dataset.failed || '').split(' ').filter(Boolean),
        has = (tr.dataset.modes || '').split(' ');
      if (show && mode) show = has.includes(mode);
      if (show && failed) show = mode ? bad.includes(mode) : bad.length > 0;
      tr.hidden = !show;
      const b = tr.querySelector('button.open'), d = document.getElementById(b.getAttribute('aria-controls'));
      d.hidden = !show || b.getAttribute('aria-expanded') !== 'true';
      if (show) n++;
    });
    $('#f-count').textContent = n + ' task(s) shown';
  }
  all('#task-table button.open').forEach(b => b.addEventListener('click', () => {
    const open = b.getAttribute('aria-expanded') !== 'true';
    b.setAttribute('aria-expanded', String(open));
    document.getElementById(b.getAttribute('aria-controls')).hidden = !open;
  }));
  ['#f-failed', '#f-mode', '#f-tier', '#f-screen'].forEach(s => $(s).addEventListener('change', apply));
  apply();
})();
