// Turns the alarm sound on or off (local key 'alarmSound').
import { MutedOutlined, SoundOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { alarmSoundStore, useAlarmSound } from './alarmSound.ts';

export function AlarmSoundToggle() {
  const { t } = useTranslation('monitor');
  const on = useAlarmSound();
  const label = on ? t('alarm.soundOn') : t('alarm.soundOff');
  return (
    <Tooltip title={label}>
      <Button
        size="small"
        icon={on ? <SoundOutlined /> : <MutedOutlined />}
        aria-label={label}
        aria-pressed={on}
        data-testid="alarm-sound"
        onClick={() => alarmSoundStore.set(!on)}
      />
    </Tooltip>
  );
}
