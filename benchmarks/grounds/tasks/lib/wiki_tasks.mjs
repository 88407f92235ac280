// benchmarks/grounds/tasks/lib/wiki_tasks.mjs — what the wiki grounds' task generators (dokuwiki/, mediawiki/)
// share: WebArena's evaluator blocks and the writing of each template's cases as WebArena configs
// (NNN.json in the generator's folder, the old ones removed first).
import { readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const fill = (tpl, dict) => tpl.replace(/\{\{(\w+)\}\}/g, (_, k) => String(dict[k]));

// the key order WebArena's own configs use
export const stringMatch = (ref) => ({ eval_types: ['string_match'], reference_answers: ref, reference_url: '',
  program_html: [], string_note: '', reference_answer_raw_annotation: '' });
export const urlMatch = (url) => ({ eval_types: ['url_match'], reference_answers: null, reference_url: url,
  url_note: 'GOLD in PRED', program_html: [], string_note: '', reference_answer_raw_annotation: '' });
export const programHtml = (targets) => ({ eval_types: ['program_html'], reference_answers: null, reference_url: '',
  program_html: targets, string_note: '', reference_answer_raw_annotation: '' });

// Each template's cases as one config each, numbered from 0 in order; site names the ground
// (its sites entry and screen).  Returns how many were written.
export function writeTasks(dir, templates, site) {
  for (const f of readdirSync(dir)) if (/^\d{3}\.json$/.test(f)) unlinkSync(join(dir, f));
  let taskId = 0;
  for (const t of templates) {
    for (const c of t.cases) {
      const m = t.make(c);
      const steps = m.plan.length;
      const task = {
        sites: [site],
        task_id: taskId,
        require_login: false,
        storage_state: null,
        start_url: m.start,
        geolocation: null,
        intent_template: t.intent,
        instantiation_dict: c.d,
        intent: fill(t.intent, c.d),
        require_reset: Boolean(m.require_reset),
        eval: m.eval,
        intent_template_id: t.id,
        tier: steps <= 5 ? 'short' : steps <= 10 ? 'medium' : 'long',
        screen: site,
        atomic_steps: steps,
        kind: t.kind,
        script: m.hybrid ?? m.plan,
        atomic_script: m.plan,
      };
      writeFileSync(join(dir, `${String(taskId).padStart(3, '0')}.json`), JSON.stringify(task, null, 2) + '\n');
      taskId++;
    }
  }
  return taskId;
}
