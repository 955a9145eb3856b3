// /index/specialBrand (administrator): which agent accounts are special-brand (spec §6). Agents of such an
// account (itself and below) do not see not-activated devices nor devices offline for 3 days or more, unless
// they keep them with the no-process set built from search. Below: the brands of the login pages (issue 16).
import { Alert, App, Button, List, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { findSpecialBrand, type SpecialAccount, saveSpecialBrand } from './api.ts';
import { BrandsSection } from './BrandsSection.tsx';

interface Found {
  id: string;
  username: string;
  nickname: string;
  role: number;
}

export default function SpecialBrandPage() {
  const { t } = useTranslation('custself');
  const { message } = App.useApp();
  const [accounts, setAccounts] = useState<SpecialAccount[]>([]);
  const [options, setOptions] = useState<Found[]>([]);

  useEffect(() => {
    findSpecialBrand().then(setAccounts, (err: Error) => message.error(err.message));
  }, [message]);

  const search = async (text: string) => {
    if (text.trim() === '') return setOptions([]);
    try {
      const rows = await api<Found[]>('/user/findLike', { selectName: text.trim() });
      // Agents (2) and super agents (13) only: the rule is about agents.
      setOptions(rows.filter((r) => r.role === 2 || r.role === 13));
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  const save = async (next: SpecialAccount[]) => {
    try {
      setAccounts(await saveSpecialBrand(next.map((a) => a.id)));
      message.success(t('special.saved'));
    } catch (err) {
      message.error((err as Error).message);
    }
  };

  return (
    <div style={{ padding: 16, maxWidth: 720 }} data-testid="special-brand-page">
      <Typography.Title level={4}>{t('special.title')}</Typography.Title>
      <Alert type="info" showIcon message={t('special.rule')} style={{ marginBottom: 12 }} />
      <Space style={{ marginBottom: 12 }}>
        <Select
          showSearch
          filterOption={false}
          style={{ width: 320 }}
          placeholder={t('special.searchAgent')}
          onSearch={(v) => void search(v)}
          data-testid="special-search"
          value={null}
          options={options.map((o) => ({ value: o.id, label: `${o.username} ${o.nickname}` }))}
          onSelect={(id: string | null) => {
            const found = options.find((o) => o.id === id);
            if (found && !accounts.some((a) => a.id === id)) void save([...accounts, found]);
          }}
        />
      </Space>
      <List
        bordered
        dataSource={accounts}
        locale={{ emptyText: t('special.none') }}
        renderItem={(a) => (
          <List.Item
            data-testid={`special-${a.username}`}
            actions={[
              <Button key="remove" type="link" danger onClick={() => void save(accounts.filter((x) => x.id !== a.id))}>
                {t('special.remove')}
              </Button>,
            ]}
          >
            {a.username} {a.nickname && `(${a.nickname})`}
          </List.Item>
        )}
      />
      <BrandsSection />
    </div>
  );
}
