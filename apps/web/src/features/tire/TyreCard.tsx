// Tyre pressure of one device: the four wheels on a car outline with pressure, temperature and status
// (spec §3), and the limits they are judged by.
import { DEFAULT_TYRE_LIMITS, labelIn, TYRE_STATUSES, type TyreStatus } from '@carhere/domain';
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { findTyres, type Wheel } from './api.ts';
import { wheelColor, wheelsByPosition } from './wheels.ts';

export function TyreCard({ terminalID }: { terminalID: string }) {
  const { t, i18n } = useTranslation('tire');
  const report = useQuery({
    queryKey: ['tyres', terminalID],
    queryFn: ({ signal }) => findTyres(terminalID, signal),
    refetchInterval: 30_000,
  });
  const placed = wheelsByPosition(report.data?.wheels ?? []);
  const status = (s: string) => (s in TYRE_STATUSES ? labelIn(TYRE_STATUSES[s as TyreStatus], i18n.language) : s);
  const cell = (w: Wheel | null, position: string) => (
    <div
      key={position}
      data-testid={`tyre-${position}`}
      style={{ border: `2px solid ${wheelColor(w)}`, borderRadius: 8, padding: 12, minHeight: 96, background: '#fff' }}
    >
      <Typography.Text strong>{t(`position.${position}`)}</Typography.Text>
      {w ? (
        <>
          <div>{t('pressure', { value: w.pressure ?? '-' })}</div>
          <div>{t('temperature', { value: w.temperature ?? '-' })}</div>
          <div>
            {w.statuses.map((s) => (
              <Tag key={s} color={s === 'normal' ? 'green' : 'red'} style={{ marginTop: 4 }}>
                {status(s)}
              </Tag>
            ))}
          </div>
        </>
      ) : (
        <div style={{ color: '#999' }}>{t('noReading')}</div>
      )}
    </div>
  );
  return (
    <Card
      title={t('tyresTitle')}
      size="small"
      loading={report.isLoading}
      extra={
        report.data?.time ? t('reportedAt', { time: dayjs(report.data.time).format('YYYY-MM-DD HH:mm:ss') }) : undefined
      }
      data-testid="tyre-card"
    >
      {report.isError ? (
        <Typography.Text type="danger">{(report.error as Error).message}</Typography.Text>
      ) : (report.data?.wheels.length ?? 0) === 0 ? (
        <Empty description={t('noTyreData')} />
      ) : (
        <>
          <div
            style={{
              display: 'grid',
              gridTemplateColumns: '1fr 80px 1fr',
              gap: 12,
              alignItems: 'center',
              maxWidth: 560,
            }}
          >
            {cell(placed.leftFront, 'leftFront')}
            <div
              style={{
                gridRow: 'span 2',
                height: '100%',
                minHeight: 200,
                border: '2px solid #bfbfbf',
                borderRadius: 24,
              }}
            />
            {cell(placed.rightFront, 'rightFront')}
            {cell(placed.leftRear, 'leftRear')}
            {cell(placed.rightRear, 'rightRear')}
          </div>
          <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
            {t('limits', {
              min: DEFAULT_TYRE_LIMITS.pressureMinKpa,
              max: DEFAULT_TYRE_LIMITS.pressureMaxKpa,
              temperature: DEFAULT_TYRE_LIMITS.temperatureMaxC,
            })}
          </Typography.Paragraph>
        </>
      )}
    </Card>
  );
}
