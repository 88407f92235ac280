// benchmarks/grounds/tasks/mediawiki/generate.mjs — writes NNN.json, the MediaWiki suite (the third real
// application: Debian 12's `mediawiki` 1.39, skin Vector, served by scripts/mediawiki).  Its forms
// are OOUI widgets (MediaWiki's own ARIA widget library: the preferences' dropdowns and
// checkboxes, the login and account forms) and its search box loads a suggestion script when
// focused.  Every answer is text the seed pages (seed/*.txt) show; every plan uses only names the
// views print.  `atomic_script` (atomic and pruned) types into fields and clicks; `script`
// (hybrid) is grounded in the native provider's view: a form is one line, [cN] form 'label' with
// its fields by name on fill()/submit().  State is read back through MediaWiki's API (api.php,
// format=json) in the run's browser, so a preference is read for the user the run logged in as.
// usage: node benchmarks/grounds/tasks/mediawiki/generate.mjs
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fill, programHtml, stringMatch, urlMatch, writeTasks } from '../lib/wiki_tasks.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const W = '__MEDIAWIKI__';
const page = (title, extra = '') => `${W}/index.php?title=${title.replace(/ /g, '_')}${extra}`;
const api = (query) => `${W}/api.php?${query}&format=json&formatversion=2`;
// a locator starts with `document.` (WebArena's rule): `document.body &&` before the parse keeps it so
const JSON_BODY = 'JSON.parse(document.body.innerText)';
const read = (expr) => `document.body && (${expr})`;
const USER = 'Mira';

const login = () => [
  { click: "link 'Log in'" },
  { type: "textbox 'Username'", text: USER },
  { type: "textbox 'Password'", text: '{{secret:MW_PASSWORD}}', enter: true },
];
// hybrid: the login form is one line, its fields by the names fill()/submit() print
const loginForm = () => [
  { click: "link 'Log in'" },
  { call: "form 'Log in'", tool: 'submit', params: { Username: USER, Password: '{{secret:MW_PASSWORD}}' } },
];
// the user's stored preference NAME, read through the API as the logged-in user
// a script step: waits for the suggestion list the search box shows under the typed text
const suggestion = (title) => ({ wait: { target: `link '${title}'`, timeout_ms: 8000 } });
const optionOf = (name) => `String(${JSON_BODY}.query.userinfo.options.${name})`;
const OPTIONS = api('action=query&meta=userinfo&uiprop=options');

const templates = [
  {
    id: 1, kind: 'info',
    intent: 'How much funding does project {{project}} have?',
    cases: [{ d: { project: 'Aurora' }, answer: '48,000 EUR' }],
    make: (c) => ({
      start: page('Main Page'),
      eval: stringMatch({ must_include: [c.answer] }),
      plan: [{ click: `link 'Project ${c.d.project}'` }, { stop: c.answer }],
    }),
  },
  {
    id: 2, kind: 'nav',
    intent: 'Show the revision history of the page about project {{project}}.',
    cases: [{ d: { project: 'Borealis' } }],
    make: (c) => ({
      start: page('Main Page'),
      eval: urlMatch(page(`Project ${c.d.project}`, '&action=history')),
      plan: [{ click: `link 'Project ${c.d.project}'` }, { click: "link 'View history'" }, { stop: '' }],
    }),
  },
  {
    id: 3, kind: 'info',
    intent: "Search the wiki for '{{term}}' and give the title of the page that mentions it.",
    cases: [{ d: { term: 'Niskin' }, answer: 'Water sampling procedure' }],
    make: (c) => ({
      start: page('Main Page'),
      eval: stringMatch({ must_include: [c.answer] }),
      plan: [{ type: "searchbox 'Search Field Station Wiki'", text: c.d.term, enter: true }, { stop: c.answer }],
      // the search form's submit(): focusing its field loads the suggestion script, which rewrites the form
      hybrid: [{ call: "form 'Search the pages for this text'", tool: 'submit',
        params: { 'Search Field Station Wiki': c.d.term } }, { stop: c.answer }],
    }),
  },
  {
    id: 4, kind: 'nav',
    intent: "Type '{{prefix}}' into the search box and open the page its suggestions offer.",
    cases: [{ d: { prefix: 'Project Bor' }, title: 'Project Borealis' }],
    make: (c) => ({
      // a page that does not link to it: the title is reached through the suggestions only
      start: page('Water sampling procedure'),
      eval: urlMatch(page(c.title)),
      // the suggestions come from key events (the search box has no ARIA of its own, it is type=search):
      // typing, the suggestion's link once the API has answered, then that link
      plan: [{ type: "searchbox 'Search Field Station Wiki'", text: c.d.prefix }, suggestion(c.title),
        { click: `link '${c.title}'` }, { stop: '' }],
      hybrid: [{ call: "form 'Search the pages for this text'", tool: 'fill',
        params: { 'Search Field Station Wiki': c.d.prefix } }, suggestion(c.title), { click: `link '${c.title}'` },
        { stop: '' }],
    }),
  },
  {
    id: 5, kind: 'state',
    intent: 'Log in to the wiki as {{user}} (the password is the stored secret MW_PASSWORD).',
    cases: [{ d: { user: USER } }],
    make: () => ({
      start: page('Main Page'),
      eval: programHtml([{ url: api('action=query&meta=userinfo'), locator: read(`${JSON_BODY}.query.userinfo.name`),
        required_contents: { exact_match: USER } }]),
      plan: [...login(), { stop: '' }],
      hybrid: [...loginForm(), { stop: '' }],
    }),
  },
  {
    id: 6, kind: 'state',
    intent: "Log in as {{user}} and add the line '{{line}}' at the end of the page '{{title}}', " +
      "with the edit summary '{{summary}}'.",
    cases: [{ d: { user: USER, line: 'Lens cover replaced on 2025-06-20.', title: 'Project Cirrus',
      summary: 'lens cover' } }],
    make: (c) => {
      const rev = api(`action=query&prop=revisions&titles=${c.d.title.replace(/ /g, '_')}` +
        '&rvprop=content|comment&rvslots=main');
      const latest = `${JSON_BODY}.query.pages[0].revisions[0]`;
      return {
        start: page('Main Page'),
        require_reset: true,
        eval: programHtml([
          { url: rev, locator: read(`${latest}.comment`), required_contents: { exact_match: c.d.summary } },
          { url: rev, locator: read(`${latest}.slots.main.content.trim().slice(-${c.d.line.length})`),
            required_contents: { exact_match: c.d.line } },
          { url: rev, locator: read(`${latest}.slots.main.content`),
            required_contents: { must_include: ['Five cameras are mounted on the station roof.', '| Lead || Jonas Weber'] } },
        ]),
        plan: [...login(), { click: `link '${c.d.title}'` }, { click: "link 'Edit'" },
          { type: "textbox 'Wikitext source editor'", text: `\n${c.d.line}`, clear: false },
          { type: "textbox 'Summary:'", text: c.d.summary }, { click: "button 'Save changes'" }, { stop: '' }],
        // the line typed at the end of the source (the view folds the editor's lines, so the whole source
        // is not written out), then the edit form's submit() with the summary presses Save changes
        hybrid: [...loginForm(), { click: `link '${c.d.title}'` }, { click: "link 'Edit'" },
          { type: "textbox 'Wikitext source editor'", text: `\n${c.d.line}`, clear: false },
          { call: "form 'Save your changes [alt-shift-s]'", tool: 'submit', params: { Summary: c.d.summary } },
          { stop: '' }],
      };
    },
  },
  {
    id: 7, kind: 'state',
    intent: 'Log in as {{user}} and, in your preferences, set the edit area font style to {{font}}.',
    cases: [{ d: { user: USER, font: 'Serif font' }, value: 'serif', shown: 'Monospaced font' }],
    make: (c) => ({
      start: page('Main Page'),
      require_reset: true,
      eval: programHtml([{ url: OPTIONS, locator: read(optionOf('editfont')), required_contents: { exact_match: c.value } }]),
      // Editing tab: an OOUI DropdownInputWidget (a span showing its choice, a listbox of options)
      plan: [...login(), { click: "link 'Preferences'" }, { click: "tab 'Editing'" },
        { click: `combobox 'Edit area font style: ${c.shown}'` }, { click: `option '${c.d.font}'` },
        { click: "button 'Save'" }, { stop: '' }],
      hybrid: [...loginForm(), { click: "link 'Preferences'" }, { call: 'tabs', tool: 'select', params: { tab: 'Editing' } },
        { call: 'Edit area font style', tool: 'select', params: { option: c.d.font } },
        { click: "button 'Save'" }, { stop: '' }],
    }),
  },
  {
    id: 8, kind: 'state',
    intent: "Log in as {{user}} and, in your preferences, turn on '{{option}}'.",
    cases: [{ d: { user: USER, option: 'Prompt me when entering a blank edit summary (or the default undo summary)' }, name: 'forceeditsummary' }],
    make: (c) => ({
      start: page('Main Page'),
      require_reset: true,
      eval: programHtml([{ url: OPTIONS, locator: read(`['1', 'true'].includes(${optionOf(c.name)}) ? 'on' : 'off'`),
        required_contents: { exact_match: 'on' } }]),
      // Editing tab: an OOUI CheckboxInputWidget
      plan: [...login(), { click: "link 'Preferences'" }, { click: "tab 'Editing'" },
        { click: `checkbox '${c.d.option}'` }, { click: "button 'Save'" }, { stop: '' }],
      // the preferences form keeps its first tab's label; its fill() names every checkbox of the tab shown
      hybrid: [...loginForm(), { click: "link 'Preferences'" }, { call: 'tabs', tool: 'select', params: { tab: 'Editing' } },
        { call: "form 'User profile'", tool: 'submit', params: { [c.d.option]: true } }, { stop: '' }],
    }),
  },
  {
    id: 9, kind: 'state',
    intent: "Create an account named '{{name}}' whose password is the stored secret MW_NEW_PASSWORD.",
    cases: [{ d: { name: 'Field Tech' } }],
    make: (c) => ({
      start: page('Main Page'),
      require_reset: true,
      eval: programHtml([{ url: api(`action=query&list=users&ususers=${c.d.name.replace(/ /g, '_')}`),
        locator: read(`${JSON_BODY}.query.users[0].missing ? 'missing' : 'exists'`),
        required_contents: { exact_match: 'exists' } }]),
      plan: [{ click: "link 'Create account'" }, { type: "textbox 'Username'", text: c.d.name },
        { type: "textbox 'Password'", text: '{{secret:MW_NEW_PASSWORD}}' },
        { type: "textbox 'Confirm password'", text: '{{secret:MW_NEW_PASSWORD}}' },
        { click: "button 'Create your account'" }, { stop: '' }],
      hybrid: [{ click: "link 'Create account'" }, { call: "form 'Create your account'", tool: 'submit',
        params: { Username: c.d.name, Password: '{{secret:MW_NEW_PASSWORD}}',
          'Confirm password': '{{secret:MW_NEW_PASSWORD}}' } }, { stop: '' }],
    }),
  },
];

function seedSource(title) {
  return readFileSync(join(here, 'seed', `${title.replace(/ /g, '_')}.txt`), 'utf8').trimEnd();
}

console.log(`wrote ${writeTasks(here, templates, 'mediawiki')} tasks to ${here}`);
