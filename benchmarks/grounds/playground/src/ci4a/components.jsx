// CI4A wrappers over antd components. Each wrapper renders the antd component
// unchanged (plus marker class names) and registers its <S, T, M> triplet.
// S is computed from props/state, T dispatch through the same handlers the UI uses.
import React, { useMemo, useState } from 'react';
import dayjs from 'dayjs';
import {
  Input, InputNumber, Select, Cascader, DatePicker, TimePicker, Checkbox, Radio, Switch, Slider,
  Table, Tabs, Modal, Drawer, Form, TreeSelect, Menu, Pagination, Steps, Button,
} from 'antd';
import { useCi4a, rootClass, ownerClass, fail } from './registry.js';

const cx = (...a) => a.filter(Boolean).join(' ');
const useErrors = () => {
  const st = Form.Item.useStatus();
  return (st && st.errors) || [];
};
const fakeEvent = (target) => ({ target, preventDefault() {}, stopPropagation() {} });
const LONG = 30;
function optionsView(options) {
  const list = options.map((o) => ({ value: o.value, label: String(o.label) }));
  if (list.length > LONG) return { optionCount: list.length, options: list.slice(0, 20) };
  return { optionCount: list.length, options: list };
}
function searchTool(options, label) {
  return {
    description: `Find options of ${label} whose label or value contains the query (case-insensitive)`,
    params: { query: { type: 'string', required: true } },
    run: ({ query }) => {
      const q = query.toLowerCase();
      return { matches: options.filter((o) => String(o.label).toLowerCase().includes(q) || String(o.value).toLowerCase().includes(q)).map((o) => ({ value: o.value, label: String(o.label) })) };
    },
  };
}
const noErr = (errors) => (errors && errors.length ? { errors } : {});

// ------------------------------------------------------------------ input / textarea
function makeText(kind, Comp) {
  return function CText({ cid, label, value, onChange, className, secret, ...rest }) {
    const key = `${kind}-${cid}`;
    const errors = useErrors();
    const hidden = secret || rest.type === 'password';
    useCi4a(key, kind, () => ({
      label, disabled: rest.disabled,
      state: {
        value: hidden ? (value ? '[redacted]' : '') : (value ?? ''),
        ...(hidden ? { secret: true } : {}),
        ...(rest.placeholder ? { placeholder: rest.placeholder } : {}),
        ...(rest.maxLength ? { maxLength: rest.maxLength } : {}),
        ...noErr(errors),
      },
      tools: {
        setValue: {
          description: `Replace the text of ${label}`,
          params: { text: { type: 'string', required: true, ...(rest.maxLength ? { maxLength: rest.maxLength } : {}) } },
          run: ({ text }) => { onChange?.(fakeEvent({ value: text })); },
        },
        clear: { description: `Empty ${label}`, params: {}, run: () => { onChange?.(fakeEvent({ value: '' })); } },
      },
    }));
    return <Comp value={value} onChange={onChange} className={cx(className, rootClass(key))} {...rest} />;
  };
}
const PlainInput = React.forwardRef(function PlainInput(props, ref) {
  if (props.type === 'password') {
    const { type, ...rest } = props;
    return <Input.Password ref={ref} visibilityToggle={false} {...rest} />;
  }
  return <Input ref={ref} {...props} />;
});
export const CInput = makeText('input', PlainInput);
export const CTextArea = makeText('textarea', Input.TextArea);

// ------------------------------------------------------------------ inputnumber
export function CInputNumber({ cid, label, value, onChange, className, min, max, step = 1, precision = 0, ...rest }) {
  const key = `inputnumber-${cid}`;
  const errors = useErrors();
  const spec = { type: precision === 0 ? 'integer' : 'number', required: true, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}), ...(step !== 1 ? { step } : {}) };
  useCi4a(key, 'inputnumber', () => ({
    label, disabled: rest.disabled,
    state: { value: value ?? null, min, max, step, ...noErr(errors) },
    tools: {
      setValue: { description: `Set ${label} to a number`, params: { value: spec }, run: ({ value: v }) => { onChange?.(v); } },
      clear: { description: `Empty ${label}`, params: {}, run: () => { onChange?.(null); } },
    },
  }));
  return <InputNumber value={value} onChange={onChange} min={min} max={max} step={step} precision={precision} className={cx(className, rootClass(key))} {...rest} />;
}

// ------------------------------------------------------------------ select / treeselect
export function CSelect({ cid, label, value, onChange, options, mode, className, ...rest }) {
  const key = `select-${cid}`;
  const errors = useErrors();
  const values = options.map((o) => o.value);
  const multi = mode === 'multiple' || mode === 'tags';
  const byValue = (v) => options.find((o) => o.value === v);
  const labelOf = (v) => { const o = byValue(v); return o ? String(o.label) : String(v); };
  const emit = (v) => onChange?.(v, multi ? v.map((x) => byValue(x) || { value: x, label: x }) : byValue(v));
  const item = mode === 'tags' ? { type: 'string' } : { type: 'string', enum: values };
  const cur = multi ? (value || []) : value;
  useCi4a(key, 'select', () => {
    const tools = multi ? {
      setValue: { description: `Replace the selected values of ${label}`, params: { values: { type: 'array', required: true, items: item } }, run: ({ values: v }) => emit([...new Set(v)]) },
      select: { description: `Add one value to ${label}`, params: { value: { ...item, required: true } }, run: ({ value: v }) => emit(cur.includes(v) ? cur : [...cur, v]) },
      deselect: { description: `Remove one value from ${label}`, params: { value: { type: 'string', required: true, enum: cur.length ? cur : undefined } }, validate: ({ value: v }) => (cur.includes(v) ? null : `value: ${JSON.stringify(v)} is not selected`), run: ({ value: v }) => emit(cur.filter((x) => x !== v)) },
      clear: { description: `Remove all values of ${label}`, params: {}, run: () => emit([]) },
    } : {
      setValue: { description: `Choose the option of ${label}`, params: { value: { ...item, required: true } }, run: ({ value: v }) => emit(v) },
      clear: { description: `Clear ${label}`, params: {}, run: () => onChange?.(undefined, undefined) },
    };
    if (tools.deselect && !cur.length) delete tools.deselect.params.value.enum;
    tools.search = searchTool(options, label);
    return {
      label, disabled: rest.disabled,
      state: {
        mode: multi ? mode : 'single',
        value: multi ? cur : (cur ?? null),
        valueLabel: multi ? cur.map(labelOf) : (cur === undefined || cur === null ? null : labelOf(cur)),
        ...optionsView(options),
        ...noErr(errors),
      },
      tools,
    };
  });
  return (
    <Select value={value} onChange={onChange} options={options} mode={mode}
      className={cx(className, rootClass(key))} classNames={{ popup: { root: ownerClass(key) } }} {...rest} />
  );
}

function flattenTree(nodes, out = [], depth = 0) {
  for (const n of nodes) {
    out.push({ value: n.value, label: n.title, selectable: n.selectable !== false && !n.disabled, depth });
    if (n.children) flattenTree(n.children, out, depth + 1);
  }
  return out;
}
export function CTreeSelect({ cid, label, value, onChange, treeData, className, ...rest }) {
  const key = `treeselect-${cid}`;
  const errors = useErrors();
  const flat = useMemo(() => flattenTree(treeData), [treeData]);
  const selectable = flat.filter((n) => n.selectable);
  useCi4a(key, 'treeselect', () => ({
    label, disabled: rest.disabled,
    state: {
      value: value ?? null,
      valueLabel: value ? (flat.find((n) => n.value === value) || {}).label ?? null : null,
      tree: treeData.map((g) => ({ value: g.value, label: g.title, children: (g.children || []).map((c) => ({ value: c.value, label: c.title })) })),
      ...noErr(errors),
    },
    tools: {
      setValue: { description: `Choose a node of ${label}`, params: { value: { type: 'string', required: true, enum: selectable.map((n) => n.value) } }, run: ({ value: v }) => onChange?.(v, [flat.find((n) => n.value === v).label]) },
      clear: { description: `Clear ${label}`, params: {}, run: () => onChange?.(undefined, []) },
      search: searchTool(selectable, label),
    },
  }));
  return <TreeSelect value={value} onChange={onChange} treeData={treeData} virtual={false} listHeight={480} className={cx(className, rootClass(key))}
    classNames={{ popup: { root: ownerClass(key) } }} {...rest} />;
}

// ------------------------------------------------------------------ cascader
export function CCascader({ cid, label, value, onChange, options, className, ...rest }) {
  const key = `cascader-${cid}`;
  const errors = useErrors();
  const tree = useMemo(() => Object.fromEntries(options.map((o) => [o.value, (o.children || []).map((c) => c.value)])), [options]);
  const findPath = (path) => {
    const sel = []; let level = options;
    for (const v of path) {
      const o = (level || []).find((x) => x.value === v);
      if (!o) return null;
      sel.push(o); level = o.children;
    }
    return level && level.length ? null : sel; // must end at a leaf
  };
  useCi4a(key, 'cascader', () => {
    const cur = value && value.length ? findPath(value) : null;
    return {
      label, disabled: rest.disabled,
      state: {
        value: value && value.length ? value : null,
        valueLabel: cur ? cur.map((o) => o.label).join(' / ') : null,
        levels: 2, optionCount: options.length, options: options.map((o) => o.value),
        ...noErr(errors),
      },
      tools: {
        setValue: {
          description: `Choose a path (${options.length} top-level options, then their children) for ${label}`,
          params: { path: { type: 'array', required: true, minItems: 2, maxItems: 2, items: { type: 'string' } } },
          constraints: { options: tree },
          validate: ({ path }) => (findPath(path) ? null : `path: ${JSON.stringify(path)} is not a valid path; see constraints.options`),
          run: ({ path }) => onChange?.(path, findPath(path)),
        },
        clear: { description: `Clear ${label}`, params: {}, run: () => onChange?.(undefined, undefined) },
        search: {
          description: `Find paths of ${label} containing the query`,
          params: { query: { type: 'string', required: true } },
          run: ({ query }) => {
            const q = query.toLowerCase(); const m = [];
            for (const o of options) for (const c of o.children || []) {
              if (`${o.label} / ${c.label}`.toLowerCase().includes(q)) m.push([o.value, c.value]);
            }
            return { matches: m };
          },
        },
      },
    };
  });
  return <Cascader value={value} onChange={onChange} options={options} className={cx(className, rootClass(key))}
    classNames={{ popup: { root: ownerClass(key) } }} {...rest} />;
}

// ------------------------------------------------------------------ dates
const D = 'YYYY-MM-DD';
function dateRules({ min, max, disabledDates = [], disabledRule }) {
  const isDisabled = (iso) => (min && iso < min) || (max && iso > max) || disabledDates.includes(iso) || (disabledRule && disabledRule.test(iso));
  const spec = { type: 'string', required: true, format: D, ...(min ? { min } : {}), ...(max ? { max } : {}), ...(disabledDates.length ? { disabled: disabledDates } : {}) };
  const constraints = { ...(min ? { minDate: min } : {}), ...(max ? { maxDate: max } : {}), ...(disabledDates.length ? { disabledDates } : {}), ...(disabledRule ? { disabledRule: disabledRule.text } : {}) };
  return { isDisabled, spec, constraints };
}
export function CDatePicker({ cid, label, value, onChange, className, min, max, disabledDates, disabledRule, pickerStart, ...rest }) {
  const key = `datepicker-${cid}`;
  const errors = useErrors();
  const { isDisabled, spec, constraints } = dateRules({ min, max, disabledDates, disabledRule });
  useCi4a(key, 'datepicker', () => ({
    label, disabled: rest.disabled,
    state: { value: value ? value.format(D) : null, format: D, ...constraints, ...noErr(errors) },
    tools: {
      setValue: {
        description: `Set ${label} to a date`, params: { date: spec }, constraints,
        validate: ({ date }) => (isDisabled(date) ? `date: ${date} is disabled${disabledRule ? ' (' + disabledRule.text + ')' : ''}` : null),
        run: ({ date }) => onChange?.(dayjs(date, D), date),
      },
      clear: { description: `Clear ${label}`, params: {}, run: () => onChange?.(null, '') },
    },
  }));
  return <DatePicker value={value} onChange={onChange} format={D} showNow={false}
    disabledDate={(d) => isDisabled(d.format(D))} defaultPickerValue={dayjs(pickerStart || min)}
    className={cx(className, rootClass(key))} classNames={{ popup: { root: ownerClass(key) } }} {...rest} />;
}
export function CRangePicker({ cid, label, value, onChange, className, min, max, disabledDates, disabledRule, pickerStart, ...rest }) {
  const key = `rangepicker-${cid}`;
  const errors = useErrors();
  const { isDisabled, spec, constraints } = dateRules({ min, max, disabledDates, disabledRule });
  const v = value && value[0] && value[1] ? [value[0].format(D), value[1].format(D)] : null;
  useCi4a(key, 'rangepicker', () => ({
    label, disabled: rest.disabled,
    state: { value: v ? { start: v[0], end: v[1] } : null, format: D, ...constraints, ...noErr(errors) },
    tools: {
      setValue: {
        description: `Set the start and end dates of ${label}`, params: { start: spec, end: spec }, constraints,
        validate: ({ start, end }) => {
          const e = [];
          if (isDisabled(start)) e.push(`start: ${start} is disabled`);
          if (isDisabled(end)) e.push(`end: ${end} is disabled`);
          if (start > end) e.push('end: must not be before start');
          return e.length ? e : null;
        },
        run: ({ start, end }) => onChange?.([dayjs(start, D), dayjs(end, D)], [start, end]),
      },
      clear: { description: `Clear ${label}`, params: {}, run: () => onChange?.(null, ['', '']) },
    },
  }));
  return <DatePicker.RangePicker value={value} onChange={onChange} format={D}
    disabledDate={(d) => isDisabled(d.format(D))} defaultPickerValue={dayjs(pickerStart || min)}
    className={cx(className, rootClass(key))} classNames={{ popup: { root: ownerClass(key) } }} {...rest} />;
}
export function CTimePicker({ cid, label, value, onChange, className, min = '00:00', max = '23:59', minuteStep = 1, baseDate = '2025-06-15', ...rest }) {
  const key = `timepicker-${cid}`;
  const errors = useErrors();
  const F = 'HH:mm';
  const minH = +min.slice(0, 2), maxH = +max.slice(0, 2);
  const disabledTime = () => ({
    disabledHours: () => Array.from({ length: 24 }, (_, h) => h).filter((h) => h < minH || h > maxH),
    disabledMinutes: (h) => Array.from({ length: 60 }, (_, m) => m).filter((m) => {
      const t = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
      return t < min || t > max;
    }),
  });
  const constraints = { minuteStep, min, max };
  useCi4a(key, 'timepicker', () => ({
    label, disabled: rest.disabled,
    state: { value: value ? value.format(F) : null, format: F, ...constraints, ...noErr(errors) },
    tools: {
      setValue: {
        description: `Set ${label} to a time`, params: { time: { type: 'string', required: true, format: F, min, max } }, constraints,
        validate: ({ time }) => (+time.slice(3) % minuteStep ? `time: minutes must be a multiple of ${minuteStep}` : null),
        run: ({ time }) => onChange?.(dayjs(`${baseDate} ${time}`, `${D} ${F}`), time),
      },
      clear: { description: `Clear ${label}`, params: {}, run: () => onChange?.(null, '') },
    },
  }));
  return <TimePicker value={value} onChange={onChange} format={F} minuteStep={minuteStep} disabledTime={disabledTime} showNow={false}
    className={cx(className, rootClass(key))} classNames={{ popup: { root: ownerClass(key) } }} {...rest} />;
}

// ------------------------------------------------------------------ checkable things
export function CCheckbox({ cid, label, checked, onChange, className, children, ...rest }) {
  const key = `checkbox-${cid}`;
  const errors = useErrors();
  const set = (c) => onChange?.(fakeEvent({ checked: c }));
  useCi4a(key, 'checkbox', () => ({
    label, disabled: rest.disabled,
    state: { checked: !!checked, ...noErr(errors) },
    tools: {
      setValue: { description: `Check or uncheck ${label}`, params: { checked: { type: 'boolean', required: true } }, run: ({ checked: c }) => set(c) },
      check: { description: `Check ${label}`, params: {}, run: () => set(true) },
      uncheck: { description: `Uncheck ${label}`, params: {}, run: () => set(false) },
      toggle: { description: `Toggle ${label}`, params: {}, run: () => set(!checked) },
    },
  }));
  return <Checkbox checked={checked} onChange={onChange} className={cx(className, rootClass(key))} {...rest}>{children}</Checkbox>;
}
export function CCheckboxGroup({ cid, label, value, onChange, options, className, ...rest }) {
  const key = `checkboxgroup-${cid}`;
  const errors = useErrors();
  const values = options.map((o) => o.value);
  const cur = value || [];
  const order = (v) => values.filter((x) => v.includes(x));
  useCi4a(key, 'checkboxgroup', () => ({
    label, disabled: rest.disabled,
    state: { value: cur, ...optionsView(options), ...noErr(errors) },
    tools: {
      setValue: { description: `Set the checked options of ${label}`, params: { values: { type: 'array', required: true, items: { type: 'string', enum: values } } }, run: ({ values: v }) => onChange?.(order(v)) },
      check: { description: `Check one option of ${label}`, params: { value: { type: 'string', required: true, enum: values } }, run: ({ value: v }) => onChange?.(order([...cur, v])) },
      uncheck: { description: `Uncheck one option of ${label}`, params: { value: { type: 'string', required: true, enum: values } }, run: ({ value: v }) => onChange?.(cur.filter((x) => x !== v)) },
      clear: { description: `Uncheck all options of ${label}`, params: {}, run: () => onChange?.([]) },
    },
  }));
  return <Checkbox.Group value={value} onChange={onChange} options={options} className={cx(className, rootClass(key))} {...rest} />;
}
export function CRadioGroup({ cid, label, value, onChange, options, className, ...rest }) {
  const key = `radiogroup-${cid}`;
  const errors = useErrors();
  const values = options.map((o) => o.value);
  useCi4a(key, 'radiogroup', () => ({
    label, disabled: rest.disabled,
    state: { value: value ?? null, ...optionsView(options), ...noErr(errors) },
    tools: {
      setValue: { description: `Choose one option of ${label}`, params: { value: { type: 'string', required: true, enum: values } }, run: ({ value: v }) => onChange?.(fakeEvent({ value: v })) },
    },
  }));
  return <Radio.Group value={value} onChange={onChange} options={options} className={cx(className, rootClass(key))} {...rest} />;
}
export function CSwitch({ cid, label, checked, onChange, className, ...rest }) {
  const key = `switch-${cid}`;
  useCi4a(key, 'switch', () => ({
    label, disabled: rest.disabled,
    state: { checked: !!checked },
    tools: {
      setValue: { description: `Turn ${label} on or off`, params: { checked: { type: 'boolean', required: true } }, run: ({ checked: c }) => onChange?.(c) },
      toggle: { description: `Toggle ${label}`, params: {}, run: () => onChange?.(!checked) },
    },
  }));
  return <Switch checked={checked} onChange={onChange} className={cx(className, rootClass(key))} aria-label={label} {...rest} />;
}
export function CSlider({ cid, label, value, onChange, className, min = 0, max = 100, step = 1, ...rest }) {
  const key = `slider-${cid}`;
  const errors = useErrors();
  useCi4a(key, 'slider', () => ({
    label, disabled: rest.disabled,
    state: { value: value ?? null, min, max, step, ...noErr(errors) },
    tools: {
      setValue: { description: `Set ${label}`, params: { value: { type: Number.isInteger(step) ? 'integer' : 'number', required: true, min, max, ...(step !== 1 ? { step } : {}) } }, run: ({ value: v }) => onChange?.(v) },
    },
  }));
  return <Slider value={value} onChange={onChange} min={min} max={max} step={step} className={cx(className, rootClass(key))} {...rest} />;
}

// ------------------------------------------------------------------ table
export function CTable({ cid, label, columns, dataSource, rowKey = 'key', pagination = {}, rowSelection, rowActions = {}, className, ...rest }) {
  const key = `table-${cid}`;
  const [sort, setSort] = useState({ columnKey: null, order: null });
  const [filters, setFilters] = useState({});
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(pagination ? pagination.pageSize || 10 : dataSource.length);
  const paged = pagination !== false;
  const cols = columns.map((c) => ({
    ...c,
    ...(c.sorter ? { sortOrder: sort.columnKey === c.key ? sort.order : null } : {}),
    ...(c.filters ? { filteredValue: filters[c.key] || null, filterDropdownProps: { rootClassName: ownerClass(key) } } : {}),
  }));
  // the rows antd shows: filter, then sort (same functions the columns give antd)
  let rows = dataSource.filter((r) => columns.every((c) => !c.filters || !(filters[c.key] || []).length || filters[c.key].some((v) => c.onFilter(v, r))));
  const sc = columns.find((c) => c.key === sort.columnKey);
  if (sc && sort.order) {
    rows = rows.map((r, i) => [r, i]).sort((a, b) => (sort.order === 'descend' ? -1 : 1) * sc.sorter(a[0], b[0]) || a[1] - b[1]).map((x) => x[0]);
  }
  const total = rows.length;
  const pageCount = paged ? Math.max(1, Math.ceil(total / pageSize)) : 1;
  const curPage = Math.min(page, pageCount);
  const shown = paged ? rows.slice((curPage - 1) * pageSize, curPage * pageSize) : rows;
  const keyOf = (r) => (typeof rowKey === 'function' ? rowKey(r) : r[rowKey]);
  const allKeys = new Set(dataSource.map(keyOf));
  const sortable = columns.filter((c) => c.sorter).map((c) => c.key);
  const filterable = columns.filter((c) => c.filters);
  const rowView = (r) => Object.fromEntries([['key', keyOf(r)], ...columns.filter((c) => c.dataIndex).map((c) => [c.key, c.exportValue ? c.exportValue(r) : r[c.dataIndex]])]);
  const onChange = (p, f, s) => {
    const nf = {};
    for (const [k, v] of Object.entries(f || {})) if (v && v.length) nf[k] = v;
    setFilters(nf);
    const s1 = Array.isArray(s) ? s[0] : s;
    setSort({ columnKey: s1 && s1.order ? s1.columnKey : null, order: (s1 && s1.order) || null });
    if (p) { setPage(p.current || 1); if (p.pageSize) setPageSize(p.pageSize); }
  };
  useCi4a(key, 'table', () => {
    const sel = rowSelection ? rowSelection.selectedRowKeys || [] : null;
    const tools = {};
    if (sortable.length) {
      tools.sort = {
        description: `Sort ${label} by a column ('none' removes sorting)`,
        params: { column: { type: 'string', required: true, enum: sortable }, order: { type: 'string', enum: ['ascend', 'descend', 'none'] } },
        run: ({ column, order = 'ascend' }) => { setSort(order === 'none' ? { columnKey: null, order: null } : { columnKey: column, order }); setPage(1); },
      };
    }
    if (filterable.length) {
      const fv = Object.fromEntries(filterable.map((c) => [c.key, c.filters.map((x) => x.value)]));
      tools.filter = {
        description: `Filter ${label}: keep rows whose column matches any of the values (empty list removes the filter)`,
        params: { column: { type: 'string', required: true, enum: filterable.map((c) => c.key) }, values: { type: 'array', required: true, items: { type: 'string', enum: [...new Set(Object.values(fv).flat())] } } },
        constraints: { filterValues: fv },
        validate: ({ column, values }) => { const bad = values.filter((v) => !fv[column].includes(v)); return bad.length ? `values: ${JSON.stringify(bad)} not allowed for column ${column}` : null; },
        run: ({ column, values }) => { setFilters((f) => { const n = { ...f }; if (values.length) n[column] = [...values]; else delete n[column]; return n; }); setPage(1); },
      };
      tools.clearFilters = { description: `Remove all filters of ${label}`, params: {}, run: () => { setFilters({}); setPage(1); } };
    }
    if (paged) {
      tools.goToPage = { description: `Show a page of ${label}`, params: { page: { type: 'integer', required: true, min: 1, max: pageCount } }, run: ({ page: p }) => setPage(p) };
      tools.setPageSize = { description: `Rows per page of ${label}`, params: { pageSize: { type: 'integer', required: true, enum: [10, 20, 50, 100] } }, run: ({ pageSize: s }) => { setPageSize(s); setPage(1); } };
    }
    if (rowSelection) {
      tools.selectRows = {
        description: `Select rows of ${label} by key (mode set replaces the selection, add/remove change it)`,
        params: { keys: { type: 'array', required: true, items: { type: 'string' } }, mode: { type: 'string', enum: ['set', 'add', 'remove'] } },
        validate: ({ keys }) => { const bad = keys.filter((k) => !allKeys.has(k)); return bad.length ? `keys: unknown row keys ${JSON.stringify(bad.slice(0, 5))}` : null; },
        run: ({ keys, mode = 'set' }) => {
          const cur = new Set(sel);
          const next = mode === 'set' ? [...new Set(keys)] : mode === 'add' ? [...cur, ...keys.filter((k) => !cur.has(k))] : sel.filter((k) => !keys.includes(k));
          rowSelection.onChange?.(next, dataSource.filter((r) => next.includes(keyOf(r))), { type: 'multiple' });
        },
      };
    }
    const actions = Object.keys(rowActions);
    if (actions.length) {
      tools.rowAction = {
        description: `Run a row action (${actions.join(', ')}) on one row of ${label}`,
        params: { key: { type: 'string', required: true }, action: { type: 'string', required: true, enum: actions } },
        validate: ({ key: k }) => (allKeys.has(k) ? null : `key: unknown row key ${JSON.stringify(k)}`),
        run: ({ key: k, action }) => rowActions[action](dataSource.find((r) => keyOf(r) === k)),
      };
    }
    return {
      label, disabled: false,
      state: {
        columns: columns.map((c) => ({ key: c.key, title: typeof c.title === 'string' ? c.title : c.key, ...(c.sorter ? { sortable: true } : {}), ...(c.filters ? { filterValues: c.filters.map((x) => x.value) } : {}) })),
        sort: sort.order ? { column: sort.columnKey, order: sort.order } : null,
        filters,
        total, rowCount: dataSource.length,
        ...(paged ? { page: curPage, pageSize, pageCount } : {}),
        rows: shown.map(rowView),
        ...(sel ? { selectedRowKeys: sel } : {}),
        ...(actions.length ? { rowActions: actions } : {}),
      },
      tools,
    };
  });
  return (
    <Table columns={cols} dataSource={dataSource} rowKey={rowKey} onChange={onChange} rowSelection={rowSelection}
      pagination={paged ? { showSizeChanger: true, pageSizeOptions: [10, 20, 50, 100], showTotal: (t) => `${t} ${t === 1 ? 'row' : 'rows'}`, ...pagination, current: curPage, pageSize, total } : false}
      className={cx(className, rootClass(key))} {...rest} />
  );
}

// ------------------------------------------------------------------ navigation-ish
export function CTabs({ cid, label, activeKey, onChange, items, className, ...rest }) {
  const key = `tabs-${cid}`;
  useCi4a(key, 'tabs', () => ({
    label, disabled: false,
    state: { activeKey, tabs: items.map((t) => ({ key: t.key, label: String(t.label) })) },
    tools: { setTab: { description: `Show a tab of ${label}`, params: { key: { type: 'string', required: true, enum: items.map((t) => t.key) } }, run: ({ key: k }) => onChange?.(k) } },
  }));
  return <Tabs activeKey={activeKey} onChange={onChange} items={items} className={cx(className, rootClass(key))} {...rest} />;
}
export function CMenu({ cid, label, items, selectedKeys, onClick, className, ...rest }) {
  const key = `menu-${cid}`;
  useCi4a(key, 'menu', () => ({
    label, disabled: false,
    state: { selectedKey: (selectedKeys || [])[0] ?? null, items: items.map((i) => ({ key: i.key, label: String(i.label) })) },
    tools: { navigateTo: { description: `Open a menu entry of ${label}`, params: { key: { type: 'string', required: true, enum: items.map((i) => i.key) } }, run: ({ key: k }) => onClick?.({ key: k, keyPath: [k] }) } },
  }));
  return <Menu items={items} selectedKeys={selectedKeys} onClick={onClick} className={cx(className, rootClass(key))} {...rest} />;
}
export function CPagination({ cid, label, current, pageSize, total, onChange, className, pageSizeOptions = [10, 20, 50, 100], ...rest }) {
  const key = `pagination-${cid}`;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  useCi4a(key, 'pagination', () => ({
    label, disabled: false,
    state: { page: current, pageSize, total, pageCount },
    tools: {
      goToPage: { description: `Show a page of ${label}`, params: { page: { type: 'integer', required: true, min: 1, max: pageCount } }, run: ({ page }) => onChange?.(page, pageSize) },
      setPageSize: { description: `Items per page of ${label}`, params: { pageSize: { type: 'integer', required: true, enum: pageSizeOptions } }, run: ({ pageSize: s }) => onChange?.(1, s) },
    },
  }));
  return <Pagination current={current} pageSize={pageSize} total={total} onChange={onChange} pageSizeOptions={pageSizeOptions}
    className={cx(className, rootClass(key))} {...rest} />;
}
export function CSteps({ cid, label, current, items, onNext, onPrev, onGoTo, className, ...rest }) {
  const key = `steps-${cid}`;
  useCi4a(key, 'steps', () => {
    const tools = {};
    if (onNext) tools.next = { description: `Go to the next step of ${label} (validates the current step)`, params: {}, run: () => onNext() };
    if (onPrev) tools.prev = { description: `Go back one step of ${label}`, params: {}, run: () => onPrev() };
    if (onGoTo) tools.goToStep = { description: `Go to a step of ${label} by index (forward only through valid steps)`, params: { step: { type: 'integer', required: true, min: 0, max: items.length - 1 } }, run: ({ step }) => onGoTo(step) };
    return {
      label, disabled: false,
      state: { current, currentTitle: items[current] ? String(items[current].title) : null, steps: items.map((s, i) => ({ index: i, title: String(s.title), status: i < current ? 'finish' : i === current ? (rest.status || 'process') : 'wait' })) },
      tools,
    };
  });
  return <Steps current={current} items={items} className={cx(className, rootClass(key))} {...rest} />;
}
export function CButton({ cid, label, onClick, className, children, ...rest }) {
  const key = `button-${cid}`;
  const confirm = rest['data-agent-confirm'];
  useCi4a(key, 'button', () => ({
    label, disabled: rest.disabled,
    state: { text: label, ...(confirm ? { confirm } : {}) },
    tools: { click: { description: `Press ${label}`, params: {}, ...(confirm ? { constraints: { confirm } } : {}), run: () => onClick?.(fakeEvent({})) } },
  }));
  return <Button onClick={onClick} className={cx(className, rootClass(key))} {...rest}>{children}</Button>;
}

// ------------------------------------------------------------------ overlays
function overlay(kind, Comp) {
  return function COverlay({ cid, label, open, onOpen, onOk, onCancel, onClose, rootClassName, children, ...rest }) {
    const key = `${kind}-${cid}`;
    const close = onCancel || onClose;
    useCi4a(key, kind, () => {
      const tools = {};
      if (!open && onOpen) tools.open = { description: `Open ${label}`, params: {}, run: () => onOpen() };
      if (open && onOk) {
        tools.submit = {
          description: `Confirm ${label} (OK)`, params: {},
          run: async () => {
            try { await onOk(fakeEvent({})); } catch (e) {
              if (e && e.errorFields) {
                const errs = {};
                for (const f of e.errorFields) errs[f.name.join('.')] = f.errors;
                fail('invalid_params', `${label}: validation failed: ${Object.entries(errs).map(([k, v]) => `${k}: ${v.join(', ')}`).join('; ')}`, { errors: errs });
              }
              throw e;
            }
          },
        };
      }
      if (open && close) tools.close = { description: `Close ${label} without saving`, params: {}, run: () => close(fakeEvent({})) };
      return { label, disabled: false, visible: !!open, state: { open: !!open, title: String(rest.title ?? label) }, tools };
    });
    const cls = cx(rootClassName, rootClass(key), ownerClass(key));
    return kind === 'modal'
      ? <Comp open={open} onOk={onOk} onCancel={onCancel} rootClassName={cls} {...rest}>{children}</Comp>
      : <Comp open={open} onClose={onClose} rootClassName={cls} {...rest}>{children}</Comp>;
  };
}
export const CModal = overlay('modal', Modal);
export const CDrawer = overlay('drawer', Drawer);

// ------------------------------------------------------------------ form
function plain(v, fmt) {
  if (dayjs.isDayjs(v)) return v.format(fmt || D);
  if (Array.isArray(v)) return v.map((x) => plain(x, fmt));
  return v === undefined ? null : v;
}
export function CForm({ cid, label, form, fieldFormats = {}, secretFields = [], className, children, ...rest }) {
  const key = `form-${cid}`;
  useCi4a(key, 'form', () => {
    const vals = form.getFieldsValue(true);
    const values = {};
    for (const [k, v] of Object.entries(vals)) values[k] = secretFields.includes(k) ? (v ? '[redacted]' : '') : plain(v, fieldFormats[k]);
    const errors = {};
    for (const f of form.getFieldsError()) if (f.errors.length) errors[f.name.join('.')] = f.errors;
    return {
      label, disabled: false,
      state: { values, errors },
      tools: {
        submit: {
          description: `Submit ${label} (runs its validation; errors are returned)`, params: {},
          run: async () => {
            form.submit();
            try { await form.validateFields(); } catch (e) {
              const errs = {};
              for (const f of (e && e.errorFields) || []) errs[f.name.join('.')] = f.errors;
              if (Object.keys(errs).length) fail('invalid_params', `${label}: validation failed: ${Object.entries(errs).map(([k, v]) => `${k}: ${v.join(', ')}`).join('; ')}`, { errors: errs });
            }
            return undefined;
          },
        },
        reset: { description: `Reset ${label} to its initial values`, params: {}, run: () => form.resetFields() },
      },
    };
  });
  return <Form form={form} className={cx(className, rootClass(key))} {...rest}>{children}</Form>;
}
