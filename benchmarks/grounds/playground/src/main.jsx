import React, { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfigProvider, Layout, Typography, List, App as AntApp } from 'antd';
import enUS from 'antd/locale/en_US';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { CMenu } from './ci4a/components.jsx';
import { install, enabled } from './ci4a/registry.js';
import { registerWebMcp } from './webmcp.js';
import { usePath, navigate, getState, resetState, getUi } from './store.js';
import Booking from './pages/Booking.jsx';
import Users from './pages/Users.jsx';
import Settings from './pages/Settings.jsx';
import Orders, { OrderDetail } from './pages/Orders.jsx';
import Apply from './pages/Apply.jsx';

dayjs.extend(customParseFormat);

export const SCREENS = [
  { key: 'home', path: '/', label: 'Home' },
  { key: 'booking', path: '/booking', label: 'Travel booking' },
  { key: 'users', path: '/users', label: 'Users' },
  { key: 'settings', path: '/settings', label: 'Project settings' },
  { key: 'orders', path: '/orders', label: 'Orders' },
  { key: 'apply', path: '/apply', label: 'Job application' },
];

function route(path) {
  const p = path.replace(/\/+$/, '') || '/';
  const m = p.match(/^\/orders\/([^/]+)$/);
  if (m) return { key: 'orders', page: <OrderDetail id={decodeURIComponent(m[1])} key={m[1]} /> };
  switch (p) {
    case '/booking': return { key: 'booking', page: <Booking /> };
    case '/users': return { key: 'users', page: <Users /> };
    case '/settings': return { key: 'settings', page: <Settings /> };
    case '/orders': return { key: 'orders', page: <Orders /> };
    case '/apply': return { key: 'apply', page: <Apply /> };
    case '/': return { key: 'home', page: <Home /> };
    default: return { key: null, page: <Typography.Title level={3}>Page not found</Typography.Title> };
  }
}

function Home() {
  return (
    <div>
      <Typography.Title level={2}>Playground</Typography.Title>
      <Typography.Paragraph>Benchmark screens for web agents. Today is {'2025-06-15'}.</Typography.Paragraph>
      <List bordered dataSource={SCREENS.slice(1)} renderItem={(s) => (
        <List.Item><a href={s.path} onClick={(e) => { e.preventDefault(); navigate(s.path); }}>{s.label}</a></List.Item>
      )} />
    </div>
  );
}

function App() {
  const path = usePath();
  const r = route(path);
  useEffect(() => { document.title = `${(SCREENS.find((s) => s.key === r.key) || { label: 'Playground' }).label} - Playground`; }, [r.key]);
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider width={210} theme="light" style={{ borderRight: '1px solid #f0f0f0' }}>
        <div style={{ padding: 16, fontWeight: 600 }}>Playground</div>
        <nav aria-label="Main">
          <CMenu cid="main" label="Main navigation" mode="inline" selectedKeys={r.key ? [r.key] : []}
            items={SCREENS.map((s) => ({ key: s.key, label: s.label }))}
            onClick={({ key }) => navigate(SCREENS.find((s) => s.key === key).path)} />
        </nav>
      </Layout.Sider>
      <Layout.Content style={{ padding: 24 }}>
        <main key={path}>{r.page}</main>
      </Layout.Content>
    </Layout>
  );
}

window.__playground__ = {
  state() {
    const s = getState();
    return JSON.parse(JSON.stringify({
      bookings: s.bookings, users: s.users, settings: s.settings, orders: s.orders, applications: s.applications,
      route: window.location.pathname, ci4a: enabled, ui: getUi(),
    }));
  },
  reset() { resetState(); return true; },
};

install();
registerWebMcp();
createRoot(document.getElementById('root')).render(
  <ConfigProvider locale={enUS} theme={{ token: { motion: false } }}>
    <AntApp><App /></AntApp>
  </ConfigProvider>,
);
