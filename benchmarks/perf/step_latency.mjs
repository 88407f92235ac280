// benchmarks/perf/step_latency.mjs — step_latency.{md,json} from the runs step_latency.sh made.
//
//   node benchmarks/perf/step_latency.mjs OUT_DIR RESULTS_DIR "rule quiet:150"
//
// Reads OUT_DIR/<settle>/<ground>/results.jsonl and trace/*.jsonl. Per settle, ground and mode:
// perceive, act, settle and their sum per step (median, p95, n), round trips to the WebDriver
// endpoint per perceive and per action, what held the settles; and per task where the time went
// besides the steps (site lock and reset, start page, scoring, the rest), spread over its steps:
// the difference between "ms per step" (wall / steps) and the sum of the parts.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [outDir, resultsDir, settlesArg] = process.argv.slice(2);
if (!outDir || !resultsDir) {
  console.error('step_latency.mjs: usage: step_latency.mjs OUT_DIR RESULTS_DIR ["rule quiet:150"]');
  process.exit(2);
}
const SETTLES = (settlesArg || 'rule quiet:150').split(/\s+/).filter(Boolean);
const GROUNDS = ['playground', 'dokuwiki'];
const read = (p, d = '') => (existsSync(p) ? readFileSync(p, 'utf8').trim() : d);
const lines = (p) => read(p).split('\n').filter(Boolean).map((l) => JSON.parse(l));
const pct = (v, p) => {
  if (!v.length) return null;
  const s = [...v].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.round(p * (s.length - 1)))];
};
const r0 = (x) => (x == null ? null : Math.round(x));
const sum = (v) => v.reduce((a, b) => a + b, 0);

const out = { commit: read(join(outDir, 'commit'), 'unknown'), date: new Date().toISOString(),
  load: { start: Number(read(join(outDir, 'load_start'), '0')), end: Number(read(join(outDir, 'load_end'), '0')) },
  runs: [] };
for (const settle of SETTLES) {
  for (const ground of GROUNDS) {
    const dir = join(outDir, settle.replace(':', '-'), ground);
    if (!existsSync(join(dir, 'results.jsonl'))) continue;
    const last = new Map();
    for (const r of lines(join(dir, 'results.jsonl'))) last.set(`${r.task_id}|${r.mode}`, r);
    const byMode = new Map();
    for (const r of last.values()) {
      if (!byMode.has(r.mode)) byMode.set(r.mode, []);
      byMode.get(r.mode).push(r);
    }
    for (const [mode, results] of byMode) {
      const steps = { perceive: [], act: [], settle: [], sum: [], tripsPerceive: [], tripsAct: [] };
      const waited = {};
      let capped = 0;
      for (const r of results) {
        const tf = join(dir, 'trace', `${r.task_id}-${mode}.jsonl`);
        if (!existsSync(tf)) continue;
        for (const l of lines(tf)) {
          if (!l.ms || l.action == null || /^stop\b/.test(String(l.action))) continue;
          steps.perceive.push(l.ms.perceive);
          steps.act.push(l.ms.act);
          steps.settle.push(l.ms.settle);
          steps.sum.push(l.ms.perceive + l.ms.act + l.ms.settle);
          if (l.round_trips) {
            if (l.round_trips.perceive) steps.tripsPerceive.push(l.round_trips.perceive);
            steps.tripsAct.push(l.round_trips.act);
          }
          const w = l.settle_capped ? `capped (${l.settle_capped})` : l.settle_waited || 'nothing';
          if (l.settle_capped) capped++;
          waited[w] = (waited[w] || 0) + 1;
        }
      }
      const nSteps = sum(results.map((r) => r.steps));
      const per = (k) => (nSteps ? sum(results.map((r) => r[k] || 0)) / nSteps : 0);
      const row = {
        settle: settle === 'model' ? 'rule, model path' : settle === 'start1' ? `rule, start page once (${read(join(outDir, 'start1', 'commit'), '?')})` : settle, ground, mode, tasks: results.length, passed: results.filter((r) => r.status === 'passed').length,
        actions: steps.sum.length,
        median: Object.fromEntries(['perceive', 'act', 'settle', 'sum'].map((k) => [k, r0(pct(steps[k], 0.5))])),
        p95: Object.fromEntries(['perceive', 'act', 'settle', 'sum'].map((k) => [k, r0(pct(steps[k], 0.95))])),
        round_trips: { perceive: pct(steps.tripsPerceive, 0.5), act: pct(steps.tripsAct, 0.5) },
        settle_waited: waited, settle_capped: capped,
        // wall / steps, and the parts of it per step
        per_step: {
          wall: r0(per('wall_ms')), perceive: r0(per('perceive_ms')), plan: r0(per('plan_ms')), act: r0(per('act_ms')),
          settle: r0(per('settle_ms')), site: r0(per('site_ms')), start: r0(per('start_ms')), score: r0(per('score_ms')),
        },
      };
      const p = row.per_step;
      p.rest = r0(p.wall - p.perceive - p.plan - p.act - p.settle - p.site - p.start - p.score);
      out.runs.push(row);
    }
  }
}

const md = [];
md.push('# Step latency: perceive · act · settle', '');
md.push(`Commit ${out.commit}, ${out.date}. Produced by \`benchmarks/perf/step_latency.sh\` (the script planner runs the ` +
  'tasks\' own scripts: the RPA path, no model, so a step is the browser\'s work alone; `--workers 1`, `--max-batch 1` ' +
  `so every action has its own perceive, one run at a time, hybrid and atomic; "rule, model path" is DokuWiki through ` +
  `the stand-in model as \`make demo\` runs it, hybrid at the defaults, where batched actions share a perceive). 1-minute load average ${out.load.start} at the start, ${out.load.end} at the end ` +
  '(a shared 2-core machine with other work beside it: milliseconds are loaded figures).', '');
md.push('Per action (a `stop` is not one): median / p95 ms over the actions of the run; round trips are requests to ' +
  'the WebDriver endpoint (HTTP commands and CDP through it), median per perceive and per action with its settle.', '');
md.push('| settle | ground | mode | tasks passed | actions | perceive | act | settle | sum | round trips perceive · act | settles capped |');
md.push('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of out.runs) {
  const f = (k) => `${r.median[k]} / ${r.p95[k]}`;
  md.push(`| ${r.settle} | ${r.ground} | ${r.mode} | ${r.passed}/${r.tasks} | ${r.actions} | ${f('perceive')} | ${f('act')} | ` +
    `${f('settle')} | **${f('sum')}** | ${r.round_trips.perceive} · ${r.round_trips.act} | ${r.settle_capped} |`);
}
md.push('', 'What held the settles (the last thing the rule waited on; "nothing": two frames and 30 ms after the ' +
  'action\'s last change):', '');
for (const r of out.runs) {
  md.push(`- ${r.settle}, ${r.ground}, ${r.mode}: ` +
    Object.entries(r.settle_waited).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', '));
}
md.push('', 'Where a task\'s time goes, per step (means: the task\'s wall time and each part summed over the run, ' +
  'divided by its steps). "ms per step" in the suites\' reports is wall / steps; besides perceive, plan, act and ' +
  'settle it holds the site\'s lock and reset (`require_reset`), opening the start page with its settle, scoring ' +
  '(evaluators that open pages, the final screenshot) and the rest (trace and evidence files, grounding, the ' +
  'view text).', '');
md.push('| settle | ground | mode | ms per step (wall) | perceive | plan | act | settle | site lock + reset | start page | scoring | rest |');
md.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of out.runs) {
  const p = r.per_step;
  md.push(`| ${r.settle} | ${r.ground} | ${r.mode} | ${p.wall} | ${p.perceive} | ${p.plan} | ${p.act} | ${p.settle} | ` +
    `${p.site} | ${p.start} | ${p.score} | ${p.rest} |`);
}
md.push('', 'Reading the second table: "ms per step" (wall / steps, as the suites report it and as issue 30 measured ' +
  'it on DokuWiki) is not perceive + act + settle. Per task it also pays the site\'s lock and reset (`scripts/wiki reset` ' +
  'copies data/ for the editing tasks), the start page (loaded twice per task before f66456d: once to clear the ' +
  'origin\'s storage from the page, once more to start clean; it is now cleared through CDP before one load) and scoring ' +
  '(the editing tasks\' evaluators open export pages); on the model path also the plan, the model\'s round trip, which ' +
  'the issue\'s sum left out. Most DokuWiki tasks are one action and a stop, so each per-task cost weighs half a step. ' +
  'DokuWiki\'s act holds the page load a link or a form submission causes (the driver waits for the new document).');
const mcpFile = join(outDir, 'step_latency_mcp.json');
if (existsSync(mcpFile)) {
  out.mcp = JSON.parse(readFileSync(mcpFile, 'utf8'));
  md.push('', `Through MCP, side by side (eous at commit ${out.mcp.commit || out.commit}): \`eous mcp\` and Playwright MCP ${out.mcp.playwright_mcp}, the three servers side by side (action i on each in turn), ` +
    `the same MCP SDK client, ${out.mcp.actions_per_ground} actions per ground (\`benchmarks/perf/step_latency_mcp.mjs\`): ` +
    'DokuWiki clicks a link of the start page and goes back, in turn; the Playground types into the users search ' +
    '(eous hybrid: the component\'s setValue; eous atomic and Playwright: typing into the textbox). ' +
    'ms per action with the page seen after it: eous answers with its view, Playwright MCP links its snapshot to a ' +
    'file, so its side is the action plus `browser_snapshot`.', '');
  md.push('| ground | eous (hybrid) median / p95 | eous --mode atomic median / p95 | Playwright MCP median / p95 | eous / Playwright (median) | eous atomic / Playwright |');
  md.push('|---|---|---|---|---|---|');
  for (const g of [...new Set(out.mcp.runs.map((r) => r.ground))]) {
    const e = out.mcp.runs.find((r) => r.ground === g && r.server === 'eous') || {};
    const p = out.mcp.runs.find((r) => r.ground === g && r.server === 'playwright') || {};
    const cell = (r) => (r.error ? `failed: ${r.error.replace(/\|/g, '/').slice(0, 120)}` : `${r.median} / ${r.p95} (n=${r.actions})`);
    const ea = out.mcp.runs.find((r) => r.ground === g && r.server === 'eous-atomic') || {};
    const ratio = (x) => (x.median && p.median ? (x.median / p.median).toFixed(2) : '–');
    md.push(`| ${g} | ${cell(e)} | ${cell(ea)} | ${cell(p)} | ${ratio(e)} | ${ratio(ea)} |`);
  }
}
md.push('');
writeFileSync(join(resultsDir, 'step_latency.json'), JSON.stringify(out, null, 2) + '\n');
writeFileSync(join(resultsDir, 'step_latency.md'), md.join('\n') + '\n');
console.log(md.join('\n'));
