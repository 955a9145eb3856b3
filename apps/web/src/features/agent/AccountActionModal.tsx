// The small account actions: change username, change role, move under another agent, import quota.
import { canMoveUnder, isAgent } from '@carhere/domain';
import { useQuery } from '@tanstack/react-query';
import { App, type ButtonProps, Descriptions, Form, Input, InputNumber, Modal, Radio, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AccountRow,
  changeRole,
  giveQuota,
  moveUser,
  quotaSummary,
  renameUser,
  setQuota,
  usernameExists,
} from './api.ts';
import { domainText, requiredChoice, requiredRule } from './formRules.ts';
import { useAssignableRoles } from './roles.ts';
import { accountLabel } from './tree.ts';

export type AccountActionKind = 'username' | 'role' | 'move' | 'quota';

interface Props {
  kind: AccountActionKind;
  account: AccountRow;
  /** Agents of the caller's subtree (move targets and quota sources). */
  agents: AccountRow[];
  myId: string;
  onClose: (changed: boolean) => void;
}

export function AccountActionModal({ kind, account, agents, myId, onClose }: Props) {
  const { t } = useTranslation('agent');
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const roles = useAssignableRoles();
  const [direction, setDirection] = useState<'give' | 'take' | 'set'>('give');
  const mine = useQuery({ queryKey: ['quota', myId], queryFn: () => quotaSummary(myId), enabled: kind === 'quota' });
  const theirs = useQuery({
    queryKey: ['quota', account.id],
    queryFn: () => quotaSummary(account.id),
    enabled: kind === 'quota',
  });

  const targets = agents
    .filter((a) => canMoveUnder({ id: Number(account.id) }, { id: Number(a.id), ancestors: a.ancestors }).ok)
    .filter((a) => a.id !== account.user_id)
    .map((a) => ({ value: a.id, label: accountLabel(a) }));

  const submit = async () => {
    const v = await form.validateFields();
    try {
      if (kind === 'username') await renameUser(account.id, String(v.username).trim());
      if (kind === 'role') await changeRole(account.id, v.role);
      if (kind === 'move') await moveUser(account.id, v.parentId);
      if (kind === 'quota' && direction === 'set') await setQuota(account.id, v.amount);
      else if (kind === 'quota') await giveQuota(account.id, direction === 'give' ? v.amount : -v.amount);
      message.success(domainText(kind === 'move' ? 'action.transfer.success' : 'action.save.success'));
      onClose(true);
    } catch (err) {
      message.error((err as Error).message);
    }
  };

  return (
    <Modal
      open
      title={t(`action.${kind}`)}
      onOk={() => void submit()}
      onCancel={() => onClose(false)}
      okText={t('ok')}
      cancelText={t('cancel')}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'account-action-ok' } as ButtonProps}
    >
      <Descriptions size="small" column={1} style={{ marginBottom: 12 }}>
        <Descriptions.Item label={t('field.username')}>{accountLabel(account)}</Descriptions.Item>
      </Descriptions>
      <Form form={form} layout="vertical" initialValues={{ role: account.role, username: account.username, amount: 1 }}>
        {kind === 'username' && (
          <Form.Item
            name="username"
            label={t('field.newUsername')}
            validateDebounce={400}
            rules={[
              requiredRule(t('field.newUsername')),
              {
                validator: async (_r, value: string) => {
                  const name = value?.trim();
                  if (!name || name.toLowerCase() === account.username.toLowerCase()) return;
                  if (await usernameExists(name)) throw new Error(domainText('account.usernameTaken'));
                },
              },
            ]}
          >
            <Input data-testid="account-new-username" />
          </Form.Item>
        )}
        {kind === 'role' && (
          <Form.Item name="role" label={t('field.role')} rules={[requiredChoice(t('field.role'))]}>
            <Select options={roles} />
          </Form.Item>
        )}
        {kind === 'move' && (
          <Form.Item name="parentId" label={t('field.newParent')} rules={[requiredChoice(t('field.newParent'))]}>
            <Select showSearch optionFilterProp="label" options={targets} data-testid="account-new-parent" />
          </Form.Item>
        )}
        {kind === 'quota' && (
          <>
            <Descriptions size="small" column={2} bordered style={{ marginBottom: 12 }}>
              <Descriptions.Item label={t('quota.mine')}>
                {mine.data?.unlimited ? t('quota.unlimited') : (mine.data?.remaining ?? '…')}
              </Descriptions.Item>
              <Descriptions.Item label={t('quota.theirs')}>{theirs.data?.remaining ?? '…'}</Descriptions.Item>
            </Descriptions>
            <Radio.Group
              value={direction}
              onChange={(e) => setDirection(e.target.value)}
              style={{ marginBottom: 12 }}
              options={[
                { value: 'give', label: t('quota.give') },
                { value: 'take', label: t('quota.take') },
                // The administrator may also set the remainder outright.
                ...(mine.data?.unlimited ? [{ value: 'set', label: t('quota.set') }] : []),
              ]}
            />
            <Form.Item name="amount" label={t('quota.amount')} rules={[requiredChoice(t('quota.amount'))]}>
              <InputNumber
                min={direction === 'set' ? 0 : 1}
                max={1_000_000}
                precision={0}
                style={{ width: '100%' }}
                data-testid="quota-amount"
              />
            </Form.Item>
            {!isAgent(account.role) && <div style={{ color: '#cf1322' }}>{t('quota.agentsOnly')}</div>}
          </>
        )}
      </Form>
    </Modal>
  );
}
