// The maintenance notice: title, content, optional start and the end time until which it is shown.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, DatePicker, Form, Input, Popconfirm, Space, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteNotice, findNotice, saveNotice } from './api.ts';

interface NoticeForm {
  title: string;
  content: string;
  startsAt: Dayjs | null;
  endsAt: Dayjs | null;
  showOnStart: boolean;
}

export function NoticeEditor() {
  const { t } = useTranslation('system');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<NoticeForm>();
  const notice = useQuery({ queryKey: ['noticeSetting'], queryFn: findNotice });
  useEffect(() => {
    const n = notice.data;
    form.setFieldsValue(
      n
        ? {
            title: n.title,
            content: n.content,
            startsAt: n.startsAt ? dayjs(n.startsAt) : null,
            endsAt: dayjs(n.endsAt),
            showOnStart: n.showOnStart,
          }
        : { title: '', content: '', startsAt: null, endsAt: null, showOnStart: false },
    );
  }, [notice.data, form]);
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: ['noticeSetting'] });
    void queryClient.invalidateQueries({ queryKey: ['maintenanceNotice'] });
  };
  const save = useMutation({
    mutationFn: (v: NoticeForm) =>
      saveNotice({
        title: v.title.trim(),
        content: v.content.trim(),
        startsAt: v.startsAt ? v.startsAt.toISOString() : null,
        endsAt: (v.endsAt as Dayjs).toISOString(),
        showOnStart: v.showOnStart === true,
      }),
    onSuccess: () => {
      message.success(t('saved'));
      changed();
    },
    onError: (err: Error) => message.error(err.message),
  });
  const remove = useMutation({
    mutationFn: deleteNotice,
    onSuccess: () => {
      message.success(t('deleted'));
      changed();
    },
    onError: (err: Error) => message.error(err.message),
  });
  const state = notice.data ? (notice.data.active ? 'shown' : 'hidden') : 'none';
  return (
    <Card
      title={t('notice.title')}
      size="small"
      loading={notice.isLoading}
      extra={<Tag color={state === 'shown' ? 'green' : 'default'}>{t(`notice.state.${state}`)}</Tag>}
    >
      <Typography.Paragraph type="secondary">{t('notice.intro')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => save.mutate(v)} style={{ maxWidth: 720 }}>
        <Form.Item
          name="title"
          label={t('notice.heading')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item
          name="content"
          label={t('notice.content')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        >
          <Input.TextArea rows={4} maxLength={4000} showCount />
        </Form.Item>
        <Space wrap style={{ display: 'flex' }}>
          <Form.Item name="startsAt" label={t('notice.startsAt')}>
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
          </Form.Item>
          <Form.Item
            name="endsAt"
            label={t('notice.endsAt')}
            rules={[
              { required: true, message: t('required') },
              {
                validator: (_, v: Dayjs | null) =>
                  v?.isBefore(dayjs()) ? Promise.reject(new Error(t('notice.endInPast'))) : Promise.resolve(),
              },
            ]}
          >
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
          </Form.Item>
        </Space>
        <Form.Item name="showOnStart" valuePropName="checked">
          <Checkbox data-testid="notice-show-on-start">{t('notice.showOnStart')}</Checkbox>
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('save')}
          </Button>
          {notice.data && (
            <Popconfirm
              title={t('confirmDelete')}
              okText={t('ok')}
              cancelText={t('cancel')}
              onConfirm={() => remove.mutateAsync()}
            >
              <Button danger>{t('delete')}</Button>
            </Popconfirm>
          )}
        </Space>
      </Form>
    </Card>
  );
}
