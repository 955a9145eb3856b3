// /index/directive (main:command): pick a device, pick a command from its menu (catalogue commands for its
// model, with forms) and send it. Spec §4's flow: an online device gets it live; an offline device gets an
// offline command (sent when it next connects); a timeout offers to keep it as an offline command. Below,
// the command records and the open offline commands. Opened with ?terminalID=… from the monitoring page.
// Access check (spec §4): an inactive or expired device cannot be picked, and one given in the address shows
// the spec's message instead of the command menu (its past records stay readable). The server refuses
// commands to expired devices as well; its message then shows as the send outcome.
import { SendOutlined } from '@ant-design/icons';
import { type CommandEntry, commandIdFeature, deviceTypeOf, labelIn, translate } from '@carhere/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, type ButtonProps, Card, Checkbox, Empty, Menu, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useDeviceTypes } from '../deviceTypes/api.ts';
import { DeviceSettingsButton } from '../deviceTypes/DeviceSettingsDrawer.tsx';
import { OilOutcome } from '../deviceTypes/OilOutcome.tsx';
import { accessRefusal } from '../monitor/access.ts';
import { useDeviceAccess } from '../monitor/useDeviceAccess.ts';
import { saveAsOffline, sendCommand } from './api.ts';
import { CommandForm } from './CommandForm.tsx';
import { CommandRecords } from './CommandRecords.tsx';
import { DeviceSelect } from './DeviceSelect.tsx';
import { useDeviceOptions } from './devices.ts';
import { commandMenu } from './menu.ts';
import { refusalBeforeSend, type SendOutcome } from './sendFlow.ts';
import { buildCommand, defaultValues, type FieldValues, templateFields } from './templateFields.ts';

const CUSTOM = 'custom';

export default function CommandPage() {
  const { t, i18n } = useTranslation('command');
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const terminalID = params.get('terminalID') ?? undefined;
  const devices = useDeviceOptions();
  const device = devices.data?.find((d) => d.terminalID === terminalID) ?? null;
  const { guard, refuse } = useDeviceAccess();
  const refusal = device ? accessRefusal('command', device, Date.now()) : null;
  const [commandId, setCommandId] = useState<string | null>(null);
  const [values, setValues] = useState<FieldValues>({});
  const [forceOffline, setForceOffline] = useState(false);
  const [outcome, setOutcome] = useState<SendOutcome | null>(null);

  // The device type's menu (admins edit it on device/deviceConfig); commands needing a feature the type lacks
  // are shown disabled (spec §8 — the server refuses them too).
  const types = useDeviceTypes();
  const menu = useMemo(() => (device ? commandMenu(device, types) : []), [device, types]);
  const features = device ? deviceTypeOf(types, device.deviceProtocol).features : null;
  const lacks = (id: string) => {
    const feature = commandIdFeature(id);
    return feature !== undefined && features !== null && !features[feature];
  };
  const entries = useMemo(() => new Map(menu.flatMap((g) => g.commands).map((c) => [c.id, c])), [menu]);
  const entry: CommandEntry | null = commandId && commandId !== CUSTOM ? (entries.get(commandId) ?? null) : null;

  const choose = (id: string) => {
    setCommandId(id);
    setOutcome(null);
    const e = entries.get(id);
    setValues(
      e
        ? defaultValues(
            templateFields(e.template),
            device && device.lat !== null && device.lon !== null ? { lat: device.lat, lon: device.lon } : null,
          )
        : {},
    );
  };

  const content = (() => {
    if (commandId === CUSTOM) return String(values.custom ?? '').trim();
    if (!entry) return '';
    const built = buildCommand(entry.template, values);
    return built.ok ? built.content : '';
  })();

  const refreshRecords = () => {
    void queryClient.invalidateQueries({ queryKey: ['commandRecords'] });
    void queryClient.invalidateQueries({ queryKey: ['commandOffline'] });
  };

  const keepOffline = useMutation({
    mutationFn: saveAsOffline,
    onSuccess: (msg) => {
      message.success(msg || translate('command.savedOffline', i18n.language));
      setOutcome(null);
      refreshRecords();
    },
    onError: (err: Error) => message.error(err.message),
  });

  const send = useMutation({
    mutationFn: () => {
      if (!device) throw new Error(translate('device.selectFirst', i18n.language));
      return sendCommand({
        terminalID: device.terminalID,
        content,
        deviceProtocol: device.deviceProtocol,
        offline: forceOffline || undefined,
      });
    },
    onSuccess: (result) => {
      setOutcome(result);
      refreshRecords();
      if (result.kind === 'timeout') {
        modal.confirm({
          title: t('timeoutTitle'),
          content: translate('command.askSaveOffline', i18n.language),
          okText: t('saveOffline'),
          cancelText: t('cancel'),
          okButtonProps: { 'data-testid': 'command-save-offline' } as ButtonProps,
          onOk: () => keepOffline.mutateAsync(result.commandId),
        });
      }
    },
    onError: (err: Error) => message.error(err.message),
  });

  const trySend = () => {
    if (!device) return refuse('device.selectFirst');
    guard('command', device, () => {
      const problem = refusalBeforeSend(content, device);
      if (problem) {
        modal.warning({ title: translate(problem, i18n.language) });
        return;
      }
      send.mutate();
    });
  };

  return (
    <div style={{ padding: 16 }} data-testid="command-page">
      <Space style={{ marginBottom: 16 }} wrap>
        <DeviceSelect
          value={terminalID}
          onChange={(v) => {
            setParams(v ? { terminalID: v } : {});
            setCommandId(null);
            setOutcome(null);
          }}
          style={{ width: 360 }}
          testId="command-device"
          feature="command"
        />
        {device && (
          <Tag color={device.online ? 'green' : 'default'} data-testid="command-device-state">
            {device.online ? t('device.online') : t('device.offline')}
          </Tag>
        )}
        {device && !device.online && <Typography.Text type="secondary">{t('offlineHint')}</Typography.Text>}
        {device && !refusal && <DeviceSettingsButton device={device} />}
      </Space>
      {!device ? (
        <Empty description={t('selectDevice')} />
      ) : refusal ? (
        <>
          <Alert
            type="warning"
            showIcon
            title={translate(refusal, i18n.language)}
            style={{ marginBottom: 16 }}
            data-testid="command-access-refused"
          />
          <CommandRecords terminalID={device.terminalID} recording={features?.recording ?? false} />
        </>
      ) : (
        <>
          <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start', marginBottom: 16 }}>
            <Card
              size="small"
              title={t('menuTitle')}
              style={{ width: 300, flex: 'none' }}
              styles={{ body: { padding: 0, maxHeight: 420, overflow: 'auto' } }}
            >
              <Menu
                mode="inline"
                selectedKeys={commandId ? [commandId] : []}
                onClick={({ key }) => choose(key)}
                data-testid="command-menu"
                items={[
                  ...menu.map((g) => ({
                    key: `group-${g.group}`,
                    label: t(`group.${g.group}`, { defaultValue: g.group }),
                    type: 'group' as const,
                    children: g.commands.map((c) => ({
                      key: c.id,
                      label: labelIn(c, i18n.language),
                      disabled: lacks(c.id),
                      title: lacks(c.id) ? translate('device.unsupported', i18n.language) : undefined,
                      'data-testid': `command-item-${c.id}`,
                    })),
                  })),
                  { key: CUSTOM, label: t('custom'), 'data-testid': 'command-item-custom' },
                ]}
              />
            </Card>
            <Card size="small" title={t('formTitle')} style={{ flex: 1, minWidth: 0 }}>
              {commandId ? (
                <Space direction="vertical" style={{ width: '100%' }}>
                  <CommandForm entry={entry} values={values} onChange={setValues} />
                  <Checkbox checked={forceOffline} onChange={(e) => setForceOffline(e.target.checked)}>
                    {t('sendOffline')}
                  </Checkbox>
                  <Button
                    type="primary"
                    icon={<SendOutlined />}
                    disabled={content === ''}
                    loading={send.isPending}
                    onClick={trySend}
                    data-testid="command-send"
                  >
                    {send.isPending && device.online && !forceOffline ? t('waitingReply') : t('send')}
                  </Button>
                  {outcome && <OutcomeAlert outcome={outcome} />}
                </Space>
              ) : (
                <Typography.Text type="secondary">{t('chooseCommand')}</Typography.Text>
              )}
            </Card>
          </div>
          <CommandRecords terminalID={device.terminalID} recording={features?.recording ?? false} />
        </>
      )}
    </div>
  );
}

function OutcomeAlert({ outcome }: { outcome: SendOutcome }) {
  const { t } = useTranslation('command');
  const type =
    outcome.kind === 'success'
      ? 'success'
      : outcome.kind === 'queued'
        ? 'info'
        : outcome.kind === 'timeout'
          ? 'warning'
          : 'error';
  const reply = outcome.kind === 'success' || outcome.kind === 'error' ? outcome.reply : null;
  return (
    <Alert
      type={type}
      showIcon
      data-testid={`command-outcome-${outcome.kind}`}
      message={outcome.message || t(`outcome.${outcome.kind}`)}
      description={
        reply || ('oil' in outcome && outcome.oil) ? (
          <>
            {'oil' in outcome && <OilOutcome oil={outcome.oil} />}
            {reply && <div>{t('reply', { reply })}</div>}
          </>
        ) : undefined
      }
    />
  );
}
