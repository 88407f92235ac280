#!/usr/bin/env node
// Generates benchmarks/grounds/tasks/playground/NNN.json from the Playground's seed data
// (benchmarks/grounds/playground/src/data.js), so every answer is computed, not typed.
// usage: node benchmarks/grounds/tasks/generate.mjs
import { writeFileSync, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  USERS, ORDERS, ROOM_TYPES, DESTINATIONS, BLACKOUT_DATES, MAX_GUESTS, MAX_NIGHTS, bookingTotal, diffDays,
  departmentTitle, DEPARTMENT_LEAVES, MEMBER_OPTIONS, DEFAULT_SETTINGS, POSITIONS, dayOfWeek,
} from '../playground/src/data.js';

const here = dirname(fileURLToPath(import.meta.url));
const OUT = join(here, 'playground');
const P = '__PLAYGROUND__';
const STATE = 'document.defaultView.__playground__.state()';

// ---------- step builders ----------
const call = (target, tool, params = {}) => ({ call: target, tool, params });
const click = (t) => ({ click: t });
const type = (t, text, enter = false) => ({ type: t, text, enter });
const select = (t, option) => ({ select: t, option });
const press = (k) => ({ press: k });
// a computed answer says how it was computed from what the page showed
const stop = (a, from) => (from ? { stop: a, from } : { stop: a });
const COUNT_ROWS = 'count of rows shown after the filter';
const PLACEHOLDER = 'placeholder'; // filler text the task does not score
const goto = (p) => ({ goto: P + p });
const MENU = { home: 'Home', booking: 'Travel booking', users: 'Users', settings: 'Project settings', orders: 'Orders', apply: 'Job application' };
const menu = (k) => click(`menuitem '${MENU[k]}'`);
const months = (fromYm, toYm) => (+toYm.slice(0, 4) - +fromYm.slice(0, 4)) * 12 + (+toYm.slice(5, 7) - +fromYm.slice(5, 7));
function monthMoves(fromYm, iso, panels = 1) {
  const n = months(fromYm, iso.slice(0, 7));
  if (n >= 0 && n < panels) return [];
  if (n >= panels) return Array(n - panels + 1).fill(click("button 'Next month'"));
  return Array(-n).fill(click("button 'Previous month'"));
}
// antd's DatePicker takes a typed YYYY-MM-DD (Enter confirms it), as a person or a model would enter it;
// the calendar (monthMoves, then "cell 'D'" as the views print a day) is only walked where the task is about what it shows
const pickDate = (input, _viewYm, iso) => [type(input, iso, true)];

// ---------- task assembly ----------
const tasks = [];
const templateIds = new Map(); // intent_template -> intent_template_id, in order of first use
const render = (tpl, dict) => tpl.replace(/\{\{(\w+)\}\}/g, (_, k) => { if (!(k in dict)) throw new Error(`template ${tpl}: no value for ${k}`); return String(dict[k]); });
function tier(n) { return n <= 5 ? 'short' : n <= 10 ? 'medium' : 'long'; }
function add(t) {
  const id = tasks.length;
  const ev = { eval_types: [], reference_answers: null, reference_url: '', program_html: [], string_note: '', reference_answer_raw_annotation: '' };
  if (t.answer !== undefined) {
    ev.eval_types.push('string_match');
    ev.reference_answers = t.answer;
    ev.reference_answer_raw_annotation = t.raw ?? (t.answer.exact_match ?? (t.answer.must_include || []).join(', ') ?? '');
    if (t.note) ev.string_note = t.note;
  }
  if (t.url) { ev.eval_types.push('url_match'); ev.reference_url = t.url; ev.url_note = 'GOLD in PRED'; }
  if (t.program) { ev.eval_types.push('program_html'); ev.program_html = t.program; }
  // antd checkbox/radio labels: Chromium's accessible name ends in a space and a no-break space
  t.atomic = t.atomic.map((st) => {
    if (!st.click) return st;
    const m = st.click.match(/^(checkbox|radio) '(.*)'$/);
    if (m && !/^Select /.test(m[2]) && !m[2].endsWith(' \u00a0')) return { click: `${m[1]} '${m[2]} \u00a0'` };
    return st;
  });
  const atomicSteps = t.atomic.length;
  const template = t.template || t.intent;
  if (t.template && render(t.template, t.dict || {}) !== t.intent) throw new Error(`task ${id}: intent is not its template rendered: ${t.intent}`);
  if (!templateIds.has(template)) templateIds.set(template, templateIds.size);
  tasks.push({
    sites: ['playground'], task_id: id, require_login: false, storage_state: null,
    start_url: `${P}${t.start}`, geolocation: null,
    intent_template: template, instantiation_dict: t.dict || {}, intent: t.intent,
    require_reset: true, eval: ev, intent_template_id: templateIds.get(template),
    tier: tier(atomicSteps), screen: t.screen, atomic_steps: atomicSteps, kind: t.kind,
    script: t.script, atomic_script: t.atomic,
  });
}
const T = (template, dict, rest) => ({ template, dict, intent: render(template, dict), ...rest });
const prog = (locator, exact) => [{ url: 'last', locator, required_contents: { exact_match: String(exact) } }];
const progIncl = (locator, list) => [{ url: 'last', locator, required_contents: { must_include: list } }];

// =====================================================================================
// BOOKING
const roomLabel = (v) => ROOM_TYPES.find((r) => r.value === v).label;
const bookingKey = `${STATE}.bookings.map(b => [b.guestName, b.destination.join('/'), b.checkin, b.checkout, b.guests, b.roomType, b.arrival, b.breakfast].join('|')).join(';')`;
const bkStr = (b) => [b.name, `${b.country}/${b.city}`, b.checkin, b.checkout, b.guests, b.room, b.arrival ?? '', !!b.breakfast].join('|');
function bookingSteps(b, { first = true } = {}) {
  const script = [
    call('Guest name', 'setValue', { text: b.name }),
    call('Destination', 'setValue', { path: [b.country, b.city] }),
    call('Check-in', 'setValue', { date: b.checkin }),
    call('Check-out', 'setValue', { date: b.checkout }),
  ];
  const atomic = [
    type("textbox '* Guest name'", b.name),
    click("combobox '* Destination'"), click(`menuitemcheckbox '${b.country} right'`), click(`menuitemcheckbox '${b.city}'`),
    ...pickDate("textbox '* Check-in'", '2025-06', b.checkin),
    // the longest stay: the check-out calendar's last day that can be clicked (its cells print as "cell 'D'")
    ...(b.lastDay ? [click("textbox '* Check-out'"), click(`cell '${+b.checkout.slice(8)}'`)] : pickDate("textbox '* Check-out'", b.checkin.slice(0, 7), b.checkout)),
  ];
  if (b.guests !== 2) { script.push(call('Guests', 'setValue', { value: b.guests })); atomic.push(type("spinbutton '* Guests'", String(b.guests))); }
  script.push(call('Room type', 'setValue', { value: b.room }));
  atomic.push(select("combobox '* Room type'", roomLabel(b.room)));
  if (b.arrival) { script.push(call('Arrival time', 'setValue', { time: b.arrival })); atomic.push(type("textbox 'Arrival time'", b.arrival, true)); }
  if (b.breakfast) { script.push(call('Breakfast included', 'check')); atomic.push(click("checkbox 'Extras Breakfast included'")); }
  script.push(call('Book', 'click'));
  atomic.push(click("button 'Book'"));
  return { script, atomic };
}
const BOOKINGS = [
  { name: 'Ada Lovelace', country: 'France', city: 'Paris', checkin: '2025-06-20', checkout: '2025-06-23', guests: 2, room: 'deluxe' },
  { name: 'Alan Turing', country: 'Italy', city: 'Venice', checkin: '2025-07-10', checkout: '2025-07-14', guests: 3, room: 'family', breakfast: true },
  { name: 'Grace Hopper', country: 'Japan', city: 'Kyoto', checkin: '2025-09-02', checkout: '2025-09-09', guests: 1, room: 'studio', arrival: '18:30' },
  { name: 'Edsger Dijkstra', country: 'Netherlands', city: 'Utrecht', checkin: '2025-06-28', checkout: '2025-07-02', guests: 2, room: 'superior', arrival: '09:15' },
  { name: 'Barbara Liskov', country: 'Portugal', city: 'Porto', checkin: '2025-08-14', checkout: '2025-08-17', guests: 4, room: 'junior-suite', breakfast: true },
  { name: 'Ken Thompson', country: 'Canada', city: 'Vancouver', checkin: '2025-11-03', checkout: '2025-11-10', guests: 2, room: 'suite', arrival: '22:00', breakfast: true },
  { name: 'Radia Perlman', country: 'Spain', city: 'Seville', checkin: '2025-06-16', checkout: '2025-06-30', guests: 5, room: 'penthouse' },
];
for (const b of BOOKINGS) {
  const { script, atomic } = bookingSteps(b);
  const extras = [b.arrival ? `arriving at ${b.arrival}` : null, b.breakfast ? 'with breakfast' : null].filter(Boolean).join(', ');
  add({
    screen: 'booking', kind: 'state', start: '/booking',
    template: 'Book a {{room}} room in {{city}}, {{country}} for {{name}}, {{guests}}, check-in {{checkin}}, check-out {{checkout}}{{extras}}.',
    dict: { room: roomLabel(b.room), city: b.city, country: b.country, name: b.name, guests: `${b.guests} guest${b.guests > 1 ? 's' : ''}`, checkin: b.checkin, checkout: b.checkout, extras: extras ? `, ${extras}` : '' },
    intent: `Book a ${roomLabel(b.room)} room in ${b.city}, ${b.country} for ${b.name}, ${b.guests} guest${b.guests > 1 ? 's' : ''}, check-in ${b.checkin}, check-out ${b.checkout}${extras ? ', ' + extras : ''}.`,
    script: [...script, stop('')], atomic: [...atomic, stop('')],
    program: prog(bookingKey, bkStr(b)),
  });
}
{ // two bookings in a row
  const [a, b] = [BOOKINGS[0], { ...BOOKINGS[3], name: 'Ada Lovelace' }];
  const s1 = bookingSteps(a), s2 = bookingSteps(b);
  add({
    screen: 'booking', kind: 'state', start: '/booking',
    intent: `Make two bookings for Ada Lovelace: a Deluxe room in Paris, France from 2025-06-20 to 2025-06-23 for 2 guests, then a Superior room in Utrecht, Netherlands from 2025-06-28 to 2025-07-02 for 2 guests arriving at 09:15.`,
    script: [...s1.script, ...s2.script, stop('')], atomic: [...s1.atomic, ...s2.atomic, stop('')],
    program: prog(bookingKey, `${bkStr(a)};${bkStr(b)}`),
  });
}
// estimate questions (medium)
for (const e of [
  { room: 'suite', checkin: '2025-07-10', checkout: '2025-07-13' },
  { room: 'family', checkin: '2025-06-18', checkout: '2025-06-25' },
  { room: 'standard', checkin: '2025-08-01', checkout: '2025-08-05' },
]) {
  const nights = diffDays(e.checkin, e.checkout);
  const total = bookingTotal(e.room, nights, false, 2);
  add(T('What estimated total (in EUR) does the booking form show for a {{room}} room from {{checkin}} to {{checkout}} without breakfast? Answer with the number only.',
    { room: roomLabel(e.room), checkin: e.checkin, checkout: e.checkout }, {
    screen: 'booking', kind: 'info', start: '/booking',
    script: [call('Room type', 'setValue', { value: e.room }), call('Check-in', 'setValue', { date: e.checkin }), call('Check-out', 'setValue', { date: e.checkout }), stop(String(total))],
    atomic: [select("combobox '* Room type'", roomLabel(e.room)), ...pickDate("textbox '* Check-in'", '2025-06', e.checkin), ...pickDate("textbox '* Check-out'", e.checkin.slice(0, 7), e.checkout), stop(String(total))],
    answer: { exact_match: String(total) },
  }));
}
{ // breakfast estimate (medium)
  const e = { room: 'deluxe', checkin: '2025-06-21', checkout: '2025-06-24', guests: 3 };
  const total = bookingTotal(e.room, 3, true, 3);
  add({
    screen: 'booking', kind: 'info', start: '/booking',
    intent: `For 3 guests in a Deluxe room from 2025-06-21 to 2025-06-24 with breakfast included, what estimated total in EUR does the booking form show? Answer with the number only.`,
    script: [call('Room type', 'setValue', { value: e.room }), call('Check-in', 'setValue', { date: e.checkin }), call('Check-out', 'setValue', { date: e.checkout }), call('Guests', 'setValue', { value: 3 }), call('Breakfast included', 'check'), stop(String(total))],
    atomic: [select("combobox '* Room type'", 'Deluxe'), ...pickDate("textbox '* Check-in'", '2025-06', e.checkin), ...pickDate("textbox '* Check-out'", '2025-06', e.checkout), type("spinbutton '* Guests'", '3'), click("checkbox 'Extras Breakfast included'"), stop(String(total))],
    answer: { exact_match: String(total) },
  });
}
// short booking
add({ screen: 'booking', kind: 'info', start: '/booking', intent: 'How many room types can be chosen in the booking form? Answer with a number.',
  // hybrid: the select's line lists its options whole; atomic: antd's virtual list shows two option nodes, the
  // number is read where the page shows it (see README "Grounded plans")
  script: [stop(String(ROOM_TYPES.length), "count of options listed for 'Room type'")], atomic: [click("combobox '* Room type'"), stop(String(ROOM_TYPES.length))], answer: { exact_match: String(ROOM_TYPES.length) } });
{
  const pt = DESTINATIONS.find((d) => d[0] === 'Portugal')[1];
  add({ screen: 'booking', kind: 'info', start: '/booking', intent: 'Which cities in Portugal can be chosen as a destination? List them all.',
    script: [call('Destination', 'search', { query: 'Portugal' }), stop(pt.join(', '))],
    atomic: [click("combobox '* Destination'"), click("menuitemcheckbox 'Portugal right'"), stop(pt.join(', '))], answer: { must_include: pt } });
  const jp = DESTINATIONS.find((d) => d[0] === 'Japan')[1];
  add({ screen: 'booking', kind: 'info', start: '/booking', intent: 'How many cities in Japan are offered as booking destinations? Answer with a number.',
    script: [call('Destination', 'search', { query: 'Japan' }), stop(String(jp.length), 'count of matches in the last result')],
    atomic: [click("combobox '* Destination'"), click("menuitemcheckbox 'Japan right'"), stop(String(jp.length), "count of options listed for 'Japan right'")], answer: { exact_match: String(jp.length) } });
}
add({ screen: 'booking', kind: 'nav', start: '/', intent: 'Open the travel booking page.',
  script: [call('Main navigation', 'navigateTo', { key: 'booking' }), stop('')], atomic: [menu('booking'), stop('')], url: `${P}/booking` });
add({ screen: 'booking', kind: 'info', start: '/booking', intent: 'What is the largest number of guests one booking can have? Answer with a number.',
  script: [stop(String(MAX_GUESTS))], atomic: [stop(String(MAX_GUESTS))], answer: { exact_match: String(MAX_GUESTS) } });
// unachievable booking
add({ screen: 'booking', kind: 'unachievable', start: '/booking',
  intent: 'Book a Standard room in Rome, Italy for Linus Torvalds with check-in on 2025-12-25 and check-out on 2025-12-27. If it cannot be done, answer N/A.',
  script: [call('Guest name', 'setValue', { text: 'Linus Torvalds' }), stop('N/A')],
  atomic: [click("textbox '* Check-in'"), ...monthMoves('2025-06', '2025-12-25'), stop('N/A')],
  answer: { fuzzy_match: 'N/A' }, note: '2025-12-25 is a blackout date: check-in is disabled on that day.' });
add({ screen: 'booking', kind: 'unachievable', start: '/booking',
  intent: 'Book a Family room in Berlin, Germany for 12 guests from 2025-07-01 to 2025-07-03. If it cannot be done, answer N/A.',
  script: [stop('N/A')], atomic: [stop('N/A')],
  answer: { fuzzy_match: 'N/A' }, note: `At most ${MAX_GUESTS} guests per booking.` });
{ // the longest allowed stay (replaces an unachievable variant: the suite keeps 4-6 unachievable tasks)
  const b = { name: 'Ada Lovelace', country: 'Portugal', city: 'Lisbon', checkin: '2025-07-01', checkout: '2025-07-15', guests: 2, room: 'suite',
    lastDay: true };
  const { script, atomic } = bookingSteps(b);
  add({ screen: 'booking', kind: 'state', start: '/booking',
    intent: `Book the longest stay the site allows for Ada Lovelace in a Suite in Lisbon, Portugal, for 2 guests, checking in on 2025-07-01.`,
    script: [...script, stop('')], atomic: [...atomic, stop('')], program: prog(bookingKey, bkStr(b)) });
}
// =====================================================================================
// USERS
const U = (name) => USERS.find((u) => u.name === name);
const userAt = (i) => USERS[i];
const INACTIVE = `${STATE}.users.filter(u => !u.active).length`, N_INACTIVE = USERS.filter((u) => !u.active).length;
const userField = (id, f) => `${STATE}.users.find(u => u.id === '${id}').${f}`;
const rowIndexOnPage = (i) => (i % 10) + 1;
const ROLE_TRIGGER = "button 'filter'", DEPT_TRIGGER = "button 'filter' #2", ACTIVE_TRIGGER = "button 'filter' #3";
const fmenu = (label) => click(`menuitem '\u00a0 ${label}'`); // Chromium: NBSP + space before the label
const searchUser = (name) => type("textbox 'Search users'", name);
// hybrid: find the user, then add the row the search shows to the selection
const searchSelect = (u) => [call('Search users', 'setValue', { text: u.name }), call('Users', 'selectRows', { keys: [u.id], mode: 'add' })];

for (const i of [4, 57, 133]) {
  const u = userAt(i);
  add(T('What is the email address of {{name}}?', { name: u.name }, { screen: 'users', kind: 'info', start: '/users',
    script: [call('Search users', 'setValue', { text: u.name }), stop(u.email)], atomic: [searchUser(u.name), stop(u.email)], answer: { exact_match: u.email } }));
}
for (const i of [21, 240]) {
  const u = userAt(i);
  add(T('Which role does {{name}} have?', { name: u.name }, { screen: 'users', kind: 'info', start: '/users',
    script: [call('Search users', 'setValue', { text: u.name }), stop(u.role)], atomic: [searchUser(u.name), stop(u.role)], answer: { exact_match: u.role } }));
}
add({ screen: 'users', kind: 'info', start: '/users', intent: 'How many users are active? Answer with a number.',
  script: [stop(String(USERS.filter((u) => u.active).length))], atomic: [stop(String(USERS.filter((u) => u.active).length))],
  answer: { exact_match: String(USERS.filter((u) => u.active).length) } });
{
  const first = [...USERS].sort((a, b) => a.created.localeCompare(b.created))[0];
  add({ screen: 'users', kind: 'info', start: '/users', intent: 'Which user account was created first? Give the name.',
    script: [call('Users', 'sort', { column: 'created', order: 'ascend' }), stop(first.name)], atomic: [click("columnheader 'Created'"), stop(first.name)], answer: { must_include: [first.name] } });
}
for (const i of [9, 88]) { // deactivate via edit modal (short)
  const u = USERS.filter((x) => x.active)[i];
  add(T('Deactivate the user {{name}}.', { name: u.name }, { screen: 'users', kind: 'state', start: '/users',
    script: [call('Search users', 'setValue', { text: u.name }), call('Users', 'rowAction', { key: u.id, action: 'edit' }), call('Active', 'setValue', { checked: false }), call("modal 'Edit user'", 'submit'), stop('')],
    atomic: [searchUser(u.name), click(`button 'Edit ${u.name}'`), click("switch 'Active'"), click("button 'Save'"), stop('')],
    program: prog(`${userField(u.id, 'active')} + '|' + ${INACTIVE}`, `false|${N_INACTIVE + 1}`) }));
}
{
  const u = USERS.find((x) => x.role !== 'Billing' && x.id > 'u150');
  add({ screen: 'users', kind: 'state', start: '/users', intent: `Change the role of ${u.name} to Billing.`,
    script: [call('Search users', 'setValue', { text: u.name }), call('Users', 'rowAction', { key: u.id, action: 'edit' }), call('Role', 'setValue', { value: 'Billing' }), call("modal 'Edit user'", 'submit'), stop('')],
    atomic: [searchUser(u.name), click(`button 'Edit ${u.name}'`), select("combobox '* Role'", 'Billing'), click("button 'Save'"), stop('')],
    program: prog(`${userField(u.id, 'role')} + '|' + ${STATE}.users.filter(u => u.role === 'Billing').length`, `Billing|${USERS.filter((x) => x.role === 'Billing').length + 1}`) });
}
// medium: counting with filters (the Active filter first: its values true/false show in the table's own column,
// the filter menu lists them only past its first entries)
function countUsers(role, deps, active) { return USERS.filter((u) => (!role || u.role === role) && (!deps || deps.includes(u.department)) && (active === undefined || u.active === active)); }
for (const [role, dep, active] of [['Admin', 'security', false], ['Support', 'hr', true], ['Editor', 'frontend', true]]) {
  const n = countUsers(role, [dep], active).length;
  const title = departmentTitle(dep);
  add(T('How many {{status}} users with the role {{role}} work in the {{department}} department? Answer with a number.', { status: active ? 'active' : 'inactive', role, department: title }, { screen: 'users', kind: 'info', start: '/users',
    script: [call('Users', 'filter', { column: 'active', values: [String(active)] }), call('Users', 'filter', { column: 'role', values: [role] }), call('Users', 'filter', { column: 'department', values: [dep] }), stop(String(n))],
    atomic: [click(ROLE_TRIGGER), fmenu(role), click("button 'OK'"), click(DEPT_TRIGGER), fmenu(title), click("button 'OK'"), click(ACTIVE_TRIGGER), fmenu(active ? 'Active' : 'Inactive'), click("button 'OK'"), stop(String(n), COUNT_ROWS)],
    answer: { exact_match: String(n) } }));
}
{ // medium: deactivate 3 named users through search + selection
  const us = USERS.filter((u) => u.active).slice(30, 33);
  const atomic = [];
  for (const u of us) atomic.push(searchUser(u.name), click("checkbox 'Select row 1'"));
  atomic.push(click("button 'Deactivate selected (3)'"), stop(''));
  add({ screen: 'users', kind: 'state', start: '/users', intent: `Deactivate these users in one bulk action: ${us.map((u) => u.name).join(', ')}.`,
    script: [...us.flatMap(searchSelect), call('Deactivate selected', 'click'), stop('')], atomic,
    program: prog(`${STATE}.users.filter(u => ${JSON.stringify(us.map((u) => u.id))}.includes(u.id) && !u.active).length + '/' + ${STATE}.users.filter(u => !u.active).length`, `3/${USERS.filter((u) => !u.active).length + 3}`) });
}
{ // medium: add user through drawer
  add({ screen: 'users', kind: 'state', start: '/users', intent: 'Add a new user named Hedy Lamarr, email hedy.lamarr@example.com, role Editor, in the Research department.',
    script: [call("button 'Add user'", 'click'), call('Full name', 'setValue', { text: 'Hedy Lamarr' }), call('Email address', 'setValue', { text: 'hedy.lamarr@example.com' }), call('Role', 'setValue', { value: 'Editor' }), call('Department', 'setValue', { value: 'research' }), call("drawer 'Add user'", 'submit'), stop('')],
    atomic: [click("button 'Add user'"), type("textbox '* Full name'", 'Hedy Lamarr'), type("textbox '* Email address'", 'hedy.lamarr@example.com'), select("combobox '* Role'", 'Editor'), click("combobox '* Department'"), click("treeitem 'Research'"), click("button 'Create user'"), stop('')],
    program: prog(`${STATE}.users.filter(u => u.email === 'hedy.lamarr@example.com').map(u => [u.name, u.role, u.department, u.active].join('|')).join(';')`, 'Hedy Lamarr|Editor|research|true') });
}
{ // medium: edit email + department
  const u = USERS[77];
  const dep = DEPARTMENT_LEAVES.find((d) => d.value !== u.department && d.value === 'legal') || DEPARTMENT_LEAVES[9];
  add({ screen: 'users', kind: 'state', start: '/users', intent: `Change the email of ${u.name} to ${u.name.split(' ')[0].toLowerCase()}@corp.example.com and move them to the ${dep.title} department.`,
    script: [call('Search users', 'setValue', { text: u.name }), call('Users', 'rowAction', { key: u.id, action: 'edit' }), call('Email', 'setValue', { text: `${u.name.split(' ')[0].toLowerCase()}@corp.example.com` }), call('Department', 'setValue', { value: dep.value }), call("modal 'Edit user'", 'submit'), stop('')],
    atomic: [searchUser(u.name), click(`button 'Edit ${u.name}'`), type("textbox '* Email'", `${u.name.split(' ')[0].toLowerCase()}@corp.example.com`), click("combobox '* Department'"), click(`treeitem '${dep.title}'`), click("button 'Save'"), stop('')],
    program: prog(`${userField(u.id, 'email')} + '|' + ${userField(u.id, 'department')}`, `${u.name.split(' ')[0].toLowerCase()}@corp.example.com|${dep.value}`) });
}
{ // medium: list names of a small filtered group
  const g = countUsers('Admin', ['emea'], true);
  add({ screen: 'users', kind: 'info', start: '/users', intent: 'List the names of all active Admins in the EMEA department.',
    script: [call('Users', 'filter', { column: 'active', values: ['true'] }), call('Users', 'filter', { column: 'role', values: ['Admin'] }), call('Users', 'filter', { column: 'department', values: ['emea'] }), stop(g.map((u) => u.name).join(', '))],
    atomic: [click(ROLE_TRIGGER), fmenu('Admin'), click("button 'OK'"), click(DEPT_TRIGGER), fmenu('EMEA'), click("button 'OK'"), click(ACTIVE_TRIGGER), fmenu('Active'), click("button 'OK'"), stop(g.map((u) => u.name).join(', '))],
    answer: { must_include: g.map((u) => u.name) } });
}
// long users
{ // bulk deactivate a filtered group (two departments)
  let pick = null;
  for (const role of ['Billing', 'Support', 'Viewer', 'Editor', 'Admin']) for (const a of DEPARTMENT_LEAVES) for (const b of DEPARTMENT_LEAVES) {
    if (!pick && a.value < b.value) { const g = countUsers(role, [a.value, b.value], true); if (g.length >= 5 && g.length <= 9) pick = { role, a, b, g }; }
  }
  const { role, a, b, g } = pick;
  add({ screen: 'users', kind: 'state', start: '/users', intent: `Deactivate every active ${role} user in the ${a.title} and ${b.title} departments.`,
    script: [call('Users', 'filter', { column: 'active', values: ['true'] }), call('Users', 'filter', { column: 'role', values: [role] }), call('Users', 'filter', { column: 'department', values: [a.value, b.value] }), call('Users', 'selectRows', { keys: g.map((u) => u.id) }), call('Deactivate selected', 'click'), stop('')],
    atomic: [click(ROLE_TRIGGER), fmenu(role), click("button 'OK'"), click(DEPT_TRIGGER), ...DEPARTMENT_LEAVES.filter((d) => d === a || d === b).map((d) => fmenu(d.title)), click("button 'OK'"), click(ACTIVE_TRIGGER), fmenu('Active'), click("button 'OK'"), click("checkbox 'Select all'"), click(`button 'Deactivate selected (${g.length})'`), stop('')],
    program: prog(`${STATE}.users.filter(u => u.role === '${role}' && ['${a.value}','${b.value}'].includes(u.department) && u.active).length + '/' + ${STATE}.users.filter(u => !u.active).length`, `0/${USERS.filter((u) => !u.active).length + g.length}`) });
}
{ // deactivate the 3 most recently created active Admins in Sales
  const sales = ['emea', 'americas', 'apac'];
  const g = countUsers('Admin', sales, true).sort((a, b) => b.created.localeCompare(a.created)).slice(0, 3);
  add({ screen: 'users', kind: 'state', start: '/users', intent: 'Among the active Admins in the Sales departments (EMEA, Americas, APAC), deactivate the three whose accounts were created most recently.',
    script: [call('Users', 'filter', { column: 'active', values: ['true'] }), call('Users', 'filter', { column: 'role', values: ['Admin'] }), call('Users', 'filter', { column: 'department', values: sales }), call('Users', 'sort', { column: 'created', order: 'descend' }), call('Users', 'selectRows', { keys: g.map((u) => u.id) }), call('Deactivate selected', 'click'), stop('')],
    atomic: [click(ROLE_TRIGGER), fmenu('Admin'), click("button 'OK'"), click(DEPT_TRIGGER), fmenu('EMEA'), fmenu('Americas'), fmenu('APAC'), click("button 'OK'"), click(ACTIVE_TRIGGER), fmenu('Active'), click("button 'OK'"),
      click("columnheader 'Created'"), click("columnheader 'Created'"), click("checkbox 'Select row 1'"), click("checkbox 'Select row 2'"), click("checkbox 'Select row 3'"), click("button 'Deactivate selected (3)'"), stop('')],
    program: prog(`${STATE}.users.filter(u => ${JSON.stringify(g.map((u) => u.id))}.includes(u.id) && !u.active).length + '/' + ${STATE}.users.filter(u => !u.active).length`, `3/${USERS.filter((u) => !u.active).length + 3}`) });
}
{ // deactivate 5 named users
  const us = USERS.filter((u) => u.active).slice(100, 105);
  const atomic = [];
  for (const u of us) atomic.push(searchUser(u.name), click("checkbox 'Select row 1'"));
  atomic.push(click("button 'Deactivate selected (5)'"), stop(''));
  add({ screen: 'users', kind: 'state', start: '/users', intent: `Deactivate these five users: ${us.map((u) => u.name).join(', ')}.`,
    script: [...us.flatMap(searchSelect), call('Deactivate selected', 'click'), stop('')], atomic,
    program: prog(`${STATE}.users.filter(u => ${JSON.stringify(us.map((u) => u.id))}.includes(u.id) && !u.active).length + '/' + ${STATE}.users.filter(u => !u.active).length`, `5/${USERS.filter((u) => !u.active).length + 5}`) });
}
{ // full edit
  const u = USERS[199];
  add({ screen: 'users', kind: 'state', start: '/users', intent: `Edit ${u.name}: rename to "${u.name.split(' ')[0]} Knuth", set the email to ${u.name.split(' ')[0].toLowerCase()}.knuth@example.com, role Admin, department Security, and deactivate the account.`,
    script: [call('Search users', 'setValue', { text: u.name }), call('Users', 'rowAction', { key: u.id, action: 'edit' }), call('Name', 'setValue', { text: `${u.name.split(' ')[0]} Knuth` }), call('Email', 'setValue', { text: `${u.name.split(' ')[0].toLowerCase()}.knuth@example.com` }), call('Role', 'setValue', { value: 'Admin' }), call('Department', 'setValue', { value: 'security' }), call('Active', 'setValue', { checked: false }), call("modal 'Edit user'", 'submit'), stop('')],
    atomic: [searchUser(u.name), click(`button 'Edit ${u.name}'`), type("textbox '* Name'", `${u.name.split(' ')[0]} Knuth`), type("textbox '* Email'", `${u.name.split(' ')[0].toLowerCase()}.knuth@example.com`), select("combobox '* Role'", 'Admin'), click("combobox '* Department'"), click("treeitem 'Security'"), ...(u.active ? [click("switch 'Active'")] : []), click("button 'Save'"), stop('')],
    program: prog(`${STATE}.users.filter(u => u.id === '${u.id}').map(u => [u.name, u.email, u.role, u.department, u.active].join('|')).join(';')`, `${u.name.split(' ')[0]} Knuth|${u.name.split(' ')[0].toLowerCase()}.knuth@example.com|Admin|security|false`) });
}
{ // add two users
  const atomic = [], script = [];
  const news = [['Joan Clarke', 'joan.clarke@example.com', 'Viewer', 'data', 'Data'], ['Claude Shannon', 'claude.shannon@example.com', 'Support', 'hr', 'HR']];
  for (const [n, e, r, d, dt] of news) {
    atomic.push(click("button 'Add user'"), type("textbox '* Full name'", n), type("textbox '* Email address'", e), select("combobox '* Role'", r), click("combobox '* Department'"), click(`treeitem '${dt}'`), click("button 'Create user'"));
    script.push(call("button 'Add user'", 'click'), call('Full name', 'setValue', { text: n }), call('Email address', 'setValue', { text: e }), call('Role', 'setValue', { value: r }), call('Department', 'setValue', { value: d }), call('Create user', 'click'));
  }
  add({ screen: 'users', kind: 'state', start: '/users', intent: 'Add two users: Joan Clarke (joan.clarke@example.com, Viewer, Data department) and Claude Shannon (claude.shannon@example.com, Support, HR department).',
    script: [...script, stop('')], atomic: [...atomic, stop('')],
    program: prog(`${STATE}.users.slice(300).map(u => [u.name, u.email, u.role, u.department].join('|')).join(';')`, news.map(([n, e, r, d]) => [n, e, r, d].join('|')).join(';')) });
}
{ // long info: names across filters with page size
  const g = countUsers('Viewer', ['platform', 'frontend', 'data', 'security'], false);
  add({ screen: 'users', kind: 'info', start: '/users', intent: 'List the names of all inactive Viewers in the Engineering departments (Platform, Frontend, Data, Security).',
    script: [call('Users', 'filter', { column: 'active', values: ['false'] }), call('Users', 'filter', { column: 'role', values: ['Viewer'] }), call('Users', 'filter', { column: 'department', values: ['platform', 'frontend', 'data', 'security'] }), stop(g.map((u) => u.name).join(', '))],
    atomic: [click(ROLE_TRIGGER), fmenu('Viewer'), click("button 'OK'"), click(DEPT_TRIGGER), fmenu('Platform'), fmenu('Frontend'), fmenu('Data'), fmenu('Security'), click("button 'OK'"), click(ACTIVE_TRIGGER), fmenu('Inactive'), click("button 'OK'"), stop(g.map((u) => u.name).join(', '))],
    answer: { must_include: g.map((u) => u.name) } });
}
add({ screen: 'users', kind: 'unachievable', start: '/users', intent: 'What is the phone number of Ada Lovelace? If the site does not show it, answer N/A.',
  script: [call('Search users', 'setValue', { text: 'Ada Lovelace' }), stop('N/A')], atomic: [searchUser('Ada Lovelace'), stop('N/A')], answer: { fuzzy_match: 'N/A' }, note: 'Users have no phone number field.' });
add({ screen: 'users', kind: 'nav', start: '/', intent: 'Open the user administration page.',
  script: [call('Main navigation', 'navigateTo', { key: 'users' }), stop('')], atomic: [menu('users'), stop('')], url: `${P}/users` });

// =====================================================================================
// ORDERS
const O = (id) => ORDERS.find((o) => o.id === id);
const orderPage = (id) => Math.floor(ORDERS.findIndex((o) => o.id === id) / 20) + 1;
// a person finds an order past the first page by paging on (atomic: the pager's 'Next Page' item; its page
// buttons carry no names the views print) or, in the hybrid view, by the page's open_order tool with the
// id the intent names (the hybrid view folds the pager into one component and shows no page items)
const nextPages = (p) => Array(p - 1).fill(click("listitem 'Next Page'"));
const openOrderAtomic = (id) => [...nextPages(orderPage(id)), click(`link '${id}'`)];
const openOrderScript = (id) => (orderPage(id) > 1 ? [call('open_order', 'open_order', { id })] : [call('Orders', 'rowAction', { key: id, action: 'view' })]);
// the order page's advance button says what it does
const ADVANCE = { pending: 'Mark as paid', paid: 'Mark as shipped', shipped: 'Mark as delivered' };
const advance = (from) => call(ADVANCE[from], 'click');
const cap = (s) => s[0].toUpperCase() + s.slice(1);
const STATUSES = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'];
const STATUS_COUNTS = `${JSON.stringify(STATUSES)}.map(s => ${STATE}.orders.filter(o => o.status === s).length).join(',')`;
// the status counts after moving the given orders to the given status (side effects show up here)
const countsAfter = (moves) => { const st = Object.fromEntries(ORDERS.map((o) => [o.id, o.status])); for (const [id, to] of moves) st[id] = to; return STATUSES.map((s) => Object.values(st).filter((x) => x === s).length).join(','); };
const statusOf = (id) => `${STATE}.orders.find(o => o.id === '${id}').status`;
for (const id of ['ORD-1027', 'ORD-1063']) {
  const o = O(id);
  add(T('What is the status of order {{id}}?', { id }, { screen: 'orders', kind: 'info', start: '/orders',
    script: [call('open_order', 'open_order', { id }), stop(o.status)], atomic: [...nextPages(orderPage(id)), stop(o.status)], answer: { exact_match: o.status } }));
}
{
  const o = O('ORD-1042');
  add({ screen: 'orders', kind: 'info', start: '/orders', intent: 'Who placed order ORD-1042?',
    script: [call('open_order', 'open_order', { id: o.id }), stop(o.customer)], atomic: [...nextPages(orderPage(o.id)), stop(o.customer)], answer: { exact_match: o.customer } });
}
// Atomic plans count the filtered rows instead of reading the page's "N orders, total" line: that N is a
// StaticText of digits alone, and WebArena's rule drops a StaticText whose text occurs in one of the 3 lines
// kept before it, ids included, so it vanished whenever a nearby backend node id contained it (task 48 read
// "[34381]" and lost "34").  Row lines are never dropped.  The page size that puts every row on one page:
const allRowsAtomic = (n) => {
  if (n > 100) throw new Error(`${n} rows do not fit one page of the orders table`);
  return n <= 20 ? [] : [click("combobox 'Page Size'"), click(`option '${n <= 50 ? 50 : 100} / page'`)];
};
for (const st of ['cancelled', 'pending']) {
  const n = ORDERS.filter((o) => o.status === st).length;
  add(T('How many orders have the status {{status}}? Answer with a number.', { status: st }, { screen: 'orders', kind: 'info', start: '/orders',
    script: [call('Status', 'setValue', { value: st }), stop(String(n))], atomic: [select("combobox 'Status'", cap(st)), ...allRowsAtomic(n), stop(String(n), COUNT_ROWS)], answer: { exact_match: String(n) } }));
}
for (const id of ['ORD-1055', 'ORD-1090']) {
  add(T('Open the detail page of order {{id}}.', { id }, { screen: 'orders', kind: 'nav', start: '/orders',
    script: [...openOrderScript(id), stop('')], atomic: [...openOrderAtomic(id), stop('')], url: `${P}/orders/${id}` }));
}
{ // advance one order (short)
  const o = ORDERS.find((x) => x.status === 'pending' && orderPage(x.id) <= 4);
  add({ screen: 'orders', kind: 'state', start: '/orders', intent: `Order ${o.id} has been paid. Mark it as paid.`,
    script: [...openOrderScript(o.id), advance('pending'), stop('')], atomic: [...openOrderAtomic(o.id), click("button 'Mark as paid'"), stop('')],
    program: prog(`${statusOf(o.id)} + '|' + ${STATUS_COUNTS}`, `paid|${countsAfter([[o.id, 'paid']])}`) });
  const o2 = ORDERS.find((x) => x.status === 'paid' && orderPage(x.id) <= 4);
  add({ screen: 'orders', kind: 'state', start: '/orders', intent: `Cancel order ${o2.id}.`,
    script: [...openOrderScript(o2.id), call('Cancel order', 'click'), stop('')], atomic: [...openOrderAtomic(o2.id), click("button 'Cancel order'"), stop('')],
    program: prog(`${statusOf(o2.id)} + '|' + ${STATUS_COUNTS}`, `cancelled|${countsAfter([[o2.id, 'cancelled']])}`) });
}
// medium orders
function ordersWhere({ customer, from, to, status }) { return ORDERS.filter((o) => (!customer || o.customer.toLowerCase().includes(customer.toLowerCase())) && (!from || o.date >= from) && (!to || o.date <= to) && (!status || o.status === status)); }
const rangeAtomic = (from, to) => [type("textbox 'From date'", from, true), type("textbox 'To date'", to, true)];
for (const q of [
  { from: '2025-05-10', to: '2025-06-05', status: 'delivered' },
  { from: '2025-05-01', to: '2025-05-31', status: 'shipped', customer: 'Grace' },
  { from: '2025-04-01', to: '2025-04-30', status: 'paid' },
]) {
  const n = ordersWhere(q).length;
  const script = [call('Order dates', 'setValue', { start: q.from, end: q.to }), call('Status', 'setValue', { value: q.status })];
  const atomic = [...rangeAtomic(q.from, q.to), select("combobox 'Status'", cap(q.status))];
  if (q.customer) { script.push(call('Customer', 'setValue', { text: q.customer })); atomic.push(type("textbox 'Customer name'", q.customer)); }
  add(T('How many {{status}} orders{{customer}} were placed between {{from}} and {{to}} (inclusive)? Answer with a number.', { status: q.status, customer: q.customer ? ` from customers named ${q.customer}` : '', from: q.from, to: q.to }, { screen: 'orders', kind: 'info', start: '/orders',
    script: [...script, stop(String(n))], atomic: [...atomic, ...allRowsAtomic(n), stop(String(n), COUNT_ROWS)], answer: { exact_match: String(n) } }));
}
{ // total amount for a customer
  const c = 'Linus Hamilton';
  const list = ordersWhere({ customer: c });
  const sum = list.reduce((a, o) => a + o.total, 0).toFixed(2);
  add({ screen: 'orders', kind: 'info', start: '/orders', intent: `What is the total amount in EUR of all orders placed by ${c}? Answer with the number shown, two decimals.`,
    script: [call('Customer', 'setValue', { text: c }), stop(sum)], atomic: [type("textbox 'Customer name'", c), stop(sum)], answer: { exact_match: sum } });
}
{ // nav medium: most expensive delivered order of a customer in a month
  const c = 'Donald Stroustrup';
  const list = ordersWhere({ customer: c }).sort((a, b) => b.total - a.total);
  const best = list[0];
  add({ screen: 'orders', kind: 'nav', start: '/orders', intent: `Open the detail page of the most expensive order placed by ${c}.`,
    script: [call('Customer', 'setValue', { text: c }), call('Orders', 'rowAction', { key: best.id, action: 'view' }), stop('')],
    atomic: [type("textbox 'Customer name'", c), click(`link '${best.id}'`), stop('')], url: `${P}/orders/${best.id}` });
}
{ // medium: advance two orders
  const [a, b] = ORDERS.filter((x) => x.status === 'paid' && orderPage(x.id) <= 3).slice(0, 2);
  add({ screen: 'orders', kind: 'state', start: '/orders', intent: `Orders ${a.id} and ${b.id} have been handed to the carrier. Mark both as shipped.`,
    script: [...openOrderScript(a.id), advance('paid'), call('Back to orders', 'click'), ...openOrderScript(b.id), advance('paid'), stop('')],
    atomic: [...openOrderAtomic(a.id), click("button 'Mark as shipped'"), click("button 'Back to orders'"), ...openOrderAtomic(b.id), click("button 'Mark as shipped'"), stop('')],
    program: prog(`${statusOf(a.id)} + '|' + ${statusOf(b.id)}`, 'shipped|shipped') });
}
{ // medium: take a pending order to delivered
  const o = ORDERS.find((x) => x.status === 'pending' && orderPage(x.id) === 2);
  add({ screen: 'orders', kind: 'state', start: '/orders', intent: `Order ${o.id} was paid, shipped and has now arrived. Move it all the way to delivered.`,
    script: [...openOrderScript(o.id), advance('pending'), advance('paid'), advance('shipped'), stop('')],
    atomic: [...openOrderAtomic(o.id), click("button 'Mark as paid'"), click("button 'Mark as shipped'"), click("button 'Mark as delivered'"), stop('')],
    program: prog(`${statusOf(o.id)} + '|' + ${STATUS_COUNTS}`, `delivered|${countsAfter([[o.id, 'delivered']])}`) });
}
// long orders
for (const c of ['Linus Hamilton', 'Grace Stroustrup']) {
  const paid = ordersWhere({ customer: c, status: 'paid' });
  const atomic = [type("textbox 'Customer name'", c), select("combobox 'Status'", 'Paid')];
  const script = [call('Customer', 'setValue', { text: c }), call('Status', 'setValue', { value: 'paid' })];
  for (const o of paid) {
    atomic.push(click(`link '${o.id}'`), click("button 'Mark as shipped'"), click("button 'Back to orders'"));
    script.push(call('Orders', 'rowAction', { key: o.id, action: 'view' }), advance('paid'), call('Main navigation', 'navigateTo', { key: 'orders' }));
  }
  add(T('Mark every paid order of {{customer}} as shipped.', { customer: c }, { screen: 'orders', kind: 'state', start: '/orders',
    script: [...script, stop('')], atomic: [...atomic, stop('')],
    program: prog(`${STATE}.orders.filter(o => ${JSON.stringify(paid.map((o) => o.id))}.includes(o.id)).map(o => o.status).join(',') + '|' + ${STATUS_COUNTS}`, `${paid.map(() => 'shipped').join(',')}|${countsAfter(paid.map((o) => [o.id, 'shipped']))}`) }));
}
{ // cancel all pending orders in a date range
  const from = '2025-06-01', to = '2025-06-15';
  const pend = ordersWhere({ from, to, status: 'pending' });
  const atomic = [...rangeAtomic(from, to), select("combobox 'Status'", 'Pending')];
  const script = [call('Order dates', 'setValue', { start: from, end: to }), call('Status', 'setValue', { value: 'pending' })];
  for (const o of pend) {
    atomic.push(click(`link '${o.id}'`), click("button 'Cancel order'"), click("button 'Back to orders'"));
    script.push(call('Orders', 'rowAction', { key: o.id, action: 'view' }), call('Cancel order', 'click'), call('Back to orders', 'click'));
  }
  add({ screen: 'orders', kind: 'state', start: '/orders', intent: `Cancel every order that is still pending and was placed between ${from} and ${to}.`,
    script: [...script, stop('')], atomic: [...atomic, stop('')],
    program: prog(`${STATE}.orders.filter(o => o.status === 'cancelled').length + '|' + ${STATE}.orders.filter(o => o.status === 'pending' && o.date >= '${from}').length`, `${ORDERS.filter((o) => o.status === 'cancelled').length + pend.length}|0`) });
}
{ // long info: sums across three customers
  const cs = ['Barbara Cerf', 'Edsger Keller', 'Vint Sutherland'];
  const atomic = [], script = [], parts = [];
  for (const c of cs) {
    const n = ordersWhere({ customer: c, status: 'delivered' }).length;
    parts.push(`${c}: ${n}`);
    atomic.push(type("textbox 'Customer name'", c), ...(atomic.length ? [] : [select("combobox 'Status'", 'Delivered')]));
    script.push(call('Customer', 'setValue', { text: c }), ...(script.length ? [] : [call('Status', 'setValue', { value: 'delivered' })]));
  }
  const counts = cs.map((c) => ordersWhere({ customer: c, status: 'delivered' }).length);
  const best = cs[counts.indexOf(Math.max(...counts))];
  add({ screen: 'orders', kind: 'info', start: '/orders', intent: `Of ${cs.join(', ')}, who has the most delivered orders? Give the name.`,
    note: parts.join('; '),
    script: [...script, stop(best)], atomic: [...atomic, stop(best)], answer: { must_include: [best] } });
}
{ // long nav: most recent cancelled order in April
  const list = ordersWhere({ from: '2025-04-01', to: '2025-04-30', status: 'cancelled' }).sort((a, b) => b.date.localeCompare(a.date) || b.id.localeCompare(a.id));
  const o = list[0];
  add({ screen: 'orders', kind: 'nav', start: '/orders', intent: 'Open the detail page of the latest cancelled order placed in April 2025, from 2025-04-01 to 2025-04-30 (latest date; if two share it, the higher order number).',
    script: [call('Order dates', 'setValue', { start: '2025-04-01', end: '2025-04-30' }), call('Status', 'setValue', { value: 'cancelled' }), call('Orders', 'rowAction', { key: o.id, action: 'view' }), stop('')],
    atomic: [...rangeAtomic('2025-04-01', '2025-04-30'), select("combobox 'Status'", 'Cancelled'), click(`link '${o.id}'`), stop('')], url: `${P}/orders/${o.id}` });
}
add({ screen: 'orders', kind: 'unachievable', start: '/orders', intent: 'Open order ORD-2000 and mark it as shipped. If the order does not exist, answer N/A.',
  script: [call('Customer', 'setValue', { text: 'ORD-2000' }), stop('N/A')], atomic: [type("textbox 'Customer name'", 'ORD-2000'), stop('N/A')],
  answer: { fuzzy_match: 'N/A' }, note: `Order numbers run from ORD-1001 to ORD-${1000 + ORDERS.length}.` });
add({ screen: 'orders', kind: 'nav', start: '/', intent: 'Open the order management page.',
  script: [call('Main navigation', 'navigateTo', { key: 'orders' }), stop('')], atomic: [menu('orders'), stop('')], url: `${P}/orders` });

// =====================================================================================
// SETTINGS
const S = (f) => `${STATE}.settings.${f}`;
const SAVE_S = call('Save settings', 'click');
// tags: the Members dropdown must be closed first (it covers the Tags field); choosing a selected tag or
// member again deselects it, as a person removes one from the list (the tags' close icons have no names)
const addTag = (t) => select("combobox 'Tags'", t);
const SAVE_A = click("button 'Save settings'");
add({ screen: 'settings', kind: 'state', start: '/settings', intent: 'Make the project public.',
  script: [call('Visibility', 'setValue', { value: 'public' }), SAVE_S, stop('')], atomic: [click("radio 'Public'"), SAVE_A, stop('')], program: prog(`${S('visibility')} + '|' + ${S('savedCount')}`, 'public|1') });
add({ screen: 'settings', kind: 'state', start: '/settings', intent: 'Rename the project to "Atlas Portal".',
  script: [call('Project name', 'setValue', { text: 'Atlas Portal' }), SAVE_S, stop('')], atomic: [type("textbox '* Project name'", 'Atlas Portal'), SAVE_A, stop('')], program: prog(S('projectName'), 'Atlas Portal') });
add({ screen: 'settings', kind: 'state', start: '/settings', intent: 'Also send project notifications to Slack.',
  script: [call('Notifications', 'check', { value: 'slack' }), SAVE_S, stop('')], atomic: [click("checkbox 'Slack'"), SAVE_A, stop('')], program: prog(`${S('notifications')}.join(',') + '|' + ${S('savedCount')} + '|' + ${S('projectName')}`, `email,slack|1|${DEFAULT_SETTINGS.projectName}`) });
add({ screen: 'settings', kind: 'info', start: '/settings', intent: 'How many days of data does the project currently retain? Answer with a number.',
  script: [stop(String(DEFAULT_SETTINGS.retentionDays))], atomic: [click("slider ''"), stop(String(DEFAULT_SETTINGS.retentionDays))], answer: { exact_match: String(DEFAULT_SETTINGS.retentionDays) } });
add({ screen: 'settings', kind: 'info', start: '/settings', intent: 'Who are the members of the project? List their names.',
  script: [call('Settings sections', 'setTab', { key: 'members' }), stop(DEFAULT_SETTINGS.members.join(', '))], atomic: [click("tab 'Members'"), stop(DEFAULT_SETTINGS.members.join(', '))], answer: { must_include: DEFAULT_SETTINGS.members } });
add({ screen: 'settings', kind: 'state', start: '/settings', intent: 'Rotate the API token: set it to tok_rotated_2025 and save.',
  script: [call('Settings sections', 'setTab', { key: 'security' }), call('API token', 'setValue', { text: 'tok_rotated_2025' }), SAVE_S, stop('')],
  atomic: [click("tab 'Security'"), type("textbox '* API token'", 'tok_rotated_2025'), SAVE_A, stop('')], program: prog(`${S('apiToken')} + '|' + ${S('savedCount')} + '|' + ${S('projectName')}`, `tok_rotated_2025|1|${DEFAULT_SETTINGS.projectName}`) });
add({ screen: 'settings', kind: 'unachievable', start: '/settings', intent: 'Set the data retention to 500 days. If that is not possible, answer N/A.',
  script: [stop('N/A')], atomic: [stop('N/A')], answer: { fuzzy_match: 'N/A' }, note: 'Retention is limited to 1-365 days.' });
add({ screen: 'settings', kind: 'nav', start: '/', intent: 'Go to the project settings page.',
  script: [call('Main navigation', 'navigateTo', { key: 'settings' }), stop('')], atomic: [menu('settings'), stop('')], url: `${P}/settings` });
// medium
{
  const [m1, m2] = [MEMBER_OPTIONS[10], MEMBER_OPTIONS[41]];
  add({ screen: 'settings', kind: 'state', start: '/settings', intent: `Add ${m1} and ${m2} as project members and tag the project "security".`,
    script: [call('Members', 'select', { value: m1 }), call('Members', 'select', { value: m2 }), call('Tags', 'select', { value: 'security' }), SAVE_S, stop('')],
    atomic: [click("tab 'Members'"), select("combobox '* Members'", m1), select("combobox '* Members'", m2), press('Escape'), addTag('security'), press('Escape'), SAVE_A, stop('')],
    program: prog(`${S('members')}.join(',') + '|' + ${S('tags')}.join(',')`, `${[...DEFAULT_SETTINGS.members, m1, m2].join(',')}|${[...DEFAULT_SETTINGS.tags, 'security'].join(',')}`) });
}
add({ screen: 'settings', kind: 'state', start: '/settings', intent: 'Move the project to the Frontend department, keep data for 90 days and make it internal.',
  script: [call('Department', 'setValue', { value: 'frontend' }), call('Retention (days)', 'setValue', { value: 90 }), call('Visibility', 'setValue', { value: 'internal' }), SAVE_S, stop('')],
  atomic: [click("combobox '* Department'"), click("treeitem 'Frontend'"), click("StaticText '90'"), click("radio 'Internal'"), SAVE_A, stop('')],
  program: prog(`document.defaultView.Array.of(${S('department')}, ${S('retentionDays')}, ${S('visibility')}).join('|')`, 'frontend|90|internal') });
{
  const m = DEFAULT_SETTINGS.members[1];
  add({ screen: 'settings', kind: 'state', start: '/settings', intent: `Remove ${m} from the project members and allow guests.`,
    script: [call('Members', 'deselect', { value: m }), call('Allow guests', 'setValue', { checked: true }), SAVE_S, stop('')],
    atomic: [click("tab 'Members'"), select("combobox '* Members'", m), press('Escape'), click("switch 'Allow guests'"), SAVE_A, stop('')],
    program: prog(`${S('members')}.join(',') + '|' + ${S('allowGuests')}`, `${DEFAULT_SETTINGS.members.filter((x) => x !== m).join(',')}|true`) });
}
add({ screen: 'settings', kind: 'info', start: '/settings', intent: 'Try to save the settings with an empty project name. What error message is shown under the field?',
  script: [call('Project name', 'clear'), stop('Project name is required')], atomic: [type("textbox '* Project name'", ''), SAVE_A, stop('Project name is required')],
  answer: { must_include: ['Project name is required'] } });
add({ screen: 'settings', kind: 'state', start: '/settings', intent: 'Turn off email notifications and turn on SMS and Push notifications, then set the description to "Mobile first".',
  script: [call('Notifications', 'setValue', { values: ['sms', 'push'] }), call('Description', 'setValue', { text: 'Mobile first' }), SAVE_S, stop('')],
  atomic: [click("checkbox 'Email'"), click("checkbox 'SMS'"), click("checkbox 'Push'"), type("textbox 'Description'", 'Mobile first'), SAVE_A, stop('')],
  program: prog(`${S('notifications')}.join(',') + '|' + ${S('description')}`, 'sms,push|Mobile first') });
// long
{
  const ms = [MEMBER_OPTIONS[5], MEMBER_OPTIONS[22], MEMBER_OPTIONS[50]];
  add({ screen: 'settings', kind: 'state', start: '/settings',
    intent: `Reconfigure the project: name "Atlas Mobile", description "iOS and Android apps", visibility Internal, retention 180 days, notifications Slack and Webhook only, department Design; add members ${ms.join(', ')}; add the tags "mobile" and "ux"; allow guests.`,
    script: [call('Project name', 'setValue', { text: 'Atlas Mobile' }), call('Description', 'setValue', { text: 'iOS and Android apps' }), call('Visibility', 'setValue', { value: 'internal' }), call('Retention (days)', 'setValue', { value: 180 }),
      call('Notifications', 'setValue', { values: ['slack', 'webhook'] }), call('Department', 'setValue', { value: 'design' }), call('Members', 'setValue', { values: [...DEFAULT_SETTINGS.members, ...ms] }),
      call('Tags', 'setValue', { values: [...DEFAULT_SETTINGS.tags, 'mobile', 'ux'] }), call('Allow guests', 'toggle'), SAVE_S, stop('')],
    atomic: [type("textbox '* Project name'", 'Atlas Mobile'), type("textbox 'Description'", 'iOS and Android apps'), click("radio 'Internal'"), click("StaticText '180'"),
      click("checkbox 'Email'"), click("checkbox 'Slack'"), click("checkbox 'Webhook'"), click("combobox '* Department'"), click("treeitem 'Design'"),
      click("tab 'Members'"), ...ms.map((m) => select("combobox '* Members'", m)), press('Escape'), addTag('mobile'), addTag('ux'), press('Escape'), click("switch 'Allow guests'"), SAVE_A, stop('')],
    program: prog(`document.defaultView.Array.of(${STATE}.settings).map(s => [s.projectName, s.description, s.visibility, s.retentionDays, s.notifications.join(','), s.department, s.members.length, s.tags.join(','), s.allowGuests].join('|'))[0]`,
      `Atlas Mobile|iOS and Android apps|internal|180|slack,webhook|design|6|web,beta,mobile,ux|true`) });
}
{
  add({ screen: 'settings', kind: 'state', start: '/settings',
    intent: 'Hand the project over: rename it to "Atlas Legacy", set retention to 365 days, make it private, move it to the Legal department, replace all notifications with Webhook, remove every tag, and set the API token to tok_handover_0001.',
    script: [call('Project name', 'setValue', { text: 'Atlas Legacy' }), call('Retention (days)', 'setValue', { value: 365 }), call('Visibility', 'setValue', { value: 'private' }), call('Department', 'setValue', { value: 'legal' }),
      call('Notifications', 'setValue', { values: ['webhook'] }), call('Tags', 'clear'), call('API token', 'setValue', { text: 'tok_handover_0001' }), SAVE_S, stop('')],
    atomic: [type("textbox '* Project name'", 'Atlas Legacy'), click("slider ''"), press('End'), click("radio 'Private'"), click("combobox '* Department'"), click("treeitem 'Legal'"),
      click("checkbox 'Email'"), click("checkbox 'Webhook'"), click("tab 'Members'"), addTag('web'), addTag('beta'), press('Escape'),
      click("tab 'Security'"), type("textbox '* API token'", 'tok_handover_0001'), SAVE_A, stop('')],
    program: prog(`document.defaultView.Array.of(${STATE}.settings).map(s => [s.projectName, s.retentionDays, s.visibility, s.department, s.notifications.join(','), s.tags.length, s.apiToken].join('|'))[0]`, 'Atlas Legacy|365|private|legal|webhook|0|tok_handover_0001') });
}
{
  const ms = MEMBER_OPTIONS.slice(30, 35);
  add({ screen: 'settings', kind: 'state', start: '/settings', intent: `Replace the project members with exactly these five people: ${ms.join(', ')}.`,
    script: [call('Members', 'setValue', { values: ms }), SAVE_S, stop('')],
    atomic: [click("tab 'Members'"), ...DEFAULT_SETTINGS.members.map((m) => select("combobox '* Members'", m)), ...ms.map((m) => select("combobox '* Members'", m)), press('Escape'), SAVE_A, stop('')],
    program: prog(`${S('members')}.join(',')`, ms.join(',')) });
}
{
  add({ screen: 'settings', kind: 'state', start: '/settings', intent: 'Set up the project for the Data team: department Data, retention 90 days, tags "ml", "analytics" and "reporting" added to the existing ones, notifications by Email and Slack, and description "Data platform".',
    script: [call('Department', 'setValue', { value: 'data' }), call('Retention (days)', 'setValue', { value: 90 }), call('Tags', 'setValue', { values: [...DEFAULT_SETTINGS.tags, 'ml', 'analytics', 'reporting'] }), call('Notifications', 'check', { value: 'slack' }), call('Description', 'setValue', { text: 'Data platform' }), SAVE_S, stop('')],
    // the slider's marks first: while the department tree closes, WebArena's repeated-text rule can drop the '90' mark
    atomic: [click("StaticText '90'"), click("combobox '* Department'"), click("treeitem 'Data'"), click("checkbox 'Slack'"), type("textbox 'Description'", 'Data platform'), click("tab 'Members'"), addTag('ml'), addTag('analytics'), addTag('reporting'), press('Escape'), SAVE_A, stop('')],
    program: prog(`document.defaultView.Array.of(${STATE}.settings).map(s => [s.department, s.retentionDays, s.tags.join(','), s.notifications.join(','), s.description].join('|'))[0]`, 'data|90|web,beta,ml,analytics,reporting|email,slack|Data platform') });
}

// =====================================================================================
// APPLY
const POS = (v) => POSITIONS.find((p) => p.value === v).label;
const FORM_VALUES = (fields) => `document.defaultView.Array.of(document.defaultView.__ci4a__.getStatus('form-apply')['form-apply'].state.values).map(v => [${fields.map((f) => `v.${f}`).join(', ')}].join('|'))[0]`;
const REVIEW_TEXT = "document.querySelector('.ant-descriptions').innerText";
const appKey = `${STATE}.applications.map(a => [a.fullName, a.email, a.country, a.position, a.startDate, a.salary, a.workMode, a.skills.join('+'), a.agree].join('|')).join(';')`;
function applySteps(a, { submit = true } = {}) {
  const script = [call('Full name', 'setValue', { text: a.name }), call('Email', 'setValue', { text: a.email }), call('Country of residence', 'setValue', { value: a.country }), call('Application steps', 'next'),
    call('Position', 'setValue', { value: a.position }), call('Start date', 'setValue', { date: a.start }), call('Expected salary (EUR)', 'setValue', { value: a.salary }),
    ...(a.mode !== 'hybrid' ? [call('Work mode', 'setValue', { value: a.mode })] : []), call('Skills', 'setValue', { values: a.skills }), call('Application steps', 'next')];
  const atomic = [type("textbox '* Full name'", a.name), type("textbox '* Email'", a.email), select("combobox '* Country of residence'", a.country), click("button 'Next'"),
    select("combobox '* Position'", POS(a.position)), ...pickDate("textbox '* Start date'", '2025-07', a.start), type("spinbutton '* Expected salary (EUR)'", String(a.salary)),
    ...(a.mode !== 'hybrid' ? [click(`radio '${{ onsite: 'On-site', remote: 'Remote' }[a.mode]}'`)] : []), ...a.skills.map((s) => click(`checkbox '${{ c: 'C', javascript: 'JavaScript', python: 'Python', sql: 'SQL', rust: 'Rust', go: 'Go' }[s]}'`)), click("button 'Next'")];
  if (a.letter) { script.push(call('Cover letter', 'setValue', { text: a.letter })); atomic.push(type("textbox 'Cover letter'", a.letter)); }
  if (submit) {
    script.push(call('I accept the terms', 'check'), call('Submit application', 'click'));
    atomic.push(click("checkbox 'I accept the terms'"), click("button 'Submit application'"));
  }
  return { script, atomic };
}
const appStr = (a) => [a.name, a.email, a.country, a.position, a.start, a.salary, a.mode, [...a.skills].sort((x, y) => ['c', 'javascript', 'python', 'sql', 'rust', 'go'].indexOf(x) - ['c', 'javascript', 'python', 'sql', 'rust', 'go'].indexOf(y)).join('+'), true].join('|');
const APPS = [
  { name: 'Margaret Hamilton', email: 'margaret@example.com', country: 'United States', position: 'backend-engineer', start: '2025-07-07', salary: 95000, mode: 'remote', skills: ['c', 'go'] },
  { name: 'Sophie Wilson', email: 'sophie.wilson@example.com', country: 'United Kingdom', position: 'sre', start: '2025-08-18', salary: 88000, mode: 'hybrid', skills: ['c', 'rust', 'python'], letter: 'I designed instruction sets.' },
  { name: 'Yukihiro Matsumoto', email: 'matz@example.com', country: 'Japan', position: 'frontend-engineer', start: '2025-09-01', salary: 70000, mode: 'onsite', skills: ['javascript'] },
  { name: 'Frances Allen', email: 'fran.allen@example.com', country: 'Canada', position: 'data-scientist', start: '2025-10-15', salary: 120000, mode: 'remote', skills: ['python', 'sql'] },
  { name: 'Niklaus Wirth', email: 'nw@example.com', country: 'Switzerland', position: 'product-manager', start: '2025-11-03', salary: 110000, mode: 'hybrid', skills: ['sql'] },
  { name: 'Annie Easley', email: 'annie.easley@example.com', country: 'Portugal', position: 'designer', start: '2025-07-31', salary: 60000, mode: 'onsite', skills: ['javascript', 'python'], letter: 'Happy to relocate.' },
];
for (const a of APPS) {
  if ([0, 6].includes(dayOfWeek(a.start))) throw new Error(`weekend start ${a.start}`);
  const { script, atomic } = applySteps(a);
  add(T('Submit a job application for {{name}} ({{email}}, living in {{country}}) for the {{position}} position, starting {{start}}, expected salary {{salary}} EUR, work mode {{mode}}, skills {{skills}}{{letter}}. Accept the terms.',
    { name: a.name, email: a.email, country: a.country, position: POS(a.position), start: a.start, salary: a.salary, mode: WM(a.mode), skills: a.skills.map(SK).join(', '), letter: a.letter ? `, cover letter "${a.letter}"` : '' },
    { screen: 'apply', kind: 'state', start: '/apply',
    script: [...script, stop('')], atomic: [...atomic, stop('')], program: prog(appKey, appStr(a)) }));
}
function WM(m) { return { onsite: 'On-site', hybrid: 'Hybrid', remote: 'Remote' }[m]; }
function SK(s) { return { c: 'C', javascript: 'JavaScript', python: 'Python', sql: 'SQL', rust: 'Rust', go: 'Go' }[s]; }
// short apply
add({ screen: 'apply', kind: 'nav', start: '/', intent: 'Open the job application form.',
  script: [call('Main navigation', 'navigateTo', { key: 'apply' }), stop('')], atomic: [menu('apply'), stop('')], url: `${P}/apply` });
add({ screen: 'apply', kind: 'info', start: '/apply', intent: 'What is the title of the last step of the job application?',
  script: [stop('Review and submit')], atomic: [stop('Review and submit')], answer: { exact_match: 'Review and submit' } });
add({ screen: 'apply', kind: 'state', start: '/apply', intent: 'Fill in the personal details of the job application for Ada Lovelace (ada@example.com, living in Ireland) and continue to the next step.',
  script: [call('Full name', 'setValue', { text: 'Ada Lovelace' }), call('Email', 'setValue', { text: 'ada@example.com' }), call('Country of residence', 'setValue', { value: 'Ireland' }), call('Application steps', 'next'), stop('')],
  atomic: [type("textbox '* Full name'", 'Ada Lovelace'), type("textbox '* Email'", 'ada@example.com'), select("combobox '* Country of residence'", 'Ireland'), click("button 'Next'"), stop('')],
  program: [...prog(`${STATE}.ui.applyStep`, '1'), ...prog(FORM_VALUES(['fullName', 'email', 'country']), 'Ada Lovelace|ada@example.com|Ireland')] });
add({ screen: 'apply', kind: 'info', start: '/apply', intent: 'Press Next on the empty job application. What error message appears under the email field?',
  script: [call('Next', 'click'), stop('Enter your email')], atomic: [click("button 'Next'"), stop('Enter your email')], answer: { must_include: ['Enter your email'] } });
add({ screen: 'apply', kind: 'info', start: '/apply', intent: 'In the job application, an email "grace@" is entered. What error message does the form show for it after pressing Next?',
  script: [call('Email', 'setValue', { text: 'grace@' }), call('Next', 'click'), stop('Enter a valid email')], atomic: [type("textbox '* Email'", 'grace@'), click("button 'Next'"), stop('Enter a valid email')], answer: { must_include: ['Enter a valid email'] } });
// medium apply
{
  const a = { name: 'Alan Kay', email: 'alan.kay@example.com', country: 'Australia' };
  add({ screen: 'apply', kind: 'info', start: '/apply', intent: 'Fill in the personal details for Alan Kay (alan.kay@example.com, Australia), continue, choose the Designer position and press Next without anything else. What error message is shown for the skills?',
    script: [call('Full name', 'setValue', { text: a.name }), call('Email', 'setValue', { text: a.email }), call('Country of residence', 'setValue', { value: a.country }), call('Application steps', 'next'), call('Position', 'setValue', { value: 'designer' }), call('Next', 'click'), stop('Pick at least one skill')],
    atomic: [type("textbox '* Full name'", a.name), type("textbox '* Email'", a.email), select("combobox '* Country of residence'", a.country), click("button 'Next'"), select("combobox '* Position'", 'Designer'), click("button 'Next'"), stop('Pick at least one skill')],
    answer: { must_include: ['Pick at least one skill'] } });
  add({ screen: 'apply', kind: 'state', start: '/apply', intent: 'Fill in the personal details for Alan Kay (alan.kay@example.com, Australia), go to the next step, then go back and change the country to New Zealand, and continue to the Position step again.',
    script: [call('Full name', 'setValue', { text: a.name }), call('Email', 'setValue', { text: a.email }), call('Country of residence', 'setValue', { value: a.country }), call('Application steps', 'next'), call('Application steps', 'prev'), call('Country of residence', 'setValue', { value: 'New Zealand' }), call('Application steps', 'next'), stop('')],
    atomic: [type("textbox '* Full name'", a.name), type("textbox '* Email'", a.email), select("combobox '* Country of residence'", a.country), click("button 'Next'"), click("button 'Previous'"), select("combobox '* Country of residence'", 'New Zealand'), click("button 'Next'"), stop('')],
    program: [...prog(`${STATE}.ui.applyStep + '|' + ${STATE}.ui.applyCountry`, '1|New Zealand'), ...prog(FORM_VALUES(['fullName', 'email']), 'Alan Kay|alan.kay@example.com')] });
  add({ screen: 'apply', kind: 'state', start: '/apply', intent: 'Fill in the personal details for Alan Kay (alan.kay@example.com, Australia) and the Position step (Site Reliability Engineer, remote, skill Go, salary 90000 EUR, start date 2025-07-15) and reach the review step, without submitting.',
    script: [call('Full name', 'setValue', { text: a.name }), call('Email', 'setValue', { text: a.email }), call('Country of residence', 'setValue', { value: a.country }), call('Application steps', 'next'), call('Position', 'setValue', { value: 'sre' }), call('Start date', 'setValue', { date: '2025-07-15' }), call('Expected salary (EUR)', 'setValue', { value: 90000 }), call('Work mode', 'setValue', { value: 'remote' }), call('Skills', 'check', { value: 'go' }), call('Application steps', 'next'), stop('')],
    atomic: [type("textbox '* Full name'", a.name), type("textbox '* Email'", a.email), select("combobox '* Country of residence'", a.country), click("button 'Next'"), select("combobox '* Position'", 'Site Reliability Engineer'), ...pickDate("textbox '* Start date'", '2025-07', '2025-07-15'), type("spinbutton '* Expected salary (EUR)'", '90000'), click("radio 'Remote'"), click("checkbox 'Go'"), click("button 'Next'"), stop('')],
    program: [...prog(`${STATE}.ui.applyStep + '|' + ${STATE}.applications.length`, '2|0'),
      ...prog(FORM_VALUES(['fullName', 'email', 'country', 'position', 'salary', 'workMode', "skills.join('+')"]), 'Alan Kay|alan.kay@example.com|Australia|sre|90000|remote|go'),
      ...progIncl(REVIEW_TEXT, ['2025-07-15'])] });
}
add({ screen: 'apply', kind: 'info', start: '/apply', intent: 'In the job application, what is the earliest start date that can be chosen? Answer as YYYY-MM-DD.',
  // the question needs the Position step; any personal details get there (the step says so)
  // (typed filler is a placeholder; the country is the first the view lists). Atomic: the calendar's first
  // day that can be clicked, whose date the field then shows
  script: [{ ...call('Full name', 'setValue', { text: 'X Y' }), from: PLACEHOLDER }, { ...call('Email', 'setValue', { text: 'x@example.com' }), from: PLACEHOLDER }, call('Country of residence', 'setValue', { value: 'Argentina' }), call('Application steps', 'next'), stop('2025-07-01')],
  atomic: [{ ...type("textbox '* Full name'", 'X Y'), from: PLACEHOLDER }, { ...type("textbox '* Email'", 'x@example.com'), from: PLACEHOLDER }, click("combobox '* Country of residence'"), select("combobox '* Country of residence'", 'Argentina'), click("button 'Next'"), click("textbox '* Start date'"), click("cell '1'"), stop('2025-07-01')],
  answer: { exact_match: '2025-07-01' } });
add({ screen: 'apply', kind: 'unachievable', start: '/apply', intent: 'Apply for the Backend Engineer position for Ken Thompson (ken@example.com, United States) with start date 2025-07-05. If that start date cannot be chosen, answer N/A.',
  script: [call('Full name', 'setValue', { text: 'Ken Thompson' }), call('Email', 'setValue', { text: 'ken@example.com' }), call('Country of residence', 'setValue', { value: 'United States' }), call('Application steps', 'next'),
    call('Position', 'setValue', { value: 'backend-engineer' }), stop('N/A')],
  atomic: [type("textbox '* Full name'", 'Ken Thompson'), type("textbox '* Email'", 'ken@example.com'), select("combobox '* Country of residence'", 'United States'), click("button 'Next'"), click("textbox '* Start date'"), stop('N/A')],
  answer: { fuzzy_match: 'N/A' }, note: '2025-07-05 is a Saturday; weekends are disabled for the start date.' });
{ // two applications in a row
  const a = APPS[2], b = { ...APPS[4], name: 'Grace Hopper', email: 'grace.hopper@example.com' };
  const s1 = applySteps(a), s2 = applySteps(b);
  add({ screen: 'apply', kind: 'state', start: '/apply', intent: `Submit two applications: first ${a.name} (${a.email}, ${a.country}) for ${POS(a.position)}, starting ${a.start}, salary ${a.salary}, ${WM(a.mode)}, skills ${a.skills.map(SK).join(', ')}; then ${b.name} (${b.email}, ${b.country}) for ${POS(b.position)}, starting ${b.start}, salary ${b.salary}, ${WM(b.mode)}, skills ${b.skills.map(SK).join(', ')}. Accept the terms each time.`,
    script: [...s1.script, call('New application', 'click'), ...s2.script, stop('')], atomic: [...s1.atomic, click("button 'New application'"), ...s2.atomic, stop('')],
    program: prog(appKey, `${appStr(a)};${appStr(b)}`) });
}

// ---------- write ----------
mkdirSync(OUT, { recursive: true });
for (const f of readdirSync(OUT)) if (f.endsWith('.json')) unlinkSync(join(OUT, f));
for (const t of tasks) writeFileSync(join(OUT, `${String(t.task_id).padStart(3, '0')}.json`), JSON.stringify(t, null, 2) + '\n');
const dist = {};
for (const t of tasks) { dist[t.screen] ||= { short: 0, medium: 0, long: 0 }; dist[t.screen][t.tier]++; }
const kinds = {};
for (const t of tasks) kinds[t.kind] = (kinds[t.kind] || 0) + 1;
console.log(`${tasks.length} tasks`, JSON.stringify(dist), JSON.stringify(kinds));
