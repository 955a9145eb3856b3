// /index/device/multipleCmdSearch: the caller's batch commands (tasks made by device/multipleCmd) — their
// per-device results searched by batch, IMEI, state and time with an export, and the batches themselves in
// the shared task list and progress view.
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { BatchResults } from '../custself/BatchResults.tsx';
import { TaskList } from './TaskList.tsx';

export default function MultipleCmdSearchPage() {
  const { t } = useTranslation('custself');
  return (
    <div style={{ padding: 16 }}>
      <Tabs
        items={[
          { key: 'results', label: t('batch.results'), children: <BatchResults /> },
          { key: 'batches', label: t('batch.batches'), children: <TaskList area="main" kind="command" /> },
        ]}
      />
    </div>
  );
}
