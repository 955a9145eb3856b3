// The add / edit form of a maintenance reminder: what, due by odometer, engine hours or date, the reminder window
// and an optional repeat interval.
import { DatePicker, Form, Input, InputNumber, Modal, Select } from 'antd';
import dayjs from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { ItemInput, MaintenanceBy, MaintenanceItem } from './api.ts';

const KINDS = ['oil', 'insurance', 'inspection', 'tyres', 'other'];

interface Values {
  name: string;
  kind: string;
  by: MaintenanceBy;
  dueKm?: number;
  dueHours?: number;
  dueDate?: dayjs.Dayjs;
  remindBefore?: number;
  interval?: number;
  note?: string;
}

export function ItemForm({
  open,
  item,
  onCancel,
  onSave,
  saving,
}: {
  open: boolean;
  item: MaintenanceItem | null;
  onCancel: () => void;
  onSave: (input: ItemInput) => void;
  saving: boolean;
}) {
  const { t } = useTranslation('maintenance');
  const [form] = Form.useForm<Values>();
  const by = Form.useWatch('by', form) ?? 'km';
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (item) {
      form.setFieldsValue({
        name: item.name,
        kind: item.kind,
        by: item.by,
        dueKm: item.dueKm ?? undefined,
        dueHours: item.dueHours ?? undefined,
        dueDate: item.dueDate ? dayjs(item.dueDate) : undefined,
        remindBefore: item.remindBefore,
        interval:
          (item.by === 'km' ? item.intervalKm : item.by === 'hours' ? item.intervalHours : item.intervalMonths) ??
          undefined,
        note: item.note,
      });
    }
  }, [open, item, form]);
  const submit = (v: Values) =>
    onSave({
      name: v.name,
      kind: v.kind,
      by: v.by,
      dueKm: v.by === 'km' ? (v.dueKm ?? null) : null,
      dueHours: v.by === 'hours' ? (v.dueHours ?? null) : null,
      dueDate: v.by === 'date' && v.dueDate ? v.dueDate.format('YYYY-MM-DD') : null,
      remindBefore: v.remindBefore ?? 0,
      intervalKm: v.by === 'km' ? (v.interval ?? null) : null,
      intervalHours: v.by === 'hours' ? (v.interval ?? null) : null,
      intervalMonths: v.by === 'date' ? (v.interval ?? null) : null,
      note: v.note ?? '',
    });
  const required = [{ required: true, message: t('required') }];
  return (
    <Modal
      open={open}
      title={item ? t('edit') : t('add')}
      okText={t('save')}
      cancelText={t('cancel')}
      onCancel={onCancel}
      onOk={() => form.submit()}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ kind: 'oil', by: 'km', remindBefore: 0 }}>
        <Form.Item name="name" label={t('name')} rules={required}>
          <Input maxLength={64} data-testid="maintenance-name" />
        </Form.Item>
        <Form.Item name="kind" label={t('kind')}>
          <Select options={KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))} />
        </Form.Item>
        <Form.Item name="by" label={t('by')}>
          <Select
            data-testid="maintenance-by"
            options={(['km', 'hours', 'date'] as const).map((b) => ({ value: b, label: t(`byOptions.${b}`) }))}
          />
        </Form.Item>
        {by === 'km' && (
          <Form.Item name="dueKm" label={t('dueKm')} rules={required}>
            <InputNumber min={0} style={{ width: '100%' }} data-testid="maintenance-due-km" />
          </Form.Item>
        )}
        {by === 'hours' && (
          <Form.Item name="dueHours" label={t('dueHours')} rules={required}>
            <InputNumber min={0} style={{ width: '100%' }} />
          </Form.Item>
        )}
        {by === 'date' && (
          <Form.Item name="dueDate" label={t('dueDate')} rules={required}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
        )}
        <Form.Item name="remindBefore" label={t('remindBefore')}>
          <InputNumber min={0} style={{ width: '100%' }} data-testid="maintenance-remind" />
        </Form.Item>
        <Form.Item
          name="interval"
          label={by === 'km' ? t('intervalKm') : by === 'hours' ? t('intervalHours') : t('intervalMonths')}
        >
          <InputNumber min={1} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="note" label={t('note')}>
          <Input.TextArea maxLength={500} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
