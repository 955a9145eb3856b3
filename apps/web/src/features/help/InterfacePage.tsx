// Help → interface: the OpenAPI document, browsable at /api/docs.
import { ApiOutlined } from '@ant-design/icons';
import { Button, Result, Space } from 'antd';
import { useTranslation } from 'react-i18next';

export default function InterfacePage() {
  const { t } = useTranslation();
  return (
    <Result
      icon={<ApiOutlined />}
      title={t('help.interfaceTitle')}
      subTitle={t('help.interfaceText')}
      extra={
        <Space>
          <Button type="primary" href="/api/docs" target="_blank">
            {t('help.openDocs')}
          </Button>
          <Button href="/api/openapi.json" target="_blank">
            {t('help.openJson')}
          </Button>
        </Space>
      }
    />
  );
}
