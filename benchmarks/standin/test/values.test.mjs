// Values must be visible in the request; "from" rules are evaluated on the current view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { View } from '../lib/view.mjs';
import { evalFrom } from '../lib/plan.mjs';
import { userText, openaiBody, decideOn, view, HYBRID_TOOLS } from './fixtures.mjs';

const FORM = "[1] RootWebArea 'Form'\n\t[2] textbox 'Name'\n\t[3] combobox 'Country' hasPopup: menu\n\t[4] StaticText 'Total: 1,020 EUR'";
const run = (intent, atomic_script, { observation = FORM, tools, turns } = {}) =>
  decideOn('openai', openaiBody({ first: userText({ objective: intent, observation }), tools, turns }),
    [{ task_id: 1, intent, script: atomic_script, atomic_script }]);
const answer = (d) => (d.calls[0].name === 'stop' ? d.calls[0].args.answer : null);

test('typed text, an option and a stop answer must be in the request', () => {
  assert.equal(answer(run('Type Ada', [{ type: "textbox 'Name'", text: 'Zed' }])), 'cannot see Zed');
  assert.deepEqual(run('Type Ada', [{ type: "textbox 'Name'", text: 'ada' }]).calls[0].args.text, 'ada');
  assert.equal(answer(run('Pick a country', [{ select: "combobox 'Country'", option: 'France' }])), 'cannot see France');
  assert.equal(answer(run('What is the total?', [{ stop: '1,020 EUR' }])), '1,020 EUR');
  assert.equal(answer(run('What is the total?', [{ stop: '999' }])), 'cannot see 999');
  assert.equal(answer(run('What is the total?', [{ stop: '1,0' }])), 'cannot see 1,0'); // whole words only
});

test('a value shown in a tool result counts; accents, case and spaces aside; a date as printed', () => {
  const d = run('Type the code', [{ type: "textbox 'Name'", text: 'Zoë  Ünal' }], {
    turns: [{ calls: [{ name: 'click', args: { id: '9' } }], results: ['error: try the code ZOE UNAL'], user: 'next' }] });
  assert.equal(d.calls[0].args.text, 'Zoë  Ünal');
  assert.equal(run('Check in on June 20, 2025', [{ type: "textbox 'Name'", text: '2025-06-20' }]).calls[0].name, 'type');
  assert.equal(answer(run('Check in soon', [{ type: "textbox 'Name'", text: '2025-06-20' }])), 'cannot see 2025-06-20');
});

test('every call param, numbers and booleans too; a secret by its name; list answers by parts; N/A', () => {
  const hv = "[c1] inputnumber 'Guests' value: 2 → setValue(value: integer, 1..8)\n[c2] switch 'Active' checked: true → setValue(checked: boolean)";
  const hy = (intent, script) => run(intent, script, { observation: hv, tools: HYBRID_TOOLS });
  assert.equal(answer(hy('Book for 3 guests', [{ call: 'Guests', tool: 'setValue', params: { value: 4 } }])), 'cannot see 4');
  assert.deepEqual(hy('Book for 3 guests', [{ call: 'Guests', tool: 'setValue', params: { value: 3 } }]).calls[0].args,
    { k: 'c1', tool: 'setValue', params: { value: 3 } });
  assert.equal(hy('Turn it off', [{ call: 'Active', tool: 'setValue', params: { checked: false } }]).calls[0].name, 'stop');
  assert.equal(hy('Set active to false', [{ call: 'Active', tool: 'setValue', params: { checked: false } }]).calls[0].name, 'call');
  const secret = [{ type: "textbox 'Name'", text: '{{secret:WIKI_PASSWORD}}' }];
  assert.equal(run('Log in (the password is the stored secret WIKI_PASSWORD)', secret).calls[0].name, 'type');
  assert.equal(answer(run('Log in', secret)), 'cannot see {{secret:WIKI_PASSWORD}}');
  const offered = decideOn('openai', openaiBody({ first: userText({ objective: 'Log in', observation: FORM,
    secrets: 'WIKI_PASSWORD, API_KEY' }) }), [{ task_id: 1, intent: 'Log in', script: secret, atomic_script: secret }]);
  assert.equal(offered.calls[0].name, 'type', 'eous named the secret in the request');
  assert.equal(answer(run('Which cities: Lisbon, Porto or Faro?', [{ stop: 'Lisbon, Porto and Faro' }])), 'Lisbon, Porto and Faro');
  assert.equal(answer(run('Book 12 guests', [{ stop: 'N/A' }])), 'N/A');
});

// ---- from rules -----------------------------------------------------------------------

const ev = (rule, v, text) => evalFrom(rule, '?', new View(v), text ?? '');

test('count of rows shown…: hybrid table component, pruned | rows, atomic row lines (headers and no-data rows aside)', () => {
  assert.deepEqual(ev('count of rows shown after the filter', view('orders.hybrid')), { value: '20' });
  assert.deepEqual(ev('count of rows shown', view('users.pruned')), { value: '10' });
  assert.deepEqual(ev('count of rows shown', view('orders.atomic')), { value: '20' });
  assert.deepEqual(ev('count of rows shown', view('booking.hybrid')), { value: '0' }); // (no rows)
  // a native table component: the table beneath it, its header line and a "No data" row are no rows
  const native = "[c2] table '' → filter(column: Role; values: [string])\n\ttable\n"
    + "\t\t| columnheader [9] 'Name' | columnheader [13] 'Role filter' button [14] 'filter' |\n";
  assert.deepEqual(ev('count of rows shown', `${native}\t\t| No data |`), { value: '0' });
  assert.deepEqual(ev('count of rows shown', `${native}\t\t| Ada | Admin |\n\t\t| Alan | Admin |`), { value: '2' });
  // the answer is the computed count, not the plan's number
  const d = run('How many orders are shown?', [{ stop: '7', from: 'count of rows shown after the filter' }],
    { observation: view('orders.pruned') });
  assert.equal(answer(d), '20');
});

test("count of options listed for '<label>': only a whole list", () => {
  assert.deepEqual(ev("count of options listed for 'Room type'", view('booking-open.hybrid')), { value: '8' });
  assert.deepEqual(ev("count of options listed for 'Destination'", view('booking-open.hybrid')), { value: '12' });
  assert.match(ev("count of options listed for 'Country of residence'", view('apply-open.hybrid')).error, /only part/);
  assert.deepEqual(ev("count of options listed for 'Members'", view('settings-open.pruned')), { value: '2' });
  assert.match(ev("count of options listed for 'Nope'", view('settings-open.pruned')).error, /cannot see Nope/);
});

test("sum|min|max of column '<name>' over the shown rows", () => {
  const v = "[c5] table 'Orders' → sort(column)\n\t| key | items | total |\n\t| A | 2 | 649.14 |\n\t| B | 4 | 966.74 |\n\t| C | 1 | 1,000.5 |";
  assert.deepEqual(ev("sum of column 'total'", v), { value: '2616.38' });
  assert.deepEqual(ev("min of column 'Items'", v), { value: '1' });
  assert.deepEqual(ev("max of column 'items' over the shown rows", v), { value: '4' });
  assert.deepEqual(ev("max of column 'Total'", view('orders.pruned')), { value: '966.74' }); // 'Total (EUR)'
  assert.match(ev("sum of column 'weight'", v).error, /no column 'weight'/);
});

test("date 'YYYY-MM-DD' plus|minus N days: the date and N must be shown", () => {
  assert.deepEqual(ev("date '2025-06-20' plus 14 days", '', 'check in 2025-06-20 for 14 nights'), { value: '2025-07-04' });
  assert.deepEqual(ev("date '2025-03-01' minus 1 day", '', '2025-03-01 1'), { value: '2025-02-28' });
  assert.deepEqual(ev("date '2025-06-20' plus 14 days", '', 'check in 2025-06-20'), { error: 'cannot see 14' });
  assert.deepEqual(ev("date '2025-06-20' plus 14 days", '', '14 nights'), { error: 'cannot see 2025-06-20' });
  const d = run('Check out 14 days after 2025-06-20', [{ type: "textbox 'Name'", text: '2025-07-04', from: "date '2025-06-20' plus 14 days" }]);
  assert.equal(d.calls[0].args.text, '2025-07-04');
});

test('placeholder: typed text need not be seen; never a stop answer or an option', () => {
  assert.equal(run('Reach the next step', [{ type: "textbox 'Name'", text: 'X Y', from: 'placeholder details' }]).calls[0].name, 'type');
  assert.match(answer(run('Reach the next step', [{ stop: 'X Y', from: 'placeholder' }])), /cannot see how X Y was found/);
  assert.match(answer(run('Reach the next step', [{ select: "combobox 'Country'", option: 'Chile', from: 'placeholder' }])), /cannot see how Chile/);
});

test("placeholder on a form's fill(): each of its text values is filler; a fill() with a non-text value is no typed text", () => {
  const obs = "[c1] form 'form' → fill(Full name?; Email?; Agree?: true|false) submit(as in fill)";
  const hybrid = (script) => decideOn('openai', openaiBody({ first: userText({ objective: 'Reach the next step', observation: obs }),
    tools: HYBRID_TOOLS }), [{ task_id: 1, intent: 'Reach the next step', atomic_script: [], script }]);
  const fill = { call: "form 'form'", tool: 'fill', params: { 'Full name': 'X Y', Email: 'x@example.com' } };
  assert.deepEqual(hybrid([{ ...fill, from: 'placeholder details' }]).calls[0].args.params, fill.params);
  assert.equal(answer(hybrid([fill])), 'cannot see X Y');
  assert.match(answer(hybrid([{ ...fill, params: { ...fill.params, Agree: true }, from: 'placeholder' }])), /a placeholder is only for typed text/);
});

test('any other rule: cannot see how the value was found', () => {
  assert.equal(answer(run('How many?', [{ stop: '8', from: 'count of the Room type options the select offers' }])),
    'cannot see how 8 was found (count of the Room type options the select offers)');
});

test('"count of matches in the last result": the items of the matches list the last tool result holds', () => {
  const req = { events: [{ kind: 'result', text: 'ok: clicked' },
    { kind: 'result', text: 'ok: {"matches":[{"label":"Tokyo"},{"label":"Osaka, \\"Kansai\\" [x]"},{"label":"Kyoto"}]}' }] };
  assert.deepEqual(evalFrom('count of matches in the last result', '3', new View(''), '', req), { value: '3' });
  const none = { events: [{ kind: 'result', text: 'ok: searched' }] };
  assert.ok(evalFrom('count of matches in the last result', '3', new View(''), '', none).error);
});

test('"count of matches in the last result" in a stateless request: the last PREVIOUS ACTIONS line', () => {
  const first = userText({ objective: 'How many cities?', observation: FORM,
    previous: ['call [c4] [search] [{"query":"Japan"}] -> ok: c4.search: ok; result {"matches":[["Japan","Tokyo"],["Japan","Kyoto"]]}'] });
  const req = { events: [{ kind: 'user', text: first }] };
  assert.deepEqual(evalFrom('count of matches in the last result', '2', new View(''), '', req), { value: '2' });
});

test('element ids are not data: [8] in a view does not make 8 seen', () => {
  const obs = "[8] button 'Go'\n[12] StaticText 'Total 5'";
  const stop = (v) => answer(run('How many?', [{ stop: v }], { observation: obs }));
  assert.equal(stop('8'), 'cannot see 8');
  assert.equal(stop('5'), '5');
});

test('count of options listed for a label in atomic views: the first list after it, nested or flattened by a delta', () => {
  const nested = "[1] menu ''\n\t[2] menuitemcheckbox 'Japan right'\n\t[3] menuitemcheckbox 'Spain right'\n"
    + "[9] menu ''\n\t[10] menuitemcheckbox 'Tokyo'\n\t[11] menuitemcheckbox 'Kyoto'\n[12] button 'OK'";
  assert.deepEqual(ev("count of options listed for 'Japan right'", nested), { value: '2' });
  // a delta's "+ " lines carry no indentation: the reconstructed view has them flat after the base
  const flat = "[1] menu ''\n\t[2] menuitemcheckbox 'Japan right'\n[9] menu ''\n[10] menuitemcheckbox 'Tokyo'\n"
    + "[11] menuitemcheckbox 'Kyoto'\n[13] menuitemcheckbox 'Osaka'\n[12] button 'OK'";
  assert.deepEqual(ev("count of options listed for 'Japan right'", flat), { value: '3' });
  assert.ok(ev("count of options listed for 'Peru'", nested).error);
});

test('typing after what a field holds (clear: false) passes clear: false, when the type tool offers it', () => {
  const step = [{ type: "textbox 'Name'", text: '\nA new line.', clear: false }];
  const d = run('Add the line "A new line." to the name', step);
  assert.deepEqual(d.calls[0].args, { id: '2', text: '\nA new line.', enter: false, clear: false });
  const old = run('Add the line "A new line." to the name', step,
    { tools: ['click', 'type-', 'stop'] });
  assert.equal(answer(old), "cannot type after what textbox 'Name' holds: the type tool has no clear");
  assert.equal(run('Type Ada', [{ type: "textbox 'Name'", text: 'Ada' }]).calls[0].args.clear, undefined);
});

test('a text of several lines is seen line by line (a textarea prints a node a line)', () => {
  const src = "[1] RootWebArea 'Edit'\n\t[2] textbox '' value: '== Title =='\n\t\tStaticText '== Title =='\n"
    + "\t\tStaticText '| Status | paused |'";
  const step = (text) => run('Edit the page', [{ type: "textbox ''", text }], { observation: src });
  assert.equal(step('== Title ==\n\n| Status | ').calls[0].name, 'type');
  assert.equal(answer(step('== Title ==\n| Lead | Ada |')), 'cannot see == Title ==\n| Lead | Ada |');
});

test('a path through a cascade ("France / Paris") is seen when each of its parts is', () => {
  assert.equal(run('Book a room in Paris, France', [{ select: "combobox 'Country'", option: 'France / Paris' }]).calls[0].name, 'select');
  assert.equal(answer(run('Book a room in Paris', [{ select: "combobox 'Country'", option: 'France / Paris' }])),
    'cannot see France / Paris');
  assert.equal(answer(run('Book a room in Paris, France', [{ select: "combobox 'Country'", option: 'France / ' }])),
    'cannot see France / ');
  // a number is no level of a cascade: '50 / page' is seen whole or not at all
  assert.equal(answer(run('Show 50 orders a page', [{ select: "combobox 'Country'", option: '50 / page' }])),
    'cannot see 50 / page');
});
