// Play, pause, speed 1×–32× and a seek slider, with the time, speed and mileage at the playback position.
import { CaretRightOutlined, PauseOutlined } from '@ant-design/icons';
import { formatMileage } from '@carhere/domain';
import { Button, Select, Slider, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { PLAYBACK_SPEEDS, type PlaybackSpeed } from '../data/playback.ts';
import type { PlaybackClock } from '../data/playbackClock.ts';
import { positionAt, type TrackData } from '../data/trackData.ts';

export interface PlaybackControlsProps {
  track: TrackData;
  clock: PlaybackClock;
  /** Called instead of playing while tracks are still loading. */
  onNotReady?: () => boolean;
}

export function PlaybackControls({ track, clock, onNotReady }: PlaybackControlsProps) {
  const { t } = useTranslation('track');
  const { cursor, playing, speed } = useSyncExternalStore(clock.subscribe, clock.get);
  const p = positionAt(track, cursor);
  return (
    <Space size="middle" style={{ width: '100%', flexWrap: 'wrap' }} data-testid="playback-controls">
      <Button
        type="primary"
        shape="circle"
        icon={playing ? <PauseOutlined /> : <CaretRightOutlined />}
        aria-label={playing ? t('playback.pause') : t('playback.play')}
        data-testid={playing ? 'playback-pause' : 'playback-play'}
        onClick={() => {
          if (playing) clock.pause();
          else if (!onNotReady?.()) clock.play();
        }}
      />
      <Select<PlaybackSpeed>
        size="small"
        value={speed}
        style={{ width: 80 }}
        aria-label={t('playback.speed')}
        data-testid="playback-speed"
        onChange={(v) => clock.setSpeed(v)}
        options={PLAYBACK_SPEEDS.map((s) => ({ value: s, label: `${s}×` }))}
      />
      <Slider
        style={{ width: 260, margin: '0 8px' }}
        min={0}
        max={Math.max(0, track.length - 1)}
        value={Math.floor(cursor)}
        onChange={(v) => clock.seek(v)}
        tooltip={{
          formatter: (v) => (v !== undefined && track.length > 0 ? dayjs(track.times[v]).format('MM-DD HH:mm:ss') : ''),
        }}
        aria-label={t('playback.seek')}
      />
      <Typography.Text data-testid="playback-time">
        {p ? dayjs(p.time).format('YYYY-MM-DD HH:mm:ss') : '-'}
      </Typography.Text>
      <Typography.Text type="secondary">
        {p ? t('playback.speedValue', { speed: Math.round(p.speed) }) : ''}
      </Typography.Text>
      <Typography.Text type="secondary" data-testid="playback-mileage">
        {p ? t('playback.mileage', { mileage: formatMileage(p.distance) }) : ''}
      </Typography.Text>
    </Space>
  );
}
