// A searchable device picker (name or IMEI) over every device below the caller; antd virtualises the list.
import { Select, Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type DeviceOption, matchesDevice, useDeviceOptions } from './devices.ts';

interface Common {
  style?: React.CSSProperties;
  placeholder?: string;
  testId?: string;
  /** Only these devices (e.g. not yet linked). */
  filter?: (device: DeviceOption) => boolean;
  allowClear?: boolean;
}

type Single = Common & { multiple?: false; value?: string; onChange: (terminalID: string | undefined) => void };
type Multiple = Common & { multiple: true; value?: string[]; onChange: (terminalIDs: string[]) => void };

export function DeviceSelect(props: Single | Multiple) {
  const { t } = useTranslation('command');
  const devices = useDeviceOptions();
  const options = useMemo(
    () =>
      (devices.data ?? [])
        .filter((d) => !props.filter || props.filter(d))
        .map((d) => ({
          value: d.terminalID,
          device: d,
          label: (
            <span>
              {d.displayName}
              {d.displayName !== d.terminalID && <span style={{ color: '#999' }}> · {d.terminalID}</span>}{' '}
              <Tag color={d.online ? 'green' : 'default'} style={{ marginInlineStart: 4 }}>
                {d.online ? t('device.online') : t('device.offline')}
              </Tag>
            </span>
          ),
        })),
    [devices.data, props.filter, t],
  );
  return (
    <Select
      showSearch={{ filterOption: (input, option) => (option ? matchesDevice(option.device, input) : false) }}
      mode={props.multiple ? 'multiple' : undefined}
      value={props.value}
      onChange={(v: string | string[] | undefined) => (props.onChange as (v: unknown) => void)(v)}
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
