// The provider selector: Baidu (default), Baidu satellite, AMap, AMap satellite, Google, Google satellite,
// Yandex and Bing. The choice is stored under 'useMapType'.
import { GlobalOutlined } from '@ant-design/icons';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { mapTypeStore, useMapType } from './mapType.ts';
import { MAP_PROVIDERS, MAP_TYPES, type MapType } from './providers.ts';

export function MapTypeSelector() {
  const { t } = useTranslation('map');
  const type = useMapType();
  return (
    <Select<MapType>
      data-testid="map-type"
      size="small"
      value={type}
      style={{ width: 150 }}
      suffixIcon={<GlobalOutlined />}
      aria-label={t('provider.label')}
      onChange={(value) => mapTypeStore.set(value)}
      options={MAP_TYPES.map((value) => ({ value, label: t(MAP_PROVIDERS[value].labelKey) }))}
    />
  );
}
