// benchmarks/grounds/tasks/dokuwiki/generate.mjs — writes NNN.json, the DokuWiki suite.
// Every answer is text the seed pages (seed/pages) show; every plan uses only
// element names the atomic/pruned views print on this DokuWiki (Debian
// 0.0.20220731.a-2, template "dokuwiki").  `atomic_script` (atomic and pruned)
// types into the fields and clicks the buttons; `script` (hybrid) is grounded
// in the native provider's view: a form is one line, [cN] form 'label' with its
// fields by name on fill()/submit(), so a whole form is one submit({field:
// value}) call (a textarea keeps its line over its text, so typing into it in
// parts stays possible).
// usage: node benchmarks/grounds/tasks/dokuwiki/generate.mjs
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fill, programHtml, stringMatch, urlMatch, writeTasks } from '../lib/wiki_tasks.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const W = '__DOKUWIKI__';
const page = (id, extra = '') => `${W}/doku.php?id=${id}${extra}`;
// the page rendered without the template (do=export_raw is sent as a download)
const TEXT = 'document.body.textContent';
const USER = 'mira';

const login = () => [
  { click: "link 'Log In'" },
  { type: "textbox 'Username'", text: USER },
  { type: "textbox 'Password'", text: '{{secret:WIKI_PASSWORD}}', enter: true },
];
// hybrid: the login form is one line (its fields by the names fill()/submit() print)
const loginForm = () => [
  { click: "link 'Log In'" },
  { call: "form 'Log In'", tool: 'submit', params: { Username: USER, Password: '{{secret:WIKI_PASSWORD}}' } },
];
// hybrid: the editor form's submit() presses Save; its textarea is the field fill() names wikitext
const EDIT_FORM = "form 'Save'";
const saveWith = (text) => ({ call: EDIT_FORM, tool: 'submit', params: { wikitext: text } });
// the value cell of a `| Field | Value |` row of the rendered page
const rowValue = (field) =>
  `[...document.querySelectorAll('tr')].filter(r => r.cells[0]?.textContent.trim() === '${field}')` +
  `.map(r => r.cells[1].textContent.trim()).join(';')`;

const templates = [
  {
    id: 1, kind: 'info',
    intent: 'What is the budget of project {{project}}?',
    cases: [
      { d: { project: 'Aurora' }, answer: '48,000 EUR' },
      { d: { project: 'Borealis' }, answer: '72,500 EUR' },
      { d: { project: 'Cirrus' }, answer: '31,200 EUR' },
    ],
    make: (c) => ({
      start: page('start'),
      eval: stringMatch({ must_include: [c.answer] }),
      plan: [{ click: `link '${c.d.project}'` }, { stop: c.answer }],
    }),
  },
  {
    id: 2, kind: 'info',
    intent: 'Who leads project {{project}}?',
    cases: [
      { d: { project: 'Aurora' }, answer: 'Tomas Lindqvist' },
      { d: { project: 'Cirrus' }, answer: 'Jonas Weber' },
    ],
    make: (c) => ({
      start: page('start'),
      eval: stringMatch({ exact_match: c.answer }),
      plan: [{ click: `link '${c.d.project}'` }, { stop: c.answer }],
    }),
  },
  {
    id: 3, kind: 'info',
    intent: 'In which office does {{person}} work?',
    cases: [
      { d: { person: 'Priya Raman' }, answer: 'B-117' },
      { d: { person: 'Elin Haugen' }, answer: 'Workshop' },
    ],
    make: (c) => ({
      start: page('start'),
      eval: stringMatch({ exact_match: c.answer }),
      plan: [{ click: "link 'Team members'" }, { stop: c.answer }],
    }),
  },
  {
    id: 4, kind: 'info',
    intent: "Search the wiki for '{{term}}' and give the name of the page that mentions it.",
    cases: [
      { d: { term: 'Niskin' }, answer: 'sampling' },
      { d: { term: 'WireGuard' }, answer: 'vpn' },
    ],
    make: (c) => ({
      start: page('start'),
      eval: stringMatch({ must_include: [c.answer] }),
      plan: [{ type: "textbox '[F]'", text: c.d.term, enter: true }, { stop: c.answer }],
      hybrid: [{ call: "form 'Search'", tool: 'submit', params: { '[F]': c.d.term } }, { stop: c.answer }],
    }),
  },
  {
    id: 5, kind: 'nav',
    intent: "Open the how-to guide '{{title}}'.",
    cases: [
      { d: { title: 'Connecting to the station VPN' }, id: 'howto:vpn' },
      { d: { title: 'Water sampling procedure' }, id: 'howto:sampling' },
    ],
    make: (c) => ({
      start: page('start'),
      eval: urlMatch(page(c.id)),
      plan: [{ click: `link '${c.d.title}'` }, { stop: '' }],
    }),
  },
  {
    id: 6, kind: 'nav',
    intent: 'Show the old revisions of the page about project {{project}}.',
    cases: [
      { d: { project: 'Borealis' }, id: 'projects:borealis' },
      { d: { project: 'Aurora' }, id: 'projects:aurora' },
    ],
    make: (c) => ({
      start: page('start'),
      eval: urlMatch(page(c.id, '&do=revisions')),
      plan: [{ click: `link '${c.d.project}'` }, { click: "link 'Old revisions [o]'" }, { stop: '' }],
    }),
  },
  {
    id: 7, kind: 'state',
    intent: 'Log in to the wiki as {{user}} (the password is the stored secret WIKI_PASSWORD).',
    cases: [{ d: { user: USER } }],
    make: () => ({
      start: page('start'),
      eval: programHtml([{ url: 'last', locator: "document.querySelector('#dokuwiki__usertools li.user')?.textContent ?? ''",
        required_contents: { must_include: ['Mira Okafor', `(${USER})`] } }]),
      plan: [...login(), { stop: '' }],
      hybrid: [...loginForm(), { stop: '' }],
    }),
  },
  {
    id: 8, kind: 'state',
    intent: "Log in as {{user}} and add the line '{{line}}' at the end of the page '{{title}}'.",
    cases: [
      { d: { user: USER, line: 'Lens cover replaced on 2025-06-20.', title: 'Project Cirrus' }, id: 'projects:cirrus',
        link: 'Cirrus', keep: 'Five cameras' },
      { d: { user: USER, line: 'Action: Elin checks the batteries of buoy B2.', title: 'Meeting 2025-06-02' },
        id: 'meetings:2025-06-02', link: 'Meeting 2025-06-02', keep: 'Present: Tomas Lindqvist' },
      { d: { user: USER, line: 'Peer files expire after one year.', title: 'Connecting to the station VPN' },
        id: 'howto:vpn', link: 'Connecting to the station VPN', keep: 'Install the WireGuard client.' },
    ],
    make: (c) => ({
      start: page('start'),
      require_reset: true,
      eval: programHtml([{ url: page(c.id, '&do=export_xhtml'), locator: TEXT,
        required_contents: { must_include: [c.keep, c.d.line] } },
      { url: page(c.id, '&do=export_xhtml'), locator: `${TEXT}.trim().slice(-${c.d.line.length})`,
        required_contents: { exact_match: c.d.line } }]),
      plan: [...login(), { click: `link '${c.link}'` }, { click: "link 'Edit this page [e]'" },
        { type: "textbox ''", text: `\n${c.d.line}`, clear: false }, { click: "button 'Save'" }, { stop: '' }],
      // the page's text (its lines shown beneath the textarea) and the new line, saved in one call
      hybrid: [...loginForm(), { click: `link '${c.link}'` }, { click: "link 'Edit this page [e]'" },
        saveWith(`${seedSource(c.id)}\n\n${c.d.line}`), { stop: '' }],
    }),
  },
  {
    id: 9, kind: 'state',
    intent: "The page {{id}} does not exist yet. Log in as {{user}} and create it with the text '{{text}}'.",
    cases: [
      { d: { id: 'projects:delta', user: USER, text: 'Project Delta studies wave heights on Lake Varna.' } },
      { d: { id: 'howto:boat', user: USER, text: 'Always wear a life jacket on the station boat.' } },
      { d: { id: 'meetings:2025-06-30', user: USER, text: 'Agenda: buoy batteries, camera lens, sampling week.' } },
    ],
    make: (c) => ({
      start: page(c.d.id),
      require_reset: true,
      eval: programHtml([{ url: page(c.d.id, '&do=export_xhtml'), locator: `${TEXT}.trim()`,
        required_contents: { exact_match: c.d.text } }]),
      plan: [...login(), { click: "link 'Create this page [e]'" }, { type: "textbox ''", text: c.d.text },
        { click: "button 'Save'" }, { stop: '' }],
      hybrid: [...loginForm(), { click: "link 'Create this page [e]'" }, saveWith(c.d.text), { stop: '' }],
    }),
  },
  {
    id: 10, kind: 'state',
    intent: 'Log in as {{user}} and change the status of project {{project}} to {{status}}.',
    cases: [
      { d: { user: USER, project: 'Borealis', status: 'active' }, id: 'projects:borealis', from: 'paused',
        lead: 'Priya Raman' },
      { d: { user: USER, project: 'Cirrus', status: 'paused' }, id: 'projects:cirrus', from: 'active',
        lead: 'Jonas Weber' },
    ],
    make: (c) => ({
      start: page('start'),
      require_reset: true,
      eval: programHtml([
        { url: page(c.id, '&do=export_xhtml'), locator: rowValue('Status'), required_contents: { exact_match: c.d.status } },
        { url: page(c.id, '&do=export_xhtml'), locator: rowValue('Lead'), required_contents: { exact_match: c.lead } },
      ]),
      // the editor shows the page source one line per node; the plan retypes it in three parts, each read
      // from the view or the intent: the source up to the Status cell, the new status, the rest of the source
      plan: [...login(), { click: `link '${c.d.project}'` }, { click: "link 'Edit this page [e]'" },
        ...retypeCell(seedSource(c.id), new RegExp(`(\\| Status +\\| )${c.from}( *)`), c.from, c.d.status),
        { click: "button 'Save'" }, { stop: '' }],
      // the editor's own replace(find, with): the old status, read in the view, for the new (d7b964f)
      hybrid: [...loginForm(), { click: `link '${c.d.project}'` }, { click: "link 'Edit this page [e]'" },
        { call: "textbox ''", tool: 'replace', params: { find: c.from, with: c.d.status } },
        { call: EDIT_FORM, tool: 'submit' }, { stop: '' }],
    }),
  },
  {
    id: 11, kind: 'info',
    intent: 'According to the notes of the meeting on {{date}}, when is the next meeting?',
    cases: [{ d: { date: '2025-06-02' }, answer: '2025-06-30' }],
    make: (c) => ({
      start: page('start'),
      eval: stringMatch({ must_include: [c.answer] }),
      plan: [{ click: `link 'Meeting ${c.d.date}'` }, { stop: c.answer }],
    }),
  },
  {
    id: 12, kind: 'info',
    intent: 'What is the phone extension of the {{role}}?',
    cases: [{ d: { role: 'Station technician' }, answer: '2290' }],
    make: (c) => ({
      start: page('start'),
      eval: stringMatch({ exact_match: c.answer }),
      plan: [{ click: "link 'Team members'" }, { stop: c.answer }],
    }),
  },
];

// typed steps that replace the text `from` matched by re (groups: what precedes it, the padding after it)
// with `to`, keeping the column aligned
function retypeCell(source, re, from, to) {
  const m = source.match(re);
  if (!m) throw new Error(`no ${re} in the source`);
  const at = m.index + m[1].length;
  const pad = ' '.repeat(Math.max(1, m[2].length + from.length - to.length));
  return [
    { type: "textbox ''", text: source.slice(0, at) },
    { type: "textbox ''", text: to, clear: false },
    { type: "textbox ''", text: pad + source.slice(at + from.length + m[2].length), clear: false },
  ];
}

function seedSource(id) {
  return readFileSync(join(here, 'seed', 'pages', ...id.split(':')) + '.txt', 'utf8').trimEnd();
}

console.log(`wrote ${writeTasks(here, templates, 'dokuwiki')} tasks to ${here}`);
