// The rule editor: events (named events and alarm codes), devices (none: the whole subtree), device types (from the
// device-type catalogue, as on the device type screen; none: every type), channels, quiet hours, minimum interval
// per device and the offline / expiry parameters.
import { ALARM_TYPES, alarmLabel, NOTIFY_EVENTS } from '@carhere/domain';
import { Button, Checkbox, Form, Input, InputNumber, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceSelect } from '../command/DeviceSelect.tsx';
import { useDeviceTypes } from '../deviceTypes/api.ts';
import type { Channel, Rule, RuleInput } from './api.ts';

interface Props {
  rule: Rule | null;
  saving: boolean;
  onSave: (input: RuleInput) => void;
  onCancel: () => void;
}

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;

export function RuleEditor({ rule, saving, onSave, onCancel }: Props) {
  const { t, i18n } = useTranslation('notify');
  const channelOf = <T extends Channel['type']>(type: T) =>
    rule?.channels.find((c) => c.type === type) as Extract<Channel, { type: T }> | undefined;
  const [name, setName] = useState(rule?.name ?? '');
  const [events, setEvents] = useState<string[]>(rule?.events ?? ['alarm:1']);
  const [devices, setDevices] = useState<string[]>(rule?.terminalIDs ?? []);
  const [deviceTypes, setDeviceTypes] = useState<string[]>(rule?.deviceTypes ?? []);
  const typeCatalogue = useDeviceTypes();
  const [inApp, setInApp] = useState(Boolean(channelOf('inApp')));
  const [push, setPush] = useState(Boolean(channelOf('push')));
  const [emails, setEmails] = useState<string[]>(channelOf('email')?.to ?? []);
  const [hookUrl, setHookUrl] = useState(channelOf('webhook')?.url ?? '');
  // A saved rule's secret comes masked (its last 4 characters); sent back unchanged, the server keeps it.
  const [hookSecret, setHookSecret] = useState(channelOf('webhook')?.secret ?? '');
  const [secretMasked, setSecretMasked] = useState(Boolean(channelOf('webhook')?.secret));
  const [quietFrom, setQuietFrom] = useState(rule?.quietHours?.from ?? '');
  const [quietTo, setQuietTo] = useState(rule?.quietHours?.to ?? '');
  const [interval, setInterval] = useState<number>(rule?.minIntervalSeconds ?? 0);
  const [offlineMinutes, setOfflineMinutes] = useState<number | undefined>(rule?.params.offlineMinutes);
  const [expiryDays, setExpiryDays] = useState<number | undefined>(rule?.params.expiryDays);

  const eventOptions = [
    { value: 'alarm:*', label: t('events.alarmAll') },
    ...NOTIFY_EVENTS.map((e) => ({ value: e, label: t(`events.${e}`) })),
    ...ALARM_TYPES.map((a) => ({ value: `alarm:${a.code}`, label: `${a.code} ${alarmLabel(a.code, i18n.language)}` })),
  ];
  const typeOptions = typeCatalogue.map((d) => ({ value: String(d.deviceType), label: `${d.deviceType} ${d.name}` }));
  const channels: Channel[] = [
    ...(inApp ? [{ type: 'inApp' as const }] : []),
    ...(emails.length > 0 ? [{ type: 'email' as const, to: emails }] : []),
    ...(hookUrl ? [{ type: 'webhook' as const, url: hookUrl, secret: hookSecret }] : []),
    ...(push ? [{ type: 'push' as const }] : []),
  ];
  const quietOk = (!quietFrom && !quietTo) || (CLOCK.test(quietFrom) && CLOCK.test(quietTo));
  const ready = name.trim() !== '' && events.length > 0 && channels.length > 0 && quietOk;

  return (
    <Modal
      open
      title={rule ? t('editRule') : t('addRule')}
      onCancel={onCancel}
      okButtonProps={{ disabled: !ready, loading: saving, 'data-testid': 'rule-save' } as never}
      onOk={() =>
        onSave({
          name: name.trim(),
          events,
          channels,
          terminalIDs: devices,
          deviceTypes,
          quietHours: quietFrom && quietTo ? { from: quietFrom, to: quietTo } : null,
          minIntervalSeconds: interval,
          params: { offlineMinutes, expiryDays },
        })
      }
      width={640}
      destroyOnHidden
    >
      <Form layout="vertical" data-testid="rule-editor">
        <Form.Item label={t('name')} required>
          <Input value={name} maxLength={80} onChange={(e) => setName(e.target.value)} data-testid="rule-name" />
        </Form.Item>
        <Form.Item label={t('events.title')} required>
          <Select
            mode="multiple"
            value={events}
            onChange={setEvents}
            options={eventOptions}
            optionFilterProp="label"
            data-testid="rule-events"
          />
        </Form.Item>
        <Form.Item label={t('devices')} extra={t('devicesHint')}>
          <DeviceSelect multiple value={devices} onChange={setDevices} />
        </Form.Item>
        <Form.Item label={t('deviceTypes')} extra={t('deviceTypesHint')}>
          <Select
            mode="multiple"
            value={deviceTypes}
            onChange={setDeviceTypes}
            options={typeOptions}
            optionFilterProp="label"
            allowClear
            data-testid="rule-device-types"
          />
        </Form.Item>
        <Form.Item label={t('channels.title')} required>
          <Space direction="vertical" style={{ width: '100%' }}>
            <Space>
              <Checkbox checked={inApp} onChange={(e) => setInApp(e.target.checked)}>
                {t('channels.inApp')}
              </Checkbox>
              <Checkbox checked={push} onChange={(e) => setPush(e.target.checked)}>
                {t('channels.push')}
              </Checkbox>
            </Space>
            <Select
              mode="tags"
              value={emails}
              onChange={setEmails}
              placeholder={t('channels.emailTo')}
              tokenSeparators={[',', ' ']}
              open={false}
              data-testid="rule-emails"
            />
            <Space.Compact style={{ width: '100%' }}>
              <Input
                value={hookUrl}
                placeholder={t('channels.webhookUrl')}
                onChange={(e) => setHookUrl(e.target.value.trim())}
                data-testid="rule-webhook-url"
              />
              {secretMasked ? (
                <>
                  <Input value={hookSecret} readOnly data-testid="rule-webhook-secret-masked" />
                  <Button
                    onClick={() => {
                      setHookSecret('');
                      setSecretMasked(false);
                    }}
                    data-testid="rule-webhook-secret-change"
                  >
                    {t('channels.webhookSecretChange')}
                  </Button>
                </>
              ) : (
                <Input
                  value={hookSecret}
                  placeholder={t('channels.webhookSecret')}
                  onChange={(e) => setHookSecret(e.target.value)}
                  data-testid="rule-webhook-secret"
                />
              )}
            </Space.Compact>
          </Space>
        </Form.Item>
        <Space wrap>
          <Form.Item label={t('quietHours')} validateStatus={quietOk ? undefined : 'error'}>
            <Space.Compact>
              <Input
                value={quietFrom}
                placeholder="22:00"
                style={{ width: 80 }}
                onChange={(e) => setQuietFrom(e.target.value.trim())}
                data-testid="rule-quiet-from"
              />
              <Input
                value={quietTo}
                placeholder="07:00"
                style={{ width: 80 }}
                onChange={(e) => setQuietTo(e.target.value.trim())}
                data-testid="rule-quiet-to"
              />
            </Space.Compact>
          </Form.Item>
          <Form.Item label={t('minInterval')}>
            <InputNumber min={0} max={604800} value={interval} onChange={(v) => setInterval(v ?? 0)} />
          </Form.Item>
          <Form.Item label={t('offlineMinutes')}>
            <InputNumber
              min={1}
              max={43200}
              value={offlineMinutes}
              onChange={(v) => setOfflineMinutes(v ?? undefined)}
            />
          </Form.Item>
          <Form.Item label={t('expiryDays')}>
            <InputNumber min={1} max={365} value={expiryDays} onChange={(v) => setExpiryDays(v ?? undefined)} />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}
