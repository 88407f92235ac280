import React from 'react';
import { Form, Card, Typography, Row, Col, message } from 'antd';
import dayjs from 'dayjs';
import { CInput, CCascader, CDatePicker, CInputNumber, CSelect, CTimePicker, CCheckbox, CButton, CForm, CTable } from '../ci4a/components.jsx';
import {
  DESTINATION_OPTIONS, ROOM_TYPES, BOOKING_MIN, BOOKING_MAX, BLACKOUT_DATES, MAX_NIGHTS, ARRIVAL_MIN, ARRIVAL_MAX,
  ARRIVAL_STEP, MAX_GUESTS, addDays, diffDays, bookingTotal,
} from '../data.js';
import { useStore, setState, nextId } from '../store.js';

const D = 'YYYY-MM-DD';
const roomLabel = (v) => (ROOM_TYPES.find((r) => r.value === v) || {}).label || v;

export default function Booking() {
  const [form] = Form.useForm();
  const bookings = useStore((s) => s.bookings);
  const checkin = Form.useWatch('checkin', form);
  const values = Form.useWatch([], form) || {};
  const ci = checkin ? checkin.format(D) : null;
  const outMin = ci ? addDays(ci, 1) : addDays(BOOKING_MIN, 1);
  const outMax = ci ? [addDays(ci, MAX_NIGHTS), BOOKING_MAX].sort()[0] : BOOKING_MAX;
  const nights = values.checkin && values.checkout ? diffDays(values.checkin.format(D), values.checkout.format(D)) : 0;
  const estimate = values.roomType && nights > 0 ? bookingTotal(values.roomType, nights, !!values.breakfast, values.guests || 1) : null;

  const onFinish = (v) => {
    const b = {
      id: nextId('B', bookings),
      guestName: v.guestName.trim(),
      destination: v.destination,
      checkin: v.checkin.format(D),
      checkout: v.checkout.format(D),
      nights: diffDays(v.checkin.format(D), v.checkout.format(D)),
      guests: v.guests,
      roomType: v.roomType,
      arrival: v.arrival ? v.arrival.format('HH:mm') : null,
      breakfast: !!v.breakfast,
    };
    b.total = bookingTotal(b.roomType, b.nights, b.breakfast, b.guests);
    setState((s) => ({ bookings: [...s.bookings, b] }));
    message.success(`Booking ${b.id} created`);
    form.resetFields();
  };

  const columns = [
    { key: 'id', title: 'Booking', dataIndex: 'id' },
    { key: 'guestName', title: 'Guest', dataIndex: 'guestName' },
    { key: 'destination', title: 'Destination', dataIndex: 'destination', render: (d) => d.join(' / '), exportValue: (r) => r.destination.join(' / ') },
    { key: 'checkin', title: 'Check-in', dataIndex: 'checkin' },
    { key: 'checkout', title: 'Check-out', dataIndex: 'checkout' },
    { key: 'guests', title: 'Guests', dataIndex: 'guests' },
    { key: 'roomType', title: 'Room', dataIndex: 'roomType', render: roomLabel, exportValue: (r) => roomLabel(r.roomType) },
    { key: 'total', title: 'Total (EUR)', dataIndex: 'total' },
  ];

  return (
    <div>
      <Typography.Title level={2}>Travel booking</Typography.Title>
      <Card title="New booking">
        <CForm cid="booking" label="New booking" form={form} layout="vertical" onFinish={onFinish}
          initialValues={{ guests: 2, breakfast: false }} fieldFormats={{ arrival: 'HH:mm' }}>
          <Row gutter={16}>
            <Col span={8}>
              <Form.Item label="Guest name" name="guestName" rules={[{ required: true, whitespace: true, message: 'Enter the guest name' }]}>
                <CInput cid="guest-name" label="Guest name" placeholder="Full name" />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item label="Destination" name="destination" rules={[{ required: true, message: 'Choose a destination' }]}>
                <CCascader cid="destination" label="Destination" options={DESTINATION_OPTIONS} placeholder="Country / City" />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item label="Room type" name="roomType" rules={[{ required: true, message: 'Choose a room type' }]}>
                <CSelect cid="room-type" label="Room type" placeholder="Room type" options={ROOM_TYPES.map((r) => ({ value: r.value, label: `${r.label}` }))} />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={16}>
            <Col span={6}>
              <Form.Item label="Check-in" name="checkin" rules={[{ required: true, message: 'Choose a check-in date' }]}>
                <CDatePicker cid="checkin" label="Check-in" min={BOOKING_MIN} max={BOOKING_MAX} disabledDates={BLACKOUT_DATES}
                  placeholder="Check-in date" style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item label="Check-out" name="checkout" dependencies={['checkin']}
                rules={[{ required: true, message: 'Choose a check-out date' }, ({ getFieldValue }) => ({
                  validator(_, v) {
                    const a = getFieldValue('checkin');
                    if (!v || !a) return Promise.resolve();
                    const n = diffDays(a.format(D), v.format(D));
                    return n >= 1 && n <= MAX_NIGHTS ? Promise.resolve() : Promise.reject(new Error(`Stay must be 1 to ${MAX_NIGHTS} nights`));
                  },
                })]}>
                <CDatePicker cid="checkout" label="Check-out" min={outMin} max={outMax} disabledDates={BLACKOUT_DATES}
                  pickerStart={ci || BOOKING_MIN} placeholder="Check-out date" style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={4}>
              <Form.Item label="Guests" name="guests" rules={[{ required: true, message: 'How many guests?' }]}>
                <CInputNumber cid="guests" label="Guests" min={1} max={MAX_GUESTS} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={4}>
              <Form.Item label="Arrival time" name="arrival">
                <CTimePicker cid="arrival" label="Arrival time" min={ARRIVAL_MIN} max={ARRIVAL_MAX} minuteStep={ARRIVAL_STEP} placeholder="Arrival" style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={4}>
              <Form.Item label="Extras" name="breakfast" valuePropName="checked">
                <CCheckbox cid="breakfast" label="Breakfast included">Breakfast included</CCheckbox>
              </Form.Item>
            </Col>
          </Row>
          <div style={{ display: 'flex', gap: 16, alignItems: 'center' }}>
            <CButton cid="book" label="Book" type="primary" onClick={() => form.submit()}>Book</CButton>
            <CButton cid="reset-booking" label="Reset form" onClick={() => form.resetFields()}>Reset form</CButton>
            <span id="booking-estimate">{estimate !== null ? `Estimated total: ${estimate} EUR for ${nights} night${nights === 1 ? '' : 's'}` : 'Estimated total: -'}</span>
          </div>
        </CForm>
      </Card>
      <Card title={`My bookings (${bookings.length})`} style={{ marginTop: 16 }}>
        <CTable cid="bookings" label="My bookings" columns={columns} dataSource={bookings} rowKey="id" pagination={{ pageSize: 10 }} size="small" />
      </Card>
    </div>
  );
}
