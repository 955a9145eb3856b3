// System → mapKey: which map providers users are offered and the default for users who have not chosen
// (/api/map/findProviders, /api/map/saveProviders). The operator's own tile server is offered only when
// TILE_URL is set on the server, the PMTiles archive when PMTILES_FILE is.
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Form, Select, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { reloadOfferedProviders } from '../../map/mapType.ts';
import { MAP_PROVIDERS, MAP_TYPES, type MapType } from '../../map/providers.ts';

interface Providers {
  visible: MapType[];
  defaultType: MapType;
  custom: { url: string } | null;
  pmtiles: { url: string } | null;
}

export function MapProvidersCard() {
  const { t } = useTranslation('map');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ visible: MapType[]; defaultType: MapType }>();
  const settings = useQuery({ queryKey: ['mapProviders'], queryFn: () => api<Providers>('/map/findProviders', {}) });
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);
  const visible = Form.useWatch('visible', form) ?? [];
  const save = useMutation({
    mutationFn: (v: { visible: MapType[]; defaultType: MapType }) => api<Providers>('/map/saveProviders', v),
    onSuccess: (s) => {
      form.setFieldsValue(s);
      void reloadOfferedProviders();
      message.success(t('providers.saved'));
    },
    onError: (err: Error) => message.error(err.message),
  });
  const available = MAP_TYPES.filter(
    (type) => (type !== 'custom' || settings.data?.custom) && (type !== 'pmtiles' || settings.data?.pmtiles),
  );
  return (
    <Card title={t('providers.title')} size="small" loading={settings.isLoading} data-testid="map-providers">
      <Form form={form} layout="vertical" onFinish={(v) => save.mutate(v)} style={{ maxWidth: 720 }}>
        <Form.Item name="visible" label={t('providers.visible')} rules={[{ required: true, type: 'array', min: 1 }]}>
          <Checkbox.Group options={available.map((value) => ({ value, label: t(MAP_PROVIDERS[value].labelKey) }))} />
        </Form.Item>
        {!settings.data?.custom && (
          <Typography.Paragraph type="secondary">{t('providers.customHint')}</Typography.Paragraph>
        )}
        <Form.Item name="defaultType" label={t('providers.default')} rules={[{ required: true }]}>
          <Select
            data-testid="map-default-type"
            style={{ maxWidth: 240 }}
            options={(visible.length > 0 ? visible : available).map((value) => ({
              value,
              label: t(MAP_PROVIDERS[value].labelKey),
            }))}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="map-providers-save">
          {t('providers.save')}
        </Button>
      </Form>
    </Card>
  );
}
