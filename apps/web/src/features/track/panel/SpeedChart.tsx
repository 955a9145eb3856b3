// The speed chart under the map: speed over time drawn on a canvas from per-pixel minimum and maximum (so a
// 777,600-fix track costs one pass per redraw), a cursor at the playback position, click or drag to seek.
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlaybackClock } from '../data/playbackClock.ts';
import { indexAtTime, positionAt, type TrackData } from '../data/trackData.ts';

export const CHART_HEIGHT = 110;
const PAD = { left: 44, right: 12, top: 10, bottom: 20 };

/** Minimum and maximum speed per pixel column over the track's time span. */
export function speedColumns(track: TrackData, width: number): { min: Float32Array; max: Float32Array; top: number } {
  const min = new Float32Array(width).fill(Number.POSITIVE_INFINITY);
  const max = new Float32Array(width).fill(Number.NEGATIVE_INFINITY);
  let top = 0;
  if (track.length === 0 || width <= 0) return { min, max, top: 10 };
  const t0 = track.times[0];
  const span = Math.max(1, track.times[track.length - 1] - t0);
  for (let i = 0; i < track.length; i++) {
    const x = Math.min(width - 1, Math.floor(((track.times[i] - t0) / span) * width));
    const s = track.speeds[i];
    if (s < min[x]) min[x] = s;
    if (s > max[x]) max[x] = s;
    if (s > top) top = s;
  }
  return { min, max, top: Math.max(10, Math.ceil(top / 20) * 20) };
}

export function SpeedChart({ track, clock, color }: { track: TrackData; clock: PlaybackClock; color: string }) {
  const { t } = useTranslation('track');
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(600);
  const { cursor } = useSyncExternalStore(clock.subscribe, clock.get);

  useEffect(() => {
    const node = wrap.current;
    if (!node) return;
    const observer = new ResizeObserver(() => setWidth(Math.max(100, node.clientWidth)));
    observer.observe(node);
    return () => observer.disconnect();
  }, []);

  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = CHART_HEIGHT - PAD.top - PAD.bottom;

  useEffect(() => {
    const c = canvas.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    const ratio = window.devicePixelRatio || 1;
    c.width = width * ratio;
    c.height = CHART_HEIGHT * ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, CHART_HEIGHT);
    const { min, max, top } = speedColumns(track, plotWidth);
    const y = (speed: number) => PAD.top + plotHeight - (speed / top) * plotHeight;
    ctx.font = '11px sans-serif';
    ctx.fillStyle = '#8c8c8c';
    ctx.strokeStyle = '#f0f0f0';
    ctx.lineWidth = 1;
    for (const v of [0, top / 2, top]) {
      ctx.beginPath();
      ctx.moveTo(PAD.left, y(v) + 0.5);
      ctx.lineTo(PAD.left + plotWidth, y(v) + 0.5);
      ctx.stroke();
      ctx.fillText(String(Math.round(v)), 6, y(v) + 4);
    }
    ctx.fillText(t('chart.unit'), 6, CHART_HEIGHT - 4);
    const t0 = track.times[0] ?? 0;
    const span = Math.max(1, (track.times[track.length - 1] ?? 0) - t0);
    if (track.length <= plotWidth) {
      // Few fixes: a line through each of them.
      ctx.strokeStyle = color;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      for (let i = 0; i < track.length; i++) {
        const x = PAD.left + ((track.times[i] - t0) / span) * plotWidth;
        if (i === 0) ctx.moveTo(x, y(track.speeds[i]));
        else ctx.lineTo(x, y(track.speeds[i]));
      }
      ctx.stroke();
    } else {
      // Many fixes: each pixel column spans its minimum to maximum speed.
      ctx.fillStyle = color;
      for (let x = 0; x < plotWidth; x++) {
        if (max[x] === Number.NEGATIVE_INFINITY) continue;
        const yTop = y(max[x]);
        ctx.fillRect(PAD.left + x, yTop, 1, Math.max(1.5, y(min[x]) - yTop));
      }
    }
  }, [track, width, plotWidth, plotHeight, color, t]);

  const p = positionAt(track, cursor);
  const t0 = track.times[0] ?? 0;
  const span = Math.max(1, (track.times[track.length - 1] ?? 0) - t0);
  const cursorX = p ? PAD.left + ((p.time - t0) / span) * plotWidth : PAD.left;

  const seekAt = (clientX: number) => {
    const rect = wrap.current?.getBoundingClientRect();
    if (!rect) return;
    const fraction = Math.max(0, Math.min(1, (clientX - rect.left - PAD.left) / plotWidth));
    clock.seek(indexAtTime(track, t0 + fraction * span));
  };

  return (
    <div
      ref={wrap}
      data-testid="speed-chart"
      role="slider"
      aria-label={t('chart.label')}
      aria-valuenow={Math.round(cursor)}
      tabIndex={0}
      style={{ position: 'relative', height: CHART_HEIGHT, cursor: 'pointer', userSelect: 'none' }}
      onMouseDown={(e) => seekAt(e.clientX)}
      onMouseMove={(e) => e.buttons === 1 && seekAt(e.clientX)}
    >
      <canvas ref={canvas} style={{ width, height: CHART_HEIGHT, display: 'block' }} />
      <div
        style={{
          position: 'absolute',
          left: cursorX,
          top: PAD.top,
          height: plotHeight,
          width: 1,
          background: '#ff4d4f',
          pointerEvents: 'none',
        }}
      />
    </div>
  );
}
