// Create or edit a fence: name, shape drawn on the map (circle with a radius of 100–1000000 m, or a
// rectangle), alarm type (in / out / in or out), opened or closed, and the devices to link on creation.
import { EditOutlined } from '@ant-design/icons';
import {
  FENCE_RADIUS_MAX_M,
  FENCE_RADIUS_MIN_M,
  type FenceAlarmType,
  type FenceState,
  fenceRadius,
  formatRadius,
} from '@carhere/domain';
import { Alert, Button, Form, Input, InputNumber, Radio, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DeviceSelect } from '../command/DeviceSelect.tsx';
import type { FenceGeometry } from './api.ts';

export interface FenceDraft {
  id?: string;
  name: string;
  shape: 'circle' | 'rectangle' | 'polygon';
  geometry: FenceGeometry | null;
  alarmType: FenceAlarmType;
  state: FenceState;
  terminalIDs: string[];
}

export interface FenceEditorProps {
  draft: FenceDraft;
  onChange: (draft: FenceDraft) => void;
  drawing: boolean;
  /** Starts drawing (never stops it: that is onStopDrawing, its own button). */
  onDraw: () => void;
  onStopDrawing: () => void;
  onSave: () => void;
  onCancel: () => void;
  saving: boolean;
}

/** Why the draft cannot be saved yet (message key), or null. */
export function draftProblem(draft: FenceDraft): { key: string; params?: Record<string, number> } | null {
  if (draft.name.trim() === '') return { key: 'editor.nameRequired' };
  if (!draft.geometry) return { key: 'editor.drawFirst' };
  if (draft.geometry.shape === 'circle' && !fenceRadius(draft.geometry.radius).ok) {
    return { key: 'editor.radiusRange', params: { min: FENCE_RADIUS_MIN_M, max: FENCE_RADIUS_MAX_M } };
  }
  return null;
}

export function FenceEditor({
  draft,
  onChange,
  drawing,
  onDraw,
  onStopDrawing,
  onSave,
  onCancel,
  saving,
}: FenceEditorProps) {
  const { t } = useTranslation(['fence', 'customerMap']);
  const g = draft.geometry;
  const problem = draftProblem(draft);
  const set = (patch: Partial<FenceDraft>) => onChange({ ...draft, ...patch });
  return (
    <Form layout="vertical" data-testid="fence-editor" onFinish={onSave}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {draft.id ? t('editor.editTitle') : t('editor.newTitle')}
      </Typography.Title>
      <Form.Item label={t('field.name')} required>
        <Input
          value={draft.name}
          maxLength={50}
          onChange={(e) => set({ name: e.target.value })}
          placeholder={t('field.namePlaceholder')}
          data-testid="fence-name"
        />
      </Form.Item>
      <Form.Item label={t('field.shape')}>
        <Radio.Group
          value={draft.shape}
          onChange={(e) => set({ shape: e.target.value, geometry: null })}
          optionType="button"
          options={[
            { value: 'circle', label: t('shape.circle') },
            { value: 'rectangle', label: t('shape.rectangle') },
            { value: 'polygon', label: t('customerMap:fence.polygon') },
          ]}
          data-testid="fence-shape"
        />
      </Form.Item>
      <Space direction="vertical" style={{ width: '100%', marginBottom: 16 }}>
        <Space wrap>
          <Button
            icon={<EditOutlined />}
            type={drawing ? 'primary' : 'default'}
            aria-pressed={drawing}
            // While drawing, a second click keeps drawing: stopping is the button beside it (or Esc).
            onClick={drawing ? undefined : onDraw}
            data-testid="fence-draw"
          >
            {drawing ? t('editor.drawing') : g ? t('editor.redraw') : t('editor.draw')}
          </Button>
          {drawing && (
            <Button onClick={onStopDrawing} data-testid="fence-draw-stop">
              {t('editor.stopDrawing')}
            </Button>
          )}
        </Space>
        {drawing && (
          <Alert
            type="info"
            showIcon
            message={
              draft.shape === 'circle'
                ? t('editor.hintCircle')
                : draft.shape === 'polygon'
                  ? t('customerMap:common.hintPolygon')
                  : t('editor.hintRectangle')
            }
          />
        )}
        {g && g.shape === 'circle' && (
          <Typography.Text type="secondary" data-testid="fence-geometry">
            {t('editor.centre', { lat: g.lat.toFixed(6), lon: g.lon.toFixed(6) })}
          </Typography.Text>
        )}
        {g && g.shape === 'rectangle' && (
          <Typography.Text type="secondary" data-testid="fence-geometry">
            {t('editor.corners', {
              south: g.minLat.toFixed(6),
              west: g.minLon.toFixed(6),
              north: g.maxLat.toFixed(6),
              east: g.maxLon.toFixed(6),
            })}
          </Typography.Text>
        )}
        {g && g.shape === 'polygon' && (
          <Typography.Text type="secondary" data-testid="fence-geometry">
            {t('customerMap:fence.vertices', { count: g.points.length })}
          </Typography.Text>
        )}
      </Space>
      {g && g.shape === 'circle' && (
        <Form.Item
          label={t('field.radius')}
          extra={formatRadius(g.radius)}
          validateStatus={fenceRadius(g.radius).ok ? undefined : 'error'}
          help={
            fenceRadius(g.radius).ok
              ? undefined
              : t('editor.radiusRange', { min: FENCE_RADIUS_MIN_M, max: FENCE_RADIUS_MAX_M })
          }
        >
          <InputNumber
            value={g.radius}
            min={1}
            max={FENCE_RADIUS_MAX_M * 10}
            addonAfter="m"
            style={{ width: '100%' }}
            onChange={(v) => set({ geometry: { ...g, radius: Number(v ?? 0) } })}
            data-testid="fence-radius"
          />
        </Form.Item>
      )}
      <Form.Item label={t('field.alarmType')}>
        <Select<FenceAlarmType>
          value={draft.alarmType}
          onChange={(v) => set({ alarmType: v })}
          options={[
            { value: 'in', label: t('alarmType.in') },
            { value: 'out', label: t('alarmType.out') },
            { value: 'inOut', label: t('alarmType.inOut') },
          ]}
          data-testid="fence-alarm-type"
        />
      </Form.Item>
      <Form.Item label={t('field.state')}>
        <Switch
          checked={draft.state === 'opened'}
          onChange={(on) => set({ state: on ? 'opened' : 'closed' })}
          checkedChildren={t('state.opened')}
          unCheckedChildren={t('state.closed')}
        />
      </Form.Item>
      {!draft.id && (
        <Form.Item label={t('field.devices')} extra={t('editor.devicesHint')}>
          <DeviceSelect
            multiple
            value={draft.terminalIDs}
            onChange={(v) => set({ terminalIDs: v })}
            testId="fence-devices"
            feature="fence"
          />
        </Form.Item>
      )}
      {problem && problem.key !== 'editor.nameRequired' && problem.key !== 'editor.drawFirst' && (
        <Alert type="error" message={t(problem.key, problem.params)} style={{ marginBottom: 12 }} />
      )}
      <Space>
        <Button type="primary" htmlType="submit" loading={saving} disabled={problem !== null} data-testid="fence-save">
          {t('editor.save')}
        </Button>
        <Button onClick={onCancel}>{t('editor.cancel')}</Button>
      </Space>
      {problem && (problem.key === 'editor.nameRequired' || problem.key === 'editor.drawFirst') && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          {t(problem.key)}
        </Typography.Paragraph>
      )}
    </Form>
  );
}
