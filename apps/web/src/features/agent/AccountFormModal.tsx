// Create or edit an account (spec §3 fields). The username is checked for uniqueness while typing, with the
// spec's message; passwords must match; telephone and e-mail use the domain's validators.
import { email as emailRule, telephone as telephoneRule } from '@carhere/domain';
import { App, type ButtonProps, DatePicker, Form, Input, Modal, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { type AccountRow, insertUser, updateUser, usernameExists } from './api.ts';
import { domainRule, domainText, requiredChoice, requiredRule } from './formRules.ts';
import { useAssignableRoles } from './roles.ts';

interface Values {
  username: string;
  password: string;
  confirmPassword: string;
  role: number;
  nickname?: string;
  telephone?: string;
  email?: string;
  address?: string;
  mark?: string;
  providerName?: string;
  providerLinkman?: string;
  providerTelephone?: string;
  expireAt?: Dayjs | null;
}

export interface AccountFormModalProps {
  /** Create under this account, or edit `account`. */
  mode: { kind: 'create'; parent: AccountRow } | { kind: 'edit'; account: AccountRow };
  /** Whether the caller may set the expiry (not on its own account). */
  canSetExpiry: boolean;
  onClose: (changed: boolean) => void;
}

export function AccountFormModal({ mode, canSetExpiry, onClose }: AccountFormModalProps) {
  const { t } = useTranslation('agent');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const roles = useAssignableRoles();
  const creating = mode.kind === 'create';
  const initial = mode.kind === 'edit' ? mode.account : undefined;

  const submit = async () => {
    const v = await form.validateFields();
    const fields = {
      nickname: v.nickname ?? '',
      telephone: v.telephone ?? '',
      email: v.email ?? '',
      address: v.address ?? '',
      mark: v.mark ?? '',
      providerName: v.providerName ?? '',
      providerLinkman: v.providerLinkman ?? '',
      providerTelephone: v.providerTelephone ?? '',
      ...(canSetExpiry ? { expireAt: v.expireAt ? v.expireAt.toISOString() : null } : {}),
    };
    try {
      if (mode.kind === 'create') {
        await insertUser({
          ...fields,
          username: v.username.trim(),
          password: v.password,
          confirmPassword: v.confirmPassword,
          role: v.role,
          parentId: mode.parent.id,
        });
      } else {
        await updateUser(mode.account.id, fields);
      }
      message.success(domainText('action.save.success'));
      onClose(true);
    } catch (err) {
      message.error((err as Error).message);
    }
  };

  return (
    <Modal
      open
      title={
        creating
          ? t('form.createTitle', { parent: mode.parent.username })
          : t('form.editTitle', { name: initial?.username })
      }
      onOk={() => void submit()}
      onCancel={() => onClose(false)}
      okText={t('ok')}
      cancelText={t('cancel')}
      destroyOnHidden
      width={640}
      okButtonProps={{ 'data-testid': 'account-form-ok' } as ButtonProps}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          role: 3,
          ...initial,
          expireAt: initial?.expireAt ? dayjs(initial.expireAt) : null,
        }}
      >
        {creating && (
          <>
            <Form.Item
              name="username"
              label={t('field.username')}
              validateDebounce={400}
              rules={[
                requiredRule(t('field.username')),
                {
                  validator: async (_r, value: string) => {
                    if (!value?.trim()) return;
                    if (await usernameExists(value.trim())) throw new Error(domainText('account.usernameTaken'));
                  },
                },
              ]}
            >
              <Input autoComplete="off" data-testid="account-username" />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('field.password')}
              rules={[requiredRule(t('field.password')), { min: 6, message: t('passwordMin', { min: 6 }) }]}
            >
              <Input.Password autoComplete="new-password" data-testid="account-password" />
            </Form.Item>
            <Form.Item
              name="confirmPassword"
              label={t('field.confirmPassword')}
              dependencies={['password']}
              rules={[
                requiredRule(t('field.confirmPassword')),
                ({ getFieldValue }) => ({
                  validator: async (_r, value: string) => {
                    if (value && value !== getFieldValue('password'))
                      throw new Error(domainText('validation.confirmed'));
                  },
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" data-testid="account-confirm-password" />
            </Form.Item>
            <Form.Item name="role" label={t('field.role')} rules={[requiredChoice(t('field.role'))]}>
              <Select options={roles} data-testid="account-role" />
            </Form.Item>
          </>
        )}
        <Form.Item name="nickname" label={t('field.nickname')} rules={[{ max: 50 }]}>
          <Input data-testid="account-nickname" />
        </Form.Item>
        <Form.Item name="telephone" label={t('field.telephone')} rules={[domainRule(telephoneRule)]}>
          <Input />
        </Form.Item>
        <Form.Item name="email" label={t('field.email')} rules={[domainRule(emailRule)]}>
          <Input />
        </Form.Item>
        <Form.Item name="address" label={t('field.address')} rules={[{ max: 200 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="providerName" label={t('field.providerName')} rules={[{ max: 100 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="providerLinkman" label={t('field.providerLinkman')} rules={[{ max: 50 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="providerTelephone" label={t('field.providerTelephone')} rules={[domainRule(telephoneRule)]}>
          <Input />
        </Form.Item>
        {canSetExpiry && (
          <Form.Item name="expireAt" label={t('field.expireAt')}>
            <DatePicker showTime style={{ width: '100%' }} />
          </Form.Item>
        )}
        <Form.Item name="mark" label={t('field.mark')} rules={[{ max: 500 }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
