// Which devices (up to 5) and when (up to 90 days): the track query form.
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import { TRACK_MAX_DEVICES } from '@carhere/domain';
import { Button, DatePicker, Dropdown, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { presetRange, RANGE_PRESETS } from './rangePresets.ts';

export interface DeviceOption {
  value: string;
  label: string;
}

export interface TrackQueryBarProps {
  options: DeviceOption[];
  optionsLoading: boolean;
  devices: string[];
  onDevices: (devices: string[]) => void;
  range: [Dayjs, Dayjs];
  onRange: (range: [Dayjs, Dayjs]) => void;
  /** The user's time zone: the quick ranges are its days. */
  zone: string;
  loading: boolean;
  onQuery: () => void;
  canDownload: boolean;
  onDownload: (format: 'xlsx' | 'gpx') => void;
}

export function TrackQueryBar(props: TrackQueryBarProps) {
  const { t } = useTranslation('track');
  return (
    <Space wrap size="small" data-testid="track-query">
      <Select
        mode="multiple"
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        maxCount={TRACK_MAX_DEVICES}
        placeholder={t('query.devices', { max: TRACK_MAX_DEVICES })}
        style={{ minWidth: 320, maxWidth: 560 }}
        loading={props.optionsLoading}
        options={props.options}
        value={props.devices}
        onChange={props.onDevices}
        data-testid="track-devices"
      />
      <DatePicker.RangePicker
        showTime={{ format: 'HH:mm' }}
        format="YYYY-MM-DD HH:mm"
        value={props.range}
        allowClear={false}
        onChange={(v) => v?.[0] && v[1] && props.onRange([v[0], v[1]])}
        presets={RANGE_PRESETS.map((p) => ({ label: t(`query.preset.${p}`), value: () => presetRange(p, props.zone) }))}
        data-testid="track-range"
      />
      <Button
        type="primary"
        icon={<SearchOutlined />}
        loading={props.loading}
        onClick={props.onQuery}
        data-testid="track-submit"
      >
        {t('query.submit')}
      </Button>
      <Dropdown
        disabled={!props.canDownload}
        menu={{
          items: [
            { key: 'xlsx', label: t('download.xlsx') },
            { key: 'gpx', label: t('download.gpx') },
          ],
          onClick: ({ key }) => props.onDownload(key as 'xlsx' | 'gpx'),
        }}
      >
        <Button icon={<DownloadOutlined />} data-testid="track-download">
          {t('download.label')}
        </Button>
      </Dropdown>
    </Space>
  );
}
