// /index/alarms and /index/alarmsAll (main:alarms): the alarm list with a read / unread filter, marking read
// with confirmation, marking unread again, deletion, export, names from the domain catalogue and "locate on the map".
import {
  CheckOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EnvironmentOutlined,
  ReloadOutlined,
  RollbackOutlined,
} from '@ant-design/icons';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@carhere/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  type ButtonProps,
  Popconfirm,
  Segmented,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { DeviceSelect } from '../command/DeviceSelect.tsx';
import { DateSearch } from '../count/DateSearch.tsx';
import { usePeriod } from '../count/usePeriod.ts';
import { AddressCell } from './AddressCell.tsx';
import { type AlarmAccount, AlarmAccountPicker } from './AlarmAccountPicker.tsx';
import { AlarmLocateModal } from './AlarmLocateModal.tsx';
import {
  type Alarm,
  type AlarmFilter,
  alarmFences,
  countAlarmExport,
  deleteAlarms,
  exportAlarms,
  findAlarms,
  markRead,
  markUnread,
  type ReadFilter,
} from './api.ts';
import { useAlarmLabel, useAlarmTypeOptions } from './labels.ts';

/** The date search's first choice: the last 30 days. */
const ALARM_PERIOD = 30;

/** New alarms show up without a reload. */
const REFRESH_MS = 15_000;

export function AlarmsView({ scope }: { scope: 'alarms' | 'alarmsAll' }) {
  const { t } = useTranslation('alarms');
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const label = useAlarmLabel();
  const typeOptions = useAlarmTypeOptions();

  const [read, setRead] = useState<ReadFilter>(scope === 'alarms' ? 'unread' : 'all');
  const [terminalID, setTerminalID] = useState<string | undefined>(params.get('terminalID') ?? undefined);
  const [type, setType] = useState<number | undefined>();
  // The spec's date search (§5, §9), one implementation with the statistics screens (domain dateSearchRange).
  const { period, setPeriod, range, error: periodError, refresh: refreshPeriod } = usePeriod(ALARM_PERIOD);
  const [account, setAccount] = useState<AlarmAccount>({ children: false });
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [selected, setSelected] = useState<string[]>([]);
  const [locating, setLocating] = useState<Alarm | null>(null);

  const filter: AlarmFilter = useMemo(
    () => ({
      read,
      terminalID,
      type,
      startTime: range?.begin,
      endTime: range?.end,
      userId: account.userId,
      children: account.children,
    }),
    [read, terminalID, type, range, account],
  );

  const list = useQuery({
    queryKey: ['alarms', filter, page],
    queryFn: ({ signal }) => findAlarms(filter, page.pageNum, page.pageSize, signal),
    refetchInterval: REFRESH_MS,
    enabled: range !== null,
    placeholderData: (previous) => previous,
  });
  const fenceIds = (list.data?.list ?? []).filter((a) => a.alarmType === 4 || a.alarmType === 5).map((a) => a.id);
  const fences = useQuery({
    queryKey: ['alarmFences', fenceIds],
    queryFn: () => alarmFences(fenceIds),
    enabled: fenceIds.length > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const refresh = () => {
    refreshPeriod();
    void queryClient.invalidateQueries({ queryKey: ['alarms'] });
  };
  const read$ = useMutation({
    mutationFn: markRead,
    onSuccess: (r) => {
      message.success(t('markedRead', { count: r.updated }));
      setSelected([]);
      refresh();
    },
    onError: (err: Error) => message.error(err.message),
  });
  const unread$ = useMutation({
    mutationFn: markUnread,
    onSuccess: (r) => {
      message.success(t('markedUnread', { count: r.updated }));
      refresh();
    },
    onError: (err: Error) => message.error(err.message),
  });
  const delete$ = useMutation({
    mutationFn: deleteAlarms,
    onSuccess: (r) => {
      message.success(t('deleted', { count: r.deleted }));
      setSelected([]);
      refresh();
    },
    onError: (err: Error) => message.error(err.message),
  });

  const confirmBatch = (kind: 'read' | 'delete') => {
    if (selected.length === 0) {
      message.warning(t('selectFirst'));
      return;
    }
    modal.confirm({
      title:
        kind === 'read'
          ? t('confirmReadMany', { count: selected.length })
          : t('confirmDeleteMany', { count: selected.length }),
      okText: t('ok'),
      cancelText: t('cancel'),
      okButtonProps: { danger: kind === 'delete', 'data-testid': 'alarm-batch-confirm' } as ButtonProps,
      onOk: () => (kind === 'read' ? read$.mutateAsync(selected) : delete$.mutateAsync(selected)),
    });
  };

  const download = async () => {
    try {
      await exportAlarms(filter, `${t('fileName')}-${dayjs().format('YYYYMMDD-HHmm')}.xlsx`);
      message.success(t('exported'));
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  // The export count first (spec §7): nothing to export is said at once; above the limit, the user agrees to the
  // newest rows only before the file is made.
  const doExport = async () => {
    let count: { total: number; max: number };
    try {
      count = await countAlarmExport(filter);
    } catch (err) {
      message.error((err as Error).message);
      return;
    }
    if (count.total === 0) {
      message.info(t('exportEmpty'));
      return;
    }
    if (count.total <= count.max) {
      await download();
      return;
    }
    modal.confirm({
      title: t('exportTruncated', { total: count.total, max: count.max }),
      okText: t('ok'),
      cancelText: t('cancel'),
      okButtonProps: { 'data-testid': 'alarm-export-confirm' } as ButtonProps,
      onOk: download,
    });
  };

  const columns: ColumnsType<Alarm> = [
    {
      title: t('column.device'),
      key: 'device',
      render: (_, a) => (
        <div>
          <div>{a.displayName}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {a.terminalID}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: t('column.type'),
      key: 'type',
      render: (_, a) => {
        const names = fences.data?.[a.id];
        return (
          <span data-testid="alarm-name">
            {label(a.alarmType)}
            {names && names.length > 0 && <Typography.Text type="secondary"> · {names.join(', ')}</Typography.Text>}
          </span>
        );
      },
    },
    {
      title: t('column.time'),
      key: 'time',
      width: 170,
      render: (_, a) => <span style={{ whiteSpace: 'nowrap' }}>{dayjs(a.time).format('YYYY-MM-DD HH:mm:ss')}</span>,
    },
    {
      title: t('column.speed'),
      key: 'speed',
      width: 110,
      render: (_, a) => (a.speed === null ? '-' : t('speedValue', { speed: Math.round(a.speed) })),
    },
    { title: t('column.address'), key: 'address', render: (_, a) => <AddressCell alarm={a} /> },
    {
      title: t('column.state'),
      key: 'read',
      width: 90,
      render: (_, a) =>
        a.read ? (
          <Tag>{t('state.read')}</Tag>
        ) : (
          <Tag color="red" data-testid="alarm-unread">
            {t('state.unread')}
          </Tag>
        ),
    },
    {
      title: t('column.actions'),
      key: 'actions',
      width: 230,
      fixed: 'right',
      // Long labels (ru, fr, km) wrap inside the column instead of running past the table's edge.
      render: (_, a) => (
        <Space size={0} wrap>
          <Button
            type="link"
            size="small"
            icon={<EnvironmentOutlined />}
            disabled={a.lat === null}
            onClick={() => setLocating(a)}
            data-testid="alarm-locate-button"
          >
            {t('locate')}
          </Button>
          {a.read && (
            <Button
              type="link"
              size="small"
              icon={<RollbackOutlined />}
              loading={unread$.isPending && unread$.variables === a.id}
              onClick={() => unread$.mutate(a.id)}
              data-testid="alarm-unread-button"
            >
              {t('markUnread')}
            </Button>
          )}
          {!a.read && (
            <Popconfirm
              title={t('confirmRead')}
              okText={t('ok')}
              cancelText={t('cancel')}
              okButtonProps={{ 'data-testid': 'alarm-read-confirm' } as ButtonProps}
              onConfirm={() => read$.mutateAsync([a.id])}
            >
              <Button type="link" size="small" icon={<CheckOutlined />} data-testid="alarm-read-button">
                {t('markRead')}
              </Button>
            </Popconfirm>
          )}
          <Popconfirm
            title={t('confirmDelete')}
            okText={t('ok')}
            cancelText={t('cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => delete$.mutateAsync([a.id])}
          >
            <Button type="link" size="small" danger icon={<DeleteOutlined />}>
              {t('delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div style={{ padding: 16 }} data-testid={`alarms-page-${scope}`}>
      <Tabs
        activeKey={scope}
        onChange={(key) => navigate(`/index/${key}`)}
        items={[
          { key: 'alarms', label: t('tab.alarms') },
          { key: 'alarmsAll', label: t('tab.alarmsAll') },
        ]}
      />
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented<ReadFilter>
          value={read}
          onChange={(v) => {
            setRead(v);
            setPage((p) => ({ ...p, pageNum: 1 }));
          }}
          options={[
            { value: 'all', label: t('filter.all') },
            { value: 'unread', label: t('filter.unread') },
            { value: 'read', label: t('filter.read') },
          ]}
          data-testid="alarm-read-filter"
        />
        <DeviceSelect
          value={terminalID}
          onChange={(v) => {
            setTerminalID(v);
            setPage((p) => ({ ...p, pageNum: 1 }));
          }}
          placeholder={t('filter.device')}
        />
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ width: 220 }}
          placeholder={t('filter.type')}
          value={type}
          onChange={(v) => setType(v)}
          options={typeOptions}
        />
        <DateSearch
          value={period}
          onChange={(v) => {
            setPeriod(v);
            setPage((p) => ({ ...p, pageNum: 1 }));
          }}
          error={periodError}
        />
        <AlarmAccountPicker
          value={account}
          onChange={(v) => {
            setAccount(v);
            setPage((p) => ({ ...p, pageNum: 1 }));
          }}
        />
        <Button icon={<ReloadOutlined />} onClick={refresh}>
          {t('refresh')}
        </Button>
        <Button icon={<CheckOutlined />} onClick={() => confirmBatch('read')} data-testid="alarm-batch-read">
          {t('markSelectedRead')}
        </Button>
        <Button danger icon={<DeleteOutlined />} onClick={() => confirmBatch('delete')}>
          {t('deleteSelected')}
        </Button>
        <Button icon={<DownloadOutlined />} onClick={() => void doExport()} data-testid="alarm-export">
          {t('export')}
        </Button>
      </Space>
      <Table<Alarm>
        rowKey="id"
        size="middle"
        loading={list.isLoading}
        columns={columns}
        scroll={{ x: 1150 }}
        dataSource={list.data?.list ?? []}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
        locale={{ emptyText: t('empty') }}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
          showTotal: (total) => t('total', { total }),
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
        data-testid="alarm-table"
      />
      <AlarmLocateModal alarm={locating} onClose={() => setLocating(null)} />
    </div>
  );
}

export default function AlarmsPage() {
  return <AlarmsView scope="alarms" />;
}
