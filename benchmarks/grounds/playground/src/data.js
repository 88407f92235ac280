// Deterministic seed data for the Playground. Shared by the site and by
// benchmarks/grounds/tasks/generate.mjs, so task answers are computed from the same
// rows the page shows. No Math.random, no Date.now: "today" is fixed.

export const TODAY = '2025-06-15';

// mulberry32: small seeded PRNG
export function prng(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = (r, arr) => arr[Math.floor(r() * arr.length)];
const pad = (n, w = 2) => String(n).padStart(w, '0');

// ---- plain date helpers (UTC, 'YYYY-MM-DD' strings) ----
export function addDays(iso, n) {
  const d = new Date(iso + 'T00:00:00Z');
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
export function dayOfWeek(iso) { return new Date(iso + 'T00:00:00Z').getUTCDay(); }
export function diffDays(a, b) { return Math.round((new Date(b + 'T00:00:00Z') - new Date(a + 'T00:00:00Z')) / 86400000); }

// ---- booking ----
export const DESTINATIONS = [
  ['France', ['Paris', 'Lyon', 'Marseille', 'Nice', 'Bordeaux']],
  ['Italy', ['Rome', 'Milan', 'Venice', 'Florence', 'Naples']],
  ['Spain', ['Madrid', 'Barcelona', 'Seville', 'Valencia']],
  ['Germany', ['Berlin', 'Munich', 'Hamburg', 'Cologne']],
  ['Portugal', ['Lisbon', 'Porto', 'Faro']],
  ['Greece', ['Athens', 'Thessaloniki', 'Heraklion']],
  ['Netherlands', ['Amsterdam', 'Rotterdam', 'Utrecht']],
  ['Austria', ['Vienna', 'Salzburg', 'Innsbruck']],
  ['Japan', ['Tokyo', 'Kyoto', 'Osaka', 'Sapporo']],
  ['Canada', ['Toronto', 'Vancouver', 'Montreal']],
  ['Mexico', ['Mexico City', 'Cancun', 'Oaxaca']],
  ['Australia', ['Sydney', 'Melbourne', 'Perth', 'Brisbane']],
];
export const DESTINATION_OPTIONS = DESTINATIONS.map(([c, cities]) => ({
  value: c, label: c, children: cities.map((x) => ({ value: x, label: x })),
}));

export const ROOM_TYPES = [
  { value: 'standard', label: 'Standard', rate: 120 },
  { value: 'superior', label: 'Superior', rate: 150 },
  { value: 'deluxe', label: 'Deluxe', rate: 190 },
  { value: 'family', label: 'Family', rate: 210 },
  { value: 'junior-suite', label: 'Junior Suite', rate: 260 },
  { value: 'suite', label: 'Suite', rate: 340 },
  { value: 'studio', label: 'Studio', rate: 140 },
  { value: 'penthouse', label: 'Penthouse', rate: 720 },
];
export const BOOKING_MIN = TODAY;              // no past dates
export const BOOKING_MAX = '2026-06-14';       // one year ahead
export const BLACKOUT_DATES = ['2025-07-04', '2025-08-15', '2025-12-24', '2025-12-25', '2025-12-31', '2026-01-01'];
export const MAX_NIGHTS = 14;
export const ARRIVAL_MIN = '07:00';
export const ARRIVAL_MAX = '22:45';
export const ARRIVAL_STEP = 15; // minutes
export const MAX_GUESTS = 8;

export function bookingTotal(roomType, nights, breakfast, guests) {
  const rt = ROOM_TYPES.find((r) => r.value === roomType);
  if (!rt) return 0;
  return rt.rate * nights + (breakfast ? 18 * nights * guests : 0);
}

// ---- people ----
const FIRST = ['Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Frances', 'Edsger',
  'Radia', 'Tim', 'Hedy', 'Niklaus', 'Katherine', 'John', 'Sophie', 'Donald', 'Annie', 'Bjarne',
  'Carol', 'Guido', 'Jean', 'Leslie', 'Mary', 'Claude', 'Joan', 'Vint', 'Lynn', 'Yukihiro',
  'Anita', 'Robin', 'Shafi', 'Whitfield', 'Evelyn', 'Marvin', 'Rosalind', 'Peter', 'Ida', 'Ivan'];
const LAST = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson', 'Allen', 'Dijkstra',
  'Perlman', 'Berners', 'Lamarr', 'Wirth', 'Johnson', 'McCarthy', 'Wilson', 'Knuth', 'Easley', 'Stroustrup',
  'Shaw', 'Rossum', 'Sammet', 'Lamport', 'Keller', 'Shannon', 'Clarke', 'Cerf', 'Conway', 'Matsumoto',
  'Borg', 'Milner', 'Goldwasser', 'Diffie', 'Boyd', 'Minsky', 'Picard', 'Naur', 'Rhodes', 'Sutherland'];

export const ROLES = ['Admin', 'Editor', 'Viewer', 'Billing', 'Support'];

export const DEPARTMENT_TREE = [
  { value: 'engineering', title: 'Engineering', children: [
    { value: 'platform', title: 'Platform' }, { value: 'frontend', title: 'Frontend' },
    { value: 'data', title: 'Data' }, { value: 'security', title: 'Security' }] },
  { value: 'sales', title: 'Sales', children: [
    { value: 'emea', title: 'EMEA' }, { value: 'americas', title: 'Americas' }, { value: 'apac', title: 'APAC' }] },
  { value: 'operations', title: 'Operations', children: [
    { value: 'finance', title: 'Finance' }, { value: 'hr', title: 'HR' }, { value: 'legal', title: 'Legal' }] },
  { value: 'product', title: 'Product', children: [
    { value: 'design', title: 'Design' }, { value: 'research', title: 'Research' }] },
];
export const DEPARTMENT_LEAVES = DEPARTMENT_TREE.flatMap((g) => g.children.map((c) => ({ ...c, parent: g.value, parentTitle: g.title })));
export function departmentTitle(v) {
  for (const g of DEPARTMENT_TREE) {
    if (g.value === v) return g.title;
    for (const c of g.children) if (c.value === v) return c.title;
  }
  return v;
}

function makeUsers() {
  const r = prng(20250615);
  const users = [];
  const seen = new Set();
  let i = 0;
  while (users.length < 300) {
    const first = pick(r, FIRST), last = pick(r, LAST);
    const name = `${first} ${last}`;
    if (seen.has(name)) { i++; if (i > 100000) break; continue; }
    seen.add(name);
    const n = users.length + 1;
    const dep = pick(r, DEPARTMENT_LEAVES).value;
    const role = pick(r, ROLES);
    const year = 2021 + Math.floor(r() * 4);
    const created = `${year}-${pad(1 + Math.floor(r() * 12))}-${pad(1 + Math.floor(r() * 28))}`;
    users.push({
      key: `u${pad(n, 3)}`, id: `u${pad(n, 3)}`, name,
      email: `${first}.${last}`.toLowerCase() + `${n}@example.com`,
      role, department: dep, active: r() > 0.22, created,
    });
  }
  return users;
}

const STATUSES = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'];
export const ORDER_STATUSES = STATUSES;
export const ORDER_FLOW = ['pending', 'paid', 'shipped', 'delivered'];

function makeOrders(users) {
  const r = prng(424242);
  const customers = users.slice(0, 90).map((u) => u.name);
  const orders = [];
  for (let n = 0; n < 400; n++) {
    const date = addDays('2025-01-01', Math.floor(r() * 166)); // 2025-01-01 .. 2025-06-15
    const x = r();
    const status = x < 0.14 ? 'pending' : x < 0.32 ? 'paid' : x < 0.55 ? 'shipped' : x < 0.9 ? 'delivered' : 'cancelled';
    const items = 1 + Math.floor(r() * 6);
    const total = Math.round((15 + r() * 985) * 100) / 100;
    orders.push({ key: `ORD-${1001 + n}`, id: `ORD-${1001 + n}`, customer: pick(r, customers), date, status, items, total });
  }
  return orders;
}

export const USERS = makeUsers();
export const ORDERS = makeOrders(USERS);
export const MEMBER_OPTIONS = USERS.slice(0, 60).map((u) => u.name);
export const TAG_OPTIONS = ['web', 'mobile', 'api', 'backend', 'frontend', 'infra', 'ml', 'data', 'security', 'billing',
  'search', 'payments', 'auth', 'analytics', 'reporting', 'docs', 'design', 'ux', 'perf', 'beta',
  'legacy', 'internal', 'public', 'partner', 'growth', 'onboarding', 'support', 'ops', 'qa', 'release',
  'mvp', 'research', 'compliance', 'gdpr', 'i18n', 'a11y', 'cloud', 'edge', 'cli', 'sdk'];
export const NOTIFICATION_CHANNELS = [
  { value: 'email', label: 'Email' }, { value: 'sms', label: 'SMS' }, { value: 'slack', label: 'Slack' },
  { value: 'webhook', label: 'Webhook' }, { value: 'push', label: 'Push' },
];
export const VISIBILITIES = [
  { value: 'private', label: 'Private' }, { value: 'internal', label: 'Internal' }, { value: 'public', label: 'Public' },
];

// ---- apply wizard ----
export const COUNTRIES = ['Argentina', 'Australia', 'Austria', 'Belgium', 'Brazil', 'Bulgaria', 'Canada', 'Chile', 'China',
  'Colombia', 'Croatia', 'Czechia', 'Denmark', 'Egypt', 'Estonia', 'Finland', 'France', 'Germany', 'Ghana', 'Greece',
  'Hungary', 'Iceland', 'India', 'Indonesia', 'Ireland', 'Israel', 'Italy', 'Japan', 'Kenya', 'Latvia', 'Lithuania',
  'Mexico', 'Morocco', 'Netherlands', 'New Zealand', 'Nigeria', 'Norway', 'Peru', 'Poland', 'Portugal', 'Romania',
  'Senegal', 'Singapore', 'Slovakia', 'Slovenia', 'South Africa', 'South Korea', 'Spain', 'Sweden', 'Switzerland',
  'Thailand', 'Tunisia', 'Turkey', 'Ukraine', 'United Kingdom', 'United States', 'Uruguay', 'Vietnam'];
export const POSITIONS = [
  { value: 'backend-engineer', label: 'Backend Engineer' }, { value: 'frontend-engineer', label: 'Frontend Engineer' },
  { value: 'data-scientist', label: 'Data Scientist' }, { value: 'product-manager', label: 'Product Manager' },
  { value: 'designer', label: 'Designer' }, { value: 'sre', label: 'Site Reliability Engineer' },
  { value: 'support-specialist', label: 'Support Specialist' }, { value: 'sales-executive', label: 'Sales Executive' },
];
export const WORK_MODES = [
  { value: 'onsite', label: 'On-site' }, { value: 'hybrid', label: 'Hybrid' }, { value: 'remote', label: 'Remote' },
];
export const SKILLS = [
  { value: 'c', label: 'C' }, { value: 'javascript', label: 'JavaScript' }, { value: 'python', label: 'Python' },
  { value: 'sql', label: 'SQL' }, { value: 'rust', label: 'Rust' }, { value: 'go', label: 'Go' },
];
export const START_MIN = '2025-07-01';
export const START_MAX = '2025-12-31';
export const SALARY_MIN = 20000;
export const SALARY_MAX = 300000;
export const SALARY_STEP = 1000;

export const DEFAULT_SETTINGS = {
  projectName: 'Atlas',
  description: 'Customer portal rebuild',
  visibility: 'private',
  retentionDays: 30,
  notifications: ['email'],
  department: 'platform',
  members: [USERS[0].name, USERS[1].name, USERS[2].name],
  tags: ['web', 'beta'],
  allowGuests: false,
  apiToken: 'tok_live_9f8e7d6c5b4a',
  deleted: false,
  savedCount: 0,
};

export function seedState() {
  return {
    bookings: [],
    users: USERS.map((u) => ({ ...u })),
    settings: JSON.parse(JSON.stringify(DEFAULT_SETTINGS)),
    orders: ORDERS.map((o) => ({ ...o })),
    applications: [],
  };
}
