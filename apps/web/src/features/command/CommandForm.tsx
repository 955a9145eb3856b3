// The form of one catalogue command (or a free text), with the text it will send.
import { type CommandEntry, labelIn, POST_TYPES, translate } from '@carhere/domain';
import { Input, InputNumber, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { buildCommand, type CommandField, type FieldValues, templateFields } from './templateFields.ts';

export function CommandForm({
  entry,
  values,
  onChange,
}: {
  entry: CommandEntry | null;
  values: FieldValues;
  onChange: (values: FieldValues) => void;
}) {
  const { t, i18n } = useTranslation('command');
  if (!entry) {
    return (
      <Input.TextArea
        rows={2}
        maxLength={512}
        value={String(values.custom ?? '')}
        onChange={(e) => onChange({ custom: e.target.value })}
        placeholder={t('customPlaceholder')}
        data-testid="command-custom"
      />
    );
  }
  const fields = templateFields(entry.template);
  const built = buildCommand(entry.template, values);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text strong>{labelIn(entry, i18n.language)}</Typography.Text>
      {fields.map((f) => (
        <div key={f.token} data-testid={`command-field-${f.token}`}>
          <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 4 }}>
            {t(f.labelKey)}
            {f.kind === 'range' && ` (${f.min}–${f.max})`}
          </Typography.Text>
          <FieldInput field={f} value={values[f.token]} onChange={(v) => onChange({ ...values, [f.token]: v })} />
        </div>
      ))}
      <Typography.Text type="secondary">
        {t('preview')}:{' '}
        <Typography.Text code data-testid="command-preview">
          {built.ok ? built.content : '-'}
        </Typography.Text>
      </Typography.Text>
      {!built.ok && fields.length > 0 && (
        <Typography.Text type="warning" data-testid="command-field-problem">
          {built.message
            ? translate(built.message, i18n.language)
            : t('fillField', { field: t(fields.find((f) => f.token === built.token)?.labelKey ?? 'param.value') })}
        </Typography.Text>
      )}
    </Space>
  );
}

function FieldInput({
  field,
  value,
  onChange,
}: {
  field: CommandField;
  value: FieldValues[string];
  onChange: (v: string | number | null) => void;
}) {
  const { t, i18n } = useTranslation('command');
  switch (field.kind) {
    case 'postType':
      return (
        <Select
          style={{ width: '100%' }}
          value={value as number}
          onChange={onChange}
          options={POST_TYPES.map((p) => ({ value: p.code, label: labelIn(p, i18n.language) }))}
        />
      );
    case 'choice':
      return (
        <Select
          style={{ width: '100%' }}
          value={value as string}
          onChange={onChange}
          options={(field.choices ?? []).map((c) => ({
            value: c,
            label: field.token === 'mixed' ? t(c === '1' ? 'param.mixedOn' : 'param.mixedOff') : c,
          }))}
        />
      );
    case 'range':
    case 'number':
    case 'radius':
      return (
        <InputNumber
          style={{ width: '100%' }}
          value={value as number | null}
          min={field.min}
          max={field.max}
          addonAfter={field.kind === 'radius' ? 'm' : undefined}
          onChange={(v) => onChange(v)}
        />
      );
    case 'time':
      return (
        <Input
          value={String(value ?? '')}
          placeholder="08:30"
          maxLength={5}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    default:
      return (
        <Input
          value={String(value ?? '')}
          maxLength={64}
          placeholder={field.kind === 'phone' ? t('phonePlaceholder') : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
}
