import React, { useState } from 'react';
import { Typography, Space, Tag, Card, Descriptions, Button, message } from 'antd';
import { CRangePicker, CSelect, CInput, CTable, CPagination, CSteps, CButton } from '../ci4a/components.jsx';
import { ORDER_STATUSES, ORDER_FLOW } from '../data.js';
import { useStore, setState, navigate } from '../store.js';

const D = 'YYYY-MM-DD';
const COLORS = { pending: 'gold', paid: 'blue', shipped: 'purple', delivered: 'green', cancelled: 'red' };
const cap = (s) => s[0].toUpperCase() + s.slice(1);
export const statusOptions = ORDER_STATUSES.map((s) => ({ value: s, label: cap(s) }));

// list filters live in module scope so they survive going to a detail page and back
let saved = { range: null, status: undefined, customer: '', page: 1, pageSize: 20 };

export default function Orders() {
  const orders = useStore((s) => s.orders);
  const [range, setRange0] = useState(saved.range);
  const [status, setStatus0] = useState(saved.status);
  const [customer, setCustomer0] = useState(saved.customer);
  const [page, setPage0] = useState(saved.page);
  const [pageSize, setPageSize0] = useState(saved.pageSize);
  const wrap = (name, set, resetPage = true) => (v) => { saved = { ...saved, [name]: v, ...(resetPage ? { page: 1 } : {}) }; set(v); if (resetPage) setPage0(1); };
  const setRange = wrap('range', setRange0), setStatus = wrap('status', setStatus0), setCustomer = wrap('customer', setCustomer0);

  const from = range && range[0] ? range[0].format(D) : null;
  const to = range && range[1] ? range[1].format(D) : null;
  const c = customer.trim().toLowerCase();
  const filtered = orders.filter((o) => (!from || o.date >= from) && (!to || o.date <= to) && (!status || o.status === status) && (!c || o.customer.toLowerCase().includes(c)));
  const pageCount = Math.max(1, Math.ceil(filtered.length / pageSize));
  const cur = Math.min(page, pageCount);
  const rows = filtered.slice((cur - 1) * pageSize, cur * pageSize);
  const sum = filtered.reduce((a, o) => a + o.total, 0);

  const columns = [
    { key: 'id', title: 'Order', dataIndex: 'id', render: (id) => <a href={`/orders/${id}`} onClick={(e) => { e.preventDefault(); navigate(`/orders/${id}`); }}>{id}</a> },
    { key: 'date', title: 'Date', dataIndex: 'date' },
    { key: 'customer', title: 'Customer', dataIndex: 'customer' },
    { key: 'items', title: 'Items', dataIndex: 'items' },
    { key: 'total', title: 'Total (EUR)', dataIndex: 'total', render: (t) => t.toFixed(2) },
    { key: 'status', title: 'Status', dataIndex: 'status', render: (s) => <Tag color={COLORS[s]}>{cap(s)}</Tag> },
  ];
  return (
    <div>
      <Typography.Title level={2}>Order management</Typography.Title>
      <Space style={{ marginBottom: 16 }} wrap>
        <CRangePicker cid="order-dates" label="Order dates" min="2025-01-01" max="2025-06-15" pickerStart="2025-05-01"
          value={range} onChange={setRange} placeholder={['From date', 'To date']} allowClear />
        <CSelect cid="order-status" label="Status" aria-label="Status" placeholder="Any status" allowClear value={status} onChange={setStatus}
          options={statusOptions} style={{ width: 160 }} />
        <CInput cid="customer-search" label="Customer" placeholder="Customer name" allowClear value={customer}
          onChange={(e) => setCustomer(e.target.value)} style={{ width: 200 }} />
      </Space>
      <div id="orders-summary" style={{ marginBottom: 8 }}>{filtered.length} orders, total {sum.toFixed(2)} EUR</div>
      <CTable cid="orders" label="Orders" columns={columns} dataSource={rows} rowKey="id" pagination={false} size="small"
        rowActions={{ view: (r) => navigate(`/orders/${r.id}`) }} />
      <CPagination cid="orders" label="Orders pages" style={{ marginTop: 12 }} current={cur} pageSize={pageSize} total={filtered.length}
        showSizeChanger onChange={(p, s) => { if (s !== pageSize) { saved = { ...saved, pageSize: s, page: 1 }; setPageSize0(s); setPage0(1); } else { saved = { ...saved, page: p }; setPage0(p); } }} />
    </div>
  );
}

export function OrderDetail({ id }) {
  const order = useStore((s) => s.orders.find((o) => o.id === id));
  if (!order) return <Card><Typography.Title level={3}>Order not found</Typography.Title><Button onClick={() => navigate('/orders')}>Back to orders</Button></Card>;
  const idx = ORDER_FLOW.indexOf(order.status);
  const cancelled = order.status === 'cancelled';
  const next = !cancelled && idx < ORDER_FLOW.length - 1 ? ORDER_FLOW[idx + 1] : null;
  const update = (st) => { setState((s) => ({ orders: s.orders.map((o) => (o.id === id ? { ...o, status: st } : o)) })); message.success(`Order ${id} is now ${st}`); };
  return (
    <div>
      <Typography.Title level={2}>Order {order.id}</Typography.Title>
      <Card>
        <Descriptions column={2} items={[
          { key: 'customer', label: 'Customer', children: order.customer },
          { key: 'date', label: 'Date', children: order.date },
          { key: 'items', label: 'Items', children: order.items },
          { key: 'total', label: 'Total (EUR)', children: order.total.toFixed(2) },
          { key: 'status', label: 'Status', children: <span id="order-status">{cap(order.status)}</span> },
        ]} />
        <CSteps cid="order-status" label="Order status" style={{ margin: '24px 0' }} current={cancelled ? 0 : idx} status={cancelled ? 'error' : 'process'}
          items={ORDER_FLOW.map((s, i) => ({ title: cancelled && i === 0 ? 'Cancelled' : cap(s) }))} />
        <Space>
          <CButton cid="advance-status" label={next ? `Mark as ${next}` : 'Advance status'} type="primary" disabled={!next} onClick={() => update(next)}>
            {next ? `Mark as ${next}` : 'Advance status'}
          </CButton>
          <CButton cid="cancel-order" label="Cancel order" danger disabled={cancelled || order.status === 'delivered'} onClick={() => update('cancelled')}>Cancel order</CButton>
          <CButton cid="back-to-orders" label="Back to orders" onClick={() => navigate('/orders')}>Back to orders</CButton>
        </Space>
      </Card>
    </div>
  );
}
