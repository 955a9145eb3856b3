// "Locate on the map": the alarm's position on a small map, with its name and time.
import { Descriptions, Modal } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { BaseMap } from '../../map/BaseMap.tsx';
import { MapMarker } from '../../map/layers/MapMarker.tsx';
import { ALARM_PIN } from '../fence/pinIcon.ts';
import { AddressCell } from './AddressCell.tsx';
import type { Alarm } from './api.ts';
import { useAlarmLabel } from './labels.ts';

export function AlarmLocateModal({ alarm, onClose }: { alarm: Alarm | null; onClose: () => void }) {
  const { t } = useTranslation('alarms');
  const label = useAlarmLabel();
  const position: [number, number] | null =
    alarm && alarm.lat !== null && alarm.lon !== null ? [alarm.lat, alarm.lon] : null;
  return (
    <Modal
      open={alarm !== null}
      onCancel={onClose}
      footer={null}
      width={760}
      title={alarm ? `${alarm.displayName} · ${label(alarm.alarmType)}` : ''}
      destroyOnHidden
      data-testid="alarm-locate"
    >
      {alarm && (
        <>
          <Descriptions size="small" column={2} style={{ marginBottom: 12 }}>
            <Descriptions.Item label={t('column.time')}>
              {dayjs(alarm.time).format('YYYY-MM-DD HH:mm:ss')}
            </Descriptions.Item>
            <Descriptions.Item label={t('column.speed')}>
              {t('speedValue', { speed: Math.round(alarm.speed ?? 0) })}
            </Descriptions.Item>
            <Descriptions.Item label={t('column.address')} span={2}>
              <AddressCell alarm={alarm} />
            </Descriptions.Item>
          </Descriptions>
          <div style={{ height: 380 }}>
            {position ? (
              <BaseMap center={position} zoom={15} showTypeSelector={false}>
                <MapMarker position={position} icon={ALARM_PIN} tooltip={label(alarm.alarmType)} />
              </BaseMap>
            ) : (
              t('noLocation')
            )}
          </div>
        </>
      )}
    </Modal>
  );
}
