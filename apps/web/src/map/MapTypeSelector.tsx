// The provider selector: Baidu (default), Baidu satellite, AMap, AMap satellite, Google, Google satellite,
// Yandex, Bing, OpenStreetMap and the operator's own tiles — those the administrator offers. The choice is
// stored under 'useMapType'.
import { GlobalOutlined } from '@ant-design/icons';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { mapTypeStore, useMapType, useOfferedProviders } from './mapType.ts';
import { MAP_PROVIDERS, type MapType } from './providers.ts';

export function MapTypeSelector() {
  const { t } = useTranslation('map');
  const type = useMapType();
  const { visible } = useOfferedProviders();
  return (
    <Select<MapType>
      data-testid="map-type"
      size="small"
      value={type}
      style={{ width: 150 }}
      suffixIcon={<GlobalOutlined />}
      aria-label={t('provider.label')}
      onChange={(value) => mapTypeStore.set(value)}
      options={visible.map((value) => ({ value, label: t(MAP_PROVIDERS[value].labelKey) }))}
    />
  );
}
