// The device settings drawer (issue 21; /api/order/find, /api/order/save): the per-device alarm and mode
// settings the spec stores. Saving stores them, then sends the commands that apply the changed ones through
// the ordinary command path (/api/command/add: live to an online device, queued for an offline one) and
// lists each command's result. Work-mode values are checked by the domain rules here and on the server.
import { SettingOutlined } from '@ant-design/icons';
import {
  checkTyreThresholds,
  checkWorkModeSettings,
  type DeviceFeature,
  deviceTypeOf,
  intervalHours,
  menuCommandById,
  OIL_VOLUME_OPTIONS_L,
  translate,
} from '@carhere/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Divider,
  Drawer,
  Form,
  Input,
  InputNumber,
  List,
  Select,
  Space,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { sendCommand } from '../command/api.ts';
import type { DeviceOption } from '../command/devices.ts';
import type { SendOutcome } from '../command/sendFlow.ts';
import { buildCommand, type FieldValues } from '../command/templateFields.ts';
import { useDeviceTypes } from './api.ts';
import { OilOutcome } from './OilOutcome.tsx';

export type SettingsValues = Record<string, string | number | boolean | null | undefined>;

/** A settings section: the keys it stores and the commands that apply it. */
interface Section {
  key: string;
  keys: string[];
  feature?: DeviceFeature;
  commands: (v: SettingsValues, device: DeviceOption) => { id: string; values: FieldValues }[];
}

const on = (v: unknown) => v === true;

/** Settings sections and the catalogue commands that apply them (their templates come from the catalogue). */
export const SECTIONS: Section[] = [
  {
    key: 'sos',
    keys: ['sos1', 'sos2', 'sos3'],
    commands: (v) =>
      v.sos1
        ? [
            {
              id: 'sosSet',
              values: {
                n1: v.sos1 as string,
                n2: (v.sos2 as string) || (v.sos1 as string),
                n3: (v.sos3 as string) || (v.sos1 as string),
              },
            },
          ]
        : [{ id: 'sosDelete', values: {} }],
  },
  {
    key: 'vibration',
    keys: ['vibration', 'vibrationLevel'],
    commands: (v) =>
      on(v.vibration)
        ? [
            { id: 'vibrationOn', values: { M: 0 } },
            { id: 'vibrationLevel', values: { '1..5': Number(v.vibrationLevel ?? 3) } },
          ]
        : [{ id: 'vibrationOff', values: {} }],
  },
  {
    key: 'powerCut',
    keys: ['powerCut'],
    commands: (v) => [on(v.powerCut) ? { id: 'powerCutOn', values: { M: 0 } } : { id: 'powerCutOff', values: {} }],
  },
  {
    key: 'lowBattery',
    keys: ['lowBattery'],
    feature: 'battery',
    commands: (v) => [
      on(v.lowBattery) ? { id: 'lowBatteryOn', values: { M: 0 } } : { id: 'lowBatteryOff', values: {} },
    ],
  },
  {
    key: 'displacement',
    keys: ['displacement', 'displacementRadius'],
    commands: (v) => [
      on(v.displacement)
        ? { id: 'movingOn', values: { radius: Number(v.displacementRadius ?? 300), M: 0 } }
        : { id: 'movingOff', values: {} },
    ],
  },
  {
    key: 'speedLimit',
    keys: ['speedLimit', 'speedKmh', 'speedSeconds'],
    commands: (v) => [
      on(v.speedLimit)
        ? { id: 'overspeedOn', values: { speed: Number(v.speedKmh ?? 100), time: Number(v.speedSeconds ?? 10), M: 0 } }
        : { id: 'overspeedOff', values: {} },
    ],
  },
  {
    key: 'fence',
    keys: ['fence', 'fenceRadius'],
    commands: (v, d) => {
      const kind = v.fence as string | undefined;
      if (!kind || kind === 'off' || d.lat === null || d.lon === null) return [{ id: 'fenceOff', values: {} }];
      const id = kind === 'in' ? 'fenceIn' : kind === 'out' ? 'fenceOut' : 'fenceInOut';
      return [
        {
          id,
          values: {
            lat: Number(d.lat.toFixed(6)),
            lon: Number(d.lon.toFixed(6)),
            'radius/100': Number(v.fenceRadius ?? 500),
            M: 0,
          },
        },
      ];
    },
  },
  { key: 'tyres', keys: ['tyreHighKpa', 'tyreLowKpa', 'tyreHighTempC'], feature: 'tyres', commands: () => [] },
  {
    key: 'offlineMode',
    keys: ['offlineMode'],
    commands: (v) => [{ id: on(v.offlineMode) ? 'sleepOn' : 'sleepOff', values: {} }],
  },
  {
    key: 'timerCut',
    keys: ['timerCutA', 'timerCutB', 'timerCutC', 'oilVolumeL'],
    feature: 'oilCut',
    commands: (v) =>
      v.timerCutA == null
        ? []
        : [
            {
              id: 'timerCut',
              values: { a: Number(v.timerCutA), b: Number(v.timerCutB ?? 0), c: Number(v.timerCutC ?? 0) },
            },
          ],
  },
  {
    key: 'workMode',
    keys: ['timeModeMinutes', 'powerOnTime', 'intervalHours', 'mixedMode'],
    commands: (v) => {
      const list: { id: string; values: FieldValues }[] = [];
      if (v.timeModeMinutes != null) list.push({ id: 'timeMode', values: { timeMode: Number(v.timeModeMinutes) } });
      if (v.powerOnTime)
        list.push({
          id: 'powerOnTimer',
          values: { powerOn: String(v.powerOnTime), interval: Number(v.intervalHours ?? 24) },
        });
      list.push({ id: 'mixedMode', values: { mixed: on(v.mixedMode) ? '1' : '0' } });
      return list;
    },
  },
];

/** The domain's rules over the work-mode values (spec §5): a message key when they break one. */
export function workModeProblem(v: SettingsValues): string | null {
  const minutes = v.timeModeMinutes == null ? null : Number(v.timeModeMinutes);
  const checked = checkWorkModeSettings({
    timeModeMinutes: minutes,
    powerOnTime: (v.powerOnTime as string) || null,
    mixed: on(v.mixedMode),
  });
  if (!checked.ok) return checked.message;
  const tyres = checkTyreThresholds(v);
  if (!tyres.ok) return tyres.message;
  if (v.powerOnTime) {
    const hours = intervalHours(v.intervalHours ?? 24);
    if (!hours.ok) return hours.message;
  }
  return null;
}

/** The sections whose stored values changed. */
export function changedSections(before: SettingsValues, after: SettingsValues): Section[] {
  const norm = (x: unknown) => (x === undefined || x === '' ? null : x);
  return SECTIONS.filter((s) => s.keys.some((k) => norm(before[k]) !== norm(after[k])));
}

interface Sent {
  section: string;
  content: string;
  outcome: SendOutcome | { kind: 'error'; message: string; reply: null };
}

export function DeviceSettingsButton({ device }: { device: DeviceOption }) {
  const { t } = useTranslation('deviceTypes');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<SettingOutlined />} onClick={() => setOpen(true)} data-testid="device-settings-open">
        {t('settings.open')}
      </Button>
      {open && <DeviceSettingsDrawer device={device} onClose={() => setOpen(false)} />}
    </>
  );
}

function DeviceSettingsDrawer({ device, onClose }: { device: DeviceOption; onClose: () => void }) {
  const { t, i18n } = useTranslation('deviceTypes');
  const [form] = Form.useForm<SettingsValues>();
  const queryClient = useQueryClient();
  const types = useDeviceTypes();
  const features = deviceTypeOf(types, device.deviceProtocol).features;
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [sent, setSent] = useState<Sent[] | null>(null);
  const stored = useQuery({
    queryKey: ['orderSettings', device.terminalID],
    queryFn: () =>
      api<{ items: SettingsValues; updatedAt: string | null }>('/order/find', { terminalID: device.terminalID }),
  });

  const save = async () => {
    const values = form.getFieldsValue(true) as SettingsValues;
    const broken = workModeProblem(values);
    setProblem(broken ? translate(broken, i18n.language) : null);
    if (broken) return;
    setSaving(true);
    try {
      const before = stored.data?.items ?? {};
      const items = Object.fromEntries(
        SECTIONS.flatMap((s) => s.keys).map((k) => [k, values[k] === undefined || values[k] === '' ? null : values[k]]),
      );
      await api('/order/save', { terminalID: device.terminalID, items });
      const results: Sent[] = [];
      for (const section of changedSections(before, values)) {
        if (section.feature && !features[section.feature]) continue;
        for (const c of section.commands(values, device)) {
          const entry = menuCommandById(c.id);
          if (!entry) continue;
          const built = buildCommand(entry.template, c.values);
          if (!built.ok) {
            results.push({
              section: section.key,
              content: entry.template,
              outcome: {
                kind: 'error',
                message: built.message ? translate(built.message, i18n.language) : t('settings.invalid'),
                reply: null,
              },
            });
            continue;
          }
          try {
            const outcome = await sendCommand({
              terminalID: device.terminalID,
              content: built.content,
              deviceProtocol: device.deviceProtocol,
            });
            results.push({ section: section.key, content: built.content, outcome });
          } catch (err) {
            results.push({
              section: section.key,
              content: built.content,
              outcome: { kind: 'error', message: (err as Error).message, reply: null },
            });
          }
        }
      }
      setSent(results);
      void queryClient.invalidateQueries({ queryKey: ['orderSettings', device.terminalID] });
      void queryClient.invalidateQueries({ queryKey: ['commandRecords'] });
      void queryClient.invalidateQueries({ queryKey: ['commandOffline'] });
    } catch (err) {
      setProblem((err as Error).message);
    } finally {
      setSaving(false);
    }
  };

  const disabled = (feature?: DeviceFeature) => (feature ? !features[feature] : false);
  const section = (key: string, feature: DeviceFeature | undefined, body: React.ReactNode) => (
    <div data-testid={`settings-${key}`}>
      <Divider titlePlacement="left" plain style={{ margin: '8px 0' }}>
        {t(`settings.${key}`)}
        {disabled(feature) && (
          <Tag style={{ marginLeft: 8 }} data-testid={`settings-${key}-unsupported`}>
            {translate('device.unsupported', i18n.language)}
          </Tag>
        )}
      </Divider>
      <fieldset disabled={disabled(feature)} style={{ border: 0, padding: 0, margin: 0 }}>
        <Space wrap align="end">
          {body}
        </Space>
      </fieldset>
    </div>
  );
  const sw = (name: string) => (
    <Form.Item name={name} valuePropName="checked" label={t(`settings.field.${name}`)} style={{ marginBottom: 0 }}>
      <Switch data-testid={`settings-field-${name}`} />
    </Form.Item>
  );
  const num = (name: string, min: number, max: number) => (
    <Form.Item name={name} label={t(`settings.field.${name}`)} style={{ marginBottom: 0 }}>
      <InputNumber min={min} max={max} data-testid={`settings-field-${name}`} />
    </Form.Item>
  );

  return (
    <Drawer
      open
      onClose={onClose}
      width={640}
      title={`${t('settings.title')} — ${device.displayName}`}
      extra={
        <Button type="primary" loading={saving} onClick={save} data-testid="device-settings-save">
          {t('settings.save')}
        </Button>
      }
    >
      {stored.data && (
        <Form form={form} layout="vertical" initialValues={stored.data.items} size="small">
          {section(
            'sos',
            undefined,
            ['sos1', 'sos2', 'sos3'].map((n) => (
              <Form.Item key={n} name={n} label={t(`settings.field.${n}`)} style={{ marginBottom: 0 }}>
                <Input maxLength={20} style={{ width: 150 }} data-testid={`settings-field-${n}`} />
              </Form.Item>
            )),
          )}
          {section('vibration', undefined, [sw('vibration'), num('vibrationLevel', 1, 5)])}
          {section('powerCut', undefined, sw('powerCut'))}
          {section('lowBattery', 'battery', sw('lowBattery'))}
          {section('displacement', undefined, [sw('displacement'), num('displacementRadius', 1, 100_000)])}
          {section('speedLimit', undefined, [sw('speedLimit'), num('speedKmh', 1, 300), num('speedSeconds', 1, 3600)])}
          {section('fence', undefined, [
            <Form.Item key="fence" name="fence" label={t('settings.field.fence')} style={{ marginBottom: 0 }}>
              <Select
                style={{ width: 160 }}
                options={['off', 'in', 'out', 'inOut'].map((v) => ({ value: v, label: t(`settings.fenceKind.${v}`) }))}
              />
            </Form.Item>,
            num('fenceRadius', 100, 1_000_000),
          ])}
          {section('tyres', 'tyres', [
            num('tyreHighKpa', 0, 1000),
            num('tyreLowKpa', 0, 1000),
            num('tyreHighTempC', -40, 200),
          ])}
          {section('offlineMode', undefined, sw('offlineMode'))}
          {section('timerCut', 'oilCut', [
            num('timerCutA', 0, 65_535),
            num('timerCutB', 0, 65_535),
            num('timerCutC', 0, 65_535),
            <Form.Item key="oil" name="oilVolumeL" label={t('settings.field.oilVolumeL')} style={{ marginBottom: 0 }}>
              <Select
                showSearch
                style={{ width: 120 }}
                data-testid="settings-field-oilVolumeL"
                options={OIL_VOLUME_OPTIONS_L.map((l) => ({ value: l, label: `${l.toFixed(1)} L` }))}
              />
            </Form.Item>,
          ])}
          {section('workMode', undefined, [
            num('timeModeMinutes', 0, 1440),
            <Form.Item key="pt" name="powerOnTime" label={t('settings.field.powerOnTime')} style={{ marginBottom: 0 }}>
              <Input placeholder="18:30" maxLength={5} style={{ width: 90 }} data-testid="settings-field-powerOnTime" />
            </Form.Item>,
            num('intervalHours', 1, 720),
            sw('mixedMode'),
          ])}
        </Form>
      )}
      {problem && (
        <Alert type="error" showIcon message={problem} style={{ marginTop: 12 }} data-testid="settings-problem" />
      )}
      {sent && (
        <List
          style={{ marginTop: 12 }}
          size="small"
          header={<Typography.Text strong>{t('settings.results')}</Typography.Text>}
          dataSource={sent}
          locale={{ emptyText: t('settings.nothingChanged') }}
          data-testid="settings-results"
          renderItem={(r) => (
            <List.Item data-testid={`settings-result-${r.section}`}>
              <Space direction="vertical" size={0}>
                <Space>
                  <Tag
                    color={
                      r.outcome.kind === 'success'
                        ? 'green'
                        : r.outcome.kind === 'queued'
                          ? 'blue'
                          : r.outcome.kind === 'timeout'
                            ? 'orange'
                            : 'red'
                    }
                  >
                    {t(`settings.outcome.${r.outcome.kind}`)}
                  </Tag>
                  <Typography.Text code>{r.content}</Typography.Text>
                </Space>
                <Typography.Text type="secondary">{r.outcome.message}</Typography.Text>
                {'oil' in r.outcome && <OilOutcome oil={r.outcome.oil} />}
              </Space>
            </List.Item>
          )}
        />
      )}
    </Drawer>
  );
}
