// The current view (the last full observation with later deltas applied) and
// targets resolved to the ids it prints, on the recorded Playground views.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { View, findElement, findComponent, observationsOf, currentView, tables, optionsListed } from '../lib/view.mjs';
import { userText, openaiBody, anthropicBody, decideOn, view, HYBRID_TOOLS } from './fixtures.mjs';

const id = (v, target) => {
  const m = /^(\S+) '(.*)'(?: #(\d+))?$/s.exec(target);
  return findElement(new View(v), m[1], m[2], m[3] ? Number(m[3]) : 1)?.id ?? null;
};

test('atomic view: [id] role \'name\', exact, no-break spaces as the view prints them (\\xa0)', () => {
  assert.equal(id(view('apply.atomic'), "textbox '* Full name'"), '2491');
  assert.equal(id(view('apply.atomic'), "textbox 'Full name'"), null);
  assert.equal(id(view('booking.atomic'), "checkbox 'Extras Breakfast included \u00a0'"), '10');
  assert.equal(id(view('orders.atomic'), "link 'ORD-1002'"), '2112');
});

test('pruned view: role [id] \'name\', in table rows too', () => {
  assert.equal(id(view('apply.pruned'), "textbox '* Email'"), '8');
  assert.equal(id(view('orders.pruned'), "link 'ORD-1003'"), '19');
  assert.equal(id(view('users.pruned'), "button 'Edit Anita Minsky'"), '33');
  assert.equal(id(view('booking-open.pruned'), "checkbox 'Extras Breakfast included \u00a0'"), '16');
});

test('a control inside a cell\'s control or after its text is seen in a table row', () => {
  const v = "table\n\t| columnheader [13] 'Role filter' button [14] 'filter' | columnheader [15] 'Department filter' button [16] 'filter' |\n"
    + "\t| ORD-1 link [17] 'Open' | Note [5] |";
  assert.equal(id(v, "columnheader 'Role filter'"), '13');
  assert.equal(id(v, "button 'filter'"), '14');
  assert.equal(id(v, "button 'filter' #2"), '16');
  assert.equal(id(v, "link 'Open'"), '17');
  assert.equal(id("text button [3] 'x'", "button 'x'"), null, 'outside a table row only at the line start');
});

test('#N is the Nth match in view order', () => {
  const v = "[1] RootWebArea 'x'\n\t[2] button 'Delete'\n\t[3] button 'Delete'";
  assert.equal(id(v, "button 'Delete'"), '2');
  assert.equal(id(v, "button 'Delete' #2"), '3');
  assert.equal(id(v, "button 'Delete' #3"), null);
});

test('hybrid view: a component by label (case, accents, whole words), kind \'label\', page tool name', () => {
  const v = new View(view('apply-open.hybrid'));
  assert.equal(findComponent(v, 'Full name', 'setValue').comp.id, 'c4');
  assert.equal(findComponent(v, 'full NAME', 'setValue').comp.id, 'c4');
  assert.equal(findComponent(v, "input 'Email'", 'setValue').comp.id, 'c5');
  assert.equal(findComponent(v, 'Country', 'setValue').comp.id, 'c6'); // whole words of 'Country of residence'
  assert.equal(findComponent(v, 'open_order', 'open_order').comp.id, 'c9');
  assert.equal(findComponent(v, 'Countr', 'setValue').error, 'cannot see Countr');
  assert.equal(findComponent(v, 'input-full-name', 'setValue').error, 'cannot see input-full-name');
  const accents = new View("[c1] input 'Prénom' → setValue(text)\n[c2] input 'Nom de famille' → setValue(text)");
  assert.equal(findComponent(accents, 'prenom', 'setValue').comp.id, 'c1');
  const two = new View("[c1] input 'Name' → setValue(text)\n[c2] input 'Name' → setValue(text)");
  assert.match(findComponent(two, 'Name', 'setValue').error, /cannot tell which Name/);
});

test('hybrid view: an atomic target printed as a component line is that component; click goes through its tool', () => {
  const task = { task_id: 7, intent: 'Press Next', script: [{ click: "button 'Next'" }], atomic_script: [] };
  const d = decideOn('openai', openaiBody({ first: userText({ objective: task.intent, observation: view('apply-open.hybrid') }),
    tools: HYBRID_TOOLS }), [task]);
  assert.deepEqual(d.calls, [{ name: 'call', args: { k: 'c7', tool: 'click', params: {} } }]);
});

test('a call target the view does not print, and css= targets, are not seen', () => {
  const task = { task_id: 8, intent: 'Name Ada Lovelace', script: [{ call: 'input-full-name', tool: 'setValue', params: { text: 'Ada Lovelace' } }],
    atomic_script: [{ click: 'css=.ant-btn' }] };
  const first = userText({ objective: task.intent, observation: view('apply-open.hybrid') });
  assert.deepEqual(decideOn('openai', openaiBody({ first, tools: HYBRID_TOOLS }), [task]).calls,
    [{ name: 'stop', args: { answer: 'cannot see input-full-name' } }]);
  assert.deepEqual(decideOn('openai', openaiBody({ first }), [task]).calls,
    [{ name: 'stop', args: { answer: 'cannot see css=.ant-btn' } }]);
});

// ---- deltas ---------------------------------------------------------------------------

const BASE = view('apply-open.hybrid');
const DELTA = `(changes since the last observation)
changed components:
[c4] input 'Full name' value: 'Ada' → setValue(text) clear()
added:
+ [c11] button 'Submit' → click()
+ Saved a draft
removed:
- [c7]`;

test('a delta applied to the view it refers to: changed whole, added, removed', () => {
  const v = new View(BASE).apply(DELTA);
  const text = v.text();
  assert.match(text, /\t\[c4\] input 'Full name' value: 'Ada'/); // in place, at its depth
  assert.doesNotMatch(text, /\[c4\] input 'Full name' → /);
  assert.match(text, /\[c11\] button 'Submit'/);
  assert.match(text, /Saved a draft/);
  assert.doesNotMatch(text, /\[c7\]/);
});

test('a removed line without an id goes; the delta of rows keeps the table block whole', () => {
  const base = "[c5] table 'Orders' rowCount: 2 → sort(column)\n\t| key | total |\n\t| A | 1 |\n\t| B | 2 |\nNote one\nNote two";
  const v = new View(base).apply("(changes since the last observation)\nchanged components:\n[c5] table 'Orders' rowCount: 1 → sort(column)\n\t| key | total |\n\t| B | 2 |\nremoved:\n- Note one");
  assert.deepEqual(tables(v)[0].rows, [['B', '2']]);
  assert.doesNotMatch(v.text(), /Note one/);
  assert.match(v.text(), /Note two/);
});

test('the current view is the last full observation with every later delta applied', () => {
  const obs = observationsOf([
    userText({ objective: 'x', observation: "[1] RootWebArea 'old'\n\t[2] button 'Old'" }),
    userText({ objective: 'x', observation: BASE }),
    userText({ objective: 'x', observation: DELTA }),
    userText({ objective: 'x', observation: "(changes since the last observation)\nadded:\n+ [c12] button 'Later' → click()" }),
  ]);
  assert.deepEqual(obs.map((o) => o.delta), [false, false, true, true]);
  const { view: v } = currentView(obs);
  assert.equal(findComponent(v, 'Submit', 'click').comp.id, 'c11');
  assert.equal(findComponent(v, 'Later', 'click').comp.id, 'c12');
  assert.equal(findComponent(v, 'Old', 'click').error, 'cannot see Old');
});

for (const [provider, build] of [['openai', openaiBody], ['anthropic', anthropicBody]]) {
  test(`${provider}: a delta with no full observation before it in the request → stop`, () => {
    const task = { task_id: 9, intent: 'Press Submit', script: [{ call: 'Submit', tool: 'click', params: {} }], atomic_script: [] };
    const d = decideOn(provider, build({ first: userText({ objective: task.intent, observation: DELTA }), tools: HYBRID_TOOLS }), [task]);
    assert.deepEqual(d.calls, [{ name: 'stop', args: { answer: 'cannot see the view this delta refers to' } }]);
  });

  test(`${provider}: with the full view earlier in the conversation the delta is read on it`, () => {
    const task = { task_id: 9, intent: 'Press Submit', script: [{ call: 'Full name', tool: 'clear', params: {} }, { call: 'Submit', tool: 'click', params: {} }], atomic_script: [] };
    const d = decideOn(provider, build({
      first: userText({ objective: task.intent, observation: BASE }),
      turns: [{ calls: [{ name: 'call', args: { k: 'c4', tool: 'clear', params: {} } }], results: ['ok: cleared'],
        user: userText({ objective: task.intent, observation: DELTA }) }],
      tools: HYBRID_TOOLS,
    }), [task]);
    assert.deepEqual(d.calls, [{ name: 'call', args: { k: 'c11', tool: 'click', params: {} } }]);
  });
}

test('an empty antd table is no rows: its one cell reads "No data No data" in the atomic view', () => {
  const atomic = "[249] table ''\n\t[252] rowgroup ''\n\t\t[253] row ''\n\t\t\t[254] columnheader 'Name'\n"
    + "\t[1036] row ''\n\t\t[1033] cell 'No data No data'\n\t\t\t[1029] image 'No data'\n";
  const t = tables(new View(atomic));
  assert.equal(t.reduce((n, x) => n + x.rows.length, 0), 0);
  const one = atomic.replace("'No data No data'", "'Ada Lovelace'");
  assert.equal(tables(new View(one)).reduce((n, x) => n + x.rows.length, 0), 1);
});

test("an unnamed target (textbox '') is the line printed without a name, not a named one's start", () => {
  const pruned = "textbox [5] '[F]'\nbutton [6] 'Search'\ntextbox [32] value: 'Cirrus runs a network'";
  assert.equal(findElement(new View(pruned), 'textbox', '').id, '32');
  const atomic = "[5] textbox '[F]'\n[32] textbox '' value: 'x'";
  assert.equal(findElement(new View(atomic), 'textbox', '').id, '32');
  assert.equal(findElement(new View("textbox [5] '[F]'"), 'textbox', ''), null);
});

test("a delta's new rows go below its unmarked context line, and count as the table's rows", () => {
  const full = "[1] table ''\n\t[2] row ''\n\t\t[3] cell 'a'\n\t[4] row ''\n\t\t[5] cell 'b'\n[9] button 'Next'";
  const delta = '(changes since the last observation)\nadded:\n  [5] cell \'b\'\n+ [6] row \'\'\n+ [7] cell \'c\'\n'
    + '+ [8] row \'\'\n+ [10] cell \'d\'\n  [9] button \'Next\'\n+ [11] StaticText \'x\'';
  const v = new View(full).apply(delta);
  assert.deepEqual(tables(v)[0].rows, [['a'], ['b'], ['c'], ['d']]);
  assert.ok(v.text().endsWith("[9] button 'Next'\n[11] StaticText 'x'"), v.text());
});

test('a delta re-adding a pruned/hybrid line of an element shown (a list that gained its line) moves it, no copy', () => {
  const full = "[c2] combobox 'Destination' expanded: true → select(option)\n| No data |\n"
    + "menuitemcheckbox [19] 'France right'\nmenuitemcheckbox [27] 'Japan right'\nbutton [9] 'Book'";
  const delta = "(changes since the last observation)\nadded:\n  | No data |\n+ menu\n+ menuitemcheckbox [19] 'France right'\n"
    + "+ menuitemcheckbox [27] 'Japan right'\n+ menu\n+ menuitemcheckbox [31] 'Tokyo'\n+ menuitemcheckbox [32] 'Kyoto'";
  const v = new View(full).apply(delta);
  assert.equal(v.text().match(/'Japan right'/g).length, 1, v.text());
  assert.equal(optionsListed(v, 'Japan right'), 2, v.text());
});

test('a link listed by a group of links (eous\'s native "links" component) is opened through it, in hybrid only', () => {
  const obs = "link [1] 'Aurora'\n[c2] links 'Page Tools' → open(link: Show pagesource [v]|Old revisions [o]|Backlinks)";
  const task = { task_id: 1, intent: 'Show the old revisions.', script: [{ click: "link 'Old revisions [o]'" }, { stop: '' }],
    atomic_script: [{ click: "link 'Old revisions [o]'" }, { stop: '' }] };
  const first = userText({ objective: task.intent, observation: obs });
  const d = decideOn('openai', openaiBody({ first, tools: HYBRID_TOOLS }), [task]);
  assert.deepEqual(d.calls, [{ name: 'call', args: { k: 'c2', tool: 'open', params: { link: 'Old revisions [o]' } } }]);
  // a line of its own wins; a name the group does not list is not seen; the atomic plan cannot call
  const own = decideOn('openai', openaiBody({ first: userText({ objective: task.intent, observation: `${obs}\nlink [3] 'Old revisions [o]'` }),
    tools: HYBRID_TOOLS }), [task]);
  assert.deepEqual(own.calls, [{ name: 'click', args: { id: '3' } }]);
  const none = decideOn('openai', openaiBody({ first: userText({ objective: task.intent, observation: obs.replace('Old revisions [o]|', '') }),
    tools: HYBRID_TOOLS }), [task]);
  assert.match(none.text, /cannot see link 'Old revisions \[o\]'/);
  assert.match(decideOn('openai', openaiBody({ first }), [task]).text, /cannot see/);
});
