// The IMEI-list screens of spec §2 (transfer, reset, time, expiry type, icon, host, type, zone, command): IMEIs
// pasted one per line (checked by the domain rule), then one batch operation on them.
import { parseImeiLines } from '@carhere/domain';
import { Alert, Card, Col, Input, Row, Segmented, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SubNav } from '../agent/SubNav.tsx';
import { type BatchKind, BatchOperation } from './BatchOperation.tsx';
import { DEVICE_PAGES } from './pages.ts';

export function ImeiBatchPage({ kinds }: { kinds: BatchKind[] }) {
  const { t } = useTranslation('device');
  const [params] = useSearchParams();
  // ?imeis=a,b (the past-due report's "renew" links) fills the list, one IMEI per line.
  const [text, setText] = useState(() => (params.get('imeis') ?? '').split(',').filter(Boolean).join('\n'));
  const [kind, setKind] = useState<BatchKind>(kinds[0]);
  const parsed = parseImeiLines(text);

  return (
    <div style={{ padding: 16 }}>
      <SubNav items={DEVICE_PAGES} />
      <Row gutter={16}>
        <Col xs={24} md={10}>
          <Card size="small" title={t('imeis.title')}>
            <Input.TextArea
              rows={14}
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder={t('imeis.placeholder')}
              data-testid="imei-lines"
            />
            <Space direction="vertical" style={{ marginTop: 8, width: '100%' }}>
              <Typography.Text>{t('imeis.count', { count: parsed.imeis.length })}</Typography.Text>
              {parsed.invalid.length > 0 && (
                <Alert
                  type="error"
                  message={t('imeis.invalid', { lines: parsed.invalid.map((i) => i.line).join(', ') })}
                />
              )}
              {parsed.duplicates.length > 0 && (
                <Alert type="warning" message={t('imeis.duplicates', { imeis: parsed.duplicates.join(', ') })} />
              )}
              {parsed.notFifteen.length > 0 && (
                <Alert type="info" message={t('imeis.notFifteen', { count: parsed.notFifteen.length })} />
              )}
            </Space>
          </Card>
        </Col>
        <Col xs={24} md={14}>
          <Card
            size="small"
            title={<span title={t(`batch.title.${kind}`)}>{t(`batch.title.${kind}`)}</span>}
            extra={
              kinds.length > 1 && (
                <Segmented
                  value={kind}
                  onChange={(k) => setKind(k as BatchKind)}
                  options={kinds.map((k) => ({ value: k, label: t(`batch.title.${k}`) }))}
                />
              )
            }
          >
            <BatchOperation key={kind} kind={kind} terminalIDs={parsed.imeis} />
          </Card>
        </Col>
      </Row>
    </div>
  );
}

export const TransformPage = () => <ImeiBatchPage kinds={['transfer', 'sale']} />;
export const ResetPage = () => <ImeiBatchPage kinds={['reset']} />;
export const UpdateTimePage = () => <ImeiBatchPage kinds={['time', 'recalc']} />;
export const ExpireTypePage = () => <ImeiBatchPage kinds={['term', 'recalc']} />;
export const BatchIconPage = () => <ImeiBatchPage kinds={['icon']} />;
export const UpdateHostPage = () => <ImeiBatchPage kinds={['host']} />;
export const UpdateTypePage = () => <ImeiBatchPage kinds={['type']} />;
export const UpdateZonePage = () => <ImeiBatchPage kinds={['zone']} />;
export const MultipleCmdPage = () => <ImeiBatchPage kinds={['command']} />;
