import React, { useState } from 'react';
import { Form, Typography, Card, Result, Descriptions, message } from 'antd';
import {
  CInput, CTextArea, CSelect, CDatePicker, CInputNumber, CRadioGroup, CCheckboxGroup, CCheckbox, CButton, CForm, CSteps,
} from '../ci4a/components.jsx';
import { COUNTRIES, POSITIONS, WORK_MODES, SKILLS, START_MIN, START_MAX, SALARY_MIN, SALARY_MAX, SALARY_STEP, dayOfWeek } from '../data.js';
import { useStore, setState, nextId, setUi } from '../store.js';

const D = 'YYYY-MM-DD';
const STEP_FIELDS = [
  ['fullName', 'email', 'country'],
  ['position', 'startDate', 'salary', 'workMode', 'skills'],
  ['coverLetter', 'agree'],
];
const weekend = { text: 'Saturdays and Sundays', test: (iso) => { const d = dayOfWeek(iso); return d === 0 || d === 6; } };

export default function Apply() {
  const [form] = Form.useForm();
  const [step, setStep] = useState(0);
  const [done, setDone] = useState(null);
  const applications = useStore((s) => s.applications);
  const country = Form.useWatch('country', { form, preserve: true });
  setUi({ applyStep: done ? 3 : step, applyCountry: country ?? null });

  const validateStep = async (i) => { await form.validateFields(STEP_FIELDS[i]); };
  const next = async () => {
    try { await validateStep(step); } catch (e) {
      const errs = {};
      for (const f of (e && e.errorFields) || []) errs[f.name.join('.')] = f.errors;
      throw { code: 'invalid_params', message: `step ${step + 1} is not valid: ${Object.entries(errs).map(([k, v]) => `${k}: ${v.join(', ')}`).join('; ')}`, constraints: { errors: errs } };
    }
    setStep((s) => Math.min(s + 1, 2));
  };
  const prev = () => setStep((s) => Math.max(s - 1, 0));
  const goTo = async (i) => {
    if (i <= step) { setStep(i); return; }
    if (i > step + 1) throw { code: 'invalid_params', message: `step: finish step ${step + 1} first (forward moves go one step at a time)`, constraints: { current: step, maxStep: step + 1 } };
    await next();
  };
  const submit = async () => {
    for (let k = 0; k < 3; k++) {
      try { await validateStep(k); } catch (e) { setStep(k); throw { code: 'invalid_params', message: `step ${k + 1} is not valid`, constraints: { errors: Object.fromEntries(((e && e.errorFields) || []).map((f) => [f.name.join('.'), f.errors])) } }; }
    }
    const v = form.getFieldsValue(true);
    const app = {
      id: nextId('APP', applications),
      fullName: v.fullName.trim(), email: v.email, country: v.country,
      position: v.position, startDate: v.startDate.format(D), salary: v.salary, workMode: v.workMode, skills: v.skills || [],
      coverLetter: v.coverLetter || '', agree: !!v.agree,
    };
    setState((s) => ({ applications: [...s.applications, app] }));
    message.success(`Application ${app.id} submitted`);
    setDone(app);
  };
  const uiNext = () => next().catch(() => {});
  const uiSubmit = () => submit().catch(() => {});

  if (done) {
    return (
      <Result status="success" title={`Application ${done.id} submitted`} subTitle={`${done.fullName} applied for ${(POSITIONS.find((p) => p.value === done.position) || {}).label}`}
        extra={<CButton cid="new-application" label="New application" type="primary" onClick={() => { form.resetFields(); setStep(0); setDone(null); }}>New application</CButton>} />
    );
  }
  const items = [{ title: 'Personal details' }, { title: 'Position' }, { title: 'Review and submit' }];
  const show = (i) => ({ display: step === i ? 'block' : 'none' });
  const v = form.getFieldsValue(true);
  return (
    <div>
      <Typography.Title level={2}>Job application</Typography.Title>
      <Card>
        <CSteps cid="apply" label="Application steps" current={step} items={items} onNext={next} onPrev={prev} onGoTo={goTo} style={{ marginBottom: 24 }} />
        <CForm cid="apply" label="Job application" form={form} layout="vertical" initialValues={{ workMode: 'hybrid', skills: [], agree: false }}>
          {step === 0 ? (
            <div style={show(0)}>
              <Form.Item label="Full name" name="fullName" rules={[{ required: true, whitespace: true, message: 'Enter your full name' }]}>
                <CInput cid="full-name" label="Full name" />
              </Form.Item>
              <Form.Item label="Email" name="email" rules={[{ required: true, message: 'Enter your email' }, { type: 'email', message: 'Enter a valid email' }]}>
                <CInput cid="email" label="Email" />
              </Form.Item>
              <Form.Item label="Country of residence" name="country" rules={[{ required: true, message: 'Choose a country' }]}>
                <CSelect cid="country" label="Country of residence" showSearch options={COUNTRIES.map((c) => ({ value: c, label: c }))} placeholder="Country" />
              </Form.Item>
            </div>
          ) : null}
          {step === 1 ? (
            <div style={show(1)}>
              <Form.Item label="Position" name="position" rules={[{ required: true, message: 'Choose a position' }]}>
                <CSelect cid="position" label="Position" options={POSITIONS} placeholder="Position" />
              </Form.Item>
              <Form.Item label="Start date" name="startDate" rules={[{ required: true, message: 'Choose a start date' }]}>
                <CDatePicker cid="start-date" label="Start date" min={START_MIN} max={START_MAX} disabledRule={weekend} placeholder="Start date" />
              </Form.Item>
              <Form.Item label="Expected salary (EUR)" name="salary" rules={[{ required: true, message: 'Enter the expected salary' }]}>
                <CInputNumber cid="salary" label="Expected salary (EUR)" min={SALARY_MIN} max={SALARY_MAX} step={SALARY_STEP} style={{ width: 200 }} />
              </Form.Item>
              <Form.Item label="Work mode" name="workMode" rules={[{ required: true }]}>
                <CRadioGroup cid="work-mode" label="Work mode" options={WORK_MODES} />
              </Form.Item>
              <Form.Item label="Skills" name="skills" rules={[{ required: true, type: 'array', min: 1, message: 'Pick at least one skill' }]}>
                <CCheckboxGroup cid="skills" label="Skills" options={SKILLS} />
              </Form.Item>
            </div>
          ) : null}
          {step === 2 ? (
            <div style={show(2)}>
              <Descriptions size="small" column={2} style={{ marginBottom: 16 }} items={[
                { key: 'n', label: 'Name', children: v.fullName }, { key: 'e', label: 'Email', children: v.email },
                { key: 'c', label: 'Country', children: v.country }, { key: 'p', label: 'Position', children: (POSITIONS.find((p) => p.value === v.position) || {}).label },
                { key: 's', label: 'Start date', children: v.startDate ? v.startDate.format(D) : '' }, { key: 'w', label: 'Work mode', children: v.workMode },
              ]} />
              <Form.Item label="Cover letter" name="coverLetter" rules={[{ max: 500, message: 'At most 500 characters' }]}>
                <CTextArea cid="cover-letter" label="Cover letter" rows={4} maxLength={500} />
              </Form.Item>
              <Form.Item name="agree" valuePropName="checked" rules={[{ validator: (_, x) => (x ? Promise.resolve() : Promise.reject(new Error('You must accept the terms'))) }]}>
                <CCheckbox cid="agree" label="I accept the terms">I accept the terms</CCheckbox>
              </Form.Item>
            </div>
          ) : null}
        </CForm>
        <div style={{ display: 'flex', gap: 8 }}>
          {step > 0 ? <CButton cid="previous" label="Previous" onClick={prev}>Previous</CButton> : null}
          {step < 2 ? <CButton cid="next" label="Next" type="primary" onClick={uiNext}>Next</CButton> : null}
          {step === 2 ? <CButton cid="submit-application" label="Submit application" type="primary" onClick={uiSubmit}>Submit application</CButton> : null}
        </div>
      </Card>
    </div>
  );
}
