// /index/device/multipleCmdSearch: the caller's batch commands (tasks made by device/multipleCmd) with their
// per-device states, in the shared task list and progress view.
import { TaskList } from './TaskList.tsx';

export default function MultipleCmdSearchPage() {
  return <TaskList area="main" kind="command" />;
}
