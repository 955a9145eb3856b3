// A searchable device picker (name or IMEI) over every device below the caller; antd virtualises the list.
// With `feature`, the picker applies the access check (../monitor/access.ts): an inactive or expired device is
// tagged so, and picking it shows the spec's message instead of selecting it.
import { Select, Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { accessRefusal, admitDevices, type DeviceFeature } from '../monitor/access.ts';
import { useDeviceAccess } from '../monitor/useDeviceAccess.ts';
import { type DeviceOption, matchesDevice, useDeviceOptions } from './devices.ts';

interface Common {
  style?: React.CSSProperties;
  placeholder?: string;
  testId?: string;
  /** Only these devices (e.g. not yet linked). */
  filter?: (device: DeviceOption) => boolean;
  allowClear?: boolean;
  /** The feature the picked devices are for: inactive and expired devices are refused with the spec's message. */
  feature?: DeviceFeature;
}

type Single = Common & { multiple?: false; value?: string; onChange: (terminalID: string | undefined) => void };
type Multiple = Common & { multiple: true; value?: string[]; onChange: (terminalIDs: string[]) => void };

export function DeviceSelect(props: Single | Multiple) {
  const { t } = useTranslation(['command', 'monitor']);
  const devices = useDeviceOptions();
  const { refuse } = useDeviceAccess();
  const { feature } = props;
  const byId = useMemo(() => new Map((devices.data ?? []).map((d) => [d.terminalID, d])), [devices.data]);
  const options = useMemo(() => {
    const now = Date.now();
    return (devices.data ?? [])
      .filter((d) => !props.filter || props.filter(d))
      .map((d) => {
        const refusal = feature ? accessRefusal(feature, d, now) : null;
        const tag = refusal
          ? {
              color: 'red',
              text: t(refusal === 'device.expired' ? 'monitor:tabs.expired' : 'monitor:tabs.unactivated'),
            }
          : { color: d.online ? 'green' : 'default', text: d.online ? t('device.online') : t('device.offline') };
        return {
          value: d.terminalID,
          device: d,
          label: (
            <span data-access={refusal ?? undefined}>
              {d.displayName}
              {d.displayName !== d.terminalID && <span style={{ color: '#999' }}> · {d.terminalID}</span>}{' '}
              <Tag color={tag.color} style={{ marginInlineStart: 4 }}>
                {tag.text}
              </Tag>
            </span>
          ),
        };
      });
  }, [devices.data, props.filter, feature, t]);

  const change = (v: string | string[] | undefined) => {
    if (!feature || v === undefined) return (props.onChange as (v: unknown) => void)(v);
    const picks = Array.isArray(v) ? v : [v];
    const { allowed, refused } = admitDevices(feature, picks, (id) => byId.get(id), Date.now());
    if (refused) refuse(refused);
    if (props.multiple) props.onChange(allowed);
    else if (!refused) props.onChange(allowed[0]);
  };

  return (
    <Select
      showSearch={{ filterOption: (input, option) => (option ? matchesDevice(option.device, input) : false) }}
      mode={props.multiple ? 'multiple' : undefined}
      value={props.value}
      onChange={change}
      options={options}
      loading={devices.isLoading}
      placeholder={props.placeholder ?? t('device.select')}
      style={{ minWidth: 260, ...props.style }}
      allowClear={props.allowClear ?? true}
      data-testid={props.testId ?? 'device-select'}
      notFoundContent={devices.isLoading ? t('device.loading') : t('device.none')}
      maxTagCount="responsive"
    />
  );
}
