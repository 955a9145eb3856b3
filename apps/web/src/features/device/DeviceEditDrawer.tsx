// Edit one device (spec §3): name, SIM (11 or 13 letters or digits), ICCID, plate (Chinese pattern; a plate used
// by another device asks for a new one), icon type 1-12 with its image, time zone, picture.
import { UploadOutlined } from '@ant-design/icons';
import { carNumber, simNumber, TIME_ZONE_OPTIONS } from '@carhere/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Form, Image, Input, InputNumber, Select, Space, Upload } from 'antd';
import i18n from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { domainRule, domainText } from '../agent/formRules.ts';
import { type DevicePatch, findDevice, findSpeedLimit, updateDevice, updateSpeedLimit } from './api.ts';
import { iconTypeOptions } from './IconTypeImage.tsx';

/** Largest picture accepted before encoding (the server takes up to about 1.5 MB). */
const PICTURE_MAX_BYTES = 1_400_000;

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export function DeviceEditDrawer({ id, onClose }: { id: string; onClose: (changed: boolean) => void }) {
  const { t } = useTranslation('device');
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<DevicePatch>();
  const [picture, setPicture] = useState<string | null | undefined>(undefined);
  const queryClient = useQueryClient();
  const device = useQuery({ queryKey: ['device', id], queryFn: () => findDevice(id) });
  const limit = useQuery({ queryKey: ['device', id, 'speedLimit'], queryFn: () => findSpeedLimit(id) });
  const shownPicture = picture === undefined ? device.data?.picture : picture;

  const save = async () => {
    const v = (await form.validateFields()) as DevicePatch & { speedLimit?: number | null };
    try {
      if (limit.data && typeof v.speedLimit === 'number' && v.speedLimit !== limit.data.speedLimit) {
        // The drawer opens again with the saved limit (its form starts from the cached answer).
        queryClient.setQueryData(['device', id, 'speedLimit'], await updateSpeedLimit(id, v.speedLimit));
      }
      await updateDevice(id, {
        nickname: v.nickname ?? '',
        sim: v.sim ?? '',
        iccid: v.iccid ?? '',
        carNumber: (v.carNumber ?? '').toUpperCase(),
        iconType: v.iconType,
        timeZone: v.timeZone,
        ...(picture !== undefined ? { picture } : {}),
      });
      await queryClient.invalidateQueries({ queryKey: ['device', id], exact: true });
      message.success(domainText('action.save.success'));
      onClose(true);
    } catch (err) {
      const text = (err as Error).message;
      if (text === domainText('device.plateConflict')) {
        // The plate belongs to another device: ask for a new one (spec §5).
        modal.warning({ title: text, onOk: () => form.getFieldInstance('carNumber')?.focus?.() });
        form.setFields([{ name: 'carNumber', errors: [text] }]);
      } else message.error(text);
    }
  };

  return (
    <Drawer
      open
      width={480}
      title={t('edit.title', { name: device.data?.displayName ?? '' })}
      onClose={() => onClose(false)}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={() => onClose(false)}>{t('cancel')}</Button>
          <Button type="primary" onClick={() => void save()} disabled={!device.data} data-testid="device-edit-save">
            {t('save')}
          </Button>
        </Space>
      }
    >
      {device.data && limit.isFetched && (
        <Form
          form={form}
          layout="vertical"
          initialValues={{
            nickname: device.data.nickname,
            sim: device.data.telephone,
            iccid: device.data.iccid,
            carNumber: device.data.carNumber,
            iconType: device.data.device.iconType,
            timeZone: device.data.timeZone,
            speedLimit: limit.data?.speedLimit,
          }}
        >
          <Form.Item label={t('column.imei')}>
            <Input value={device.data.terminalID} disabled />
          </Form.Item>
          <Form.Item name="nickname" label={t('field.nickname')} rules={[{ max: 50 }]}>
            <Input data-testid="device-nickname" />
          </Form.Item>
          <Form.Item name="sim" label={t('field.sim')} rules={[domainRule(simNumber)]}>
            <Input data-testid="device-sim" />
          </Form.Item>
          <Form.Item
            name="iccid"
            label={t('field.iccid')}
            rules={[{ pattern: /^[A-Za-z0-9]{18,22}$/, message: t('edit.iccidHint') }]}
          >
            <Input />
          </Form.Item>
          <Form.Item
            name="carNumber"
            label={t('field.carNumber')}
            rules={[domainRule((v) => carNumber(String(v).toUpperCase()))]}
          >
            <Input data-testid="device-plate" />
          </Form.Item>
          <Form.Item name="iconType" label={t('field.iconType')}>
            <Select options={iconTypeOptions()} />
          </Form.Item>
          <Form.Item name="timeZone" label={t('field.timeZone')}>
            <Select
              options={TIME_ZONE_OPTIONS.map((z) => ({
                value: z.offsetHours,
                label: i18n.language === 'cn' ? z.cn : z.en,
              }))}
            />
          </Form.Item>
          {limit.data && (
            <Form.Item
              name="speedLimit"
              label={t('field.speedLimit')}
              extra={t('edit.speedLimitHint', {
                seconds: limit.data.overspeedSeconds,
                default: limit.data.defaultSpeedLimit,
              })}
              rules={[{ required: true, type: 'number', min: limit.data.min, max: limit.data.max }]}
            >
              <InputNumber min={limit.data.min} max={limit.data.max} step={5} data-testid="device-speed-limit" />
            </Form.Item>
          )}
          <Form.Item label={t('field.picture')}>
            <Space direction="vertical">
              {shownPicture && <Image src={shownPicture} width={200} />}
              <Space>
                <Upload
                  accept="image/png,image/jpeg,image/webp,image/gif"
                  showUploadList={false}
                  beforeUpload={async (file) => {
                    if (file.size > PICTURE_MAX_BYTES) message.error(t('edit.pictureTooLarge'));
                    else setPicture(await readAsDataUrl(file));
                    return false;
                  }}
                >
                  <Button icon={<UploadOutlined />}>{t('edit.uploadPicture')}</Button>
                </Upload>
                {shownPicture && (
                  <Button danger onClick={() => setPicture(null)}>
                    {t('edit.removePicture')}
                  </Button>
                )}
              </Space>
            </Space>
          </Form.Item>
        </Form>
      )}
    </Drawer>
  );
}
