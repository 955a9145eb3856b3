// The devices linked to a fence, with the side each was last seen on; link more or remove some.
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@carhere/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Modal, Popconfirm, Space, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceSelect } from '../command/DeviceSelect.tsx';
import { assignDevices, type Fence, type FenceDevice, findFenceDevices, unassignDevices } from './api.ts';

export function FenceDevicesModal({ fence, onClose }: { fence: Fence | null; onClose: () => void }) {
  const { t } = useTranslation('fence');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [adding, setAdding] = useState<string[]>([]);
  const id = fence?.id ?? '';

  const devices = useQuery({
    queryKey: ['fenceDevices', id, page],
    queryFn: ({ signal }) => findFenceDevices(id, page.pageNum, page.pageSize, signal),
    enabled: fence !== null,
  });
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: ['fenceDevices', id] });
    void queryClient.invalidateQueries({ queryKey: ['fences'] });
  };
  const assign = useMutation({
    mutationFn: () => assignDevices(id, adding),
    onSuccess: (r) => {
      message.success(t('devices.assigned', { count: r.assigned }));
      setAdding([]);
      changed();
    },
    onError: (err: Error) => message.error(err.message),
  });
  const remove = useMutation({
    mutationFn: (terminalID: string) => unassignDevices(id, [terminalID]),
    onSuccess: () => {
      message.success(t('devices.removed'));
      changed();
    },
    onError: (err: Error) => message.error(err.message),
  });

  return (
    <Modal
      open={fence !== null}
      onCancel={onClose}
      footer={null}
      width={720}
      title={fence ? t('devices.title', { name: fence.name }) : ''}
      destroyOnHidden
    >
      <Space style={{ marginBottom: 12 }} wrap>
        <DeviceSelect
          multiple
          value={adding}
          onChange={setAdding}
          testId="fence-assign-select"
          feature="fence"
          style={{ width: 420 }}
        />
        <Button
          type="primary"
          disabled={adding.length === 0}
          loading={assign.isPending}
          onClick={() => assign.mutate()}
          data-testid="fence-assign-submit"
        >
          {t('devices.assign')}
        </Button>
      </Space>
      <Table<FenceDevice>
        rowKey="deviceId"
        size="small"
        loading={devices.isLoading}
        dataSource={devices.data?.list ?? []}
        locale={{ emptyText: t('devices.empty') }}
        data-testid="fence-device-table"
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: devices.data?.total ?? 0,
          pageSizeOptions: [...PAGE_SIZE_OPTIONS],
          showSizeChanger: true,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
        columns={[
          { title: t('devices.name'), dataIndex: 'displayName' },
          { title: t('devices.imei'), dataIndex: 'terminalID' },
          {
            title: t('devices.side'),
            key: 'inside',
            render: (_, d) =>
              d.inside === null ? (
                <Tag>{t('devices.unknown')}</Tag>
              ) : d.inside ? (
                <Tag color="blue">{t('devices.inside')}</Tag>
              ) : (
                <Tag color="orange">{t('devices.outside')}</Tag>
              ),
          },
          {
            title: t('devices.since'),
            key: 'changedAt',
            render: (_, d) => (d.changedAt ? dayjs(d.changedAt).format('YYYY-MM-DD HH:mm:ss') : '-'),
          },
          {
            title: t('column.actions'),
            key: 'actions',
            render: (_, d) => (
              <Popconfirm
                title={t('devices.confirmRemove')}
                okText={t('ok')}
                cancelText={t('cancel')}
                onConfirm={() => remove.mutateAsync(d.terminalID)}
              >
                <Button type="link" size="small" danger>
                  {t('devices.remove')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Modal>
  );
}
