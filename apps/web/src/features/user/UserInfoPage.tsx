// /index/device/userInfo: the signed-in account's profile (nickname, telephone, e-mail, address, remarks).
import { email as emailRule, telephone as telephoneRule } from '@carhere/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Form, Input } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { authStore, useAuth } from '../../auth/store.ts';
import { updateUser } from '../agent/api.ts';
import { domainRule, domainText } from '../agent/formRules.ts';
import { useRoleLabel } from '../agent/roles.ts';
import { SubNav } from '../agent/SubNav.tsx';
import { DEVICE_PAGES } from '../device/pages.ts';
import { TotpCard } from '../security/TotpCard.tsx';
import { findMe } from './api.ts';

interface Values {
  nickname: string;
  telephone: string;
  email: string;
  address: string;
  mark: string;
}

export default function UserInfoPage() {
  const { t } = useTranslation('user');
  const { message } = App.useApp();
  const auth = useAuth();
  const queryClient = useQueryClient();
  const roleLabel = useRoleLabel();
  const id = auth?.userInfo.id ?? '';
  const me = useQuery({ queryKey: ['me', id], queryFn: () => findMe(id), enabled: id !== '' });
  const [form] = Form.useForm<Values>();

  const save = async () => {
    const v = await form.validateFields();
    try {
      await updateUser(id, v);
      message.success(domainText('action.save.success'));
      const fresh = await findMe(id);
      if (auth) authStore.set({ ...auth, userInfo: fresh });
      void queryClient.invalidateQueries({ queryKey: ['me', id] });
    } catch (err) {
      message.error((err as Error).message);
    }
  };

  return (
    <div style={{ padding: 16 }}>
      <SubNav items={DEVICE_PAGES} />
      <Card size="small" title={t('info.title')} style={{ maxWidth: 720 }}>
        {me.data && (
          <>
            <Descriptions size="small" column={2} style={{ marginBottom: 16 }}>
              <Descriptions.Item label={t('info.username')}>{me.data.username}</Descriptions.Item>
              <Descriptions.Item label={t('info.role')}>{roleLabel(me.data.role)}</Descriptions.Item>
              <Descriptions.Item label={t('info.expireAt')}>
                {me.data.expireAt ? dayjs(me.data.expireAt).format('YYYY-MM-DD HH:mm') : t('info.never')}
              </Descriptions.Item>
            </Descriptions>
            <Form form={form} layout="vertical" initialValues={me.data}>
              <Form.Item name="nickname" label={t('info.nickname')} rules={[{ max: 50 }]}>
                <Input data-testid="me-nickname" />
              </Form.Item>
              <Form.Item name="telephone" label={t('info.telephone')} rules={[domainRule(telephoneRule)]}>
                <Input />
              </Form.Item>
              <Form.Item name="email" label={t('info.email')} rules={[domainRule(emailRule)]}>
                <Input />
              </Form.Item>
              <Form.Item name="address" label={t('info.address')} rules={[{ max: 200 }]}>
                <Input />
              </Form.Item>
              <Form.Item name="mark" label={t('info.mark')} rules={[{ max: 500 }]}>
                <Input.TextArea rows={2} />
              </Form.Item>
              <Button type="primary" onClick={() => void save()} data-testid="me-save">
                {t('save')}
              </Button>
            </Form>
          </>
        )}
      </Card>
      <TotpCard />
    </div>
  );
}
