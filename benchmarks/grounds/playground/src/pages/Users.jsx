import React, { useState } from 'react';
import { Form, Typography, Space, Tag, Button, message } from 'antd';
import { CInput, CSelect, CSwitch, CButton, CForm, CTable, CModal, CDrawer, CTreeSelect } from '../ci4a/components.jsx';
import { ROLES, DEPARTMENT_TREE, DEPARTMENT_LEAVES, departmentTitle } from '../data.js';
import { useStore, setState } from '../store.js';

const deptTree = DEPARTMENT_TREE.map((g) => ({ ...g, selectable: false }));

export default function Users() {
  const users = useStore((s) => s.users);
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState([]);
  const [editing, setEditing] = useState(null);
  const [adding, setAdding] = useState(false);
  const [editForm] = Form.useForm();
  const [addForm] = Form.useForm();

  const q = query.trim().toLowerCase();
  const shown = q ? users.filter((u) => u.name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q)) : users;

  const openEdit = (u) => { setEditing(u.id); editForm.setFieldsValue({ name: u.name, email: u.email, role: u.role, department: u.department, active: u.active }); };
  const saveEdit = async () => {
    const v = await editForm.validateFields();
    setState((s) => ({ users: s.users.map((u) => (u.id === editing ? { ...u, ...v, name: v.name.trim() } : u)) }));
    message.success('User saved');
    setEditing(null);
  };
  const saveNew = async () => {
    const v = await addForm.validateFields();
    setState((s) => {
      const n = s.users.length + 1;
      const id = `u${String(n).padStart(3, '0')}`;
      return { users: [...s.users, { key: id, id, name: v.name.trim(), email: v.email, role: v.role, department: v.department, active: true, created: '2025-06-15' }] };
    });
    message.success('User added');
    addForm.resetFields();
    setAdding(false);
  };
  const bulkDeactivate = () => {
    const ids = new Set(selected);
    setState((s) => ({ users: s.users.map((u) => (ids.has(u.id) ? { ...u, active: false } : u)) }));
    message.success(`${ids.size} users deactivated`);
    setSelected([]);
  };
  const toggleActive = (id, active) => setState((s) => ({ users: s.users.map((u) => (u.id === id ? { ...u, active } : u)) }));

  const columns = [
    { key: 'name', title: 'Name', dataIndex: 'name', sorter: (a, b) => a.name.localeCompare(b.name) },
    { key: 'email', title: 'Email', dataIndex: 'email' },
    { key: 'role', title: 'Role', dataIndex: 'role', filters: ROLES.map((r) => ({ text: r, value: r })), onFilter: (v, r) => r.role === v },
    { key: 'department', title: 'Department', dataIndex: 'department', render: departmentTitle, exportValue: (r) => departmentTitle(r.department),
      filters: DEPARTMENT_LEAVES.map((d) => ({ text: d.title, value: d.value })), onFilter: (v, r) => r.department === v },
    { key: 'created', title: 'Created', dataIndex: 'created', sorter: (a, b) => a.created.localeCompare(b.created) },
    { key: 'active', title: 'Active', dataIndex: 'active', filters: [{ text: 'Active', value: 'true' }, { text: 'Inactive', value: 'false' }],
      onFilter: (v, r) => String(r.active) === v, render: (a, r) => <Tag color={a ? 'green' : 'default'}>{a ? 'Active' : 'Inactive'}</Tag> },
    { key: 'actions', title: 'Actions', render: (_, r) => <Button size="small" onClick={() => openEdit(r)} aria-label={`Edit ${r.name}`}>Edit</Button> },
  ];

  return (
    <div>
      <Typography.Title level={2}>User administration</Typography.Title>
      <Space style={{ marginBottom: 16 }} wrap>
        <CInput cid="user-search" label="Search users" placeholder="Search users" allowClear value={query}
          onChange={(e) => setQuery(e.target.value)} style={{ width: 260 }} />
        <CButton cid="bulk-deactivate" label="Deactivate selected" danger disabled={!selected.length} onClick={bulkDeactivate}>
          Deactivate selected ({selected.length})
        </CButton>
        <CButton cid="add-user" label="Add user" type="primary" onClick={() => setAdding(true)}>Add user</CButton>
        <span id="users-count">{shown.length} users, {users.filter((u) => u.active).length} active in total</span>
      </Space>
      <CTable cid="users" label="Users" columns={columns} dataSource={shown} rowKey="id" size="small"
        rowSelection={{ selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys) => setSelected(keys) }}
        rowActions={{ edit: openEdit }} pagination={{ pageSize: 10 }} />

      <CModal cid="edit-user" label="Edit user" title="Edit user" open={!!editing} onOk={saveEdit} okText="Save"
        onCancel={() => setEditing(null)} destroyOnHidden forceRender={false}>
        <CForm cid="edit-user" label="Edit user" form={editForm} layout="vertical" preserve={false}>
          <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true, message: 'Name is required' }]}>
            <CInput cid="edit-name" label="Name" />
          </Form.Item>
          <Form.Item label="Email" name="email" rules={[{ required: true, type: 'email', message: 'Enter a valid email' }]}>
            <CInput cid="edit-email" label="Email" />
          </Form.Item>
          <Form.Item label="Role" name="role" rules={[{ required: true }]}>
            <CSelect cid="edit-role" label="Role" options={ROLES.map((r) => ({ value: r, label: r }))} />
          </Form.Item>
          <Form.Item label="Department" name="department" rules={[{ required: true }]}>
            <CTreeSelect cid="edit-department" label="Department" treeData={deptTree} treeDefaultExpandAll />
          </Form.Item>
          <Form.Item label="Active" name="active" valuePropName="checked">
            <CSwitch cid="edit-active" label="Active" />
          </Form.Item>
        </CForm>
      </CModal>

      <CDrawer cid="add-user" label="Add user" title="Add user" open={adding} onOpen={() => setAdding(true)} onOk={saveNew}
        onClose={() => setAdding(false)} size={420}
        extra={<CButton cid="create-user" label="Create user" type="primary" onClick={saveNew}>Create user</CButton>}>
        <CForm cid="add-user" label="Add user" form={addForm} layout="vertical" initialValues={{ role: 'Viewer' }}>
          <Form.Item label="Full name" name="name" rules={[{ required: true, whitespace: true, message: 'Name is required' }]}>
            <CInput cid="new-name" label="Full name" />
          </Form.Item>
          <Form.Item label="Email address" name="email" rules={[{ required: true, type: 'email', message: 'Enter a valid email' }]}>
            <CInput cid="new-email" label="Email address" />
          </Form.Item>
          <Form.Item label="Role" name="role" rules={[{ required: true }]}>
            <CSelect cid="new-role" label="Role" options={ROLES.map((r) => ({ value: r, label: r }))} />
          </Form.Item>
          <Form.Item label="Department" name="department" rules={[{ required: true, message: 'Choose a department' }]}>
            <CTreeSelect cid="new-department" label="Department" treeData={deptTree} treeDefaultExpandAll />
          </Form.Item>
        </CForm>
      </CDrawer>
    </div>
  );
}
