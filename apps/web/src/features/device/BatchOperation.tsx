// One batch operation on a list of devices (spec §2 batch operations: transfer, sale, reset, icon, time, host
// name, type, zone, command), its inputs, the confirmation where it cannot be undone, and its result.
import { DEVICE_MODELS, SERVICE_TERMS, TIME_ZONE_OPTIONS } from '@carhere/domain';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, type ButtonProps, DatePicker, Form, Input, Radio, Select, Table } from 'antd';
import type { Dayjs } from 'dayjs';
import i18n from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { domainText } from '../agent/formRules.ts';
import { PasswordsResult } from '../security/PasswordsResult.tsx';
import { AccountSelect } from './AccountSelect.tsx';
import {
  type BatchResult,
  batchLimits,
  recalculateExpiry,
  resetDevices,
  sellDevices,
  sendCommands,
  setExpiry,
  setField,
  setServiceTerm,
  transferDevices,
} from './api.ts';
import { iconTypeOptions } from './IconTypeImage.tsx';

export type BatchKind =
  | 'transfer'
  | 'sale'
  | 'reset'
  | 'icon'
  | 'time'
  | 'term'
  | 'recalc'
  | 'host'
  | 'type'
  | 'zone'
  | 'command';

interface Values {
  userId?: string;
  saleMode?: 'account' | 'deviceAccounts';
  iconType?: number;
  platformExpireAt?: Dayjs | null;
  userExpireAt?: Dayjs | null;
  serviceTerm?: number;
  host?: string;
  deviceType?: number;
  timeZone?: number;
  command?: string;
}

const label = (l: { cn: string; en: string }) => (i18n.language === 'cn' ? l.cn : l.en);

async function run(kind: BatchKind, ids: string[], v: Values): Promise<BatchResult> {
  switch (kind) {
    case 'transfer':
      return transferDevices(ids, v.userId as string);
    case 'sale':
      return sellDevices(
        ids,
        v.saleMode === 'deviceAccounts' ? { asDeviceAccounts: true } : { userId: v.userId as string },
      );
    case 'reset':
      return resetDevices(ids);
    case 'icon':
      return setField('/device/updateIconType', ids, v.iconType as number);
    case 'time':
      return setExpiry(ids, {
        ...(v.platformExpireAt ? { platformExpireAt: v.platformExpireAt.toISOString() } : {}),
        ...(v.userExpireAt ? { userExpireAt: v.userExpireAt.toISOString() } : {}),
      });
    case 'term':
      return setServiceTerm(ids, v.serviceTerm as number);
    case 'recalc':
      return recalculateExpiry(ids);
    case 'host':
      return setField('/device/updateHost', ids, v.host ?? '');
    case 'type':
      return setField('/device/updateDevicesType', ids, v.deviceType as number);
    case 'zone':
      return setField('/device/updateZone', ids, v.timeZone as number);
    case 'command': {
      const replies = await sendCommands(ids, v.command as string);
      const failed = replies
        .filter((r) => r.result === 3)
        .map((r) => ({ terminalID: r.terminalID, message: r.message }));
      return { success: replies.length - failed.length, failed };
    }
  }
}

export function BatchOperation({
  kind,
  terminalIDs,
  onDone,
}: {
  kind: BatchKind;
  terminalIDs: string[];
  onDone?: () => void;
}) {
  const { t } = useTranslation('device');
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [result, setResult] = useState<BatchResult | null>(null);
  const [busy, setBusy] = useState(false);
  const limits = useQuery({ queryKey: ['deviceLimits'], queryFn: batchLimits, staleTime: 60_000 });
  const max = limits.data?.devicesPerOperation ?? Number.POSITIVE_INFINITY;
  const over = terminalIDs.length > max;
  const required = { required: true, message: domainText('validation.required', { field: t(`batch.field.${kind}`) }) };

  const execute = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      const r = await run(kind, terminalIDs, v);
      setResult(r);
      if (r.success > 0) message.success(t('batch.done', { count: r.success }));
      else message.error(domainText('action.save.failure'));
      onDone?.();
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const submit = () => {
    if (terminalIDs.length === 0) {
      message.warning(domainText('common.selectFirst'));
      return;
    }
    if (kind === 'reset') {
      // Reset cannot be undone (spec §4): ask first.
      modal.confirm({
        title: t('batch.resetConfirmTitle', { count: terminalIDs.length }),
        content: t('batch.resetConfirmText'),
        okText: t('batch.resetConfirmOk'),
        okButtonProps: { danger: true, 'data-testid': 'reset-confirm-ok' } as ButtonProps,
        cancelText: t('cancel'),
        onOk: execute,
      });
    } else void execute();
  };

  return (
    <div>
      {over && <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={t('batch.overLimit', { max })} />}
      <Form form={form} layout="vertical" initialValues={{ saleMode: 'account' }}>
        {(kind === 'transfer' || kind === 'sale') && (
          <>
            {kind === 'sale' && (
              <Form.Item name="saleMode" label={t('batch.saleMode')}>
                <Radio.Group
                  options={[
                    { value: 'account', label: t('batch.saleToAccount') },
                    { value: 'deviceAccounts', label: t('batch.saleDeviceAccounts') },
                  ]}
                />
              </Form.Item>
            )}
            <Form.Item noStyle shouldUpdate>
              {() =>
                kind === 'transfer' || form.getFieldValue('saleMode') === 'account' ? (
                  <Form.Item name="userId" label={t(`batch.field.${kind}`)} rules={[required]}>
                    <AccountSelect testId="batch-target" />
                  </Form.Item>
                ) : null
              }
            </Form.Item>
          </>
        )}
        {kind === 'reset' && (
          <Alert type="error" showIcon message={t('batch.resetWarning')} style={{ marginBottom: 12 }} />
        )}
        {kind === 'icon' && (
          <Form.Item name="iconType" label={t('batch.field.icon')} rules={[required]}>
            <Select options={iconTypeOptions()} />
          </Form.Item>
        )}
        {kind === 'time' && (
          <>
            <Form.Item name="platformExpireAt" label={t('field.platformExpireAt')}>
              <DatePicker showTime style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="userExpireAt" label={t('field.userExpireAt')}>
              <DatePicker showTime style={{ width: '100%' }} />
            </Form.Item>
            <Alert type="info" showIcon message={t('batch.manualExpiryHint')} style={{ marginBottom: 12 }} />
          </>
        )}
        {kind === 'term' && (
          <Form.Item name="serviceTerm" label={t('batch.field.term')} rules={[required]}>
            <Select options={SERVICE_TERMS.map((s) => ({ value: s.code, label: label(s) }))} />
          </Form.Item>
        )}
        {kind === 'recalc' && (
          <Alert type="info" showIcon message={t('batch.recalcHint')} style={{ marginBottom: 12 }} />
        )}
        {kind === 'host' && (
          <Form.Item name="host" label={t('batch.field.host')} rules={[required]}>
            <Input placeholder="gps.example.com:5023" />
          </Form.Item>
        )}
        {kind === 'type' && (
          <Form.Item name="deviceType" label={t('batch.field.type')} rules={[required]}>
            <Select
              showSearch
              optionFilterProp="label"
              options={DEVICE_MODELS.map((m) => ({ value: m.code, label: `${m.name} (${m.code})` }))}
            />
          </Form.Item>
        )}
        {kind === 'zone' && (
          <Form.Item name="timeZone" label={t('batch.field.zone')} rules={[required]}>
            <Select options={TIME_ZONE_OPTIONS.map((z) => ({ value: z.offsetHours, label: label(z) }))} />
          </Form.Item>
        )}
        {kind === 'command' && (
          <Form.Item name="command" label={t('batch.field.command')} rules={[required]}>
            <Input placeholder="WHERE#" />
          </Form.Item>
        )}
        <Button
          type="primary"
          danger={kind === 'reset'}
          loading={busy}
          disabled={over}
          onClick={submit}
          data-testid={`batch-submit-${kind}`}
        >
          {t(`batch.submit.${kind}`, { count: terminalIDs.length })}
        </Button>
      </Form>
      {result && (
        <div style={{ marginTop: 12 }} data-testid="batch-result">
          <Alert
            type={result.failed.length > 0 ? 'warning' : 'success'}
            message={t('batch.summary', { success: result.success, failure: result.failed.length })}
          />
          {result.failed.length > 0 && (
            <Table
              size="small"
              rowKey="terminalID"
              pagination={false}
              scroll={{ y: 200 }}
              style={{ marginTop: 8 }}
              dataSource={result.failed}
              columns={[
                { title: t('column.imei'), dataIndex: 'terminalID', width: 170 },
                { title: t('batch.reason'), dataIndex: 'message' },
              ]}
            />
          )}
          {result.accounts && (
            <PasswordsResult rows={result.accounts.map((a) => ({ account: a.username, password: a.password }))} />
          )}
        </div>
      )}
    </div>
  );
}
