// System → the administrator's switch: require two-factor sign-in for administrators and agents.
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Card, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { findLoginSecurity, saveLoginSecurity } from './api.ts';
import { refreshSession } from './TotpCard.tsx';

export function LoginSecurityCard() {
  const { t } = useTranslation('security');
  const { message } = App.useApp();
  const setting = useQuery({ queryKey: ['loginSecurity'], queryFn: findLoginSecurity });
  const save = useMutation({
    mutationFn: saveLoginSecurity,
    onSuccess: async () => {
      message.success(t('admin.saved'));
      await setting.refetch();
      // The administrator is concerned too: without two-factor sign-in the next screen is the enrolment.
      await refreshSession();
    },
    onError: (err: Error) => message.error(err.message),
  });
  return (
    <Card title={t('admin.title')} size="small" loading={setting.isLoading}>
      <Space direction="vertical">
        <Space>
          <Switch
            checked={setting.data?.requireTotpForStaff === true}
            loading={save.isPending}
            onChange={(v) => save.mutate({ requireTotpForStaff: v })}
            data-testid="require-totp-staff"
          />
          <Typography.Text>{t('admin.requireStaff')}</Typography.Text>
        </Space>
        <Typography.Text type="secondary">{t('admin.requireStaffHint')}</Typography.Text>
      </Space>
    </Card>
  );
}
