// Bulk account import (/user/importUser): lines are sent at once, the server imports them as a job and this
// dialog follows its progress, then lists the refused lines with the reason.
import { Alert, App, Form, Input, Modal, Progress, Select, Table } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordsResult } from '../security/PasswordsResult.tsx';
import type { IssuedPassword } from '../security/passwordsCsv.ts';
import { type AccountRow, importUsers, userImportJob } from './api.ts';
import { domainText } from './formRules.ts';
import { parseAccountLines } from './parseAccountLines.ts';
import { useAssignableRoles } from './roles.ts';
import { accountLabel } from './tree.ts';
import { percentOf, useJob } from './useJob.ts';

export function ImportUsersModal({ parent, onClose }: { parent: AccountRow; onClose: (changed: boolean) => void }) {
  const { t } = useTranslation('agent');
  const { message } = App.useApp();
  const roles = useAssignableRoles();
  const [text, setText] = useState('');
  const [role, setRole] = useState(3);
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useJob('users', jobId, userImportJob);
  const rows = parseAccountLines(text, role);
  const finished = job.data && job.data.status !== 'running';
  // Generated passwords come once (the first read of the finished job): keep them for this dialog.
  const [issued, setIssued] = useState<IssuedPassword[]>([]);
  const created = job.data?.result?.created;
  useEffect(() => {
    const fresh = (created ?? [])
      .filter((c) => c.password)
      .map((c) => ({ account: c.username, password: c.password! }));
    if (fresh.length > 0) setIssued((old) => (old.length > 0 ? old : fresh));
  }, [created]);

  const start = async () => {
    if (rows.length === 0) {
      message.warning(domainText('common.selectFirst'));
      return;
    }
    try {
      setJobId((await importUsers(parent.id, rows)).id);
    } catch (err) {
      message.error((err as Error).message);
    }
  };

  return (
    <Modal
      open
      width={720}
      title={t('import.title', { parent: accountLabel(parent) })}
      okText={jobId ? t('close') : t('import.start')}
      cancelText={t('cancel')}
      onOk={() => (jobId ? onClose(true) : void start())}
      onCancel={() => onClose(jobId !== null)}
      okButtonProps={{ disabled: jobId !== null && !finished }}
      destroyOnHidden
    >
      {!jobId && (
        <Form layout="vertical">
          <Alert type="info" showIcon message={t('import.hint')} style={{ marginBottom: 12 }} />
          <Form.Item label={t('field.role')}>
            <Select value={role} onChange={setRole} options={roles} />
          </Form.Item>
          <Form.Item label={t('import.lines', { count: rows.length })}>
            <Input.TextArea
              rows={10}
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="alice,Passw0rd,Alice,13800138000"
            />
          </Form.Item>
        </Form>
      )}
      {jobId && (
        <>
          <Progress percent={percentOf(job.data)} status={job.data?.status === 'failed' ? 'exception' : undefined} />
          {job.data?.status === 'failed' && <Alert type="error" message={job.data.error} />}
          {job.data?.result && (
            <>
              <Alert
                type={job.data.result.failure > 0 ? 'warning' : 'success'}
                message={t('import.summary', { success: job.data.result.success, failure: job.data.result.failure })}
                style={{ margin: '12px 0' }}
              />
              {job.data.result.refused.length > 0 && (
                <Table
                  size="small"
                  rowKey="line"
                  pagination={false}
                  scroll={{ y: 240 }}
                  dataSource={job.data.result.refused}
                  columns={[
                    { title: t('import.line'), dataIndex: 'line', width: 70 },
                    { title: t('field.username'), dataIndex: 'username' },
                    { title: t('import.reason'), dataIndex: 'message' },
                  ]}
                />
              )}
              <PasswordsResult rows={issued} />
            </>
          )}
        </>
      )}
    </Modal>
  );
}
