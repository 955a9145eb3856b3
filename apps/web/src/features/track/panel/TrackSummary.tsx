// Per device: fixes, mileage (spec §9 format), and the stop points with their durations (click to show).
import { formatMileage } from '@carhere/domain';
import { Collapse, List, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { StopPoint } from '../data/stops.ts';
import { trackDistance } from '../data/trackData.ts';
import type { TrackView } from '../trackView.ts';
import { formatDuration } from './formatDuration.ts';

const STOPS_PAGE_SIZE = 50;

export interface TrackSummaryProps {
  views: TrackView[];
  activeIndex: number;
  onActivate: (index: number) => void;
  onStop: (view: TrackView, stop: StopPoint) => void;
}

export function TrackSummary({ views, activeIndex, onActivate, onStop }: TrackSummaryProps) {
  const { t } = useTranslation('track');
  return (
    <Collapse
      accordion
      size="small"
      activeKey={String(activeIndex)}
      onChange={(keys) => {
        const key = Array.isArray(keys) ? keys[0] : keys;
        if (key !== undefined) onActivate(Number(key));
      }}
      items={views.map((v, i) => ({
        key: String(i),
        label: (
          <span data-testid="track-summary">
            <span
              style={{
                display: 'inline-block',
                width: 10,
                height: 10,
                borderRadius: 5,
                background: v.color,
                marginRight: 6,
              }}
            />
            {v.name}
          </span>
        ),
        children: (
          <div>
            <Typography.Paragraph style={{ marginBottom: 6 }}>
              {t('summary.points', { count: v.data.length })}
              <br />
              <span data-testid="track-mileage">
                {t('summary.mileage', { mileage: formatMileage(trackDistance(v.data)) })}
              </span>
              <br />
              {t('summary.stops', { count: v.stops.length })}
            </Typography.Paragraph>
            <List
              size="small"
              dataSource={v.stops}
              locale={{ emptyText: t('stops.none') }}
              // A 90-day track can have thousands of stops: a page at a time keeps the panel light (the panel
              // scrolls, so the pager under the list stays reachable).
              pagination={
                v.stops.length > STOPS_PAGE_SIZE
                  ? { pageSize: STOPS_PAGE_SIZE, size: 'small', simple: true, align: 'center' }
                  : false
              }
              renderItem={(s) => (
                <List.Item
                  style={{ cursor: 'pointer', padding: '4px 0' }}
                  onClick={() => onStop(v, s)}
                  data-testid="stop-item"
                >
                  <div>
                    <div>
                      {dayjs(s.start).format('MM-DD HH:mm')} – {dayjs(s.end).format('MM-DD HH:mm')}
                    </div>
                    <Typography.Text type="secondary">
                      {t('stops.duration', { duration: formatDuration(s.durationMs, t) })}
                    </Typography.Text>
                  </div>
                </List.Item>
              )}
            />
          </div>
        ),
      }))}
    />
  );
}
