// Page-level WebMCP tools, registered only where document.modelContext exists
// (Chromium with --enable-features=WebMCP) and CI4A is on.
import { getState, setState, navigate, nextId } from './store.js';
import { enabled } from './ci4a/registry.js';
import { ORDER_STATUSES, ROOM_TYPES, DESTINATIONS, BOOKING_MIN, BOOKING_MAX, BLACKOUT_DATES, MAX_NIGHTS, MAX_GUESTS, diffDays, bookingTotal } from './data.js';

const text = (obj) => ({ content: [{ type: 'text', text: JSON.stringify(obj) }] });

export function registerWebMcp() {
  if (!enabled) return;
  let mc;
  try { mc = document.modelContext; } catch (e) { return; }
  if (!mc || typeof mc.registerTool !== 'function') return;
  const tools = [
    {
      name: 'search_orders',
      description: 'Search orders by status and/or customer name (substring); returns the count and up to 50 matches.',
      inputSchema: { type: 'object', properties: { status: { type: 'string', enum: ORDER_STATUSES }, customer: { type: 'string' } } },
      execute: async ({ status, customer } = {}) => {
        const c = (customer || '').toLowerCase();
        const m = getState().orders.filter((o) => (!status || o.status === status) && (!c || o.customer.toLowerCase().includes(c)));
        return text({ count: m.length, orders: m.slice(0, 50) });
      },
    },
    {
      name: 'create_booking',
      description: `Create a hotel booking. Dates YYYY-MM-DD between ${BOOKING_MIN} and ${BOOKING_MAX}, not ${BLACKOUT_DATES.join(', ')}; 1-${MAX_NIGHTS} nights.`,
      inputSchema: {
        type: 'object', required: ['guestName', 'country', 'city', 'checkin', 'checkout', 'roomType'],
        properties: {
          guestName: { type: 'string' }, country: { type: 'string', enum: DESTINATIONS.map((d) => d[0]) }, city: { type: 'string' },
          checkin: { type: 'string', format: 'date' }, checkout: { type: 'string', format: 'date' },
          guests: { type: 'integer', minimum: 1, maximum: MAX_GUESTS }, roomType: { type: 'string', enum: ROOM_TYPES.map((r) => r.value) },
          breakfast: { type: 'boolean' },
        },
      },
      execute: async (p = {}) => {
        const d = DESTINATIONS.find((x) => x[0] === p.country);
        const bad = (m) => text({ ok: false, error: m });
        if (!p.guestName || !d || !d[1].includes(p.city)) return bad('unknown destination or missing guest name');
        const ok = (x) => /^\d{4}-\d{2}-\d{2}$/.test(x || '') && x >= BOOKING_MIN && x <= BOOKING_MAX && !BLACKOUT_DATES.includes(x);
        if (!ok(p.checkin) || !ok(p.checkout)) return bad('date not allowed');
        const nights = diffDays(p.checkin, p.checkout);
        if (nights < 1 || nights > MAX_NIGHTS) return bad(`stay must be 1-${MAX_NIGHTS} nights`);
        if (!ROOM_TYPES.some((r) => r.value === p.roomType)) return bad('unknown room type');
        const guests = p.guests || 2;
        const b = { id: nextId('B', getState().bookings), guestName: p.guestName, destination: [p.country, p.city], checkin: p.checkin, checkout: p.checkout,
          nights, guests, roomType: p.roomType, arrival: null, breakfast: !!p.breakfast };
        b.total = bookingTotal(b.roomType, nights, b.breakfast, guests);
        setState((s) => ({ bookings: [...s.bookings, b] }));
        return text({ ok: true, booking: b });
      },
    },
    {
      name: 'open_order',
      description: 'Open the detail page of one order by id (e.g. ORD-1001).',
      inputSchema: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
      execute: async ({ id } = {}) => {
        if (!getState().orders.some((o) => o.id === id)) return text({ ok: false, error: 'unknown order' });
        navigate(`/orders/${id}`);
        return text({ ok: true });
      },
    },
  ];
  for (const t of tools) {
    try { mc.registerTool(t); } catch (e) { /* ignore */ }
  }
}
